//! Concrete traces: the symbolic path an engine found, turned into a run
//! with exact rational delays and clock values, checked by an independent
//! replay, and rendered for people (text) and programs (JSON, FORMAT.md
//! section 7).
//!
//! A concrete run alternates delays and discrete steps (FORMAT.md section
//! 1): from the initial state (every clock 0), wait `steps[0].delay`, take
//! `steps[0].transition` to reach `steps[0].after`, wait `steps[1].delay`,
//! and so on; after the last step, wait `final_delay` to reach the valuation
//! the verdict is about. [`concretise`] builds one from a
//! [`SymbolicTrace`](crate::engine::SymbolicTrace), [`validate`] replays it
//! on the concrete semantics without the zone code, [`text()`] and [`json()`]
//! print it.

pub mod concrete;
pub mod json;
pub(crate) mod lasso;
mod linear;
pub mod names;
mod schedule;
pub mod text;
pub mod validate;

pub use concrete::{ConcretiseError, concretise};
pub use json::json;
pub use text::text;
pub use validate::validate;

use crate::semantics::{Discrete, Transition};

/// Exact rational numbers: delays and clock values.
pub type Rational = num_rational::BigRational;

/// A concrete state: locations, data, and one value per clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConcreteState {
    pub discrete: Discrete,
    /// Slot `k - 1` is network clock `k` (`net.clocks[k - 1]`).
    pub clocks: Vec<Rational>,
}

/// Wait `delay` in the current state, then take `transition` to `after`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConcreteStep {
    pub delay: Rational,
    pub transition: Transition,
    pub after: ConcreteState,
}

/// A run from an initial state; see the module doc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConcreteTrace {
    pub initial: ConcreteState,
    pub steps: Vec<ConcreteStep>,
    /// The delay after the last step that reaches the valuation the
    /// verdict is about (0 when the last step lands on it).
    pub final_delay: Rational,
    /// A lasso (FORMAT.md section 7): the loop is `steps[k..]`. Its first
    /// and last steps are progress marks (no edges, nothing changes), and
    /// so may be steps in between; see [`validate`] for what makes the
    /// loop repeatable with time diverging.
    pub loop_start: Option<usize>,
    /// In a linear network, the rate vector of every delay (the steps'
    /// delays, then the final one; slot `k - 1` is variable `k`): each
    /// within its state's rate intervals. `None`: every rate is 1.
    pub rates: Option<Vec<Vec<Rational>>>,
}

impl ConcreteTrace {
    /// The state before the final delay.
    pub fn last(&self) -> &ConcreteState {
        self.steps.last().map_or(&self.initial, |s| &s.after)
    }

    /// The state the run ends in, after the final delay.
    pub fn end(&self) -> ConcreteState {
        let last = self.last();
        let d = &self.final_delay;
        let clocks = match self.rates.as_ref().and_then(|r| r.last()) {
            Some(r) => last.clocks.iter().zip(r).map(|(c, r)| c + d * r).collect(),
            None => last.clocks.iter().map(|c| c + d).collect(),
        };
        ConcreteState { discrete: last.discrete.clone(), clocks }
    }

    /// The total time the run takes.
    pub fn duration(&self) -> Rational {
        self.steps.iter().fold(self.final_delay.clone(), |acc, s| acc + &s.delay)
    }
}
