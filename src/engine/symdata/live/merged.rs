//! The model's time-locks with data as BDDs, looked for on their own after
//! a search that did not see the whole graph (a lasso, or searches from
//! single initial valuations): the facts of [`super::locks`], read off a
//! graph built for them alone, as [`liveness::model_time_locks`] does with
//! explicit data.
//!
//! **The graph.** The data-symbolic zone graph of the network itself,
//! without the tick clock, with the liveness search's arcs by discrete
//! steps (phase 0 only: nothing is looked for). Nodes are identified by
//! their location vector, the values of the explicit slots and an
//! aLU-equivalent zone, *whatever their data*: the data sets that reach
//! one are unioned, and what is new in them is expanded in turn.
//!
//! **Why the facts still follow.** [`super::locks`] needs two things of the
//! graph. (1) Every reachable state `(v, ν)` lies in the data set of some
//! node and in the aLU abstraction of its zone, and each step of it is
//! followed by an arc, labelled by its step, into a node that holds its
//! successor so: true of the union, since every valuation added to a node
//! is expanded (only the new ones each time; data sets only grow, so an
//! arc found earlier still leads to a node holding the successor), and
//! the zones are the liveness search's (the same post and settle). (2)
//! Labels read explicit slots only, whose values the node fixes. Ticks are
//! not needed: every run with finitely many time units follows, after its
//! last tick, arcs by discrete steps only, the only ones both tests read;
//! and a zone without the tick clock holds the projections of those with
//! it. A union's paths need not be runs (a cycle may join valuations that
//! do not follow each other), which only makes the divergence test fail
//! more often: the facts are then unknown and the engine layer's exact
//! scan decides, as with any search that could not settle them.
//!
//! **Why merge.** The liveness search must keep data sets apart and track
//! ticks in its zones (see [`super`]); a search for time-locks needs
//! neither, and both multiply the nodes: railway-crossing's whole graph
//! has 50 564 nodes with ticks and data kept apart.

use std::collections::VecDeque;

use rustc_hash::FxHashSet;

use super::{Live, Stop};
use crate::bdd::{Bdd, FALSE, Manager};
use crate::domain::zone::Dbm;
use crate::engine::Stats;
use crate::engine::limits::Limits;
use crate::engine::liveness::progress::Progress;
use crate::engine::liveness::scc::Graph;
use crate::engine::liveness::{Locks, Query, always, never};
use crate::network::Network;
use crate::semantics::Abstraction;

/// What joined each node since it was last expanded.
#[derive(Default)]
pub(super) struct Pending {
    /// By node: the data not expanded yet.
    data: Vec<Bdd>,
    /// The nodes with data not expanded yet, each once, oldest first.
    queue: VecDeque<u32>,
    /// The arcs logged: a node's data expanded in parts finds some again.
    pub logged: FxHashSet<(u32, u32, Progress)>,
}

impl Pending {
    /// `data` (new to node `n`) to be expanded.
    pub fn add(&mut self, m: &mut Manager, n: u32, data: Bdd) {
        let n = n as usize;
        if self.data.len() <= n {
            self.data.resize(n + 1, FALSE);
        }
        if self.data[n] == FALSE {
            self.queue.push_back(n as u32);
        }
        self.data[n] = m.or(self.data[n], data);
    }

    /// The next node to expand, with its data not expanded yet.
    fn next(&mut self) -> Option<(u32, Bdd)> {
        let n = self.queue.pop_front()?;
        Some((n, std::mem::replace(&mut self.data[n as usize], FALSE)))
    }
}

/// The time-lock facts of `net` within `limits`, its cost added to
/// `stats`. `Err` where a limit stopped the search or some valuation makes
/// a step fail.
pub(super) fn locks(
    net: &Network,
    abstraction: Abstraction,
    limits: &Limits,
    stats: &mut Stats,
) -> Result<Locks, Stop> {
    let q = Query { enter: never(), stay: never(), initial_only: false, locks: always() };
    // The reference clock for the tick clock: no tick is ever taken.
    let mut g = Live::<Dbm>::new(net, 0, &q, abstraction, None, limits);
    g.merged = Some(Pending::default());
    let result = explore(&mut g).and_then(|()| super::locks::locks(&mut g));
    g.spent(stats);
    result
}

/// Explores the graph of `g` whole.
fn explore(g: &mut Live<'_, '_, Dbm>) -> Result<(), Stop> {
    let mut out = Vec::new();
    g.initial(&mut Vec::new())?;
    while let Some((node, data)) = g.merged.as_mut().and_then(Pending::next) {
        g.check_limits()?;
        g.stats.visited += 1;
        out.clear();
        g.discrete(node, data, &mut out)?;
        g.stats.transitions += out.len() as u64;
    }
    Ok(())
}
