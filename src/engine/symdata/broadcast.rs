//! Broadcast synchronisations on a data set.
//!
//! A broadcast step takes the sender's edge and, in every other process
//! with an enabled receiving edge on the channel, one such edge (FORMAT.md;
//! receivers have no clock guards, so their data guards alone decide).
//! Which processes take part depends on the valuation, so the sender's
//! data set is split: per other process, either one of its receiving edges
//! (the data its guard allows) or none of them (the data where no receiving
//! edge is enabled for any select value). Each combination with data is one
//! step; the combinations' sets are disjoint in the non-participants and
//! cover the sender's set, as the explicit semantics' one step per
//! valuation does.

use crate::bdd::{Bdd, Encoding, FALSE, Manager};

use super::edges::{EdgeRef, Enabled, Rule, Step};

/// The broadcast steps of `sender` (its guard set in `sender.2`), given the
/// enabled receiving edges on its channel, in process order; `allowed`
/// applies the committed rule to a step's edges.
pub fn steps(
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
            let mut options: Vec<Choice> = group.iter().map(|&(_, f, h)| (Some(f), q, h)).collect();
            options.push((None, q, stay_out(m, enc, group)));
            choices.push(options);
        }
        i += n;
    }
    let mut edges = vec![(sender.0, sender.1)];
    combine(m, &choices, sender.2, &mut edges, allowed, out);
}

/// One way a process takes part: one of its edges, or none (`None`), with
/// the process and the data where it is so.
pub type Choice = (Option<EdgeRef>, u32, Bdd);

/// The data where none of a process's `edges` is enabled, for any value of
/// the select variables.
pub fn stay_out(m: &mut Manager, enc: &Encoding, edges: &[Enabled]) -> Bdd {
    let selects: Vec<u32> = (enc.data_len()..enc.len()).flat_map(|s| enc.current_vars(s)).collect();
    let selects = m.cube(&selects);
    let mut some = FALSE;
    for &(_, _, h) in edges {
        let data = m.exists(h, selects);
        some = m.or(some, data);
    }
    m.not(some)
}

/// Extends `edges` (with data `set`) by one choice of each process of
/// `choices`, depth first; empty combinations are cut early.
pub fn combine(
    m: &mut Manager,
    choices: &[Vec<Choice>],
    set: Bdd,
    edges: &mut Vec<(u32, EdgeRef)>,
    allowed: &Rule<'_>,
    out: &mut Vec<(Step, Bdd)>,
) {
    let Some((first, rest)) = choices.split_first() else {
        if allowed(edges) {
            out.push((Step(edges.clone()), set));
        }
        return;
    };
    for &(f, q, h) in first {
        let next = m.and(set, h);
        if next == FALSE {
            continue;
        }
        if let Some(f) = f {
            edges.push((q, f));
        }
        combine(m, rest, next, edges, allowed, out);
        if f.is_some() {
            edges.pop();
        }
    }
}
