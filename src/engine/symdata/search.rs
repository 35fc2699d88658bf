//! The passed/waiting search over (locations, data set, zone).
//!
//! Every node keeps the data it was reached with and its parents (the
//! steps that brought data into it), for traces; the passed list keeps, per
//! location vector, pairs (data set, zone) for coverage. A new state keeps
//! only the valuations no pair with a zone including its own holds (the
//! rest is covered, valuation by valuation); it takes what it keeps out of
//! the pairs with smaller zones, and out of their nodes still waiting
//! (covered pairs are neither explored twice nor kept); and with the zone
//! of a pair it adds its data to that pair: added to the pair's node while
//! that node still waits (so one expansion's successors into one
//! (locations, zone), and all later arrivals before it is expanded, make
//! one node), else as a new node.
//!
//! Traces walk the parents backwards: every parent of a node was expanded
//! while the node waited, hence before it, so any parent whose step leads
//! to the chosen valuation brings the walk strictly earlier.

use rustc_hash::FxHashMap;

use crate::bdd::exec::Machine;
use crate::bdd::word::{self, Word};
use crate::bdd::{Bdd, Encoding, FALSE, Manager, Unsupported, step};
use crate::domain::ClockSet;
use crate::domain::poly::Q;
use crate::engine::{Options, Stats, Unknown};
use crate::model::decl::OutOfRange;
use crate::model::typed::Dir;
use crate::network::{ChannelIndex, ClockConstraint, Code, EdgeSync, LocRate, Network, StateFormula, Update};
use crate::semantics::{Abstraction, Discrete, Transition, ZoneGraph, ZoneState};

use super::edges::{self, EdgeRef, Enabled, Step};
use super::{broadcast, deadlock, vector};

pub struct Node<S> {
    pub locs: Box<[u32]>,
    /// The values of the explicit slots ([`Run::explicit`]), one for all
    /// of `data`.
    pub fixed: Box<[i64]>,
    pub data: Bdd,
    pub zone: S,
    /// The steps that brought data here (`None`: the initial data).
    pub parents: Vec<Option<(u32, Step)>>,
    /// Its pair in the passed list of `(locs, fixed)`.
    pair: u32,
}

/// The `pair` of a node whose data a larger zone took over before it was
/// expanded.
const RETIRED: u32 = u32::MAX;

/// Takes `data` out of the pairs of `entries` whose zone `zone` strictly
/// includes (the state `(data, zone)` covers them), and out of their
/// waiting nodes: so covered valuations are neither explored twice nor
/// kept for coverage. A pair left empty is removed.
fn retire<S: ClockSet>(m: &mut Manager, nodes: &mut [Node<S>], entries: &mut Vec<Pair<S>>, data: Bdd, zone: &S) {
    let mut outside = None;
    let mut k = 0;
    while k < entries.len() {
        let p = &mut entries[k];
        if p.zone == *zone || !p.zone.is_subset_of(zone) {
            k += 1;
            continue;
        }
        let outside = *outside.get_or_insert_with(|| m.not(data));
        p.data = m.and(p.data, outside);
        if let Some(id) = p.waiting {
            let node = &mut nodes[id as usize];
            node.data = m.and(node.data, outside);
        }
        if p.data != FALSE {
            k += 1;
            continue;
        }
        if let Some(id) = entries.swap_remove(k).waiting {
            nodes[id as usize].pair = RETIRED;
        }
        if let Some(id) = entries.get(k).and_then(|p| p.waiting) {
            nodes[id as usize].pair = k as u32;
        }
    }
}

/// The passed list's key: the location vector and the values of the
/// explicit slots.
type Control = (Box<[u32]>, Box<[i64]>);

/// A (data, zone) of the passed list, with the node that explores its
/// newest data while that node waits.
struct Pair<S> {
    data: Bdd,
    zone: S,
    waiting: Option<u32>,
}

pub enum End {
    /// A node with valuations meeting the goal.
    Found(u32),
    Exhausted,
    Stopped(Unknown),
    /// Some reachable valuation makes a guard, an update or the goal fail.
    Error,
}

pub struct Run<S> {
    pub m: Manager,
    pub enc: Encoding,
    pub nodes: Vec<Node<S>>,
    pub end: End,
    pub stats: Stats,
    pub abstraction: Abstraction,
    /// The initial data set.
    pub initial: Bdd,
    /// The data slots kept explicit ([`crate::bdd::split`]): every node's
    /// data has one value for each.
    pub explicit: Vec<usize>,
}

/// The valuations of `set` (in locations `locs`) meeting `f`, and those
/// whose evaluation of `f` fails. `f` has no clock atoms nor `deadlock`
/// ([`deadlock::sat`] takes those with either).
pub fn sat(
    m: &mut Manager,
    enc: &Encoding,
    locs: &[u32],
    set: Bdd,
    f: &StateFormula,
) -> Result<step::Split, Unsupported> {
    Ok(match f {
        StateFormula::Pred(conjs) => {
            let (mut pass, mut error) = (FALSE, FALSE);
            for c in conjs {
                let s = match &c.data {
                    Some(code) => step::guard(m, enc, locs, set, code)?,
                    None => step::Split { pass: set, error: FALSE },
                };
                pass = m.or(pass, s.pass);
                error = m.or(error, s.error);
            }
            step::Split { pass, error }
        }
        StateFormula::Not(a) => {
            let s = sat(m, enc, locs, set, a)?;
            let not = m.not(s.pass);
            let without = m.not(s.error);
            let rest = m.and(set, without);
            step::Split { pass: m.and(rest, not), error: s.error }
        }
        StateFormula::And(a, b) | StateFormula::Or(a, b) => {
            let (x, y) = (sat(m, enc, locs, set, a)?, sat(m, enc, locs, set, b)?);
            let error = m.or(x.error, y.error);
            let both = if matches!(f, StateFormula::And(..)) { m.and(x.pass, y.pass) } else { m.or(x.pass, y.pass) };
            let ok = m.not(error);
            step::Split { pass: m.and(both, ok), error }
        }
        StateFormula::Deadlock => unreachable!("`deadlock::sat` takes `deadlock`"),
    })
}

/// The valuations of `data` (in locations `locs`) enabling each edge,
/// select values included: (process, edge, guard set) for every edge
/// enabled somewhere, and the valuations where evaluating a guard fails.
pub fn enabled(
    net: &Network,
    grouped: &[Vec<bool>],
    m: &mut Manager,
    enc: &Encoding,
    locs: &[u32],
    data: Bdd,
) -> Result<(Vec<Enabled>, Bdd), Unsupported> {
    let mut out = Vec::new();
    let mut error = FALSE;
    for (p, &l) in locs.iter().enumerate() {
        for e in edges::outgoing(net, grouped, p, l) {
            let set = edges::with_selects(net, m, enc, &[(p as u32, e)], data);
            let g = match &edges::edge(net, p as u32, e).guard_data {
                Some(code) => step::guard(m, enc, locs, set, code)?,
                None => step::guard(m, enc, locs, set, &Code::constant(1))?,
            };
            error = m.or(error, g.error);
            if g.pass == FALSE {
                continue;
            }
            if let Some(s) = &edges::edge(net, p as u32, e).sync
                && let Err(failed) = channel_checked(m, enc, locs, s, g.pass)?
            {
                error = m.or(error, failed);
                continue;
            }
            out.push((p as u32, e, g.pass));
        }
    }
    Ok((out, error))
}

/// The channel of a synchronisation taken with the data `set` (not
/// empty): a computed index reads explicit slots only (`bdd::split`), so it
/// has one value on the set, which [`channel_checked`] has made sure of.
fn channel(m: &Manager, enc: &Encoding, locs: &[u32], s: &EdgeSync, set: Bdd) -> u32 {
    match &s.channel {
        ChannelIndex::Fixed(c) => *c,
        ChannelIndex::Dynamic { base, index, .. } => {
            let v = enc.pick(m, set).expect("an enabled edge has data");
            base + index.eval(locs, &v, &mut Vec::new()).expect("a checked index") as u32
        }
    }
}

/// Whether the channel index of `s` evaluates without error on every
/// valuation of `set`: `Ok(Err(errors))` with the failing valuations,
/// else `Ok(Ok(channel))`; refused when the index is not one value on the
/// set (it reads BDD data: only a `symbolic: true` could not have made it
/// explicit, and that is refused at load).
fn channel_checked(
    m: &mut Manager,
    enc: &Encoding,
    locs: &[u32],
    s: &EdgeSync,
    set: Bdd,
) -> Result<Result<u32, Bdd>, Unsupported> {
    let ChannelIndex::Dynamic { base, len, index } = &s.channel else { return Ok(Ok(channel(m, enc, locs, s, set))) };
    let mut mach = Machine::new(m, enc, locs, OutOfRange::Error, set);
    let w = mach.run(index)?;
    let mut error = mach.error;
    let ok = mach.path;
    let Some(v) = enc.pick(m, ok) else { return Ok(Err(error)) };
    let k = index.eval(locs, &v, &mut Vec::new()).map_err(|_| Unsupported("a channel index failed".into()))?;
    let same = word::eq(m, &w, &Word::constant(k));
    let differs = m.not(same);
    if m.and(ok, differs) != FALSE {
        return Err(Unsupported("a channel index read from BDD data".into()));
    }
    if k < 0 || k >= *len as i64 {
        error = m.or(error, ok);
        return Ok(Err(error));
    }
    if error != FALSE {
        return Ok(Err(error));
    }
    Ok(Ok(base + k as u32))
}

/// The edges of one step from `locs` and the data sets their guards allow:
/// internal edges, binary, broadcast and vector synchronisations, with the
/// committed rule.
pub fn steps(net: &Network, locs: &[u32], enabled: &[Enabled], m: &mut Manager, enc: &Encoding) -> Vec<(Step, Bdd)> {
    let committed = |p: u32| net.processes[p as usize].locations[locs[p as usize] as usize].committed;
    let any_committed = (0..locs.len() as u32).any(committed);
    let allowed = |edges: &[(u32, EdgeRef)]| !any_committed || edges.iter().any(|e| committed(e.0));
    let sync = |p: u32, e: EdgeRef| edges::edge(net, p, e).sync.as_ref();
    let chans: Vec<Option<u32>> =
        enabled.iter().map(|&(p, e, g)| sync(p, e).map(|s| channel(m, enc, locs, s, g))).collect();
    let mut out = Vec::new();
    for &(p, e, g) in enabled {
        if sync(p, e).is_none() && (!any_committed || committed(p) || net.processes[p as usize].observer) {
            out.push((Step::one(vec![(p, e)]), g));
        }
    }
    for (k, &(p, e, g)) in enabled.iter().enumerate() {
        let Some(_) = sync(p, e).filter(|s| s.dir == Dir::Send) else { continue };
        let c = chans[k];
        let receives =
            |j: usize| sync(enabled[j].0, enabled[j].1).is_some_and(|r| r.dir == Dir::Receive) && chans[j] == c;
        let receivers: Vec<Enabled> = (0..enabled.len()).filter(|&j| receives(j)).map(|j| enabled[j]).collect();
        let c = c.expect("a synchronising edge has a channel");
        if net.channels[c as usize].broadcast {
            broadcast::steps(net, m, enc, (p, e, g), &receivers, &allowed, &mut out);
            continue;
        }
        for &(q, f, h) in &receivers {
            if q != p && allowed(&[(p, e), (q, f)]) {
                let both = m.and(g, h);
                if both != FALSE {
                    out.push((Step::one(vec![(p, e), (q, f)]), both));
                }
            }
        }
    }
    let party = |j: usize| sync(enabled[j].0, enabled[j].1).is_some_and(|s| s.dir == Dir::Party);
    let mut vectors: Vec<u32> = (0..enabled.len()).filter(|&j| party(j)).filter_map(|j| chans[j]).collect();
    vectors.sort_unstable();
    vectors.dedup();
    for c in vectors {
        let on_c: Vec<Enabled> =
            (0..enabled.len()).filter(|&j| party(j) && chans[j] == Some(c)).map(|j| enabled[j]).collect();
        vector::steps(m, enc, &net.channels[c as usize].parties, &on_c, &allowed, &mut out);
    }
    out
}

/// `set` split by the values of the `explicit` slots: one part per
/// combination of values the set holds. A step may assign an explicit slot
/// from BDD data (`bdd::split` does not follow stored values): its image is
/// split here, so every symbolic state has one value per explicit slot.
pub(crate) fn by_explicit(m: &mut Manager, enc: &Encoding, explicit: &[usize], set: Bdd) -> Vec<Bdd> {
    if explicit.is_empty() {
        return if set == FALSE { Vec::new() } else { vec![set] };
    }
    let (mut out, mut rest) = (Vec::new(), set);
    while let Some(v) = enc.pick(m, rest) {
        let mut part = rest;
        for &s in explicit {
            let at = enc.equals(m, s, v[s]);
            part = m.and(part, at);
        }
        let outside = m.not(part);
        rest = m.and(rest, outside);
        out.push(part);
    }
    out
}

/// A part of a data set and one of its valuations.
pub(crate) type Cell = (Bdd, Box<[i64]>);

/// `set` split into cells on which every program of `codes` (clock bounds
/// read from the data, in locations `locs`) is constant, each with one of
/// its valuations; `None` when some valuation makes one fail.
/// Each cell also lies inside or outside each of the sets `sides`.
pub(crate) fn cells(
    m: &mut Manager,
    enc: &Encoding,
    locs: &[u32],
    set: Bdd,
    codes: &[&Code],
    sides: &[Bdd],
) -> Result<Option<Vec<Cell>>, Unsupported> {
    let (mut out, mut rest, mut stack) = (Vec::new(), set, Vec::new());
    while let Some(v) = enc.pick(m, rest) {
        let mut cell = rest;
        for &side in sides {
            let part = if enc.contains(m, side, &v) { side } else { m.not(side) };
            cell = m.and(cell, part);
        }
        for code in codes {
            let mut mach = Machine::new(m, enc, locs, OutOfRange::Error, rest);
            let w = mach.run(code)?;
            if mach.error != FALSE {
                return Ok(None);
            }
            let k = code.eval(locs, &v, &mut stack).map_err(|_| Unsupported("a clock bound failed".into()))?;
            let at = word::eq(m, &w, &Word::constant(k));
            cell = m.and(cell, at);
        }
        let out_of_cell = m.not(cell);
        rest = m.and(rest, out_of_cell);
        out.push((cell, v.into()));
    }
    Ok(Some(out))
}

/// The clock bounds of `cs` that read the data.
pub(crate) fn data_bounds<'a>(cs: impl IntoIterator<Item = &'a ClockConstraint>) -> Vec<&'a Code> {
    cs.into_iter().map(|c| &c.bound).filter(|b| b.as_const().is_none()).collect()
}

/// The rates of `locs` that read the data (in a linear network).
pub(super) fn data_rates<'n>(net: &'n Network, locs: &[u32]) -> Vec<&'n Code> {
    let Some(h) = &net.hybrid else { return Vec::new() };
    let at = |(p, &l): (usize, &u32)| h.rates.get(p).and_then(|r| r.get(l as usize)).into_iter().flatten();
    let data = |(_, r): &'n (u32, LocRate)| match r {
        LocRate::Data(code) => Some(code),
        LocRate::Interval(..) => None,
    };
    locs.iter().enumerate().flat_map(at).filter_map(data).collect()
}

/// The valuations of `set` in `locs` where a synchronisation on an
/// urgent channel is enabled (time cannot pass there; urgent edges have
/// no clock guards), or `None` when evaluating a guard fails.
pub(crate) fn urgent(
    net: &Network,
    m: &mut Manager,
    enc: &Encoding,
    locs: &[u32],
    set: Bdd,
) -> Result<Option<Bdd>, Unsupported> {
    if !net.channels.iter().any(|c| c.urgent) {
        return Ok(Some(FALSE));
    }
    let mut sends = Vec::new();
    let mut receives = Vec::new();
    for (p, &l) in locs.iter().enumerate() {
        for &e in &net.processes[p].outgoing[l as usize] {
            let edge = &net.processes[p].edges[e as usize];
            let Some(s) = &edge.sync else { continue };
            let urgent = |c: &u32| net.channels[*c as usize].urgent;
            let possible = match &s.channel {
                ChannelIndex::Fixed(c) => urgent(c),
                ChannelIndex::Dynamic { base, len, .. } => (*base..base + len).any(|c| urgent(&c)),
            };
            if !possible {
                continue;
            }
            let g = match &edge.guard_data {
                Some(code) => step::guard(m, enc, locs, set, code)?,
                None => step::Split { pass: set, error: FALSE },
            };
            if g.error != FALSE {
                return Ok(None);
            }
            if g.pass == FALSE {
                continue;
            }
            let c = match channel_checked(m, enc, locs, s, g.pass)? {
                Ok(c) if urgent(&c) => c,
                Ok(_) => continue,
                Err(_) => return Ok(None),
            };
            let side = if s.dir == Dir::Send { &mut sends } else { &mut receives };
            side.push((p, c, g.pass));
        }
    }
    let mut blocked = FALSE;
    for &(p, c, g) in &sends {
        // A broadcast is enabled with its sender, receivers or not.
        if net.channels[c as usize].broadcast {
            blocked = m.or(blocked, g);
            continue;
        }
        for &(_, _, h) in receives.iter().filter(|r| r.0 != p && r.1 == c) {
            let both = m.and(g, h);
            blocked = m.or(blocked, both);
        }
    }
    Ok(Some(blocked))
}

/// The successor computations of the data searches (reachability here,
/// liveness in [`super::live`]): a network, its zone graph and the BDDs.
pub struct Sem<'a, 'n, S> {
    pub net: &'n Network,
    pub zg: &'a mut ZoneGraph<'n, S>,
    pub m: &'a mut Manager,
    pub enc: &'a Encoding,
    /// The explicit data slots ([`Run::explicit`]).
    pub explicit: &'a [usize],
}

struct Search<'n, S> {
    net: &'n Network,
    zg: ZoneGraph<'n, S>,
    run: Run<S>,
    passed: FxHashMap<Control, Vec<Pair<S>>>,
    waiting: std::collections::VecDeque<u32>,
    grouped: Vec<Vec<bool>>,
}

pub fn explore<S: ClockSet>(net: &Network, goal: &StateFormula, options: &Options) -> Result<Run<S>, Unsupported> {
    // As the explicit engine: LU is unsound with diagonal constraints (the
    // goal's included), and linear hybrid automata have no finite
    // abstraction (exact polyhedra; the limits end what diverges).
    let exact = net.has_diagonals || goal.has_diagonal() || net.hybrid.is_some();
    let abstraction = if exact || options.abstraction == Some(crate::engine::AbstractionChoice::None) {
        Abstraction::None
    } else if goal.mentions_deadlock() {
        // As the explicit engine: LU does not preserve deadlocks, M does.
        Abstraction::M
    } else {
        Abstraction::Lu
    };
    let mut m = Manager::new();
    let enc = edges::encoding(net);
    let initial = enc.initial(&mut m, &net.slots);
    let stats = Stats { jobs: 1, ..Stats::default() };
    let explicit = enc.explicit_slots();
    let run = Run { m, enc, nodes: Vec::new(), end: End::Exhausted, stats, abstraction, initial, explicit };
    let zg = ZoneGraph::with_sets(net, abstraction);
    let mut s = Search {
        net,
        zg,
        run,
        passed: FxHashMap::default(),
        waiting: Default::default(),
        grouped: edges::grouped(net),
    };
    let end = s.search(goal, initial, options)?;
    s.run.end = end;
    s.run.stats.stored = s.run.nodes.len() as u64;
    s.run.stats.peak_bytes = (s.run.m.bytes() + s.run.nodes.len() * std::mem::size_of::<Node<S>>()) as u64;
    s.run.stats.store_bytes = s.run.stats.peak_bytes;
    s.run.stats.peak_rss_bytes = crate::engine::limits::peak_resident_bytes().unwrap_or(0);
    Ok(s.run)
}

impl<'n, S: ClockSet> Search<'n, S> {
    /// The successor computations, on this search's zone graph and BDDs.
    fn sem(&mut self) -> Sem<'_, 'n, S> {
        let run = &mut self.run;
        Sem { net: self.net, zg: &mut self.zg, m: &mut run.m, enc: &run.enc, explicit: &run.explicit }
    }

    fn search(&mut self, goal: &StateFormula, initial: Bdd, options: &Options) -> Result<End, Unsupported> {
        let net = self.net;
        let locs: Box<[u32]> = net.processes.iter().map(|p| p.initial).collect();
        let zone = self.zg.initial_zone();
        let Some(parts) = self.sem().settle(&locs, initial, &zone, None)? else { return Ok(End::Error) };
        for (cell, zone) in parts {
            if let Some(end) = self.admit(goal, locs.clone(), cell, zone, None)? {
                return Ok(end);
            }
        }
        let mut watch = options.limits.watch();
        while let Some(id) = self.waiting.pop_front() {
            if let Some(why) = watch.check(self.run.stats.visited) {
                return Ok(End::Stopped(why));
            }
            self.run.stats.visited += 1;
            if let Some(end) = self.expand(goal, id)? {
                return Ok(end);
            }
            watch.stored(self.run.nodes.len() as u64);
        }
        Ok(End::Exhausted)
    }

    /// Stores `(locs, data, zone)` unless covered, queues it and tests the goal.
    fn admit(
        &mut self,
        goal: &StateFormula,
        locs: Box<[u32]>,
        data: Bdd,
        zone: S,
        parent: Option<(u32, Step)>,
    ) -> Result<Option<End>, Unsupported> {
        let m = &mut self.run.m;
        let v = self.run.enc.pick(m, data).expect("admitted data is not empty");
        let fixed: Box<[i64]> = self.run.explicit.iter().map(|&s| v[s]).collect();
        let entries = self.passed.entry((locs.clone(), fixed.clone())).or_default();
        // Valuation by valuation: one stored with a zone including `zone`
        // is covered. (Subtracted pair by pair: a union of the pairs' data
        // would be a new BDD at every call, and nodes are never freed.)
        let mut data = data;
        for p in entries.iter().filter(|p| zone.is_subset_of(&p.zone)) {
            let outside = m.not(p.data);
            data = m.and(data, outside);
            if data == FALSE {
                return Ok(None);
            }
        }
        retire(m, &mut self.run.nodes, entries, data, &zone);
        let pair = match entries.iter().position(|p| p.zone == zone) {
            Some(k) => {
                entries[k].data = m.or(entries[k].data, data);
                k
            }
            None => {
                entries.push(Pair { data, zone: zone.clone(), waiting: None });
                entries.len() - 1
            }
        };
        let s = deadlock::sat(self.net, &mut self.zg, m, &self.run.enc, &locs, data, &zone, goal)?;
        let id = match entries[pair].waiting {
            Some(id) => {
                let node = &mut self.run.nodes[id as usize];
                node.data = m.or(node.data, data);
                node.parents.push(parent);
                id
            }
            None => {
                let id = self.run.nodes.len() as u32;
                entries[pair].waiting = Some(id);
                self.run.nodes.push(Node { locs, fixed, data, zone, parents: vec![parent], pair: pair as u32 });
                self.waiting.push_back(id);
                id
            }
        };
        if s.error != FALSE {
            return Ok(Some(End::Error));
        }
        if s.pass != FALSE {
            return Ok(Some(End::Found(id)));
        }
        Ok(None)
    }

    fn expand(&mut self, goal: &StateFormula, id: u32) -> Result<Option<End>, Unsupported> {
        let net = self.net;
        let (locs, fixed, data, zone) = {
            let n = &self.run.nodes[id as usize];
            (n.locs.clone(), n.fixed.clone(), n.data, n.zone.clone())
        };
        // From now on, new data for its pair makes a new node.
        let pair = self.run.nodes[id as usize].pair;
        if pair == RETIRED {
            return Ok(None);
        }
        let pair = pair as usize;
        self.passed.get_mut(&(locs.clone(), fixed)).expect("a stored node")[pair].waiting = None;
        let (m, enc) = (&mut self.run.m, &self.run.enc);
        let (enabled, error) = enabled(net, &self.grouped, m, enc, &locs, data)?;
        if error != FALSE {
            return Ok(Some(End::Error));
        }
        for (t, set) in steps(net, &locs, &enabled, m, enc) {
            self.run.stats.transitions += 1;
            let Some((next_locs, parts)) = self.sem().post(&locs, &zone, &t, set)? else { return Ok(Some(End::Error)) };
            for (next, zone) in parts {
                if let Some(end) = self.admit(goal, next_locs.clone(), next, zone, Some((id, t.clone())))? {
                    return Ok(Some(end));
                }
            }
        }
        Ok(None)
    }
}

impl<'n, S: ClockSet> Sem<'_, 'n, S> {
    /// The invariant bounds of `locs` that read the data, and in a linear
    /// network the rates that do.
    fn invariant_bounds(&self, locs: &[u32]) -> Vec<&'n Code> {
        let net = self.net;
        let mut out =
            data_bounds(locs.iter().enumerate().flat_map(|(p, &l)| &net.processes[p].locations[l as usize].invariant));
        out.extend(data_rates(net, locs));
        out
    }

    /// The valuations of `set` meeting the data conditions of the
    /// invariants of `locs` (a state whose data break one is not entered),
    /// or `None` when evaluating one fails on some valuation. Evaluated
    /// process by process, as [`ZoneGraph::invariant`] does: a condition
    /// is not evaluated where an earlier one already failed.
    fn data_invariants(&mut self, locs: &[u32], mut set: Bdd) -> Result<Option<Bdd>, Unsupported> {
        let net = self.net;
        for (p, &l) in locs.iter().enumerate() {
            let Some(code) = &net.processes[p].locations[l as usize].invariant_data else { continue };
            let s = step::guard(self.m, self.enc, locs, set, code)?;
            if s.error != FALSE {
                return Ok(None);
            }
            set = s.pass;
        }
        Ok(Some(set))
    }

    /// The states of `set` in `locs` entering with `zone`: the data
    /// invariants applied, then one per cell of the invariant bounds (and
    /// rates), invariants applied, time elapsed, abstracted.
    pub fn settle(
        &mut self,
        locs: &[u32],
        set: Bdd,
        zone: &S,
        t: Option<&Transition>,
    ) -> Result<Option<Vec<(Bdd, S)>>, Unsupported> {
        let Some(set) = self.data_invariants(locs, set)? else { return Ok(None) };
        let codes = self.invariant_bounds(locs);
        let mut parts = Vec::new();
        for fixed in by_explicit(self.m, self.enc, self.explicit, set) {
            let Some(urgent) = urgent(self.net, self.m, self.enc, locs, fixed)? else { return Ok(None) };
            let Some(cells) = cells(self.m, self.enc, locs, fixed, &codes, &[urgent])? else {
                return Ok(None);
            };
            parts.extend(cells);
        }
        let mut out = Vec::new();
        for (cell, v) in parts {
            let mut s = ZoneState { discrete: Discrete { locs: locs.into(), data: v }, zone: zone.clone() };
            match self.zg.invariant(&s.discrete, &mut s.zone) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(_) => return Ok(None),
            }
            if self.zg.delay(&mut s, t).is_err() {
                return Ok(None);
            }
            self.zg.extrapolate(&mut s);
            out.push((cell, s.zone));
        }
        Ok(Some(out))
    }

    /// The successors by `t` of the data `set` (its data guards applied)
    /// and `zone`: the target locations and (data, zone) pairs, split where
    /// clock bounds read the data; `None` when some valuation makes the
    /// step fail (a run-time error).
    #[allow(clippy::type_complexity)]
    pub fn post(
        &mut self,
        locs: &[u32],
        zone: &S,
        step: &Step,
        set: Bdd,
    ) -> Result<Option<(Box<[u32]>, Vec<(Bdd, S)>)>, Unsupported> {
        let net = self.net;
        let codes = data_bounds(step.clock_atoms(net));
        let mut next_locs: Box<[u32]> = locs.into();
        for (&(p, _), e) in step.0.iter().zip(step.edges(net)) {
            next_locs[p as usize] = e.to;
        }
        let t = &step.representative(net);
        let Some(parts) = cells(self.m, self.enc, locs, set, &codes, &[])? else { return Ok(None) };
        let updates = step.edges(net).flat_map(|e| &e.updates);
        let mut out = Vec::new();
        for (cell, v) in parts {
            let mut guarded = zone.clone();
            match self.zg.guard(&Discrete { locs: locs.into(), data: v }, t, &mut guarded) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(_) => return Ok(None),
            }
            let Some(pieces) = self.assigned(&next_locs, cell, updates.clone())? else { return Ok(None) };
            for (piece, values) in pieces {
                let (m, enc) = (&mut *self.m, self.enc);
                let image = step::update(m, enc, &net.slots, &next_locs, net.out_of_range, piece, updates.clone())?;
                if image.error != FALSE {
                    return Ok(None);
                }
                if image.pass == FALSE {
                    continue;
                }
                // As `ZoneGraph::enter`: the resets, then the assignments.
                let mut z = guarded.clone();
                for u in updates.clone() {
                    if let Update::Reset { clock, value } = u {
                        z.reset(*clock as usize, *value as i32);
                    }
                }
                let assigns = updates.clone().filter_map(|u| match u {
                    Update::Assign { var, terms, .. } => Some((*var as usize, terms)),
                    _ => None,
                });
                for ((x, terms), k) in assigns.zip(values) {
                    z.assign_linear(x, terms, &Q::from_integer(k.into()), false);
                }
                let Some(settled) = self.settle(&next_locs, image.pass, &z, Some(t))? else { return Ok(None) };
                out.extend(settled);
            }
        }
        Ok(Some((next_locs, out)))
    }

    /// `set` split into the pieces on which the linear assignments among
    /// `updates` give their variables the same values, with those values
    /// in order (one piece, no values, when there are none); the
    /// valuations the updates disable are left out. `None` when they fail
    /// on some valuation.
    #[allow(clippy::type_complexity)]
    fn assigned<'u>(
        &mut self,
        next_locs: &[u32],
        set: Bdd,
        updates: impl IntoIterator<Item = &'u Update> + Clone,
    ) -> Result<Option<Vec<(Bdd, Vec<i64>)>>, Unsupported> {
        if !updates.clone().into_iter().any(|u| matches!(u, Update::Assign { .. })) {
            return Ok(Some(vec![(set, Vec::new())]));
        }
        let mut mach = Machine::new(self.m, self.enc, next_locs, self.net.out_of_range, set);
        let words = step::run_updates(&mut mach, &self.net.slots, updates)?;
        let (error, mut rest) = (mach.error, mach.path);
        if error != FALSE {
            return Ok(None);
        }
        let (m, enc) = (&mut *self.m, self.enc);
        let mut out = Vec::new();
        while let Some(v) = enc.pick_all(m, rest) {
            let mut piece = rest;
            let mut values = Vec::new();
            for w in &words {
                let k = value_at(m, enc, w, &v);
                let same = word::eq(m, w, &Word::constant(k));
                piece = m.and(piece, same);
                values.push(k);
            }
            let outside = m.not(piece);
            rest = m.and(rest, outside);
            out.push((piece, values));
        }
        Ok(Some(out))
    }
}

/// The value of `w` at the valuation `v` (data and select slots).
pub(super) fn value_at(m: &Manager, enc: &Encoding, w: &Word, v: &[i64]) -> i64 {
    let bit = |b: &Bdd| if enc.contains(m, *b, v) { crate::bdd::TRUE } else { FALSE };
    Word(w.0.iter().map(bit).collect()).as_const().expect("constant bits")
}
