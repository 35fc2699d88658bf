//! Random networks whose data code is user functions (parameters by value
//! and by reference, locals, `if`, `for`/`while`, early returns, calls,
//! results checked against their ranges), checked by kairos and by the
//! test's own interpreter of the same syntax tree (`programs/explore.rs`),
//! which shares no code with kairos: the reachable state count, run-time
//! errors, `E<>` of single states (reachable ones and random ones) and
//! `A[] not deadlock` must agree, with explicit data and with `--data bdd`
//! where the BDD engine takes the model.
//!
//! Each network is written twice: as a kairos model, and as an UPPAAL one
//! whose scalar globals and first array are fields of a structure (the
//! importer flattens structures, translates the functions and the queries).
//!
//! `KAIROS_FN_SEED` and `KAIROS_FN_COUNT` choose the seeds;
//! `-- --ignored` runs the 5 000-network campaign.

use crate::common;
mod programs;
use crate::oracle::random;

use std::fmt::Write as _;
use std::path::PathBuf;

use common::kairos;
use programs::explore::{Explored, FirstError, Layout, explore};
use programs::text::Dialect;
use programs::{Net, Range};
use random::Rng;

#[derive(Default, Debug)]
struct Tally {
    networks: u64,
    too_big: u64,
    error_free: u64,
    with_errors: u64,
    states: u64,
    queries: u64,
    bdd_compared: u64,
    bdd_refused: u64,
    disagreements: Vec<String>,
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| v.parse().unwrap_or_else(|_| panic!("{name}={v}: not a number")))
}

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

/// The formula that holds exactly in state `s`.
fn state_formula(net: &Net, layout: &Layout, s: &[i64], d: Dialect) -> String {
    let st = if d == Dialect::Uppaal { "st." } else { "" };
    let mut f = String::new();
    for i in 0..net.instances {
        write!(f, "P({i}).l{} and P({i}).c == {} and ", s[layout.location(i)], s[layout.local(i)]).unwrap();
    }
    for k in 0..net.globals.len() {
        write!(f, "{st}g{k} == {} and ", s[layout.globals + k]).unwrap();
    }
    for (k, (_, n)) in net.arrays.iter().enumerate() {
        for i in 0..*n {
            let st = if k == 0 { st } else { "" };
            write!(f, "{st}a{k}[{i}] == {} and ", s[layout.arrays[k] + i]).unwrap();
        }
    }
    for k in 0..net.flags {
        write!(f, "{}f{k}", if s[layout.flags + k] != 0 { "" } else { "not " }).unwrap();
    }
    f
}

/// A random state vector, mostly not reachable.
fn random_state(net: &Net, layout: &Layout, rng: &mut Rng) -> Vec<i64> {
    let mut s = vec![0; layout.len];
    let pick = |r: Range, rng: &mut Rng| rng.int(r.lo, r.hi);
    for i in 0..net.instances {
        s[layout.location(i)] = rng.below(net.locations) as i64;
        s[layout.local(i)] = pick(net.local, rng);
    }
    for (k, r) in net.globals.iter().enumerate() {
        s[layout.globals + k] = pick(*r, rng);
    }
    for (k, (r, n)) in net.arrays.iter().enumerate() {
        for i in 0..*n {
            s[layout.arrays[k] + i] = pick(*r, rng);
        }
    }
    for k in 0..net.flags {
        s[layout.flags + k] = rng.below(2) as i64;
    }
    s
}

fn check_network(seed: u64, tally: &mut Tally) {
    let net = programs::generate::network(seed);
    let Some(ours) = explore(&net, 50_000) else {
        tally.too_big += 1;
        return;
    };
    tally.networks += 1;
    match &ours {
        Ok(explored) => {
            tally.error_free += 1;
            tally.states += explored.states.len() as u64;
        }
        Err(_) => tally.with_errors += 1,
    }
    if std::env::var("KAIROS_FN_VERBOSE").is_ok() {
        println!("seed {seed}: {:?}", ours.as_ref().map(|e| (e.states.len(), e.deadlocks)));
    }
    for d in [Dialect::Kairos, Dialect::Uppaal] {
        let (text, ext) = match d {
            Dialect::Kairos => (programs::yaml::model(&net, &format!("fn{seed}")), "yaml"),
            Dialect::Uppaal => (programs::uppaal::model(&net), "xml"),
        };
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("functions-differential-{seed}.{ext}"));
        std::fs::write(&path, &text).unwrap();
        compare(seed, &net, &ours, path.to_str().unwrap(), d, &text, tally);
    }
}

/// The run of kairos on one writing of the network against ours.
fn compare(
    seed: u64,
    net: &Net,
    ours: &Result<Explored, FirstError>,
    file: &str,
    d: Dialect,
    text: &str,
    tally: &mut Tally,
) {
    let mut disagree = |what: String| tally.disagreements.push(format!("seed {seed} ({file}): {what}\n{text}"));
    let (code, out, err) = kairos(&["check", file, "--format", "json"]);
    if code == 2 {
        disagree(format!("kairos refuses the model: {out}{err}"));
        return;
    }
    let v = json(&out);
    let explored = match ours {
        Err(first) => {
            // Breadth-first, kairos meets the first error from a state as
            // few steps away as ours, and its trace leads there.
            let steps = v["trace"].as_array().map(|t| t.len() as i64 - 1);
            if code != 4 || v["verdict"] != "error" || steps != Some(first.depth as i64) {
                disagree(format!("a run-time error {} steps away; kairos: exit {code} {out}{err}", first.depth));
            }
            return;
        }
        Ok(explored) => explored,
    };
    if code != 0 || v["stats"]["stored"] != explored.states.len() as u64 {
        disagree(format!("{} states reachable; kairos: exit {code} {out}{err}", explored.states.len()));
        return;
    }
    compare_queries(seed, net, file, explored, d, tally);
}

/// `E<>` of single states and `A[] not deadlock`, with both data engines.
fn compare_queries(seed: u64, net: &Net, file: &str, explored: &Explored, d: Dialect, tally: &mut Tally) {
    let layout = Layout::of(net);
    let mut rng = Rng(seed ^ 0x9e3779b97f4a7c15);
    let mut queries = vec![("A[] not deadlock".to_string(), explored.deadlocks == 0)];
    for _ in 0..3 {
        let s = &explored.states[rng.below(explored.states.len())];
        queries.push((format!("E<> {}", state_formula(net, &layout, s, d)), true));
    }
    for _ in 0..3 {
        let s = random_state(net, &layout, &mut rng);
        let reachable = explored.states.contains(&s);
        queries.push((format!("E<> {}", state_formula(net, &layout, &s, d)), reachable));
    }
    for data in ["explicit", "bdd"] {
        let mut args = vec!["check", file, "--format", "json", "--data", data];
        for (q, _) in &queries {
            args.extend(["-q", q.as_str()]);
        }
        let (code, out, err) = kairos(&args);
        let v = json(&out);
        for ((q, expected), p) in queries.iter().zip(v["properties"].as_array().unwrap()) {
            let verdict = p["verdict"].as_str().unwrap_or("?");
            if data == "bdd"
                && verdict == "unknown"
                && p["message"].as_str().is_some_and(|r| r.starts_with("--data bdd"))
            {
                tally.bdd_refused += 1;
                continue;
            }
            let want = if *expected { "satisfied" } else { "violated" };
            tally.queries += 1;
            if data == "bdd" {
                tally.bdd_compared += 1;
            }
            if verdict != want {
                tally.disagreements.push(format!(
                    "seed {seed} ({file}) --data {data}: `{q}` should be {want}; kairos: exit {code} {p}{err}"
                ));
            }
        }
    }
}

fn campaign(first: u64, count: u64) -> Tally {
    let mut tally = Tally::default();
    for seed in first..first + count {
        check_network(seed, &mut tally);
    }
    let t = &tally;
    println!(
        "functions differential, seeds {first}..{}: {} networks ({} too big, skipped), {} without a run-time error ({} states), {} with one; {} verdicts compared ({} with --data bdd, {} refused by it); {} disagreements",
        first + count - 1,
        t.networks,
        t.too_big,
        t.error_free,
        t.states,
        t.with_errors,
        t.queries,
        t.bdd_compared,
        t.bdd_refused,
        t.disagreements.len()
    );
    for d in t.disagreements.iter().take(5) {
        println!("---\n{d}");
    }
    for d in &t.disagreements {
        println!("-- {}", d.lines().next().unwrap_or(""));
    }
    tally
}

fn run(count: u64) {
    let first = env_u64("KAIROS_FN_SEED").unwrap_or(1);
    let count = env_u64("KAIROS_FN_COUNT").unwrap_or(count);
    let t = campaign(first, count);
    assert!(t.disagreements.is_empty(), "{} disagreements (the first above)", t.disagreements.len());
    // The generator must keep producing both kinds, or the test says little.
    assert!(t.error_free * 4 >= t.networks, "only {} of {} networks run without an error", t.error_free, t.networks);
    assert!(
        t.with_errors * 10 >= t.networks,
        "only {} of {} networks meet a run-time error",
        t.with_errors,
        t.networks
    );
}

#[test]
fn functions_agree_with_the_tree_interpreter() {
    run(200);
}

#[test]
#[ignore]
fn functions_agree_with_the_tree_interpreter_campaign() {
    run(5000);
}
