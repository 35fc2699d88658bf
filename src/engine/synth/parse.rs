//! A parameter constraint as users write it (`expect:` of a `synth:`
//! entry): `and`/`or` of linear comparisons over the parameters with
//! rational constants, in kairos expression syntax (`b > a`,
//! `m > 13/2 and m <= 15`), read into a [`ParamSet`] over the box.

use num_traits::{One, Zero};

use super::set::ParamSet;
use crate::domain::poly::{Constraint, Poly, Q, Rel};
use crate::syntax::ast::{BinOp, Expr, ExprKind, UnOp};

/// The set `text` denotes within `bounds`, parameters named by `names`.
pub fn parse(text: &str, names: &[String], bounds: &Poly) -> Result<ParamSet, String> {
    let e = crate::syntax::parse::parse_expr(text).map_err(|e| e.message)?;
    let reader = Reader { names, dim: names.len() };
    let mut out = ParamSet::empty(bounds.clone());
    for p in reader.union(&e)? {
        out.add(&p);
    }
    out.simplify();
    Ok(out)
}

struct Reader<'a> {
    names: &'a [String],
    dim: usize,
}

/// `coeffs·p + constant`.
type Lin = (Vec<Q>, Q);

impl Reader<'_> {
    /// The members of the disjunctive normal form of `e`.
    fn union(&self, e: &Expr) -> Result<Vec<Poly>, String> {
        let cmp = |rel: Rel, l: &Expr, r: &Expr, flip: bool| -> Result<Poly, String> {
            let (a, b) = if flip { (r, l) } else { (l, r) };
            let ((ca, ka), (cb, kb)) = (self.lin(a)?, self.lin(b)?);
            // a ⋈ b as (a − b)·p ⋈ kb − ka.
            let coeffs = ca.iter().zip(&cb).map(|(x, y)| x - y).collect();
            Ok(Poly::new(self.dim, vec![Constraint::new(coeffs, rel, kb - ka)]))
        };
        match &e.kind {
            ExprKind::Bool(true) => Ok(vec![Poly::universe(self.dim)]),
            ExprKind::Bool(false) => Ok(Vec::new()),
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinOp::Or => Ok([self.union(lhs)?, self.union(rhs)?].concat()),
                BinOp::And => {
                    let (l, r) = (self.union(lhs)?, self.union(rhs)?);
                    Ok(l.iter().flat_map(|a| r.iter().map(move |b| a.intersect(b))).collect())
                }
                BinOp::Lt => Ok(vec![cmp(Rel::Lt, lhs, rhs, false)?]),
                BinOp::Le => Ok(vec![cmp(Rel::Le, lhs, rhs, false)?]),
                BinOp::Gt => Ok(vec![cmp(Rel::Lt, lhs, rhs, true)?]),
                BinOp::Ge => Ok(vec![cmp(Rel::Le, lhs, rhs, true)?]),
                BinOp::Eq => Ok(vec![cmp(Rel::Eq, lhs, rhs, false)?]),
                BinOp::Ne => Ok(vec![cmp(Rel::Lt, lhs, rhs, false)?, cmp(Rel::Lt, lhs, rhs, true)?]),
                _ => Err("expected a comparison, `and` or `or`".into()),
            },
            _ => Err("expected a comparison of linear terms over the parameters, `and` or `or`".into()),
        }
    }

    fn lin(&self, e: &Expr) -> Result<Lin, String> {
        let constant = |(c, k): Lin| if c.iter().all(Zero::is_zero) { Some(k) } else { None };
        match &e.kind {
            ExprKind::Int(v) => Ok((vec![Q::zero(); self.dim], Q::from_integer((*v).into()))),
            ExprKind::Name(n) => {
                let k = self.names.iter().position(|p| p == n).ok_or_else(|| format!("`{n}` is not a parameter"))?;
                let mut c = vec![Q::zero(); self.dim];
                c[k] = Q::one();
                Ok((c, Q::zero()))
            }
            ExprKind::Unary { op: UnOp::Neg, arg } => {
                let (c, k) = self.lin(arg)?;
                Ok((c.into_iter().map(|x| -x).collect(), -k))
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let (l, r) = (self.lin(lhs)?, self.lin(rhs)?);
                let scale = |(c, k): Lin, f: &Q| (c.iter().map(|x| x * f).collect(), k * f);
                match op {
                    BinOp::Add | BinOp::Sub => {
                        let sign = if *op == BinOp::Add { Q::one() } else { -Q::one() };
                        let r = scale(r, &sign);
                        Ok((l.0.iter().zip(&r.0).map(|(a, b)| a + b).collect(), l.1 + r.1))
                    }
                    BinOp::Mul => match (constant(l.clone()), constant(r.clone())) {
                        (Some(f), _) => Ok(scale(r, &f)),
                        (_, Some(f)) => Ok(scale(l, &f)),
                        _ => Err("a product of parameters is not linear".into()),
                    },
                    BinOp::Div => match constant(r) {
                        Some(f) if !f.is_zero() => Ok(scale(l, &(Q::one() / f))),
                        _ => Err("division by a non-zero constant only".into()),
                    },
                    _ => Err("expected a linear term".into()),
                }
            }
            _ => Err("expected a linear term over the parameters".into()),
        }
    }
}
