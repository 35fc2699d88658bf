//! The liveness engine's question (`E[] φ`, `A<> φ`, `φ --> ψ`, see
//! [`crate::engine::liveness`]) with data as BDDs: is there a reachable
//! state satisfying `enter` with a time-divergent run from it along which
//! `stay` always holds?
//!
//! **The graph.** Nodes are `(l, D, Z, phase)`: a location vector, a data
//! set (one value for each explicit slot), a zone of the network extended
//! with the tick clock `z`, and the phase. They are identified by the
//! location vector, the phase, *equal* data sets (BDDs are canonical) and
//! aLU-equivalent zones ([`crate::engine::liveness`]'s nodes): never by
//! union or inclusion of data sets. Arcs: a discrete step `t` to each
//! `(l', D', Z')` of [`Sem::post`] (`D' ⊆ post_t(D)`, split by the
//! explicit slots, the urgent channels and the invariants' cells), in phase
//! 1 with `D'` cut to the valuations where `stay` holds; in phase 1, a tick
//! (`z >= 1`, `z := 0`, then [`Sem::settle`]), the accepting arcs; from
//! phase 0 into phase 1 with `D` cut to `enter ∧ stay` and `z := 0` (then
//! [`Sem::settle`]). Phase 0 does not track `z`: its zones leave `z` free.
//! None of the explicit engine's passes without `z` nor its divergence
//! labels.
//!
//! **Why phase 0 needs no tick clock.** Take the extended network with the
//! phase as one more component: phase 0 has no tick arc and entering phase
//! 1 resets `z`, so no path from a phase-0 location compares `z` before
//! resetting it, and the per-location LU bounds of `z` there are `−∞`,
//! under which aLU keeps no constraint on `z` (freeing it is that
//! abstraction). So this graph is that automaton's aLU-abstract zone graph,
//! which the argument below and [`crate::engine::liveness`]'s apply to.
//! Where `z` starts does not change whether a run has infinitely many
//! ticks, so its accepting runs are the reachable `enter` states followed
//! by divergent `stay` runs, as before. Tracking `z` in phase 0 multiplied
//! the zones: railway-crossing's `Train(1).near -->[<=1] Gate.down` took
//! 50 812 nodes with it, 2 934 without.
//!
//! **Why an accepting cycle is a run.** Every arc `n → n'` has this
//! property: every valuation of `D'` has a predecessor in `D` by the arc's
//! step (the step's image, restricted). Let `C` be a cycle through a tick
//! from node `u`. Every valuation of `D_u` has a predecessor around `C` in
//! `D_u`; `D_u` is finite, so walking predecessors from any valuation
//! repeats one: some valuation `w` goes around `C` `r >= 1` times and
//! comes back to itself, with concrete data at every step. Walking back
//! from `w` along the path into `u` reaches an initial valuation the same
//! way. Zone operations read the locations and the explicit slots only
//! (clock bounds read explicit slots, [`crate::bdd::split`]; urgency and
//! invariants are constant on the cells), so along that data the zones are
//! those of the explicit network's aLU-abstract zone graph, and the
//! unrolled cycle closes on the same node of it (same locations, data `w`,
//! class of `Z_u`): an accepting cycle of the graph the explicit engine
//! searches, which a time-divergent run follows (Herbreteau, Srivathsan,
//! Walukiewicz, Theorem 1; see [`crate::engine::liveness`]). `stay` holds
//! on phase 1's data sets, `enter ∧ stay` where it is entered.
//!
//! **Why no run is missed.** A concrete run `(l_i, v_i)` with infinitely
//! many ticks is followed by a path: the initial node holding `v_0`, and
//! at each step the successor whose data set holds `v_{i+1}` (the cells
//! partition the image; `stay` keeps it in phase 1), whose zone is the
//! explicit graph's along the same steps. The graph is finite (finitely
//! many data sets, aLU classes), so the path ends in an SCC with a tick,
//! which Couvreur's search ([`scc`]) finds. Merging data sets would break
//! the first argument (a union's valuations need not all have
//! predecessors in the cycle's set), which is why nodes are never merged
//! here (the search for time-locks alone, [`merged`], looks for no cycle
//! and merges them).
//!
//! **Linear networks** (and fixed timing parameters) are searched on exact
//! polyhedra, with no abstraction, as the explicit engine searches them
//! ([`crate::engine::liveness`]'s product): phase 1 keeps `z <= 1` (the
//! tick clock would otherwise grow the polyhedra forever on paths that do
//! not tick; a divergent run can tick each time `z` reaches 1). The graph
//! is then the exact one, so the absence of an accepting cycle is exact as
//! above; but a cycle of exact polyhedra need not carry a run, so a lasso
//! counts only once its concrete-data loop, replayed on polyhedra, is shown
//! to carry an ultimately periodic run ([`lasso::periodic`]); otherwise the
//! answer is unknown, said. No divergence labels are logged there, and the
//! time-locks are left to the engine layer.
//!
//! **`E[]`** needs a witness from every initial state: one search per
//! initial valuation, as the explicit engine searches per initial state.
//!
//! The lasso is made concrete by that predecessor walk ([`lasso`]) and
//! handed to the trace layer like the explicit engine's. A run-time error
//! (some valuation makes a step fail) hands the property to the explicit
//! engine, which reports it with its trace, as the reachability search
//! does. Time-locks are not reported by the search; what it shows of them
//! ([`locks`]) spares the engine layer's exact scan where it settles it.
//! A search that did not see the whole graph (a lasso, searches from single
//! initial valuations) leaves them to [`merged`].

use std::hash::Hash;

use rustc_hash::FxHashMap;

use super::auto::REFUSAL;
use super::edges::{self, Step};
use super::search::{Sem, enabled, sat, steps};
use super::support::{data_only, supported};
use crate::bdd::{Bdd, Encoding, FALSE, Manager, TRUE, Unsupported};
use crate::domain::ClockSet;
use crate::domain::poly::Poly;
use crate::domain::zone::{Bound, Dbm};
use crate::engine::limits::{Limits, Watch};
use crate::engine::liveness::progress::Progress;
use crate::engine::liveness::scc::{self, Graph};
use crate::engine::liveness::{self, Cache, Checked, Locks, Query, Shape, always};
use crate::engine::{DataChoice, EngineKind, Options, Outcome, Stats, SymbolicTrace, Unknown, Verdict};
use crate::model::types::Property;
use crate::network::{Network, StateFormula};
use crate::semantics::{Abstraction, Discrete, ZoneGraph};

mod lasso;
mod locks;
mod merged;

/// An arc of the graph.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Arc {
    Initial,
    /// From phase 0 into phase 1, data cut to `enter ∧ stay`.
    Enter,
    Tick,
    Edge(Step),
}

struct Node<S> {
    pub locs: Box<[u32]>,
    pub data: Bdd,
    pub zone: S,
    pub phase: bool,
}

/// Why a search stopped early.
enum Stop {
    Limit(Unknown),
    Unsupported(Unsupported),
    /// Some valuation makes a guard, an update or a formula fail.
    Error,
}

impl From<Unsupported> for Stop {
    fn from(u: Unsupported) -> Self {
        Stop::Unsupported(u)
    }
}

/// A bucket of nodes: locations, data, phase, zone signature.
type Key = (Box<[u32]>, Bdd, bool, u64);

struct Live<'q, 'n, S> {
    net: &'n Network,
    zg: ZoneGraph<'n, S>,
    m: Manager,
    enc: Encoding,
    explicit: Vec<usize>,
    grouped: Vec<Vec<bool>>,
    query: &'q Query,
    /// The tick clock.
    z: u32,
    /// The initial data set searched from.
    initial: Bdd,
    nodes: Vec<Node<S>>,
    buckets: FxHashMap<Key, Vec<u32>>,
    /// How each node was first reached.
    parent: Vec<Option<(u32, Arc)>>,
    /// The phase-0 arcs by discrete steps, labelled ([`locks`]).
    arcs: Vec<locks::Logged>,
    /// In the time-lock search alone ([`merged`]): nodes merge their data,
    /// and what joins a node waits here to be expanded.
    merged: Option<merged::Pending>,
    stats: Stats,
    watch: Watch<'q>,
}

impl<'q, 'n, S: ClockSet + Hash> Live<'q, 'n, S> {
    /// The graph of `net` (augmented with the tick clock `z`) for `query`,
    /// from the initial data `initial` (`None`: the model's), nothing
    /// explored yet.
    fn new(
        net: &'n Network,
        z: u32,
        query: &'q Query,
        abstraction: Abstraction,
        initial: Option<&[i64]>,
        limits: &'q Limits,
    ) -> Self {
        let mut m = Manager::new();
        let enc = edges::encoding(net);
        let initial = match initial {
            Some(v) => enc.point(&mut m, v),
            None => enc.initial(&mut m, &net.slots),
        };
        Live {
            net,
            zg: ZoneGraph::with_sets(net, abstraction),
            m,
            explicit: enc.explicit_slots(),
            enc,
            grouped: edges::grouped(net),
            query,
            z,
            initial,
            nodes: Vec::new(),
            buckets: FxHashMap::default(),
            parent: Vec::new(),
            arcs: Vec::new(),
            merged: None,
            stats: Stats::default(),
            watch: limits.watch(),
        }
    }

    /// Adds what the search did to `stats`, its memory measured by the BDDs
    /// and the nodes.
    fn spent(&self, stats: &mut Stats) {
        stats.visited += self.stats.visited;
        stats.stored += self.stats.stored;
        stats.transitions += self.stats.transitions;
        let bytes = self.m.bytes() + self.nodes.len() * std::mem::size_of::<Node<S>>();
        stats.peak_bytes = stats.peak_bytes.max(bytes as u64);
    }

    fn sem(&mut self) -> Sem<'_, 'n, S> {
        Sem { net: self.net, zg: &mut self.zg, m: &mut self.m, enc: &self.enc, explicit: &self.explicit }
    }

    /// The valuations of `set` (in `locs`) where `f` holds; `Err` when
    /// evaluating it fails on some.
    fn cut(&mut self, locs: &[u32], set: Bdd, f: &StateFormula) -> Result<Bdd, Stop> {
        let s = sat(&mut self.m, &self.enc, locs, set, f)?;
        if s.error != FALSE {
            return Err(Stop::Error);
        }
        Ok(s.pass)
    }

    /// The zone's aLU signature (its hash on exact zones), the bounds of
    /// `locs` and the data's explicit slots loaded.
    fn signature(&mut self, locs: &[u32], data: Bdd, zone: &S) -> u64 {
        use std::hash::BuildHasher;
        if self.zg.abstraction == Abstraction::None {
            return rustc_hash::FxBuildHasher.hash_one(zone);
        }
        let v = self.enc.pick(&self.m, data).expect("a node has data");
        self.zg.load_bounds(&Discrete { locs: locs.into(), data: v.into() });
        zone.lu_signature(&self.zg.lower, &self.zg.upper)
    }

    /// The node `(locs, data, zone, phase)`, added with `parent` when new;
    /// where nodes merge ([`merged`]), the node of the same control and
    /// zone, `data` added to it.
    fn intern(&mut self, locs: Box<[u32]>, data: Bdd, mut zone: S, phase: bool, parent: Option<(u32, Arc)>) -> u32 {
        // Phase 0 does not track the tick clock (see the module doc); the
        // merged search has none (`z` is the reference clock there). On a
        // linear network, phase 1 keeps `z <= 1`, as the explicit engine's
        // phases with ticks do ([`crate::engine::liveness`]'s product).
        if !phase && self.z != 0 {
            zone.free(self.z as usize);
        } else if phase && self.net.hybrid.is_some() {
            zone.constrain(self.z as usize, 0, Bound::le(1));
        }
        let sig = self.signature(&locs, data, &zone);
        // Merged, the data's explicit values (one for all of it) stand for it.
        let held = if self.merged.is_some() { self.fixed(data) } else { data };
        let key = (locs, held, phase, sig);
        let exact = self.zg.abstraction == Abstraction::None;
        let (lower, upper) = (&self.zg.lower, &self.zg.upper);
        let same = |n: &u32| {
            let other = &self.nodes[*n as usize].zone;
            *other == zone
                || (!exact && zone.simulated_by(other, lower, upper) && other.simulated_by(&zone, lower, upper))
        };
        if let Some(n) = self.buckets.get(&key).and_then(|ids| ids.iter().copied().find(same)) {
            if self.merged.is_some() {
                self.grow(n, data);
            }
            return n;
        }
        let id = self.nodes.len() as u32;
        self.buckets.entry(key.clone()).or_default().push(id);
        self.nodes.push(Node { locs: key.0, data, zone, phase });
        self.parent.push(parent);
        self.stats.stored += 1;
        if let Some(pending) = &mut self.merged {
            pending.add(&mut self.m, id, data);
        }
        id
    }

    /// The valuations of the explicit slots' values on `data` (one for all
    /// of it).
    fn fixed(&mut self, data: Bdd) -> Bdd {
        let v = self.enc.pick(&self.m, data).expect("a node has data");
        let mut cube = TRUE;
        for &s in &self.explicit {
            let at = self.enc.equals(&mut self.m, s, v[s]);
            cube = self.m.and(cube, at);
        }
        cube
    }

    /// Adds `data` to node `n`, what is new in it to be expanded.
    fn grow(&mut self, n: u32, data: Bdd) {
        let node = &mut self.nodes[n as usize];
        let outside = self.m.not(node.data);
        let new = self.m.and(data, outside);
        if new == FALSE {
            return;
        }
        node.data = self.m.or(node.data, new);
        self.merged.as_mut().expect("merging").add(&mut self.m, n, new);
    }

    /// Adds to `out` the arcs by discrete steps from node `node` taken by
    /// the valuations `data` of its data set (phase-0 ones logged with
    /// their labels, [`locks`]).
    fn discrete(&mut self, node: u32, data: Bdd, out: &mut Vec<(u32, Progress, Arc)>) -> Result<(), Stop> {
        let n = &self.nodes[node as usize];
        let (locs, zone, phase) = (n.locs.clone(), n.zone.clone(), n.phase);
        let (q, net) = (self.query, self.net);
        let (enabled, error) = enabled(net, &self.grouped, &mut self.m, &self.enc, &locs, data)?;
        if error != FALSE {
            return Err(Stop::Error);
        }
        // No divergence labels on linear networks, as in the explicit
        // engine ([`locks`] runs on zones only).
        let labelled = !phase && net.hybrid.is_none();
        // The source with one valuation: the labels read explicit slots only.
        let source =
            Discrete { locs: locs.clone(), data: self.enc.pick(&self.m, data).expect("a node has data").into() };
        for (t, set) in steps(net, &locs, &enabled, &mut self.m, &self.enc) {
            let (next, parts) = self.sem().post(&locs, &zone, &t, set)?.ok_or(Stop::Error)?;
            let label = if labelled {
                Progress::of(net, &source, &t.representative(net), &mut Vec::new()).map_err(|_| Stop::Error)?
            } else {
                Progress::default()
            };
            for (mut data, zone) in parts {
                if phase {
                    data = self.cut(&next, data, &q.stay)?;
                    if data == FALSE {
                        continue;
                    }
                }
                let n = self.intern(next.clone(), data, zone, phase, Some((node, Arc::Edge(t.clone()))));
                // Merged, a node's new data is expanded apart: log each arc once.
                if labelled && self.merged.as_mut().is_none_or(|p| p.logged.insert((node, n, label))) {
                    self.arcs.push((node, n, label));
                }
                out.push((n, Progress::default(), Arc::Edge(t.clone())));
            }
        }
        Ok(())
    }

    /// The data of node `from` with which it takes `step` (its guards and
    /// selects applied).
    fn step_set(&mut self, from: u32, step: &Step) -> Result<Bdd, Stop> {
        let n = &self.nodes[from as usize];
        let (locs, data) = (n.locs.clone(), n.data);
        let (enabled, _) = enabled(self.net, &self.grouped, &mut self.m, &self.enc, &locs, data)?;
        let all = steps(self.net, &locs, &enabled, &mut self.m, &self.enc);
        Ok(all.into_iter().find(|(s, _)| s == step).map_or(FALSE, |(_, set)| set))
    }
}

impl<S: ClockSet + Hash> Graph for Live<'_, '_, S> {
    type Error = Stop;
    type Step = Arc;
    type Label = Progress;

    fn initial(&mut self, out: &mut Vec<(u32, Arc)>) -> Result<(), Stop> {
        let locs: Box<[u32]> = self.net.processes.iter().map(|p| p.initial).collect();
        let zone = self.zg.initial_zone();
        let initial = self.initial;
        let parts = self.sem().settle(&locs, initial, &zone, None)?.ok_or(Stop::Error)?;
        let q = self.query;
        for (data, zone) in parts {
            if q.initial_only {
                let enter = self.cut(&locs, data, &q.enter)?;
                let both = self.cut(&locs, enter, &q.stay)?;
                if both != FALSE {
                    out.push((self.intern(locs.clone(), both, zone.clone(), true, None), Arc::Initial));
                }
            }
            out.push((self.intern(locs.clone(), data, zone, false, None), Arc::Initial));
        }
        Ok(())
    }

    fn successors(&mut self, node: u32, out: &mut Vec<(u32, Progress, Arc)>) -> Result<(), Stop> {
        self.stats.visited += 1;
        let n = &self.nodes[node as usize];
        let (locs, data, zone, phase) = (n.locs.clone(), n.data, n.zone.clone(), n.phase);
        let q = self.query;
        if !phase && !q.initial_only {
            let enter = self.cut(&locs, data, &q.enter)?;
            let both = self.cut(&locs, enter, &q.stay)?;
            if both != FALSE {
                // The tick clock starts here, at 0.
                let mut started = zone.clone();
                started.reset(self.z as usize, 0);
                for (data, zone) in self.sem().settle(&locs, both, &started, None)?.ok_or(Stop::Error)? {
                    let n = self.intern(locs.clone(), data, zone, true, Some((node, Arc::Enter)));
                    out.push((n, Progress::default(), Arc::Enter));
                }
            }
        }
        self.discrete(node, data, out)?;
        let mut ticked = zone;
        if phase && ticked.constrain(0, self.z as usize, Bound::le(-1)) {
            ticked.reset(self.z as usize, 0);
            for (data, zone) in self.sem().settle(&locs, data, &ticked, None)?.ok_or(Stop::Error)? {
                let n = self.intern(locs.clone(), data, zone, phase, Some((node, Arc::Tick)));
                out.push((n, Progress::TICK, Arc::Tick));
            }
        }
        self.stats.transitions += out.len() as u64;
        Ok(())
    }

    fn counterexample(&self, node: u32) -> bool {
        self.nodes[node as usize].phase
    }

    fn check_limits(&mut self) -> Result<(), Stop> {
        match self.watch.check(self.stats.visited) {
            Some(u) => Err(Stop::Limit(u)),
            None => Ok(()),
        }
    }
}

/// How one search ended.
enum End {
    Found(Option<Box<SymbolicTrace>>),
    /// With what the whole graph shows of time-locks.
    Exhausted(Locks),
}

/// Searches `net` (augmented with the tick clock `z`) for `query` from the
/// initial data `initial` (`None`: the model's): on zones, or on exact
/// polyhedra for a linear network, whose lassos must carry a periodic run
/// ([`lasso::periodic`]) and whose time-locks the search does not tell.
fn search(
    net: &Network,
    z: u32,
    query: &Query,
    abstraction: Abstraction,
    initial: Option<&[i64]>,
    limits: &Limits,
    stats: &mut Stats,
) -> Result<End, Stop> {
    if net.hybrid.is_some() {
        let g = Live::<Poly>::new(net, z, query, Abstraction::None, initial, limits);
        return search_in(g, stats, lasso::periodic, |_| Ok(Locks::Unknown));
    }
    let g = Live::<Dbm>::new(net, z, query, abstraction, initial, limits);
    search_in(g, stats, lasso::on_zones, locks::locks)
}

/// [`search`] on the graph `g`: `found` makes a lasso's trace of its
/// discrete path (`None`: the walk found none), `locks` tells what an
/// exhausted search shows of time-locks.
fn search_in<S: ClockSet + Hash>(
    mut g: Live<'_, '_, S>,
    stats: &mut Stats,
    found: lasso::Finish,
    locks: fn(&mut Live<'_, '_, S>) -> Result<Locks, Stop>,
) -> Result<End, Stop> {
    let result = scc::search(&mut g);
    g.spent(stats);
    match result? {
        scc::Search::Accepting { path, steps, scc, .. } => {
            let lasso = lasso::lasso(&mut g, &path, &steps, &scc)?;
            Ok(End::Found(found(g.net, g.z, lasso)?.map(Box::new)))
        }
        scc::Search::Exhausted { .. } => Ok(End::Exhausted(locks(&mut g)?)),
    }
}

/// A liveness property with `--data bdd`, and what the search showed of
/// time-locks inside its nodes.
pub fn check_property(net: &Network, property: &Property, options: &Options) -> Checked {
    let abstraction = liveness::abstraction(options);
    match liveness::shape(net, property, abstraction) {
        Ok(shape) => check(net, &shape, abstraction, options),
        Err(why) => {
            let outcome = Outcome::unsupported(EngineKind::Live, format!("{REFUSAL}: {why}"));
            Checked { outcome, locks: Locks::Unknown }
        }
    }
}

/// [`liveness::check`] with `--data bdd`: `shape` on `net` under
/// `abstraction`; a run-time error is answered with explicit data.
pub fn check(net: &Network, shape: &Shape, abstraction: Abstraction, options: &Options) -> Checked {
    let not = |f: &StateFormula| StateFormula::Not(Box::new(f.clone()));
    let (query, every_initial) = match shape {
        Shape::Eventually(psi) => {
            (Query { enter: not(psi), stay: not(psi), initial_only: true, locks: always() }, false)
        }
        Shape::LeadsTo(phi, psi) => {
            let enter = StateFormula::And(Box::new(phi.clone()), Box::new(not(psi)));
            (Query { enter, stay: not(psi), initial_only: false, locks: always() }, false)
        }
        Shape::Globally(phi) => {
            (Query { enter: phi.clone(), stay: phi.clone(), initial_only: true, locks: always() }, true)
        }
    };
    let (found, exhausted) =
        if every_initial { (Verdict::Satisfied, Verdict::Violated) } else { (Verdict::Violated, Verdict::Satisfied) };
    let asked =
        Asked { query: &query, every_initial, engine: EngineKind::Live, found, exhausted, abstraction, model: true };
    answer(net, &asked, options, |o| {
        liveness::check(net, shape.clone(), abstraction, &o.limits, o.domain, &o.time_locks)
    })
}

/// A question for [`answer`]: the query, whether it is asked from each
/// initial valuation apart (`E[]`), and the verdicts when the searched-for
/// run exists (`found`) and when it does not (`exhausted`).
pub struct Asked<'q> {
    pub query: &'q Query,
    pub every_initial: bool,
    pub engine: EngineKind,
    pub found: Verdict,
    pub exhausted: Verdict,
    pub abstraction: Abstraction,
    /// Whether `net` is the model, whose time-locks are then looked for
    /// after a search that did not see them all ([`model_locks`]); not a
    /// product, whose time-locks are not the model's.
    pub model: bool,
}

/// `asked` on `net` (not yet augmented with the tick clock) with data as
/// BDDs, and what the search showed of time-locks inside its nodes (of the
/// whole model: known only from one search that explored everything). At a
/// run-time error `explicit` answers with explicit data (given the options
/// to run with), and its statistics say so.
pub fn answer(net: &Network, asked: &Asked, options: &Options, explicit: impl FnOnce(&Options) -> Checked) -> Checked {
    let started = std::time::Instant::now();
    let unsupported = |why: String| Checked {
        outcome: Outcome::unsupported(asked.engine, format!("{REFUSAL}: {why}")),
        locks: Locks::Unknown,
    };
    let query = asked.query;
    if let Err(why) = supported(net).and(data_only(&query.enter)).and(data_only(&query.stay)) {
        return unsupported(why);
    }
    let mut extended = net.clone();
    let z = liveness::augment(&mut extended);
    let mut stats = Stats { jobs: 1, ..Stats::default() };
    let (limits, abstraction) = (&options.limits, asked.abstraction);
    let initial = if asked.every_initial { initial_valuations(net) } else { Vec::new() };
    let ended = if asked.every_initial {
        // Each initial valuation needs its own witness.
        let mut last = Ok(None);
        for v in &initial {
            last = search(&extended, z, query, abstraction, Some(v), limits, &mut stats).map(Some);
            if !matches!(last, Ok(Some(End::Found(_)))) {
                break;
            }
        }
        last
    } else {
        search(&extended, z, query, abstraction, None, limits, &mut stats).map(Some)
    };
    // A lasso ends the search before it sees the whole graph; searches
    // from one initial valuation each see only what it reaches.
    let partial = match &ended {
        Ok(Some(End::Found(_))) => true,
        Ok(Some(End::Exhausted(_))) => initial.len() > 1,
        _ => false,
    };
    let (verdict, trace, mut locks) = match ended {
        Ok(Some(End::Found(trace))) => (asked.found.clone(), trace.map(|t| *t), Locks::Unknown),
        // Searched from one of several initial valuations, the graph is not
        // the whole model's.
        Ok(Some(End::Exhausted(locks))) => {
            (asked.exhausted.clone(), None, if initial.len() > 1 { Locks::Unknown } else { locks })
        }
        Ok(None) => (asked.exhausted.clone(), None, Locks::Unknown),
        Err(Stop::Limit(u)) => (Verdict::Unknown(u), None, Locks::Unknown),
        Err(Stop::Unsupported(u)) => return unsupported(u.0),
        Err(Stop::Error) => {
            let mut checked = explicit(&Options { data: DataChoice::Explicit, ..options.clone() });
            if let Some(s) = checked.outcome.stats.as_mut() {
                s.data = Some(DataChoice::Explicit);
            }
            return checked;
        }
    };
    // The merged search runs on zones: a linear network's time-locks are
    // left to the engine layer, as after its explicit searches.
    if partial && asked.model && net.hybrid.is_none() {
        locks = model_locks(net, abstraction, limits, &options.time_locks, &mut stats);
    }
    stats.time_s = started.elapsed().as_secs_f64();
    let outcome =
        Outcome { verdict, engine: asked.engine, stats: Some(stats), trace, warnings: Vec::new(), network: None };
    Checked { outcome, locks }
}

/// What the data-symbolic zone graph of `net` shows of the model's
/// time-locks ([`merged`]), searched within what `limits` leave after
/// `spent`, whose counts the search joins, as [`liveness::model_time_locks`]
/// does with explicit data, whose `cache` keeps the answer for the run's
/// next property. A limit or a run-time error leaves them unknown (the
/// engine layer's scan decides).
fn model_locks(net: &Network, abstraction: Abstraction, limits: &Limits, cache: &Cache, spent: &mut Stats) -> Locks {
    let key = format!("bdd {abstraction:?} {net:?}");
    let (_, locks) = cache.answer(key, limits, spent, |limits| {
        let mut stats = Stats::default();
        let found = merged::locks(net, abstraction, limits, &mut stats).ok().map(|locks| (Vec::new(), locks));
        (found, stats)
    });
    locks
}

/// The initial data valuations of `net`, each once.
fn initial_valuations(net: &Network) -> Vec<Vec<i64>> {
    let mut m = Manager::new();
    let enc = edges::encoding(net);
    let mut rest = enc.initial(&mut m, &net.slots);
    let mut out = Vec::new();
    while let Some(v) = enc.pick(&m, rest) {
        let point = enc.point(&mut m, &v);
        let outside = m.not(point);
        rest = m.and(rest, outside);
        out.push(v);
    }
    out
}
