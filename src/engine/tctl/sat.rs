//! `Sat(φ)` bottom-up: every subformula's set of states, at the model's
//! clocks (level 0), over any representation of sets ([`Sets`]). Time
//! bounds are measured by a formula clock `z` appended for the operator
//! (level 1, started at 0 and projected away again), so bounded operators
//! nest freely.

use crate::engine::Unknown;
use crate::engine::tctl::explicit::Explicit;
use crate::engine::tctl::sets::Sets;
use crate::model::formula::{Formula, TimeBound};
use crate::model::typed::Cmp;
use crate::semantics::RunError;
use crate::syntax::ast::{PathOp, PathQuant};

/// Why `Sat` has no answer.
pub enum Stop {
    Unknown(Unknown),
    Error(RunError),
}

impl From<Unknown> for Stop {
    fn from(u: Unknown) -> Stop {
        Stop::Unknown(u)
    }
}

pub struct Evaluator<A: Sets> {
    pub sets: A,
    /// The states with a time-divergent run, once computed.
    divergent: Option<A::Set>,
    /// Every subformula's set, once computed: evidence asks again for the
    /// sets of the subformulas on the way to the one it blames.
    known: Vec<(Formula, A::Set)>,
}

impl<A: Sets> Evaluator<A> {
    /// `divergent`: the states with a time-divergent run, when an earlier
    /// property of the run computed them ([`super::Cache`]).
    pub fn new(sets: A, divergent: Option<A::Set>) -> Self {
        Evaluator { sets, divergent, known: Vec::new() }
    }

    /// The states with a time-divergent run, if computed (or given).
    pub fn divergent_computed(&mut self) -> Option<A::Set> {
        self.divergent.take()
    }

    /// The states with a time-divergent run (`EG true`).
    pub fn divergent(&mut self) -> Result<A::Set, Stop> {
        if self.divergent.is_none() {
            self.divergent = Some(self.sets.divergent(0)?);
        }
        Ok(self.divergent.clone().expect("just computed"))
    }

    fn not(&mut self, level: usize, x: &A::Set) -> A::Set {
        self.sets.not(level, x)
    }

    /// The complement of a level-0 set (within the invariants).
    pub fn not_at_zero(&mut self, x: &A::Set) -> A::Set {
        self.not(0, x)
    }

    pub fn sat(&mut self, f: &Formula) -> Result<A::Set, Stop> {
        if let Some((_, m)) = self.known.iter().find(|(g, _)| g == f) {
            return Ok(m.clone());
        }
        let m = self.compute(f)?;
        self.known.push((f.clone(), m.clone()));
        Ok(m)
    }

    fn compute(&mut self, f: &Formula) -> Result<A::Set, Stop> {
        Ok(match f {
            Formula::State(_) => self.sets.atom(f)?,
            Formula::Deadlock => self.sets.deadlock()?,
            Formula::Not(a) => {
                let a = self.sat(a)?;
                self.not(0, &a)
            }
            Formula::And(a, b) => {
                let (a, b) = (self.sat(a)?, self.sat(b)?);
                self.sets.intersect(&a, &b)
            }
            Formula::Or(a, b) => {
                let (a, b) = (self.sat(a)?, self.sat(b)?);
                self.sets.union(&a, &b)
            }
            Formula::Imply(a, b) => {
                let a = self.sat(a)?;
                let not_a = self.not(0, &a);
                let b = self.sat(b)?;
                self.sets.union(&not_a, &b)
            }
            Formula::Path { op, bound, arg } => {
                let arg = self.sat(arg)?;
                match op {
                    PathOp::EF => self.eventually(*bound, &arg)?,
                    PathOp::AG => {
                        let bad = self.not(0, &arg);
                        let reach = self.eventually(*bound, &bad)?;
                        self.not(0, &reach)
                    }
                    PathOp::EG => self.always(*bound, &arg)?,
                    PathOp::AF => {
                        let bad = self.not(0, &arg);
                        let keep = self.always(*bound, &bad)?;
                        self.not(0, &keep)
                    }
                }
            }
            Formula::Until { quant, bound, lhs, rhs } => {
                let (lhs, rhs) = (self.sat(lhs)?, self.sat(rhs)?);
                match quant {
                    PathQuant::E => self.exists_until(*bound, &lhs, &rhs)?,
                    PathQuant::A => self.all_until(*bound, &lhs, &rhs)?,
                }
            }
            Formula::Measure(m) => {
                let why = format!("`{}` is measured by the forward search, not the fixpoint engine", m.kind.word());
                return Err(Stop::Unknown(Unknown::Unsupported(why)));
            }
            Formula::LeadsTo { bound, lhs, rhs } => {
                let reacts = Formula::Path { op: PathOp::AF, bound: *bound, arg: rhs.clone() };
                let implied = Formula::Imply(lhs.clone(), Box::new(reacts));
                self.sat(&Formula::Path { op: PathOp::AG, bound: None, arg: Box::new(implied) })?
            }
        })
    }

    /// `EF[b] goal` over run prefixes.
    fn eventually(&mut self, bound: Option<TimeBound>, goal: &A::Set) -> Result<A::Set, Stop> {
        let all = self.sets.all(0);
        self.exists_until_within(bound, &all, goal)
    }

    /// `E[lhs U[b] rhs]`: some run reaches `rhs` (at a time within the
    /// bound) with `lhs or rhs` at every earlier point.
    fn exists_until(&mut self, bound: Option<TimeBound>, lhs: &A::Set, rhs: &A::Set) -> Result<A::Set, Stop> {
        let stay = self.sets.union(lhs, rhs);
        self.exists_until_within(bound, &stay, rhs)
    }

    fn exists_until_within(&mut self, bound: Option<TimeBound>, stay: &A::Set, goal: &A::Set) -> Result<A::Set, Stop> {
        let (level, stay, goal) = self.until_maps(bound, stay, goal);
        let found = self.sets.until(level, &stay, &goal)?;
        Ok(if level == 0 { found } else { self.sets.at_zero(0, &found) })
    }

    /// `E[stay U[b] goal]` as the least fixpoint it is computed by: its
    /// level (1 with the formula clock, started at 0, when bounded), and
    /// the sets there (the goal's points within the bound).
    pub fn until_maps(&mut self, bound: Option<TimeBound>, stay: &A::Set, goal: &A::Set) -> (usize, A::Set, A::Set) {
        let Some(b) = bound else { return (0, stay.clone(), goal.clone()) };
        let lifted = self.sets.lift(goal);
        let timed = self.sets.within(1, &lifted, b);
        (1, self.sets.lift(stay), timed)
    }

    /// `EG[b] phi` over time-divergent runs: `phi` at every point whose
    /// time is within the bound.
    fn always(&mut self, bound: Option<TimeBound>, phi: &A::Set) -> Result<A::Set, Stop> {
        let runs = self.always_runs(bound, phi)?;
        Ok(self.at_start(runs))
    }

    /// The runs that keep `EG[b] phi`. Unbounded: the greatest fixpoint.
    /// For `< n`, `<= n` and `== n` the bound ends: some run keeps `phi or
    /// not z ~ n` until a point past it (`z >= n`, `z > n`, `z > n`) from
    /// which time can diverge; a least fixpoint. For `>= n` and `> n`, a
    /// divergent run relaxed before the bound, a greatest one.
    pub fn always_runs(&mut self, bound: Option<TimeBound>, phi: &A::Set) -> Result<Runs<A::Set>, Stop> {
        let Some(b) = bound else {
            let holds = self.sets.always_divergent(0, phi)?;
            return Ok(Runs { level: 0, prefix: None, cycle: holds.clone(), holds });
        };
        let all = self.sets.all(1);
        let outside = self.sets.outside(1, &all, b);
        let lifted = self.sets.lift(phi);
        let relaxed = self.sets.union(&lifted, &outside);
        let past = match b.cmp {
            Cmp::Lt => Some(TimeBound { cmp: Cmp::Ge, value: b.value }),
            Cmp::Le | Cmp::Eq => Some(TimeBound { cmp: Cmp::Gt, value: b.value }),
            Cmp::Ge | Cmp::Gt => None,
        };
        Ok(match past {
            Some(past) => {
                let divergent = self.divergent()?;
                let divergent = self.sets.lift(&divergent);
                let goal = self.sets.within(1, &divergent, past);
                let stay = self.sets.union(&relaxed, &goal);
                let holds = self.sets.until(1, &stay, &goal)?;
                Runs { level: 1, prefix: Some((stay, goal)), cycle: divergent, holds }
            }
            None => {
                let holds = self.sets.always_divergent(1, &relaxed)?;
                Runs { level: 1, prefix: None, cycle: holds.clone(), holds }
            }
        })
    }

    /// `A[lhs U[b] rhs]` over time-divergent runs.
    fn all_until(&mut self, bound: Option<TimeBound>, lhs: &A::Set, rhs: &A::Set) -> Result<A::Set, Stop> {
        let (early, never) = self.until_failures(bound, lhs, rhs)?;
        let level = early.level;
        let fails = self.sets.union(&early.holds, &never.holds);
        let holds = self.not(level, &fails);
        Ok(if level == 1 { self.sets.at_zero(0, &holds) } else { holds })
    }

    /// The two ways `A[lhs U[b] rhs]` fails. With `rhs'` the points of
    /// `rhs` within the bound: a divergent run meets a point of `not lhs
    /// and not rhs` before any point of `rhs'` and can go on diverging from
    /// there (`early`), or never meets `rhs'` (`never`, `EG not rhs'`).
    #[allow(clippy::type_complexity)]
    pub fn until_failures(
        &mut self,
        bound: Option<TimeBound>,
        lhs: &A::Set,
        rhs: &A::Set,
    ) -> Result<(Runs<A::Set>, Runs<A::Set>), Stop> {
        let divergent = self.divergent()?;
        let (not_lhs, not_rhs) = (self.not(0, lhs), self.not(0, rhs));
        let neither = self.sets.intersect(&not_lhs, &not_rhs);
        let neither = self.sets.intersect(&neither, &divergent);
        let level = usize::from(bound.is_some());
        let goal = match bound {
            None => rhs.clone(),
            Some(b) => {
                let lifted = self.sets.lift(rhs);
                self.sets.within(1, &lifted, b)
            }
        };
        let not_goal = self.not(level, &goal);
        let (failed, cycle) = match level {
            0 => (neither, divergent),
            _ => (self.sets.lift(&neither), self.sets.lift(&divergent)),
        };
        let early = self.sets.until(level, &not_goal, &failed)?;
        let early = Runs { level, prefix: Some((not_goal.clone(), failed)), cycle, holds: early };
        let never = self.sets.always_divergent(level, &not_goal)?;
        Ok((early, Runs { level, prefix: None, cycle: never.clone(), holds: never }))
    }

    /// The time-locked states (outside `EG true`, however their zones are
    /// split), when some initial state reaches one.
    pub fn reachable_time_locks(&mut self) -> Result<Option<A::Set>, Stop> {
        let divergent = self.divergent()?;
        let locked = self.not(0, &divergent);
        let all = self.sets.all(0);
        let reaches = self.sets.until(0, &all, &locked)?;
        let never = self.not(0, &reaches);
        Ok(if self.sets.holds_initially(&never) { None } else { Some(locked) })
    }

    /// `holds` where the operator starts (its formula clock at 0).
    fn at_start(&mut self, runs: Runs<A::Set>) -> A::Set {
        if runs.level == 0 { runs.holds } else { self.sets.at_zero(0, &runs.holds) }
    }
}

impl Evaluator<Explicit<'_, '_, '_, '_>> {
    /// The largest constant of every set computed so far, for regions
    /// that every one of them is a union of (with the model's constants).
    pub fn largest_constant(&self) -> i64 {
        let maps = self.known.iter().map(|(_, m)| m).chain(self.divergent.as_ref());
        maps.flat_map(|m| m.iter().flat_map(|f| &f.zones)).map(largest_in).max().unwrap_or(0)
    }
}

/// How the runs behind an operator over divergent runs go, at the
/// operator's level (with its formula clock when bounded): from a state of
/// `holds`, a finite run inside `prefix.0` to `prefix.1` (when there is a
/// prefix), then a divergent run inside `cycle` forever; without a prefix,
/// `holds ⊆ cycle` and the run stays in `cycle` from the start.
pub struct Runs<T> {
    pub level: usize,
    pub prefix: Option<(T, T)>,
    pub cycle: T,
    pub holds: T,
}

/// The largest finite constant of a zone's bounds, in absolute value.
fn largest_in(z: &crate::domain::zone::Dbm) -> i64 {
    let n = z.dim();
    let bounds = (0..n).flat_map(|i| (0..n).map(move |j| z.bound(i, j)));
    bounds.filter(|b| b.is_finite()).map(|b| i64::from(b.value()).abs()).max().unwrap_or(0)
}
