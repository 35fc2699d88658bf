//! Control explicit, data symbolic: forward reachability over states
//! (location vector, set of data valuations as a BDD, zone).
//!
//! A state `(l, D, Z)` stands for every `(l, v, ν)` with `v ∈ D`, `ν ∈ Z`.
//! A clock bound that reads the data splits `D` into cells on which it is
//! constant (one symbolic state per cell), and so does an enabled
//! synchronisation on an urgent channel (time cannot pass where one is).
//! A broadcast's set of receivers depends on the data: the sender's set is
//! split by it ([`broadcast`]). The slots read in clock bounds, array and
//! channel indices are explicit ([`crate::bdd::split`]): every state's data
//! has one value of each (sets are split by them after every step, and the
//! passed list is keyed by them with the locations), so a channel index is
//! one number per state. Within one state, the
//! successor of `(l, D, Z)` by a step `t` within one cell is
//! `(l', post_t(D ∧ g_t), post_t(Z))`, and unions of data sets commute with
//! it, so states with the same `l` and `Z` are merged by union and a state
//! is covered by one with the same `l`, a larger data set and a larger zone.
//!
//! The zone is any [`ClockSet`]: a polyhedron where the explicit engine
//! uses one (linear networks, `--domain poly`), where a rate or a linear
//! assignment that reads the data splits the set by its value, as a clock
//! bound does.

pub mod auto;
mod broadcast;
mod deadlock;
pub(crate) mod edges;
pub mod live;
pub(crate) mod measure;
pub(crate) mod search;
mod support;
mod trace;
mod vector;

pub use support::supported;

use std::time::Instant;

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;

use crate::bdd::{Bdd, Encoding, FALSE, Manager};
use crate::domain::ClockSet;
use crate::domain::poly::Poly;
use crate::domain::zone::Dbm;
use crate::engine::{DataChoice, Domain, EngineKind, Options, Outcome, Verdict, placeholder_zone, same_zone};
use crate::network::{Network, StateFormula};
use search::End;

/// `E<> goal` (or, when `negated`, `A[] not goal`) with data as BDDs: on
/// zones, or on polyhedra where the explicit engine would use them (linear
/// networks, `--domain poly`).
pub fn check(net: &Network, goal: &StateFormula, negated: bool, options: &Options) -> Outcome {
    if net.hybrid.is_some() {
        return check_in::<Poly>(net, goal, negated, options, placeholder_zone);
    }
    match options.domain {
        Domain::Poly => check_in::<Poly>(net, goal, negated, options, Poly::to_dbm),
        Domain::Auto | Domain::Zone => check_in::<Dbm>(net, goal, negated, options, same_zone),
    }
}

/// [`check`] on sets of type `S`; `to_zone` gives a trace's zones.
fn check_in<S: ClockSet>(
    net: &Network,
    goal: &StateFormula,
    negated: bool,
    options: &Options,
    to_zone: fn(&S) -> Option<Dbm>,
) -> Outcome {
    let started = Instant::now();
    let unsupported = |why: String| Outcome::unsupported(EngineKind::Reach, format!("{}: {why}", auto::REFUSAL));
    if let Err(why) = supported(net) {
        return unsupported(why);
    }
    let mut run = match search::explore::<S>(net, goal, options) {
        Ok(run) => run,
        Err(why) => return unsupported(why.0),
    };
    run.stats.time_s = started.elapsed().as_secs_f64();
    let (verdict, trace) = match run.end {
        End::Found(node) => {
            let trace = trace::witness(net, &mut run, node, goal, to_zone);
            (if negated { Verdict::Violated } else { Verdict::Satisfied }, trace)
        }
        End::Exhausted => (if negated { Verdict::Satisfied } else { Verdict::Violated }, None),
        End::Stopped(why) => (Verdict::Unknown(why), None),
        // The explicit engine reports the error with its trace: the data
        // search only knows that some valuation reaches one. Its statistics
        // say that it answered (`data: explicit`).
        End::Error => {
            let explicit = Options { data: DataChoice::Explicit, ..options.clone() };
            let mut o = crate::engine::reach_check(net, goal.clone(), negated, &explicit);
            if let Some(s) = o.stats.as_mut() {
                s.data = Some(DataChoice::Explicit);
            }
            return o;
        }
    };
    let stats = Some(run.stats);
    Outcome { verdict, engine: EngineKind::Reach, stats, trace, warnings: Vec::new(), network: None }
}

/// A location vector and a zone.
pub type Located = (Box<[u32]>, Dbm);

/// The location vector and zone of every node of a whole forward search of
/// `net` with data as BDDs, each reached by some data (a node whose data a
/// larger zone took over keeps its smaller zone): for measures over the
/// reachable zones (`kairos bound`). `Err`: the outcome of a search that did
/// not finish (a refusal, a limit); `Ok(None)`: it met a run-time error,
/// which the explicit engine reports with its trace.
pub fn reachable_zones(net: &Network, options: &Options) -> Result<Option<Vec<Located>>, Box<Outcome>> {
    let run = whole_search(net, options)?;
    Ok(run.map(|run| run.nodes.into_iter().map(|n| (n.locs, n.zone)).collect()))
}

/// A control: a location vector and the values of the explicit slots.
pub type Control = (Box<[u32]>, Box<[i64]>);

/// The data each control is reached with, by a whole forward search with
/// data as BDDs, with the BDDs they live in.
pub struct Reached {
    pub m: Manager,
    pub enc: Encoding,
    /// The explicit slots ([`search::Run::explicit`]).
    pub explicit: Vec<usize>,
    /// The initial data, before the invariants.
    pub initial: Bdd,
    /// Per control, in the order found, the union of its nodes' data.
    pub controls: IndexMap<Control, Bdd, FxBuildHasher>,
    pub stats: crate::engine::Stats,
}

/// [`reachable_zones`]' search, its data gathered per control: every
/// reachable valuation of a control is in some node of it (covered data
/// moved to the covering node).
pub fn reachable_data(net: &Network, options: &Options) -> Result<Option<Reached>, Box<Outcome>> {
    let Some(mut run) = whole_search(net, options)? else { return Ok(None) };
    let mut controls: IndexMap<Control, Bdd, FxBuildHasher> = IndexMap::default();
    for n in &run.nodes {
        let at = controls.entry((n.locs.clone(), n.fixed.clone())).or_insert(FALSE);
        *at = run.m.or(*at, n.data);
    }
    let (m, enc, explicit, initial, stats) = (run.m, run.enc, run.explicit, run.initial, run.stats);
    Ok(Some(Reached { m, enc, explicit, initial, controls, stats }))
}

/// A whole forward search on zones (`A[] true`), or why there is none.
fn whole_search(net: &Network, options: &Options) -> Result<Option<search::Run<Dbm>>, Box<Outcome>> {
    let unsupported = |why: String| Outcome::unsupported(EngineKind::Reach, format!("{}: {why}", auto::REFUSAL));
    // `A[] true`: nothing is a target (an empty disjunction is `false`).
    let nothing = StateFormula::Pred(Vec::new());
    supported(net).and(support::timed(net)).map_err(|why| Box::new(unsupported(why)))?;
    let run = search::explore::<Dbm>(net, &nothing, options).map_err(|why| Box::new(unsupported(why.0)))?;
    match run.end {
        End::Exhausted => Ok(Some(run)),
        End::Stopped(why) => {
            let mut o = unsupported(String::new());
            o.verdict = Verdict::Unknown(why);
            Err(Box::new(o))
        }
        End::Error => Ok(None),
        End::Found(_) => unreachable!("nothing is searched for"),
    }
}
