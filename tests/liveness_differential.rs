//! Differential testing of the liveness and observer engines against the
//! independent integer-time liveness oracle (tests/oracle/live.rs), on the
//! random CLOSED networks of tests/oracle/random.rs, with properties over
//! locations and data: `E[] φ`, `A<> φ`, `φ --> ψ`. Every lasso the engine
//! returns is made concrete and validated too.
//!
//! `cargo test --test liveness_differential` checks 200 networks (in the
//! test profile most of the time goes to the DBM library's `debug_assert!`
//! contracts, hence small state budgets); `cargo test --release --test liveness_differential --
//! --ignored` thousands. `KAIROS_LIVE_SEED`, `KAIROS_LIVE_COUNT`: the first
//! seed and how many; `KAIROS_LIVE_VERBOSE`: every engine run and its time.

// The oracle's reachability helpers are for tests/differential.rs.
#[allow(dead_code)]
mod oracle;

use std::time::Instant;

use kairos::engine::reach::Limits;
use kairos::engine::{self, AbstractionChoice, Options, Verdict};
use kairos::model::formula::Formula;
use kairos::model::load::load_model;
use kairos::network::Network;
use kairos::syntax::ast::PathOp;
use kairos::syntax::yaml::Source;
use oracle::random::{Gen, Rng};
use oracle::{Config, Oracle, Time};

#[derive(Default, Debug)]
struct Tally {
    networks: u64,
    skipped: u64,
    properties: u64,
    compared: u64,
    lassos: u64,
    unknown: u64,
    /// Seconds spent in the oracle, the engine, and making lassos concrete.
    seconds: [f64; 3],
    disagreements: Vec<String>,
}

/// Random liveness properties over the network's locations and data.
fn properties(net: &Network, seed: u64) -> Vec<String> {
    let mut r = Rng(seed ^ 0x5eed_11fe);
    let atom = |r: &mut Rng| -> String {
        let p = &net.processes[r.below(net.processes.len())];
        let data: Vec<_> = net.slots.iter().filter(|s| !s.name.contains('[') && !s.name.contains('.')).collect();
        if !data.is_empty() && r.chance(0.25) {
            let s = data[r.below(data.len())];
            return if s.is_bool { s.name.clone() } else { format!("{} >= {}", s.name, r.int(s.lo, s.hi)) };
        }
        format!("{}.{}", p.name, p.locations[r.below(p.locations.len())].name)
    };
    let (a, b, c) = (atom(&mut r), atom(&mut r), atom(&mut r));
    vec![
        format!("E[] not {a}"),
        format!("E[] ({a} or {b})"),
        format!("A<> {a}"),
        format!("A<> ({b} or not {c})"),
        format!("{a} --> {b}"),
        format!("({b} and not {c}) --> ({a} or {c})"),
    ]
}

/// State budgets: past them a network or an engine run is not compared.
#[derive(Clone, Copy)]
struct Budget {
    oracle_states: usize,
    lu_states: u64,
    none_states: u64,
}

fn check_network(seed: u64, budget: Budget, tally: &mut Tally) {
    tally.networks += 1;
    let generated = Gen::generate(seed);
    let src = Source::new(format!("random-{seed}.yaml"), generated.yaml.clone());
    let Ok(loaded) = load_model(&src) else { return tally.skipped += 1 };
    let Ok(net) = kairos::network::build(&loaded.model) else { return tally.skipped += 1 };
    if net.has_diagonals {
        // The engine refuses them (ExtraLU+); nothing to compare.
        tally.skipped += 1;
        return;
    }
    if !oracle::closed(&net) {
        // Strict bounds: integer time is exact only for closed automata,
        // and the liveness oracle runs on integer time.
        tally.skipped += 1;
        return;
    }
    let props = properties(&net, seed);
    let mut formulas = Vec::new();
    let mut parsed = Vec::new();
    for text in &props {
        let p = loaded.query("q", text).unwrap_or_else(|d| panic!("seed {seed}: {text}: {d:?}"));
        let compile = |f: &Formula| net.state_formula(&p, f).expect("a state formula");
        let shape = match &p.formula {
            Formula::Path { op: PathOp::EG, arg, .. } => (0, compile(arg), None),
            Formula::Path { op: PathOp::AF, arg, .. } => (1, compile(arg), None),
            Formula::LeadsTo { lhs, rhs, .. } => (2, compile(lhs), Some(compile(rhs))),
            _ => unreachable!("generated shapes"),
        };
        parsed.push((p, shape));
    }
    for (_, (_, f, g)) in &parsed {
        formulas.push(f.clone());
        formulas.extend(g.clone());
    }
    let refs: Vec<_> = formulas.iter().collect();
    let t0 = Instant::now();
    let explored = Oracle::explore(&net, &refs, Config { time: Time::Grid(1), max_states: budget.oracle_states });
    tally.seconds[0] += t0.elapsed().as_secs_f64();
    let Ok(mut o) = explored else { return tally.skipped += 1 };
    if o.error.is_some() {
        tally.skipped += 1;
        return;
    }
    let limit = |n| Limits { max_states: Some(n), ..Limits::default() };
    let settings = [
        Options { limits: limit(budget.lu_states), ..Options::default() },
        Options { abstraction: Some(AbstractionChoice::None), limits: limit(budget.none_states), ..Options::default() },
    ];
    for (p, (kind, f, g)) in &parsed {
        tally.properties += 1;
        let t0 = Instant::now();
        let expected = match kind {
            0 => o.eg(f),
            1 => o.af(f),
            _ => o.leads_to(f, g.as_ref().expect("a right-hand side")),
        };
        tally.seconds[0] += t0.elapsed().as_secs_f64();
        let Some(expected) = expected else { continue };
        for options in &settings {
            let t0 = Instant::now();
            let out = engine::check(&loaded.model, Some(&net), p, options);
            tally.seconds[1] += t0.elapsed().as_secs_f64();
            if std::env::var("KAIROS_LIVE_VERBOSE").is_ok() {
                eprintln!(
                    "seed {seed} `{}` {:?}: {:?} in {:.3} s {:?}",
                    p.text,
                    options.abstraction,
                    out.verdict,
                    t0.elapsed().as_secs_f64(),
                    out.stats.map(|s| s.visited)
                );
            }
            let got = match out.verdict {
                Verdict::Satisfied => true,
                Verdict::Violated => false,
                _ => {
                    tally.unknown += 1;
                    continue;
                }
            };
            tally.compared += 1;
            if got != expected {
                tally.disagreements.push(format!(
                    "seed {seed}: `{}`: engine {got} ({:?}), oracle {expected}\n{}",
                    p.text, options.abstraction, generated.yaml
                ));
            }
            if let Some(t) = &out.trace {
                tally.lassos += 1;
                let t0 = Instant::now();
                let made = kairos::trace::concretise(&net, t);
                tally.seconds[2] += t0.elapsed().as_secs_f64();
                if let Err(e) = made {
                    tally.disagreements.push(format!("seed {seed}: `{}`: no valid concrete lasso: {e}", p.text));
                }
            }
        }
    }
}

fn run(first: u64, count: u64, budget: Budget) {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse().ok());
    let first = env("KAIROS_LIVE_SEED").unwrap_or(first);
    let count = env("KAIROS_LIVE_COUNT").unwrap_or(count);
    let started = Instant::now();
    let mut t = Tally::default();
    for seed in first..first + count {
        check_network(seed, budget, &mut t);
    }
    println!(
        "liveness differential: {} networks (seeds {first}..{}) in {:.1} s: {} skipped (invalid, diagonals, \
         run-time errors, oracle budget), {} properties, {} engine runs compared, {} lassos validated, {} unknown \
         (state budget); {:.1} s oracle, {:.1} s engine, {:.1} s lassos; {} DISAGREEMENTS",
        t.networks,
        first + count - 1,
        started.elapsed().as_secs_f64(),
        t.skipped,
        t.properties,
        t.compared,
        t.lassos,
        t.unknown,
        t.seconds[0],
        t.seconds[1],
        t.seconds[2],
        t.disagreements.len()
    );
    for d in &t.disagreements {
        println!("{d}");
    }
    assert!(t.disagreements.is_empty());
}

#[test]
fn liveness_engine_agrees_with_the_integer_time_oracle() {
    run(1, 200, Budget { oracle_states: 20_000, lu_states: 1_000, none_states: 250 });
}

#[test]
#[ignore = "the big campaign: cargo test --release --test liveness_differential -- --ignored"]
fn liveness_engine_agrees_with_the_integer_time_oracle_campaign() {
    run(1_000_000, 5_000, Budget { oracle_states: 200_000, lu_states: 200_000, none_states: 20_000 });
}
