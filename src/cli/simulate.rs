//! `kairos simulate MODEL [--steps N] [--seed S] [--svg FILE]`: one random
//! run, concrete and validated, as text, JSON or a timing diagram.

use serde_json::json;

use super::args::{OutputFormat, SimulateArgs};
use super::evidence::{concrete_trace, print_trace};
use super::{exit, load, network, not_yet};
use crate::engine::simulate::{WalkEnd, random_walk};

pub(super) fn run(a: SimulateArgs) -> u8 {
    if let Some(f) = &a.svg
        && let Err(code) = super::svg::refuse_inputs("--svg", std::slice::from_ref(f), &[&a.model])
    {
        return code;
    }
    let input = match load(&a.model, &[], a.input, a.format) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let net = match network(&input, a.format) {
        Ok(Some(n)) if n.hybrid.is_none() => n,
        Ok(_) => {
            return not_yet(
                &a.model,
                a.format,
                "`kairos simulate` on hybrid or parametric models is not supported yet",
            );
        }
        Err(code) => return code,
    };
    let walk = random_walk(&net, a.steps, a.seed);
    let trace = concrete_trace(Some(&net), walk.trace.as_ref());
    let made = trace.as_ref().map_or(0, |(_, t)| t.steps.len());
    let (end, message, code) = match &walk.end {
        WalkEnd::Done => ("done", String::new(), exit::OK),
        WalkEnd::Stuck => ("stuck", format!("no step is possible after step {made}, now or after any delay"), exit::OK),
        WalkEnd::Error(e) => ("error", e.describe(&net), exit::RUNTIME_ERROR),
        WalkEnd::NoInitial => ("no-initial-state", "no initial state satisfies the invariants".into(), exit::OK),
    };
    let model = &input.loaded.model.name;
    match a.format {
        OutputFormat::Json => {
            let steps = trace.as_ref().map(|(net, t)| crate::trace::json(net, t));
            println!(
                "{}",
                json!({"model": model, "seed": a.seed, "steps": made, "end": end, "message": message, "trace": steps})
            );
        }
        OutputFormat::Text => {
            println!("{model}: a random run of {made} step{} (seed {})", if made == 1 { "" } else { "s" }, a.seed);
            if let Some((net, t)) = &trace {
                print_trace(net, t);
            }
            if !message.is_empty() {
                println!("{message}");
            }
        }
    }
    match (&a.svg, &trace) {
        (Some(f), Some((net, t))) => {
            let caption = format!("{model}: a random run (seed {})", a.seed);
            if !super::svg::write(f, net, t, &caption, None) && code == exit::OK {
                return exit::INVALID;
            }
        }
        (Some(f), None) => eprintln!("kairos: note: no run to draw; {} not written", f.display()),
        (None, _) => {}
    }
    code
}
