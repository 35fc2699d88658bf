//! The TCTL fixpoint engine with data as BDDs (`--data bdd`, issue 16):
//! the operators of [`super::sat`] on sets that are, per control (location
//! vector, values of the explicit slots), lists of (data BDD, federation)
//! pairs ([`pairs`]), over the controls and data a forward search with BDD
//! data reached ([`space`]). The design: `docs/design/tctl-bdd-data.md`.
//!
//! The property holds when every initial valuation, clocks 0, is in its
//! set. Not built yet: evidence (traces), and the path to a time-locked
//! state in the time-lock warning, which the explicit engine gives; a
//! run-time error on some reachable valuation is reported by the explicit
//! engine with its trace, as the reach search with BDD data does.

mod pairs;
mod sets;
mod space;

use std::time::Instant;

use crate::engine::symdata::{self, auto::REFUSAL};
use crate::engine::{DataChoice, Options, Outcome, Stats, Verdict};
use crate::model::formula::EngineKind;
use crate::model::types::Property;
use crate::network::Network;
use crate::semantics::{Abstraction, ZoneGraph};

use super::evidence::{over_divergent_runs, time_lock_warning};
use super::sat::{Evaluator, Stop};
use super::sets::Sets;
use sets::Bdds;
use space::{Failed, Space};

/// Checks `property` by backward fixpoints with BDD data.
pub fn check(net: &Network, property: &Property, options: &Options) -> Outcome {
    let started = Instant::now();
    let engine = EngineKind::Tctl;
    let refuse = |why: String| Outcome::unsupported(engine, format!("{REFUSAL}: {why}"));
    let explicit = || {
        let mut o = super::check(net, property, &Options { data: DataChoice::Explicit, ..options.clone() });
        if let Some(s) = o.stats.as_mut() {
            s.data = Some(DataChoice::Explicit);
        }
        o
    };
    let mut reached = match symdata::reachable_data(net, options) {
        Ok(Some(r)) => r,
        Ok(None) => return explicit(),
        Err(o) => return Outcome { engine, ..*o },
    };
    let abstraction = if net.has_diagonals { Abstraction::None } else { Abstraction::Lu };
    let mut zg = ZoneGraph::new(net, abstraction);
    let space = match Space::build(net, &mut zg, &mut reached) {
        Ok(s) => s,
        Err(Failed::Error) => return explicit(),
        Err(Failed::Refused(why)) => return refuse(why),
    };
    let forward = reached.stats;
    let (m, enc) = (&mut reached.m, &reached.enc);
    let sets = Bdds::new(m, enc, &space, &mut zg, net, property, options.limits.watch(), forward.visited);
    let mut eval = Evaluator::new(sets, None);
    let result = eval.sat(&property.formula);
    let stats = Stats {
        visited: eval.sets.steps,
        stored: space.controls.len() as u64,
        time_s: started.elapsed().as_secs_f64(),
        ..forward
    };
    let verdict = match result {
        Ok(sat) => {
            if eval.sets.holds_initially(&sat) {
                Verdict::Satisfied
            } else {
                Verdict::Violated
            }
        }
        Err(_) if eval.sets.met_error => return explicit(),
        Err(_) if eval.sets.refused.is_some() => return refuse(eval.sets.refused.take().unwrap_or_default()),
        Err(Stop::Unknown(why)) => Verdict::Unknown(why),
        Err(Stop::Error(e)) => Verdict::Error(e.describe(net)),
    };
    // The explicit engine's time-lock warning, without its path (not built yet).
    let mut warnings = Vec::new();
    if matches!(verdict, Verdict::Satisfied | Verdict::Violated)
        && over_divergent_runs(&property.formula)
        && let Ok(Some(_)) = eval.reachable_time_locks()
    {
        warnings.push(time_lock_warning(None));
    }
    Outcome { verdict, engine, stats: Some(stats), trace: None, warnings, network: None }
}
