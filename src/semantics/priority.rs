//! Priorities (UPPAAL's `chan priority` and `system A < B`; FORMAT.md
//! section 1, "Priorities"): a discrete step is possible at a valuation only
//! if no step of higher priority is possible there. Delays are never
//! blocked, and a step never blocks a delay.
//!
//! A step of higher priority is possible where its clock guard holds and
//! the state it enters meets every invariant (the invariants pulled back
//! through its clock updates). That set is a conjunction `c_1 ∧ ... ∧ c_n`
//! of constraints; its complement is the disjoint union of the cells
//! `c_1 ∧ ... ∧ c_{k-1} ∧ ¬c_k`. A blocked step is therefore split into one
//! transition per choice of a cell for every step above it, each carrying
//! its cell's constraints in [`Transition::unless`] (cells whose
//! constraints contradict each other are dropped, and, where the zone the
//! step leaves from is known, cells and steps above that miss it). Every engine
//! then sees priorities through [`ZoneGraph::guard`], exactly, with no
//! change of its own.
//!
//! In a timed network the constraints are differences `x_i - x_j ≺ b` and
//! the updates resets `x := c`. In a linear network (hybrid models, fixed
//! rational parameters) they are `Σ a_k·x_k ≺ r` and the updates
//! `x := Σ b_k·x_k + e`, pulled back by substitution, last update first:
//! the step's effect on the valuation at the instant it is taken, whatever
//! the rates, so the same argument holds. Empty cells are dropped there
//! too, decided on polyhedra ([`satisfiable`]).

use crate::domain::ClockSet;
use num_traits::Signed;

use crate::domain::poly::{Poly, Q};
use crate::domain::zone::{Bound, Dbm};
use crate::network::{ChannelIndex, ClockConstraint, EvalError, Update};
use crate::semantics::broadcast::ZoneCut;
use crate::semantics::successors::err;
use crate::semantics::{Cut, Discrete, LinearCut, RunError, Transition, ZoneGraph};

/// A conjunction of constraints.
type Conj = Vec<Cut>;

/// A linear assignment as run: `x := Σ b_k·x_k + value`.
type Assign<'a> = (u32, &'a [(u32, i64)], i64);

impl<S: ClockSet> ZoneGraph<'_, S> {
    /// Replaces the steps `out` enabled by the data of `d` by their cells
    /// where no step of higher priority is possible. With the zone the
    /// steps leave from (`zone`), only the steps and cells that meet it are
    /// kept (the others have no successor), and the search's limits are
    /// asked before each cell: on stopwatch models of a hundred clocks and
    /// dozens of steps above one another, the cells of one state run into
    /// the millions without it. Once `go_on` says no, `out` is cut short.
    pub(super) fn prioritise(
        &mut self,
        d: &Discrete,
        mut zone: Option<&mut ZoneCut<'_, S>>,
        out: &mut Vec<Transition>,
    ) -> Result<(), RunError> {
        let levels = out.iter().map(|t| self.level(d, t)).collect::<Result<Vec<_>, _>>()?;
        let Some(low) = levels.iter().flatten().min() else { return Ok(()) };
        if levels.iter().flatten().all(|l| l == low) {
            return Ok(());
        }
        // Where each step that blocks some other one is possible (`None`:
        // nowhere, a data invariant or an out-of-range update disables it,
        // or it is possible nowhere in the zone).
        let mut possible: Vec<Option<Conj>> = Vec::with_capacity(out.len());
        for (t, level) in out.iter().zip(&levels) {
            let conj = match level {
                Some(l) if l > low => self.possible(d, t)?,
                _ => None,
            };
            possible.push(conj.filter(|c| zone.as_deref().is_none_or(|z| meets(z.zone.clone(), c))));
        }
        let steps = std::mem::take(out);
        for (k, t) in steps.into_iter().enumerate() {
            let Some(level) = levels[k] else {
                out.push(t);
                continue;
            };
            // The zone where `t`'s guard holds; an evaluation error is left
            // to the successor, which reports it.
            let mut from = None;
            if let Some(z) = zone.as_deref() {
                let mut guarded = z.zone.clone();
                if let Ok(false) = self.guard(d, &t, &mut guarded) {
                    continue;
                }
                from = Some(guarded);
            }
            let above = weakest(
                (0..levels.len())
                    .filter(|&u| levels[u].is_some_and(|l| l > level))
                    .filter_map(|u| possible[u].as_ref())
                    .collect(),
            );
            let mut cells: Vec<(Conj, Option<S>)> = vec![(Vec::new(), from)];
            for conj in above {
                let mut next = Vec::new();
                for (cell, within) in &cells {
                    for (n, cut) in conj.iter().enumerate() {
                        if zone.as_deref_mut().is_some_and(|z| !(z.go_on)()) {
                            return Ok(());
                        }
                        let mut c = cell.clone();
                        c.extend_from_slice(&conj[..n]);
                        c.push(cut.complement());
                        let within = match within {
                            Some(w) => {
                                let mut w = w.clone();
                                if !c[cell.len()..].iter().all(|cut| cut.constrain(&mut w)) {
                                    continue;
                                }
                                Some(w)
                            }
                            None if satisfiable(self.dim(), &c) => None,
                            None => continue,
                        };
                        next.push((c, within));
                    }
                }
                cells = next;
            }
            for (cell, _) in cells {
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

    /// The valuations from which `t` is possible, as a conjunction: its
    /// clock guard (and, for a broadcast, the cells that keep receivers
    /// out), and every invariant of the state it enters pulled back through
    /// its clock updates. `None` when `t` is possible nowhere. An update
    /// that fails with a run-time error counts as possible wherever the
    /// guard holds: exploring `t` there raises the error anyway.
    fn possible(&mut self, d: &Discrete, t: &Transition) -> Result<Option<Conj>, RunError> {
        let net = self.net;
        let mut conj = Conj::new();
        for &(p, e) in &t.edges {
            for c in &net.processes[p as usize].edges[e as usize].guard_clocks {
                conj.push(self.cut(c, d).map_err(|x| err(x, &t.edges))?);
            }
        }
        for &(p, e, k) in &t.out {
            let atoms = &net.processes[p as usize].edges[e as usize].guard_clocks;
            for c in &atoms[..k as usize] {
                conj.push(self.cut(c, d).map_err(|x| err(x, &t.edges))?);
            }
            conj.push(self.cut(&atoms[k as usize], d).map_err(|x| err(x, &t.edges))?.complement());
        }
        let mut resets = Vec::new();
        let mut next = d.clone();
        match self.discrete_post_into(d, t, &mut resets, &mut next) {
            Ok(false) => return Ok(None),
            Err(_) => return Ok(Some(conj)),
            Ok(true) => {}
        }
        // The linear assignments as run, `(variable, terms, value)`.
        let assigns: Vec<Assign<'_>> = self
            .assigns
            .iter()
            .map(|&(p, e, k, v)| match &net.processes[p as usize].edges[e as usize].updates[k as usize] {
                Update::Assign { var, terms, .. } => (*var, &terms[..], v),
                _ => unreachable!("`assigns` lists assignments"),
            })
            .collect();
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
                let Ok(cut) = self.cut(c, &next) else { return Ok(Some(conj)) };
                match pull_back(cut, &resets, &assigns).map_err(|x| err(x, &t.edges))? {
                    Pulled::Holds => {}
                    Pulled::Fails => return Ok(None),
                    Pulled::Cut(cut) => conj.push(cut),
                }
            }
        }
        Ok(satisfiable(self.dim(), &conj).then_some(conj))
    }

    /// `c` evaluated on `d`.
    fn cut(&mut self, c: &ClockConstraint, d: &Discrete) -> Result<Cut, EvalError> {
        let v = c.bound.eval(&d.locs, &d.data, &mut self.stack)?;
        let v = if c.negate { v.checked_neg().ok_or(EvalError::Overflow)? } else { v };
        if let Some(l) = &c.linear {
            let rhs = Q::from_integer(v.into()) + &l.offset;
            return Ok(Cut::Linear(Box::new(LinearCut { terms: l.terms.clone(), strict: c.strict, rhs })));
        }
        if self.net.hybrid.is_some() {
            // Updates are linear assignments here: pulled back linearly.
            let terms = [(c.i, 1), (c.j, -1)].into_iter().filter(|t| t.0 != 0).collect();
            return Ok(Cut::Linear(Box::new(LinearCut { terms, strict: c.strict, rhs: Q::from_integer(v.into()) })));
        }
        // Bounds were checked against 2^28 over the data ranges at load.
        let v = v as i32;
        Ok(Cut::Diff(c.i, c.j, if c.strict { Bound::lt(v) } else { Bound::le(v) }))
    }
}

/// Whether `zone` meets every constraint of `conj`.
fn meets<S: ClockSet>(mut zone: S, conj: &Conj) -> bool {
    conj.iter().all(|cut| cut.constrain(&mut zone))
}

/// `conjs` without those that say more than another (a superset of its
/// constraints, or a copy): outside the weaker one, the stronger fails
/// too, so it cuts no cell further. Steps that differ only by a `select`
/// value or a receiver's data have the same constraints, and each would
/// otherwise multiply the cells.
fn weakest(mut conjs: Vec<&Conj>) -> Vec<&Conj> {
    conjs.sort_by_key(|c| c.len());
    let mut out: Vec<&Conj> = Vec::with_capacity(conjs.len());
    for c in conjs {
        if !out.iter().any(|w| w.iter().all(|cut| c.contains(cut))) {
            out.push(c);
        }
    }
    out
}

/// A constraint on the valuation after a step, pulled back to before it.
enum Pulled {
    /// By every valuation (it compares updated values only).
    Holds,
    /// By none.
    Fails,
    Cut(Cut),
}

/// The constraint `cut` on the valuation after resets `x := c` (`resets`,
/// in order) and then linear assignments (`assigns`, in order), as a
/// constraint on the valuation before.
fn pull_back(cut: Cut, resets: &[(u32, i64)], assigns: &[Assign<'_>]) -> Result<Pulled, EvalError> {
    match cut {
        Cut::Diff(i, j, b) => {
            // The value each reset clock enters with (the last reset wins).
            let value = |x: u32| -> Option<i32> {
                if x == 0 {
                    return Some(0);
                }
                resets.iter().rev().find(|r| r.0 == x).map(|r| r.1 as i32)
            };
            // `x_i - x_j ≺ b` after `x_i := a`, `x_j := c`.
            Ok(match (value(i), value(j)) {
                (Some(a), Some(c)) if Bound::le(a - c) <= b => Pulled::Holds,
                (Some(_), Some(_)) => Pulled::Fails,
                (Some(a), None) => Pulled::Cut(Cut::Diff(0, j, shift(b, -a))),
                (None, Some(c)) => Pulled::Cut(Cut::Diff(i, 0, shift(b, c))),
                (None, None) => Pulled::Cut(Cut::Diff(i, j, b)),
            })
        }
        Cut::Linear(l) => {
            let LinearCut { mut terms, strict, mut rhs } = *l;
            let updates = resets.iter().map(|&(x, c)| (x, &[][..], c)).chain(assigns.iter().copied());
            for (x, by, c) in updates.collect::<Vec<_>>().into_iter().rev() {
                let Some(k) = terms.iter().position(|t| t.0 == x) else { continue };
                let a = terms.remove(k).1;
                rhs -= Q::from_integer(a.checked_mul(c).ok_or(EvalError::Overflow)?.into());
                for &(y, b) in by {
                    let ab = a.checked_mul(b).ok_or(EvalError::Overflow)?;
                    match terms.iter().position(|t| t.0 == y) {
                        Some(m) => terms[m].1 = terms[m].1.checked_add(ab).ok_or(EvalError::Overflow)?,
                        None => terms.push((y, ab)),
                    }
                }
                terms.retain(|t| t.1 != 0);
            }
            if terms.is_empty() {
                // `0 ≺ rhs`: true or false everywhere.
                let holds = if strict { rhs.is_positive() } else { !rhs.is_negative() };
                return Ok(if holds { Pulled::Holds } else { Pulled::Fails });
            }
            Ok(Pulled::Cut(Cut::Linear(Box::new(LinearCut { terms, strict, rhs }))))
        }
    }
}

/// `b + k`, keeping its strictness.
fn shift(b: Bound, k: i32) -> Bound {
    if b.is_strict() { Bound::lt(b.value() + k) } else { Bound::le(b.value() + k) }
}

/// Whether some valuation meets every constraint of `conj`. Timed networks'
/// clocks are `>= 0`: a zone decides. A linear network's variables may be
/// negative, so only what the constraints contradict among themselves
/// counts: differences with integer bounds are decided on a DBM whose
/// reference is an extra variable standing for 0 (such a system is
/// invariant under shifting every variable, so the DBM's signs do not
/// matter), anything else on a polyhedron.
fn satisfiable(dim: usize, conj: &Conj) -> bool {
    if conj.iter().all(|c| matches!(c, Cut::Diff(..))) {
        let mut z = Dbm::universe(dim);
        return conj.iter().all(|cut| match cut {
            Cut::Diff(i, j, b) => z.constrain(*i as usize, *j as usize, *b),
            Cut::Linear(_) => unreachable!("checked above"),
        });
    }
    if let Some(diffs) = conj.iter().map(difference).collect::<Option<Vec<_>>>() {
        let mut z = Dbm::universe(dim + 1);
        let var = |x: u32| if x == 0 { dim } else { x as usize };
        return diffs.into_iter().all(|(i, j, b)| z.constrain(var(i), var(j), b));
    }
    on_polyhedron(dim, conj)
}

/// [`satisfiable`] decided on a polyhedron with no sign constraints.
fn on_polyhedron(dim: usize, conj: &Conj) -> bool {
    let mut p = Poly::universe(dim - 1);
    for cut in conj {
        p = match cut {
            Cut::Diff(i, j, b) => {
                let terms: Vec<(u32, i64)> = [(*i, 1), (*j, -1)].into_iter().filter(|t| t.0 != 0).collect();
                p.constrain_terms(&terms, b.is_strict(), &Q::from_integer(b.value().into()))
            }
            Cut::Linear(l) => p.constrain_terms(&l.terms, l.strict, &l.rhs),
        };
        if p.is_empty() {
            return false;
        }
    }
    true
}

/// `cut` as `x_i - x_j ≺ b` (variable 0 is the constant 0) when it is one
/// with an integer bound a DBM holds.
fn difference(cut: &Cut) -> Option<(u32, u32, Bound)> {
    let (terms, strict, rhs) = match cut {
        Cut::Diff(i, j, b) => return Some((*i, *j, *b)),
        Cut::Linear(l) => (&l.terms[..], l.strict, &l.rhs),
    };
    let (i, j) = match *terms {
        [(i, 1)] => (i, 0),
        [(j, -1)] => (0, j),
        [(i, 1), (j, -1)] | [(j, -1), (i, 1)] => (i, j),
        _ => return None,
    };
    let v: i32 = if rhs.is_integer() { rhs.to_integer().try_into().ok()? } else { return None };
    Some((i, j, if strict { Bound::lt(v) } else { Bound::le(v) }))
}

#[cfg(test)]
mod tests {
    use super::{Conj, Cut, LinearCut, Q, on_polyhedron, satisfiable, weakest};
    use proptest::prelude::*;

    /// A difference `x_i - x_j ≺ b` over variables 1..=3 as a linear cut
    /// (variable 0 stands for the constant 0), as linear networks write it.
    fn cut() -> impl Strategy<Value = Cut> {
        (0u32..4, 0u32..4, -4i64..5, any::<bool>()).prop_filter("two variables", |c| c.0 != c.1).prop_map(
            |(i, j, b, strict)| {
                let terms = [(i, 1), (j, -1)].into_iter().filter(|t| t.0 != 0).collect();
                Cut::Linear(Box::new(LinearCut { terms, strict, rhs: Q::from_integer(b.into()) }))
            },
        )
    }

    fn holds(cut: &Cut, point: &[i64]) -> bool {
        let Cut::Linear(l) = cut else { unreachable!("the strategy writes linear cuts") };
        let lhs = Q::from_integer(l.terms.iter().map(|&(x, a)| a * point[x as usize - 1]).sum::<i64>().into());
        if l.strict { lhs < l.rhs } else { lhs <= l.rhs }
    }

    proptest! {
        /// The DBM with a shifted reference decides differences as the
        /// polyhedron does (an exact, independent decision procedure),
        /// negative values included.
        #[test]
        fn differences_are_decided_as_on_a_polyhedron(conj in proptest::collection::vec(cut(), 0..6)) {
            prop_assert_eq!(satisfiable(4, &conj), on_polyhedron(4, &conj));
        }

        /// Outside every conjunction iff outside every kept one, at any
        /// point: dropping the stronger conjunctions changes no cell's union.
        /// The conjunctions share cuts from a pool of 4, as steps do.
        #[test]
        fn the_weakest_conjunctions_block_the_same_points(
            pool in proptest::collection::vec(cut(), 4),
            picks in proptest::collection::vec(proptest::collection::vec(0usize..4, 0..3), 0..5),
            point in proptest::collection::vec(-5i64..6, 3),
        ) {
            let conjs: Vec<Conj> = picks.iter().map(|p| p.iter().map(|&k| pool[k].clone()).collect()).collect();
            let outside = |cs: &[&Conj]| cs.iter().all(|c| !c.iter().all(|cut| holds(cut, &point)));
            let all: Vec<&Conj> = conjs.iter().collect();
            prop_assert_eq!(outside(&all), outside(&weakest(all.clone())));
        }
    }
}
