//! `kairos bound -q 'φ --> ψ'` on linear networks: worst-case response
//! times that may be any rational.
//!
//! Oracles: the figures argued in the models' comments, and the observer
//! engine with integer bounds (`φ -->[<= n] ψ` through `engine::check`,
//! which shares no code with the rational measure): a worst case `w` has
//! `-->[<= ⌈w⌉]` holding and `-->[<= ⌈w⌉ - 1]` failing, and `-->[< w]`
//! failing too when `w` is an integer (attained).

use crate::common;

use std::path::Path;

use kairos::domain::poly::Q;
use kairos::engine::bound::{WorstCase, worst_case};
use kairos::engine::{self, Options, Unknown, Verdict};
use kairos::model::load::{Loaded, load_model};
use kairos::network::Network;
use kairos::observer::Late;
use kairos::semantics::Abstraction;
use kairos::syntax::yaml::Source;

fn built(loaded: Loaded) -> (Loaded, Network) {
    let net = kairos::network::build(&loaded.model).unwrap();
    assert!(net.hybrid.is_some(), "a linear network");
    (loaded, net)
}

fn model(path: &str) -> (Loaded, Network) {
    built(common::load(Path::new(path)).unwrap())
}

/// A one-process model `P` (clock `x`, initial `wait`) with these
/// locations and edges (one YAML line each); its continuous variable `v`
/// (rate 0: it only makes the network linear) must not grow, or the exact
/// sets never repeat.
fn process(name: &str, locations: &[&str], edges: &[&str]) -> (Loaded, Network) {
    let lines = |ls: &[&str]| ls.iter().map(|l| format!("      {l}\n")).collect::<String>();
    let yaml = format!(
        "model: {name}\ncontinuous:\n  v: {{init: 0}}\ntemplates:\n  P:\n    clocks: [x]\n    initial: wait\n    \
         locations:\n{}    edges:\n{}system: [P]\n",
        lines(locations),
        lines(edges)
    );
    built(load_model(&Source::new(format!("{name}.yaml"), yaml)).unwrap())
}

/// Why `got` has no answer: it must be "not supported yet".
fn refusal(got: &WorstCase) -> &str {
    let WorstCase::None(o) = got else { panic!("{got:?}") };
    let Verdict::Unknown(Unknown::Unsupported(why)) = &o.verdict else { panic!("{got:?}") };
    why
}

fn worst(l: &Loaded, net: &Network, query: &str) -> WorstCase {
    let p = l.query("q", query).unwrap_or_else(|d| panic!("`{query}`: {}", d[0].message));
    worst_case(net, &p, &Options::default())
}

/// The observer engine's verdict on `query` (an integer bound).
fn holds(l: &Loaded, net: &Network, query: &str) -> bool {
    let p = l.query("oracle", query).unwrap();
    match engine::check(&l.model, Some(net), &p, &Options::default()).verdict {
        Verdict::Satisfied => true,
        Verdict::Violated => false,
        v => panic!("`{query}`: {v:?}"),
    }
}

/// `phi --> psi` has the worst case `value` (`"11/2"`), attained, and the
/// observer engine brackets it.
fn attained(l: &Loaded, net: &Network, phi: &str, psi: &str, value: &str) {
    let query = format!("{phi} --> {psi}");
    let got = worst(l, net, &query);
    let WorstCase::Sup { value: v, attained: true, .. } = &got else { panic!("`{query}`: {got:?}") };
    assert_eq!(v.to_string(), value, "`{query}`");
    let ceil = v.ceil().to_integer();
    assert!(holds(l, net, &format!("{phi} -->[<={ceil}] {psi}")), "`{query}` within {ceil}");
    assert!(!holds(l, net, &format!("{phi} -->[<={}] {psi}", ceil.clone() - 1)), "`{query}` within {ceil} - 1");
    if v.is_integer() {
        assert!(!holds(l, net, &format!("{phi} -->[<{ceil}] {psi}")), "`{query}`: {value} attained");
    }
    // Attained, at the rational deadline itself: some divergent run is
    // late at `w >= value`, none at `w > value`.
    let p = l.query("deadline", &format!("{phi} -->[<=1] {psi}")).unwrap();
    let r = kairos::observer::response(&p).expect("a bounded response");
    let late = |reached| {
        let late = Late { value: v.clone(), reached };
        engine::observer::check_late(net, &r, &late, Abstraction::None, &Options::default()).verdict
    };
    assert_eq!(late(true), Verdict::Violated, "`{query}`: some run takes {value}");
    assert_eq!(late(false), Verdict::Satisfied, "`{query}`: no run takes more than {value}");
}

/// The water level (models/water-level.yaml, figures argued there and in
/// tests/hybrid_liveness.rs): the pump is on again exactly 11 after it went
/// off (rising 9 at rate 1, then the monitor's 2), off again exactly 11/2
/// after it went on (falling 7 at rate 2, then 2).
#[test]
fn water_level_responses_are_11_and_11_halves() {
    let (l, net) = model("models/water-level.yaml");
    attained(&l, &net, "Tank.off", "Tank.on", "11");
    attained(&l, &net, "Tank.on", "Tank.off", "11/2");
}

/// The stopwatch scheduler (models/stopwatch-scheduler.yaml): L's
/// worst-case response is 13 (the critical instant argued there, and
/// `--term L.r` in tests/hybrid_bound.rs), H's is its execution time 2.
#[test]
fn scheduler_responses_are_13_and_2() {
    let (l, net) = model("models/stopwatch-scheduler.yaml");
    attained(&l, &net, "not L.idle", "L.idle", "13");
    attained(&l, &net, "H.run", "H.idle", "2");
}

/// The longest wait only on time-locked runs: from `wait` (`x <= 2`) a
/// divergent run must reach `done` (guard `x >= 1`), within 2; going to
/// `stuck` (`x <= 3`, no way out) waits up to 3 and then time stops. Over
/// all runs the measure is 3, but `-->[< 3]` holds over divergent ones, so
/// the answer is "not supported yet", never 3 (nor a guess). (`done` has an
/// invariant: exact polyhedra keep an unbounded clock's distance to the
/// tick clock, so the liveness search would not end.)
#[test]
fn a_worst_case_of_time_locked_runs_only_is_not_claimed() {
    let (l, net) = process(
        "stuck",
        &[r#"wait: {invariant: "x <= 2"}"#, r#"stuck: {invariant: "x <= 3"}"#, r#"done: {invariant: "x <= 4"}"#],
        &[
            r#"- {from: wait, to: done, guard: "x >= 1"}"#,
            r#"- {from: wait, to: stuck}"#,
            r#"- {from: done, to: wait, update: "x = 0"}"#,
        ],
    );
    assert!(holds(&l, &net, "P.wait -->[<=2] P.done"));
    let why = refusal(&worst(&l, &net, "P.wait --> P.done")).to_string();
    assert!(why.contains("reaches 3 only on runs that are time-locked"), "{why}");
}

/// A supremum not attained: `done` is taken at `x > 1`, and `wait` is left
/// before `x` reaches 2, so every response is below 2 and some come as close
/// as one likes. Whether divergent runs do is not decided: not supported.
#[test]
fn an_unattained_supremum_is_not_claimed() {
    let (l, net) = process(
        "open",
        &[r#"wait: {invariant: "x < 2"}"#, r#"done: {}"#],
        &[r#"- {from: wait, to: done, guard: "x > 1"}"#, r#"- {from: done, to: wait, update: "x = 0"}"#],
    );
    let why = refusal(&worst(&l, &net, "P.wait --> P.done")).to_string();
    assert!(why.contains("below 2"), "{why}");
    // The measured figure is right: within 2, never reaching it.
    assert!(holds(&l, &net, "P.wait -->[<2] P.done"));
    assert!(!holds(&l, &net, "P.wait -->[<=1] P.done"));
}

/// A response that may never come is unbounded (the liveness engine's
/// lasso: `wait` has no invariant, so a divergent run stays there); one that
/// holds at once (`ψ` with `φ`) is 0.
#[test]
fn an_unanswered_response_is_unbounded() {
    let (l, net) =
        process("optional", &[r#"wait: {}"#, r#"done: {}"#], &[r#"- {from: wait, to: done, guard: "x >= 1"}"#]);
    let got = worst(&l, &net, "P.wait --> P.done");
    assert!(matches!(got, WorstCase::Unbounded(_)), "{got:?}");
    let zero: Q = Q::from_integer(0.into());
    let got = worst(&l, &net, "P.done --> P.done");
    assert!(matches!(&got, WorstCase::Sup { value, .. } if *value == zero), "{got:?}");
}
