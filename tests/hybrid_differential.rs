//! The linear-network pipeline against the DBM engine: a timed model with
//! one unused continuous variable added is a hybrid model (every clock at
//! rate 1), so it goes through everything hybrid models do — linear
//! constraints, linear assignments for resets, rate tables, the initial
//! box, elapse under rates, deadlock by polyhedra — and must get the zone
//! verdict of the timed model on every reachability property. Without
//! extrapolation (none exists for hybrid models) some explorations do not
//! end within the state cap; those are skipped and counted.

use crate::common;
use crate::oracle;

use kairos::engine::reach::Limits;
use kairos::engine::{self, Options, Verdict};
use kairos::model::formula::EngineKind;
use kairos::model::load::{Loaded, load_model};
use kairos::syntax::yaml::Source;

/// The model text with an unused continuous variable: a hybrid model.
pub(crate) fn as_hybrid(yaml: &str) -> String {
    format!("{yaml}\ncontinuous:\n  hybrid_probe: {{init: 0}}\n")
}

/// Compares the properties on both readings; returns (compared, skipped).
fn compare(name: &str, timed: &Loaded, hybrid: &Loaded, queries: &[String], cap: u64) -> (usize, usize) {
    assert!(hybrid.model.hybrid && !timed.model.hybrid);
    let Ok(tnet) = kairos::network::build(&timed.model) else { return (0, 0) };
    let hnet = kairos::network::build(&hybrid.model).unwrap();
    assert!(hnet.hybrid.is_some());
    let (mut compared, mut skipped) = (0, 0);
    for (k, text) in queries.iter().enumerate() {
        let (Ok(pt), Ok(ph)) = (timed.query(&format!("p{k}"), text), hybrid.query(&format!("p{k}"), text)) else {
            continue;
        };
        if pt.formula.engine() != EngineKind::Reach {
            continue;
        }
        // With diagonal constraints the zones are exact, and their graph
        // may be infinite (random-67: 17 stored zones growing without end):
        // the zone side gets a limit too.
        let zone_limits = Limits { max_states: Some(200_000), ..Limits::default() };
        let zone =
            engine::check(&timed.model, Some(&tnet), &pt, &Options { limits: zone_limits, ..Options::default() });
        let options = Options { limits: Limits { max_states: Some(cap), ..Limits::default() }, ..Options::default() };
        let poly = engine::check(&hybrid.model, Some(&hnet), &ph, &options);
        if matches!(poly.verdict, Verdict::Unknown(_)) || matches!(zone.verdict, Verdict::Unknown(_)) {
            skipped += 1;
            continue;
        }
        assert_eq!(poly.verdict, zone.verdict, "{name}: `{text}`");
        if let Some(t) = &poly.trace {
            kairos::trace::concretise(&hnet, t).unwrap_or_else(|e| panic!("{name}: `{text}`: {e:?}"));
        }
        compared += 1;
    }
    (compared, skipped)
}

/// The random networks of `seeds`, with random priorities when asked
/// (`differential::priorities`).
fn random(seeds: std::ops::Range<u64>, cap: u64, priorities: bool) -> (usize, usize, usize) {
    let (mut networks, mut compared, mut skipped) = (0, 0, 0);
    for seed in seeds {
        let mut g = oracle::random::Gen::generate(seed);
        if priorities {
            let block = crate::differential::priorities(seed, &g.yaml);
            g.yaml.push_str(&block);
        }
        let name = format!("random-{seed}");
        let Ok(timed) = load_model(&Source::new(format!("{name}.yaml"), g.yaml.clone())) else { continue };
        let hybrid = load_model(&Source::new(format!("{name}-hybrid.yaml"), as_hybrid(&g.yaml))).unwrap();
        networks += 1;
        let (c, s) = compare(&name, &timed, &hybrid, &g.properties, cap);
        compared += c;
        skipped += s;
    }
    eprintln!("random: {networks} networks, {compared} properties compared, {skipped} skipped (state cap)");
    (networks, compared, skipped)
}

#[test]
fn hybrid_readings_of_random_networks_get_the_zone_verdicts() {
    let (networks, compared, _) = random(0..16, 40, false);
    assert!(networks >= 16 && compared >= 100, "{networks} networks, {compared} compared");
}

/// The same with random channel or process priorities: the blocking sets
/// are then linear constraints pulled back through linear assignments.
/// Seed 299 is among them: a pull-back that ignored the resets
/// (`x := 0` is a linear assignment here) disagreed there, and on none of
/// seeds 100 to 298.
#[test]
fn hybrid_readings_under_priorities_get_the_zone_verdicts() {
    let (networks, compared, _) = random(290..306, 40, true);
    assert!(networks >= 12 && compared >= 80, "{networks} networks, {compared} compared");
}

/// `cargo test --test suite hybrid_differential:: -- --ignored`: more networks.
#[test]
#[ignore]
fn hybrid_readings_of_many_random_networks_get_the_zone_verdicts() {
    random(0..300, 2000, false);
    random(100..400, 2000, true);
}

#[test]
fn hybrid_readings_of_the_timed_models_get_the_zone_verdicts() {
    let mut total = (0, 0);
    for m in ["fischer", "railway-crossing", "train-gate"] {
        let path = std::path::Path::new("models").join(format!("{m}.yaml"));
        let text = std::fs::read_to_string(&path).unwrap();
        let timed = common::load(&path).unwrap();
        let hybrid = load_model(&Source::new(format!("{m}-hybrid.yaml"), as_hybrid(&text))).unwrap();
        let spec = std::fs::read_to_string(std::path::Path::new("specs").join(format!("{m}.yaml"))).unwrap();
        let queries: Vec<String> = spec
            .lines()
            .filter_map(|l| l.trim().strip_prefix("check: ").map(|q| q.trim_matches('"').to_string()))
            .collect();
        let (c, s) = compare(m, &timed, &hybrid, &queries, 30);
        total = (total.0 + c, total.1 + s);
    }
    eprintln!("models: {} properties compared, {} skipped (state cap)", total.0, total.1);
    assert!(total.0 >= 5, "only {} compared", total.0);
}
