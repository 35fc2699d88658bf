//! What the fixpoint engine says beside a verdict: for a nested formula,
//! the subformula that decides it at the end of the trace (answers argued
//! per case), and time-lock warnings for formulas over divergent runs,
//! exact even where a zone is only partly time-locked. Every trace is made
//! concrete and replayed by the validator.

use kairos::engine::{self, Options, Outcome, Verdict};
use kairos::model::formula::EngineKind;
use kairos::model::load::load_model;
use kairos::network::Network;
use kairos::syntax::yaml::Source;
use kairos::trace::ConcreteTrace;

/// `a` is left at some x in [1, 2]; `b` lasts exactly 3.
const PULSE: &str = include_str!("models/tctl/pulse.yaml");

/// `s` is left to `u` at once, or to `t` at y = 1, where time stops.
const LOCK: &str = include_str!("models/tctl/lock.yaml");

fn run(text: &str, q: &str) -> (Network, Outcome) {
    let loaded = load_model(&Source::new("m", text.to_string())).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let p = loaded.query("q", q).unwrap_or_else(|d| panic!("{q}: {d:?}"));
    let tctl = Options { engine: Some(EngineKind::Tctl), ..Options::default() };
    let o = engine::check(&loaded.model, Some(&net), &p, &tctl);
    (net, o)
}

fn concrete(net: &Network, t: &engine::SymbolicTrace) -> ConcreteTrace {
    let c = kairos::trace::concretise(net, t).unwrap_or_else(|e| panic!("{e:?}"));
    kairos::trace::validate(net, &c).unwrap_or_else(|e| panic!("{e}"));
    c
}

/// The verdict, the blamed subformula (text and value), and the location
/// (of the only process) at the point where it is blamed.
fn blamed(text: &str, q: &str) -> (Verdict, Option<(String, bool)>, String) {
    let (net, o) = run(text, q);
    let t = o.trace.as_ref().unwrap_or_else(|| panic!("`{q}` gives a trace"));
    let c = concrete(&net, t);
    let at = match t.blame.as_ref().and_then(|b| b.at.clone()) {
        None => c.end(),
        Some((n, _)) => {
            if n == 0 {
                c.initial.clone()
            } else {
                c.steps[n - 1].after.clone()
            }
        }
    };
    let loc = net.processes[0].locations[at.discrete.locs[0] as usize].name.clone();
    (o.verdict, t.blame.clone().map(|b| (b.text, b.holds)), loc)
}

fn blame(text: &str, holds: bool) -> Option<(String, bool)> {
    Some((text.into(), holds))
}

#[test]
fn the_failing_subformula_is_named_where_it_fails() {
    // Entering `b` at x = 0, `a` comes back only at x = 3: a bound of 2
    // fails there (it holds from x >= 1 in `b`, and in `a`, where the
    // implication is vacuous). So the run ends in `b` and blames the
    // response.
    assert_eq!(
        blamed(PULSE, "A[] (P.b imply A<>[<=2] P.a)"),
        (Verdict::Violated, blame("A<>[<=2] P.a", false), "b".into())
    );
    // (A path operator takes everything to its right: the parentheses
    // make the conjunction the outer connective.)
    // `E<> P.b` holds everywhere, `A[] P.a` nowhere (every run reaches
    // `b`): the second conjunct is blamed, at the initial state already.
    assert_eq!(blamed(PULSE, "A[] ((E<> P.b) and A[] P.a)"), (Verdict::Violated, blame("A[] P.a", false), "a".into()));
    // The same with the sides swapped: the first conjunct is the one.
    assert_eq!(blamed(PULSE, "A[] ((A[] P.a) and E<> P.b)"), (Verdict::Violated, blame("A[] P.a", false), "a".into()));
    // Through a negation the blamed formula holds.
    assert_eq!(blamed(PULSE, "A[] not E<> P.b"), (Verdict::Violated, blame("E<> P.b", true), "a".into()));
}

#[test]
fn a_witness_names_the_subformula_that_holds() {
    // `EG[<=1] P.a` holds in `a` while x <= 1 (time may stay in `a` up to
    // x = 2), so the initial state already witnesses it; `P.b` would be a
    // later state.
    assert_eq!(
        blamed(PULSE, "E<> ((EG[<=1] P.a) or P.b)"),
        (Verdict::Satisfied, blame("EG[<=1] P.a", true), "a".into())
    );
    // A disjunct that holds nowhere is passed over: `EG P.a` is false
    // (the invariant of `a` ends every stay).
    assert_eq!(
        blamed(PULSE, "E<> ((EG P.a) or A<>[<=3] P.a)"),
        (Verdict::Satisfied, blame("A<>[<=3] P.a", true), "a".into())
    );
}

#[test]
fn state_formulas_need_no_blame() {
    let (_, o) = run(PULSE, "A[] P.a");
    assert_eq!(o.verdict, Verdict::Violated);
    assert_eq!(o.trace.expect("a counterexample").blame, None);
}

#[test]
fn time_locks_are_warned_about_exactly() {
    // From `s` at y > 0 the only way on is `t`, where time stops: those
    // valuations are time-locked, though the zone of `s` (0 <= y <= 1) also
    // holds y = 0, which has a divergent run (to `u`). The warning's run
    // ends in a state with no divergent run: in `t`, or in `s` after a delay.
    let (net, o) = run(LOCK, "Q.s --> Q.u");
    assert_eq!(o.warnings.len(), 1, "{:?}", o.warnings);
    let w = &o.warnings[0];
    assert!(w.message.starts_with("time-lock"), "{}", w.message);
    let c = concrete(&net, w.trace.as_ref().expect("a run to the time-lock"));
    let end = c.end();
    let loc = net.processes[0].locations[end.discrete.locs[0] as usize].name.clone();
    let delayed = end.clocks.iter().any(|v| *v > kairos::trace::Rational::from_integer(0.into()));
    assert!(loc == "t" || (loc == "s" && delayed), "ends in {loc} at {:?}", end.clocks);
    // Reachability does not quantify over divergent runs: no warning.
    assert!(run(LOCK, "E<> (Q.u and E<> Q.u)").1.warnings.is_empty());
    // No time-lock in the pulse.
    assert!(run(PULSE, "P.a --> P.b").1.warnings.is_empty());
}
