//! `--svg FILE`: the sweep as a map of two parameters, and with
//! `--with-synth` the synthesised set sliced to the plotted plane.
//!
//! The plotted parameters are the ones with several values (at most two);
//! the others are fixed at their one value `v`, so a member's constraint
//! `Σ cₖ·pₖ ⋈ r` becomes `c_x·x + c_y·y ⋈ r − Σ_{k fixed} cₖ·vₖ`, exactly.

use super::table::Table;
use crate::domain::poly::{Constraint, Q};
use crate::engine::synth::ParamSet;
use crate::report::svg::param_map::{Axis, ParamMap, Region, param_map};

/// The map of `table`, with `set` (its text, whether exact) drawn over the
/// cells. `Err`: why no map of two parameters can be drawn.
pub(super) fn draw(table: &Table, set: Option<(&ParamSet, bool)>) -> Result<String, String> {
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
    let region = set.map(|(s, exact)| Region {
        text: format!("{}{slice_note}", s.text(&table.names)),
        exact,
        members: s.members.iter().filter_map(|m| slice(m.constraints(), ix, iy, &fixed)).collect(),
    });
    let map = ParamMap {
        caption: format!("{}: {}", table.model, table.formula),
        x: Axis { name: table.names[ix].clone(), values: axes[ix].clone() },
        y: Axis { name: table.names[iy].clone(), values: axes[iy].clone() },
        verdicts,
        region,
    };
    Ok(param_map(&map))
}

/// A member's constraints over (x, y) at the fixed values; `None` when a
/// constraint left without x and y is false there (the slice is empty).
fn slice(member: &[Constraint], ix: usize, iy: usize, fixed: &[(usize, Q)]) -> Option<Vec<Constraint>> {
    let mut out = Vec::new();
    for c in member {
        let rhs = fixed.iter().fold(c.rhs.clone(), |r, (k, v)| r - &c.coeffs[*k] * v);
        let plane = Constraint::new(vec![c.coeffs[ix].clone(), c.coeffs[iy].clone()], c.rel, rhs);
        match plane.constant_truth() {
            Some(false) => return None,
            Some(true) => {}
            None => out.push(plane),
        }
    }
    Some(out)
}
