//! A state formula kept along a run, at every point of it: the evidence of
//! `E[] φ` (φ throughout), `A<> ψ` violated (`not ψ` throughout), and the
//! bounded and until forms of both.
//!
//! A delay passes through infinitely many points, but a clock atom
//! `Σ a·x ≺ c` is affine in the time `s` waited, so its truth changes at
//! most once, at the `s` where the two sides meet. Between two such
//! *crossings* (of any atom of the formulas, or of the window's ends)
//! every atom keeps its value, and data do not change during a delay. So
//! the formulas are evaluated, in the order of the run, at each delay's
//! start and end, at each crossing inside it, and at one point strictly
//! between each two consecutive ones: that is every value they take, on
//! exact rationals, with the replay's own constraint test. A discrete step
//! takes no time: the states before and after it are both points.
//!
//! For a lasso, the loop's first pass is checked, and its repetitions are
//! covered by regions: when the loop's ends are region-equivalent for
//! constants that include the formula's (its atoms' bounds over the data
//! ranges), each repetition goes through the regions of the first pass in
//! the same order (region equivalence is a time-abstract bisimulation, see
//! [`super::validate`]; refined by the classes of the differences that the
//! model's diagonals and the formula's relate, [`super::region`]), and
//! every atom of the formula has one value on a region.

use num_traits::Zero;

use super::Replay;
use crate::model::formula::TimeBound;
use crate::model::typed::Cmp;
use crate::network::{ClockConstraint, Network, StateFormula};
use crate::trace::{ConcreteState, ConcreteTrace, Rational};

/// What a run must keep beyond being a run.
#[derive(Clone, Debug)]
pub struct Keeps {
    pub formula: StateFormula,
    /// Where on the run it is kept from (where the operator starts): after
    /// `from.0` steps (0: the initial state) and `from.1` into the delay
    /// that follows; `(0, 0)`, or the end of a path to the state the
    /// operator is about.
    pub from: (usize, Rational),
    /// Kept only at the points whose time since `from` meets the bound.
    pub within: Option<TimeBound>,
    /// Kept until the first point of this formula, which must come (a
    /// strong until); that point itself need not keep `formula`.
    pub until: Option<StateFormula>,
    /// Only a point of `until` whose time since `from` meets this bound
    /// ends the formula (`E[φ U[b] ψ]`: ψ within the bound, `φ or ψ` at
    /// every point before it, within the bound or not).
    pub until_within: Option<TimeBound>,
}

/// `Ok` when `trace` (which validates: [`super::validate`]) keeps `k`;
/// otherwise the first point where it does not, and why. A point where the
/// formula's value depends on `deadlock` (a property of the state's
/// futures, not of the point) is not held against it.
pub fn keeps(net: &Network, trace: &ConcreteTrace, k: &Keeps) -> Result<(), String> {
    let r = Replay { net };
    let rates = r.rates(trace)?;
    let mut atoms = Vec::new();
    collect_atoms(&k.formula, &mut atoms);
    if let Some(u) = &k.until {
        collect_atoms(u, &mut atoms);
    }
    let (n0, d0) = &k.from;
    if *n0 > trace.steps.len() {
        return Err(format!("the run has no step {n0} to keep the formula from"));
    }
    let from = trace.steps[..*n0].iter().fold(d0.clone(), |t, s| t + &s.delay);
    let mut walk = Walk { r: &r, k, atoms: &atoms, from, time: Rational::zero(), started: false, ignore_window: false };
    let mut at = trace.initial.clone();
    let delays = trace.steps.iter().map(|s| &s.delay).chain(std::iter::once(&trace.final_delay));
    let afters = trace.steps.iter().map(|s| Some(&s.after)).chain(std::iter::once(None));
    for (n, (delay, after)) in delays.zip(afters).enumerate() {
        let rate = rates.map(|r| &r[n][..]);
        let start = (n == *n0).then_some(d0);
        if walk
            .delay(&at, delay, rate, start)
            .map_err(|e| format!("during delay {} (before step {}): {e}", delay, n + 1))?
        {
            return Ok(());
        }
        let Some(after) = after else { break };
        if trace.loop_start == Some(n) && k.until.is_none() && walk.loop_matters(trace) {
            // The loop starts after this step (a progress mark): each of
            // its points stands for points of its repetitions, which may
            // lie inside the window.
            walk.ignore_window = true;
        }
        at = after.clone();
        if walk.point(&at).map_err(|e| format!("after step {}: {e}", n + 1))? {
            return Ok(());
        }
    }
    if k.until.is_some() {
        return Err("the run never reaches the point the formula is kept until".into());
    }
    match trace.loop_start {
        Some(l) if walk.ignore_window => repeats_keeping(net, trace, l, &atoms),
        _ => Ok(()),
    }
}

/// The loop's ends are region-equivalent for constants that include the
/// formula's, so its repetitions keep what its first pass keeps.
fn repeats_keeping(net: &Network, trace: &ConcreteTrace, l: usize, atoms: &[&ClockConstraint]) -> Result<(), String> {
    if net.hybrid.is_some() || atoms.iter().any(|c| c.linear.is_some()) {
        return Err("a formula with linear atoms cannot be checked on a loop's repetitions".into());
    }
    // The model's regions, refined by the formula's constants, and by the
    // classes of its diagonals' differences as by the model's (each such
    // clock's constant past the largest diagonal constant plus reset).
    let mut m = super::region::max_constants(net);
    let mut diffs = super::region::Differences::of(net);
    for c in atoms {
        let (lo, hi) = c.effective_range();
        let v = lo.saturating_abs().max(hi.saturating_abs());
        match (c.i as usize, c.j as usize) {
            (i, 0) | (0, i) => m[i - 1] = m[i - 1].max(v),
            (i, j) => {
                diffs.d = diffs.d.max(v);
                let pair = (i.min(j) - 1, i.max(j) - 1);
                if pair.0 != pair.1 && !diffs.pairs.contains(&pair) {
                    diffs.pairs.push(pair);
                }
            }
        }
    }
    let floor = diffs.d.saturating_add(super::region::max_reset(net));
    for &(i, j) in &diffs.pairs {
        m[i] = m[i].max(floor);
        m[j] = m[j].max(floor);
    }
    let (a, b) = (&trace.steps[l].after, &trace.last().clone());
    let same = super::region::equivalent_under(&m, &a.clocks, &b.clocks) && diffs.same(&a.clocks, &b.clocks);
    if a.discrete != b.discrete || !same {
        return Err("the loop's ends are not region-equivalent for the formula's constants".into());
    }
    Ok(())
}

fn collect_atoms<'f>(f: &'f StateFormula, out: &mut Vec<&'f ClockConstraint>) {
    match f {
        StateFormula::Pred(conjs) => out.extend(conjs.iter().flat_map(|c| &c.clocks)),
        StateFormula::Deadlock => {}
        StateFormula::Not(a) => collect_atoms(a, out),
        StateFormula::And(a, b) | StateFormula::Or(a, b) => {
            collect_atoms(a, out);
            collect_atoms(b, out);
        }
    }
}

struct Walk<'a, 'n> {
    r: &'a Replay<'n>,
    k: &'a Keeps,
    atoms: &'a [&'a ClockConstraint],
    /// The run's time where the formula starts being kept, and at the
    /// current point.
    from: Rational,
    time: Rational,
    /// Whether the current point is at or after `Keeps::from`.
    started: bool,
    /// Inside a loop whose repetitions may meet the window: every point.
    ignore_window: bool,
}

impl Walk<'_, '_> {
    /// Whether the loop's repetitions can have points inside the window:
    /// they start where the first pass ends, each at least a time unit
    /// later, so an upper bound already passed there rules them out.
    fn loop_matters(&self, trace: &ConcreteTrace) -> bool {
        let Some(b) = self.k.within else { return true };
        let end = trace.duration() - &self.from;
        let n = Rational::from_integer(b.value.into());
        match b.cmp {
            Cmp::Lt => end < n,
            Cmp::Le | Cmp::Eq => end <= n,
            Cmp::Ge | Cmp::Gt => true,
        }
    }

    /// Checks the points of a delay from `s` (rates `rate`, `None`: every
    /// clock at rate 1), from `start` into it on when the formula starts
    /// being kept there; `true` when the `until` point was met.
    fn delay(
        &mut self,
        s: &ConcreteState,
        delay: &Rational,
        rate: Option<&[Rational]>,
        start: Option<&Rational>,
    ) -> Result<bool, String> {
        let mut cuts: Vec<Rational> =
            self.atoms.iter().filter_map(|c| self.crossing(c, s, rate)).collect::<Result<_, _>>()?;
        // Where the formula starts being kept, and the window's end.
        cuts.extend(start.cloned());
        for b in self.k.within.iter().chain(&self.k.until_within) {
            cuts.push(&self.from + Rational::from_integer(b.value.into()) - &self.time);
        }
        cuts.retain(|c| *c > Rational::zero() && c < delay);
        cuts.push(Rational::zero());
        cuts.push(delay.clone());
        cuts.sort();
        cuts.dedup();
        let two = Rational::from_integer(2.into());
        let mut points = Vec::with_capacity(2 * cuts.len());
        for (i, c) in cuts.iter().enumerate() {
            if i > 0 {
                points.push((&cuts[i - 1] + c) / &two);
            }
            points.push(c.clone());
        }
        let start_time = self.time.clone();
        for t in points {
            self.started |= start.is_some_and(|s| t >= *s);
            self.time = &start_time + &t;
            let clocks = match rate {
                Some(r) => s.clocks.iter().zip(r).map(|(c, r)| c + &t * r).collect(),
                None => s.clocks.iter().map(|c| c + &t).collect(),
            };
            let here = ConcreteState { discrete: s.discrete.clone(), clocks };
            if self.point(&here).map_err(|e| format!("after waiting {t}: {e}"))? {
                return Ok(true);
            }
        }
        self.time = start_time + delay;
        Ok(false)
    }

    /// The delay `s > 0` at which `c` changes its value along the ray from
    /// `at`, if its two sides meet there.
    fn crossing(
        &self,
        c: &ClockConstraint,
        at: &ConcreteState,
        rate: Option<&[Rational]>,
    ) -> Option<Result<Rational, String>> {
        let b = match self.r.eval(&c.bound, &at.discrete) {
            Ok(b) => Rational::from_integer(if c.negate { -i128::from(b) } else { i128::from(b) }.into()),
            Err(e) => return Some(Err(e)),
        };
        let value = |k: u32| if k == 0 { Rational::zero() } else { at.clocks[k as usize - 1].clone() };
        let speed = |k: u32| match (k, rate) {
            (0, _) => Rational::zero(),
            (_, Some(r)) => r[k as usize - 1].clone(),
            (_, None) => Rational::from_integer(1.into()),
        };
        let (lhs, slope, b) = match &c.linear {
            Some(l) => {
                let weigh = |f: &dyn Fn(u32) -> Rational| {
                    l.terms.iter().fold(Rational::zero(), |s, &(k, a)| s + Rational::from_integer(a.into()) * f(k))
                };
                (weigh(&value), weigh(&speed), b + &l.offset)
            }
            None => (value(c.i) - value(c.j), speed(c.i) - speed(c.j), b),
        };
        (!slope.is_zero()).then(|| Ok((b - lhs) / slope))
    }

    /// Checks one point at the current time; `true` when it is the `until`
    /// point.
    fn point(&self, s: &ConcreteState) -> Result<bool, String> {
        if !self.started {
            return Ok(false);
        }
        let since = &self.time - &self.from;
        if let Some(u) = &self.k.until
            && self.k.until_within.is_none_or(|b| meets(&since, b))
            && self.r.satisfies(u, s)? == Some(true)
        {
            return Ok(true);
        }
        let inside = self.ignore_window || self.k.within.is_none_or(|b| meets(&since, b));
        if inside && self.r.satisfies(&self.k.formula, s)? == Some(false) {
            return Err(format!(
                "the formula fails at {} (time {})",
                crate::trace::text::state(self.r.net, s),
                self.time
            ));
        }
        Ok(false)
    }
}

/// `t ~ n`.
fn meets(t: &Rational, b: TimeBound) -> bool {
    let n = Rational::from_integer(b.value.into());
    match b.cmp {
        Cmp::Lt => *t < n,
        Cmp::Le => *t <= n,
        Cmp::Eq => *t == n,
        Cmp::Ge => *t >= n,
        Cmp::Gt => *t > n,
    }
}
