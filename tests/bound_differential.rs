//! Differential testing of bounded response against the independent
//! integer-time oracle of worst-case response times
//! (tests/oracle/response.rs), on random CLOSED networks (a third from
//! tests/oracle/random.rs, the generator of the other differential tests,
//! two thirds from tests/oracle/timed.rs, where response times are
//! positive and finite more often), for random φ, ψ over locations and
//! data:
//!
//! - `kairos bound` (`engine::bound::worst_case`, with explicit data and
//!   with `--data bdd`) against the oracle's `W`:
//!   "unbounded" iff `W = ∞`, else the same number, attained (a closed
//!   network attains its bound, see the oracle); a refusal for time-locks
//!   only where the oracle finds a state without a divergent run;
//! - the observer engine's verdicts on `φ -->[<= b] ψ` (iff `W <= b`),
//!   `φ -->[< b] ψ` (iff `W < b`), `A[] (φ imply A<>[<= b] ψ)` (as
//!   `-->[<= b]`) and top-level `A<>[<= b] ψ`, `A<>[< b] ψ` (against the
//!   time from the initial states), for `b` around the oracle's value;
//! - every counterexample: a lasso of the product (observer runs) or of the
//!   network (`unbounded`), made concrete and validated, and then read
//!   again here: the violation must be visible on the concrete run (a φ
//!   moment followed by more than `b` time units without ψ; a φ moment
//!   after which ψ never holds).
//!
//! Observer runs go under the default abstraction (with explicit data and
//! with `--data bdd`) and under exact zones (`--abstraction none`, under a
//! state budget); networks with diagonal
//! constraints get only the latter, and their lassos are not validated
//! (the validator needs regions). `kairos bound` reads only the limits. An
//! engine `unknown` (budget) is counted as such, never as agreement; after
//! one, the other bounds of the same pair and setting are not run.
//!
//! `kairos bound` once answered the longest time from a φ moment without ψ
//! on ANY path, also one into a time-lock, where time-locked and live
//! valuations share a zone (`tests/models/liveness/partial-time-lock.yaml`:
//! 10 instead of 3). This test found it (seeds 89, 2000781, 2001736,
//! 2001911); the oracle's `Worst::reached` is that quantity, printed with
//! every disagreement on a bound.
//!
//! `cargo test --test suite bound_differential::` checks 150 networks; `cargo test
//! --release --test suite bound_differential::bounded_response_agrees_with_the_integer_time_oracle_campaign -- --ignored` 3 000.
//! `KAIROS_BOUND_SEED`, `KAIROS_BOUND_COUNT`: the first seed and how many;
//! `KAIROS_BOUND_VERBOSE`: the oracle's values, every engine run and its
//! time; `KAIROS_BOUND_DUMP=DIR`: write each network there.

// The oracle's reachability helpers are for tests/differential.rs.
use crate::oracle;

use std::time::Instant;

use kairos::engine::bound::{WorstCase, worst_case};
use kairos::engine::reach::Limits;
use kairos::engine::{self, AbstractionChoice, DataChoice, Options, Outcome, Unknown, Verdict};
use kairos::model::formula::Formula;
use kairos::model::load::{Loaded, load_model};
use kairos::network::{Network, StateFormula};
use kairos::syntax::yaml::Source;
use kairos::trace::{ConcreteState, ConcreteTrace, Rational};
use oracle::random::{Gen, Rng};
use oracle::response::Resp;
use oracle::{Config, Oracle, Time};

#[derive(Default, Debug)]
struct Tally {
    networks: u64,
    skipped: u64,
    /// (φ, ψ) pairs asked.
    pairs: u64,
    /// `kairos bound` answers compared (finite, unbounded), those with
    /// `--data bdd`, unknown.
    bounds: [u64; 2],
    bdd_bounds: u64,
    bound_unknown: u64,
    /// Observer verdicts compared, and unknown (budget) or run-time errors.
    verdicts: u64,
    /// Of those, with `--data bdd`, and the runs it refused (observer and
    /// `kairos bound`).
    bdd_verdicts: u64,
    bdd_refused: u64,
    unknown: u64,
    /// Observer verdicts whose time-lock warnings were compared with the
    /// fixpoint's scan, and those with a warning.
    locks: [u64; 2],
    /// Counterexamples made concrete, validated and read again.
    traces: u64,
    /// Counterexamples of networks with diagonal constraints, where the
    /// validator cannot decide a lasso.
    untraced: u64,
    /// The oracle's `W` over the pairs: finite (up to 15, more), `∞`.
    histogram: [u64; 18],
    /// Seconds spent in the oracle, `kairos bound`, the observer engine,
    /// and making traces concrete.
    seconds: [f64; 4],
    disagreements: Vec<String>,
}

/// Random (φ, ψ) pairs over the network's locations and data.
fn pairs(net: &Network, seed: u64) -> Vec<(String, String)> {
    let mut r = Rng(seed ^ 0xb00d_5eed);
    let location = |r: &mut Rng| {
        let p = &net.processes[r.below(net.processes.len())];
        format!("{}.{}", p.name, p.locations[r.below(p.locations.len())].name)
    };
    let data: Vec<_> = net.slots.iter().filter(|s| !s.name.contains('[') && !s.name.contains('.')).collect();
    let atom = |r: &mut Rng| -> String {
        if !data.is_empty() && r.chance(0.25) {
            let s = data[r.below(data.len())];
            return if s.is_bool { s.name.clone() } else { format!("{} >= {}", s.name, r.int(s.lo, s.hi)) };
        }
        location(r)
    };
    let (a, b, c) = (atom(&mut r), atom(&mut r), atom(&mut r));
    let l = location(&mut r);
    let mut out = vec![
        (a.clone(), b.clone()),
        // The time spent in a location.
        (l.clone(), format!("not {l}")),
        (format!("{b} and not {c}"), format!("{a} or {c}")),
    ];
    if r.chance(0.5) {
        out.push(("true".into(), format!("not {}", atom(&mut r))));
    }
    out
}

/// State budgets: past them a network or an engine run is not compared.
#[derive(Clone, Copy)]
struct Budget {
    oracle_states: usize,
    lu_states: u64,
    none_states: u64,
    /// Observer checks per pair: a random sample of this many, or all.
    sample: Option<usize>,
}

/// What a verdict is about, to read its counterexample again.
#[derive(Clone, Copy)]
enum Shape {
    /// `φ -->[≺ b] ψ` (also the `A[]` form).
    LeadsTo,
    /// Top-level `A<>[≺ b] ψ`.
    Eventually,
}

/// `f` on a discrete state of the network (or of a product whose extra
/// process `f` does not mention). Clock-free formulas only.
fn eval(f: &StateFormula, s: &ConcreteState) -> bool {
    let mut stack = Vec::new();
    match f {
        StateFormula::Pred(conjs) => conjs.iter().any(|c| {
            assert!(c.clocks.is_empty(), "clock-free formulas");
            c.data
                .as_ref()
                .is_none_or(|d| d.eval(&s.discrete.locs, &s.discrete.data, &mut stack).expect("no error") != 0)
        }),
        StateFormula::Deadlock => unreachable!("not generated"),
        StateFormula::Not(a) => !eval(a, s),
        StateFormula::And(a, b) => eval(a, s) && eval(b, s),
        StateFormula::Or(a, b) => eval(a, s) || eval(b, s),
    }
}

/// The states of a concrete run with the time each is entered.
fn timeline(t: &ConcreteTrace) -> Vec<(Rational, &ConcreteState)> {
    let mut at = Rational::from_integer(0.into());
    let mut out = vec![(at.clone(), &t.initial)];
    for s in &t.steps {
        at += &s.delay;
        out.push((at.clone(), &s.after));
    }
    out
}

/// Reads an observer counterexample again: the observer (process `obs` of
/// `product`) enters `bad` more than `b` (`strict`: at least `b`) time
/// units after a moment with φ and not ψ (the start, for `A<>`), and ψ
/// holds nowhere in between.
fn violation_shown(
    product: &Network,
    t: &ConcreteTrace,
    shape: Shape,
    phi: &StateFormula,
    psi: &StateFormula,
    b: i64,
    strict: bool,
) -> Result<(), String> {
    let obs = product.processes.len() - 1;
    let names: Vec<&str> = product.processes[obs].locations.iter().map(|l| l.name.as_str()).collect();
    let at = |s: &ConcreteState| names[s.discrete.locs[obs] as usize];
    let states = timeline(t);
    let bad = states.iter().position(|(_, s)| at(s) == "bad").ok_or("the run never enters `bad`")?;
    let start = states[..bad].iter().rposition(|(_, s)| at(s) != "wait").map_or(0, |k| k + 1);
    if start == 0 && matches!(shape, Shape::LeadsTo) {
        return Err("the observer starts in `wait`".into());
    }
    let (t0, s0) = &states[start];
    if matches!(shape, Shape::LeadsTo) && !eval(phi, s0) {
        return Err(format!("φ does not hold where the observer starts waiting (step {start})"));
    }
    if let Some(k) = (start..bad).find(|&k| eval(psi, states[k].1)) {
        return Err(format!("ψ holds at step {k}, while waiting"));
    }
    let waited = &states[bad].0 - t0;
    let b = Rational::from_integer(b.into());
    if if strict { waited < b } else { waited <= b } {
        return Err(format!("`bad` entered after waiting only {waited}"));
    }
    Ok(())
}

/// Reads an `unbounded` lasso again: some φ moment after which ψ never
/// holds, the loop included.
fn never_answered(t: &ConcreteTrace, phi: &StateFormula, psi: &StateFormula) -> Result<(), String> {
    let k = t.loop_start.ok_or("not a lasso")?;
    let states = timeline(t);
    let last_psi = states.iter().rposition(|(_, s)| eval(psi, s));
    if last_psi.is_some_and(|j| j >= k) {
        return Err("ψ holds on the loop".into());
    }
    let from = last_psi.map_or(0, |j| j + 1);
    if !states[from..].iter().any(|(_, s)| eval(phi, s)) {
        return Err("no φ moment after the last ψ".into());
    }
    Ok(())
}

struct Net<'a> {
    seed: u64,
    loaded: &'a Loaded,
    net: &'a Network,
    settings: &'a [Options],
    yaml: &'a str,
    /// Whether the fixpoint engine's exact scan finds a time-locked
    /// reachable state (`None`: no property to ask it with): the observer
    /// engine's warnings are the model's, the same for every property.
    scan: Option<bool>,
}

impl Net<'_> {
    /// Runs the observer engine on `text` under every setting and compares
    /// with `expected`; counterexamples are read again.
    #[allow(clippy::too_many_arguments)]
    fn verdict(
        &self,
        tally: &mut Tally,
        text: &str,
        expected: bool,
        shape: Shape,
        phi: &StateFormula,
        psi: &StateFormula,
        b: i64,
        strict: bool,
        gave_up: &mut [bool],
    ) {
        let seed = self.seed;
        let p = self.loaded.query("q", text).unwrap_or_else(|d| panic!("seed {seed}: {text}: {d:?}"));
        for (options, gave_up) in self.settings.iter().zip(gave_up) {
            if *gave_up {
                // Over budget for a bound before: the same product.
                tally.unknown += 1;
                continue;
            }
            let t0 = Instant::now();
            let out = engine::check(&self.loaded.model, Some(self.net), &p, options);
            tally.seconds[2] += t0.elapsed().as_secs_f64();
            if std::env::var("KAIROS_BOUND_VERBOSE").is_ok() {
                eprintln!(
                    "seed {seed} `{text}` {:?}: {:?} in {:.3} s {:?}",
                    options.abstraction,
                    out.verdict,
                    t0.elapsed().as_secs_f64(),
                    out.stats.map(|s| s.visited)
                );
            }
            assert_eq!(out.engine, kairos::model::formula::EngineKind::Observer, "seed {seed}: `{text}`");
            let got = match &out.verdict {
                Verdict::Satisfied => true,
                Verdict::Violated => false,
                Verdict::Unknown(Unknown::Unsupported(why)) if why.starts_with("--data bdd") => {
                    tally.bdd_refused += 1;
                    continue;
                }
                Verdict::Unknown(Unknown::Unsupported(why)) => {
                    tally
                        .disagreements
                        .push(format!("seed {seed}: `{text}` ({:?}): unsupported: {why}", options.abstraction));
                    continue;
                }
                _ => {
                    tally.unknown += 1;
                    *gave_up = true;
                    continue;
                }
            };
            tally.verdicts += 1;
            tally.bdd_verdicts += u64::from(options.data == DataChoice::Bdd);
            let default = options.abstraction.is_none() && options.data == DataChoice::Explicit;
            if let (true, Some(scan)) = (default, self.scan) {
                let warned = out.warnings.iter().any(|w| w.message.starts_with("time-lock"));
                tally.locks[0] += 1;
                tally.locks[1] += u64::from(warned);
                if warned != scan {
                    tally.disagreements.push(format!(
                        "seed {seed}: `{text}`: time-lock warning {warned}, the fixpoint's scan {scan}\n{}",
                        self.yaml
                    ));
                }
            }
            if got != expected {
                tally.disagreements.push(format!(
                    "seed {seed}: `{text}` ({:?}): engine {got}, oracle {expected}\n{}",
                    options.abstraction, self.yaml
                ));
            }
            if !got {
                self.counterexample(tally, text, &out, |product, t| {
                    violation_shown(product, t, shape, phi, psi, b, strict)
                });
            }
        }
    }

    /// Makes the counterexample of `out` concrete (validated by
    /// `concretise`) and reads it again with `check`.
    fn counterexample(
        &self,
        tally: &mut Tally,
        text: &str,
        out: &Outcome,
        check: impl Fn(&Network, &ConcreteTrace) -> Result<(), String>,
    ) {
        let seed = self.seed;
        if self.net.has_diagonals {
            // The validator cannot decide lassos there (no regions).
            tally.untraced += 1;
            return;
        }
        let net = out.network.as_deref().unwrap_or(self.net);
        let Some(t) = &out.trace else {
            tally.disagreements.push(format!("seed {seed}: `{text}`: a violation without a counterexample"));
            return;
        };
        tally.traces += 1;
        let t0 = Instant::now();
        let made = kairos::trace::concretise(net, t);
        tally.seconds[3] += t0.elapsed().as_secs_f64();
        match made.map_err(|e| format!("no valid concrete lasso: {e}")).and_then(|c| check(net, &c)) {
            Ok(()) => {}
            Err(e) => tally.disagreements.push(format!("seed {seed}: `{text}`: {e}\n{}", self.yaml)),
        }
    }
}

fn check_network(seed: u64, budget: Budget, tally: &mut Tally) {
    tally.networks += 1;
    // A third from the generator of the other differential tests, the
    // rest with more to measure (see tests/oracle/timed.rs).
    let yaml = if seed.is_multiple_of(3) { Gen::generate(seed).yaml } else { oracle::timed::generate(seed) };
    if let Ok(dir) = std::env::var("KAIROS_BOUND_DUMP") {
        std::fs::write(format!("{dir}/net-{seed}.yaml"), &yaml).expect("KAIROS_BOUND_DUMP: a writable directory");
    }
    let src = Source::new(format!("random-{seed}.yaml"), yaml.clone());
    let Ok(loaded) = load_model(&src) else { return tally.skipped += 1 };
    let Ok(net) = kairos::network::build(&loaded.model) else { return tally.skipped += 1 };
    if !oracle::closed(&net) {
        // Strict bounds: integer time is exact only for closed automata.
        tally.skipped += 1;
        return;
    }
    let pairs = pairs(&net, seed);
    let mut parsed = Vec::new();
    for (phi, psi) in &pairs {
        let text = format!("({phi}) --> ({psi})");
        let p = loaded.query("q", &text).unwrap_or_else(|d| panic!("seed {seed}: {text}: {d:?}"));
        let Formula::LeadsTo { lhs, rhs, .. } = &p.formula else { unreachable!("a leads-to") };
        let compile = |f: &Formula| net.state_formula(&p, f).expect("a state formula");
        let (f, g) = (compile(lhs), compile(rhs));
        parsed.push((phi, psi, p, f, g));
    }
    let formulas: Vec<&StateFormula> = parsed.iter().flat_map(|(_, _, _, f, g)| [f, g]).collect();
    let t0 = Instant::now();
    let explored = Oracle::explore(&net, &formulas, Config { time: Time::Grid(1), max_states: budget.oracle_states });
    tally.seconds[0] += t0.elapsed().as_secs_f64();
    let Ok(mut o) = explored else { return tally.skipped += 1 };
    if o.error.is_some() {
        tally.skipped += 1;
        return;
    }
    let time_locked = o.time_locked();
    let limit = |n| Limits { max_states: Some(n), ..Limits::default() };
    let lu = Options { limits: limit(budget.lu_states), ..Options::default() };
    let none = Options { abstraction: Some(AbstractionChoice::None), limits: limit(budget.none_states), ..lu.clone() };
    // ExtraLU+ is unsound with diagonal constraints: exact zones only.
    let bdd = Options { data: DataChoice::Bdd, ..lu.clone() };
    let settings = if net.has_diagonals { vec![none] } else { vec![lu.clone(), bdd.clone(), none] };
    // The scan's own budget is far above what these networks need (a scan
    // stopped by it would read as "no time-lock").
    let scan_options = Options { limits: limit(budget.oracle_states as u64), ..Options::default() };
    let scan = parsed.first().map(|(_, _, p, _, _)| engine::tctl::time_lock_warning(&net, p, &scan_options).is_some());
    let ctx = Net { seed, loaded: &loaded, net: &net, settings: &settings, yaml: &yaml, scan };
    let mut r = Rng(seed ^ 0x0b5e_52e7);
    for (phi_text, psi_text, p, phi, psi) in &parsed {
        tally.pairs += 1;
        let t0 = Instant::now();
        let worst = o.worst(phi, psi);
        tally.seconds[0] += t0.elapsed().as_secs_f64();
        let Some(worst) = worst else { continue };
        if std::env::var("KAIROS_BOUND_VERBOSE").is_ok() {
            eprintln!(
                "seed {seed} `{}`: oracle {worst:?}, time-locked {time_locked}, {} states",
                p.text,
                o.state_count()
            );
        }
        tally.histogram[match worst.leads_to {
            Resp::Fin(d) => d.min(16) as usize,
            _ => 17,
        }] += 1;

        // `kairos bound`, with explicit data and with BDDs.
        let bounds = if net.has_diagonals { vec![] } else { vec![&lu, &bdd] };
        for options in bounds {
            let t0 = Instant::now();
            let got = worst_case(&net, p, options);
            tally.seconds[1] += t0.elapsed().as_secs_f64();
            let w = worst.leads_to;
            let with_bdd = options.data == DataChoice::Bdd;
            let problem = match &got {
                WorstCase::Sup { value, attained, .. } => {
                    tally.bounds[0] += 1;
                    tally.bdd_bounds += u64::from(with_bdd);
                    (Resp::Fin(value.to_integer().try_into().unwrap()) != w || !value.is_integer() || !attained).then(
                        || {
                            format!(
                                "engine {value} (attained: {attained}), oracle {w:?} (attained: a closed network; \
                             {:?} counting time-locked paths)",
                                worst.reached
                            )
                        },
                    )
                }
                WorstCase::Unbounded(out) => {
                    tally.bounds[1] += 1;
                    tally.bdd_bounds += u64::from(with_bdd);
                    ctx.counterexample(tally, &p.text, out, |_, t| never_answered(t, phi, psi));
                    (w != Resp::Inf).then(|| format!("engine unbounded, oracle {w:?}"))
                }
                WorstCase::None(out) => match &out.verdict {
                    Verdict::Unknown(Unknown::Unsupported(why)) if with_bdd && why.starts_with("--data bdd") => {
                        tally.bdd_refused += 1;
                        None
                    }
                    Verdict::Unknown(Unknown::Unsupported(why)) => Some(format!("unsupported: {why}")),
                    _ => {
                        tally.bound_unknown += 1;
                        None
                    }
                },
            };
            if std::env::var("KAIROS_BOUND_VERBOSE").is_ok() {
                eprintln!(
                    "seed {seed} bound `{}` {:?}: {got:?} in {:.3} s",
                    p.text,
                    options.data,
                    t0.elapsed().as_secs_f64()
                );
            }
            if let Some(problem) = problem {
                tally
                    .disagreements
                    .push(format!("seed {seed}: bound `{}` ({:?}): {problem}\n{}", p.text, options.data, yaml));
            }
        }

        // The observer engine, around the oracle's values: for a finite
        // `W`, `<= W` holds, `<= W - 1` and `< W` fail (`W` is attained),
        // `< W + 1` holds.
        let around = |r: &mut Rng, w: Resp| -> Vec<i64> {
            match w {
                Resp::Fin(d) => [d - 1, d, d + 1].into_iter().filter(|&b| b >= 0).collect(),
                _ => vec![r.int(0, 3), r.int(4, 12)],
            }
        };
        let holds = |w: Resp, b: i64, strict: bool| if strict { w < Resp::Fin(b) } else { w <= Resp::Fin(b) };
        let (phi_t, psi_t) = (format!("({phi_text})"), format!("({psi_text})"));
        let mut checks: Vec<(String, bool, Shape, i64, bool)> = Vec::new();
        let w = worst.leads_to;
        for b in around(&mut r, w) {
            checks.push((format!("{phi_t} -->[<= {b}] {psi_t}"), holds(w, b, false), Shape::LeadsTo, b, false));
            if b >= 1 {
                checks.push((format!("{phi_t} -->[< {b}] {psi_t}"), holds(w, b, true), Shape::LeadsTo, b, true));
            }
            let text = format!("A[] ({phi_t} imply A<>[<= {b}] {psi_t})");
            checks.push((text, holds(w, b, false), Shape::LeadsTo, b, false));
        }
        let w = worst.eventually;
        for b in around(&mut r, w) {
            checks.push((format!("A<>[<= {b}] {psi_t}"), holds(w, b, false), Shape::Eventually, b, false));
            if b >= 1 {
                checks.push((format!("A<>[< {b}] {psi_t}"), holds(w, b, true), Shape::Eventually, b, true));
            }
        }
        if let Some(k) = budget.sample {
            while checks.len() > k {
                checks.remove(r.below(checks.len()));
            }
        }
        // Per setting: a run went over its budget (the next ones would too).
        let mut gave_up = vec![false; settings.len()];
        for (text, expected, shape, b, strict) in checks {
            ctx.verdict(tally, &text, expected, shape, phi, psi, b, strict, &mut gave_up);
        }
    }
}

fn run(first: u64, count: u64, budget: Budget) {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse().ok());
    let first = env("KAIROS_BOUND_SEED").unwrap_or(first);
    let count = env("KAIROS_BOUND_COUNT").unwrap_or(count);
    let started = Instant::now();
    let mut t = Tally::default();
    for seed in first..first + count {
        check_network(seed, budget, &mut t);
    }
    println!(
        "bound differential: {} networks (seeds {first}..{}) in {:.1} s: {} skipped (invalid, strict bounds, \
         run-time errors, oracle budget), {} (φ, ψ) pairs; `kairos bound`: {} finite and {} unbounded compared \
         ({} with --data bdd), {} unknown; observer: {} verdicts compared ({} with --data bdd, {} refused by it), {} unknown \
         (over the state budget, or not run after one that was); {} counterexamples validated and read again \
         ({} with diagonals not); time-lock warnings compared with the fixpoint's scan: {} ({} warned); oracle W: {:?} (0..15, 16+, ∞); \
         {:.1} s oracle, {:.1} s bound, {:.1} s observer, {:.1} s traces; {} DISAGREEMENTS",
        t.networks,
        first + count - 1,
        started.elapsed().as_secs_f64(),
        t.skipped,
        t.pairs,
        t.bounds[0],
        t.bounds[1],
        t.bdd_bounds,
        t.bound_unknown,
        t.verdicts,
        t.bdd_verdicts,
        t.bdd_refused,
        t.unknown,
        t.traces,
        t.untraced,
        t.locks[0],
        t.locks[1],
        t.histogram,
        t.seconds[0],
        t.seconds[1],
        t.seconds[2],
        t.seconds[3],
        t.disagreements.len()
    );
    for d in &t.disagreements {
        println!("{d}");
    }
    assert!(t.disagreements.is_empty());
    assert!(t.locks[1] > 0 && t.locks[1] < t.locks[0], "time-lock warnings compared: {:?}", t.locks);
    assert!(t.bdd_verdicts * 4 >= t.verdicts, "too few verdicts with --data bdd: {} of {}", t.bdd_verdicts, t.verdicts);
    let bounds = t.bounds[0] + t.bounds[1];
    assert!(t.bdd_bounds * 4 >= bounds, "too few bounds with --data bdd: {} of {bounds}", t.bdd_bounds);
}

#[test]
fn bounded_response_agrees_with_the_integer_time_oracle() {
    run(1, 150, Budget { oracle_states: 20_000, lu_states: 1_000, none_states: 250, sample: Some(4) });
}

#[test]
#[ignore = "the big campaign: cargo test --release --test suite bound_differential::bounded_response_agrees_with_the_integer_time_oracle_campaign -- --ignored"]
fn bounded_response_agrees_with_the_integer_time_oracle_campaign() {
    run(2_000_000, 3_000, Budget { oracle_states: 200_000, lu_states: 50_000, none_states: 10_000, sample: None });
}

/// The smallest case of the time-lock bug (see the model's comment).
fn partial_time_lock() -> (Loaded, Network) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/liveness/partial-time-lock.yaml");
    let src = Source::new(path, std::fs::read_to_string(path).expect("the model"));
    let loaded = load_model(&src).expect("a valid model");
    let net = kairos::network::build(&loaded.model).expect("a network");
    (loaded, net)
}

/// On it the oracle says 3 over divergent runs (10 counting the
/// time-locked ones), and so do the observer verdicts.
#[test]
fn the_oracle_and_the_observer_on_a_partly_time_locked_zone() {
    let (loaded, net) = partial_time_lock();
    let p = loaded.query("q", "P.e --> P.f").expect("a query");
    let Formula::LeadsTo { lhs, rhs, .. } = &p.formula else { unreachable!() };
    let (phi, psi) = (net.state_formula(&p, lhs).unwrap(), net.state_formula(&p, rhs).unwrap());
    let mut o = Oracle::explore(&net, &[&phi, &psi], Config { time: Time::Grid(1), max_states: 1_000 }).unwrap();
    let worst = o.worst(&phi, &psi).unwrap();
    assert_eq!((worst.leads_to, worst.reached), (Resp::Fin(3), Resp::Fin(10)));
    assert!(o.time_locked());
    for (text, expected) in [("P.e -->[<=3] P.f", true), ("P.e -->[<3] P.f", false), ("P.e -->[<=2] P.f", false)] {
        let q = loaded.query("q", text).expect("a query");
        let out = engine::check(&loaded.model, Some(&net), &q, &Options::default());
        assert_eq!(out.verdict, if expected { Verdict::Satisfied } else { Verdict::Violated }, "{text}");
    }
}

/// `kairos bound` on it: 3, attained (it used to say 10).
#[test]
fn bound_on_a_partly_time_locked_zone() {
    let (loaded, net) = partial_time_lock();
    let p = loaded.query("q", "P.e --> P.f").expect("a query");
    let got = worst_case(&net, &p, &Options::default());
    assert!(matches!(&got, WorstCase::Sup { value, attained: true, .. } if value.to_string() == "3"), "{got:?}");
}
