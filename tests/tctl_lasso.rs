//! Lassos from the TCTL fixpoint engine: `EG` witnesses, `AF` and `A[U]`
//! counterexamples, with clock atoms, bounds and nesting. Every lasso is
//! replayed by the trace validator (a time-divergent run whose loop
//! repeats forever), and its states are checked against the formula the
//! run must keep, with the validator's own constraint test, at both ends
//! of every delay.
//!
//! Oracles: on the railway crossing and the hand-made models, verdicts
//! argued in the comments; on the random networks of the liveness
//! differential test, the region/integer-time liveness oracle of
//! `tests/oracle/live.rs` for the verdict, and for every satisfied `E[] φ`
//! and violated `A<> ψ` a lasso is required.

use crate::oracle;

use std::time::Instant;

use kairos::engine::reach::Limits;
use kairos::engine::{self, Options, Outcome, Verdict};
use kairos::model::formula::{EngineKind, Formula};
use kairos::model::load::load_model;
use kairos::network::{Network, StateFormula};
use kairos::semantics::Transition;
use kairos::syntax::ast::PathOp;
use kairos::syntax::yaml::Source;
use kairos::trace::validate::{Keeps, keeps};
use kairos::trace::{ConcreteState, ConcreteStep, ConcreteTrace, Rational};
use num_traits::Zero;
use oracle::random::{Gen, Rng};
use oracle::{Config, Oracle, Time};

const RAILWAY: &str = include_str!("../models/railway-crossing.yaml");

/// The railway crossing with `n` trains (fewer than its 3 keep the
/// fixpoints small).
fn railway(n: u32) -> String {
    RAILWAY.replace("  N: 3 ", &format!("  N: {n} "))
}

/// The property's verdict through the fixpoint engine, and the model.
fn run(yaml: &str, q: &str, limits: Limits) -> (Network, kairos::model::types::Property, Outcome) {
    let loaded = load_model(&Source::new("m.yaml", yaml.to_string())).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let p = loaded.query("q", q).unwrap_or_else(|d| panic!("{q}: {d:?}"));
    let tctl = Options { engine: Some(EngineKind::Tctl), limits, ..Options::default() };
    let o = engine::check(&loaded.model, Some(&net), &p, &tctl);
    (net, p, o)
}

/// Every state of `c` at both ends of every delay.
fn points(c: &ConcreteTrace) -> Vec<ConcreteState> {
    let mut out = Vec::new();
    let mut at = c.initial.clone();
    for s in &c.steps {
        out.push(at.clone());
        out.push(ConcreteState {
            discrete: at.discrete.clone(),
            clocks: at.clocks.iter().map(|v| v + &s.delay).collect(),
        });
        at = s.after.clone();
    }
    out.push(at);
    out
}

/// The lasso of `o`, made concrete and validated; `keep`, when given, is
/// kept by it (the validator's check at every point where an atom may
/// change, within the bound).
fn lasso(net: &Network, o: &Outcome, keep: Option<&Keeps>, q: &str) -> ConcreteTrace {
    let t = o.trace.as_ref().unwrap_or_else(|| panic!("`{q}`: a lasso"));
    let c = kairos::trace::concretise(net, t).unwrap_or_else(|e| panic!("`{q}`: {e}"));
    kairos::trace::validate(net, &c).unwrap_or_else(|e| panic!("`{q}`: {e}"));
    assert!(c.loop_start.is_some(), "`{q}`: a loop");
    if let Some(k) = keep {
        keeps(net, &c, k).unwrap_or_else(|e| panic!("`{q}`: {e}\n{}", kairos::trace::text(net, &c)));
    }
    c
}

/// What the lasso of `p` keeps: the state formula under the outermost
/// operator (negated for `AF`), within its bound, from the start.
fn kept(net: &Network, p: &kairos::model::types::Property) -> Option<Keeps> {
    let (arg, bound, negate) = match &p.formula {
        Formula::Path { op: PathOp::EG, arg, bound } => (arg, bound, false),
        Formula::Path { op: PathOp::AF, arg, bound } => (arg, bound, true),
        _ => return None,
    };
    let f = net.state_formula(p, arg).ok()?;
    let formula = if negate { StateFormula::Not(Box::new(f)) } else { f };
    Some(Keeps { formula, from: (0, Rational::zero()), within: *bound, until: None, until_within: None })
}

/// Checks `q` on `yaml`: the verdict, and a validated lasso that keeps
/// the formula (when it is a state formula). Returns the lasso.
fn check(yaml: &str, q: &str, expected: Verdict) -> (Network, ConcreteTrace) {
    let (net, p, o) = run(yaml, q, Limits::default());
    assert_eq!(o.verdict, expected, "`{q}`");
    assert_eq!(o.engine, EngineKind::Tctl);
    let keep = kept(&net, &p);
    let c = lasso(&net, &o, keep.as_ref(), q);
    (net, c)
}

/// Whether the loop of `c` takes a discrete step (not only delays).
fn loop_moves(c: &ConcreteTrace) -> bool {
    c.steps[c.loop_start.unwrap()..].iter().any(|s| !s.transition.edges.is_empty())
}

#[test]
fn railway_lassos_with_clock_atoms_and_bounds() {
    let one = railway(1);
    // The gate may be kept down, or within 1 of its last command, forever:
    // the train comes back at once each time the gate is up again (at y =
    // 1 exactly: `raising` is left at y >= 1, and `up` must be left while
    // y <= 1), so the loop goes round the train's whole cycle.
    let (_, c) = check(&one, "E[] (Gate.down or Gate.y <= 1)", Verdict::Satisfied);
    assert!(loop_moves(&c), "the gate cannot stay anywhere");
    // Strictly below 1 the gate never gets up: the train comes back while
    // it is still raising (y < 1 there), which sends it lowering again.
    let (_, c) = check(&one, "E[] (Gate.down or Gate.y < 1)", Verdict::Satisfied);
    assert!(loop_moves(&c));
    // Not every run has the gate up and idle for more than 2: that one
    // does not.
    let (_, c) = check(&one, "A<> (Gate.up and Gate.y > 2)", Verdict::Violated);
    assert!(loop_moves(&c));
    // Bounded: keeping the gate within 1 of its command only from time 1
    // on is no harder; a train may stay far for more than 3.
    check(&one, "EG[>=1] (Gate.down or Gate.y <= 1)", Verdict::Satisfied);
    check(&one, "EG[<=3] (Gate.up and Train(1).far)", Verdict::Satisfied);
    check(&one, "AF[<=3] Train(1).near", Verdict::Violated);
    // (`AF[<4] Train(1).x >= 1` holds: x reaches 1 by time 2 whatever the
    // train does, it can be reset only once meanwhile.)
    check(&one, "AF[<4] Train(1).on", Verdict::Violated);
    // `A[U]`, strong until: the train may never approach, so the gate
    // being up until then does not hold; the run stays far forever.
    never_reaches(&one, "A[Gate.up U Train(1).near]");
    // Likewise the gate need never be raised.
    never_reaches(&one, "A[(Gate.up or Gate.lowering or Gate.down) U Gate.raising]");
    // Nested: some run keeps, forever, a state from which the train can
    // be on the crossing within 5.
    let q = "E[] EF[<=5] Train(1).on";
    let (net, _, o) = run(&one, q, Limits::default());
    assert_eq!(o.verdict, Verdict::Satisfied);
    lasso(&net, &o, None, q);
}

/// `A[φ U ψ]` fails on a lasso along which ψ never holds (checked at
/// every point).
fn never_reaches(yaml: &str, q: &str) {
    let (net, p, o) = run(yaml, q, Limits::default());
    assert_eq!(o.verdict, Verdict::Violated, "`{q}`");
    let Formula::Until { rhs, bound, .. } = &p.formula else { panic!("`{q}` is an until") };
    let not_psi = StateFormula::Not(Box::new(net.state_formula(&p, rhs).unwrap()));
    let k = Keeps { formula: not_psi, from: (0, Rational::zero()), within: *bound, until: None, until_within: None };
    lasso(&net, &o, Some(&k), q);
}

/// The typed formula of `text` on `yaml`.
fn loaded_formula(yaml: &str, text: &str) -> Formula {
    let loaded = load_model(&Source::new("m.yaml", yaml.to_string())).unwrap();
    loaded.query("f", text).unwrap().formula
}

/// `a` must be left for `b` at some x in [1, 2].
const LEAVE: &str = r#"
model: leave
templates:
  P:
    clocks: [x]
    initial: a
    locations:
      a: {invariant: "x <= 2"}
      b: {}
    edges:
      - {from: a, to: b, guard: "x >= 1"}
system: [P]
"#;

#[test]
fn an_until_fails_before_its_goal() {
    // Every divergent run reaches `b`, but passes (a, x = 1) first, where
    // neither `x < 1` nor `b` holds: the lasso goes there, then on to `b`
    // (time diverges there). So it ends its prefix at x >= 1 in `a`.
    let q = "A[P.x < 1 U P.b]";
    let (net, p, o) = run(LEAVE, q, Limits::default());
    assert_eq!(o.verdict, Verdict::Violated);
    // `not P.b` until `not (P.x < 1) and not P.b`.
    let f = |text: &str| net.state_formula(&p, &loaded_formula(LEAVE, text)).unwrap();
    let k = Keeps {
        formula: StateFormula::Not(Box::new(f("P.b"))),
        from: (0, Rational::zero()),
        within: None,
        until: Some(f("not P.x < 1 and not P.b")),
        until_within: None,
    };
    let c = lasso(&net, &o, Some(&k), q);
    let one = Rational::from_integer(1.into());
    let a = |s: &ConcreteState| net.processes[0].locations[s.discrete.locs[0] as usize].name == "a";
    assert!(points(&c).iter().any(|s| a(s) && s.clocks[0] >= one), "{}", kairos::trace::text(&net, &c));
    // (`x <= 1` fails too: some run leaves at x = 3/2.) With `x <= 2` it
    // holds: `a`'s invariant.
    let (_, _, o) = run(LEAVE, "A[P.x <= 1 U P.b]", Limits::default());
    assert_eq!(o.verdict, Verdict::Violated);
    let (_, _, o) = run(LEAVE, "A[P.x <= 2 U P.b]", Limits::default());
    assert_eq!(o.verdict, Verdict::Satisfied);
}

#[test]
fn railway_more_trains_keep_the_gate_down() {
    // With two trains, overlapping in turn, the gate can stay down (or
    // lowering, within 1) forever once lowered: the count never drops to 0.
    let (_, c) = check(&railway(2), "E[] (Gate.down or Gate.y <= 1)", Verdict::Satisfied);
    assert!(loop_moves(&c));
    // The model as it is (three trains), with the counterexample to the
    // gate being eventually up and idle for more than 2.
    let (_, c) = check(RAILWAY, "E[] (Gate.down or Gate.y <= 1)", Verdict::Satisfied);
    assert!(loop_moves(&c));
    let (_, c) = check(RAILWAY, "A<> (Gate.up and Gate.y > 2)", Verdict::Violated);
    assert!(loop_moves(&c));
}

/// `a` is left at x >= 4 (all clocks reset), or to `b` once y >= 1, which
/// goes back to `a` at once resetting x. `x < 3 or y >= 3` holds in `a`
/// along the first loop: the delay from x = y = 0 to x = y = 4 leaves the
/// member `x < 3` for the member `y >= 3` at x = y = 3, where the first is
/// open and the second closed (no point in both).
const SWITCH: &str = r#"
model: switch
templates:
  P:
    clocks: [x, y]
    initial: a
    locations:
      a: {invariant: "x <= 5"}
      b: {}
    edges:
      - {from: a, to: a, guard: "x >= 4", update: "x = 0; y = 0"}
      - {from: a, to: b, guard: "y >= 1", update: "y = 0"}
      - {from: b, to: a, update: "x = 0"}
system: [P]
"#;

#[test]
fn a_witness_switches_between_convex_members() {
    let (net, c) = check(SWITCH, "E[] (P.x < 3 or P.y >= 3)", Verdict::Satisfied);
    // Some point of the run is only in `x < 3`, another only in `y >= 3`.
    let three = Rational::from_integer(3.into());
    let pts = points(&c);
    assert!(pts.iter().any(|s| s.clocks[0] < three && s.clocks[1] < three));
    assert!(pts.iter().any(|s| s.clocks[0] >= three && s.clocks[1] >= three), "{}", kairos::trace::text(&net, &c));
    // Without the middle, no run keeps it: from x = y = 0 no clock can be
    // reset before both reach 1 (every edge needs x >= 4 or y >= 1, and x =
    // y until the first reset), and at x = y = 1 neither disjunct holds.
    let (_, _, o) = run(SWITCH, "E[] (P.x < 1 or P.y > 3)", Limits::default());
    assert_eq!(o.verdict, Verdict::Violated);
    assert!(o.trace.is_none());
    // Through `AF`: some run never meets `x >= 3 and y < 3` (a lasso
    // leaving `a` for `b` and back, or through the reset at x >= 4).
    check(SWITCH, "A<> (P.x >= 3 and P.y < 3)", Verdict::Violated);
}

/// Random `E[]` / `A<>` properties over locations and data.
fn properties(net: &Network, seed: u64) -> Vec<String> {
    let mut r = Rng(seed ^ 0x1a55_0000);
    let mut atom = || -> String {
        let p = &net.processes[r.below(net.processes.len())];
        format!("{}.{}", p.name, p.locations[r.below(p.locations.len())].name)
    };
    let (a, b) = (atom(), atom());
    vec![format!("E[] not {a}"), format!("E[] ({a} or {b})"), format!("A<> {a}"), format!("A<> ({a} or not {b})")]
}

/// On the liveness differential's random networks: the fixpoint engine's
/// verdict agrees with the liveness oracle, and every satisfied `E[]` and
/// violated `A<>` comes with a lasso the validator accepts, whose states
/// keep the formula. As many networks as fit in the time budget
/// (`KAIROS_LASSO_SECONDS`, default 12); the count is printed.
#[test]
fn random_networks_get_validated_lassos() {
    let budget: f64 = std::env::var("KAIROS_LASSO_SECONDS").ok().and_then(|v| v.parse().ok()).unwrap_or(12.0);
    let started = Instant::now();
    let (mut networks, mut compared, mut lassos, mut unknown, mut diagonal) = (0, 0, 0, 0, 0);
    let mut seed = 1u64;
    while started.elapsed().as_secs_f64() < budget {
        seed += 1;
        let yaml = Gen::generate(seed).yaml;
        let Ok(loaded) = load_model(&Source::new("r.yaml", yaml.clone())) else { continue };
        let Ok(net) = kairos::network::build(&loaded.model) else { continue };
        diagonal += u64::from(net.has_diagonals);
        let texts = properties(&net, seed);
        let parsed: Vec<_> = texts.iter().map(|t| loaded.query("q", t).unwrap()).collect();
        let formulas: Vec<StateFormula> = parsed.iter().filter_map(|p| kept(&net, p).map(|k| k.formula)).collect();
        let refs: Vec<&StateFormula> = formulas.iter().collect();
        let explored = if oracle::closed(&net) {
            Oracle::explore(&net, &refs, Config { time: Time::Grid(1), max_states: 20_000 })
        } else {
            Oracle::explore_ticked(&net, &refs, 50_000)
        };
        let Ok(mut o) = explored else { continue };
        if o.error.is_some() {
            continue;
        }
        networks += 1;
        for (p, text) in parsed.iter().zip(&texts) {
            let Formula::Path { op, arg, .. } = &p.formula else { unreachable!() };
            let f = net.state_formula(p, arg).unwrap();
            let eg = *op == PathOp::EG;
            let Some(expected) = (if eg { o.eg(&f) } else { o.af(&f) }) else { continue };
            let limits = Limits { max_states: Some(5_000), ..Limits::default() };
            let (_, _, out) = run(&yaml, text, limits);
            let got = match out.verdict {
                Verdict::Satisfied => true,
                Verdict::Violated => false,
                _ => {
                    unknown += 1;
                    continue;
                }
            };
            compared += 1;
            assert_eq!(got, expected, "seed {seed}: `{text}`\n{yaml}");
            if got == eg {
                let keep = kept(&net, p);
                lasso(&net, &out, keep.as_ref(), &format!("seed {seed}: {text}"));
                lassos += 1;
            }
        }
    }
    println!(
        "tctl lassos: {networks} random networks (seeds 2..={seed}, {diagonal} with diagonals), {compared} verdicts \
         compared with the liveness oracle, {lassos} lassos validated, {unknown} unknown, {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(lassos > 0);
}

/// `a` is left for `b` at x in [2, 3], resetting y; `b` is left at y in
/// [1, 2], resetting x, by a diagonal guard `x - y >= 2` that always holds
/// there (x - y is the x at which `a` was left). So x - y lies in [2, 3]
/// throughout `b`, and the difference decides both the guard and the
/// formulas below: a lasso's loop must come back to its class.
const DRIFT: &str = r#"
model: drift
templates:
  P:
    clocks: [x, y]
    initial: a
    locations:
      a: {invariant: "x <= 3"}
      b: {invariant: "y <= 2"}
    edges:
      - {from: a, to: b, guard: "x >= 2", update: "y = 0"}
      - {from: b, to: a, guard: "y >= 1 and x - y >= 2", update: "x = 0"}
system: [P]
"#;

/// With diagonal constraints the lasso's marks and the validator compare
/// regions refined by the classes of the differences; the lassos keep
/// their formulas, diagonal atoms included, and no warning says a lasso is
/// missing.
#[test]
fn diagonal_models_get_lassos() {
    let diagonal = std::fs::read_to_string("tests/models/semantics/diagonal.yaml").unwrap();
    // `l3` is unreachable (x - y == 2 once y is reset): a run stays away
    // from it forever (in `l0`, say), so `A<> P.l3` fails.
    for (yaml, q, verdict) in [
        (diagonal.as_str(), "E[] true", Verdict::Satisfied),
        (diagonal.as_str(), "A<> false", Verdict::Violated),
        (diagonal.as_str(), "A<> P.l3", Verdict::Violated),
        (diagonal.as_str(), "E[] P.x - P.y < 1", Verdict::Satisfied),
        // In `b`, x - y is in [2, 3]: at least 2 always, above 2 when `a`
        // is left after x = 2, below 2 never.
        (DRIFT, "E[] (P.a or P.x - P.y >= 2)", Verdict::Satisfied),
        (DRIFT, "E[] (P.a or P.x - P.y > 2)", Verdict::Satisfied),
        (DRIFT, "A<> (P.b and P.x - P.y < 2)", Verdict::Violated),
        // `b` must come (x <= 3 in `a`), and with x - y >= 2 there.
        (DRIFT, "E[] (P.a or P.x - P.y < 2)", Verdict::Violated),
    ] {
        let (net, p, o) = run(yaml, q, Limits::default());
        assert_eq!(o.verdict, verdict, "`{q}`");
        assert!(o.warnings.iter().all(|w| !w.message.starts_with("no lasso")), "`{q}`: {:?}", o.warnings);
        let eg = matches!(&p.formula, Formula::Path { op: PathOp::EG, .. });
        if eg == (verdict == Verdict::Satisfied) {
            let c = lasso(&net, &o, kept(&net, &p).as_ref(), q);
            assert!(net.has_diagonals && c.loop_start.is_some());
        } else {
            assert!(o.trace.is_none(), "`{q}`");
        }
    }
}

/// `x < 1 or x >= 2` is kept in `a` only by leaving for `b` before x = 1:
/// the reset back to x = 0 needs x >= 3, and the delay to it passes
/// through [1, 2). The reset edge comes first, so a walk that let a delay
/// leave the set between its ends would take it (both ends keep the
/// formula: x = 0 and x = 3).
const GAP: &str = r#"
model: gap
templates:
  P:
    clocks: [x]
    initial: a
    locations:
      a: {}
      b: {}
    edges:
      - {from: a, to: a, guard: "x >= 3", update: "x = 0"}
      - {from: a, to: b, guard: "x < 1"}
system: [P]
"#;

#[test]
fn a_lasso_never_jumps_over_a_gap() {
    let q = "E[] (P.b or P.x < 1 or P.x >= 2)";
    let (net, c) = check(GAP, q, Verdict::Satisfied);
    // The run leaves for `b` before x = 1 (and stays there).
    let b = |s: &ConcreteState| net.processes[0].locations[s.discrete.locs[0] as usize].name == "b";
    assert!(points(&c).iter().any(b), "{}", kairos::trace::text(&net, &c));
    // The validator itself: a lasso waiting 3 in `a` and resetting, again
    // and again, is a run (region-equivalent ends, a time unit between
    // marks) whose delays start and end inside the formula, and it is
    // refused: at x = 1, inside the first delay, the formula fails.
    let (_, p, _) = run(GAP, q, Limits::default());
    let k = kept(&net, &p).unwrap();
    let a = c.initial.clone();
    let at = |x: i64| ConcreteState { discrete: a.discrete.clone(), clocks: vec![Rational::from_integer(x.into())] };
    let step = |delay: i64, transition: Transition, x: i64| ConcreteStep {
        delay: Rational::from_integer(delay.into()),
        transition,
        after: at(x),
    };
    let reset = Transition { edges: vec![(0, 0)], out: Vec::new(), unless: Vec::new() };
    let mark = Transition { edges: Vec::new(), out: Vec::new(), unless: Vec::new() };
    let jumping = ConcreteTrace {
        initial: at(0),
        steps: vec![step(0, mark.clone(), 0), step(3, reset, 0), step(0, mark, 0)],
        final_delay: Rational::zero(),
        loop_start: Some(0),
        rates: None,
    };
    kairos::trace::validate(&net, &jumping).unwrap();
    let every_end =
        points(&jumping).iter().all(|s| kairos::trace::validate::holds_at(&net, s, &k.formula).unwrap() == Some(true));
    assert!(every_end, "the delays' ends keep the formula");
    let e = keeps(&net, &jumping, &k).unwrap_err();
    assert!(e.contains("P.x = 1"), "{e}");
}

/// `φ --> ψ` violated: a path to a point of φ, then a lasso along which ψ
/// never holds (within the bound), from there. Checked: the run is a valid
/// lasso, and from some point of φ after a step it keeps `not ψ`.
fn leads_to_lasso(yaml: &str, q: &str) -> ConcreteTrace {
    let (net, p, o) = run(yaml, q, Limits::default());
    assert_eq!(o.verdict, Verdict::Violated, "`{q}`");
    assert!(o.warnings.iter().all(|w| !w.message.starts_with("no lasso")), "`{q}`: {:?}", o.warnings);
    let c = lasso(&net, &o, None, q);
    let Formula::LeadsTo { lhs, rhs, bound } = &p.formula else { panic!("`{q}` is a leads-to") };
    let phi = net.state_formula(&p, lhs).unwrap();
    let not_psi = StateFormula::Not(Box::new(net.state_formula(&p, rhs).unwrap()));
    let states = std::iter::once(&c.initial).chain(c.steps.iter().map(|s| &s.after));
    let found = states.enumerate().any(|(k, s)| {
        let from = (k, Rational::zero());
        kairos::trace::validate::holds_at(&net, s, &phi).unwrap() == Some(true)
            && keeps(
                &net,
                &c,
                &Keeps { formula: not_psi.clone(), from, within: *bound, until: None, until_within: None },
            )
            .is_ok()
    });
    assert!(found, "`{q}`: no point of φ from which ψ is avoided\n{}", kairos::trace::text(&net, &c));
    c
}

#[test]
fn leads_to_counterexamples_are_lassos() {
    let one = railway(1);
    // The train may stay far forever: the lasso from the start.
    leads_to_lasso(&one, "Train(1).far --> Train(1).near");
    leads_to_lasso(&one, "Train(1).far -->[<=3] Train(1).near");
    // Once near, the gate may never be up again: the train comes back while
    // the gate is raising, each time (a path to `near`, then the loop).
    let c = leads_to_lasso(&one, "Train(1).near --> Gate.up");
    assert!(loop_moves(&c));
    // Down within 1, not strictly before: `lowering` may take the whole
    // unit. The loop may reach `down` after the bound.
    leads_to_lasso(&one, "Train(1).near -->[<1] Gate.down");
    // A clock atom on the left: the gate up for more than 1 need not be
    // followed by an approach.
    leads_to_lasso(&one, "(Gate.up and Gate.y > 1) --> Train(1).near");
}

/// As [`DRIFT`], but `b` is left only while `x - y <= 2`, so only when `a`
/// was left at x = 2 exactly.
fn narrow() -> String {
    DRIFT.replace("x - y >= 2", "x - y <= 2")
}

/// The validator's loop check takes the differences' classes: a loop from
/// (b, x = 7/2, y = 3/2), where x - y = 2, to (b, x = 4, y = 3/2), where x -
/// y = 5/2, has ends in the same classical region (x above its constant 3
/// in both, y alike), but from its end `b` can never be left again (x - y
/// stays 5/2 there) and time stops at y = 2: no infinite run repeats it.
#[test]
fn a_loop_must_come_back_to_its_differences() {
    let loaded = load_model(&Source::new("m.yaml", narrow())).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let r = |n: i64, d: i64| Rational::new(n.into(), d.into());
    let state = |loc: u32, x: Rational, y: Rational| {
        let discrete = kairos::semantics::Discrete { locs: vec![loc].into(), data: Vec::new().into() };
        ConcreteState { discrete, clocks: vec![x, y] }
    };
    let step = |delay: Rational, edges: Vec<(u32, u32)>, after: ConcreteState| ConcreteStep {
        delay,
        transition: Transition { edges, out: Vec::new(), unless: Vec::new() },
        after,
    };
    let (a, b) = (0, 1);
    let trace = ConcreteTrace {
        initial: state(a, r(0, 1), r(0, 1)),
        steps: vec![
            step(r(2, 1), vec![(0, 0)], state(b, r(2, 1), r(0, 1))),
            step(r(3, 2), Vec::new(), state(b, r(7, 2), r(3, 2))),
            step(r(0, 1), vec![(0, 1)], state(a, r(0, 1), r(3, 2))),
            step(r(5, 2), vec![(0, 0)], state(b, r(5, 2), r(0, 1))),
            step(r(3, 2), Vec::new(), state(b, r(4, 1), r(3, 2))),
        ],
        final_delay: Rational::zero(),
        loop_start: Some(1),
        rates: None,
    };
    let e = kairos::trace::validate(&net, &trace).unwrap_err();
    assert!(e.contains("another region"), "{e}");
}
