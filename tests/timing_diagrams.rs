//! Timing diagrams of concrete traces (`--svg`): pinned in snapshots, and
//! each one parsed as XML and checked against its trace: one lane per
//! process, one step group per step, one plot per clock and variable, the
//! loop of a lasso marked.

use crate::common;

use std::path::Path;

use kairos::engine::{self, Options, Verdict};
use kairos::network::Network;
use kairos::trace::{self, ConcreteTrace};

/// The validated concrete trace of `query` on `model`, expected violated,
/// and the network it is a run of (an observer's product, or the model's).
fn counterexample(model: &str, query: &str) -> (Network, ConcreteTrace) {
    let loaded = common::load(Path::new(model)).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let p = loaded.query("q", query).unwrap_or_else(|d| panic!("{query}: {d:?}"));
    let o = engine::check(&loaded.model, Some(&net), &p, &Options::default());
    assert_eq!(o.verdict, Verdict::Violated, "{query}");
    let net = o.network.as_deref().cloned().unwrap_or(net);
    let t = trace::concretise(&net, o.trace.as_ref().expect("a trace")).unwrap_or_else(|e| panic!("{query}: {e}"));
    trace::validate(&net, &t).unwrap();
    (net, t)
}

/// The structure of a diagram, read back by an XML parser.
fn check_structure(svg: &str, net: &Network, t: &ConcreteTrace) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let class = |c: &str| {
        doc.descendants()
            .filter(|n| {
                n.tag_name().name() == "g" && n.attribute("class").is_some_and(|a| a.split(' ').next() == Some(c))
            })
            .collect::<Vec<_>>()
    };
    let lanes: Vec<_> = class("lane").iter().map(|n| n.attribute("data-process").unwrap().to_string()).collect();
    let names: Vec<_> = net.processes.iter().map(|p| p.name.clone()).collect();
    assert_eq!(lanes, names, "one lane per process, in order");
    let steps = class("step");
    assert_eq!(steps.len(), t.steps.len(), "one marker per step");
    for (s, step) in steps.iter().zip(&t.steps) {
        let title = s.children().find(|n| n.tag_name().name() == "title").expect("a tooltip").text().unwrap();
        assert!(title.contains(&format!("after delay {}", step.delay)), "{title}");
        if !step.transition.edges.is_empty() {
            let dots = s.children().filter(|n| n.tag_name().name() == "circle").count();
            assert_eq!(dots, step.transition.edges.len(), "a dot per moving process: {title}");
        }
    }
    assert_eq!(class("clock").len(), net.clocks.len());
    assert_eq!(class("data").len(), net.slots.len());
    assert_eq!(class("loop").len(), usize::from(t.loop_start.is_some()));
    // Every location bar's tooltip names a location of its lane's process.
    for lane in class("lane") {
        let p = net.processes.iter().find(|p| Some(p.name.as_str()) == lane.attribute("data-process")).unwrap();
        for bar in lane.children().filter(|n| n.attribute("class") == Some("location")) {
            let tip = bar.first_element_child().unwrap().text().unwrap();
            assert!(p.locations.iter().any(|l| tip.starts_with(&format!("{}.{} from t = ", p.name, l.name))), "{tip}");
        }
    }
}

fn diagram(name: &str, model: &str, query: &str) -> String {
    let (net, t) = counterexample(model, query);
    let svg = kairos::report::svg::timing_diagram(&net, &t, &format!("{}: {query}", net.name));
    check_structure(&svg, &net, &t);
    // Byte-identical when drawn again.
    assert_eq!(svg, kairos::report::svg::timing_diagram(&net, &t, &format!("{}: {query}", net.name)));
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots/timing_diagrams");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name, svg));
    svg
}

#[test]
fn railway_crossing_safety_counterexample() {
    let svg = diagram(
        "railway-crossing-near-x-ge-3",
        "models/railway-crossing.yaml",
        "A[] not (Train(1).near and Train(1).x >= 3)",
    );
    // Three steps at time 0, spread out; the train's approach is an arrow.
    assert!(svg.contains("step 1 at t = 0 (after delay 0): Train(1): far -&gt; near  approach!"));
    assert!(svg.contains("marker-end=\"url(#arrow)\""));
}

#[test]
fn liveness_lasso() {
    let svg = diagram("railway-crossing-lasso", "models/railway-crossing.yaml", "Train(1).on --> Train(2).near");
    assert!(svg.contains("loop: repeats forever"));
}

#[test]
fn bounded_response_observer_trace() {
    let svg = diagram("railway-crossing-observer", "models/railway-crossing.yaml", "Train(1).near -->[<1] Gate.down");
    assert!(svg.contains("data-process=\"Observer\""));
}

#[test]
fn a_run_without_clocks_or_steps_is_drawn() {
    let (net, t) = counterexample("models/railway-crossing.yaml", "A[] not Train(1).far");
    assert!(t.steps.is_empty());
    let svg = kairos::report::svg::timing_diagram(&net, &t, "<&>");
    check_structure(&svg, &net, &t);
    assert!(svg.contains("&lt;&amp;&gt;"));
}

/// The README's picture is what `--svg` draws today.
#[test]
fn the_readme_diagram_is_current() {
    let file = std::env::temp_dir().join(format!("kairos-readme-diagram-{}.svg", std::process::id()));
    let query = "Train(1).on --> Train(2).near";
    let (code, _, err) =
        common::kairos(&["check", "models/railway-crossing.yaml", "-q", query, "--svg", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let drawn = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_file(&file).unwrap();
    assert!(
        drawn == std::fs::read_to_string("docs/railway-crossing-lasso.svg").unwrap(),
        "docs/railway-crossing-lasso.svg is stale: regenerate it with the README's command"
    );
}

/// A nested counterexample marks its last state with the subformula that
/// fails there (the note the engine's blame gives; tests/tctl_evidence.rs
/// checks the blame itself).
#[test]
fn the_deciding_subformula_is_marked_at_the_end() {
    let query = "A[] (Train(1).on imply A[Gate.down U Gate.up])";
    let (net, t) = counterexample("models/railway-crossing.yaml", query);
    let note = "`A[Gate.down U Gate.up]` fails here";
    let svg = kairos::report::svg::marked_diagram(&net, &t, query, note);
    check_structure(&svg, &net, &t);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let mark = doc.descendants().find(|n| n.attribute("class") == Some("verdict-mark")).expect("the mark");
    assert!(mark.descendants().any(|n| n.text() == Some(note)), "{svg}");
    assert!(!kairos::report::svg::timing_diagram(&net, &t, query).contains("class=\"verdict-mark\""));
}

/// A hybrid run: the water level is a continuous variable drawn at its
/// rates (+1 while the pump is on, -2 while it is off), so its plot has
/// slopes other than 1, and its values on hover are exact.
#[test]
fn hybrid_trace_draws_continuous_variables_at_their_rates() {
    let svg = diagram("water-level-trough", "models/water-level.yaml", "A[] not (Tank.on and level <= 1)");
    let (net, t) = counterexample("models/water-level.yaml", "A[] not (Tank.on and level <= 1)");
    let rates = t.rates.as_ref().expect("a hybrid trace carries its rates");
    assert!(rates.iter().flatten().any(|r| *r != kairos::trace::Rational::from_integer(1.into())), "{rates:?}");
    assert!(net.clocks.iter().any(|c| c == "level"), "{:?}", net.clocks);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let plot = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("clock") && n.attribute("data-clock") == Some("level"))
        .unwrap_or_else(|| panic!("a plot of `level`: {svg}"));
    assert!(plot.descendants().any(|n| n.text() == Some("level = 1 at the end, t = 33/2")), "{svg}");
    assert!(svg.contains("continuous variables (at their rates during delays)"));
}
