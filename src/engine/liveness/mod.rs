//! The liveness engine: `E[] φ`, `A<> φ` (= not `E[] not φ`) and `φ --> ψ`
//! (= `A[] (φ imply A<> ψ)`) over time-divergent runs (FORMAT.md section
//! 3), for state formulas without clock atoms or `deadlock`.
//!
//! **The question.** Each is one Büchi emptiness question on the zone
//! graph ([`product`]): is there a reachable state satisfying `enter` from
//! which some time-divergent run keeps `stay` forever? `E[] φ`: an initial
//! state, `enter = stay = φ` (asked per initial state: the property must
//! hold in each). `A<> ψ` fails iff that holds for `not ψ`. `φ --> ψ`
//! fails iff some reachable `φ and not ψ` state has a divergent run along
//! which `ψ` never holds: `enter = φ and not ψ`, `stay = not ψ`.
//!
//! **Why the answer is right.**
//! - Divergence is the Büchi condition "infinitely many ticks" on the
//!   network extended with the clock `z` (see [`product`]).
//! - The graph is the zone graph of the extended network under ExtraLU+
//!   with the per-location LU bounds and `L(z) = 1`, nodes identified
//!   when their discrete states are equal and their zones *aLU
//!   equivalent* (same aLU abstraction; [`nodes`] gives the argument that
//!   this is the aLU-abstract zone graph). For this graph, an accepting
//!   cycle reachable in it exists iff the timed automaton has a run with
//!   infinitely many accepting steps: every concrete run is covered by a
//!   path (abstraction only adds valuations), and every infinite path is
//!   instantiated by a concrete run because aLU classes are unions of
//!   classes of a time-abstract simulation that the zone graph respects
//!   (Tripakis 2009, "Checking timed Büchi automata emptiness on
//!   simulation graphs"; Herbreteau, Srivathsan, Walukiewicz 2012,
//!   "Efficient emptiness check for timed Büchi automata", Theorem 1, for
//!   ExtraLU+ and coarser abstractions, aLU included). Subsumption
//!   (keeping only maximal zones) is used only where it is sound for
//!   cycles: a node covered by a finished node that reaches no accepting
//!   SCC is not explored ([`cover`]); a cycle closed through any other
//!   covering zone need not exist concretely. The one exception is phase 0
//!   as the covering graph ([`Phase0::Covering`]), where no counterexample
//!   cycle lies and what its cycles say of time-locks is used one way only.
//! - Diagonal constraints break ExtraLU+ (Bouyer 2003): such models are
//!   refused unless `--abstraction none` asks for exact zones (then the
//!   graph may be infinite; the limits apply).
//! - The formulas have no clock atoms, so a symbolic state satisfies
//!   `enter` or `stay` as a whole, and the phases are exact.
//! - The search is Couvreur's SCC algorithm ([`scc`]): an SCC with a tick
//!   inside, or with edges that reset a clock and wait at least one time
//!   unit for it ([`progress`]), is an accepting cycle, and it is found
//!   while the search path still leads to it.
//!
//! **Time-locks.** When the whole graph was explored, a phase-0 state that
//! cannot reach an accepting SCC and that [`zeno`] shows has no divergent
//! run (on the graph without ticks, or the guessing pass's) is a time-lock,
//! Zeno-only states included: the operators are vacuous there. The first
//! such states on their paths (their parent is not time-locked) are
//! reported as warnings with a trace; a search that stopped at a
//! counterexample does not report them (the verdict does not depend on
//! them). When the search also shows every run with infinitely many
//! discrete steps divergent, and maybe no valuation stuck ([`Locks`]), the
//! engine layer can rule out time-locks inside zones without the fixpoint
//! engine (`engine::exact_time_locks`). A query entered at the initial
//! states (`E[]`, `A<>`) needs phase 0 for nothing else, so on timed
//! networks its search leaves phase 0 out ([`Phase0::Initial`]) and the
//! model's time-locks are looked for on their own, on the covering graph
//! first ([`model_time_locks`]).
//!
//! **Cost.** The tick clock multiplies the zones (the strongly non-Zeno
//! construction is exponential in the worst case), so the first pass goes
//! without it ([`product`]), and [`zeno`] decides, in polynomial time on
//! that pass's graph, every node whose divergence the labels left open
//! that it can: blocking clocks (Herbreteau, Srivathsan, Walukiewicz)
//! show most Zeno cycles and time-locks. Only nodes left undecided send the
//! search to the guessing pass (the same authors' guessing zone graph, at
//! most `|X| + 1` times the zones), in phase 1 or everywhere, which decides
//! them all; the tick clock is left only to find the lasso of a
//! counterexample that pass proved, on the fly in phase 1.

mod cover;
pub(crate) mod lasso;
mod nodes;
mod per_process;
pub(crate) mod periodic;
mod product;
pub(crate) mod progress;
pub(crate) mod scc;
mod time_locks;
pub(crate) mod zeno;

pub use product::{Phase0, Query, always, augment, tick_exact};
pub use time_locks::{Cache, model_time_locks, never};
use time_locks::{time_lock_search, unanswered};

use std::time::Instant;

use crate::domain::ClockSet;
use crate::domain::poly::Poly;
use crate::domain::zone::Dbm;
use crate::engine::limits::Limits;
use crate::engine::{AbstractionChoice, Domain, Options, Outcome, Stats, SymbolicTrace, Unknown, Verdict, Warning};
use crate::model::formula::EngineKind;
use crate::model::formula::Formula;
use crate::model::types::Property;
use crate::network::{Network, StateFormula};
use crate::semantics::{Abstraction, ZoneGraph};
use crate::syntax::ast::PathOp;
use product::{Product, Start, Stop, Ticks};
use scc::Search;

/// Most time-lock warnings given per property (the count says how many
/// time-locked states there are in all).
const MAX_TIME_LOCK_WARNINGS: usize = 5;

/// How a search ended.
pub enum End {
    /// A reachable `enter` state with a divergent `stay` run: the lasso.
    Found(SymbolicTrace),
    /// None exists.
    Exhausted,
    Stopped(Unknown),
    /// A run-time error, with the path to the state being expanded.
    Error(String, Option<SymbolicTrace>),
}

pub struct Run {
    pub end: End,
    pub stats: Stats,
    pub warnings: Vec<Warning>,
    /// What the search showed of time-locks inside zones.
    pub locks: Locks,
}

impl Locks {
    /// Both facts together (each pass adds what it showed).
    fn max_with(self, other: Locks) -> Locks {
        match (self, other) {
            (Locks::Excluded, _) | (_, Locks::Excluded) => Locks::Excluded,
            (Locks::Diverges, _) | (_, Locks::Diverges) => Locks::Diverges,
            _ => Locks::Unknown,
        }
    }
}

/// What a search showed of time-locks that no whole symbolic state shows
/// (some valuations of a zone time-locked, others not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Locks {
    /// Nothing.
    #[default]
    Unknown,
    /// The whole reachable graph was explored and every run in it with
    /// infinitely many discrete steps diverges ([`zeno::every_run_diverges`]):
    /// only a stuck valuation (deadlocked, time bounded) can be time-locked.
    Diverges,
    /// Moreover no reachable valuation is stuck ([`zeno::never_stuck`],
    /// on the explored nodes' zones): none is time-locked.
    Excluded,
}

/// Why a formula cannot go to this engine, if it cannot.
pub fn refusal(net: &Network, formulas: &[&StateFormula], abstraction: Abstraction) -> Option<String> {
    if formulas.iter().any(|f| f.mentions_deadlock()) {
        return Some("`deadlock` inside a liveness property is not supported yet".into());
    }
    if formulas.iter().any(|f| f.has_clock_atoms()) {
        return Some("clock constraints inside a liveness property are not supported yet".into());
    }
    if net.has_diagonals && abstraction != Abstraction::None {
        return Some(
            "ExtraLU+ is unsound with diagonal constraints (x - y ~ c); use `--abstraction none` (sound, but may not terminate)"
                .into(),
        );
    }
    None
}

/// Searches `net` (not yet augmented) for `query`; `only_initial` restricts
/// the start to one initial state, `phase0` says how much of the model's
/// graph phase 0 holds (all of it on a linear network, whose time-locks
/// are not looked for on their own). A linear network is searched on exact
/// polyhedra (its answers as [`periodic`] says), a timed one on zones or,
/// with `Domain::Poly`, on rate-1 polyhedra (the same graph).
pub fn search(
    net: &Network,
    query: &Query,
    abstraction: Abstraction,
    only_initial: Option<usize>,
    phase0: Phase0,
    limits: &Limits,
    domain: Domain,
) -> Run {
    if net.hybrid.is_some() {
        let start = Start { only_initial, phase0: Phase0::Whole };
        let to_zone = crate::engine::placeholder_zone;
        return search_in(net, query, Abstraction::None, start, limits, to_zone, periodic::confirm);
    }
    let start = Start { only_initial, phase0 };
    match domain {
        Domain::Poly => search_in(net, query, abstraction, start, limits, Poly::to_dbm, periodic::confirm),
        Domain::Auto | Domain::Zone => {
            let found = |_: &Product<'_, '_>, trace, _, _| End::Found(trace);
            search_in(net, query, abstraction, start, limits, crate::engine::same_zone, found)
        }
    }
}

/// [`search`] over sets `S`: `to_zone` as in [`Product`], `found` turns a
/// lasso (looping back to its node) into the answer.
fn search_in<S: ClockSet>(
    net: &Network,
    query: &Query,
    abstraction: Abstraction,
    start: Start,
    limits: &Limits,
    to_zone: fn(&S) -> Option<Dbm>,
    found: fn(&Product<'_, '_, S>, SymbolicTrace, u32, Ticks) -> End,
) -> Run {
    let started = Instant::now();
    let mut net = net.clone();
    let z = augment(&mut net);
    let mut total = Stats::default();
    let mut ticks = Ticks::Nowhere;
    let mut locks = Locks::Unknown;
    let mut guessing: Option<Network> = None;
    // A guessing pass proved a counterexample: the pass with ticks that
    // follows must find its lasso.
    let mut proved = false;
    loop {
        let graph = if ticks.guesses() { &*guessing.get_or_insert_with(|| product::guessing(&net, z)) } else { &net };
        let zg = ZoneGraph::<S>::with_sets(graph, abstraction);
        // `--max-states` bounds the whole search, not each pass.
        let pass = left(limits, &total);
        let mut p = Product::new(zg, to_zone, query, z, ticks, start, &pass);
        let result = scc::search(&mut p);
        add(&mut total, &p.stats);
        let end = match result {
            Ok(Search::Accepting { path, steps, scc, label }) => match lasso::lasso(&mut p, &path, &steps, &scc, label)
            {
                Ok((trace, u)) => found(&p, trace, u, ticks),
                Err(stop) => stopped(&p, stop),
            },
            Ok(Search::Exhausted { mut good, unaccepted_cycle }) => {
                debug_assert!(!proved, "the guessing pass proved a counterexample the pass with ticks does not find");
                match next_pass(&mut p, &mut good, unaccepted_cycle) {
                    Ok((Some(t), d)) => {
                        proved = p.ticks().guesses();
                        locks = locks.max_with(d);
                        ticks = t;
                        continue;
                    }
                    Ok((None, d)) => {
                        locks = locks.max_with(d);
                        let warnings = time_locks(&mut p, &good);
                        total.time_s = started.elapsed().as_secs_f64();
                        return Run { end: End::Exhausted, stats: total, warnings, locks };
                    }
                    Err(stop) => stopped(&p, stop),
                }
            }
            Err(stop) => stopped(&p, stop),
        };
        total.time_s = started.elapsed().as_secs_f64();
        return Run { end, stats: total, warnings: Vec::new(), locks: Locks::Unknown };
    }
}

/// After a pass that explored everything: the pass still needed, if any,
/// and what it showed of time-locks inside zones (known only from a pass
/// without ticks where no whole state is time-locked).
///
/// A pass without ticks is conclusive where [`zeno`] decides: a phase-0
/// node of the model still undecided needs the guessing graph everywhere
/// (to tell its time-locks), a phase-1 node still undecided needs it in
/// phase 1 (to tell a counterexample). The guessing pass decides every
/// node where it tracks `z` ([`zeno`]; `good` then marks those with a
/// divergent run, and elsewhere those that may have one); only
/// a counterexample it proved needs the pass with ticks in phase 1, for
/// its lasso. Without logged arcs (linear networks), any time-lock
/// candidate or any phase-1 cycle without a label sends to the passes
/// with ticks.
fn next_pass<S: ClockSet>(
    p: &mut Product<'_, '_, S>,
    good: &mut [bool],
    unaccepted_cycle: bool,
) -> Result<(Option<Ticks>, Locks), Stop> {
    if p.ticks().guesses() {
        let divergent = zeno::open_nodes(p, good)?.expect("a guessing pass logs its arcs");
        for (g, d) in good.iter_mut().zip(&divergent) {
            *g |= d;
        }
        let proved = (0..divergent.len()).any(|v| divergent[v] && p.nodes.phase(v as u32));
        return Ok((proved.then_some(Ticks::InPhase1), Locks::Unknown));
    }
    if p.ticks() != Ticks::Nowhere {
        return Ok((None, Locks::Unknown));
    }
    let locked = locked(p, good);
    let Some(open) = zeno::open_nodes(p, good)? else {
        let next =
            if locked.contains(&true) { Some(Ticks::Everywhere) } else { unaccepted_cycle.then_some(Ticks::InPhase1) };
        return Ok((next, Locks::Unknown));
    };
    let phase = |p: &Product<'_, '_, S>, v: usize| p.nodes.phase(v as u32);
    // The guessing pass reads blocking clocks off masks of clocks 1 to 64
    // (`progress::bit`); past them it could miss one, which its exact
    // reading cannot afford, so larger networks take the passes with ticks.
    let masked = progress::bit(p.z() - 1) != 0;
    let (everywhere, in_phase1) =
        if masked { (Ticks::GuessEverywhere, Ticks::GuessInPhase1) } else { (Ticks::Everywhere, Ticks::InPhase1) };
    if (0..open.len()).any(|v| open[v] && locked[v]) {
        return Ok((Some(everywhere), Locks::Unknown));
    }
    let locks = if locked.contains(&true) || !zeno::phase0_diverges(p)? {
        Locks::Unknown
    } else if zeno::never_stuck(p)? {
        Locks::Excluded
    } else {
        Locks::Diverges
    };
    if (0..open.len()).any(|v| open[v] && phase(p, v)) {
        return Ok((Some(in_phase1), locks));
    }
    Ok((None, locks))
}

/// What `limits` leave after the searches counted in `spent`
/// (`--max-states` bounds them together).
fn left(limits: &Limits, spent: &Stats) -> Limits {
    let mut left = limits.clone();
    left.max_states = limits.max_states.map(|m| m.saturating_sub(spent.visited));
    left
}

/// Adds the counts and time of `s` to `total`, and its memory: its own
/// measure when the search took one (with BDD data), else an estimate from
/// the explicit states it stored.
fn add(total: &mut Stats, s: &Stats) {
    total.time_s += s.time_s;
    total.visited += s.visited;
    total.stored += s.stored;
    total.transitions += s.transitions;
    let estimate = s.stored * (std::mem::size_of::<crate::semantics::ZoneState>() as u64 + 128);
    total.peak_bytes = total.peak_bytes.max(if s.peak_bytes > 0 { s.peak_bytes } else { estimate });
}

fn stopped<S: ClockSet>(p: &Product<'_, '_, S>, stop: Stop) -> End {
    match stop {
        Stop::Limit(u) => End::Stopped(u),
        Stop::Run { node, error } => {
            let text = error.describe(p.zg.net);
            let trace = node.map(|n| {
                let mut t = lasso::path_to(p, n);
                t.error = Some(error);
                t
            });
            End::Error(text, trace)
        }
    }
}

/// Per node: a phase-0 node that cannot reach an accepting SCC where
/// `locks` holds (a time-lock of the model once decided).
fn locked<S: ClockSet>(p: &mut Product<'_, '_, S>, good: &[bool]) -> Vec<bool> {
    (0..p.nodes.len())
        .map(|n| {
            if p.nodes.phase(n as u32) || good.get(n).copied().unwrap_or(false) {
                return false;
            }
            let locks = &p.query.locks;
            p.holds_at(locks, n as u32).unwrap_or(true)
        })
        .collect()
}

/// Warnings for the time-locked phase-0 states whose parent is not one,
/// the first of each discrete state.
fn time_locks<S: ClockSet>(p: &mut Product<'_, '_, S>, good: &[bool]) -> Vec<Warning> {
    let counts = locked(p, good);
    let p = &*p;
    let locked = |n: usize| counts[n];
    let total = (0..p.nodes.len()).filter(|&n| locked(n)).count();
    // One per discrete state: the zones of the tick clock `z` split one
    // time-locked model state into several product states, whose traces
    // would read the same.
    let mut seen = rustc_hash::FxHashSet::default();
    let frontier: Vec<usize> = (0..p.nodes.len())
        .filter(|&n| locked(n) && p.parent[n].as_ref().is_none_or(|(from, _)| !locked(*from as usize)))
        .filter(|&n| seen.insert(p.nodes.discrete(n as u32)))
        .collect();
    frontier
        .iter()
        .take(MAX_TIME_LOCK_WARNINGS)
        .map(|&n| Warning {
            message: format!(
                "time-lock: no time-divergent run from this state ({total} time-locked symbolic state{} in all, {} first reached)",
                if total == 1 { "" } else { "s" },
                frontier.len()
            ),
            trace: Some(lasso::path_to(p, n as u32)),
            of_model: false,
        })
        .collect()
}

/// The outcome of a search: `found` is the verdict when the searched-for
/// run exists, `exhausted` when it does not.
pub fn outcome(run: Run, engine: EngineKind, found: Verdict, exhausted: Verdict) -> Outcome {
    let (verdict, trace) = match run.end {
        End::Found(t) => (found, Some(t)),
        End::Exhausted => (exhausted, None),
        End::Stopped(u) => (Verdict::Unknown(u), None),
        End::Error(text, t) => (Verdict::Error(text), t),
    };
    Outcome { verdict, engine, stats: Some(run.stats), trace, warnings: run.warnings, network: None }
}

/// A liveness outcome, and what the search showed of time-locks inside
/// zones.
pub struct Checked {
    pub outcome: Outcome,
    pub locks: Locks,
}

/// Checks one liveness shape.
pub fn check(
    net: &Network,
    shape: Shape,
    abstraction: Abstraction,
    limits: &Limits,
    domain: Domain,
    cache: &Cache,
) -> Checked {
    let not = |f: &StateFormula| StateFormula::Not(Box::new(f.clone()));
    // A query entered at the initial states needs phase 0 only for the
    // model's time-locks, which the covering graph may show far cheaper
    // ([`model_time_locks`]); `-->` needs it for its `enter` states, which
    // the covering graph finds as well (with the model's time-locks, where
    // it shows them).
    // `whole`: the run explored all that every initial state reaches.
    let outcome = |mut run: Run, whole: bool, phase0: Phase0, found, exhausted| {
        let unanswered = unanswered(&run, whole, phase0);
        time_lock_search(net, abstraction, limits, domain, unanswered, cache, &mut run);
        let locks = run.locks;
        Checked { outcome: outcome(run, EngineKind::Live, found, exhausted), locks }
    };
    match shape {
        Shape::Eventually(psi) => {
            let q = Query { enter: not(&psi), stay: not(&psi), initial_only: true, locks: always() };
            let run = search(net, &q, abstraction, None, Phase0::Initial, limits, domain);
            outcome(run, true, Phase0::Initial, Verdict::Violated, Verdict::Satisfied)
        }
        Shape::LeadsTo(phi, psi) => {
            let enter = StateFormula::And(Box::new(phi), Box::new(not(&psi)));
            let q = Query { enter, stay: not(&psi), initial_only: false, locks: always() };
            outcome(
                search(net, &q, abstraction, None, Phase0::Covering, limits, domain),
                true,
                Phase0::Covering,
                Verdict::Violated,
                Verdict::Satisfied,
            )
        }
        Shape::Globally(phi) => {
            // Every initial state needs its own witness; `--max-states`
            // bounds the searches together, and the statistics add up.
            let q = Query { enter: phi.clone(), stay: phi, initial_only: true, locks: always() };
            let count = initial_count(net);
            let mut total = Stats::default();
            let mut last: Option<Run> = None;
            for k in 0..count {
                let mut run = search(net, &q, abstraction, Some(k), Phase0::Initial, &left(limits, &total), domain);
                add(&mut total, &run.stats);
                run.stats = total;
                // A search saw only what its own initial state reaches.
                if !matches!(run.end, End::Found(_)) {
                    return outcome(run, count == 1, Phase0::Initial, Verdict::Satisfied, Verdict::Violated);
                }
                last = Some(run);
            }
            let last = last.expect("at least one initial state");
            outcome(last, false, Phase0::Initial, Verdict::Satisfied, Verdict::Violated)
        }
    }
}

/// The liveness shapes, with their compiled state formulas.
#[derive(Clone)]
pub enum Shape {
    /// `E[] φ`.
    Globally(StateFormula),
    /// `A<> ψ`.
    Eventually(StateFormula),
    /// `φ --> ψ`.
    LeadsTo(StateFormula, StateFormula),
}

fn initial_count(net: &Network) -> usize {
    fn count<S: ClockSet>(net: &Network) -> usize {
        let mut out = Vec::new();
        ZoneGraph::<S>::with_sets(net, Abstraction::None).initial_exact(&mut out).map_or(1, |()| out.len().max(1))
    }
    if net.hybrid.is_some() { count::<Poly>(net) } else { count::<Dbm>(net) }
}

/// The liveness shape of a property FORMAT.md routes to this engine, its
/// state formulas compiled, or why they cannot go to it (with
/// `abstraction`).
pub fn shape(net: &Network, property: &Property, abstraction: Abstraction) -> Result<Shape, String> {
    let compile = |f: &Formula| net.state_formula(property, f).map_err(|d| d.message);
    let shape = match &property.formula {
        Formula::Path { op: PathOp::EG, arg, .. } => compile(arg).map(Shape::Globally),
        Formula::Path { op: PathOp::AF, arg, .. } => compile(arg).map(Shape::Eventually),
        Formula::LeadsTo { lhs, rhs, .. } => compile(lhs).and_then(|p| Ok(Shape::LeadsTo(p, compile(rhs)?))),
        Formula::Path { op: PathOp::AG, arg, .. } => match arg.as_ref() {
            Formula::Imply(p, q) => match q.as_ref() {
                Formula::Path { arg: q, .. } => compile(p).and_then(|p| Ok(Shape::LeadsTo(p, compile(q)?))),
                _ => unreachable!("routed to the liveness engine"),
            },
            _ => unreachable!("routed to the liveness engine"),
        },
        _ => unreachable!("routed to the liveness engine"),
    }?;
    let formulas: Vec<&StateFormula> = match &shape {
        Shape::Globally(f) | Shape::Eventually(f) => vec![f],
        Shape::LeadsTo(p, q) => vec![p, q],
    };
    match refusal(net, &formulas, abstraction) {
        Some(why) => Err(why),
        None => Ok(shape),
    }
}

/// The shapes FORMAT.md routes to the liveness engine.
pub fn check_property(net: &Network, property: &Property, options: &Options) -> Checked {
    let abstraction = abstraction(options);
    match shape(net, property, abstraction) {
        Ok(shape) => check(net, shape, abstraction, &options.limits, options.domain, &options.time_locks),
        Err(why) => Checked { outcome: Outcome::unsupported(EngineKind::Live, why), locks: Locks::Unknown },
    }
}

/// The abstraction of the liveness engine: ExtraLU+ with aLU-equivalent
/// zones identified, never subsumption (unsound for cycles; [`nodes`]), or
/// exact zones on request.
pub fn abstraction(options: &Options) -> Abstraction {
    match options.abstraction {
        Some(AbstractionChoice::None) => Abstraction::None,
        _ => Abstraction::Lu,
    }
}
