//! The bit encoding of the data vector.
//!
//! Slot `s` with range `[lo, hi]` is stored as `value − lo` in
//! `w_s = ⌈log₂(hi − lo + 1)⌉` bits. Bit `j` of the whole vector (slots in
//! declaration order, each one's bits most significant first) is BDD
//! variable `2j` in the current state and `2j + 1` in the next. The order
//! heuristic: declaration order keeps a process's variables together, the
//! most significant bits on top keep comparisons with constants linear, and
//! the current/next interleaving keeps an assignment's relation (`x' = e`)
//! and the renaming `x' → x` small and order-preserving.

use super::manager::{Bdd, FALSE, Manager, TRUE};
use super::word::Word;
use crate::network::Slot;

#[derive(Clone, Debug)]
pub struct Encoding {
    /// Per slot: `(lo, hi, first bit, width)`.
    slots: Vec<(i64, i64, u32, u32)>,
}

impl Encoding {
    pub fn new(slots: &[Slot]) -> Encoding {
        let mut next = 0;
        let slots = slots
            .iter()
            .map(|s| {
                let span = (s.hi as i128 - s.lo as i128) as u128;
                let width = 128 - span.leading_zeros();
                let e = (s.lo, s.hi, next, width);
                next += width;
                e
            })
            .collect();
        Encoding { slots }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The BDD variables of slot `s`'s bits, least significant first.
    fn vars(&self, s: usize, next: bool) -> impl Iterator<Item = u32> + '_ {
        let (_, _, first, width) = self.slots[s];
        (0..width).rev().map(move |j| 2 * (first + j) + next as u32)
    }

    /// The current-state variables of slot `s` (for quantification).
    pub fn current_vars(&self, s: usize) -> Vec<u32> {
        self.vars(s, false).collect()
    }

    /// The value of slot `s` in the current (or next) state.
    pub fn word(&self, m: &mut Manager, s: usize, next: bool) -> Word {
        let mut bits: Vec<Bdd> = self.vars(s, next).map(|v| m.var(v)).collect();
        bits.push(FALSE);
        let offset = Word(bits);
        let lo = self.slots[s].0;
        if lo == 0 { offset } else { super::word::add(m, &offset, &Word::constant(lo)).expect("a slot fits 62 bits") }
    }

    /// The current-state valuations with slot `s` equal to `v`.
    pub fn equals(&self, m: &mut Manager, s: usize, v: i64) -> Bdd {
        let (lo, hi, ..) = self.slots[s];
        if v < lo || v > hi {
            return FALSE;
        }
        let off = (v - lo) as u64;
        let mut r = TRUE;
        for (j, var) in self.vars(s, false).enumerate() {
            let x = m.var(var);
            let lit = if off >> j & 1 == 1 { x } else { m.not(x) };
            r = m.and(r, lit);
        }
        r
    }

    /// The current-state valuations with slot `s` in `[a, b]` (within its range).
    pub fn between(&self, m: &mut Manager, s: usize, a: i64, b: i64) -> Bdd {
        let w = self.word(m, s, false);
        let ge = super::word::lt(m, &w, &Word::constant(a)).expect("a slot fits");
        let le = super::word::lt(m, &Word::constant(b), &w).expect("a slot fits");
        let out = m.or(ge, le);
        m.not(out)
    }

    /// The one valuation `values` (one value per slot).
    pub fn point(&self, m: &mut Manager, values: &[i64]) -> Bdd {
        let mut r = TRUE;
        for (s, &v) in values.iter().enumerate().rev() {
            let e = self.equals(m, s, v);
            r = m.and(e, r);
        }
        r
    }

    /// The initial valuations: every slot in its `init` interval.
    pub fn initial(&self, m: &mut Manager, slots: &[Slot]) -> Bdd {
        let mut r = TRUE;
        for (s, slot) in slots.iter().enumerate().rev() {
            let e = self.between(m, s, slot.init.0, slot.init.1);
            r = m.and(e, r);
        }
        r
    }

    /// One valuation of the non-empty set `f` (free bits taken as 0).
    pub fn pick(&self, m: &Manager, f: Bdd) -> Option<Vec<i64>> {
        let path = m.pick(f)?;
        let set: std::collections::HashSet<u32> = path.iter().filter(|p| p.1).map(|p| p.0).collect();
        Some(self.decode(|v| set.contains(&v)))
    }

    /// The valuation whose current-state bits are `bit(var)`.
    pub fn decode(&self, bit: impl Fn(u32) -> bool) -> Vec<i64> {
        (0..self.slots.len())
            .map(|s| {
                let off = self.vars(s, false).enumerate().fold(0i64, |acc, (j, v)| acc | ((bit(v) as i64) << j));
                self.slots[s].0 + off
            })
            .collect()
    }

    /// Whether the valuation `values` is in `f`.
    pub fn contains(&self, m: &Manager, f: Bdd, values: &[i64]) -> bool {
        m.contains(f, |var| {
            if var % 2 == 1 {
                return false;
            }
            let bit = var / 2;
            let s = self.slots.partition_point(|e| e.2 + e.3 <= bit);
            let (lo, _, first, width) = self.slots[s];
            ((values[s] - lo) >> (first + width - 1 - bit)) & 1 == 1
        })
    }
}
