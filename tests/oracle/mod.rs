//! An independent oracle for reachability in CLOSED timed automata (guards,
//! invariants and property atoms compare clocks with integer constants),
//! by explicit exploration of a discrete-time semantics.
//!
//! It shares only the front end with kairos: it reads the compiled
//! [`Network`] (locations, edges, compiled data `Code`, `ClockConstraint`s)
//! and compiled state formulas, and does its own transition enumeration,
//! clock arithmetic and normalisation. Nothing in `kairos::semantics`,
//! `kairos::engine` or `kairos::domain` is used.
//!
//! # Why discrete time is exact here
//!
//! Time advances by steps of `1/k` (the *granularity*; clocks are stored as
//! integers in units of `1/k`, constants are multiplied by `k`).
//!
//! 1. Every run of the discrete semantics is a run of the dense one: delays
//!    of `1/k` are real delays, and the invariants (convex: upper bounds) hold
//!    on a whole delay when they hold at both its ends.
//! 2. Conversely (digitisation, Henzinger–Manna–Pnueli 1992): in a closed
//!    automaton, rounding every time stamp of a dense run with the same
//!    threshold `ε` (down when its fractional part is `<= ε`, else up) gives
//!    a run again: rounding is monotone and commutes with adding integers, so
//!    `t - r <= c`, `t - r >= c` and `r' - r <= c` (clock and diagonal
//!    constraints, also with resets to constants and data-dependent bounds,
//!    fixed during a delay) survive it; urgency and committed locations
//!    depend on the discrete state only, and a zero delay stays zero. A dense
//!    run that ENDS on an integer valuation keeps that valuation (a clock's
//!    value `t - r` is an integer, so `t` and `r` round alike). With the
//!    constants scaled by `k`, the same holds for the grid `(1/k)Z`.
//! 3. Hence a valuation on the grid is reachable in discrete time iff it is
//!    reachable in dense time. Every reachable dense valuation lies in a
//!    zone of the exact zone graph, a closed zone with integer bounds `Z`.
//!    - `E<> φ` where no simple cycle of the DBM of a conjunct of φ's DNF
//!      can hold two strict bounds (at most one strict diagonal, and not a
//!      strict lower bound `x > c` with a strict upper bound `y < d`; a
//!      simple cycle passes the reference clock once): reading each `< c`
//!      as `<= c - 1` keeps `Z ∩ conjunct` non-empty (a cycle of weight
//!      `w >= 1` with one strict edge gets weight `w - 1 >= 0`), and a
//!      non-empty closed DBM with integer bounds has an integer point (every
//!      clock at its lower bound). So `k = 1` is exact. (Counter-example
//!      with two: `x > 2 and y < 3` where `x = y` holds only at 5/2.)
//!    - Any state formula (several strict atoms, `deadlock`): a non-empty
//!      zone with integer bounds over `n` clocks contains a point of the grid
//!      `(1/(n+1))Z`: keep the integer parts, map the (at most `n`) distinct
//!      fractional parts, in order, onto `1/(n+1), 2/(n+1), ...`; every
//!      difference `x - y` keeps its integer part and the sign of its
//!      fractional part, so it satisfies the same integer bounds. So
//!      `k = n + 1` is exact.
//! 4. `deadlock` (no discrete step now or after any allowed delay) at a grid
//!    point `v`: the delays `t` after which a given step is enabled form a
//!    closed interval whose ends are `c - v(x)`, i.e. grid values; so `v` is
//!    deadlocked densely iff it is deadlocked in the grid semantics, and the
//!    dense deadlocked set of a discrete state is a finite union of zones
//!    with integer bounds (the complement of the closed "enabled" zones).
//!    With integer time alone (`k = 1`) this is NOT exact: two steps enabled
//!    exactly when `x - y = 0` and `x - y = 1` leave `0 < x - y < 1`
//!    deadlocked, and no integer valuation has it. `not deadlock` is a union
//!    of closed zones, so it counts as closed.
//!
//! # Finiteness
//!
//! With `M` the largest constant (over the data ranges), a clock above `M`
//! satisfies the same non-diagonal constraints forever (until reset), so
//! clocks are capped at `M + 1`. With diagonal constraints that is unsound;
//! then valuations are normalised by the relation "same order of `0` and
//! the clocks, the same gaps between consecutive clocks capped at `M + 1`,
//! the same values capped at `M + R + 1`" (`R` the largest reset constant),
//! which is preserved by delays and resets (a reset puts a clock at
//! `c <= R`, and any clock at or above `M + R + 1` is then more than `M`
//! away from it) and decides every constraint with `|c| <= M`.

pub mod live;
pub mod random;

use indexmap::IndexSet;
use rustc_hash::FxBuildHasher;

use kairos::model::decl::OutOfRange;
use kairos::model::typed::Dir;
use kairos::network::{ChannelIndex, ClockConstraint, EvalError, Network, StateConj, StateFormula, Target, Update};

type States = IndexSet<Box<[i64]>, FxBuildHasher>;

const NONE: u32 = u32::MAX;

/// The strict clock atoms of one conjunct of a DNF, as far as they matter
/// for integer time: whether it has a strict lower bound (`x > c`), a strict
/// upper bound (`x < c`), and how many strict diagonals (capped at 2).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Shape {
    lower: bool,
    upper: bool,
    diagonals: u8,
}

impl Shape {
    const CLOSED: Shape = Shape { lower: false, upper: false, diagonals: 0 };
    const DEADLOCK: Shape = Shape { lower: true, upper: true, diagonals: 2 };

    /// The strict atom `x_i - x_j < b` (`negated`: of the negation of
    /// `x_i - x_j ≺ b`, i.e. `x_j - x_i ≺' -b`).
    fn atom(c: &ClockConstraint, negated: bool) -> Shape {
        let strict = c.strict != negated;
        let (i, j) = if negated { (c.j, c.i) } else { (c.i, c.j) };
        match (strict, i, j) {
            (false, ..) => Shape::CLOSED,
            (true, 0, _) => Shape { lower: true, ..Shape::CLOSED },
            (true, _, 0) => Shape { upper: true, ..Shape::CLOSED },
            (true, ..) => Shape { diagonals: 1, ..Shape::CLOSED },
        }
    }

    fn and(self, o: Shape) -> Shape {
        Shape {
            lower: self.lower || o.lower,
            upper: self.upper || o.upper,
            diagonals: (self.diagonals + o.diagonals).min(2),
        }
    }

    /// The most strict edges a simple cycle of the conjunct's DBM can hold:
    /// a simple cycle passes the reference clock once, so it uses at most
    /// one lower and one upper bound.
    fn cost(self) -> usize {
        self.lower as usize + self.upper as usize + self.diagonals as usize
    }
}

fn shapes(f: &StateFormula, positive: bool) -> Vec<Shape> {
    let mut out: Vec<Shape> = match f {
        StateFormula::Pred(conjs) if positive => {
            conjs.iter().map(|c| c.clocks.iter().fold(Shape::CLOSED, |s, k| s.and(Shape::atom(k, false)))).collect()
        }
        StateFormula::Pred(conjs) => {
            // not (c1 or c2 ...) = (not c1) and (not c2) ...; each `not cj`
            // is a disjunction of negated atoms (a negated data condition
            // has no clock atom).
            let mut acc = vec![Shape::CLOSED];
            for c in conjs {
                let mut options = vec![Shape::CLOSED];
                options.extend(c.clocks.iter().map(|k| Shape::atom(k, true)));
                acc = acc.iter().flat_map(|a| options.iter().map(|o| a.and(*o))).collect();
                dedup(&mut acc);
            }
            acc
        }
        // Deadlocked valuations need the fine grid; the enabled ones (not
        // deadlocked) form a union of closed zones.
        StateFormula::Deadlock => vec![if positive { Shape::DEADLOCK } else { Shape::CLOSED }],
        StateFormula::Not(a) => shapes(a, !positive),
        StateFormula::And(a, b) | StateFormula::Or(a, b) => {
            let (x, y) = (shapes(a, positive), shapes(b, positive));
            if matches!(f, StateFormula::And(..)) == positive {
                x.iter().flat_map(|a| y.iter().map(|b| a.and(*b))).collect()
            } else {
                x.into_iter().chain(y).collect()
            }
        }
    };
    dedup(&mut out);
    out
}

fn dedup(v: &mut Vec<Shape>) {
    let mut seen = Vec::with_capacity(v.len());
    v.retain(|s| {
        let new = !seen.contains(s);
        if new {
            seen.push(*s);
        }
        new
    });
}

/// How many strict edges a simple cycle may hold in a conjunct of the DNF
/// of `f` (of `not f` when `!positive`): with at most one, integer time is
/// exact for `E<> f` (see the module comment); `deadlock` in a positive
/// position counts as 4.
pub fn strict_atoms(f: &StateFormula, positive: bool) -> usize {
    shapes(f, positive).into_iter().map(Shape::cost).max().unwrap_or(0)
}

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

fn is_diagonal(c: &ClockConstraint) -> bool {
    c.i != 0 && c.j != 0
}

/// How clock valuations are kept finite (in units of `1/k`).
#[derive(Clone, Copy, Debug)]
enum Norm {
    /// Every clock at most `cap`.
    Cap(i64),
    /// Diagonal constraints: the gap relation of the module comment; `gap`
    /// is `M + 1`, `top` is `M + R + 1` (scaled).
    Gaps { gap: i64, top: i64 },
}

/// What one exploration is set up for.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Steps of `1/granularity` time units.
    pub granularity: i64,
    /// Give up beyond this many states.
    pub max_states: usize,
}

/// A network explored in discrete time.
pub struct Oracle<'n> {
    net: &'n Network,
    k: i64,
    norm: Norm,
    /// Largest constant (scaled): a bound beyond it would break the cap.
    max_const: i64,
    np: usize,
    ns: usize,
    states: States,
    /// Per state: some discrete step is possible from it.
    has_step: Vec<bool>,
    /// Per state: its successor by one time step (`NONE` when time cannot
    /// pass), possibly itself.
    delay: Vec<u32>,
    deadlock_memo: Vec<Option<bool>>,
    /// Per state: its successors by a discrete step (for `live`).
    succ: Vec<Vec<u32>>,
    /// The first `initial_states` states are the initial ones.
    initial_states: usize,
    /// The first run-time error met, described.
    pub error: Option<String>,
    stack: Vec<i64>,
    locs: Vec<u32>,
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
    /// Explores the whole discrete-time state space. `formulas` are the
    /// state formulas that will be asked (their constants count for the
    /// normalisation).
    pub fn explore(net: &'n Network, formulas: &[&StateFormula], config: Config) -> Result<Self, GaveUp> {
        let k = config.granularity;
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
        let m = constraints
            .iter()
            .map(|c| {
                let (lo, hi) = c.effective_range();
                lo.abs().max(hi.abs())
            })
            .max()
            .unwrap_or(0);
        let diagonal = constraints.iter().any(|c| is_diagonal(c));
        let norm =
            if diagonal { Norm::Gaps { gap: k * m + 1, top: k * (m + max_reset) + 1 } } else { Norm::Cap(k * m + 1) };
        let mut o = Oracle {
            net,
            k,
            norm,
            max_const: k * m,
            np: net.processes.len(),
            ns: net.slots.len(),
            states: States::default(),
            has_step: Vec::new(),
            delay: Vec::new(),
            deadlock_memo: Vec::new(),
            succ: Vec::new(),
            initial_states: 0,
            error: None,
            stack: Vec::new(),
            locs: vec![0; net.processes.len()],
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
            match o.expand(&s, &mut succ) {
                Ok((d, error)) => {
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
            o.has_step.push(has_step);
            o.delay.push(delay);
            next += 1;
        }
        o.deadlock_memo = vec![None; o.states.len()];
        Ok(o)
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
        let nc = net.clocks.len();
        let mut data: Vec<i64> = net.slots.iter().map(|s| s.init.0).collect();
        loop {
            let mut s: Vec<i64> = net.processes.iter().map(|p| p.initial as i64).collect();
            s.extend(&data);
            s.extend(std::iter::repeat_n(0, nc));
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

    /// `x_i - x_j ≺ bound` on the state's clocks (in units of `1/k`).
    fn holds(&mut self, c: &ClockConstraint, s: &[i64]) -> Result<bool, EvalError> {
        self.load_locs(s);
        let (_, data, clocks) = self.split(s);
        let b = c.bound.eval(&self.locs, data, &mut self.stack)?;
        let b = if c.negate { -b } else { b } * self.k;
        assert!(b.abs() <= self.max_const, "oracle: a clock bound {b} beyond the normalisation constant");
        let val = |i: u32| if i == 0 { 0 } else { clocks[i as usize - 1] };
        let d = val(c.i) - val(c.j);
        Ok(if c.strict { d < b } else { d <= b })
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

    fn normalise(&self, s: &mut [i64]) {
        let start = self.np + self.ns;
        let clocks = &mut s[start..];
        match self.norm {
            Norm::Cap(cap) => {
                for c in clocks.iter_mut() {
                    *c = (*c).min(cap);
                }
            }
            Norm::Gaps { gap, top } => {
                let mut order: Vec<usize> = (0..clocks.len()).collect();
                order.sort_by_key(|&i| clocks[i]);
                let (mut prev_old, mut prev_new) = (0i64, 0i64);
                for &i in &order {
                    let old = clocks[i];
                    let new = if old < top {
                        old
                    } else if old - prev_old < gap {
                        prev_new + (old - prev_old)
                    } else {
                        (prev_new + gap).max(top)
                    };
                    clocks[i] = new;
                    prev_old = old;
                    prev_new = new;
                }
            }
        }
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
                        combos = combos
                            .iter()
                            .flat_map(|prefix| {
                                g.iter().map(move |r| {
                                    let mut v = prefix.clone();
                                    v.push(*r);
                                    v
                                })
                            })
                            .collect();
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
                Some((_, Dir::Receive)) => {}
            }
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
        for &(p, e) in edges {
            for u in &net.processes[p].edges[e].updates {
                match u {
                    Update::Reset { clock, value } => t[base + *clock as usize - 1] = value * self.k,
                    Update::Data { target, value } => {
                        self.load_locs(&t);
                        let data = &t[self.np..base];
                        let v = value.eval(&self.locs, data, &mut self.stack).map_err(|x| self.describe(&x, edges))?;
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
        if !self.invariants_hold(&t).map_err(|x| self.describe(&x, edges))? {
            return Ok(None);
        }
        self.normalise(&mut t);
        Ok(Some(t.into_boxed_slice()))
    }

    /// The discrete successors of `s` into `out`, and its successor by one
    /// time step. A run-time error in a discrete step is returned beside
    /// the time successor: the engine tests the goal on a symbolic state,
    /// delays included, before expanding it, so time may still pass from a
    /// state whose discrete expansion fails (only the discrete steps are cut).
    #[allow(clippy::type_complexity)]
    fn expand(&mut self, s: &[i64], out: &mut Vec<Box<[i64]>>) -> Result<(Option<Box<[i64]>>, Option<String>), String> {
        out.clear();
        let enabled = self.enabled(s)?;
        let mut error = None;
        for t in self.steps(s, &enabled) {
            match self.fire(s, &t) {
                Ok(Some(n)) => out.push(n),
                Ok(None) => {}
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        if error.is_some() {
            out.clear();
        }
        if !self.can_delay(s, &enabled) {
            return Ok((None, error));
        }
        let mut d = s.to_vec();
        for c in &mut d[self.np + self.ns..] {
            *c += 1;
        }
        if !self.invariants_hold(&d).map_err(|x| format!("{x:?} in an invariant after a delay"))? {
            return Ok((None, error));
        }
        self.normalise(&mut d);
        Ok((Some(d.into_boxed_slice()), error))
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
    pub fn reachable(&mut self, f: &StateFormula) -> Result<bool, EvalError> {
        for i in 0..self.states.len() {
            if self.sat(f, i)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// A readable state, for messages.
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
            out.push(format!("{c}={}", *v as f64 / self.k as f64));
        }
        out.join(" ")
    }

    /// The first reachable state satisfying `f`, for messages.
    pub fn witness(&mut self, f: &StateFormula) -> Option<usize> {
        (0..self.states.len()).find(|&i| self.sat(f, i).unwrap_or(false))
    }
}
