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
//! **Phases.** Phase 0 is the whole reachable graph; phase 1 is the part the
//! query watches: entered from a phase-0 state that satisfies the query's
//! `enter` formula (from an initial state only, for `E[]`), it keeps the
//! states that satisfy `stay`. An accepting cycle in phase 1 is a
//! counterexample (a witness for `E[]`); accepting cycles in phase 0 only
//! tell which states can let time diverge (the others are time-locks).
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
//! Only a phase-1 cycle without such a state (maybe Zeno, maybe not) needs
//! the pass with `z` in phase 1 (Tripakis's construction, exact), and only
//! a phase-0 state that cannot reach such a state (maybe a time-lock) the
//! pass with `z` everywhere. Where phase 1 starts with `z` free, its first
//! tick is possible at once, which only shifts where ticks fall.
//!
//! The formulas have no clock atoms (the engine refuses them), so a
//! symbolic state satisfies them entirely or not at all.

use std::time::Instant;

use indexmap::IndexSet;
use rustc_hash::FxBuildHasher;

use super::scc::Graph;
use crate::domain::zone::Bound;
use crate::engine::reach::Limits;
use crate::engine::{Stats, Unknown};
use crate::network::{NO_BOUND, Network, StateFormula};
use crate::semantics::{RunError, Transition, ZoneGraph, ZoneState};

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Into an initial state.
    Initial,
    Edge(Transition),
    Tick,
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
    net.clocks.len() as u32
}

/// The tick from `s` before abstraction: `z >= 1`, then `z := 0`, the
/// invariants, time elapse where allowed. `None` when `z` cannot reach 1.
pub fn tick_exact(zg: &mut ZoneGraph<'_>, s: &ZoneState, z: u32) -> Result<Option<ZoneState>, RunError> {
    let wrap = |error| RunError { error, transition: None };
    let mut zone = s.zone.clone();
    if !zone.constrain(0, z as usize, Bound::le(-1)) {
        return Ok(None);
    }
    zone.reset(z as usize, 0);
    if !zg.invariant(&s.discrete, &mut zone).map_err(wrap)? {
        return Ok(None);
    }
    if zg.can_delay(&s.discrete)? {
        zone.up();
        zg.invariant(&s.discrete, &mut zone).map_err(wrap)?;
    }
    Ok(Some(ZoneState { discrete: s.discrete.clone(), zone }))
}

/// Which phases track `z` and have ticks (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ticks {
    Nowhere,
    InPhase1,
    Everywhere,
}

impl Ticks {
    fn tracks(self, phase: bool) -> bool {
        match self {
            Ticks::Nowhere => false,
            Ticks::InPhase1 => phase,
            Ticks::Everywhere => true,
        }
    }
}

pub struct Product<'q, 'n> {
    pub zg: ZoneGraph<'n>,
    pub query: &'q Query,
    z: u32,
    ticks: Ticks,
    /// Only this initial state (by position), for `E[]`.
    only_initial: Option<usize>,
    /// The nodes: a state and whether it is in phase 1.
    pub nodes: IndexSet<(ZoneState, bool), FxBuildHasher>,
    /// How each node was first reached.
    pub parent: Vec<Option<(u32, Step)>>,
    pub stats: Stats,
    limits: Limits,
    /// The node being expanded, for run-time errors.
    expanding: Option<u32>,
    transitions: Vec<Transition>,
    buffer: Vec<(ZoneState, Transition)>,
}

impl<'q, 'n> Product<'q, 'n> {
    pub fn new(
        zg: ZoneGraph<'n>,
        query: &'q Query,
        z: u32,
        ticks: Ticks,
        only_initial: Option<usize>,
        limits: Limits,
    ) -> Self {
        Product {
            zg,
            query,
            z,
            ticks,
            only_initial,
            nodes: IndexSet::default(),
            parent: Vec::new(),
            stats: Stats::default(),
            limits,
            expanding: None,
            transitions: Vec::new(),
            buffer: Vec::new(),
        }
    }

    pub fn z(&self) -> u32 {
        self.z
    }

    /// The id of `(state, phase)`, interned with its parent when new.
    fn intern(&mut self, state: ZoneState, phase: bool, parent: Option<(u32, Step)>) -> u32 {
        let (id, new) = self.nodes.insert_full((state, phase));
        if new {
            self.parent.push(parent);
            self.stats.stored += 1;
        }
        id as u32
    }

    /// A phase without ticks forgets `z`.
    fn forget_z(&self, phase: bool, s: &mut ZoneState) {
        if !self.ticks.tracks(phase) {
            s.zone.free(self.z as usize);
        }
    }

    /// Time can pass forever from every valuation of `s`.
    fn diverges_in_place(&mut self, s: &ZoneState) -> Result<bool, RunError> {
        let net = self.zg.net;
        let bounded = s
            .discrete
            .locs
            .iter()
            .enumerate()
            .any(|(p, &l)| !net.processes[p].locations[l as usize].invariant.is_empty());
        Ok(!bounded && self.zg.can_delay(&s.discrete)?)
    }

    pub fn holds(&mut self, f: &StateFormula, s: &ZoneState) -> Result<bool, RunError> {
        Ok(!self.zg.sat(f, s)?.is_empty())
    }

    fn run_error(&self, error: RunError) -> Stop {
        Stop::Run { node: self.expanding, error }
    }

    /// The phase-1 node of `s` if it may start the watched run (`z` as the
    /// phase wants it).
    fn enter(&mut self, s: &ZoneState, from: Option<u32>) -> Result<Option<u32>, Stop> {
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

impl Graph for Product<'_, '_> {
    type Error = Stop;
    type Step = Step;

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
            let n = self.intern(s, false, None);
            out.push((n, Step::Initial));
        }
        Ok(())
    }

    fn successors(&mut self, node: u32, out: &mut Vec<(u32, bool, Step)>) -> Result<(), Stop> {
        self.expanding = Some(node);
        self.stats.visited += 1;
        let (s, phase) = self.nodes.get_index(node as usize).expect("a node").clone();
        // Into phase 1 first: a counterexample is found before the rest of
        // phase 0 is explored.
        if !phase
            && !self.query.initial_only
            && let Some(n) = self.enter(&s, Some(node))?
        {
            out.push((n, false, Step::Enter));
        }
        let mut buffer = std::mem::take(&mut self.buffer);
        self.zg.successors(&s, &mut self.transitions, &mut buffer).map_err(|e| self.run_error(e))?;
        for (mut next, t) in buffer.drain(..) {
            if phase && !self.holds(&self.query.stay, &next).map_err(|e| self.run_error(e))? {
                continue;
            }
            self.forget_z(phase, &mut next);
            let n = self.intern(next, phase, Some((node, Step::Edge(t.clone()))));
            out.push((n, false, Step::Edge(t)));
        }
        self.buffer = buffer;
        if self.ticks.tracks(phase) {
            if let Some(mut next) = tick_exact(&mut self.zg, &s, self.z).map_err(|e| self.run_error(e))? {
                self.zg.extrapolate(&mut next);
                let n = self.intern(next, phase, Some((node, Step::Tick)));
                out.push((n, true, Step::Tick));
            }
        } else if self.diverges_in_place(&s).map_err(|e| self.run_error(e))? {
            out.push((node, true, Step::Tick));
        }
        self.stats.transitions += out.len() as u64;
        Ok(())
    }

    fn counterexample(&self, node: u32) -> bool {
        self.nodes.get_index(node as usize).expect("a node").1
    }

    fn check_limits(&mut self) -> Result<(), Stop> {
        if self.limits.max_states.is_some_and(|m| self.stats.visited >= m) {
            return Err(Stop::Limit(Unknown::StateLimit));
        }
        if self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Limit(Unknown::Timeout));
        }
        Ok(())
    }
}
