//! The symbolic transition system of a network (FORMAT.md section 1,
//! "Semantics"): initial states, discrete successors with time elapse
//! (TChecker's elapsed semantics: every state's zone is closed under the
//! delays its invariants allow), and the meaning of state formulas on
//! symbolic states.

mod broadcast;
mod deadlock;
mod error;
mod priority;
mod sat;
mod state;
mod successors;

pub use error::RunError;
pub use sat::Federation;
pub use state::{Cut, Discrete, LinearCut, Transition, ZoneState};
pub use successors::{Abstraction, ZoneGraph};
