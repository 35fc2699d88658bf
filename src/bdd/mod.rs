//! Data as BDDs: sets of data valuations for control-explicit,
//! data-symbolic checking (issue 16).
//!
//! A set of valuations of the data vector is the characteristic function of
//! their bit encodings ([`encode`]), a reduced ordered BDD ([`manager`]):
//! canonical, so equality of sets is equality of node ids, inclusion is
//! `f ∧ ¬g = ⊥`, union is `f ∨ g`. Integer expressions become vectors of
//! BDDs ([`word`]), compiled programs run on them symbolically ([`exec`]),
//! and guards and updates map sets to sets ([`step`]).
//!
//! The package is our own rather than `oxidd`: that crate (with its rule,
//! manager, cache and derive crates, rayon, crossbeam and bit-vector
//! dependencies) is a large build for the single-threaded operations needed
//! here (ite, ∃, an order-preserving rename, one path).

pub mod encode;
pub mod exec;
pub mod manager;
pub mod split;
pub mod step;
pub mod word;

pub use encode::Encoding;
pub use exec::Unsupported;
pub use manager::{Bdd, FALSE, Manager, TRUE};
pub use step::Split;
