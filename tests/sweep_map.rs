//! `kairos sweep --svg`: the map of two parameters, parsed as XML and
//! checked cell by cell against `kairos check --param` at the cell's point,
//! pinned in a snapshot; the README's map is current; `--format csv` holds
//! the JSON's points.

use crate::common;

use std::collections::HashMap;

use serde_json::Value;

const FISCHER: &str = "models/fischer-param.yaml";
const MUTEX: &str = "A[] not (P(1).cs and P(2).cs)";

fn scratch(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("kairos-sweep-map-{}-{name}", std::process::id()))
}

/// The map `kairos sweep` draws, with `args` after the model and query.
fn map(args: &[&str]) -> String {
    let file = scratch("map.svg");
    let mut all = vec!["sweep", FISCHER, "-q", MUTEX, "--svg", file.to_str().unwrap()];
    all.extend(args);
    let (code, _, err) = common::kairos(&all);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_file(&file).unwrap();
    svg
}

/// The verdict `kairos check` gives at one point.
fn concrete(a: &str, b: &str) -> String {
    let (pa, pb) = (format!("a={a}"), format!("b={b}"));
    let (code, out, err) =
        common::kairos(&["check", FISCHER, "-q", MUTEX, "--param", &pa, "--param", &pb, "--format", "json"]);
    assert!(code == 0 || code == 1, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    v["properties"][0]["verdict"].as_str().unwrap().to_string()
}

#[test]
fn each_cell_has_the_colour_of_the_concrete_verdict_at_its_point() {
    let svg = map(&["--param", "a=0..4", "--param", "b=0..5:5/4", "--with-synth"]);
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}"));
    let with_class = |c: &'static str| doc.descendants().filter(move |n| n.attribute("class") == Some(c));
    let swatches: HashMap<&str, &str> =
        with_class("swatch").map(|n| (n.attribute("data-verdict").unwrap(), n.attribute("fill").unwrap())).collect();
    assert_eq!(swatches.len(), 4, "a legend entry per verdict");
    let cells: Vec<_> = with_class("cell").collect();
    assert_eq!(cells.len(), 5 * 5, "a cell per grid point");
    let mut seen = HashMap::new();
    for cell in &cells {
        let (a, b) = (cell.attribute("data-x").unwrap(), cell.attribute("data-y").unwrap());
        let verdict = concrete(a, b);
        let fill = cell.children().find(|n| n.has_tag_name("rect")).unwrap().attribute("fill").unwrap();
        assert_eq!(fill, swatches[verdict.as_str()], "the cell at a = {a}, b = {b} ({verdict})");
        let tip = cell.children().find(|n| n.has_tag_name("title")).unwrap().text().unwrap();
        assert_eq!(tip, format!("a = {a}, b = {b}: {verdict}"));
        *seen.entry(verdict).or_insert(0) += 1;
    }
    assert!(seen.len() == 2, "both verdicts occur: {seen:?}");
    // The synthesised set is drawn: one member, `a < b`, in the legend.
    let region: Vec<_> = with_class("region").collect();
    assert_eq!(region.len(), 1);
    assert_eq!(region[0].descendants().filter(|n| n.has_tag_name("path")).count(), 1);
    assert!(svg.contains("the synthesised set, a &lt; b (exact)"));
    let name = |c: &'static str| with_class(c).next().unwrap().attribute("data-name").unwrap();
    assert_eq!((name("x-axis"), name("y-axis")), ("a", "b"));
    // The same bytes when drawn again.
    assert_eq!(svg, map(&["--param", "a=0..4", "--param", "b=0..5:5/4", "--with-synth"]));
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots/param_maps");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!("fischer-param-a-b", svg));
}

#[test]
fn a_map_of_more_than_two_varying_parameters_is_refused() {
    let file = scratch("three.svg");
    let args = [
        "sweep",
        "models/railroad-param.yaml",
        "-q",
        "A[] (crossing imply gate_down)",
        "--param",
        "dApproach=0..2",
        "--param",
        "dStartDown=0..1",
        "--param",
        "dGetDown=1..2",
        "--svg",
        file.to_str().unwrap(),
    ];
    let (code, _, err) = common::kairos(&args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a map shows two parameters, and 3 vary"), "{err}");
    assert!(!file.exists());
    // One of them fixed: drawn.
    let mut fixed = args.to_vec();
    fixed[9] = "dGetDown=2";
    let (code, _, err) = common::kairos(&fixed);
    assert_eq!(code, 0, "{err}");
    std::fs::remove_file(&file).unwrap();
}

/// The README's map is what `--svg` draws today.
#[test]
fn the_readme_map_is_current() {
    let drawn = map(&["--param", "a=0..10", "--param", "b=0..10", "--with-synth"]);
    assert!(
        drawn == std::fs::read_to_string("docs/fischer-param-map.svg").unwrap(),
        "docs/fischer-param-map.svg is stale: regenerate it with the README's command"
    );
}

#[test]
fn csv_holds_the_points_of_the_json() {
    let args = ["sweep", FISCHER, "-q", MUTEX, "--param", "a=1/2..2:1/2", "--param", "b=1"];
    let (_, out, _) = common::kairos(&[&args[..], &["--format", "json"]].concat());
    let json: Value = serde_json::from_str(&out).unwrap();
    let (code, csv, err) = common::kairos(&[&args[..], &["--format", "csv"]].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "", "no progress line when stderr is not a terminal");
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("a,b,verdict,reason,time_s,visited,stored"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let points = json["points"].as_array().unwrap();
    assert_eq!(rows.len(), points.len());
    assert_eq!(rows.len(), 4);
    for (r, p) in rows.iter().zip(points) {
        assert_eq!(r.len(), 7);
        assert_eq!((r[0], r[1], r[2]), (p["params"]["a"].as_str().unwrap(), "1", p["verdict"].as_str().unwrap()));
        assert!(r[4].parse::<f64>().is_ok());
        assert_eq!(r[6], p["stats"]["stored"].to_string());
    }
    assert_eq!(rows[0][..3], ["1/2", "1", "satisfied"]);
    assert_eq!(rows[3][..3], ["2", "1", "violated"]);
}
