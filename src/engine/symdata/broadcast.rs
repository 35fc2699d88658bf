//! Broadcast synchronisations on a data set.
//!
//! A broadcast step takes the sender's edge and, in every other process
//! with an enabled receiving edge on the channel, one such edge (FORMAT.md).
//! Which processes take part depends on the valuation, so the sender's
//! data set is split: per other process, either one of its receiving edges
//! (the data its guard allows, the zone its clock guard allows), or none of
//! them. A process stays out where none of its receiving edges is enabled:
//! for the data where exactly the edges `S` have their data guards hold
//! (for some select value), the clock valuations where every edge of `S`
//! fails a clock atom, split as the explicit semantics splits them (one
//! failing atom per edge, the ones before it holding: `Step`'s left-out
//! edges); nowhere when an edge of `S` has no clock guard. Each combination
//! with data is one step; over the data and zones they cover the sender's
//! set as the explicit semantics' steps do, valuation by valuation.

use crate::bdd::{Bdd, Encoding, FALSE, Manager, TRUE};
use crate::network::Network;

use super::edges::{self, EdgeRef, Enabled, Rule, Step};

/// The broadcast steps of `sender` (its guard set in `sender.2`), given the
/// enabled receiving edges on its channel, in process order; `allowed`
/// applies the committed rule.
pub fn steps(
    net: &Network,
    m: &mut Manager,
    enc: &Encoding,
    sender: Enabled,
    receivers: &[Enabled],
    allowed: &Rule<'_>,
    out: &mut Vec<(Step, Bdd)>,
) {
    // Per other process: its choices, each an edge (or none) and its data.
    let mut choices: Vec<Vec<Choice>> = Vec::new();
    let mut i = 0;
    while i < receivers.len() {
        let q = receivers[i].0;
        let n = receivers[i..].iter().take_while(|r| r.0 == q).count();
        if q != sender.0 {
            let group = &receivers[i..i + n];
            let mut options: Vec<Choice> = group.iter().map(|&(_, f, h)| Choice::joins(q, f, h)).collect();
            stay_out_cells(net, m, enc, sender.2, group, &mut options);
            choices.push(options);
        }
        i += n;
    }
    let mut step = Step::one(vec![(sender.0, sender.1)]);
    combine(m, &choices, sender.2, &mut step, allowed, out);
}

/// One way a process takes part: one of its edges, or none (`edge` is
/// `None`), with the data where it is so, and the edges it stays out of by
/// a failing clock atom (edge, atom).
pub struct Choice {
    pub process: u32,
    pub edge: Option<EdgeRef>,
    pub data: Bdd,
    pub out: Vec<(EdgeRef, u32)>,
}

impl Choice {
    pub fn joins(process: u32, edge: EdgeRef, data: Bdd) -> Choice {
        Choice { process, edge: Some(edge), data, out: Vec::new() }
    }

    pub fn none(process: u32, data: Bdd) -> Choice {
        Choice { process, edge: None, data, out: Vec::new() }
    }
}

/// The data where none of a process's `edges` is enabled, for any value of
/// the select variables.
pub fn stay_out(m: &mut Manager, enc: &Encoding, edges: &[Enabled]) -> Bdd {
    let mut some = FALSE;
    for e in enabled_somehow(m, enc, edges) {
        some = m.or(some, e);
    }
    m.not(some)
}

/// Per edge, the data where its guard holds for some select value.
fn enabled_somehow(m: &mut Manager, enc: &Encoding, edges: &[Enabled]) -> Vec<Bdd> {
    let selects: Vec<u32> = (enc.data_len()..enc.len()).flat_map(|s| enc.current_vars(s)).collect();
    let selects = m.cube(&selects);
    edges.iter().map(|&(_, _, h)| m.exists(h, selects)).collect()
}

/// The ways the process of the receiving edges `group` stays out of a
/// broadcast sent with the data `sent` (see the module's comment), added
/// to `options`: one set `S` of edges enabled by the data at a time, those
/// the data hold.
fn stay_out_cells(
    net: &Network,
    m: &mut Manager,
    enc: &Encoding,
    sent: Bdd,
    group: &[Enabled],
    options: &mut Vec<Choice>,
) {
    let q = group[0].0;
    let some = enabled_somehow(m, enc, group);
    let atoms: Vec<u32> = group.iter().map(|&(_, f, _)| edges::edge(net, q, f).guard_clocks.len() as u32).collect();
    let mut rest = sent;
    while let Some(v) = enc.pick(m, rest) {
        let mut data = TRUE;
        let mut within = Vec::new();
        for (k, &e) in some.iter().enumerate() {
            let inside = enc.contains(m, e, &v);
            let side = if inside { e } else { m.not(e) };
            data = m.and(data, side);
            if inside {
                within.push(k);
            }
        }
        let outside = m.not(data);
        rest = m.and(rest, outside);
        if within.iter().any(|&k| atoms[k] == 0) {
            continue;
        }
        // Every choice of a failing atom per edge of `S`, in mixed radix.
        let mut digits = vec![0u32; within.len()];
        loop {
            let out = within.iter().zip(&digits).map(|(&k, &a)| (group[k].1, a)).collect();
            options.push(Choice { process: q, edge: None, data, out });
            let Some(d) = (0..digits.len()).rev().find(|&d| digits[d] + 1 < atoms[within[d]]) else { break };
            digits[d] += 1;
            digits[d + 1..].iter_mut().for_each(|x| *x = 0);
        }
    }
}

/// Extends `step` (with data `set`) by one choice of each process of
/// `choices`, depth first; empty combinations are cut early.
pub fn combine(
    m: &mut Manager,
    choices: &[Vec<Choice>],
    set: Bdd,
    step: &mut Step,
    allowed: &Rule<'_>,
    out: &mut Vec<(Step, Bdd)>,
) {
    let Some((first, rest)) = choices.split_first() else {
        if allowed(&step.0) {
            out.push((step.clone(), set));
        }
        return;
    };
    for c in first {
        let next = m.and(set, c.data);
        if next == FALSE {
            continue;
        }
        let (took, left) = (step.0.len(), step.1.len());
        step.0.extend(c.edge.map(|f| (c.process, f)));
        step.1.extend(c.out.iter().map(|&(f, k)| (c.process, f, k)));
        combine(m, rest, next, step, allowed, out);
        step.0.truncate(took);
        step.1.truncate(left);
    }
}
