//! TChecker's `.tck` format (TChecker v0.8, `doc/file-format.md`) translated
//! into kairos YAML text with the same meaning.
//!
//! What the translation does (also written at the top of every YAML it
//! produces):
//! - TChecker's declarations are all global: `clock:1:x` is a global clock,
//!   `clock:N:x` the clocks `x_0 ... x_{N-1}` (every use must index it with a
//!   constant), `int:N:MIN:MAX:INIT:v` a global variable
//!   `{range: [MIN, MAX], init: INIT}` (with `size: N` when N > 1).
//! - `process:P` is a template `P` without parameters, instantiated once,
//!   bare, in `system`, in file order. Its locations keep their attributes
//!   (`initial:` gives the template's `initial`).
//! - `edge:P:s:t:e{provided: G : do: S}` is an edge `{from: s, to: t, guard:
//!   G, update: S}`; expressions are printed by `tchecker_expr`.
//! - An event of P that is in no `sync` vector with P is internal (no sync).
//!   A vector `sync:P1@e1:P2@e2` (two strong participants) is one binary
//!   channel; P1's `e1` edges send on it and P2's `e2` edges receive. TChecker
//!   runs the statements of a synchronised step in the order of the vector,
//!   and kairos runs the sender's update first, so the order is kept. An edge
//!   whose (process, event) is in several vectors is copied once per vector.
//!   Any other vector (three participants or more, or a weak one `P@e?`) is a
//!   `kind: vector` channel whose `parties` are the participants in order
//!   (`"P?"` for a weak one), and the participants' edges name it alone.
//!   Anything kairos cannot express exactly is reported `unsupported`,
//!   never approximated.
//! - `out_of_range: disable`: an assignment out of an int's range disables the
//!   transition, as in TChecker.
//! - Names that are kairos keywords (or not kairos names: TChecker allows
//!   `.`) are renamed; a label equal to a location of a process carrying it,
//!   or to a global name, is renamed with a `_label` suffix ([`Imported::label_renames`]).
//!
//! Every problem of the file is reported (all of them, with positions);
//! nothing panics and every loop consumes input.

use std::collections::HashMap;
use std::sync::Arc;

use indexmap::IndexMap;

use super::tchecker_expr::{self as texpr, Context, Printer};
use super::{Taken, YamlOut, quoted, sanitize, sanitize_chars, scalar};
use crate::diag::{Diagnostic, Loc, Pos};

/// A TChecker model translated into kairos YAML.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The model, as YAML text for [`crate::model::load::load_model`].
    pub yaml: String,
    /// For each line of `yaml` (index 0 is line 1), the `.tck` line it comes
    /// from; 0 for lines of no particular source line (comments, headers).
    pub line_map: Vec<usize>,
    /// The labels of a `#labels=a:b` comment line (TChecker's names), if any:
    /// the labels `tck-reach -l` was meant to be asked about.
    pub labels: Vec<String>,
    /// TChecker labels renamed in the YAML: (TChecker name, kairos name).
    pub label_renames: Vec<(String, String)>,
}

impl Imported {
    /// The kairos name of a TChecker label.
    pub fn label(&self, tck: &str) -> String {
        self.label_renames.iter().find(|(t, _)| t == tck).map_or_else(|| tck.to_string(), |(_, k)| k.clone())
    }

    /// `E<> l1 and l2 ...` over the kairos names of TChecker labels (what
    /// `tck-reach -l l1,l2` asks); `E<> false` without labels (explores all).
    pub fn labels_query<S: AsRef<str>>(&self, labels: &[S]) -> String {
        if labels.is_empty() {
            return "E<> false".to_string();
        }
        let names: Vec<String> = labels.iter().map(|l| self.label(l.as_ref())).collect();
        format!("E<> {}", names.join(" and "))
    }
}

// ---------------------------------------------------------------- source

struct Src {
    chars: Vec<char>,
    line_starts: Vec<usize>,
    file: Arc<str>,
}

impl Src {
    fn new(name: &str, text: &str) -> Src {
        let chars: Vec<char> = text.chars().collect();
        let mut line_starts = vec![0];
        for (i, c) in chars.iter().enumerate() {
            if *c == '\n' {
                line_starts.push(i + 1);
            }
        }
        Src { chars, line_starts, file: Arc::from(name) }
    }

    fn pos(&self, index: usize) -> Pos {
        let index = index.min(self.chars.len());
        let line = match self.line_starts.binary_search(&index) {
            Ok(l) => l,
            Err(l) => l.saturating_sub(1),
        };
        Pos { index, line: line + 1, column: index - self.line_starts[line] + 1 }
    }

    fn line(&self, index: usize) -> usize {
        self.pos(index).line
    }
}

/// The diagnostics of one import.
pub(super) struct Diags<'s> {
    src: &'s Src,
    list: Vec<Diagnostic>,
}

impl Diags<'_> {
    pub(super) fn error(
        &mut self,
        at: usize,
        len: usize,
        code: &'static str,
        msg: impl Into<String>,
    ) -> &mut Diagnostic {
        let loc = Loc { file: self.src.file.clone(), pos: self.src.pos(at), len };
        self.list.push(Diagnostic::new(loc, code, msg));
        self.list.last_mut().expect("just pushed")
    }

    pub(super) fn last(&mut self) -> &mut Diagnostic {
        self.list.last_mut().expect("an error was reported")
    }
}

/// What a name in an expression refers to, with its kairos name(s).
pub(super) enum Sym {
    Int { name: String, size: u32 },
    Clock { names: Vec<String> },
}

// ---------------------------------------------------------------- lexer

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kw {
    System,
    Clock,
    Int,
    Process,
    Event,
    Location,
    Edge,
    Sync,
}

const DECL_KEYWORDS: &[(&str, Kw)] = &[
    ("system", Kw::System),
    ("clock", Kw::Clock),
    ("int", Kw::Int),
    ("process", Kw::Process),
    ("event", Kw::Event),
    ("location", Kw::Location),
    ("edge", Kw::Edge),
    ("sync", Kw::Sync),
];

/// An attribute `key: value` of a declaration; `value` is trimmed and
/// `value_at` is the index of its first character in the file.
#[derive(Clone, Debug)]
struct Attr {
    key: String,
    key_at: usize,
    value: String,
    value_at: usize,
}

#[derive(Clone, Debug)]
enum T {
    Colon,
    At,
    QMark,
    Eol,
    Id(String),
    Int(String),
    Kw(Kw),
    Attrs(Vec<Attr>),
    /// A lexical error, already reported: the declaration is skipped.
    Bad,
}

#[derive(Clone, Debug)]
struct Tok {
    t: T,
    at: usize,
    len: usize,
}

fn is_id_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

fn lex(src: &Src, d: &mut Diags) -> Vec<Tok> {
    let chars = &src.chars;
    let n = chars.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let c = chars[i];
        let start = i;
        match c {
            ' ' | '\t' | '\r' => i += 1,
            '\n' => {
                out.push(Tok { t: T::Eol, at: i, len: 1 });
                i += 1;
            }
            '#' => {
                while i < n && chars[i] != '\n' {
                    i += 1;
                }
            }
            ':' | '@' | '?' => {
                let t = match c {
                    ':' => T::Colon,
                    '@' => T::At,
                    _ => T::QMark,
                };
                out.push(Tok { t, at: i, len: 1 });
                i += 1;
            }
            '{' => {
                let (t, end) = lex_attrs(src, i, d);
                out.push(Tok { t, at: start, len: end - start });
                i = end;
            }
            c if is_id_start(c) => {
                while i < n && is_id_char(chars[i]) {
                    i += 1;
                }
                let text: String = chars[start..i].iter().collect();
                let t = match DECL_KEYWORDS.iter().find(|(k, _)| *k == text) {
                    Some((_, kw)) => T::Kw(*kw),
                    None => T::Id(text),
                };
                out.push(Tok { t, at: start, len: i - start });
            }
            c if c.is_ascii_digit() || ((c == '-' || c == '+') && i + 1 < n && chars[i + 1].is_ascii_digit()) => {
                i += 1;
                while i < n && chars[i].is_ascii_digit() {
                    i += 1;
                }
                out.push(Tok { t: T::Int(chars[start..i].iter().collect()), at: start, len: i - start });
            }
            _ => {
                let what = if c == '}' { "`}` without a matching `{`".to_string() } else { format!("character `{c}`") };
                d.error(i, 1, "syntax-error", format!("unexpected {what}"));
                out.push(Tok { t: T::Bad, at: i, len: 1 });
                i += 1;
            }
        }
    }
    out
}

/// The attributes `{key: value : key: value}` starting at `open` (a `{`):
/// the token and the index just after the closing `}`. Values run to the next
/// `:`, `{`, `}` or `#` and may span lines (TChecker's lexer).
fn lex_attrs(src: &Src, open: usize, d: &mut Diags) -> (T, usize) {
    let chars = &src.chars;
    let n = chars.len();
    let mut i = open + 1;
    let mut attrs = Vec::new();
    let mut after_separator = false;
    // On an error: report, then skip to the closing `}` (or the end).
    let recover = |i: usize, d: &mut Diags| {
        let mut j = i;
        while j < n && chars[j] != '}' {
            j += 1;
        }
        if j >= n {
            d.error(open, 1, "syntax-error", "this `{` is never closed");
        }
        (T::Bad, (j + 1).min(n))
    };
    loop {
        while i < n && chars[i].is_whitespace() {
            i += 1;
        }
        if i >= n {
            d.error(open, 1, "syntax-error", "`{` is never closed").hint =
                Some("attributes are written `{key: value : key: value}`".into());
            return (T::Bad, n);
        }
        let c = chars[i];
        if c == '}' {
            if after_separator {
                d.error(i, 1, "syntax-error", "expected an attribute after `:`, found `}`").hint =
                    Some("attributes are separated by ` : `; remove the last `:`".into());
                return (T::Bad, i + 1);
            }
            return (T::Attrs(attrs), i + 1);
        }
        if !is_id_start(c) {
            d.error(i, 1, "syntax-error", format!("expected an attribute name, found `{c}`"));
            return recover(i, d);
        }
        let key_at = i;
        while i < n && is_id_char(chars[i]) {
            i += 1;
        }
        let key: String = chars[key_at..i].iter().collect();
        while i < n && chars[i].is_whitespace() {
            i += 1;
        }
        if i >= n || chars[i] != ':' {
            d.error(i.min(n), 1, "syntax-error", format!("expected `:` after the attribute name `{key}`")).hint =
                Some(format!("an attribute without a value is written `{key}:`"));
            return recover(i, d);
        }
        i += 1;
        let raw_start = i;
        while i < n && !matches!(chars[i], ':' | '{' | '}' | '#') {
            i += 1;
        }
        let raw = &chars[raw_start..i];
        let lead = raw.iter().take_while(|c| c.is_whitespace()).count();
        let value: String = raw.iter().collect::<String>().trim().to_string();
        attrs.push(Attr { key, key_at, value, value_at: raw_start + lead });
        if i >= n {
            d.error(open, 1, "syntax-error", "`{` is never closed");
            return (T::Bad, n);
        }
        match chars[i] {
            ':' => {
                after_separator = true;
                i += 1;
            }
            '}' => return (T::Attrs(attrs), i + 1),
            c => {
                d.error(
                    i,
                    1,
                    "syntax-error",
                    format!("`{c}` cannot appear in an attribute value (TChecker reserves `:`, `{{`, `}}` and `#`)"),
                );
                return recover(i, d);
            }
        }
    }
}

// ---------------------------------------------------------------- declarations

struct Text {
    value: String,
    at: usize,
}

struct Location {
    name: String,
    at: usize,
    line: usize,
    initial: bool,
    committed: bool,
    urgent: bool,
    invariant: Option<Text>,
    labels: Vec<(String, usize)>,
}

struct Edge {
    src: usize,
    dst: usize,
    event: String,
    line: usize,
    guard: Option<Text>,
    update: Option<Text>,
}

struct Process {
    name: String,
    at: usize,
    line: usize,
    locs: IndexMap<String, Location>,
    edges: Vec<Edge>,
}

enum Var {
    Clock { size: u32, line: usize },
    Int { size: u32, min: i64, max: i64, init: i64, line: usize },
}

struct Part {
    proc: usize,
    event: String,
    weak: bool,
    at: usize,
}

struct SyncDecl {
    parts: Vec<Part>,
    at: usize,
    line: usize,
}

#[derive(Default)]
struct Model {
    system: Option<(String, usize)>,
    events: IndexMap<String, usize>,
    vars: IndexMap<String, (Var, usize)>,
    procs: IndexMap<String, Process>,
    syncs: Vec<SyncDecl>,
}

/// A cursor over the tokens of one declaration.
struct Decl<'t> {
    toks: &'t [Tok],
    i: usize,
    /// Where the declaration ends (for errors at its end).
    end: usize,
}

impl Decl<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i)
    }

    fn fail(&self, d: &mut Diags, expected: &str) {
        let (at, len, found) = match self.peek() {
            Some(t) => (t.at, t.len.max(1), describe(&t.t)),
            None => (self.end, 1, "the end of the line".to_string()),
        };
        d.error(at, len, "syntax-error", format!("expected {expected}, found {found}"));
    }

    fn colon(&mut self, d: &mut Diags) -> Option<()> {
        match self.peek() {
            Some(Tok { t: T::Colon, .. }) => {
                self.i += 1;
                Some(())
            }
            _ => {
                self.fail(d, "`:`");
                None
            }
        }
    }

    fn id(&mut self, d: &mut Diags, what: &str) -> Option<(String, usize)> {
        match self.peek() {
            Some(Tok { t: T::Id(s), at, .. }) => {
                let out = (s.clone(), *at);
                self.i += 1;
                Some(out)
            }
            Some(Tok { t: T::Kw(_), at, len }) => {
                d.error(*at, *len, "syntax-error", format!("expected {what}, found a TChecker keyword")).hint = Some(
                    "`clock`, `edge`, `event`, `int`, `location`, `process`, `sync`, `system` are reserved".into(),
                );
                None
            }
            _ => {
                self.fail(d, what);
                None
            }
        }
    }

    fn int(&mut self, d: &mut Diags, what: &str) -> Option<(i64, usize)> {
        match self.peek() {
            Some(Tok { t: T::Int(s), at, len }) => {
                let (s, at, len) = (s.clone(), *at, *len);
                self.i += 1;
                match s.parse::<i64>() {
                    Ok(v) if i32::try_from(v).is_ok() => Some((v, at)),
                    _ => {
                        d.error(at, len, "bad-value", format!("{what} {s} is out of TChecker's range (32-bit)"));
                        None
                    }
                }
            }
            _ => {
                self.fail(d, what);
                None
            }
        }
    }

    fn size(&mut self, d: &mut Diags) -> Option<u32> {
        let (v, at) = self.int(d, "a size")?;
        if v < 1 {
            d.error(at, 1, "bad-value", format!("the size of a declaration must be at least 1, not {v}"));
            return None;
        }
        Some(v as u32)
    }

    /// Optional attributes, then the end of the declaration.
    fn attrs_end(&mut self, d: &mut Diags) -> Option<Vec<Attr>> {
        let attrs = match self.peek() {
            Some(Tok { t: T::Attrs(a), .. }) => {
                let a = a.clone();
                self.i += 1;
                a
            }
            _ => Vec::new(),
        };
        if self.peek().is_some() {
            self.fail(d, "the end of the declaration");
            return None;
        }
        Some(attrs)
    }
}

fn describe(t: &T) -> String {
    match t {
        T::Colon => "`:`".into(),
        T::At => "`@`".into(),
        T::QMark => "`?`".into(),
        T::Eol => "the end of the line".into(),
        T::Id(s) | T::Int(s) => format!("`{s}`"),
        T::Kw(k) => format!("`{}`", DECL_KEYWORDS.iter().find(|(_, x)| x == k).map_or("?", |(s, _)| *s)),
        T::Attrs(_) => "`{`".into(),
        T::Bad => "an invalid character".into(),
    }
}

/// Reports the attributes of `attrs` not in `known`, and duplicates.
fn check_attrs(d: &mut Diags, attrs: &[Attr], known: &[&str], what: &str) {
    let mut seen: Vec<&str> = Vec::new();
    for a in attrs {
        if !known.contains(&a.key.as_str()) {
            let diag = d.error(
                a.key_at,
                a.key.chars().count(),
                "unknown-attribute",
                format!("{what} has the attribute `{}`, which kairos does not know", a.key),
            );
            diag.hint = Some(if known.is_empty() {
                format!("TChecker gives no meaning to attributes on {what}s; remove it")
            } else {
                format!("the attributes of {what}s are: {}; remove it if it is for another tool", known.join(", "))
            });
        } else if seen.contains(&a.key.as_str()) {
            d.error(a.key_at, a.key.chars().count(), "duplicate-attribute", format!("`{}` is given twice", a.key));
        } else {
            seen.push(&a.key);
        }
    }
}

fn text_attr(attrs: &[Attr], key: &str) -> Option<Text> {
    attrs.iter().find(|a| a.key == key && !a.value.is_empty()).map(|a| Text { value: a.value.clone(), at: a.value_at })
}

fn has_attr(attrs: &[Attr], key: &str) -> bool {
    attrs.iter().any(|a| a.key == key)
}

fn parse(src: &Src, d: &mut Diags) -> Model {
    let toks = lex(src, d);
    let mut m = Model::default();
    let mut first = true;
    for group in toks.split(|t| matches!(t.t, T::Eol)) {
        if group.is_empty() {
            continue;
        }
        let is_first = std::mem::replace(&mut first, false);
        if group.iter().any(|t| matches!(t.t, T::Bad)) {
            continue;
        }
        let end = group.last().map_or(0, |t| t.at + t.len);
        let mut c = Decl { toks: group, i: 1, end };
        let head = &group[0];
        let T::Kw(kw) = head.t else {
            d.error(
                head.at,
                head.len.max(1),
                "syntax-error",
                format!("expected a declaration, found {}", describe(&head.t)),
            )
            .hint = Some(
                "declarations are `system:`, `process:`, `event:`, `clock:`, `int:`, `location:`, `edge:` or `sync:`"
                    .into(),
            );
            continue;
        };
        if is_first && kw != Kw::System {
            d.error(head.at, head.len, "syntax-error", "a TChecker file starts with `system:NAME`");
        }
        declaration(&mut m, d, &mut c, kw, head, src);
    }
    if m.system.is_none() && d.list.is_empty() {
        d.error(0, 0, "syntax-error", "a TChecker file starts with `system:NAME`; this one has none");
    }
    m
}

fn declaration(m: &mut Model, d: &mut Diags, c: &mut Decl, kw: Kw, head: &Tok, src: &Src) -> Option<()> {
    let line = src.line(head.at);
    match kw {
        Kw::System => {
            c.colon(d)?;
            let (name, at) = c.id(d, "the system's name")?;
            let attrs = c.attrs_end(d)?;
            check_attrs(d, &attrs, &[], "the system declaration");
            if m.system.is_some() {
                d.error(head.at, head.len, "syntax-error", "a file has one `system:` declaration, at its start");
            } else {
                m.system = Some((name, at));
            }
        }
        Kw::Event => {
            c.colon(d)?;
            let (name, at) = c.id(d, "an event name")?;
            let attrs = c.attrs_end(d)?;
            check_attrs(d, &attrs, &[], "an event");
            if m.events.contains_key(&name) {
                d.error(at, name.chars().count(), "duplicate-name", format!("event `{name}` is declared twice"));
            } else {
                m.events.insert(name, at);
            }
        }
        Kw::Process => {
            c.colon(d)?;
            let (name, at) = c.id(d, "a process name")?;
            let attrs = c.attrs_end(d)?;
            check_attrs(d, &attrs, &[], "a process");
            if m.procs.contains_key(&name) {
                d.error(at, name.chars().count(), "duplicate-name", format!("process `{name}` is declared twice"));
            } else {
                m.procs.insert(name.clone(), Process { name, at, line, locs: IndexMap::new(), edges: Vec::new() });
            }
        }
        Kw::Clock => {
            c.colon(d)?;
            let size = c.size(d);
            c.colon(d)?;
            let (name, at) = c.id(d, "a clock name")?;
            let attrs = c.attrs_end(d)?;
            check_attrs(d, &attrs, &[], "a clock");
            let size = size?;
            if size > 4096 {
                d.error(at, name.chars().count(), "unsupported", format!("a clock array of {size} clocks"));
                return None;
            }
            declare_var(m, d, name, at, Var::Clock { size, line });
        }
        Kw::Int => {
            c.colon(d)?;
            let size = c.size(d);
            c.colon(d)?;
            let min = c.int(d, "the minimum");
            c.colon(d)?;
            let max = c.int(d, "the maximum");
            c.colon(d)?;
            let init = c.int(d, "the initial value");
            c.colon(d)?;
            let (name, at) = c.id(d, "a variable name")?;
            let attrs = c.attrs_end(d)?;
            check_attrs(d, &attrs, &[], "an int");
            let (size, (min, _), (max, _), (init, init_at)) = (size?, min?, max?, init?);
            if min > max {
                d.error(at, name.chars().count(), "bad-value", format!("`{name}` has the empty range [{min}, {max}]"));
                return None;
            }
            if init < min || init > max {
                d.error(
                    init_at,
                    init.to_string().len(),
                    "bad-value",
                    format!("the initial value {init} of `{name}` is outside its range [{min}, {max}]"),
                );
                return None;
            }
            declare_var(m, d, name, at, Var::Int { size, min, max, init, line });
        }
        Kw::Location => {
            c.colon(d)?;
            let (pname, pat) = c.id(d, "a process name")?;
            c.colon(d)?;
            let (name, at) = c.id(d, "a location name")?;
            let attrs = c.attrs_end(d)?;
            check_attrs(d, &attrs, &["initial", "invariant", "labels", "committed", "urgent"], "a location");
            let Some(p) = m.procs.get_mut(&pname) else {
                d.error(
                    pat,
                    pname.chars().count(),
                    "unknown-name",
                    format!("process `{pname}` is not declared (yet)"),
                )
                .hint = Some("declare `process:NAME` before its locations".into());
                return None;
            };
            if p.locs.contains_key(&name) {
                d.error(
                    at,
                    name.chars().count(),
                    "duplicate-name",
                    format!("location `{name}` is declared twice in process `{pname}`"),
                );
                return None;
            }
            let labels = attrs
                .iter()
                .filter(|a| a.key == "labels")
                .take(1)
                .flat_map(|a| {
                    let mut out = Vec::new();
                    let mut offset = 0;
                    for part in a.value.split(',') {
                        let lead = part.chars().take_while(|c| c.is_whitespace()).count();
                        let t = part.trim();
                        if !t.is_empty() {
                            out.push((t.to_string(), a.value_at + offset + lead));
                        }
                        offset += part.chars().count() + 1;
                    }
                    out
                })
                .collect();
            let loc = Location {
                name: name.clone(),
                at,
                line,
                initial: has_attr(&attrs, "initial"),
                committed: has_attr(&attrs, "committed"),
                urgent: has_attr(&attrs, "urgent"),
                invariant: text_attr(&attrs, "invariant"),
                labels,
            };
            p.locs.insert(name, loc);
        }
        Kw::Edge => {
            c.colon(d)?;
            let (pname, pat) = c.id(d, "a process name")?;
            c.colon(d)?;
            let (sname, sat) = c.id(d, "a source location")?;
            c.colon(d)?;
            let (tname, tat) = c.id(d, "a target location")?;
            c.colon(d)?;
            let (event, eat) = c.id(d, "an event")?;
            let attrs = c.attrs_end(d)?;
            check_attrs(d, &attrs, &["provided", "do"], "an edge");
            let Some(p) = m.procs.get_mut(&pname) else {
                d.error(pat, pname.chars().count(), "unknown-name", format!("process `{pname}` is not declared (yet)"));
                return None;
            };
            let mut loc = |name: &str, at: usize| {
                let found = p.locs.get_index_of(name);
                if found.is_none() {
                    d.error(
                        at,
                        name.chars().count(),
                        "unknown-name",
                        format!("process `{pname}` has no location `{name}` (yet)"),
                    );
                }
                found
            };
            let src_loc = loc(&sname, sat);
            let dst_loc = loc(&tname, tat);
            let known_event = m.events.contains_key(&event);
            if !known_event {
                d.error(eat, event.chars().count(), "unknown-name", format!("event `{event}` is not declared (yet)"));
            }
            let (Some(s), Some(t), true) = (src_loc, dst_loc, known_event) else { return None };
            p.edges.push(Edge {
                src: s,
                dst: t,
                event,
                line,
                guard: text_attr(&attrs, "provided"),
                update: text_attr(&attrs, "do"),
            });
        }
        Kw::Sync => {
            c.colon(d)?;
            let mut parts = Vec::new();
            let mut ok = true;
            loop {
                let (pname, pat) = c.id(d, "a process name")?;
                match c.peek() {
                    Some(Tok { t: T::At, .. }) => c.i += 1,
                    _ => {
                        c.fail(d, "`@`");
                        return None;
                    }
                }
                let (event, eat) = c.id(d, "an event")?;
                let weak = matches!(c.peek(), Some(Tok { t: T::QMark, .. }));
                if weak {
                    c.i += 1;
                }
                let proc = m.procs.get_index_of(&pname);
                if proc.is_none() {
                    d.error(
                        pat,
                        pname.chars().count(),
                        "unknown-name",
                        format!("process `{pname}` is not declared (yet)"),
                    );
                    ok = false;
                }
                if !m.events.contains_key(&event) {
                    d.error(
                        eat,
                        event.chars().count(),
                        "unknown-name",
                        format!("event `{event}` is not declared (yet)"),
                    );
                    ok = false;
                }
                if let Some(proc) = proc {
                    parts.push(Part { proc, event, weak, at: pat });
                }
                match c.peek() {
                    Some(Tok { t: T::Colon, .. }) => c.i += 1,
                    _ => break,
                }
            }
            let attrs = c.attrs_end(d)?;
            check_attrs(d, &attrs, &[], "a sync");
            if ok {
                m.syncs.push(SyncDecl { parts, at: head.at, line });
            }
        }
    }
    Some(())
}

fn declare_var(m: &mut Model, d: &mut Diags, name: String, at: usize, var: Var) {
    if let Some((other, _)) = m.vars.get(&name) {
        let kind = match other {
            Var::Clock { .. } => "a clock",
            Var::Int { .. } => "an int",
        };
        d.error(at, name.chars().count(), "duplicate-name", format!("`{name}` is already declared as {kind}"));
        return;
    }
    m.vars.insert(name, (var, at));
}

// ---------------------------------------------------------------- names

/// A synchronisation vector: a binary channel when it has two strong
/// participants (the first sends), a `vector` channel otherwise.
struct Channel {
    name: String,
    line: usize,
    /// (process index, event, weak) of each participant, in the vector's
    /// order (the order their statements run).
    parts: Vec<(usize, String, bool)>,
}

impl Channel {
    fn binary(&self) -> bool {
        self.parts.len() == 2 && self.parts.iter().all(|p| !p.2)
    }

    /// The `sync` label of process `pi`'s edges on `event`, if it takes part.
    fn label(&self, pi: usize, event: &str) -> Option<String> {
        let k = self.parts.iter().position(|p| p.0 == pi && p.1 == event)?;
        Some(match (self.binary(), k) {
            (true, 0) => format!("{}!", self.name),
            (true, _) => format!("{}?", self.name),
            (false, _) => self.name.clone(),
        })
    }
}

// ---------------------------------------------------------------- import

/// Translates the TChecker model `text` (named `name` in diagnostics) into
/// kairos YAML; `Err` holds every problem found, sorted by position.
pub fn import_tchecker(name: &str, text: &str) -> Result<Imported, Vec<Diagnostic>> {
    let src = Src::new(name, text);
    let mut d = Diags { src: &src, list: Vec::new() };
    let m = parse(&src, &mut d);
    let names = Names::new(&m);
    let channels = channels(&m, &names, &mut d);
    let exprs = expressions(&m, &names, &mut d);
    let initial = initial_locations(&m, &mut d);
    if m.procs.is_empty() && d.list.is_empty() {
        d.error(0, 0, "missing-process", "the model declares no process");
    }
    if !d.list.is_empty() {
        let mut list = d.list;
        list.sort_by_key(|a| a.loc.pos);
        list.dedup();
        return Err(list);
    }
    let labels = labels_comment(text);
    let label_renames: Vec<(String, String)> =
        names.labels.iter().filter(|(t, k)| t != k).map(|(t, k)| (t.clone(), k.clone())).collect();
    let (yaml, line_map) = emit(name, &src, &m, &names, &channels, &exprs, &initial, &labels);
    Ok(Imported { yaml, line_map, labels, label_renames })
}

/// The kairos name of every TChecker name.
struct Names {
    /// Clocks and ints, and the global names taken.
    clocks: HashMap<String, Vec<String>>,
    ints: HashMap<String, String>,
    globals: Taken,
    /// Templates, and the locations of each.
    procs: Vec<String>,
    locs: Vec<Vec<String>>,
    /// One kairos name per TChecker label, whatever the process (a label is
    /// true where some instance carries it).
    labels: IndexMap<String, String>,
}

impl Names {
    fn new(m: &Model) -> Names {
        // Global names: clocks and ints, in file order.
        let mut globals = Taken::default();
        let mut clocks: HashMap<String, Vec<String>> = HashMap::new();
        let mut ints: HashMap<String, String> = HashMap::new();
        for (name, (var, _)) in &m.vars {
            match var {
                Var::Clock { size: 1, .. } => {
                    clocks.insert(name.clone(), vec![globals.fresh(&sanitize(name))]);
                }
                Var::Clock { size, .. } => {
                    let names = (0..*size).map(|k| globals.fresh(&sanitize(&format!("{name}_{k}")))).collect();
                    clocks.insert(name.clone(), names);
                }
                Var::Int { .. } => {
                    ints.insert(name.clone(), globals.fresh(&sanitize(name)));
                }
            }
        }

        // Templates and their locations.
        let mut templates = Taken::default();
        let procs: Vec<String> = m.procs.values().map(|p| templates.fresh(&sanitize(&p.name))).collect();
        let locs: Vec<Vec<String>> = m
            .procs
            .values()
            .map(|p| {
                let mut taken = Taken::default();
                p.locs.values().map(|l| taken.fresh(&sanitize(&l.name))).collect()
            })
            .collect();

        // Labels: one kairos name per TChecker label, for every process (a label
        // is true where some instance carries it).
        let mut labels: IndexMap<String, String> = IndexMap::new();
        let mut label_taken = Taken::default();
        for p in m.procs.values() {
            for l in p.locs.values() {
                for (label, _) in &l.labels {
                    if labels.contains_key(label) {
                        continue;
                    }
                    let clashes = |s: &str, taken: &Taken| {
                        globals.has(s)
                            || taken.has(s)
                            || m.procs.values().enumerate().any(|(pj, q)| {
                                q.locs.values().any(|l| l.labels.iter().any(|(x, _)| x == label))
                                    && locs[pj].iter().any(|n| n == s)
                            })
                    };
                    let mut base = sanitize(label);
                    if clashes(&base, &label_taken) {
                        base = format!("{}_label", sanitize_chars(label));
                    }
                    let mut name = base.clone();
                    let mut k = 2;
                    while clashes(&name, &label_taken) {
                        name = format!("{base}{k}");
                        k += 1;
                    }
                    label_taken.0.insert(name.clone());
                    labels.insert(label.clone(), name);
                }
            }
        }

        Names { clocks, ints, globals, procs, locs, labels }
    }
}

/// The `sync` vectors kairos can express, as binary channels; the others are
/// reported.
fn channels(m: &Model, names: &Names, d: &mut Diags) -> Vec<Channel> {
    let mut channels: Vec<Channel> = Vec::new();
    let mut chan_taken = names.globals.clone();
    chan_taken.0.extend(names.labels.values().cloned());
    let mut seen_vectors: Vec<Vec<(usize, String, bool)>> = Vec::new();
    for s in &m.syncs {
        if s.parts.len() < 2 {
            d.error(s.at, 4, "bad-sync", "a `sync` vector needs at least two participants").hint =
                Some("an event of a single process needs no vector: it is internal to the process".into());
            continue;
        }
        let mut key: Vec<(usize, String, bool)> = s.parts.iter().map(|p| (p.proc, p.event.clone(), p.weak)).collect();
        key.sort();
        if seen_vectors.contains(&key) {
            d.error(s.at, 4, "bad-sync", "this `sync` vector is declared twice (TChecker refuses it)");
            continue;
        }
        seen_vectors.push(key);
        let mut bad = false;
        for (k, p) in s.parts.iter().enumerate() {
            if s.parts[..k].iter().any(|q| q.proc == p.proc) {
                let pname = &m.procs[p.proc].name;
                d.error(
                    p.at,
                    pname.chars().count(),
                    "unsupported",
                    format!("process `{pname}` synchronises with itself (it appears twice in this vector)"),
                );
                bad = true;
            }
        }
        if bad {
            continue;
        }
        let base = s
            .parts
            .iter()
            .map(|p| format!("{}_{}", names.procs[p.proc], sanitize(&p.event).trim_end_matches('_')))
            .collect::<Vec<_>>()
            .join("__");
        let name = chan_taken.fresh(&base);
        let parts = s.parts.iter().map(|p| (p.proc, p.event.clone(), p.weak)).collect();
        channels.push(Channel { name, line: s.line, parts });
    }
    channels
}

/// The printed invariants (per process, per location) and guards and updates
/// (per process, per edge).
struct Exprs {
    invariants: Vec<Vec<Option<String>>>,
    edges: Vec<Vec<(Option<String>, Option<String>)>>,
}

fn expressions(m: &Model, names: &Names, d: &mut Diags) -> Exprs {
    let lookup = |name: &str| -> Option<Sym> {
        match m.vars.get(name) {
            Some((Var::Clock { .. }, _)) => Some(Sym::Clock { names: names.clocks.get(name)?.clone() }),
            Some((Var::Int { size, .. }, _)) => Some(Sym::Int { name: names.ints.get(name)?.clone(), size: *size }),
            None => None,
        }
    };
    let mut invariants: Vec<Vec<Option<String>>> = Vec::new();
    let mut guards: Vec<Vec<(Option<String>, Option<String>)>> = Vec::new();
    for p in m.procs.values() {
        let mut inv = Vec::new();
        for l in p.locs.values() {
            inv.push(l.invariant.as_ref().and_then(|t| {
                let what = format!("the invariant of `{}`", l.name);
                let chars: Vec<char> = t.value.chars().collect();
                let n = texpr::parse_formula(&chars, t.at, &what, d)?;
                Printer { lookup: &lookup, d, what: &what }.formula(&n, Context::Invariant).ok().map(|s| s.0)
            }));
        }
        invariants.push(inv);
        let mut gs = Vec::new();
        for e in &p.edges {
            let guard = e.guard.as_ref().and_then(|t| {
                let what = "a guard (`provided:`)";
                let chars: Vec<char> = t.value.chars().collect();
                let n = texpr::parse_formula(&chars, t.at, what, d)?;
                Printer { lookup: &lookup, d, what }.formula(&n, Context::Guard).ok().map(|s| s.0)
            });
            let update = e.update.as_ref().and_then(|t| {
                let what = "a statement (`do:`)";
                let chars: Vec<char> = t.value.chars().collect();
                let stmts = texpr::parse_statements(&chars, t.at, what, d)?;
                let mut pr = Printer { lookup: &lookup, d, what };
                let mut out = Vec::new();
                for s in &stmts {
                    if let Some(s) = pr.statement(s).ok()? {
                        out.push(s);
                    }
                }
                (!out.is_empty()).then(|| out.join("; "))
            });
            gs.push((guard, update));
        }
        guards.push(gs);
    }
    Exprs { invariants, edges: guards }
}

/// The initial location of each process (TChecker allows several, kairos
/// one).
fn initial_locations(m: &Model, d: &mut Diags) -> Vec<usize> {
    let mut initial: Vec<usize> = Vec::new();
    for p in m.procs.values() {
        let inits: Vec<(usize, &Location)> = p.locs.values().enumerate().filter(|(_, l)| l.initial).collect();
        match inits.as_slice() {
            [] => {
                d.error(
                    p.at,
                    p.name.chars().count(),
                    "missing-initial",
                    format!("process `{}` has no initial location", p.name),
                )
                .hint = Some("mark one location `{initial:}`".into());
            }
            [(i, _)] => initial.push(*i),
            [_, (_, second), ..] => {
                d.error(
                    second.at,
                    second.name.chars().count(),
                    "unsupported",
                    format!("process `{}` has several initial locations; kairos templates have one", p.name),
                )
                .hint = Some(
                    "TChecker starts from every combination of initial locations; check one model per initial location"
                        .into(),
                );
            }
        }
    }
    initial
}

/// The YAML text and its line map.
#[allow(clippy::too_many_arguments)]
fn emit(
    name: &str,
    src: &Src,
    m: &Model,
    names: &Names,
    channels: &[Channel],
    exprs: &Exprs,
    initial: &[usize],
    labels: &[String],
) -> (String, Vec<usize>) {
    let (proc_names, loc_names, clock_names, int_names, label_names) =
        (&names.procs, &names.locs, &names.clocks, &names.ints, &names.labels);
    let (invariants, guards) = (&exprs.invariants, &exprs.edges);
    let label_renames: Vec<(&String, &String)> = label_names.iter().filter(|(t, k)| t != k).collect();
    let mut y = YamlOut::default();
    let (sys_name, sys_at) = m.system.clone().unwrap_or_default();
    y.line(0, format!("# Imported from the TChecker model `{name}` (system `{sys_name}`) by `kairos import`."));
    for l in HEADER.lines() {
        y.line(0, format!("# {l}"));
    }
    let mut renames: Vec<String> = Vec::new();
    for (pi, p) in m.procs.values().enumerate() {
        if proc_names[pi] != p.name {
            renames.push(format!("process `{}` -> template `{}`", p.name, proc_names[pi]));
        }
        for (li, l) in p.locs.values().enumerate() {
            if loc_names[pi][li] != l.name {
                renames.push(format!("location `{}` of `{}` -> `{}`", l.name, p.name, loc_names[pi][li]));
            }
        }
    }
    for (name, (var, _)) in &m.vars {
        match var {
            Var::Clock { size: 1, .. } if clock_names[name][0] != *name => {
                renames.push(format!("clock `{name}` -> `{}`", clock_names[name][0]));
            }
            Var::Clock { size, .. } if *size > 1 => {
                renames.push(format!(
                    "clock array `{name}` -> clocks `{}` .. `{}`",
                    clock_names[name][0],
                    clock_names[name][*size as usize - 1]
                ));
            }
            Var::Int { .. } if int_names[name] != *name => {
                renames.push(format!("int `{name}` -> `{}`", int_names[name]));
            }
            _ => {}
        }
    }
    for (t, k) in &label_renames {
        renames.push(format!("label `{t}` -> `{k}`"));
    }
    if !renames.is_empty() {
        y.line(0, "# Renamed (kairos keywords, characters outside [A-Za-z0-9_], name clashes):");
        for r in &renames {
            y.line(0, format!("#   {r}"));
        }
    }
    y.line(0, "");
    y.line(src.line(sys_at), format!("model: {}", scalar(&sys_name)));

    let clocks: Vec<(&String, usize)> = m
        .vars
        .iter()
        .filter_map(|(n, (v, _))| match v {
            Var::Clock { line, .. } => Some((n, *line)),
            _ => None,
        })
        .collect();
    if !clocks.is_empty() {
        y.line(0, "");
        let all: Vec<&String> = clocks.iter().flat_map(|(n, _)| clock_names[*n].iter()).collect();
        if all.len() <= 12 {
            let line = if clocks.len() == 1 { clocks[0].1 } else { 0 };
            y.line(line, format!("clocks: [{}]", all.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")));
        } else {
            y.line(0, "clocks:");
            for (n, line) in &clocks {
                for k in &clock_names[*n] {
                    y.line(*line, format!("  - {k}"));
                }
            }
        }
    }

    let ints: Vec<_> = m
        .vars
        .iter()
        .filter_map(|(n, (v, _))| match v {
            Var::Int { size, min, max, init, line } => Some((n, *size, *min, *max, *init, *line)),
            _ => None,
        })
        .collect();
    if !ints.is_empty() {
        y.line(0, "");
        y.line(0, "variables:");
        for (n, size, min, max, init, line) in ints {
            let size = if size > 1 { format!(", size: {size}") } else { String::new() };
            y.line(line, format!("  {}: {{range: [{min}, {max}]{size}, init: {init}}}", int_names[n]));
        }
    }

    if !channels.is_empty() {
        y.line(0, "");
        y.line(0, "channels:");
        for ch in channels {
            let tck: Vec<String> = ch
                .parts
                .iter()
                .map(|(p, e, weak)| format!("{}@{e}{}", m.procs[*p].name, if *weak { "?" } else { "" }))
                .collect();
            let comment = format!("   # sync:{}", tck.join(":"));
            if ch.binary() {
                y.line(ch.line, format!("  {}: binary{comment}", ch.name));
                continue;
            }
            let parties: Vec<String> = ch
                .parts
                .iter()
                .map(|(p, _, weak)| {
                    let name = &proc_names[*p];
                    if *weak { quoted(&format!("{name}?")) } else { scalar(name) }
                })
                .collect();
            y.line(ch.line, format!("  {}: {{kind: vector, parties: [{}]}}{comment}", ch.name, parties.join(", ")));
        }
    }

    y.line(0, "");
    y.line(0, "templates:");
    for (pi, p) in m.procs.values().enumerate() {
        if pi > 0 {
            y.line(0, "");
        }
        y.line(p.line, format!("  {}:", scalar(&proc_names[pi])));
        let init = initial[pi];
        let init_line = p.locs[init].line;
        y.line(init_line, format!("    initial: {}", scalar(&loc_names[pi][init])));
        y.line(0, "    locations:");
        for (li, l) in p.locs.values().enumerate() {
            let mut fields: Vec<String> = Vec::new();
            if let Some(inv) = &invariants[pi][li] {
                fields.push(format!("invariant: {}", quoted(inv)));
            }
            if !l.labels.is_empty() {
                let mut names: Vec<&str> = Vec::new();
                for (label, _) in &l.labels {
                    let k = label_names[label].as_str();
                    if !names.contains(&k) {
                        names.push(k);
                    }
                }
                fields.push(format!("labels: [{}]", names.iter().map(|s| scalar(s)).collect::<Vec<_>>().join(", ")));
            }
            // Committed implies urgent (kairos refuses both).
            if l.committed {
                fields.push("committed: true".into());
            } else if l.urgent {
                fields.push("urgent: true".into());
            }
            let mut notes: Vec<String> = Vec::new();
            if loc_names[pi][li] != l.name {
                notes.push(format!("TChecker's `{}`", l.name));
            }
            for (label, _) in &l.labels {
                if label_names[label] != *label {
                    notes.push(format!("label `{label}` -> `{}`", label_names[label]));
                }
            }
            let note = if notes.is_empty() { String::new() } else { format!("   # {}", notes.join("; ")) };
            y.line(l.line, format!("      {}: {{{}}}{note}", scalar(&loc_names[pi][li]), fields.join(", ")));
        }
        if p.edges.is_empty() {
            y.line(0, "    edges: []");
            continue;
        }
        y.line(0, "    edges:");
        for (ei, e) in p.edges.iter().enumerate() {
            let (guard, update) = &guards[pi][ei];
            let mut syncs: Vec<String> = Vec::new();
            for ch in channels {
                syncs.extend(ch.label(pi, &e.event));
            }
            let one = |sync: Option<&str>| {
                let mut f = vec![
                    format!("from: {}", scalar(&loc_names[pi][e.src])),
                    format!("to: {}", scalar(&loc_names[pi][e.dst])),
                ];
                if let Some(g) = guard {
                    f.push(format!("guard: {}", quoted(g)));
                }
                if let Some(s) = sync {
                    f.push(format!("sync: {}", quoted(s)));
                }
                if let Some(u) = update {
                    f.push(format!("update: {}", quoted(u)));
                }
                let note = if sync.is_none() { format!("   # {}", e.event) } else { String::new() };
                format!("      - {{{}}}{note}", f.join(", "))
            };
            if syncs.is_empty() {
                y.line(e.line, one(None));
            } else {
                for s in &syncs {
                    y.line(e.line, one(Some(s)));
                }
            }
        }
    }

    y.line(0, "");
    y.line(0, "system:");
    for (pi, p) in m.procs.values().enumerate() {
        y.line(p.line, format!("  - {}", scalar(&proc_names[pi])));
    }
    y.line(0, "");
    y.line(0, "out_of_range: disable");

    // The query of the `#labels=` line, when every label exists.
    if !labels.is_empty() && labels.iter().all(|l| label_names.contains_key(l)) {
        let names: Vec<&str> = labels.iter().map(|l| label_names[l].as_str()).collect();
        y.line(0, "");
        y.line(0, "properties:");
        y.line(0, format!("  # `#labels={}`: TChecker's `tck-reach -l {}`", labels.join(":"), labels.join(",")));
        y.line(0, format!("  - {{name: labels, check: {}}}", quoted(&format!("E<> {}", names.join(" and ")))));
    }
    y.finish()
}

const HEADER: &str = "\
Translation rules (TChecker's meaning kept exactly):
 - All TChecker declarations are global: `clock:1:x` is a global clock (`clock:N:x`
   the clocks x_0 .. x_{N-1}), `int:N:MIN:MAX:INIT:v` a global variable
   {range: [MIN, MAX], init: INIT} (with size: N when N > 1).
 - Each `process:P` is a template P without params, instantiated once, bare, in
   `system`, in file order. Locations keep their attributes (`initial:` gives the
   template's `initial`); kairos keywords get a trailing `_`.
 - `edge:P:s:t:e{provided: G : do: S}` is {from: s, to: t, guard: G, update: S}.
   TChecker's `!` covers a whole comparison (`!(a == b)`), `a < b <= c` is
   `a < b && b <= c`, an integer used as a condition is `e != 0`, and
   `(if c then a else b)` is `(c ? a : b)`; `nop` is dropped.
 - An event of P in no `sync` vector with P is internal (no sync). A vector
   `sync:P1@e1:P2@e2` is one binary channel P1_e1__P2_e2: P1's e1-edges send (!),
   P2's e2-edges receive (?), so P1's statements run first, as in TChecker. An edge
   whose (process, event) is in several vectors is copied once per vector.
 - out_of_range: disable: an assignment out of an int's range disables the
   transition, as in TChecker.";

/// The labels of the first `#labels=a:b` (or `# labels=a,b`) comment line.
fn labels_comment(text: &str) -> Vec<String> {
    for line in text.lines() {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix('#') else { continue };
        let rest = rest.trim_start();
        let Some(rest) = rest.strip_prefix("labels") else { continue };
        let Some(rest) = rest.trim_start().strip_prefix('=') else { continue };
        return rest.split([':', ',']).map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    }
    Vec::new()
}
