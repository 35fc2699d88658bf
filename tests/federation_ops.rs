//! Federations (unions of zones) against point sets: each operation's
//! result is compared, point by point, with the oracle of `dbm_support.rs`
//! applied to the constraint lists the members were built from.

use crate::support;

use kairos::domain::federation::Federation;
use kairos::domain::zone::{Bound, Dbm};
use proptest::prelude::*;
use support::*;

/// A union of samples, kept with the federation built from their DBMs.
#[derive(Clone, Debug)]
struct Union {
    members: Vec<Sample>,
    fed: Federation,
}

impl Union {
    fn new(members: Vec<Sample>) -> Union {
        let mut fed = Federation::empty();
        for m in &members {
            fed.push(m.dbm.clone());
        }
        Union { members, fed }
    }

    fn contains(&self, p: &[i64], den: i64) -> bool {
        self.members.iter().any(|m| m.contains(p, den))
    }
}

fn union_of(dim: usize, bounded: bool) -> impl Strategy<Value = Union> {
    let member = if bounded { bounded_sample(dim).boxed() } else { sample(dim).boxed() };
    prop::collection::vec(member, 0..=3).prop_map(Union::new)
}

fn union_pair() -> impl Strategy<Value = (Union, Union)> {
    dims().prop_flat_map(|d| (union_of(d, false), union_of(d, false)))
}

/// Every member non-empty and canonical: the federation's own promise.
fn well_formed(f: &Federation) -> bool {
    f.zones.iter().all(|z| !z.is_empty() && z.is_canonical())
}

fn points(dim: usize) -> (i64, Vec<Vec<i64>>) {
    let den = pointwise_denominator(dim - 1);
    (den, grid(dim - 1, den, GRID_MAX))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn boolean_operations_agree_with_points((a, b) in union_pair(), inv in dims().prop_flat_map(sample)) {
        let dim = a.members.first().or(b.members.first()).map_or(inv.dim, |m| m.dim);
        prop_assume!(inv.dim == dim);
        let union = a.fed.clone().union(b.fed.clone());
        let meet = a.fed.intersect(&b.fed);
        let diff = a.fed.subtract(&b.fed);
        let compl = a.fed.complement_within(&inv.dbm);
        for f in [&union, &meet, &diff, &compl] {
            prop_assert!(well_formed(f));
        }
        let (den, grid) = points(dim);
        for p in &grid {
            let (in_a, in_b) = (a.contains(p, den), b.contains(p, den));
            prop_assert_eq!(union.contains_point(p, den), in_a || in_b, "∪ at {:?}/{}", p, den);
            prop_assert_eq!(meet.contains_point(p, den), in_a && in_b, "∩ at {:?}/{}", p, den);
            prop_assert_eq!(diff.contains_point(p, den), in_a && !in_b, "\\ at {:?}/{}", p, den);
            prop_assert_eq!(compl.contains_point(p, den), inv.contains(p, den) && !in_a, "complement at {:?}", p);
        }
    }

    /// Inclusion and equality are exact: with the left operand inside the
    /// box, the witness grid meets every region of `A \ B` (see
    /// dbm_support.rs), so the grid decides inclusion.
    #[test]
    fn inclusion_is_exact(
        (a, b) in dims().prop_flat_map(|d| (union_of(d, true), union_of(d, false))),
        share in any::<bool>(),
    ) {
        // Half the time B also contains A's members, so inclusion happens.
        let b = if share {
            let mut members = b.members.clone();
            members.extend(a.members.iter().cloned());
            Union::new(members)
        } else {
            b
        };
        let Some(dim) = a.members.first().map(|m| m.dim) else { return Ok(()) };
        let den = witness_denominator(dim - 1);
        let included = grid(dim - 1, den, BOX).iter().all(|p| !a.contains(p, den) || b.contains(p, den));
        prop_assert_eq!(a.fed.is_subset_of(&b.fed), included);
        let joined = b.fed.clone().union(a.fed.clone());
        prop_assert_eq!(joined.same_set(&b.fed), included);
    }

    #[test]
    fn reduce_keeps_the_set_and_leaves_no_member_inside_another((a, b) in union_pair()) {
        let mut f = a.fed.clone().union(b.fed.clone()).union(a.fed.intersect(&b.fed));
        let before = f.clone();
        f.reduce();
        prop_assert!(well_formed(&f));
        prop_assert!(f.zones.len() <= before.zones.len());
        for (k, z) in f.zones.iter().enumerate() {
            for (l, o) in f.zones.iter().enumerate() {
                prop_assert!(k == l || !z.is_subset_of(o), "member {} inside member {}", k, l);
            }
        }
        let Some(dim) = f.zones.first().map(Dbm::dim) else { return Ok(()) };
        let (den, grid) = points(dim);
        for p in &grid {
            prop_assert_eq!(f.contains_point(p, den), before.contains_point(p, den), "at {:?}/{}", p, den);
        }
    }

    /// Two halves of one zone cut by a constraint merge back into one member.
    #[test]
    fn reduce_merges_a_convex_union(a in any_sample(), k in dims().prop_flat_map(constraint)) {
        prop_assume!(k.i < a.dim && k.j < a.dim);
        let mut f = Federation::from_zone(a.dbm.clone()).constrain(k.i, k.j, k.bound());
        let mut other = a.dbm.clone();
        let neg = k.negated();
        if other.constrain(neg.i, neg.j, neg.bound()) {
            f.push(other);
        }
        f.reduce();
        prop_assert!(f.zones.len() <= 1);
        prop_assert_eq!(f.zones.first(), (!a.dbm.is_empty()).then_some(&a.dbm));
    }

    #[test]
    fn hull_is_the_least_zone_above_both((a, c) in related_pair(), b in any_sample()) {
        prop_assume!(b.dim == a.dim);
        let h = a.dbm.hull(&b.dbm);
        prop_assert!(h.is_canonical());
        prop_assert!(a.dbm.is_subset_of(&h) && b.dbm.is_subset_of(&h));
        if a.dbm.is_subset_of(&c.dbm) && b.dbm.is_subset_of(&c.dbm) {
            prop_assert!(h.is_subset_of(&c.dbm));
        }
        // The hull of a zone and its own sub-zone is the zone.
        let mut inner = a.dbm.clone();
        inner.intersect(&c.dbm);
        prop_assert_eq!(a.dbm.hull(&inner), a.dbm.clone());
    }

    #[test]
    fn time_and_reset_operations_agree_with_points(a in dims().prop_flat_map(|d| union_of(d, false)), x in 1usize..4, value in 0i32..4) {
        let Some(dim) = a.members.first().map(|m| m.dim) else { return Ok(()) };
        prop_assume!(x < dim);
        let (up, down, free) = (a.fed.up(), a.fed.down(), a.fed.free(x));
        let (reset, back) = (a.fed.reset(x, value), a.fed.reset_pre(x, value));
        for f in [&up, &down, &free, &reset, &back] {
            prop_assert!(well_formed(f));
        }
        let (den, grid) = points(dim);
        for p in &grid {
            let some = |f: &dyn Fn(&Sample) -> bool| a.members.iter().any(f);
            prop_assert_eq!(up.contains_point(p, den), some(&|s| in_up(s, p, den)), "up at {:?}", p);
            prop_assert_eq!(down.contains_point(p, den), some(&|s| in_down(s, p, den)), "down at {:?}", p);
            prop_assert_eq!(free.contains_point(p, den), some(&|s| in_some_value_of(s, p, den, x)), "free at {:?}", p);
            let at_value = p[x - 1] == i64::from(value) * den;
            prop_assert_eq!(
                reset.contains_point(p, den),
                at_value && some(&|s| in_some_value_of(s, p, den, x)),
                "reset at {:?}", p
            );
            let mut image = p.clone();
            image[x - 1] = i64::from(value) * den;
            prop_assert_eq!(back.contains_point(p, den), a.contains(&image, den), "reset_pre at {:?}", p);
        }
    }

    /// `pred_t(G, B)`: some delay reaches G while `[v, v + d]` avoids B.
    /// Oracle: the delays into a member g form an interval; those whose
    /// prefix misses a member b end before b's first delay (strictly when
    /// that first delay is itself in b).
    #[test]
    fn safe_timed_predecessor_agrees_with_points((g, b) in union_pair()) {
        let p_t = g.fed.pred_t(&b.fed);
        prop_assert!(well_formed(&p_t));
        let Some(dim) = g.members.first().map(|m| m.dim) else {
            prop_assert!(p_t.is_empty());
            return Ok(());
        };
        let (den, grid) = points(dim);
        for p in &grid {
            let expected = g.members.iter().any(|gm| {
                let Some(mut d) = delays_into(gm, p, den) else { return false };
                for bm in &b.members {
                    if let Some(e) = delays_into(bm, p, den).filter(|e| e.is_nonempty()) {
                        let (lo, open) = e.lo.expect("delays are >= 0");
                        d.below(lo, !open);
                    }
                }
                d.is_nonempty()
            });
            prop_assert_eq!(p_t.contains_point(p, den), expected, "at {:?}/{}", p, den);
        }
    }

    /// Appending free clocks is a product with ℝ≥0; projecting them away is
    /// "some value of the dropped clock".
    #[test]
    fn clocks_appended_and_projected(a in dims().prop_flat_map(sample)) {
        let wide = a.dbm.with_clocks_appended(1);
        prop_assert!(wide.is_canonical() && wide.dim() == a.dim + 1);
        prop_assert_eq!(wide.projected_to(a.dim), a.dbm.clone());
        let (den, grid) = points(a.dim + 1);
        for p in &grid {
            prop_assert_eq!(wide.contains_point(p, den), a.contains(&p[..a.dim - 1], den), "at {:?}", p);
        }
        // Projection of a zone over one more clock.
        let extra = Sample::new(a.dim + 1, a.constraints.clone());
        let mut narrowed = extra.dbm.clone();
        narrowed.constrain(a.dim, 1.min(a.dim - 1), Bound::le(1));
        let projected = narrowed.projected_to(a.dim);
        let (den, grid) = points(a.dim);
        let oracle = Sample::new(a.dim + 1, {
            let mut cs = a.constraints.clone();
            cs.push(Constraint { i: a.dim, j: 1.min(a.dim - 1), c: 1, strict: false });
            cs
        });
        for p in &grid {
            let mut q = p.clone();
            q.push(0);
            prop_assert_eq!(projected.contains_point(p, den), in_some_value_of(&oracle, &q, den, a.dim), "at {:?}", p);
        }
    }
}
