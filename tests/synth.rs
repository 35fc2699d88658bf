//! Parametric synthesis against an independent oracle: for each synthesised
//! constraint, the concrete check at fixed parameter values (`--param`:
//! zones at integer points, polyhedra at rational ones) agrees with
//! membership in the constraint at every point of a grid and at rational
//! points on and next to the boundary; and each constraint equals, as a
//! set, the one argued in the model's comments (the spec's `expect:`).

use crate::common;

use std::path::Path;

use kairos::domain::poly::{Q, qr};
use kairos::engine::synth::{self, Synthesis};
use kairos::engine::{self, Options, Verdict};
use kairos::model::decl::Expect;

/// Synthesises every `synth:` entry of `specs/NAME.yaml`, checks it equals
/// its `expect:`, and compares it with concrete checks at `points`.
fn agrees(name: &str, points: &[Vec<Q>]) {
    let loaded = common::load(&Path::new("models").join(format!("{name}.yaml"))).unwrap();
    let spec = loaded.spec(&common::source(&Path::new("specs").join(format!("{name}.yaml")))).unwrap();
    let model = &loaded.model;
    let names = synth::names(model);
    let mut synthesised = 0;
    for p in spec.properties.iter().filter(|p| p.synth) {
        let Synthesis::Done { set, approximation: None, .. } = synth::synthesise(model, p, &Options::default()) else {
            panic!("{name} {}: no exact answer", p.name)
        };
        synthesised += 1;
        let Some(Expect::Constraint(want)) = &p.expect else { continue };
        let want = synth::parse(&want.as_scalar().unwrap().value, &names, &set.bounds).unwrap();
        assert!(set.same_set(&want), "{name} {}: got {}, expected {}", p.name, set.text(&names), want.text(&names));
        let concrete = kairos::model::types::Property { synth: false, ..p.clone() };
        for v in points {
            let net = kairos::network::build_with(model, v).unwrap();
            let o = engine::check(model, Some(&net), &concrete, &Options::default());
            let holds = match o.verdict {
                Verdict::Satisfied => true,
                Verdict::Violated => false,
                other => panic!("{name} {} at {v:?}: {other:?}", p.name),
            };
            assert_eq!(holds, set.contains(v), "{name} {} at {v:?}: concrete {holds}", p.name);
        }
    }
    assert!(synthesised > 0, "{name} has synth entries");
}

fn ints(v: &[i64]) -> Vec<Q> {
    v.iter().map(|&x| Q::from_integer(x.into())).collect()
}

#[test]
fn fischer_is_safe_exactly_when_b_exceeds_a() {
    let mut points = Vec::new();
    for a in [0, 1, 3, 10] {
        for b in [0, 1, 2, 3, 4, 10] {
            points.push(ints(&[a, b]));
        }
    }
    // On the diagonal and a tenth either side of it.
    for (a, b) in [((3, 2), (3, 2)), ((3, 2), (8, 5)), ((3, 2), (7, 5)), ((1, 3), (1, 3)), ((1, 3), (2, 5))] {
        points.push(vec![qr(a.0, a.1), qr(b.0, b.1)]);
    }
    agrees("fischer-param", &points);
}

#[test]
fn railroad_is_safe_exactly_when_the_gate_is_down_in_time() {
    let mut points = Vec::new();
    for d in [0, 2, 5, 10] {
        for s in [0, 3, 7] {
            for g in [0, 2, 5] {
                points.push(ints(&[d, s, g]));
            }
        }
    }
    // dApproach at, just above and just below dStartDown + dGetDown.
    for (d, s, g) in [((9, 2), (2, 1), (5, 2)), ((91, 20), (2, 1), (5, 2)), ((89, 20), (2, 1), (5, 2))] {
        points.push(vec![qr(d.0, d.1), qr(s.0, s.1), qr(g.0, g.1)]);
    }
    agrees("railroad-param", &points);
}

#[test]
fn hytech_crossing_is_safe_exactly_from_m_7() {
    let points: Vec<Vec<Q>> =
        [(0, 1), (6, 1), (13, 2), (69, 10), (7, 1), (71, 10), (20, 1)].iter().map(|&(n, d)| vec![qr(n, d)]).collect();
    agrees("hytech-crossing", &points);
}

/// The printed constraint reads back as the same set, and the JSON carries
/// the fields FORMAT.md section 4 names.
#[test]
fn the_command_prints_the_constraint_and_its_polyhedra() {
    let (code, out, err) = common::kairos(&[
        "synth",
        "models/railroad-param.yaml",
        "-q",
        "A[] (crossing imply gate_down)",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let p = &v["properties"][0];
    assert_eq!(p["verdict"], "synthesised");
    assert_eq!(p["exact"], true);
    assert_eq!(p["constraint"], "dStartDown + dGetDown < dApproach");
    assert_eq!(p["polyhedra"].as_array().unwrap().len(), 1);
    let (code, out, _) = common::kairos(&["synth", "models/fischer-param.yaml", "specs/fischer-param.yaml"]);
    assert_eq!(code, 0);
    assert!(out.contains("mutual-exclusion: synthesised: a < b (exact"), "{out}");
    // A wrong expectation is a mismatch (exit 1), compared as sets.
    let (code, _, _) = common::kairos(&["synth", "models/railroad-param.yaml", "-q", "E<> Crossing.passed"]);
    assert_eq!(code, 0);
}
