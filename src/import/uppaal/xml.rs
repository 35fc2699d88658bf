//! The UPPAAL XML document (`flat-1_2.dtd`): its elements, with the text of
//! each label decoded and every character located in the file.
//!
//! `roxmltree` reads the XML; we keep only the elements UPPAAL gives a meaning
//! to. Layout-only content (coordinates, `<nail>`, colours, comments) is
//! skipped; any other element is refused, never ignored.

use std::sync::Arc;

use crate::diag::{Diagnostic, Loc, Pos};

/// The XML file: its text and where its lines start (in bytes).
pub(crate) struct Src {
    pub text: String,
    pub file: Arc<str>,
    line_starts: Vec<usize>,
}

impl Src {
    pub fn new(name: &str, text: &str) -> Src {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Src { text: text.to_string(), file: Arc::from(name), line_starts }
    }

    /// The position of byte `at` (clamped to the text, moved back to a
    /// character boundary).
    pub fn pos(&self, at: usize) -> Pos {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let line = self.line_starts.partition_point(|s| *s <= at) - 1;
        let start = self.line_starts[line];
        Pos { index: self.text[..at].chars().count(), line: line + 1, column: self.text[start..at].chars().count() + 1 }
    }

    pub fn line(&self, at: usize) -> usize {
        self.line_starts.partition_point(|s| *s <= at.min(self.text.len()))
    }

    /// The byte offset of a 1-based (row, column in characters) position.
    fn offset(&self, row: u32, col: u32) -> usize {
        let Some(start) = self.line_starts.get((row as usize).saturating_sub(1)) else { return self.text.len() };
        self.text[*start..]
            .char_indices()
            .nth((col as usize).saturating_sub(1))
            .map_or(self.text.len(), |(i, _)| start + i)
    }
}

/// The diagnostics of one file.
pub(crate) struct Diags<'s> {
    pub src: &'s Src,
    pub list: Vec<Diagnostic>,
}

impl<'s> Diags<'s> {
    pub fn new(src: &'s Src) -> Self {
        Diags { src, list: Vec::new() }
    }

    /// An error at bytes `at..end` of the file.
    pub fn error(&mut self, at: usize, end: usize, code: &'static str, msg: impl Into<String>) -> &mut Diagnostic {
        let pos = self.src.pos(at);
        let len = self.src.text.get(at..end.max(at)).map_or(1, |s| s.chars().count().max(1));
        self.list.push(Diagnostic::new(Loc { file: self.src.file.clone(), pos, len }, code, msg));
        self.list.last_mut().expect("just pushed")
    }

    /// A "not supported yet" error (exit 5 when it is the only kind).
    pub fn unsupported(&mut self, at: usize, end: usize, what: impl std::fmt::Display) -> &mut Diagnostic {
        self.error(at, end, "unsupported", format!("not supported yet: {what}"))
    }

    /// Every diagnostic, sorted by position, duplicates removed (a template
    /// printed for several instances reports its problems once).
    pub fn into_sorted(self) -> Vec<Diagnostic> {
        let mut list = self.list;
        list.sort_by_key(|d| d.loc.pos);
        list.dedup();
        list
    }
}

/// A decoded text and, for each character and one past the end, the byte
/// offset in the file it comes from.
#[derive(Clone, Debug, Default)]
pub(crate) struct Text {
    pub chars: Vec<char>,
    pub at: Vec<usize>,
}

impl Text {
    /// A text whose characters stand at `base + their byte offset` (a file
    /// read as is, like a `.q` file).
    pub fn plain(s: &str, base: usize) -> Text {
        let mut t = Text::default();
        for (i, c) in s.char_indices() {
            t.chars.push(c);
            t.at.push(base + i);
        }
        t.at.push(base + s.len());
        t
    }

    pub fn string(&self) -> String {
        self.chars.iter().collect()
    }

    pub fn is_blank(&self) -> bool {
        self.chars.iter().all(|c| c.is_whitespace())
    }

    /// Only whitespace and comments (`//` to the end of a line, `/* */`):
    /// UPPAAL's editor uses such queries as section headings.
    pub fn is_comment(&self) -> bool {
        let s = self.string();
        let mut rest = s.trim_start();
        while !rest.is_empty() {
            rest = if let Some(r) = rest.strip_prefix("//") {
                r.split_once('\n').map_or("", |(_, r)| r)
            } else if let Some(r) = rest.strip_prefix("/*") {
                match r.split_once("*/") {
                    Some((_, r)) => r,
                    None => return false,
                }
            } else {
                return false;
            }
            .trim_start();
        }
        true
    }
}

pub(crate) struct Label {
    pub kind: String,
    pub text: Text,
    pub at: usize,
}

pub(crate) struct Location {
    pub id: String,
    pub name: Option<Text>,
    pub invariant: Option<Text>,
    pub urgent: bool,
    pub committed: bool,
    /// The exponential rate's text: statistical model checking draws the
    /// delay with it; the symbolic semantics ignores it (a note in the YAML).
    pub rate: Option<String>,
    pub at: usize,
}

pub(crate) struct Transition {
    pub source: Option<String>,
    pub target: Option<String>,
    pub labels: Vec<Label>,
    /// Where its probability weight is: refused with the branchpoint it
    /// leaves, or on its own on an edge from a location.
    pub probability: Option<usize>,
    pub at: usize,
}

pub(crate) struct Template {
    pub name: Text,
    pub parameter: Option<Text>,
    pub declaration: Option<Text>,
    pub locations: Vec<Location>,
    pub init: Option<(String, usize)>,
    pub transitions: Vec<Transition>,
    /// Ids of refused (reported) nodes, such as branchpoints: transitions
    /// to or from them are left out without a diagnostic of their own.
    pub refused: Vec<String>,
    pub at: usize,
}

pub(crate) struct Query {
    pub formula: Text,
    pub comment: Option<Text>,
    pub at: usize,
}

/// The `<nta>` document.
#[derive(Default)]
pub(crate) struct Nta {
    pub declaration: Option<Text>,
    pub templates: Vec<Template>,
    /// `<instantiation>` (older files) and `<system>`, in this order.
    pub system: Vec<Text>,
    pub queries: Vec<Query>,
}

type Node<'a, 'i> = roxmltree::Node<'a, 'i>;

/// Reads the document; `None` when the XML itself is malformed (reported).
pub(crate) fn read(src: &Src, d: &mut Diags) -> Option<Nta> {
    let options = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
    let doc = match roxmltree::Document::parse_with_options(&src.text, options) {
        Ok(doc) => doc,
        Err(e) => {
            let p = e.pos();
            let at = src.offset(p.row, p.col);
            d.error(at, at, "xml-error", format!("malformed XML: {e}")).hint =
                Some("a UPPAAL model is an XML file with an <nta> root element".into());
            return None;
        }
    };
    let root = doc.root_element();
    if root.tag_name().name() != "nta" {
        let r = root.range();
        d.error(
            r.start,
            r.start + 1,
            "xml-error",
            format!("the root element is <{}>, not <nta>", root.tag_name().name()),
        )
        .hint = Some("is this a UPPAAL model (.xml)?".into());
        return None;
    }
    let mut nta = Nta::default();
    for c in elements(root) {
        match c.tag_name().name() {
            "declaration" => nta.declaration = Some(text_of(c, d)),
            "template" => nta.templates.push(template(c, d)),
            "instantiation" | "system" => nta.system.push(text_of(c, d)),
            "queries" => {
                for q in elements(c) {
                    match q.tag_name().name() {
                        "query" => query(q, d, &mut nta.queries),
                        // The verifier's settings (search order, ...): no
                        // part of any query's meaning.
                        "option" => {}
                        _ => unknown(q, "<queries>", d),
                    }
                }
            }
            "imports" => {
                let r = c.range();
                d.unsupported(r.start, r.start + 1, "`<imports>` (external libraries)");
            }
            _ => unknown(c, "<nta>", d),
        }
    }
    if nta.system.is_empty() {
        let r = root.range();
        d.error(r.start, r.start + 1, "missing-system", "the model has no <system> element").hint =
            Some("add `<system>system P;</system>` naming the processes".into());
    }
    Some(nta)
}

fn elements<'a, 'i>(n: Node<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> {
    n.children().filter(|c| c.is_element())
}

fn unknown(n: Node, parent: &str, d: &mut Diags) {
    let r = n.range();
    d.unsupported(r.start, r.start + 1, format!("the element <{}> in {parent}", n.tag_name().name())).hint =
        Some("kairos reads the elements of UPPAAL's flat-1_2.dtd that it can translate exactly".into());
}

fn template(n: Node, d: &mut Diags) -> Template {
    let at = n.range().start;
    let mut t = Template {
        name: Text::default(),
        parameter: None,
        declaration: None,
        locations: Vec::new(),
        init: None,
        transitions: Vec::new(),
        refused: Vec::new(),
        at,
    };
    let mut named = false;
    for c in elements(n) {
        match c.tag_name().name() {
            "name" => {
                t.name = text_of(c, d);
                named = true;
            }
            "parameter" => t.parameter = Some(text_of(c, d)),
            "declaration" => t.declaration = Some(text_of(c, d)),
            "location" => t.locations.push(location(c, d)),
            "init" => t.init = c.attribute("ref").map(|r| (r.to_string(), c.range().start)),
            "transition" => t.transitions.push(transition(c, d)),
            "branchpoint" => {
                let r = c.range();
                d.unsupported(r.start, r.start + 1, "a branchpoint (probabilistic edges)");
                t.refused.extend(c.attribute("id").map(str::to_string));
            }
            _ => unknown(c, "<template>", d),
        }
    }
    // A branchpoint's weights are part of the one construct refused.
    for tr in &t.transitions {
        if let Some(w) = tr.probability.filter(|_| !tr.source.as_ref().is_some_and(|s| t.refused.contains(s))) {
            d.unsupported(w, w + 1, "a probability weight");
        }
    }
    if !named || t.name.is_blank() {
        d.error(at, at + 1, "missing-name", "this template has no <name>");
    }
    t
}

fn location(n: Node, d: &mut Diags) -> Location {
    let at = n.range().start;
    let id = n.attribute("id").unwrap_or_default().to_string();
    if id.is_empty() {
        d.error(at, at + 1, "missing-id", "this location has no `id` attribute").hint =
            Some("transitions and <init> refer to locations by their id".into());
    }
    let mut l = Location { id, name: None, invariant: None, urgent: false, committed: false, rate: None, at };
    for c in elements(n) {
        match c.tag_name().name() {
            "name" => l.name = Some(text_of(c, d)),
            "urgent" => l.urgent = true,
            "committed" => l.committed = true,
            "label" => {
                let label = label(c, d);
                match label.kind.as_str() {
                    "invariant" => l.invariant = Some(label.text),
                    // Documentation and test-case generation only.
                    "comments" | "testcodeEnter" | "testcodeExit" => {}
                    // One line of printable text: it becomes a YAML comment.
                    "exponentialrate" => {
                        let text = label.text.string();
                        l.rate = Some(
                            text.split(|c: char| c.is_whitespace() || c.is_control())
                                .filter(|w| !w.is_empty())
                                .collect::<Vec<_>>()
                                .join(" "),
                        );
                    }
                    k => {
                        d.unsupported(label.at, label.at + 1, format!("a location label of kind `{k}`"));
                    }
                }
            }
            _ => unknown(c, "<location>", d),
        }
    }
    l
}

fn transition(n: Node, d: &mut Diags) -> Transition {
    let at = n.range().start;
    let mut t = Transition { source: None, target: None, labels: Vec::new(), probability: None, at };
    for c in elements(n) {
        match c.tag_name().name() {
            "source" => t.source = c.attribute("ref").map(str::to_string),
            "target" => t.target = c.attribute("ref").map(str::to_string),
            "label" => {
                let label = label(c, d);
                match label.kind.as_str() {
                    "select" | "guard" | "synchronisation" | "assignment" => t.labels.push(label),
                    "comments" | "testcode" => {}
                    "probability" => t.probability = Some(label.at),
                    k => {
                        d.unsupported(label.at, label.at + 1, format!("a transition label of kind `{k}`"));
                    }
                }
            }
            "nail" => {}
            _ => unknown(c, "<transition>", d),
        }
    }
    if t.source.is_none() || t.target.is_none() {
        d.error(at, at + 1, "missing-key", "this transition needs a <source ref=...> and a <target ref=...>");
    }
    t
}

fn label(n: Node, d: &mut Diags) -> Label {
    Label { kind: n.attribute("kind").unwrap_or_default().to_string(), text: text_of(n, d), at: n.range().start }
}

fn query(n: Node, d: &mut Diags, out: &mut Vec<Query>) {
    let at = n.range().start;
    let (mut formula, mut comment) = (None, None);
    for c in elements(n) {
        match c.tag_name().name() {
            "formula" => formula = Some(text_of(c, d)),
            "comment" => comment = Some(text_of(c, d)),
            // Options and results of past runs of UPPAAL: not part of the query.
            "option" | "result" | "expect" => {}
            _ => unknown(c, "<query>", d),
        }
    }
    match formula {
        Some(f) if !f.is_comment() => out.push(Query { formula: f, comment, at }),
        _ => {}
    }
}

/// The text content of an element (no child elements allowed), decoded,
/// each character located in the file.
fn text_of(n: Node, d: &mut Diags) -> Text {
    let src = n.document().input_text();
    let mut t = Text::default();
    for c in n.children() {
        if c.is_element() {
            let r = c.range();
            d.error(
                r.start,
                r.start + 1,
                "xml-error",
                format!("unexpected element <{}> in a text", c.tag_name().name()),
            );
            continue;
        }
        if !c.is_text() {
            continue; // XML comments and processing instructions
        }
        let range = c.range();
        let decoded = decode(&src[range.clone()], range.start);
        match decoded {
            Some((chars, at)) if c.text().is_some_and(|s| s.chars().eq(chars.iter().copied())) => {
                t.chars.extend(chars);
                t.at.extend(at);
            }
            // Not what the XML parser read: locate everything at the start.
            _ => {
                for ch in c.text().unwrap_or_default().chars() {
                    t.chars.push(ch);
                    t.at.push(range.start);
                }
            }
        }
    }
    let end = n.range().end;
    t.at.push(n.children().next_back().map_or(end, |c| c.range().end));
    t
}

/// Decodes raw XML text (entities, CDATA sections, line ends) starting at
/// byte `base`; `None` on anything unexpected.
fn decode(raw: &str, base: usize) -> Option<(Vec<char>, Vec<usize>)> {
    let (mut chars, mut at) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < raw.len() {
        let rest = &raw[i..];
        if let Some(body) = rest.strip_prefix("<![CDATA[") {
            let len = body.find("]]>")?;
            for (j, c) in body[..len].char_indices() {
                chars.push(c);
                at.push(base + i + 9 + j);
            }
            i += 9 + len + 3;
        } else if rest.starts_with('&') {
            let semi = rest.find(';')?;
            let name = &rest[1..semi];
            let c = match name {
                "lt" => '<',
                "gt" => '>',
                "amp" => '&',
                "quot" => '"',
                "apos" => '\'',
                _ => {
                    let code = match name.strip_prefix("#x") {
                        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                        None => name.strip_prefix('#')?.parse().ok()?,
                    };
                    char::from_u32(code)?
                }
            };
            chars.push(c);
            at.push(base + i);
            i += semi + 1;
        } else {
            let c = rest.chars().next()?;
            if c == '\r' {
                // XML reads `\r\n` and `\r` as `\n`.
                if !rest[1..].starts_with('\n') {
                    chars.push('\n');
                    at.push(base + i);
                }
            } else {
                chars.push(c);
                at.push(base + i);
            }
            i += c.len_utf8();
        }
    }
    Some((chars, at))
}
