//! Couvreur's on-the-fly SCC algorithm for Büchi emptiness with accepting
//! *edges* (Couvreur 1999; the iterative form of Geldenhuys and Valmari
//! 2005), extended to tell, for every node, whether it can reach an
//! accepting SCC ("good").
//!
//! A depth-first search numbers nodes in visiting order. `roots` holds, for
//! every SCC under construction on the search path, the number of its root
//! (its first visited node) and the join of the labels of the edges inside it.
//! An edge to a node that is still *live* (visited, its SCC not finished)
//! closes a cycle: every root above that node merges into the one below it,
//! together with the labels of the merged roots, of the edges between them
//! and of the closing edge. Edge labels form a join semilattice
//! ([`Label`]): a set of edges is accepting when the join of their labels
//! is, and the merged label is the join over a strongly connected set of
//! edges, so an accepting one means a cycle through all of them is an
//! accepting run (acceptance may need several edges together: a reset and
//! a lower bound of the same clock, [`super::product`]). An SCC is
//! accepting iff some merge made its root's label accepting; that is
//! reported at once, while the search path still leads to it, so a
//! counterexample needs no second search. When the search
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

/// What an edge contributes to the acceptance of a cycle through it.
pub trait Label: Copy + Default {
    /// The label of a set of edges holding both.
    fn join(self, other: Self) -> Self;
    /// A cycle through edges whose labels join to this one is accepting.
    fn accepting(self) -> bool;
}

/// A graph explored on the fly: nodes are dense ids handed out by the graph.
pub trait Graph {
    type Error;
    /// Label of an edge, kept for the search path.
    type Step: Clone;
    type Label: Label;
    fn initial(&mut self, out: &mut Vec<(u32, Self::Step)>) -> Result<(), Self::Error>;
    /// Successors of `node`, each with its edge's label.
    fn successors(&mut self, node: u32, out: &mut Vec<(u32, Self::Label, Self::Step)>) -> Result<(), Self::Error>;
    /// Whether an accepting SCC containing `node` answers the query (the
    /// search stops there); otherwise it only counts for "good".
    fn counterexample(&self, node: u32) -> bool;
    /// Called before each expansion; `Err` stops the search (limits).
    fn check_limits(&mut self) -> Result<(), Self::Error>;
    /// Called when `node`'s SCC is complete: everything it reaches is
    /// explored, and `good` says whether it reaches an accepting SCC.
    fn finished(&mut self, _node: u32, _good: bool) {}
}

/// A node's successors with their edges' labels and steps.
type Successors<G> = Vec<(u32, <G as Graph>::Label, <G as Graph>::Step)>;

const UNSEEN: u32 = 0;
const DEAD: u32 = u32::MAX;

struct Frame<L, Step> {
    node: u32,
    succs: Vec<(u32, L, Step)>,
    next: usize,
}

struct Root<L> {
    num: u32,
    node: u32,
    /// The join of the labels of the edges inside its SCC so far.
    label: L,
    reaches_good: bool,
    /// Some edge closed a cycle through the root.
    cyclic: bool,
}

/// How the search ended.
pub enum Search<Step, L> {
    /// An accepting SCC answering the query: the search path from an initial
    /// node to its root (inclusive), the steps between them (the first is
    /// the initial step), the SCC's nodes merged so far and the join of
    /// the labels of the edges that merged them.
    Accepting { path: Vec<u32>, steps: Vec<Step>, scc: Vec<u32>, label: L },
    /// The whole graph was explored: per node, whether it can reach an
    /// accepting SCC; and whether some SCC that would answer the query has
    /// a cycle but is not accepting.
    Exhausted { good: Vec<bool>, unaccepted_cycle: bool },
}

/// Runs the search over every node reachable from the initial ones.
pub fn search<G: Graph>(g: &mut G) -> Result<Search<G::Step, G::Label>, G::Error> {
    let mut num: Vec<u32> = Vec::new();
    let mut good: Vec<bool> = Vec::new();
    let mut roots: Vec<Root<G::Label>> = Vec::new();
    // The label of the edge entering each root (parallel to `roots`).
    let mut arcs: Vec<G::Label> = Vec::new();
    let mut live: Vec<u32> = Vec::new();
    let mut frames: Vec<Frame<G::Label, G::Step>> = Vec::new();
    // Steps into each frame's node (parallel to `frames`).
    let mut entered: Vec<G::Step> = Vec::new();
    let mut count = 0u32;
    let mut unaccepted_cycle = false;
    // Successor lists of popped frames, reused (no allocation per node).
    let mut spare: Vec<Successors<G>> = Vec::new();
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
        let mut pending = Some((start, G::Label::default(), step));
        loop {
            if let Some((v, arc, step)) = pending.take() {
                g.check_limits()?;
                count += 1;
                num[v as usize] = count;
                roots.push(Root {
                    num: count,
                    node: v,
                    label: G::Label::default(),
                    reaches_good: false,
                    cyclic: false,
                });
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
                        let (mut label, mut reaches_good) = (arc, false);
                        while roots.last().expect("a root").num > nw {
                            let r = roots.pop().expect("a root");
                            label = label.join(r.label).join(arcs.pop().expect("an arc"));
                            reaches_good |= r.reaches_good;
                        }
                        let top = roots.last_mut().expect("a root");
                        top.label = top.label.join(label);
                        top.reaches_good |= reaches_good;
                        top.cyclic = true;
                        if top.label.accepting() && g.counterexample(top.node) {
                            let root = top.node;
                            let at = frames.iter().position(|f| f.node == root).expect("the root is on the path");
                            let path = frames[..=at].iter().map(|f| f.node).collect();
                            let steps = entered[..=at].to_vec();
                            let from = live.iter().rposition(|&n| n == root).expect("the root is live");
                            let (scc, label) = (live[from..].to_vec(), top.label);
                            return Ok(Search::Accepting { path, steps, scc, label });
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
                let is_good = r.label.accepting() || r.reaches_good;
                unaccepted_cycle |= r.cyclic && !r.label.accepting() && g.counterexample(r.node);
                loop {
                    let n = live.pop().expect("the SCC's nodes are live");
                    num[n as usize] = DEAD;
                    good[n as usize] = is_good;
                    g.finished(n, is_good);
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
