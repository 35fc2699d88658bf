//! Sets of parameter valuations: finite unions of NNC polyhedra over the
//! parameters, inside the box the model's bounds give, with the set
//! operations synthesis needs and the text users read.
//!
//! Every operation is exact (the polyhedra library decides on rationals).
//! The printed form is simplified but denotes the same set within the box:
//! members covered by another are dropped, two members whose convex hull
//! is their union are merged, and a constraint the box and the member's
//! other constraints imply is not printed.

use num_traits::{Signed, Zero};

use crate::domain::poly::{Constraint, Poly, Q, Rel};

/// A union of polyhedra over the parameters, each inside `bounds`.
#[derive(Clone, Debug)]
pub struct ParamSet {
    pub bounds: Poly,
    pub members: Vec<Poly>,
}

impl ParamSet {
    pub fn empty(bounds: Poly) -> ParamSet {
        ParamSet { bounds, members: Vec::new() }
    }

    /// Adds `p ∩ bounds`, keeping no member inside another.
    pub fn add(&mut self, p: &Poly) {
        let p = p.intersect(&self.bounds);
        if p.is_empty() || self.members.iter().any(|m| p.is_subset_of(m)) {
            return;
        }
        self.members.retain(|m| !m.is_subset_of(&p));
        self.members.push(p);
    }

    pub fn contains(&self, point: &[Q]) -> bool {
        self.members.iter().any(|m| m.contains(point))
    }

    /// `bounds \ self`.
    pub fn complement(&self) -> ParamSet {
        let mut pieces = vec![self.bounds.clone()];
        for m in &self.members {
            pieces = pieces.iter().flat_map(|p| p.subtract_pieces(m)).collect();
        }
        let mut out = ParamSet::empty(self.bounds.clone());
        for p in &pieces {
            out.add(p);
        }
        out.simplify();
        out
    }

    /// Whether every member lies in the union `other`.
    pub fn is_subset_of(&self, other: &ParamSet) -> bool {
        self.members.iter().all(|m| {
            let mut rest = vec![m.clone()];
            for o in &other.members {
                rest = rest.iter().flat_map(|p| p.subtract_pieces(o)).collect();
            }
            rest.is_empty()
        })
    }

    pub fn same_set(&self, other: &ParamSet) -> bool {
        self.is_subset_of(other) && other.is_subset_of(self)
    }

    /// Merges members whose convex hull is exactly their union, until none do.
    pub fn simplify(&mut self) {
        'again: loop {
            for i in 0..self.members.len() {
                for j in i + 1..self.members.len() {
                    let (a, b) = (&self.members[i], &self.members[j]);
                    let h = exact_hull(a, b);
                    if let Some(h) = h {
                        self.members.swap_remove(j);
                        self.members.swap_remove(i);
                        self.add(&h);
                        continue 'again;
                    }
                }
            }
            break;
        }
        self.members.sort();
    }

    /// The set as a formula over `names`: `false`, `true` (the whole box),
    /// or a disjunction of conjunctions of linear comparisons.
    pub fn text(&self, names: &[String]) -> String {
        if self.members.is_empty() {
            return "false".into();
        }
        let conjs: Vec<Vec<String>> =
            self.members.iter().map(|m| self.shown(m).iter().map(|c| constraint_text(c, names)).collect()).collect();
        if conjs.iter().any(Vec::is_empty) {
            return "true".into();
        }
        let several = conjs.len() > 1;
        let conj = |c: &Vec<String>| {
            let t = c.join(" and ");
            if several && c.len() > 1 { format!("({t})") } else { t }
        };
        conjs.iter().map(conj).collect::<Vec<_>>().join(" or ")
    }

    /// The constraints of `m` worth printing: those the box and the others
    /// do not imply.
    pub fn shown(&self, m: &Poly) -> Vec<Constraint> {
        let mut kept: Vec<Constraint> = m.constraints().to_vec();
        let mut k = 0;
        while k < kept.len() {
            let mut others = kept.clone();
            others.remove(k);
            let without = self.bounds.intersect(&Poly::new(m.dim(), others.clone()));
            if without == *m {
                kept = others;
            } else {
                k += 1;
            }
        }
        kept
    }
}

/// `a ∪ b` when it is convex: their hull, if the hull adds no point.
fn exact_hull(a: &Poly, b: &Poly) -> Option<Poly> {
    // The hull is closed; the union's points may miss boundary points the
    // hull has, so compare with the closure-free union by subtraction.
    let h = a.hull_over(b);
    let mut rest = h.subtract_pieces(a);
    rest = rest.iter().flat_map(|p| p.subtract_pieces(b)).collect();
    if rest.is_empty() {
        return Some(h);
    }
    // A strict hull: the union is `h` minus some of its boundary; try the
    // polyhedron of the constraints valid on both (a candidate, checked).
    let cand: Vec<Constraint> = a
        .constraints()
        .iter()
        .chain(b.constraints())
        .filter(|c| {
            let p = Poly::new(a.dim(), vec![(*c).clone()]);
            a.is_subset_of(&p) && b.is_subset_of(&p)
        })
        .cloned()
        .collect();
    let c = Poly::new(a.dim(), cand);
    let mut rest = c.subtract_pieces(a);
    rest = rest.iter().flat_map(|p| p.subtract_pieces(b)).collect();
    rest.is_empty().then_some(c)
}

/// A parameter's index and its coefficient.
type Term<'a> = (usize, &'a Q);

/// `a·x ⋈ b` written with positive coefficients on each side: `b > a`,
/// `m > 6`, `2*x + y <= 7/2`.
pub fn constraint_text(c: &Constraint, names: &[String]) -> String {
    let terms = c.coeffs.iter().enumerate().filter(|(_, a)| !a.is_zero());
    let (pos, neg): (Vec<Term>, Vec<Term>) = terms.partition(|(_, a)| a.is_positive());
    let term = |(k, a): &(usize, Q)| {
        if a == &Q::from_integer(1.into()) { names[*k].clone() } else { format!("{}*{}", a, names[*k]) }
    };
    let side = |ts: &[(usize, Q)], constant: &Q| {
        let mut parts: Vec<String> = ts.iter().map(term).collect();
        if !constant.is_zero() || parts.is_empty() {
            let s = constant.to_string();
            if parts.is_empty() || constant.is_positive() {
                parts.push(s);
            } else {
                return format!("{} - {}", parts.join(" + "), -constant);
            }
        }
        parts.join(" + ")
    };
    let abs = |v: &[Term]| v.iter().map(|(k, a)| (*k, a.abs())).collect::<Vec<_>>();
    let (pos, neg) = (abs(&pos), abs(&neg));
    // `pos·x ⋈ neg·x + b`; with no positive term, read it the other way
    // round (`-m < -6` is `m > 6`).
    let (rel_fwd, rel_back) = match c.rel {
        Rel::Eq => ("==", "=="),
        Rel::Le => ("<=", ">="),
        Rel::Lt => ("<", ">"),
    };
    if pos.is_empty() {
        format!("{} {rel_back} {}", side(&neg, &Q::zero()), side(&[], &-&c.rhs))
    } else {
        format!("{} {rel_fwd} {}", side(&pos, &Q::zero()), side(&neg, &c.rhs))
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse;
    use super::*;
    use crate::domain::poly::q;

    fn square() -> (Vec<String>, Poly) {
        (vec!["a".into(), "b".into()], Poly::boxed(&[(q(0), q(10)), (q(0), q(10))]))
    }

    #[test]
    fn sets_compare_by_their_points_not_their_text() {
        let (names, bounds) = square();
        let set = |t: &str| parse(t, &names, &bounds).unwrap();
        assert!(set("b > a").same_set(&set("a < b and b <= 10")));
        assert!(set("b > a").same_set(&set("(b > a and a < 5) or (b > a and a >= 5)")));
        assert!(set("a >= 0").same_set(&set("true")));
        assert!(set("a > 10").same_set(&set("false")));
        assert!(!set("b > a").same_set(&set("b >= a")));
        assert!(!set("b > a").same_set(&set("b > a + 1/1000")));
        assert!(set("2*a <= 3").same_set(&set("a <= 3/2")));
    }

    #[test]
    fn complement_and_text_are_exact_and_simplified() {
        let (names, bounds) = square();
        let s = parse("b > a", &names, &bounds).unwrap();
        let c = s.complement();
        assert_eq!(c.text(&names), "b <= a");
        assert!(c.complement().same_set(&s));
        // Two halves meeting at an open seam merge into one member.
        let mut halves = parse("a < 5 or a >= 5", &names, &bounds).unwrap();
        halves.simplify();
        assert_eq!(halves.text(&names), "true");
        let mut pieces = parse("(a > 6 and a <= 8) or (a > 8 and a <= 10)", &names, &bounds).unwrap();
        pieces.simplify();
        assert_eq!(pieces.text(&names), "a > 6");
        // Members print in the canonical order of their polyhedra.
        assert_eq!(parse("a < 1 or a >= 3", &names, &bounds).unwrap().text(&names), "a >= 3 or a < 1");
        for p in [[q(0), q(0)], [qr(1, 2), q(0)], [q(1), q(3)], [q(3), q(3)]] {
            let two = parse("a >= 3 or a < 1", &names, &bounds).unwrap();
            assert_eq!(two.contains(&p), p[0] >= q(3) || p[0] < q(1));
        }
    }

    use crate::domain::poly::qr;
}
