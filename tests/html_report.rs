//! `kairos report`: one self-contained HTML page with every property, its
//! verdict and each trace as a timing diagram, checked against `kairos
//! check --format json --trace` on the same files; and, when Debian's
//! `chromium` is installed, loaded in headless Chromium without errors.

use crate::common;

use std::path::PathBuf;

const MODEL: &str = "models/railway-crossing.yaml";
const SPEC: &str = "specs/railway-crossing.yaml";

fn report(name: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("kairos-report-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("report.html");
    let (code, out, err) = common::kairos(&["report", MODEL, SPEC, "-o", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("report written to"), "{out}");
    let html = std::fs::read_to_string(&file).unwrap();
    (file, html)
}

#[test]
fn every_property_verdict_and_diagram_is_in_the_page() {
    let (file, html) = report("content");
    let (_, json, _) = common::kairos(&["check", MODEL, SPEC, "--format", "json", "--trace"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let options = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
    let doc =
        roxmltree::Document::parse_with_options(&html, options).unwrap_or_else(|e| panic!("not well-formed: {e}"));
    let sections: Vec<_> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "section" && n.attribute("class") == Some("property"))
        .collect();
    let properties = json["properties"].as_array().unwrap();
    assert_eq!(sections.len(), properties.len());
    assert_eq!(properties.len(), 37);
    for (s, p) in sections.iter().zip(properties) {
        assert_eq!(s.attribute("data-name"), p["name"].as_str());
        assert_eq!(s.attribute("data-verdict"), p["verdict"].as_str(), "{}", p["name"]);
        let svg = s.descendants().find(|n| n.tag_name().name() == "svg");
        assert_eq!(svg.is_some(), !p["trace"].is_null(), "a diagram exactly for each trace: {}", p["name"]);
        if let Some(svg) = svg {
            // JSON traces list the initial state and a final delay as steps.
            let steps =
                svg.descendants().filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("step"))).count();
            let listed = p["trace"].as_array().unwrap().len();
            assert!(steps + 1 == listed || steps + 2 == listed, "{}: {steps} steps, {listed} entries", p["name"]);
        }
    }
    // Self-contained: nothing to fetch.
    assert!(!html.contains("http://") || html.matches("http://").count() == html.matches("xmlns=\"http://").count());
    assert!(!html.contains("https://") && !html.contains("<script") && !html.contains("src="));
    std::fs::remove_file(file).unwrap();
}

/// Debian's Chromium, if installed.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n))).find(|p| p.is_file())
}

#[test]
fn the_page_loads_in_headless_chromium_without_errors() {
    let Some(browser) = chromium() else {
        println!("skipped: no `chromium` on the PATH (Debian package `chromium`)");
        return;
    };
    let (file, html) = report("chromium");
    let profile = file.with_file_name("profile");
    let out = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            &format!("--user-data-dir={}", profile.display()),
            "--dump-dom",
            &format!("file://{}", std::fs::canonicalize(&file).unwrap().display()),
        ])
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&out.stdout);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    // Console messages and failed loads are logged as CONSOLE lines.
    assert!(!log.contains("CONSOLE") && !log.contains("Failed to load resource"), "{log}");
    assert_eq!(dom.matches("<svg").count(), html.matches("<svg").count(), "every diagram in the DOM");
    assert!(dom.matches("<section class=\"property\"").count() == 30, "{dom}");
    std::fs::remove_dir_all(file.parent().unwrap()).unwrap();
}

/// A `synth:` entry shows the synthesised set and a map of concrete checks
/// over the parameters' ranges: for Fischer, mutual exclusion holds at a
/// grid point exactly when b > a (the model's comments argue it), so every
/// cell's verdict is compared with that, independently of the synthesis.
#[test]
fn a_synthesis_is_shown_with_its_parameter_map() {
    let file = std::env::temp_dir().join(format!("kairos-report-synth-{}.html", std::process::id()));
    let (code, out, err) = common::kairos(&[
        "report",
        "models/fischer-param.yaml",
        "specs/fischer-param.yaml",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let page = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_file(&file).unwrap();
    assert!(page.contains("mutual-exclusion: synthesised: a &lt; b (exact"), "{page}");
    assert!(page.contains("data-name=\"someone-enters\" data-verdict=\"synthesised\""));
    let options = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
    let doc = roxmltree::Document::parse_with_options(&page, options).unwrap();
    let section = doc.descendants().find(|n| n.attribute("data-name") == Some("mutual-exclusion")).unwrap();
    let cells: Vec<_> = section.descendants().filter(|n| n.attribute("class") == Some("cell")).collect();
    assert_eq!(cells.len(), 11 * 11, "a grid over a, b in 0..10");
    for c in cells {
        let v = |k: &str| c.attribute(k).unwrap().parse::<i64>().unwrap();
        let holds = if v("data-y") > v("data-x") { "satisfied" } else { "violated" };
        assert_eq!(c.attribute("data-verdict"), Some(holds), "a = {}, b = {}", v("data-x"), v("data-y"));
    }
}

/// Warnings are on the page too: each property's section has as many
/// warnings as `kairos check --format json` gives it (here, time-locks).
#[test]
fn warnings_are_in_the_page() {
    let model = "tests/models/liveness/partial-time-lock.yaml";
    let file = std::env::temp_dir().join(format!("kairos-report-warnings-{}.html", std::process::id()));
    let (code, out, err) = common::kairos(&["report", model, "-o", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let page = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_file(&file).unwrap();
    let (_, json, _) = common::kairos(&["check", model, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let options = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
    let doc = roxmltree::Document::parse_with_options(&page, options).unwrap();
    let mut total = 0;
    for p in v["properties"].as_array().unwrap() {
        let name = p["name"].as_str().unwrap();
        let expected = v["warnings"].as_array().unwrap().iter().filter(|w| w["property"] == name).count();
        let section = doc.descendants().find(|n| n.attribute("data-name") == Some(name)).unwrap();
        let shown = section.children().filter(|n| n.attribute("class") == Some("warning")).count();
        assert_eq!(shown, expected, "{name}");
        total += shown;
    }
    assert!(total >= 4, "every property of the model meets a time-lock: {total}");
}
