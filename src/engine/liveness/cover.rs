//! Subsumption that is sound inside the cycle search: a new node whose
//! zone is covered by a *finished, not good* node of the same discrete
//! state and phase is not explored; the arc goes to the covering node.
//!
//! **The rule** is the one Laarman, Olesen, Dalsgaard, Larsen and van de
//! Pol ("Multi-core emptiness checking of timed Büchi automata using
//! inclusion abstraction", CAV 2013) prove for nested depth-first search:
//! a state subsumed by a *red* state (one whose whole future was searched
//! without finding an accepting cycle) can be pruned. Here the finished
//! nodes of Couvreur's search ([`super::scc`]) that cannot reach an
//! accepting SCC ("not good") play the red states' part. Herbreteau,
//! Srivathsan, Tran and Walukiewicz ("Why liveness for timed automata is
//! hard, and what we can do about it", FSTTCS 2016) use the same rule in
//! an SCC-based search.
//!
//! **Why nothing changes.** Let `s` be covered by `t`: same discrete state,
//! same phase, `s ⊆ a(t)` (the aLU abstraction of `t`'s zone with the
//! bounds of that discrete state; plain inclusion on exact zones).
//! - `s` is not good either. An accepting SCC reachable from `s` gives a
//!   path `π` from `s` and a cycle `σ` after it whose labels join to an
//!   accepting one. Each step of the graph from `s` has a step by the same
//!   transition from `t` whose target's class includes the first one's
//!   (`≼LU` is a time-abstract simulation: [`super::nodes`]); ticks are
//!   steps of the network with `z`, and the in-place divergence loop, the
//!   entry into phase 1 and `stay` depend on the discrete state only. So
//!   `t` has an infinite path by the steps of `π σ σ σ …`. The graph being
//!   finite, two of its nodes at the end of a `σ` are equal, and between
//!   them lies a cycle by the steps of `σ` repeated. Labels depend on the
//!   discrete state and the transition only ([`super::progress`]), so that
//!   cycle's labels join to `σ`'s: accepting, and `t` would be good.
//! - So the search's answer does not change (an accepting SCC reached
//!   through `s` would be reached through `t`), nor does any node's
//!   goodness: the arc to `t` says "reaches nothing good", as `s` would.
//! - The arc closes no cycle: `t`'s SCC is complete, so `t` does not reach
//!   the node being expanded (it would be in that SCC or finished).
//! - Time-locks: `s` would be a time-locked node where `t` is one
//!   ([`super::locked`] is not good and phase 0, the same for both), so
//!   the warnings still point at a time-locked state, and the count of
//!   time-locked states counts the nodes kept. The divergence analysis of
//!   a pass without ticks ([`super::zeno`]) sees the arc to `t` instead of
//!   `s`'s part of the graph: `t` reaches cycles by the same transitions as
//!   every cycle `s` reaches, so what `t` leaves open covers what `s` would.
//!
//! Only finished nodes that are not good can cover (a good node's cover
//! need not be good: subsumption by a node still on the search path, or a
//! good one, is not sound for cycles, which is why [`super::nodes`]
//! identifies only aLU-equivalent zones). The exception is phase 0 as the
//! covering graph ([`super::Phase0::Covering`]), where every node covers:
//! the argument above, read without "finished" and "not good", still gives
//! the covering node every path of the covered one, which is all that
//! graph is used for. Linear networks are left out:
//! their steps carry no labels and their loops are confirmed afterwards
//! ([`super::periodic`]).
//!
//! The covering nodes of a discrete state and phase are kept as an
//! antichain: a node covered by one already kept is not added, and one
//! added drops those it covers (inclusion is transitive). The antichains
//! are lists threaded through the nodes, headed per discrete state: the
//! covering graph keeps every node of phase 0 here, one per discrete state
//! as a rule, so a table of lists would cost an allocation per state.

use super::nodes::Nodes;
use crate::domain::ClockSet;
use crate::semantics::{Abstraction, ZoneGraph};

/// No node: the end of a list.
const END: u32 = u32::MAX;

/// The finished nodes that are not good, by phase and discrete state id,
/// oldest first.
#[derive(Default)]
pub struct Covers {
    /// Per phase, the first node of each discrete state's list.
    first: [Vec<u32>; 2],
    /// Per node id, the next node of its list.
    next: Vec<u32>,
}

/// Whether class `c`'s zone is covered by node `t`'s (same discrete state;
/// its bounds loaded into `zg`).
fn covered<S: ClockSet>(zg: &ZoneGraph<'_, S>, nodes: &Nodes<S>, c: u32, t: u32) -> bool {
    let (zone, by) = (nodes.class_zone(c), nodes.class_zone(nodes.class(t)));
    match zg.abstraction {
        Abstraction::None => zone.is_subset_of(by),
        _ => zone.simulated_by(by, &zg.lower, &zg.upper),
    }
}

impl Covers {
    /// Records that node `n` is finished and not good.
    pub fn add<S: ClockSet>(&mut self, zg: &mut ZoneGraph<'_, S>, nodes: &Nodes<S>, n: u32) {
        let c = nodes.class(n);
        let d = nodes.discrete_id(c) as usize;
        zg.load_bounds(nodes.class_discrete(c));
        let first = &mut self.first[usize::from(nodes.phase(n))];
        if first.len() <= d {
            first.resize(d + 1, END);
        }
        let mut t = first[d];
        while t != END {
            if covered(zg, nodes, c, t) {
                return;
            }
            t = self.next[t as usize];
        }
        // Drop the nodes `n` covers, then append `n`.
        let (mut last, mut t) = (END, first[d]);
        while t != END {
            let after = self.next[t as usize];
            if covered(zg, nodes, nodes.class(t), n) {
                match last {
                    END => first[d] = after,
                    l => self.next[l as usize] = after,
                }
            } else {
                last = t;
            }
            t = after;
        }
        if self.next.len() <= n as usize {
            self.next.resize(n as usize + 1, END);
        }
        self.next[n as usize] = END;
        match last {
            END => first[d] = n,
            l => self.next[l as usize] = n,
        }
    }

    /// A finished node, not good, that covers class `c` in `phase`.
    pub fn find<S: ClockSet>(&self, zg: &mut ZoneGraph<'_, S>, nodes: &Nodes<S>, c: u32, phase: bool) -> Option<u32> {
        let mut t = *self.first[usize::from(phase)].get(nodes.discrete_id(c) as usize)?;
        if t != END {
            zg.load_bounds(nodes.class_discrete(c));
        }
        while t != END {
            if covered(zg, nodes, c, t) {
                return Some(t);
            }
            t = self.next[t as usize];
        }
        None
    }
}
