//! Integers as vectors of BDDs: two's complement, least significant bit
//! first, as wide as the values need (the top bit is the sign). Adders,
//! comparators and multipliers are the textbook bit-level circuits; widths
//! grow so that no operation wraps, and a word wider than [`MAX_WIDTH`] is
//! refused (the explicit evaluator's 64-bit overflow is then not modelled).

use super::manager::{Bdd, FALSE, Manager, TRUE};

/// Widest word kept: every value then fits an `i64` with room for one sum.
pub const MAX_WIDTH: usize = 62;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word(pub Vec<Bdd>);

/// A word grew past [`MAX_WIDTH`] bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooWide;

impl Word {
    pub fn constant(v: i64) -> Word {
        let mut bits = Vec::new();
        let mut x = v;
        loop {
            bits.push(if x & 1 == 1 { TRUE } else { FALSE });
            x >>= 1;
            // Done once the rest is the sign extension of the last bit.
            if (x == 0 && bits.last() == Some(&FALSE)) || (x == -1 && bits.last() == Some(&TRUE)) {
                return Word(bits);
            }
        }
    }

    /// The value when every bit is a constant.
    pub fn as_const(&self) -> Option<i64> {
        let mut v: i64 = 0;
        for (i, &b) in self.0.iter().enumerate().rev() {
            let bit = match b {
                TRUE => 1,
                FALSE => 0,
                _ => return None,
            };
            v = if i + 1 == self.0.len() { -bit } else { (v << 1) | bit };
        }
        Some(v)
    }

    fn sign(&self) -> Bdd {
        *self.0.last().expect("a word has a bit")
    }

    fn bit(&self, i: usize) -> Bdd {
        self.0.get(i).copied().unwrap_or_else(|| self.sign())
    }

    /// Drops sign bits that repeat the one below them.
    fn trim(mut self) -> Word {
        while self.0.len() > 1 && self.0[self.0.len() - 1] == self.0[self.0.len() - 2] {
            self.0.pop();
        }
        self
    }

    fn checked(self) -> Result<Word, TooWide> {
        let w = self.trim();
        if w.0.len() > MAX_WIDTH { Err(TooWide) } else { Ok(w) }
    }
}

pub fn add(m: &mut Manager, a: &Word, b: &Word) -> Result<Word, TooWide> {
    let w = a.0.len().max(b.0.len()) + 1;
    let mut out = Vec::with_capacity(w);
    let mut carry = FALSE;
    for i in 0..w {
        let (x, y) = (a.bit(i), b.bit(i));
        let xy = m.xor(x, y);
        out.push(m.xor(xy, carry));
        // carry' = majority(x, y, carry)
        let both = m.and(x, y);
        let prop = m.and(xy, carry);
        carry = m.or(both, prop);
    }
    Word(out).checked()
}

pub fn neg(m: &mut Manager, a: &Word) -> Result<Word, TooWide> {
    let inv = Word((0..=a.0.len()).map(|i| a.bit(i)).map(|b| m.not(b)).collect());
    add(m, &inv, &Word::constant(1))
}

pub fn sub(m: &mut Manager, a: &Word, b: &Word) -> Result<Word, TooWide> {
    let nb = neg(m, b)?;
    add(m, a, &nb)
}

/// `a · b` by shift and add over the bits of `b` (the sign bit weighs −2^k).
pub fn mul(m: &mut Manager, a: &Word, b: &Word) -> Result<Word, TooWide> {
    if a.as_const().is_some() && b.as_const().is_none() {
        return mul(m, b, a);
    }
    if a.0.len() + b.0.len() > MAX_WIDTH + 1 {
        return Err(TooWide);
    }
    let top = b.0.len() - 1;
    let mut acc = Word::constant(0);
    for i in 0..=top {
        let shifted = Word([vec![FALSE; i], a.0.clone()].concat());
        let term = select(m, b.0[i], &shifted, &Word::constant(0));
        acc = if i == top { sub(m, &acc, &term)? } else { add(m, &acc, &term)? };
    }
    Ok(acc)
}

/// `(a / b, a % b)` truncated towards zero (the sign of `a % b` is that of
/// `a`), for the valuations where `b ≠ 0`: restoring division of the
/// magnitudes, one bit of the quotient per bit of `|a|`, then the signs.
pub fn div_rem(m: &mut Manager, a: &Word, b: &Word) -> Result<(Word, Word), TooWide> {
    let (sa, sb) = (a.sign(), b.sign());
    let abs = |m: &mut Manager, w: &Word| -> Result<Word, TooWide> {
        let n = neg(m, w)?;
        Ok(select(m, w.sign(), &n, w))
    };
    let (na, nb) = (abs(m, a)?, abs(m, b)?);
    let (mut q, mut r) = (vec![FALSE; na.0.len()], Word::constant(0));
    for i in (0..na.0.len()).rev() {
        // r < |b| here, so 2r + bit stays below 2|b|: one subtraction suffices.
        r = Word([vec![na.0[i]], r.0].concat()).checked()?;
        let below = lt(m, &r, &nb)?;
        let fits = m.not(below);
        let less = sub(m, &r, &nb)?;
        r = select(m, fits, &less, &r);
        q[i] = fits;
    }
    let q = Word([q, vec![FALSE]].concat()).checked()?;
    let flip = m.xor(sa, sb);
    let nq = neg(m, &q)?;
    let nr = neg(m, &r)?;
    Ok((select(m, flip, &nq, &q), select(m, sa, &nr, &r)))
}

/// `if c then a else b`, bit by bit.
pub fn select(m: &mut Manager, c: Bdd, a: &Word, b: &Word) -> Word {
    let w = a.0.len().max(b.0.len());
    Word((0..w).map(|i| m.ite(c, a.bit(i), b.bit(i))).collect()).trim()
}

pub fn eq(m: &mut Manager, a: &Word, b: &Word) -> Bdd {
    let w = a.0.len().max(b.0.len());
    let mut r = TRUE;
    for i in (0..w).rev() {
        let same = m.iff(a.bit(i), b.bit(i));
        r = m.and(r, same);
    }
    r
}

/// `a < b`: the sign of `a − b` computed without wrapping.
pub fn lt(m: &mut Manager, a: &Word, b: &Word) -> Result<Bdd, TooWide> {
    Ok(sub(m, a, b)?.sign())
}

pub fn nonzero(m: &mut Manager, a: &Word) -> Bdd {
    a.0.iter().fold(FALSE, |acc, &b| m.or(acc, b))
}

/// 0 or 1.
pub fn from_bool(b: Bdd) -> Word {
    Word(vec![b, FALSE]).trim()
}

/// The largest value (`largest`) or the smallest one `a` takes on `set`;
/// `None` when `set` is empty. Bit by bit from the top, each narrowing
/// `set` to the valuations that agree with the best choice so far: the
/// sign bit weighs `−2^(n−1)`, so the largest value wants it clear and
/// every other bit set, the smallest the reverse.
pub fn extreme(m: &mut Manager, a: &Word, mut set: Bdd, largest: bool) -> Option<i64> {
    if set == FALSE {
        return None;
    }
    let top = a.0.len() - 1;
    let mut value: i64 = 0;
    for i in (0..=top).rev() {
        let want = (i == top) != largest;
        let literal = if want { a.0[i] } else { m.not(a.0[i]) };
        let narrowed = m.and(set, literal);
        let bit = if narrowed == FALSE { !want } else { want };
        if narrowed != FALSE {
            set = narrowed;
        }
        if bit {
            value += if i == top { -(1i64 << i) } else { 1i64 << i };
        }
    }
    Some(value)
}
