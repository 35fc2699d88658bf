//! The exact polyhedra's basic questions at 3, 5 and 10 variables, on
//! polytopes of a fixed pseudo-random walk: a box `0 <= x_i <= 10` cut by
//! `2n` constraints with coefficients in `-2..=2`, each through a point
//! strictly inside (so the set stays non-empty), a third of them strict.
//!
//! - `canonical`: building the canonical form (emptiness, implicit
//!   equalities, redundancy, strictness), the price of every operation;
//! - `emptiness`: adding a constraint that empties the set (the canonical
//!   form stops at the failed feasibility test: the cost of emptiness);
//! - `inclusion`: `P ∩ H ⊆ P`, true, so every constraint of `P` is tested.
//!
//! Run: `cargo bench --bench poly`

use divan::{Bencher, black_box};
use kairos::domain::poly::{Constraint, Poly, Rel, q, unit};

fn main() {
    divan::main();
}

const VARS: [usize; 3] = [3, 5, 10];

struct Walk(u64);

impl Walk {
    fn next(&mut self, below: u64) -> i64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % below) as i64
    }
}

fn system(n: usize, seed: u64) -> Vec<Constraint> {
    let mut w = Walk(seed);
    let mut cons = Vec::new();
    for i in 0..n {
        cons.push(Constraint::ge(unit(n, i), q(0)));
        cons.push(Constraint::new(unit(n, i), Rel::Le, q(10)));
    }
    // Through the centre (5, .., 5) shifted outwards by 1 + a few.
    for k in 0..2 * n {
        let a: Vec<i64> = (0..n).map(|_| w.next(5) - 2).collect();
        let centre: i64 = a.iter().sum::<i64>() * 5;
        let rel = if k % 3 == 0 { Rel::Lt } else { Rel::Le };
        cons.push(Constraint::new(a.iter().map(|&x| q(x)).collect(), rel, q(centre + 1 + w.next(4))));
    }
    cons
}

#[divan::bench(args = VARS, sample_count = 20)]
fn canonical(b: Bencher, n: usize) {
    let cons = system(n, 7);
    b.bench(|| Poly::new(n, black_box(cons.clone())));
}

#[divan::bench(args = VARS, sample_count = 20)]
fn emptiness(b: Bencher, n: usize) {
    let p = Poly::new(n, system(n, 7));
    // x_0 + .. + x_{n-1} < 0 against x >= 0.
    let empty = Constraint::new(vec![q(1); n], Rel::Lt, q(0));
    b.bench(|| {
        let e = black_box(&p).constrain(black_box(empty.clone()));
        assert!(e.is_empty());
    });
}

#[divan::bench(args = VARS, sample_count = 20)]
fn inclusion(b: Bencher, n: usize) {
    let p = Poly::new(n, system(n, 7));
    let sub = p.constrain(Constraint::new(vec![q(1); n], Rel::Le, q(5 * n as i64)));
    assert!(!sub.is_empty());
    b.bench(|| assert!(black_box(&sub).is_subset_of(black_box(&p))));
}
