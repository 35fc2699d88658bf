//! `--svg FILE`: the sweep as a map of two parameters, and with
//! `--with-synth` the synthesised set sliced to the plotted plane.
//!
//! The plotted axes are the ones with several values (at most two); the
//! others are fixed at their one value `v`, so a member's constraint
//! `Σ cₖ·pₖ ⋈ r` becomes `c_x·x + c_y·y ⋈ r − Σ_{k fixed} cₖ·vₖ`, exactly.
//! An axis may be an integer constant, on which the set (over the timing
//! parameters) does not depend: its coefficient is 0.

use super::table::Table;
use crate::domain::poly::{Constraint, Q};
use crate::engine::synth::ParamSet;
use crate::report::svg::param_map::{Axis, ParamMap, Region, param_map};

/// A synthesised set to draw over the cells.
pub(super) struct Synthesised<'a> {
    pub set: &'a ParamSet,
    pub exact: bool,
    /// The set's parameters, in its coefficients' order; each names an axis.
    pub names: &'a [String],
}

/// The map of `table`, with `set` drawn over the cells. `Err`: why no map
/// of two axes can be drawn.
pub(super) fn draw(table: &Table, set: Option<Synthesised>) -> Result<String, String> {
    let axes = table.axes();
    let varying: Vec<usize> = (0..axes.len()).filter(|&k| axes[k].len() > 1).collect();
    if varying.len() > 2 {
        return Err(format!("a map shows two parameters, and {} vary", varying.len()));
    }
    // Fewer than two varying: the first fixed ones fill the axes.
    let mut plotted = varying.clone();
    plotted.extend((0..axes.len()).filter(|k| !varying.contains(k)).take(2 - varying.len()));
    plotted.sort_unstable();
    let [ix, iy] = plotted[..] else { return Err("a map needs a model with two parameters at least".into()) };
    let n = axes[iy].len();
    let mut verdicts = vec![vec![String::new(); n]; axes[ix].len()];
    for r in &table.rows {
        let i = axes[ix].binary_search(&r.values[ix]).expect("a grid value");
        let j = axes[iy].binary_search(&r.values[iy]).expect("a grid value");
        verdicts[i][j] = r.verdict.clone();
    }
    let fixed: Vec<(usize, Q)> =
        (0..axes.len()).filter(|k| *k != ix && *k != iy).map(|k| (k, axes[k][0].clone())).collect();
    let at: Vec<String> = fixed.iter().map(|(k, v)| format!("{} = {v}", table.names[*k])).collect();
    let slice_note = if at.is_empty() { String::new() } else { format!(" at {}", at.join(", ")) };
    let region = match set {
        Some(s) => {
            // Per axis, the coefficient index of the set's parameter there.
            let at: Vec<Option<usize>> = table.names.iter().map(|n| s.names.iter().position(|m| m == n)).collect();
            debug_assert!(s.names.iter().all(|p| table.names.contains(p)), "every timing parameter is an axis");
            Some(Region {
                text: format!("{}{slice_note}", s.set.text(s.names)),
                exact: s.exact,
                members: s.set.members.iter().filter_map(|m| slice(m.constraints(), &at, ix, iy, &fixed)).collect(),
            })
        }
        None => None,
    };
    let map = ParamMap {
        caption: format!("{}: {}", table.model, table.formula),
        x: Axis { name: table.names[ix].clone(), values: axes[ix].clone() },
        y: Axis { name: table.names[iy].clone(), values: axes[iy].clone() },
        verdicts,
        region,
    };
    Ok(param_map(&map))
}

/// A member's constraints over axes (x, y) at the fixed values (`at`: per
/// axis, its coefficient's index in the member, none for a constant);
/// `None` when a constraint left without x and y is false there (the slice
/// is empty).
fn slice(
    member: &[Constraint],
    at: &[Option<usize>],
    ix: usize,
    iy: usize,
    fixed: &[(usize, Q)],
) -> Option<Vec<Constraint>> {
    let mut out = Vec::new();
    for c in member {
        let coeff = |k: usize| at[k].map_or_else(|| Q::from_integer(0.into()), |j| c.coeffs[j].clone());
        let rhs = fixed.iter().fold(c.rhs.clone(), |r, (k, v)| r - coeff(*k) * v);
        let plane = Constraint::new(vec![coeff(ix), coeff(iy)], c.rel, rhs);
        match plane.constant_truth() {
            Some(false) => return None,
            Some(true) => {}
            None => out.push(plane),
        }
    }
    Some(out)
}
