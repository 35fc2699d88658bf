//! Packed bounds: encoding, order as tightness, sums, saturation.

use kairos::domain::zone::Bound;
use proptest::prelude::*;

fn make(c: i32, strict: bool) -> Bound {
    if strict { Bound::lt(c) } else { Bound::le(c) }
}

/// `{t | t ≺ c}` ⊆ `{t | t ≺' c'}` over the reals.
fn semantically_tighter_or_equal(c: i32, strict: bool, c2: i32, strict2: bool) -> bool {
    c < c2 || (c == c2 && (strict || !strict2))
}

/// Whether `t / 2` satisfies `t/2 ≺ c`.
fn admits_half(c: i32, strict: bool, t: i32) -> bool {
    if strict { t < 2 * c } else { t <= 2 * c }
}

#[test]
fn encoding_round_trips() {
    for c in [-6, -1, 0, 1, 6, 1 << 28, -(1 << 28), Bound::MAX_VALUE, Bound::MIN_VALUE] {
        for strict in [false, true] {
            let b = make(c, strict);
            assert!(b.is_finite());
            assert_eq!(b.value(), c);
            assert_eq!(b.is_strict(), strict);
            assert_eq!(Bound::from_raw(b.raw()), b);
        }
    }
    assert_eq!(Bound::le(3).raw(), 7);
    assert_eq!(Bound::lt(3).raw(), 6);
    assert_eq!(Bound::le(-3).raw(), -5);
    assert_eq!(Bound::lt(-3).raw(), -6);
    assert_eq!(Bound::LE_ZERO, Bound::le(0));
    assert_eq!(Bound::LT_ZERO, Bound::lt(0));
    assert!(!Bound::INF.is_finite());
    assert_eq!(Bound::INF.raw(), i32::MAX);
    assert_eq!(format!("{:?} {:?} {:?}", Bound::le(-2), Bound::lt(4), Bound::INF), "<=-2 <4 <inf");
}

#[test]
fn order_is_tightness() {
    for c in -6..=6 {
        for strict in [false, true] {
            let b = make(c, strict);
            assert!(b < Bound::INF);
            for c2 in -6..=6 {
                for strict2 in [false, true] {
                    let b2 = make(c2, strict2);
                    assert_eq!(b <= b2, semantically_tighter_or_equal(c, strict, c2, strict2), "{b:?} {b2:?}");
                    // min is the conjunction: it admits exactly the points both admit.
                    let both = b.min(b2);
                    for t in -30..=30 {
                        assert_eq!(
                            admits_half(both.value(), both.is_strict(), t),
                            admits_half(c, strict, t) && admits_half(c2, strict2, t)
                        );
                    }
                }
            }
        }
    }
    assert!(Bound::lt(Bound::MIN_VALUE) < Bound::le(Bound::MIN_VALUE));
    assert!(Bound::le(Bound::MAX_VALUE) < Bound::INF);
}

#[test]
fn sums_compose_paths() {
    for a in -6..=6 {
        for b in -6..=6 {
            for (sa, sb) in [(false, false), (false, true), (true, false), (true, true)] {
                let sum = make(a, sa) + make(b, sb);
                assert_eq!(sum.value(), a + b);
                assert_eq!(sum.is_strict(), sa || sb);
                assert_eq!(sum, make(b, sb) + make(a, sa));
                assert_eq!(make(a, sa) + Bound::INF, Bound::INF);
                assert_eq!(Bound::INF + make(a, sa), Bound::INF);
            }
        }
    }
    assert_eq!(Bound::INF + Bound::INF, Bound::INF);
    assert_eq!(Bound::le(1 << 28) + Bound::le(1 << 28), Bound::le(1 << 29));
    assert_eq!(Bound::lt(-(1 << 28)) + Bound::le(-(1 << 28)), Bound::lt(-(1 << 29)));
}

#[test]
fn sums_saturate_instead_of_wrapping() {
    let max = Bound::le(Bound::MAX_VALUE);
    let min = Bound::lt(Bound::MIN_VALUE);
    assert_eq!(max + Bound::LE_ZERO, max);
    assert_eq!(max + Bound::le(1), Bound::INF);
    assert_eq!(max + max, Bound::INF);
    assert_eq!(Bound::le(1 << 29) + Bound::le(1 << 29), Bound::INF);
    assert_eq!(min + Bound::LE_ZERO, min);
    assert_eq!(min + Bound::le(-1), min);
    assert_eq!(min + min, min);
    assert_eq!(Bound::le(Bound::MIN_VALUE) + Bound::lt(Bound::MIN_VALUE), min);
    // A negative cycle stays negative after saturation.
    assert!(min + min < Bound::LE_ZERO);
}

#[test]
fn complement_negates_and_flips() {
    for c in -6..=6 {
        for strict in [false, true] {
            let b = make(c, strict);
            let n = b.complement();
            assert_eq!(n.value(), -c);
            assert_eq!(n.is_strict(), !strict);
            assert_eq!(n.complement(), b);
            // ¬(t ≺ c)  ⇔  −t ≺' −c
            for t in -30..=30 {
                assert_eq!(!admits_half(c, strict, t), admits_half(n.value(), n.is_strict(), -t));
            }
        }
    }
    for c in [Bound::MAX_VALUE, Bound::MIN_VALUE] {
        for strict in [false, true] {
            assert_eq!(make(c, strict).complement().complement(), make(c, strict));
        }
    }
}

fn finite() -> impl Strategy<Value = Bound> {
    (Bound::MIN_VALUE..=Bound::MAX_VALUE, any::<bool>()).prop_map(|(c, s)| make(c, s))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn sum_is_exact_or_saturated(a in finite(), b in finite()) {
        let exact = i64::from(a.value()) + i64::from(b.value());
        let sum = a + b;
        if exact > i64::from(Bound::MAX_VALUE) {
            prop_assert_eq!(sum, Bound::INF);
        } else if exact < i64::from(Bound::MIN_VALUE) {
            prop_assert_eq!(sum, Bound::lt(Bound::MIN_VALUE));
        } else {
            prop_assert_eq!(i64::from(sum.value()), exact);
            prop_assert_eq!(sum.is_strict(), a.is_strict() || b.is_strict());
        }
        prop_assert_eq!(a + b, b + a);
    }

    #[test]
    fn sum_is_monotone(a in finite(), b in finite(), c in finite()) {
        if a <= b {
            prop_assert!(a + c <= b + c);
        }
    }

    #[test]
    fn order_matches_value_then_strictness(a in finite(), b in finite()) {
        let key = |x: Bound| (x.value(), !x.is_strict());
        prop_assert_eq!(a.cmp(&b), key(a).cmp(&key(b)));
    }
}
