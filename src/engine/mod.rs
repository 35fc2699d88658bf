//! The engines, and what a check of one property ends with.
//!
//! `reach` answers `E<> φ` and `A[] φ` for state formulas φ (deadlock
//! included) on the zone graph; `liveness` answers `E[] φ`, `A<> φ` and
//! `φ --> ψ`; `observer` bounded response; `tctl` every formula (the
//! others by default, any with `--engine tctl`). A shape an engine forced
//! by `--engine` cannot take is answered `unknown` with reason
//! `unsupported`.

pub mod bound;
pub mod extremum;
pub mod graph;
pub mod initial;
mod layers;
pub mod limits;
pub mod liveness;
pub mod observer;
pub mod parallel;
pub mod reach;
pub mod simulate;
mod splitmix;
pub mod store;
pub mod symdata;
pub mod synth;
pub mod tctl;
mod waiting;

use std::time::Instant;

use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::domain::poly::Poly;
use crate::domain::zone::Dbm;
use crate::model::formula::{EngineKind, Formula};
use crate::model::types::{Model, Property};
use crate::network::{Network, StateFormula};
use crate::semantics::{Abstraction, RunError, ZoneGraph, ZoneState};
use crate::syntax::ast::PathOp;
use reach::{Cover, End, Limits, Order};

/// Why a check ended without a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unknown {
    StateLimit,
    MemoryLimit,
    Timeout,
    Interrupted,
    /// What is missing, in a sentence.
    Unsupported(String),
}

impl Unknown {
    /// The JSON `reason`.
    pub fn reason(&self) -> &'static str {
        match self {
            Unknown::StateLimit => "state-limit",
            Unknown::MemoryLimit => "memory-limit",
            Unknown::Timeout => "timeout",
            Unknown::Interrupted => "interrupted",
            Unknown::Unsupported(_) => "unsupported",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Satisfied,
    Violated,
    Unknown(Unknown),
    /// A run-time error in the model, described.
    Error(String),
    /// A `sup`/`inf` query's values: it neither holds nor fails.
    Measured(extremum::Measured),
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub visited: u64,
    pub stored: u64,
    pub transitions: u64,
    pub time_s: f64,
    /// Bytes the store held at its largest (an estimate, not RSS).
    pub peak_bytes: u64,
    /// Bytes the store holds at the end (the same estimate): over `stored`,
    /// the cost of a stored state.
    pub store_bytes: u64,
    /// Threads that explored (0 or 1: one; see `parallel`).
    pub jobs: u32,
    /// With several threads: mailbox locks found taken, and batches of
    /// states passed from one thread to another.
    pub contended: u64,
    pub batches: u64,
    /// With several threads: times a thread with nothing to do yielded or
    /// slept waiting for states from the others.
    pub waits: u64,
    /// With several threads: buckets of discrete states handed from a
    /// busier thread to another (`parallel::owners`); each may have some
    /// states stored by both.
    pub moved: u64,
    /// The process's peak resident memory when the check ended (0 where
    /// the platform does not say).
    pub peak_rss_bytes: u64,
    /// The data representation that answered where it was not simply the
    /// one asked for: `--data auto`'s choice, or the explicit engine taking
    /// over a `--data bdd` run at a run-time error (`None` otherwise).
    pub data: Option<DataChoice>,
}

/// The abstraction asked for on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbstractionChoice {
    None,
    Lu,
    Alu,
}

#[derive(Clone, Debug)]
pub struct Options {
    /// `None`: the coarsest sound for the model and the query.
    pub abstraction: Option<AbstractionChoice>,
    pub subsumption: bool,
    pub order: Order,
    pub limits: Limits,
    /// An engine forced instead of the one the formula routes to.
    pub engine: Option<EngineKind>,
    pub domain: Domain,
    /// How the reach engine represents the data (`--data`).
    pub data: DataChoice,
    /// Threads for the reach engine on zones (the others use one).
    pub jobs: usize,
    /// The fixpoint engine's analysis of the network, shared by the
    /// properties checked with these options.
    pub tctl: tctl::Cache,
    /// The model's time-locks as the liveness engine found them, shared
    /// likewise.
    pub time_locks: liveness::Cache,
}

/// The data representation of the reach engine (`symdata`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DataChoice {
    /// One data vector per state.
    #[default]
    Explicit,
    /// A BDD of data valuations per (locations, zone).
    Bdd,
    /// One of the two, chosen from the model ([`symdata::auto`]).
    Auto,
}

/// The continuous domain the reachability engine explores with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Domain {
    /// Zones for timed networks, polyhedra for linear ones.
    #[default]
    Auto,
    /// DBMs: the fast path for timed models.
    Zone,
    /// Exact rational polyhedra (`domain::poly`): every clock at rate 1 in
    /// a timed network, any rates in a linear one.
    Poly,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            abstraction: None,
            subsumption: true,
            order: Order::Bfs,
            limits: Limits::default(),
            engine: None,
            domain: Domain::Auto,
            data: DataChoice::Explicit,
            jobs: 1,
            tctl: tctl::Cache::default(),
            time_locks: liveness::Cache::default(),
        }
    }
}

/// A symbolic path: the explored nodes from an initial state to the end
/// state, with the valuations of the end state the verdict is about.
#[derive(Clone, Debug)]
pub struct SymbolicTrace {
    pub states: Vec<crate::semantics::ZoneState>,
    pub steps: Vec<crate::semantics::Transition>,
    pub goal: Federation,
    /// What the last valuation satisfies (an `E<>` goal, the negation of an
    /// `A[]` formula), checked again on the concrete run by the validator.
    pub target: Option<StateFormula>,
    /// The run-time error taken from the last state, if that is the story.
    pub error: Option<RunError>,
    /// The liveness engine's progress clock, when the path is on its
    /// extended network ([`liveness::augment`]): a step without edges is
    /// then a tick (`z >= 1`, `z := 0`).
    pub tick_clock: Option<u32>,
    /// A lasso: the loop is `steps[k..]`, opened by a tick at `steps[k]`
    /// and closed by the last step, the same tick.
    pub loop_start: Option<usize>,
    /// For a nested formula, the subformula whose value at the last state
    /// decides the verdict.
    pub blame: Option<Blame>,
    /// A run the engine already made concrete (the fixpoint engine's
    /// lassos, whose sets are not zones of the zone graph): it is only
    /// validated, not solved again.
    pub concrete: Option<Box<crate::trace::ConcreteTrace>>,
}

/// "At this point of the trace, `text` holds (or fails)", and what the
/// trace shows of it from there.
#[derive(Clone, Debug, PartialEq)]
pub struct Blame {
    pub text: String,
    pub holds: bool,
    /// The point: after `at.0` steps of the concrete run and `at.1` into
    /// the delay that follows; `None`: where the trace ends.
    pub at: Option<(usize, crate::trace::Rational)>,
    pub shown: Shown,
    /// Where the evidence of a nested path ends, the subformula that
    /// decides there.
    pub then: Option<Box<Blame>>,
}

/// What the trace shows of a [`Blame`]'s subformula from its point on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// A state formula (or one of several temporal formulas that all
    /// decide): the point itself.
    Point,
    /// The trace goes on with a run that shows it: a path (`EF`, `E[U]`
    /// holding, `AG` failing) or a lasso (`EG` holding, `AF`, `A[U]`
    /// failing).
    Path,
    Lasso,
    /// It is about every run from the point (`EF` failing, `AG`
    /// holding, ...): no trace shows it, the trace ends there.
    EveryRun,
    /// A run would show it, but none was built (a limit, or a lasso that
    /// closed no loop): the trace ends there.
    Missing,
}

/// Something the user should know beside the verdict (FORMAT.md section 7).
#[derive(Clone, Debug)]
pub struct Warning {
    pub message: String,
    pub trace: Option<SymbolicTrace>,
    /// The trace is a run of the model itself, even where the verdict's
    /// is one of an observer's product ([`Outcome::network`]).
    pub of_model: bool,
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    pub engine: EngineKind,
    pub stats: Option<Stats>,
    pub trace: Option<SymbolicTrace>,
    pub warnings: Vec<Warning>,
    /// The network the traces are paths of, when it is not the model's
    /// (an observer product).
    pub network: Option<Box<Network>>,
}

impl Outcome {
    fn unsupported(engine: EngineKind, why: String) -> Outcome {
        Outcome {
            verdict: Verdict::Unknown(Unknown::Unsupported(why)),
            engine,
            stats: None,
            trace: None,
            warnings: Vec::new(),
            network: None,
        }
    }
}

/// Checks one property. `network` is `None` for models no engine can take
/// yet (timing parameters without values).
pub fn check(model: &Model, network: Option<&Network>, property: &Property, options: &Options) -> Outcome {
    match network {
        Some(net) => symdata::auto::resolve(net, options, |o| check_with(model, network, property, o)),
        None => check_with(model, network, property, options),
    }
}

/// [`check`] with the data representation chosen.
fn check_with(model: &Model, network: Option<&Network>, property: &Property, options: &Options) -> Outcome {
    let engine = options.engine.unwrap_or_else(|| property.formula.engine());
    let unsupported = |why: String| Outcome::unsupported(engine, why);
    if property.synth {
        return unsupported("a `synth:` entry is answered by `kairos synth`, not `kairos check`".into());
    }
    let Some(net) = network else {
        return unsupported(
            "models with timing parameters are checked for given values (`--param p=v`); synthesis is not supported yet"
                .into(),
        );
    };
    if let Formula::Measure(m) = &property.formula {
        return extremum::check(net, property, m, options);
    }
    if net.hybrid.is_some() {
        let what = if model.hybrid { "hybrid models" } else { "models with fixed timing parameters" };
        if options.domain == Domain::Zone {
            return unsupported(format!("zones cannot represent {what}: use `--domain poly`"));
        }
        if engine == EngineKind::Tctl {
            return unsupported(format!(
                "{what} are checked by the reach, liveness and observer engines, not the fixpoint engine (`tctl`) yet"
            ));
        }
    } else if options.domain == Domain::Poly && engine == EngineKind::Tctl {
        return unsupported(
            "`--domain poly` runs the reach, liveness and observer engines, not the fixpoint engine (`tctl`) yet"
                .into(),
        );
    }
    if engine == EngineKind::Tctl {
        return tctl::check(net, property, options);
    }
    let o = check_forward(net, property, engine, options);
    // What the engine a formula routes to cannot take (clock atoms in
    // liveness or bounded response, shapes no forward engine has), the
    // fixpoint engine answers, unless the user forced the engine or the
    // polyhedra (it runs on zones), or an abstraction unsound for the
    // model's diagonal constraints.
    let diagonal_refusal =
        net.has_diagonals && matches!(options.abstraction, Some(AbstractionChoice::Lu | AbstractionChoice::Alu));
    // With `--data bdd` the fixpoint engine runs on BDD data too (never
    // the explicit data in silence).
    let free = options.engine.is_none() && options.domain != Domain::Poly && net.hybrid.is_none() && !diagonal_refusal;
    if free && matches!(o.verdict, Verdict::Unknown(Unknown::Unsupported(_))) {
        return tctl::check(net, property, options);
    }
    o
}

/// The engines that explore forward: reach, live, observer.
fn check_forward(net: &Network, property: &Property, engine: EngineKind, options: &Options) -> Outcome {
    let unsupported = |why: String| Outcome::unsupported(engine, why);
    if engine == EngineKind::Live && options.data == DataChoice::Bdd {
        let live = symdata::live::check_property(net, property, options);
        return exact_time_locks(net, property, options, live.outcome, live.locks);
    }
    if engine == EngineKind::Live {
        let live = liveness::check_property(net, property, options);
        return exact_time_locks(net, property, options, live.outcome, live.locks);
    }
    if engine == EngineKind::Observer
        && let Some(r) = observer::response(property)
    {
        let abstraction = liveness::abstraction(options);
        let mut o = observer::check(net, &r, abstraction, options);
        let locks = observer_time_locks(net, abstraction, options, &mut o);
        return exact_time_locks(net, property, options, o, locks);
    }
    let (negate, arg) = match &property.formula {
        Formula::Path { op: PathOp::EF, bound: None, arg } if arg.is_state() => (false, arg),
        Formula::Path { op: PathOp::AG, bound: None, arg } if arg.is_state() => (true, arg),
        _ => return unsupported(format!("the `{}` engine does not answer this formula", engine.name())),
    };
    let phi = match net.state_formula(property, arg) {
        Ok(f) => f,
        Err(d) => return unsupported(d.message),
    };
    let net = net.with_formula_bounds(&phi);
    let net = &*net;
    if !negate && let Some(valuations) = initial::valuations(net) {
        return initial::every_initial(net, &valuations, options, |one, opts| {
            reach_check(one, phi.clone(), false, opts)
        });
    }
    reach_check(net, if negate { StateFormula::Not(Box::new(phi)) } else { phi }, negate, options)
}

/// The model's time-locks beside an observer's verdict `o`: the product's
/// search shows the product's (the observer's invariant stops time where
/// the model does not), so the model's own zone graph is searched for
/// them ([`liveness::model_time_locks`]) within what `--max-states` has
/// left; its states count in `o`'s. Not with BDD data (an explicit search
/// of a BDD model is what `--data bdd` avoids) nor on linear networks: the
/// scan decides there, as it does after a limit.
fn observer_time_locks(net: &Network, abstraction: Abstraction, options: &Options, o: &mut Outcome) -> liveness::Locks {
    let definite = matches!(o.verdict, Verdict::Satisfied | Verdict::Violated);
    let Some(stats) = o.stats.as_mut() else { return liveness::Locks::Unknown };
    if !definite || !o.warnings.is_empty() || net.hybrid.is_some() || options.data == DataChoice::Bdd {
        return liveness::Locks::Unknown;
    }
    let (warnings, locks) =
        liveness::model_time_locks(net, abstraction, &options.limits, options.domain, &options.time_locks, stats);
    o.warnings = warnings.into_iter().map(|w| Warning { of_model: true, ..w }).collect();
    locks
}

/// The liveness and observer engines see a time-lock only where a whole
/// symbolic state has no divergent run; a zone where some valuations are
/// stuck below an invariant while others leave passes unseen. When they
/// report none, the fixpoint engine's `EG true` finds such states exactly
/// ([`tctl::time_lock_warning`]); a limit met there leaves the verdict's
/// warnings as they were.
///
/// That costs far more than the search, and is spared when the liveness
/// engine showed, on the whole reachable graph, that every run with
/// infinitely many discrete steps diverges, and that no reachable valuation
/// is stuck (time bounded, no step possible), by itself (on the nodes it
/// explored, `liveness::zeno::never_stuck`) or, where that test is not
/// conclusive, by the reach engine's `A[] not deadlock`: then from every reachable valuation either
/// time passes forever or a discrete step is possible after some delay, so
/// a maximal run from it diverges.
fn exact_time_locks(
    net: &Network,
    property: &Property,
    options: &Options,
    mut o: Outcome,
    locks: liveness::Locks,
) -> Outcome {
    let definite = matches!(o.verdict, Verdict::Satisfied | Verdict::Violated);
    let excluded = match locks {
        liveness::Locks::Excluded => true,
        liveness::Locks::Diverges => deadlock_free(net, options),
        liveness::Locks::Unknown => false,
    };
    if definite && o.warnings.is_empty() && net.hybrid.is_none() && !excluded {
        // On the model: in an observer's product, the observer's own
        // invariant stops time where the model does not.
        let warning = tctl::time_lock_warning(net, property, options);
        o.warnings.extend(warning.map(|w| Warning { of_model: true, ..w }));
    }
    o
}

/// Whether the reach engine proves that no reachable state is deadlocked.
fn deadlock_free(net: &Network, options: &Options) -> bool {
    matches!(reach_check(net, StateFormula::Deadlock, true, options).verdict, Verdict::Satisfied)
}

/// The whole zone graph of `net` explored, with the abstraction and
/// options reachability uses (FORMAT.md section 6: a model checked with no
/// property). `Satisfied` once every state was visited, the size in
/// `stats`; a limit or a run-time error ends it as it ends any check.
pub fn explore(net: &Network, options: &Options) -> Outcome {
    // `A[] true`: no state is a target (an empty disjunction is `false`).
    symdata::auto::resolve(net, options, |o| reach_check(net, StateFormula::Pred(Vec::new()), true, o))
}

/// The path of the forward search from an initial state to `node`, its
/// sets given to the trace layer as zones by `to_zone` (`None`: a set that
/// is not one, and no trace).
pub(crate) fn store_trace<S: ClockSet>(
    zg: &mut ZoneGraph<'_, S>,
    store: &store::Store<S>,
    node: u32,
    goal: Federation<S>,
    target: Option<StateFormula>,
    error: Option<RunError>,
    to_zone: fn(&S) -> Option<Dbm>,
) -> Option<SymbolicTrace> {
    let ids = store.path(node);
    let states = store
        .path_states(zg, node)
        .ok()?
        .into_iter()
        .map(|s| Some(ZoneState { discrete: s.discrete, zone: to_zone(&s.zone)? }));
    Some(SymbolicTrace {
        states: states.collect::<Option<_>>()?,
        steps: ids[1..].iter().map(|&i| store.parent(i).expect("a parent").1.clone()).collect(),
        goal: Federation { zones: goal.zones.iter().map(to_zone).collect::<Option<_>>()? },
        target,
        error,
        tick_clock: None,
        loop_start: None,
        blame: None,
        concrete: None,
    })
}

/// A placeholder: the sets of a linear network are not zones, so its
/// traces keep only their discrete states and steps, and `trace::linear`
/// recomputes the polyhedra along them.
pub(crate) fn placeholder_zone(_: &Poly) -> Option<Dbm> {
    Some(Dbm::universe(1))
}

/// The zone itself, for [`store_trace`] on zones.
pub(crate) fn same_zone(z: &Dbm) -> Option<Dbm> {
    Some(z.clone())
}

/// `E<> goal` (or, when `negated`, `A[] not goal`) by forward exploration.
pub(crate) fn reach_check(net: &Network, goal: StateFormula, negated: bool, options: &Options) -> Outcome {
    let engine = EngineKind::Reach;
    if options.data == DataChoice::Bdd {
        return symdata::check(net, &goal, negated, options);
    }
    if net.hybrid.is_some() {
        // No finite abstraction exists for linear hybrid automata: exact
        // polyhedra, plain inclusion, and the limits end what diverges.
        let cover = if options.subsumption { Cover::Inclusion } else { Cover::Equal };
        return explore_with::<Poly>(net, &goal, negated, options, Abstraction::None, cover, placeholder_zone);
    }
    let diagonal = net.has_diagonals || goal.has_diagonal();
    let (abstraction, cover) = match (options.abstraction, diagonal) {
        (Some(AbstractionChoice::Lu | AbstractionChoice::Alu), true) => {
            return Outcome::unsupported(
                engine,
                "ExtraLU+ and aLU are unsound with diagonal constraints (x - y ~ c); use `--abstraction none` (sound, but may not terminate)".into(),
            );
        }
        (Some(AbstractionChoice::None), _) | (None, true) => (Abstraction::None, Cover::Inclusion),
        (Some(AbstractionChoice::Lu), false) => (Abstraction::Lu, Cover::Inclusion),
        (Some(AbstractionChoice::Alu) | None, false) => (Abstraction::Lu, Cover::Alu),
    };
    // Deadlocks are not preserved by the LU simulation, only by bisimilar
    // classes: use L = U = max(L, U) for formulas that mention them.
    let abstraction =
        if goal.mentions_deadlock() && abstraction == Abstraction::Lu { Abstraction::M } else { abstraction };
    let cover = if options.subsumption { cover } else { Cover::Equal };
    match options.domain {
        Domain::Auto | Domain::Zone => explore_with::<Dbm>(net, &goal, negated, options, abstraction, cover, same_zone),
        Domain::Poly => explore_with::<Poly>(net, &goal, negated, options, abstraction, cover, Poly::to_dbm),
    }
}

/// The exploration of [`reach_check`] in domain `S`; `to_zone` gives the
/// zone of a set for the trace layer (`None`: the outcome has no trace).
fn explore_with<S: ClockSet + Send + Sync>(
    net: &Network,
    goal: &StateFormula,
    negated: bool,
    options: &Options,
    abstraction: Abstraction,
    cover: Cover,
    to_zone: fn(&S) -> Option<Dbm>,
) -> Outcome {
    let engine = EngineKind::Reach;
    let mut zg = ZoneGraph::<S>::with_sets(net, abstraction);
    let target = |zg: &mut ZoneGraph<'_, S>, s: &ZoneState<S>| zg.sat(goal, s);
    let started = Instant::now();
    if options.jobs > 1 {
        let (end, mut stats) = parallel::explore(net, abstraction, cover, &options.limits, options.jobs, &target);
        stats.time_s = started.elapsed().as_secs_f64();
        let verdict = match end {
            parallel::Ended::Exhausted if negated => Verdict::Satisfied,
            parallel::Ended::Exhausted => Verdict::Violated,
            parallel::Ended::Stopped(why) => Verdict::Unknown(why),
            // The one-thread search below gives the verdict and its trace.
            parallel::Ended::Hit => {
                return reach_outcome(net, goal, negated, options, &mut zg, cover, to_zone, started);
            }
        };
        return Outcome { verdict, engine, stats: Some(stats), trace: None, warnings: Vec::new(), network: None };
    }
    reach_outcome(net, goal, negated, options, &mut zg, cover, to_zone, started)
}

/// The one-thread search of [`explore_with`] and its outcome.
#[allow(clippy::too_many_arguments)]
fn reach_outcome<S: ClockSet>(
    net: &Network,
    goal: &StateFormula,
    negated: bool,
    options: &Options,
    zg: &mut ZoneGraph<'_, S>,
    cover: Cover,
    to_zone: fn(&S) -> Option<Dbm>,
    started: Instant,
) -> Outcome {
    let engine = EngineKind::Reach;
    let mut target = |zg: &mut ZoneGraph<'_, S>, s: &ZoneState<S>| zg.sat(goal, s);
    let run = reach::explore(zg, options.order, cover, &options.limits, &mut target);
    let mut stats = run.stats;
    stats.time_s = started.elapsed().as_secs_f64();
    let mut trace_to = |node: u32, witness: Federation<S>, error: Option<RunError>| {
        let target = error.is_none().then(|| goal.clone());
        store_trace(zg, &run.store, node, witness, target, error, to_zone)
    };
    let (verdict, trace) = match run.end {
        End::Found { node, witness } => {
            (if negated { Verdict::Violated } else { Verdict::Satisfied }, trace_to(node, witness, None))
        }
        End::Exhausted => (if negated { Verdict::Satisfied } else { Verdict::Violated }, None),
        End::Stopped(why) => (Verdict::Unknown(why), None),
        End::Error { node, error } => {
            let text = error.describe(net);
            let trace = node.and_then(|n| trace_to(n, Federation::from_zone(run.store.zone(n)), Some(error)));
            (Verdict::Error(text), trace)
        }
    };
    Outcome { verdict, engine, stats: Some(stats), trace, warnings: Vec::new(), network: None }
}
