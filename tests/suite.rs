//! Every integration test in one binary: one link and one compilation of
//! what the tests share, instead of one per file, and the tests of all
//! files run in parallel. Each file stays a module of its own (`cargo test
//! --test suite poly_domain::` runs one); `every_test_file_is_a_module`
//! fails when a file under `tests/` is not listed here.

// What several files share, declared once.
mod common;
mod oracle;
mod poly_support;
#[path = "dbm_support.rs"]
mod support;
mod trace_support;

#[path = "bdd_data.rs"]
mod bdd_data;
#[path = "bdd_differential.rs"]
mod bdd_differential;
#[path = "bdd_tctl.rs"]
mod bdd_tctl;
#[path = "bound_differential.rs"]
mod bound_differential;
#[path = "broadcast_cut.rs"]
mod broadcast_cut;
#[path = "cli.rs"]
mod cli;
#[path = "dbm_bound.rs"]
mod dbm_bound;
#[path = "dbm_display.rs"]
mod dbm_display;
#[path = "dbm_extrapolation.rs"]
mod dbm_extrapolation;
#[path = "dbm_minimal.rs"]
mod dbm_minimal;
#[path = "dbm_ops.rs"]
mod dbm_ops;
#[path = "dbm_simulation.rs"]
mod dbm_simulation;
#[path = "dbm_subtract.rs"]
mod dbm_subtract;
#[path = "differential.rs"]
mod differential;
#[path = "examples.rs"]
mod examples;
#[path = "extremum_differential.rs"]
mod extremum_differential;
#[path = "extremum_models.rs"]
mod extremum_models;
#[path = "federation_ops.rs"]
mod federation_ops;
#[path = "functions.rs"]
mod functions;
#[path = "functions_differential.rs"]
mod functions_differential;
#[path = "fuzz_corpus.rs"]
mod fuzz_corpus;
#[path = "graph_views.rs"]
mod graph_views;
#[path = "html_report.rs"]
mod html_report;
#[path = "huge_inputs.rs"]
mod huge_inputs;
#[path = "hybrid_bound.rs"]
mod hybrid_bound;
#[path = "hybrid_cli.rs"]
mod hybrid_cli;
#[path = "hybrid_differential.rs"]
mod hybrid_differential;
#[path = "hybrid_graphs.rs"]
mod hybrid_graphs;
#[path = "hybrid_liveness.rs"]
mod hybrid_liveness;
#[path = "hybrid_models.rs"]
mod hybrid_models;
#[path = "hybrid_worst_case.rs"]
mod hybrid_worst_case;
#[path = "import_imitator.rs"]
mod import_imitator;
#[path = "import_tchecker.rs"]
mod import_tchecker;
#[path = "import_uppaal.rs"]
mod import_uppaal;
#[path = "imported_errors.rs"]
mod imported_errors;
#[path = "invalid_models.rs"]
mod invalid_models;
#[path = "lang_array_copy.rs"]
mod lang_array_copy;
#[path = "lang_bitwise.rs"]
mod lang_bitwise;
#[path = "lang_compound.rs"]
mod lang_compound;
#[path = "lang_effects.rs"]
mod lang_effects;
#[path = "limits.rs"]
mod limits;
#[path = "liveness.rs"]
mod liveness;
#[path = "liveness_differential.rs"]
mod liveness_differential;
#[path = "observer.rs"]
mod observer;
#[path = "parallel_reach.rs"]
mod parallel_reach;
#[path = "poly_assign.rs"]
mod poly_assign;
#[path = "poly_canonical.rs"]
mod poly_canonical;
#[path = "poly_domain.rs"]
mod poly_domain;
#[path = "poly_elapse.rs"]
mod poly_elapse;
#[path = "poly_hull.rs"]
mod poly_hull;
#[path = "poly_linear.rs"]
mod poly_linear;
#[path = "poly_project.rs"]
mod poly_project;
#[path = "priority.rs"]
mod priority;
#[path = "reach_semantics.rs"]
mod reach_semantics;
#[path = "readme.rs"]
mod readme;
#[path = "reference_counts.rs"]
mod reference_counts;
#[path = "simulate.rs"]
mod simulate;
#[path = "state_formulas.rs"]
mod state_formulas;
#[path = "store_paths.rs"]
mod store_paths;
#[path = "sweep.rs"]
mod sweep;
#[path = "sweep_constants.rs"]
mod sweep_constants;
#[path = "sweep_jobs.rs"]
mod sweep_jobs;
#[path = "sweep_map.rs"]
mod sweep_map;
#[path = "syntax_nesting.rs"]
mod syntax_nesting;
#[path = "syntax_parse.rs"]
mod syntax_parse;
#[path = "synth.rs"]
mod synth;
#[path = "synth_witness.rs"]
mod synth_witness;
#[path = "tctl_crosscheck.rs"]
mod tctl_crosscheck;
#[path = "tctl_evidence.rs"]
mod tctl_evidence;
#[path = "tctl_lasso.rs"]
mod tctl_lasso;
#[path = "tctl_nested.rs"]
mod tctl_nested;
#[path = "tctl_nested_evidence.rs"]
mod tctl_nested_evidence;
#[path = "timing_diagrams.rs"]
mod timing_diagrams;
#[path = "trace_concrete.rs"]
mod trace_concrete;
#[path = "trace_render.rs"]
mod trace_render;
#[path = "trace_validate.rs"]
mod trace_validate;
#[path = "unsupported_models.rs"]
mod unsupported_models;
#[path = "zone_graphs.rs"]
mod zone_graphs;

/// A file under `tests/` that is not a module of this suite would not run
/// (`autotests = false` in Cargo.toml).
#[test]
fn every_test_file_is_a_module() {
    let listed = include_str!("suite.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    for entry in std::fs::read_dir(dir).expect("tests/") {
        let name = entry.expect("an entry").file_name().into_string().expect("a UTF-8 name");
        if let Some(stem) = name.strip_suffix(".rs") {
            let support = ["suite", "dbm_support"].contains(&stem);
            assert!(
                support || listed.contains(&format!("mod {stem};")),
                "tests/{name} is not a module of tests/suite.rs"
            );
        }
    }
}
