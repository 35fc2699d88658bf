//! The typed pipeline, past the parsers: a property, a guard, an invariant
//! or an update of fuzzed text, typed and compiled against a fixed network,
//! then checked, and every trace made concrete and replayed. A panic is a
//! finding, and so is a trace the replay validator refuses (a wrong
//! witness or counterexample): the check is the whole path a user's
//! formula takes, not only the grammar.
//!
//! Input: byte 0 picks the network ([`MODELS`]), byte 1 what the rest of
//! the bytes (UTF-8 text on one line) is: 0 a property (`-q`), 1 the guard,
//! 2 the invariant, 3 the update of the network's marked edge or location
//! (the model's own properties are then checked).

use kairos::engine::reach::Limits;
use kairos::engine::{self, Options};
use kairos::model::load::load_model;
use kairos::syntax::yaml::Source;

/// States each check may store.
const MAX_STATES: u64 = 200;

/// Networks with a slot `@GUARD@`, `@INV@` and `@UPDATE@` each, filled with
/// a default when the input is about another slot.
const MODELS: [&str; 3] = [
    // Two processes, a binary channel, data and an array, a committed and
    // an urgent location.
    "model: fuzz-a
constants: {N: 2}
variables:
  n: {range: [0, 3], init: 0}
  b: {type: bool, init: false}
  a: {range: [0, 3], size: 3, init: [0, 1, 2]}
channels: {c: binary, bc: broadcast}
templates:
  P:
    params: [id]
    clocks: [x, y]
    initial: l0
    locations:
      l0: {invariant: \"@INV@\"}
      l1: {labels: [hot]}
      l2: {committed: true}
      l3: {urgent: true}
    edges:
      - {from: l0, to: l1, guard: \"@GUARD@\", sync: \"c!\", update: \"@UPDATE@\"}
      - {from: l0, to: l1, sync: \"c?\", update: \"y = 0\"}
      - {from: l1, to: l2, guard: \"x >= 1\", update: \"x = 0\"}
      - {from: l2, to: l3, update: \"b = !b\"}
      - {from: l3, to: l0, sync: \"bc!\", update: \"n = (n + 1) % 4\"}
      - {from: l1, to: l0, sync: \"bc?\"}
system: [P(1..N)]
properties:
  - {check: \"E<> P(1).l1 and P(2).l1\"}
  - {check: \"A[] not (P(1).l2 and P(1).x > 0)\"}
  - {check: \"P(1).l1 --> P(1).l0\"}
  - {check: \"A[] not deadlock\"}
",
    // One process with a diagonal constraint and three clocks.
    "model: fuzz-b
variables:
  k: {range: [-2, 2], init: 0}
templates:
  Q:
    clocks: [x, y, z]
    initial: s
    locations:
      s: {invariant: \"@INV@\"}
      t: {invariant: \"z <= 4\"}
    edges:
      - {from: s, to: t, guard: \"@GUARD@\", update: \"@UPDATE@\"}
      - {from: t, to: s, guard: \"x - y <= 2 and z >= 1\", update: \"z = 0; y = 0\"}
system: [Q]
properties:
  - {check: \"E<> Q.t and Q.x - Q.y > 1\"}
  - {check: \"A[] (Q.t imply Q.z <= 4)\"}
  - {check: \"E<> deadlock\"}
",
    // Urgent and broadcast channels, a shared clock.
    "model: fuzz-c
clocks: [g]
variables:
  m: {range: [0, 2], init: 0}
channels:
  u: {kind: binary, urgent: true}
  go: broadcast
templates:
  R:
    params: [id]
    clocks: [x]
    initial: idle
    locations:
      idle: {invariant: \"@INV@\"}
      busy: {invariant: \"x <= 3\"}
    edges:
      - {from: idle, to: busy, guard: \"@GUARD@\", sync: \"go!\", update: \"@UPDATE@\"}
      - {from: idle, to: busy, sync: \"go?\", update: \"x = 0\"}
      - {from: busy, to: idle, guard: \"m < 2\", sync: \"u!\", update: \"m += 1\"}
      - {from: busy, to: idle, sync: \"u?\"}
system: [R(1..2)]
properties:
  - {check: \"E<> R(1).busy and g >= 2\"}
  - {check: \"A[] (R(1).busy imply R(1).x <= 3)\"}
  - {check: \"A<> R(1).busy\"}
  - {check: \"R(1).busy -->[<= 4] R(1).idle\"}
",
];

const DEFAULTS: [(&str, &str); 3] = [("@GUARD@", "true"), ("@INV@", "true"), ("@UPDATE@", "x = 0")];

/// One input: must return, whatever the bytes.
pub fn run(data: &[u8]) {
    let [which, mode, rest @ ..] = data else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    // One line of text that a YAML double-quoted scalar holds as it is.
    if text.chars().any(|c| c.is_control() || c == '"' || c == '\\') {
        return;
    }
    let mut yaml = MODELS[*which as usize % MODELS.len()].to_string();
    let slot = match mode % 4 {
        0 => None,
        1 => Some("@GUARD@"),
        2 => Some("@INV@"),
        _ => Some("@UPDATE@"),
    };
    for (name, default) in DEFAULTS {
        yaml = yaml.replace(name, if slot == Some(name) { text } else { default });
    }
    let Ok(loaded) = load_model(&Source::new("fuzz.yaml", yaml)) else { return };
    let Ok(net) = kairos::network::build(&loaded.model) else { return };
    let options =
        Options { limits: Limits { max_states: Some(MAX_STATES), ..Limits::default() }, ..Options::default() };
    let query;
    let properties = if slot.is_none() {
        let Ok(p) = loaded.query("fuzz", text) else { return };
        query = [p];
        &query[..]
    } else {
        &loaded.model.properties[..]
    };
    for p in properties {
        let outcome = engine::check(&loaded.model, Some(&net), p, &options);
        // An observer's traces are runs of the network with the observer.
        let on = outcome.network.as_deref().unwrap_or(&net);
        for t in outcome.trace.iter().chain(outcome.warnings.iter().filter_map(|w| w.trace.as_ref())) {
            if let Err(e) = kairos::trace::concretise(on, t) {
                panic!("`{}`: {:?}: the trace does not replay: {e}", p.text, outcome.verdict);
            }
        }
    }
}
