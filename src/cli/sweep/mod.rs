//! `kairos sweep MODEL -q φ --param a=0..20[:step] ...`: the concrete check
//! of one property at every point of a grid of parameter values, the points
//! shared among worker threads (FORMAT.md section 4); the results as a
//! table, JSON, CSV or a map of two parameters, or the points as commands
//! for a cluster and their outputs merged back ([`jobs`]).

mod grid;
mod jobs;
mod map;
pub(super) mod report;
mod table;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::json;

use super::args::{OutputFormat, SweepArgs, SweepFormat};
use super::options::options;
use super::{exit, load, load_constants, params, progress, rejected, svg};
use crate::domain::poly::Q;
use crate::engine::synth::{self, Synthesis};
use crate::engine::{self, Verdict};
use crate::input::Input;
use crate::model::types::{Model, Property};
use crate::report::verdict::verdict_word;
use table::{Row, States, Table};

pub(super) fn run(a: SweepArgs) -> u8 {
    if let Some(code) = refuse_outputs(&a) {
        return code;
    }
    if !a.merge.is_empty() {
        return match jobs::merge(&a.merge) {
            Ok(t) => finish(&a, &t, None),
            Err(e) => {
                eprintln!("kairos: --merge: {e}");
                exit::INVALID
            }
        };
    }
    let (Some(model_path), Some(query)) = (&a.model, &a.query) else {
        eprintln!("kairos: sweep: a model and a query are needed (or `--merge`)");
        return exit::INVALID;
    };
    let format = if a.format == SweepFormat::Json { OutputFormat::Json } else { OutputFormat::Text };
    let input = match load(model_path, &[], a.run.input, format) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let axes = match grid::axes(&input.loaded.model, &a.params) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("kairos: --param: {e}");
            return exit::INVALID;
        }
    };
    let points = grid::product(&axes.values);
    // The bounds and the names, checked as `--param` checks them.
    for p in [points.first(), points.last()].into_iter().flatten() {
        if let Err(code) = params::given(&input.loaded.model, &grid::texts(&axes.names, p)) {
            return code;
        }
    }
    if let Some(file) = &a.jobs_out {
        let job = jobs::Job { model: model_path, query, names: &axes.names, run: &a.run };
        return match std::fs::write(file, jobs::lines(&job, &points)) {
            Ok(()) => {
                eprintln!("kairos: {} commands written to {}", points.len(), file.display());
                exit::OK
            }
            Err(e) => {
                eprintln!("kairos: --jobs-out {}: {e}", file.display());
                exit::RUNTIME_ERROR
            }
        };
    }
    if a.with_synth && axes.values[..axes.constants].iter().any(|v| v.len() > 1) {
        eprintln!(
            "kairos: --with-synth: the synthesised set depends on the constants, and some take several values; \
             not supported yet (sweep one value of each)"
        );
        return exit::UNSUPPORTED;
    }
    let per_model = axes.per_assignment();
    let models = match models(input, &a, (model_path, query), &axes, &points, format) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let tasks: Vec<Point> = points
        .iter()
        .enumerate()
        .map(|(k, p)| Point {
            model: &models[k / per_model].0.loaded.model,
            property: &models[k / per_model].1,
            values: p.clone(),
            timing: p[axes.constants..].to_vec(),
        })
        .collect();
    let workers = a.run.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // Each point picks its domain: zones at integer values, polyhedra else;
    // the workers are the grid's, so each point runs on one thread.
    let options = engine::Options { jobs: 1, ..options(&a.run) };
    let rows = check_points(&tasks, &options, workers.max(1), a.run.quiet);
    let (model, property) = (&models[0].0.loaded.model, &models[0].1);
    let mut table = Table {
        model: model.name.clone(),
        formula: property.text.clone(),
        names: axes.names.clone(),
        rows,
        synth: None,
    };
    let synthesised = a.with_synth.then(|| synth::synthesise(model, property, &options));
    let names = synth::names(model);
    let set = match &synthesised {
        Some(Synthesis::Done { set, approximation, .. }) => {
            table.synth = Some(json!({"constraint": set.text(&names), "exact": approximation.is_none()}));
            Some(map::Synthesised { set, exact: approximation.is_none(), names: &names })
        }
        Some(Synthesis::Unsupported(why) | Synthesis::Error(why)) => {
            eprintln!("kairos: --with-synth: not synthesised: {why}");
            None
        }
        None => None,
    };
    finish(&a, &table, set)
}

/// The model (at `path`) and the query for each assignment of the
/// constants, in grid order: loaded once each, the query typed against
/// each (a constant may appear in it); `input`, the model already loaded,
/// when no constant is swept. `Err`: the exit code.
fn models(
    input: Input,
    a: &SweepArgs,
    (path, query): (&Path, &str),
    axes: &grid::Axes,
    points: &[Vec<Q>],
    format: OutputFormat,
) -> Result<Vec<(Input, Property)>, u8> {
    let inputs = if axes.constants == 0 {
        vec![input]
    } else {
        let mut inputs = Vec::new();
        for chunk in points.chunks(axes.per_assignment()) {
            let set: Vec<(String, i64)> = axes.names[..axes.constants]
                .iter()
                .zip(&chunk[0])
                .map(|(n, v)| (n.clone(), i64::try_from(v.to_integer()).unwrap_or(i64::MAX)))
                .collect();
            inputs.push(load_constants(path, &[], a.run.input, format, &set)?);
        }
        inputs
    };
    inputs
        .into_iter()
        .map(|i| match i.query("query", query) {
            Ok(p) => Ok((i, p)),
            Err(r) => Err(rejected(r, format)),
        })
        .collect()
}

/// `--svg` and `--jobs-out` never write over the model.
fn refuse_outputs(a: &SweepArgs) -> Option<u8> {
    let outputs: Vec<PathBuf> = a.svg.iter().chain(&a.jobs_out).cloned().collect();
    let inputs: Vec<&Path> = a.model.iter().chain(&a.merge).map(|p| p.as_path()).collect();
    svg::refuse_inputs("--svg/--jobs-out", &outputs, &inputs).err()
}

/// Prints the table in the chosen format and draws the map; the exit code.
fn finish(a: &SweepArgs, table: &Table, set: Option<map::Synthesised>) -> u8 {
    match a.format {
        SweepFormat::Json => println!("{}", table.json()),
        SweepFormat::Text => print!("{}", table.text()),
        SweepFormat::Csv => print!("{}", table.csv()),
    }
    if let Some(file) = &a.svg {
        let drawn = map::draw(table, set).and_then(|s| std::fs::write(file, s).map_err(|e| e.to_string()));
        if let Err(e) = drawn {
            eprintln!("kairos: --svg {}: {e}", file.display());
            return exit::INVALID.max(table.exit_code());
        }
    }
    table.exit_code()
}

/// One grid point to check.
pub(super) struct Point<'a> {
    /// The model, its constants set to the point's.
    pub model: &'a Model,
    /// The property, typed against that model.
    pub property: &'a Property,
    /// The point's value on each axis (its row's).
    pub values: Vec<Q>,
    /// One value per timing parameter of the model.
    pub timing: Vec<Q>,
}

/// Every point checked by `workers` threads taking the next unchecked
/// point in turn; a progress line on a terminal.
fn check_points(points: &[Point], options: &engine::Options, workers: usize, quiet: bool) -> Vec<Row> {
    let next = AtomicUsize::new(0);
    let finished = Arc::new(AtomicUsize::new(0));
    let shown = Arc::clone(&finished);
    let total = points.len();
    let _line =
        progress::start_with(quiet, move || format!("{} of {total} points checked", shown.load(Ordering::Relaxed)));
    let done: Mutex<Vec<Option<Row>>> = Mutex::new((0..points.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..workers.min(points.len()) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = points.get(k) else { break };
                    let row = check_point(p, options);
                    done.lock().expect("no worker panics while holding the lock")[k] = Some(row);
                    finished.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    done.into_inner().expect("workers joined").into_iter().map(|p| p.expect("every point checked")).collect()
}

fn check_point(p: &Point, options: &engine::Options) -> Row {
    let start = std::time::Instant::now();
    let row = |verdict: &str, reason: Option<&str>, stats: Option<&engine::Stats>| Row {
        values: p.values.clone(),
        verdict: verdict.into(),
        reason: reason.map(String::from),
        states: stats.map(|s| States { visited: s.visited, stored: s.stored }),
        time_s: start.elapsed().as_secs_f64(),
    };
    let net = match crate::network::build_with(p.model, &p.timing) {
        Ok(n) => n,
        Err(d) if crate::diag::only_unsupported(&d) => return row("unknown", Some("unsupported"), None),
        Err(_) => return row("error", None, None),
    };
    let o = engine::check(p.model, Some(&net), p.property, options);
    let reason = match &o.verdict {
        Verdict::Unknown(u) => Some(u.reason()),
        _ => None,
    };
    row(verdict_word(&o.verdict), reason, o.stats.as_ref())
}
