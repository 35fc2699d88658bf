//! `Sat(φ)` bottom-up: every subformula's set of states, as a map over the
//! space at the model's clocks (level 0). Time bounds are measured by a
//! formula clock `z` appended for the operator (level 1, started at 0 and
//! projected away again), so bounded operators nest freely.

use crate::domain::federation::Federation;
use crate::domain::zone::Bound;
use crate::engine::Unknown;
use crate::engine::tctl::fixpoint::Fixpoints;
use crate::engine::tctl::pre::{Map, at_zero, intersect, lift, reduced, union};
use crate::model::formula::{Formula, TimeBound};
use crate::model::typed::Cmp;
use crate::model::types::Property;
use crate::network::Network;
use crate::semantics::{RunError, ZoneGraph, ZoneState};
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

pub struct Evaluator<'a, 'n, 's, 'w> {
    pub fix: Fixpoints<'s, 'w>,
    pub zg: &'a mut ZoneGraph<'n>,
    pub property: &'a Property,
    pub net: &'n Network,
    /// The states with a time-divergent run, once computed.
    divergent: Option<Map>,
    /// Every subformula's set, once computed: evidence asks again for the
    /// sets of the subformulas on the way to the one it blames.
    known: Vec<(Formula, Map)>,
}

impl<'a, 'n, 's, 'w> Evaluator<'a, 'n, 's, 'w> {
    /// `divergent`: the states with a time-divergent run, when an earlier
    /// property of the run computed them ([`super::Cache`]).
    pub fn new(
        fix: Fixpoints<'s, 'w>,
        zg: &'a mut ZoneGraph<'n>,
        property: &'a Property,
        net: &'n Network,
        divergent: Option<Map>,
    ) -> Self {
        Evaluator { fix, zg, property, net, divergent, known: Vec::new() }
    }

    /// The states with a time-divergent run, if computed (or given).
    pub fn divergent_computed(&mut self) -> Option<Map> {
        self.divergent.take()
    }

    /// The states with a time-divergent run (`EG true`).
    pub fn divergent(&mut self) -> Result<Map, Stop> {
        if self.divergent.is_none() {
            self.divergent = Some(self.fix.divergent(0)?);
        }
        Ok(self.divergent.clone().expect("just computed"))
    }

    fn not(&mut self, level: usize, x: &Map) -> Map {
        self.fix.layer(level).complement(x)
    }

    /// The complement of a level-0 map (within the invariants).
    pub fn not_at_zero(&mut self, x: &Map) -> Map {
        self.not(0, x)
    }

    pub fn sat(&mut self, f: &Formula) -> Result<Map, Stop> {
        if let Some((_, m)) = self.known.iter().find(|(g, _)| g == f) {
            return Ok(m.clone());
        }
        let m = self.compute(f)?;
        self.known.push((f.clone(), m.clone()));
        Ok(m)
    }

    fn compute(&mut self, f: &Formula) -> Result<Map, Stop> {
        Ok(match f {
            Formula::State(_) => self.atom(f)?,
            Formula::Deadlock => self.deadlock(),
            Formula::Not(a) => {
                let a = self.sat(a)?;
                self.not(0, &a)
            }
            Formula::And(a, b) => intersect(&self.sat(a)?, &self.sat(b)?),
            Formula::Or(a, b) => union(&self.sat(a)?, &self.sat(b)?),
            Formula::Imply(a, b) => {
                let a = self.sat(a)?;
                let not_a = self.not(0, &a);
                union(&not_a, &self.sat(b)?)
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

    /// A predicate over locations, data and clocks, per discrete state.
    fn atom(&mut self, f: &Formula) -> Result<Map, Stop> {
        let pred =
            self.net.state_formula(self.property, f).map_err(|d| Stop::Unknown(Unknown::Unsupported(d.message)))?;
        let space = self.fix.space;
        let mut out = Vec::with_capacity(space.len());
        for (d, inv) in space.invariant.iter().enumerate() {
            let s = ZoneState { discrete: space.discrete(d as u32).clone(), zone: inv.clone() };
            out.push(reduced(self.zg.sat(&pred, &s).map_err(Stop::Error)?));
        }
        Ok(out)
    }

    /// The valuations from which no discrete step is possible, now or after
    /// any delay: the complement of the timed predecessor of the sources of
    /// the steps (guard, and resets into the target invariant).
    fn deadlock(&mut self) -> Map {
        let space = self.fix.space;
        let layer = self.fix.layer(0);
        let mut out = Vec::with_capacity(space.len());
        for d in 0..space.len() {
            let mut enabled = Federation::empty();
            for &id in &space.outgoing[d] {
                let step = &space.steps[id as usize];
                let target = Federation::from_zone(layer.invariant[step.to as usize].clone());
                enabled = enabled.union(layer.pre_step(id, step, &target));
            }
            let live = layer.pre_time(space, d, &enabled, &Federation::empty());
            out.push(reduced(live.complement_within(&layer.invariant[d])));
        }
        out
    }

    /// `EF[b] goal` over run prefixes.
    fn eventually(&mut self, bound: Option<TimeBound>, goal: &Map) -> Result<Map, Stop> {
        let all = self.fix.layer(0).all();
        self.exists_until_within(bound, &all, goal)
    }

    /// `E[lhs U[b] rhs]`: some run reaches `rhs` (at a time within the
    /// bound) with `lhs or rhs` at every earlier point.
    fn exists_until(&mut self, bound: Option<TimeBound>, lhs: &Map, rhs: &Map) -> Result<Map, Stop> {
        let stay = union(lhs, rhs);
        self.exists_until_within(bound, &stay, rhs)
    }

    fn exists_until_within(&mut self, bound: Option<TimeBound>, stay: &Map, goal: &Map) -> Result<Map, Stop> {
        let (level, stay, goal) = self.until_maps(bound, stay, goal);
        let found = self.fix.until(level, &stay, &goal)?;
        Ok(if level == 0 { found } else { at_zero(&found, self.fix.layer(1).dim) })
    }

    /// `E[stay U[b] goal]` as the least fixpoint it is computed by: its
    /// level (1 with the formula clock, started at 0, when bounded), and
    /// the sets there (the goal's points within the bound).
    pub fn until_maps(&mut self, bound: Option<TimeBound>, stay: &Map, goal: &Map) -> (usize, Map, Map) {
        let Some(b) = bound else { return (0, stay.clone(), goal.clone()) };
        let dim = self.fix.layer(1).dim;
        let timed: Map = lift(goal, 1).iter().map(|f| within(f, dim - 1, b)).collect();
        (1, lift(stay, 1), timed)
    }

    /// `EG[b] phi` over time-divergent runs: `phi` at every point whose
    /// time is within the bound.
    fn always(&mut self, bound: Option<TimeBound>, phi: &Map) -> Result<Map, Stop> {
        let runs = self.always_runs(bound, phi)?;
        Ok(runs.at_start(self))
    }

    /// The runs that keep `EG[b] phi`. Unbounded: the greatest fixpoint.
    /// For `< n`, `<= n` and `== n` the bound ends: some run keeps `phi or
    /// not z ~ n` until a point past it (`z >= n`, `z > n`, `z > n`) from
    /// which time can diverge; a least fixpoint. For `>= n` and `> n`, a
    /// divergent run relaxed before the bound, a greatest one.
    pub fn always_runs(&mut self, bound: Option<TimeBound>, phi: &Map) -> Result<Runs, Stop> {
        let Some(b) = bound else {
            let holds = self.fix.always_divergent(0, phi)?;
            return Ok(Runs { level: 0, prefix: None, cycle: holds.clone(), holds });
        };
        let dim = self.fix.layer(1).dim;
        let all = self.fix.layer(1).all();
        let outside: Map = all.iter().map(|f| outside(f, dim - 1, b)).collect();
        let relaxed = union(&lift(phi, 1), &outside);
        let past = match b.cmp {
            Cmp::Lt => Some(TimeBound { cmp: Cmp::Ge, value: b.value }),
            Cmp::Le | Cmp::Eq => Some(TimeBound { cmp: Cmp::Gt, value: b.value }),
            Cmp::Ge | Cmp::Gt => None,
        };
        Ok(match past {
            Some(past) => {
                let divergent = lift(&self.divergent()?, 1);
                let goal: Map = divergent.iter().map(|f| within(f, dim - 1, past)).collect();
                let stay = union(&relaxed, &goal);
                let holds = self.fix.until(1, &stay, &goal)?;
                Runs { level: 1, prefix: Some((stay, goal)), cycle: divergent, holds }
            }
            None => {
                let holds = self.fix.always_divergent(1, &relaxed)?;
                Runs { level: 1, prefix: None, cycle: holds.clone(), holds }
            }
        })
    }

    /// `A[lhs U[b] rhs]` over time-divergent runs.
    fn all_until(&mut self, bound: Option<TimeBound>, lhs: &Map, rhs: &Map) -> Result<Map, Stop> {
        let (early, never) = self.until_failures(bound, lhs, rhs)?;
        let level = early.level;
        let fails = union(&early.holds, &never.holds);
        let holds = self.not(level, &fails);
        Ok(if level == 1 { at_zero(&holds, self.fix.layer(1).dim) } else { holds })
    }

    /// The two ways `A[lhs U[b] rhs]` fails. With `rhs'` the points of
    /// `rhs` within the bound: a divergent run meets a point of `not lhs
    /// and not rhs` before any point of `rhs'` and can go on diverging from
    /// there (`early`), or never meets `rhs'` (`never`, `EG not rhs'`).
    pub fn until_failures(&mut self, bound: Option<TimeBound>, lhs: &Map, rhs: &Map) -> Result<(Runs, Runs), Stop> {
        let divergent = self.divergent()?;
        let neither = intersect(&intersect(&self.not(0, lhs), &self.not(0, rhs)), &divergent);
        let (level, lift_by) = if bound.is_some() { (1, 1) } else { (0, 0) };
        let dim = self.fix.layer(level).dim;
        let goal = match bound {
            None => rhs.clone(),
            Some(b) => lift(rhs, 1).iter().map(|f| within(f, dim - 1, b)).collect(),
        };
        let not_goal = self.not(level, &goal);
        let failed = lift(&neither, lift_by);
        let early = self.fix.until(level, &not_goal, &failed)?;
        let early =
            Runs { level, prefix: Some((not_goal.clone(), failed)), cycle: lift(&divergent, lift_by), holds: early };
        let never = self.fix.always_divergent(level, &not_goal)?;
        Ok((early, Runs { level, prefix: None, cycle: never.clone(), holds: never }))
    }

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
pub struct Runs {
    pub level: usize,
    pub prefix: Option<(Map, Map)>,
    pub cycle: Map,
    pub holds: Map,
}

impl Runs {
    /// `holds` where the operator starts (its formula clock at 0).
    fn at_start(self, eval: &mut Evaluator<'_, '_, '_, '_>) -> Map {
        if self.level == 0 { self.holds } else { at_zero(&self.holds, eval.fix.layer(1).dim) }
    }
}

/// The largest finite constant of a zone's bounds, in absolute value.
fn largest_in(z: &crate::domain::zone::Dbm) -> i64 {
    let n = z.dim();
    let bounds = (0..n).flat_map(|i| (0..n).map(move |j| z.bound(i, j)));
    bounds.filter(|b| b.is_finite()).map(|b| i64::from(b.value()).abs()).max().unwrap_or(0)
}

/// `f ∩ {z ~ n}`, z the clock at index `z`.
fn within(f: &Federation, z: usize, b: TimeBound) -> Federation {
    let n = b.value as i32;
    match b.cmp {
        Cmp::Lt => f.constrain(z, 0, Bound::lt(n)),
        Cmp::Le => f.constrain(z, 0, Bound::le(n)),
        Cmp::Eq => f.constrain(z, 0, Bound::le(n)).constrain(0, z, Bound::le(-n)),
        Cmp::Ge => f.constrain(0, z, Bound::le(-n)),
        Cmp::Gt => f.constrain(0, z, Bound::lt(-n)),
    }
}

/// `f ∩ {not z ~ n}`.
fn outside(f: &Federation, z: usize, b: TimeBound) -> Federation {
    let n = b.value as i32;
    match b.cmp {
        Cmp::Lt => f.constrain(0, z, Bound::le(-n)),
        Cmp::Le => f.constrain(0, z, Bound::lt(-n)),
        Cmp::Eq => f.constrain(z, 0, Bound::lt(n)).union(f.constrain(0, z, Bound::lt(-n))),
        Cmp::Ge => f.constrain(z, 0, Bound::lt(n)),
        Cmp::Gt => f.constrain(z, 0, Bound::le(n)),
    }
}
