//! What to check: the properties of the model and its spec files, queries
//! given on the command line (`-q`, in UPPAAL's syntax for a UPPAAL model;
//! `--labels`), and imported queries kairos cannot state yet.

use super::{Input, Rejected, Translation};
use crate::diag::Diagnostic;
use crate::model::types::Property;
use crate::report::verdict::Refused;
use crate::syntax::yaml::Source;

/// A property to check, or an imported query that is not checked: one
/// kairos cannot state yet (reported `unknown (unsupported)` in its place)
/// or one that is wrong (reported `invalid` in its place), with the
/// diagnostic saying where it is.
#[allow(clippy::large_enum_variant, reason = "one per property, built once")]
pub enum Item {
    Check(Property),
    Refused(Refused),
}

impl Item {
    pub fn refused(name: String, text: String, why: Diagnostic) -> Item {
        Item::Refused(Refused { name, text, why })
    }
}

impl Input {
    /// `text` in kairos's syntax, as the property `name`.
    pub fn query(&self, name: &str, text: &str) -> Result<Property, Rejected> {
        self.loaded
            .query(name, text)
            .map_err(|d| Rejected::new(d, vec![self.model_src_copy(), Source::new("<query>", text.to_string())]))
    }

    /// The queries of the command line: each of `queries` (named `query`,
    /// or `query1`, `query2`, ...), then `E<> a and b` for `labels`
    /// (TChecker's `-l a,b`, through its label renames), named `labels`.
    pub fn command_line(&self, queries: &[String], labels: &[String]) -> Result<Vec<Item>, Rejected> {
        let mut items = Vec::new();
        let mut diags = Vec::new();
        for (k, q) in queries.iter().enumerate() {
            let name = if queries.len() == 1 { "query".to_string() } else { format!("query{}", k + 1) };
            // With a UPPAAL model, queries are written in UPPAAL's syntax and names.
            let text = match &self.imported {
                Some(Translation::Uppaal(u)) => match u.query(q) {
                    Ok(Ok(t)) => t,
                    Ok(Err(why)) => {
                        items.push(Item::refused(name, q.clone(), why));
                        continue;
                    }
                    Err(d) => return Err(Rejected::new(d, vec![Source::new("<query>", q.clone())])),
                },
                _ => q.clone(),
            };
            match self.loaded.query(&name, &text) {
                Ok(p) => items.push(Item::Check(p)),
                Err(d) => diags.extend(d),
            }
        }
        if !labels.is_empty() {
            let query = match &self.imported {
                Some(Translation::Tchecker(i)) => i.labels_query(labels),
                _ => format!("E<> {}", labels.join(" and ")),
            };
            match self.loaded.query("labels", &query) {
                Ok(p) => items.push(Item::Check(p)),
                Err(d) => diags.extend(d),
            }
        }
        if !diags.is_empty() {
            let mut sources = vec![self.model_src_copy()];
            // The snippets of the first query only (all are named `<query>`).
            sources.extend(queries.iter().take(1).map(|q| Source::new("<query>", q.clone())));
            return Err(Rejected::new(diags, sources));
        }
        Ok(items)
    }

    /// The model's own properties, with the queries of a UPPAAL file kairos
    /// cannot check yet in their places.
    pub fn own_items(&self) -> Vec<Item> {
        let mut items: Vec<Item> = self.loaded.model.properties.iter().cloned().map(Item::Check).collect();
        if let Some(Translation::Uppaal(u)) = &self.imported {
            for s in u.skipped.iter().rev() {
                items.insert(s.index, Item::refused(s.name.clone(), s.text.clone(), s.why.clone()));
            }
        }
        items
    }
}
