//! Clock arrays: `clock job[taskid_t];` is one kairos clock per element,
//! `job_0`, `job_1`, ... (row-major, `m_1_2` for two dimensions, indexed
//! from 0 as kairos arrays are), and `job[e]` names one of them, so `e` must
//! be known when the model is translated: a constant, a template parameter
//! (the template is then printed once per instance, the parameter
//! substituted: see `template`), or a `forall` variable of a rate. An index
//! read from the data (`job[ctask]`) is not supported yet (exit 5): none of
//! the public models we know resets or compares a clock of an array chosen
//! by the data, except in a template they leave out of the system.

use std::rc::Rc;

use super::eval::NoValue;
use super::parse::{EK, Expr, R};
use super::print::{Printer, Range, Sym};

/// One dimension of a clock array: its size and first index.
pub(crate) type Dim = (i64, i64);

/// One dimension of an array (`[4]`, `[N]`, `[id_t]`) when UPPAAL knows it
/// at compile time: its size and first index; `None` when it reads what is
/// not a constant (a parameter kept as a kairos parameter).
pub(crate) fn known_dim(pr: &mut Printer, n: &Expr) -> R<Option<Dim>> {
    if let EK::Name(t) = &n.kind
        && let Some(Sym::Type(Range::Int(..), Some((lo, hi)), d)) = pr.lookup(t)
        && d.is_empty()
    {
        return Ok(Some((hi - lo + 1, lo)));
    }
    match pr.value(n) {
        Ok(v) => Ok(Some((v, 0))),
        Err(NoValue::Reported) => Err(()),
        Err(NoValue::Unknown(..)) => Ok(None),
    }
}

/// The dimensions of a clock array `dims`, each a constant or a bounded
/// type (`clock job[taskid_t]`).
pub(crate) fn dims(pr: &mut Printer, dims: &[Expr]) -> R<Vec<Dim>> {
    let mut out = Vec::with_capacity(dims.len());
    for n in dims {
        let Some(dim) = known_dim(pr, n)? else {
            pr.d.unsupported(n.at, n.end, "a clock array whose size is not a constant");
            return Err(());
        };
        if !(1..=4096).contains(&dim.0) {
            pr.d.unsupported(n.at, n.end, format!("a clock array dimension of {} clocks (1 to 4096)", dim.0));
            return Err(());
        }
        out.push(dim);
    }
    if out.iter().try_fold(1i64, |a, d| a.checked_mul(d.0)).is_none_or(|n| n > 4096) {
        let (at, end) = (dims[0].at, dims[dims.len() - 1].end);
        pr.d.unsupported(at, end, "a clock array of more than 4096 clocks");
        return Err(());
    }
    Ok(out)
}

/// The kairos names of the elements of the clock array `base`, row-major:
/// `job_0`, `job_1`, ...
pub(crate) fn names(base: &str, dims: &[Dim]) -> Vec<String> {
    element_names(base, dims, |k, _| format!("_{k}"))
}

/// The UPPAAL names of the same elements: `job[0]`, `job[1]`, ...
pub(crate) fn uppaal_names(base: &str, dims: &[Dim]) -> Vec<String> {
    element_names(base, dims, |k, low| format!("[{}]", low + k))
}

/// `base` followed by one `part(index from 0, first index)` per dimension.
fn element_names(base: &str, dims: &[Dim], part: impl Fn(i64, i64) -> String) -> Vec<String> {
    let mut out = vec![base.to_string()];
    for &(size, low) in dims {
        out = out.iter().flat_map(|p| (0..size).map(|k| format!("{p}{}", part(k, low))).collect::<Vec<_>>()).collect();
    }
    out
}

impl Printer<'_, '_> {
    /// When `x` is an element of a clock array (`job[id]`), the kairos name
    /// of its clock.
    pub(super) fn clock_element(&mut self, x: &Expr) -> Option<R<String>> {
        let mut indices = Vec::new();
        let mut root = x;
        while let EK::Index(b, i) = &root.kind {
            indices.push(&**i);
            root = b;
        }
        let EK::Name(n) = &root.kind else { return None };
        let Some(Sym::Clocks { names, dims }) = self.lookup(n) else { return None };
        indices.reverse();
        Some(self.element(x, n, &names, &dims, &indices))
    }

    fn element(&mut self, x: &Expr, n: &str, names: &Rc<[String]>, dims: &[Dim], indices: &[&Expr]) -> R<String> {
        if indices.len() != dims.len() {
            let msg =
                format!("in {}: `{n}` has {} dimension(s), {} index(es) given", self.what, dims.len(), indices.len());
            self.d.error(x.at, x.end, "array-dimensions", msg);
            return Err(());
        }
        let mut flat = 0i64;
        for (i, &(size, low)) in indices.iter().zip(dims) {
            let v = match self.value(i) {
                Ok(v) => v,
                Err(NoValue::Reported) => return Err(()),
                Err(NoValue::Unknown(at, end)) => {
                    let msg = format!(
                        "an element of the clock array `{n}` chosen by the data (in {}); the index must be a \
                         constant, a template parameter or a `forall` variable",
                        self.what
                    );
                    self.d.unsupported(at, end, msg);
                    return Err(());
                }
            };
            if !(low..low + size).contains(&v) {
                let msg =
                    format!("in {}: index {v} is out of the bounds of `{n}` ({low} to {})", self.what, low + size - 1);
                self.d.error(i.at, i.end, "index-out-of-bounds", msg);
                return Err(());
            }
            flat = flat * size + (v - low);
        }
        Ok(names[flat as usize].clone())
    }
}

/// Whether template texts index a clock array of `is_clock_array` with the
/// name `param` somewhere in the index (then the parameter is substituted,
/// so that the index is known).
pub(crate) fn indexes_clock_array(e: &Expr, param: &str, is_clock_array: &dyn Fn(&str) -> bool) -> bool {
    let any = |e: &Expr| indexes_clock_array(e, param, is_clock_array);
    match &e.kind {
        EK::Index(b, i) => {
            let mut root = &**b;
            while let EK::Index(r, _) = &root.kind {
                root = r;
            }
            let of_clocks = matches!(&root.kind, EK::Name(n) if is_clock_array(n));
            (of_clocks && mentions(i, param)) || any(b) || any(i)
        }
        EK::Int(_) | EK::Bool(_) | EK::Name(_) | EK::Deadlock => false,
        EK::Bin(_, a, b) => any(a) || any(b),
        EK::Dot(a, _) | EK::Neg(a) | EK::Not(a) | EK::BitNot(a) | EK::Rate(a) | EK::Step { target: a, .. } => any(a),
        EK::Call(_, args) => args.iter().any(any),
        EK::Method(a, _, args) => any(a) || args.iter().any(any),
        EK::Cond(a, b, c) => any(a) || any(b) || any(c),
        EK::Quant(_, _, _, b) => any(b),
    }
}

/// Whether `e` reads the name `n`.
fn mentions(e: &Expr, n: &str) -> bool {
    let m = |e: &Expr| mentions(e, n);
    match &e.kind {
        EK::Name(x) => x == n,
        EK::Int(_) | EK::Bool(_) | EK::Deadlock => false,
        EK::Index(a, b) | EK::Bin(_, a, b) => m(a) || m(b),
        EK::Dot(a, _) | EK::Neg(a) | EK::Not(a) | EK::BitNot(a) | EK::Rate(a) | EK::Step { target: a, .. } => m(a),
        EK::Call(_, args) => args.iter().any(m),
        EK::Method(a, _, args) => m(a) || args.iter().any(m),
        EK::Cond(a, b, c) => m(a) || m(b) || m(c),
        EK::Quant(_, _, _, b) => m(b),
    }
}
