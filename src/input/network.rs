//! The compiled network of a loaded model.

use super::{Input, Rejected};
use crate::diag::{Diagnostic, Pos};
use crate::network::Network;
use crate::semantics::{Abstraction, ZoneGraph};

impl Input {
    /// The compiled network of a timed, parameter-free model (`None` for
    /// the others, whose engines do not exist yet). Instantiation can still
    /// fail, and a model without any initial state is invalid (FORMAT.md
    /// section 1).
    pub fn network(&self) -> Result<Option<Network>, Rejected> {
        let m = &self.loaded.model;
        if m.hybrid || !m.params.is_empty() {
            return Ok(None);
        }
        let net = crate::network::build(m).map_err(|d| self.rejected(d))?;
        let mut zg = ZoneGraph::new(&net, Abstraction::None);
        let mut initial = Vec::new();
        // A run-time error here is reported by the check itself, with its trace.
        if zg.initial_exact(&mut initial).is_ok() && initial.is_empty() {
            let pos = m.instances.first().map_or(Pos { index: 0, line: 1, column: 1 }, |i| i.pos);
            let d = Diagnostic::new(
                self.model_src.loc(pos, 1),
                "no-initial-state",
                "no initial state satisfies every invariant",
            )
            .with_hint("check the invariants of the initial locations against the initial values");
            return Err(self.rejected(vec![d]));
        }
        Ok(Some(net))
    }
}
