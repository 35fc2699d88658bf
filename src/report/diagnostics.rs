//! Diagnostics as text (with the offending line, by ariadne) and as JSON
//! (FORMAT.md section 7).

use ariadne::{Config, Label, Report, ReportKind, Source};
use serde_json::{Value, json};

use crate::diag::Diagnostic;

/// Renders every diagnostic, with a snippet of its source line when the
/// source text is at hand. No colours: the output is stable for snapshots
/// and logs.
pub fn render(diags: &[Diagnostic], sources: &[(&str, &str)]) -> String {
    let mut out = Vec::new();
    for d in diags {
        let Some((_, text)) = sources.iter().find(|(name, _)| **name == *d.loc.file) else {
            out.extend_from_slice(format!("{d}\n").as_bytes());
            continue;
        };
        let name = d.loc.file.to_string();
        let start = d.loc.pos.index;
        let span = (name.clone(), start..start + d.loc.len.max(1));
        let mut report = Report::build(ReportKind::Error, span.clone())
            .with_config(Config::default().with_color(false))
            .with_code(d.code)
            .with_message(&d.message)
            .with_label(Label::new(span).with_message("here"));
        if let Some(h) = &d.hint {
            report = report.with_help(h);
        }
        let cache = (name, Source::from(*text));
        if report.finish().write(cache, &mut out).is_err() {
            out.extend_from_slice(format!("{d}\n").as_bytes());
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `{"errors": [...]}` as FORMAT.md section 7 specifies.
pub fn json(diags: &[Diagnostic]) -> Value {
    let errors: Vec<Value> = diags
        .iter()
        .map(|d| {
            json!({
                "file": &*d.loc.file,
                "line": d.loc.pos.line,
                "column": d.loc.pos.column,
                "code": d.code,
                "message": d.message,
                "hint": d.hint,
            })
        })
        .collect();
    json!({ "errors": errors })
}
