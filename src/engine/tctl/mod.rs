//! The TCTL fixpoint engine: every formula of FORMAT.md section 3, nested
//! and time-bounded, by backward fixpoints over maps `discrete state →
//! federation` (Henzinger, Nicollin, Sifakis, Yovine 1994, the KRONOS
//! algorithm), restricted to the discrete states a forward pass reaches.
//!
//! # Semantics
//!
//! A state is a discrete state and a valuation inside its invariant; a run
//! alternates delays (where time may pass: no urgent or committed location,
//! no urgent synchronisation enabled) and discrete steps, and every instant
//! of every delay is a point of the run. The property holds when the
//! initial states (clocks 0) are in `Sat(φ)`.
//! - `EF[b] ψ`: some run reaches a point of ψ at a time within b; `AG[b]`
//!   is its dual. Runs here are finite prefixes, as for the forward engine
//!   (a time-locked ψ-state still counts as reached).
//! - `E[φ U[b] ψ]`: some run reaches ψ within b with `φ or ψ` at every
//!   earlier point (Alur, Courcoubetis, Dill 1993).
//! - `EG[b] φ`, `AF[b] ψ` (its dual), `A[φ U[b] ψ]`: over time-divergent
//!   runs only; where none exists they are vacuous (`EG` false, `AF` and
//!   `A[U]` true).
//! - `φ -->[b] ψ` is `AG (φ imply AF[b] ψ)`.
//!
//! # Algorithm
//!
//! Two fixpoints, in [`fixpoint`]: `E[stay U goal]` is the least fixpoint
//! of `X = pre_t(goal ∪ (stay ∩ pre_d(X)), not stay)` (the safe timed
//! predecessor of the federation module, and the discrete predecessor of
//! [`pre`]); `EG` over divergent runs is the greatest fixpoint of
//! `X = φ ∩ E[φ U (X ∧ u >= 1)]|u=0` with a tick clock `u`. The rest are
//! complements and unions of these ([`sat`]). A bound `~ n` appends a
//! formula clock `z`, asks the unbounded question with `z ~ n` in the goal
//! (or `not z ~ n` relaxing an always), and keeps the states with `z = 0`.
//!
//! # Termination
//!
//! Let M be the largest constant of the model, the formula's clock atoms
//! and bounds, and 1. Every set the engine builds is a union of regions
//! for M (clocks with equal integer parts up to M and the same order of
//! fractional parts, finer with diagonal constraints): the invariants,
//! guards, atoms and bounds are, and intersection, complement, the reset
//! predecessor, the timed predecessors and the projection of a clock map
//! unions of regions to unions of regions, because regions are compatible
//! with every constraint compared against constants up to M and with
//! delays. No extrapolation is needed: backward operations never create
//! a constant larger than one already there. A discrete state has finitely
//! many such unions, so the work list of a least fixpoint (every step adds
//! a region) and the iterations of a greatest one (every iteration removes
//! one) end. The limits (`--max-states` counts work-list steps,
//! `--timeout`, `--max-memory`, Ctrl-C) end a check with `unknown`.
//!
//! The forward pass that finds the discrete states uses ExtraLU+ (exact
//! for which discrete states are reachable), or exact zones when the model
//! has diagonal constraints.

mod bdd;
mod blame;
mod cache;
mod evidence;
mod explicit;
mod fixpoint;
mod lasso;
mod pre;
mod ray;
mod sat;
mod sets;
mod space;

use std::time::Instant;

use crate::engine::{DataChoice, Options, Outcome, Stats, Verdict, Warning, same_zone, store_trace};
use crate::model::formula::EngineKind;
use crate::model::types::Property;
use crate::network::Network;
use crate::semantics::{Abstraction, ZoneGraph};

use explicit::Explicit;
use fixpoint::{Fixpoints, holds_at_zero};
use sat::{Evaluator, Stop};
use space::Failed;

pub use cache::Cache;

/// Checks `property` by backward fixpoints.
pub fn check(net: &Network, property: &Property, options: &Options) -> Outcome {
    if options.data == DataChoice::Bdd {
        return bdd::check(net, property, options);
    }
    let started = Instant::now();
    let engine = EngineKind::Tctl;
    let outcome = |verdict, stats: Stats, trace| {
        let stats = Stats { time_s: started.elapsed().as_secs_f64(), ..stats };
        Outcome { verdict, engine, stats: Some(stats), trace, warnings: Vec::new(), network: None }
    };
    let abstraction = if net.has_diagonals { Abstraction::None } else { Abstraction::Lu };
    let mut zg = ZoneGraph::new(net, abstraction);
    let analysis = match options.tctl.analysis(net, &mut zg, &options.limits) {
        Ok(a) => a,
        Err(Failed::Stopped(why, stats)) => return outcome(Verdict::Unknown(why), stats, None),
        Err(Failed::Error { run, node, error }) => {
            let text = error.describe(net);
            let stats = run.as_ref().map(|r| r.stats).unwrap_or_default();
            let trace = run.zip(node).and_then(|(r, n)| {
                let goal = crate::domain::federation::Federation::from_zone(r.store.zone(n));
                store_trace(&mut zg, &r.store, n, goal, None, Some(error), same_zone)
            });
            return outcome(Verdict::Error(text), stats, trace);
        }
    };
    let (space, forward) = (&analysis.space, analysis.forward);
    // One budget for both passes: the work list counts on from the
    // forward pass's expansions.
    let fix = Fixpoints::new(space, options.limits.watch(), forward.visited);
    let sets = Explicit { fix, zg: &mut zg, property, net };
    let mut eval = Evaluator::new(sets, analysis.divergent.get().cloned());
    let result = eval.sat(&property.formula);
    let stats = Stats { visited: eval.sets.fix.steps, ..forward };
    let sat = match result {
        Ok(s) => s,
        Err(Stop::Unknown(why)) => return outcome(Verdict::Unknown(why), stats, None),
        Err(Stop::Error(e)) => return outcome(Verdict::Error(e.describe(net)), stats, None),
    };
    let holds = space.initial.iter().all(|&d| holds_at_zero(&sat[d as usize], space.dim));
    let trace = evidence::trace(net, space, &mut eval, property, holds, &options.limits);
    let mut warnings: Vec<Warning> =
        evidence::time_lock(net, space, &mut eval, &property.formula, &options.limits).into_iter().collect();
    let lasso_missing = trace.as_ref().is_none_or(|t| t.loop_start.is_none());
    if lasso_missing && evidence::wants_lasso(&mut eval, &property.formula, holds) {
        // The verdict is exact either way; the user must know that its
        // evidence is missing rather than guess from its absence.
        warnings.push(Warning {
            message: "no lasso could be built for this verdict (the walk closed no loop within its passes); \
                      the verdict stands without it"
                .to_string(),
            trace: None,
            of_model: true,
        });
    }
    if let Some(d) = eval.divergent_computed() {
        let _ = analysis.divergent.set(d);
    }
    let mut o = outcome(if holds { Verdict::Satisfied } else { Verdict::Violated }, stats, trace);
    o.warnings.extend(warnings);
    o
}

/// A reachable state with no time-divergent run (outside `EG true`, however
/// its zone is split), with a path to it, when `property` quantifies over
/// divergent runs; `None` when there is none, or when the analysis met a
/// limit or a run-time error (the caller's verdict stands either way).
pub fn time_lock_warning(net: &Network, property: &Property, options: &Options) -> Option<Warning> {
    let abstraction = if net.has_diagonals { Abstraction::None } else { Abstraction::Lu };
    let mut zg = ZoneGraph::new(net, abstraction);
    let analysis = options.tctl.analysis(net, &mut zg, &options.limits).ok()?;
    let fix = Fixpoints::new(&analysis.space, options.limits.watch(), analysis.forward.visited);
    let sets = Explicit { fix, zg: &mut zg, property, net };
    let mut eval = Evaluator::new(sets, analysis.divergent.get().cloned());
    let warning = evidence::time_lock(net, &analysis.space, &mut eval, &property.formula, &options.limits);
    if let Some(d) = eval.divergent_computed() {
        let _ = analysis.divergent.set(d);
    }
    warning
}
