//! Reading the YAML tree against the format's schema: required and optional
//! keys, unknown keys reported with a suggestion, every problem collected.

use crate::diag::{Diagnostic, Diagnostics, Pos};
use crate::syntax::yaml::{Node, NodeKind, Source};

/// A name written in the file, with where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub pos: Pos,
}

/// Collects diagnostics for one source file.
pub struct Reader<'s> {
    pub src: &'s Source,
    pub diags: Diagnostics,
}

impl<'s> Reader<'s> {
    pub fn new(src: &'s Source) -> Self {
        Reader { src, diags: Diagnostics::default() }
    }

    pub fn error(&mut self, pos: Pos, code: &'static str, msg: impl Into<String>) -> &mut Diagnostic {
        self.diags.push(Diagnostic::new(self.src.loc(pos, 1), code, msg));
        self.diags.last_mut()
    }

    /// Opens a mapping; anything else is reported and read as empty.
    pub fn map<'n>(&mut self, node: &'n Node, what: &str) -> MapReader<'n> {
        match &node.kind {
            NodeKind::Map(entries) => {
                MapReader { pos: node.pos, entries, used: vec![false; entries.len()], asked: Vec::new() }
            }
            _ => {
                if !node.is_null() {
                    self.error(
                        node.pos,
                        "expected-mapping",
                        format!("{what} must be a mapping (`key: value` lines), not {}", node.describe()),
                    );
                }
                MapReader { pos: node.pos, entries: &[], used: Vec::new(), asked: Vec::new() }
            }
        }
    }

    /// The items of a list; a null is an empty list, anything else is reported.
    pub fn seq<'n>(&mut self, node: &'n Node, what: &str) -> &'n [Node] {
        match &node.kind {
            NodeKind::Seq(items) => items,
            _ => {
                if !node.is_null() {
                    self.error(
                        node.pos,
                        "expected-list",
                        format!("{what} must be a list (`[a, b]` or `- a` lines), not {}", node.describe()),
                    );
                }
                &[]
            }
        }
    }

    /// A scalar's text; collections are reported.
    pub fn scalar(&mut self, node: &Node, what: &str) -> Option<String> {
        match node.as_scalar() {
            Some(s) if !node.is_null() => Some(s.value.clone()),
            _ => {
                self.error(
                    node.pos,
                    "expected-scalar",
                    format!("{what} must be a single value, not {}", node.describe()),
                );
                None
            }
        }
    }

    /// A name: a scalar of the form `[A-Za-z_][A-Za-z0-9_]*`, not a keyword.
    pub fn name(&mut self, node: &Node, what: &str) -> Option<Name> {
        let text = self.scalar(node, what)?;
        self.check_name(&text, node.pos, what).then_some(Name { text, pos: node.pos })
    }

    pub fn check_name(&mut self, text: &str, pos: Pos, what: &str) -> bool {
        let mut chars = text.chars();
        let well_formed = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !well_formed {
            self.error(pos, "bad-name", format!("`{text}` is not a valid {what}")).hint =
                Some("names are letters, digits and `_`, starting with a letter or `_`".into());
            return false;
        }
        if crate::syntax::ast::KEYWORDS.contains(&text) {
            self.error(pos, "keyword-as-name", format!("`{text}` is a keyword and cannot be used as a {what}")).hint =
                Some(format!("rename it, e.g. `{text}_`"));
            return false;
        }
        true
    }

    /// `true` or `false` (plain scalars only: the YAML 1.2 core schema).
    pub fn boolean(&mut self, node: &Node, what: &str) -> Option<bool> {
        match node.as_scalar() {
            Some(s) if s.plain && matches!(s.value.as_str(), "true" | "True" | "TRUE") => Some(true),
            Some(s) if s.plain && matches!(s.value.as_str(), "false" | "False" | "FALSE") => Some(false),
            _ => {
                self.error(node.pos, "expected-bool", format!("{what} must be `true` or `false`"));
                None
            }
        }
    }

    /// A list of names, given as a YAML list or a single name.
    pub fn names(&mut self, node: &Node, what: &str) -> Vec<Name> {
        if node.as_scalar().is_some() && !node.is_null() {
            return self.name(node, what).into_iter().collect();
        }
        let items = self.seq(node, &format!("a list of {what}s"));
        items.iter().filter_map(|n| self.name(n, what)).collect()
    }

    /// Reports the keys of `map` nobody asked for.
    pub fn finish(&mut self, map: MapReader<'_>, what: &str) {
        let known: Vec<&str> = map.asked.clone();
        for ((key, _), used) in map.entries.iter().zip(&map.used) {
            if *used {
                continue;
            }
            let text = key.as_scalar().map_or("?".to_string(), |s| s.value.clone());
            let d = self.error(key.pos, "unknown-key", format!("unknown key `{text}` in {what}"));
            d.hint = Some(match closest(&text, &known) {
                Some(best) => format!("did you mean `{best}`?"),
                None => format!("the keys allowed here are: {}", known.join(", ")),
            });
        }
    }
}

/// A mapping being read: keys are taken one by one, the rest are unknown.
pub struct MapReader<'n> {
    pub pos: Pos,
    entries: &'n [(Node, Node)],
    used: Vec<bool>,
    asked: Vec<&'static str>,
}

impl<'n> MapReader<'n> {
    /// The value of `key`, if present.
    pub fn get(&mut self, key: &'static str) -> Option<&'n Node> {
        self.asked.push(key);
        let at = self.entries.iter().position(|(k, _)| k.as_scalar().is_some_and(|s| s.value == key))?;
        self.used[at] = true;
        Some(&self.entries[at].1)
    }

    /// Every entry not yet taken, in order (for mappings whose keys are names).
    pub fn rest(&mut self) -> Vec<(&'n Node, &'n Node)> {
        let mut out = Vec::new();
        for (i, (k, v)) in self.entries.iter().enumerate() {
            if !self.used[i] {
                self.used[i] = true;
                out.push((k, v));
            }
        }
        out
    }
}

/// The candidate at the smallest edit distance, if it is close enough to be a typo.
pub fn closest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (edit_distance(word, c), *c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min()
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb { prev } else { 1 + prev.min(cur).min(row[j]) };
            prev = cur;
        }
    }
    row[b.len()]
}
