//! An independent oracle for reachability in timed automata, by explicit
//! exploration of (location vector, data vector, clock part) states.
//!
//! It shares only the front end with kairos: it reads the compiled
//! [`Network`] (locations, edges, compiled data `Code`, `ClockConstraint`s)
//! and compiled state formulas, and does its own transition enumeration,
//! clock arithmetic and normalisation. Nothing in `kairos::semantics`,
//! `kairos::engine` or `kairos::domain` is used.
//!
//! The clock part is a vector of integers, one per clock, in units of
//! `1/scale`; what it stands for is chosen per exploration ([`Time`]):
//! - a point of the grid `(1/k)Z`, time advancing by `1/k` (`grid.rs`):
//!   exact for closed automata (non-strict bounds), see there;
//! - the canonical representative of a clock region, time advancing to the
//!   next region (`region.rs`), followed by the *difference classes* of the
//!   clock pairs that diagonal constraints relate: exact for strict bounds
//!   and diagonals alike.
//!
//! Either way the clock part decides every clock constraint ([`Clocks::holds`]:
//! plain evaluation on the grid; the representative or the classes for
//! regions), so the discrete part below (edges, synchronisations, the
//! committed rule, urgency, updates, invariants, run-time errors,
//! `deadlock`) is the same for both; the only extra step for regions is
//! [`Clocks::after_resets`], which updates the classes of a step's resets.
//!
//! For the liveness oracle (`live.rs`), [`Oracle::explore_ticked`] explores
//! regions with one more clock, the *tick clock* `t` (constant 1), and
//! records per state its *tick* (`t >= 1`, then `t := 0`): the progress
//! steps of time-divergent runs. A tick is not a step of the network: it is
//! kept apart from the discrete steps (`succ`, `has_step`, hence
//! `deadlock`), and `t` is in no guard, invariant or formula, so it changes
//! no other answer (it only splits regions further).

mod grid;
mod region;

// Every test crate that includes the oracle compiles this module; not all
// of them ask which goals integer time decides.
#[allow(unused_imports)]
pub use grid::strict_atoms;

pub mod live;
pub mod random;
pub mod response;
pub mod timed;

use indexmap::IndexSet;
use rustc_hash::FxBuildHasher;

use kairos::model::decl::OutOfRange;
use kairos::model::typed::Dir;
use kairos::network::{ChannelIndex, ClockConstraint, EvalError, Network, StateConj, StateFormula, Target, Update};

type States = IndexSet<Box<[i64]>, FxBuildHasher>;

const NONE: u32 = u32::MAX;

fn formula_constraints<'f>(f: &'f StateFormula, out: &mut Vec<&'f ClockConstraint>) {
    match f {
        StateFormula::Pred(conjs) => out.extend(conjs.iter().flat_map(|c| &c.clocks)),
        StateFormula::Deadlock => {}
        StateFormula::Not(a) => formula_constraints(a, out),
        StateFormula::And(a, b) | StateFormula::Or(a, b) => {
            formula_constraints(a, out);
            formula_constraints(b, out);
        }
    }
}

pub fn mentions_deadlock(f: &StateFormula) -> bool {
    match f {
        StateFormula::Pred(_) => false,
        StateFormula::Deadlock => true,
        StateFormula::Not(a) => mentions_deadlock(a),
        StateFormula::And(a, b) | StateFormula::Or(a, b) => mentions_deadlock(a) || mentions_deadlock(b),
    }
}

/// Every clock constraint in guards and invariants is non-strict: the grid
/// oracle is exact (for the goals `strict_atoms` admits).
pub fn closed(net: &Network) -> bool {
    net.processes.iter().all(|p| {
        let invariants = p.locations.iter().flat_map(|l| &l.invariant);
        invariants.chain(p.edges.iter().flat_map(|e| &e.guard_clocks)).all(|c| !c.strict)
    })
}

fn is_diagonal(c: &ClockConstraint) -> bool {
    c.i != 0 && c.j != 0
}

/// How time is represented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Time {
    /// Points of the grid `(1/k)Z`, steps of `1/k`.
    Grid(i64),
    /// Regions, with the difference classes of diagonal pairs.
    Regions,
}

/// The clock part of the states of one exploration.
#[derive(Clone, Debug)]
enum Clocks {
    Grid(grid::Grid),
    Regions(region::Regions),
}

impl Clocks {
    /// Units per time unit.
    fn scale(&self) -> i64 {
        match self {
            Clocks::Grid(g) => g.scale(),
            Clocks::Regions(r) => r.scale(),
        }
    }

    /// The smallest observable delay: one grid step, or to the next region.
    fn delay(&self, clocks: &mut [i64]) {
        match self {
            Clocks::Grid(g) => g.delay(clocks),
            Clocks::Regions(r) => r.delay(clocks),
        }
    }

    /// Keeps the state space finite (and regions canonical).
    fn normalise(&self, clocks: &mut [i64]) {
        match self {
            Clocks::Grid(g) => g.normalise(clocks),
            Clocks::Regions(r) => r.normalise(clocks),
        }
    }

    /// The length of the clock part for `n` clocks.
    fn width(&self, n: usize) -> usize {
        match self {
            Clocks::Grid(_) => n,
            Clocks::Regions(r) => r.width(),
        }
    }

    /// `x_i - x_j ≺ b` (`b` in time units).
    fn holds(&self, part: &[i64], i: u32, j: u32, strict: bool, b: i64) -> bool {
        match self {
            Clocks::Grid(g) => {
                let val = |c: u32| if c == 0 { 0 } else { part[c as usize - 1] };
                let (d, b) = (val(i) - val(j), b * g.scale());
                if strict { d < b } else { d <= b }
            }
            Clocks::Regions(r) => r.holds(part, i, j, strict, b),
        }
    }

    /// After the updates of a step that reset the clocks `reset` (their new
    /// values already written): the grid has nothing to do; regions update
    /// the difference classes.
    fn after_resets(&self, part: &mut [i64], reset: &[u32]) {
        match self {
            Clocks::Grid(_) => {}
            Clocks::Regions(r) => r.after_resets(part, reset),
        }
    }

    /// The target of a tick from `part` (the liveness oracle's tick clock
    /// `t` is at least 1; `t := 0`), if a tick is allowed there.
    fn tick(&self, part: &[i64]) -> Option<Vec<i64>> {
        match self {
            Clocks::Regions(r) if r.tick_ready(part) => {
                let mut t = part.to_vec();
                r.tick(&mut t);
                Some(t)
            }
            _ => None,
        }
    }
}

/// What one exploration is set up for.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub time: Time,
    /// Give up beyond this many states.
    pub max_states: usize,
}

/// A network explored explicitly.
pub struct Oracle<'n> {
    net: &'n Network,
    clocks: Clocks,
    /// Largest constant (in time units): a bound beyond it would break the
    /// cap (for regions: `M`; a diagonal's bound is at most `D <= M`).
    max_const: i64,
    np: usize,
    ns: usize,
    states: States,
    /// Per state: some discrete step is possible from it.
    has_step: Vec<bool>,
    /// Per state: its successor by the smallest delay (`NONE` when time
    /// cannot pass), possibly itself.
    delay: Vec<u32>,
    deadlock_memo: Vec<Option<bool>>,
    /// Per state: its successors by a discrete step (for `live`).
    succ: Vec<Vec<u32>>,
    /// Per state: its successor by a tick (`NONE` without one), in an
    /// exploration with the tick clock ([`Oracle::explore_ticked`], for
    /// `live`): not a step of the network, so not in `succ` nor `has_step`.
    tick: Vec<u32>,
    /// The first `initial_states` states are the initial ones.
    initial_states: usize,
    /// The first run-time error met, described.
    pub error: Option<String>,
    /// Per state: whether its expansion met a run-time error.
    erred: Vec<bool>,
    stack: Vec<i64>,
    locs: Vec<u32>,
    /// The clocks reset by the step being fired.
    reset: Vec<u32>,
}

/// An edge enabled in a state: process, edge, resolved channel.
#[derive(Clone, Copy, Debug)]
struct Enabled {
    p: usize,
    e: usize,
    sync: Option<(u32, Dir)>,
}

/// Why the exploration stopped short.
#[derive(Debug)]
pub struct GaveUp;

impl<'n> Oracle<'n> {
    /// Explores the whole state space. `formulas` are the state formulas
    /// that will be asked (their constants count for the normalisation).
    pub fn explore(net: &'n Network, formulas: &[&StateFormula], config: Config) -> Result<Self, GaveUp> {
        Self::explore_with(net, formulas, config, false)
    }

    /// [`Oracle::explore`] on regions of the network plus the *tick clock*
    /// `t` of the liveness oracle (`live.rs`): one more clock, in no guard,
    /// invariant or formula, with its own constant 1, and from every state
    /// with `t >= 1` a tick (`t := 0`, nothing else; `tick`). Everything
    /// else (steps, delays, invariants, `deadlock`) is as without it.
    // Only tests/liveness_differential.rs asks for it.
    #[allow(dead_code)]
    pub fn explore_ticked(net: &'n Network, formulas: &[&StateFormula], max_states: usize) -> Result<Self, GaveUp> {
        Self::explore_with(net, formulas, Config { time: Time::Regions, max_states }, true)
    }

    fn explore_with(
        net: &'n Network,
        formulas: &[&StateFormula],
        config: Config,
        ticked: bool,
    ) -> Result<Self, GaveUp> {
        let mut constraints: Vec<&ClockConstraint> = Vec::new();
        let mut max_reset = 0;
        for p in &net.processes {
            for l in &p.locations {
                constraints.extend(&l.invariant);
            }
            for e in &p.edges {
                constraints.extend(&e.guard_clocks);
                for u in &e.updates {
                    if let Update::Reset { value, .. } = u {
                        max_reset = max_reset.max(*value);
                    }
                }
            }
        }
        for f in formulas {
            formula_constraints(f, &mut constraints);
        }
        let largest = |diagonal: bool| {
            constraints
                .iter()
                .filter(|c| is_diagonal(c) == diagonal)
                .map(|c| {
                    let (lo, hi) = c.effective_range();
                    lo.abs().max(hi.abs())
                })
                .max()
                .unwrap_or(0)
        };
        // The largest constant of the non-diagonal constraints and of the
        // diagonal ones.
        let (m0, d) = (largest(false), largest(true));
        let diagonals: Vec<(u32, u32)> = constraints.iter().filter(|c| is_diagonal(c)).map(|c| (c.i, c.j)).collect();
        let (clocks, m) = match config.time {
            Time::Grid(k) => {
                assert!(!ticked, "oracle: the tick clock is for regions");
                let m = m0.max(d);
                (Clocks::Grid(grid::Grid::new(k, m, max_reset, !diagonals.is_empty())), m)
            }
            Time::Regions => {
                let r = region::Regions::new(net.clocks.len(), m0, &diagonals, d, max_reset, ticked);
                let m = r.constant();
                (Clocks::Regions(r), m)
            }
        };
        let mut o = Oracle {
            net,
            clocks,
            max_const: m,
            np: net.processes.len(),
            ns: net.slots.len(),
            states: States::default(),
            has_step: Vec::new(),
            delay: Vec::new(),
            deadlock_memo: Vec::new(),
            succ: Vec::new(),
            tick: Vec::new(),
            initial_states: 0,
            error: None,
            erred: Vec::new(),
            stack: Vec::new(),
            locs: vec![0; net.processes.len()],
            reset: Vec::new(),
        };
        o.initial();
        o.initial_states = o.states.len();
        let mut next = 0;
        let mut succ = Vec::new();
        while next < o.states.len() {
            if o.states.len() > config.max_states {
                return Err(GaveUp);
            }
            let s = o.states[next].clone();
            let (mut has_step, mut delay) = (false, NONE);
            let mut erred = true;
            match o.expand(&s, &mut succ) {
                Ok((d, error)) => {
                    erred = error.is_some();
                    if let Some(e) = error {
                        o.error.get_or_insert(e);
                    }
                    has_step = !succ.is_empty();
                    let ids = succ.drain(..).map(|t| o.states.insert_full(t).0 as u32).collect();
                    o.succ.push(ids);
                    if let Some(d) = d {
                        delay = o.states.insert_full(d).0 as u32;
                    }
                }
                Err(e) => {
                    o.error.get_or_insert(e);
                    o.succ.push(Vec::new());
                }
            }
            o.erred.push(erred);
            o.has_step.push(has_step);
            o.delay.push(delay);
            let base = o.np + o.ns;
            let tick = match o.clocks.tick(&s[base..]) {
                Some(part) => {
                    let mut t = s[..base].to_vec();
                    t.extend(part);
                    o.states.insert_full(t.into_boxed_slice()).0 as u32
                }
                None => NONE,
            };
            o.tick.push(tick);
            next += 1;
        }
        o.deadlock_memo = vec![None; o.states.len()];
        Ok(o)
    }

    /// What the liveness oracle counts as progress: the ticks of the tick
    /// clock (`Some(true)`, [`Oracle::explore_ticked`]), the delay steps on
    /// a grid (`Some(false)`: each one lets `1/k` time pass), or nothing
    /// (`None`: plain regions, where a delay step may take arbitrarily
    /// little time).
    pub fn progress_by_ticks(&self) -> Option<bool> {
        match &self.clocks {
            Clocks::Grid(_) => Some(false),
            Clocks::Regions(r) => r.ticked().then_some(true),
        }
    }

    pub fn state_count(&self) -> usize {
        self.states.len()
    }

    fn split<'s>(&self, s: &'s [i64]) -> (&'s [i64], &'s [i64], &'s [i64]) {
        let (locs, rest) = s.split_at(self.np);
        let (data, clocks) = rest.split_at(self.ns);
        (locs, data, clocks)
    }

    fn load_locs(&mut self, s: &[i64]) {
        for (l, v) in self.locs.iter_mut().zip(&s[..self.np]) {
            *l = *v as u32;
        }
    }

    fn initial(&mut self) {
        let net = self.net;
        let width = self.clocks.width(net.clocks.len());
        let mut data: Vec<i64> = net.slots.iter().map(|s| s.init.0).collect();
        loop {
            let mut s: Vec<i64> = net.processes.iter().map(|p| p.initial as i64).collect();
            s.extend(&data);
            // Every clock and every difference is 0 (class 0).
            s.extend(std::iter::repeat_n(0, width));
            match self.invariants_hold(&s) {
                Ok(true) => {
                    self.states.insert(s.into_boxed_slice());
                }
                Ok(false) => {}
                Err(e) => {
                    self.error.get_or_insert(format!("{e:?} in an initial invariant"));
                }
            }
            // Next combination of the `init: any` ranges.
            let mut k = data.len();
            loop {
                if k == 0 {
                    return;
                }
                k -= 1;
                if data[k] < net.slots[k].init.1 {
                    data[k] += 1;
                    break;
                }
                data[k] = net.slots[k].init.0;
            }
        }
    }

    /// `x_i - x_j ≺ bound` on the state's clock part.
    fn holds(&mut self, c: &ClockConstraint, s: &[i64]) -> Result<bool, EvalError> {
        self.load_locs(s);
        let (_, data, clocks) = self.split(s);
        let b = c.bound.eval(&self.locs, data, &mut self.stack)?;
        let b = if c.negate { -b } else { b };
        assert!(b.abs() <= self.max_const, "oracle: a clock bound {b} beyond the normalisation constant");
        Ok(self.clocks.holds(clocks, c.i, c.j, c.strict, b))
    }

    fn data_holds(&mut self, code: &kairos::network::Code, s: &[i64]) -> Result<bool, EvalError> {
        self.load_locs(s);
        let data = &s[self.np..self.np + self.ns];
        Ok(code.eval(&self.locs, data, &mut self.stack)? != 0)
    }

    /// Every instance's invariant.
    fn invariants_hold(&mut self, s: &[i64]) -> Result<bool, EvalError> {
        let net = self.net;
        for p in 0..self.np {
            let loc = &net.processes[p].locations[s[p] as usize];
            if let Some(code) = &loc.invariant_data
                && !self.data_holds(code, s)?
            {
                return Ok(false);
            }
            for c in &loc.invariant {
                if !self.holds(c, s)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    fn describe(&self, e: &EvalError, edges: &[(usize, usize)]) -> String {
        let net = self.net;
        let names: Vec<String> = edges
            .iter()
            .map(|&(p, e)| {
                let pr = &net.processes[p];
                let ed = &pr.edges[e];
                format!("{}: {} -> {}", pr.name, pr.locations[ed.from as usize].name, pr.locations[ed.to as usize].name)
            })
            .collect();
        format!("{e:?} in the step {}", names.join(", "))
    }

    /// The edges whose guards hold in `s`.
    fn enabled(&mut self, s: &[i64]) -> Result<Vec<Enabled>, String> {
        let net = self.net;
        let mut out = Vec::new();
        for p in 0..self.np {
            let proc_ = &net.processes[p];
            'edges: for &e in &proc_.outgoing[s[p] as usize] {
                let edge = &proc_.edges[e as usize];
                let fail = |o: &Self, x: EvalError| o.describe(&x, &[(p, e as usize)]);
                if let Some(g) = &edge.guard_data
                    && !self.data_holds(g, s).map_err(|x| fail(self, x))?
                {
                    continue;
                }
                for c in &edge.guard_clocks {
                    if !self.holds(c, s).map_err(|x| fail(self, x))? {
                        continue 'edges;
                    }
                }
                let sync = match &edge.sync {
                    None => None,
                    Some(sy) => {
                        let chan = match &sy.channel {
                            ChannelIndex::Fixed(c) => *c,
                            ChannelIndex::Dynamic { base, len, index } => {
                                self.load_locs(s);
                                let data = &s[self.np..self.np + self.ns];
                                let i = index.eval(&self.locs, data, &mut self.stack).map_err(|x| fail(self, x))?;
                                if i < 0 || i >= *len as i64 {
                                    return Err(fail(self, EvalError::IndexOutOfBounds { index: i, len: *len }));
                                }
                                base + i as u32
                            }
                        };
                        Some((chan, sy.dir))
                    }
                };
                out.push(Enabled { p, e: e as usize, sync });
            }
        }
        Ok(out)
    }

    /// Every combination of `combos` extended by one edge of `g`.
    fn extend_each(combos: &[Vec<(usize, usize)>], g: &[(usize, usize)]) -> Vec<Vec<(usize, usize)>> {
        combos
            .iter()
            .flat_map(|prefix| {
                g.iter().map(move |r| {
                    let mut v = prefix.clone();
                    v.push(*r);
                    v
                })
            })
            .collect()
    }

    /// The discrete steps (edge lists: sender first, then receivers in
    /// system order) from `s` with the committed rule applied.
    fn steps(&self, s: &[i64], enabled: &[Enabled]) -> Vec<Vec<(usize, usize)>> {
        let net = self.net;
        let committed = |p: usize| net.processes[p].locations[s[p] as usize].committed;
        let any_committed = (0..self.np).any(committed);
        let allowed = |edges: &[(usize, usize)]| !any_committed || edges.iter().any(|&(p, _)| committed(p));
        let mut out = Vec::new();
        for a in enabled {
            match a.sync {
                None => out.push(vec![(a.p, a.e)]),
                Some((c, Dir::Send)) if net.channels[c as usize].broadcast => {
                    // Per other process, its enabled receiving edges.
                    let mut groups: Vec<Vec<(usize, usize)>> = Vec::new();
                    for q in 0..self.np {
                        if q == a.p {
                            continue;
                        }
                        let g: Vec<(usize, usize)> = enabled
                            .iter()
                            .filter(|r| r.p == q && r.sync == Some((c, Dir::Receive)))
                            .map(|r| (r.p, r.e))
                            .collect();
                        if !g.is_empty() {
                            groups.push(g);
                        }
                    }
                    let mut combos: Vec<Vec<(usize, usize)>> = vec![vec![(a.p, a.e)]];
                    for g in &groups {
                        combos = Self::extend_each(&combos, g);
                    }
                    out.extend(combos);
                }
                Some((c, Dir::Send)) => {
                    for r in enabled {
                        if r.p != a.p && r.sync == Some((c, Dir::Receive)) {
                            out.push(vec![(a.p, a.e), (r.p, r.e)]);
                        }
                    }
                }
                Some((_, Dir::Receive | Dir::Party)) => {}
            }
        }
        // Synchronisation vectors: one enabled edge of each strong party and
        // of each weak party that has one, in party order; nothing when a
        // strong party has none or no party has one.
        for (c, ch) in net.channels.iter().enumerate() {
            let mut combos: Vec<Vec<(usize, usize)>> = vec![Vec::new()];
            for party in &ch.parties {
                let g: Vec<(usize, usize)> = enabled
                    .iter()
                    .filter(|r| r.p == party.instance && r.sync == Some((c as u32, Dir::Party)))
                    .map(|r| (r.p, r.e))
                    .collect();
                if g.is_empty() && !party.weak {
                    combos.clear();
                }
                if g.is_empty() {
                    continue;
                }
                combos = Self::extend_each(&combos, &g);
            }
            out.extend(combos.into_iter().filter(|t| !t.is_empty()));
        }
        out.retain(|t| allowed(t));
        out
    }

    /// No urgent or committed location, and no synchronisation on an urgent
    /// channel enabled (its guards hold: UPPAAL's reading; a sync whose
    /// target invariant fails still counts).
    fn can_delay(&self, s: &[i64], enabled: &[Enabled]) -> bool {
        let net = self.net;
        if (0..self.np).any(|p| {
            let l = &net.processes[p].locations[s[p] as usize];
            l.urgent || l.committed
        }) {
            return false;
        }
        !enabled.iter().any(|a| match a.sync {
            Some((c, Dir::Send)) if net.channels[c as usize].urgent => {
                net.channels[c as usize].broadcast
                    || enabled.iter().any(|r| r.p != a.p && r.sync == Some((c, Dir::Receive)))
            }
            _ => false,
        })
    }

    /// The target of step `edges` from `s`; `None` when an out-of-range
    /// assignment disables it or a target invariant fails.
    fn fire(&mut self, s: &[i64], edges: &[(usize, usize)]) -> Result<Option<Box<[i64]>>, String> {
        let net = self.net;
        let mut t: Vec<i64> = s.to_vec();
        for &(p, e) in edges {
            t[p] = net.processes[p].edges[e].to as i64;
        }
        let base = self.np + self.ns;
        self.reset.clear();
        for &(p, e) in edges {
            for u in &net.processes[p].edges[e].updates {
                match u {
                    Update::Reset { clock, value } => {
                        t[base + *clock as usize - 1] = value * self.clocks.scale();
                        self.reset.push(*clock);
                    }
                    Update::Assign { .. } => return Err("the oracle runs timed networks only".into()),
                    Update::Effect(code) => {
                        self.load_locs(&t);
                        if let Err(x) = code.exec(&self.locs, &mut t[self.np..base], &mut self.stack) {
                            if net.out_of_range == OutOfRange::Disable
                                && matches!(x.innermost(), EvalError::OutOfRange { .. })
                            {
                                return Ok(None);
                            }
                            return Err(self.describe(&x, edges));
                        }
                    }
                    Update::Data { target, value } => {
                        self.load_locs(&t);
                        let v = match value.exec(&self.locs, &mut t[self.np..base], &mut self.stack) {
                            Ok(v) => v,
                            Err(x)
                                if net.out_of_range == OutOfRange::Disable
                                    && matches!(x.innermost(), EvalError::OutOfRange { .. }) =>
                            {
                                return Ok(None);
                            }
                            Err(x) => return Err(self.describe(&x, edges)),
                        };
                        let data = &t[self.np..base];
                        let slot = match target {
                            Target::Slot(s) => *s as usize,
                            Target::Indexed { base: b, len, index } => {
                                let i = index
                                    .eval(&self.locs, data, &mut self.stack)
                                    .map_err(|x| self.describe(&x, edges))?;
                                if i < 0 || i >= *len as i64 {
                                    let x = EvalError::IndexOutOfBounds { index: i, len: *len };
                                    return Err(self.describe(&x, edges));
                                }
                                *b as usize + i as usize
                            }
                        };
                        let sl = &net.slots[slot];
                        if v < sl.lo || v > sl.hi {
                            match net.out_of_range {
                                OutOfRange::Disable => return Ok(None),
                                OutOfRange::Error => {
                                    let x = EvalError::OutOfRange { slot: slot as u32, value: v };
                                    return Err(self.describe(&x, edges));
                                }
                            }
                        }
                        t[self.np + slot] = v;
                    }
                }
            }
        }
        // Before the target invariants: they may be diagonal.
        self.clocks.after_resets(&mut t[base..], &self.reset);
        if !self.invariants_hold(&t).map_err(|x| self.describe(&x, edges))? {
            return Ok(None);
        }
        self.clocks.normalise(&mut t[base..]);
        Ok(Some(t.into_boxed_slice()))
    }

    /// The discrete successors of `s` into `out`, and its successor by the
    /// smallest delay. A run-time error in a discrete step is returned beside
    /// the time successor: the engine tests the goal on a symbolic state,
    /// delays included, before expanding it, so time may still pass from a
    /// state whose discrete expansion fails (only the discrete steps are cut).
    #[allow(clippy::type_complexity)]
    fn expand(&mut self, s: &[i64], out: &mut Vec<Box<[i64]>>) -> Result<(Option<Box<[i64]>>, Option<String>), String> {
        out.clear();
        let enabled = self.enabled(s)?;
        // With priorities: the levels of the possible steps and of the
        // failing ones (a step whose update fails is possible: taking it
        // raises the error), only the highest kept. A failing step that a
        // higher one blocks is not taken, so its error is not raised, as
        // for a step the committed rule leaves out.
        let mut levels = Vec::new();
        let mut errors = Vec::new();
        for t in self.steps(s, &enabled) {
            let level = self.level(&t, &enabled);
            match self.fire(s, &t) {
                Ok(Some(n)) => {
                    out.push(n);
                    levels.push(level);
                }
                Ok(None) => {}
                Err(e) => errors.push((e, level)),
            }
        }
        let top = levels.iter().chain(errors.iter().map(|(_, l)| l)).flatten().max().copied();
        let blocked = |l: &Option<(i32, i32)>| l.is_some_and(|l| top.is_some_and(|top| l < top));
        let error = errors.into_iter().find(|(_, l)| !blocked(l)).map(|(e, _)| e);
        if error.is_some() {
            out.clear();
        }
        let mut k = 0;
        out.retain(|_| {
            k += 1;
            !blocked(&levels[k - 1])
        });
        if !self.can_delay(s, &enabled) {
            return Ok((None, error));
        }
        let mut d = s.to_vec();
        let base = self.np + self.ns;
        self.clocks.delay(&mut d[base..]);
        if !self.invariants_hold(&d).map_err(|x| format!("{x:?} in an invariant after a delay"))? {
            return Ok((None, error));
        }
        self.clocks.normalise(&mut d[base..]);
        Ok((Some(d.into_boxed_slice()), error))
    }

    /// The priority of step `edges` (FORMAT.md, "Priorities"): its
    /// channel's level (`default` without one), then the highest level of
    /// its processes; `None` without priorities or for an observer's step.
    fn level(&self, edges: &[(usize, usize)], enabled: &[Enabled]) -> Option<(i32, i32)> {
        let net = self.net;
        let prio = net.priorities.as_ref()?;
        if edges.iter().all(|&(p, _)| net.processes[p].observer) {
            return None;
        }
        let (p, e) = edges[0];
        let first = enabled.iter().find(|x| x.p == p && x.e == e).expect("an enabled edge");
        let channel = first.sync.map_or(prio.internal, |(c, _)| prio.channels[c as usize]);
        let process = edges.iter().map(|&(p, _)| prio.processes.get(p).copied().unwrap_or(0)).max();
        Some((channel, process.unwrap_or(0)))
    }

    /// Whether state `i` is deadlocked: no discrete step from it, nor from
    /// any of its time successors.
    fn deadlocked(&mut self, i: usize) -> bool {
        let mut chain = Vec::new();
        let mut at = i;
        let answer = loop {
            if let Some(v) = self.deadlock_memo[at] {
                break v;
            }
            if self.has_step[at] {
                break false;
            }
            chain.push(at);
            let d = self.delay[at];
            // A state that cannot let time pass, or a fixpoint of time
            // (every clock capped), or back on the chain (cannot happen:
            // time only grows) ends the search.
            if d == NONE || d as usize == at || chain.contains(&(d as usize)) {
                break true;
            }
            at = d as usize;
        };
        for c in chain {
            self.deadlock_memo[c] = Some(answer);
        }
        answer
    }

    fn sat_conj(&mut self, c: &StateConj, i: usize) -> Result<bool, EvalError> {
        let s = self.states[i].clone();
        if let Some(code) = &c.data
            && !self.data_holds(code, &s)?
        {
            return Ok(false);
        }
        for k in &c.clocks {
            if !self.holds(k, &s)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `f` in state `i`.
    pub fn sat(&mut self, f: &StateFormula, i: usize) -> Result<bool, EvalError> {
        Ok(match f {
            StateFormula::Pred(conjs) => {
                for c in conjs {
                    if self.sat_conj(c, i)? {
                        return Ok(true);
                    }
                }
                false
            }
            StateFormula::Deadlock => self.deadlocked(i),
            StateFormula::Not(a) => !self.sat(a, i)?,
            StateFormula::And(a, b) => self.sat(a, i)? && self.sat(b, i)?,
            StateFormula::Or(a, b) => self.sat(a, i)? || self.sat(b, i)?,
        })
    }

    /// Some reachable state satisfies `f` (the discrete steps of states
    /// whose expansion failed are cut: the engine stops there, so nothing
    /// beyond counts; a goal reached anyway may or may not be reported).
    /// `E<> f` as FORMAT.md states it: from every initial state some run
    /// reaches a state of `f` (backwards from the states of `f` over the
    /// discrete and delay steps).
    pub fn reachable_from_every_initial(&mut self, f: &StateFormula) -> Result<bool, EvalError> {
        let n = self.states.len();
        let mut pred: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, next) in self.succ.iter().enumerate() {
            for &j in next.iter().chain((self.delay[i] != NONE).then_some(&self.delay[i])) {
                pred[j as usize].push(i as u32);
            }
        }
        let mut seen = vec![false; n];
        let mut stack = Vec::new();
        for (i, s) in seen.iter_mut().enumerate() {
            if self.sat(f, i)? {
                *s = true;
                stack.push(i);
            }
        }
        while let Some(j) = stack.pop() {
            for &i in &pred[j] {
                if !seen[i as usize] {
                    seen[i as usize] = true;
                    stack.push(i as usize);
                }
            }
        }
        Ok(seen[..self.initial_states].iter().all(|&s| s))
    }

    /// Some initial state reaches neither a state of `f` nor a run-time
    /// error: `E<> f` is violated there whatever else is reachable, and an
    /// engine that explores that initial state on its own settles
    /// `violated` without meeting an error (FORMAT.md, "Run-time errors":
    /// a verdict settled before the exploration met the error stands).
    pub fn violated_without_error(&mut self, f: &StateFormula) -> Result<bool, EvalError> {
        for i in 0..self.initial_states {
            let mut seen = vec![false; self.states.len()];
            let mut stack = vec![i];
            seen[i] = true;
            let mut clean = true;
            while let Some(j) = stack.pop() {
                if self.erred[j] || self.sat(f, j)? {
                    clean = false;
                    break;
                }
                let delay = (self.delay[j] != NONE).then_some(self.delay[j]);
                for k in self.succ[j].iter().copied().chain(delay) {
                    if !seen[k as usize] {
                        seen[k as usize] = true;
                        stack.push(k as usize);
                    }
                }
            }
            if clean {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Some state of `f` is reachable (from some initial state).
    pub fn reachable(&mut self, f: &StateFormula) -> Result<bool, EvalError> {
        for i in 0..self.states.len() {
            if self.sat(f, i)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// A readable state, for messages (for a region: its representative and
    /// the difference classes).
    pub fn show(&self, i: usize) -> String {
        let net = self.net;
        let s = &self.states[i];
        let (locs, data, clocks) = self.split(s);
        let mut out = Vec::new();
        for (p, l) in locs.iter().enumerate() {
            out.push(format!("{}.{}", net.processes[p].name, net.processes[p].locations[*l as usize].name));
        }
        for (sl, v) in net.slots.iter().zip(data) {
            out.push(format!("{}={v}", sl.name));
        }
        for (c, v) in net.clocks.iter().zip(clocks) {
            out.push(format!("{c}={}", *v as f64 / self.clocks.scale() as f64));
        }
        if let Clocks::Regions(r) = &self.clocks {
            if let Some(t) = r.tick_clock(clocks) {
                out.push(format!("(tick clock)={}", t as f64 / self.clocks.scale() as f64));
            }
            out.extend(r.show_classes(clocks, |a| net.clocks[a as usize - 1].to_string()));
        }
        out.join(" ")
    }

    /// The largest constant, past which clocks are capped (at `M + 1` on
    /// the integer grid).
    // Only tests/extremum_differential.rs asks.
    #[allow(dead_code)]
    pub fn max_constant(&self) -> i64 {
        self.max_const
    }

    /// Clock `x` (numbered from 1) in state `i` of a grid exploration, in
    /// units of `1/k` (capped past the largest constant: `k·M + 1`).
    #[allow(dead_code)]
    pub fn clock(&self, i: usize, x: u32) -> i64 {
        let (_, _, clocks) = self.split(&self.states[i]);
        clocks[x as usize - 1]
    }

    /// The integer expression `code` over the data of state `i`.
    #[allow(dead_code)]
    pub fn data(&mut self, i: usize, code: &kairos::network::Code) -> Result<i64, EvalError> {
        let s = self.states[i].clone();
        self.load_locs(&s);
        code.eval(&self.locs, &s[self.np..self.np + self.ns], &mut self.stack)
    }

    /// The first reachable state satisfying `f`, for messages.
    pub fn witness(&mut self, f: &StateFormula) -> Option<usize> {
        (0..self.states.len()).find(|&i| self.sat(f, i).unwrap_or(false))
    }
}
