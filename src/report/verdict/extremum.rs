//! A `sup`/`inf` query's values as text and JSON (FORMAT.md sections 3
//! and 7): each term with its bound in UPPAAL's manner (`x <= 20` for an
//! attained supremum, `x < 20` for one that is not), and what is known past
//! the largest constant.

use serde_json::{Value, json};

use crate::engine::extremum::{Extreme, Measured};
use crate::model::formula::Measure;
use crate::syntax::ast::Extremum;

/// One indented line per term.
pub fn text(m: &Measure, r: &Measured) -> String {
    let Some(values) = &r.values else {
        return "\n  no reachable state satisfies the condition: nothing to measure".to_string();
    };
    let mut out = String::new();
    for (t, v) in m.terms.iter().zip(values) {
        out.push_str(&format!("\n  {}", line(&t.text, r, v)));
    }
    out
}

fn line(term: &str, r: &Measured, v: &Extreme) -> String {
    let limit = r.limit.unwrap_or_default();
    match (r.kind, v) {
        (Extremum::Sup, Extreme::Exact { value, attained: true }) => {
            format!("{term} <= {value} (the supremum, attained)")
        }
        (Extremum::Sup, Extreme::Exact { value, attained: false }) => {
            format!("{term} < {value} (the supremum {value}, not attained)")
        }
        (Extremum::Inf, Extreme::Exact { value, attained: true }) => {
            format!("{term} >= {value} (the infimum, attained)")
        }
        (Extremum::Inf, Extreme::Exact { value, attained: false }) => {
            format!("{term} > {value} (the infimum {value}, not attained)")
        }
        (Extremum::Sup, Extreme::Beyond) => format!(
            "{term} > {limit} in some state: the supremum is larger than {limit}, the largest constant, or \
             infinite (values past it are not told apart)"
        ),
        (Extremum::Inf, Extreme::Beyond) => format!(
            "{term} > {limit} in every state: the infimum is {limit}, the largest constant, or more (values \
             past it are not told apart)"
        ),
        (_, Extreme::Unbounded) => format!("{term}: unbounded"),
    }
}

/// `{"kind", "limit", "values": [{"term", "value", "attained"} | {"term",
/// "value": null, "beyond": M} | {"term", "value": null, "unbounded":
/// true}]}`; `values` is null when no reachable state satisfies the
/// condition.
pub fn json(m: &Measure, r: &Measured) -> Value {
    let values = r.values.as_ref().map(|vs| {
        m.terms
            .iter()
            .zip(vs)
            .map(|(t, v)| match v {
                Extreme::Exact { value, attained } => json!({"term": t.text, "value": value, "attained": attained}),
                Extreme::Beyond => json!({"term": t.text, "value": null, "beyond": r.limit}),
                Extreme::Unbounded => json!({"term": t.text, "value": null, "unbounded": true}),
            })
            .collect::<Vec<_>>()
    });
    json!({"kind": r.kind.word(), "limit": r.limit, "values": values})
}
