//! `kairos synth MODEL [SPEC ...] [-q φ]`: the exact parameter valuations for
//! which each property holds (FORMAT.md section 4).

use serde_json::{Value, json};

use super::args::{OutputFormat, SynthArgs};
use super::options::options;
use super::{exit, load, load_constants, params, rejected, synth_witness};
use crate::domain::poly::{Poly, Rel};
use crate::engine::synth::{self, ParamSet, Synthesis};
use crate::input::Item;
use crate::model::decl::Expect;
use crate::model::types::Property;

pub(super) fn run(a: SynthArgs) -> u8 {
    let format = a.common.format;
    let mut input = match load(&a.model, &a.specs, a.common.input, format) {
        Ok(i) => i,
        Err(code) => return code,
    };
    if !a.params.is_empty() {
        let constants = match params::constants_only(&input.loaded.model, &a.params, "synthesis") {
            Ok(c) => c,
            Err(code) => return code,
        };
        input = match load_constants(&a.model, &a.specs, a.common.input, format, &constants) {
            Ok(i) => i,
            Err(code) => return code,
        };
    }
    let synth_entry = |i: &Item| matches!(i, Item::Check(p) if p.synth);
    let mut items: Vec<Item> =
        std::mem::take(&mut input.specs).into_iter().flat_map(|(_, s)| s).filter(synth_entry).collect();
    match input.command_line(&a.queries, &[]) {
        Ok(more) => items.extend(more),
        Err(r) => return rejected(r, format),
    }
    if items.is_empty() {
        items = input.own_items().into_iter().filter(synth_entry).collect();
    }
    let model = &input.loaded.model;
    let options = options(&a.common);
    let names = synth::names(model);
    let mut code = exit::OK;
    let mut results = Vec::new();
    for item in &items {
        let Item::Check(p) = item else { continue };
        let s = synth::synthesise(model, p, &options);
        let verdict = expectation(model, p, &s);
        code = code.max(exit_code(&s, &verdict));
        let sides = match &s {
            Synthesis::Done { set, approximation, .. } if a.trace => {
                match synth_witness::sides(model, p, set, &options) {
                    Ok(sides) => {
                        if approximation.is_none() && !sides.iter().all(synth_witness::Side::agrees) {
                            eprintln!("kairos: internal error: a concrete check disagrees with the synthesised set");
                            code = code.max(exit::RUNTIME_ERROR);
                        }
                        Some((sides, approximation.is_none()))
                    }
                    Err(e) => {
                        eprintln!("kairos: --trace: {}: {e}", p.name);
                        None
                    }
                }
            }
            _ => None,
        };
        match format {
            OutputFormat::Json => {
                let mut v = json_of(p, &s, &names, &verdict);
                if let Some((sides, _)) = &sides {
                    v["witnesses"] = synth_witness::json(sides, &names);
                }
                results.push(v);
            }
            OutputFormat::Text => {
                print_text(p, &s, &names, &verdict);
                if let Some((sides, exact)) = &sides {
                    synth_witness::print(sides, &names, *exact);
                }
            }
        }
    }
    if format == OutputFormat::Json {
        println!("{}", json!({"model": model.name, "parameters": names, "properties": results}));
    }
    code
}

/// Whether the set is the one `expect:` gives (`None`: nothing to compare;
/// `Err`: the expectation could not be read).
pub(super) fn expectation(
    model: &crate::model::types::Model,
    p: &Property,
    s: &Synthesis,
) -> Option<Result<bool, String>> {
    let Synthesis::Done { set, approximation: None, .. } = s else { return None };
    let expected = match p.expect.as_ref()? {
        Expect::Bool(true) => Ok(ParamSet { members: vec![set.bounds.clone()], ..set.clone() }),
        Expect::Bool(false) => Ok(ParamSet::empty(set.bounds.clone())),
        Expect::Constraint(t) => {
            let text = t.as_scalar().map_or("", |s| s.value.as_str());
            synth::parse(text, &synth::names(model), &set.bounds)
                .map_err(|e| format!("`expect: {text}` is not a parameter constraint: {e}"))
        }
    };
    Some(expected.map(|e| e.same_set(set)))
}

pub(super) fn exit_code(s: &Synthesis, verdict: &Option<Result<bool, String>>) -> u8 {
    match (s, verdict) {
        (Synthesis::Unsupported(_), _) => exit::UNSUPPORTED,
        (Synthesis::Error(_), _) => exit::RUNTIME_ERROR,
        (_, Some(Err(_))) => exit::INVALID,
        (_, Some(Ok(false))) => exit::NOT_AS_EXPECTED,
        (Synthesis::Done { approximation: Some(_), .. }, _) => exit::LIMIT,
        _ => exit::OK,
    }
}

/// The verdict line of `p`'s synthesis.
pub(super) fn line(p: &Property, s: &Synthesis, names: &[String]) -> String {
    match s {
        Synthesis::Done { set, approximation, stats } => {
            let how = match approximation {
                None => "exact".to_string(),
                Some((side, why)) => format!("{} ({})", side.name(), why.reason()),
            };
            format!("{}: synthesised: {} ({how}; {} states)", p.name, set.text(names), stats.stored)
        }
        Synthesis::Unsupported(why) => format!("{}: unknown (unsupported): {why}", p.name),
        Synthesis::Error(why) => format!("{}: error: {why}", p.name),
    }
}

fn print_text(p: &Property, s: &Synthesis, names: &[String], verdict: &Option<Result<bool, String>>) {
    println!("{}", line(p, s, names));
    match verdict {
        Some(Ok(false)) => println!("  NOT AS EXPECTED: expected a different set"),
        Some(Err(e)) => println!("  {e}"),
        _ => {}
    }
}

fn json_of(p: &Property, s: &Synthesis, names: &[String], verdict: &Option<Result<bool, String>>) -> Value {
    let mut v = json!({"name": p.name, "formula": p.text});
    match s {
        Synthesis::Done { set, approximation, stats } => {
            v["verdict"] = json!("synthesised");
            v["constraint"] = json!(set.text(names));
            v["exact"] = json!(approximation.is_none());
            if let Some((side, why)) = approximation {
                v["approximation"] = json!(side.name());
                v["reason"] = json!(why.reason());
            }
            v["polyhedra"] = set.members.iter().map(polyhedron_json).collect();
            v["stats"] = json!({"visited": stats.visited, "stored": stats.stored,
                                "transitions": stats.transitions, "time_s": stats.time_s});
        }
        Synthesis::Unsupported(why) => {
            v["verdict"] = json!("unknown");
            v["reason"] = json!("unsupported");
            v["message"] = json!(why);
        }
        Synthesis::Error(why) => {
            v["verdict"] = json!("error");
            v["message"] = json!(why);
        }
    }
    v["as_expected"] = match verdict {
        Some(Ok(b)) => json!(b),
        _ => Value::Null,
    };
    v
}

/// A conjunction as `{coeffs, op, rhs}` objects, rationals as strings.
fn polyhedron_json(m: &Poly) -> Value {
    let op = |r: Rel| match r {
        Rel::Eq => "==",
        Rel::Le => "<=",
        Rel::Lt => "<",
    };
    m.constraints()
        .iter()
        .map(|c| {
            let coeffs: Vec<String> = c.coeffs.iter().map(ToString::to_string).collect();
            json!({"coeffs": coeffs, "op": op(c.rel), "rhs": c.rhs.to_string()})
        })
        .collect()
}
