//! The reach engine on two threads (`--jobs 2`, `engine::parallel`)
//! against one thread on TChecker's families: the same verdicts, the same
//! traces, stored-state counts that differ only by the order of
//! subsumption, and the limits that end a search with `unknown`. (The
//! differential suite compares `--jobs 2` with the independent oracles.)

use crate::common;

use std::path::Path;

use kairos::engine::reach::Limits;
use kairos::engine::{self, AbstractionChoice, Options, Outcome, Unknown, Verdict};

fn run(path: &str, query: &str, options: &Options) -> Outcome {
    let loaded = common::load(Path::new(path)).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let p = loaded.query("q", query).unwrap();
    engine::check(&loaded.model, Some(&net), &p, options)
}

fn on(jobs: usize, abstraction: AbstractionChoice) -> Options {
    Options { jobs, abstraction: Some(abstraction), ..Options::default() }
}

/// Same verdict and trace with one and two threads; stored counts within
/// `slack` (a fraction) of each other.
fn same_answer(path: &str, query: &str, abstraction: AbstractionChoice, slack: f64) -> Outcome {
    let one = run(path, query, &on(1, abstraction));
    let two = run(path, query, &on(2, abstraction));
    assert_eq!(one.verdict, two.verdict, "{path} `{query}`");
    let trace = |o: &Outcome| o.trace.as_ref().map(|t| (t.states.clone(), t.steps.clone()));
    assert_eq!(trace(&one), trace(&two), "{path} `{query}`: traces");
    let (s1, s2) = (one.stats.unwrap(), two.stats.unwrap());
    let (a, b) = (s1.stored as f64, s2.stored as f64);
    assert!((a - b).abs() <= slack * a.max(b), "{path} `{query}`: stored {a} vs {b}");
    two
}

#[test]
fn two_threads_answer_as_one_on_exhaustive_searches() {
    use AbstractionChoice::{Alu, Lu};
    for (path, query) in [
        ("models/bench/fischer_5.yaml", "E<> false"),
        ("models/bench/fischer_5.yaml", "E<> P1.cs and P2.cs"),
        ("models/bench/csmacd_4.yaml", "E<> false"),
        ("models/bench/fddi_4.yaml", "E<> false"),
        ("models/fischer.yaml", "A[] not deadlock"),
    ] {
        for a in [Lu, Alu] {
            let two = same_answer(path, query, a, 0.2);
            assert_eq!(two.stats.unwrap().jobs, 2, "{path}: ran on two threads");
        }
    }
}

/// Without subsumption every distinct zone is stored whatever the order:
/// two threads store exactly as many as one.
#[test]
fn two_threads_store_every_zone_without_subsumption() {
    for path in ["models/bench/fischer_5.yaml", "models/bench/csmacd_4.yaml"] {
        let options = |jobs| Options { subsumption: false, ..on(jobs, AbstractionChoice::Lu) };
        let one = run(path, "E<> false", &options(1)).stats.unwrap();
        let two = run(path, "E<> false", &options(2)).stats.unwrap();
        assert_eq!(two.jobs, 2, "{path}: ran on two threads");
        assert_eq!((one.visited, one.stored, one.transitions), (two.visited, two.stored, two.transitions), "{path}");
    }
}

/// Workers expand layer by layer (none runs ahead of the shallowest state
/// another has queued), so subsumption prunes as on one thread. Without
/// that, two workers on fischer 7 expanded 12 260 to 13 930 states (mean
/// 9 % over one thread's 11 951); with it, 11 951 to 12 074. The mean over
/// eight runs is within 2 %.
#[test]
fn two_threads_expand_about_the_states_one_thread_expands() {
    let path = "models/bench/fischer_7.yaml";
    let options = on(1, AbstractionChoice::Alu);
    let one = run(path, "E<> false", &options).stats.unwrap().visited as f64;
    let runs = 8;
    let two: u64 =
        (0..runs).map(|_| run(path, "E<> false", &on(2, AbstractionChoice::Alu)).stats.unwrap().visited).sum();
    let mean = two as f64 / f64::from(runs);
    assert!(mean <= one * 1.02, "two threads expanded {mean} states on average, one thread {one}");
}

/// The progress display's stored count is the sum over the workers
/// (each worker's passed list holds only its own discrete states).
#[test]
fn two_threads_show_the_stored_states_of_both() {
    let shown = std::sync::Arc::new(kairos::engine::limits::Progress::default());
    let mut options = on(2, AbstractionChoice::Alu);
    options.limits.progress = Some(std::sync::Arc::clone(&shown));
    let stats = run("models/bench/fischer_5.yaml", "E<> false", &options).stats.unwrap();
    assert_eq!(stats.jobs, 2);
    assert_eq!(shown.stored.load(std::sync::atomic::Ordering::Relaxed), stats.stored);
}

#[test]
fn two_threads_report_the_one_thread_trace() {
    let two = same_answer("models/bench/fischer_5.yaml", "E<> P3.cs", AbstractionChoice::Alu, 1.0);
    assert_eq!(two.verdict, Verdict::Satisfied);
    let t = two.trace.expect("a witness");
    let loaded = common::load(Path::new("models/bench/fischer_5.yaml")).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    kairos::trace::concretise(&net, &t).expect("a run of the network");
    // A violated invariant gives its counterexample the same way.
    same_answer("models/fischer.yaml", "A[] not P(2).cs", AbstractionChoice::Lu, 1.0);
}

#[test]
fn two_threads_stop_at_the_limits() {
    let options =
        Options { limits: Limits { max_states: Some(100), ..Limits::default() }, ..on(2, AbstractionChoice::Lu) };
    let o = run("models/bench/fischer_6.yaml", "E<> false", &options);
    assert_eq!(o.verdict, Verdict::Unknown(Unknown::StateLimit));
    assert!(o.stats.unwrap().visited <= 100);
    let deadline = std::time::Instant::now();
    let options =
        Options { limits: Limits { deadline: Some(deadline), ..Limits::default() }, ..on(2, AbstractionChoice::Lu) };
    let o = run("models/bench/fischer_6.yaml", "E<> false", &options);
    assert_eq!(o.verdict, Verdict::Unknown(Unknown::Timeout));
}
