//! Concrete traces: symbolic witnesses of `E<>` properties made concrete
//! with exact rational delays, replayed by the independent validator, and
//! pinned where the delays are forced.

use crate::trace_support;

use kairos::engine::{self, Options, Verdict};
use kairos::trace::{self, Rational};
use trace_support::{BROADCAST, STRICT, concrete, delays, end_loc, load_text, r, witness};

#[test]
fn strict_guard_with_room_gives_integer_delays() {
    let (_, t) = witness("strict", STRICT, "E<> Aut.l2");
    assert_eq!(delays(&t), ["3", "3", "0"]);
    assert_eq!(t.steps[0].after.clocks, [r("3"), r("0")]);
    assert_eq!(t.end().clocks, [r("6"), r("3")]);
}

#[test]
fn strict_guard_without_integer_gives_a_half() {
    let text = STRICT.replace("\"x > 2\"", "\"x > 2 && x < 3\"").replace("\"y >= 3\"", "\"y >= 3 && x < 6\"");
    let (_, t) = witness("strict-narrow", &text, "E<> Aut.l2");
    // Entering l1 needs 2 < x < 3: no integer there. The second delay can
    // still be an integer, so it is.
    assert_eq!(delays(&t), ["5/2", "3", "0"]);
    assert_eq!(t.end().clocks, [r("11/2"), r("3")]);
}

#[test]
fn goal_with_a_clock_constraint_is_reached_by_a_final_delay() {
    let (_, t) = witness("strict", STRICT, "E<> Aut.l1 and y > 4 and x < 8");
    // In l1, x - y > 2 (the time y was reset at); with y > 4 and x < 8 no
    // run has integer delays only (d0 > 2, d1 > 4, d0 + d1 < 8), so the run
    // is on the grid of halves, each step as early as it can be.
    assert_eq!(delays(&t), ["5/2", "9/2"]);
    assert_eq!(t.end().clocks, [r("7"), r("9/2")]);
}

#[test]
fn committed_and_urgent_locations_take_no_time() {
    let text = r#"
model: committed
clocks: [x]
variables:
  n: {range: [0, 5], init: 0}
templates:
  Aut:
    initial: a
    locations:
      a: {}
      b: {committed: true}
      c: {urgent: true}
      d: {}
    edges:
      - {from: a, to: b, guard: "x >= 1", update: "n = 1"}
      - {from: b, to: c, update: "n += 1"}
      - {from: c, to: d, update: "n += 1"}
  B:
    initial: p
    locations: {p: {}, q: {}}
    edges:
      - {from: p, to: q, guard: "n == 3 && x >= 4"}
system: [Aut, B]
"#;
    let (net, t) = witness("committed", text, "E<> B.q");
    assert_eq!(delays(&t), ["1", "0", "0", "3", "0"]);
    assert_eq!(end_loc(&net, &t, 1), "q");
    assert_eq!(t.end().discrete.data[..], [3]);
}

#[test]
fn broadcast_takes_every_enabled_receiver() {
    let (net, t) = witness("broadcast", BROADCAST, "E<> S.s1");
    assert_eq!(delays(&t), ["2", "0"]);
    let who: Vec<u32> = t.steps[0].transition.edges.iter().map(|e| e.0).collect();
    assert_eq!(who, [0, 1, 3], "R(2)'s guard is false");
    let locs: Vec<String> = (0..4).map(|p| end_loc(&net, &t, p)).collect();
    assert_eq!(locs, ["s1", "r1", "r0", "r1"]);
}

#[test]
fn reset_to_a_constant() {
    let text = r#"
model: reset-constant
clocks: [x]
templates:
  Aut:
    initial: l0
    locations: {l0: {}, l1: {invariant: "x <= 5"}, l2: {}}
    edges:
      - {from: l0, to: l1, guard: "x >= 1", update: "x = 3"}
      - {from: l1, to: l2, guard: "x == 5"}
system: [Aut]
"#;
    let (_, t) = witness("reset-constant", text, "E<> Aut.l2");
    assert_eq!(delays(&t), ["1", "2", "0"]);
    assert_eq!(t.steps[0].after.clocks, [r("3")]);
    assert_eq!(t.end().clocks, [r("5")]);
}

#[test]
fn no_clocks_still_has_delays() {
    let text = r#"
model: no-clocks
variables:
  n: {range: [0, 3], init: 0}
templates:
  Aut:
    initial: a
    locations: {a: {}, b: {urgent: true}, c: {}}
    edges:
      - {from: a, to: b, update: "n = 1"}
      - {from: b, to: c, update: "n = 2"}
system: [Aut]
"#;
    let (net, t) = witness("no-clocks", text, "E<> Aut.c and n == 2");
    assert_eq!(delays(&t), ["0", "0", "0"]);
    assert!(t.initial.clocks.is_empty());
    assert_eq!(
        trace::text(&net, &t),
        "state: Aut.a | n = 0\ndelay 0\nAut: a -> b\nstate: Aut.b | n = 1\ndelay 0\nAut: b -> c\nstate: Aut.c | n = 2\n"
    );
}

#[test]
fn run_time_error_trace_ends_where_the_failing_guard_holds() {
    let text = r#"
model: error
clocks: [x]
variables:
  n: {range: [0, 1], init: 0}
templates:
  Aut:
    initial: l0
    locations: {l0: {}, l1: {}, l2: {}}
    edges:
      - {from: l0, to: l1, guard: "x >= 1", update: "x = 0"}
      - {from: l1, to: l2, guard: "x > 2", update: "n = 5"}
system: [Aut]
"#;
    let (loaded, net) = load_text("error", text);
    let p = loaded.query("q", "E<> Aut.l2").unwrap();
    let o = engine::check(&loaded.model, Some(&net), &p, &Options::default());
    assert!(matches!(o.verdict, Verdict::Error(_)), "{:?}", o.verdict);
    let t = trace::concretise(&net, &o.trace.expect("a trace to the error")).unwrap();
    trace::validate(&net, &t).unwrap();
    assert_eq!(delays(&t), ["1", "3"]);
    assert_eq!(end_loc(&net, &t, 0), "l1");
}

#[test]
fn railway_crossing_two_trains_on() {
    let text = std::fs::read_to_string("models/railway-crossing.yaml").unwrap();
    let (net, t) = witness("railway-crossing", &text, "E<> Train(1).on and Train(2).on");
    assert_eq!((end_loc(&net, &t, 0), end_loc(&net, &t, 1)), ("on".into(), "on".into()));
    // Each train entered `on` with 2 < x <= 5 and is still within x <= 5.
    let end = t.end();
    for x in &end.clocks[..2] {
        assert!(*x > r("2") && *x <= r("5"), "{x}");
    }
    // Every delay and clock value here can be an integer.
    assert!(
        t.steps.iter().all(|s| s.delay.is_integer() && s.after.clocks.iter().all(|c| c.is_integer())),
        "{}",
        trace::text(&net, &t)
    );
}

#[test]
fn fischer_with_a_short_wait_breaks_mutual_exclusion() {
    let text = std::fs::read_to_string("models/fischer.yaml").unwrap();
    let broken = text.replace("guard: \"x > K && id == pid\"", "guard: \"x > 1 && id == pid\"");
    assert_ne!(broken, text, "the wait guard moved: update this test");
    let (net, t) = witness("fischer-broken", &broken, "E<> P(1).cs and P(2).cs");
    assert_eq!((end_loc(&net, &t, 0), end_loc(&net, &t, 1)), ("cs".into(), "cs".into()));
    // The validator checked every guard on the exact values; check the
    // one the bug is about by hand too: each entry into cs saw x > 1.
    let mut clocks = t.initial.clocks.clone();
    for s in &t.steps {
        let before: Vec<Rational> = clocks.iter().map(|c| c + &s.delay).collect();
        for &(p, e) in &s.transition.edges {
            let proc_ = &net.processes[p as usize];
            let edge = &proc_.edges[e as usize];
            if proc_.locations[edge.to as usize].name == "cs" {
                assert!(before[p as usize] > r("1"), "{}", trace::text(&net, &t));
            }
        }
        clocks = s.after.clocks.clone();
    }
}

/// The validator as an oracle: every reachable location of the example
/// models, found breadth-, depth- and random depth-first (longer paths), under each
/// abstraction, yields a trace that replays.
#[test]
fn every_reachable_location_of_the_examples_has_a_valid_trace() {
    use kairos::engine::AbstractionChoice;
    use kairos::engine::reach::Order;
    let files = [
        "models/railway-crossing.yaml",
        "models/fischer.yaml",
        "models/train-gate.yaml",
        "tests/models/tchecker/train_gate_2.yaml",
        "tests/models/tchecker/fischer_3.yaml",
    ];
    let mut checked = 0;
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let (loaded, net) = load_text(file, &text);
        for p in &net.processes {
            for l in &p.locations {
                let query = format!("E<> {}.{}", p.name, l.name);
                let prop = loaded.query("q", &query).unwrap();
                for order in [Order::Bfs, Order::Dfs, Order::Rdfs { seed: 1 }, Order::Rdfs { seed: 2 }] {
                    for abstraction in [AbstractionChoice::Alu, AbstractionChoice::Lu] {
                        let options = Options { order, abstraction: Some(abstraction), ..Options::default() };
                        let o = engine::check(&loaded.model, Some(&net), &prop, &options);
                        if o.verdict != Verdict::Satisfied {
                            continue;
                        }
                        let t = trace::concretise(&net, o.trace.as_ref().unwrap())
                            .unwrap_or_else(|e| panic!("{file}: {query}: {e}"));
                        trace::validate(&net, &t).unwrap();
                        assert_eq!(
                            t.end().discrete.locs[net.processes.iter().position(|q| q.name == p.name).unwrap()]
                                as usize,
                            p.locations.iter().position(|m| m.name == l.name).unwrap()
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 50, "{checked}");
}

#[test]
fn partial_deadlock_goal() {
    let text = r#"
model: stuck
clocks: [x]
templates:
  Aut:
    initial: l0
    locations: {l0: {invariant: "x <= 5"}, l1: {}}
    edges:
      - {from: l0, to: l1, guard: "x <= 2"}
system: [Aut]
"#;
    // Past x = 2 the edge is gone for good: deadlocked from x > 2 on.
    let (net, t) = witness("stuck", text, "E<> deadlock");
    assert!(t.steps.is_empty());
    assert_eq!(t.final_delay, r("3"));
    assert_eq!(end_loc(&net, &t, 0), "l0");
}

#[test]
fn diagonal_guard_and_initial_data_choice() {
    let text = r#"
model: diagonal
clocks: [x, y]
variables:
  k: {range: [0, 3], init: any}
templates:
  Aut:
    initial: l0
    locations: {l0: {}, l1: {}, l2: {}}
    edges:
      - {from: l0, to: l1, guard: "x >= k", update: "y = 0"}
      - {from: l1, to: l2, guard: "x - y > 1 && y < 1"}
system: [Aut]
"#;
    // The counterexample of an `A[]` starts from the initial state that
    // reaches the bad state (`E<>` asks it of every initial state, and
    // k = 0 never reaches k == 1).
    let (loaded, net) = load_text("diagonal", text);
    let t = concrete(&loaded, &net, "A[] not (Aut.l2 and k == 1)", Verdict::Violated);
    assert_eq!(t.initial.discrete.data[..], [1]);
    // y is reset at some time > 1 (then x - y > 1): at 2, the earliest on
    // the integer grid.
    assert_eq!(delays(&t), ["2", "0", "0"]);
}
