//! Broadcasts cut by the zone (`semantics::broadcast`): the steps a state's
//! zone allows are exactly those of the full enumeration whose clock guards
//! hold together somewhere in the zone, in the same order; checked against
//! that enumeration, guard by guard, on every state of a few levels of the
//! graph.

use crate::common;

use std::path::Path;

use kairos::semantics::{Abstraction, Transition, ZoneGraph, ZoneState};

/// A sender and `k` receivers, each with two clock-guarded receiving edges
/// (3 × 3 ways to stay out, 11 options each), clocks reset at different
/// times so that the zones differ from state to state. With `one_edge`,
/// one receiving edge each that resets nothing: a graph of a few states
/// whose broadcasts each have 3^k choices.
fn model(k: usize, one_edge: bool) -> String {
    let receiving = if one_edge {
        "      - {from: a, to: a, guard: \"x == i\", sync: \"go?\"}\n"
    } else {
        "      - {from: a, to: b, guard: \"x == i\", sync: \"go?\", update: \"x = 0\"}
      - {from: a, to: a, guard: \"x >= i + 1 && x < i + 3\", sync: \"go?\"}
      - {from: b, to: a, guard: \"x > 1\", sync: \"go?\"}\n"
    };
    format!(
        "model: broadcast-cut
channels:
  go: broadcast
templates:
  S:
    clocks: [y]
    initial: s0
    locations:
      s0: {{invariant: \"y <= 5\"}}
    edges:
      - {{from: s0, to: s0, guard: \"y >= 1\", sync: \"go!\", update: \"y = 0\"}}
  R:
    params: [i]
    clocks: [x]
    initial: a
    locations:
      a: {{}}
      b: {{}}
    edges:
{receiving}system:
  - S
  - R(1..{k})
"
    )
}

/// The steps of `t` whose clock guards hold somewhere in `s`'s zone.
fn feasible(zg: &mut ZoneGraph, s: &ZoneState, all: &[Transition]) -> Vec<Transition> {
    all.iter()
        .filter(|t| {
            let mut z = s.zone.clone();
            zg.guard(&s.discrete, t, &mut z).unwrap()
        })
        .cloned()
        .collect()
}

#[test]
fn the_zone_keeps_exactly_the_steps_whose_guards_can_hold() {
    let path = common::scratch("broadcast-cut.yaml", &model(4, false));
    let loaded = common::load(Path::new(&path)).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let mut zg = ZoneGraph::new(&net, Abstraction::Lu);
    let mut level = Vec::new();
    zg.initial(&mut level).unwrap();
    let (mut all, mut cut, mut next) = (Vec::new(), Vec::new(), Vec::new());
    let (mut states, mut enumerated, mut kept) = (0, 0, 0);
    // Once the search's limits say stop, no choice more is searched (on
    // polyhedra of many variables each costs a search's budget).
    zg.transitions_of(&level[0], &mut cut, &mut || false).unwrap();
    assert!(cut.is_empty(), "every step of this model is a broadcast to clock-guarded receivers");
    for _ in 0..4 {
        let mut below = Vec::new();
        for s in &level {
            zg.transitions(&s.discrete, &mut all).unwrap();
            zg.transitions_of(s, &mut cut, &mut || true).unwrap();
            assert_eq!(cut, feasible(&mut zg, s, &all), "at {s:?}");
            // The successors from the full enumeration, for the next level.
            zg.successors_by(s, &all, &mut next).unwrap();
            below.extend(next.iter().map(|(n, _)| n.clone()));
            (states, enumerated, kept) = (states + 1, enumerated + all.len(), kept + cut.len());
        }
        level = below;
    }
    // Up to 11^4 choices per broadcast; the zones allow a few each.
    assert!(states >= 50, "{states} states");
    assert!(kept > states && kept * 100 < enumerated, "{states} states: {kept} kept of {enumerated}");
}

/// Twenty-six receivers (the Herschel-Planck models' count): 3^26 choices
/// per broadcast, which the full enumeration never finishes (nor stops at
/// `--timeout`); with the cut the whole graph is explored.
#[test]
fn many_receivers_with_clock_guards_are_explored() {
    let path = common::scratch("broadcast-cut-26.yaml", &model(26, true));
    let out = common::kairos_within(&["check", &path], 60, 30);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("explored the whole zone graph"), "{text}");
}
