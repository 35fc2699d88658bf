//! `kairos report MODEL [SPEC ...] [-q FORMULA] -o report.html`: every
//! property checked as `kairos check` would, written as one self-contained
//! HTML page ([`crate::report::html`]) with each trace as a timing diagram.

use super::args::{OutputFormat, ReportArgs};
use super::check::{Reported, check_all, exit_code, net_of};
use super::evidence::{concrete_trace, end_note};
use super::options::{options, unsupported_options};
use super::{exit, load, network, rejected, svg};
use crate::input::Item;
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
    let results = check_all(model, network.as_ref(), &items, &options(&a.common));
    let rows: Vec<Row> = results
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
                Row {
                    name: p.name.clone(),
                    formula: p.text.clone(),
                    verdict: verdict::verdict_word(&o.verdict).into(),
                    engine: Some(o.engine.name().to_string()),
                    line,
                    diagram,
                }
            }
            Reported::Refused(r) => Row {
                name: r.name.clone(),
                formula: r.text.clone(),
                verdict: "unknown".into(),
                line: verdict::refused_text(r),
                engine: None,
                diagram: None,
            },
        })
        .collect();
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
    exit_code(&results)
}
