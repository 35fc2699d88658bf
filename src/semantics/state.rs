//! Symbolic states of the zone graph and the steps between them.

use crate::domain::ClockSet;
use crate::domain::poly::Q;
use crate::domain::zone::{Bound, Dbm};

/// The explicit part of a state: one location per process, one value per
/// data slot.
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Discrete {
    pub locs: Box<[u32]>,
    pub data: Box<[i64]>,
}

/// Written out because `derive` would not forward `clone_from`: copying into
/// an existing state of the same network then reuses its buffers, as the
/// successor computation does for every step.
impl Clone for Discrete {
    fn clone(&self) -> Self {
        Discrete { locs: self.locs.clone(), data: self.data.clone() }
    }

    fn clone_from(&mut self, source: &Self) {
        self.locs.clone_from(&source.locs);
        self.data.clone_from(&source.data);
    }
}

/// A discrete state and a convex set of clock valuations (a zone by
/// default).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ZoneState<S = Dbm> {
    pub discrete: Discrete,
    pub zone: S,
}

/// The edges that move together in one discrete step: the sender first,
/// then receivers in system order (the order updates run in); an internal
/// step has one edge.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transition {
    /// `(process, edge)` pairs.
    pub edges: Vec<(u32, u32)>,
    /// For a broadcast, the receiving edges `(process, edge, k)` of the
    /// processes that stay out although their data would let them join:
    /// the edge's clock guard fails at its atom `k`, the atoms before `k`
    /// holding (one cell of a disjoint split of the guard's complement).
    pub out: Vec<(u32, u32, u32)>,
    /// With priorities: the constraints of one cell of the valuations
    /// where no step of higher priority is possible (the step is split
    /// into one transition per cell; `semantics::priority`).
    pub unless: Vec<Cut>,
}

/// A constraint of a priority cell ([`Transition::unless`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cut {
    /// `x_i - x_j ≺ b` (timed networks).
    Diff(u32, u32, Bound),
    /// Linear networks (hybrid models, fixed rational parameters).
    Linear(Box<LinearCut>),
}

/// `Σ a_k·x_k ≺ rhs`, `<` when strict.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LinearCut {
    /// `(variable from 1, coefficient)`, each variable once, none zero.
    pub terms: Vec<(u32, i64)>,
    pub strict: bool,
    pub rhs: Q,
}

impl Cut {
    /// The complement: `¬(e ≺ b)` is `-e ≺' -b`, `≺'` the other strictness.
    pub fn complement(&self) -> Cut {
        match self {
            Cut::Diff(i, j, b) => Cut::Diff(*j, *i, b.complement()),
            Cut::Linear(l) => Cut::Linear(Box::new(LinearCut {
                terms: l.terms.iter().map(|&(x, a)| (x, -a)).collect(),
                strict: !l.strict,
                rhs: -&l.rhs,
            })),
        }
    }

    /// Intersects `zone` with the constraint; false when it becomes empty.
    pub fn constrain<S: ClockSet>(&self, zone: &mut S) -> bool {
        match self {
            Cut::Diff(i, j, b) => zone.constrain(*i as usize, *j as usize, *b),
            Cut::Linear(l) => zone.constrain_linear(&l.terms, l.strict, &l.rhs),
        }
    }
}
