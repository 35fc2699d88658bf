//! The grid of a sweep: per axis its values from `p=lo..hi[:step]`, an axis
//! a timing parameter (rationals allowed) or an integer constant (integer
//! values and steps), and every combination of them.

use crate::cli::params;
use crate::domain::poly::Q;
use crate::model::types::Model;

/// Most grid points one sweep checks.
const MAX_POINTS: usize = 1 << 20;

/// The axes of a sweep: the constants given, in declaration order, then
/// every timing parameter, in declaration order; so the points of one
/// assignment of the constants are consecutive in [`product`]'s order.
pub(super) struct Axes {
    pub names: Vec<String>,
    /// How many of the first axes are constants.
    pub constants: usize,
    /// Per axis, its values.
    pub values: Vec<Vec<Q>>,
}

impl Axes {
    /// How many consecutive points of [`product`] share one assignment of
    /// the constants.
    pub fn per_assignment(&self) -> usize {
        self.values[self.constants..].iter().map(Vec::len).product()
    }
}

/// The axes `given` (`p=lo..hi[:step]` texts) make over `model`. `Err`: why
/// not.
pub(super) fn axes(model: &Model, given: &[String]) -> Result<Axes, String> {
    let mut constants: Vec<Option<Vec<Q>>> = vec![None; model.constants.len()];
    let mut timing: Vec<Option<Vec<Q>>> = vec![None; model.params.len()];
    for text in given {
        let (name, range) = text.split_once('=').ok_or(format!("`{text}`: expected `name=lo..hi[:step]`"))?;
        let name = name.trim();
        let values = values(range).map_err(|e| format!("`{text}`: {e}"))?;
        let slot = if let Some(k) = model.constants.get_index_of(name) {
            if !values.iter().all(Q::is_integer) {
                return Err(format!("`{text}`: `{name}` is an integer constant; its values and step must be integers"));
            }
            &mut constants[k]
        } else if let Some(k) = model.params.iter().position(|p| p.name == name) {
            &mut timing[k]
        } else {
            return Err(format!("`{text}`: no timing parameter or constant `{name}`"));
        };
        if slot.replace(values).is_some() {
            return Err(format!("`{name}` is given twice"));
        }
    }
    if let Some(k) = timing.iter().position(Option::is_none) {
        return Err(format!("`{}` has no values (`--param {}=lo..hi`)", model.params[k].name, model.params[k].name));
    }
    let mut names = Vec::new();
    let mut values = Vec::new();
    for (name, v) in model.constants.keys().zip(constants) {
        if let Some(v) = v {
            names.push(name.clone());
            values.push(v);
        }
    }
    let count = names.len();
    names.extend(model.params.iter().map(|p| p.name.clone()));
    values.extend(timing.into_iter().flatten());
    if values.iter().try_fold(1usize, |n, v| n.checked_mul(v.len())).is_none_or(|n| n > MAX_POINTS) {
        return Err(format!("more than {MAX_POINTS} grid points"));
    }
    Ok(Axes { names, constants: count, values })
}

/// `v`, or `lo..hi` (inclusive) by `step` (default 1), rationals allowed.
fn values(range: &str) -> Result<Vec<Q>, String> {
    let (range, step) = match range.split_once(':') {
        Some((r, s)) => (r, params::rational(s)?),
        None => (range, Q::from_integer(1.into())),
    };
    let Some((lo, hi)) = range.split_once("..") else { return Ok(vec![params::rational(range)?]) };
    let (lo, hi) = (params::rational(lo)?, params::rational(hi)?);
    if step <= Q::from_integer(0.into()) {
        return Err("the step must be positive".into());
    }
    if lo > hi {
        return Err("an empty range".into());
    }
    if (&hi - &lo) / &step > Q::from_integer((MAX_POINTS as i64).into()) {
        return Err(format!("more than {MAX_POINTS} values"));
    }
    let mut out = Vec::new();
    let mut v = lo;
    while v <= hi {
        out.push(v.clone());
        v += &step;
    }
    Ok(out)
}

/// Every combination, the last axis varying fastest.
pub(super) fn product(axes: &[Vec<Q>]) -> Vec<Vec<Q>> {
    axes.iter().fold(vec![Vec::new()], |acc, axis| {
        acc.iter().flat_map(|p| axis.iter().map(move |v| [p.clone(), vec![v.clone()]].concat())).collect()
    })
}

/// `p=v` texts for a point, as `--param` takes them.
pub(super) fn texts(names: &[String], point: &[Q]) -> Vec<String> {
    names.iter().zip(point).map(|(n, v)| format!("{n}={v}")).collect()
}
