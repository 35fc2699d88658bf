//! A set of states in one control with data as BDDs: a function from data
//! valuations to federations with finitely many values, kept as the list of
//! its non-empty values, each with the BDD of the valuations mapped to it
//! (an MTBDD with federation leaves, by its leaves).
//!
//! Why not one `(data, zone)` product per state, as the forward search
//! keeps: complement and intersection do not preserve products, while a
//! function is closed under every Boolean operation by refining the two
//! partitions (`D_i ∧ E_j`) and operating on federations cell by cell.
//!
//! Invariant: the BDDs are disjoint and non-empty, the federations non-empty,
//! reduced and pairwise different as sets (equal ones are merged by union of
//! their BDDs), so a valuation's federation is the one of the pair holding it.

use crate::bdd::{Bdd, FALSE, Manager};
use crate::domain::federation::Federation;

#[derive(Clone, Debug, Default)]
pub struct Pairs(pub Vec<(Bdd, Federation)>);

/// A cell of two refined partitions: its data and the two federations there.
pub type Cell<'a> = (Bdd, &'a Federation, &'a Federation);

impl Pairs {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The valuations with some state.
    pub fn support(&self, m: &mut Manager) -> Bdd {
        self.0.iter().fold(FALSE, |acc, p| m.or(acc, p.0))
    }

    /// Adds the states `data × f`. Pre: `data` disjoint from every pair's.
    pub fn push(&mut self, m: &mut Manager, data: Bdd, mut f: Federation) {
        if data == FALSE || f.is_empty() {
            return;
        }
        f.reduce();
        match self.0.iter_mut().find(|p| p.1.same_set(&f)) {
            Some(p) => p.0 = m.or(p.0, data),
            None => self.0.push((data, f)),
        }
    }

    /// The states `(v, ν)` with `ν ∈ f(F(v))`: `f` pair by pair.
    pub fn map(&self, m: &mut Manager, mut f: impl FnMut(&Federation) -> Federation) -> Pairs {
        let mut out = Pairs::default();
        for (d, g) in &self.0 {
            out.push(m, *d, f(g));
        }
        out
    }

    /// The partition of `within` refined by the pairs of `a` and of `b`
    /// (a valuation outside a list's pairs has the empty federation there).
    pub fn cells<'a>(m: &mut Manager, within: Bdd, a: &'a Pairs, b: &'a Pairs, empty: &'a Federation) -> Vec<Cell<'a>> {
        let rest = |m: &mut Manager, p: &Pairs| {
            let s = p.support(m);
            let out = m.not(s);
            m.and(within, out)
        };
        let (ra, rb) = (rest(m, a), rest(m, b));
        let sides = |p: &'a Pairs, r: Bdd| p.0.iter().map(|(d, f)| (*d, f)).chain(std::iter::once((r, empty)));
        let mut out = Vec::new();
        for (da, fa) in sides(a, ra) {
            let da = m.and(da, within);
            if da == FALSE {
                continue;
            }
            for (db, fb) in sides(b, rb) {
                let d = m.and(da, db);
                if d != FALSE {
                    out.push((d, fa, fb));
                }
            }
        }
        out
    }

    /// `op(F_a(v), F_b(v))` at every valuation `v` of `within`.
    pub fn combine(
        m: &mut Manager,
        within: Bdd,
        a: &Pairs,
        b: &Pairs,
        mut op: impl FnMut(&Federation, &Federation) -> Federation,
    ) -> Pairs {
        let empty = Federation::empty();
        let mut out = Pairs::default();
        for (d, fa, fb) in Pairs::cells(m, within, a, b, &empty) {
            out.push(m, d, op(fa, fb));
        }
        out
    }

    pub fn union(m: &mut Manager, within: Bdd, a: &Pairs, b: &Pairs) -> Pairs {
        if a.is_empty() || b.is_empty() {
            return if a.is_empty() { b.clone() } else { a.clone() };
        }
        Pairs::combine(m, within, a, b, |x, y| x.clone().union(y.clone()))
    }

    pub fn intersect(m: &mut Manager, within: Bdd, a: &Pairs, b: &Pairs) -> Pairs {
        if a.is_empty() || b.is_empty() {
            return Pairs::default();
        }
        Pairs::combine(m, within, a, b, |x, y| x.intersect(y))
    }

    /// `a ⊆ b`, valuation by valuation.
    pub fn includes(m: &mut Manager, within: Bdd, a: &Pairs, b: &Pairs) -> bool {
        let empty = Federation::empty();
        Pairs::cells(m, within, a, b, &empty).iter().all(|(_, fa, fb)| fa.is_subset_of(fb))
    }
}

#[cfg(test)]
mod tests {
    //! Every operation against the brute force: per valuation of three
    //! bits, the federation operation on the two lists' federations there.
    use super::*;
    use crate::domain::zone::{Bound, Dbm};

    const BITS: u32 = 3;

    fn point(m: &mut Manager, v: u32) -> Bdd {
        let mut r = crate::bdd::TRUE;
        for b in 0..BITS {
            let x = m.var(b);
            let lit = if v >> b & 1 == 1 { x } else { m.not(x) };
            r = m.and(r, lit);
        }
        r
    }

    /// `x` in `[lo, hi]` (one clock), or from `lo` on when `hi` is 4.
    fn interval(lo: i32, hi: i32) -> Federation {
        let f = Federation::from_zone(Dbm::universe(2)).constrain(0, 1, Bound::le(-lo));
        if hi >= 4 { f } else { f.constrain(1, 0, Bound::le(hi)) }
    }

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    fn random(m: &mut Manager, r: &mut Rng) -> Pairs {
        let mut out = Pairs::default();
        for v in 0..1 << BITS {
            if r.below(4) == 0 {
                continue;
            }
            let lo = r.below(3) as i32;
            let mut f = interval(lo, lo + r.below(3) as i32);
            if r.below(3) == 0 {
                f = f.union(interval(3, 4));
            }
            let p = point(m, v);
            out.push(m, p, f);
        }
        out
    }

    fn at(m: &Manager, p: &Pairs, v: u32) -> Federation {
        let holds = |d: Bdd| m.contains(d, |b| v >> b & 1 == 1);
        let mut hits = p.0.iter().filter(|(d, _)| holds(*d));
        let f = hits.next().map(|(_, f)| f.clone()).unwrap_or_default();
        assert!(hits.next().is_none(), "the pairs' data are disjoint");
        f
    }

    #[test]
    fn pairs_agree_with_the_operations_valuation_by_valuation() {
        let mut m = Manager::new();
        let mut r = Rng(7);
        let within = crate::bdd::TRUE;
        for _ in 0..200 {
            let (a, b) = (random(&mut m, &mut r), random(&mut m, &mut r));
            let union = Pairs::union(&mut m, within, &a, &b);
            let inter = Pairs::intersect(&mut m, within, &a, &b);
            let minus = Pairs::combine(&mut m, within, &a, &b, |x, y| x.subtract(y));
            let inv = Dbm::universe(2);
            let not = Pairs::combine(&mut m, within, &a, &Pairs::default(), |x, _| x.complement_within(&inv));
            let mut included = true;
            for v in 0..1 << BITS {
                let (fa, fb) = (at(&m, &a, v), at(&m, &b, v));
                assert!(at(&m, &union, v).same_set(&fa.clone().union(fb.clone())));
                assert!(at(&m, &inter, v).same_set(&fa.intersect(&fb)));
                assert!(at(&m, &minus, v).same_set(&fa.subtract(&fb)));
                assert!(at(&m, &not, v).same_set(&fa.complement_within(&inv)));
                included &= fa.is_subset_of(&fb);
            }
            assert_eq!(Pairs::includes(&mut m, within, &a, &b), included);
            assert!(Pairs::includes(&mut m, within, &a, &union) && Pairs::includes(&mut m, within, &inter, &b));
            // Equal federations share one pair.
            for (k, p) in union.0.iter().enumerate() {
                assert!(union.0[k + 1..].iter().all(|q| !q.1.same_set(&p.1)));
            }
        }
    }
}
