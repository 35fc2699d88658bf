//! The range of a linear term over the reachable states (`kairos bound
//! MODEL --term T -q φ`): the exact supremum and infimum of `T` over every
//! valuation, at every time point, of every reachable state where `φ` holds,
//! and whether some state attains each.
//!
//! `T <= 0`, compiled as a state formula, is one constraint `L(x) ≤ R`: `L`
//! the terms over clocks and continuous variables, `R` the data part (an
//! integer code evaluated in each discrete state, plus the fixed parameters'
//! rational offset), with `T = L − R` (the type checker moves every constant
//! to the right without scaling). Over a set of valuations `sup T = sup L − R`
//! and `inf T = −(sup (−L)) − R`: one linear programme each (the exact
//! simplex on polyhedra, a DBM entry on zones, whose terms are `x`, `x − y`).
//!
//! The sets are those the forward search visits, cut by `φ` (`sat`); a set
//! dropped for a larger one adds nothing beyond it. They are exact on linear
//! networks (no abstraction: a run that does not converge ends at the
//! limits). Timed networks are explored with the LU abstraction where the
//! term's clocks get `L = U = 2^28`: the LU simulation then relates only
//! valuations with the same values of these clocks below `2^28` (as in the
//! worst-case measure of the parent module), so every value of `L` up to
//! `2^28` in an abstract zone is one of a reachable valuation, and an
//! abstract zone unbounded in `L` says only that `L` exceeds `2^28`
//! ([`Side::Beyond`]).
//!
//! [`measure`] is also the search of `sup`/`inf` queries
//! (`engine::extremum`), several terms at once, with its own bounds.

use std::time::Instant;

use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::domain::poly::{Poly, Q, Sup};
use crate::domain::zone::Dbm;
use crate::engine::reach::{self, Cover, End};
use crate::engine::{Domain, Options, Outcome, Stats, Verdict};
use crate::model::types::Property;
use crate::network::{ClockConstraint, Code, Network, StateConj, StateFormula};
use crate::semantics::{Abstraction, RunError, ZoneGraph, ZoneState};

use super::{MAX_BOUND, no_answer, unsupported};

/// One end of the range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Side {
    /// The exact bound, and whether some reachable valuation has it.
    Finite { value: Q, attained: bool },
    /// No bound: `+∞` for the supremum, `−∞` for the infimum.
    Infinite,
    /// Beyond `±2^28`, where the abstraction of a timed model stops telling
    /// values apart: infinite, or finite but beyond every constant.
    Beyond,
}

/// The range of `T` over the reachable `φ`-states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Range {
    pub sup: Side,
    pub inf: Side,
}

/// `T` as `L(x) − R`: `vars` the terms of `L`, `R` the evaluation of
/// `constraint`'s bound (signed) plus its offset.
pub(crate) struct Term {
    vars: Vec<(u32, i64)>,
    /// `vars` negated: `−L`.
    negated: Vec<(u32, i64)>,
    constraint: ClockConstraint,
}

impl Term {
    /// `Σ a·x − R` with `R = bound` (negated when `negate`).
    fn with(vars: Vec<(u32, i64)>, bound: Code, negate: bool) -> Term {
        let constraint = ClockConstraint { i: 0, j: 0, strict: false, bound, negate, range: (0, 0), linear: None };
        Term::of(vars, constraint)
    }

    fn of(vars: Vec<(u32, i64)>, constraint: ClockConstraint) -> Term {
        let negated = vars.iter().map(|&(v, a)| (v, -a)).collect();
        Term { vars, negated, constraint }
    }

    /// The clock or continuous variable `x`.
    pub(crate) fn var(x: u32) -> Term {
        Term::with(vec![(x, 1)], Code::constant(0), false)
    }

    /// An integer expression over the data: `L` empty, `R = −e`.
    pub(crate) fn data(e: Code) -> Term {
        Term::with(Vec::new(), e, true)
    }
}

/// The sets the range is measured on: the supremum of a term over one.
pub trait Extent: ClockSet {
    /// `sup Σ a_k·x_k` over the set; `None` where the domain cannot say
    /// (a term that is no difference, on zones).
    fn sup_of(&self, vars: &[(u32, i64)]) -> Option<Sup>;
}

impl Extent for Poly {
    fn sup_of(&self, vars: &[(u32, i64)]) -> Option<Sup> {
        Some(self.maximise_terms(vars))
    }
}

impl Extent for Dbm {
    fn sup_of(&self, vars: &[(u32, i64)]) -> Option<Sup> {
        // `x_p − x_n` with `x_0 = 0`.
        let (mut p, mut n) = (None, None);
        for &(v, a) in vars {
            let slot = match a {
                1 => &mut p,
                -1 => &mut n,
                _ => return None,
            };
            if slot.replace(v as usize).is_some() {
                return None;
            }
        }
        let b = self.bound(p.unwrap_or(0), n.unwrap_or(0));
        Some(if b.is_finite() {
            Sup::Max { value: Q::from_integer(b.value().into()), attained: !b.is_strict() }
        } else {
            Sup::Unbounded
        })
    }
}

/// The larger of two suprema.
fn join(a: Sup, b: Sup) -> Sup {
    match (a, b) {
        (Sup::Empty, x) | (x, Sup::Empty) => x,
        (Sup::Unbounded, _) | (_, Sup::Unbounded) => Sup::Unbounded,
        (Sup::Max { value: u, attained: a }, Sup::Max { value: v, attained: b }) => match u.cmp(&v) {
            std::cmp::Ordering::Less => Sup::Max { value: v, attained: b },
            std::cmp::Ordering::Greater => Sup::Max { value: u, attained: a },
            std::cmp::Ordering::Equal => Sup::Max { value: u, attained: a || b },
        },
    }
}

/// `s + shift`.
fn shifted(s: Sup, shift: &Q) -> Sup {
    match s {
        Sup::Max { value, attained } => Sup::Max { value: value + shift, attained },
        s => s,
    }
}

/// The range of `term` (a property `T <= 0`, from the command line) over the
/// reachable states of `net` where `property`'s state formula holds. `Ok(None)`:
/// no reachable state satisfies it. `Err`: the outcome that gave no answer.
pub fn range(
    net: &Network,
    term: &Property,
    property: &Property,
    options: &Options,
) -> Result<Option<Range>, Box<Outcome>> {
    let t = compile(net, term).map_err(|why| Box::new(unsupported(why)))?;
    let crate::model::formula::Formula::State(_) = &property.formula else {
        return Err(Box::new(unsupported("`--term` measures a term where a state formula `-q φ` holds".into())));
    };
    let phi = net.state_formula(property, &property.formula).map_err(|d| Box::new(unsupported(d.message)))?;
    if phi.mentions_deadlock() {
        return Err(Box::new(unsupported("`--term` with `deadlock` in `-q` is not supported yet".into())));
    }
    let mut net = net.clone();
    net.add_formula_bounds(&phi);
    let exact = net.hybrid.is_some() || net.has_diagonals || phi.has_diagonal();
    let abstraction = if exact { Abstraction::None } else { Abstraction::Lu };
    if !exact {
        for &(v, _) in &t.vars {
            net.lu.add_global(v as usize, MAX_BOUND, MAX_BOUND);
        }
    }
    let cover = if options.subsumption { Cover::Inclusion } else { Cover::Equal };
    let poly = net.hybrid.is_some() || options.domain == Domain::Poly;
    let terms = std::slice::from_ref(&t);
    let (ends, _) = if poly {
        measure::<Poly>(&net, terms, &phi, abstraction, cover, options)?
    } else {
        measure::<Dbm>(&net, terms, &phi, abstraction, cover, options)?
    };
    let (up, down) = ends.into_iter().next().unwrap_or((Sup::Empty, Sup::Empty));
    let side = |s: Sup, negate: bool| match s {
        Sup::Empty => None,
        Sup::Unbounded if exact => Some(Side::Infinite),
        Sup::Unbounded => Some(Side::Beyond),
        Sup::Max { value, attained } => Some(Side::Finite { value: if negate { -value } else { value }, attained }),
    };
    Ok(side(up, false).zip(side(down, true)).map(|(sup, inf)| Range { sup, inf }))
}

/// `sup x` of the clock or variable `x` over the reachable states of the
/// linear network `net` where `phi` holds, on exact polyhedra (the worst
/// case of `kairos bound` on linear networks).
pub(super) fn sup_linear(net: &Network, x: u32, phi: &StateFormula, options: &Options) -> Result<Sup, Box<Outcome>> {
    let cover = if options.subsumption { Cover::Inclusion } else { Cover::Equal };
    let (ends, _) = measure::<Poly>(net, &[Term::var(x)], phi, Abstraction::None, cover, options)?;
    Ok(ends.into_iter().next().map_or(Sup::Empty, |(up, _)| up))
}

/// `T` from the compiled `T <= 0`; `Err`: why it is no term.
fn compile(net: &Network, term: &Property) -> Result<Term, String> {
    let no_term =
        || "`--term` takes a linear term over clocks or continuous variables, like `2*x - level + 3`".to_string();
    let f = net.state_formula(term, &term.formula).map_err(|d| d.message)?;
    let StateFormula::Pred(conjs) = f else { return Err(no_term()) };
    let [StateConj { data: None, clocks }] = conjs.as_slice() else { return Err(no_term()) };
    let [c] = clocks.as_slice() else { return Err(no_term()) };
    let vars = match &c.linear {
        Some(l) => l.terms.clone(),
        None if c.j == 0 => vec![(c.i, 1)],
        None if c.i == 0 => vec![(c.j, -1)],
        None => vec![(c.i, 1), (c.j, -1)],
    };
    if c.strict || vars.is_empty() {
        return Err(no_term());
    }
    Ok(Term::of(vars, c.clone()))
}

impl Term {
    /// `R` in the discrete state of `s`.
    fn data_part<S>(&self, s: &ZoneState<S>, stack: &mut Vec<i64>) -> Result<Q, RunError> {
        let c = &self.constraint;
        let wrap = |error| RunError { error, transition: None };
        let v = c.bound.eval(&s.discrete.locs, &s.discrete.data, stack).map_err(wrap)?;
        Ok(self.data_value(v))
    }

    /// The program whose value gives `R` ([`Term::data_value`]).
    pub(crate) fn bound(&self) -> &Code {
        &self.constraint.bound
    }

    /// `R` where [`Term::bound`] evaluates to `v`: signed, offset.
    pub(crate) fn data_value(&self, v: i64) -> Q {
        let c = &self.constraint;
        let v = Q::from_integer(v.into());
        let v = if c.negate { -v } else { v };
        c.linear.as_ref().map_or(v.clone(), |l| v + &l.offset)
    }

    /// Widens `ends` by the range of `T` over the valuations of `zones`
    /// with `R` anywhere between `low` and `high` (`R` ranges over data
    /// independent of the zones' valuations); `false` when the domain
    /// cannot measure the term.
    pub(crate) fn widen<S: Extent>(&self, ends: &mut Ends, zones: &[S], low: &Q, high: &Q) -> bool {
        let (up, down) = ends;
        for z in zones {
            match (z.sup_of(&self.vars), z.sup_of(&self.negated)) {
                (Some(a), Some(b)) => {
                    *up = join(std::mem::replace(up, Sup::Empty), shifted(a, &-low));
                    *down = join(std::mem::replace(down, Sup::Empty), shifted(b, high));
                }
                _ => return false,
            }
        }
        true
    }
}

/// `(sup T, sup −T)` of one term.
pub(crate) type Ends = (Sup, Sup);

/// `(sup T, sup −T)` of each of `terms` over the visited states' `φ`-parts,
/// in domain `S`, and the search's statistics.
pub(crate) fn measure<S: Extent>(
    net: &Network,
    terms: &[Term],
    phi: &StateFormula,
    abstraction: Abstraction,
    cover: Cover,
    options: &Options,
) -> Result<(Vec<Ends>, Stats), Box<Outcome>> {
    let started = Instant::now();
    let mut zg = ZoneGraph::<S>::with_sets(net, abstraction);
    let mut ends = vec![(Sup::Empty, Sup::Empty); terms.len()];
    let mut stack = Vec::new();
    let mut refused = false;
    let mut visit = |zg: &mut ZoneGraph<'_, S>, s: &ZoneState<S>| {
        let part = zg.sat(phi, s)?;
        if part.zones.is_empty() {
            return Ok(Federation::empty());
        }
        for (t, e) in terms.iter().zip(ends.iter_mut()) {
            let r = t.data_part(s, &mut stack)?;
            refused |= !t.widen(e, &part.zones, &r, &r);
        }
        Ok(Federation::empty())
    };
    let run = reach::explore(&mut zg, options.order, cover, &options.limits, &mut visit);
    let mut stats = run.stats;
    stats.time_s = started.elapsed().as_secs_f64();
    match run.end {
        End::Exhausted => {}
        End::Stopped(u) => return Err(Box::new(no_answer(Verdict::Unknown(u)))),
        End::Error { error, .. } => return Err(Box::new(no_answer(Verdict::Error(error.describe(net))))),
        End::Found { .. } => unreachable!("nothing is searched for"),
    }
    if refused {
        return Err(Box::new(unsupported("zones measure only `x`, `-x` and `x - y`: use `--domain poly`".into())));
    }
    Ok((ends, stats))
}
