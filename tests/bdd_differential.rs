//! `--data bdd` against `--data explicit`: the same verdict on every model
//! of `models/` (with its spec in `specs/`), of `tests/models/`, and on the
//! random networks of the differential suite's generator, wherever the
//! data-symbolic engine takes the model (elsewhere it must refuse, never
//! answer differently). Every trace of a BDD run is concretised and
//! replayed by the validator, and ends where the property says.

#[allow(dead_code)]
mod oracle;

use std::path::{Path, PathBuf};

use kairos::engine::reach::Limits;
use kairos::engine::{self, DataChoice, Options, Unknown, Verdict};
use kairos::model::formula::Formula;
use kairos::model::load::load_model;
use kairos::model::types::{Model, Property};
use kairos::network::{Network, StateFormula};
use kairos::syntax::ast::PathOp;
use kairos::syntax::yaml::Source;
use oracle::random::Gen;

#[derive(Default, Debug)]
struct Tally {
    compared: u64,
    refused: u64,
    /// Refusals by reason (the reason's text up to its first backquote).
    why: std::collections::BTreeMap<String, u64>,
    limits: u64,
    traces: u64,
}

fn options(data: DataChoice) -> Options {
    Options { data, limits: Limits { max_states: Some(50_000), ..Limits::default() }, ..Options::default() }
}

/// Checks `p` both ways; a BDD trace is validated.
fn compare(model: &Model, net: &Network, p: &Property, what: &str, tally: &mut Tally) {
    let (negated, arg) = match &p.formula {
        Formula::Path { op: PathOp::EF, bound: None, arg } if arg.is_state() => (false, arg),
        Formula::Path { op: PathOp::AG, bound: None, arg } if arg.is_state() => (true, arg),
        _ => return,
    };
    let bdd = engine::check(model, Some(net), p, &options(DataChoice::Bdd));
    if let Verdict::Unknown(Unknown::Unsupported(why)) = &bdd.verdict {
        assert!(why.starts_with("--data bdd") || why.contains("param"), "{what}: `{}`: {why}", p.text);
        tally.refused += 1;
        *tally.why.entry(why.split('`').next().unwrap_or("").to_string()).or_default() += 1;
        return;
    }
    let explicit = engine::check(model, Some(net), p, &options(DataChoice::Explicit));
    if matches!(bdd.verdict, Verdict::Unknown(_)) || matches!(explicit.verdict, Verdict::Unknown(_)) {
        tally.limits += 1;
        return;
    }
    let error = |v: &Verdict| matches!(v, Verdict::Error(_));
    if error(&bdd.verdict) || error(&explicit.verdict) {
        assert!(
            error(&bdd.verdict) && error(&explicit.verdict),
            "{what}: `{}`: {:?} vs {:?}",
            p.text,
            bdd.verdict,
            explicit.verdict
        );
    } else {
        assert_eq!(bdd.verdict, explicit.verdict, "{what}: `{}`", p.text);
    }
    tally.compared += 1;
    let witness = (bdd.verdict == Verdict::Satisfied) != negated;
    if let (Some(t), true, false) = (&bdd.trace, witness, error(&bdd.verdict)) {
        let ct = kairos::trace::concretise(net, t).unwrap_or_else(|e| panic!("{what}: `{}`: {e:?}", p.text));
        kairos::trace::validate(net, &ct).unwrap_or_else(|e| panic!("{what}: `{}`: {e}", p.text));
        let mut phi = net.state_formula(p, arg).expect("a state formula");
        if negated {
            phi = StateFormula::Not(Box::new(phi));
        }
        let ends = kairos::trace::validate::ends_in(net, &ct, &phi).expect("evaluable");
        assert_ne!(ends, Some(false), "{what}: `{}`: the trace misses the goal", p.text);
        tally.traces += 1;
    }
}

fn check_text(text: &str, spec: Option<&str>, what: &str, tally: &mut Tally) {
    let Ok(loaded) = load_model(&Source::new(what, text.to_string())) else { return };
    let Ok(net) = kairos::network::build(&loaded.model) else { return };
    let mut props = loaded.model.properties.clone();
    if let Some(s) = spec
        && let Ok(spec) = loaded.spec(&Source::new("spec.yaml", s.to_string()))
    {
        props.extend(spec.properties);
    }
    for p in &props {
        compare(&loaded.model, &net, p, what, tally);
    }
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            yaml_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml")
            && !p.starts_with(BENCH)
            && !p.ends_with("models/sensor.yaml")
        {
            out.push(p);
        }
    }
}

/// The TChecker families of `models/bench/` take minutes in the test
/// profile: `bdd_and_explicit_agree_on_the_bench_models` (ignored) has them.
const BENCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/bench");

#[test]
#[ignore]
fn bdd_and_explicit_agree_on_the_bench_models() {
    let mut files = Vec::new();
    let mut tally = Tally::default();
    let Ok(entries) = std::fs::read_dir(BENCH) else { return };
    files.extend(entries.flatten().map(|e| e.path()));
    files.sort();
    for f in &files {
        check_text(&std::fs::read_to_string(f).unwrap(), None, &f.display().to_string(), &mut tally);
    }
    eprintln!("bench models: {} files, {tally:?}", files.len());
}

#[test]
fn bdd_and_explicit_agree_on_the_models() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    yaml_files(&root.join("models"), &mut files);
    yaml_files(&root.join("tests/models"), &mut files);
    files.sort();
    let mut tally = Tally::default();
    for f in &files {
        let started = std::time::Instant::now();
        let text = std::fs::read_to_string(f).unwrap();
        let spec = f
            .strip_prefix(root.join("models"))
            .ok()
            .and_then(|rel| std::fs::read_to_string(root.join("specs").join(rel)).ok());
        check_text(&text, spec.as_deref(), &f.display().to_string(), &mut tally);
        if started.elapsed().as_secs_f64() > 2.0 {
            eprintln!("{}: {:.1} s", f.display(), started.elapsed().as_secs_f64());
        }
    }
    eprintln!("models: {} files, {tally:?}", files.len());
    assert!(tally.compared >= 10, "too few comparisons: {tally:?}");
}

/// The sensor benchmark, small enough for the explicit engine: its
/// `select` is one step of the BDD search (a select group), and the
/// witness of `three-alarms-at-the-top` picks the selected values back.
#[test]
fn bdd_and_explicit_agree_on_the_sensor() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("models/sensor.yaml")).unwrap();
    let mut tally = Tally::default();
    for (n, high) in [(7, 5), (20, 18), (33, 30)] {
        let text =
            text.replace("  N: 1000\n", &format!("  N: {n}\n")).replace("  HIGH: 900\n", &format!("  HIGH: {high}\n"));
        check_text(&text, None, &format!("sensor N={n}"), &mut tally);
    }
    eprintln!("sensor: {tally:?}");
    assert_eq!((tally.compared, tally.refused, tally.traces), (9, 0, 3), "{tally:?}");
}

/// Ignored: none of the generator's networks is taken by `--data bdd` yet
/// (0 of 100: broadcast or urgent channels, data invariants, properties
/// with clock atoms or `deadlock`), so it compares nothing today.
#[test]
#[ignore]
fn bdd_and_explicit_agree_on_random_networks() {
    let mut tally = Tally::default();
    let count = 100;
    for seed in 0..count {
        let g = Gen::generate(seed);
        let Ok(loaded) = load_model(&Source::new("random.yaml", g.yaml.clone())) else { continue };
        let Ok(net) = kairos::network::build(&loaded.model) else { continue };
        for (k, text) in g.properties.iter().enumerate() {
            let Ok(p) = loaded.query(&format!("p{k}"), text) else { continue };
            compare(&loaded.model, &net, &p, &format!("seed {seed}"), &mut tally);
        }
    }
    eprintln!("random: {count} networks, {tally:?}");
    assert!(tally.compared >= 50, "too few comparisons: {tally:?}");
}
