//! Divergence read off each process's own automaton: a cheap sufficient
//! test for "every run with infinitely many discrete steps diverges",
//! tried before [`super::zeno::every_run_diverges`], whose splitting of
//! SCCs by clock is exponential in the number of processes that each
//! cycle on a clock of their own (train-gate). Linear in the model and
//! the graph; where it fails (a process cycling without a clock of its
//! own, along a cycle of the graph), the splitting still decides.
//!
//! **The criterion.** A clock `x` is *clean* when every update of it in
//! the network sets it to 0. A process `p` *diverges by* a clean `x` when
//! every cycle of its automaton (locations and edges, whatever guards
//! and data) has an edge resetting `x` and an edge whose guard requires
//! `x >= 1` for every value of the data; tested as: the automaton without
//! the edges resetting `x` is acyclic, and so is the automaton without the
//! edges waiting for `x`. If the steps of the graph that move no process
//! diverging by a clock form no cycle, every run with infinitely many
//! discrete steps diverges:
//! - such a run follows an infinite path of the graph (which covers every
//!   concrete run), which, the graph being finite, takes infinitely many
//!   steps moving such a process, so it moves one such process `p`
//!   infinitely often; `p`'s locations along the run form an infinite walk
//!   of its automaton, which visits some location `l` infinitely often;
//! - each stretch of that walk from `l` back to `l` is a closed walk, hence
//!   holds a cycle, hence an edge resetting `x` and one waiting for `x`;
//! - take every other stretch with the one before it: the wait in the
//!   later one comes after a reset in the earlier one, and `x`, only ever
//!   set to 0, has counted the time since the last reset, which is at
//!   least 1 at the wait; these pairs of stretches are disjoint, so
//!   infinitely many disjoint intervals of at least one time unit pass.

use crate::network::{Network, Update};
use crate::semantics::Transition;

/// Per process: whether it diverges by some clean clock (module doc).
pub fn diverging(net: &Network) -> Vec<bool> {
    let clocks = net.clocks.len() as u32;
    let mut clean = vec![true; clocks as usize + 1];
    for e in net.processes.iter().flat_map(|p| &p.edges) {
        for u in &e.updates {
            match u {
                Update::Reset { value: 0, .. } => {}
                Update::Reset { clock: x, .. } | Update::Assign { var: x, .. } => {
                    if let Some(c) = clean.get_mut(*x as usize) {
                        *c = false;
                    }
                }
                Update::Data { .. } | Update::Effect(_) => {}
            }
        }
    }
    net.processes
        .iter()
        .map(|p| {
            (1..=clocks).filter(|&x| clean[x as usize]).any(|x| {
                let resets = |e: &crate::network::Edge| {
                    e.updates.iter().any(|u| matches!(u, Update::Reset { clock, value: 0 } if *clock == x))
                };
                let waits = |e: &crate::network::Edge| {
                    e.guard_clocks
                        .iter()
                        .any(|c| c.linear.is_none() && c.i == 0 && c.j == x && c.effective_range().1 <= -1)
                };
                let n = p.locations.len();
                acyclic(n, p.edges.iter().filter(|e| !resets(e)).map(|e| (e.from, e.to)))
                    && acyclic(n, p.edges.iter().filter(|e| !waits(e)).map(|e| (e.from, e.to)))
            })
        })
        .collect()
}

/// Whether step `t` moves a process of `diverging`.
pub fn moves_one(t: &Transition, diverging: &[bool]) -> bool {
    t.edges.iter().any(|&(q, _)| diverging[q as usize])
}

/// Whether the graph on nodes `0..n` with `arcs` has no cycle (Kahn's
/// algorithm: every node is eventually left without incoming arcs).
pub fn acyclic(n: usize, arcs: impl Iterator<Item = (u32, u32)>) -> bool {
    let arcs: Vec<(u32, u32)> = arcs.collect();
    let mut indegree = vec![0usize; n];
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &(a, b) in &arcs {
        indegree[b as usize] += 1;
        out[a as usize].push(b);
    }
    let mut ready: Vec<usize> = (0..n).filter(|&v| indegree[v] == 0).collect();
    let mut removed = 0;
    while let Some(v) = ready.pop() {
        removed += 1;
        for &w in &out[v] {
            indegree[w as usize] -= 1;
            if indegree[w as usize] == 0 {
                ready.push(w as usize);
            }
        }
    }
    removed == n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(yaml: &str) -> Network {
        let src = crate::syntax::yaml::Source::new("p.yaml", yaml.to_string());
        let loaded = crate::model::load::load_model(&src).expect("a valid model");
        crate::network::build(&loaded.model).expect("a network")
    }

    /// `P` cycles `a -> b -> a`, resetting `x` and then waiting for it with
    /// `GUARD`; `Q` loops on `c`, with `UPDATE` (`x` is global).
    const TWO: &str = "model: two
clocks: [x]
templates:
  P:
    initial: a
    locations: {a: {}, b: {}}
    edges:
      - {from: a, to: b, update: \"x = 0\"}
      - {from: b, to: a, guard: \"GUARD\"}
  Q:
    clocks: [y]
    initial: c
    locations: {c: {}}
    edges:
      - {from: c, to: c, update: \"UPDATE\"}
system: [P, Q]
";

    fn two(guard: &str, update: &str) -> Vec<bool> {
        diverging(&net(&TWO.replace("GUARD", guard).replace("UPDATE", update)))
    }

    #[test]
    fn a_process_diverges_by_a_clock_each_of_its_cycles_resets_and_waits_for() {
        // Q's loop waits for nothing.
        assert_eq!(two("x >= 1", "y = 0"), [true, false]);
        // A wait shorter than one time unit proves nothing.
        assert_eq!(two("x > 0", "y = 0"), [false, false]);
        // Nor does a clock that some edge sets to another value than 0.
        assert_eq!(two("x >= 1", "x = 2"), [false, false]);
    }

    #[test]
    fn acyclic_tells_cycles() {
        assert!(acyclic(3, [(0, 1), (1, 2), (0, 2)].into_iter()));
        assert!(!acyclic(3, [(0, 1), (1, 2), (2, 0)].into_iter()));
        assert!(!acyclic(2, [(1, 1)].into_iter()));
        assert!(acyclic(0, std::iter::empty()));
    }
}
