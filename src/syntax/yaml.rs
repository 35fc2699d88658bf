//! A YAML document as a tree whose every node knows where it starts.
//!
//! serde-based YAML crates drop positions, and stop at the first problem; the
//! loader needs both the line and column of every value (inside expression
//! strings too) and to report all problems of a file. So we build our own
//! small tree from `saphyr-parser`'s event stream (YAML 1.2) and interpret
//! scalars ourselves, with the core schema: only `true`/`false` are booleans,
//! so a location named `on` stays a string.

use std::sync::Arc;

use rustc_hash::FxHashMap;
use saphyr_parser::{Event, Marker, Parser, ScalarStyle};

use crate::diag::{Diagnostic, Loc, Pos};

/// Deepest nesting of YAML collections accepted; model files need about 8.
/// The limit keeps the tree (and its recursive drop) shallow on hostile input.
pub const MAX_YAML_DEPTH: usize = 64;

/// A source file and a line index for turning positions into text.
#[derive(Debug)]
pub struct Source {
    pub name: Arc<str>,
    pub text: String,
    line_starts: Vec<usize>,
}

impl Source {
    pub fn new(name: impl Into<Arc<str>>, text: String) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Source { name: name.into(), text, line_starts }
    }

    pub fn loc(&self, pos: Pos, len: usize) -> Loc {
        Loc { file: self.name.clone(), pos, len }
    }

    /// Where each line of the literal block scalar `value`, whose first
    /// character is at `first`, starts in the file; `None` when its lines are
    /// not the file's lines after one indentation of spaces.
    fn block_lines(&self, first: Pos, value: &str) -> Option<Vec<Pos>> {
        let lines: Vec<&str> = value.strip_suffix('\n').unwrap_or(value).split('\n').collect();
        if lines.first().is_none_or(|l| l.is_empty()) {
            return None;
        }
        let indent = first.column.checked_sub(1)?;
        let mut index = first.index.checked_sub(indent)?;
        let mut out = Vec::with_capacity(lines.len());
        for (k, line) in lines.iter().enumerate() {
            let number = first.line + k;
            let start = *self.line_starts.get(number - 1)?;
            let end = self.line_starts.get(number).map_or(self.text.len(), |e| e - 1);
            let raw = self.text.get(start..end)?;
            let in_file = raw.trim_end_matches('\r');
            let ok = if line.is_empty() {
                in_file.trim().is_empty()
            } else {
                in_file.len() == indent + line.len()
                    && in_file.as_bytes()[..indent].iter().all(|b| *b == b' ')
                    && &in_file[indent..] == *line
            };
            if !ok {
                return None;
            }
            let n = if line.is_empty() { 0 } else { indent };
            out.push(Pos { index: index + n, line: number, column: n + 1 });
            index += raw.chars().count() + 1;
        }
        Some(out)
    }

    /// The rest of the line from `pos` on.
    fn rest_of_line(&self, pos: Pos) -> &str {
        let Some(&start) = self.line_starts.get(pos.line.saturating_sub(1)) else {
            return "";
        };
        let line = &self.text[start..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        match line.char_indices().nth(pos.column - 1) {
            Some((at, _)) => &line[at..],
            None => "",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Node {
    pub pos: Pos,
    pub kind: NodeKind,
}

#[derive(Clone, Debug)]
pub enum NodeKind {
    Scalar(Scalar),
    Seq(Vec<Node>),
    /// Keys in document order; duplicates are rejected while building.
    Map(Vec<(Node, Node)>),
}

#[derive(Clone, Debug)]
pub struct Scalar {
    pub value: String,
    /// Plain (unquoted) scalars are the only ones the core schema types:
    /// `true`, `42`, `null` are plain; `"42"` is a string.
    pub plain: bool,
    /// Where the value's first character is in the file, when every character
    /// of the value stands literally on one line of the file (no escapes, no
    /// folding). Then an offset inside the value maps exactly to a column;
    /// otherwise positions point at the scalar's start.
    pub direct: Option<Pos>,
    /// For a literal block scalar (`|`) whose lines stand in the file as they
    /// are in the value (after the indentation): where each line starts.
    pub block: Option<Box<[Pos]>>,
}

impl Node {
    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.kind {
            NodeKind::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The file position of the byte offset `offset` inside this scalar.
    pub fn pos_in_text(&self, offset: usize) -> Pos {
        let Some(s) = self.as_scalar() else {
            return self.pos;
        };
        if let Some(lines) = &s.block {
            let before = s.value.get(..offset).unwrap_or(&s.value);
            let k = before.matches('\n').count().min(lines.len().saturating_sub(1));
            let chars = before.rsplit('\n').next().map_or(0, |l| l.chars().count());
            let Some(start) = lines.get(k) else { return self.pos };
            return Pos { index: start.index + chars, line: start.line, column: start.column + chars };
        }
        let Some(start) = s.direct else {
            return self.pos;
        };
        let chars = s.value.get(..offset).map_or(0, |v| v.chars().count());
        Pos { index: start.index + chars, line: start.line, column: start.column + chars }
    }

    /// A plain `null`, `~` or empty scalar.
    pub fn is_null(&self) -> bool {
        matches!(&self.kind, NodeKind::Scalar(s) if s.plain && matches!(s.value.as_str(), "" | "~" | "null" | "Null" | "NULL"))
    }

    pub fn describe(&self) -> &'static str {
        match &self.kind {
            NodeKind::Scalar(_) if self.is_null() => "nothing (null)",
            NodeKind::Scalar(_) => "a scalar",
            NodeKind::Seq(_) => "a list",
            NodeKind::Map(_) => "a mapping",
        }
    }
}

fn pos_of(m: &Marker) -> Pos {
    Pos { index: m.index(), line: m.line(), column: m.col() + 1 }
}

enum Frame {
    Seq(Pos, Vec<Node>),
    /// Entries, the key waiting for its value, and the line of each key seen.
    Map(Pos, Vec<(Node, Node)>, Option<Node>, FxHashMap<String, usize>),
}

/// Parses one YAML document. Errors are located; an empty file is an error.
pub fn parse(src: &Source) -> Result<Node, Diagnostic> {
    let err = |pos: Pos, code: &'static str, msg: String| Diagnostic::new(src.loc(pos, 1), code, msg);
    let mut stack: Vec<Frame> = Vec::new();
    let mut root: Option<Node> = None;
    let mut documents = 0;
    for event in Parser::new_from_str(&src.text) {
        let (event, span) = event.map_err(|e| {
            let pos = pos_of(e.marker());
            err(pos, "yaml-syntax", format!("YAML syntax error: {}", e.info()))
        })?;
        let pos = pos_of(&span.start);
        let node = match event {
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return Err(err(
                        pos,
                        "yaml-multiple-documents",
                        "a model file holds one YAML document; this is a second one".into(),
                    ));
                }
                continue;
            }
            Event::Alias(_) => {
                return Err(err(pos, "yaml-alias", "YAML aliases (`*name`) are not supported".into())
                    .with_hint("write the value out in full"));
            }
            Event::Scalar(value, style, _, tag) => {
                if tag.is_some() {
                    return Err(err(pos, "yaml-tag", "YAML tags (`!!type`) are not supported".into())
                        .with_hint("remove the tag; quote the value to make it a string"));
                }
                let value = value.into_owned();
                let plain = style == ScalarStyle::Plain;
                let quote = match style {
                    ScalarStyle::Plain => Some(0),
                    ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => Some(1),
                    _ => None,
                };
                let direct = quote.and_then(|q| {
                    let start = Pos { index: pos.index + q, line: pos.line, column: pos.column + q };
                    (span.start.line() == span.end.line() && src.rest_of_line(start).starts_with(value.as_str()))
                        .then_some(start)
                });
                let block = (style == ScalarStyle::Literal)
                    .then(|| src.block_lines(pos, &value))
                    .flatten()
                    .map(Vec::into_boxed_slice);
                Node { pos, kind: NodeKind::Scalar(Scalar { value, plain, direct, block }) }
            }
            Event::SequenceStart(_, ref tag) | Event::MappingStart(_, ref tag) => {
                if tag.is_some() {
                    return Err(err(pos, "yaml-tag", "YAML tags (`!!type`) are not supported".into()));
                }
                if stack.len() >= MAX_YAML_DEPTH {
                    return Err(err(pos, "yaml-too-deep", format!("YAML nested deeper than {MAX_YAML_DEPTH} levels")));
                }
                stack.push(if matches!(event, Event::SequenceStart(..)) {
                    Frame::Seq(pos, Vec::new())
                } else {
                    Frame::Map(pos, Vec::new(), None, FxHashMap::default())
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => match stack.pop() {
                Some(Frame::Seq(p, items)) => Node { pos: p, kind: NodeKind::Seq(items) },
                Some(Frame::Map(p, entries, _, _)) => Node { pos: p, kind: NodeKind::Map(entries) },
                None => continue,
            },
            _ => continue,
        };
        match stack.last_mut() {
            None => root = Some(node),
            Some(Frame::Seq(_, items)) => items.push(node),
            Some(Frame::Map(_, entries, pending, seen)) => match pending.take() {
                None => {
                    if let Some(key) = node.as_scalar()
                        && let Some(first) = seen.insert(key.value.clone(), node.pos.line)
                    {
                        return Err(err(
                            node.pos,
                            "yaml-duplicate-key",
                            format!("the key `{}` appears twice in this mapping (first at line {first})", key.value),
                        )
                        .with_hint("merge the two entries or rename one"));
                    }
                    *pending = Some(node);
                }
                Some(key) => entries.push((key, node)),
            },
        }
    }
    root.ok_or_else(|| err(Pos { index: 0, line: 1, column: 1 }, "yaml-empty", "the file is empty".into()))
}
