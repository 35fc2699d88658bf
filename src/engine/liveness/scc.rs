//! Couvreur's on-the-fly SCC algorithm for Büchi emptiness with accepting
//! *edges* (Couvreur 1999; the iterative form of Geldenhuys and Valmari
//! 2005), extended to tell, for every node, whether it can reach an
//! accepting SCC ("good").
//!
//! A depth-first search numbers nodes in visiting order. `roots` holds, for
//! every SCC under construction on the search path, the number of its root
//! (its first visited node) and whether an accepting edge lies inside it.
//! An edge to a node that is still *live* (visited, its SCC not finished)
//! closes a cycle: every root above that node merges into the one below it,
//! together with the acceptance of the merged roots, of the edges between
//! them and of the closing edge. An SCC is accepting iff some merge made its
//! root accepting; that is reported at once, while the search path still
//! leads to it, so a counterexample needs no second search. When the search
//! leaves a root, its SCC is complete: its nodes (the top of the `live`
//! stack down to the root) become *dead*.
//!
//! Good nodes: SCCs complete in reverse topological order, so when one
//! completes, every SCC it has an edge to is already dead and known. It is
//! good iff it is accepting or has an edge to a good node; the latter is
//! collected on the roots like acceptance (an edge from the SCC's part
//! above a root to a dead good node).
//!
//! Nothing recurses: the search path is an explicit stack of frames, each
//! holding its node's successors and the next one to follow.

/// A graph explored on the fly: nodes are dense ids handed out by the graph.
pub trait Graph {
    type Error;
    /// Label of an edge, kept for the search path.
    type Step: Clone;
    fn initial(&mut self, out: &mut Vec<(u32, Self::Step)>) -> Result<(), Self::Error>;
    /// Successors of `node`, each with whether the edge is accepting.
    fn successors(&mut self, node: u32, out: &mut Vec<(u32, bool, Self::Step)>) -> Result<(), Self::Error>;
    /// Whether an accepting SCC containing `node` answers the query (the
    /// search stops there); otherwise it only counts for "good".
    fn counterexample(&self, node: u32) -> bool;
    /// Called before each expansion; `Err` stops the search (limits).
    fn check_limits(&mut self) -> Result<(), Self::Error>;
}

const UNSEEN: u32 = 0;
const DEAD: u32 = u32::MAX;

struct Frame<Step> {
    node: u32,
    succs: Vec<(u32, bool, Step)>,
    next: usize,
}

struct Root {
    num: u32,
    node: u32,
    accepting: bool,
    reaches_good: bool,
    /// Some edge closed a cycle through the root.
    cyclic: bool,
}

/// How the search ended.
pub enum Search<Step> {
    /// An accepting SCC answering the query: the search path from an initial
    /// node to its root (inclusive), the steps between them (the first is
    /// the initial step), and the SCC's nodes.
    Accepting { path: Vec<u32>, steps: Vec<Step>, scc: Vec<u32> },
    /// The whole graph was explored: per node, whether it can reach an
    /// accepting SCC; and whether some SCC that would answer the query has
    /// a cycle but no accepting edge.
    Exhausted { good: Vec<bool>, unaccepted_cycle: bool },
}

/// Runs the search over every node reachable from the initial ones.
pub fn search<G: Graph>(g: &mut G) -> Result<Search<G::Step>, G::Error> {
    let mut num: Vec<u32> = Vec::new();
    let mut good: Vec<bool> = Vec::new();
    let mut roots: Vec<Root> = Vec::new();
    // Acceptance of the edge entering each root (parallel to `roots`).
    let mut arcs: Vec<bool> = Vec::new();
    let mut live: Vec<u32> = Vec::new();
    let mut frames: Vec<Frame<G::Step>> = Vec::new();
    // Steps into each frame's node (parallel to `frames`).
    let mut entered: Vec<G::Step> = Vec::new();
    let mut count = 0u32;
    let mut unaccepted_cycle = false;
    // Successor lists of popped frames, reused (no allocation per node).
    let mut spare: Vec<Vec<(u32, bool, G::Step)>> = Vec::new();
    let grow = |n: u32, num: &mut Vec<u32>, good: &mut Vec<bool>| {
        if n as usize >= num.len() {
            num.resize(n as usize + 1, UNSEEN);
            good.resize(n as usize + 1, false);
        }
    };
    let mut initial = Vec::new();
    g.initial(&mut initial)?;
    for (start, step) in initial {
        grow(start, &mut num, &mut good);
        if num[start as usize] != UNSEEN {
            continue;
        }
        // Visit `start`, then run the search until its frame is popped.
        let mut pending = Some((start, false, step));
        loop {
            if let Some((v, arc, step)) = pending.take() {
                g.check_limits()?;
                count += 1;
                num[v as usize] = count;
                roots.push(Root { num: count, node: v, accepting: false, reaches_good: false, cyclic: false });
                arcs.push(arc);
                live.push(v);
                let mut succs = spare.pop().unwrap_or_default();
                succs.clear();
                g.successors(v, &mut succs)?;
                frames.push(Frame { node: v, succs, next: 0 });
                entered.push(step);
            }
            let Some(f) = frames.last_mut() else { break };
            if f.next < f.succs.len() {
                let (w, arc, step) = f.succs[f.next].clone();
                f.next += 1;
                grow(w, &mut num, &mut good);
                match num[w as usize] {
                    UNSEEN => pending = Some((w, arc, step)),
                    DEAD => {
                        if good[w as usize] {
                            roots.last_mut().expect("a root").reaches_good = true;
                        }
                    }
                    nw => {
                        let (mut accepting, mut reaches_good) = (arc, false);
                        while roots.last().expect("a root").num > nw {
                            let r = roots.pop().expect("a root");
                            accepting |= r.accepting | arcs.pop().expect("an arc");
                            reaches_good |= r.reaches_good;
                        }
                        let top = roots.last_mut().expect("a root");
                        top.accepting |= accepting;
                        top.reaches_good |= reaches_good;
                        top.cyclic = true;
                        if top.accepting && g.counterexample(top.node) {
                            let root = top.node;
                            let at = frames.iter().position(|f| f.node == root).expect("the root is on the path");
                            let path = frames[..=at].iter().map(|f| f.node).collect();
                            let steps = entered[..=at].to_vec();
                            let from = live.iter().rposition(|&n| n == root).expect("the root is live");
                            return Ok(Search::Accepting { path, steps, scc: live[from..].to_vec() });
                        }
                    }
                }
                continue;
            }
            let f = frames.pop().expect("a frame");
            entered.pop();
            let v = f.node;
            spare.push(f.succs);
            if roots.last().expect("a root").num == num[v as usize] {
                let r = roots.pop().expect("a root");
                arcs.pop();
                let is_good = r.accepting || r.reaches_good;
                unaccepted_cycle |= r.cyclic && !r.accepting && g.counterexample(r.node);
                loop {
                    let n = live.pop().expect("the SCC's nodes are live");
                    num[n as usize] = DEAD;
                    good[n as usize] = is_good;
                    if n == v {
                        break;
                    }
                }
                if is_good && let Some(top) = roots.last_mut() {
                    top.reaches_good = true;
                }
            }
        }
    }
    Ok(Search::Exhausted { good, unaccepted_cycle })
}
