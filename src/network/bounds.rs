//! Clock bounds per location for extrapolation (Behrmann, Bouyer, Larsen,
//! Pelánek 2006): `L(l, x)` / `U(l, x)` is the largest constant `x` may be
//! compared with from below / above on some path from `l` before `x` is
//! reset. It is the static analysis: seed each location with its invariant
//! and the guards of its outgoing edges, then propagate backwards along the
//! edges that do not reset `x`, to a fixpoint. Bounds that depend on data
//! take their maximum over the variables' ranges.

use crate::model::typed::Dir;
use crate::network::{Channel, ChannelIndex, ClockConstraint, Process, Update};

/// No constraint of that kind: the clock is irrelevant from that side.
pub const NO_BOUND: i64 = i64::MIN;

#[derive(Clone, Debug, Default)]
pub struct LuBounds {
    /// Per process, per location: `(clock, L, U)` for the clocks it bounds
    /// (sparse: a process usually bounds only its own few clocks, and this
    /// is read for every successor).
    pub local: Vec<Vec<Vec<(u32, i64, i64)>>>,
    /// Added for every state (property and observer constants).
    pub global: Vec<(i64, i64)>,
}

impl LuBounds {
    pub fn new(processes: &[Process], channels: &[Channel], clocks: usize) -> Self {
        let dim = clocks + 1;
        let mut local = Vec::with_capacity(processes.len());
        for p in processes {
            let mut lu = vec![vec![(NO_BOUND, NO_BOUND); dim]; p.locations.len()];
            // `negated`: the constraint is also tested false (a broadcast
            // receiver staying out), so it bounds its clock from both sides.
            let mut seed = |l: usize, c: &ClockConstraint, negated: bool| {
                let (lo, hi) = c.effective_range();
                let (i, j) = (c.i as usize, c.j as usize);
                match (i, j) {
                    (0, 0) => {}
                    (i, 0) if negated => lu[l][i] = (lu[l][i].0.max(hi), lu[l][i].1.max(hi)),
                    (0, j) if negated => {
                        let m = lo.saturating_neg();
                        lu[l][j] = (lu[l][j].0.max(m), lu[l][j].1.max(m));
                    }
                    (i, 0) => lu[l][i].1 = lu[l][i].1.max(hi),
                    (0, j) => lu[l][j].0 = lu[l][j].0.max(lo.saturating_neg()),
                    (i, j) => {
                        let m = lo.saturating_abs().max(hi.saturating_abs());
                        for k in [i, j] {
                            lu[l][k] = (lu[l][k].0.max(m), lu[l][k].1.max(m));
                        }
                    }
                }
            };
            for (l, loc) in p.locations.iter().enumerate() {
                for c in &loc.invariant {
                    seed(l, c, false);
                }
            }
            for e in &p.edges {
                let receives_broadcast = e.sync.as_ref().is_some_and(|s| {
                    let c = match &s.channel {
                        ChannelIndex::Fixed(c) => *c,
                        ChannelIndex::Dynamic { base, .. } => *base,
                    };
                    s.dir == Dir::Receive && channels[c as usize].broadcast
                });
                for c in &e.guard_clocks {
                    seed(e.from as usize, c, receives_broadcast);
                }
            }
            loop {
                let mut changed = false;
                for e in &p.edges {
                    let target = lu[e.to as usize].clone();
                    for (x, ((tl, tu), src)) in
                        target.into_iter().zip(lu[e.from as usize].iter_mut()).enumerate().skip(1)
                    {
                        let reset =
                            e.updates.iter().any(|u| matches!(u, Update::Reset { clock, .. } if *clock as usize == x));
                        if !reset && (tl > src.0 || tu > src.1) {
                            src.0 = src.0.max(tl);
                            src.1 = src.1.max(tu);
                            changed = true;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            let sparse = lu.iter().map(|per_clock| {
                let bounded = per_clock.iter().enumerate().filter(|(_, b)| **b != (NO_BOUND, NO_BOUND));
                bounded.map(|(x, &(l, u))| (x as u32, l, u)).collect()
            });
            local.push(sparse.collect());
        }
        LuBounds { local, global: vec![(NO_BOUND, NO_BOUND); dim] }
    }

    /// Makes `clock` keep its precision up to `l` / `u` everywhere: the
    /// constants of a property's clock atoms, or of an observer.
    pub fn add_global(&mut self, clock: usize, l: i64, u: i64) {
        let g = &mut self.global[clock];
        g.0 = g.0.max(l);
        g.1 = g.1.max(u);
    }
}
