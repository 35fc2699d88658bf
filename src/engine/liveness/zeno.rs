//! Time divergence decided on the graph of a pass without the tick clock,
//! where the labels of [`super::progress`] leave it open.
//!
//! Both questions are answered on the nodes and arcs a pass without ticks
//! logged: the aLU-abstract zone graph of the network itself
//! ([`super::nodes`]). Every concrete run is covered by a path of it
//! (abstract zones contain the exact ones), so what holds of every infinite
//! path through a set of nodes holds of every concrete run staying there.
//!
//! **Undecided nodes** ([`undecided`]). After the pass, a node that cannot
//! reach an accepting SCC either has no time-divergent run (a time-lock; in
//! phase 1, no counterexample from it) or has one the labels missed. A
//! time-divergent run that, from some point on, stays in an SCC `C`:
//! - lets time pass in some node of `C` that can delay (urgent and
//!   committed locations and enabled urgent channels stop time): an SCC
//!   whose nodes cannot delay holds no such run;
//! - if no arc of `C` assigns a clock `x` while some node of `C` (by an
//!   invariant) or arc (by a guard) bounds `x` from above, `x` grows with
//!   time and without limit once the run stays in `C`, so after a while the
//!   run avoids those nodes and arcs: `x` is *blocking*, as in the
//!   non-Zenoness check of Herbreteau, Srivathsan and Walukiewicz
//!   ("Efficient emptiness check for timed Büchi automata", CAV 2010 /
//!   FMSD 2012). The run's tail then stays in an SCC of `C` without them.
//!
//! Removing such nodes and arcs until none is left leaves the SCCs where a
//! divergent run may stay. Nodes that can reach one are *undecided*: only
//! they need the guessing pass ([`super::product`]). The others have no
//! divergent run. On the graph of the guessing pass, where time passes
//! along guesses rather than in nodes, the same refinement keeps exactly
//! the SCCs with a guess inside left unblocked: the nodes that can reach
//! one have a divergent run, the others none.
//! Each round removes a node or an arc, and the bounds are read off the
//! constraints (any constant, so no bound is missed), which makes the
//! refinement polynomial, unlike the tick clock.
//!
//! **Every run diverges** ([`every_run_diverges`]). An infinite path of an
//! SCC `C` that passes infinitely often an arc resetting a clock `x` and an
//! arc requiring `x >= 1`, with no arc of `C` giving `x` another value,
//! lets at least one time unit pass between each such reset and the next
//! such wait, so time diverges. Otherwise its tail avoids one of the two
//! kinds of arcs and stays in an SCC of `C` without them, which is checked
//! the same way. When every SCC passes (the graph is *strongly non-Zeno*,
//! Tripakis 1999), every run with infinitely many discrete steps diverges.
//! [`phase0_diverges`] first tries a cheaper sufficient test on each
//! process's own automaton ([`super::per_process`]).

use rustc_hash::FxHashSet;

use super::per_process;
use super::product::{Product, Step, Stop, diverges_in_place};
use super::progress::{Progress, bit};
use super::scc::Label;
use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::network::{ClockConstraint, Network, Update};
use crate::semantics::{Abstraction, Discrete, RunError, Transition, ZoneGraph, ZoneState};

/// Not in any component (a node left out).
const NONE: u32 = u32::MAX;

/// What a node tells of the time a run can spend in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// Clocks its invariant bounds from above (bit `x - 1` for clock `x`).
    pub bounds: u64,
    /// Time can pass in it.
    pub delays: bool,
}

/// An arc of the graph, with the clocks its guard bounds from above and
/// the clocks it assigns (to any value), and whether time passes along it
/// (a guess of the guessing graph).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Arc {
    pub from: u32,
    pub to: u32,
    pub bounds: u64,
    pub assigns: u64,
    pub delays: bool,
}

/// The clocks that the clock constraints `cs` bound from above.
pub fn upper_bounds<'a>(cs: impl IntoIterator<Item = &'a ClockConstraint>) -> u64 {
    cs.into_iter().filter(|c| c.linear.is_none() && c.i != 0 && c.j == 0).fold(0, |m, c| m | bit(c.i))
}

/// The clocks that a step of `t` bounds from above (its guards) and assigns.
pub fn step_masks(net: &Network, t: &Transition) -> (u64, u64) {
    let edges = || t.edges.iter().map(|&(q, e)| &net.processes[q as usize].edges[e as usize]);
    let bounds = upper_bounds(edges().flat_map(|e| &e.guard_clocks));
    let assigns = edges().flat_map(|e| &e.updates).fold(0, |m, u| match u {
        Update::Reset { clock: x, .. } | Update::Assign { var: x, .. } => m | bit(*x),
        Update::Data { .. } | Update::Effect(_) => m,
    });
    (bounds, assigns)
}

/// The strongly connected components of the graph on nodes `0..n` with
/// `arcs` (Tarjan's algorithm, iterative): per node, its component's number.
fn components(n: usize, arcs: &[(u32, u32)]) -> Vec<u32> {
    let (start, adj) = adjacency(n, arcs);
    let (mut index, mut low) = (vec![NONE; n], vec![0u32; n]);
    let (mut on_stack, mut comp) = (vec![false; n], vec![NONE; n]);
    let (mut stack, mut calls): (Vec<usize>, Vec<(usize, usize)>) = (Vec::new(), Vec::new());
    let (mut counter, mut count) = (0u32, 0u32);
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        let mut pending = Some(root);
        loop {
            if let Some(v) = pending.take() {
                index[v] = counter;
                low[v] = counter;
                counter += 1;
                on_stack[v] = true;
                stack.push(v);
                calls.push((v, start[v]));
            }
            let Some((v, next)) = calls.last_mut() else { break };
            let v = *v;
            if *next < start[v + 1] {
                let w = adj[*next] as usize;
                *next += 1;
                if index[w] == NONE {
                    pending = Some(w);
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(u, _)) = calls.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                loop {
                    let w = stack.pop().expect("the component's nodes are stacked");
                    on_stack[w] = false;
                    comp[w] = count;
                    if w == v {
                        break;
                    }
                }
                count += 1;
            }
        }
    }
    comp
}

/// What one component holds, joined over its nodes and inner arcs.
#[derive(Clone, Copy, Default)]
struct Summary {
    cyclic: bool,
    delays: bool,
    bounds: u64,
    assigns: u64,
}

impl Summary {
    fn blocking(&self) -> u64 {
        self.bounds & !self.assigns
    }
}

/// Per node of `places`: whether it may have a time-divergent run, among
/// the nodes where `open` holds (the others are not looked at, and arcs
/// with an end outside `open` are ignored). See the module doc.
pub fn undecided(places: &[Place], arcs: &[Arc], open: &[bool]) -> Vec<bool> {
    let n = places.len();
    let mut keep = open.to_vec();
    let mut used: Vec<bool> = arcs.iter().map(|a| open[a.from as usize] && open[a.to as usize]).collect();
    let (comp, summary) = loop {
        let pairs: Vec<(u32, u32)> = arcs
            .iter()
            .zip(&used)
            .filter(|(a, u)| **u && keep[a.from as usize] && keep[a.to as usize])
            .map(|(a, _)| (a.from, a.to))
            .collect();
        let comp = components(n, &pairs);
        let mut summary = vec![Summary::default(); comp.iter().map(|&c| c as usize + 1).max().unwrap_or(0)];
        let inner: Vec<bool> = arcs
            .iter()
            .zip(&used)
            .map(|(a, &u)| {
                let (f, t) = (a.from as usize, a.to as usize);
                u && keep[f] && keep[t] && comp[f] == comp[t]
            })
            .collect();
        for (a, _) in arcs.iter().zip(&inner).filter(|(_, i)| **i) {
            let s = &mut summary[comp[a.from as usize] as usize];
            s.cyclic = true;
            s.bounds |= a.bounds;
            s.assigns |= a.assigns;
            s.delays |= a.delays;
        }
        for v in (0..n).filter(|&v| keep[v]) {
            let s = &mut summary[comp[v] as usize];
            s.bounds |= places[v].bounds;
            s.delays |= places[v].delays;
        }
        let mut changed = false;
        for (k, a) in arcs.iter().enumerate() {
            if inner[k] && a.bounds & summary[comp[a.from as usize] as usize].blocking() != 0 {
                used[k] = false;
                changed = true;
            }
        }
        for v in 0..n {
            let s = summary.get(comp[v] as usize).copied().unwrap_or_default();
            if keep[v] && s.cyclic && (!s.delays || places[v].bounds & s.blocking() != 0) {
                keep[v] = false;
                changed = true;
            }
        }
        if !changed {
            break (comp, summary);
        }
    };
    // What can reach a component left with a cycle, over every open arc.
    let mut out = vec![false; n];
    let mut todo: Vec<usize> = (0..n).filter(|&v| keep[v] && summary[comp[v] as usize].cyclic).collect();
    for &v in &todo {
        out[v] = true;
    }
    let open_arcs: Vec<(u32, u32)> =
        arcs.iter().filter(|a| open[a.from as usize] && open[a.to as usize]).map(|a| (a.to, a.from)).collect();
    let (start, into) = adjacency(n, &open_arcs);
    while let Some(v) = todo.pop() {
        for &u in &into[start[v]..start[v + 1]] {
            if !out[u as usize] {
                out[u as usize] = true;
                todo.push(u as usize);
            }
        }
    }
    out
}

/// The arcs as adjacency lists: the targets of node `v` are
/// `targets[start[v]..start[v + 1]]`.
fn adjacency(n: usize, arcs: &[(u32, u32)]) -> (Vec<usize>, Vec<u32>) {
    let mut start = vec![0usize; n + 1];
    for &(a, _) in arcs {
        start[a as usize + 1] += 1;
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut targets = vec![0u32; arcs.len()];
    for &(a, b) in arcs {
        targets[fill[a as usize]] = b;
        fill[a as usize] += 1;
    }
    (start, targets)
}

/// Whether every infinite path of the graph on nodes `0..n` passes, in the
/// SCC it ends in, resets and waits of one clock infinitely often (see the
/// module doc), the arcs labelled as the liveness search labels them.
/// `false` also when the check would look at more than `budget` arcs in all.
pub fn every_run_diverges(n: usize, arcs: &[(u32, u32)], labels: &[Progress], budget: usize) -> bool {
    let mut local = vec![NONE; n];
    let mut work: Vec<Vec<u32>> = vec![(0..arcs.len() as u32).collect()];
    let mut spent = 0usize;
    let mut seen: FxHashSet<Vec<u32>> = FxHashSet::default();
    while let Some(set) = work.pop() {
        spent += set.len();
        if spent > budget {
            return false;
        }
        // The nodes of `set`, numbered from 0.
        let mut nodes = Vec::new();
        let mut number = |v: u32, local: &mut Vec<u32>| {
            if local[v as usize] == NONE {
                local[v as usize] = nodes.len() as u32;
                nodes.push(v);
            }
            local[v as usize]
        };
        let pairs: Vec<(u32, u32)> = set
            .iter()
            .map(|&k| arcs[k as usize])
            .map(|(a, b)| (number(a, &mut local), number(b, &mut local)))
            .collect();
        let comp = components(nodes.len(), &pairs);
        for &v in &nodes {
            local[v as usize] = NONE;
        }
        let mut inner: Vec<Vec<u32>> = Vec::new();
        for (&k, &(a, b)) in set.iter().zip(&pairs) {
            let c = comp[a as usize];
            if c == comp[b as usize] {
                if inner.len() <= c as usize {
                    inner.resize(c as usize + 1, Vec::new());
                }
                inner[c as usize].push(k);
            }
        }
        for scc in inner.into_iter().filter(|s| !s.is_empty()) {
            let join = scc.iter().fold(Progress::default(), |j, &k| j.join(labels[k as usize]));
            let Some(x) = join.clock() else { return false };
            let resets: Vec<u32> = scc.iter().copied().filter(|&k| labels[k as usize].reset & x == 0).collect();
            let waits: Vec<u32> = scc.into_iter().filter(|&k| labels[k as usize].waits & x == 0).collect();
            // Splitting by different clocks in turn reaches the same sets
            // by different orders (on Fischer's phase 0, 440 of 683): each
            // is checked once. Sets keep the arcs' order, so equal sets are
            // equal vectors.
            for part in [resets, waits] {
                if seen.insert(part.clone()) {
                    work.push(part);
                }
            }
        }
    }
    true
}

/// Per node of the product, whether it may still have a time-divergent
/// run ([`undecided`] over the nodes that cannot reach an accepting SCC,
/// `good` from the search): in a phase where a guessing pass tracks `z`,
/// whether it has one. `None` when the pass logged no arcs.
pub fn open_nodes<S: ClockSet>(p: &mut Product<'_, '_, S>, good: &[bool]) -> Result<Option<Vec<bool>>, Stop> {
    let Some(logged) = p.arcs.take() else { return Ok(None) };
    let n = p.nodes.len();
    let open: Vec<bool> = (0..n).map(|v| !good.get(v).copied().unwrap_or(false)).collect();
    let net = p.zg.net;
    // Where a guessing pass tracks `z`, time passes along guesses, not in
    // nodes (elsewhere, as without ticks: nodes that may diverge).
    let ticks = p.ticks();
    let mut places = vec![Place::default(); n];
    for v in (0..n).filter(|&v| open[v]) {
        let d = p.nodes.discrete(v as u32);
        let invariants =
            d.locs.iter().enumerate().flat_map(|(q, &l)| &net.processes[q].locations[l as usize].invariant);
        let guessed = ticks.guesses() && ticks.tracks(p.nodes.phase(v as u32));
        let delays = !guessed && p.zg.can_delay(d).map_err(|error| Stop::Run { node: Some(v as u32), error })?;
        places[v] = Place { bounds: upper_bounds(invariants), delays };
    }
    let arcs: Vec<Arc> = logged
        .iter()
        .filter(|(from, ..)| open[*from as usize])
        .map(|&(from, to, step)| {
            let (bounds, assigns) = match step {
                Step::Edge(k) => step_masks(net, p.transition(k)),
                Step::Initial | Step::Tick | Step::Guess | Step::Enter => (0, 0),
            };
            Arc { from, to, bounds, assigns, delays: step == Step::Guess }
        })
        .collect();
    let out = undecided(&places, &arcs, &open);
    p.arcs = Some(logged);
    Ok(Some(out))
}

/// Whether no reachable valuation of phase 0 is stuck: time cannot pass
/// forever (an invariant, urgency) and no discrete step is possible, now or
/// after a delay. `p` explored the whole reachable graph.
///
/// Why the nodes' zones suffice. Every reachable valuation `v` of a
/// discrete state lies in the aLU abstraction `a(Z)` of the zone `Z` of a
/// phase-0 node of that state, though not always in `Z` (a node keeps the
/// first zone of its class, [`super::nodes`]): by induction along the run
/// to `v`, each step of `v ≼LU w` (some `w` of `Z`) is matched by a step of
/// `w` into the successor zone, whose class is the successor node's.
/// Each node is checked on a zone containing `a(Z)`
/// ([`ClockSet::alu_cover`]; with exact zones, `Z` itself, which holds the
/// reachable valuations), against the stuck valuations of its discrete
/// state among all those its invariant allows, computed once per discrete
/// state (most have none); a domain without a cover stops at those. The
/// pass computed most of them already, with the steps it had at hand
/// ([`Product::stuck`]).
pub fn never_stuck<S: ClockSet>(p: &mut Product<'_, '_, S>) -> Result<bool, Stop> {
    let mut stuck = std::mem::take(&mut p.stuck);
    for v in (0..p.nodes.len() as u32).filter(|&v| !p.nodes.phase(v)) {
        let c = p.nodes.class(v);
        let (d, k) = (p.nodes.class_discrete(c), p.nodes.discrete_id(c) as usize);
        if stuck.len() <= k {
            stuck.resize_with(k + 1, || None);
        }
        if stuck[k].is_none() {
            let fed = stuck_valuations(&mut p.zg, d).map_err(|error| Stop::Run { node: Some(v), error })?;
            stuck[k] = Some(fed);
        }
        let fed = stuck[k].as_ref().expect("just computed");
        if fed.is_empty() {
            continue;
        }
        let zone = p.nodes.class_zone(c);
        let cover = if p.zg.abstraction == Abstraction::None {
            Some(zone.clone())
        } else {
            p.zg.load_bounds(d);
            zone.alu_cover(&p.zg.lower, &p.zg.upper)
        };
        let Some(cover) = cover else { return Ok(false) };
        if !fed.intersect_zone(&cover).is_empty() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The stuck valuations of `d` among all those its invariant allows.
fn stuck_valuations<S: ClockSet>(zg: &mut ZoneGraph<'_, S>, d: &Discrete) -> Result<Federation<S>, RunError> {
    if diverges_in_place(zg, d)? {
        return Ok(Federation::empty());
    }
    let mut transitions = Vec::new();
    zg.transitions(d, &mut transitions)?;
    let delay = zg.can_delay_after_transitions(d);
    let mut s = ZoneState { discrete: d.clone(), zone: S::universe(zg.dim()) };
    stuck_by(zg, &mut s, &transitions, delay)
}

/// The stuck valuations of `s.discrete` among all those its invariant
/// allows, given its discrete steps and whether time may pass in it
/// ([`ZoneGraph::deadlocked_by`]), where time cannot pass forever in it.
/// Uses `s.zone` as scratch.
pub(super) fn stuck_by<S: ClockSet>(
    zg: &mut ZoneGraph<'_, S>,
    s: &mut ZoneState<S>,
    transitions: &[Transition],
    delay: bool,
) -> Result<Federation<S>, RunError> {
    s.zone = S::universe(zg.dim());
    let wrap = |error| RunError { error, transition: None };
    if !zg.invariant(&s.discrete, &mut s.zone).map_err(wrap)? {
        return Ok(Federation::empty());
    }
    zg.deadlocked_by(s, transitions, delay)
}

/// Whether every run of the product's phase 0 with infinitely many
/// discrete steps diverges ([`super::per_process`], else
/// [`every_run_diverges`], on the logged arcs);
/// `false` when the pass logged none.
pub fn phase0_diverges<S: ClockSet>(p: &mut Product<'_, '_, S>) -> Result<bool, Stop> {
    let Some(logged) = p.arcs.take() else { return Ok(false) };
    // Each process's own cycles may show it at once ([`per_process`]).
    let diverging = per_process::diverging(p.zg.net);
    let phase0_step = |&(from, _, step): &(u32, u32, Step)| match step {
        Step::Edge(k) if !p.nodes.phase(from) => Some(k),
        _ => None,
    };
    let others = logged
        .iter()
        .filter(|arc| phase0_step(arc).is_some_and(|k| !per_process::moves_one(p.transition(k), &diverging)))
        .map(|&(from, to, _)| (from, to));
    if per_process::acyclic(p.nodes.len(), others) {
        p.arcs = Some(logged);
        return Ok(true);
    }
    let (mut pairs, mut labels) = (Vec::new(), Vec::new());
    for &(from, to, step) in &logged {
        if let Step::Edge(k) = step
            && !p.nodes.phase(from)
        {
            pairs.push((from, to));
            labels.push(p.label(from, k).map_err(|error| Stop::Run { node: Some(from), error })?);
        }
    }
    // A bound on the work (each round of the check removes arcs from an
    // SCC; with one clock per process the rounds go as deep as the
    // processes); past it the fixpoint engine decides instead.
    let budget = 64 * pairs.len() + 1024;
    let out = every_run_diverges(p.nodes.len(), &pairs, &labels, budget);
    p.arcs = Some(logged);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arc(from: u32, to: u32, bounds: u64, assigns: u64) -> Arc {
        Arc { from, to, bounds, assigns, delays: false }
    }

    const FREE: Place = Place { bounds: 0, delays: true };

    #[test]
    fn components_are_tarjans() {
        // 0 -> 1 -> 2 -> 0, 2 -> 3, 3 -> 3, 4 alone.
        let c = components(5, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 3)]);
        assert_eq!(c[0], c[1]);
        assert_eq!(c[1], c[2]);
        assert_ne!(c[2], c[3]);
        assert_ne!(c[3], c[4]);
        assert_ne!(c[0], c[4]);
    }

    #[test]
    fn a_bounded_clock_never_reset_blocks_its_cycle() {
        // A loop under the invariant x <= 5 (x = clock 1) that never
        // resets x: Zeno, and so is the node leading to it.
        let places = [FREE, Place { bounds: 1, delays: true }];
        let arcs = [arc(0, 1, 0, 0), arc(1, 1, 0, 0)];
        assert_eq!(undecided(&places, &arcs, &[true, true]), [false, false]);
        // Resetting x on the loop lets time diverge there.
        let arcs = [arc(0, 1, 0, 0), arc(1, 1, 0, 1)];
        assert_eq!(undecided(&places, &arcs, &[true, true]), [true, true]);
    }

    #[test]
    fn blocking_arcs_are_removed_and_the_rest_rechecked() {
        // 0 <-> 1, the arc 1 -> 0 guarded by x <= 3; no reset anywhere.
        // Without that arc no cycle is left.
        let places = [FREE, FREE];
        let arcs = [arc(0, 1, 0, 0), arc(1, 0, 1, 0)];
        assert_eq!(undecided(&places, &arcs, &[true, true]), [false, false]);
        // A self-loop on 1 survives: both may diverge.
        let arcs = [arc(0, 1, 0, 0), arc(1, 0, 1, 0), arc(1, 1, 0, 0)];
        assert_eq!(undecided(&places, &arcs, &[true, true]), [true, true]);
        // A node is undecided only if it can reach such a cycle: here 1
        // cannot reach the loop on 0, and its own loop is bounded.
        let arcs = [arc(0, 1, 0, 0), arc(1, 1, 1, 0), arc(0, 0, 0, 0)];
        assert_eq!(undecided(&places, &arcs, &[true, true]), [true, false]);
    }

    #[test]
    fn cycles_where_time_cannot_pass_are_zeno() {
        let urgent = Place { bounds: 0, delays: false };
        let arcs = [arc(0, 1, 0, 0), arc(1, 0, 0, 0)];
        assert_eq!(undecided(&[urgent, urgent], &arcs, &[true, true]), [false, false]);
        assert_eq!(undecided(&[urgent, FREE], &arcs, &[true, true]), [true, true]);
    }

    #[test]
    fn nodes_outside_open_are_not_looked_at() {
        let arcs = [arc(0, 1, 0, 0), arc(1, 1, 0, 0)];
        assert_eq!(undecided(&[FREE, FREE], &arcs, &[true, false]), [false, false]);
    }

    fn label(reset: u64, waits: u64, spoils: u64) -> Progress {
        Progress { tick: false, reset, waits, spoils }
    }

    #[test]
    fn every_cycle_needs_a_reset_and_a_wait_of_one_clock() {
        let cycle = [(0, 1), (1, 0)];
        assert!(every_run_diverges(2, &cycle, &[label(1, 0, 0), label(0, 1, 0)], 100));
        // A reset without a wait, or a spoiled clock, proves nothing.
        assert!(!every_run_diverges(2, &cycle, &[label(1, 0, 0), label(0, 0, 0)], 100));
        assert!(!every_run_diverges(2, &cycle, &[label(1, 1, 0), label(0, 0, 1)], 100));
        // Two processes, each cycling on its own clock (a product of two
        // two-node loops): every cycle diverges, by one clock or the other.
        // Nodes (a, b) numbered 2a + b.
        let arcs = [(0, 2), (2, 0), (1, 3), (3, 1), (0, 1), (1, 0), (2, 3), (3, 2)];
        let x = [label(1, 0, 0), label(0, 1, 0)];
        let y = [label(2, 0, 0), label(0, 2, 0)];
        let labels = [x[0], x[1], x[0], x[1], y[0], y[1], y[0], y[1]];
        assert!(every_run_diverges(4, &arcs, &labels, 1000));
        // A third loop with no clock on one node does not.
        let mut arcs = arcs.to_vec();
        arcs.push((3, 3));
        let mut labels = labels.to_vec();
        labels.push(label(0, 0, 0));
        assert!(!every_run_diverges(4, &arcs, &labels, 1000));
        // Nor does a check over the budget.
        assert!(!every_run_diverges(2, &cycle, &[label(1, 0, 0), label(0, 1, 0)], 1));
    }
}
