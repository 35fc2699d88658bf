//! The first nodes of a zone graph in breadth-first order from its initial
//! states: what `--max-nodes` keeps, so that what is shown is connected to
//! where runs start.

use std::collections::VecDeque;

use crate::engine::graph::Graph;

/// Per node: shown or not; every node when `max` is `None`.
pub fn first_nodes<S>(g: &Graph<S>, max: Option<usize>) -> Vec<bool> {
    let n = g.states.len();
    let Some(max) = max.filter(|&m| m < n) else { return vec![true; n] };
    let mut succ: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (a, _, b) in &g.edges {
        succ[*a as usize].push(*b);
    }
    let mut shown = vec![false; n];
    let mut queue: VecDeque<u32> = g.initial.iter().copied().collect();
    let mut count = 0;
    while let Some(i) = queue.pop_front() {
        if shown[i as usize] || count == max {
            continue;
        }
        shown[i as usize] = true;
        count += 1;
        queue.extend(succ[i as usize].iter().copied());
    }
    shown
}
