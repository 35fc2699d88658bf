//! What [`super::sat`] builds every operator from, over any representation
//! of sets of states: maps discrete state → federation (explicit data,
//! [`super::explicit`]) or, per control, lists of (data BDD, federation)
//! ([`super::bdd`]). A set lives at a level: the number of formula clocks
//! appended after the model's (the last one is the newest).
//!
//! The greatest fixpoint of `EG` is written once here, from the
//! representation's least fixpoint (until) and Boolean operations.

use crate::domain::federation::Federation;
use crate::domain::zone::Bound;
use crate::engine::Unknown;
use crate::model::formula::{Formula, TimeBound};
use crate::model::typed::Cmp;

use super::sat::Stop;

pub trait Sets {
    type Set: Clone;

    /// Every state at `level` (inside the invariants).
    fn all(&mut self, level: usize) -> Self::Set;
    /// The states at `level` outside `x`.
    fn not(&mut self, level: usize, x: &Self::Set) -> Self::Set;
    fn union(&mut self, a: &Self::Set, b: &Self::Set) -> Self::Set;
    fn intersect(&mut self, a: &Self::Set, b: &Self::Set) -> Self::Set;
    /// `a ⊆ b` (same level).
    fn includes(&mut self, a: &Self::Set, b: &Self::Set) -> bool;
    /// `x` one level up: the new clock free.
    fn lift(&mut self, x: &Self::Set) -> Self::Set;
    /// The states of `x` (at `level + 1`) whose last clock is 0, at `level`.
    fn at_zero(&mut self, level: usize, x: &Self::Set) -> Self::Set;
    /// `x ∩ {z ~ b}`, `z` the last clock at `level` (≥ 1).
    fn within(&mut self, level: usize, x: &Self::Set, b: TimeBound) -> Self::Set;
    /// `x ∩ {not z ~ b}`.
    fn outside(&mut self, level: usize, x: &Self::Set, b: TimeBound) -> Self::Set;
    /// `E[stay U goal]` over run prefixes at `level` (pre: `goal ⊆ stay`):
    /// the least fixpoint of `X = pre_t(goal ∪ (stay ∩ pre_d(X)), not stay)`.
    fn until(&mut self, level: usize, stay: &Self::Set, goal: &Self::Set) -> Result<Self::Set, Unknown>;
    /// Counts one iteration against the limits.
    fn tick(&mut self) -> Result<(), Unknown>;
    /// A state formula (`Formula::State`) at level 0.
    fn atom(&mut self, f: &Formula) -> Result<Self::Set, Stop>;
    /// The states from which no discrete step is possible, now or after any
    /// delay, at level 0.
    fn deadlock(&mut self) -> Result<Self::Set, Stop>;
    /// Whether every initial state (clocks 0) is in `x` (level 0).
    fn holds_initially(&mut self, x: &Self::Set) -> bool;

    /// `EG phi` over time-divergent runs: the states with a divergent run
    /// along which `phi` holds at every point. With a tick clock `u`
    /// appended, the greatest fixpoint of
    /// `X = phi ∩ {v | (v, u = 0) ∈ E[phi U (X ∧ u >= 1)]}`: a run that keeps
    /// `phi` and comes back to X after one time unit, again and again,
    /// lets time diverge; conversely every point of a divergent `phi`-run
    /// is followed, one time unit later, by another.
    fn always_divergent(&mut self, level: usize, phi: &Self::Set) -> Result<Self::Set, Unknown> {
        let stay = self.lift(phi);
        let one = TimeBound { cmp: Cmp::Ge, value: 1 };
        let mut x = phi.clone();
        loop {
            self.tick()?;
            let lifted = self.lift(&x);
            let goal = self.within(level + 1, &lifted, one);
            let back = self.until(level + 1, &stay, &goal)?;
            let started = self.at_zero(level, &back);
            let next = self.intersect(&started, &x);
            // next ⊆ x always: stable once x ⊆ next.
            if self.includes(&x, &next) {
                return Ok(next);
            }
            x = next;
        }
    }

    /// The states with some time-divergent run.
    fn divergent(&mut self, level: usize) -> Result<Self::Set, Unknown> {
        let all = self.all(level);
        self.always_divergent(level, &all)
    }
}

/// `f ∩ {z ~ n}`, z the clock at index `z`.
pub fn within(f: &Federation, z: usize, b: TimeBound) -> Federation {
    let n = b.value as i32;
    match b.cmp {
        Cmp::Lt => f.constrain(z, 0, Bound::lt(n)),
        Cmp::Le => f.constrain(z, 0, Bound::le(n)),
        Cmp::Eq => f.constrain(z, 0, Bound::le(n)).constrain(0, z, Bound::le(-n)),
        Cmp::Ge => f.constrain(0, z, Bound::le(-n)),
        Cmp::Gt => f.constrain(0, z, Bound::lt(-n)),
    }
}

/// `f ∩ {not z ~ n}`.
pub fn outside(f: &Federation, z: usize, b: TimeBound) -> Federation {
    let n = b.value as i32;
    match b.cmp {
        Cmp::Lt => f.constrain(0, z, Bound::le(-n)),
        Cmp::Le => f.constrain(0, z, Bound::lt(-n)),
        Cmp::Eq => f.constrain(z, 0, Bound::lt(n)).union(f.constrain(0, z, Bound::lt(-n))),
        Cmp::Ge => f.constrain(z, 0, Bound::lt(n)),
        Cmp::Gt => f.constrain(z, 0, Bound::le(n)),
    }
}
