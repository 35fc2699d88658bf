//! Lassos from the fixpoint engine's sets: a concrete, time-divergent run
//! for an `EG[b] φ` witness, an `AF[b] ψ` counterexample (an `EG[b] not ψ`
//! witness) and an `A[φ U[b] ψ]` counterexample.
//!
//! # Why not a cycle search
//!
//! The sets already hold the cycle: `S = Sat(EG φ)` is the greatest
//! fixpoint of `X = φ ∩ E[φ U (X ∧ u >= 1)]|u=0` ([`super::fixpoint`]),
//! and every point of a divergent φ-run is in S (its suffix is one). So
//! from any point of S some run stays inside S and lets one time unit
//! pass (`u >= 1`) to a point of S again: `(v, u = 0) ∈ T`, with
//! `T = E[S U (S ∧ u >= 1)]`. A cycle search over zones split by S's members would find
//! again what the fixpoint found, and its zones would have to be cut at
//! the members' open boundaries (a delay from `x < 3` into `x >= 3` leaves
//! one member for another without a point in both). Instead the run is
//! built concretely, by walking down the least fixpoint T:
//!
//! - T is computed by rank ([`Fixpoints::until_ranked`]); from a point of
//!   rank k > 0, a delay whose whole segment stays in S ([`ray`]: the
//!   delays along a ray form an interval per member, joined where they
//!   touch) and a discrete step lead into rank k - 1; from rank 0 a delay
//!   inside S leads into `S ∧ u >= 1`. Such a delay and step exist by the
//!   construction of the rank, and are picked with exact rationals, the
//!   least with the smallest power-of-two denominator ([`Interval::pick`]).
//! - Each such *pass* ends in S with at least one time unit elapsed; a
//!   progress mark is put there and `u` reset, and the next pass begins.
//! - The passes end when the state after a mark has the same discrete
//!   state as after an earlier one, and region-equivalent clocks for the
//!   constants `M`: the largest of the model's, the formula's bounds, and
//!   every set's members (the termination argument of [`super`]: every
//!   set is a union of regions for them). There are finitely many regions,
//!   so some two marks meet within their number of passes (bounded here by
//!   [`MAX_PASSES`]; the choice of points is deterministic and coarse, so
//!   a pass usually repeats at once).
//!
//! Why the lasso is a witness: the stretch between the two marks is a loop
//! the trace validator accepts (its ends are region-equivalent for the
//! model's constants too, and a time unit passes between marks), so it
//! repeats forever with time diverging. Every point of its first pass is
//! in S (checked below, with the federation's own point test at every
//! state and the segment test of [`ray`] on every delay), and a repetition
//! passes through the same regions (region equivalence is a time-abstract
//! bisimulation), which lie in S since S is a union of regions for M. S ⊆
//! φ, so φ holds at every point of the infinite run.
//!
//! Bounded forms and `A[U]` add a prefix (see [`Runs`]): `EG[<= n] φ`
//! walks `E[(φ or z > n) U (z > n ∧ divergent)]` down to a point past the
//! bound, then loops in the states with a divergent run (`EG true`); `EG[>=
//! n]` loops in its own greatest fixpoint, with the formula clock `z` as
//! one more clock (never reset, so soon above its constant); `A[φ U ψ]`
//! fails on a run that stays in `not ψ` forever (a loop in `EG not ψ`) or
//! that reaches `not φ and not ψ` first and diverges from there.
//!
//! With diagonal constraints the marks compare regions refined by the
//! class of every difference (up to the largest constant of the model and
//! the sets, each clock's constant raised past it plus the largest reset
//! value): a time-abstract bisimulation for `x - y ≺ c` too, as the
//! validator's loop check ([`crate::trace::validate`]) takes it.

use num_traits::Zero;

use super::fixpoint::Fixpoints;
use super::pre::{Layer, Map, lift};
use super::ray::{self, Interval};
use super::sat::Runs;
use super::space::Space;
use crate::domain::federation::Federation;
use crate::domain::zone::{Bound, Dbm};
use crate::engine::SymbolicTrace;
use crate::model::formula::Formula;
use crate::network::Network;
use crate::semantics::{Transition, ZoneState};
use crate::trace::validate::Keeps;
use crate::trace::validate::region;
use crate::trace::{ConcreteState, ConcreteStep, ConcreteTrace, Rational};

/// Most passes tried before giving up the lasso (the verdict stands).
const MAX_PASSES: usize = 64;

/// A run under construction: its steps so far and where it is, every
/// clock of the level and the tick clock `u` last (`v[0] = 0`, the
/// reference clock, as a DBM indexes them).
struct Walk<'a> {
    space: &'a Space,
    /// Where the run starts, on every clock of `v`.
    initial: ConcreteState,
    steps: Vec<ConcreteStep>,
    /// The delay waited since the last step.
    pending: Rational,
    d: u32,
    v: Vec<Rational>,
    /// Where the walk started: after how many steps, and how far into the
    /// delay that follows.
    started: (usize, Rational),
    /// Whether every point so far lay in the sets walked through.
    inside: bool,
}

impl<'a> Walk<'a> {
    /// A walk from `start`, with the `dim - 1` clocks of the level and the
    /// tick clock (states hold `dim` clocks); the clocks past a path's are
    /// 0 where the walk starts. `None` when the path ends outside the
    /// space.
    fn new(space: &'a Space, start: Start<'_>, dim: usize) -> Option<Walk<'a>> {
        let zeros = |n: usize| vec![Rational::zero(); n];
        let padded = |s: &ConcreteState| {
            let mut clocks = s.clocks.clone();
            clocks.resize(dim, Rational::zero());
            ConcreteState { discrete: s.discrete.clone(), clocks }
        };
        Some(match start {
            Start::Initial(d) => Walk {
                space,
                initial: ConcreteState { discrete: space.discrete(d).clone(), clocks: zeros(dim) },
                steps: Vec::new(),
                pending: Rational::zero(),
                d,
                v: zeros(dim + 1),
                started: (0, Rational::zero()),
                inside: true,
            },
            Start::Path(p) => {
                let end = p.end();
                // The reference clock, the model's, the formula clock, `u`.
                let mut v = zeros(1);
                v.extend(padded(&end).clocks);
                Walk {
                    space,
                    initial: padded(&p.initial),
                    steps: p
                        .steps
                        .iter()
                        .map(|s| ConcreteStep {
                            delay: s.delay.clone(),
                            transition: s.transition.clone(),
                            after: padded(&s.after),
                        })
                        .collect(),
                    pending: p.final_delay.clone(),
                    d: space.states.get_index_of(&end.discrete)? as u32,
                    v,
                    started: (p.steps.len(), p.final_delay.clone()),
                    inside: true,
                }
            }
        })
    }
}

impl Walk<'_> {
    fn wait(&mut self, t: Rational) {
        for c in &mut self.v[1..] {
            *c += &t;
        }
        self.pending += t;
    }

    fn record(&mut self, transition: Transition) {
        let after = ConcreteState { discrete: self.space.discrete(self.d).clone(), clocks: self.v[1..].to_vec() };
        let delay = std::mem::replace(&mut self.pending, Rational::zero());
        self.steps.push(ConcreteStep { delay, transition, after });
    }

    fn take(&mut self, id: u32) {
        let step = &self.space.steps[id as usize];
        for &(x, value) in &step.resets {
            self.v[x] = Rational::from_integer(i64::from(value).into());
        }
        self.d = step.to;
        self.record(step.transition.clone());
    }

    /// A progress mark: a step without edges, `u` reset.
    fn mark(&mut self) {
        self.record(Transition { edges: Vec::new(), out: Vec::new(), unless: Vec::new() });
        let u = self.v.len() - 1;
        self.v[u] = Rational::zero();
    }

    /// The delays allowed here that keep the segment inside `stay`.
    fn safe(&self, stay: &Federation) -> Option<Interval> {
        let d = self.d as usize;
        let along = ray::staying_in(stay, &self.v)?;
        Some(if self.space.delay[d] { along } else { along.intersect(&Interval::now()) })
    }

    /// Waits `t` (inside `safe`), checking that the point reached is in
    /// `stay` with the federation's own point test.
    fn wait_inside(&mut self, t: Rational, stay: &Federation) {
        self.inside &= contains(stay, &self.v);
        self.wait(t);
        self.inside &= contains(stay, &self.v);
    }

    /// Walks from the current point (in some rank) down to `goal`, staying
    /// in `stay`; ends right after the delay into `goal`. `None` if the
    /// point is in no rank or no way down is found (a bug elsewhere).
    fn descend(&mut self, layer: &Layer, ranks: &[Map], stay: &Map, goal: &Map) -> Option<()> {
        loop {
            let d = self.d as usize;
            let k = (0..ranks.len()).find(|&k| member(&ranks[k][d], &self.v))?;
            let safe = self.safe(&stay[d])?;
            if k == 0 {
                let t = goal[d].zones.iter().find_map(|z| within(z, &self.v, &safe))?;
                self.wait_inside(t, &stay[d]);
                return Some(());
            }
            let (t, id) = self.space.outgoing[d].iter().find_map(|&id| {
                let step = &self.space.steps[id as usize];
                let next = &ranks[k - 1][step.to as usize];
                if next.is_empty() {
                    return None;
                }
                let before = layer.pre_step(id, &step.resets, next).intersect(&stay[d]);
                before.zones.iter().find_map(|z| within(z, &self.v, &safe)).map(|t| (t, id))
            })?;
            self.wait_inside(t, &stay[d]);
            self.take(id);
        }
    }
}

impl Walk<'_> {
    /// The run walked, on the model's clocks (the formula clocks of
    /// `level` and the tick clock dropped, and the marks before `open`,
    /// their delays kept), validated; `None` when one of its points left
    /// the sets walked through or the replay refuses it (a bug elsewhere).
    fn into_run(self, net: &Network, open: Option<usize>, level: usize) -> Option<ConcreteTrace> {
        if !self.inside {
            debug_assert!(false, "a walked point outside the fixpoint's sets");
            return None;
        }
        let run = ConcreteTrace {
            initial: self.initial,
            steps: self.steps,
            final_delay: self.pending,
            loop_start: None,
            rates: None,
        };
        let run = crate::trace::lasso::without_ticks(&run, open, level + 1);
        crate::trace::validate(net, &run).ok()?;
        Some(run)
    }
}

/// The least nice delay into `z` allowed by `safe`.
fn within(z: &Dbm, v: &[Rational], safe: &Interval) -> Option<Rational> {
    let i = ray::delays_into(z, v)?.intersect(safe);
    (!i.is_empty()).then(|| i.pick())
}

/// Whether `v` lies in `f` (by the rays' intervals at delay 0).
pub(super) fn member(f: &Federation, v: &[Rational]) -> bool {
    f.zones.iter().any(|z| ray::delays_into(z, v).is_some_and(|i| i.contains(&Rational::zero())))
}

/// Whether `v` lies in `f`, by the federation's point test on `v` scaled
/// to integers (`false` where that overflows).
fn contains(f: &Federation, v: &[Rational]) -> bool {
    let dim = f.zones.first().map_or(1, Dbm::dim);
    let den = v[1..dim].iter().fold(num_bigint::BigInt::from(1), |acc, c| num_integer::Integer::lcm(&acc, c.denom()));
    let scaled: Option<Vec<i64>> =
        v[1..dim].iter().map(|c| i64::try_from(c.numer() * (&den / c.denom())).ok()).collect();
    match (scaled, i64::try_from(den)) {
        (Some(point), Ok(den)) => f.contains_point(&point, den),
        _ => false,
    }
}

/// Where a lasso starts.
pub enum Start<'t> {
    /// An initial discrete state, every clock 0.
    Initial(u32),
    /// The end of a concrete path (after its final delay), on the model's
    /// clocks: the lasso goes on from there.
    Path(&'t ConcreteTrace),
}

/// The lasso for `runs` from `start` (a point of `runs.holds` with the
/// formula clock at 0), as a trace made concrete, validated, and checked
/// to keep `keeps` (its `from` set to where the lasso starts); `None` when
/// a limit stops the sets it needs, when `start` is not in `runs.holds`,
/// or when no lasso is found within [`MAX_PASSES`] (then the verdict
/// stands without one).
pub fn lasso(
    net: &Network,
    fix: &mut Fixpoints<'_, '_>,
    runs: &Runs<Map>,
    start: Start<'_>,
    constants: Constants,
    keeps: Option<Keeps>,
) -> Option<SymbolicTrace> {
    let Constants { largest, diagonal } = constants;
    let space = fix.space;
    let level = runs.level;
    let dim = fix.layer(level).dim;
    // The cycle's passes, with the tick clock `u` appended.
    let stay = lift(&runs.cycle, 1);
    let goal: Map = stay.iter().map(|f| f.constrain(0, dim, Bound::le(-1))).collect();
    let ranks = fix.until_ranked(level + 1, &stay, &goal).ok()?;
    let prefix = match &runs.prefix {
        Some((s, g)) => Some((fix.until_ranked(level, s, g).ok()?, s, g)),
        None => None,
    };
    let mut walk = Walk::new(space, start, dim)?;
    if !member(&runs.holds[walk.d as usize], &walk.v) {
        return None;
    }
    let keeps = keeps.map(|k| Keeps { from: walk.started.clone(), ..k });
    if let Some((ranks, s, g)) = &prefix {
        walk.descend(fix.layer(level), ranks, s, g)?;
    }
    // Region constants: the model's, and every set's (clocks past the
    // model's: the formula clock). With diagonals (in the model or the
    // formula), the class of every
    // difference too, up to the largest of those constants, each clock's
    // constant raised past it plus the largest reset ([`region`]): finer
    // than the validator's regions, so a time-abstract bisimulation still,
    // and one every set (diagonal atoms included) is a union of classes of.
    let diffs = if diagonal {
        let pairs = (0..dim - 1).flat_map(|i| (i + 1..dim - 1).map(move |j| (i, j))).collect();
        region::Differences { pairs, d: region::Differences::of(net).d.max(largest) }
    } else {
        region::Differences::default()
    };
    let floor = if diagonal { diffs.d.saturating_add(region::max_reset(net)) } else { 1 };
    let model = region::max_constants(net);
    let m: Vec<i64> = (1..dim).map(|k| model.get(k - 1).copied().unwrap_or(1).max(largest).max(floor)).collect();
    let mut marks: Vec<(u32, Vec<Rational>, usize)> = Vec::new();
    for _ in 0..=MAX_PASSES {
        walk.mark();
        let here = walk.v[1..dim].to_vec();
        let same = |v: &[Rational]| region::equivalent_under(&m, v, &here) && diffs.same(v, &here);
        let seen = marks.iter().find(|(d, v, _)| *d == walk.d && same(v));
        if let Some(&(_, _, open)) = seen {
            return finish(net, walk, open, level, keeps.as_ref());
        }
        marks.push((walk.d, here, walk.steps.len() - 1));
        walk.descend(fix.layer(level + 1), &ranks, &stay, &goal)?;
    }
    None
}

/// The lasso whose loop starts at the mark `steps[open]`, on the model's
/// clocks, validated and checked against `keeps`; as a trace the fixpoint
/// engine gives.
fn finish(net: &Network, walk: Walk<'_>, open: usize, level: usize, keeps: Option<&Keeps>) -> Option<SymbolicTrace> {
    let run = walk.into_run(net, Some(open), level)?;
    if let Some(k) = keeps
        && let Err(e) = crate::trace::validate::keeps(net, &run, k)
    {
        debug_assert!(false, "a lasso that does not keep its formula: {e}");
        return None;
    }
    Some(made_concrete(net, run))
}

/// A run the engine made concrete, as the trace it gives (its zones are
/// the whole space: the run is only validated again, not solved).
pub fn made_concrete(net: &Network, run: ConcreteTrace) -> SymbolicTrace {
    let universe = |d: &crate::semantics::Discrete| ZoneState { discrete: d.clone(), zone: Dbm::universe(net.dim()) };
    let mut states = vec![universe(&run.initial.discrete)];
    states.extend(run.steps.iter().map(|s| universe(&s.after.discrete)));
    SymbolicTrace {
        goal: Federation::from_zone(states.last().expect("a state").zone.clone()),
        states,
        steps: run.steps.iter().map(|s| s.transition.clone()).collect(),
        target: None,
        error: None,
        tick_clock: None,
        loop_start: run.loop_start,
        blame: None,
        concrete: Some(Box::new(run)),
    }
}

/// A run from the end of `start` (a point of `E[stay U goal]` at `level`,
/// its formula clock at 0) to a point of `goal`, down the until's ranks
/// as a lasso's passes go: the evidence of an `EF`, `E[U]` or failing
/// `AG` below the outermost operator. The run goes on from `start`'s
/// steps and ends at the goal's point (after its final delay), on the
/// model's clocks, validated; `None` when `start` is outside the until's
/// set or a limit stops its ranks.
pub fn path(
    net: &Network,
    fix: &mut Fixpoints<'_, '_>,
    level: usize,
    stay: &Map,
    goal: &Map,
    start: &ConcreteTrace,
) -> Option<ConcreteTrace> {
    let ranks = fix.until_ranked(level, stay, goal).ok()?;
    let mut walk = Walk::new(fix.space, Start::Path(start), fix.layer(level).dim)?;
    walk.descend(fix.layer(level), &ranks, stay, goal)?;
    walk.into_run(net, None, level)
}

/// What the regions of a lasso's marks are taken for: the largest constant
/// of the model's sets and the formula's bounds, and whether some
/// diagonal (of the model or of the formula) asks for the classes of the
/// differences too.
#[derive(Clone, Copy)]
pub struct Constants {
    pub largest: i64,
    pub diagonal: bool,
}

/// The largest bound of `f`'s operators.
pub fn largest_bound(f: &Formula) -> i64 {
    let here = |b: &Option<crate::model::formula::TimeBound>| b.map_or(0, |b| b.value.abs());
    match f {
        Formula::State(_) | Formula::Deadlock | Formula::Measure(_) => 0,
        Formula::Not(a) => largest_bound(a),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Imply(a, b) => largest_bound(a).max(largest_bound(b)),
        Formula::Path { bound, arg, .. } => here(bound).max(largest_bound(arg)),
        Formula::Until { bound, lhs, rhs, .. } | Formula::LeadsTo { bound, lhs, rhs } => {
            here(bound).max(largest_bound(lhs)).max(largest_bound(rhs))
        }
    }
}
