//! The IMITATOR importer (`.imi` models, `.imiprop` properties).
//!
//! - Twins written for these tests (tests/models/imitator/) exercise every
//!   construct read; each one's synthesised set equals the constraint argued
//!   in its comments, and the concrete check at fixed parameter values
//!   (zones at integer points, polyhedra at rational ones: an engine that
//!   does not synthesise) agrees with membership at every point of a grid.
//! - What is not supported yet is refused with one located `unsupported`
//!   diagnostic (exit 5 on the command line).
//! - The ignored test `benchmark_library_constraints` imports models of
//!   IMITATOR's benchmark library from their original `.imi` files (kept
//!   outside the repository, in /work/scratch/imitator or
//!   `$KAIROS_IMITATOR_DIR`) and compares kairos's set with the library's
//!   published one (`.res`), semantically. The files come from GitHub's
//!   DylanMarinho/IMITATOR-library: `.imi`/`.imiprop` from `benchmarks/` at
//!   commit 01f67219, `.res` from `files/res/` at commit 1cefe28c, copied
//!   flat into the folder (`cargo test --test suite import_imitator:: -- --ignored
//!   --nocapture` prints each constraint and its time).

use crate::common;

use std::path::Path;
use std::time::Instant;

use kairos::domain::poly::{Q, qr};
use kairos::engine::synth::{self, ParamSet, Synthesis};
use kairos::engine::{self, Options, Verdict};
use kairos::import::import_imitator;
use kairos::model::load::{Loaded, load_model};
use kairos::model::types::Property;
use kairos::syntax::yaml::Source;

const TWINS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/imitator");

/// The model `imi` (its YAML possibly edited by `edit`) and the synthesis
/// entry of the property `prop`.
fn import(name: &str, imi: &str, prop: &str, edit: impl Fn(String) -> String) -> (Loaded, Property) {
    let m = import_imitator(name, imi).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let formula = m.property(&format!("{name}prop"), prop).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let loaded = load_model(&Source::new(name.to_string(), edit(m.yaml))).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let mut p = loaded.query(name, &formula).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    p.synth = true;
    (loaded, p)
}

/// The exact set of `p`, and the time it took.
fn synthesise(loaded: &Loaded, p: &Property) -> (ParamSet, f64) {
    let start = Instant::now();
    let s = synth::synthesise(&loaded.model, p, &Options::default());
    let Synthesis::Done { set, approximation: None, .. } = s else { panic!("{}: no exact answer", p.name) };
    (set, start.elapsed().as_secs_f64())
}

/// The twin `stem`: its set equals `expected`, and the concrete check
/// agrees with it at `points`.
fn twin(stem: &str, expected: &str, points: &[Vec<Q>]) {
    let read = |ext: &str| std::fs::read_to_string(format!("{TWINS}/{stem}.{ext}")).unwrap();
    let (loaded, p) = import(&format!("{stem}.imi"), &read("imi"), &read("imiprop"), |y| y);
    let (set, _) = synthesise(&loaded, &p);
    let names = synth::names(&loaded.model);
    let want = synth::parse(expected, &names, &set.bounds).unwrap();
    assert!(set.same_set(&want), "{stem}: got {}, expected {expected}", set.text(&names));
    let concrete = Property { synth: false, ..p.clone() };
    for v in points {
        let net = kairos::network::build_with(&loaded.model, v).unwrap();
        let holds = match engine::check(&loaded.model, Some(&net), &concrete, &Options::default()).verdict {
            Verdict::Satisfied => true,
            Verdict::Violated => false,
            other => panic!("{stem} at {v:?}: {other:?}"),
        };
        assert_eq!(holds, set.contains(v), "{stem} at {v:?}: the concrete check says {holds}");
    }
}

fn ints(v: &[i64]) -> Vec<Q> {
    v.iter().map(|&x| Q::from_integer(x.into())).collect()
}

#[test]
fn gate_twin_is_safe_exactly_when_the_gate_is_faster() {
    let mut points: Vec<Vec<Q>> = Vec::new();
    for d in [0, 1, 4, 5, 6, 10] {
        for g in [0, 1, 5, 9, 10] {
            points.push(ints(&[d, g]));
        }
    }
    // On the diagonal and a tenth either side of it.
    for (d, g) in [((7, 2), (7, 2)), ((18, 5), (7, 2)), ((17, 5), (7, 2))] {
        points.push(vec![qr(d.0, d.1), qr(g.0, g.1)]);
    }
    twin("gate", "g < d", &points);
}

#[test]
fn counter_twin_stops_by_7_exactly_when_p_is_at_most_7_thirds() {
    let mut points: Vec<Vec<Q>> = [1, 2, 3, 4].iter().map(|&p| ints(&[p])).collect();
    points.extend([(7, 3), (71, 30), (69, 30), (5, 2)].iter().map(|&(n, d)| vec![qr(n, d)]));
    twin("counter", "p <= 7/3", &points);
}

/// What the translation writes for the constructs of the twins: the
/// binary channel (the first automaton sends), the blocked action's edge
/// left out, urgency, data and Boolean values, the `2 n` shorthand, an
/// integer variable nothing assigns as a constant.
#[test]
fn twins_translate_construct_by_construct() {
    let (code, yaml, err) = common::kairos(&["import", &format!("{TWINS}/gate.imi")]);
    assert_eq!(code, 0, "{err}");
    assert!(yaml.contains("approach: binary"), "{yaml}");
    assert!(yaml.contains(r#"{from: far, to: near, sync: "approach!", update: "x = 0"}"#), "{yaml}");
    assert!(yaml.contains(r#"{from: up, to: lowering, sync: "approach?", update: "y = 0"}"#), "{yaml}");
    assert!(yaml.contains("# left out (action `raise` is blocked)"), "{yaml}");
    assert!(!yaml.contains("raise:"), "{yaml}");
    assert!(yaml.contains("d: {min: 0, max: 10}"), "{yaml}");
    let (code, yaml, err) = common::kairos(&["import", &format!("{TWINS}/counter.imi")]);
    assert_eq!(code, 0, "{err}");
    for want in [
        "K: 3",
        "STEP: 1",
        "p: {min: 1, max: 4}",
        r#"ok: {type: bool, init: "false"}"#,
        "finish: {urgent: true}",
        r#"guard: "x == p && 2 * n < 2 * K", update: "x = 0; n = n + STEP""#,
        r#"guard: "n == K || n > K", update: "ok = true""#,
        r#"guard: "ok && !(n != K)""#,
    ] {
        assert!(yaml.contains(want), "{want} in {yaml}");
    }
}

/// `kairos synth MODEL.imi PROP.imiprop` reads both files.
#[test]
fn synth_reads_imi_and_imiprop_files() {
    let (code, out, err) =
        common::kairos(&["synth", &format!("{TWINS}/gate.imi"), &format!("{TWINS}/gate.imiprop"), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["properties"][0]["name"], "gate");
    assert_eq!(v["properties"][0]["constraint"], "g < d");
    assert_eq!(v["properties"][0]["exact"], true);
}

const BASE: &str = "var x : clock; p, q : parameter;
automaton a
actions: go;
loc l0: invariant x <= p
  when x >= q sync go do {x := 0} goto l0;
end
";

/// Each construct outside the subset: one `unsupported` diagnostic, at
/// (line, column).
#[test]
fn unsupported_constructs_are_refused_where_they_are() {
    let init = "init := { discrete = loc[a] := l0; continuous = x = 0 & p >= 0 & p <= 5 & q >= 0 & q <= 5; }";
    let cases: Vec<(String, usize, usize, &str)> = vec![
        (format!("{BASE}init := {{ discrete = loc[a] := l0; continuous = x = 0 & p >= 0 & q <= p; }}"), 7, 66, "several parameters"),
        (format!("{BASE}init := {{ discrete = loc[a] := l0; continuous = x = 0 & p > 0 & q >= 0; }}"), 7, 57, "strict bound"),
        (format!("{BASE}init := {{ discrete = loc[a] := l0; continuous = p >= 0 & q >= 0; }}"), 1, 5, "clock `x` is not set to 0"),
        (BASE.replace("x <= p", "x <= p / 2") + init, 4, 26, "division"),
        (BASE.replace("x <= p", "x <= 0.5") + init, 4, 24, "non-integer"),
        (BASE.replace("goto l0;", "goto l0;\n  flow {x' = 2}") + init, 6, 3, "`flow`"),
        (BASE.replace("var x : clock;", "var x : clock; w : binary(4);") + init, 1, 20, "`binary`"),
        (BASE.replace("do {x := 0}", "do {x := p}") + init, 5, 32, "clock update"),
        (BASE.replace("loc l0:", "loc l0[3]:") + init, 4, 7, "location costs"),
        (
            BASE.replace("end\n", "end\nautomaton b\nactions: go;\nloc m: invariant True\n  when True sync go goto m;\nend\nautomaton c\nactions: go;\nloc n: invariant True\n  when True sync go goto n;\nend\n")
                + &init.replace("loc[a] := l0", "loc[a] := l0, loc[b] := m, loc[c] := n"),
            13,
            10,
            "three or more automata",
        ),
    ];
    for (text, line, column, words) in cases {
        let d = match import_imitator("m.imi", &text) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(d) => d,
        };
        assert_eq!(d.len(), 1, "one diagnostic for {words}: {d:?}");
        assert_eq!(d[0].code, "unsupported", "{words}: {d:?}");
        assert!(d[0].message.contains(words), "{words}: {}", d[0].message);
        assert_eq!((d[0].loc.pos.line, d[0].loc.pos.column), (line, column), "{words}: {}", d[0].message);
    }
    let m = import_imitator("m.imi", &format!("{BASE}{init}")).unwrap();
    for (prop, column, words) in [
        ("#witness EF(loc[a] = l0)", 2, "`#witness`"),
        ("property := #synth EFpmin(loc[a] = l0, p)", 20, "`EFpmin`"),
        ("#synth EF(accepting)", 11, "`accepting`"),
    ] {
        let d = m.property("m.imiprop", prop).unwrap_err();
        assert_eq!(d.len(), 1, "{prop}: {d:?}");
        assert_eq!(d[0].code, "unsupported", "{prop}: {d:?}");
        assert!(d[0].message.contains(words), "{words}: {}", d[0].message);
        assert_eq!((d[0].loc.pos.line, d[0].loc.pos.column), (1, column), "{prop}");
    }
}

/// Nesting and long chains of operators are bounded: a located error, not
/// a stack overflow (the walks over expressions are recursive).
#[test]
fn deep_expressions_are_errors_not_crashes() {
    let init = "init := { discrete = loc[a] := l0; continuous = x = 0 & p >= 0 & p <= 5 & q >= 0 & q <= 5; }";
    let nested = format!("{}x{}", "(".repeat(100_000), ")".repeat(100_000));
    let chain = vec!["x <= p"; 100_000].join(" & ");
    let negated = format!("{}x", "-".repeat(100_000));
    for inv in [nested, chain, negated] {
        let text = BASE.replace("x <= p\n", &format!("{inv}\n")) + init;
        let d = import_imitator("m.imi", &text).expect_err("refused");
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].code, "too-deep", "{d:?}");
        assert_eq!(d[0].loc.pos.line, 4, "{d:?}");
    }
    // A long but shallow enough chain is read.
    let chain = vec!["x <= p"; 500].join(" & ");
    assert!(import_imitator("m.imi", &(BASE.replace("x <= p\n", &format!("{chain}\n")) + init)).is_ok());
}

/// IMITATOR writes `2 x` for `2 * x`, but a number before a keyword
/// (`invariant x <= 3` and then `loc`) ends the expression.
#[test]
fn a_number_before_a_keyword_is_not_a_product() {
    let text = BASE.replace("end\n", "loc l1: invariant x <= 3\nloc l2: invariant 2 x <= 2 p\nend\n")
        + "init := { discrete = loc[a] := l0; continuous = x = 0 & p >= 0 & p <= 5 & q >= 0 & q <= 5; }";
    let m = import_imitator("m.imi", &text).unwrap_or_else(|d| panic!("{d:?}"));
    assert!(m.yaml.contains(r#"l1: {invariant: "x <= 3"}"#), "{}", m.yaml);
    assert!(m.yaml.contains(r#"l2: {invariant: "2 * x <= 2 * p"}"#), "{}", m.yaml);
}

/// Every prefix of the twins (model and property) is read without a
/// panic: accepted, or refused with diagnostics.
#[test]
fn every_prefix_of_the_twins_is_read_without_panicking() {
    for stem in ["gate", "counter"] {
        let read = |ext: &str| std::fs::read_to_string(format!("{TWINS}/{stem}.{ext}")).unwrap();
        let (imi, prop) = (read("imi"), read("imiprop"));
        let whole = import_imitator("m.imi", &imi).unwrap();
        for (k, _) in imi.char_indices() {
            if let Err(d) = import_imitator("m.imi", &imi[..k]) {
                assert!(!d.is_empty(), "{stem} cut at {k}");
            }
        }
        for (k, _) in prop.char_indices() {
            if let Err(d) = whole.property("m.imiprop", &prop[..k]) {
                assert!(!d.is_empty(), "{stem}.imiprop cut at {k}");
            }
        }
    }
}

/// On the command line: exit 5, the file, line and column.
#[test]
fn the_command_line_says_where_and_exits_5() {
    let dir = std::env::temp_dir().join(format!("kairos-imitator-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("nary.imi");
    let text = format!(
        "{BASE}automaton b\nactions: go;\nloc m: invariant True\n  when True sync go goto m;\nend\nautomaton c\nactions: go;\nloc n: invariant True\n  when True sync go goto n;\nend\ninit := {{ discrete = loc[a] := l0, loc[b] := m, loc[c] := n; continuous = x = 0 & p >= 0 & p <= 1 & q >= 0 & q <= 1; }}"
    );
    std::fs::write(&file, text).unwrap();
    for cmd in ["import", "check"] {
        let (code, _, err) = common::kairos(&[cmd, file.to_str().unwrap()]);
        assert_eq!(code, 5, "{cmd}: {err}");
        assert!(err.contains("nary.imi:13:10"), "{cmd}: {err}");
        assert_eq!(err.matches("[unsupported]").count(), 1, "{cmd}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The library's benchmark models, their property and the box the
/// comparison is made in (IMITATOR's parameters are unbounded above; kairos
/// synthesises in a box, so each unbounded parameter gets `max: BOX`, and
/// the published set is compared within the same box).
const BENCHMARKS: &[(&str, &str, &str)] = &[
    ("coffee", "coffee-EF", "coffee-EF"),
    ("Train1PTA", "Train1PTA-AGnot", "Train1PTA-AGnot"),
    ("NuclearPlant", "NuclearPlant-AGnot", "NuclearPlant-AGnot"),
    ("NoodlesCooking", "NoodlesCooking-AGnot", "NoodlesCooking-AGnot"),
    ("fischerPAT2", "fischerPAT2-AGnot", "fischerPAT2-AGnot"),
    ("fig1_DCLXZL18-fixed", "fig1_DCLXZL18-EF", "fig1_DCLXZL18-fixed-EF"),
    ("jobshop_2_4", "jobshop_2_4-EF", "jobshop_2_4-EF"),
    // About 80 s in the test profile (IMITATOR: 2 s).
    ("fischerPAT3", "fischerPAT3-AGnot", "fischerPAT3-AGnot"),
];
const BOX: &str = "30";

/// The constraint between `BEGIN CONSTRAINT` and `END CONSTRAINT` of an
/// IMITATOR result file, in kairos's constraint syntax.
fn published(res: &str) -> Option<String> {
    let body = res.split("BEGIN CONSTRAINT").nth(1)?.split("END CONSTRAINT").next()?;
    let mut out = String::new();
    for tok in body.split_whitespace() {
        let tok = match tok {
            "&" => "and".to_string(),
            "OR" => ")\nor (".to_string(),
            "True" => "true".to_string(),
            "False" => "false".to_string(),
            t => t.replace('*', " * "),
        };
        out.push_str(&tok);
        out.push(' ');
    }
    Some(format!("({})", out.trim()))
}

#[test]
#[ignore = "needs IMITATOR's benchmark library in /work/scratch/imitator (or $KAIROS_IMITATOR_DIR)"]
fn benchmark_library_constraints() {
    let dir = std::env::var("KAIROS_IMITATOR_DIR").unwrap_or_else(|_| "/work/scratch/imitator".to_string());
    if !Path::new(&dir).is_dir() {
        println!("skipped: {dir} is missing (fetch IMITATOR's benchmark library there)");
        return;
    }
    for (model, prop, result) in BENCHMARKS {
        let read = |f: String| std::fs::read_to_string(Path::new(&dir).join(f));
        let (Ok(imi), Ok(imiprop), Ok(res)) =
            (read(format!("{model}.imi")), read(format!("{prop}.imiprop")), read(format!("{result}.res")))
        else {
            println!("skipped {model}: its .imi, .imiprop or .res file is missing from {dir}");
            continue;
        };
        let unbounded = |y: String| y.replace("{min: 0}", &format!("{{min: 0, max: {BOX}}}"));
        let (loaded, p) = import(&format!("{model}.imi"), &imi, &imiprop, unbounded);
        let (set, seconds) = synthesise(&loaded, &p);
        let names = synth::names(&loaded.model);
        let text = published(&res).expect("a BEGIN/END CONSTRAINT block");
        let want = synth::parse(&text, &names, &set.bounds).unwrap_or_else(|e| panic!("{model}: {text}: {e}"));
        println!("{prop}: published {} | kairos {} | {seconds:.2} s", want.text(&names), set.text(&names));
        assert!(set.same_set(&want), "{prop}: kairos {} but IMITATOR {text}", set.text(&names));
    }
}
