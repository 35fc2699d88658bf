//! Concrete traces printed for people (text) and programs (JSON, FORMAT.md
//! section 7).

use crate::trace_support;

use kairos::trace;
use serde_json::json;
use trace_support::{STRICT, witness};

#[test]
fn json_of_a_strict_run() {
    let (net, t) = witness("strict", STRICT, "E<> Aut.l2");
    let state =
        |loc: &str, x: &str, y: &str| json!({"locations": {"Aut": loc}, "vars": {}, "clocks": {"x": x, "y": y}});
    let edge = |from: &str, to: &str| json!([{"instance": "Aut", "from": from, "to": to, "sync": null}]);
    assert_eq!(
        trace::json(&net, &t),
        json!([
            {"delay": "0", "edges": [], "state": state("l0", "0", "0")},
            {"delay": "3", "edges": edge("l0", "l1"), "state": state("l1", "3", "0")},
            {"delay": "3", "edges": edge("l1", "l2"), "state": state("l2", "6", "3")},
        ])
    );
}

const SELECT: &str = r#"
model: select
constants:
  N: 3
clocks: [t]
variables:
  ready: {type: bool, init: false}
channels:
  go: {kind: binary, size: N}
templates:
  Sender:
    initial: s0
    locations: {s0: {}, s1: {}}
    edges:
      - {from: s0, to: s1, guard: "t > 1 && t < 2", sync: "go[2]!", update: "ready = true"}
  Worker:
    params: [id]
    initial: idle
    locations: {idle: {}, busy: {}}
    edges:
      - {from: idle, to: busy, select: "i : 0..N-1", guard: "i == id", sync: "go[i]?"}
system:
  - Sender
  - Worker(0..N-1)
"#;

#[test]
fn selects_channel_arrays_and_fractions_are_printed() {
    let (net, t) = witness("select", SELECT, "E<> Worker(2).busy");
    assert_eq!(
        trace::text(&net, &t),
        "state: Sender.s0 Worker(0).idle Worker(1).idle Worker(2).idle | ready = false | t = 0\n\
         delay 3/2\n\
         Sender: s0 -> s1  go[2]!   Worker(2): idle -> busy  go[2]?  [i = 2]\n\
         state: Sender.s1 Worker(0).idle Worker(1).idle Worker(2).busy | ready = true | t = 3/2\n"
    );
    let steps = trace::json(&net, &t);
    assert_eq!(steps[1]["delay"], "3/2");
    assert_eq!(
        steps[1]["edges"][1],
        json!({"instance": "Worker(2)", "from": "idle", "to": "busy", "sync": "go[2]?", "select": {"i": 2}})
    );
    assert_eq!(steps[1]["state"]["vars"], json!({"ready": true}));
    assert_eq!(steps[1]["state"]["clocks"], json!({"t": "3/2"}));
}

#[test]
fn a_final_delay_is_a_step_without_edges() {
    let (net, t) = witness("strict", STRICT, "E<> Aut.l1 and y >= 2");
    let steps = trace::json(&net, &t);
    let last = &steps[steps.as_array().unwrap().len() - 1];
    assert_eq!(last["delay"], "2");
    assert_eq!(last["edges"], json!([]));
    assert_eq!(last["state"]["clocks"], json!({"x": "5", "y": "2"}));
    assert!(trace::text(&net, &t).ends_with("delay 2\nstate: Aut.l1 | x = 5, y = 2\n"));
}
