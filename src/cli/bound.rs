//! `kairos bound MODEL -q 'φ --> ψ'`: the exact worst-case response time;
//! `kairos bound MODEL --term T -q φ`: the exact range of a linear term.

use serde_json::json;

use super::args::{BoundArgs, Data, OutputFormat};
use super::evidence::{concrete_trace, print_trace, print_warning, warning_json};
use super::options::{data, domain, options};
use super::params::Given;
use super::{exit, network_at, not_yet, one_query};
use num_traits::Zero;

use crate::domain::poly::Q;
use crate::engine::bound::WorstCase;
use crate::engine::bound::term::{Range, Side};
use crate::engine::{self, Outcome, Verdict};
use crate::report;

pub(super) fn run(b: BoundArgs) -> u8 {
    let a = &b.query;
    let format = a.common.format;
    if let Some(f) = &b.svg
        && let Err(code) = super::svg::refuse_inputs("--svg", std::slice::from_ref(f), &[&a.model])
    {
        return code;
    }
    let (input, p, given) = match one_query(a, &b.params) {
        Ok(x) => x,
        Err(code) => return code,
    };
    if let Some(term) = &b.term {
        // `auto` measures with explicit data.
        if b.data == Data::Bdd {
            return not_yet(&a.model, format, "--data bdd: `kairos bound --term` is not measured with BDD data yet");
        }
        return run_term(&b, &input, &p, &given, term);
    }
    let network = match network_at(&input, &given, format) {
        Ok(Some(n)) => n,
        Ok(None) => {
            return not_yet(&a.model, format, "`kairos bound -q 'φ --> ψ'` needs values for the timing parameters");
        }
        Err(code) => return code,
    };
    let options = engine::Options { data: data(b.data), ..options(&a.common) };
    let result = engine::bound::worst_case(&network, &p, &options);
    let (word, code) = match &result {
        // Also when no divergent run has a `φ and not ψ` moment at all.
        WorstCase::Sup { value, .. } if value.is_zero() => ("0 (every φ moment is answered at once)".into(), exit::OK),
        WorstCase::Sup { value, attained: true, .. } => {
            (format!("{value} (attained: some run takes exactly {value})"), exit::OK)
        }
        WorstCase::Sup { value, attained: false, .. } => {
            (format!("{value} (a supremum, not attained: every run takes less than {value})"), exit::OK)
        }
        WorstCase::Unbounded(_) => ("unbounded (some time-divergent run never reaches ψ)".into(), exit::OK),
        WorstCase::None(o) => no_answer(&p, o),
    };
    let lasso = match &result {
        WorstCase::Unbounded(o) => concrete_trace(Some(&network), o.trace.as_ref()),
        _ => None,
    };
    let time_locks = match &result {
        WorstCase::Sup { warnings, .. } => &warnings[..],
        _ => &[],
    };
    match format {
        OutputFormat::Json => {
            let bound = match &result {
                WorstCase::Sup { value, attained, .. } => json!({"sup": rational_json(value), "attained": attained}),
                WorstCase::Unbounded(_) => json!("unbounded"),
                WorstCase::None(o) => report::verdict::json(&p, o),
            };
            let warnings: Vec<_> = time_locks.iter().map(|w| warning_json(&p.name, w, Some(&network))).collect();
            let mut v = json!({"model": input.loaded.model.name, "formula": p.text, "bound": bound, "trace": null, "warnings": warnings});
            if let Some((net, t)) = &lasso {
                v["trace"] = crate::trace::json(net, t);
                v["loop_start"] = crate::trace::json::loop_start(t).into();
            }
            println!("{v}");
        }
        OutputFormat::Text => {
            println!("{}: {word}", p.text);
            if let Some((net, t)) = &lasso {
                print_trace(net, t);
            }
            for w in time_locks {
                print_warning(&p.name, w, Some(&network));
            }
        }
    }
    match (&b.svg, &lasso) {
        (Some(f), Some((net, t))) => {
            let caption = format!("{}: {} is unbounded: a run that never reaches ψ", input.loaded.model.name, p.text);
            if !super::svg::write(f, net, t, &caption, None) && code == exit::OK {
                return exit::INVALID;
            }
        }
        (Some(f), None) => eprintln!("kairos: note: no trace to draw; {} not written", f.display()),
        (None, _) => {}
    }
    code
}

/// An integer as a JSON number, any other rational as a string (`"11/2"`).
fn rational_json(v: &Q) -> serde_json::Value {
    match v.is_integer().then(|| i64::try_from(v.to_integer())) {
        Some(Ok(n)) => json!(n),
        _ => json!(v.to_string()),
    }
}

/// The line and exit code of a bound with no answer.
fn no_answer(p: &crate::model::types::Property, o: &Outcome) -> (String, u8) {
    let code = match &o.verdict {
        Verdict::Error(_) => exit::RUNTIME_ERROR,
        Verdict::Unknown(engine::Unknown::Unsupported(_)) => exit::UNSUPPORTED,
        _ => exit::LIMIT,
    };
    (format!("unknown: {}", report::verdict::text(p, o).lines().next().unwrap_or_default()), code)
}

/// `--term T -q φ`: the range of `T` over the reachable `φ`-states.
fn run_term(
    b: &BoundArgs,
    input: &crate::input::Input,
    p: &crate::model::types::Property,
    given: &Given,
    term: &str,
) -> u8 {
    let format = b.query.common.format;
    let t = match input.query("term", &format!("({term}) <= 0")) {
        Ok(t) => t,
        Err(r) => return super::rejected(r, format),
    };
    let network = match network_at(input, given, format) {
        Ok(Some(n)) => n,
        Ok(None) => {
            return not_yet(&b.query.model, format, "`kairos bound --term` needs values for the timing parameters");
        }
        Err(code) => return code,
    };
    let options = engine::Options { domain: domain(b.domain), ..options(&b.query.common) };
    let result = engine::bound::term::range(&network, &t, p, &options);
    let side = |s: &Side, what: &str| match s {
        Side::Finite { value, attained: true } => format!("{value} (attained)"),
        Side::Finite { value, attained: false } => format!("{value} ({what}, not attained)"),
        Side::Infinite => "unbounded".to_string(),
        Side::Beyond => "beyond 2^28 in absolute value (unbounded, or past every constant)".to_string(),
    };
    let side_json = |s: &Side| match s {
        Side::Finite { value, attained } => json!({"value": value.to_string(), "attained": attained}),
        Side::Infinite => json!("unbounded"),
        Side::Beyond => json!("beyond-2^28"),
    };
    let (text, code) = match &result {
        Ok(Some(Range { sup, inf })) => {
            (format!("sup = {}, inf = {}", side(sup, "a supremum"), side(inf, "an infimum")), exit::OK)
        }
        Ok(None) => ("no reachable state satisfies the formula".to_string(), exit::OK),
        Err(o) => no_answer(p, o),
    };
    match format {
        OutputFormat::Json => {
            let range = match &result {
                Ok(Some(Range { sup, inf })) => json!({"sup": side_json(sup), "inf": side_json(inf)}),
                Ok(None) => json!(null),
                Err(o) => report::verdict::json(p, o),
            };
            let v = json!({"model": input.loaded.model.name, "term": term, "formula": p.text, "range": range});
            println!("{v}");
        }
        OutputFormat::Text => println!("{term} where {}: {text}", p.text),
    }
    code
}
