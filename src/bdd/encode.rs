//! The bit encoding of the data vector.
//!
//! Slot `s` with range `[lo, hi]` is stored as `value − lo` in
//! `w_s = ⌈log₂(hi − lo + 1)⌉` bits. The BDD order interleaves the slots by
//! significance: the most significant column first (bit `j` of every slot
//! with more than `j` bits, in declaration order), down to bit 0; each bit
//! has its current-state variable immediately followed by its next-state
//! one. Why: relations between two variables (`reading <= peak`,
//! `peak' = max(reading, peak)`) have linear-size BDDs when their bits
//! alternate from the top, and `2^w` nodes when one variable's bits all come
//! before the other's (measured on `models/sensor.yaml`: 17 MB per symbolic
//! state at `N = 10 000` with slots one after the other); comparisons with
//! constants stay linear; and the current/next interleaving keeps an
//! assignment's relation (`x' = e`) and the renaming `x' → x` small and
//! order-preserving.
//!
//! Select variables (the slots after the data, [`Encoding::with_selects`])
//! have current bits only. One assigned to a data slot (`reading = v`) has
//! its bit `j` right after that slot's next-state bit `j`, so `x' = v` is a
//! linear-size BDD too. The others come after every data bit.

use super::manager::{Bdd, FALSE, Manager, TRUE};
use super::word::Word;
use crate::network::Slot;

#[derive(Clone, Debug)]
struct Bits {
    lo: i64,
    hi: i64,
    /// BDD variables of the current and next state, least significant first
    /// (`next` is empty for select slots).
    cur: Vec<u32>,
    next: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct Encoding {
    slots: Vec<Bits>,
    /// The number of data slots (the rest are select slots).
    data: usize,
    /// Per BDD variable: the current-state variable it renames to.
    current: Vec<u32>,
    /// The explicit slots ([`super::split`]): one value per symbolic state.
    explicit: Vec<bool>,
}

fn width(s: &Slot) -> usize {
    let span = (s.hi as i128 - s.lo as i128) as u128;
    (128 - span.leading_zeros()) as usize
}

impl Encoding {
    pub fn new(slots: &[Slot]) -> Encoding {
        Encoding::with_selects(slots, &[], &[])
    }

    /// The data `slots`, then the select slots `selects`, select `k`
    /// interleaved with data slot `attach[k]` when it is `Some`.
    pub fn with_selects(slots: &[Slot], selects: &[Slot], attach: &[Option<usize>]) -> Encoding {
        let empty = |s: &Slot| Bits { lo: s.lo, hi: s.hi, cur: vec![0; width(s)], next: Vec::new() };
        let mut bits: Vec<Bits> = slots.iter().chain(selects).map(empty).collect();
        let mut next_var = 0u32;
        let mut fresh = || {
            next_var += 1;
            next_var - 1
        };
        let widths: Vec<usize> = slots.iter().map(width).collect();
        let attached: Vec<Vec<usize>> = (0..slots.len())
            .map(|s| (0..selects.len()).filter(|&k| attach.get(k).copied().flatten() == Some(s)).collect())
            .collect();
        let columns = slots.iter().chain(selects).map(width).max().unwrap_or(0);
        for s in 0..slots.len() {
            bits[s].next = vec![0; widths[s]];
        }
        for j in (0..columns).rev() {
            for s in 0..slots.len() {
                if j < widths[s] {
                    bits[s].cur[j] = fresh();
                    bits[s].next[j] = fresh();
                }
                for &k in &attached[s] {
                    if j < bits[slots.len() + k].cur.len() {
                        bits[slots.len() + k].cur[j] = fresh();
                    }
                }
            }
        }
        for k in (0..selects.len()).filter(|&k| attach.get(k).copied().flatten().is_none()) {
            for j in (0..bits[slots.len() + k].cur.len()).rev() {
                bits[slots.len() + k].cur[j] = fresh();
            }
        }
        let mut current: Vec<u32> = (0..next_var).collect();
        for b in &bits {
            for (&c, &n) in b.cur.iter().zip(&b.next) {
                current[n as usize] = c;
            }
        }
        let explicit = vec![false; bits.len()];
        Encoding { slots: bits, data: slots.len(), current, explicit }
    }

    /// This encoding, the data slots `explicit` marked as kept explicit.
    pub fn with_explicit(mut self, explicit: impl IntoIterator<Item = usize>) -> Encoding {
        for s in explicit {
            self.explicit[s] = true;
        }
        self
    }

    /// Whether slot `s` is explicit: every data set searched has one value
    /// of it.
    pub fn is_explicit(&self, s: usize) -> bool {
        self.explicit[s]
    }

    /// The explicit slots, in order.
    pub fn explicit_slots(&self) -> Vec<usize> {
        (0..self.data).filter(|&s| self.explicit[s]).collect()
    }

    /// Data and select slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Data slots only.
    pub fn data_len(&self) -> usize {
        self.data
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The current-state variables of slot `s` (for quantification).
    pub fn current_vars(&self, s: usize) -> Vec<u32> {
        self.slots[s].cur.clone()
    }

    /// `f` with every next-state variable renamed to its current one.
    pub fn next_to_current(&self, m: &mut Manager, f: Bdd) -> Bdd {
        m.rename(f, &|v| self.current[v as usize])
    }

    /// The next-state variables of data slot `s`.
    pub fn next_vars(&self, s: usize) -> Vec<u32> {
        self.slots[s].next.clone()
    }

    /// `f`, over current-state data variables, with those of `slots`
    /// renamed to their next-state ones (each right after its current one,
    /// so the order is kept): for a pre-image through the relation of
    /// assignments to `slots`.
    pub fn current_to_next(&self, m: &mut Manager, f: Bdd, slots: &[usize]) -> Bdd {
        let mut map: Vec<u32> = (0..self.current.len() as u32).collect();
        for &s in slots {
            for (&c, &n) in self.slots[s].cur.iter().zip(&self.slots[s].next) {
                map[c as usize] = n;
            }
        }
        m.rename(f, &|v| map[v as usize])
    }

    /// The value of slot `s` in the current (or next) state.
    pub fn word(&self, m: &mut Manager, s: usize, next: bool) -> Word {
        let vars = if next { &self.slots[s].next } else { &self.slots[s].cur };
        let mut bits: Vec<Bdd> = vars.iter().map(|&v| m.var(v)).collect();
        bits.push(FALSE);
        let offset = Word(bits);
        let lo = self.slots[s].lo;
        if lo == 0 { offset } else { super::word::add(m, &offset, &Word::constant(lo)).expect("a slot fits 62 bits") }
    }

    /// The current-state valuations with slot `s` equal to `v`.
    pub fn equals(&self, m: &mut Manager, s: usize, v: i64) -> Bdd {
        let Bits { lo, hi, cur, .. } = &self.slots[s];
        if v < *lo || v > *hi {
            return FALSE;
        }
        let off = (v - lo) as u64;
        let mut r = TRUE;
        for (j, &var) in cur.iter().enumerate() {
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

    /// The valuations with slot `s` within its range.
    pub fn in_range(&self, m: &mut Manager, s: usize) -> Bdd {
        self.between(m, s, self.slots[s].lo, self.slots[s].hi)
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

    /// One valuation of the data slots of the non-empty set `f` (free bits
    /// taken as 0).
    pub fn pick(&self, m: &Manager, f: Bdd) -> Option<Vec<i64>> {
        let mut v = self.pick_all(m, f)?;
        v.truncate(self.data);
        Some(v)
    }

    /// [`Encoding::pick`] with the select slots' values after the data.
    pub fn pick_all(&self, m: &Manager, f: Bdd) -> Option<Vec<i64>> {
        let path = m.pick(f)?;
        let set: std::collections::HashSet<u32> = path.iter().filter(|p| p.1).map(|p| p.0).collect();
        Some(self.decode(|v| set.contains(&v)))
    }

    /// The valuation (data and select slots) whose current-state bits are `bit(var)`.
    pub fn decode(&self, bit: impl Fn(u32) -> bool) -> Vec<i64> {
        let value = |b: &Bits| b.lo + b.cur.iter().enumerate().fold(0i64, |acc, (j, &v)| acc | ((bit(v) as i64) << j));
        self.slots.iter().map(value).collect()
    }

    /// Whether the valuation `values` (of the first `values.len()` slots)
    /// is in `f`; the other bits are 0.
    pub fn contains(&self, m: &Manager, f: Bdd, values: &[i64]) -> bool {
        let mut bits = vec![false; self.current.len()];
        for (b, &v) in self.slots.iter().zip(values) {
            for (j, &var) in b.cur.iter().enumerate() {
                bits[var as usize] = ((v - b.lo) >> j) & 1 == 1;
            }
        }
        m.contains(f, |var| bits.get(var as usize).copied().unwrap_or(false))
    }
}
