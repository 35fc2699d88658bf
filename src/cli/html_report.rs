//! `kairos report MODEL [SPEC ...] [-q FORMULA] -o report.html`: every
//! property checked as `kairos check` would, written as one self-contained
//! HTML page ([`crate::report::html`]) with each trace as a timing diagram.

use super::args::{OutputFormat, ReportArgs};
use super::check::{Reported, check_all, exit_code, net_of};
use super::evidence::{concrete_trace, end_note};
use super::options::{options, unsupported_options};
use super::{exit, load, network, rejected, svg};
use crate::engine::{self, synth, synth::Synthesis};
use crate::input::Item;
use crate::model::types::{Model, Property};
use crate::report::html::{Row, Summary, page};
use crate::report::{self, verdict};

pub(super) fn run(a: ReportArgs) -> u8 {
    let format = OutputFormat::Text;
    let inputs: Vec<&std::path::Path> =
        std::iter::once(a.model.as_path()).chain(a.specs.iter().map(|s| s.as_path())).collect();
    if let Err(code) = svg::refuse_inputs("-o", std::slice::from_ref(&a.output), &inputs) {
        return code;
    }
    let mut input = match load(&a.model, &a.specs, a.common.input, format) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let mut items: Vec<Item> = std::mem::take(&mut input.specs).into_iter().flat_map(|(_, s)| s).collect();
    match input.command_line(&a.queries, &[]) {
        Ok(more) => items.extend(more),
        Err(r) => return rejected(r, format),
    }
    if items.is_empty() {
        items = input.own_items();
    }
    let network = match network(&input, format) {
        Ok(n) => n,
        Err(code) => return code,
    };
    if let Some(code) = unsupported_options(&a.common) {
        return code;
    }
    let model = &input.loaded.model;
    // `synth:` entries are answered by synthesis, and drawn as a map.
    let (synths, items): (Vec<Item>, Vec<Item>) =
        items.into_iter().partition(|i| matches!(i, Item::Check(p) if p.synth));
    let results = check_all(model, network.as_ref(), &items, &options(&a.common));
    let mut rows: Vec<Row> = results
        .iter()
        .map(|r| match r {
            Reported::Checked(p, o) => {
                let line = verdict::text(p, o);
                let diagram = concrete_trace(net_of(o, network.as_ref()), o.trace.as_ref()).map(|(net, t)| {
                    let head = line.lines().next().unwrap_or_default();
                    let caption = format!("{} · {head} · {}", model.name, p.text);
                    match end_note(o.trace.as_ref(), &t) {
                        Some(note) => report::svg::marked_diagram(net, &t, &caption, &note),
                        None => report::svg::timing_diagram(net, &t, &caption),
                    }
                });
                let warnings = o
                    .warnings
                    .iter()
                    .map(|w| {
                        let net = if w.of_model { network.as_ref() } else { net_of(o, network.as_ref()) };
                        let trace = concrete_trace(net, w.trace.as_ref()).map(|(net, t)| crate::trace::text(net, &t));
                        (w.message.clone(), trace)
                    })
                    .collect();
                Row {
                    name: p.name.clone(),
                    formula: p.text.clone(),
                    verdict: verdict::verdict_word(&o.verdict).into(),
                    engine: Some(o.engine.name().to_string()),
                    line,
                    diagram,
                    warnings,
                }
            }
            Reported::Refused(r) => Row {
                name: r.name.clone(),
                formula: r.text.clone(),
                verdict: r.word().into(),
                line: verdict::refused_text(r),
                engine: None,
                diagram: None,
                warnings: Vec::new(),
            },
        })
        .collect();
    let mut code = exit_code(&results);
    for item in &synths {
        let Item::Check(p) = item else { continue };
        let (row, c) = synth_row(model, p, &options(&a.common));
        rows.push(row);
        code = code.max(c);
    }
    let summary = Summary {
        name: model.name.clone(),
        doc: model.doc.clone(),
        file: a.model.display().to_string(),
        instances: network.as_ref().map_or_else(
            || model.instances.iter().map(|i| i.name.clone()).collect(),
            |n| n.processes.iter().map(|p| p.name.clone()).collect(),
        ),
        clocks: network.as_ref().map_or(model.clocks.len(), |n| n.clocks.len()),
        variables: network.as_ref().map_or(model.vars.len(), |n| n.slots.len()),
        channels: network.as_ref().map_or(model.channels.len(), |n| n.channels.len()),
    };
    if let Err(e) = std::fs::write(&a.output, page(&summary, &rows)) {
        eprintln!("kairos: cannot write {}: {e}", a.output.display());
        return exit::INVALID;
    }
    println!("{}: {} properties; report written to {}", model.name, rows.len(), a.output.display());
    code
}

/// A `synth:` entry: the synthesised set as `kairos synth` prints it, and
/// the map of concrete checks over the parameters' ranges with the set
/// drawn over it; the exit code `kairos synth` gives it.
fn synth_row(model: &Model, p: &Property, options: &engine::Options) -> (Row, u8) {
    let s = synth::synthesise(model, p, options);
    let expected = super::synth::expectation(model, p, &s);
    let code = super::synth::exit_code(&s, &expected);
    let names = synth::names(model);
    let mut line = super::synth::line(p, &s, &names);
    let (verdict, diagram) = match &s {
        Synthesis::Done { set, approximation, .. } => {
            let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
            let map = super::sweep::report::synth_map(model, p, set, approximation.is_none(), options, workers);
            ("synthesised", map.ok())
        }
        Synthesis::Unsupported(_) => ("unknown", None),
        Synthesis::Error(_) => ("error", None),
    };
    match &expected {
        Some(Ok(true)) => line.push_str("\n  as expected"),
        Some(Ok(false)) => line.push_str("\n  NOT AS EXPECTED: expected a different set"),
        Some(Err(e)) => line.push_str(&format!("\n  {e}")),
        None => {}
    }
    let row = Row {
        name: p.name.clone(),
        formula: p.text.clone(),
        verdict: verdict.into(),
        engine: Some("synth".into()),
        line,
        diagram,
        warnings: Vec::new(),
    };
    (row, code)
}
