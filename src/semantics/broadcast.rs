//! The steps of a broadcast: the sender with, from every other process
//! whose data let it receive, one of its receiving edges, or that process
//! staying out where the clock guards of all of them fail.
//!
//! Staying out is split into disjoint cells, one failing atom per edge, so
//! a broadcast heard by k processes that each have one receiving edge with
//! an equality guard (`x == Offset`: two atoms) has 3^k choices: 2.5·10^12
//! for the 26 tasks of the Herschel-Planck schedulability models. A zone
//! usually allows a handful of them. With the zone the step leaves from,
//! the choices are searched depth-first, each receiver's option
//! intersected with what the earlier ones left, and a branch whose zone is
//! empty is cut: the steps emitted are exactly those whose clock guards
//! can hold together in the zone (the others have no successor), in the
//! order of the full enumeration.

use crate::domain::ClockSet;
use crate::model::typed::Dir;
use crate::network::Network;
use crate::semantics::Discrete;

use super::ZoneGraph;
use super::successors::Emitted;

/// An enabled synchronising edge: (channel, direction, process, edge).
pub(super) type Sync = (u32, Dir, u32, u32);

/// The zone a broadcast leaves from, and one zone per receiver chosen so
/// far (`zones[k]`: the sender's guard and the options of the first `k`
/// receivers).
pub(super) struct ZoneCut<'z, S> {
    pub d: &'z Discrete,
    pub zone: &'z S,
    pub zones: Vec<S>,
    /// Asked before each choice whether to go on: on many clocks (the
    /// polyhedra of a stopwatch model), each costs a search's limits time.
    pub go_on: &'z mut dyn FnMut() -> bool,
}

/// What the receivers' choices are cut against.
trait Cut {
    /// Whether choosing option `c` of `group` (its `c`-th edge, or past
    /// them a cell of staying out) after the first `k` groups' options
    /// leaves a valuation.
    fn enter(&mut self, k: usize, group: &[Sync], c: usize) -> bool;
}

/// No zone: every choice is emitted, clock guards left to the successor.
struct Uncut;

impl Cut for Uncut {
    fn enter(&mut self, _: usize, _: &[Sync], _: usize) -> bool {
        true
    }
}

struct Zoned<'a, 'z, 'n, S: ClockSet> {
    zg: &'a mut ZoneGraph<'n, S>,
    cut: &'a mut ZoneCut<'z, S>,
}

impl<S: ClockSet> Cut for Zoned<'_, '_, '_, S> {
    fn enter(&mut self, k: usize, group: &[Sync], c: usize) -> bool {
        if !(self.cut.go_on)() {
            return false;
        }
        let (before, after) = self.cut.zones.split_at_mut(k + 1);
        let zone = &mut after[0];
        zone.clone_from(&before[k]);
        let d = self.cut.d;
        // An evaluation error is not decided here: the branch is kept, and
        // the successor's own guard reports it.
        if c < group.len() {
            let r = group[c];
            return self.zg.edge_guard(d, r.2, r.3, zone).unwrap_or(true);
        }
        let mut cell = c - group.len();
        for r in group {
            let n = atoms(self.zg.net, r.2, r.3);
            if !self.zg.stay_out(d, (r.2, r.3, (cell % n) as u32), zone).unwrap_or(true) {
                return false;
            }
            cell /= n;
        }
        true
    }
}

impl<S: ClockSet> ZoneGraph<'_, S> {
    /// The broadcast steps of sender `s` to `receivers` (sorted by
    /// process), with the committed rule; cut by `zone` when given.
    pub(super) fn broadcast(
        &mut self,
        s: &Sync,
        receivers: &[Sync],
        committed: &dyn Fn(u32) -> bool,
        any_committed: bool,
        zone: Option<&mut ZoneCut<'_, S>>,
        out: &mut Emitted<'_>,
    ) {
        let groups: Vec<&[Sync]> = receivers.chunk_by(|a, b| a.2 == b.2).filter(|g| g[0].2 != s.2).collect();
        // Per group, its number of options: its edges, then the cells of
        // staying out (the product of its edges' atom counts; none when an
        // edge has no clock guard, since that edge is then always enabled).
        let options: Vec<usize> =
            groups.iter().map(|g| g.len() + g.iter().map(|r| atoms(self.net, r.2, r.3)).product::<usize>()).collect();
        let net = self.net;
        let mut walk = Walk {
            net,
            s,
            groups: &groups,
            options: &options,
            committed,
            any_committed,
            choice: Vec::with_capacity(groups.len()),
            edges: Vec::with_capacity(groups.len() + 1),
            outs: Vec::new(),
        };
        let clocked = groups.iter().flat_map(|g| g.iter()).any(|r| atoms(net, r.2, r.3) > 0);
        match zone {
            Some(cut) if clocked => {
                cut.zones.resize_with(groups.len() + 1, || cut.zone.clone());
                cut.zones[0].clone_from(cut.zone);
                // A sender whose own guard fails everywhere sends nothing.
                if self.edge_guard(cut.d, s.2, s.3, &mut cut.zones[0]).unwrap_or(true) {
                    walk.from(0, &mut Zoned { zg: self, cut }, out);
                }
            }
            _ => walk.from(0, &mut Uncut, out),
        }
    }
}

/// The depth-first search of a broadcast's choices: group 0 outermost,
/// each group's options in order (the full enumeration's order).
struct Walk<'w> {
    net: &'w Network,
    s: &'w Sync,
    groups: &'w [&'w [Sync]],
    options: &'w [usize],
    committed: &'w dyn Fn(u32) -> bool,
    any_committed: bool,
    choice: Vec<usize>,
    edges: Vec<(u32, u32)>,
    outs: Vec<(u32, u32, u32)>,
}

impl Walk<'_> {
    fn from(&mut self, k: usize, cut: &mut dyn Cut, out: &mut Emitted<'_>) {
        if k == self.groups.len() {
            self.emit(out);
            return;
        }
        for c in 0..self.options[k] {
            if cut.enter(k, self.groups[k], c) {
                self.choice.push(c);
                self.from(k + 1, cut, out);
                self.choice.pop();
            }
        }
    }

    fn emit(&mut self, out: &mut Emitted<'_>) {
        let (edges, outs) = (&mut self.edges, &mut self.outs);
        edges.clear();
        outs.clear();
        edges.push((self.s.2, self.s.3));
        for (g, &c) in self.groups.iter().zip(&self.choice) {
            if c < g.len() {
                edges.push((g[c].2, g[c].3));
                continue;
            }
            // Cell `c - len` of staying out, in mixed radix over the edges.
            let mut cell = c - g.len();
            for r in g.iter() {
                let n = atoms(self.net, r.2, r.3);
                outs.push((r.2, r.3, (cell % n) as u32));
                cell /= n;
            }
        }
        if !self.any_committed || edges.iter().any(|e| (self.committed)(e.0)) {
            out.push(edges, outs);
        }
    }
}

/// The number of clock atoms of edge `e` of process `p`'s guard.
fn atoms(net: &Network, p: u32, e: u32) -> usize {
    net.processes[p as usize].edges[e as usize].guard_clocks.len()
}
