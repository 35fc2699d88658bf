//! Discrete successors and time elapse on zones.

use num_traits::Zero;

use crate::domain::ClockSet;
use crate::domain::poly::Q;
use crate::domain::zone::{Bound, Dbm, NO_BOUND};
use crate::model::decl::OutOfRange;
use crate::model::typed::Dir;
use crate::model::types::Party;
use crate::network::{ChannelIndex, ClockConstraint, EvalError, Network, Target, Update};
use crate::semantics::{Discrete, RunError, Transition, ZoneState};

use super::broadcast::ZoneCut;

/// How zones are abstracted after each step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abstraction {
    /// Exact zones (the graph may be infinite).
    None,
    /// ExtraLU+ with per-location bounds: sound and complete for location,
    /// data and guard-like clock reachability.
    Lu,
    /// ExtraLU+ with `L = U = max(L, U)`, i.e. Extra_M+: its classes are
    /// bisimilar, so it also preserves deadlocks.
    M,
}

/// The zone graph of a network over the clock sets `S`, with scratch space
/// for its computations.
pub struct ZoneGraph<'n, S = Dbm> {
    pub net: &'n Network,
    pub abstraction: Abstraction,
    pub(super) stack: Vec<i64>,
    /// The network's LU bounds in the zone library's units: per process and
    /// location the `(clock, L, U)` it bounds, and the global floor.
    lu_local: Vec<Vec<Vec<(u32, i32, i32)>>>,
    lu_global_lower: Vec<i32>,
    lu_global_upper: Vec<i32>,
    /// Whether some channel is urgent (else enabled edges never block a delay).
    urgent_channels: bool,
    /// Per-clock bounds (slot k - 1 is clock k), for the zone library.
    pub lower: Vec<i32>,
    pub upper: Vec<i32>,
    /// Enabled synchronising edges: (channel, direction, process, edge).
    syncs: Vec<(u32, Dir, u32, u32)>,
    /// The clock resets of the step being computed.
    resets: Vec<(u32, i64)>,
    /// The linear assignments of the last discrete step computed, in order:
    /// `(process, edge, update, value of its integer part)`.
    pub(super) assigns: Vec<(u32, u32, u32, i64)>,
    /// Enabled internal edges: (process, edge).
    internal: Vec<(u32, u32)>,
    /// Successor slots a shorter successor list left over, kept for the
    /// next one: a caller's list then stops allocating once it has held
    /// the largest number of successors, however the counts vary.
    spare: Vec<(ZoneState<S>, Transition)>,
    /// [`ZoneGraph::deadlocked_by`]'s scratch space, kept for its next call.
    pub(super) enabling: Option<super::deadlock::Enabling<S>>,
    /// [`ZoneGraph::transitions_of`]'s zones, kept for its next call.
    cut_zones: Vec<S>,
}

pub(super) fn err(error: EvalError, edges: &[(u32, u32)]) -> RunError {
    RunError { error, transition: Some(Transition { edges: edges.to_vec(), out: Vec::new(), unless: Vec::new() }) }
}

/// An update of `t` failed: the whole transition is kept (a broadcast's
/// receivers left out, a priority cell), so that a trace to the error ends
/// where `t` is taken.
fn failed(error: EvalError, t: &Transition) -> RunError {
    RunError { error, transition: Some(t.clone()) }
}

/// An update failed: with `out_of_range: disable`, a variable assigned out of
/// its range (in a function too) disables the step; anything else is an error.
fn disabled_or(error: EvalError, mode: OutOfRange, t: &Transition) -> Result<bool, RunError> {
    match (mode, error.innermost()) {
        (OutOfRange::Disable, EvalError::OutOfRange { .. }) => Ok(false),
        _ => Err(failed(error, t)),
    }
}

impl<'n> ZoneGraph<'n, Dbm> {
    /// The zone graph on DBMs.
    pub fn new(net: &'n Network, abstraction: Abstraction) -> Self {
        Self::with_sets(net, abstraction)
    }
}

impl<'n, S: ClockSet> ZoneGraph<'n, S> {
    /// The graph over clock sets of type `S`.
    pub fn with_sets(net: &'n Network, abstraction: Abstraction) -> Self {
        let dim = net.dim();
        ZoneGraph {
            net,
            abstraction,
            stack: Vec::new(),
            lu_local: net
                .lu
                .local
                .iter()
                .map(|p| {
                    p.iter().map(|l| l.iter().map(|&(x, lo, up)| (x, bound32(lo), bound32(up))).collect()).collect()
                })
                .collect(),
            lu_global_lower: net.lu.global.iter().skip(1).map(|&(lo, _)| bound32(lo)).collect(),
            lu_global_upper: net.lu.global.iter().skip(1).map(|&(_, up)| bound32(up)).collect(),
            urgent_channels: net.channels.iter().any(|c| c.urgent),
            lower: vec![NO_BOUND; dim - 1],
            upper: vec![NO_BOUND; dim - 1],
            syncs: Vec::new(),
            resets: Vec::new(),
            assigns: Vec::new(),
            internal: Vec::new(),
            spare: Vec::new(),
            enabling: None,
            cut_zones: Vec::new(),
        }
    }

    pub fn dim(&self) -> usize {
        self.net.dim()
    }

    /// Intersects `zone` with `x_i - x_j ≺ ±bound` evaluated on `d`.
    pub fn constrain(&mut self, c: &ClockConstraint, d: &Discrete, zone: &mut S) -> Result<bool, EvalError> {
        let v = c.bound.eval(&d.locs, &d.data, &mut self.stack)?;
        if let Some(l) = &c.linear {
            let v = if c.negate { v.checked_neg().ok_or(EvalError::Overflow)? } else { v };
            return Ok(zone.constrain_linear(&l.terms, c.strict, &(Q::from_integer(v.into()) + &l.offset)));
        }
        let v = if c.negate { -v } else { v };
        // Bounds were checked against 2^28 over the data ranges at load.
        let v = v as i32;
        let b = if c.strict { Bound::lt(v) } else { Bound::le(v) };
        Ok(zone.constrain(c.i as usize, c.j as usize, b))
    }

    /// Intersects `zone` with the negation of `c` evaluated on `d`:
    /// `¬(x_i - x_j ≺ v)` is `x_j - x_i ≺' -v` with the other strictness.
    fn constrain_not(&mut self, c: &ClockConstraint, d: &Discrete, zone: &mut S) -> Result<bool, EvalError> {
        let v = c.bound.eval(&d.locs, &d.data, &mut self.stack)?;
        let v = if c.negate { v.checked_neg().ok_or(EvalError::Overflow)? } else { v };
        if let Some(l) = &c.linear {
            let terms: Vec<(u32, i64)> = l.terms.iter().map(|&(x, a)| (x, -a)).collect();
            return Ok(zone.constrain_linear(&terms, !c.strict, &-(Q::from_integer(v.into()) + &l.offset)));
        }
        let v = -(v as i32);
        let b = if c.strict { Bound::le(v) } else { Bound::lt(v) };
        Ok(zone.constrain(c.j as usize, c.i as usize, b))
    }

    /// Intersects `zone` with the clock guard of edge `e` of process `p`.
    pub(super) fn edge_guard(&mut self, d: &Discrete, p: u32, e: u32, zone: &mut S) -> Result<bool, EvalError> {
        let net = self.net;
        for c in &net.processes[p as usize].edges[e as usize].guard_clocks {
            if !self.constrain(c, d, zone)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Intersects `zone` with the cell `(p, e, k)` of a receiver staying
    /// out ([`Transition::out`]): the atoms of the edge's clock guard
    /// before `k` hold, atom `k` fails.
    pub(super) fn stay_out(
        &mut self,
        d: &Discrete,
        (p, e, k): (u32, u32, u32),
        zone: &mut S,
    ) -> Result<bool, EvalError> {
        let atoms = &self.net.processes[p as usize].edges[e as usize].guard_clocks;
        for c in &atoms[..k as usize] {
            if !self.constrain(c, d, zone)? {
                return Ok(false);
            }
        }
        self.constrain_not(&atoms[k as usize], d, zone)
    }

    /// Intersects `zone` with every invariant of `d`; false if empty or a
    /// data invariant fails.
    pub fn invariant(&mut self, d: &Discrete, zone: &mut S) -> Result<bool, EvalError> {
        let net = self.net;
        for (p, &l) in d.locs.iter().enumerate() {
            let loc = &net.processes[p].locations[l as usize];
            if let Some(code) = &loc.invariant_data
                && code.eval(&d.locs, &d.data, &mut self.stack)? == 0
            {
                return Ok(false);
            }
            for c in &loc.invariant {
                if !self.constrain(c, d, zone)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Intersects `zone` with the upper bounds `x <= c` among the invariants
    /// of `d`: after a delay from a zone meeting all of them, the others
    /// still hold (a delay keeps differences and only raises clocks), and
    /// so do the data invariants.
    fn upper_invariant(&mut self, d: &Discrete, zone: &mut S) -> Result<bool, EvalError> {
        let net = self.net;
        for (p, &l) in d.locs.iter().enumerate() {
            for c in &net.processes[p].locations[l as usize].invariant {
                if c.j == 0 && c.i != 0 && !self.constrain(c, d, zone)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Whether time may pass in `d`: no urgent or committed location, and no
    /// synchronisation on an urgent channel enabled.
    pub fn can_delay(&mut self, d: &Discrete) -> Result<bool, RunError> {
        if self.in_urgent_location(d) {
            return Ok(false);
        }
        if !self.urgent_channels {
            return Ok(true);
        }
        let mut internal = std::mem::take(&mut self.internal);
        internal.clear();
        let enabled = self.enabled_edges(d, &mut internal);
        self.internal = internal;
        enabled?;
        Ok(!self.urgent_sync_enabled())
    }

    /// [`ZoneGraph::can_delay`] right after [`ZoneGraph::transitions`] of
    /// `d`, which left its enabled synchronising edges in `self.syncs`: no
    /// guard is evaluated again.
    pub fn can_delay_after_transitions(&self, d: &Discrete) -> bool {
        !(self.in_urgent_location(d) || (self.urgent_channels && self.urgent_sync_enabled()))
    }

    fn in_urgent_location(&self, d: &Discrete) -> bool {
        d.locs.iter().enumerate().any(|(p, &l)| {
            let loc = &self.net.processes[p].locations[l as usize];
            loc.urgent || loc.committed
        })
    }

    /// Whether `self.syncs` (the enabled synchronising edges) holds a
    /// synchronisation on an urgent channel.
    fn urgent_sync_enabled(&self) -> bool {
        let syncs = &self.syncs;
        syncs.iter().any(|&(c, dir, p, _)| {
            let ch = &self.net.channels[c as usize];
            ch.urgent
                && dir == Dir::Send
                && (ch.broadcast || syncs.iter().any(|&(c2, d2, q, _)| c2 == c && d2 == Dir::Receive && q != p))
        })
    }

    /// Edges whose data guards hold: internal ones into `internal`,
    /// synchronising ones into `self.syncs`, sorted by channel.
    fn enabled_edges(&mut self, d: &Discrete, internal: &mut Vec<(u32, u32)>) -> Result<(), RunError> {
        let net = self.net;
        self.syncs.clear();
        for (p, &l) in d.locs.iter().enumerate() {
            let proc_ = &net.processes[p];
            for &e in &proc_.outgoing[l as usize] {
                let edge = &proc_.edges[e as usize];
                let id = (p as u32, e);
                if let Some(g) = &edge.guard_data
                    && g.eval(&d.locs, &d.data, &mut self.stack).map_err(|x| err(x, &[id]))? == 0
                {
                    continue;
                }
                match &edge.sync {
                    None => internal.push(id),
                    Some(s) => {
                        let chan = match &s.channel {
                            ChannelIndex::Fixed(c) => *c,
                            ChannelIndex::Dynamic { base, len, index } => {
                                let i = index.eval(&d.locs, &d.data, &mut self.stack).map_err(|x| err(x, &[id]))?;
                                if i < 0 || i >= *len as i64 {
                                    return Err(err(EvalError::IndexOutOfBounds { index: i, len: *len }, &[id]));
                                }
                                base + i as u32
                            }
                        };
                        self.syncs.push((chan, s.dir, id.0, id.1));
                    }
                }
            }
        }
        self.syncs.sort_unstable_by_key(|&(c, dir, p, e)| (c, dir == Dir::Receive, p, e));
        Ok(())
    }

    /// The discrete steps enabled by the data of `d` (clock guards are
    /// left to [`ZoneGraph::post`]), with the committed rule applied.
    pub fn transitions(&mut self, d: &Discrete, out: &mut Vec<Transition>) -> Result<(), RunError> {
        self.transitions_cut(d, None, out)
    }

    /// [`ZoneGraph::transitions`] of `s`, but for broadcasts whose
    /// receivers' clock guards cannot hold together in its zone (steps
    /// without successor; `semantics::broadcast` says why they matter).
    /// Once `go_on` says no, the steps found so far.
    pub fn transitions_of(
        &mut self,
        s: &ZoneState<S>,
        out: &mut Vec<Transition>,
        go_on: &mut dyn FnMut() -> bool,
    ) -> Result<(), RunError> {
        let zones = std::mem::take(&mut self.cut_zones);
        let mut cut = ZoneCut { d: &s.discrete, zone: &s.zone, zones, go_on };
        let done = self.transitions_cut(&s.discrete, Some(&mut cut), out);
        self.cut_zones = cut.zones;
        done
    }

    fn transitions_cut(
        &mut self,
        d: &Discrete,
        mut zone: Option<&mut ZoneCut<'_, S>>,
        out: &mut Vec<Transition>,
    ) -> Result<(), RunError> {
        let net = self.net;
        let committed = |p: u32| net.processes[p as usize].locations[d.locs[p as usize] as usize].committed;
        let any_committed = (0..d.locs.len() as u32).any(committed);
        let mut internal = std::mem::take(&mut self.internal);
        internal.clear();
        let enabled = self.enabled_edges(d, &mut internal);
        let mut emitted = Emitted { out, n: 0 };
        if enabled.is_ok() {
            for &id in &internal {
                // An observer's internal edges are exempt from the committed rule.
                if !any_committed || committed(id.0) || net.processes[id.0 as usize].observer {
                    emitted.push(&[id], &[]);
                }
            }
        }
        self.internal = internal;
        enabled?;
        let syncs = std::mem::take(&mut self.syncs);
        let mut start = 0;
        while start < syncs.len() {
            let chan = syncs[start].0;
            let end = start + syncs[start..].iter().take_while(|s| s.0 == chan).count();
            let group = &syncs[start..end];
            let split = group.iter().take_while(|s| s.1 == Dir::Send).count();
            let (senders, receivers) = group.split_at(split);
            let parties = &net.channels[chan as usize].parties;
            if !parties.is_empty() {
                vector(parties, group, any_committed, &committed, &mut emitted);
            } else if net.channels[chan as usize].broadcast {
                for s in senders {
                    self.broadcast(s, receivers, &committed, any_committed, zone.as_deref_mut(), &mut emitted);
                }
            } else {
                for s in senders {
                    for r in receivers {
                        if r.2 != s.2 && (!any_committed || committed(s.2) || committed(r.2)) {
                            emitted.push(&[(s.2, s.3), (r.2, r.3)], &[]);
                        }
                    }
                }
            }
            start = end;
        }
        self.syncs = syncs;
        emitted.finish();
        if self.net.priorities.is_some() {
            self.prioritise(d, zone, out)?;
        }
        Ok(())
    }

    /// The discrete effect of `t` from `d`: new locations and data, and the
    /// clock resets in order. `None` when an out-of-range assignment
    /// disables the step (`out_of_range: disable`).
    pub fn discrete_post(
        &mut self,
        d: &Discrete,
        t: &Transition,
        resets: &mut Vec<(u32, i64)>,
    ) -> Result<Option<Discrete>, RunError> {
        let mut next = d.clone();
        Ok(self.discrete_post_into(d, t, resets, &mut next)?.then_some(next))
    }

    /// [`ZoneGraph::discrete_post`] into `next`, reusing its buffers;
    /// false when the step is disabled.
    pub(super) fn discrete_post_into(
        &mut self,
        d: &Discrete,
        t: &Transition,
        resets: &mut Vec<(u32, i64)>,
        next: &mut Discrete,
    ) -> Result<bool, RunError> {
        let net = self.net;
        next.clone_from(d);
        resets.clear();
        self.assigns.clear();
        for &(p, e) in &t.edges {
            let edge = &net.processes[p as usize].edges[e as usize];
            next.locs[p as usize] = edge.to;
        }
        for &(p, e) in &t.edges {
            let edge = &net.processes[p as usize].edges[e as usize];
            for (k, u) in edge.updates.iter().enumerate() {
                match u {
                    Update::Reset { clock, value } => resets.push((*clock, *value)),
                    Update::Assign { value, .. } => {
                        let v = value.eval(&next.locs, &next.data, &mut self.stack).map_err(|x| failed(x, t))?;
                        self.assigns.push((p, e, k as u32, v));
                    }
                    Update::Effect(code) => {
                        if let Err(x) = code.exec(&next.locs, &mut next.data, &mut self.stack) {
                            return disabled_or(x, net.out_of_range, t);
                        }
                    }
                    Update::Data { target, value } => {
                        let v = match value.exec(&next.locs, &mut next.data, &mut self.stack) {
                            Ok(v) => v,
                            Err(x) => return disabled_or(x, net.out_of_range, t),
                        };
                        let slot = match target {
                            Target::Slot(s) => *s,
                            Target::Indexed { base, len, index } => {
                                let i =
                                    index.eval(&next.locs, &next.data, &mut self.stack).map_err(|x| failed(x, t))?;
                                if i < 0 || i >= *len as i64 {
                                    return Err(failed(EvalError::IndexOutOfBounds { index: i, len: *len }, t));
                                }
                                base + i as u32
                            }
                        };
                        let s = &net.slots[slot as usize];
                        if v < s.lo || v > s.hi {
                            return match net.out_of_range {
                                OutOfRange::Disable => Ok(false),
                                OutOfRange::Error => Err(failed(EvalError::OutOfRange { slot, value: v }, t)),
                            };
                        }
                        next.data[slot as usize] = v;
                    }
                }
            }
        }
        Ok(true)
    }

    /// Intersects `zone` with the clock guards of `t`, evaluated on `d`.
    pub fn guard(&mut self, d: &Discrete, t: &Transition, zone: &mut S) -> Result<bool, RunError> {
        for &(p, e) in &t.edges {
            if !self.edge_guard(d, p, e, zone).map_err(|x| err(x, &t.edges))? {
                return Ok(false);
            }
        }
        for &cell in &t.out {
            if !self.stay_out(d, cell, zone).map_err(|x| err(x, &t.edges))? {
                return Ok(false);
            }
        }
        Ok(t.unless.iter().all(|cut| cut.constrain(zone)))
    }

    /// The successor of `s` by `t` before abstraction: guard, updates,
    /// target invariants, time elapse. `None` when the step is impossible.
    pub fn post_exact(&mut self, s: &ZoneState<S>, t: &Transition) -> Result<Option<ZoneState<S>>, RunError> {
        let mut next = s.clone();
        Ok(self.post_exact_into(s, t, &mut next)?.then_some(next))
    }

    /// [`ZoneGraph::post_exact`] into `next`, reusing its buffers; false
    /// when the step is impossible (`next` is then garbage).
    fn post_exact_into(&mut self, s: &ZoneState<S>, t: &Transition, next: &mut ZoneState<S>) -> Result<bool, RunError> {
        if !self.enter_into(s, t, next)? {
            return Ok(false);
        }
        self.settle(next, Some(t))
    }

    /// The valuations the step `t` from `s` enters its target with, before
    /// any delay and before the target invariants (traces rebuild runs from
    /// these). `None` when the step is impossible.
    pub fn enter(&mut self, s: &ZoneState<S>, t: &Transition) -> Result<Option<ZoneState<S>>, RunError> {
        let mut next = s.clone();
        Ok(self.enter_into(s, t, &mut next)?.then_some(next))
    }

    /// [`ZoneGraph::enter`] into `next`; false when the step is impossible.
    fn enter_into(&mut self, s: &ZoneState<S>, t: &Transition, next: &mut ZoneState<S>) -> Result<bool, RunError> {
        next.zone.clone_from(&s.zone);
        if !self.guard(&s.discrete, t, &mut next.zone)? {
            return Ok(false);
        }
        let mut resets = std::mem::take(&mut self.resets);
        let enabled = self.discrete_post_into(&s.discrete, t, &mut resets, &mut next.discrete);
        self.resets = resets;
        if !enabled? {
            return Ok(false);
        }
        for &(x, v) in &self.resets {
            next.zone.reset(x as usize, v as i32);
        }
        self.apply_assigns(&mut next.zone, false);
        Ok(true)
    }

    /// The linear assignments of the last discrete step on `zone` (with
    /// `pre`, their pre-image: last first).
    pub fn apply_assigns(&self, zone: &mut S, pre: bool) {
        let net = self.net;
        let one = |&(p, e, k, v): &(u32, u32, u32, i64)| {
            let Update::Assign { var, terms, .. } = &net.processes[p as usize].edges[e as usize].updates[k as usize]
            else {
                unreachable!("`assigns` lists assignments")
            };
            (*var as usize, terms, Q::from_integer(v.into()))
        };
        if pre {
            for (x, terms, v) in self.assigns.iter().rev().map(one) {
                zone.assign_linear(x, terms, &v, true);
            }
        } else {
            for (x, terms, v) in self.assigns.iter().map(one) {
                zone.assign_linear(x, terms, &v, false);
            }
        }
    }

    /// The rate interval of every variable in `d` (linear networks).
    pub fn rates(&self, d: &Discrete) -> Result<Vec<(Q, Q)>, EvalError> {
        let h = self.net.hybrid.as_ref().expect("a linear network");
        h.rates_at(&d.locs, &d.data)
    }

    /// Target invariants, then time elapse where allowed; false if the
    /// invariants leave nothing.
    fn settle(&mut self, s: &mut ZoneState<S>, t: Option<&Transition>) -> Result<bool, RunError> {
        let wrap = |x: EvalError| RunError { error: x, transition: t.cloned() };
        if !self.invariant(&s.discrete, &mut s.zone).map_err(wrap)? {
            return Ok(false);
        }
        self.delay(s, t)?;
        Ok(true)
    }

    /// Time elapse where allowed, within the invariants. Pre: `s` meets them.
    pub fn delay(&mut self, s: &mut ZoneState<S>, t: Option<&Transition>) -> Result<(), RunError> {
        let wrap = |x: EvalError| RunError { error: x, transition: t.cloned() };
        if self.can_delay(&s.discrete)? {
            if self.net.hybrid.is_some() {
                // Rates may lower a variable: every invariant is met again.
                let rates = self.rates(&s.discrete).map_err(wrap)?;
                s.zone.elapse_rates(&rates, false);
                self.invariant(&s.discrete, &mut s.zone).map_err(wrap)?;
            } else {
                s.zone.elapse();
                self.upper_invariant(&s.discrete, &mut s.zone).map_err(wrap)?;
            }
        }
        Ok(())
    }

    /// The initial valuations before the invariants: every clock 0, and
    /// in a linear network each continuous variable in its initial interval.
    pub fn initial_zone(&self) -> S {
        match &self.net.hybrid {
            Some(h) => {
                let clocks = (1..h.first_continuous).map(|_| (Q::zero(), Q::zero()));
                S::boxed(&clocks.chain(h.init.iter().cloned()).collect::<Vec<_>>())
            }
            None => S::zero(self.net.dim()),
        }
    }

    /// Every successor of `s` with its step. The states already in `out`
    /// are overwritten rather than dropped, and those left over kept aside
    /// for the next call, so that a caller passing the same vector each
    /// time allocates nothing in the steady state.
    pub fn successors(
        &mut self,
        s: &ZoneState<S>,
        transitions: &mut Vec<Transition>,
        out: &mut Vec<(ZoneState<S>, Transition)>,
    ) -> Result<(), RunError> {
        self.successors_while(s, transitions, out, || true)
    }

    /// [`ZoneGraph::successors`], asking `go_on` before each step whether
    /// to compute it: one expansion can take seconds or gigabytes (thousands
    /// of steps over thousands of clocks), and a search must be able to
    /// stop within it. Once `go_on` says no (the caller's closure knows
    /// it did), `out` holds the successors computed so far.
    pub fn successors_while(
        &mut self,
        s: &ZoneState<S>,
        transitions: &mut Vec<Transition>,
        out: &mut Vec<(ZoneState<S>, Transition)>,
        mut go_on: impl FnMut() -> bool,
    ) -> Result<(), RunError> {
        self.transitions_of(s, transitions, &mut go_on)?;
        self.successors_by_while(s, transitions, out, go_on)
    }

    /// [`ZoneGraph::successors`] of `s` by its discrete steps
    /// `transitions` ([`ZoneGraph::transitions`]), for a caller that needs
    /// them before the successors (as [`ZoneGraph::can_delay_after_transitions`]
    /// does).
    pub fn successors_by(
        &mut self,
        s: &ZoneState<S>,
        transitions: &[Transition],
        out: &mut Vec<(ZoneState<S>, Transition)>,
    ) -> Result<(), RunError> {
        self.successors_by_while(s, transitions, out, || true)
    }

    /// [`ZoneGraph::successors_by`] with the `go_on` of
    /// [`ZoneGraph::successors_while`].
    fn successors_by_while(
        &mut self,
        s: &ZoneState<S>,
        transitions: &[Transition],
        out: &mut Vec<(ZoneState<S>, Transition)>,
        mut go_on: impl FnMut() -> bool,
    ) -> Result<(), RunError> {
        let mut n = 0;
        for t in transitions {
            if !go_on() {
                break;
            }
            if n == out.len() {
                out.push(self.spare.pop().unwrap_or_else(|| (s.clone(), t.clone())));
            }
            let (next, step) = &mut out[n];
            if self.post_exact_into(s, t, next)? {
                self.extrapolate(next);
                step.clone_from(t);
                n += 1;
            }
        }
        self.spare.extend(out.drain(n..));
        Ok(())
    }

    /// The initial states before abstraction, one per initial data valuation
    /// (`init: any` gives several) whose invariants hold.
    pub fn initial_exact(&mut self, out: &mut Vec<ZoneState<S>>) -> Result<(), RunError> {
        let net = self.net;
        out.clear();
        let locs: Box<[u32]> = net.processes.iter().map(|p| p.initial).collect();
        let mut data: Vec<i64> = net.slots.iter().map(|s| s.init.0).collect();
        loop {
            let discrete = Discrete { locs: locs.clone(), data: data.clone().into_boxed_slice() };
            let mut s = ZoneState { discrete, zone: self.initial_zone() };
            if self.settle(&mut s, None)? {
                out.push(s);
            }
            // Next combination of the `init: any` slots, last slot fastest.
            let mut k = data.len();
            loop {
                if k == 0 {
                    return Ok(());
                }
                k -= 1;
                if data[k] < net.slots[k].init.1 {
                    data[k] += 1;
                    break;
                }
                data[k] = net.slots[k].init.0;
            }
        }
    }

    pub fn initial(&mut self, out: &mut Vec<ZoneState<S>>) -> Result<(), RunError> {
        self.initial_exact(out)?;
        for s in out.iter_mut() {
            self.extrapolate(s);
        }
        Ok(())
    }

    /// Loads the per-clock bounds of `d` into `self.lower` / `self.upper`.
    pub fn load_bounds(&mut self, d: &Discrete) {
        self.lower.copy_from_slice(&self.lu_global_lower);
        self.upper.copy_from_slice(&self.lu_global_upper);
        for (p, &loc) in d.locs.iter().enumerate() {
            for &(x, l, u) in &self.lu_local[p][loc as usize] {
                let k = x as usize - 1;
                self.lower[k] = self.lower[k].max(l);
                self.upper[k] = self.upper[k].max(u);
            }
        }
        // Priorities split steps by the negations of other steps' guards and
        // invariants: an upper bound `x <= c` there becomes the lower bound
        // `x > c`, so every bound must serve both ways.
        if self.abstraction == Abstraction::M || self.net.priorities.is_some() {
            for (l, u) in self.lower.iter_mut().zip(self.upper.iter_mut()) {
                let m = (*l).max(*u);
                (*l, *u) = (m, m);
            }
        }
    }

    pub fn extrapolate(&mut self, s: &mut ZoneState<S>) {
        if self.abstraction == Abstraction::None {
            return;
        }
        self.load_bounds(&s.discrete);
        s.zone.extrapolate(&self.lower, &self.upper);
    }
}

/// The steps of a synchronisation vector whose parties' enabled edges are
/// `group` (sorted by process): one edge of every strong party and of every
/// weak party that has one, in party order; none when a strong party has
/// none, or when no party at all has one (TChecker's rule for all-weak
/// vectors).
fn vector(
    parties: &[Party],
    group: &[(u32, Dir, u32, u32)],
    any_committed: bool,
    committed: &dyn Fn(u32) -> bool,
    out: &mut Emitted<'_>,
) {
    let mut options: Vec<&[(u32, Dir, u32, u32)]> = Vec::with_capacity(parties.len());
    for party in parties {
        let p = party.instance as u32;
        let start = group.partition_point(|s| s.2 < p);
        let n = group[start..].iter().take_while(|s| s.2 == p).count();
        match (n, party.weak) {
            (0, false) => return,
            (0, true) => {}
            _ => options.push(&group[start..start + n]),
        }
    }
    if options.is_empty() {
        return;
    }
    let mut choice = vec![0usize; options.len()];
    let mut edges = Vec::with_capacity(options.len());
    loop {
        edges.clear();
        edges.extend(options.iter().zip(&choice).map(|(o, &c)| (o[c].2, o[c].3)));
        if !any_committed || edges.iter().any(|e| committed(e.0)) {
            out.push(&edges, &[]);
        }
        if !next_choice(&mut choice, |k| options[k].len()) {
            return;
        }
    }
}

/// The next combination after `choice` in mixed radix (digit `k` below
/// `size(k)`, the last digit fastest); false after the last one.
fn next_choice(choice: &mut [usize], size: impl Fn(usize) -> usize) -> bool {
    for k in (0..choice.len()).rev() {
        choice[k] += 1;
        if choice[k] < size(k) {
            return true;
        }
        choice[k] = 0;
    }
    false
}

/// Transitions written over the ones already in a vector (reusing their
/// buffers: this runs for every expanded state), then the rest dropped.
pub(super) struct Emitted<'a> {
    out: &'a mut Vec<Transition>,
    n: usize,
}

impl Emitted<'_> {
    pub(super) fn push(&mut self, edges: &[(u32, u32)], out: &[(u32, u32, u32)]) {
        match self.out.get_mut(self.n) {
            Some(t) => {
                t.edges.clear();
                t.edges.extend_from_slice(edges);
                t.out.clear();
                t.out.extend_from_slice(out);
                t.unless.clear();
            }
            None => self.out.push(Transition { edges: edges.to_vec(), out: out.to_vec(), unless: Vec::new() }),
        }
        self.n += 1;
    }

    fn finish(self) {
        self.out.truncate(self.n);
    }
}

/// An LU bound in the zone library's units. A negative constant (`x <= n -
/// 10` over small `n`) says nothing a bound of 0 does not: clocks are never
/// negative, and 0 is finer, so sound.
fn bound32(v: i64) -> i32 {
    if v == crate::network::NO_BOUND { NO_BOUND } else { v.clamp(0, 1 << 29) as i32 }
}
