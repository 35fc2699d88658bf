//! Readable constraints: hand-checked texts, and a round trip through a
//! small parser showing that the text denotes exactly the zone.

use crate::support;

use kairos::domain::zone::{Bound, Dbm};
use proptest::prelude::*;
use support::*;

const NAMES: [&str; 3] = ["x", "y", "z"];

fn show(d: &Dbm) -> String {
    d.display(&NAMES[..d.dim() - 1]).to_string()
}

fn zone(dim: usize, constraints: &[(usize, usize, Bound)]) -> Dbm {
    let mut d = Dbm::universe(dim);
    for &(i, j, b) in constraints {
        d.constrain(i, j, b);
    }
    d
}

fn bound(op: &str, c: i32) -> Bound {
    match op {
        "<" => Bound::lt(c),
        "<=" => Bound::le(c),
        _ => panic!("unknown operator {op}"),
    }
}

/// Parses what `display` prints back into a DBM over `dim − 1` clocks.
fn parse(text: &str, dim: usize) -> Dbm {
    let mut d = Dbm::universe(dim);
    if text == "true" {
        return d;
    }
    if text == "false" {
        d.constrain(1, 0, Bound::lt(0));
        return d;
    }
    let index = |name: &str| 1 + NAMES.iter().position(|n| *n == name).expect("known clock");
    for atom in text.split(" && ") {
        let tokens: Vec<&str> = atom.split(' ').collect();
        let mut rest = &tokens[..];
        let mut lower = None;
        if let Ok(c) = rest[0].parse::<i32>() {
            lower = Some((rest[1], c));
            rest = &rest[2..];
        }
        // The term: `a` or `a - b`, as (i, j) for x_i − x_j.
        let (i, j, after) = if rest.len() >= 3 && rest[1] == "-" {
            (index(rest[0]), index(rest[2]), &rest[3..])
        } else {
            (index(rest[0]), 0, &rest[1..])
        };
        match after {
            [] => {}
            ["==", c] => {
                let c: i32 = c.parse().unwrap();
                d.constrain(i, j, Bound::le(c));
                d.constrain(j, i, Bound::le(-c));
            }
            [op, c] => {
                d.constrain(i, j, bound(op, c.parse().unwrap()));
            }
            _ => panic!("cannot parse {atom:?}"),
        }
        if let Some((op, c)) = lower {
            // c ≺ x_i − x_j  ⇔  x_j − x_i ≺ −c
            d.constrain(j, i, bound(op, -c));
        }
    }
    d
}

#[test]
fn universe_empty_and_zero() {
    assert_eq!(show(&Dbm::universe(3)), "true");
    assert_eq!(show(&Dbm::zero(3)), "x == 0 && y == 0");
    let empty = zone(3, &[(1, 0, Bound::lt(0))]);
    assert_eq!(show(&empty), "false");
}

#[test]
fn single_clock_bounds_merge_into_ranges() {
    let d = zone(3, &[(1, 0, Bound::le(3)), (0, 2, Bound::lt(-1))]);
    assert_eq!(show(&d), "x <= 3 && 1 < y");
    let d = zone(3, &[(2, 0, Bound::le(5)), (0, 2, Bound::lt(-1))]);
    assert_eq!(show(&d), "1 < y <= 5");
    let d = zone(3, &[(1, 0, Bound::le(2)), (0, 1, Bound::le(-2))]);
    assert_eq!(show(&d), "x == 2");
    let d = zone(3, &[(0, 1, Bound::lt(0))]);
    assert_eq!(show(&d), "0 < x");
}

#[test]
fn differences_only_when_not_implied() {
    // x <= 3 && 1 < y already give x − y < 2.
    let d = zone(3, &[(1, 0, Bound::le(3)), (0, 2, Bound::lt(-1)), (1, 2, Bound::le(2))]);
    assert_eq!(show(&d), "x <= 3 && 1 < y");
    let d = zone(3, &[(1, 0, Bound::le(3)), (0, 2, Bound::lt(-1)), (1, 2, Bound::le(1))]);
    assert_eq!(show(&d), "x <= 3 && 1 < y && x - y <= 1");
    let d = zone(3, &[(1, 2, Bound::le(2)), (2, 1, Bound::lt(1))]);
    assert_eq!(show(&d), "-1 < x - y <= 2");
    let d = zone(3, &[(1, 2, Bound::le(1)), (2, 1, Bound::le(-1))]);
    // x − y == 1 implies x >= 1.
    assert_eq!(show(&d), "1 <= x && x - y == 1");
    let d = zone(3, &[(2, 1, Bound::lt(1))]);
    assert_eq!(show(&d), "y - x < 1");
    let d = zone(4, &[(3, 1, Bound::le(-4))]);
    assert_eq!(show(&d), "4 <= x && z - x <= -4");
    let mut diagonal = Dbm::zero(4);
    diagonal.up();
    assert_eq!(show(&diagonal), "x - y == 0 && x - z == 0 && y - z == 0");
}

#[test]
fn large_constants() {
    let big = 1 << 28;
    let d = zone(2, &[(1, 0, Bound::le(big)), (0, 1, Bound::lt(-big + 1))]);
    assert_eq!(show(&d), "268435455 < x <= 268435456");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn text_round_trips(s in any_sample()) {
        let text = show(&s.dbm);
        let parsed = parse(&text, s.dim);
        prop_assert_eq!(&parsed, &s.dbm, "text {}", text);
        // Deterministic: equal zones print equal texts.
        prop_assert_eq!(show(&parsed), text);
    }
}
