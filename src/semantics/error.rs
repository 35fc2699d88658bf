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
        let what = self.error.describe(net);
        match &self.transition {
            Some(t) => {
                let edges: Vec<String> = t
                    .edges
                    .iter()
                    .map(|&(p, e)| {
                        let line = net.source_line(net.processes[p as usize].edges[e as usize].pos.line);
                        format!("{} (line {line})", net.edge_text(p, e))
                    })
                    .collect();
                format!("{what} in the step {}", edges.join(", "))
            }
            None => format!("{what} in the initial state"),
        }
    }
}
