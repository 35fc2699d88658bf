//! Helpers shared by the `trace_*` tests: small models written inline,
//! and their witnesses made concrete and validated.
#![allow(dead_code)]

use kairos::engine::{self, Options, Verdict};
use kairos::model::load::{Loaded, load_model};
use kairos::network::Network;
use kairos::syntax::yaml::Source;
use kairos::trace::{self, ConcreteTrace, Rational};

pub fn load_text(name: &str, text: &str) -> (Loaded, Network) {
    let loaded = load_model(&Source::new(name, text.to_string())).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let net = kairos::network::build(&loaded.model).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    (loaded, net)
}

/// The symbolic outcome of `query`, expected to be `verdict`, made concrete
/// and validated.
pub fn concrete(loaded: &Loaded, net: &Network, query: &str, verdict: Verdict) -> ConcreteTrace {
    let p = loaded.query("q", query).unwrap_or_else(|d| panic!("{query}: {d:?}"));
    let o = engine::check(&loaded.model, Some(net), &p, &Options::default());
    assert_eq!(o.verdict, verdict, "{query}");
    let symbolic = o.trace.expect("a trace");
    let t = trace::concretise(net, &symbolic).unwrap_or_else(|e| panic!("{query}: {e}"));
    trace::validate(net, &t).unwrap_or_else(|e| panic!("{query}: {e}\n{}", trace::text(net, &t)));
    t
}

pub fn witness(name: &str, text: &str, query: &str) -> (Network, ConcreteTrace) {
    let (loaded, net) = load_text(name, text);
    let t = concrete(&loaded, &net, query, Verdict::Satisfied);
    (net, t)
}

pub fn r(s: &str) -> Rational {
    s.parse().unwrap()
}

pub fn delays(t: &ConcreteTrace) -> Vec<String> {
    t.steps.iter().map(|s| s.delay.to_string()).chain([t.final_delay.to_string()]).collect()
}

/// The location of process `p` at the end of the run.
pub fn end_loc(net: &Network, t: &ConcreteTrace, p: usize) -> String {
    let proc_ = &net.processes[p];
    proc_.locations[t.end().discrete.locs[p] as usize].name.clone()
}

pub const STRICT: &str = r#"
model: strict
clocks: [x, y]
templates:
  Aut:
    initial: l0
    locations: {l0: {}, l1: {}, l2: {}}
    edges:
      - {from: l0, to: l1, guard: "x > 2", update: "y = 0"}
      - {from: l1, to: l2, guard: "y >= 3"}
system: [Aut]
"#;

pub const BROADCAST: &str = r#"
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

/// A committed location between two steps of one process, and a second
/// process free to move at any time.
pub const COMMITTED: &str = r#"
model: committed-pair
clocks: [x]
templates:
  Aut:
    initial: a
    locations: {a: {}, b: {committed: true}, c: {}}
    edges:
      - {from: a, to: b, guard: "x >= 1"}
      - {from: b, to: c}
  B:
    initial: p
    locations: {p: {}, q: {}}
    edges:
      - {from: p, to: q}
system: [Aut, B]
"#;
