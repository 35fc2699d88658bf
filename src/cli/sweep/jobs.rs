//! A sweep on a cluster: `--jobs-out FILE` writes one self-contained
//! `kairos check` command per grid point (JSON lines: the point, the
//! command as words and as a shell line), and `--merge RESULTS...` reads
//! the JSON the commands printed (`kairos check` names the parameter values
//! it checked at) back into the sweep's table.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::grid::texts;
use super::table::{Row, States, Table};
use crate::cli::args::Run;
use crate::cli::params;
use crate::domain::poly::Q;

/// What a point's command needs besides its parameter values.
pub(super) struct Job<'a> {
    pub model: &'a Path,
    pub query: &'a str,
    pub names: &'a [String],
    pub run: &'a Run,
}

/// The command checking `point`, as words (`kairos` first).
fn command(job: &Job, point: &[Q]) -> Vec<String> {
    let mut w: Vec<String> = ["kairos", "check"].map(String::from).to_vec();
    w.push(job.model.display().to_string());
    w.extend(["-q".to_string(), job.query.to_string()]);
    for t in texts(job.names, point) {
        w.extend(["--param".to_string(), t]);
    }
    // The limits that change a verdict travel with the command.
    if let Some(n) = job.run.max_states {
        w.extend(["--max-states".to_string(), n.to_string()]);
    }
    if let Some(t) = job.run.timeout {
        w.extend(["--timeout".to_string(), t.to_string()]);
    }
    if let Some(b) = job.run.max_memory {
        w.extend(["--max-memory".to_string(), b.to_string()]);
    }
    w.extend(["--format", "json", "--quiet"].map(String::from));
    w
}

/// A word quoted for a POSIX shell when it needs to be.
fn quoted(w: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !w.is_empty() && w.chars().all(plain) { w.to_string() } else { format!("'{}'", w.replace('\'', "'\\''")) }
}

/// The lines `--jobs-out` writes, one per point.
pub(super) fn lines(job: &Job, points: &[Vec<Q>]) -> String {
    let mut out = String::new();
    for p in points {
        let words = command(job, p);
        let params: serde_json::Map<_, _> =
            job.names.iter().zip(p).map(|(n, v)| (n.clone(), json!(v.to_string()))).collect();
        let shell: Vec<String> = words.iter().map(|w| quoted(w)).collect();
        out += &json!({"params": params, "argv": words, "command": shell.join(" ")}).to_string();
        out.push('\n');
    }
    out
}

/// The sweep the outputs in `files` (JSON documents, one or more per
/// file) make, in grid order. `Err`: what is wrong, with the file.
pub(super) fn merge(files: &[PathBuf]) -> Result<Table, String> {
    let mut table: Option<Table> = None;
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let docs = serde_json::Deserializer::from_str(&text).into_iter::<Value>();
        for (k, doc) in docs.enumerate() {
            let at = |e: String| format!("{}: output {}: {e}", f.display(), k + 1);
            let doc = doc.map_err(|e| at(e.to_string()))?;
            let (head, row) = read(&doc).map_err(at)?;
            let Some(t) = &mut table else {
                table = Some(Table { rows: vec![row], ..head });
                continue;
            };
            if (&t.model, &t.formula, &t.names) != (&head.model, &head.formula, &head.names) {
                return Err(at(format!(
                    "{} `{}` over ({}) is not the sweep of the first output, {} `{}` over ({})",
                    head.model,
                    head.formula,
                    head.names.join(", "),
                    t.model,
                    t.formula,
                    t.names.join(", ")
                )));
            }
            t.rows.push(row);
        }
    }
    let mut t = table.ok_or("no outputs to merge")?;
    t.rows.sort_by(|a, b| a.values.cmp(&b.values));
    if let Some(w) = t.rows.windows(2).find(|w| w[0].values == w[1].values) {
        let at: Vec<String> = w[0].values.iter().map(ToString::to_string).collect();
        return Err(format!("the point ({}) is given twice", at.join(", ")));
    }
    Ok(t)
}

/// The head (model, formula, parameters) and the row of one output.
fn read(doc: &Value) -> Result<(Table, Row), String> {
    let names: Vec<String> = doc["parameters"]
        .as_array()
        .ok_or("no `parameters`: not the output of a command `--jobs-out` wrote")?
        .iter()
        .map(|n| n.as_str().map(String::from).ok_or("a parameter name is not a string"))
        .collect::<Result<_, _>>()?;
    let values = names
        .iter()
        .map(|n| {
            let v = doc["params"][n].as_str().ok_or(format!("no value of `{n}` in `params`"))?;
            params::rational(v)
        })
        .collect::<Result<Vec<Q>, String>>()?;
    let [p] = doc["properties"].as_array().map(Vec::as_slice).unwrap_or_default() else {
        return Err("not one property in `properties`".into());
    };
    let word = |v: &Value| v.as_str().map(String::from);
    let row = Row {
        values,
        verdict: word(&p["verdict"]).ok_or("no `verdict`")?,
        reason: word(&p["reason"]),
        states: match (p["stats"]["visited"].as_u64(), p["stats"]["stored"].as_u64()) {
            (Some(visited), Some(stored)) => Some(States { visited, stored }),
            _ => None,
        },
        time_s: p["stats"]["time_s"].as_f64().unwrap_or(0.0),
    };
    let head = Table {
        model: word(&doc["model"]).ok_or("no `model`")?,
        formula: word(&p["formula"]).ok_or("no `formula`")?,
        names,
        rows: Vec::new(),
        synth: None,
    };
    Ok((head, row))
}
