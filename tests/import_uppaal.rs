//! The UPPAAL importer on XML models written for the tests
//! (tests/models/uppaal/): each checks with the same verdicts as its YAML
//! twin, has the same zone graph, and round-trips through `kairos import`;
//! malformed or unsupported input gets a located error (exit 2 or 5), never a
//! panic.

use crate::common;

use std::path::{Path, PathBuf};

use common::kairos;
use kairos::engine::{self, Options, Verdict};
use kairos::import::{UppaalModel, import_uppaal};
use kairos::model::load::{Loaded, load_model};
use kairos::syntax::yaml::Source;
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/uppaal");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// (UPPAAL model, its YAML twin, its query file, the twin's spec if any).
const TWINS: &[(&str, &str, &str, Option<&str>)] = &[
    ("fischer.xml", "models/fischer.yaml", "fischer.q", Some("specs/fischer.yaml")),
    ("railway-crossing.xml", "models/railway-crossing.yaml", "railway-crossing.q", Some("specs/railway-crossing.yaml")),
    ("train-gate.xml", "models/train-gate.yaml", "train-gate.q", Some("specs/train-gate.yaml")),
    ("roll-call.xml", "tests/models/uppaal/roll-call.yaml", "roll-call.q", None),
    ("train-gate-functions.xml", "tests/models/uppaal/train-gate-functions.yaml", "train-gate-functions.q", None),
    ("one-based.xml", "tests/models/uppaal/one-based.yaml", "one-based.q", None),
    ("structs.xml", "tests/models/uppaal/structs.yaml", "structs.q", None),
    ("arrays.xml", "tests/models/functions/arrays.yaml", "arrays.q", None),
    ("clock-arrays.xml", "tests/models/uppaal/clock-arrays.yaml", "clock-arrays.q", None),
    ("partial.xml", "tests/models/uppaal/partial.yaml", "partial.q", None),
    ("struct-array-types.xml", "tests/models/uppaal/struct-array-types.yaml", "struct-array-types.q", None),
    ("clock-resets.xml", "tests/models/uppaal/clock-resets.yaml", "clock-resets.q", None),
];

fn xml(name: &str) -> PathBuf {
    Path::new(DIR).join(name)
}

fn root(name: &str) -> PathBuf {
    Path::new(ROOT).join(name)
}

fn render(d: &[kairos::diag::Diagnostic]) -> String {
    d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")
}

fn import(path: &Path) -> UppaalModel {
    let text = std::fs::read_to_string(path).unwrap();
    import_uppaal(&path.display().to_string(), &text).unwrap_or_else(|d| panic!("{}", render(&d)))
}

fn load(name: &str, yaml: &str) -> Loaded {
    load_model(&Source::new(name, yaml.to_string())).unwrap_or_else(|d| panic!("{name}: {}\n{yaml}", render(&d)))
}

fn verdict(loaded: &Loaded, name: &str, formula: &str) -> Verdict {
    let net = kairos::network::build(&loaded.model).unwrap_or_else(|d| panic!("{}", render(&d)));
    let p = loaded.query(name, formula).unwrap_or_else(|d| panic!("{name}: {formula}: {}", render(&d)));
    engine::check(&loaded.model, Some(&net), &p, &Options::default()).verdict
}

#[test]
fn verdicts_equal_the_yaml_twins() {
    let (mut satisfied, mut violated, mut measured) = (0, 0, 0);
    for (model, twin, q, _) in TWINS {
        let u = import(&xml(model));
        assert_eq!(u.line_map.len(), u.yaml.lines().count(), "{model}: line map");
        let mine = load(model, &u.yaml);
        let twin = load(twin, &std::fs::read_to_string(root(twin)).unwrap());
        let q_text = std::fs::read_to_string(xml(q)).unwrap();
        let queries = u.query_file(q, &q_text);
        assert!(queries.len() >= 5, "{q}: {} queries", queries.len());
        for query in &queries {
            let formula = match &query.formula {
                Ok(f) => f,
                Err(why) if why.code == "unsupported" => continue, // reported
                Err(why) => panic!("{q}: {why}"),
            };
            let a = verdict(&mine, &query.name, formula);
            let b = verdict(&twin, &query.name, formula);
            assert_eq!(a, b, "{model}: `{}` ({formula}, line {})", query.name, query.line);
            match a {
                Verdict::Satisfied => satisfied += 1,
                Verdict::Violated => violated += 1,
                Verdict::Measured(_) => measured += 1,
                Verdict::Unknown(_) => {} // liveness: no engine yet, for both
                Verdict::Error(e) => panic!("{model}: `{}`: run-time error {e}", query.name),
            }
        }
    }
    assert!(satisfied >= 20 && violated >= 4, "{satisfied} satisfied, {violated} violated");
    assert!(measured >= 5, "{measured} `sup`/`inf` queries measured");
}

/// `kairos check ... --format json`: property name -> verdict.
fn cli_verdicts(args: &[&str]) -> Vec<(String, String)> {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    all.extend(["--format", "json"]);
    let (_, out, err) = kairos(&all);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}\n{out}\n{err}"));
    v["properties"]
        .as_array()
        .unwrap_or_else(|| panic!("{args:?}: {out}"))
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_string(), p["verdict"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn query_files_agree_with_the_twins_specs() {
    for (model, twin, q, spec) in TWINS {
        let Some(spec) = spec else { continue };
        let (x, qf) = (xml(model), xml(q));
        let ours = cli_verdicts(&[&x.to_string_lossy(), &qf.to_string_lossy()]);
        let theirs = cli_verdicts(&[&root(twin).to_string_lossy(), &root(spec).to_string_lossy()]);
        let mut compared = 0;
        for (name, v) in &ours {
            if let Some((_, w)) = theirs.iter().find(|(n, _)| n == name) {
                assert_eq!(v, w, "{model}: `{name}`");
                compared += 1;
            }
        }
        assert!(compared + 3 >= theirs.len().min(ours.len()), "{model}: only {compared} properties compared");
    }
}

#[test]
fn zone_graphs_equal_the_twins_and_the_import_round_trip() {
    for (model, twin, _, _) in TWINS {
        let x = xml(model);
        let (code, graph, err) = kairos(&["graph", &x.to_string_lossy(), "--format", "yaml"]);
        assert_eq!(code, 0, "{model}: {err}");
        let (_, graph_twin, _) = kairos(&["graph", &root(twin).to_string_lossy(), "--format", "yaml"]);
        assert_eq!(graph, graph_twin, "{model}: the zone graph differs from its twin's");

        let out = std::env::temp_dir().join(format!("kairos-uppaal-{}-{model}.yaml", std::process::id()));
        let _ = std::fs::remove_file(&out);
        let (code, _, err) = kairos(&["import", &x.to_string_lossy(), "-o", &out.to_string_lossy()]);
        assert_eq!(code, 0, "{model}: {err}");
        let (_, graph_yaml, _) = kairos(&["graph", &out.to_string_lossy(), "--format", "yaml"]);
        assert_eq!(graph, graph_yaml, "{model}: the imported YAML has another zone graph");
        // Never written over.
        let (code, _, err) = kairos(&["import", &x.to_string_lossy(), "-o", &out.to_string_lossy()]);
        assert_eq!(code, 2, "{model}: {err}");
        // The model's own queries check the same from the YAML.
        // (Those kairos cannot check yet are reported `unknown` from the
        // XML, and are comments in the YAML.)
        let mut own = cli_verdicts(&[&x.to_string_lossy()]);
        let own_yaml = cli_verdicts(&[&out.to_string_lossy()]);
        own.retain(|(n, v)| own_yaml.iter().any(|(m, _)| m == n) || v != "unknown");
        assert_eq!(own, own_yaml, "{model}");
        std::fs::remove_file(&out).unwrap();
    }
}

#[test]
fn command_line_queries_use_uppaal_names_and_syntax() {
    let x = xml("fischer.xml");
    let x = x.to_string_lossy();
    let (code, out, err) =
        kairos(&["check", &x, "-q", "E<> P(1).cs and id == 1", "-q", "A[] not (P(1).cs && P(2).cs)"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.matches("satisfied").count(), 2, "{out}");
    // The model's own queries, a `sup` among them: the three stations
    // answer once per round, so `total` reaches 9 (roll-call.yaml).
    let (code, out, err) = kairos(&["check", &xml("roll-call.xml").to_string_lossy()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("all-rounds-done: satisfied"), "{out}");
    assert!(out.contains("most-answers: measured\n  sup: total\n  total <= 9 (the supremum, attained)"), "{out}");
}

// ---------------------------------------------------------------- errors

/// A minimal model around `decl` (global declarations), `body` (inside the
/// template `P`) and `system`.
fn model(decl: &str, body: &str, system: &str) -> String {
    format!(
        "<nta>\n<declaration>{decl}</declaration>\n<template><name>P</name>\n{body}\n</template>\n<system>{system}</system>\n</nta>\n"
    )
}

const LOCS: &str = "<location id=\"a\"><name>a</name></location><init ref=\"a\"/>";

fn edge(labels: &str) -> String {
    format!("{LOCS}\n<transition><source ref=\"a\"/><target ref=\"a\"/>{labels}</transition>")
}

/// Imports `text`; the first diagnostic, rendered `file:line:col: error[code]: ...`.
fn first_error(text: &str) -> String {
    match import_uppaal("m.xml", text) {
        Ok(u) => match load_model(&Source::new("m.yaml", u.yaml.clone())) {
            Ok(_) => panic!("accepted:\n{}", u.yaml),
            Err(d) => format!("yaml:{}: {}", u.source_line(d[0].loc.pos.line), d[0]),
        },
        Err(d) => d[0].to_string(),
    }
}

#[test]
fn errors_are_located() {
    let cases: Vec<(String, &str)> = vec![
        ("<nta><template>".into(), "m.xml:1:1: error[xml-error]: malformed XML"),
        ("<nta>\n<declaration>a < b</declaration>\n</nta>".into(), "m.xml:2:17: error[xml-error]: malformed XML"),
        ("<model/>".into(), "m.xml:1:1: error[xml-error]: the root element is <model>"),
        (
            model("int x;", &edge("<label kind=\"guard\">x &lt;= </label>"), "system P;"),
            "m.xml:5:75: error[syntax-error]: in a guard of `P`: expected an expression, found the end of the text",
        ),
        (
            model("int x;", &edge("<label kind=\"guard\">y == 1</label>"), "system P;"),
            "m.xml:5:67: error[unknown-name]: in a guard of `P`: `y` is not declared",
        ),
        (
            model("clock x;", &edge("<label kind=\"assignment\">x = x + 1, x++</label>"), "system P;"),
            "m.xml:5:76: error[type-error]: in an update of `P`: a clock is used where an integer is expected",
        ),
        (model("int x;", LOCS, "system P &lt; P;"), "error[duplicate-instance]: `P` appears twice in `system`"),
        (model("int x;", LOCS, ""), "error[missing-system]"),
        (
            model("int[1,5] x;", LOCS, "system P;"),
            "yaml:2: m.yaml:46:28: error[init-out-of-range]: initial value 0 of `x` is outside its range [1, 5]",
        ),
    ];
    for (text, want) in &cases {
        let got = first_error(text);
        assert!(got.contains(want), "want `{want}`, got `{got}`\n{text}");
    }
}

#[test]
fn unsupported_features_are_refused_at_their_place() {
    let cases: Vec<(String, &str)> = vec![
        (
            model(
                "int m[2][2]; void f(int &amp;a[2]) { a[0] = 1; }",
                &edge("<label kind=\"assignment\">f(m[1])</label>"),
                "system P;",
            ),
            "5:74: error[unsupported]: not supported yet: a row of an array passed to a function",
        ),
        (
            model("int n; void f() { assert(n &gt; 0); }", &edge("<label kind=\"assignment\">f()</label>"), "system P;"),
            "2:32: error[unsupported]: not supported yet: `assert(...)`, UPPAAL's run-time check",
        ),
        (
            model("struct { int a; int b; } s = {1};", LOCS, "system P;"),
            "2:39: error[unsupported]: not supported yet: this initialiser of a `struct` variable",
        ),
        (
            model("struct { int a; } s, t;", &edge("<label kind=\"guard\">s == t</label>"), "system P;"),
            "error[unsupported]: not supported yet: a structure used as a value",
        ),
        (model("hybrid clock h;", LOCS, "system P;"), "2:14: error[unsupported]: not supported yet: `hybrid` clocks"),
        (model("double d;", LOCS, "system P;"), "2:14: error[unsupported]: not supported yet: the type `double`"),
        (model("scalar[3] s;", LOCS, "system P;"), "2:14: error[unsupported]: not supported yet: `scalar` types"),
        (
            model("clock c[2]; int[0,1] k;", &edge("<label kind=\"assignment\">c[k] = 0</label>"), "system P;"),
            "5:74: error[unsupported]: not supported yet: an element of the clock array `c` chosen by the data",
        ),
        (
            model("clock c[2]; bool r[2];", "<location id=\"a\"><name>a</name><label kind=\"invariant\">c[0]' == r[0] || c[1] &lt;= 2</label></location><init ref=\"a\"/>", "system P;"),
            "error[unsupported]: not supported yet: a clock rate `x'` other than a conjunct `x' == e` of an invariant",
        ),
        (
            "<nta><declaration>clock c[2];</declaration>\n<template><name>P</name><parameter>const int[0,1] id</parameter>\n\
             <location id=\"a\"><name>a</name><label kind=\"invariant\">c[id] &lt;= 2</label></location><init ref=\"a\"/>\
             </template>\n<system>system P;</system></nta>"
                .into(),
            "error[unsupported]: not supported yet: `system P;` over a template whose parameter `id` indexes a clock array",
        ),
        (
            model("int a[2][2]; int b[2];", &edge("<label kind=\"assignment\">a[0] = b</label>"), "system P;"),
            "error[unsupported]: not supported yet: a row of an array assigned as a whole (in an update of `P`)",
        ),
        (
            model("void f() { int a[2] = 1; }", LOCS, "system P;"),
            "2:36: error[unsupported]: not supported yet: a local array initialised without `{...}`",
        ),
        (
            model("int x;", &format!("{LOCS}<foo/>"), "system P;"),
            "error[unsupported]: not supported yet: the element <foo> in <template>",
        ),
        (
            model("int x;", &edge("<label kind=\"guard\">x == 0</label>"), "system P; Pr[#&lt;=5](&lt;&gt; x == 1)"),
            "error[unsupported]: not supported yet: a `#` bound (statistical model checking)",
        ),
        (
            model("int x;", &edge("<label kind=\"guard\">(x xor 1) == 0</label>"), "system P;"),
            "error[unsupported]: not supported yet: `xor`",
        ),
        (
            model("int x;", &edge("<label kind=\"probability\">2</label>"), "system P;"),
            "error[unsupported]: not supported yet: a probability weight",
        ),
    ];
    let capture = format!(
        "<nta><declaration>bool b;</declaration>\n<template><name>P</name><parameter>bool &amp;r</parameter>\n\
         <declaration>bool b;</declaration>{LOCS}</template>\n<system>X = P(b); system X;</system></nta>"
    );
    let mut cases = cases;
    cases.push((
        capture,
        "m.xml:2:1: error[unsupported]: not supported yet: passing `b` for `r`: `b` is also a name of `P`",
    ));
    for (text, want) in &cases {
        let d = import_uppaal("m.xml", text).err().unwrap_or_else(|| panic!("accepted: {text}"));
        let got = d[0].to_string();
        assert!(got.contains(want), "want `{want}`, got `{got}`\n{text}");
        assert!(d.iter().all(|d| d.code == "unsupported"), "{}", render(&d));
    }
}

/// `progress`, `gantt` and the verifier's `<option>`s are skipped, as the
/// YAML's header says.
#[test]
fn presentation_and_search_hints_are_skipped() {
    let text = model("int x;", LOCS, "system P;\nprogress { x; }\ngantt { P: true -> 1; }")
        .replace("</nta>", "<queries><option key=\"--search-order\" value=\"1\"/><query><formula>A[] x == 0</formula></query></queries></nta>");
    let u = import_uppaal("m.xml", &text).unwrap_or_else(|d| panic!("{}", render(&d)));
    assert!(u.yaml.contains("`progress` and `gantt` blocks"), "{}", u.yaml);
    let loaded = load("m.yaml", &u.yaml);
    assert_eq!(verdict(&loaded, "m.yaml", "A[] x == 0"), Verdict::Satisfied);
}

/// Exponential rates only weight statistical model checking's delays: the
/// symbolic semantics ignores them, so the verdicts are those of the same
/// model without them (and the ones worked out by hand: `b` is entered at
/// `x == 0` after `x >= 2` in `a`, and left by `x <= 1`).
#[test]
fn exponential_rates_are_ignored_with_a_note() {
    let plain = "<nta><declaration>clock x;</declaration>\n<template><name>P</name>\n\
         <location id=\"a\"><name>a</name>RATE_A</location>\n\
         <location id=\"b\"><name>b</name><label kind=\"invariant\">x &lt;= 1</label>RATE_B</location>\n\
         <init ref=\"a\"/>\n\
         <transition><source ref=\"a\"/><target ref=\"b\"/><label kind=\"guard\">x &gt;= 2</label>\
         <label kind=\"assignment\">x = 0</label></transition>\n\
         <transition><source ref=\"b\"/><target ref=\"a\"/></transition>\n\
         </template>\n<system>system P;</system></nta>";
    let rated = plain
        .replace("RATE_A", "<label kind=\"exponentialrate\">3</label>")
        .replace("RATE_B", "<label kind=\"exponentialrate\">1:\n2</label>");
    let plain = plain.replace("RATE_A", "").replace("RATE_B", "");
    let u = import_uppaal("m.xml", &rated).unwrap_or_else(|d| panic!("{}", render(&d)));
    assert!(u.yaml.contains("exponential rate `1: 2` ignored"), "{}", u.yaml);
    let cases = [
        ("E<> P.b && x == 1", Verdict::Satisfied),
        ("E<> P.b && x > 1", Verdict::Violated),
        ("E<> P.a && x < 2", Verdict::Satisfied),
        ("A[] (P.b imply x <= 1)", Verdict::Satisfied),
    ];
    for (formula, want) in cases {
        assert_eq!(check_xml(&rated, formula), want, "{formula}");
        assert_eq!(check_xml(&plain, formula), want, "{formula} without the rates");
    }
}

/// `for (i : T)` runs its body once per value of `T`, in increasing order:
/// sums and an order-sensitive fold over a constant array, against values
/// computed by hand.
#[test]
fn for_loops_over_a_type() {
    let decl = "typedef int[1,3] id_t;\nconst int w[4] = {0, 2, 3, 5};\nint s; int f;\n\
                void run() { for (i : id_t) { s += w[i]; f = 10 * f + i; } for (j : int[0,1]) for (k : id_t) s += j * k; }";
    let body = "<location id=\"a\"><name>a</name></location><location id=\"b\"><name>b</name></location>\
                <init ref=\"a\"/><transition><source ref=\"a\"/><target ref=\"b\"/>\
                <label kind=\"assignment\">run()</label></transition>";
    let u = import_uppaal("m.xml", &model(decl, body, "system P;")).unwrap_or_else(|d| panic!("{}", render(&d)));
    let loaded = load("m.yaml", &u.yaml);
    // s = (2 + 3 + 5) + (1 + 2 + 3) = 16; f = 123.
    assert_eq!(verdict(&loaded, "m.yaml", "A[] (P.b imply s == 16 && f == 123)"), Verdict::Satisfied, "{}", u.yaml);
    assert_eq!(verdict(&loaded, "m.yaml", "E<> P.b"), Verdict::Satisfied);
    let assigning = model("typedef int[0,2] t;\nint s;\nvoid g() { for (i : t) i = 0; }", LOCS, "system P;");
    assert!(first_error(&assigning).contains("cannot be assigned"), "{}", first_error(&assigning));
}

/// A refused declaration is one diagnostic: the uses of what it declares
/// (in declarations, functions, labels and queries) add none.
#[test]
fn refused_declarations_have_no_follow_on_errors() {
    let decl = "const int N = 2;\nchan call[N][N];\ndouble m[2][2];\ntypedef int row_t[2];\nrow_t r;\n\
                struct { int a; } s = {1, 2};\nint f() { return m[0][1] + s.a; }\nint g(row_t x) { return 0; }\nint k = m[1][1];";
    let labels = "<label kind=\"guard\">f() == 0 &amp;&amp; m[0][0] == 0 &amp;&amp; r[1] == 0</label>\
                  <label kind=\"synchronisation\">call[0][1]!</label>\
                  <label kind=\"assignment\">m[1][0] = 1, s.a = 2, k = g(r)</label>";
    let text = model(decl, &edge(labels), "system P;");
    let d = import_uppaal("m.xml", &text).expect_err("refused");
    let lines: Vec<usize> = d.iter().map(|d| d.loc.pos.line).collect();
    assert!(d.iter().all(|d| d.code == "unsupported"), "{}", render(&d));
    // `m`, `struct`: one each (`f`, `k` follow; `call`, a multi-dimensional
    // array, `row_t`, an array type, and `g`'s array parameter are
    // translated).
    assert_eq!(lines, [4, 7], "{}", render(&d));

    // A `double` constant's literal leaves the declarations around it (a
    // clock before it, an integer after) read: one diagnostic, not one
    // "not declared" per use; a literal where an integer goes is refused.
    let decl = "clock x;\nconst double a = 0.5, b = 1.5e-3;\nint y;";
    let labels = "<label kind=\"guard\">x &gt; 2 &amp;&amp; y == 0</label><label kind=\"assignment\">y = 2.5</label>";
    let d = import_uppaal("m.xml", &model(decl, &edge(labels), "system P;")).expect_err("refused");
    let got: Vec<(usize, &str)> = d.iter().map(|d| (d.loc.pos.line, d.message.as_str())).collect();
    assert_eq!(
        got,
        [(3, "not supported yet: the type `double`"), (7, "not supported yet: a floating-point number (`double`)")],
        "{}",
        render(&d)
    );

    // Dynamic templates: the declaration, `spawn` and `exit()` are refused,
    // each where it stands, and nothing follows from them.
    let text = "<nta><declaration>chan go;\ndynamic Child(int k);</declaration>\n\
        <template><name>P</name><location id=\"a\"><name>a</name></location><init ref=\"a\"/>\n\
        <transition><source ref=\"a\"/><target ref=\"a\"/><label kind=\"assignment\">spawn Child(1)</label></transition>\n\
        <transition><source ref=\"a\"/><target ref=\"a\"/><label kind=\"assignment\">exit()</label></transition>\n\
        </template>\n<system>system P;</system></nta>";
    let d = import_uppaal("m.xml", text).expect_err("refused");
    let got: Vec<(usize, &str)> = d.iter().map(|d| (d.loc.pos.line, d.message.as_str())).collect();
    assert_eq!(
        got,
        [
            (2, "not supported yet: `dynamic`"),
            (4, "not supported yet: `spawn`, an instance of a dynamic template"),
            (5, "not supported yet: `exit()`, the end of a dynamic template's instance")
        ],
        "{}",
        render(&d)
    );

    // A branchpoint, the transitions through it, a process whose template
    // fails, a query over it, and a query that is only a comment (a heading
    // in UPPAAL's editor, not an error).
    let text = "<nta><declaration>double m[2][2];</declaration>\n\
        <template><name>P</name><location id=\"a\"><name>a</name></location><branchpoint id=\"b\"/>\
        <init ref=\"a\"/>\n<transition><source ref=\"a\"/><target ref=\"b\"/><label kind=\"guard\">m[0][0] == 0</label></transition>\
        <transition><source ref=\"b\"/><target ref=\"a\"/></transition></template>\n\
        <system>Q = P(); system Q;</system>\n\
        <queries><query><formula>// Section 1</formula></query><query><formula>A[] Q.a</formula></query></queries></nta>";
    let d = import_uppaal("m.xml", text).expect_err("refused");
    assert_eq!(d.len(), 2, "{}", render(&d));
    assert!(d[0].to_string().contains("m.xml:1:") && d[0].to_string().contains("the type `double`"));
    assert!(d[1].to_string().contains("m.xml:2:") && d[1].to_string().contains("a branchpoint"));

    // `system P;` over a parameter of a refused (`scalar`) type, and
    // a `system` line with process priorities.
    let proc_ = |param: &str| {
        format!(
            "<template><name>P</name><parameter>{param}</parameter><location id=\"a\"><name>a</name></location>\
             <init ref=\"a\"/></template>"
        )
    };
    let scalar = format!(
        "<nta><declaration>typedef scalar[2] pid_t;</declaration>\n{}\n<system>system P;</system></nta>",
        proc_("const pid_t i")
    );
    let prio = format!(
        "<nta>\n{}\n<system>Q = P(0); R = P(1);\nsystem Q &lt; R;</system>\n\
         <queries><query><formula>E&lt;&gt; Q.a &amp;&amp; R.a</formula></query></queries></nta>",
        proc_("const int[0,1] i")
    );
    let d = import_uppaal("m.xml", &scalar).expect_err("refused");
    assert_eq!(d.len(), 1, "{}", render(&d));
    assert!(d[0].to_string().contains("`scalar` types"), "{}", render(&d));
    // Process priorities: the instances by their kairos names, lowest first.
    let m = import_uppaal("m.xml", &prio).unwrap_or_else(|d| panic!("{}", render(&d)));
    assert!(m.yaml.contains("priorities:\n  processes: \"Q < R\"\n"), "{}", m.yaml);
    let partial = format!(
        "<nta>\n{}\n<system>R(const int[0,1] j) = P(j); Q = P(0);\nsystem Q &lt; R;</system>\n\
         <queries><query><formula>E&lt;&gt; R(1).a</formula></query></queries></nta>",
        proc_("const int[0,1] i")
    );
    // A partial instantiation in a priority order: its instances by their
    // kairos template's name.
    let m = import_uppaal("m.xml", &partial).unwrap_or_else(|d| panic!("{}", render(&d)));
    assert!(m.yaml.contains("priorities:\n  processes: \"Q < "), "{}", m.yaml);
}

/// Partial instantiations `X(params) = T(args);`: supported when the
/// arguments are X's parameters in order (partial.xml); the other forms are
/// refused at the declaration, and a parameter wider than T's is an error.
#[test]
fn partial_instantiations_outside_the_supported_form_are_refused() {
    let cases = [
        (
            "R(const int[0,1] j) = P(1 - j); system R;",
            "m.xml:3:9: error[unsupported]: not supported yet: a partial instantiation whose arguments are not its parameters, in order",
        ),
        (
            "R(const int[0,1] j) = P(j); Q = R(1); system Q;",
            "m.xml:3:41: error[unsupported]: not supported yet: an instance of the partial instantiation `R`",
        ),
        (
            "R(const int[0,1] j) = P(j); S(const int[0,1] k) = R(k); system S;",
            "m.xml:3:59: error[unsupported]: not supported yet: a partial instantiation of the partial instantiation `R`",
        ),
        (
            "R(const int[0,2] j) = P(j); system R;",
            "m.xml:3:26: error[argument-out-of-range]: `j` ranges over [0, 2], outside the type [0, 1] of `i` of `P`",
        ),
        (
            "R(const int[0,1] j) = P(j); system P, R;",
            "m.xml:3:47: error[unsupported]: not supported yet: `R` instantiates `P` for every value again",
        ),
    ];
    for (system, want) in cases {
        let text = format!(
            "<nta>\n<template><name>P</name><parameter>const int[0,1] i</parameter>{LOCS}</template>\n\
             <system>{system}</system></nta>"
        );
        let got = first_error(&text);
        assert!(got.contains(want), "want `{want}`, got `{got}`");
    }
}

/// Queries UPPAAL accepts and kairos cannot check yet (LSC scenarios) are
/// skipped with their reason; the others are checked.
#[test]
fn lsc_queries_are_skipped() {
    let queries = "<queries><query><formula>sat: Scenario</formula></query>\
                   <query><formula>E&lt;&gt; P.a</formula></query></queries></nta>";
    let text = model("int x;", LOCS, "system P;").replace("</nta>", queries);
    let u = import_uppaal("m.xml", &text).unwrap_or_else(|d| panic!("{}", render(&d)));
    let why: Vec<String> = u.skipped.iter().map(|s| s.why.to_string()).collect();
    assert_eq!(why.len(), 1, "{why:?}");
    assert!(why[0].contains("the query form `sat...`"), "{why:?}");
    assert_eq!(verdict(&load("m.yaml", &u.yaml), "m.yaml", "E<> P.a"), Verdict::Satisfied);
}

/// A query calls a process's function (`P(2).left(1)`, as the printing
/// and gossip benchmarks of UPPAAL's DynamicExtrapolation set do): each
/// verdict equals that of the query written with the variables the function
/// reads; a function the process does not have is reported in its place.
#[test]
fn queries_call_a_process_functions() {
    let body = "<parameter>const int[1,3] id</parameter>\
        <declaration>clock x; int[0,3] n = 0;\
        bool done() { return n == id; }\
        int left(int k) { return id - n + k; }</declaration>\
        <location id=\"a\"><name>a</name><label kind=\"invariant\">x &lt;= 2</label></location><init ref=\"a\"/>\
        <transition><source ref=\"a\"/><target ref=\"a\"/>\
        <label kind=\"guard\">x &gt;= 1 &amp;&amp; n &lt; id</label>\
        <label kind=\"assignment\">n++, x = 0</label></transition>";
    let pairs = [
        ("E<> forall (i : int[1,3]) P(i).done()", "E<> forall (i : int[1,3]) P(i).n == i", Verdict::Satisfied),
        ("A[] P(2).left(1) >= 1", "A[] 2 - P(2).n + 1 >= 1", Verdict::Satisfied),
        ("A[] P(2).left(0) >= 1", "A[] 2 - P(2).n >= 1", Verdict::Violated),
        ("E<> P(3).done() && P(1).left(0) == 1", "E<> P(3).n == 3 && P(1).n == 0", Verdict::Violated),
    ];
    let mut formulas = String::new();
    for (call, plain, _) in &pairs {
        for q in [call, plain] {
            let q = q.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
            formulas += &format!("<query><formula>{q}</formula></query>");
        }
    }
    formulas += "<query><formula>E&lt;&gt; P(1).nope()</formula></query>";
    let text = model("", body, "system P;").replace("</nta>", &format!("<queries>{formulas}</queries></nta>"));
    let u = import_uppaal("m.xml", &text).unwrap_or_else(|d| panic!("{}", render(&d)));
    assert!(u.yaml.contains("P(2).left(1) >= 1"), "{}", u.yaml);
    let loaded = load("m.yaml", &u.yaml);
    for (call, plain, want) in pairs {
        let kairos_text = |q: &str| q.replace("int[1,3]", "1..3");
        assert_eq!(verdict(&loaded, "m.yaml", &kairos_text(call)), want, "{call}");
        assert_eq!(verdict(&loaded, "m.yaml", &kairos_text(plain)), want, "{plain}");
    }
    let why: Vec<String> = u.skipped.iter().map(|s| s.why.to_string()).collect();
    assert_eq!(why.len(), 1, "{why:?}");
    assert!(why[0].contains("the process has no function `nope`"), "{why:?}");
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!("{}x{}", "(".repeat(5000), ")".repeat(5000));
    let text = model("int x;", &edge(&format!("<label kind=\"guard\">{deep} == 0</label>")), "system P;");
    assert!(first_error(&text).contains("error[too-deep]"));
    let negs = format!("{}x", "!".repeat(10000));
    let text = model("int x;", &edge(&format!("<label kind=\"guard\">{negs} == 0</label>")), "system P;");
    assert!(first_error(&text).contains("error[too-deep]"));
    let chain = vec!["x"; 3000].join(" + ");
    let text = model("int x;", &edge(&format!("<label kind=\"guard\">{chain} == 0</label>")), "system P;");
    assert!(first_error(&text).contains("error[too-deep]"));
}

/// Exit codes through the command line: 2 for errors, 5 for what is not
/// supported yet, in the model or in a query file.
#[test]
fn exit_codes() {
    let dir = std::env::temp_dir().join(format!("kairos-uppaal-exit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    };
    let bad = write("bad.xml", &model("int x;", &edge("<label kind=\"guard\">x ==</label>"), "system P;"));
    let unsupported = write("unsupported.xml", &model("double x;", LOCS, "system P;"));
    let (code, _, err) = kairos(&["check", &bad]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = kairos(&["check", &unsupported]);
    assert_eq!(code, 5, "{err}");
    let (code, _, err) = kairos(&["import", &unsupported]);
    assert_eq!(code, 5, "{err}");

    let ok = write("ok.xml", &model("int[0,3] x;", LOCS, "system P;"));
    let q = write("ok.q", "// fine\nE<> P.a\n\n// not yet\nbounds: x\n");
    let (code, _, err) = kairos(&["check", &ok, &q]);
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("ok.q:5:1: error[unsupported]") || err.contains("ok.q:5:1"), "{err}");
    let q = write("bad.q", "E<> P.nowhere\n");
    let (code, _, err) = kairos(&["check", &ok, &q]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no location or variable `nowhere`"), "{err}");
    let (code, out, err) = kairos(&["check", &ok, "-q", "E<> P.a and x == 0"]);
    assert_eq!(code, 0, "{out}{err}");

    // Invalid only once instantiated: the error is still at the XML line.
    let locs =
        "<location id=\"a\"><name>a</name><label kind=\"invariant\">c &lt;= x</label></location><init ref=\"a\"/>";
    let stuck = write("stuck.xml", &model("int[-1,3] x = -1;\nclock c;", locs, "system P;"));
    let (code, _, err) = kairos(&["check", &stuck, "-q", "E<> P.a"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("stuck.xml:7:1: error[no-initial-state]"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A refused model (branchpoint.xml: a branchpoint with its weights, queries
/// naming a process left out of the system and one that does not exist):
/// one located "not supported yet" line, exit 5, and no error about the
/// queries, which are not read once the model is refused.
#[test]
fn a_refusal_has_no_follow_on_errors() {
    let path = xml("branchpoint.xml");
    let text = std::fs::read_to_string(&path).unwrap();
    let d = import_uppaal("branchpoint.xml", &text).expect_err("refused");
    assert_eq!(d.len(), 1, "{}", render(&d));
    assert!(
        d[0].to_string().contains("branchpoint.xml:13:") && d[0].to_string().contains("a branchpoint"),
        "{}",
        render(&d)
    );
    let (code, out, err) = kairos(&["check", &path.to_string_lossy()]);
    assert_eq!(code, 5, "{out}{err}");
    assert_eq!(err.matches("not supported yet").count(), 1, "{err}");
    assert!(!err.contains("not a process"), "{err}");

    // The same queries over a model kairos reads: each wrong one is left
    // out with its error, and the third is checked.
    let clean = text.replace("<branchpoint id=\"bp\"/>", "<location id=\"bp\" committed=\"\"><committed/></location>");
    let clean =
        clean.replace("<label kind=\"probability\">3</label>", "").replace("<label kind=\"probability\">1</label>", "");
    let u = import_uppaal("branchpoint.xml", &clean).unwrap_or_else(|d| panic!("{}", render(&d)));
    let why: Vec<String> = u.skipped.iter().map(|s| s.why.to_string()).collect();
    assert_eq!(why.len(), 2, "{why:?}");
    assert!(why[0].contains("branchpoint.xml:32:27: error[unknown-name]"), "{why:?}");
    assert!(why.iter().all(|x| x.contains("is not a process of the system")), "{why:?}");
    assert!(
        u.yaml.contains("  # invalid: E<> Nowhere.bad\n  - {name: \"query 3\", check: \"E<> H.fast\"}"),
        "{}",
        u.yaml
    );
    let dir = std::env::temp_dir().join(format!("kairos-uppaal-wrong-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let m = dir.join("branchpoint.xml");
    std::fs::write(&m, &clean).unwrap();
    let (code, out, err) = kairos(&["check", m.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(
        lines,
        [
            "query 1: invalid: in a query: `L` is not a process of the system",
            "query 2: invalid: in a query: `Nowhere` is not a process of the system",
            "query 3: satisfied"
        ],
        "{out}"
    );
    assert_eq!(err.matches("error[unknown-name]").count(), 2, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    // A weight on an edge from a location is refused on its own.
    let weighted =
        clean.replace("<label kind=\"synchronisation\">beat!</label>", "<label kind=\"probability\">2</label>");
    let d = import_uppaal("branchpoint.xml", &weighted).expect_err("refused");
    assert_eq!(d.len(), 1, "{}", render(&d));
    assert!(d[0].to_string().contains("a probability weight"), "{}", render(&d));
}

// ---------------------------------------------------------------- compile-time values

/// The verdict of `formula` (kairos syntax) on the UPPAAL model `text`.
fn check_xml(text: &str, formula: &str) -> Verdict {
    let u = import_uppaal("m.xml", text).unwrap_or_else(|d| panic!("{}", render(&d)));
    verdict(&load("m.xml", &u.yaml), "q", formula)
}

#[test]
fn instantiation_arguments_are_checked_against_the_parameter_types() {
    let decl = "const int N = 3; typedef int[0,N] id_t; typedef bool flag_t; int g;";
    let tpl = |params: &str| {
        format!(
            "<nta>\n<declaration>{decl}</declaration>\n<template><name>P</name><parameter>{params}</parameter>\n\
             {LOCS}\n</template>\n<system>{{}}</system>\n</nta>\n"
        )
    };
    let with = |params: &str, system: &str| tpl(params).replace("{}", system);
    let cases = [
        (
            with("id_t id", "P1 = P(N + 1); system P1;"),
            "m.xml:6:16: error[argument-out-of-range]: the argument for `id` of `P` is 4, outside the parameter's type [0, 3]",
        ),
        (
            with("int[1,2] a, const int b", "P1 = P(1, 2); P2 = P(-1, 0); system P1, P2;"),
            "m.xml:6:30: error[argument-out-of-range]: the argument for `a` of `P` is -1, outside the parameter's type [1, 2]",
        ),
        (
            with("int a", "P1 = P(40000); system P1;"),
            "error[argument-out-of-range]: the argument for `a` of `P` is 40000, outside the parameter's type [-32768, 32767]",
        ),
        (
            with("const int a", "P1 = P(2147483647 + 1); system P1;"),
            "error[argument-out-of-range]: the argument for `a` of `P` is 2147483648, outside the parameter's type [-2147483648, 2147483647]",
        ),
        (
            with("id_t id", "P1 = P(g); system P1;"),
            "m.xml:6:16: error[not-constant]: the argument for `id` of `P` must be computable at compile time",
        ),
        (with("id_t id", "P1 = P(N / (N - 3)); system P1;"), "error[division-by-zero]"),
        // A `bool` argument is substituted into the instance, so it must be
        // a value: `g > 0` would be read at every step, not at instantiation.
        (
            with("bool b", "P1 = P(g > 0); system P1;"),
            "m.xml:6:16: error[not-constant]: the argument for `b` of `P` must be computable at compile time",
        ),
        (
            with("flag_t b", "P1 = P(g > 0); system P1;"),
            "m.xml:6:16: error[not-constant]: the argument for `b` of `P` must be computable at compile time",
        ),
    ];
    for (text, want) in &cases {
        let got = first_error(text);
        assert!(got.contains(want), "want `{want}`, got `{got}`\n{text}");
    }
    // In range: accepted, the argument kept as written.
    let u = import_uppaal("m.xml", &with("id_t id", "P1 = P(N - 1 > 1 ? N : 0); system P1;")).unwrap();
    assert!(u.yaml.contains("P1 = P(N - 1 > 1 ? N : 0)"), "{}", u.yaml);
    // A constant `bool` argument is accepted.
    import_uppaal("m.xml", &with("bool b", "P1 = P(N &gt; 2 &amp;&amp; true); system P1;")).unwrap();
}

/// A `const int` parameter or constant array holds a value, not a
/// variable: UPPAAL's 16-bit range of `int` bounds what is assigned, and
/// models pass periods of 120000 (the TetaSARTS case studies). A twin of
/// theirs: the guard and the invariant meet at 120000 only.
#[test]
fn constant_ints_are_not_bounded_by_the_variable_range() {
    let text = "<nta>\n<declaration>const int W[2] = {100000, 5};\nclock x;</declaration>\n\
        <template><name>P</name><parameter>const int period</parameter>\n\
        <location id=\"a\"><name>a</name><label kind=\"invariant\">x &lt;= period</label></location>\n\
        <location id=\"b\"><name>b</name></location><init ref=\"a\"/>\n\
        <transition><source ref=\"a\"/><target ref=\"b\"/><label kind=\"guard\">x &gt;= W[0] + 20000</label></transition>\n\
        </template>\n<system>P1 = P(120000); system P1;</system>\n</nta>\n";
    assert_eq!(check_xml(text, "E<> P1.b"), Verdict::Satisfied);
    assert_eq!(check_xml(text, "E<> P1.b and x < 120000"), Verdict::Violated);
    assert_eq!(check_xml(&text.replace("120000)", "119999)"), "E<> P1.b"), Verdict::Violated);
}

#[test]
fn assigned_by_value_parameters_are_local_copies() {
    let text = model(
        "int[0,9] g;",
        &edge("<label kind=\"guard\">v &lt; 5</label><label kind=\"assignment\">v++, g = v</label>"),
        "P1 = P(2); P2 = P(4); system P1, P2;",
    )
    .replace("<name>P</name>", "<name>P</name><parameter>int[0,5] v</parameter>");
    let u = import_uppaal("m.xml", &text).unwrap_or_else(|d| panic!("{}", render(&d)));
    assert!(u.yaml.contains("params: [v_init]"), "{}", u.yaml);
    assert!(u.yaml.contains("v: {range: [0, 5], init: v_init}"), "{}", u.yaml);
    let loaded = load("m.xml", &u.yaml);
    // Each instance counts from its own argument: P1 from 2, P2 from 4.
    assert_eq!(verdict(&loaded, "q", "E<> P1.v == 5 and P2.v == 5"), Verdict::Satisfied);
    assert_eq!(verdict(&loaded, "q", "A[] P2.v >= 4"), Verdict::Satisfied);
    assert_eq!(verdict(&loaded, "q", "E<> g == 3"), Verdict::Satisfied);
    // Through a query in UPPAAL's names, and with `system P;` (one copy per instance).
    assert_eq!(u.query("E<> P1.v == 5").unwrap().as_deref(), Ok("E<> P1.v == 5"));
    let all = text.replace("P1 = P(2); P2 = P(4); system P1, P2;", "system P;");
    assert_eq!(check_xml(&all, "E<> P(0).v == 5 and P(4).v == 5"), Verdict::Satisfied);
    assert_eq!(check_xml(&all, "A[] P(5).v == 5"), Verdict::Satisfied);
    // A boolean passed by value and assigned: a local copy too.
    let flip = model("", &edge("<label kind=\"assignment\">b = !b</label>"), "P1 = P(true); system P1;")
        .replace("<name>P</name>", "<name>P</name><parameter>bool b</parameter>");
    assert_eq!(check_xml(&flip, "E<> !P1.b"), Verdict::Satisfied);
    // A `const` parameter cannot be assigned, in UPPAAL either.
    let c = text.replace("int[0,5] v", "const int[0,5] v");
    assert!(
        first_error(&c).contains("error[type-error]: in an update of `P`: `v` cannot be assigned"),
        "{}",
        first_error(&c)
    );
}

#[test]
fn constant_arrays_are_variables_never_assigned() {
    let decl = "const int D[3] = {2, 5, 4}; const bool B[2] = {true, false}; clock x;";
    let body =
        edge("<label kind=\"guard\">x &gt;= D[id] &amp;&amp; B[0]</label><label kind=\"assignment\">x = 0</label>")
            .replace("<name>a</name>", "<name>a</name><label kind=\"invariant\">x &lt;= D[id] + 1</label>");
    let text = model(decl, &body, "P1 = P(D[0] - 1); system P1;")
        .replace("<name>P</name>", "<name>P</name><parameter>int[0,2] id</parameter>");
    let u = import_uppaal("m.xml", &text).unwrap_or_else(|d| panic!("{}", render(&d)));
    assert!(u.yaml.contains("D: {range: [2, 5], size: 3, init: [2, 5, 4]}"), "{}", u.yaml);
    let loaded = load("m.xml", &u.yaml);
    assert_eq!(verdict(&loaded, "q", "E<> x > 5"), Verdict::Satisfied);
    assert_eq!(verdict(&loaded, "q", "E<> x > 6"), Verdict::Violated);
    // Arguments read them at compile time, with their bounds checked.
    let out = text.replace("P(D[0] - 1)", "P(D[3])");
    assert!(
        first_error(&out).contains(
            "error[index-out-of-bounds]: in the argument for `id` of `P`: index 3 is out of the bounds of `D` (size 3)"
        ),
        "{}",
        first_error(&out)
    );
    // Never assigned; their values within their type.
    let assign = text.replace("x = 0", "D[0] = 1");
    assert!(first_error(&assign).contains("`D[0]` cannot be assigned"), "{}", first_error(&assign));
    let range = text.replace("const int D[3]", "const int[0,4] D[3]");
    assert!(
        first_error(&range)
            .contains("error[init-out-of-range]: the constant array `D` holds 5, outside its type [0, 4]"),
        "{}",
        first_error(&range)
    );
}

#[test]
fn system_over_boolean_or_reference_parameters_is_refused_as_uppaal_does() {
    let text = model("", LOCS, "system P;").replace("<name>P</name>", "<name>P</name><parameter>bool b</parameter>");
    let Err(d) = import_uppaal("m.xml", &text) else { panic!("accepted: {text}") };
    assert!(
        d[0].to_string().contains(
            "m.xml:6:16: error[type-error]: `system P;` needs bounded integer parameters; `b` of `P` is not one"
        ),
        "{}",
        render(&d)
    );
}

#[test]
fn yaml_lines_without_a_source_line_map_to_the_nearest_line_above() {
    let u = import(&xml("fischer.xml"));
    assert_eq!(u.source_line(1), 1, "the header: the file's first line");
    let lines: Vec<&str> = u.yaml.lines().collect();
    let templates = lines.iter().position(|l| *l == "templates:").unwrap() + 1;
    assert_eq!(u.line_map[templates - 1], 0);
    let above = u.line_map[..templates - 1].iter().rev().find(|&&l| l != 0).copied().unwrap();
    assert_eq!(u.source_line(templates), above);
    assert!((1..=u.line_map.len()).all(|l| u.source_line(l) >= 1));
}

// ---------------------------------------------------------------- query files

#[test]
fn a_query_spans_lines_and_an_unsupported_one_does_not_stop_the_others() {
    let dir = std::env::temp_dir().join(format!("kairos-uppaal-q-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    };
    let m = write("m.xml", &model("int[0,3] x;", &edge("<label kind=\"assignment\">x = 1</label>"), "system P;"));
    let q =
        write("m.q", "// two lines\nA[] x >= 0 and\n    x <= 1\n// not yet\nbounds: x\nE<> x == 1\nE<> x ==\n  3\n");
    let u = import(Path::new(&m));
    let queries = u.query_file("m.q", &std::fs::read_to_string(&q).unwrap());
    let lines: Vec<usize> = queries.iter().map(|q| q.line).collect();
    assert_eq!(lines, [2, 5, 6, 7], "a query starting with `E<>` starts a new one");
    assert_eq!(queries[0].formula.as_deref(), Ok("A[] x >= 0 && x <= 1"));
    let (code, out, err) = kairos(&["check", &m, &q, "--format", "json"]);
    assert_eq!(code, 5, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let got = common::verdicts_of(&v);
    assert_eq!(
        got,
        [("two lines", "satisfied"), ("not yet", "unknown"), ("m.q:6", "satisfied"), ("m.q:7", "violated")]
    );
    let refused = &v["properties"][1];
    assert_eq!(refused["reason"], "unsupported");
    assert!(refused["message"].as_str().unwrap().contains("the query form `bounds...`"), "{refused}");
    assert!(err.contains("m.q:5:1: error[unsupported]"), "{err}");
    // Without it: the normal rules (a property that does not hold: 1).
    let q2 = write("m2.q", "E<> x == 1\nE<> x == 3\n");
    let (code, out, err) = kairos(&["check", &m, &q2]);
    assert_eq!(code, 1, "{out}{err}");
    // The same for `-q` in UPPAAL's syntax.
    let (code, out, _) = kairos(&["check", &m, "-q", "bounds: x", "-q", "E<> x == 1"]);
    assert_eq!(code, 5, "{out}");
    assert!(out.contains("query1: unknown (unsupported)") && out.contains("query2: satisfied"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A query naming what the model does not have (the `tcp-backoff-linear`
/// benchmark's query files name `Client(0).cw`, a variable of its AIMD
/// sibling only) is reported `invalid` at its place, exit 2, and never
/// stops the other queries; in JSON with its located error.
#[test]
fn a_wrong_query_does_not_stop_the_others() {
    let dir = std::env::temp_dir().join(format!("kairos-uppaal-wrong-q-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let m = dir.join("m.xml");
    std::fs::write(&m, model("int[0,3] x;", &edge("<label kind=\"assignment\">x = 1</label>"), "system P;")).unwrap();
    let q = dir.join("m.q");
    std::fs::write(&q, "E<> x == 1\n/* window */\nE<> P.cw > 1\nE<> Q.x == 1 or x == 2\nA[] x <= 1\n").unwrap();
    let (m, q) = (m.to_str().unwrap(), q.to_str().unwrap());
    let (code, out, err) = kairos(&["check", m, q, "--format", "json"]);
    assert_eq!(code, 2, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let got = common::verdicts_of(&v);
    assert_eq!(got, [("m.q:1", "satisfied"), ("window", "invalid"), ("m.q:4", "invalid"), ("m.q:5", "satisfied")]);
    let wrong = &v["properties"][1];
    assert_eq!(wrong["engine"], Value::Null);
    assert_eq!(wrong["formula"], "E<> P.cw > 1");
    let e = &wrong["errors"][0];
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64(), e["code"].as_str()),
        (Some(3), Some(5), Some("unknown-name"))
    );
    assert!(e["file"].as_str().unwrap().ends_with("m.q") && wrong["message"] == e["message"], "{wrong}");
    assert!(err.contains("m.q:3:5: error[unknown-name]") && err.contains("m.q:4:5: error[unknown-name]"), "{err}");
    // `-q` stays strict: a wrong query typed on the command line checks nothing.
    let (code, out, err) = kairos(&["check", m, "-q", "E<> P.cw > 1", "-q", "E<> x == 1"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// UPPAAL's query files splice a line that ends in a backslash with the
/// next (the Herschel case study's `sup: WCRT[0], ..., \` over 6 lines).
#[test]
fn a_backslash_at_the_end_of_a_line_continues_the_query() {
    let dir = std::env::temp_dir().join(format!("kairos-uppaal-splice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let m = dir.join("m.xml");
    std::fs::write(
        &m,
        model("int[0,3] x; int[0,3] y;", &edge("<label kind=\"assignment\">x = 1, y = 2</label>"), "system P;"),
    )
    .unwrap();
    let q = dir.join("m.q");
    std::fs::write(&q, "// both\nsup: x,\\\n    y\nE<> x == 1 and \\\r\n  y == 2 \\\n\nA[] x <= 1\n").unwrap();
    let u = import(&m);
    let queries = u.query_file("m.q", &std::fs::read_to_string(&q).unwrap());
    let formulas: Vec<_> = queries.iter().map(|q| q.formula.clone().unwrap()).collect();
    assert_eq!(formulas, ["sup: x, y", "E<> x == 1 && y == 2", "A[] x <= 1"]);
    assert_eq!(queries.iter().map(|q| q.line).collect::<Vec<_>>(), [2, 4, 7]);
    let (code, out, err) = kairos(&["check", m.to_str().unwrap(), q.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("both: measured") && out.contains("y <= 2 (the supremum, attained)"), "{out}");
    assert!(out.contains("m.q:4: satisfied") && out.contains("m.q:7: satisfied"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Found by fuzzing: a control character (here DEL) in a query's comment
/// became a property name escaped the Rust way (`\u{7f}`), which is not
/// YAML. Every control character is now a YAML escape, and the name
/// survives the round trip.
#[test]
fn control_characters_in_names_stay_valid_yaml() {
    let mut text = model("int x;", LOCS, "system P;");
    let queries = "<queries><query><formula>E&lt;&gt; P.a</formula><comment>all-r\u{7f}unds\u{85}do\u{9f}ne</comment></query></queries>\n</nta>";
    text = text.replace("</nta>", queries);
    let u = import_uppaal("m.xml", &text).unwrap_or_else(|d| panic!("{d:?}"));
    let loaded = load_model(&Source::new("m.yaml", u.yaml.clone())).unwrap_or_else(|d| panic!("{d:?}\n{}", u.yaml));
    assert_eq!(loaded.model.properties[0].name, "all-r\u{7f}unds\u{85}do\u{9f}ne");
}

/// Found by fuzzing: a location name of 1 600 characters became a YAML key
/// longer than YAML's 1 024-character limit for implicit keys. Names are
/// cut (the original stays in a comment) and kept distinct.
#[test]
fn very_long_names_stay_valid_yaml() {
    let long = "s".repeat(1600);
    let locs = format!(
        "<location id=\"a\"><name>{long}a</name></location><location id=\"b\"><name>{long}b</name></location><init ref=\"a\"/>"
    );
    let u = import_uppaal("m.xml", &model("int x;", &locs, "system P;")).unwrap_or_else(|d| panic!("{d:?}"));
    let loaded = load_model(&Source::new("m.yaml", u.yaml.clone())).unwrap_or_else(|d| panic!("{d:?}\n{}", u.yaml));
    assert_eq!(loaded.model.templates[0].locations.len(), 2);
}

#[test]
fn short_array_initialisers_are_completed_with_zeros() {
    // UPPAAL's type checker checks the length of a structure's initialiser,
    // not of an array's: the elements left out start at 0 (`false`).
    let decl = "const int N = 4; int q[N] = {1, 2}; bool f[3] = {true}; int[0,5] m[2][3] = {{1}, {2, 3}};";
    let text = model(decl, LOCS, "system P;");
    let u = import_uppaal("m.xml", &text).unwrap_or_else(|d| panic!("{}", render(&d)));
    assert!(u.yaml.contains("init: [1, 2, 0, 0]"), "{}", u.yaml);
    assert!(u.yaml.contains("init: [\"true\", \"false\", \"false\"]"), "{}", u.yaml);
    assert!(u.yaml.contains("init: [1, 0, 0, 2, 3, 0]"), "{}", u.yaml);
    let all = "A[] q[1] == 2 && q[2] == 0 && q[3] == 0 && f[0] && !f[2] && m[0][0] == 1 && m[0][2] == 0 && m[1][1] == 3 && m[1][2] == 0";
    assert_eq!(check_xml(&text, all), Verdict::Satisfied);
    // Too many values: UPPAAL's type checker accepts them too, and what its
    // verifier does with them is documented nowhere: refused, at the list
    // (an inner list of a multi-dimensional array too).
    for (decl, want) in [
        (
            "int q[2] = {1, 2, 3};",
            "m.xml:2:25: error[unsupported]: not supported yet: an initialiser of 3 values for 2 elements",
        ),
        (
            "int m[2][2] = {{1}, {2, 3, 4}};",
            "m.xml:2:34: error[unsupported]: not supported yet: an initialiser of 3 values for 2 elements",
        ),
    ] {
        let got = first_error(&model(decl, LOCS, "system P;"));
        assert!(got.contains(want), "want `{want}`, got `{got}`");
    }
}

#[test]
fn integers_stored_into_booleans_are_conditions() {
    // UPPAAL's booleans are integral types: `bool b = 1;`, `b = s[i];`
    // (any integer; 0 is false, another value true, as in a condition).
    let decl = "const int N = 2; int s[3] = {0, 1, 2}; bool f[3]; bool g = 1; bool h = N - 2;\n\
                void copy(int i) { f[i] = s[i]; }";
    let body = edge("<label kind=\"assignment\">copy(0), copy(1), f[2] = s[2]</label>");
    let text = model(decl, &body, "system P;");
    assert_eq!(check_xml(&text, "E<> !f[0] && f[1] && f[2] && g && !h"), Verdict::Satisfied);
    assert_eq!(check_xml(&text, "E<> f[0]"), Verdict::Violated);
}

#[test]
fn structure_template_parameters_are_substituted_per_instance() {
    // `const flow_t flow` by value (a constant's fields), `fun_t &s` by
    // reference (a variable's); elements given by name (`FIN`) are its fields.
    let decl = "typedef struct { int[0,3] cmd; int[0,9] delay; } fun_t;\n\
                const fun_t FIN = {0, 0}; typedef fun_t flow_t[3];\n\
                const flow_t F1 = {{1, 4}, {2, 5}, FIN}; const flow_t F2 = {{3, 7}, FIN, FIN};\n\
                fun_t shared = {1, 1}; flow_t vf; int[0,15] got; int[0,3] i;";
    let body = edge(
        "<label kind=\"guard\">i &lt; 3</label>\
         <label kind=\"assignment\">got = flow[i].delay + flow[i].cmd, i++, s.delay = flow[0].cmd</label>",
    );
    let text = |args1: &str, args2: &str| {
        model(decl, &body, &format!("P1 = P({args1}); P2 = P({args2}); system P1, P2;"))
            .replace("<name>P</name>", "<name>P</name><parameter>const flow_t flow, fun_t &amp;s</parameter>")
    };
    let ok = text("F1, shared", "F2, shared");
    // P1 reads 5, 7, 0 at i = 0, 1, 2; P2 reads 10, 0, 0.
    for (formula, want) in [
        ("E<> got == 5", Verdict::Satisfied),
        ("E<> got == 7", Verdict::Satisfied),
        ("E<> got == 10", Verdict::Satisfied),
        ("E<> got == 4 || got == 6 || got == 9", Verdict::Violated),
        ("E<> shared_delay == 3", Verdict::Satisfied),
        ("A[] shared_delay == 1 || shared_delay == 3", Verdict::Satisfied),
    ] {
        assert_eq!(check_xml(&ok, formula), want, "{formula}");
    }
    // By value, UPPAAL computes the argument at compile time.
    let var = text("F1, shared", "vf, shared");
    assert!(first_error(&var).contains("error[not-constant]: the argument for `flow` of `P`"), "{}", first_error(&var));
    let cst = text("F1, shared", "F2, FIN");
    assert!(first_error(&cst).contains("error[type-error]: `FIN` is a constant"), "{}", first_error(&cst));
    let other = text("F1, shared", "FIN, shared");
    assert!(
        first_error(&other).contains("`FIN` is not of the type of the parameter `flow`"),
        "{}",
        first_error(&other)
    );
}

#[test]
fn meta_variables_are_kept_in_the_state() {
    // The sender writes the scratch value before the receiver reads it, as
    // meta variables are meant to be used: UPPAAL's verdicts.
    let decl = "chan c; meta int[0,3] arg; meta struct { meta int[0,3] a; } box; int[0,3] got;";
    let send = edge("<label kind=\"synchronisation\">c!</label><label kind=\"assignment\">arg = 2, box.a = 3</label>");
    let text = model(decl, &send, "Q = R(); system P, Q;").replace(
        "</template>",
        "</template>\n<template><name>R</name><location id=\"r\"><name>r</name></location>\
         <location id=\"s\"><name>s</name></location><init ref=\"r\"/>\
         <transition><source ref=\"r\"/><target ref=\"s\"/><label kind=\"synchronisation\">c?</label>\
         <label kind=\"assignment\">got = arg + box.a - 2</label></transition></template>",
    );
    let u = import_uppaal("m.xml", &text).unwrap_or_else(|d| panic!("{}", render(&d)));
    assert!(u.yaml.contains("arg: {range: [0, 3], init: 0}   # UPPAAL's `meta` variable `arg`: kept in the state"));
    assert!(u.yaml.contains("# UPPAAL's `meta` variable `box.a`: kept in the state"), "{}", u.yaml);
    assert_eq!(check_xml(&text, "E<> got == 3"), Verdict::Satisfied);
    assert_eq!(check_xml(&text, "E<> Q.s && got != 3"), Verdict::Violated);
}

// ---------------------------------------------------------------- constants computed by calls

#[test]
fn constants_computed_by_calls_are_run_at_import() {
    // Values worked out by hand: tri(4) = 4 + 3 + 2 + 1 = 10; the largest of
    // D is 5; parity(10) is true.
    let decl = "const int D[3] = {2, 5, 4};\n\
                int tri(int n) { int s = 0; while (n &gt; 0) { s += n; n--; } return s; }\n\
                int maxd() { int m = 0; for (i : int[0,2]) m = m &gt;? D[i]; return m; }\n\
                bool even(int n) { return n % 2 == 0; }\n\
                const int T = tri(4), M = maxd() + 1;\n\
                const int W[2] = {tri(2), M};\n\
                const bool E = even(T);\n\
                typedef int[0, T] t_t; t_t v; int q[M];";
    let body = edge(
        "<label kind=\"guard\">v &lt; T &amp;&amp; E</label><label kind=\"assignment\">v++, q[M - 1] = W[0] + W[1]</label>",
    );
    let text = model(decl, &body, "system P;");
    let u = import_uppaal("m.xml", &text).unwrap_or_else(|d| panic!("{}", render(&d)));
    for line in
        ["  T: 10", "  M: 6", "W: {range: [3, 6], size: 2, init: [3, 6]}", "q: {range: [-32768, 32767], size: M"]
    {
        assert!(u.yaml.contains(line), "{line}\n{}", u.yaml);
    }
    for (formula, want) in [
        ("E<> v == 10", Verdict::Satisfied),
        ("A[] v <= 10", Verdict::Satisfied),
        ("E<> q[5] == 9", Verdict::Satisfied),
        ("E<> q[5] != 0 && q[5] != 9", Verdict::Violated),
    ] {
        assert_eq!(check_xml(&text, formula), want, "{formula}");
    }
}

#[test]
fn constants_computed_by_calls_fail_at_their_place() {
    let with = |decl: &str| model(decl, LOCS, "system P;");
    // The loop budget and run-time errors of the compiled function, at the
    // call, naming the function's line in the XML (line 2 here).
    let spin = with("int spin() { int i = 0; while (true) { i = 1 - i; } return i; }\nconst int S = spin() + 1;");
    assert!(
        first_error(&spin).contains(
            "m.xml:3:15: error[constant-error]: in the declaration of `S`: the value of `spin() + 1` cannot be \
             computed: a loop ran more than 1048576 iterations in function `spin` (line 2)"
        ),
        "{}",
        first_error(&spin)
    );
    let div = with("int inv(int x) { return 10 / x; } const int Z = inv(0);");
    assert!(first_error(&div).contains("division by zero in function `inv` (line 2)"), "{}", first_error(&div));
    let range = with("int[0,3] two(int x) { return 2 * x; } const int R = two(2);");
    assert!(
        first_error(&range).contains("the value 4 is outside the range [0, 3] in function `two`"),
        "{}",
        first_error(&range)
    );
    // The value may depend on constants only: reading or assigning a
    // variable, or a template's parameter, is refused.
    for decl in [
        "int g; int rd() { return g; } const int R = rd();",
        "int g; int bump() { g++; return 1; } const int R = bump();",
        "int g; int idx(int &amp;x) { return x; } const int R = idx(g);",
    ] {
        assert!(
            first_error(&with(decl)).contains(
                "error[unsupported]: not supported yet: a constant computed by a function that reads or assigns variables"
            ),
            "{decl}: {}",
            first_error(&with(decl))
        );
    }
    let local = model(
        "int f(int x) { return x + 1; }",
        &format!("<declaration>const int C[1] = {{f(1)}};</declaration>{LOCS}"),
        "system P;",
    );
    assert!(
        first_error(&local).contains("not supported yet: a constant of a template computed by a function call"),
        "{}",
        first_error(&local)
    );
}
