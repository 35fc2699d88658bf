//! Differential testing of `sup`/`inf` (`engine::extremum`) against the
//! integer-time oracle (tests/oracle/, the brute-force explorer of the other
//! differential tests) on random networks of tests/oracle/random.rs: per
//! network, both ends of every clock and of a few data terms, where `true`
//! holds and where each of the generator's state formulas does.
//!
//! Why integer time decides it. On a CLOSED network (no strict clock bound
//! in guards and invariants) with a closed condition φ (no strict atom, as
//! `oracle::strict_atoms` counts them, and no `deadlock`), the reachable
//! dense valuations where φ holds are a finite union of zones `Z ∩ φ` of the
//! exact zone graph, each a closed DBM with integer bounds. Such a zone's
//! supremum of `x`, when finite, is an integer and attained, and adding
//! `x >= sup` leaves a closed integer DBM, which has an integer point (every
//! clock at its lower bound): so some INTEGER valuation attains it, and
//! likewise the infimum. Integer valuations are reachable in integer time
//! iff in dense time (digitisation, tests/oracle/grid.rs). So the dense
//! supremum (infimum) is the largest (smallest) value over the oracle's
//! integer states, attained; where the dense supremum is infinite, integer
//! states have `x` past every constant, which the oracle keeps as `M + 1`
//! (its cap, `M` its largest constant). Data values are the same in both
//! semantics. Hence, with `m` the engine's limit (checked `<= M`):
//! - `Exact { v, attained }`: attained, and the oracle's maximum (minimum)
//!   is `v`;
//! - `sup` `Beyond`: the oracle's maximum is above `m`; `inf` `Beyond`: its
//!   minimum is;
//! - no values: no oracle state satisfies φ;
//! - and the converse, where `m = M`: the oracle's value past `M` (`M + 1`)
//!   only as `Beyond`.
//!
//! Networks with strict bounds are skipped and counted (their suprema need
//! not be integers); so are conditions with strict atoms, and networks with
//! a clock guard on a broadcast receiver (the sender's edge then has the
//! negated guard, strict: `clock_guarded_receivers`). Networks with
//! diagonal constraints and conditions with `deadlock` or a diagonal must
//! be refused (exit 5). A network whose oracle meets a run-time error must give an
//! `error` verdict.
//!
//! Each query is measured with BDD data too (`symdata::measure`), which
//! must give the explicit measure's verdict or refuse (counted).
//!
//! `cargo test --test suite extremum_differential::` checks 120 networks;
//! `cargo test --release --test suite extremum_differential::extremum_agrees_with_the_integer_time_oracle_campaign
//! -- --ignored` 3 000. `KAIROS_EXTREMUM_SEED`, `KAIROS_EXTREMUM_COUNT`: the
//! first seed and how many.

use crate::oracle;

use kairos::engine::extremum::{Extreme, Measured};
use kairos::engine::{self, DataChoice, Options, Unknown, Verdict};
use kairos::model::formula::{Formula, Measure};
use kairos::model::load::{Loaded, load_model};
use kairos::network::{ChannelIndex, EdgeSync, MeasuredTerm, Network, StateFormula};
use kairos::syntax::ast::{Extremum, SyncDir};
use kairos::syntax::yaml::Source;
use oracle::random::Gen;
use oracle::{Config, Oracle, Time};

/// Beyond this, the oracle gives up on a network (counted).
const ORACLE_STATES: usize = 200_000;

#[derive(Default, Debug)]
struct Tally {
    networks: u64,
    invalid: u64,
    strict_networks: u64,
    /// With a broadcast receiver guarded by a clock: not closed (below).
    receiver_networks: u64,
    diagonal_networks: u64,
    oracle_gave_up: u64,
    erred_networks: u64,
    conditions: u64,
    strict_conditions: u64,
    /// With `deadlock` or a diagonal: must be refused.
    refused_conditions: u64,
    /// Queries compared, values compared (per term), of which past the
    /// limit, and queries where no state satisfies the condition.
    queries: u64,
    values: u64,
    beyond: u64,
    empty: u64,
    /// Networks whose engine limit is below the oracle's constant (the
    /// converse is then not checked).
    smaller_limit: u64,
    unknown: u64,
    /// Queries measured with BDD data too: the same verdict as explicit
    /// data, or refused by the BDD engine (counted).
    bdd_agreed: u64,
    bdd_refused: u64,
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// The state formula of each property the generator wrote (`E<> φ`,
/// `A[] φ`): the conditions, as written.
fn conditions(properties: &[String]) -> Vec<String> {
    let mut out = vec!["true".to_string()];
    for p in properties {
        let body = p.strip_prefix("E<> ").or_else(|| p.strip_prefix("A[] "));
        if let Some(b) = body
            && !out.iter().any(|c| c == b)
        {
            out.push(b.to_string());
        }
    }
    out
}

/// Every clock, and up to three data terms: the first variables and a sum.
fn terms(net: &Network) -> Vec<String> {
    let mut out: Vec<String> = net.clocks.clone();
    let data: Vec<&str> = net.slots.iter().filter(|s| !s.is_bool).map(|s| s.name.as_str()).take(2).collect();
    out.extend(data.iter().map(|s| s.to_string()));
    if let [a, b] = data.as_slice() {
        out.push(format!("{a} - 2 * {b}"));
    }
    out
}

fn check_network(seed: u64, tally: &mut Tally) {
    tally.networks += 1;
    let generated = Gen::generate(seed);
    let src = Source::new(format!("random-{seed}.yaml"), generated.yaml.clone());
    let Ok(loaded) = load_model(&src) else {
        tally.invalid += 1;
        return;
    };
    let Ok(net) = kairos::network::build(&loaded.model) else {
        tally.invalid += 1;
        return;
    };
    let terms = terms(&net);
    let query = |kind: Extremum, cond: &str| format!("{}{{{cond}}}: {}", kind.word(), terms.join(", "));
    if net.has_diagonals {
        tally.diagonal_networks += 1;
        let p = loaded.query("q", &query(Extremum::Sup, "true")).unwrap();
        let v = engine::check(&loaded.model, Some(&net), &p, &Options::default()).verdict;
        assert!(matches!(v, Verdict::Unknown(Unknown::Unsupported(_))), "seed {seed}: diagonals measured: {v:?}");
        return;
    }
    if !oracle::closed(&net) {
        tally.strict_networks += 1;
        return;
    }
    if clock_guarded_receivers(&net) {
        tally.receiver_networks += 1;
        return;
    }
    // The closed conditions, typed and compiled; the others counted.
    let mut conds = Vec::new();
    for c in conditions(&generated.properties) {
        tally.conditions += 1;
        let Ok(p) = loaded.query("c", &query(Extremum::Sup, &c)) else { continue };
        let Formula::Measure(m) = &p.formula else { panic!("seed {seed}: `{c}` is no measure") };
        let phi = net.state_formula(&p, &m.cond).unwrap();
        if oracle::mentions_deadlock(&phi) || phi.has_diagonal() {
            tally.refused_conditions += 1;
            let v = engine::check(&loaded.model, Some(&net), &p, &Options::default()).verdict;
            assert!(matches!(v, Verdict::Unknown(Unknown::Unsupported(_))), "seed {seed}: `{c}`: {v:?}");
            continue;
        }
        if oracle::strict_atoms(&phi, true) > 0 {
            tally.strict_conditions += 1;
            continue;
        }
        conds.push((c, phi));
    }
    let formulas: Vec<&StateFormula> = conds.iter().map(|(_, f)| f).collect();
    let config = Config { time: Time::Grid(1), max_states: ORACLE_STATES };
    let Ok(mut o) = Oracle::explore(&net, &formulas, config) else {
        tally.oracle_gave_up += 1;
        return;
    };
    let erred = o.error.is_some();
    tally.erred_networks += erred as u64;
    for (c, phi) in &conds {
        for kind in [Extremum::Sup, Extremum::Inf] {
            let text = query(kind, c);
            let p = loaded.query("q", &text).unwrap();
            let outcome = engine::check(&loaded.model, Some(&net), &p, &Options::default());
            let bdd = Options { data: DataChoice::Bdd, ..Options::default() };
            match engine::check(&loaded.model, Some(&net), &p, &bdd).verdict {
                Verdict::Unknown(Unknown::Unsupported(_)) => tally.bdd_refused += 1,
                v => {
                    let same = match (&v, &outcome.verdict) {
                        (Verdict::Error(_), Verdict::Error(_)) => true,
                        (a, b) => a == b,
                    };
                    assert!(same, "seed {seed}: `{text}`: BDD data {v:?}, explicit {:?}", outcome.verdict);
                    tally.bdd_agreed += 1;
                }
            }
            let measured = match outcome.verdict {
                Verdict::Measured(m) if !erred => m,
                Verdict::Error(_) if erred => continue,
                Verdict::Unknown(Unknown::StateLimit | Unknown::Timeout | Unknown::MemoryLimit) => {
                    tally.unknown += 1;
                    continue;
                }
                v => panic!("seed {seed}: `{text}`: {v:?} (oracle error: {:?})", o.error),
            };
            let Formula::Measure(m) = &p.formula else { unreachable!() };
            let model = Model { seed, yaml: &generated.yaml };
            compare(&model, &text, &net, &p, m, &measured, &mut o, phi, tally);
        }
    }
}

/// The network compared: its seed, and its text for the failure message.
struct Model<'a> {
    seed: u64,
    yaml: &'a str,
}

impl Model<'_> {
    /// Where a failure leaves the model, to check it with `kairos`.
    fn saved(&self) -> String {
        crate::common::scratch(&format!("extremum-{}.yaml", self.seed), self.yaml)
    }
}

/// Whether a broadcast receiver has a clock guard. A broadcast takes every
/// receiver whose guard holds, and is blocked when one of them cannot enter
/// its target (its invariant): the sender's edge is then also guarded by the
/// NEGATION of the receivers' guards, strict when they are closed, and a
/// supremum need not be attained. Seed 100 935: `bc!` at `t < 4` leaves
/// `T1(2)` (`x >= 4` on `bc?`, to `x <= 2`) in `l0`, and `T1(2).x` gets as
/// close to 7 as you like while `T0.x <= 6`, never 7 — the engine's `< 7`,
/// exact zones too; the grid oracle's 6 is integer time's.
fn clock_guarded_receivers(net: &Network) -> bool {
    let broadcast = |s: &EdgeSync| match &s.channel {
        ChannelIndex::Fixed(c) => net.channels[*c as usize].broadcast,
        ChannelIndex::Dynamic { base, .. } => net.channels[*base as usize].broadcast,
    };
    let receives = |s: &EdgeSync| s.dir == SyncDir::Receive && broadcast(s);
    let edges = net.processes.iter().flat_map(|p| &p.edges);
    edges.filter(|e| e.sync.as_ref().is_some_and(receives)).any(|e| !e.guard_clocks.is_empty())
}

/// The engine's values against the oracle's, term by term.
#[allow(clippy::too_many_arguments)]
fn compare(
    model: &Model<'_>,
    text: &str,
    net: &Network,
    p: &kairos::model::types::Property,
    m: &Measure,
    measured: &Measured,
    o: &mut Oracle<'_>,
    phi: &StateFormula,
    tally: &mut Tally,
) {
    tally.queries += 1;
    let seed = model.seed;
    let top = o.max_constant();
    let states: Vec<usize> = (0..o.state_count()).filter(|&i| o.sat(phi, i).unwrap()).collect();
    let Some(values) = &measured.values else {
        assert!(states.is_empty(), "seed {seed}: `{text}`: no state measured, the oracle has {}", o.show(states[0]));
        tally.empty += 1;
        return;
    };
    assert!(!states.is_empty(), "seed {seed}: `{text}`: measured {values:?}, the oracle has no state");
    let limit = measured.limit.expect("a limit under the default abstraction");
    assert!(limit <= top, "seed {seed}: limit {limit} above the oracle's constant {top}");
    tally.smaller_limit += (limit < top) as u64;
    for (t, got) in m.terms.iter().zip(values) {
        tally.values += 1;
        let compiled = net.measured_term(p, &t.value).unwrap();
        let of = |o: &mut Oracle<'_>, i: usize| match &compiled {
            MeasuredTerm::Clock(x) => o.clock(i, *x),
            MeasuredTerm::Data(code) => o.data(i, code).unwrap(),
        };
        let all: Vec<i64> = states.iter().map(|&i| of(o, i)).collect();
        let (want, at) = match measured.kind {
            Extremum::Sup => {
                let k = (0..all.len()).max_by_key(|&k| all[k]).unwrap();
                (all[k], states[k])
            }
            Extremum::Inf => {
                let k = (0..all.len()).min_by_key(|&k| all[k]).unwrap();
                (all[k], states[k])
            }
        };
        let clock = matches!(compiled, MeasuredTerm::Clock(_));
        let capped = clock && want > top;
        let why = || {
            let (term, state, saved) = (&t.text, o.show(at), model.saved());
            format!("seed {seed} ({saved}): `{text}`: `{term}`: {got:?}, the oracle {want} at {state}")
        };
        match got {
            Extreme::Exact { value, attained } => {
                assert!(*attained && !capped && *value == want, "{}", why());
            }
            Extreme::Beyond => {
                tally.beyond += 1;
                assert!(clock && want > limit, "{}", why());
            }
            Extreme::Unbounded => panic!("{}: unbounded under the default abstraction", why()),
        }
        // As sharp as the oracle where both stop at the same constant.
        if limit == top {
            assert_eq!(capped, matches!(got, Extreme::Beyond), "{}", why());
        }
    }
}

fn campaign(first: u64, count: u64) -> Tally {
    let mut tally = Tally::default();
    for seed in first..first + count {
        check_network(seed, &mut tally);
    }
    eprintln!("{tally:#?}");
    tally
}

fn run(default_seed: u64, default_count: u64) {
    let first = env_u64("KAIROS_EXTREMUM_SEED").unwrap_or(default_seed);
    let count = env_u64("KAIROS_EXTREMUM_COUNT").unwrap_or(default_count);
    let t = campaign(first, count);
    // The campaign must compare, not skip.
    assert!(t.values >= 10 * t.networks.min(20), "too few values compared: {t:#?}");
    assert!(t.beyond > 0 && t.empty > 0, "every kind of answer met: {t:#?}");
    assert!(t.bdd_agreed >= t.queries / 2, "BDD data measured too few: {t:#?}");
}

#[test]
fn extremum_agrees_with_the_integer_time_oracle() {
    run(1, 120);
}

#[test]
#[ignore = "campaign: 3 000 networks"]
fn extremum_agrees_with_the_integer_time_oracle_campaign() {
    run(100_000, 3000);
}

/// Loads a small model for the tests below.
fn load(yaml: &str) -> (Loaded, Network) {
    let l = load_model(&Source::new("m.yaml", yaml.to_string())).unwrap();
    let n = kairos::network::build(&l.model).unwrap();
    (l, n)
}

/// The argument behind `Extreme::Beyond` for `inf`: ExtraLU+ turns a lower
/// bound past `L` into `x > M`, so an infimum of `M` not attained is not
/// claimed exact. `P` is in `b` at `x = 1, 4, 7, ...` (one instant each);
/// past the first, `x` is beyond the largest constant, 3.
#[test]
fn an_infimum_past_the_limit_is_not_a_number() {
    let (l, n) = load(
        "model: m\nclocks: [x, y]\ntemplates:\n  P:\n    initial: a\n    locations:\n      a: {invariant: \"y <= 3\"}\n      b: {invariant: \"y <= 1\"}\n    edges:\n      - {from: a, to: a, guard: \"y >= 3\", update: \"y = 0\"}\n      - {from: a, to: b, guard: \"y == 1\"}\nsystem: [P]\n",
    );
    let p = l.query("q", "inf{P.b}: x, y").unwrap();
    let v = engine::check(&l.model, Some(&n), &p, &Options::default()).verdict;
    let want = Measured {
        kind: Extremum::Inf,
        limit: Some(3),
        values: Some(vec![Extreme::Exact { value: 1, attained: true }, Extreme::Exact { value: 1, attained: true }]),
    };
    assert_eq!(v, Verdict::Measured(want));
    // After one loop (`y >= 3`), `b` is entered at `x = 4`: the infimum 4
    // is past 3, the engine says only `x > 3` everywhere.
    let p = l.query("q", "inf{P.b and x >= 2}: x").unwrap();
    let v = engine::check(&l.model, Some(&n), &p, &Options::default()).verdict;
    let want = Measured { kind: Extremum::Inf, limit: Some(3), values: Some(vec![Extreme::Beyond]) };
    assert_eq!(v, Verdict::Measured(want));
}
