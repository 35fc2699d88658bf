//! Properties with `deadlock` or clock atoms on a data set.
//!
//! Such a formula is decided per clock valuation: for a fixed data
//! valuation `v`, the valuations of a zone `Z` meeting it are a federation
//! the zone graph computes ([`ZoneGraph::sat`]), and `v` is in the answer
//! when that federation is not empty. The federation depends on `v` only
//! through the truth of the formula's data conditions and the clock bounds
//! its atoms read from the data; with `deadlock`, also through what the
//! deadlocked valuations depend on ([`ZoneGraph::deadlocked`]): which
//! edges' data guards hold (hence which steps exist), whether an urgent
//! synchronisation is enabled, the clock bounds read from the data (source
//! invariants, guards), and per step whether its updates are disabled, the
//! bounds the target invariants read from the updated data and the values
//! of the targets' data invariants on it. So `D` is split into cells on
//! which all of these are constant, each cell's federation computed once
//! from one of its valuations.

use crate::bdd::exec::Machine;
use crate::bdd::word::{self, Word};
use crate::bdd::{Bdd, Encoding, FALSE, Manager, Unsupported, step};
use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::network::{Code, Network, StateFormula};
use crate::semantics::{Discrete, ZoneGraph, ZoneState};

use super::search::{self, cells, data_bounds, data_rates, urgent, value_at};

/// The valuations `v` of `set` (in locations `locs`) with some `ν ∈ zone`
/// meeting `goal`, and those whose evaluation fails (including the steps a
/// deadlock test looks at: the caller then asks the explicit engine, which
/// reports such an error with its trace; so where some valuation fails,
/// all of `set` is given as failing).
#[allow(clippy::too_many_arguments)]
pub fn sat<S: ClockSet>(
    net: &Network,
    zg: &mut ZoneGraph<'_, S>,
    m: &mut Manager,
    enc: &Encoding,
    locs: &[u32],
    set: Bdd,
    zone: &S,
    goal: &StateFormula,
) -> Result<step::Split, Unsupported> {
    if !goal.mentions_deadlock() && !goal.has_clock_atoms() {
        return search::sat(m, enc, locs, set, goal);
    }
    let Some(parts) = parts(net, zg, m, enc, locs, set, zone, goal)? else {
        return Ok(step::Split { pass: FALSE, error: set });
    };
    let mut pass = FALSE;
    for (cell, fed) in parts {
        if !fed.is_empty() {
            pass = m.or(pass, cell);
        }
    }
    Ok(step::Split { pass, error: FALSE })
}

/// A cell of a data set and the valuations of a zone meeting a formula on it.
pub(crate) type Part<S> = (Bdd, Federation<S>);

/// `set` (in locations `locs`) split into cells on which the valuations of
/// `zone` meeting `goal` are the same federation, each with it; `None`
/// when evaluating fails on some valuation (as for [`sat`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn parts<S: ClockSet>(
    net: &Network,
    zg: &mut ZoneGraph<'_, S>,
    m: &mut Manager,
    enc: &Encoding,
    locs: &[u32],
    set: Bdd,
    zone: &S,
    goal: &StateFormula,
) -> Result<Option<Vec<Part<S>>>, Unsupported> {
    let dead = goal.mentions_deadlock();
    let mut conjs = Vec::new();
    goal.conjunctions(&mut conjs);
    let mut sides = Vec::new();
    for code in conjs.iter().filter_map(|c| c.data.as_ref()) {
        let s = step::guard(m, enc, locs, set, code)?;
        if s.error != FALSE {
            return Ok(None);
        }
        sides.push(s.pass);
    }
    let mut codes = data_bounds(conjs.iter().flat_map(|c| &c.clocks));
    if dead {
        let Some(guards) = guard_sets(net, m, enc, locs, set)? else { return Ok(None) };
        sides.extend(guards);
        let Some(blocked) = urgent(net, m, enc, locs, set)? else { return Ok(None) };
        sides.push(blocked);
        codes.extend(source_bounds(net, locs));
    }
    // On each of these cells the goal's data conditions and clock bounds,
    // and the steps and the clock bounds of the source, are the same; with
    // `deadlock`, each is split further by the steps' updates.
    let Some(cells) = cells(m, enc, locs, set, &codes, &sides)? else { return Ok(None) };
    let mut out = Vec::new();
    let mut transitions = Vec::new();
    for (part, v) in cells {
        let d = Discrete { locs: locs.into(), data: v };
        if dead && zg.transitions(&d, &mut transitions).is_err() {
            return Ok(None);
        }
        let mut rest = part;
        while let Some(v) = enc.pick(m, rest) {
            let state = ZoneState { discrete: Discrete { locs: locs.into(), data: v.into() }, zone: zone.clone() };
            let mut cell = rest;
            if dead {
                for t in &transitions {
                    let Some(at) = same_post(net, zg, m, enc, &state.discrete, t, cell)? else { return Ok(None) };
                    cell = m.and(cell, at);
                }
            }
            let Ok(fed) = zg.sat(goal, &state) else { return Ok(None) };
            let here = enc.point(m, &state.discrete.data);
            if m.and(cell, here) == FALSE {
                // The symbolic successors disagree with the explicit ones on
                // `v`: no progress would be made; the explicit engine answers.
                return Ok(None);
            }
            let out_of_cell = m.not(cell);
            rest = m.and(rest, out_of_cell);
            out.push((cell, fed));
        }
    }
    Ok(Some(out))
}

/// The data each edge leaving `locs` allows (network edges: a `select`'s
/// values are separate edges here, as in the explicit semantics), or
/// `None` when evaluating a guard fails.
fn guard_sets(
    net: &Network,
    m: &mut Manager,
    enc: &Encoding,
    locs: &[u32],
    set: Bdd,
) -> Result<Option<Vec<Bdd>>, Unsupported> {
    let mut out = Vec::new();
    for (p, &l) in locs.iter().enumerate() {
        for &e in &net.processes[p].outgoing[l as usize] {
            let Some(code) = &net.processes[p].edges[e as usize].guard_data else { continue };
            let g = step::guard(m, enc, locs, set, code)?;
            if g.error != FALSE {
                return Ok(None);
            }
            out.push(g.pass);
        }
    }
    Ok(Some(out))
}

/// The clock bounds read from the data in the invariants of `locs` and the
/// clock guards of the edges leaving them, and the rates that read it.
fn source_bounds<'n>(net: &'n Network, locs: &[u32]) -> Vec<&'n Code> {
    let mut out = Vec::new();
    for (p, &l) in locs.iter().enumerate() {
        let proc_ = &net.processes[p];
        out.extend(data_bounds(&proc_.locations[l as usize].invariant));
        for &e in &proc_.outgoing[l as usize] {
            out.extend(data_bounds(&proc_.edges[e as usize].guard_clocks));
        }
    }
    out.extend(data_rates(net, locs));
    out
}

/// The valuations of `cell` on which step `t` from `d` is disabled or not
/// as it is from `d`'s data, and, when it is not, whose targets' invariants
/// read the bounds (and data conditions) from the updated data that `d`'s
/// target reads, and whose linear assignments give the values `d`'s
/// give; `None`
/// when the updates or those bounds fail somewhere in `cell`.
fn same_post<S: ClockSet>(
    net: &Network,
    zg: &mut ZoneGraph<'_, S>,
    m: &mut Manager,
    enc: &Encoding,
    d: &Discrete,
    t: &crate::semantics::Transition,
    cell: Bdd,
) -> Result<Option<Bdd>, Unsupported> {
    let Ok(target) = zg.discrete_post(d, t, &mut Vec::new()) else { return Ok(None) };
    let mut next_locs: Box<[u32]> = d.locs.clone();
    for &(p, e) in &t.edges {
        next_locs[p as usize] = net.processes[p as usize].edges[e as usize].to;
    }
    let updates = t.edges.iter().flat_map(|&(p, e)| &net.processes[p as usize].edges[e as usize].updates);
    let mut mach = Machine::new(m, enc, &next_locs, net.out_of_range, cell);
    let assigned = step::run_updates(&mut mach, &net.slots, updates)?;
    if mach.error != FALSE {
        return Ok(None);
    }
    let Some(target) = target else {
        let gone = mach.path;
        let kept = mach.m.not(gone);
        return Ok(Some(mach.m.and(cell, kept)));
    };
    let mut at = mach.path;
    for w in &assigned {
        let k = value_at(mach.m, enc, w, &d.data);
        let same = word::eq(mach.m, w, &Word::constant(k));
        at = mach.m.and(at, same);
    }
    for (p, &l) in next_locs.iter().enumerate() {
        let location = &net.processes[p].locations[l as usize];
        for code in location.invariant_data.iter().chain(data_bounds(&location.invariant)) {
            let w = mach.run(code)?;
            if mach.error != FALSE {
                return Ok(None);
            }
            let k = code.eval(&next_locs, &target.data, &mut Vec::new());
            let k = k.map_err(|_| Unsupported("a clock bound failed".into()))?;
            let same = word::eq(mach.m, &w, &Word::constant(k));
            at = mach.m.and(at, same);
        }
    }
    Ok(Some(at))
}
