//! The results of a sweep, however they were checked (here, or by the
//! commands of `--jobs-out` and read back by `--merge`), and their text,
//! JSON and CSV forms.

use serde_json::{Value, json};

use crate::cli::exit;
use crate::domain::poly::Q;

/// One checked grid point.
pub(super) struct Row {
    /// One value per parameter, in declaration order.
    pub values: Vec<Q>,
    pub verdict: String,
    /// The reason of an `unknown`.
    pub reason: Option<String>,
    /// The symbolic states visited and stored, as `kairos check` counts
    /// them (none when nothing was explored).
    pub states: Option<States>,
    pub time_s: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct States {
    pub visited: u64,
    pub stored: u64,
}

pub(super) struct Table {
    pub model: String,
    pub formula: String,
    /// The parameters in declaration order.
    pub names: Vec<String>,
    /// In grid order: the last parameter varying fastest.
    pub rows: Vec<Row>,
    /// What `--with-synth` found: `constraint`, `exact`.
    pub synth: Option<Value>,
}

impl Table {
    pub fn json(&self) -> Value {
        let rows: Vec<_> = self
            .rows
            .iter()
            .map(|r| {
                let params: serde_json::Map<_, _> =
                    self.names.iter().zip(&r.values).map(|(n, x)| (n.clone(), json!(x.to_string()))).collect();
                let mut row = json!({"params": params, "verdict": r.verdict, "time_s": r.time_s});
                if let Some(why) = &r.reason {
                    row["reason"] = json!(why);
                }
                if let Some(n) = r.states {
                    row["stats"] = json!({"visited": n.visited, "stored": n.stored});
                }
                row
            })
            .collect();
        let mut v = json!({"model": self.model, "formula": self.formula, "parameters": self.names, "points": rows});
        if let Some(s) = &self.synth {
            v["synth"] = s.clone();
        }
        v
    }

    pub fn text(&self) -> String {
        let mut out = format!("{}  stored  verdict\n", self.names.join("  "));
        for r in &self.rows {
            let values: Vec<String> = r.values.iter().map(ToString::to_string).collect();
            let stored = r.states.map_or("-".to_string(), |n| n.stored.to_string());
            let reason = r.reason.as_ref().map_or(String::new(), |why| format!(" ({why})"));
            out += &format!("{}  {stored}  {}{reason}\n", values.join("  "), r.verdict);
        }
        if let Some(s) = &self.synth {
            out += &format!("synthesised: {} (exact: {})\n", s["constraint"].as_str().unwrap_or("?"), s["exact"]);
        }
        out
    }

    /// A header, then a line per point; no field holds a comma or a quote
    /// (names are identifiers, values `n` or `n/d`, verdicts and reasons
    /// words).
    pub fn csv(&self) -> String {
        let mut out = format!("{},verdict,reason,time_s,visited,stored\n", self.names.join(","));
        for r in &self.rows {
            let values: Vec<String> = r.values.iter().map(ToString::to_string).collect();
            let reason = r.reason.as_deref().unwrap_or("");
            let (visited, stored) =
                r.states.map_or((String::new(), String::new()), |n| (n.visited.to_string(), n.stored.to_string()));
            out += &format!("{},{},{reason},{},{visited},{stored}\n", values.join(","), r.verdict, r.time_s);
        }
        out
    }

    /// The worst point's exit code, as `kairos check` would give it.
    pub fn exit_code(&self) -> u8 {
        let code = |r: &Row| match (r.verdict.as_str(), r.reason.as_deref()) {
            ("error", _) => exit::RUNTIME_ERROR,
            ("unknown", Some("unsupported")) => exit::UNSUPPORTED,
            ("unknown", _) => exit::LIMIT,
            _ => exit::OK,
        };
        self.rows.iter().map(code).max().unwrap_or(exit::OK)
    }

    /// Per parameter, its distinct values in increasing order.
    pub fn axes(&self) -> Vec<Vec<Q>> {
        (0..self.names.len())
            .map(|k| {
                let mut v: Vec<Q> = self.rows.iter().map(|r| r.values[k].clone()).collect();
                v.sort();
                v.dedup();
                v
            })
            .collect()
    }
}
