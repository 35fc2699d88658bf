//! The grid of a sweep: per parameter its values from `p=lo..hi[:step]`
//! (rationals allowed), and every combination of them.

use crate::cli::params;
use crate::domain::poly::Q;
use crate::model::types::Model;

/// Most grid points one sweep checks.
const MAX_POINTS: usize = 1 << 20;

/// Per parameter in declaration order, its values. `Err`: why not.
pub(super) fn axes(model: &Model, given: &[String]) -> Result<Vec<Vec<Q>>, String> {
    let mut out: Vec<Option<Vec<Q>>> = vec![None; model.params.len()];
    for text in given {
        let (name, range) = text.split_once('=').ok_or(format!("`{text}`: expected `name=lo..hi[:step]`"))?;
        let k = model
            .params
            .iter()
            .position(|p| p.name == name.trim())
            .ok_or(format!("`{text}`: no parameter `{}`", name.trim()))?;
        let values = values(range).map_err(|e| format!("`{text}`: {e}"))?;
        if out[k].replace(values).is_some() {
            return Err(format!("`{}` is given twice", name.trim()));
        }
    }
    if let Some(k) = out.iter().position(Option::is_none) {
        return Err(format!("`{}` has no values (`--param {}=lo..hi`)", model.params[k].name, model.params[k].name));
    }
    let out: Vec<Vec<Q>> = out.into_iter().flatten().collect();
    if out.iter().try_fold(1usize, |n, v| n.checked_mul(v.len())).is_none_or(|n| n > MAX_POINTS) {
        return Err(format!("more than {MAX_POINTS} grid points"));
    }
    Ok(out)
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

/// Every combination, the last parameter varying fastest.
pub(super) fn product(axes: &[Vec<Q>]) -> Vec<Vec<Q>> {
    axes.iter().fold(vec![Vec::new()], |acc, axis| {
        acc.iter().flat_map(|p| axis.iter().map(move |v| [p.clone(), vec![v.clone()]].concat())).collect()
    })
}

/// `p=v` texts for a point, as `--param` takes them.
pub(super) fn texts(names: &[String], point: &[Q]) -> Vec<String> {
    names.iter().zip(point).map(|(n, v)| format!("{n}={v}")).collect()
}
