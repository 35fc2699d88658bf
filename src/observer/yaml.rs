//! The observer as a template of the model format (an `observer: true`
//! template, FORMAT.md section 1 extended, see README.md), for
//! `kairos observer`.

use super::Response;
use crate::model::typed::Cmp;

/// The observer of `r` as YAML, under the property `text`.
pub fn yaml(text: &str, r: &Response) -> String {
    let q = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let psi = q(&r.texts.1);
    let late = match r.bound.cmp {
        Cmp::Lt => ">=",
        _ => ">",
    };
    let mut out = format!(
        "# The observer of `{text}`, composed with the network; the property\n\
         # fails iff a time-divergent run of the product reaches `bad`.\n\
         Observer:\n  observer: true\n  clocks: [w]\n  initial: {}\n  locations:\n",
        if r.trigger.is_some() { "idle" } else { "wait" }
    );
    out.push_str(&format!("    idle: {{}}\n    wait: {{invariant: \"not ({psi})\"}}\n    bad: {{}}\n  edges:\n"));
    if let Some(phi) = &r.texts.0 {
        out.push_str(&format!(
            "    - {{from: idle, to: wait, guard: \"({}) and not ({psi})\", update: \"w = 0\"}}\n",
            q(phi)
        ));
    }
    out.push_str(&format!("    - {{from: wait, to: bad, guard: \"w {late} {}\"}}\n", r.bound.value));
    out
}
