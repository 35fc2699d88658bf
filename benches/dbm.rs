//! The DBM kernels of forward exploration, one by one, on zones of the
//! shape exploration produces (built by resets, delays and guards of a
//! fixed pseudo-random walk, so every run measures the same zones), at
//! 4, 8 and 16 clocks.
//!
//! Run: `cargo bench --bench dbm`

use divan::{Bencher, black_box};
use kairos::domain::zone::{Bound, Dbm};

fn main() {
    divan::main();
}

const CLOCKS: [usize; 3] = [4, 8, 16];

/// A fixed linear congruential sequence: reproducible without a crate.
struct Walk(u64);

impl Walk {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % below as u64) as usize
    }
}

/// A zone after `steps` rounds of: reset one clock, delay, bound one clock
/// from above (an invariant), bound another from below (a guard). Constants
/// stay below 20, as in the benchmark families.
fn zone(clocks: usize, steps: usize, seed: u64) -> Dbm {
    let mut walk = Walk(seed);
    let mut z = Dbm::zero(clocks + 1);
    for _ in 0..steps {
        z.reset(1 + walk.next(clocks), 0);
        z.up();
        let x = 1 + walk.next(clocks);
        let mut bounded = z.clone();
        if bounded.constrain(x, 0, Bound::le(10 + walk.next(10) as i32)) {
            z = bounded;
        }
        let y = 1 + walk.next(clocks);
        let mut guarded = z.clone();
        if guarded.constrain(0, y, Bound::le(-(walk.next(5) as i32))) {
            z = guarded;
        }
    }
    z
}

fn bounds(clocks: usize, value: i32) -> Vec<i32> {
    vec![value; clocks]
}

#[divan::bench(args = CLOCKS)]
fn close(bencher: Bencher, clocks: usize) {
    // A canonical zone with its upper bounds dropped and re-closed: the
    // full Floyd–Warshall pass extrapolation ends with.
    let z = zone(clocks, 3 * clocks, 1);
    bencher.with_inputs(|| z.clone()).bench_local_refs(|z| black_box(z.close()));
}

#[divan::bench(args = CLOCKS)]
fn constrain(bencher: Bencher, clocks: usize) {
    let z = zone(clocks, 3 * clocks, 2);
    bencher.with_inputs(|| z.clone()).bench_local_refs(|z| black_box(z.constrain(1, 0, Bound::le(3))));
}

#[divan::bench(args = CLOCKS)]
fn reset_and_delay(bencher: Bencher, clocks: usize) {
    let z = zone(clocks, 3 * clocks, 3);
    bencher.with_inputs(|| z.clone()).bench_local_refs(|z| {
        z.reset(1, 0);
        z.up();
    });
}

#[divan::bench(args = CLOCKS)]
fn extrapolate_lu_plus(bencher: Bencher, clocks: usize) {
    let z = zone(clocks, 3 * clocks, 4);
    let (lower, upper) = (bounds(clocks, 5), bounds(clocks, 8));
    bencher.with_inputs(|| z.clone()).bench_local_refs(|z| z.extrapolate_lu_plus(&lower, &upper));
}

#[divan::bench(args = CLOCKS)]
fn inclusion(bencher: Bencher, clocks: usize) {
    let (a, b) = (zone(clocks, 3 * clocks, 5), zone(clocks, 3 * clocks, 6));
    bencher.bench_local(|| black_box(&a).is_subset_of(black_box(&b)));
}

#[divan::bench(args = CLOCKS)]
fn alu_subsumption(bencher: Bencher, clocks: usize) {
    let (a, b) = (zone(clocks, 3 * clocks, 7), zone(clocks, 3 * clocks, 8));
    let (lower, upper) = (bounds(clocks, 5), bounds(clocks, 8));
    bencher.bench_local(|| black_box(&a).alu_subsumed(black_box(&b), &lower, &upper));
}
