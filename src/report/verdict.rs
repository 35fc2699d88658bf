//! Verdicts as text and JSON (FORMAT.md section 7).

use serde_json::{Value, json};

use crate::diag::Diagnostic;
use crate::engine::{Outcome, Unknown, Verdict};
use crate::model::decl::Expect;
use crate::model::formula::Formula;
use crate::model::types::Property;

pub mod extremum;

/// Whether the outcome is what the property's `expect` says (or, without
/// one, whether it holds). `None` when there is no verdict to compare.
pub fn as_expected(p: &Property, o: &Outcome) -> Option<bool> {
    let holds = match o.verdict {
        Verdict::Satisfied => true,
        Verdict::Violated => false,
        Verdict::Unknown(_) | Verdict::Error(_) | Verdict::Measured(_) => return None,
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
        Verdict::Measured(_) => "measured",
    }
}

/// An imported query that is not checked: one kairos cannot state as a
/// property yet (an imported query in a form kairos has no counterpart for),
/// reported like a property no engine answers yet, `unknown` with reason
/// `unsupported`; or one that is wrong (a name the model does not have),
/// reported `invalid` in its place while the others are checked. Neither
/// has an engine.
#[derive(Clone, Debug)]
pub struct Refused {
    pub name: String,
    /// The query as written.
    pub text: String,
    /// Why, at its place: `unsupported`, or the error's code.
    pub why: Diagnostic,
}

impl Refused {
    /// Whether the query is wrong rather than beyond kairos.
    pub fn invalid(&self) -> bool {
        self.why.code != "unsupported"
    }

    /// Its verdict word: `unknown` or `invalid`.
    pub fn word(&self) -> &'static str {
        if self.invalid() { "invalid" } else { "unknown" }
    }
}

/// `name: verdict`, and why when there is none.
fn head(name: &str, verdict: &Verdict) -> String {
    let mut line = format!("{name}: {}", verdict_word(verdict));
    if let Verdict::Unknown(u) = verdict {
        line.push_str(&format!(" ({})", u.reason()));
        if let Unknown::Unsupported(why) = u {
            line.push_str(&format!(": {why}"));
        }
    }
    if let Verdict::Error(why) = verdict {
        line.push_str(&format!(": {why}"));
    }
    line
}

fn refused_verdict(r: &Refused) -> Verdict {
    Verdict::Unknown(Unknown::Unsupported(r.why.message.clone()))
}

/// A refused query as text: its verdict line and the query.
pub fn refused_text(r: &Refused) -> String {
    let head = if r.invalid() {
        format!("{}: invalid: {}", r.name, r.why.message)
    } else {
        head(&r.name, &refused_verdict(r))
    };
    format!("{head}\n  {}", r.text)
}

/// A refused query in JSON: the keys of a property, `engine` null; an
/// invalid one has `message` and its `errors` as invalid input has.
pub fn refused_json(r: &Refused) -> Value {
    let mut v = json!({"name": r.name, "formula": r.text, "expected": Value::Null, "engine": Value::Null,
                       "stats": Value::Null, "trace": Value::Null});
    if r.invalid() {
        v["verdict"] = json!("invalid");
        v["message"] = json!(r.why.message);
        let mut errors = crate::report::diagnostics::json(std::slice::from_ref(&r.why));
        v["errors"] = errors["errors"].take();
    } else {
        verdict_fields(&mut v, &refused_verdict(r));
    }
    v
}

/// One line per property: name, verdict, and why when there is none.
pub fn text(p: &Property, o: &Outcome) -> String {
    let mut line = head(&p.name, &o.verdict);
    match (as_expected(p, o), &p.expect) {
        (Some(false), Some(Expect::Bool(b))) => {
            line.push_str(&format!(" — expected {}", if *b { "satisfied" } else { "violated" }));
        }
        // A negative verdict that was the point (a bad state shown
        // unreachable, an unwanted property shown to fail) is no failure.
        (Some(true), Some(Expect::Bool(false))) => line.push_str(", as expected"),
        _ => {}
    }
    if p.name != p.text {
        line.push_str(&format!("\n  {}", p.text));
    }
    if let (Verdict::Measured(r), Formula::Measure(m)) = (&o.verdict, &p.formula) {
        line.push_str(&extremum::text(m, r));
    }
    push_stats(&mut line, o);
    line
}

/// The statistics line, indented under a verdict.
fn push_stats(line: &mut String, o: &Outcome) {
    if let Some(s) = &o.stats {
        line.push_str(&format!(
            "\n  {} visited, {} stored, {} transitions, {:.3} s",
            s.visited, s.stored, s.transitions, s.time_s
        ));
        if let Some(b) = bytes_per_state(s) {
            line.push_str(&format!(", {b} B/state"));
        }
        if s.jobs > 1 {
            line.push_str(&format!(", {} threads", s.jobs));
        }
        if let Some(d) = s.data {
            line.push_str(&format!(", data {}", data_word(d)));
        }
    }
}

fn stats_json(o: &Outcome) -> Value {
    o.stats.map_or(Value::Null, |s| {
        json!({
            "visited": s.visited, "stored": s.stored, "transitions": s.transitions, "time_s": s.time_s,
            "peak_bytes": s.peak_bytes, "peak_rss_bytes": s.peak_rss_bytes,
            "bytes_per_state": bytes_per_state(&s),
            "jobs": s.jobs.max(1), "contended": s.contended, "batches": s.batches,
            "waits": s.waits, "moved": s.moved,
            "data": s.data.map(data_word),
        })
    })
}

/// The data representation `auto` chose, as `--data` names it.
fn data_word(d: crate::engine::DataChoice) -> &'static str {
    match d {
        crate::engine::DataChoice::Explicit => "explicit",
        crate::engine::DataChoice::Bdd => "bdd",
        crate::engine::DataChoice::Auto => "auto",
    }
}

/// What the passed list holds per stored state at the end, rounded; `None`
/// for an engine that does not measure its store.
fn bytes_per_state(s: &crate::engine::Stats) -> Option<u64> {
    (s.store_bytes > 0 && s.stored > 0).then(|| s.store_bytes.div_ceil(s.stored))
}

/// The exploration of a model checked with no property (FORMAT.md section
/// 6): its size, or why it stopped.
pub fn exploration_text(model: &str, o: &Outcome) -> String {
    let mut line = match &o.verdict {
        Verdict::Satisfied => format!("{model}: no property; explored the whole zone graph"),
        v => head(&format!("{model}: no property; exploring the whole zone graph"), v),
    };
    push_stats(&mut line, o);
    line
}

/// The exploration as JSON (FORMAT.md section 7): no properties, the
/// statistics at the top, and `verdict` and `reason` when it did not finish.
pub fn exploration_json(model: &str, o: &Outcome) -> Value {
    let mut v = json!({"model": model, "properties": [], "stats": stats_json(o), "warnings": []});
    if o.verdict != Verdict::Satisfied {
        verdict_fields(&mut v, &o.verdict);
    }
    v
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
        "stats": stats_json(o),
        "trace": Value::Null,
    });
    verdict_fields(&mut v, &o.verdict);
    if let (Verdict::Measured(r), Formula::Measure(m)) = (&o.verdict, &p.formula) {
        v["measure"] = extremum::json(m, r);
    }
    v
}

/// `verdict`, and `reason` and `message` where they apply.
fn verdict_fields(v: &mut Value, verdict: &Verdict) {
    v["verdict"] = json!(verdict_word(verdict));
    if let Verdict::Error(why) = verdict {
        v["reason"] = json!(why);
    }
    if let Verdict::Unknown(u) = verdict {
        v["reason"] = json!(u.reason());
        if let Unknown::Unsupported(why) = u {
            v["message"] = json!(why);
        }
    }
}
