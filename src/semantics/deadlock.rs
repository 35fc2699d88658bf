//! Deadlocked valuations of a symbolic state (FORMAT.md: a valuation is
//! deadlocked when no discrete step is possible from it, now or after any
//! delay the invariants allow). A zone can be partly deadlocked.

use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::domain::zone::Bound;
use crate::semantics::{RunError, Transition, ZoneGraph, ZoneState};

impl<S: ClockSet> ZoneGraph<'_, S> {
    /// The valuations of `s` from which step `t` can be taken now, or after
    /// some delay when time may pass: its guard, intersected with the
    /// valuations whose reset image satisfies the target invariants, then
    /// (with delay) every valuation below such a point within the source
    /// invariants. `None` when the step can never be taken.
    pub fn enabling_zone(&mut self, s: &ZoneState<S>, t: &Transition, delay: bool) -> Result<Option<S>, RunError> {
        let dim = self.dim();
        let linear = self.net.hybrid.is_some();
        // A linear network's variables may be negative; clocks never are.
        let universe = || if linear { S::space(dim) } else { S::universe(dim) };
        let wrap = |x| RunError { error: x, transition: None };
        let rates = if linear && delay { Some(self.rates(&s.discrete).map_err(wrap)?) } else { None };
        let back = |z: &mut S| match &rates {
            Some(r) => z.elapse_rates(r, true),
            None => z.elapse_back(),
        };
        let mut g = universe();
        if delay && !self.invariant(&s.discrete, &mut g).map_err(wrap)? {
            return Ok(None);
        }
        if !self.guard(&s.discrete, t, &mut g)? {
            return Ok(None);
        }
        // The updates run (and may raise a run-time error) only if the guard
        // holds somewhere in the state, now or after a delay (FORMAT.md).
        let mut reachable = g.clone();
        if delay {
            back(&mut reachable);
        }
        if !reachable.intersect(&s.zone) {
            return Ok(None);
        }
        let mut resets = Vec::new();
        let Some(target) = self.discrete_post(&s.discrete, t, &mut resets)? else { return Ok(None) };
        let mut inv = universe();
        let wrap = |x| RunError { error: x, transition: Some(t.clone()) };
        if !self.invariant(&target, &mut inv).map_err(wrap)? {
            return Ok(None);
        }
        // Pre-image of the resets, last first: {u | u[x := c] ∈ inv}.
        for &(x, c) in resets.iter().rev() {
            let (x, c) = (x as usize, c as i32);
            if !(inv.constrain(x, 0, Bound::le(c)) && inv.constrain(0, x, Bound::le(-c))) {
                return Ok(None);
            }
            inv.free(x);
        }
        self.apply_assigns(&mut inv, true);
        if !g.intersect(&inv) {
            return Ok(None);
        }
        if delay {
            back(&mut g);
        }
        Ok(Some(g))
    }

    /// The deadlocked valuations of `s`.
    pub fn deadlocked(&mut self, s: &ZoneState<S>) -> Result<Federation<S>, RunError> {
        let mut transitions = Vec::new();
        self.transitions(&s.discrete, &mut transitions)?;
        let delay = self.can_delay_after_transitions(&s.discrete);
        self.deadlocked_by(s, &transitions, delay)
    }

    /// The deadlocked valuations of `s`, given the discrete steps of its
    /// discrete state ([`ZoneGraph::transitions`]) and whether time may
    /// pass in it ([`ZoneGraph::can_delay`]): for a caller that has them.
    pub fn deadlocked_by(
        &mut self,
        s: &ZoneState<S>,
        transitions: &[Transition],
        delay: bool,
    ) -> Result<Federation<S>, RunError> {
        let mut fed = Federation::from_zone(s.zone.clone());
        for t in transitions {
            if fed.is_empty() {
                break;
            }
            if let Some(z) = self.enabling_zone(s, t, delay)? {
                fed = fed.subtract_zone(&z);
            }
        }
        Ok(fed)
    }
}
