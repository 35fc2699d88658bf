//! Convex polyhedra over exact rationals, with strict and non-strict
//! constraints (NNC), for linear hybrid automata.
//!
//! A polyhedron over variables `x_0 .. x_{dim-1}` is the set of rational
//! points satisfying a finite conjunction of constraints `a·x = b`,
//! `a·x <= b`, `a·x < b` ([`Constraint`]). Nothing is ever decided in floating
//! point: numbers are [`Q`], and every question (emptiness, redundancy,
//! bounds, inclusion) is answered by our exact simplex (`simplex`).
//!
//! Strictness is handled directly, not with an extra ε variable: the simplex
//! works over `Q + Qδ` with `δ` a symbolic positive infinitesimal
//! (`rational::Dq`), where `a·x < b` is `a·x <= b − δ`. A maximum `c + kδ`
//! with `k < 0` is a supremum `c` not attained. Fourier–Motzkin keeps
//! strictness exactly (`eliminate`).
//!
//! ## Canonical form
//! A non-empty polyhedron `P` is stored as the constraint system computed in
//! `canonical`, which depends only on the set, so derived `==` and `Hash`
//! are set equality:
//! 1. the affine hull of `P`, as equalities in reduced row echelon form
//!    (implicit equalities found by minimising each `<=` constraint);
//! 2. the facets of the closure `cl(P)`, each reduced modulo the equalities
//!    (zero on pivot columns) and normalised to coprime integers; inside the
//!    affine hull `cl(P)` is full-dimensional, so its irredundant facet system
//!    is unique;
//! 3. the strictness. `P` is `cl(P)` minus the faces the strict constraints
//!    cut off, and the cut faces are closed downwards, so the maximal ones
//!    determine `P`. Each maximal cut face `F` is written canonically as the
//!    strict sum of the facets containing it, which is valid on `cl(P)` and
//!    tight exactly on `F`; a cut facet is simply that facet made strict.
//!    (Minimal NNC systems are not unique otherwise: the quadrant minus its
//!    corner is cut by `x + y > 0` as well as by `x + 2y > 0`; this picks one.)
//!
//! The empty set has its own flag and no constraints. Every operation
//! returns canonical polyhedra; each canonicalisation costs a few simplex
//! runs per constraint, which is the price of exact equality and hashing.
//!
//! ## Operations
//! Intersection and inclusion (`polyhedron`), existential elimination
//! (`eliminate`), time elapse under a closed bounded rate polyhedron
//! (`elapse`), linear assignments and resets with their pre-images
//! (`assign`), the convex hull as an explicitly over-approximating union
//! (`hull`), the clock-set verbs the timed engines use (`clocks`), and the
//! linear verbs of hybrid automata in the engines' numbering (`linear`).

mod assign;
mod canonical;
mod clocks;
mod constraint;
mod elapse;
mod eliminate;
mod fast;
mod hull;
mod linear;
mod polyhedron;
mod rational;
mod simplex;

pub use clocks::PolyKey;
pub use constraint::{Constraint, LinExpr, Rel, dot};
pub use elapse::RateError;
pub use polyhedron::{Poly, Sup, unit};
pub use rational::{Q, q, qr};
