//! A trace a person can replay by hand:
//!
//! ```text
//! state: Train(1).far Gate.up | count = 0 | Train(1).x = 0
//! delay 7/2
//! Train(1): far -> near  approach!   Gate: up -> down  approach?
//! state: Train(1).near Gate.down | count = 1 | Train(1).x = 0
//! ```

use super::names::{edge_move, sync_label, value};
use super::{ConcreteState, ConcreteTrace};
use crate::network::Network;
use crate::semantics::{Discrete, Transition};

/// The whole trace, one line per state, delay and step; a final pure delay
/// is shown only when it is not 0. A lasso's progress marks are one line
/// each (FORMAT.md section 3: runs are time-divergent; at least one time
/// unit passes between two marks).
pub fn text(net: &Network, trace: &ConcreteTrace) -> String {
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(state(net, &trace.initial));
    let mut at = &trace.initial;
    let last = trace.steps.len().saturating_sub(1);
    for (k, step) in trace.steps.iter().enumerate() {
        line(format!("delay {}", step.delay));
        if trace.loop_start.is_some_and(|l| k >= l) && step.transition.edges.is_empty() {
            // A progress mark of a lasso: the state does not change.
            line(
                match k {
                    _ if trace.loop_start == Some(k) => "progress mark: the loop starts here",
                    _ if k == last => "progress mark: back in the loop start's region; the loop repeats forever",
                    _ => "progress mark",
                }
                .into(),
            );
            continue;
        }
        line(edges(net, &at.discrete, &step.transition));
        line(state(net, &step.after));
        at = &step.after;
    }
    if !num_traits::Zero::is_zero(&trace.final_delay) {
        line(format!("delay {}", trace.final_delay));
        line(state(net, &trace.end()));
    }
    out
}

/// `state: Train(1).far Gate.up | count = 0 | Train(1).x = 7/2`; the data
/// and clock parts are left out when the model has none.
pub fn state(net: &Network, s: &ConcreteState) -> String {
    let locs: Vec<String> = net
        .processes
        .iter()
        .zip(s.discrete.locs.iter())
        .map(|(p, &l)| format!("{}.{}", p.name, p.locations[l as usize].name))
        .collect();
    let mut out = format!("state: {}", locs.join(" "));
    if !net.slots.is_empty() {
        let vars: Vec<String> = net
            .slots
            .iter()
            .enumerate()
            .map(|(k, slot)| format!("{} = {}", slot.name, value(net, k, s.discrete.data[k])))
            .collect();
        out.push_str(&format!(" | {}", vars.join(", ")));
    }
    if !net.clocks.is_empty() {
        let clocks: Vec<String> = net.clocks.iter().zip(&s.clocks).map(|(n, v)| format!("{n} = {v}")).collect();
        out.push_str(&format!(" | {}", clocks.join(", ")));
    }
    out
}

/// `Train(1): far -> near  approach!   Gate: up -> down  approach?`, with
/// `[i = 2]` after an edge chosen by a `select`; syncs are evaluated in the
/// source state `d`.
pub fn edges(net: &Network, d: &Discrete, t: &Transition) -> String {
    let parts: Vec<String> = t
        .edges
        .iter()
        .map(|&(p, e)| {
            let edge = &net.processes[p as usize].edges[e as usize];
            let mut s = edge_move(net, p, e);
            if let Some(sync) = sync_label(net, edge, d) {
                s.push_str(&format!("  {sync}"));
            }
            if !edge.select.is_empty() {
                let sel: Vec<String> = edge.select.iter().map(|(n, v)| format!("{n} = {v}")).collect();
                s.push_str(&format!("  [{}]", sel.join(", ")));
            }
            s
        })
        .collect();
    parts.join("   ")
}
