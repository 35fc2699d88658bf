//! Diagnostics as text (with the offending line, by ariadne) and as JSON
//! (FORMAT.md section 7).

use ariadne::{Config, Label, Report, ReportKind, Source};
use serde_json::{Value, json};

use crate::diag::Diagnostic;

/// Renders every diagnostic, with a snippet of its source line when the
/// source text is at hand. No colours: the output is stable for snapshots
/// and logs.
/// A diagnostic at line 0 is about a whole file (missing, a directory,
/// ...): its header and hint, no snippet.
pub fn render(diags: &[Diagnostic], sources: &[(&str, &str)]) -> String {
    let mut out = Vec::new();
    for d in diags {
        let name = d.loc.file.to_string();
        let written = if d.loc.pos.line == 0 {
            // Without a snippet ariadne prints no help: it goes under the header.
            let w = report(d, (name.clone(), 0..0)).finish().write((name, Source::from("")), &mut out);
            if let Some(h) = &d.hint {
                out.extend_from_slice(format!("    Help: {h}\n").as_bytes());
            }
            w
        } else {
            let Some((_, text)) = sources.iter().find(|(name, _)| **name == *d.loc.file) else {
                out.extend_from_slice(format!("{d}\n").as_bytes());
                continue;
            };
            let start = d.loc.pos.index;
            let span = (name.clone(), start..start + d.loc.len.max(1));
            report(d, span.clone())
                .with_label(Label::new(span).with_message("here"))
                .finish()
                .write((name, Source::from(*text)), &mut out)
        };
        if written.is_err() {
            out.extend_from_slice(format!("{d}\n").as_bytes());
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

type Span = (String, std::ops::Range<usize>);

/// The header of `d` (code, message) and its hint, at `span`.
fn report(d: &Diagnostic, span: Span) -> ariadne::ReportBuilder<'static, Span> {
    let mut report = Report::build(ReportKind::Error, span)
        .with_config(Config::default().with_color(false))
        .with_code(d.code)
        .with_message(&d.message);
    if let Some(h) = &d.hint {
        report = report.with_help(h);
    }
    report
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
