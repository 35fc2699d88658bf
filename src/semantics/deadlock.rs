//! Deadlocked valuations of a symbolic state (FORMAT.md: a valuation is
//! deadlocked when no discrete step is possible from it, now or after any
//! delay the invariants allow). A zone can be partly deadlocked.

use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::domain::poly::Q;
use crate::domain::zone::Bound;
use crate::semantics::{Discrete, RunError, Transition, ZoneGraph, ZoneState};

/// What the enabling zones of one state's steps share, computed once for
/// all of them, and their scratch space ([`ZoneGraph::deadlocked_by`],
/// which keeps it for its next call: most calls find a step enabled
/// everywhere at once, and allocating would be most of their cost).
pub struct Enabling<S> {
    delay: bool,
    /// Every valuation (a linear network's variables may be negative;
    /// clocks never are).
    universe: S,
    /// The valuations a step may start from: every one, cut by the source
    /// invariants when time may pass.
    from: S,
    /// With delay on a linear network, its variables' rates in the source.
    rates: Option<Vec<(Q, Q)>>,
    /// The target of the step being looked at, and its clock resets.
    next: Discrete,
    resets: Vec<(u32, i64)>,
    /// The target invariants' pre-image.
    inv: S,
    /// The enabling zone of the step being looked at.
    g: S,
}

impl<S: ClockSet> ZoneGraph<'_, S> {
    /// The shared part of `s`'s enabling zones, in `e` (buffers of an
    /// earlier call, if any, reused); false when its invariants hold
    /// nowhere (with delay), so that no step can be taken.
    fn enabling(&mut self, s: &ZoneState<S>, delay: bool, e: &mut Option<Enabling<S>>) -> Result<bool, RunError> {
        let linear = self.net.hybrid.is_some();
        let e = e.get_or_insert_with(|| {
            // A linear network's variables may be negative; clocks never are.
            let universe = if linear { S::space(self.dim()) } else { S::universe(self.dim()) };
            let (from, inv, g) = (universe.clone(), universe.clone(), universe.clone());
            Enabling { delay, universe, from, rates: None, next: s.discrete.clone(), resets: Vec::new(), inv, g }
        });
        let wrap = |x| RunError { error: x, transition: None };
        e.delay = delay;
        e.rates = if linear && delay { Some(self.rates(&s.discrete).map_err(wrap)?) } else { None };
        e.from.clone_from(&e.universe);
        Ok(!delay || self.invariant(&s.discrete, &mut e.from).map_err(wrap)?)
    }

    /// Writes into `g` the valuations of `s` from which step `t` can be
    /// taken now, or after some delay when time may pass: its guard,
    /// intersected with the valuations whose reset image satisfies the
    /// target invariants, then (with delay) every valuation below such a
    /// point within the source invariants. False when the step can never
    /// be taken.
    fn enabling_zone(&mut self, s: &ZoneState<S>, t: &Transition, e: &mut Enabling<S>) -> Result<bool, RunError> {
        let g = &mut e.g;
        let back = |z: &mut S| match &e.rates {
            Some(r) => z.elapse_rates(r, true),
            None => z.elapse_back(),
        };
        g.clone_from(&e.from);
        if !self.guard(&s.discrete, t, g)? {
            return Ok(false);
        }
        // The updates run (and may raise a run-time error) only if the guard
        // holds somewhere in the state, now or after a delay (FORMAT.md);
        // it does when it holds inside the state (as with the stuck
        // valuations, whose state is its invariant): a guard that holds
        // leaves `g` non-empty.
        if !g.is_subset_of(&s.zone) {
            e.inv.clone_from(g);
            if e.delay {
                back(&mut e.inv);
            }
            if !e.inv.intersect(&s.zone) {
                return Ok(false);
            }
        }
        if !self.discrete_post_into(&s.discrete, t, &mut e.resets, &mut e.next)? {
            return Ok(false);
        }
        e.inv.clone_from(&e.universe);
        let wrap = |x| RunError { error: x, transition: Some(t.clone()) };
        if !self.invariant(&e.next, &mut e.inv).map_err(wrap)? {
            return Ok(false);
        }
        // Pre-image of the resets, last first: {u | u[x := c] ∈ inv}.
        for &(x, c) in e.resets.iter().rev() {
            let (x, c) = (x as usize, c as i32);
            if !(e.inv.constrain(x, 0, Bound::le(c)) && e.inv.constrain(0, x, Bound::le(-c))) {
                return Ok(false);
            }
            e.inv.free(x);
        }
        self.apply_assigns(&mut e.inv, true);
        if !g.intersect(&e.inv) {
            return Ok(false);
        }
        if e.delay {
            back(g);
        }
        Ok(true)
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
    /// The set is cut into pieces only once a step leaves part of `s`
    /// enabled: most states have a step enabled everywhere in them.
    pub fn deadlocked_by(
        &mut self,
        s: &ZoneState<S>,
        transitions: &[Transition],
        delay: bool,
    ) -> Result<Federation<S>, RunError> {
        let whole = || Federation::from_zone(s.zone.clone());
        if transitions.is_empty() || s.zone.is_empty() {
            return Ok(whole());
        }
        let mut e = self.enabling.take();
        let left = self.disabled_part(s, transitions, delay, &mut e);
        self.enabling = e;
        Ok(left?.unwrap_or_else(whole))
    }

    /// [`ZoneGraph::deadlocked_by`] with its scratch space `e`; `None` when
    /// no step is enabled anywhere in `s` (all of it is deadlocked).
    fn disabled_part(
        &mut self,
        s: &ZoneState<S>,
        transitions: &[Transition],
        delay: bool,
        e: &mut Option<Enabling<S>>,
    ) -> Result<Option<Federation<S>>, RunError> {
        if !self.enabling(s, delay, e)? {
            return Ok(None);
        }
        let e = e.as_mut().expect("made by `enabling`");
        let mut left: Option<Federation<S>> = None;
        for t in transitions {
            if !self.enabling_zone(s, t, e)? {
                continue;
            }
            let rest = match &left {
                None if s.zone.is_subset_of(&e.g) => return Ok(Some(Federation::empty())),
                None => Federation::from_zone(s.zone.clone()).subtract_zone(&e.g),
                Some(f) => f.subtract_zone(&e.g),
            };
            if rest.is_empty() {
                return Ok(Some(rest));
            }
            left = Some(rest);
        }
        Ok(left)
    }
}
