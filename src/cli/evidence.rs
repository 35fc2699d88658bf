//! Traces and warnings as the user sees them: concrete runs, validated.

use serde_json::json;

use crate::engine;
use crate::network::Network;

/// The concrete, validated run behind a symbolic trace, with its network.
/// A trace that cannot be made concrete or fails validation is never
/// printed: that is an internal error, said on stderr, and the verdict
/// stands.
pub(super) fn concrete_trace<'n>(
    net: Option<&'n Network>,
    symbolic: Option<&engine::SymbolicTrace>,
) -> Option<(&'n Network, crate::trace::ConcreteTrace)> {
    let (net, symbolic) = (net?, symbolic?);
    // `concretise` validates what it returns.
    match crate::trace::concretise(net, symbolic) {
        Ok(t) => Some((net, t)),
        Err(e) => {
            eprintln!("kairos: internal error: no valid concrete trace could be built ({e}); please report it");
            None
        }
    }
}

/// A warning of property `name` as JSON (FORMAT.md section 7), its trace
/// made concrete on `net`.
pub(super) fn warning_json(name: &str, w: &engine::Warning, net: Option<&Network>) -> serde_json::Value {
    let trace =
        concrete_trace(net, w.trace.as_ref()).map_or(serde_json::Value::Null, |(net, t)| crate::trace::json(net, &t));
    json!({"property": name, "message": w.message, "trace": trace})
}

/// A warning of property `name` on stderr, with its concrete trace.
pub(super) fn print_warning(name: &str, w: &engine::Warning, net: Option<&Network>) {
    eprintln!("warning: {name}: {}", w.message);
    if let Some((net, t)) = concrete_trace(net, w.trace.as_ref()) {
        for line in crate::trace::text(net, &t).lines() {
            eprintln!("    {line}");
        }
    }
}

/// A concrete trace on stdout, indented under its verdict.
pub(super) fn print_trace(net: &Network, t: &crate::trace::ConcreteTrace) {
    for line in crate::trace::text(net, t).lines() {
        println!("    {line}");
    }
}

/// Where a nested verdict is decided: the index of the trace's last state
/// (0 is the initial state; a final delay is a state of its own, as in
/// JSON) and what holds or fails there.
pub(super) fn blame(
    symbolic: Option<&engine::SymbolicTrace>,
    t: &crate::trace::ConcreteTrace,
) -> Option<(usize, String, bool)> {
    let b = symbolic?.blame.as_ref()?;
    let step = t.steps.len() + usize::from(!num_traits::Zero::is_zero(&t.final_delay));
    Some((step, b.text.clone(), b.holds))
}

/// `at step 4, `A[Gate.down U Train.far]` fails`.
pub(super) fn print_blame(symbolic: Option<&engine::SymbolicTrace>, t: &crate::trace::ConcreteTrace) {
    if let Some((step, text, holds)) = blame(symbolic, t) {
        println!("    at step {step}, `{text}` {}", if holds { "holds" } else { "fails" });
    }
}

/// JSON `subformula`: `{"step": 4, "text": "...", "holds": false}`.
pub(super) fn blame_json(
    symbolic: Option<&engine::SymbolicTrace>,
    t: &crate::trace::ConcreteTrace,
) -> Option<serde_json::Value> {
    blame(symbolic, t).map(|(step, text, holds)| json!({"step": step, "text": text, "holds": holds}))
}

/// The timing diagram's note at the run's end: "`…` fails here".
pub(super) fn end_note(symbolic: Option<&engine::SymbolicTrace>, t: &crate::trace::ConcreteTrace) -> Option<String> {
    blame(symbolic, t).map(|(_, text, holds)| format!("`{text}` {} here", if holds { "holds" } else { "fails" }))
}
