//! `--domain poly` against the DBM zones on timed models: every
//! reachability, liveness and bounded-response property of `models/` with
//! its spec, and of random networks from the differential suite's generator
//! (tests/oracle/random.rs), must get the zone verdict, with the same
//! exploration (the polyhedra of a timed model are zones, so the counts and
//! witness paths coincide too). Liveness properties with clock atoms, which
//! the fixpoint engine answers on zones only, are left out.

use crate::common;
use crate::oracle;

use std::path::Path;

use kairos::domain::poly::Q;
use kairos::engine::reach::Limits;
use kairos::engine::{self, Domain, Options, Outcome, Unknown, Verdict};
use kairos::model::formula::{EngineKind, Formula};
use kairos::model::load::{Loaded, load_model};
use kairos::model::types::Property;
use kairos::network::Network;
use kairos::syntax::yaml::Source;

/// Zone runs larger than `cap` visited states are not repeated on
/// polyhedra (their exact arithmetic costs about a hundred times a DBM's).
/// Compares one property; `None` if skipped, else the verdict and the
/// number of zones visited.
fn compare(loaded: &Loaded, net: &Network, p: &Property, what: &str, cap: u64) -> Option<(Verdict, u64)> {
    let engine = p.formula.engine();
    if !matches!(engine, EngineKind::Reach | EngineKind::Live | EngineKind::Observer) {
        return None;
    }
    // Liveness can explore far more than reachability stores (issue 18):
    // the zone run too stops past the cap.
    let limits = Limits { max_states: Some(2 * cap), ..Limits::default() };
    let zone = engine::check(&loaded.model, Some(net), p, &Options { limits: limits.clone(), ..Options::default() });
    let stats = zone.stats?;
    if stats.visited > cap {
        return None;
    }
    let options = Options { domain: Domain::Poly, limits, ..Options::default() };
    let poly = engine::check(&loaded.model, Some(net), p, &options);
    if matches!(p.formula, Formula::Measure(_)) {
        // `sup`/`inf` are measured on zones only: refused, never a number.
        assert!(matches!(poly.verdict, Verdict::Unknown(Unknown::Unsupported(_))), "{what}: `{}`", p.text);
        return None;
    }
    if engine != EngineKind::Reach && matches!(poly.verdict, Verdict::Unknown(Unknown::Unsupported(_))) {
        // Refused by the forward engines, answered by `tctl` on zones.
        assert_eq!(zone.engine, EngineKind::Tctl, "{what}: `{}`", p.text);
        return None;
    }
    assert_eq!(poly.verdict, zone.verdict, "{what}: `{}`", p.text);
    let counts = |o: &Outcome| o.stats.map(|s| (s.visited, s.stored, s.transitions));
    assert_eq!(counts(&poly), counts(&zone), "{what}: `{}`: visited, stored, transitions", p.text);
    let path = |o: &Outcome| o.trace.as_ref().map(|t| (t.states.clone(), t.steps.clone()));
    assert_eq!(path(&poly), path(&zone), "{what}: `{}`: witness path", p.text);
    Some((zone.verdict, stats.visited))
}

/// Every timed model of `models/` and `models/bench/`, with its spec where
/// there is one, timing parameters fixed to integers (so the model stays
/// timed: zones).
#[test]
fn poly_gives_the_zone_verdicts_on_the_models() {
    let (mut models, mut checked, mut live) = (0, 0, 0);
    let mut paths: Vec<_> = ["models", "models/bench"]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    for model in &paths {
        let loaded = common::load(model).unwrap();
        if loaded.model.hybrid {
            continue;
        }
        // Each parameter at the middle of its range (3 where it has none).
        let values: Vec<Q> = loaded
            .model
            .params
            .iter()
            .map(|p| match (p.min, p.max) {
                (Some(lo), Some(hi)) => Q::from_integer(((lo.num / lo.den + hi.num / hi.den) / 2).into()),
                _ => Q::from_integer(3.into()),
            })
            .collect();
        let net = kairos::network::build_with(&loaded.model, &values).unwrap();
        assert!(net.hybrid.is_none(), "{}: integer parameters keep it timed", model.display());
        models += 1;
        let spec = Path::new("specs").join(model.file_name().unwrap());
        let spec = if spec.exists() { loaded.spec(&common::source(&spec)).unwrap().properties } else { Vec::new() };
        let what = model.display().to_string();
        for p in spec.iter().chain(&loaded.model.properties) {
            // Liveness verdicts found by a lasso, and the observer's, also
            // search the model's graph for time-locks: a larger cap keeps
            // them compared.
            let cap = if p.formula.engine() == EngineKind::Reach { 300 } else { 1000 };
            if compare(&loaded, &net, p, &what, cap).is_some() {
                checked += 1;
                live += usize::from(p.formula.engine() != EngineKind::Reach);
            }
        }
    }
    eprintln!(
        "models: {models} timed models, {checked} properties compared, {live} of them liveness or bounded response"
    );
    // Pinned so that a growing zone count cannot silently skip them all.
    assert!(models >= 40 && checked >= 45 && live >= 8, "{models} models, {checked} compared, {live} liveness");
}

#[test]
fn poly_gives_the_zone_verdicts_on_random_networks() {
    let (networks, checked, live) = random_networks(0..30, 120);
    assert!(
        networks >= 30 && checked >= 300 && live >= 100,
        "{networks} networks, {checked} compared, {live} liveness"
    );
}

/// `cargo test --test suite poly_domain:: -- --ignored`: more and larger networks.
#[test]
#[ignore]
fn poly_gives_the_zone_verdicts_on_many_random_networks() {
    random_networks(0..300, 1000);
}

/// Compares every generated property of the seeds' networks; returns the
/// networks built, the properties compared and how many of them were
/// liveness or bounded response.
fn random_networks(seeds: std::ops::Range<u64>, cap: u64) -> (usize, usize, usize) {
    let (mut checked, mut networks, mut live) = (0, 0, 0);
    for seed in seeds {
        let generated = oracle::random::Gen::generate(seed);
        let Ok(loaded) = load_model(&Source::new(format!("random-{seed}.yaml"), generated.yaml.clone())) else {
            continue;
        };
        let Ok(net) = kairos::network::build(&loaded.model) else { continue };
        networks += 1;
        // The generator's reachability properties, and liveness ones over
        // the same network (the generator has none).
        let texts = generated.properties.iter().cloned().chain(oracle::random::liveness_properties(&net, seed));
        for (k, text) in texts.enumerate() {
            let Ok(p) = loaded.query(&format!("p{k}"), &text) else { continue };
            if compare(&loaded, &net, &p, &format!("seed {seed}"), cap).is_some() {
                checked += 1;
                live += usize::from(p.formula.engine() != EngineKind::Reach);
            }
        }
    }
    eprintln!("random: {networks} networks, {checked} properties compared, {live} liveness or bounded response");
    (networks, checked, live)
}
