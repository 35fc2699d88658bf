//! `kairos synth --trace`: the evidence of a synthesised set, a valuation
//! on each side of its boundary checked concretely, the check's trace
//! printed where its verdict has one (an `E<>` witness inside, an `A[]`
//! counterexample outside). Inside an exact set the property must hold and
//! outside it must not: a disagreement is an internal error, said.

use serde_json::{Value, json};

use super::evidence::concrete_trace;
use crate::engine::synth::{self, ParamSet};
use crate::engine::{self, Options};
use crate::model::types::{Model, Property};
use crate::report::verdict::verdict_word;

/// One side's point and what the concrete check gave there.
pub(super) struct Side {
    inside: bool,
    point: Vec<crate::domain::poly::Q>,
    verdict: &'static str,
    /// The trace as text and as JSON.
    trace: Option<(String, Value)>,
}

impl Side {
    /// Whether the verdict is the one the set says (only an exact set says).
    pub fn agrees(&self) -> bool {
        self.verdict == if self.inside { "satisfied" } else { "violated" }
    }
}

/// A valuation inside `set` and one outside (where there is one), checked.
pub(super) fn sides(model: &Model, p: &Property, set: &ParamSet, options: &Options) -> Result<Vec<Side>, String> {
    let box_ = synth::box_of(model).map_err(|n| format!("parameter `{n}` has no bounds"))?;
    let mut out = Vec::new();
    for (inside, s) in [(true, set.clone()), (false, set.complement())] {
        let Some(point) = synth::point_in(&s, &box_) else { continue };
        let net = crate::network::build_with(model, &point).map_err(|_| "the model does not build there")?;
        let options = Options { domain: engine::Domain::Auto, jobs: 1, ..options.clone() };
        // A `synth:` entry is checked as the plain property it asks about.
        let concrete = Property { synth: false, ..p.clone() };
        let o = engine::check(model, Some(&net), &concrete, &options);
        let net = o.network.as_deref().unwrap_or(&net);
        let trace = concrete_trace(Some(net), o.trace.as_ref())
            .map(|(net, t)| (crate::trace::text(net, &t), crate::trace::json(net, &t)));
        out.push(Side { inside, point, verdict: verdict_word(&o.verdict), trace });
    }
    Ok(out)
}

pub(super) fn print(sides: &[Side], names: &[String], exact: bool) {
    for s in sides {
        let at = synth::point_text(names, &s.point);
        let side = if s.inside { "inside" } else { "outside" };
        let wrong =
            if exact && !s.agrees() { "  INTERNAL ERROR: the set says otherwise; please report it" } else { "" };
        println!("  {side} the set, at {at}: {}{wrong}", s.verdict);
        if let Some((text, _)) = &s.trace {
            for line in text.lines() {
                println!("    {line}");
            }
        }
    }
}

pub(super) fn json(sides: &[Side], names: &[String]) -> Value {
    sides
        .iter()
        .map(|s| {
            let params: serde_json::Map<_, _> =
                names.iter().zip(&s.point).map(|(n, v)| (n.clone(), json!(v.to_string()))).collect();
            let trace = s.trace.as_ref().map_or(Value::Null, |(_, j)| j.clone());
            json!({"side": if s.inside { "inside" } else { "outside" }, "params": params,
                   "verdict": s.verdict, "trace": trace})
        })
        .collect()
}
