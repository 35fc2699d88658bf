//! Clock valuations on the grid `(1/k)Z` (the *granularity* `k`; clocks are
//! stored as integers in units of `1/k`, constants are multiplied by `k`),
//! exact for CLOSED timed automata: guards, invariants and property atoms
//! compare clocks with integer constants, non-strictly.
//!
//! # Why discrete time is exact here
//!
//! Time advances by steps of `1/k`.
//!
//! 1. Every run of the discrete semantics is a run of the dense one: delays
//!    of `1/k` are real delays, and the invariants (convex: upper bounds) hold
//!    on a whole delay when they hold at both its ends.
//! 2. Conversely (digitisation, Henzinger–Manna–Pnueli 1992): in a closed
//!    automaton, rounding every time stamp of a dense run with the same
//!    threshold `ε` (down when its fractional part is `<= ε`, else up) gives
//!    a run again: rounding is monotone and commutes with adding integers, so
//!    `t - r <= c`, `t - r >= c` and `r' - r <= c` (clock and diagonal
//!    constraints, also with resets to constants and data-dependent bounds,
//!    fixed during a delay) survive it; urgency and committed locations
//!    depend on the discrete state only, and a zero delay stays zero. A dense
//!    run that ENDS on an integer valuation keeps that valuation (a clock's
//!    value `t - r` is an integer, so `t` and `r` round alike). With the
//!    constants scaled by `k`, the same holds for the grid `(1/k)Z`.
//! 3. Hence a valuation on the grid is reachable in discrete time iff it is
//!    reachable in dense time. Every reachable dense valuation lies in a
//!    zone of the exact zone graph, a closed zone with integer bounds `Z`.
//!    - `E<> φ` where no simple cycle of the DBM of a conjunct of φ's DNF
//!      can hold two strict bounds (at most one strict diagonal, and not a
//!      strict lower bound `x > c` with a strict upper bound `y < d`; a
//!      simple cycle passes the reference clock once): reading each `< c`
//!      as `<= c - 1` keeps `Z ∩ conjunct` non-empty (a cycle of weight
//!      `w >= 1` with one strict edge gets weight `w - 1 >= 0`), and a
//!      non-empty closed DBM with integer bounds has an integer point (every
//!      clock at its lower bound). So `k = 1` is exact. (Counter-example
//!      with two: `x > 2 and y < 3` where `x = y` holds only at 5/2.)
//!    - Any state formula (several strict atoms, `deadlock`): a non-empty
//!      zone with integer bounds over `n` clocks contains a point of the grid
//!      `(1/(n+1))Z`: keep the integer parts, map the (at most `n`) distinct
//!      fractional parts, in order, onto `1/(n+1), 2/(n+1), ...`; every
//!      difference `x - y` keeps its integer part and the sign of its
//!      fractional part, so it satisfies the same integer bounds. So
//!      `k = n + 1` is exact.
//! 4. `deadlock` (no discrete step now or after any allowed delay) at a grid
//!    point `v`: the delays `t` after which a given step is enabled form a
//!    closed interval whose ends are `c - v(x)`, i.e. grid values; so `v` is
//!    deadlocked densely iff it is deadlocked in the grid semantics, and the
//!    dense deadlocked set of a discrete state is a finite union of zones
//!    with integer bounds (the complement of the closed "enabled" zones).
//!    With integer time alone (`k = 1`) this is NOT exact: two steps enabled
//!    exactly when `x - y = 0` and `x - y = 1` leave `0 < x - y < 1`
//!    deadlocked, and no integer valuation has it. `not deadlock` is a union
//!    of closed zones, so it counts as closed.
//!
//! # Finiteness
//!
//! With `M` the largest constant (over the data ranges), a clock above `M`
//! satisfies the same non-diagonal constraints forever (until reset), so
//! clocks are capped at `M + 1`. With diagonal constraints that is unsound;
//! then valuations are normalised by the relation "same order of `0` and
//! the clocks, the same gaps between consecutive clocks capped at `M + 1`,
//! the same values capped at `M + R + 1`" (`R` the largest reset constant),
//! which is preserved by delays and resets (a reset puts a clock at
//! `c <= R`, and any clock at or above `M + R + 1` is then more than `M`
//! away from it) and decides every constraint with `|c| <= M`.

use kairos::network::{ClockConstraint, StateFormula};

/// The strict clock atoms of one conjunct of a DNF, as far as they matter
/// for integer time: whether it has a strict lower bound (`x > c`), a strict
/// upper bound (`x < c`), and how many strict diagonals (capped at 2).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Shape {
    lower: bool,
    upper: bool,
    diagonals: u8,
}

impl Shape {
    const CLOSED: Shape = Shape { lower: false, upper: false, diagonals: 0 };
    const DEADLOCK: Shape = Shape { lower: true, upper: true, diagonals: 2 };

    /// The strict atom `x_i - x_j < b` (`negated`: of the negation of
    /// `x_i - x_j ≺ b`, i.e. `x_j - x_i ≺' -b`).
    fn atom(c: &ClockConstraint, negated: bool) -> Shape {
        let strict = c.strict != negated;
        let (i, j) = if negated { (c.j, c.i) } else { (c.i, c.j) };
        match (strict, i, j) {
            (false, ..) => Shape::CLOSED,
            (true, 0, _) => Shape { lower: true, ..Shape::CLOSED },
            (true, _, 0) => Shape { upper: true, ..Shape::CLOSED },
            (true, ..) => Shape { diagonals: 1, ..Shape::CLOSED },
        }
    }

    fn and(self, o: Shape) -> Shape {
        Shape {
            lower: self.lower || o.lower,
            upper: self.upper || o.upper,
            diagonals: (self.diagonals + o.diagonals).min(2),
        }
    }

    /// The most strict edges a simple cycle of the conjunct's DBM can hold:
    /// a simple cycle passes the reference clock once, so it uses at most
    /// one lower and one upper bound.
    fn cost(self) -> usize {
        self.lower as usize + self.upper as usize + self.diagonals as usize
    }
}

fn shapes(f: &StateFormula, positive: bool) -> Vec<Shape> {
    let mut out: Vec<Shape> = match f {
        StateFormula::Pred(conjs) if positive => {
            conjs.iter().map(|c| c.clocks.iter().fold(Shape::CLOSED, |s, k| s.and(Shape::atom(k, false)))).collect()
        }
        StateFormula::Pred(conjs) => {
            // not (c1 or c2 ...) = (not c1) and (not c2) ...; each `not cj`
            // is a disjunction of negated atoms (a negated data condition
            // has no clock atom).
            let mut acc = vec![Shape::CLOSED];
            for c in conjs {
                let mut options = vec![Shape::CLOSED];
                options.extend(c.clocks.iter().map(|k| Shape::atom(k, true)));
                acc = acc.iter().flat_map(|a| options.iter().map(|o| a.and(*o))).collect();
                dedup(&mut acc);
            }
            acc
        }
        // Deadlocked valuations need the fine grid; the enabled ones (not
        // deadlocked) form a union of closed zones.
        StateFormula::Deadlock => vec![if positive { Shape::DEADLOCK } else { Shape::CLOSED }],
        StateFormula::Not(a) => shapes(a, !positive),
        StateFormula::And(a, b) | StateFormula::Or(a, b) => {
            let (x, y) = (shapes(a, positive), shapes(b, positive));
            if matches!(f, StateFormula::And(..)) == positive {
                x.iter().flat_map(|a| y.iter().map(|b| a.and(*b))).collect()
            } else {
                x.into_iter().chain(y).collect()
            }
        }
    };
    dedup(&mut out);
    out
}

fn dedup(v: &mut Vec<Shape>) {
    let mut seen = Vec::with_capacity(v.len());
    v.retain(|s| {
        let new = !seen.contains(s);
        if new {
            seen.push(*s);
        }
        new
    });
}

/// How many strict edges a simple cycle may hold in a conjunct of the DNF
/// of `f` (of `not f` when `!positive`): with at most one, integer time is
/// exact for `E<> f` (see the module comment); `deadlock` in a positive
/// position counts as 4.
pub fn strict_atoms(f: &StateFormula, positive: bool) -> usize {
    shapes(f, positive).into_iter().map(Shape::cost).max().unwrap_or(0)
}

/// How clock valuations are kept finite (in units of `1/k`).
#[derive(Clone, Copy, Debug)]
enum Norm {
    /// Every clock at most `cap`.
    Cap(i64),
    /// Diagonal constraints: the gap relation of the module comment; `gap`
    /// is `M + 1`, `top` is `M + R + 1` (scaled).
    Gaps { gap: i64, top: i64 },
}

/// The grid `(1/k)Z` for a network whose constraints have constants up to
/// `M` and whose resets go up to `R`.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    k: i64,
    norm: Norm,
}

impl Grid {
    pub fn new(k: i64, m: i64, max_reset: i64, diagonal: bool) -> Grid {
        let norm =
            if diagonal { Norm::Gaps { gap: k * m + 1, top: k * (m + max_reset) + 1 } } else { Norm::Cap(k * m + 1) };
        Grid { k, norm }
    }

    pub fn scale(&self) -> i64 {
        self.k
    }

    /// One time step of `1/k`.
    pub fn delay(&self, clocks: &mut [i64]) {
        for c in clocks {
            *c += 1;
        }
    }

    pub fn normalise(&self, clocks: &mut [i64]) {
        match self.norm {
            Norm::Cap(cap) => {
                for c in clocks.iter_mut() {
                    *c = (*c).min(cap);
                }
            }
            Norm::Gaps { gap, top } => {
                let mut order: Vec<usize> = (0..clocks.len()).collect();
                order.sort_by_key(|&i| clocks[i]);
                let (mut prev_old, mut prev_new) = (0i64, 0i64);
                for &i in &order {
                    let old = clocks[i];
                    let new = if old < top {
                        old
                    } else if old - prev_old < gap {
                        prev_new + (old - prev_old)
                    } else {
                        (prev_new + gap).max(top)
                    };
                    clocks[i] = new;
                    prev_old = old;
                    prev_new = new;
                }
            }
        }
    }
}
