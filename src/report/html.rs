//! The report a user sends a colleague (`kairos report`): one
//! self-contained HTML page, with no script and nothing fetched from the
//! network: the model in brief, then every property with its verdict,
//! engine and statistics, and its trace as an inline timing diagram
//! ([`super::svg`]). The page is well-formed XML as well as HTML, so that a
//! test can read it back with an XML parser.

use super::svg::document::escape;

/// The model in brief.
pub struct Summary {
    pub name: String,
    pub doc: Option<String>,
    pub file: String,
    pub instances: Vec<String>,
    pub clocks: usize,
    pub variables: usize,
    pub channels: usize,
}

/// One property as checked.
pub struct Row {
    pub name: String,
    pub formula: String,
    /// `satisfied`, `violated`, `unknown`, `error`, or `synthesised`.
    pub verdict: String,
    /// The verdict as `kairos check` prints it, with the statistics.
    pub line: String,
    /// The engine that answered, if one did.
    pub engine: Option<String>,
    /// The timing diagram of its trace, or a synthesis's parameter map: an
    /// `<svg>` element.
    pub diagram: Option<String>,
    /// Its warnings (time-locks), each with its trace as text.
    pub warnings: Vec<(String, Option<String>)>,
}

const STYLE: &str = "
body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; margin: 2em; color: #222; max-width: 80em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; }
table { border-collapse: collapse; } td, th { padding: 0.25em 0.8em; border-bottom: 1px solid #ddd; text-align: left; }
code { font-size: 0.95em; }
.satisfied { color: #1b5e20; } .violated { color: #b71c1c; } .unknown, .error { color: #8a6400; }
.synthesised { color: #1f4e8c; }
.warning p { color: #8a6400; }
.diagram { overflow-x: auto; border: 1px solid #ddd; padding: 0.5em; margin-top: 0.5em; }
";

/// The whole page.
pub fn page(summary: &Summary, rows: &[Row]) -> String {
    let e = |s: &str| escape(s);
    let mut out = String::from("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n");
    out.push_str("<meta charset=\"utf-8\"/>\n");
    out.push_str(&format!(
        "<title>kairos report: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        e(&summary.name)
    ));
    out.push_str(&format!("<h1>kairos report: {}</h1>\n", e(&summary.name)));
    if let Some(doc) = &summary.doc {
        out.push_str(&format!("<p>{}</p>\n", e(doc)));
    }
    out.push_str(&format!(
        "<p class=\"summary\">Model file <code>{}</code>: {} instances ({}), {} clocks, {} variables, {} channels.</p>\n",
        e(&summary.file),
        summary.instances.len(),
        e(&summary.instances.join(", ")),
        summary.clocks,
        summary.variables,
        summary.channels
    ));
    out.push_str("<table>\n<tr><th>property</th><th>formula</th><th>verdict</th><th>engine</th></tr>\n");
    for r in rows {
        out.push_str(&format!(
            "<tr><td><a href=\"#{}\">{}</a></td><td><code>{}</code></td><td class=\"{}\">{}</td><td>{}</td></tr>\n",
            e(&anchor(&r.name)),
            e(&r.name),
            e(&r.formula),
            e(&r.verdict),
            e(&r.verdict),
            e(r.engine.as_deref().unwrap_or("none"))
        ));
    }
    out.push_str("</table>\n");
    for r in rows {
        out.push_str(&format!(
            "<section class=\"property\" id=\"{}\" data-name=\"{}\" data-verdict=\"{}\">\n<h2>{}: <span class=\"{}\">{}</span></h2>\n",
            e(&anchor(&r.name)),
            e(&r.name),
            e(&r.verdict),
            e(&r.name),
            e(&r.verdict),
            e(&r.verdict)
        ));
        out.push_str(&format!("<p><code>{}</code></p>\n<pre>{}</pre>\n", e(&r.formula), e(&r.line)));
        if let Some(engine) = &r.engine {
            out.push_str(&format!("<p>Engine: {}.</p>\n", e(engine)));
        }
        if let Some(d) = &r.diagram {
            out.push_str("<div class=\"diagram\">\n");
            out.push_str(d);
            out.push_str("</div>\n");
        }
        for (message, trace) in &r.warnings {
            out.push_str(&format!("<div class=\"warning\">\n<p>warning: {}</p>\n", e(message)));
            if let Some(t) = trace {
                out.push_str(&format!("<pre>{}</pre>\n", e(t)));
            }
            out.push_str("</div>\n");
        }
        out.push_str("</section>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// An `id` for a property name: letters, digits, `-` and `_` kept.
fn anchor(name: &str) -> String {
    let safe: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    format!("p-{safe}")
}
