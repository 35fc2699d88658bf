//! The TChecker importer against TChecker's own benchmark files
//! (../shared/reference/tchecker/) and the numbers TChecker v0.8 reported on
//! them (../shared/reference/results.tsv): every file imports, loads and
//! builds; the verdicts of `reach` and `covreach` agree; kairos's counts are
//! never larger than TChecker's (smaller only where kairos's clock bounds are
//! tighter).
//!
//! The rows with more than `fast_limit()` visited states (20 000 in release
//! builds) run in the ignored test `slow_rows_match_tcheckers_counts`
//! (`cargo test --release --test suite import_tchecker:: -- --ignored --nocapture`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use kairos::engine::reach::{Limits, Order};
use kairos::engine::{self, AbstractionChoice, Options, Verdict};
use kairos::import::{Imported, import_tchecker};
use kairos::model::load::{Loaded, load_model};
use kairos::syntax::yaml::Source;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/reference/tchecker");
const RESULTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/reference/results.tsv");

/// Rows up to this many TChecker-visited states run in the default test
/// (fewer in debug builds, where the zone library checks its invariants after
/// every operation and is some hundred times slower); `KAIROS_TCK_FAST_LIMIT`
/// sets it.
fn fast_limit() -> u64 {
    if let Some(v) = std::env::var("KAIROS_TCK_FAST_LIMIT").ok().and_then(|v| v.parse().ok()) {
        return v;
    }
    if cfg!(debug_assertions) { 2_000 } else { 20_000 }
}

fn tck_files() -> Option<Vec<PathBuf>> {
    let dir = Path::new(DIR);
    if !dir.is_dir() {
        println!("note: {DIR} is missing; skipping the TChecker import tests");
        return None;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read the reference folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tck"))
        .collect();
    files.sort();
    Some(files)
}

fn render(d: &[kairos::diag::Diagnostic]) -> String {
    d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")
}

/// Imports, loads and builds one file.
fn import(path: &Path) -> Result<(Imported, Loaded, kairos::network::Network), String> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let imported = import_tchecker(&name, &text).map_err(|d| format!("import: {}", render(&d)))?;
    let yaml_name = format!("{name}.yaml");
    let loaded = load_model(&Source::new(yaml_name.as_str(), imported.yaml.clone()))
        .map_err(|d| format!("load: {}\n--- yaml ---\n{}", render(&d), imported.yaml))?;
    let net = kairos::network::build(&loaded.model).map_err(|d| format!("build: {}", render(&d)))?;
    Ok((imported, loaded, net))
}

#[test]
fn every_reference_file_imports_loads_and_builds() {
    let Some(files) = tck_files() else { return };
    assert!(!files.is_empty(), "no .tck file in {DIR}");
    let mut failures = Vec::new();
    let mut unsupported = Vec::new();
    for f in &files {
        match import(f) {
            Ok((imported, _, _)) => {
                assert_eq!(imported.line_map.len(), imported.yaml.lines().count(), "{}: line map", f.display());
            }
            Err(e) if e.starts_with("import:") && e.contains("[unsupported]") => {
                unsupported.push(format!("{}: {e}", f.display()))
            }
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    println!("{} files imported; {} refused as unsupported", files.len() - unsupported.len(), unsupported.len());
    for u in &unsupported {
        println!("  unsupported: {u}");
    }
    assert!(failures.is_empty(), "{} file(s) failed:\n{}", failures.len(), failures.join("\n\n"));
}

/// One row of results.tsv.
#[derive(Clone, Debug)]
struct Row {
    model: String,
    n: String,
    algo: String,
    labels: Vec<String>,
    verdict: String,
    visited: u64,
    stored: Option<u64>,
    transitions: u64,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(RESULTS).expect("read results.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("column {name}"));
    let (cm, cn, ct, ca, cl, cv, cvi, cs, ctr) = (
        col("model"),
        col("N"),
        col("tool"),
        col("algo"),
        col("labels"),
        col("verdict"),
        col("visited"),
        col("stored"),
        col("transitions"),
    );
    let mut out = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < header.len() || f[ct] != "tck-reach" || !matches!(f[ca], "reach" | "covreach") {
            continue;
        }
        if !matches!(f[cv], "reachable" | "unreachable") {
            continue; // TIMEOUT, errors
        }
        let labels =
            if f[cl] == "<none>" { Vec::new() } else { f[cl].split(',').map(|s| s.trim().to_string()).collect() };
        out.push(Row {
            model: f[cm].to_string(),
            n: f[cn].to_string(),
            algo: f[ca].to_string(),
            labels,
            verdict: f[cv].to_string(),
            visited: f[cvi].parse().expect("visited"),
            stored: f[cs].parse().ok(),
            transitions: f[ctr].parse().expect("transitions"),
        });
    }
    out
}

/// Checks the rows selected by `keep` and fails with every mismatch at once.
fn compare(keep: impl Fn(&Row) -> bool) {
    let Some(_) = tck_files() else { return };
    let rows: Vec<Row> = rows().into_iter().filter(|r| keep(r)).collect();
    let mut cache: BTreeMap<String, Result<(Imported, Loaded, kairos::network::Network), String>> = BTreeMap::new();
    let mut problems = Vec::new();
    let (mut equal, mut smaller, mut larger, mut verdicts, mut early) = (0, 0, 0, 0, 0);
    println!(
        "{:<20} {:>3} {:<9} {:<12} | {:>8} {:>8} {:>9} | {:>8} {:>8} {:>9} | {:>8}",
        "model", "N", "algo", "verdict", "tck vis", "tck sto", "tck trans", "kai vis", "kai sto", "kai trans", "time s"
    );
    for r in &rows {
        let file = format!("{}_{}.tck", r.model, r.n);
        let path = Path::new(DIR).join(&file);
        let entry = cache.entry(file.clone()).or_insert_with(|| import(&path));
        let (imported, loaded, net) = match entry {
            Ok(x) => x,
            Err(e) => {
                problems.push(format!("{file}: {}", e.lines().next().unwrap_or("")));
                continue;
            }
        };
        let query = imported.labels_query(&r.labels);
        let p = match loaded.query("labels", &query) {
            Ok(p) => p,
            Err(d) => {
                problems.push(format!("{file}: query `{query}`: {}", render(&d)));
                continue;
            }
        };
        let subsumption = r.algo == "covreach";
        let options = Options {
            abstraction: Some(AbstractionChoice::Lu),
            subsumption,
            order: Order::Bfs,
            limits: Limits::default(),
            engine: None,
            ..Options::default()
        };
        let started = Instant::now();
        let o = engine::check(&loaded.model, Some(net), &p, &options);
        let secs = started.elapsed().as_secs_f64();
        let Some(s) = o.stats else {
            problems.push(format!("{file} {}: no stats ({:?})", r.algo, o.verdict));
            continue;
        };
        let expected = if r.verdict == "reachable" { Verdict::Satisfied } else { Verdict::Violated };
        println!(
            "{:<20} {:>3} {:<9} {:<12} | {:>8} {:>8} {:>9} | {:>8} {:>8} {:>9} | {:>8.3}",
            r.model,
            r.n,
            r.algo,
            r.verdict,
            r.visited,
            r.stored.map_or("-".to_string(), |s| s.to_string()),
            r.transitions,
            s.visited,
            s.stored,
            s.transitions,
            secs
        );
        if o.verdict != expected {
            verdicts += 1;
            problems.push(format!(
                "{file} {}: verdict {:?}, TChecker says {} (labels {:?})",
                r.algo, o.verdict, r.verdict, r.labels
            ));
            continue;
        }
        if r.verdict == "reachable" {
            // Both stop at the first target, kairos when it generates it and
            // TChecker when it expands it: kairos has expanded fewer states.
            early += 1;
            if s.visited > r.visited {
                problems.push(format!("{file} {}: kairos expanded {} > TChecker's {}", r.algo, s.visited, r.visited));
            }
            continue;
        }
        // The counts a row compares: reach (visited, transitions), covreach stored.
        let (ours, theirs): (Vec<u64>, Vec<u64>) = if subsumption {
            (vec![s.stored], vec![r.stored.unwrap_or(u64::MAX)])
        } else {
            (vec![s.visited, s.transitions], vec![r.visited, r.transitions])
        };
        if ours == theirs {
            equal += 1;
        } else if ours.iter().zip(&theirs).all(|(a, b)| a <= b) {
            smaller += 1;
        } else {
            larger += 1;
            problems.push(format!("{file} {}: kairos {ours:?} > TChecker {theirs:?}", r.algo));
        }
    }
    println!(
        "{} rows. Unreachable (reach: visited and transitions; covreach: stored): {equal} equal, {smaller} smaller, \
         {larger} larger. Reachable (verdict, and fewer states expanded): {early}. Verdict mismatches: {verdicts}.",
        rows.len()
    );
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn small_rows_match_tcheckers_counts() {
    compare(|r| r.visited <= fast_limit());
}

#[test]
#[ignore = "slow: run with `cargo test --release -- --ignored`"]
fn slow_rows_match_tcheckers_counts() {
    compare(|r| r.visited > fast_limit());
}

// ---------------------------------------------------------------- translation details

fn yaml_of(text: &str) -> Imported {
    import_tchecker("t.tck", text).unwrap_or_else(|d| panic!("{}", render(&d)))
}

fn errors_of(text: &str) -> Vec<kairos::diag::Diagnostic> {
    match import_tchecker("t.tck", text) {
        Ok(i) => panic!("expected errors, got:\n{}", i.yaml),
        Err(d) => d,
    }
}

fn loads(i: &Imported) -> Loaded {
    load_model(&Source::new("t.yaml", i.yaml.clone())).unwrap_or_else(|d| panic!("{}\n{}", render(&d), i.yaml))
}

#[test]
fn keywords_and_clashing_labels_are_renamed() {
    let i = yaml_of(
        "#labels=error:A\nsystem:s\nevent:tau\nint:1:0:1:0:error2\nprocess:P\nlocation:P:A{initial: : labels: A}\n\
         location:P:error{labels: error}\nedge:P:A:error:tau\n",
    );
    assert!(i.yaml.contains("A_: {labels: [A_label]}"), "{}", i.yaml);
    assert!(i.yaml.contains("error: {labels: [error_label]}"), "{}", i.yaml);
    assert_eq!(i.labels, vec!["error", "A"]);
    assert_eq!(i.label("error"), "error_label");
    assert_eq!(i.labels_query(&i.labels), "E<> error_label and A_label");
    let l = loads(&i);
    l.query("labels", &i.labels_query(&["error"])).expect("the renamed label resolves");
}

#[test]
fn tcheckers_not_chains_and_integer_conditions_are_explicit() {
    let i = yaml_of(
        "system:s\nevent:a\nint:1:0:5:0:i\nint:3:0:5:0:v\nclock:1:x\nprocess:P\n\
         location:P:l{initial: : invariant: x <= 3 && i < 4}\n\
         edge:P:l:l:a{provided: !i == 2 && 0 < i <= 3 && i && !v[1] && 2 < x : do: v[(i + 1) % 3] = (if i == 1 then 2 else -i); x = 0; nop}\n",
    );
    assert!(
        i.yaml.contains(
            r#"guard: "!(i == 2) && 0 < i && i <= 3 && i != 0 && v[1] == 0 && x > 2", update: "v[(i + 1) % 3] = (i == 1 ? 2 : -i); x = 0""#
        ),
        "{}",
        i.yaml
    );
    assert!(i.yaml.contains(r#"invariant: "x <= 3 && i < 4""#), "{}", i.yaml);
    loads(&i);
}

#[test]
fn sync_vectors_become_binary_channels_and_shared_events_are_copied() {
    let i = yaml_of(
        "system:s\nevent:a\nevent:b\nprocess:P\nlocation:P:l{initial:}\nedge:P:l:l:a\nedge:P:l:l:b\n\
         process:Q\nlocation:Q:l{initial:}\nedge:Q:l:l:a\nprocess:R\nlocation:R:l{initial:}\nedge:R:l:l:a\n\
         sync:P@a:Q@a\nsync:P@a:R@a\n",
    );
    assert!(i.yaml.contains("P_a__Q_a: binary"), "{}", i.yaml);
    assert!(i.yaml.contains(r#"- {from: l, to: l, sync: "P_a__Q_a!"}"#), "{}", i.yaml);
    assert!(i.yaml.contains(r#"- {from: l, to: l, sync: "P_a__R_a!"}"#), "{}", i.yaml);
    assert!(i.yaml.contains(r#"- {from: l, to: l, sync: "P_a__Q_a?"}"#), "{}", i.yaml);
    assert!(i.yaml.contains("- {from: l, to: l}   # b"), "b is internal:\n{}", i.yaml);
    loads(&i);
}

/// `tests/models/tchecker/vectors.tck` (written for this test): a vector of
/// five participants, two of them weak, one of four, and an all-weak one.
/// TChecker 0.8 (`tck-reach`, built from its repository) measured on the
/// same file: `-a reach` and `-a covreach` both 15 states, 15 visited, and
/// `-l done` reachable. Its 28 transitions are kairos's 20 plus 8 empty
/// global edges `<>` (self-loops) that it builds for the all-weak vector
/// when neither party can join, which its documentation says it does not
/// instantiate; kairos follows the documentation.
#[test]
fn nary_and_weak_sync_vectors_match_tcheckers_counts() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/tchecker/vectors.tck");
    let i = yaml_of(&std::fs::read_to_string(path).unwrap());
    assert!(i.yaml.contains(r#"{kind: vector, parties: [Crane, Belt, Press, "Lamp?", "Counter?"]}"#), "{}", i.yaml);
    assert!(i.yaml.contains(r#"Lamp_reset__Counter_finish: {kind: vector, parties: ["Lamp?", "Counter?"]}"#));
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kairos")).args(args).output().expect("run kairos");
        assert!(out.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let p = &v["properties"][0];
        let n = |k: &str| p["stats"][k].as_u64().unwrap();
        (p["verdict"].as_str().unwrap().to_string(), n("stored"), n("visited"), n("transitions"))
    };
    let whole = ["check", path, "-q", "E<> false", "--format", "json"];
    assert_eq!(run(&whole), ("violated".into(), 15, 15, 20));
    assert_eq!(run(&[&whole[..], &["--no-subsumption"]].concat()), ("violated".into(), 15, 15, 20));
    let done = run(&["check", path, "--labels", "done", "--format", "json"]);
    assert_eq!(done.0, "satisfied");
}

#[test]
fn clock_arrays_with_constant_indices_are_split() {
    let i = yaml_of(
        "system:s\nevent:a\nclock:2:x\nprocess:P\nlocation:P:l{initial: : invariant: x[1] <= 4}\n\
         edge:P:l:l:a{provided: x[0] - x[1] < 2 : do: x[2-2] = 0}\n",
    );
    assert!(i.yaml.contains("clocks: [x_0, x_1]"), "{}", i.yaml);
    assert!(i.yaml.contains(r#"guard: "x_0 - x_1 < 2", update: "x_0 = 0""#), "{}", i.yaml);
    loads(&i);
    let d = errors_of(
        "system:s\nevent:a\nclock:2:x\nint:1:0:1:0:i\nprocess:P\nlocation:P:l{initial:}\nedge:P:l:l:a{do: x[i] = 0}\n",
    );
    assert_eq!((d[0].code, d[0].loc.pos.line, d[0].loc.pos.column), ("unsupported", 7, 20), "{d:?}");
}

#[test]
fn unsupported_constructs_are_reported_with_positions() {
    let text = "system:s\nevent:a\nevent:b\nint:1:0:1:0:i\nclock:1:x\nclock:1:y\n\
                process:P\nlocation:P:l{initial:}\nlocation:P:m{initial:}\n\
                edge:P:l:l:a{do: if i == 0 then i = 1 end}\nedge:P:l:l:b{do: x = y + 1}\n\
                process:Q\nlocation:Q:l{initial: : layout: 3}\nedge:Q:l:l:a\n\
                process:R\nlocation:R:l{initial:}\nedge:R:l:l:a\n\
                sync:P@a:P@b\n";
    let d = errors_of(text);
    let got: Vec<(usize, usize, &str)> = d.iter().map(|d| (d.loc.pos.line, d.loc.pos.column, d.code)).collect();
    assert_eq!(
        got,
        vec![
            (9, 12, "unsupported"),        // a second initial location
            (10, 18, "unsupported"),       // if
            (11, 18, "unsupported"),       // x = y + 1
            (13, 25, "unknown-attribute"), // layout
            (18, 10, "unsupported"),       // P with itself
        ],
        "{d:#?}"
    );
}

#[test]
fn syntax_errors_are_all_reported_and_never_panic() {
    let d = errors_of("system:s\nevent:a\nprocess:P\nlocation:P:l{initial:}\nedge:P:l:m:a\nfoo\nint:1:5:1:0:i\n");
    assert!(d.len() >= 3, "{d:#?}");
    // Arbitrary bytes: errors, never a panic or a hang.
    let nasty =
        ["", "system", "system:", "{", "}", "system:s\n((((((((((", "system:s\nlocation:P:l{", "system:s\n#labels"];
    for t in nasty {
        let _ = import_tchecker("t.tck", t);
    }
    let deep = format!(
        "system:s\nevent:a\nint:1:0:1:0:i\nprocess:P\nlocation:P:l{{initial:}}\nedge:P:l:l:a{{provided: {}i{}}}\n",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let d = errors_of(&deep);
    assert_eq!(d[0].code, "too-deep", "{d:#?}");
}

#[test]
fn long_expressions_make_no_deep_trees() {
    let guard = vec!["i < 1"; 50_000].join(" && ");
    let sum = vec!["i"; 50_000].join(" + ");
    let text = format!(
        "system:s\nevent:a\nint:1:0:1:0:i\nprocess:P\nlocation:P:l{{initial:}}\nedge:P:l:l:a{{provided: {guard} : do: i = {sum} - {sum}}}\n"
    );
    let i = yaml_of(&text);
    assert!(i.yaml.contains("i < 1 && i < 1"));
}

/// `kairos import FILE.tck -o X.yaml` then `kairos graph X.yaml` prints the
/// zone graph of `kairos graph FILE.tck`, byte for byte (small models).
#[test]
fn imported_yaml_has_the_zone_graph_of_the_tck_file() {
    if tck_files().is_none() {
        return;
    }
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kairos")).args(args).output().expect("run kairos");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for model in ["ad94_1", "fischer_2", "dining-philosophers_2", "csmacd_2", "critical-region_2"] {
        let tck = Path::new(DIR).join(format!("{model}.tck"));
        let tck = tck.to_string_lossy();
        let yaml = std::env::temp_dir().join(format!("kairos-tck-{}-{model}.yaml", std::process::id()));
        let _ = std::fs::remove_file(&yaml);
        let yaml_s = yaml.to_string_lossy();
        let (code, _, err) = run(&["import", &tck, "-o", &yaml_s]);
        assert_eq!(code, Some(0), "{model}: {err}");
        for format in ["dot", "yaml"] {
            let (c1, direct, e1) = run(&["graph", &tck, "--format", format]);
            let (c2, imported, e2) = run(&["graph", &yaml_s, "--format", format]);
            assert_eq!((c1, c2), (Some(0), Some(0)), "{model}: {e1}{e2}");
            assert!(direct.lines().count() > 5, "{model}: {direct}");
            assert_eq!(direct, imported, "{model}: the zone graphs differ ({format})");
        }
        std::fs::remove_file(&yaml).unwrap();
    }
}
