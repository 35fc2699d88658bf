//! The state space the fixpoints run on: the discrete states a forward pass
//! found reachable, each with its invariant, whether time may pass there,
//! and the discrete steps between them with their guards and resets.
//!
//! Restricting to these discrete states is exact for every reachable
//! state (the successors of a reachable state are reachable, and the
//! value of a formula at a state depends only on the runs from it).
//! A step whose target was never found, or whose data update fails, is
//! never enabled in a reachable valuation (the forward pass would have
//! taken it); leaving it out changes values only at unreachable
//! valuations, which no reachable state's value depends on.

use indexmap::{IndexMap, IndexSet};
use rustc_hash::FxBuildHasher;

use crate::domain::federation::Federation;
use crate::domain::zone::Dbm;
use crate::engine::reach::{self, End, Order};
use crate::engine::store::Cover;
use crate::engine::{Stats, Unknown};
use crate::semantics::{Abstraction, Discrete, RunError, Transition, ZoneGraph, ZoneState};

/// One discrete step `from → to`.
pub struct Step {
    pub from: u32,
    pub to: u32,
    /// The clock guard, intersected with the source invariant.
    pub guard: Dbm,
    /// `(clock, value)` in the order they run.
    pub resets: Vec<(usize, i32)>,
    /// The edges taken, for a concrete run along the step.
    pub transition: Transition,
}

pub struct Space {
    /// Number of clocks plus one, without auxiliary clocks.
    pub dim: usize,
    pub states: IndexMap<Discrete, (), FxBuildHasher>,
    /// Per discrete state: its invariant, and whether time may pass.
    pub invariant: Vec<Dbm>,
    pub delay: Vec<bool>,
    pub steps: Vec<Step>,
    /// Per discrete state, the steps entering it.
    pub incoming: Vec<Vec<u32>>,
    /// Per discrete state, the steps leaving it.
    pub outgoing: Vec<Vec<u32>>,
    /// The initial discrete states (clocks all 0).
    pub initial: Vec<u32>,
}

/// How building the space ended without one.
pub enum Failed {
    Stopped(Unknown, Stats),
    /// A run-time error on a reachable state, with the forward search it
    /// was met in when it gives a path to it.
    Error {
        run: Option<Box<reach::Exploration>>,
        node: Option<u32>,
        error: RunError,
    },
}

impl Space {
    /// Explores the zone graph forward, then collects the discrete steps
    /// between the discrete states found.
    pub fn build(zg: &mut ZoneGraph<'_>, limits: &reach::Limits) -> Result<(Space, Stats), Failed> {
        let mut found: IndexSet<Discrete, FxBuildHasher> = IndexSet::default();
        let mut record = |_: &mut ZoneGraph<'_>, s: &ZoneState| {
            if !found.contains(&s.discrete) {
                found.insert(s.discrete.clone());
            }
            Ok(Federation::empty())
        };
        let cover = if zg.abstraction == Abstraction::None { Cover::Inclusion } else { Cover::Alu };
        let run = reach::explore(zg, Order::Bfs, cover, limits, &mut record);
        match run.end {
            End::Exhausted => {}
            End::Found { .. } => unreachable!("the forward pass has no target"),
            End::Stopped(why) => return Err(Failed::Stopped(why, run.stats)),
            End::Error { node, ref error } => {
                let error = error.clone();
                return Err(Failed::Error { run: Some(Box::new(run)), node, error });
            }
        }
        let mut space = Space {
            dim: zg.dim(),
            states: IndexMap::default(),
            invariant: Vec::new(),
            delay: Vec::new(),
            steps: Vec::new(),
            incoming: vec![Vec::new(); found.len()],
            outgoing: vec![Vec::new(); found.len()],
            initial: Vec::new(),
        };
        space.connect(zg, found).map_err(|error| Failed::Error { run: None, node: None, error })?;
        Ok((space, run.stats))
    }

    /// Invariants, delays and steps of the discrete states `found`.
    fn connect(&mut self, zg: &mut ZoneGraph<'_>, found: IndexSet<Discrete, FxBuildHasher>) -> Result<(), RunError> {
        for d in found {
            let mut inv = Dbm::universe(self.dim);
            let met = zg.invariant(&d, &mut inv).map_err(|error| RunError { error, transition: None })?;
            debug_assert!(met, "a reached state meets its invariant");
            self.delay.push(zg.can_delay(&d)?);
            self.invariant.push(inv);
            self.states.insert(d, ());
        }
        let (mut transitions, mut resets) = (Vec::new(), Vec::new());
        for from in 0..self.states.len() {
            let d = self.discrete(from as u32).clone();
            zg.transitions(&d, &mut transitions)?;
            for t in &transitions {
                let mut guard = self.invariant[from].clone();
                if !zg.guard(&d, t, &mut guard)? {
                    continue;
                }
                let Ok(Some(target)) = zg.discrete_post(&d, t, &mut resets) else { continue };
                let Some(to) = self.states.get_index_of(&target) else { continue };
                let id = self.steps.len() as u32;
                self.outgoing[from].push(id);
                self.incoming[to].push(id);
                self.steps.push(Step {
                    from: from as u32,
                    to: to as u32,
                    guard,
                    resets: resets.iter().map(|&(x, v)| (x as usize, v as i32)).collect(),
                    transition: t.clone(),
                });
            }
        }
        let mut initial = Vec::new();
        zg.initial_exact(&mut initial)?;
        self.initial = initial.iter().filter_map(|s| self.states.get_index_of(&s.discrete)).map(|i| i as u32).collect();
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn discrete(&self, d: u32) -> &Discrete {
        self.states.get_index(d as usize).expect("a known discrete state").0
    }
}
