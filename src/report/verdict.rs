//! Verdicts as text and JSON (FORMAT.md section 7).

use serde_json::{Value, json};

use crate::engine::{Outcome, Unknown, Verdict};
use crate::model::decl::Expect;
use crate::model::types::Property;

/// Whether the outcome is what the property's `expect` says (or, without
/// one, whether it holds). `None` when there is no verdict to compare.
pub fn as_expected(p: &Property, o: &Outcome) -> Option<bool> {
    let holds = match o.verdict {
        Verdict::Satisfied => true,
        Verdict::Violated => false,
        Verdict::Unknown(_) | Verdict::Error(_) => return None,
    };
    Some(match &p.expect {
        Some(Expect::Bool(b)) => holds == *b,
        _ => holds,
    })
}

pub fn verdict_word(v: &Verdict) -> &'static str {
    match v {
        Verdict::Satisfied => "satisfied",
        Verdict::Violated => "violated",
        Verdict::Unknown(_) => "unknown",
        Verdict::Error(_) => "error",
    }
}

/// One line per property: name, verdict, and why when there is none.
pub fn text(p: &Property, o: &Outcome) -> String {
    let mut line = format!("{}: {}", p.name, verdict_word(&o.verdict));
    if let Verdict::Unknown(u) = &o.verdict {
        line.push_str(&format!(" ({})", u.reason()));
        if let Unknown::Unsupported(why) = u {
            line.push_str(&format!(": {why}"));
        }
    }
    if let Verdict::Error(why) = &o.verdict {
        line.push_str(&format!(": {why}"));
    }
    if let (Some(false), Some(Expect::Bool(b))) = (as_expected(p, o), &p.expect) {
        line.push_str(&format!(" — expected {}", if *b { "satisfied" } else { "violated" }));
    }
    if p.name != p.text {
        line.push_str(&format!("\n  {}", p.text));
    }
    if let Some(s) = &o.stats {
        line.push_str(&format!(
            "\n  {} visited, {} stored, {} transitions, {:.3} s",
            s.visited, s.stored, s.transitions, s.time_s
        ));
    }
    line
}

pub fn json(p: &Property, o: &Outcome) -> Value {
    let expected = match &p.expect {
        Some(Expect::Bool(b)) => json!(b),
        _ => Value::Null,
    };
    let mut v = json!({
        "name": p.name,
        "formula": p.text,
        "verdict": verdict_word(&o.verdict),
        "expected": expected,
        "engine": o.engine.name(),
        "stats": o.stats.map_or(Value::Null, |s| json!({
            "visited": s.visited, "stored": s.stored, "transitions": s.transitions, "time_s": s.time_s,
            "peak_bytes": s.peak_bytes, "peak_rss_bytes": s.peak_rss_bytes,
        })),
        "trace": Value::Null,
    });
    if let Verdict::Error(why) = &o.verdict {
        v["reason"] = json!(why);
    }
    if let Verdict::Unknown(u) = &o.verdict {
        v["reason"] = json!(u.reason());
        if let Unknown::Unsupported(why) = u {
            v["message"] = json!(why);
        }
    }
    v
}
