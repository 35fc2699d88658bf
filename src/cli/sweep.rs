//! `kairos sweep MODEL -q φ --param a=0..20[:step] ...`: the concrete check
//! of one property at every point of a grid of parameter values, the points
//! shared among worker threads (FORMAT.md section 4).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;

use super::args::{OutputFormat, SweepArgs};
use super::options::options;
use super::{exit, load, params, rejected};
use crate::domain::poly::Q;
use crate::engine::{self, Verdict};
use crate::model::types::{Model, Property};
use crate::report::verdict::verdict_word;

/// Most grid points one sweep checks.
const MAX_POINTS: usize = 1 << 20;

/// One checked point: its verdict word, and the reason of an `unknown`.
struct Point {
    verdict: &'static str,
    reason: Option<&'static str>,
    time_s: f64,
}

pub(super) fn run(a: SweepArgs) -> u8 {
    let format = a.common.format;
    let input = match load(&a.model, &[], a.common.input, format) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let property = match input.query("query", &a.query) {
        Ok(p) => p,
        Err(r) => return rejected(r, format),
    };
    let model = &input.loaded.model;
    let grid = match axes(model, &a.params) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("kairos: --param: {e}");
            return exit::INVALID;
        }
    };
    let points = product(&grid);
    // The bounds and the names, checked as `--param` checks them.
    for p in [points.first(), points.last()].into_iter().flatten() {
        if let Err(code) = params::values(model, &texts(model, p)) {
            return code;
        }
    }
    let workers = a.common.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // Each point picks its domain: zones at integer values, polyhedra else;
    // the workers are the grid's, so each point runs on one thread.
    let options = engine::Options { jobs: 1, ..options(&a.common) };
    let checked = check_points(model, &property, &points, &options, workers.max(1));
    let names: Vec<&str> = model.params.iter().map(|p| p.name.as_str()).collect();
    match format {
        OutputFormat::Json => {
            let rows: Vec<_> = points
                .iter()
                .zip(&checked)
                .map(|(v, c)| {
                    let params: serde_json::Map<_, _> =
                        names.iter().zip(v).map(|(n, x)| (n.to_string(), json!(x.to_string()))).collect();
                    let mut row = json!({"params": params, "verdict": c.verdict, "time_s": c.time_s});
                    if let Some(r) = c.reason {
                        row["reason"] = json!(r);
                    }
                    row
                })
                .collect();
            println!("{}", json!({"model": model.name, "formula": property.text, "parameters": names, "points": rows}));
        }
        OutputFormat::Text => {
            println!("{}  verdict", names.join("  "));
            for (v, c) in points.iter().zip(&checked) {
                let vals: Vec<String> = v.iter().map(ToString::to_string).collect();
                let reason = c.reason.map_or(String::new(), |r| format!(" ({r})"));
                println!("{}  {}{reason}", vals.join("  "), c.verdict);
            }
        }
    }
    let worst = checked.iter().map(|c| match c.verdict {
        "error" => exit::RUNTIME_ERROR,
        "unknown" if c.reason == Some("unsupported") => exit::UNSUPPORTED,
        "unknown" => exit::LIMIT,
        _ => exit::OK,
    });
    worst.max().unwrap_or(exit::OK)
}

/// Per parameter in declaration order, its values. `Err`: why not.
fn axes(model: &Model, given: &[String]) -> Result<Vec<Vec<Q>>, String> {
    let mut out: Vec<Option<Vec<Q>>> = vec![None; model.params.len()];
    for text in given {
        let (name, range) = text.split_once('=').ok_or(format!("`{text}`: expected `name=lo..hi[:step]`"))?;
        let k = model
            .params
            .iter()
            .position(|p| p.name == name.trim())
            .ok_or(format!("`{text}`: no parameter `{}`", name.trim()))?;
        let values = values(range).map_err(|e| format!("`{text}`: {e}"))?;
        if out[k].replace(values).is_some() {
            return Err(format!("`{}` is given twice", name.trim()));
        }
    }
    if let Some(k) = out.iter().position(Option::is_none) {
        return Err(format!("`{}` has no values (`--param {}=lo..hi`)", model.params[k].name, model.params[k].name));
    }
    let out: Vec<Vec<Q>> = out.into_iter().flatten().collect();
    if out.iter().try_fold(1usize, |n, v| n.checked_mul(v.len())).is_none_or(|n| n > MAX_POINTS) {
        return Err(format!("more than {MAX_POINTS} grid points"));
    }
    Ok(out)
}

/// `v`, or `lo..hi` (inclusive) by `step` (default 1), rationals allowed.
fn values(range: &str) -> Result<Vec<Q>, String> {
    let (range, step) = match range.split_once(':') {
        Some((r, s)) => (r, params::rational(s)?),
        None => (range, Q::from_integer(1.into())),
    };
    let Some((lo, hi)) = range.split_once("..") else { return Ok(vec![params::rational(range)?]) };
    let (lo, hi) = (params::rational(lo)?, params::rational(hi)?);
    if step <= Q::from_integer(0.into()) {
        return Err("the step must be positive".into());
    }
    if lo > hi {
        return Err("an empty range".into());
    }
    if (&hi - &lo) / &step > Q::from_integer((MAX_POINTS as i64).into()) {
        return Err(format!("more than {MAX_POINTS} values"));
    }
    let mut out = Vec::new();
    let mut v = lo;
    while v <= hi {
        out.push(v.clone());
        v += &step;
    }
    Ok(out)
}

/// Every combination, the last parameter varying fastest.
fn product(axes: &[Vec<Q>]) -> Vec<Vec<Q>> {
    axes.iter().fold(vec![Vec::new()], |acc, axis| {
        acc.iter().flat_map(|p| axis.iter().map(move |v| [p.clone(), vec![v.clone()]].concat())).collect()
    })
}

/// `p=v` texts for a point, as `--param` takes them.
fn texts(model: &Model, point: &[Q]) -> Vec<String> {
    model.params.iter().zip(point).map(|(p, v)| format!("{}={v}", p.name)).collect()
}

/// The property checked at every point by `workers` threads taking the
/// next unchecked point in turn.
fn check_points(
    model: &Model,
    property: &Property,
    points: &[Vec<Q>],
    options: &engine::Options,
    workers: usize,
) -> Vec<Point> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<Point>>> = Mutex::new((0..points.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..workers.min(points.len()) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(v) = points.get(k) else { break };
                    let p = check_point(model, property, v, options);
                    done.lock().expect("no worker panics while holding the lock")[k] = Some(p);
                }
            });
        }
    });
    done.into_inner().expect("workers joined").into_iter().map(|p| p.expect("every point checked")).collect()
}

fn check_point(model: &Model, property: &Property, values: &[Q], options: &engine::Options) -> Point {
    let start = std::time::Instant::now();
    let net = match crate::network::build_with(model, values) {
        Ok(n) => n,
        Err(_) => return Point { verdict: "error", reason: None, time_s: start.elapsed().as_secs_f64() },
    };
    let o = engine::check(model, Some(&net), property, options);
    let reason = match &o.verdict {
        Verdict::Unknown(u) => Some(u.reason()),
        _ => None,
    };
    Point { verdict: verdict_word(&o.verdict), reason, time_s: start.elapsed().as_secs_f64() }
}
