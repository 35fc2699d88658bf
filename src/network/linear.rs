//! The linear part of a network: hybrid models (continuous variables,
//! rates) and models whose timing parameters are fixed (`--param`).
//!
//! Such a network is *linear*: its variables are the clocks (numbered from 1
//! as in a timed network) followed by the continuous variables, every
//! constraint is `Σ a_k·x_k ≺ e + offset` (`e` an integer expression over the
//! data, `offset` the fixed parameters' rational contribution), every update
//! of a variable is `x := Σ a_k·x_k + e`, and in each discrete state a
//! variable evolves at a rate within `[lo, hi]`: the rate its process's
//! location sets, else 1 for a clock and 0 for a continuous variable (FORMAT.md
//! section 5). Timed networks have none of this, so the zones' difference
//! constraints are compiled up front and no hot loop pays for the generality.

use num_traits::Zero;

use crate::domain::poly::Q;
use crate::model::typed::{Cmp, Cvar, LinAtom, TExpr};
use crate::model::types::{Model, Rate, Ratio};
use crate::network::code::Code;
use crate::network::compile::{Env, Layout};
use crate::network::{ClockConstraint, EvalError};
use crate::syntax::ast::BinOp;

/// The general form of a [`ClockConstraint`]: `Σ a_k·x_k ≺ ±bound + offset`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearTerm {
    /// `(variable from 1, coefficient)`, each variable once, none zero.
    pub terms: Vec<(u32, i64)>,
    pub offset: Q,
}

/// What a linear network adds to a timed one.
#[derive(Clone, Debug)]
pub struct Hybrid {
    /// The first continuous variable's index; the clocks are `1 .. first`.
    pub first_continuous: u32,
    /// Per continuous variable, its initial interval `[lo, hi]`.
    pub init: Vec<(Q, Q)>,
    /// Per process, per location: the rates it sets, `(variable, rate)`.
    pub rates: Vec<Vec<Vec<(u32, LocRate)>>>,
}

/// A location's rate for one variable.
#[derive(Clone, Debug)]
pub enum LocRate {
    /// Within `[lo, hi]`.
    Interval(Q, Q),
    /// The value of an integer expression over the discrete state.
    Data(Code),
}

impl LocRate {
    /// The interval this rate stands for in the discrete state `(locs, data)`.
    pub fn at(&self, locs: &[u32], data: &[i64], stack: &mut Vec<i64>) -> Result<(Q, Q), EvalError> {
        match self {
            LocRate::Interval(lo, hi) => Ok((lo.clone(), hi.clone())),
            LocRate::Data(code) => {
                let v = Q::from_integer(code.eval(locs, data, stack)?.into());
                Ok((v.clone(), v))
            }
        }
    }
}

/// A model's rational as an exact one.
pub fn ratio(r: Ratio) -> Q {
    Q::new(r.num.into(), r.den.into())
}

impl Hybrid {
    /// The network's linear part for `model`, with `layout` to compile the
    /// rates that read the data. Errors: a rate too large to compile, by
    /// instance and location.
    pub(crate) fn new(
        model: &Model,
        layout: &Layout,
        local_clocks: &[Vec<u32>],
        first_continuous: u32,
    ) -> Result<Hybrid, (usize, usize, String)> {
        let vars = Vars { local_clocks, first_continuous };
        let mut rates = Vec::with_capacity(model.instances.len());
        for (inst, i) in model.instances.iter().enumerate() {
            let env = Env { layout, inst, args: &i.args, selects: &[], select_slot: None };
            let mut per_location = Vec::new();
            for (l, loc) in model.templates[i.template].locations.iter().enumerate() {
                let mut out = Vec::with_capacity(loc.rates.len());
                for (v, r) in &loc.rates {
                    let rate = match r {
                        Rate::Interval(lo, hi) => LocRate::Interval(ratio(*lo), ratio(*hi)),
                        Rate::Data(e) => match env.compile(e).map_err(|m| (inst, l, m))? {
                            code if code.as_const().is_some() => {
                                let v = Q::from_integer(code.as_const().unwrap_or(0).into());
                                LocRate::Interval(v.clone(), v)
                            }
                            code => LocRate::Data(code),
                        },
                    };
                    out.push((vars.index(inst, *v), rate));
                }
                per_location.push(out);
            }
            rates.push(per_location);
        }
        Ok(Hybrid {
            first_continuous,
            init: model.continuous.iter().map(|c| (ratio(c.init.0), ratio(c.init.1))).collect(),
            rates,
        })
    }

    /// Registers `var`, a clock added after the continuous variables (an
    /// observer's clock, the liveness engine's tick clock): it starts at 0
    /// and moves at rate 1 in the locations of process `owner` where
    /// `running` says so, else stands still (like any variable numbered
    /// after the continuous ones).
    pub fn add_clock(&mut self, var: u32, owner: usize, running: &[bool]) {
        debug_assert_eq!(var as usize, self.first_continuous as usize + self.init.len(), "the last variable");
        self.init.push((Q::zero(), Q::zero()));
        if self.rates.len() <= owner {
            self.rates.resize(owner + 1, Vec::new());
        }
        let one = Q::from_integer(1.into());
        let rates = &mut self.rates[owner];
        rates.resize(running.len().max(rates.len()), Vec::new());
        for (l, _) in rates.iter_mut().zip(running).filter(|(_, r)| **r) {
            l.push((var, LocRate::Interval(one.clone(), one.clone())));
        }
    }

    /// The rate interval of every variable (slot `k - 1` is variable `k`)
    /// in the discrete state `(locs, data)`. Errors: two processes set one
    /// rate; a rate's expression fails.
    pub fn rates_at(&self, locs: &[u32], data: &[i64]) -> Result<Vec<(Q, Q)>, EvalError> {
        let n = self.first_continuous as usize - 1 + self.init.len();
        let unit =
            |k: usize| if k + 1 < self.first_continuous as usize { Q::from_integer(1.into()) } else { Q::zero() };
        let mut out: Vec<(Q, Q)> = (0..n).map(|k| (unit(k), unit(k))).collect();
        let mut setter = vec![u32::MAX; n];
        let mut stack = Vec::new();
        for (p, &l) in locs.iter().enumerate() {
            let Some(rates) = self.rates.get(p).and_then(|r| r.get(l as usize)) else { continue };
            for (v, rate) in rates {
                let k = *v as usize - 1;
                if setter[k] != u32::MAX && setter[k] != p as u32 {
                    return Err(EvalError::RateConflict { var: *v, first: setter[k], second: p as u32 });
                }
                setter[k] = p as u32;
                out[k] = rate.at(locs, data, &mut stack)?;
            }
        }
        Ok(out)
    }
}

/// How a template's clocks and continuous variables are numbered.
pub(crate) struct Vars<'a> {
    pub local_clocks: &'a [Vec<u32>],
    pub first_continuous: u32,
}

impl Vars<'_> {
    /// The index (from 1) of `c` seen from instance `inst`.
    pub fn index(&self, inst: usize, c: Cvar) -> u32 {
        match c {
            Cvar::Continuous(k) => self.first_continuous + k as u32,
            c => crate::network::build::clock_index(self.local_clocks, inst, c),
        }
    }

    /// `terms` with variables numbered, merged, zero coefficients dropped.
    pub fn terms(&self, inst: usize, terms: &[(Cvar, i64)]) -> Result<Vec<(u32, i64)>, String> {
        let mut out: Vec<(u32, i64)> = Vec::new();
        for &(c, a) in terms {
            let v = self.index(inst, c);
            match out.iter_mut().find(|t| t.0 == v) {
                Some(t) => t.1 = t.1.checked_add(a).ok_or("a coefficient overflows 64 bits")?,
                None => out.push((v, a)),
            }
        }
        out.retain(|t| t.1 != 0);
        out.sort_unstable();
        Ok(out)
    }
}

/// Appends the constraints of `a`, its timing parameters replaced by their
/// values `params` (none: they stay, and are refused): DBM constraints in a
/// timed network (`first_continuous` is `None`; the values are then
/// integers), else linear ones. Returns whether it is a diagonal `x - y ~ e`
/// of a timed network. Errors: (code, message).
pub(crate) fn atom_constraints(
    env: &Env<'_>,
    local_clocks: &[Vec<u32>],
    first_continuous: Option<u32>,
    params: &[Q],
    a: &LinAtom,
    out: &mut Vec<ClockConstraint>,
) -> Result<bool, (&'static str, String)> {
    match first_continuous {
        Some(first_continuous) => {
            linear_constraints(env, &Vars { local_clocks, first_continuous }, params, a, out).map(|()| false)
        }
        None if !a.params.is_empty() && !params.is_empty() => {
            let offset = a.params.iter().fold(Q::zero(), |s, &(p, c)| s + Q::from_integer(c.into()) * &params[p]);
            let offset = i64::try_from(offset.to_integer())
                .map_err(|_| ("bound-too-large", "a parameter value overflows 64 bits".to_string()))?;
            let rhs = TExpr::Binary(BinOp::Add, Box::new(a.rhs.clone()), Box::new(TExpr::Const(offset)));
            let a = LinAtom { rhs, params: Vec::new(), ..a.clone() };
            crate::network::build::clock_constraints(env, local_clocks, &a, out)
        }
        None => crate::network::build::clock_constraints(env, local_clocks, a, out),
    }
}

/// Appends the linear constraints of `a` (two for `==`), its timing
/// parameters replaced by their values. Errors: (code, message).
fn linear_constraints(
    env: &Env<'_>,
    vars: &Vars<'_>,
    params: &[Q],
    a: &LinAtom,
    out: &mut Vec<ClockConstraint>,
) -> Result<(), (&'static str, String)> {
    if !a.params.is_empty() && params.is_empty() {
        return Err((
            "unsupported",
            "timing parameters need values (`--param p=v`); synthesis is not supported yet".into(),
        ));
    }
    let terms = vars.terms(env.inst, &a.terms).map_err(|e| ("too-large", e))?;
    let offset = a.params.iter().fold(Q::zero(), |s, &(p, c)| s + Q::from_integer(c.into()) * &params[p]);
    let bound = env.compile(&a.rhs).map_err(|e| ("too-large", e))?;
    let range = env.interval(&a.rhs);
    let neg: Vec<(u32, i64)> = terms.iter().map(|&(v, c)| (v, -c)).collect();
    let make = |terms: &[(u32, i64)], strict, negate, offset: Q| ClockConstraint {
        i: 0,
        j: 0,
        strict,
        bound: bound.clone(),
        negate,
        range,
        linear: Some(Box::new(LinearTerm { terms: terms.to_vec(), offset })),
    };
    if neg.iter().any(|t| t.1 == i64::MIN) {
        return Err(("too-large", "a coefficient overflows 64 bits".into()));
    }
    match a.cmp {
        Cmp::Lt => out.push(make(&terms, true, false, offset)),
        Cmp::Le => out.push(make(&terms, false, false, offset)),
        Cmp::Gt => out.push(make(&neg, true, true, -offset)),
        Cmp::Ge => out.push(make(&neg, false, true, -offset)),
        Cmp::Eq => {
            out.push(make(&terms, false, false, offset.clone()));
            out.push(make(&neg, false, true, -offset));
        }
    }
    Ok(())
}
