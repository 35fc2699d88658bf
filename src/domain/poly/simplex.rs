//! An exact simplex over `Dq` values, for feasibility (with strict
//! constraints) and linear optimisation.
//!
//! The tableau is the general form of Dutertre and de Moura ("A fast
//! linear-arithmetic solver for DPLL(T)", CAV 2006): one slack `s_i = a_i·x`
//! per constraint, carrying the constraint as bounds on `s_i`; the structural
//! variables `x` are free. Each row expresses one basic variable as a
//! combination of the non-basic ones, so every assignment of the non-basic
//! variables extends to exactly one point, and rows stay identities forever.
//! A strict bound `s < b` is the bound `s <= b - δ` with `δ` a symbolic
//! positive infinitesimal ([`Dq`]): the system is satisfiable over `Dq` iff
//! it is over the rationals (the solution then holds for all small enough
//! `δ > 0`, and [`Simplex::point`] picks one).
//!
//! Feasibility repairs the smallest violated basic variable by pivoting
//! with the smallest suitable non-basic one (Bland's rule, which makes the
//! search terminate); a violated row without a suitable non-basic variable
//! is a proof of infeasibility. Optimisation is the bounded primal simplex
//! from a feasible tableau, again under Bland's rule; at its end every
//! non-basic variable sits at the bound its reduced cost pushes it to, which
//! is the optimality certificate (the objective row is an identity, so no
//! feasible point can do better). Over `Dq`, a maximum `c + kδ` with `k < 0`
//! is a supremum `c` that the strict constraints keep from being attained.

use super::constraint::{Constraint, Rel};
use super::fast::Fq;
use super::rational::{Dq, Q};

/// The outcome of a maximisation over a feasible system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opt {
    Unbounded,
    Max(Dq),
}

/// A tableau over `dim` structural variables and one slack per constraint.
pub struct Simplex {
    dim: usize,
    /// `rows[r][v]`: coefficient of variable `v` (non-basic) in the row of
    /// basic variable `basic[r]`.
    rows: Vec<Vec<Fq>>,
    basic: Vec<usize>,
    row_of: Vec<Option<usize>>,
    val: Vec<Dq>,
    lo: Vec<Option<Dq>>,
    hi: Vec<Option<Dq>>,
}

impl Simplex {
    /// The tableau of `cons` over `dim` variables; with `closed`, strict
    /// constraints count as non-strict (the topological closure).
    pub fn new<'a>(dim: usize, cons: impl IntoIterator<Item = &'a Constraint>, closed: bool) -> Simplex {
        let mut s = Simplex {
            dim,
            rows: Vec::new(),
            basic: Vec::new(),
            row_of: vec![None; dim],
            val: vec![Dq::zero(); dim],
            lo: vec![None; dim],
            hi: vec![None; dim],
        };
        for c in cons {
            debug_assert_eq!(c.dim(), dim);
            let v = s.val.len();
            let mut row: Vec<Fq> = c.coeffs.iter().map(Fq::from).collect();
            row.resize(v + 1, Fq::zero());
            for r in s.rows.iter_mut() {
                r.push(Fq::zero());
            }
            s.rows.push(row);
            s.basic.push(v);
            s.row_of.push(Some(s.rows.len() - 1));
            s.val.push(Dq::zero());
            let rhs = Fq::from(&c.rhs);
            let (lo, hi) = match c.rel {
                Rel::Eq => (Some(Dq::of(rhs.clone())), Some(Dq::of(rhs))),
                Rel::Le => (None, Some(Dq::of(rhs))),
                Rel::Lt if closed => (None, Some(Dq::of(rhs))),
                Rel::Lt => (None, Some(Dq::below(rhs))),
            };
            s.lo.push(lo);
            s.hi.push(hi);
        }
        s
    }

    fn can_increase(&self, v: usize) -> bool {
        self.hi[v].as_ref().is_none_or(|h| self.val[v] < *h)
    }

    fn can_decrease(&self, v: usize) -> bool {
        self.lo[v].as_ref().is_none_or(|l| self.val[v] > *l)
    }

    fn nonbasic(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.val.len()).filter(|&v| self.row_of[v].is_none())
    }

    /// Whether the constraints have a common solution. Cost: exponential in
    /// the worst case, a few pivots on the small systems of this crate.
    pub fn feasible(&mut self) -> bool {
        loop {
            let violated = (0..self.val.len()).find(|&v| {
                self.row_of[v].is_some()
                    && (self.lo[v].as_ref().is_some_and(|l| self.val[v] < *l)
                        || self.hi[v].as_ref().is_some_and(|h| self.val[v] > *h))
            });
            let Some(b) = violated else { return true };
            let r = self.row_of[b].expect("basic");
            let raise = self.lo[b].as_ref().is_some_and(|l| self.val[b] < *l);
            let entering = self.nonbasic().find(|&j| {
                let a = &self.rows[r][j];
                let up = if raise { a.is_positive() } else { a.is_negative() };
                let down = if raise { a.is_negative() } else { a.is_positive() };
                (up && self.can_increase(j)) || (down && self.can_decrease(j))
            });
            let Some(j) = entering else { return false };
            let target = if raise { self.lo[b].clone() } else { self.hi[b].clone() };
            self.pivot_and_update(r, j, target.expect("violated bound"));
        }
    }

    /// The maximum of `obj·x`. Pre: [`Simplex::feasible`] returned true.
    pub fn maximise(&mut self, obj: &[Q]) -> Opt {
        debug_assert_eq!(obj.len(), self.dim);
        let obj: Vec<Fq> = obj.iter().map(Fq::from).collect();
        loop {
            let d = self.reduced_costs(&obj);
            let entering = self.nonbasic().find(|&j| {
                (d[j].is_positive() && self.can_increase(j)) || (d[j].is_negative() && self.can_decrease(j))
            });
            let Some(j) = entering else {
                let z = (0..self.dim).fold(Dq::zero(), |z, i| &z + &self.val[i].scale(&obj[i]));
                return Opt::Max(z);
            };
            let up = d[j].is_positive();
            // Ratio test: the largest step `t >= 0` keeping every bound;
            // ties go to the own bound, then to the smallest basic variable.
            let own = if up {
                self.hi[j].as_ref().map(|h| h - &self.val[j])
            } else {
                self.lo[j].as_ref().map(|l| &self.val[j] - l)
            };
            let mut best: Option<(Dq, Option<usize>)> = own.map(|t| (t, None));
            let mut rows: Vec<usize> = (0..self.rows.len()).collect();
            rows.sort_by_key(|&r| self.basic[r]);
            for r in rows {
                let a = if up { self.rows[r][j].clone() } else { -&self.rows[r][j] };
                let b = self.basic[r];
                let t = if a.is_positive() {
                    self.hi[b].as_ref().map(|h| (h - &self.val[b]).scale(&a.recip()))
                } else if a.is_negative() {
                    self.lo[b].as_ref().map(|l| (&self.val[b] - l).scale(&(-a).recip()))
                } else {
                    None
                };
                if let Some(t) = t
                    && best.as_ref().is_none_or(|(bt, _)| t < *bt)
                {
                    best = Some((t, Some(r)));
                }
            }
            match best {
                None => return Opt::Unbounded,
                Some((t, None)) => {
                    let step = if up { t } else { t.scale(&-Fq::one()) };
                    let v = &self.val[j] + &step;
                    self.update(j, v);
                }
                Some((_, Some(r))) => {
                    let b = self.basic[r];
                    let a = if up { self.rows[r][j].clone() } else { -&self.rows[r][j] };
                    let target = if a.is_positive() { self.hi[b].clone() } else { self.lo[b].clone() };
                    self.pivot_and_update(r, j, target.expect("bounded row"));
                }
            }
        }
    }

    /// The objective's coefficients over the non-basic variables.
    fn reduced_costs(&self, obj: &[Fq]) -> Vec<Fq> {
        let mut d = vec![Fq::zero(); self.val.len()];
        for (i, c) in obj.iter().enumerate() {
            match self.row_of[i] {
                None => d[i] = &d[i] + c,
                Some(r) => {
                    for (dv, a) in d.iter_mut().zip(&self.rows[r]) {
                        if !a.is_zero() {
                            *dv = &*dv + &(c * a);
                        }
                    }
                }
            }
        }
        d
    }

    /// Whether constraint `i`'s left-hand side is strictly below its upper
    /// bound at the current point (so the constraint is not tight everywhere).
    pub fn slack(&self, i: usize) -> bool {
        let v = self.dim + i;
        self.hi[v].as_ref().is_none_or(|h| self.val[v] < *h)
    }

    /// A rational point of the system: the current assignment with `δ`
    /// replaced by a value small enough for every bound. Pre: feasible.
    pub fn point(&self) -> Vec<Q> {
        let mut delta = Fq::one();
        for v in 0..self.val.len() {
            let x = &self.val[v];
            let mut limit = |small: &Dq, big: &Dq| {
                // small.c + small.k δ <= big.c + big.k δ for δ <= bound.
                if small.c < big.c && small.k > big.k {
                    let bound = &(&big.c - &small.c) / &(&small.k - &big.k);
                    if bound < delta {
                        delta = bound;
                    }
                }
            };
            if let Some(l) = &self.lo[v] {
                limit(l, x);
            }
            if let Some(h) = &self.hi[v] {
                limit(x, h);
            }
        }
        (0..self.dim).map(|i| (&self.val[i].c + &(&self.val[i].k * &delta)).to_q()).collect()
    }

    fn update(&mut self, j: usize, v: Dq) {
        let theta = &v - &self.val[j];
        for r in 0..self.rows.len() {
            let b = self.basic[r];
            let step = theta.scale(&self.rows[r][j]);
            self.val[b] = &self.val[b] + &step;
        }
        self.val[j] = v;
    }

    fn pivot_and_update(&mut self, r: usize, j: usize, v: Dq) {
        let b = self.basic[r];
        let theta = (&v - &self.val[b]).scale(&self.rows[r][j].recip());
        let nj = &self.val[j] + &theta;
        self.update(j, nj);
        debug_assert_eq!(self.val[b], v);
        self.pivot(r, j);
    }

    /// Makes `j` basic in row `r`, in place of `basic[r]`.
    fn pivot(&mut self, r: usize, j: usize) {
        let b = self.basic[r];
        let a = self.rows[r][j].clone();
        let mut row = std::mem::take(&mut self.rows[r]);
        let minus_a = -&a;
        for x in row.iter_mut() {
            if !x.is_zero() {
                *x = &*x / &minus_a;
            }
        }
        row[b] = a.recip();
        row[j] = Fq::zero();
        for (k, other) in self.rows.iter_mut().enumerate() {
            if k == r || other[j].is_zero() {
                continue;
            }
            let c = std::mem::replace(&mut other[j], Fq::zero());
            for (o, x) in other.iter_mut().zip(&row) {
                if !x.is_zero() {
                    *o = &*o + &(&c * x);
                }
            }
        }
        self.rows[r] = row;
        self.basic[r] = j;
        self.row_of[j] = Some(r);
        self.row_of[b] = None;
    }
}
