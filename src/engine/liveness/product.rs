//! The graph the liveness engine searches: the zone graph of the network
//! with one extra clock `z` and a *tick* step, in two phases.
//!
//! **Ticks.** A tick is a step that changes nothing but `z`: allowed when
//! `z >= 1`, it resets `z`. A run with infinitely many ticks lets at least
//! one time unit pass between consecutive ticks, so time diverges; a
//! time-divergent run can tick whenever `z` has reached 1, which happens
//! infinitely often. So "time diverges" becomes the Büchi condition
//! "infinitely many ticks" (Tripakis 2009), and tick edges are the
//! accepting edges. `z`'s only constant is that 1, a lower bound: it
//! enters the extrapolation bounds as `L(z) = 1` (no upper bound).
//!
//! **Phases.** Phase 0 is the whole reachable graph (or less: [`Phase0`]);
//! phase 1 is the part the query watches: entered from a phase-0 state
//! that satisfies the query's `enter` formula (from an initial state only,
//! for `E[]`), it keeps the states that satisfy `stay`. An accepting cycle
//! in phase 1 is a counterexample (a witness for `E[]`); accepting cycles
//! in phase 0 only tell which states can let time diverge (the others are
//! time-locks).
//!
//! **Passes.** `z` multiplies the zones, so the engine first searches
//! without it ([`Ticks`]): a phase that does not track `z` frees it (then it
//! is as if the network had no `z`: its graph is the ExtraLU+ zone graph of
//! the network itself) and has no ticks; instead a state where time can
//! pass forever (delays allowed, no clock invariant) gets an accepting
//! self-loop. That pass is conclusive both ways where it answers:
//! - reaching such a state in phase 1 is a counterexample: the abstract path
//!   to it is instantiated by a concrete run (the zone graph is a
//!   simulation graph), which then waits there forever, time diverging,
//!   its discrete state (hence `stay`) unchanged;
//! - a phase 1 without any cycle has no infinite run at all: every concrete
//!   run is covered by a path of the graph (abstract zones contain the
//!   exact ones), and an infinite path of a finite graph has a cycle.
//!
//! - a cycle through edges that reset a clock and wait at least one time
//!   unit for it diverges ([`super::progress`]): discrete steps carry
//!   those clocks as labels, and an SCC whose labels join to such a pair
//!   is accepting like one with a tick.
//!
//! A pass without ticks logs its arcs, and where neither shows divergence
//! [`super::zeno`] tries to prove there is none (blocking clocks, cycles
//! where time cannot pass). Only a phase-1 node still undecided (maybe a
//! counterexample) needs a pass that tracks `z` in phase 1, and only a
//! phase-0 node still undecided (maybe a time-lock) one that tracks it
//! everywhere: the *guessing pass* below. Where phase 1 starts with `z`
//! free, its first tick (or guess) is possible at once, which only shifts
//! where they fall.
//!
//! **The guessing pass** decides those nodes without the tick clock's
//! blow-up. It follows the guessing zone graph of Herbreteau, Srivathsan
//! and Walukiewicz ("Efficient emptiness check for timed Büchi automata",
//! CAV 2010 / FMSD 2012), with its guessed set of clocks `Y` held by one
//! clock: `z` is set to 0 by every step that assigns a clock ([`guessing`];
//! at the start all clocks are 0 and so is `z`), so `z` is the time since
//! the last assignment, and "every clock of `Y` (assigned since the last
//! guess) is positive" is `z > 0`. A *guess* ([`Step::Guess`]) goes from a
//! state where time may pass to the part of its zone where `z > 0`; it
//! changes nothing else. `z`'s one constant is that 0, a lower bound:
//! `L(z) = 0`, no upper bound, so the abstraction keeps `z = 0` apart from
//! `z > 0` and forgets the rest of `z` but its order with the clocks.
//! - Size: on exact zones, `z` equals the clocks the last assigning step
//!   set (less their values), so each zone of the graph without `z` has at
//!   most one copy per such choice, `|X| + 1` with the start: a polynomial
//!   overhead, where the tick clock's is exponential in the worst case.
//! - A time-divergent run passes infinitely many positive delays; right
//!   after each, `z > 0` and a guess is possible. Every clock an invariant or
//!   guard bounds infinitely often is assigned infinitely often (it would
//!   otherwise outgrow the bound). So its path in the graph (abstract zones
//!   contain the exact ones) has infinitely many guesses and is
//!   *unblocked*.
//! - Conversely an unblocked path with infinitely many guesses is the
//!   abstraction of a time-divergent run (the paper's Theorem 2, for
//!   abstractions that are time-abstract simulations: the aLU classes and
//!   ExtraLU+ are, with `z`'s guard `z > 0` as one more lower bound).
//!   A guess is taken only where time may pass (urgency stops it), so each
//!   delay the paper's run lets pass is one the network allows.
//!
//! Unblocked is not a Büchi condition, so the pass does not accept on
//! guesses: it explores everything, logging its arcs, and [`super::zeno`]
//! removes blocking clocks' nodes and arcs as for a pass without ticks, an
//! SCC left with a guess inside carrying divergent runs. That decides every
//! node. A counterexample so proved still needs its lasso: a pass with
//! the tick clock in phase 1 (Tripakis's construction, exact) finds it, and
//! stops at the first accepting SCC instead of exploring everything. The
//! pass covers no node by a finished one ([`super::cover`] needs a search
//! that accepts on the fly), but for phase 0 as the covering graph.
//!
//! **Linear networks.** Their polyhedra are exact (no abstraction exists),
//! so `z`, which only ever needs to reach 1, would grow them forever on
//! paths that do not tick: a phase with ticks keeps `z <= 1`, as if every
//! location had that invariant. No divergent run is lost (it can tick each
//! time `z` reaches 1), and the tick clock `z` becomes, like an observer's,
//! a variable after the continuous ones that moves at rate 1
//! ([`crate::network::linear::Hybrid::add_clock`]). Their steps carry no
//! divergence labels: a loop of exact polyhedra need not carry a run, and
//! `periodic` confirms only loops through ticks (or in-place divergence).
//! What an accepting cycle proves there is said in `periodic`.
//!
//! The formulas have no clock atoms (the engine refuses them), so a
//! symbolic state satisfies them entirely or not at all.
//!
//! **Phase 1 reuses phase 0.** Where the phases share classes
//! ([`super::nodes`]), a class is expanded once: its successor classes and
//! steps are kept when `stay` holds in it (phase 1 may expand it too), and
//! the other phase follows them instead of computing them again.

use indexmap::IndexSet;
use rustc_hash::FxBuildHasher;

use super::cover::Covers;
use super::nodes::Nodes;
use super::progress::Progress;
use super::scc::Graph;
use super::zeno;
use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::domain::zone::{Bound, Dbm};
use crate::engine::limits::{Limits, Watch};
use crate::engine::{Stats, Unknown};
use crate::network::{EvalError, NO_BOUND, Network, StateFormula, Update};
use crate::semantics::{Discrete, RunError, Transition, ZoneGraph, ZoneState};

/// What the liveness engine looks for: a reachable state satisfying
/// `enter` (an initial one when `initial_only`), and from it a
/// time-divergent run along which `stay` always holds.
#[derive(Clone, Debug)]
pub struct Query {
    pub enter: StateFormula,
    pub stay: StateFormula,
    pub initial_only: bool,
    /// Where a time-lock is the model's (warned about): not where an
    /// observer's invariant makes it.
    pub locks: StateFormula,
}

/// The formula `true`.
pub fn always() -> StateFormula {
    StateFormula::Pred(vec![crate::network::StateConj { data: None, clocks: Vec::new() }])
}

/// A step of the searched graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Into an initial state.
    Initial,
    /// A discrete step, by its number in [`Product::transition`].
    Edge(u32),
    Tick,
    /// In a guessing pass ([`Ticks::guesses`]): the guess that time has
    /// passed since the last clock assignment (`z > 0`), in the same
    /// discrete state.
    Guess,
    /// From phase 0 into phase 1, in the same state.
    Enter,
}

/// Why the search stopped early.
#[derive(Debug)]
pub enum Stop {
    Limit(Unknown),
    /// A run-time error while expanding the node.
    Run {
        node: Option<u32>,
        error: RunError,
    },
}

/// Adds the tick clock `z` as the network's last clock, with `L(z) = 1`.
/// Returns its index.
pub fn augment(net: &mut Network) -> u32 {
    net.clocks.push("(progress clock)".into());
    net.lu.global.push((1, NO_BOUND));
    let z = net.clocks.len() as u32;
    if let Some(h) = &mut net.hybrid {
        let locations = net.processes.first().map_or(0, |p| p.locations.len());
        h.add_clock(z, 0, &vec![true; locations]);
    }
    z
}

/// The tick from `s` before abstraction: `z >= 1`, then `z := 0`, the
/// invariants, time elapse where allowed. `None` when `z` cannot reach 1.
pub fn tick_exact<S: ClockSet>(
    zg: &mut ZoneGraph<'_, S>,
    s: &ZoneState<S>,
    z: u32,
) -> Result<Option<ZoneState<S>>, RunError> {
    let wrap = |error| RunError { error, transition: None };
    let mut next = s.clone();
    if !next.zone.constrain(0, z as usize, Bound::le(-1)) {
        return Ok(None);
    }
    next.zone.reset(z as usize, 0);
    if !zg.invariant(&s.discrete, &mut next.zone).map_err(wrap)? {
        return Ok(None);
    }
    zg.delay(&mut next, None)?;
    Ok(Some(next))
}

/// The network of a guessing pass ([`Ticks::guesses`]) from `net`
/// augmented with `z`: every step that assigns a clock resets `z` too,
/// and `z` keeps `L(z) = 0` (its one constraint is the guess `z > 0`).
pub fn guessing(net: &Network, z: u32) -> Network {
    let mut net = net.clone();
    net.lu.global[z as usize] = (0, NO_BOUND);
    for e in net.processes.iter_mut().flat_map(|p| &mut p.edges) {
        if e.updates.iter().any(|u| matches!(u, Update::Reset { .. } | Update::Assign { .. })) {
            e.updates.push(Update::Reset { clock: z, value: 0 });
        }
    }
    net
}

/// The guess from `s` (a state of a guessing pass): `z > 0`. `None` when
/// no time can have passed since the last clock assignment.
pub fn guess_exact<S: ClockSet>(s: &ZoneState<S>, z: u32) -> Option<ZoneState<S>> {
    let mut next = s.clone();
    next.zone.constrain(0, z as usize, Bound::lt(0)).then_some(next)
}

/// How much of the model's graph phase 0 holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase0 {
    /// All of it, nodes identified by aLU classes: the `enter` states
    /// anywhere, and the model's time-locks.
    Whole,
    /// The initial states only, for a query that enters phase 1 from them
    /// (`initial_only`); the model's time-locks are then looked for on
    /// their own ([`super::model_time_locks`]).
    Initial,
    /// All of it, a new node covered by any phase-0 node (live or
    /// finished) of the same discrete state whose zone includes it (aLU):
    /// the *covering graph*, whose paths include every path of the aLU
    /// graph by the same steps (the argument of [`super::cover`], with any
    /// node as `t`), and more. Phase 1 is as with `Whole`, entered from
    /// the covering nodes: a run watched from a covered state is one, by
    /// the same steps, from its cover, which has the same discrete state
    /// (so `enter` holds there too), and no phase-1 cycle goes through a
    /// covering arc. What phase 0 shows of time-locks is sound one way
    /// only ([`super::model_time_locks`]).
    Covering,
}

/// Where a search starts: one initial state (by position, for `E[]`) or
/// all, and how much of the model's graph phase 0 holds.
#[derive(Clone, Copy)]
pub struct Start {
    pub only_initial: Option<usize>,
    pub phase0: Phase0,
}

/// Which phases track `z` and how: as the tick clock (ticks), or as the
/// guessing clock (guesses; see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ticks {
    Nowhere,
    InPhase1,
    Everywhere,
    GuessInPhase1,
    GuessEverywhere,
}

impl Ticks {
    pub fn tracks(self, phase: bool) -> bool {
        match self {
            Ticks::Nowhere => false,
            Ticks::InPhase1 | Ticks::GuessInPhase1 => phase,
            Ticks::Everywhere | Ticks::GuessEverywhere => true,
        }
    }

    /// A guessing pass: `z` is the time since the last clock assignment.
    pub fn guesses(self) -> bool {
        matches!(self, Ticks::GuessInPhase1 | Ticks::GuessEverywhere)
    }
}

/// Whether the clock-free formula `f` holds in `d` (the engine refuses
/// clock atoms and `deadlock`). Recursion on the formula, not the model.
fn holds(f: &StateFormula, d: &Discrete, stack: &mut Vec<i64>) -> Result<bool, EvalError> {
    Ok(match f {
        StateFormula::Pred(conjs) => {
            for c in conjs {
                debug_assert!(c.clocks.is_empty(), "clock atoms are refused");
                if c.data.as_ref().map_or(Ok(true), |code| code.eval(&d.locs, &d.data, stack).map(|v| v != 0))? {
                    return Ok(true);
                }
            }
            false
        }
        StateFormula::Not(a) => !holds(a, d, stack)?,
        StateFormula::And(a, b) => holds(a, d, stack)? && holds(b, d, stack)?,
        StateFormula::Or(a, b) => holds(a, d, stack)? || holds(b, d, stack)?,
        StateFormula::Deadlock => unreachable!("`deadlock` is refused"),
    })
}

/// Time can pass forever from every valuation of `d`: delays allowed and
/// no clock invariant.
pub(super) fn diverges_in_place<S: ClockSet>(zg: &mut ZoneGraph<'_, S>, d: &Discrete) -> Result<bool, RunError> {
    Ok(!bounded(zg.net, d) && zg.can_delay(d)?)
}

/// Some location of `d` has an invariant.
fn bounded(net: &Network, d: &Discrete) -> bool {
    d.locs.iter().enumerate().any(|(p, &l)| !net.processes[p].locations[l as usize].invariant.is_empty())
}

/// No list kept (in [`Successors::index`]).
const NONE: u32 = u32::MAX;

/// Successor lists by class ([`Product::expand`]), kept for the classes
/// both phases may expand.
#[derive(Default)]
struct Successors {
    /// Per class (dense ids), where its list starts in `arcs` and its
    /// length; `NONE` where none is kept.
    index: Vec<(u32, u32)>,
    arcs: Vec<(u32, Step)>,
    /// A list to reuse.
    spare: Vec<(u32, Step)>,
}

impl Successors {
    /// An empty list (reused).
    fn spare(&mut self) -> Vec<(u32, Step)> {
        let mut list = std::mem::take(&mut self.spare);
        list.clear();
        list
    }

    /// The list of class `c`, if kept.
    fn get(&mut self, c: u32) -> Option<Vec<(u32, Step)>> {
        let &(start, len) = self.index.get(c as usize).filter(|e| e.0 != NONE)?;
        let mut list = self.spare();
        list.extend_from_slice(&self.arcs[start as usize..(start + len) as usize]);
        Some(list)
    }

    fn insert(&mut self, c: u32, list: &[(u32, Step)]) {
        if self.index.len() <= c as usize {
            self.index.resize(c as usize + 1, (NONE, 0));
        }
        self.index[c as usize] = (self.arcs.len() as u32, list.len() as u32);
        self.arcs.extend_from_slice(list);
    }

    /// Takes back a list for reuse.
    fn recycle(&mut self, list: Vec<(u32, Step)>) {
        self.spare = list;
    }
}

pub struct Product<'q, 'n, S = Dbm> {
    pub zg: ZoneGraph<'n, S>,
    /// The zone a set is given to traces as (see `engine::store_trace`).
    pub to_zone: fn(&S) -> Option<Dbm>,
    pub query: &'q Query,
    z: u32,
    ticks: Ticks,
    /// Only this initial state (by position), for `E[]`.
    only_initial: Option<usize>,
    /// The nodes: a class of states and whether it is in phase 1 ([`Nodes`]).
    pub nodes: Nodes<S>,
    /// The successors of classes that both phases may expand, computed
    /// once ([`Successors`]).
    cache: Successors,
    /// The discrete steps met, numbered (steps are kept as numbers).
    steps: IndexSet<Transition, FxBuildHasher>,
    /// How each node was first reached.
    pub parent: Vec<Option<(u32, Step)>>,
    pub stats: Stats,
    watch: Watch<'q>,
    /// The node being expanded, for run-time errors.
    expanding: Option<u32>,
    transitions: Vec<Transition>,
    buffer: Vec<(ZoneState<S>, Transition)>,
    /// The state being expanded, copied out of the node set.
    scratch: Option<ZoneState<S>>,
    stack: Vec<i64>,
    /// Every arc followed, in a pass without ticks (for [`super::zeno`]).
    pub arcs: Option<Vec<(u32, u32, Step)>>,
    /// In a pass that logs arcs, the stuck valuations of each discrete
    /// state expanded (by id; `None` where not computed), found with the
    /// steps its expansion computed anyway, for [`super::zeno::never_stuck`]
    /// (which would otherwise compute them all again). A run-time error
    /// leaves `None`: the error is `never_stuck`'s to raise, if it asks.
    pub stuck: Vec<Option<Federation<S>>>,
    /// The finished nodes that cover new ones ([`super::cover`]), or every
    /// node with [`Phase0::Covering`]; none on linear networks.
    covers: Option<Covers>,
    phase0: Phase0,
}

impl<'q, 'n, S: ClockSet> Product<'q, 'n, S> {
    pub fn new(
        zg: ZoneGraph<'n, S>,
        to_zone: fn(&S) -> Option<Dbm>,
        query: &'q Query,
        z: u32,
        ticks: Ticks,
        start: Start,
        limits: &'q Limits,
    ) -> Self {
        let Start { only_initial, phase0 } = start;
        // Linear networks carry no divergence labels (module doc).
        let linear = zg.net.hybrid.is_some();
        let logs = ticks == Ticks::Nowhere || ticks.guesses();
        let arcs = (logs && !linear).then(Vec::new);
        let shared = ticks.tracks(false) == ticks.tracks(true);
        Product {
            zg,
            to_zone,
            query,
            z,
            ticks,
            only_initial,
            nodes: Nodes::new(shared),
            cache: Successors::default(),
            steps: IndexSet::default(),
            parent: Vec::new(),
            stats: Stats::default(),
            watch: limits.watch(),
            expanding: None,
            transitions: Vec::new(),
            buffer: Vec::new(),
            scratch: None,
            stack: Vec::new(),
            arcs,
            stuck: Vec::new(),
            covers: (!linear).then(Covers::default),
            phase0,
        }
    }

    pub fn ticks(&self) -> Ticks {
        self.ticks
    }

    pub fn z(&self) -> u32 {
        self.z
    }

    /// The id of `(state, phase)`, interned with its parent when new.
    fn intern(&mut self, state: ZoneState<S>, phase: bool, parent: Option<(u32, Step)>) -> u32 {
        let c = match self.nodes.find(&mut self.zg, &state, phase) {
            Ok(c) => c,
            Err(at) => self.nodes.add_class(&state, phase, at),
        };
        self.node(c, phase, parent)
    }

    /// The class of `state` in `phase`, storing `state` only when it is new.
    fn class_of(&mut self, state: &ZoneState<S>, phase: bool) -> u32 {
        match self.nodes.find(&mut self.zg, state, phase) {
            Ok(c) => c,
            Err(at) => self.nodes.add_class(state, phase, at),
        }
    }

    /// The node of class `c` in `phase`, added with its parent when new,
    /// unless a finished node (any node, [`Phase0::Covering`]) covers it
    /// ([`super::cover`]).
    fn node(&mut self, c: u32, phase: bool, parent: Option<(u32, Step)>) -> u32 {
        match self.nodes.node(c, phase) {
            Some(n) => n,
            None => {
                if let Some(covers) = &mut self.covers
                    && let Some(t) = covers.find(&mut self.zg, &self.nodes, c, phase)
                {
                    self.nodes.alias(c, phase, t);
                    return t;
                }
                self.parent.push(parent);
                self.stats.stored += 1;
                let n = self.nodes.add_node(c, phase);
                if self.phase0 == Phase0::Covering
                    && !phase
                    && let Some(covers) = &mut self.covers
                {
                    covers.add(&mut self.zg, &self.nodes, n);
                }
                n
            }
        }
    }

    /// The transition of a `Step::Edge`.
    pub fn transition(&self, k: u32) -> &Transition {
        self.steps.get_index(k as usize).expect("a numbered step")
    }

    /// A phase without ticks forgets `z`; on a linear network, one with
    /// ticks keeps `z <= 1` (see the module doc).
    fn forget_z(&self, phase: bool, s: &mut ZoneState<S>) {
        if !self.ticks.tracks(phase) {
            s.zone.free(self.z as usize);
        } else if self.zg.net.hybrid.is_some() {
            s.zone.constrain(self.z as usize, 0, Bound::le(1));
        }
    }

    /// The state `step` leads to from `from` into phase `phase`, computed
    /// as [`Graph::successors`] does (a lasso's states, from the zones the
    /// path really has rather than the nodes' representatives).
    pub fn follow(&mut self, from: &ZoneState<S>, phase: bool, step: Step) -> Result<Option<ZoneState<S>>, RunError> {
        let mut next = match step {
            Step::Initial | Step::Enter => Some(from.clone()),
            // In a guessing pass a tick is the self-loop of a state where
            // time passes forever (and a lasso's progress mark).
            Step::Tick if self.ticks.guesses() => Some(from.clone()),
            Step::Tick => tick_exact(&mut self.zg, from, self.z)?,
            Step::Guess => guess_exact(from, self.z),
            Step::Edge(k) => {
                let t = self.transition(k).clone();
                self.zg.post_exact(from, &t)?
            }
        };
        if let Some(s) = next.as_mut() {
            if matches!(step, Step::Tick | Step::Guess | Step::Edge(_)) {
                self.zg.extrapolate(s);
            }
            self.forget_z(phase, s);
        }
        Ok(next)
    }

    /// The successors of node `n` (of class `c`, in `phase`) computed from
    /// its representative, as their classes and steps: discrete steps,
    /// then the tick (a self-loop where time diverges in place in a phase
    /// without ticks). Each phase expands a class alike, but for `z`
    /// ([`Nodes`]), so a class both phases share has one such list.
    fn expand(&mut self, n: u32, c: u32, phase: bool) -> Result<Vec<(u32, Step)>, RunError> {
        let mut buffer = std::mem::take(&mut self.buffer);
        let mut s = self.scratch.take().unwrap_or_else(|| self.nodes.state(n));
        self.nodes.load(c, &mut s);
        self.zg.transitions(&s.discrete, &mut self.transitions)?;
        // Asked before the successors, whose delays ask other states.
        let delay = self.zg.can_delay_after_transitions(&s.discrete);
        self.zg.successors_by(&s, &self.transitions, &mut buffer)?;
        let in_place = delay && !bounded(self.zg.net, &s.discrete);
        let (tick, diverges) = match self.ticks.tracks(phase) {
            true if self.ticks.guesses() => (if delay && !in_place { guess_exact(&s, self.z) } else { None }, in_place),
            true => (tick_exact(&mut self.zg, &s, self.z)?, false),
            false => (None, in_place),
        };
        if self.ticks == Ticks::Nowhere && self.arcs.is_some() {
            self.note_stuck(c, &mut s, diverges, delay);
        }
        self.scratch = Some(s);
        let mut list = self.cache.spare();
        for (next, t) in buffer.iter_mut() {
            self.forget_z(phase, next);
            let step = match self.steps.get_index_of(&*t) {
                Some(k) => Step::Edge(k as u32),
                None => Step::Edge(self.steps.insert_full(t.clone()).0 as u32),
            };
            list.push((self.class_of(next, phase), step));
        }
        self.buffer = buffer;
        if let Some(mut next) = tick {
            self.zg.extrapolate(&mut next);
            self.forget_z(phase, &mut next);
            let step = if self.ticks.guesses() { Step::Guess } else { Step::Tick };
            list.push((self.class_of(&next, phase), step));
        } else if diverges {
            list.push((c, Step::Tick));
        }
        Ok(list)
    }

    /// Computes [`Product::stuck`] for the discrete state of class `c`, if
    /// not known yet, right after its expansion into `self.transitions`;
    /// `s` (its state) is scratch.
    fn note_stuck(&mut self, c: u32, s: &mut ZoneState<S>, diverges: bool, delay: bool) {
        let k = self.nodes.discrete_id(c) as usize;
        if self.stuck.len() <= k {
            self.stuck.resize_with(k + 1, || None);
        }
        if self.stuck[k].is_some() {
            return;
        }
        self.stuck[k] = if diverges {
            Some(Federation::empty())
        } else {
            zeno::stuck_by(&mut self.zg, s, &self.transitions, delay).ok()
        };
    }

    /// Adds to `out` the arcs from node `n` (in `phase`) to the classes of
    /// `list` ([`Product::expand`]) in the same phase, with their labels;
    /// phase 1 keeps those where `stay` holds.
    fn follow_classes(
        &mut self,
        n: u32,
        phase: bool,
        list: &[(u32, Step)],
        out: &mut Vec<(u32, Progress, Step)>,
    ) -> Result<(), EvalError> {
        let net = self.zg.net;
        // No divergence labels on linear networks (module doc).
        let linear = net.hybrid.is_some();
        for &(c, step) in list {
            let label = match step {
                Step::Edge(k) if !linear => {
                    let t = self.steps.get_index(k as usize).expect("a numbered step");
                    Progress::of(net, self.nodes.discrete(n), t, &mut self.stack)?
                }
                Step::Tick => Progress::TICK,
                Step::Edge(_) | Step::Guess | Step::Initial | Step::Enter => Progress::default(),
            };
            if phase && !holds(&self.query.stay, self.nodes.class_discrete(c), &mut self.stack)? {
                continue;
            }
            out.push((self.node(c, phase, Some((n, step))), label, step));
        }
        Ok(())
    }

    /// The divergence label of step `k` from node `from` ([`Progress::of`]).
    pub fn label(&mut self, from: u32, k: u32) -> Result<Progress, RunError> {
        let d = self.nodes.discrete(from);
        let t = self.steps.get_index(k as usize).expect("a numbered step");
        Progress::of(self.zg.net, d, t, &mut self.stack)
            .map_err(|error| RunError { error, transition: Some(t.clone()) })
    }

    pub fn holds(&mut self, f: &StateFormula, s: &ZoneState<S>) -> Result<bool, RunError> {
        holds(f, &s.discrete, &mut self.stack).map_err(|error| RunError { error, transition: None })
    }

    /// Whether `f` holds in node `n`'s state.
    pub fn holds_at(&mut self, f: &StateFormula, n: u32) -> Result<bool, RunError> {
        holds(f, self.nodes.discrete(n), &mut self.stack).map_err(|error| RunError { error, transition: None })
    }

    fn run_error(&self, error: RunError) -> Stop {
        Stop::Run { node: self.expanding, error }
    }

    /// The phase-1 node of `s` if it may start the watched run (`z` as the
    /// phase wants it).
    fn enter(&mut self, s: &ZoneState<S>, from: Option<u32>) -> Result<Option<u32>, Stop> {
        let q = self.query;
        let ok = self.holds(&q.enter, s).map_err(|e| self.run_error(e))?
            && self.holds(&q.stay, s).map_err(|e| self.run_error(e))?;
        Ok(ok.then(|| {
            let parent = from.map(|n| (n, Step::Enter));
            let mut s = s.clone();
            self.forget_z(true, &mut s);
            self.intern(s, true, parent)
        }))
    }
}

impl<S: ClockSet> Graph for Product<'_, '_, S> {
    type Error = Stop;
    type Step = Step;
    type Label = Progress;

    fn initial(&mut self, out: &mut Vec<(u32, Step)>) -> Result<(), Stop> {
        let mut states = Vec::new();
        self.zg.initial(&mut states).map_err(|error| Stop::Run { node: None, error })?;
        for (k, mut s) in states.into_iter().enumerate() {
            if self.only_initial.is_some_and(|i| i != k) {
                continue;
            }
            self.forget_z(false, &mut s);
            if self.query.initial_only
                && let Some(n) = self.enter(&s, None)?
            {
                out.push((n, Step::Initial));
            }
            if self.phase0 == Phase0::Initial {
                continue;
            }
            let n = self.intern(s, false, None);
            out.push((n, Step::Initial));
        }
        Ok(())
    }

    fn successors(&mut self, node: u32, out: &mut Vec<(u32, Progress, Step)>) -> Result<(), Stop> {
        self.expanding = Some(node);
        self.stats.visited += 1;
        let stop = |error| Stop::Run { node: Some(node), error };
        let eval = |error| stop(RunError { error, transition: None });
        let c = self.nodes.class(node);
        let (d, phase) = (self.nodes.discrete(node), self.nodes.phase(node));
        let q = self.query;
        let enter = !phase
            && !q.initial_only
            && holds(&q.enter, d, &mut self.stack).map_err(eval)?
            && holds(&q.stay, d, &mut self.stack).map_err(eval)?;
        // Whether phase 1 may hold this class too (an error evaluating
        // `stay` is phase 1's to report, where it evaluates it).
        let stay = phase || enter || holds(&q.stay, d, &mut self.stack).unwrap_or(false);
        // Into phase 1 first: a counterexample is found before the rest of
        // phase 0 is explored.
        if enter {
            let n = if self.nodes.shared() {
                self.node(c, true, Some((node, Step::Enter)))
            } else {
                let mut s = self.nodes.state(node);
                self.forget_z(true, &mut s);
                self.intern(s, true, Some((node, Step::Enter)))
            };
            out.push((n, Progress::default(), Step::Enter));
        }
        // A class both phases may expand (`stay` holds) is expanded once.
        let cached = self.nodes.shared() && stay;
        let list = match self.cache.get(c) {
            Some(list) => list,
            None => {
                let list = self.expand(node, c, phase).map_err(stop)?;
                if cached {
                    self.cache.insert(c, &list);
                }
                list
            }
        };
        self.follow_classes(node, phase, &list, out).map_err(eval)?;
        self.cache.recycle(list);
        if let Some(arcs) = &mut self.arcs {
            arcs.extend(out.iter().map(|&(n, _, step)| (node, n, step)));
        }
        self.stats.transitions += out.len() as u64;
        Ok(())
    }

    fn counterexample(&self, node: u32) -> bool {
        self.nodes.phase(node)
    }

    fn finished(&mut self, node: u32, good: bool) {
        // A guessing pass decides acceptance after the search (`zeno`):
        // a finished node not yet good may still reach a divergent run.
        if !good
            && !self.ticks.guesses()
            && (self.phase0 != Phase0::Covering || self.nodes.phase(node))
            && let Some(covers) = &mut self.covers
        {
            covers.add(&mut self.zg, &self.nodes, node);
        }
    }

    fn check_limits(&mut self) -> Result<(), Stop> {
        match self.watch.check(self.stats.visited) {
            Some(u) => Err(Stop::Limit(u)),
            None => Ok(()),
        }
    }
}
