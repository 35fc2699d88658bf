//! The parameter map of a `synth:` entry in `kairos report`: the concrete
//! verdicts on a grid over the parameters' declared ranges, with the
//! synthesised set drawn over them, so the page shows the answer and the
//! independent checks that agree (or not) with it side by side.

use super::table::Table;
use super::{Point, check_points, map};
use crate::domain::poly::Q;
use crate::engine::{self, synth};
use crate::model::types::{Model, Property};
use crate::network::linear_ratio as ratio;

/// Most intervals per axis: a 13 × 13 grid keeps the report quick.
const STEPS: i64 = 12;

/// The map of `property` (synthesised as `set`), on `workers` threads.
/// `Err`: why none is drawn (fewer than two parameters, an unbounded one).
pub(in crate::cli) fn synth_map(
    model: &Model,
    property: &Property,
    set: &synth::ParamSet,
    exact: bool,
    options: &engine::Options,
    workers: usize,
) -> Result<String, String> {
    if model.params.len() < 2 {
        return Err("a map needs two parameters".into());
    }
    // The first two vary; the others are fixed at their range's middle.
    let mut axes = Vec::new();
    for (k, p) in model.params.iter().enumerate() {
        let (Some(lo), Some(hi)) = (&p.min, &p.max) else {
            return Err(format!("`{}` has no bounded range to draw", p.name));
        };
        let (lo, hi) = (ratio(*lo), ratio(*hi));
        axes.push(if k < 2 { grid(&lo, &hi) } else { vec![(&lo + &hi) / Q::from_integer(2.into())] });
    }
    // Each point is a concrete check of the formula, not a synthesis.
    let concrete = Property { synth: false, ..property.clone() };
    let points: Vec<Point> = super::grid::product(&axes)
        .into_iter()
        .map(|values| Point { model, property: &concrete, timing: values.clone(), values })
        .collect();
    let rows = check_points(&points, options, workers, true);
    let names = synth::names(model);
    let table =
        Table { model: model.name.clone(), formula: property.text.clone(), names: names.clone(), rows, synth: None };
    map::draw(&table, Some(map::Synthesised { set, exact, names: &names }))
}

/// `lo..hi` in at most [`STEPS`] equal steps, integer ones when the range
/// is integral and small.
fn grid(lo: &Q, hi: &Q) -> Vec<Q> {
    let width = hi - lo;
    let steps = if width.is_integer() && width <= Q::from_integer(STEPS.into()) {
        width.to_integer().try_into().unwrap_or(STEPS).max(1)
    } else {
        STEPS
    };
    let step = &width / Q::from_integer(steps.into());
    (0..=steps).map(|i| lo + &step * Q::from_integer(i.into())).collect()
}
