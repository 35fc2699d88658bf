//! The replay checker rejects corrupted traces, each with a message that
//! says where and why.

use crate::trace_support;

use kairos::semantics::Transition;
use kairos::trace::{self, ConcreteStep};
use trace_support::{BROADCAST, COMMITTED, STRICT, r, witness};

fn rejected(net: &kairos::network::Network, t: &trace::ConcreteTrace, needle: &str) {
    match trace::validate(net, t) {
        Ok(()) => panic!("accepted a corrupted trace:\n{}", trace::text(net, t)),
        Err(e) => assert!(e.contains(needle), "`{e}` should mention `{needle}`"),
    }
}

#[test]
fn a_longer_delay_breaks_the_recorded_clocks() {
    let (net, mut t) = witness("strict", STRICT, "E<> Aut.l2");
    t.steps[0].delay = r("4");
    rejected(&net, &t, "step 1 (Aut: l0 -> l1): clock x is recorded as 3 but should be 4");
}

#[test]
fn a_delay_past_a_strict_bound_breaks_the_guard() {
    let text = STRICT.replace("\"x > 2\"", "\"x > 2 && x < 3\"");
    let (net, mut t) = witness("strict-narrow", &text, "E<> Aut.l2");
    assert_eq!(t.steps[0].delay, r("5/2"));
    t.steps[0].delay = r("3");
    t.steps[0].after.clocks[0] = r("3");
    rejected(&net, &t, "the guard `x < 3` of Aut's edge fails at x = 3, y = 3");
}

#[test]
fn a_negative_delay_is_rejected() {
    let (net, mut t) = witness("strict", STRICT, "E<> Aut.l2");
    t.final_delay = r("-1/2");
    rejected(&net, &t, "final delay: negative delay -1/2");
}

#[test]
fn a_corrupted_clock_value_is_rejected() {
    let (net, mut t) = witness("strict", STRICT, "E<> Aut.l2");
    t.steps[1].after.clocks[1] = r("7/2");
    rejected(&net, &t, "step 2 (Aut: l1 -> l2): clock y is recorded as 7/2 but should be 3");
}

#[test]
fn clocks_start_at_zero() {
    let (net, mut t) = witness("strict", STRICT, "E<> Aut.l2");
    t.initial.clocks[1] = r("1");
    rejected(&net, &t, "initial state: clock y starts at 1, not 0");
}

#[test]
fn a_dropped_broadcast_receiver_is_rejected() {
    let (net, mut t) = witness("broadcast", BROADCAST, "E<> S.s1");
    let step = &mut t.steps[0];
    assert_eq!(step.transition.edges.len(), 3);
    step.transition.edges.pop();
    step.after.discrete.locs[3] = 0;
    rejected(&net, &t, "R(3) can receive broadcast go but does not take part");
}

#[test]
fn a_disabled_broadcast_receiver_is_rejected() {
    let (net, mut t) = witness("broadcast", BROADCAST, "E<> S.s1");
    // R(2)'s guard `id != 2` is false.
    t.steps[0].transition.edges.insert(2, (2, 0));
    t.steps[0].after.discrete.locs[2] = 1;
    rejected(&net, &t, "the data guard of R(2)'s edge");
}

#[test]
fn time_does_not_pass_in_a_committed_location() {
    let (net, mut t) = witness("committed-pair", COMMITTED, "E<> Aut.c and B.q");
    let b = t.steps.iter().position(|s| s.transition.edges == [(0, 0)]).expect("Aut: a -> b");
    t.steps[b + 1].delay = r("1/2");
    rejected(&net, &t, "delay 1/2 in the committed location Aut.b");
}

#[test]
fn the_committed_rule_is_enforced() {
    let (net, t) = witness("committed-pair", COMMITTED, "E<> Aut.c and B.q");
    // Rebuild the run with B moving while Aut sits in its committed `b`.
    let mut bad = t.clone();
    bad.steps.clear();
    let mut at = t.initial.clone();
    for edges in [vec![(0u32, 0u32)], vec![(1, 0)], vec![(0, 1)]] {
        let mut after = at.clone();
        for &(p, e) in &edges {
            after.discrete.locs[p as usize] = net.processes[p as usize].edges[e as usize].to;
        }
        if edges == [(0, 0)] {
            after.clocks = vec![r("1")];
        }
        let delay = if edges == [(0, 0)] { r("1") } else { r("0") };
        bad.steps.push(ConcreteStep {
            delay,
            transition: Transition { edges, out: Vec::new(), unless: Vec::new() },
            after: after.clone(),
        });
        at = after;
    }
    bad.final_delay = r("0");
    rejected(
        &net,
        &bad,
        "step 2 (B: p -> q): some process is in a committed location but no edge of the step leaves one",
    );
}

#[test]
fn data_must_follow_the_updates() {
    let text = r#"
model: counter
variables:
  n: {range: [0, 3], init: 0}
templates:
  Aut:
    initial: a
    locations: {a: {}, b: {}}
    edges:
      - {from: a, to: b, update: "n += 2"}
system: [Aut]
"#;
    let (net, mut t) = witness("counter", text, "E<> Aut.b");
    t.steps[0].after.discrete.data[0] = 1;
    rejected(&net, &t, "`n` is recorded as 1 but the updates give 2");
}

#[test]
fn an_enabled_urgent_channel_forbids_delay() {
    let text = r#"
model: urgent
channels:
  hurry: {kind: binary, urgent: true}
variables:
  n: {range: [0, 1], init: 0}
templates:
  S:
    initial: a
    locations: {a: {}, b: {}}
    edges:
      - {from: a, to: b, sync: "hurry!"}
  R:
    initial: p
    locations: {p: {}, q: {}}
    edges:
      - {from: p, to: q, guard: "n == 0", sync: "hurry?"}
system: [S, R]
"#;
    let (net, mut t) = witness("urgent", text, "E<> S.b");
    assert_eq!(t.steps[0].delay, r("0"));
    t.steps[0].delay = r("1");
    rejected(&net, &t, "delay 1 while a synchronisation on the urgent channel hurry is enabled");
}
