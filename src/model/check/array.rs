//! Arrays of any dimension: their shape (`size: N` or `size: [N, M]`), their
//! initial values (a flat row-major list, or nested lists of that shape) and
//! the flattening of `a[i][j]` into one index, `i·M + j`.
//!
//! Elements are stored row-major in consecutive slots, so the network only
//! ever sees one-dimensional arrays. The flattened index alone would let
//! `a[0][5]` of an `a[3][4]` read `a[1][1]`: each index of a multi-dimensional
//! array is therefore checked against its own dimension (`TExpr::InBounds`,
//! at load time when constant, else at run time).

use crate::model::check::expr::Scope;
use crate::model::check::{Checker, Sym, Ty};
use crate::model::typed::{TArray, TExpr};
use crate::syntax::ast::{BinOp, Expr, ExprKind};
use crate::syntax::yaml::{Node, NodeKind};

/// Most elements an array (all dimensions together) may have.
pub const MAX_SIZE: i64 = 1 << 20;

/// `e` as a name followed by indices: `a[i][j]` is `(a, [i, j])`.
pub fn indexed(e: &Expr) -> (&Expr, Vec<&Expr>) {
    let mut base = e;
    let mut indices = Vec::new();
    while let ExprKind::Index { base: b, index } = &base.kind {
        indices.push(index.as_ref());
        base = b;
    }
    indices.reverse();
    (base, indices)
}

/// How an array is written in messages: `a[3][4]` for `dims = [3, 4]`.
pub fn shape(name: &str, dims: &[usize]) -> String {
    let mut s = name.to_string();
    for d in dims {
        s.push_str(&format!("[{d}]"));
    }
    s
}

impl Checker<'_> {
    /// The dimensions of `size:`: one size, or a list of sizes.
    pub fn dims(&mut self, node: &Node, scope: &dyn Scope) -> Option<Vec<usize>> {
        let items: Vec<&Node> = match &node.kind {
            NodeKind::Seq(items) if !items.is_empty() => items.iter().collect(),
            NodeKind::Seq(_) => {
                self.r.error(node.pos, "bad-size", "`size` is a number or a list of numbers, `[N, M]`");
                return None;
            }
            _ => vec![node],
        };
        let mut dims = Vec::with_capacity(items.len());
        let mut total: i64 = 1;
        for n in items {
            let v = match self.type_size(n, scope) {
                Some(v) => v?,
                None => self.const_expr(n, scope, "a size")?,
            };
            total = total.saturating_mul(v.max(0));
            if !(1..=MAX_SIZE).contains(&v) || total > MAX_SIZE {
                self.r.error(n.pos, "bad-size", format!("a size must be between 1 and {MAX_SIZE} in all, not {v}"));
                return None;
            }
            dims.push(v as usize);
        }
        Some(dims)
    }

    /// A dimension given by a bounded type of `types:` (`size: [id_t, 2]`):
    /// one element per value, which must start at 0. `None` when `node` does
    /// not name a type.
    fn type_size(&mut self, node: &Node, scope: &dyn Scope) -> Option<Option<i64>> {
        let name = node.as_scalar()?.value.trim().to_string();
        let Some(Sym::Type { lo, hi, dims, is_bool }) = scope.lookup(&name) else { return None };
        Some(match (lo.as_const(), hi.as_const()) {
            (Some(0), Some(hi)) if dims.is_empty() && !is_bool => Some(hi + 1),
            _ => {
                self.r.error(
                    node.pos,
                    "bad-size",
                    format!("`{name}` sizes an array only as an integer type from 0 to a constant"),
                );
                None
            }
        })
    }

    /// The initial values of an array of shape `dims`, row-major: a flat list
    /// of every element, or lists nested as deep as the dimensions.
    pub fn init_items<'n>(&mut self, name: &str, list: &'n Node, dims: &[usize]) -> Option<Vec<&'n Node>> {
        let total: usize = dims.iter().product();
        let NodeKind::Seq(items) = &list.kind else { return None };
        if dims.len() > 1 && items.len() == total && items.iter().all(|n| n.as_scalar().is_some()) {
            return Some(items.iter().collect());
        }
        let mut out = Vec::with_capacity(total);
        self.nested(name, list, dims, 0, &mut out)?;
        Some(out)
    }

    /// The elements of the list `node` at dimension `depth` of `dims`, in order.
    fn nested<'n>(
        &mut self,
        name: &str,
        node: &'n Node,
        dims: &[usize],
        depth: usize,
        out: &mut Vec<&'n Node>,
    ) -> Option<()> {
        let Some(&len) = dims.get(depth) else {
            out.push(node);
            return Some(());
        };
        let items = match &node.kind {
            NodeKind::Seq(items) if items.len() == len => items,
            NodeKind::Seq(items) => {
                let msg = if depth == 0 {
                    let total: usize = dims.iter().product();
                    format!("`{name}` has {len} rows ({total} elements) but {} initial values", items.len())
                } else {
                    format!("dimension {} of `{name}` has {len} elements, not {}", depth + 1, items.len())
                };
                self.r.error(node.pos, "bad-init", msg);
                return None;
            }
            _ => {
                self.r.error(node.pos, "bad-init", format!("`{name}` needs a list of {len} initial values here"));
                return None;
            }
        };
        for item in items {
            self.nested(name, item, dims, depth + 1, out)?;
        }
        Some(())
    }

    /// The flattened index of `name[indices...]` into an array of shape
    /// `dims`; every index is checked against its dimension.
    pub fn flat_index(
        &mut self,
        node: &Node,
        name: &str,
        indices: &[&Expr],
        dims: &[usize],
        scope: &dyn Scope,
    ) -> Option<TExpr> {
        let pos = node.pos_in_text(indices.first().map_or(0, |e| e.span.start));
        if indices.len() != dims.len() {
            let want = shape(name, &vec![0; dims.len()]).replace("[0]", "[_]");
            let msg = if dims.len() == 1 {
                format!("`{name}` has one dimension: index it once, `{want}`")
            } else {
                format!("`{name}` has {} dimensions: give every index, `{want}`", dims.len())
            };
            self.r.error(pos, "array-dimensions", msg);
            return None;
        }
        let what = format!("`{name}`");
        let mut flat: Option<TExpr> = None;
        for (i, &len) in indices.iter().zip(dims) {
            let ix = self.index(node, i, scope, len, &what)?;
            let ix = match (ix.as_const(), dims.len()) {
                (_, 1) | (Some(_), _) => ix,
                (None, _) => TExpr::InBounds(Box::new(ix), len),
            };
            flat = Some(match flat {
                None => ix,
                Some(outer) => add(mul(outer, len as i64), ix),
            });
        }
        flat
    }

    /// The type of `base[indices...]` when `base` is an array.
    pub fn element(&mut self, node: &Node, name: &str, array: Ty, indices: &[&Expr], scope: &dyn Scope) -> Ty {
        let Ty::Array { var, is_bool, len, dims } = array else { return Ty::Bad };
        match self.flat_index(node, name, indices, &dims, scope) {
            Some(ix) => {
                let t = match var {
                    TArray::Var(v) => TExpr::Index(v, len, Box::new(ix)),
                    frame => TExpr::Elem(frame, len, Box::new(ix)),
                };
                if is_bool { Ty::Bool(t) } else { Ty::Int(t) }
            }
            None => Ty::Bad,
        }
    }
}

pub(super) fn mul(a: TExpr, k: i64) -> TExpr {
    match a.as_const().and_then(|v| v.checked_mul(k)) {
        Some(v) => TExpr::Const(v),
        None => TExpr::Binary(BinOp::Mul, Box::new(a), Box::new(TExpr::Const(k))),
    }
}

pub(super) fn add(a: TExpr, b: TExpr) -> TExpr {
    match (a.as_const(), b.as_const()) {
        (Some(x), Some(y)) if x.checked_add(y).is_some() => TExpr::Const(x + y),
        _ => TExpr::Binary(BinOp::Add, Box::new(a), Box::new(b)),
    }
}
