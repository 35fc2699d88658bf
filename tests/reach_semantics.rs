//! The reachability engine on small models built to exercise one point of
//! the semantics each (tests/models/semantics/).

use crate::common;

use std::path::Path;

use kairos::engine::reach::{Cover, End, Limits, Order, explore};
use kairos::engine::{self, Options, Verdict};
use kairos::model::decl::Expect;
use kairos::semantics::{Abstraction, ZoneGraph};

/// Checks every property of a model against its `expect`.
fn expectations_hold(path: &str) {
    let loaded = common::load(Path::new(path)).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    for p in &loaded.model.properties {
        let o = engine::check(&loaded.model, Some(&net), p, &Options::default());
        let Some(Expect::Bool(want)) = p.expect else { continue };
        let want = if want { Verdict::Satisfied } else { Verdict::Violated };
        assert_eq!(o.verdict, want, "{path}: {}", p.name);
    }
}

#[test]
fn a_state_with_a_successor_can_be_partly_deadlocked() {
    expectations_hold("tests/models/semantics/partly-deadlocked.yaml");
    let loaded = common::load(Path::new("tests/models/semantics/partly-deadlocked.yaml")).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let p = &loaded.model.properties[0];
    let o = engine::check(&loaded.model, Some(&net), p, &Options::default());
    let trace = o.trace.expect("a witness");
    assert_eq!(trace.states.len(), 1, "the initial state itself is partly deadlocked");
    let mut zg = ZoneGraph::new(&net, Abstraction::None);
    let (mut ts, mut succ) = (Vec::new(), Vec::new());
    zg.successors(&trace.states[0], &mut ts, &mut succ).unwrap();
    assert_eq!(succ.len(), 1, "and it has a successor");
    // Deadlocked exactly where x > 2 (half-integer points, as 2x).
    let deadlocked = |twice_x: i64| trace.goal.zones.iter().any(|z| z.contains_point(&[twice_x], 2));
    assert!(!deadlocked(0) && !deadlocked(4));
    assert!(deadlocked(5) && deadlocked(20));
}

#[test]
fn extra_lu_is_wrong_with_diagonals_so_kairos_does_not_use_it() {
    let path = "tests/models/semantics/diagonal.yaml";
    expectations_hold(path);
    // The same question with ExtraLU+ forced on: a wrong "reachable".
    let loaded = common::load(Path::new(path)).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    assert!(net.has_diagonals);
    let p = &loaded.model.properties[0];
    let kairos::model::formula::Formula::Path { arg, .. } = &p.formula else { unreachable!() };
    let goal = net.state_formula(p, arg).unwrap();
    let mut zg = ZoneGraph::new(&net, Abstraction::Lu);
    let limits = Limits::default();
    let run = explore(&mut zg, Order::Bfs, Cover::Inclusion, &limits, &mut |zg, s| zg.sat(&goal, s));
    assert!(matches!(run.end, End::Found { .. }), "plain ExtraLU+ claims l3 is reachable");
    // And asking for it explicitly is refused.
    let options = Options { abstraction: Some(engine::AbstractionChoice::Lu), ..Options::default() };
    let o = engine::check(&loaded.model, Some(&net), p, &options);
    assert!(matches!(o.verdict, Verdict::Unknown(engine::Unknown::Unsupported(_))));
}

#[test]
fn a_run_time_error_stops_the_check_with_its_trace() {
    let loaded = common::load(Path::new("tests/models/semantics/runtime-error.yaml")).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let o = engine::check(&loaded.model, Some(&net), &loaded.model.properties[0], &Options::default());
    let Verdict::Error(why) = &o.verdict else { panic!("{:?}", o.verdict) };
    assert!(why.contains("`n` = 3 is outside its range [0, 2]"), "{why}");
    let trace = o.trace.expect("the trace to the error");
    assert_eq!(trace.states.last().unwrap().discrete.data[0], 2, "the error is the step from n = 2");
    assert!(trace.error.is_some());
}

fn fischer(wait_guard: &str) -> (kairos::model::load::Loaded, kairos::network::Network) {
    let src = common::source(Path::new("models/fischer.yaml"));
    const ORIGINAL: &str = "\"x > K && id == pid\"";
    assert!(src.text.contains(ORIGINAL), "the guard to mutate is in models/fischer.yaml");
    let text = src.text.replace(ORIGINAL, wait_guard);
    let src = kairos::syntax::yaml::Source::new("fischer-mutant.yaml", text);
    let loaded = kairos::model::load::load_model(&src).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    (loaded, net)
}

#[test]
fn fischer_mutant_with_wait_bound_below_request_bound_breaks_mutual_exclusion() {
    for order in [Order::Bfs, Order::Dfs, Order::Rdfs { seed: 1 }, Order::Rdfs { seed: 2 }] {
        let options = Options { order, ..Options::default() };
        let (loaded, net) = fischer("\"x > K - 1 && id == pid\"");
        let mutex = loaded.model.properties.iter().find(|p| p.name == "mutual-exclusion").unwrap();
        let o = engine::check(&loaded.model, Some(&net), mutex, &options);
        assert_eq!(o.verdict, Verdict::Violated, "{order:?}");
        assert!(o.trace.is_some());
        // The original holds.
        let (loaded, net) = fischer("\"x > K && id == pid\"");
        let mutex = loaded.model.properties.iter().find(|p| p.name == "mutual-exclusion").unwrap();
        assert_eq!(engine::check(&loaded.model, Some(&net), mutex, &options).verdict, Verdict::Satisfied);
    }
}

#[test]
fn negative_clock_bounds_do_not_confuse_extrapolation() {
    expectations_hold("tests/models/semantics/negative-bound.yaml");
    expectations_hold("tests/models/semantics/negative-bound-deadlock.yaml");
}

#[test]
fn deadlock_checks_do_not_run_updates_of_steps_that_never_happen() {
    expectations_hold("tests/models/semantics/deadlock-error.yaml");
}

/// With several initial states, `E<>` asks that every one reaches the goal
/// (FORMAT.md), in every engine and with every abstraction and thread
/// count: the verdicts argued in the model agree with the fixpoint engine's.
#[test]
fn e_eventually_holds_from_every_initial_state() {
    let path = "tests/models/semantics/unknown-start.yaml";
    expectations_hold(path);
    let loaded = common::load(Path::new(path)).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    for p in &loaded.model.properties {
        let Some(Expect::Bool(want)) = p.expect else { continue };
        let want = if want { Verdict::Satisfied } else { Verdict::Violated };
        for engine in [None, Some(kairos::model::formula::EngineKind::Tctl)] {
            for abstraction in [engine::AbstractionChoice::None, engine::AbstractionChoice::Alu] {
                let options = Options { engine, abstraction: Some(abstraction), ..Options::default() };
                let o = engine::check(&loaded.model, Some(&net), p, &options);
                assert_eq!(o.verdict, want, "{}: {engine:?} {abstraction:?}", p.name);
                if want == Verdict::Satisfied && p.name == "somewhere-from-every-start" && engine.is_none() {
                    let t = o.trace.expect("a witness");
                    let c = kairos::trace::concretise(&net, &t).unwrap();
                    kairos::trace::validate(&net, &c).unwrap();
                }
            }
        }
    }
}

/// `E<>` from several initial states with a run-time error reachable from
/// one of them, after its witness: the initial state that reaches neither the
/// goal nor the error settles `violated` (argued in the model). The reach
/// engine searches each initial valuation alone, so in every order and
/// abstraction it says so; the fixpoint engine explores all of them at once
/// and may meet the error first, the other verdict FORMAT.md allows.
#[test]
fn e_eventually_violated_by_an_initial_state_that_meets_no_error() {
    let path = "tests/models/semantics/unknown-start-error.yaml";
    expectations_hold(path);
    let loaded = common::load(Path::new(path)).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let p = &loaded.model.properties[0];
    for abstraction in [engine::AbstractionChoice::None, engine::AbstractionChoice::Lu, engine::AbstractionChoice::Alu]
    {
        for order in [Order::Bfs, Order::Dfs, Order::Rdfs { seed: 1 }, Order::Rdfs { seed: 2 }] {
            for jobs in [1, 2] {
                let options = Options { abstraction: Some(abstraction), order, jobs, ..Options::default() };
                let o = engine::check(&loaded.model, Some(&net), p, &options);
                assert_eq!(o.verdict, Verdict::Violated, "{abstraction:?} {order:?} --jobs {jobs}");
            }
        }
    }
    let options = Options { engine: Some(kairos::model::formula::EngineKind::Tctl), ..Options::default() };
    let o = engine::check(&loaded.model, Some(&net), p, &options);
    assert!(matches!(o.verdict, Verdict::Violated | Verdict::Error(_)), "tctl: {:?}", o.verdict);
}
