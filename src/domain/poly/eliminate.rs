//! Existential elimination (projection) by Fourier–Motzkin, with the
//! canonical form removing redundant constraints after each variable.
//!
//! Eliminating `x_v` from a system: an equality with a non-zero `x_v`
//! coefficient is solved for `x_v` and substituted everywhere (exact, no
//! growth). Otherwise every pair of a constraint with positive coefficient
//! and one with negative coefficient is combined with positive multipliers
//! cancelling `x_v`; the combination is strict iff one of the pair is. This
//! is exact for mixed strict and non-strict systems: a value of `x_v`
//! exists iff every lower bound lies below every upper bound, strictly when
//! either bound is strict.

use num_traits::{Signed, Zero};

use super::constraint::{Constraint, Rel};
use super::polyhedron::Poly;

impl Poly {
    /// `{x | ∃ values of vars: x with them in self}`: the same dimension,
    /// with `vars` left unconstrained.
    pub fn eliminate(&self, vars: &[usize]) -> Poly {
        let mut p = self.clone();
        for &v in vars {
            if p.is_empty() {
                break;
            }
            p = Poly::new(p.dim(), eliminate_one(p.constraints(), v));
        }
        p
    }
}

fn eliminate_one(cons: &[Constraint], v: usize) -> Vec<Constraint> {
    if let Some(e) = cons.iter().find(|c| c.rel == Rel::Eq && !c.coeffs[v].is_zero()) {
        let x = e.solve_for(v);
        return cons.iter().filter(|c| !std::ptr::eq(*c, e)).map(|c| c.substitute(v, &x)).collect();
    }
    let (zero, rest): (Vec<&Constraint>, Vec<&Constraint>) = cons.iter().partition(|c| c.coeffs[v].is_zero());
    let (pos, neg): (Vec<&Constraint>, Vec<&Constraint>) = rest.into_iter().partition(|c| c.coeffs[v].is_positive());
    let mut out: Vec<Constraint> = zero.into_iter().cloned().collect();
    for p in &pos {
        for n in &neg {
            let (fp, fn_) = (-&n.coeffs[v], p.coeffs[v].clone());
            let coeffs = p.coeffs.iter().zip(&n.coeffs).map(|(a, b)| a * &fp + b * &fn_).collect();
            let rel = if p.rel == Rel::Lt || n.rel == Rel::Lt { Rel::Lt } else { Rel::Le };
            out.push(Constraint::new(coeffs, rel, &p.rhs * &fp + &n.rhs * &fn_));
        }
    }
    out
}
