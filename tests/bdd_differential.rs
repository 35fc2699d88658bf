//! `--data bdd` against `--data explicit`: the same verdict on every model
//! of `models/` (with its spec in `specs/`), of `tests/models/`, and on the
//! random networks of the differential suite's generator, wherever the
//! data-symbolic engine takes the model (elsewhere it must refuse, never
//! answer differently). Every trace of a BDD run is concretised and
//! replayed by the validator, and ends where the property says.

use crate::oracle;

use std::path::{Path, PathBuf};

use kairos::engine::reach::Limits;
use kairos::engine::{self, DataChoice, Options, Unknown, Verdict};
use kairos::model::formula::{EngineKind, Formula};
use kairos::model::load::{Loaded, load_model};
use kairos::model::types::{Model, Property};
use kairos::network::{Network, StateFormula};
use kairos::syntax::ast::PathOp;
use kairos::syntax::yaml::Source;
use oracle::random::{Gen, liveness_properties};

#[derive(Default, Debug)]
struct Tally {
    compared: u64,
    /// Of those, properties with clock atoms.
    clocked: u64,
    refused: u64,
    /// Refusals by reason (the reason's text up to its first backquote).
    why: std::collections::BTreeMap<String, u64>,
    limits: u64,
    traces: u64,
    /// The state budget of each run (0: 50 000).
    max_states: u64,
}

fn options(data: DataChoice, max_states: u64) -> Options {
    Options { data, limits: Limits { max_states: Some(max_states), ..Limits::default() }, ..Options::default() }
}

/// Checks `p` both ways; a BDD trace is validated.
fn compare(model: &Model, net: &Network, p: &Property, what: &str, tally: &mut Tally) {
    if tally.max_states == 0 {
        tally.max_states = 50_000;
    }
    let (negated, arg) = match &p.formula {
        Formula::Path { op: PathOp::EF, bound: None, arg } if arg.is_state() => (false, arg),
        Formula::Path { op: PathOp::AG, bound: None, arg } if arg.is_state() => (true, arg),
        _ => return,
    };
    let bdd = engine::check(model, Some(net), p, &options(DataChoice::Bdd, tally.max_states));
    if let Verdict::Unknown(Unknown::Unsupported(why)) = &bdd.verdict {
        assert!(why.starts_with("--data bdd") || why.contains("param"), "{what}: `{}`: {why}", p.text);
        tally.refused += 1;
        *tally.why.entry(why.split('`').next().unwrap_or("").to_string()).or_default() += 1;
        return;
    }
    let explicit = engine::check(model, Some(net), p, &options(DataChoice::Explicit, tally.max_states));
    if matches!(bdd.verdict, Verdict::Unknown(_)) || matches!(explicit.verdict, Verdict::Unknown(_)) {
        tally.limits += 1;
        return;
    }
    let error = |v: &Verdict| matches!(v, Verdict::Error(_));
    // FORMAT.md: a verdict settled before the exploration met an error
    // stands, so the engines' orders may end one at a witness and the
    // other at an error (the witness is validated below).
    let found = |v: &Verdict| *v == if negated { Verdict::Violated } else { Verdict::Satisfied };
    if error(&bdd.verdict) || error(&explicit.verdict) {
        assert!(
            (error(&bdd.verdict) || found(&bdd.verdict)) && (error(&explicit.verdict) || found(&explicit.verdict)),
            "{what}: `{}`: {:?} vs {:?}",
            p.text,
            bdd.verdict,
            explicit.verdict
        );
    } else {
        assert_eq!(bdd.verdict, explicit.verdict, "{what}: `{}`", p.text);
    }
    tally.compared += 1;
    tally.clocked += net.state_formula(p, arg).is_ok_and(|f| f.has_clock_atoms()) as u64;
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

/// Every YAML model of `models/` and `tests/models/`, sorted.
fn model_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    yaml_files(&root.join("models"), &mut files);
    yaml_files(&root.join("tests/models"), &mut files);
    files.sort();
    files
}

#[test]
fn bdd_and_explicit_agree_on_the_models() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = model_files();
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

/// Variables in the three roles that keep them explicit under `--data bdd`
/// (`tests/models/bdd/split-roles.yaml`: an array index, a clock bound and
/// a channel index, computed from a reading that starts anywhere): the
/// split names them, the BDD engine takes the model, and every property and
/// every location's reachability agree with the explicit engine; forcing the
/// reading explicit (`symbolic: false`) changes no verdict.
#[test]
fn bdd_and_explicit_agree_with_explicit_roles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("tests/models/bdd/split-roles.yaml")).unwrap();
    let any = "reading: {range: [0, 5], init: any}";
    assert!(text.contains(any));
    let forced = text.replace(any, "reading: {range: [0, 5], init: any, symbolic: false}");
    let mut tally = Tally::default();
    for (text, explicit) in
        [(&text, vec!["delay", "slot", "target"]), (&forced, vec!["reading", "delay", "slot", "target"])]
    {
        let loaded = load_model(&Source::new("split-roles.yaml", text.clone())).expect("a model");
        let net = kairos::network::build(&loaded.model).expect("a network");
        let split = kairos::bdd::split::Split::of(&net);
        let names: Vec<&str> =
            net.slots.iter().enumerate().filter(|(s, _)| split.is_explicit(*s)).map(|(_, v)| v.name.as_str()).collect();
        assert_eq!(names, explicit);
        check_locations(&loaded, &net, "split-roles", &mut tally);
    }
    eprintln!("split roles: {tally:?}");
    assert_eq!((tally.refused, tally.limits), (0, 0), "{tally:?}");
    assert!(tally.compared >= 2 * 13 && tally.traces >= 2 * 8, "{tally:?}");
}

/// The generator's network with its data invariants made to matter: the
/// generator's `n <= nmax` holds of every value of `n` (its range is
/// `[0, nmax]`), so it becomes `n < nmax`, which blocks the steps that
/// would enter such a location with `n` at its maximum.
fn tighten_data_invariants(yaml: &str) -> String {
    let Some(at) = yaml.find("  n: {range: [0, ") else { return yaml.to_string() };
    let nmax = &yaml[at + 17..][..1];
    yaml.replace(&format!("n <= {nmax}\""), &format!("n < {nmax}\""))
        .replace(&format!("n <= {nmax} &&"), &format!("n < {nmax} &&"))
}

/// The generator's networks of seeds `0..count`, their data invariants
/// tightened ([`tighten_data_invariants`]), those that load: seed,
/// generator output, model, network.
pub fn random_networks(count: u64) -> impl Iterator<Item = (u64, oracle::random::Generated, Loaded, Network)> {
    (0..count).filter_map(|seed| {
        let g = Gen::generate(seed);
        let loaded = load_model(&Source::new("random.yaml", tighten_data_invariants(&g.yaml))).ok()?;
        let net = kairos::network::build(&loaded.model).ok()?;
        Some((seed, g, loaded, net))
    })
}

/// Random networks of the differential suite's generator, their data
/// invariants tightened ([`tighten_data_invariants`]): at least 100 of them have a property compared,
/// 50 of them with broadcast channels (some with receivers under clock
/// guards), 30 with a channel index read from the data, and 40 `deadlock`
/// properties and properties with clock atoms are.
#[test]
fn bdd_and_explicit_agree_on_random_networks() {
    // A few networks grow without bound (until the budget): a small one
    // keeps the test within seconds.
    let mut tally = Tally { max_states: 3_000, ..Tally::default() };
    let (count, mut networks, mut with_broadcast, mut deadlocks) = (250, 0, 0, 0);
    // Broadcast receivers with clock guards: stay-out cells in the steps.
    let mut guarded_receivers = 0;
    // A channel index read from the data (`ch[a[0] % 2]`): `a[0]` explicit.
    let mut computed_channel = 0;
    for (seed, g, loaded, net) in random_networks(count) {
        let before = tally.compared;
        for (k, text) in g.properties.iter().enumerate() {
            let Ok(p) = loaded.query(&format!("p{k}"), text) else { continue };
            let c = tally.compared;
            compare(&loaded.model, &net, &p, &format!("seed {seed}"), &mut tally);
            deadlocks += (tally.compared - c) * text.contains("deadlock") as u64;
        }
        networks += (tally.compared > before) as u64;
        let broadcasts = ["bc!", "ub!"].iter().any(|s| g.yaml.contains(s));
        with_broadcast += (tally.compared > before && broadcasts) as u64;
        computed_channel += (tally.compared > before && g.yaml.contains("ch[a[0] % 2]")) as u64;
        guarded_receivers += (tally.compared > before && guarded_receiver(&net)) as u64;
    }
    eprintln!(
        "random: {count} networks, {networks} compared ({with_broadcast} with broadcasts, {guarded_receivers} \
         of them with receivers under clock guards, {computed_channel} with a computed channel index), \
         {deadlocks} deadlock properties, {tally:?}"
    );
    assert!(tally.clocked >= 40, "too few properties with clock atoms compared: {tally:?}");
    assert!(guarded_receivers >= 20, "too few networks with clock-guarded receivers compared: {guarded_receivers}");
    assert!(networks >= 100, "too few networks compared: {networks} {tally:?}");
    assert!(with_broadcast >= 50, "too few networks with broadcasts compared: {with_broadcast}");
    assert!(deadlocks >= 40, "too few deadlock properties compared: {deadlocks}");
    assert!(computed_channel >= 30, "too few networks with a computed channel index compared: {computed_channel}");
}

/// Whether some edge of `net` receives a broadcast under a clock guard.
fn guarded_receiver(net: &Network) -> bool {
    let edges = net.processes.iter().flat_map(|p| &p.edges);
    edges.filter(|e| !e.guard_clocks.is_empty()).filter_map(|e| e.sync.as_ref()).any(|s| {
        s.dir == kairos::model::typed::Dir::Receive
            && match &s.channel {
                kairos::network::ChannelIndex::Fixed(c) => net.channels[*c as usize].broadcast,
                kairos::network::ChannelIndex::Dynamic { base, len, .. } => {
                    (*base..base + len).any(|c| net.channels[c as usize].broadcast)
                }
            }
    })
}

/// Hybrid models with BDD data, on polyhedra as with explicit data: the
/// hybrid readings of the generator's networks (an unused continuous
/// variable added, so resets are linear assignments and nothing is
/// extrapolated: explorations past the state budget are counted, not
/// compared), and every property and location of
/// `tests/models/bdd/hybrid-data.yaml` (a continuous variable assigned
/// from the data, a rate read from it) and `tests/models/hybrid/data-rate.yaml`.
#[test]
fn bdd_and_explicit_agree_on_hybrid_models() {
    // 8 networks: polyhedra make each comparison costly (60 took 225 s
    // in the test profile, 20 took 135 s).
    let mut tally = Tally { max_states: 2_000, ..Tally::default() };
    for seed in 0..8 {
        let g = Gen::generate(seed);
        let text = crate::hybrid_differential::as_hybrid(&tighten_data_invariants(&g.yaml));
        let Ok(loaded) = load_model(&Source::new("random-hybrid.yaml", text)) else { continue };
        let Ok(net) = kairos::network::build(&loaded.model) else { continue };
        for (k, text) in g.properties.iter().enumerate() {
            let Ok(p) = loaded.query(&format!("p{k}"), text) else { continue };
            compare(&loaded.model, &net, &p, &format!("hybrid seed {seed}"), &mut tally);
        }
    }
    let random = tally.compared;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in ["tests/models/bdd/hybrid-data.yaml", "tests/models/hybrid/data-rate.yaml"] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let loaded = load_model(&Source::new(file, text)).expect("a model");
        let net = kairos::network::build(&loaded.model).expect("a network");
        assert!(net.hybrid.is_some(), "{file}");
        check_locations(&loaded, &net, file, &mut tally);
    }
    eprintln!("hybrid: {random} random properties compared, {tally:?}");
    assert!(random >= 50, "too few random properties compared: {tally:?}");
    assert!(tally.compared - random >= 10 && tally.traces >= 5, "{tally:?}");
}

/// What the liveness comparisons found wrong, with how many ran.
#[derive(Default, Debug)]
struct Live {
    compared: u64,
    refused: u64,
    limits: u64,
    /// BDD lassos concretised, validated and shown to keep the property.
    lassos: u64,
    /// Of those compared, answered by the fixpoint engine with BDD data.
    by_tctl: u64,
    /// Refusals by reason (the reason's text up to its first backquote).
    why: std::collections::BTreeMap<String, u64>,
    /// BDD searches that showed every run divergent, and those that also
    /// showed no valuation stuck (each confirmed by the fixpoint engine's
    /// time-lock scan), and those where the explicit search showed it.
    diverges: u64,
    excluded: u64,
    explicit_excluded: u64,
    /// Properties whose time-lock warnings were compared (the verdicts
    /// definite), those both runs warned of, and those that differed only
    /// under the runs' state budget ([`compare_warnings`]).
    warnings_compared: u64,
    warned: u64,
    warnings_at_limit: u64,
    /// On linear networks: properties the explicit engine warned of
    /// time-locks for (the BDD engine gives none there).
    hybrid_warnings: u64,
    wrong: Vec<String>,
    again: Again,
}

/// The options of [`compare_warnings`]'s second runs, with BDD and with
/// explicit data, kept from one property to the next: their caches (keyed
/// by the network) then analyse a network's time-locks once, not once per
/// property and run.
struct Again([Options; 2]);

impl Default for Again {
    fn default() -> Self {
        Again([DataChoice::Bdd, DataChoice::Explicit].map(|d| options(d, SCAN_STATES)))
    }
}

impl std::fmt::Debug for Again {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Again")
    }
}

/// A liveness property (`E[] φ`, `A<> ψ`, `φ --> ψ`) checked both ways:
/// the same verdict, and every BDD verdict that has a run as evidence
/// (`E[]` satisfied, the others violated) comes with a lasso that
/// concretises, validates and keeps the formula its loop must keep.
fn compare_live(model: &Model, net: &Network, p: &Property, what: &str, max_states: u64, tally: &mut Live) {
    let bdd = engine::check(model, Some(net), p, &options(DataChoice::Bdd, max_states));
    if let Verdict::Unknown(Unknown::Unsupported(why)) = &bdd.verdict {
        assert!(why.starts_with("--data bdd"), "{what}: `{}`: {why}", p.text);
        tally.refused += 1;
        return;
    }
    let explicit = engine::check(model, Some(net), p, &options(DataChoice::Explicit, max_states));
    if matches!(bdd.verdict, Verdict::Unknown(_)) || matches!(explicit.verdict, Verdict::Unknown(_)) {
        tally.limits += 1;
        return;
    }
    let state = |f: &Formula| net.state_formula(p, f).expect("a state formula");
    let not = |f: StateFormula| StateFormula::Not(Box::new(f));
    // The verdict a lasso shows, and what its loop keeps (from the start
    // for `E[]` and `A<>`, in the loop for `-->`).
    let (evidence, kept, from_start) = match &p.formula {
        Formula::Path { op: PathOp::EG, arg, .. } => (Verdict::Satisfied, state(arg), true),
        Formula::Path { op: PathOp::AF, arg, .. } => (Verdict::Violated, not(state(arg)), true),
        Formula::LeadsTo { rhs, .. } => (Verdict::Violated, not(state(rhs)), false),
        _ => return,
    };
    tally.compared += 1;
    let error = |v: &Verdict| matches!(v, Verdict::Error(_));
    let agree = if error(&bdd.verdict) || error(&explicit.verdict) {
        // A verdict settled before the other search met an error stands.
        [&bdd.verdict, &explicit.verdict].iter().all(|v| error(v) || **v == evidence)
    } else {
        bdd.verdict == explicit.verdict
    };
    if !agree {
        tally.wrong.push(format!("{what}: `{}`: bdd {:?}, explicit {:?}", p.text, bdd.verdict, explicit.verdict));
        return;
    }
    if net.hybrid.is_some() {
        // No scan exists on linear networks: the explicit search warns of
        // the whole symbolic states it shows time-locked, the BDD search of
        // none (FORMAT.md section 6).
        tally.hybrid_warnings += u64::from(!explicit.warnings.is_empty());
    } else if !error(&bdd.verdict) && !error(&explicit.verdict) {
        compare_warnings(model, net, p, what, [&bdd, &explicit], tally);
    }
    if net.hybrid.is_none() {
        confirm_locks(net, p, what, max_states, tally);
    }
    if bdd.engine == EngineKind::Tctl {
        // What the BDD liveness search refuses (clock atoms, `deadlock`) the
        // fixpoint engine answers with BDD data, without a lasso yet.
        tally.by_tctl += 1;
        return;
    }
    if bdd.verdict != evidence {
        return;
    }
    // A BDD run the explicit engine took over has its trace.
    let Some(t) = &bdd.trace else {
        tally.wrong.push(format!("{what}: `{}`: {:?} without a lasso", p.text, bdd.verdict));
        return;
    };
    let ct = match kairos::trace::concretise(net, t) {
        Ok(ct) => ct,
        Err(e) => return tally.wrong.push(format!("{what}: `{}`: no valid concrete lasso: {e}", p.text)),
    };
    let from = match ct.loop_start {
        _ if from_start => 0,
        Some(k) => k,
        // A linear network's lasso is the path into its loop
        // (`periodic::without_ticks`): the loop starts where it ends.
        None if net.hybrid.is_some() => ct.steps.len(),
        None => return tally.wrong.push(format!("{what}: `{}`: a lasso without its loop", p.text)),
    };
    let keeps = kairos::trace::validate::Keeps {
        formula: kept,
        from: (from, num_traits::Zero::zero()),
        within: None,
        until: None,
        until_within: None,
    };
    if let Err(e) = kairos::trace::validate::keeps(net, &ct, &keeps) {
        return tally.wrong.push(format!("{what}: `{}`: the lasso does not keep its formula: {e}", p.text));
    }
    tally.lassos += 1;
}

/// The time-lock warnings of a BDD run and of an explicit one: both or
/// neither warn. The explicit engine's come from its own search or the
/// fixpoint engine's scan (the liveness differential suite checks them
/// against the scan); the BDD engine's from the scan, which its search
/// skips where it showed no valuation stuck, or searches the whole graph
/// again after a lasso. The explicit search may see a time-locked symbolic
/// state that the scan, stopped by the budget, does not reach (the BDD run
/// then does not warn): under a budget the scan finishes within, both must
/// warn alike. A disagreement names what the scan says.
fn compare_warnings(
    model: &Model,
    net: &Network,
    p: &Property,
    what: &str,
    runs: [&engine::Outcome; 2],
    tally: &mut Live,
) {
    tally.warnings_compared += 1;
    let warned = |[bdd, explicit]: [&engine::Outcome; 2]| [!bdd.warnings.is_empty(), !explicit.warnings.is_empty()];
    let [bdd, explicit] = warned(runs);
    tally.warned += u64::from(bdd && explicit);
    if bdd == explicit {
        return;
    }
    let again = tally.again.0.each_ref().map(|o| engine::check(model, Some(net), p, o));
    let [bdd_again, explicit_again] = warned([&again[0], &again[1]]);
    if bdd_again == explicit_again {
        tally.warnings_at_limit += 1;
        return;
    }
    let scan = engine::tctl::time_lock_warning(net, p, &tally.again.0[1]);
    tally.wrong.push(format!(
        "{what}: `{}`: time-lock warnings differ: bdd {bdd_again}, explicit {explicit_again} (the scan: {:?})",
        p.text,
        scan.map(|w| w.message)
    ));
}

/// The state budget under which the runs whose time-lock warnings differ
/// are checked again.
const SCAN_STATES: u64 = 200_000;

/// What the BDD liveness search showed of time-locks inside its nodes
/// (the engine then skips the fixpoint engine's scan): where it showed
/// that no reachable valuation is stuck, the scan must find no time-lock.
fn confirm_locks(net: &Network, p: &Property, what: &str, max_states: u64, tally: &mut Live) {
    use kairos::engine::liveness::Locks;
    let live = engine::symdata::live::check_property(net, p, &options(DataChoice::Bdd, max_states));
    if !matches!(live.outcome.verdict, Verdict::Satisfied | Verdict::Violated) {
        return;
    }
    let explicit = engine::liveness::check_property(net, p, &options(DataChoice::Explicit, max_states));
    tally.explicit_excluded += u64::from(explicit.locks == Locks::Excluded);
    tally.diverges += u64::from(live.locks != Locks::Unknown);
    if live.locks != Locks::Excluded {
        return;
    }
    tally.excluded += 1;
    if let Some(w) = engine::tctl::time_lock_warning(net, p, &options(DataChoice::Explicit, max_states)) {
        tally.wrong.push(format!("{what}: `{}`: no stuck valuation shown, but the scan finds: {}", p.text, w.message));
    }
}

/// Liveness on the random networks of [`bdd_and_explicit_agree_on_random_networks`]
/// with the liveness differential suite's properties: no disagreement, at
/// least 100 networks and 500 properties compared, 30 of the networks with
/// a variable that starts anywhere (`m: init: any`), 100 lassos validated,
/// and 100 searches that excluded time-locks, each confirmed by the
/// fixpoint engine's scan.
#[test]
fn bdd_and_explicit_agree_on_liveness() {
    let (count, max_states) = (150, 3_000);
    let (mut tally, mut networks, mut with_any) = (Live::default(), 0, 0);
    for (seed, g, loaded, net) in random_networks(count) {
        let before = tally.compared;
        for (k, text) in liveness_properties(&net, seed).iter().enumerate() {
            let Ok(p) = loaded.query(&format!("l{k}"), text) else { continue };
            compare_live(&loaded.model, &net, &p, &format!("seed {seed}"), max_states, &mut tally);
        }
        networks += (tally.compared > before) as u64;
        with_any += (tally.compared > before && g.yaml.contains("init: any")) as u64;
    }
    eprintln!(
        "liveness: {count} networks, {networks} compared ({with_any} with `init: any`), {} properties compared, \
         {} refused, {} at the limit, {} lassos validated, {} disagreements; time-locks: every run divergent \
         in {} BDD searches, also none stuck in {} (confirmed by the scan; explicit search: {}); \
         warnings compared for {} properties, both warned for {}, differing only under the budget for {}",
        tally.compared,
        tally.refused,
        tally.limits,
        tally.lassos,
        tally.wrong.len(),
        tally.diverges,
        tally.excluded,
        tally.explicit_excluded,
        tally.warnings_compared,
        tally.warned,
        tally.warnings_at_limit
    );
    assert!(tally.wrong.is_empty(), "{}", tally.wrong.join("\n"));
    assert!(tally.excluded >= 50, "too few searches excluded time-locks: {tally:?}");
    assert!(networks >= 50 && tally.compared >= 250, "too few compared: {networks} networks, {tally:?}");
    assert!(with_any >= 15, "too few networks with `init: any` compared: {with_any}");
    assert!(tally.lassos >= 50, "too few lassos: {tally:?}");
}

/// The properties of the model file `f` (`loaded`) and, for one in
/// `models/`, of its spec in `specs/`.
fn with_spec(f: &Path, loaded: &Loaded) -> Vec<Property> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut props = loaded.model.properties.clone();
    let spec = f
        .strip_prefix(root.join("models"))
        .ok()
        .and_then(|rel| std::fs::read_to_string(root.join("specs").join(rel)).ok());
    if let Some(s) = spec
        && let Ok(spec) = loaded.spec(&Source::new("spec.yaml", s))
    {
        props.extend(spec.properties);
    }
    props
}

/// Liveness on `models/` (with their specs) and `tests/models/`: every
/// unbounded `E[]`, `A<>` and `-->` the BDD engine takes agrees with the
/// explicit engine in verdict, lasso and time-lock warnings. The time-lock
/// models of `tests/models/liveness/` make some of them warn, and lassos
/// there make the BDD engine search the model again for its time-locks.
#[test]
fn bdd_and_explicit_agree_on_liveness_in_the_models() {
    let files = model_files();
    let mut tally = Live::default();
    // Its lassos, with either data, cannot be made concrete (`kairos check
    // tests/models/liveness/reset-loop.yaml --trace`: an internal error):
    // the loop takes 51 passes to start two in one region, the concretiser
    // tries 16. A trace-layer bug, not one of BDD data.
    let known = ["tests/models/liveness/reset-loop.yaml"];
    for f in files.iter().filter(|f| !known.iter().any(|k| f.ends_with(k))) {
        let text = std::fs::read_to_string(f).unwrap();
        let Ok(loaded) = load_model(&Source::new("model.yaml", text)) else { continue };
        let Ok(net) = kairos::network::build(&loaded.model) else { continue };
        let props = with_spec(f.as_path(), &loaded);
        for p in &props {
            let live = match &p.formula {
                Formula::Path { op: PathOp::EG | PathOp::AF, bound: None, arg } => arg.is_state(),
                Formula::LeadsTo { bound: None, lhs, rhs } => lhs.is_state() && rhs.is_state(),
                _ => false,
            };
            if live {
                compare_live(&loaded.model, &net, p, &f.display().to_string(), 50_000, &mut tally);
            }
        }
    }
    eprintln!("liveness in the models: {} files, {tally:?}", files.len());
    assert!(tally.wrong.is_empty(), "{}", tally.wrong.join("\n"));
    assert!(tally.compared >= 20 && tally.lassos >= 5 && tally.warned >= 3, "{tally:?}");
}

/// Liveness and bounded response on linear networks with BDD data (on
/// exact polyhedra, lassos confirmed by a periodic run) against explicit
/// data, on the hybrid readings of the generator's networks (as in
/// [`bdd_and_explicit_agree_on_hybrid_models`]). Polyhedra make each
/// comparison costly: 10 networks at 2 000 states took 312 s (92
/// properties compared).
#[test]
fn bdd_and_explicit_agree_on_liveness_in_hybrid_readings() {
    let max_states = 500;
    let mut tally = Live::default();
    for seed in 0..5 {
        let g = Gen::generate(seed);
        let text = crate::hybrid_differential::as_hybrid(&tighten_data_invariants(&g.yaml));
        let Ok(loaded) = load_model(&Source::new("random-hybrid.yaml", text)) else { continue };
        let Ok(net) = kairos::network::build(&loaded.model) else { continue };
        let what = format!("hybrid seed {seed}");
        for (k, text) in liveness_properties(&net, seed).iter().enumerate() {
            let Ok(p) = loaded.query(&format!("l{k}"), text) else { continue };
            compare_live(&loaded.model, &net, &p, &what, max_states, &mut tally);
        }
        for (k, text) in response_properties(&net, seed).iter().enumerate() {
            let Ok(p) = loaded.query(&format!("r{k}"), text) else { continue };
            compare_response(&loaded.model, &net, &p, &what, max_states, &mut tally);
        }
    }
    eprintln!("liveness in hybrid readings: {tally:?}");
    assert!(tally.wrong.is_empty(), "{}", tally.wrong.join("\n"));
    assert!(tally.compared >= 40, "{tally:?}");
}

/// The same on the hybrid models of `models/` and `tests/models/`: every
/// liveness and bounded-response property of theirs and of their specs
/// (water-level's `pump-on-within-11` among them), and on water-level a
/// few more whose answers are lassos. A hybrid lasso is the path into its
/// loop (`periodic::without_ticks`), concretised and validated by
/// [`compare_live`] and [`compare_response`].
#[test]
fn bdd_and_explicit_agree_on_liveness_in_hybrid_models() {
    let mut tally = Live::default();
    let lassos = [
        "E[] (Tank.off or Tank.on)",
        "E[] not Monitor.delay_on",
        "A<> Monitor.delay_off",
        "A<> (Tank.on and Monitor.watch_high)",
        "Tank.on --> Monitor.watch_low",
        "Tank.on --> (Monitor.watch_high and Tank.off)",
        "Tank.off -->[<= 5] Tank.on",
        "A<>[<= 12] Monitor.delay_on",
    ];
    for f in model_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        let Ok(loaded) = load_model(&Source::new("model.yaml", text)) else { continue };
        let Ok(net) = kairos::network::build(&loaded.model) else { continue };
        if net.hybrid.is_none() {
            continue;
        }
        let mut props = with_spec(f.as_path(), &loaded);
        if f.ends_with("models/water-level.yaml") {
            props.extend(lassos.iter().enumerate().map(|(k, q)| loaded.query(&format!("w{k}"), q).expect(q)));
        }
        let what = f.display().to_string();
        for p in &props {
            match &p.formula {
                Formula::Path { op: PathOp::EG | PathOp::AF, bound: None, arg } if arg.is_state() => {
                    compare_live(&loaded.model, &net, p, &what, 50_000, &mut tally)
                }
                Formula::LeadsTo { bound: None, lhs, rhs } if lhs.is_state() && rhs.is_state() => {
                    compare_live(&loaded.model, &net, p, &what, 50_000, &mut tally)
                }
                Formula::LeadsTo { bound: Some(_), .. } | Formula::Path { op: PathOp::AF, bound: Some(_), .. } => {
                    compare_response(&loaded.model, &net, p, &what, 50_000, &mut tally)
                }
                _ => {}
            }
        }
    }
    eprintln!("liveness in hybrid models: {tally:?}");
    assert!(tally.wrong.is_empty(), "{}", tally.wrong.join("\n"));
    assert!(tally.compared >= 9 && tally.lassos >= 3, "{tally:?}");
}

/// What [`bound_with_bdds_agrees_with_explicit_data`] compared.
#[derive(Default, Debug)]
struct Bounds {
    finite: u64,
    unbounded: u64,
    /// Of the finite ones, with time-lock warnings (both ways).
    warned: u64,
    refused: u64,
    limits: u64,
    /// Networks with a variable that starts anywhere (`init: any`) compared.
    with_any: u64,
    wrong: Vec<String>,
}

/// `kairos bound` with `--data bdd` against explicit data, the oracle
/// (itself checked against the integer-time oracle in
/// `bound_differential`), on the leads-to properties of the liveness suite
/// on the random networks of seeds `0..count`, closed or not: the same
/// supremum and attainment and the same time-lock warnings, or both
/// unbounded, the BDD lasso made concrete and validated. A refusal that
/// is not `--data bdd`'s own must be explicit data's too.
fn compare_bounds(count: u64) -> Bounds {
    use kairos::engine::bound::{WorstCase, worst_case};
    let max_states = 3_000;
    let mut t = Bounds::default();
    for (seed, g, loaded, net) in random_networks(count) {
        let before = t.finite + t.unbounded;
        for (k, text) in liveness_properties(&net, seed).iter().enumerate().filter(|(_, q)| q.contains("-->")) {
            let Ok(p) = loaded.query(&format!("b{k}"), text) else { continue };
            let what = format!("seed {seed}: `{text}`");
            let bdd = worst_case(&net, &p, &options(DataChoice::Bdd, max_states));
            if let WorstCase::None(o) = &bdd
                && let Verdict::Unknown(Unknown::Unsupported(why)) = &o.verdict
            {
                // Not `--data bdd`'s own refusal: explicit data must refuse
                // it alike (diagonal constraints, for one).
                if !why.starts_with("--data bdd") {
                    let explicit = worst_case(&net, &p, &options(DataChoice::Explicit, max_states));
                    let same = matches!(&explicit, WorstCase::None(e)
                        if matches!(&e.verdict, Verdict::Unknown(Unknown::Unsupported(w)) if w == why));
                    assert!(same, "{what}: bdd refused ({why}), explicit did not");
                }
                t.refused += 1;
                continue;
            }
            let explicit = worst_case(&net, &p, &options(DataChoice::Explicit, max_states));
            match (&bdd, &explicit) {
                (WorstCase::None(_), _) | (_, WorstCase::None(_)) => t.limits += 1,
                (
                    WorstCase::Sup { value: v, attained: a, warnings: w },
                    WorstCase::Sup { value: ev, attained: ea, warnings: ew },
                ) => {
                    t.finite += 1;
                    t.warned += u64::from(!w.is_empty());
                    if (v, a, w.is_empty()) != (ev, ea, ew.is_empty()) {
                        t.wrong.push(format!(
                            "{what}: bdd {v} (attained {a}, {} warnings), explicit {ev} (attained {ea}, {} warnings)",
                            w.len(),
                            ew.len()
                        ));
                    }
                }
                (WorstCase::Unbounded(o), WorstCase::Unbounded(_)) => {
                    t.unbounded += 1;
                    let lasso = o.trace.as_ref().ok_or("no lasso".to_string());
                    if let Err(e) = lasso.and_then(|l| kairos::trace::concretise(&net, l).map_err(|e| e.to_string())) {
                        t.wrong.push(format!("{what}: the BDD lasso: {e}"));
                    }
                }
                _ => t.wrong.push(format!("{what}: bdd {bdd:?}, explicit {explicit:?}")),
            }
        }
        t.with_any += u64::from(t.finite + t.unbounded > before && g.yaml.contains("init: any"));
    }
    eprintln!("bound: {count} networks, {t:?}");
    assert!(t.wrong.is_empty(), "{}", t.wrong.join("\n"));
    t
}

/// [`compare_bounds`] on 40 networks (5 s in the debug test profile):
/// at least 35 finite bounds and 5 unbounded ones compared, 20 finite ones
/// with time-lock warnings, 3 networks with `init: any` (session 18: 44,
/// 7, 35, 5; 24 refused, 5 at the limit).
#[test]
fn bound_with_bdds_agrees_with_explicit_data() {
    let t = compare_bounds(40);
    assert!(t.finite >= 35 && t.unbounded >= 5 && t.warned >= 20 && t.with_any >= 3, "{t:?}");
}

/// [`compare_bounds`] on 200 networks (session 18: 240 finite, 29
/// unbounded, 201 warned, 26 with `init: any`, 114 refused, 17 at the
/// limit).
#[test]
#[ignore = "the campaign: cargo test --release --test suite bdd_differential::bound_with_bdds_campaign -- --ignored"]
fn bound_with_bdds_campaign() {
    let t = compare_bounds(200);
    assert!(t.finite >= 200 && t.unbounded >= 25 && t.warned >= 50 && t.with_any >= 20, "{t:?}");
}

/// Bounded responses made from the liveness differential suite's
/// properties: each `A<> ψ` bounded by `<= k`, each `φ --> ψ` by `<= k`
/// and `< k + 1`, and the first also as `A[] (φ imply A<>[<= k] ψ)`, with
/// `k` from 0 to 5.
fn response_properties(net: &Network, seed: u64) -> Vec<String> {
    let mut r = oracle::random::Rng(seed ^ 0x0b5e_77e5);
    let mut out = Vec::new();
    for text in liveness_properties(net, seed) {
        let k = r.int(0, 5);
        if let Some(psi) = text.strip_prefix("A<> ") {
            out.push(format!("A<>[<= {k}] {psi}"));
        } else if let Some((phi, psi)) = text.split_once(" --> ") {
            if out.iter().all(|p: &String| !p.starts_with("A[]")) {
                out.push(format!("A[] ({phi} imply A<>[<= {k}] {psi})"));
            }
            out.push(format!("{phi} -->[<= {k}] {psi}"));
            out.push(format!("{phi} -->[< {}] {psi}", k + 1));
        }
    }
    out
}

/// A bounded response (the observer engine) checked both ways: the same
/// verdict, and every BDD violation comes with a lasso of the observer's
/// product that concretises, validates and enters `bad`.
fn compare_response(model: &Model, net: &Network, p: &Property, what: &str, max_states: u64, tally: &mut Live) {
    let bdd = engine::check(model, Some(net), p, &options(DataChoice::Bdd, max_states));
    // What the observer search with BDD data refuses (clock atoms,
    // `deadlock`) the fixpoint engine answers with BDD data.
    assert!(matches!(bdd.engine, EngineKind::Observer | EngineKind::Tctl), "{what}: `{}`: {:?}", p.text, bdd.engine);
    let explicit = engine::check(model, Some(net), p, &options(DataChoice::Explicit, max_states));
    if let Verdict::Unknown(Unknown::Unsupported(why)) = &bdd.verdict {
        assert!(why.starts_with("--data bdd"), "{what}: `{}`: {why}", p.text);
        tally.refused += 1;
        *tally.why.entry(why.split('`').next().unwrap_or("").to_string()).or_default() += 1;
        return;
    }
    if matches!(bdd.verdict, Verdict::Unknown(_)) || matches!(explicit.verdict, Verdict::Unknown(_)) {
        tally.limits += 1;
        return;
    }
    tally.compared += 1;
    let error = |v: &Verdict| matches!(v, Verdict::Error(_));
    let agree = if error(&bdd.verdict) || error(&explicit.verdict) {
        // A verdict settled before the other search met an error stands.
        [&bdd.verdict, &explicit.verdict].iter().all(|v| error(v) || **v == Verdict::Violated)
    } else {
        bdd.verdict == explicit.verdict
    };
    if !agree {
        tally.wrong.push(format!("{what}: `{}`: bdd {:?}, explicit {:?}", p.text, bdd.verdict, explicit.verdict));
        return;
    }
    if bdd.engine == EngineKind::Tctl {
        // No lasso of a product from the fixpoint engine yet.
        tally.by_tctl += 1;
        return;
    }
    if bdd.verdict != Verdict::Violated {
        return;
    }
    let (Some(t), Some(product)) = (&bdd.trace, bdd.network.as_deref()) else {
        return tally.wrong.push(format!("{what}: `{}`: violated without a lasso of the product", p.text));
    };
    let ct = match kairos::trace::concretise(product, t) {
        Ok(ct) => ct,
        Err(e) => return tally.wrong.push(format!("{what}: `{}`: no valid concrete lasso: {e}", p.text)),
    };
    let obs = product.processes.len() - 1;
    let bad = product.processes[obs].locations.iter().position(|l| l.name == "bad").expect("`bad`") as u32;
    if !ct.steps.iter().any(|s| s.after.discrete.locs[obs] == bad) {
        return tally.wrong.push(format!("{what}: `{}`: the lasso never enters `bad`", p.text));
    }
    tally.lassos += 1;
}

/// Bounded response on the random networks of
/// [`bdd_and_explicit_agree_on_random_networks`]: the observer engine with
/// BDD data against explicit data, no disagreement, at least 400
/// properties compared on 100 networks, 50 violations with their lasso
/// validated.
#[test]
fn bdd_and_explicit_agree_on_bounded_response() {
    let (count, max_states) = (100, 3_000);
    let (mut tally, mut networks) = (Live::default(), 0);
    for (seed, _, loaded, net) in random_networks(count) {
        let before = tally.compared;
        for (k, text) in response_properties(&net, seed).iter().enumerate() {
            let Ok(p) = loaded.query(&format!("r{k}"), text) else { continue };
            compare_response(&loaded.model, &net, &p, &format!("seed {seed}"), max_states, &mut tally);
        }
        networks += (tally.compared > before) as u64;
    }
    eprintln!(
        "bounded response: {count} networks, {networks} compared, {} properties compared, {} refused, \
         {} at the limit, {} lassos validated, {} by the fixpoint engine, {} disagreements; refusals {:?}",
        tally.compared,
        tally.refused,
        tally.limits,
        tally.lassos,
        tally.by_tctl,
        tally.wrong.len(),
        tally.why
    );
    assert!(tally.wrong.is_empty(), "{}", tally.wrong.join("\n"));
    assert!(networks >= 50 && tally.compared >= 200, "too few compared: {networks} networks, {tally:?}");
    assert!(tally.lassos >= 25, "too few lassos: {tally:?}");
}

/// A data invariant that holds of some valuations of a data set and not
/// of others: `b`'s `v != 2` takes `v == 2` out of the set that `init:
/// any` brings there (the valuation the zones are computed with is not
/// `2`), so no run waits in `b` with `v == 2`; the reach, liveness and
/// observer engines agree with explicit data on it.
#[test]
fn data_invariants_cut_the_data_sets() {
    let text = "model: inv\nvariables:\n  v: {range: [0, 3], init: any}\ntemplates:\n  P:\n    clocks: [x]\n    \
        initial: a\n    locations:\n      a: {invariant: \"x <= 1\"}\n      b: {invariant: \"v != 2\"}\n    edges:\n      \
        - {from: a, to: b, guard: \"x >= 1\", update: \"x = 0\"}\nsystem: [P]\n";
    let loaded = load_model(&Source::new("inv.yaml", text.to_string())).expect("a model");
    let net = kairos::network::build(&loaded.model).expect("a network");
    let mut tally = Live::default();
    for (k, q) in ["P.b --> v != 2", "E[] (P.a or v != 2)", "A<> P.b", "P.a --> P.b"].iter().enumerate() {
        let p = loaded.query(&format!("q{k}"), q).expect("a query");
        compare_live(&loaded.model, &net, &p, "inv", 10_000, &mut tally);
    }
    for (k, q) in ["P.b -->[<= 3] v != 2", "A<>[<= 1] P.b", "P.a -->[< 1] P.b"].iter().enumerate() {
        let p = loaded.query(&format!("r{k}"), q).expect("a query");
        compare_response(&loaded.model, &net, &p, "inv", 10_000, &mut tally);
    }
    assert!(tally.wrong.is_empty(), "{}", tally.wrong.join("\n"));
    assert_eq!((tally.compared, tally.refused, tally.limits), (7, 0, 0), "{tally:?}");
    // The data set of `b` itself, which a zone operation never looks at
    // whole: no valuation in it has `v == 2`.
    let mut reach = Tally::default();
    for (k, q) in ["A[] (P.b imply v != 2)", "A[] not (P.b and v == 3)", "A[] not deadlock"].iter().enumerate() {
        let p = loaded.query(&format!("s{k}"), q).expect("a query");
        compare(&loaded.model, &net, &p, "inv", &mut reach);
    }
    assert_eq!((reach.compared, reach.refused, reach.limits), (3, 0, 0), "{reach:?}");
}

/// A data cycle longer than the symbolic one: in `b`, `c` counts modulo 4
/// while the symbolic loop is one step (`{0..3}` onto itself), so the lasso
/// goes four times round it before its data repeat; `v` starts anywhere
/// and its 61 values are one data set, which counting modulo 61 maps onto
/// itself. Every property agrees with the
/// explicit engine (lassos validated), the lasso of `A<> P.done` holds the
/// four `b -> b` steps, and the BDD searches (the lasso, the time-locks) store far fewer
/// states.
#[test]
fn liveness_lassos_go_round_data_cycles() {
    let text = "model: rounds\nvariables:\n  v: {range: [0, 60], init: any}\n  c: {range: [0, 3], init: 0}\n\
        templates:\n  P:\n    clocks: [x]\n    initial: a\n    locations:\n      a: {invariant: \"x <= 2\"}\n      \
        b: {invariant: \"x <= 1\"}\n      done: {}\n    edges:\n      \
        - {from: a, to: a, guard: \"x >= 1\", update: \"v = (v + 1) % 61; x = 0\"}\n      \
        - {from: a, to: b, guard: \"v >= 40\", update: \"x = 0\"}\n      \
        - {from: b, to: b, guard: \"x == 1\", update: \"c = (c + 1) % 4; x = 0\"}\n      \
        - {from: b, to: done, guard: \"c == 3 && v < 20\"}\nsystem: [P]\n";
    let loaded = load_model(&Source::new("rounds.yaml", text.to_string())).expect("a model");
    let net = kairos::network::build(&loaded.model).expect("a network");
    let mut tally = Live::default();
    let queries =
        ["A<> P.b", "A<> P.done", "E[] P.a", "E[] (P.a or c < 2)", "P.a --> c == 3", "P.a --> P.done", "E[] v >= 3"];
    for (k, q) in queries.iter().enumerate() {
        let p = loaded.query(&format!("q{k}"), q).expect("a query");
        compare_live(&loaded.model, &net, &p, "rounds", 200_000, &mut tally);
    }
    assert!(tally.wrong.is_empty(), "{}", tally.wrong.join("\n"));
    assert_eq!((tally.compared, tally.refused, tally.limits), (7, 0, 0), "{tally:?}");
    assert!(tally.lassos >= 2, "{tally:?}");
    let done = loaded.query("done", "A<> P.done").expect("a query");
    // Each run searches the lasso, then (the lasso leaving the graph
    // unexplored) the whole graph for time-locks, which the options keep:
    // checked again, only the lasso is searched.
    let stored = |data| {
        let o = options(data, 200_000);
        let first = engine::check(&loaded.model, Some(&net), &done, &o);
        let again = engine::check(&loaded.model, Some(&net), &done, &o);
        let n = |o: &engine::Outcome| o.stats.as_ref().expect("stats").stored;
        assert!(n(&again) < n(&first), "{data:?}: the time-locks are searched once: {} then {}", n(&first), n(&again));
        (n(&first), n(&again), first)
    };
    let (b, b_lasso, bdd) = stored(DataChoice::Bdd);
    let (e, e_lasso, _) = stored(DataChoice::Explicit);
    let t = bdd.trace.expect("a lasso");
    let open = t.loop_start.expect("a loop");
    let counts = t.steps[open..].iter().filter(|s| s.edges.len() == 1).count();
    assert_eq!(counts, 4, "the loop goes round c's four values: {:?}", &t.steps[open..]);
    // Session 17: 35 against 288 states, 14 against 143 for the lasso.
    assert!(b * 5 < e && b_lasso * 5 < e_lasso, "BDD states {b} ({b_lasso} for the lasso), explicit {e} ({e_lasso})");
}

/// The file's own properties, then `E<> P.l` for every location `l` of
/// every process `P`: the two engines must agree on which control
/// locations are reachable, not only on the label query.
fn check_locations(loaded: &kairos::model::load::Loaded, net: &Network, what: &str, tally: &mut Tally) {
    for p in &loaded.model.properties {
        compare(&loaded.model, net, p, what, tally);
    }
    for proc_ in &net.processes {
        for l in &proc_.locations {
            let text = format!("E<> {}.{}", proc_.name, l.name);
            let p = loaded.query("location", &text).unwrap_or_else(|_| panic!("{what}: `{text}`"));
            compare(&loaded.model, net, &p, what, tally);
        }
    }
}

/// A TChecker file (`.tck`, translated by the importer) or its YAML twin.
fn check_tchecker(path: &Path, tally: &mut Tally) {
    let what = path.display().to_string();
    let input = kairos::input::load(path, &[], None).unwrap_or_else(|r| panic!("{what}: {:?}", r.diags));
    let net = kairos::network::build(&input.loaded.model).unwrap_or_else(|d| panic!("{what}: {d:?}"));
    check_locations(&input.loaded, &net, &what, tally);
}

/// The TChecker families' twins in the repository (`tests/models/tchecker`
/// and the small members of `models/bench`): the label query and every
/// location's reachability agree, with no refusal.
#[test]
fn bdd_and_explicit_agree_on_the_tchecker_twins() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("tests/models/tchecker"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .chain(
            ["ad94_1", "corsso_2", "critical-region_2", "csmacd_3", "dining-philosophers_3", "fddi_3", "fischer_3"]
                .map(|m| root.join(format!("models/bench/{m}.yaml"))),
        )
        .chain(["leader-election_2", "train_gate_2"].map(|m| root.join(format!("models/bench/{m}.yaml"))))
        .collect();
    files.sort();
    let mut tally = Tally::default();
    for f in &files {
        check_tchecker(f, &mut tally);
    }
    eprintln!("tchecker twins: {} files, {tally:?}", files.len());
    assert_eq!((tally.refused, tally.limits), (0, 0), "{tally:?}");
    assert!(tally.compared >= 150, "too few comparisons: {tally:?}");
}

/// The whole TChecker reference set, when `KAIROS_TCHECKER_DIR` names its
/// folder of `.tck` files (it is not in the repository): each file's label
/// query and every location, both ways, within a budget of states.
#[test]
#[ignore]
fn bdd_and_explicit_agree_on_the_tchecker_reference_set() {
    let Ok(dir) = std::env::var("KAIROS_TCHECKER_DIR") else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|x| x == "tck"));
    files.sort();
    let mut tally = Tally { max_states: 3_000, ..Tally::default() };
    for f in &files {
        let before = (tally.compared, tally.refused, tally.limits);
        check_tchecker(f, &mut tally);
        eprintln!(
            "{}: {:?}",
            f.display(),
            (tally.compared - before.0, tally.refused - before.1, tally.limits - before.2)
        );
    }
    eprintln!("tchecker reference: {} files, {tally:?}", files.len());
}

fn checked(text: &str, query: &str, data: DataChoice) -> engine::Outcome {
    let loaded = load_model(&Source::new("auto.yaml", text.to_string())).expect("a model");
    let net = kairos::network::build(&loaded.model).expect("a network");
    let p = loaded.query("q", query).expect("a query");
    engine::check(&loaded.model, Some(&net), &p, &options(data, 200_000))
}

/// `--data auto`: BDDs for a variable with `init: any` or more than
/// `WIDE_RANGE` values that the split leaves symbolic, explicit data
/// otherwise (and when the BDD engines refuse the property); the verdict is
/// the explicit engine's and the statistics say what was chosen.
#[test]
fn auto_chooses_bdds_for_wide_or_unknown_data() {
    use kairos::engine::symdata::auto::WIDE_RANGE;
    let model = |range: i64, init: &str| {
        format!(
            "model: m\nvariables:\n  v: {{range: [0, {range}], init: {init}}}\n  w: {{range: [0, 3], init: 0}}\n\
             templates:\n  P:\n    clocks: [x]\n    initial: a\n    locations:\n      a: {{invariant: \"x <= 2\"}}\n      b: {{}}\n    \
             edges:\n      - {{from: a, to: b, select: \"k : 0..{range}\", guard: \"x >= 1\", update: \"v = k; w = k % 4\"}}\n\
             system: [P]\n"
        )
    };
    let cases = [
        (model(WIDE_RANGE - 1, "0"), "E<> P.b and w == 3", DataChoice::Explicit),
        (model(WIDE_RANGE, "0"), "E<> P.b and w == 3", DataChoice::Bdd),
        (model(7, "any"), "A[] v <= 7", DataChoice::Bdd),
        (model(WIDE_RANGE, "0"), "A[] not (deadlock and P.x > 5)", DataChoice::Bdd),
        // Clock atoms in a liveness property: the BDD liveness search
        // refuses, the fixpoint engine answers with BDD data.
        (model(WIDE_RANGE, "0"), "P.a --> P.x >= 1", DataChoice::Bdd),
        // The wide `v` read in a clock bound stays explicit under BDDs too.
        (model(WIDE_RANGE, "0").replace("x >= 1", "x >= v % 2"), "E<> P.b and w == 3", DataChoice::Explicit),
    ];
    for (text, query, want) in &cases {
        let auto = checked(text, query, DataChoice::Auto);
        let explicit = checked(text, query, DataChoice::Explicit);
        assert_eq!(auto.verdict, explicit.verdict, "{query}");
        assert!(matches!(auto.verdict, Verdict::Satisfied | Verdict::Violated), "{query}: {:?}", auto.verdict);
        assert_eq!(auto.stats.and_then(|s| s.data), Some(*want), "{query}");
        assert_eq!(explicit.stats.and_then(|s| s.data), None, "{query}");
    }
}

/// An urgent synchronisation enabled for some valuations only: time stops
/// for those (`v == 1`, so `P.late` is out of their reach) and passes for
/// the others, in one symbolic state the BDD engine must split. On a
/// binary channel the receiver `Q` is needed; a broadcast is enabled
/// without receivers (`Q` receives only when `v == 0`).
#[test]
fn urgent_channels_stop_time_where_their_sync_is_enabled() {
    let model = |kind: &str, q_guard: &str| {
        format!(
            "model: m\nvariables:\n  v: {{range: [0, 1], init: any}}\nchannels:\n  u: {{kind: {kind}, urgent: true}}\n\
             templates:\n  P:\n    clocks: [x]\n    initial: a\n    locations:\n      a: {{}}\n      b: {{}}\n      late: {{}}\n    \
             edges:\n      - {{from: a, to: b, sync: \"u!\", guard: \"v == 1\"}}\n      - {{from: a, to: late, guard: \"x >= 2\"}}\n  \
             Q:\n    initial: q\n    locations:\n      q: {{}}\n    edges:\n      - {{from: q, to: q, sync: \"u?\", guard: \"{q_guard}\"}}\n\
             system: [P, Q]\n"
        )
    };
    for text in [model("binary", "true"), model("broadcast", "true"), model("broadcast", "v == 0")] {
        for (query, want) in [("A[] (P.late imply v == 0)", Verdict::Satisfied), ("A[] not P.late", Verdict::Violated)]
        {
            for data in [DataChoice::Bdd, DataChoice::Explicit] {
                assert_eq!(checked(&text, query, data).verdict, want, "{query} {data:?}\n{text}");
            }
        }
    }
}

/// Every engine takes `--data bdd`: the fixpoint engine forced on `-->`
/// answers with BDD data (never the explicit data in silence: the
/// statistics would say), and `auto` chooses BDDs for the wide `v`, for it
/// as for the liveness engine.
#[test]
fn the_fixpoint_engine_takes_bdd_data() {
    let text = "model: m\nvariables:\n  v: {range: [0, 100], init: 0}\ntemplates:\n  P:\n    clocks: [x]\n    \
                initial: a\n    locations:\n      a: {invariant: \"x <= 1\"}\n      b: {}\n    \
                edges:\n      - {from: a, to: b, guard: \"x >= 1\", update: \"v = 7\"}\nsystem: [P]\n";
    let loaded = load_model(&Source::new("tctl.yaml", text.to_string())).expect("a model");
    let net = kairos::network::build(&loaded.model).expect("a network");
    let p = loaded.query("q", "P.a --> P.b").expect("a query");
    let tctl = |data| {
        let o = Options { engine: Some(EngineKind::Tctl), ..options(data, 200_000) };
        engine::check(&loaded.model, Some(&net), &p, &o)
    };
    let bdd = tctl(DataChoice::Bdd);
    assert_eq!((bdd.verdict, bdd.engine, bdd.stats.and_then(|s| s.data)), (Verdict::Satisfied, EngineKind::Tctl, None));
    let auto = tctl(DataChoice::Auto);
    assert_eq!((auto.verdict, auto.stats.and_then(|s| s.data)), (Verdict::Satisfied, Some(DataChoice::Bdd)));
    // The statistics name the data where `auto` chose them.
    for (data, said) in [(DataChoice::Bdd, None), (DataChoice::Auto, Some(DataChoice::Bdd))] {
        let live = checked(text, "P.a --> P.b", data);
        assert_eq!((live.verdict, live.stats.and_then(|s| s.data)), (Verdict::Satisfied, said));
    }
}

/// The models of `tests/models/bdd/`, written for the data-symbolic engine:
/// both engines give every property its argued `expect`, the BDD engine
/// with fewer states unless `explicit_data` (the model's data are read in
/// clock bounds, so `--data bdd` keeps them explicit too: one value per state).
fn expectations_hold(file: &str, explicit_data: bool) -> u64 {
    use kairos::model::decl::Expect;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models/bdd").join(file);
    let loaded = load_model(&Source::new(file, std::fs::read_to_string(path).unwrap())).expect("a model");
    let net = kairos::network::build(&loaded.model).expect("a network");
    let (mut checked, mut fewer) = (0, 0);
    for p in &loaded.model.properties {
        let Some(Expect::Bool(want)) = p.expect else { continue };
        let mut stored = Vec::new();
        for data in [DataChoice::Bdd, DataChoice::Explicit] {
            let o = engine::check(&loaded.model, Some(&net), p, &options(data, 200_000));
            let want = if want { Verdict::Satisfied } else { Verdict::Violated };
            assert_eq!(o.verdict, want, "{file}: {} with {data:?}", p.name);
            if data == DataChoice::Bdd {
                // The BDD engine answered itself: a run-time error hands the
                // check to the explicit engine, whose statistics say so.
                let used = o.stats.and_then(|s| s.data);
                assert_ne!(used, Some(DataChoice::Explicit), "{file}: {}: answered by the explicit engine", p.name);
            }
            stored.push(o.stats.map(|s| s.stored));
            checked += 1;
        }
        // Its states hold several values.
        assert!(stored[0] <= stored[1], "{file}: {}: {stored:?}", p.name);
        fewer += (stored[0] < stored[1]) as u64;
    }
    if !explicit_data {
        assert!(fewer * 2 >= checked / 2, "{file}: the BDD engine stored fewer states for {fewer} properties only");
    }
    checked
}

/// A broadcast whose receivers depend on the data: an enabled receiver
/// always takes part, a disabled one never, one of two enabled edges is
/// chosen, and a receiver's `select` picks the value its guard allows.
#[test]
fn broadcasts_take_the_receivers_the_data_enable() {
    assert_eq!(expectations_hold("broadcast-receivers.yaml", false), 18);
}

/// `deadlock` with the data deciding which steps exist, the bounds of
/// their clock guards, and the bound a target invariant reads from the
/// updated data: wholly and partly deadlocked valuations in one symbolic
/// state, and a step a delay opens.
#[test]
fn deadlocks_are_found_where_the_data_leave_no_step() {
    assert_eq!(expectations_hold("deadlock-data.yaml", true), 18);
    assert_eq!(expectations_hold("deadlock-update.yaml", true), 8);
}
