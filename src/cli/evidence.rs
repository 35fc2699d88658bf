//! Traces and warnings as the user sees them: concrete runs, validated.

use serde_json::json;

use num_traits::Zero;

use crate::engine::{self, Shown};
use crate::network::Network;
use crate::trace::Rational;

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

/// The subformulas that decide a nested verdict, outermost first (each
/// next one where the evidence of the one before ends).
fn blames(symbolic: Option<&engine::SymbolicTrace>) -> Vec<&engine::Blame> {
    let mut out = Vec::new();
    let mut next = symbolic.and_then(|s| s.blame.as_ref());
    while let Some(b) = next {
        out.push(b);
        next = b.then.as_deref();
    }
    out
}

/// Where on `t` a blame's point is: the index of a state (0 is the
/// initial state; a final delay is a state of its own, as in JSON), and
/// how long after it, inside the delay that follows (0 at the state).
fn point(t: &crate::trace::ConcreteTrace, b: &engine::Blame) -> (usize, Rational) {
    let end = t.steps.len() + usize::from(!t.final_delay.is_zero());
    match &b.at {
        None => (end, Rational::zero()),
        Some((n, d)) if *n == t.steps.len() && *d == t.final_delay => (end, Rational::zero()),
        Some((n, d)) => (*n, d.clone()),
    }
}

/// What the trace shows of the subformula from its point, in words.
fn shown_text(b: &engine::Blame) -> &'static str {
    match b.shown {
        Shown::Point => "",
        Shown::Path => "; the run from there on shows it",
        Shown::Lasso => "; the run from there on (a lasso) shows it",
        Shown::EveryRun => " (that is about every run from there: no trace can show it, so the trace ends there)",
        Shown::Missing => " (the run that would show it could not be built: the trace ends there)",
    }
}

fn shown_name(s: Shown) -> &'static str {
    match s {
        Shown::Point => "point",
        Shown::Path => "path",
        Shown::Lasso => "lasso",
        Shown::EveryRun => "every-run",
        Shown::Missing => "missing",
    }
}

/// `at step 4, `A[Gate.down U Train.far]` fails; the run from there on
/// (a lasso) shows it`, a line per subformula.
pub(super) fn print_blame(symbolic: Option<&engine::SymbolicTrace>, t: &crate::trace::ConcreteTrace) {
    for b in blames(symbolic) {
        let (step, delay) = point(t, b);
        let after = if delay.is_zero() { String::new() } else { format!(" (after a delay of {delay} there)") };
        let value = if b.holds { "holds" } else { "fails" };
        println!("    at step {step}{after}, `{}` {value}{}", b.text, shown_text(b));
    }
}

/// JSON `subformula`: `{"step": 4, "delay": "0", "text": "...", "holds":
/// false, "shown": "lasso"}`, with `then` for the next one.
pub(super) fn blame_json(
    symbolic: Option<&engine::SymbolicTrace>,
    t: &crate::trace::ConcreteTrace,
) -> Option<serde_json::Value> {
    blames(symbolic).iter().rev().fold(None, |then, b| {
        let (step, delay) = point(t, b);
        let mut v = json!({"step": step, "delay": delay.to_string(), "text": b.text, "holds": b.holds,
                           "shown": shown_name(b.shown)});
        if let Some(then) = then {
            v["then"] = then;
        }
        Some(v)
    })
}

/// The timing diagram's note at the run's end: "`…` fails here", when the
/// last deciding subformula is decided there.
pub(super) fn end_note(symbolic: Option<&engine::SymbolicTrace>, t: &crate::trace::ConcreteTrace) -> Option<String> {
    let b = *blames(symbolic).last()?;
    let end = t.steps.len() + usize::from(!t.final_delay.is_zero());
    (point(t, b) == (end, Rational::zero()))
        .then(|| format!("`{}` {} here", b.text, if b.holds { "holds" } else { "fails" }))
}
