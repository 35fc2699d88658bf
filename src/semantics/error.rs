//! Run-time errors of the model (FORMAT.md "Run-time errors").

use crate::network::{EvalError, Network};
use crate::semantics::Transition;

/// An evaluation failed while exploring: in the step `transition` (or while
/// building the initial states when `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    pub error: EvalError,
    pub transition: Option<Transition>,
}

impl RunError {
    /// A sentence for the user, with names.
    pub fn describe(&self, net: &Network) -> String {
        let what = match &self.error {
            EvalError::DivisionByZero => "division by zero".to_string(),
            EvalError::Overflow => "64-bit integer overflow".to_string(),
            EvalError::IndexOutOfBounds { index, len } => format!("array index {index} out of bounds (size {len})"),
            EvalError::OutOfRange { slot, value } => {
                let s = &net.slots[*slot as usize];
                format!("`{}` = {value} is outside its range [{}, {}]", s.name, s.lo, s.hi)
            }
            EvalError::RateConflict { var, first, second } => format!(
                "`{}` and `{}` both set the rate of `{}`",
                net.processes[*first as usize].name,
                net.processes[*second as usize].name,
                net.clocks[*var as usize - 1]
            ),
        };
        match &self.transition {
            Some(t) => {
                let edges: Vec<String> = t
                    .edges
                    .iter()
                    .map(|&(p, e)| {
                        let line = net.processes[p as usize].edges[e as usize].pos.line;
                        format!("{} (line {line})", net.edge_text(p, e))
                    })
                    .collect();
                format!("{what} in the step {}", edges.join(", "))
            }
            None => format!("{what} in the initial state"),
        }
    }
}
