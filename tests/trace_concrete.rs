//! Concrete traces: symbolic witnesses of `E<>` properties made concrete
//! with exact rational delays, replayed by the independent validator, and
//! pinned where the delays are forced.

use kairos::engine::{self, Options, Verdict};
use kairos::model::load::{Loaded, load_model};
use kairos::network::Network;
use kairos::syntax::yaml::Source;
use kairos::trace::{self, ConcreteTrace, Rational};

fn load_text(name: &str, text: &str) -> (Loaded, Network) {
    let loaded = load_model(&Source::new(name, text.to_string())).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let net = kairos::network::build(&loaded.model).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    (loaded, net)
}

/// The symbolic outcome of `query`, expected to be `verdict`, made concrete
/// and validated.
fn concrete(loaded: &Loaded, net: &Network, query: &str, verdict: Verdict) -> ConcreteTrace {
    let p = loaded.query("q", query).unwrap_or_else(|d| panic!("{query}: {d:?}"));
    let o = engine::check(&loaded.model, Some(net), &p, &Options::default());
    assert_eq!(o.verdict, verdict, "{query}");
    let symbolic = o.trace.expect("a trace");
    let t = trace::concretise(net, &symbolic).unwrap_or_else(|e| panic!("{query}: {e}"));
    trace::validate(net, &t).unwrap_or_else(|e| panic!("{query}: {e}\n{}", trace::text(net, &t)));
    t
}

fn witness(name: &str, text: &str, query: &str) -> (Network, ConcreteTrace) {
    let (loaded, net) = load_text(name, text);
    let t = concrete(&loaded, &net, query, Verdict::Satisfied);
    (net, t)
}

fn r(s: &str) -> Rational {
    s.parse().unwrap()
}

fn delays(t: &ConcreteTrace) -> Vec<String> {
    t.steps.iter().map(|s| s.delay.to_string()).chain([t.final_delay.to_string()]).collect()
}

/// The location of process `p` at the end of the run.
fn end_loc(net: &Network, t: &ConcreteTrace, p: usize) -> String {
    let proc_ = &net.processes[p];
    proc_.locations[t.end().discrete.locs[p] as usize].name.clone()
}

const STRICT: &str = r#"
model: strict
clocks: [x, y]
templates:
  A:
    initial: l0
    locations: {l0: {}, l1: {}, l2: {}}
    edges:
      - {from: l0, to: l1, guard: "x > 2", update: "y = 0"}
      - {from: l1, to: l2, guard: "y >= 3"}
system: [A]
"#;

#[test]
fn strict_guard_with_room_gives_integer_delays() {
    let (_, t) = witness("strict", STRICT, "E<> A.l2");
    assert_eq!(delays(&t), ["3", "3", "0"]);
    assert_eq!(t.steps[0].after.clocks, [r("3"), r("0")]);
    assert_eq!(t.end().clocks, [r("6"), r("3")]);
}

#[test]
fn strict_guard_without_integer_gives_a_half() {
    let text = STRICT.replace("\"x > 2\"", "\"x > 2 && x < 3\"").replace("\"y >= 3\"", "\"y >= 3 && x < 6\"");
    let (_, t) = witness("strict-narrow", &text, "E<> A.l2");
    // Entering l1 needs 2 < x < 3: no integer there. The second delay can
    // still be an integer, so it is.
    assert_eq!(delays(&t), ["5/2", "3", "0"]);
    assert_eq!(t.end().clocks, [r("11/2"), r("3")]);
}

#[test]
fn goal_with_a_clock_constraint_is_reached_by_a_final_delay() {
    let (_, t) = witness("strict", STRICT, "E<> A.l1 and y > 4 and x < 8");
    // x - y = 3 in l1 (entered at x = 3): y > 4 and x < 8 give 4 < y < 5.
    assert_eq!(delays(&t), ["3", "9/2"]);
    assert_eq!(t.end().clocks, [r("15/2"), r("9/2")]);
}

#[test]
fn committed_and_urgent_locations_take_no_time() {
    let text = r#"
model: committed
clocks: [x]
variables:
  n: {range: [0, 5], init: 0}
templates:
  A:
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
system: [A, B]
"#;
    let (net, t) = witness("committed", text, "E<> B.q");
    assert_eq!(delays(&t), ["1", "0", "0", "3", "0"]);
    assert_eq!(end_loc(&net, &t, 1), "q");
    assert_eq!(t.end().discrete.data[..], [3]);
}

const BROADCAST: &str = r#"
model: broadcast
channels:
  go: broadcast
templates:
  S:
    clocks: [x]
    initial: s0
    locations: {s0: {}, s1: {}}
    edges:
      - {from: s0, to: s1, guard: "x >= 2", sync: "go!"}
  R:
    params: [id]
    initial: r0
    locations: {r0: {}, r1: {}}
    edges:
      - {from: r0, to: r1, guard: "id != 2", sync: "go?"}
system:
  - S
  - R(1..3)
"#;

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
  A:
    initial: l0
    locations: {l0: {}, l1: {invariant: "x <= 5"}, l2: {}}
    edges:
      - {from: l0, to: l1, guard: "x >= 1", update: "x = 3"}
      - {from: l1, to: l2, guard: "x == 5"}
system: [A]
"#;
    let (_, t) = witness("reset-constant", text, "E<> A.l2");
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
  A:
    initial: a
    locations: {a: {}, b: {urgent: true}, c: {}}
    edges:
      - {from: a, to: b, update: "n = 1"}
      - {from: b, to: c, update: "n = 2"}
system: [A]
"#;
    let (net, t) = witness("no-clocks", text, "E<> A.c and n == 2");
    assert_eq!(delays(&t), ["0", "0", "0"]);
    assert!(t.initial.clocks.is_empty());
    assert_eq!(trace::text(&net, &t), "state: A.a | n = 0\ndelay 0\nA: a -> b\nstate: A.b | n = 1\ndelay 0\nA: b -> c\nstate: A.c | n = 2\n");
}

#[test]
fn run_time_error_trace_ends_where_the_failing_guard_holds() {
    let text = r#"
model: error
clocks: [x]
variables:
  n: {range: [0, 1], init: 0}
templates:
  A:
    initial: l0
    locations: {l0: {}, l1: {}, l2: {}}
    edges:
      - {from: l0, to: l1, guard: "x >= 1", update: "x = 0"}
      - {from: l1, to: l2, guard: "x > 2", update: "n = 5"}
system: [A]
"#;
    let (loaded, net) = load_text("error", text);
    let p = loaded.query("q", "E<> A.l2").unwrap();
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
    assert!(t.steps.iter().all(|s| s.delay.is_integer() && s.after.clocks.iter().all(|c| c.is_integer())), "{}", trace::text(&net, &t));
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
