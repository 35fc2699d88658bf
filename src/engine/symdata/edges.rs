//! The edges the data search takes: network edges, and select groups
//! (one step for every value of an edge's `select`, the selected bits
//! quantified), with the encoding that gives the selects their bits.

use crate::bdd::{Bdd, Encoding, Manager};
use crate::network::{ClockConstraint, Edge, Network, Op, Target, Update};
use crate::semantics::Transition;

/// An edge of process `p`: network edge `Edge(e)`, or its select group `Group(g)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeRef {
    Edge(u32),
    Group(u32),
}

/// An edge of process `.0` with the data its guard allows (select values
/// included).
pub type Enabled = (u32, EdgeRef, Bdd);

/// The committed rule: whether a step with these edges may be taken.
pub type Rule<'a> = dyn Fn(&[(u32, EdgeRef)]) -> bool + 'a;

/// A step of the data search: one edge, or a sender and its receivers;
/// and the receiving edges of a broadcast that stay out because a clock
/// atom of theirs fails: `(process, edge, k)`, atoms `..k` holding and
/// atom `k` failing (`Transition::out`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step(pub Vec<(u32, EdgeRef)>, pub Vec<(u32, EdgeRef, u32)>);

pub fn edge(net: &Network, p: u32, r: EdgeRef) -> &Edge {
    let proc_ = &net.processes[p as usize];
    match r {
        EdgeRef::Edge(e) => &proc_.edges[e as usize],
        EdgeRef::Group(g) => &proc_.select_groups[g as usize].edge,
    }
}

impl Step {
    /// One edge: an internal step, or a binary synchronisation's half.
    pub fn one(edges: Vec<(u32, EdgeRef)>) -> Step {
        Step(edges, Vec::new())
    }

    pub fn edges<'a>(&'a self, net: &'a Network) -> impl Iterator<Item = &'a Edge> + Clone + 'a {
        self.0.iter().map(move |&(p, r)| edge(net, p, r))
    }

    /// The clock atoms the step constrains the zone with: its edges'
    /// guards and those of the edges it stays out of.
    pub fn clock_atoms<'a>(&'a self, net: &'a Network) -> impl Iterator<Item = &'a ClockConstraint> + 'a {
        let out = self.1.iter().map(move |&(p, r, _)| edge(net, p, r));
        self.edges(net).chain(out).flat_map(|e| &e.guard_clocks)
    }

    /// A network transition with the same clock guards, sync, resets and
    /// targets: a group stands for its first member.
    pub fn representative(&self, net: &Network) -> Transition {
        Transition {
            edges: self.0.iter().map(|&(p, r)| (p, member(net, p, r))).collect(),
            out: self.out(net),
            unless: Vec::new(),
        }
    }

    /// The edges stayed out of as `Transition::out`: a group by its first
    /// member, whose clock guard every member shares (a select read in a
    /// clock guard makes no group), so the cell is the same.
    fn out(&self, net: &Network) -> Vec<(u32, u32, u32)> {
        self.1.iter().map(|&(p, r, k)| (p, member(net, p, r), k)).collect()
    }

    /// The network transition this step takes with the select slots'
    /// values `selects` (indexed from the first select slot), or `None`
    /// when no member has them.
    pub fn concrete(&self, net: &Network, selects: &[i64]) -> Option<Transition> {
        let mut edges = Vec::new();
        for &(p, r) in &self.0 {
            let proc_ = &net.processes[p as usize];
            let e = match r {
                EdgeRef::Edge(e) => e,
                EdgeRef::Group(g) => {
                    let group = &proc_.select_groups[g as usize];
                    let first = group.first_slot as usize - net.slots.len();
                    let want = |m: &&u32| {
                        let sel = &proc_.edges[**m as usize].select;
                        sel.iter().enumerate().all(|(k, (_, v))| selects.get(first + k) == Some(v))
                    };
                    *group.members.iter().find(want)?
                }
            };
            edges.push((p, e));
        }
        Some(Transition { edges, out: self.out(net), unless: Vec::new() })
    }
}

/// A network edge standing for `r`: a group's first member.
fn member(net: &Network, p: u32, r: EdgeRef) -> u32 {
    match r {
        EdgeRef::Edge(e) => e,
        EdgeRef::Group(g) => net.processes[p as usize].select_groups[g as usize].members[0],
    }
}

/// The edges leaving location `l` of process `p` for the data search: the
/// edges in no select group, then the groups.
pub fn outgoing<'a>(
    net: &'a Network,
    grouped: &'a [Vec<bool>],
    p: usize,
    l: u32,
) -> impl Iterator<Item = EdgeRef> + 'a {
    let proc_ = &net.processes[p];
    let plain = proc_.outgoing[l as usize].iter().filter(move |&&e| !grouped[p][e as usize]).map(|&e| EdgeRef::Edge(e));
    let groups = proc_.select_groups.iter().enumerate().filter(move |(_, g)| g.edge.from == l);
    plain.chain(groups.map(|(g, _)| EdgeRef::Group(g as u32)))
}

/// Per process, per edge: whether a select group stands for it.
pub fn grouped(net: &Network) -> Vec<Vec<bool>> {
    let flags = |p: &crate::network::Process| {
        let mut f = vec![false; p.edges.len()];
        p.select_groups.iter().flat_map(|g| &g.members).for_each(|&m| f[m as usize] = true);
        f
    };
    net.processes.iter().map(flags).collect()
}

/// The encoding of the data and select slots: a select assigned to a data
/// slot (`reading = v`, read by the assigned value) shares its bits' place
/// in the order ([`Encoding::with_selects`]). The explicit slots
/// ([`crate::bdd::split`]) are marked.
pub fn encoding(net: &Network) -> Encoding {
    let n = net.slots.len();
    let mut attach = vec![None; net.select_slots.len()];
    for g in net.processes.iter().flat_map(|p| &p.select_groups) {
        for u in &g.edge.updates {
            let Update::Data { target: Target::Slot(s), value } = u else { continue };
            for op in &value.ops {
                if let Op::Load(x) = *op
                    && (x as usize) >= n
                    && attach[x as usize - n].is_none()
                {
                    attach[x as usize - n] = Some(*s as usize);
                }
            }
        }
    }
    let split = crate::bdd::split::Split::of(net);
    let explicit = (0..n).filter(|&s| split.is_explicit(s));
    Encoding::with_selects(&net.slots, &net.select_slots, &attach).with_explicit(explicit)
}

/// `set` with the select slots of the groups in `step` within their ranges.
pub fn with_selects(net: &Network, m: &mut Manager, enc: &Encoding, step: &[(u32, EdgeRef)], set: Bdd) -> Bdd {
    let mut r = set;
    for &(p, e) in step {
        let EdgeRef::Group(g) = e else { continue };
        let group = &net.processes[p as usize].select_groups[g as usize];
        let first = group.first_slot as usize;
        for k in 0..group.members.first().map_or(0, |&x| net.processes[p as usize].edges[x as usize].select.len()) {
            let range = enc.in_range(m, first + k);
            r = m.and(r, range);
        }
    }
    r
}
