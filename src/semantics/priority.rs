//! Priorities (UPPAAL's `chan priority` and `system A < B`; FORMAT.md
//! section 1, "Priorities"): a discrete step is possible at a valuation only
//! if no step of higher priority is possible there. Delays are never
//! blocked, and a step never blocks a delay.
//!
//! A step of higher priority is possible where its clock guard holds and
//! the state it enters meets every invariant (the invariants pulled back
//! through its clock resets). That set is a conjunction `c_1 ∧ ... ∧ c_n` of
//! difference constraints; its complement is the disjoint union of the cells
//! `c_1 ∧ ... ∧ c_{k-1} ∧ ¬c_k`. A blocked step is therefore split into one
//! transition per choice of a cell for every step above it, each carrying
//! its cell's constraints in [`Transition::unless`] (cells whose constraints
//! contradict each other are dropped). Every engine then sees priorities
//! through [`ZoneGraph::guard`], exactly, with no change of its own.

use crate::domain::ClockSet;
use crate::domain::zone::{Bound, Dbm};
use crate::network::{ChannelIndex, ClockConstraint};
use crate::semantics::successors::err;
use crate::semantics::{Discrete, RunError, Transition, ZoneGraph};

/// A conjunction of difference constraints `x_i - x_j ≺ b`.
type Conj = Vec<(u32, u32, Bound)>;

impl<S: ClockSet> ZoneGraph<'_, S> {
    /// Replaces the steps `out` enabled by the data of `d` by their cells
    /// where no step of higher priority is possible.
    pub(super) fn prioritise(&mut self, d: &Discrete, out: &mut Vec<Transition>) -> Result<(), RunError> {
        let levels = out.iter().map(|t| self.level(d, t)).collect::<Result<Vec<_>, _>>()?;
        let Some(low) = levels.iter().flatten().min() else { return Ok(()) };
        if levels.iter().flatten().all(|l| l == low) {
            return Ok(());
        }
        // Where each step that blocks some other one is possible (`None`:
        // nowhere, a data invariant or an out-of-range update disables it).
        let mut possible: Vec<Option<Conj>> = Vec::with_capacity(out.len());
        for (t, level) in out.iter().zip(&levels) {
            possible.push(match level {
                Some(l) if l > low => self.possible(d, t)?,
                _ => None,
            });
        }
        let steps = std::mem::take(out);
        for (k, t) in steps.into_iter().enumerate() {
            let Some(level) = levels[k] else {
                out.push(t);
                continue;
            };
            let above: Vec<&Conj> = (0..levels.len())
                .filter(|&u| levels[u].is_some_and(|l| l > level))
                .filter_map(|u| possible[u].as_ref())
                .collect();
            let mut cells: Vec<Conj> = vec![Vec::new()];
            for conj in above {
                let mut next = Vec::new();
                for cell in &cells {
                    for (n, &(i, j, b)) in conj.iter().enumerate() {
                        let mut c = cell.clone();
                        c.extend_from_slice(&conj[..n]);
                        c.push((j, i, b.complement()));
                        if satisfiable(self.dim(), &c) {
                            next.push(c);
                        }
                    }
                }
                cells = next;
            }
            for cell in cells {
                out.push(Transition { unless: cell, ..t.clone() });
            }
        }
        Ok(())
    }

    /// The priority of `t` from `d`: its channel's level (internal steps
    /// have the `default` level), then the highest level of the processes
    /// taking part. `None` for an observer's step, which neither blocks nor
    /// is blocked (it watches the system, it is not part of it).
    fn level(&mut self, d: &Discrete, t: &Transition) -> Result<Option<(i32, i32)>, RunError> {
        let net = self.net;
        let prio = net.priorities.as_ref().expect("a network with priorities");
        if t.edges.iter().all(|&(p, _)| net.processes[p as usize].observer) {
            return Ok(None);
        }
        let (p, e) = t.edges[0];
        let channel = match net.processes[p as usize].edges[e as usize].sync.as_ref().map(|s| &s.channel) {
            None => prio.internal,
            Some(ChannelIndex::Fixed(c)) => prio.channels[*c as usize],
            Some(ChannelIndex::Dynamic { base, index, .. }) => {
                // In range: the step was built with this index.
                let i = index.eval(&d.locs, &d.data, &mut self.stack).map_err(|x| err(x, &t.edges))?;
                prio.channels[(*base as i64 + i) as usize]
            }
        };
        let process =
            t.edges.iter().map(|&(p, _)| prio.processes.get(p as usize).copied().unwrap_or(0)).max().unwrap_or(0);
        Ok(Some((channel, process)))
    }

    /// The valuations from which `t` is possible, as a conjunction of
    /// difference constraints: its clock guard (and, for a broadcast, the
    /// cells that keep receivers out), and every invariant of the state it
    /// enters pulled back through its resets. `None` when `t` is possible
    /// nowhere. An update that fails with a run-time error counts as
    /// possible wherever the guard holds: exploring `t` there raises the
    /// error anyway.
    fn possible(&mut self, d: &Discrete, t: &Transition) -> Result<Option<Conj>, RunError> {
        let net = self.net;
        let mut conj = Conj::new();
        for &(p, e) in &t.edges {
            for c in &net.processes[p as usize].edges[e as usize].guard_clocks {
                conj.push(self.concrete(c, d).map_err(|x| err(x, &t.edges))?);
            }
        }
        for &(p, e, k) in &t.out {
            let atoms = &net.processes[p as usize].edges[e as usize].guard_clocks;
            for c in &atoms[..k as usize] {
                conj.push(self.concrete(c, d).map_err(|x| err(x, &t.edges))?);
            }
            let (i, j, b) = self.concrete(&atoms[k as usize], d).map_err(|x| err(x, &t.edges))?;
            conj.push((j, i, b.complement()));
        }
        let mut resets = Vec::new();
        let mut next = d.clone();
        match self.discrete_post_into(d, t, &mut resets, &mut next) {
            Ok(false) => return Ok(None),
            Err(_) => return Ok(Some(conj)),
            Ok(true) => {}
        }
        // The value each reset clock enters with (the last reset wins).
        let value = |x: u32| -> Option<i32> {
            if x == 0 {
                return Some(0);
            }
            resets.iter().rev().find(|r| r.0 == x).map(|r| r.1 as i32)
        };
        for (p, &l) in next.locs.iter().enumerate() {
            let loc = &net.processes[p].locations[l as usize];
            if let Some(code) = &loc.invariant_data {
                match code.eval(&next.locs, &next.data, &mut self.stack) {
                    Ok(0) => return Ok(None),
                    Ok(_) => {}
                    Err(_) => return Ok(Some(conj)),
                }
            }
            for c in &loc.invariant {
                let Ok((i, j, b)) = self.concrete(c, &next) else { return Ok(Some(conj)) };
                // `x_i - x_j ≺ b` after `x_i := a`, `x_j := c`.
                match (value(i), value(j)) {
                    (Some(a), Some(c)) => {
                        if Bound::le(a - c) > b {
                            return Ok(None);
                        }
                    }
                    (Some(a), None) => conj.push((0, j, shift(b, -a))),
                    (None, Some(c)) => conj.push((i, 0, shift(b, c))),
                    (None, None) => conj.push((i, j, b)),
                }
            }
        }
        Ok(satisfiable(self.dim(), &conj).then_some(conj))
    }

    /// `c` evaluated on `d` as `(i, j, bound)`.
    fn concrete(&mut self, c: &ClockConstraint, d: &Discrete) -> Result<(u32, u32, Bound), crate::network::EvalError> {
        let v = c.bound.eval(&d.locs, &d.data, &mut self.stack)?;
        // Bounds were checked against 2^28 over the data ranges at load.
        let v = if c.negate { -v } else { v } as i32;
        Ok((c.i, c.j, if c.strict { Bound::lt(v) } else { Bound::le(v) }))
    }
}

/// `b + k`, keeping its strictness.
fn shift(b: Bound, k: i32) -> Bound {
    if b.is_strict() { Bound::lt(b.value() + k) } else { Bound::le(b.value() + k) }
}

/// Whether some clock valuation meets every constraint of `conj`.
fn satisfiable(dim: usize, conj: &Conj) -> bool {
    let mut z = Dbm::universe(dim);
    conj.iter().all(|&(i, j, b)| z.constrain(i as usize, j as usize, b))
}
