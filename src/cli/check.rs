//! `kairos check MODEL [SPEC ...] [-q FORMULA] [--labels a,b]`: verdicts.

use std::sync::Arc;

use serde_json::json;

use super::args::{CheckArgs, OutputFormat};
use super::evidence::{blame_json, concrete_trace, end_note, print_blame, print_trace, print_warning, warning_json};
use super::options::{data, domain, options, unsupported_options};
use super::{exit, load_at, network_at, progress, rejected, svg};
use crate::engine::limits::Progress;
use crate::engine::{self, Verdict};
use crate::input::Item;
use crate::model::types::Property;
use crate::network::Network;
use crate::report;

/// An item and what checking it gave.
pub(super) enum Reported<'i> {
    Checked(&'i Property, Box<engine::Outcome>),
    Refused(&'i report::verdict::Refused),
}

pub(super) fn run(a: CheckArgs) -> u8 {
    let format = a.common.format;
    let (mut input, given) = match load_at(&a.model, &a.specs, a.common.input, format, &a.params) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let mut items: Vec<Item> = std::mem::take(&mut input.specs).into_iter().flat_map(|(_, s)| s).collect();
    match input.command_line(&a.queries, &a.labels) {
        Ok(more) => items.extend(more),
        Err(r) => return rejected(r, format),
    }
    let model = &input.loaded.model;
    if items.is_empty() {
        items = input.own_items();
    }
    let network = match network_at(&input, &given, format) {
        Ok(n) => n,
        Err(code) => return code,
    };
    let mut options = engine::Options { domain: domain(a.domain), data: data(a.data), ..options(&a.common) };
    if let Some(code) = unsupported_options(&a.common) {
        return code;
    }
    let shown = Arc::new(Progress::default());
    options.limits.progress = Some(Arc::clone(&shown));
    let line = progress::start(&shown, options.limits.max_bytes, a.common.quiet);
    if items.is_empty() {
        return explore(&model.name, network.as_ref(), &options, format, line);
    }
    let names: Vec<&str> = items
        .iter()
        .filter_map(|i| match i {
            Item::Check(p) => Some(p.name.as_str()),
            Item::Refused(_) => None,
        })
        .collect();
    if let Some(f) = &a.svg {
        let outputs: Vec<_> = names.iter().map(|n| svg::path_for(f, n, names.len() > 1)).collect();
        let inputs: Vec<&std::path::Path> =
            std::iter::once(a.model.as_path()).chain(a.specs.iter().map(|s| s.as_path())).collect();
        if let Err(code) = svg::refuse_inputs("--svg", &outputs, &inputs) {
            return code;
        }
    }
    for item in &items {
        match item {
            Item::Refused(r) if r.invalid() => eprintln!("kairos: {}", r.why),
            Item::Refused(r) => eprintln!("kairos: note: not checked: {}", r.why),
            Item::Check(_) => {}
        }
    }
    let results = check_all(model, network.as_ref(), &items, &options);
    drop(line);
    let wanted = |o: &engine::Outcome| a.trace || matches!(o.verdict, Verdict::Error(_));
    match format {
        OutputFormat::Json => {
            let mut v = results_json(&model.name, &results, network.as_ref(), wanted);
            // At a parameter point, the point (constants set, then timing
            // parameters): `kairos sweep --merge` reads it.
            if !a.params.is_empty() {
                let point = given.point(model);
                let names: Vec<&str> = point.iter().map(|(n, _)| n.as_str()).collect();
                let at: serde_json::Map<_, _> = point.iter().map(|(n, x)| (n.clone(), json!(x))).collect();
                (v["parameters"], v["params"]) = (json!(names), json!(at));
            }
            println!("{v}");
        }
        OutputFormat::Text => print_text(&results, network.as_ref(), wanted),
    }
    let code = exit_code(&results);
    match &a.svg {
        Some(f) if !diagrams(f, &model.name, &results, network.as_ref(), names.len() > 1) && code == exit::OK => {
            exit::INVALID
        }
        _ => code,
    }
}

/// `--svg FILE`: the timing diagram of each property with a trace
/// ([`svg`] says where each goes); `false` when one could not be written.
fn diagrams(
    file: &std::path::Path,
    model: &str,
    results: &[Reported],
    network: Option<&Network>,
    several: bool,
) -> bool {
    let mut ok = true;
    let mut drawn = 0;
    for (p, o) in checked(results) {
        let Some((net, t)) = concrete_trace(net_of(o, network), o.trace.as_ref()) else { continue };
        let verdict = report::verdict::text(p, o).lines().next().unwrap_or_default().to_string();
        let caption = format!("{model} · {verdict} · {}", p.text);
        let note = end_note(o.trace.as_ref(), &t);
        ok &= svg::write(&svg::path_for(file, &p.name, several), net, &t, &caption, note.as_deref());
        drawn += 1;
    }
    if drawn == 0 {
        eprintln!("kairos: note: no property has a trace to draw; {} not written", file.display());
    }
    ok
}

/// Every item checked, in order.
pub(super) fn check_all<'i>(
    model: &crate::model::types::Model,
    network: Option<&Network>,
    items: &'i [Item],
    options: &engine::Options,
) -> Vec<Reported<'i>> {
    items
        .iter()
        .map(|i| match i {
            Item::Check(p) => Reported::Checked(p, Box::new(engine::check(model, network, p, options))),
            Item::Refused(r) => Reported::Refused(r),
        })
        .collect()
}

/// A model with no property: its whole zone graph explored, the size
/// printed (FORMAT.md section 6).
fn explore(
    model: &str,
    network: Option<&Network>,
    options: &engine::Options,
    format: OutputFormat,
    line: Option<progress::Line>,
) -> u8 {
    let Some(net) = network else {
        let why = "exploring a parametric model needs a value for every parameter (`--param p=v`)";
        match format {
            OutputFormat::Json => println!(
                "{}",
                json!({"model": model, "properties": [], "stats": null, "warnings": [], "verdict": "unknown", "reason": "unsupported", "message": why})
            ),
            OutputFormat::Text => println!("{model}: no property; {why}"),
        }
        return exit::UNSUPPORTED;
    };
    let o = engine::explore(net, options);
    drop(line);
    // A run-time error always comes with its trace.
    let trace = concrete_trace(Some(net), o.trace.as_ref());
    match format {
        OutputFormat::Json => {
            let mut v = report::verdict::exploration_json(model, &o);
            if let Some((net, t)) = &trace {
                v["trace"] = crate::trace::json(net, t);
            }
            println!("{v}");
        }
        OutputFormat::Text => {
            println!("{}", report::verdict::exploration_text(model, &o));
            if let Some((net, t)) = &trace {
                print_trace(net, t);
            }
        }
    }
    match &o.verdict {
        Verdict::Error(_) => exit::RUNTIME_ERROR,
        Verdict::Unknown(engine::Unknown::Unsupported(_)) => exit::UNSUPPORTED,
        Verdict::Unknown(_) => exit::LIMIT,
        Verdict::Satisfied | Verdict::Violated | Verdict::Measured(_) => exit::OK,
    }
}

/// What was checked, and how it went.
pub(super) fn checked<'r>(results: &'r [Reported]) -> impl Iterator<Item = (&'r Property, &'r engine::Outcome)> {
    results.iter().filter_map(|r| match r {
        Reported::Checked(p, o) => Some((*p, &**o)),
        Reported::Refused(_) => None,
    })
}

/// The network each outcome's traces are paths of (an observer's product,
/// or the model's).
pub(super) fn net_of<'a>(o: &'a engine::Outcome, model: Option<&'a Network>) -> Option<&'a Network> {
    o.network.as_deref().or(model)
}

fn results_json(
    model: &str,
    results: &[Reported],
    network: Option<&Network>,
    wanted: impl Fn(&engine::Outcome) -> bool,
) -> serde_json::Value {
    let list: Vec<_> = results
        .iter()
        .map(|r| match r {
            Reported::Checked(p, o) => {
                let mut v = report::verdict::json(p, o);
                if wanted(o)
                    && let Some((net, t)) = concrete_trace(net_of(o, network), o.trace.as_ref())
                {
                    v["trace"] = crate::trace::json(net, &t);
                    if let Some(k) = crate::trace::json::loop_start(&t) {
                        v["loop_start"] = k.into();
                    }
                    if let Some(b) = blame_json(o.trace.as_ref(), &t) {
                        v["subformula"] = b;
                    }
                }
                v
            }
            Reported::Refused(r) => report::verdict::refused_json(r),
        })
        .collect();
    let warnings: Vec<_> = checked(results)
        .flat_map(|(p, o)| {
            let net = net_of(o, network);
            o.warnings.iter().map(move |w| warning_json(&p.name, w, if w.of_model { network } else { net }))
        })
        .collect();
    json!({"model": model, "properties": list, "warnings": warnings})
}

fn print_text(results: &[Reported], network: Option<&Network>, wanted: impl Fn(&engine::Outcome) -> bool) {
    for r in results {
        let (p, o) = match r {
            Reported::Checked(p, o) => (p, o),
            Reported::Refused(r) => {
                println!("{}", report::verdict::refused_text(r));
                continue;
            }
        };
        println!("{}", report::verdict::text(p, o));
        if wanted(o)
            && let Some((net, t)) = concrete_trace(net_of(o, network), o.trace.as_ref())
        {
            print_trace(net, &t);
            print_blame(o.trace.as_ref(), &t);
        }
        for w in &o.warnings {
            print_warning(&p.name, w, if w.of_model { network } else { net_of(o, network) });
        }
    }
}

/// FORMAT.md section 6: the first code that applies.
pub(super) fn exit_code(results: &[Reported]) -> u8 {
    if results.iter().any(|r| matches!(r, Reported::Refused(r) if r.invalid())) {
        return exit::INVALID;
    }
    if checked(results).any(|(_, o)| matches!(o.verdict, Verdict::Error(_))) {
        return exit::RUNTIME_ERROR;
    }
    let unknown = |want: fn(&engine::Unknown) -> bool| {
        checked(results).any(|(_, o)| matches!(&o.verdict, Verdict::Unknown(u) if want(u)))
    };
    let refused = results.iter().any(|r| matches!(r, Reported::Refused(_)));
    if unknown(|u| !matches!(u, engine::Unknown::Unsupported(_))) {
        exit::LIMIT
    } else if refused || unknown(|u| matches!(u, engine::Unknown::Unsupported(_))) {
        exit::UNSUPPORTED
    } else if checked(results).any(|(p, o)| report::verdict::as_expected(p, o) == Some(false)) {
        exit::NOT_AS_EXPECTED
    } else {
        exit::OK
    }
}
