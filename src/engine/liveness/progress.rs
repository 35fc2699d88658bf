//! Time divergence read off the edges of a cycle, where the tick clock is
//! not needed to see it.
//!
//! **The criterion.** A set of edges strongly connected in the searched
//! graph, one of which sets a clock `x` to 0 and one of which requires
//! `x >= 1` (a lower bound of at least 1 in its guard or in an invariant
//! of its source), has a time-divergent run through it. Strongly connected,
//! the edges lie on one closed walk; the graph is a simulation graph
//! ([`super`]), so that walk repeated forever is followed by a concrete
//! run; between two passes over the edge requiring `x >= 1` the run passes
//! the one resetting `x`, so each pass lasts at least one time unit,
//! provided no edge of the set gives `x` another value than 0 (`x = 5`
//! between the reset and the wait would let the wait pass at once: such a
//! clock is *spoiled* for the whole set). Labels
//! ([`Progress`]) are joined over the edges the SCC search merges
//! ([`super::scc`]), so the criterion is decided on the fly.
//!
//! It is sufficient, not necessary (a divergent cycle may need a guard
//! spread over several clocks, or none at all when time passes freely);
//! where it fails the passes of [`super::product`] still decide with the
//! tick clock, so it only spares that pass where the edges show the
//! answer. Herbreteau and Srivathsan ("Efficient on-the-fly emptiness
//! check for timed Büchi automata", ATVA 2010) make the same observation:
//! non-Zenoness can often be read off the zone graph itself.

use super::scc::Label;
use crate::network::{EvalError, Network, Update};
use crate::semantics::{Discrete, Transition};

/// What a cycle through an edge tells of the time it takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Progress {
    /// A tick: at least one time unit since the previous tick.
    pub tick: bool,
    /// Clocks the edge leaves at 0 (bit `x - 1` for clock `x`; clocks
    /// past the 64th are not tracked, which only weakens the criterion).
    pub reset: u64,
    /// Clocks the edge requires to be at least 1.
    pub waits: u64,
    /// Clocks the edge leaves at a value other than 0 (or at one computed
    /// from other variables): a set of edges with one of these proves
    /// nothing by that clock.
    pub spoils: u64,
}

impl Label for Progress {
    fn join(self, other: Self) -> Self {
        Progress {
            tick: self.tick || other.tick,
            reset: self.reset | other.reset,
            waits: self.waits | other.waits,
            spoils: self.spoils | other.spoils,
        }
    }

    fn accepting(self) -> bool {
        self.tick || self.clock().is_some()
    }
}

pub(super) fn bit(clock: u32) -> u64 {
    clock.checked_sub(1).and_then(|k| 1u64.checked_shl(k)).unwrap_or(0)
}

impl Progress {
    pub const TICK: Progress = Progress { tick: true, reset: 0, waits: 0, spoils: 0 };

    /// A clock both reset and waited for (as a one-bit mask), if any.
    pub fn clock(self) -> Option<u64> {
        let both = self.reset & self.waits & !self.spoils;
        (both != 0).then(|| both & both.wrapping_neg())
    }

    /// The label of the discrete step `t` from `d`.
    pub fn of(net: &Network, d: &Discrete, t: &Transition, stack: &mut Vec<i64>) -> Result<Progress, EvalError> {
        let mut p = Progress::default();
        // A lower bound `x >= c` is `0 - x <= -c`: the signed bound at most -1.
        let mut waits = |c: &crate::network::ClockConstraint, stack: &mut Vec<i64>| -> Result<(), EvalError> {
            if c.linear.is_none() && c.i == 0 && c.j != 0 {
                let v = c.bound.eval(&d.locs, &d.data, stack)?;
                if (if c.negate { v.saturating_neg() } else { v }) <= -1 {
                    p.waits |= bit(c.j);
                }
            }
            Ok(())
        };
        for (q, &l) in d.locs.iter().enumerate() {
            for c in &net.processes[q].locations[l as usize].invariant {
                waits(c, stack)?;
            }
        }
        for &(q, e) in &t.edges {
            for c in &net.processes[q as usize].edges[e as usize].guard_clocks {
                waits(c, stack)?;
            }
        }
        // The last assignment of a clock decides its value.
        for &(q, e) in &t.edges {
            for u in &net.processes[q as usize].edges[e as usize].updates {
                match u {
                    Update::Reset { clock, value: 0 } => {
                        p.reset |= bit(*clock);
                        p.spoils &= !bit(*clock);
                    }
                    Update::Reset { clock: x, .. } | Update::Assign { var: x, .. } => {
                        p.reset &= !bit(*x);
                        p.spoils |= bit(*x);
                    }
                    Update::Data { .. } | Update::Effect(_) => {}
                }
            }
        }
        Ok(p)
    }
}
