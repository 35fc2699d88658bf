//! The compiled network of a loaded model.

use super::{Input, Rejected};
use crate::diag::{Diagnostic, Pos};
use crate::domain::ClockSet;
use crate::domain::poly::{Poly, Q};
use crate::network::Network;
use crate::semantics::{Abstraction, ZoneGraph};

impl Input {
    /// The compiled network of a model without timing parameters (`None`
    /// for the others). Instantiation can still fail, and a model without
    /// any initial state is invalid (FORMAT.md section 1).
    pub fn network(&self) -> Result<Option<Network>, Rejected> {
        self.network_with(&[])
    }

    /// The compiled network with the timing parameters fixed to `params`
    /// (one value per parameter, in declaration order); `None` when some
    /// parameter has no value.
    pub fn network_with(&self, params: &[Q]) -> Result<Option<Network>, Rejected> {
        let m = &self.loaded.model;
        if params.len() != m.params.len() {
            return Ok(None);
        }
        let mut net = crate::network::build_with(m, params).map_err(|d| self.rejected(d))?;
        net.line_map = self.imported.as_ref().map(|t| t.line_map().into());
        // A run-time error here is reported by the check itself, with its trace.
        let none = if net.hybrid.is_some() {
            no_initial_state::<Poly>(&net)
        } else {
            no_initial_state::<crate::domain::zone::Dbm>(&net)
        };
        if none {
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

/// Whether no initial state meets the invariants (a run-time error is not
/// that: the check reports it with its trace).
fn no_initial_state<S: ClockSet>(net: &Network) -> bool {
    let mut initial = Vec::new();
    ZoneGraph::<S>::with_sets(net, Abstraction::None).initial_exact(&mut initial).is_ok() && initial.is_empty()
}
