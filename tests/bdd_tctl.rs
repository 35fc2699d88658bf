//! The TCTL fixpoint engine with `--data bdd` against `--data explicit`
//! (the oracle: the explicit-data fixpoint engine, itself checked against
//! the other engines and the region oracle elsewhere): the same verdict on
//! random nested TCTL properties over the random networks of the BDD
//! differential suite, and on every property of `specs/` and the models
//! written for BDD data, the fixpoint engine forced both ways; and the same
//! time-lock warnings.

use crate::bdd_differential::random_networks;
use crate::common;
use crate::oracle::random::Rng;

use std::collections::BTreeMap;

use kairos::engine::reach::Limits;
use kairos::engine::{self, DataChoice, Options, Unknown, Verdict};
use kairos::model::formula::EngineKind;
use kairos::model::types::{Model, Property};
use kairos::network::Network;

#[derive(Default, Debug)]
struct Tally {
    compared: u64,
    /// Of those, satisfied, and warned of a reachable time-lock (both ways).
    satisfied: u64,
    warned: u64,
    refused: u64,
    /// Refusals by reason.
    why: BTreeMap<String, u64>,
    limits: u64,
    wrong: Vec<String>,
}

fn options(data: DataChoice, max_states: u64) -> Options {
    let limits = Limits { max_states: Some(max_states), ..Limits::default() };
    Options { data, engine: Some(EngineKind::Tctl), limits, ..Options::default() }
}

/// `p` by the fixpoint engine with BDD and with explicit data.
fn compare(model: &Model, net: &Network, p: &Property, what: &str, max_states: u64, tally: &mut Tally) {
    let bdd = engine::check(model, Some(net), p, &options(DataChoice::Bdd, max_states));
    if let Verdict::Unknown(Unknown::Unsupported(why)) = &bdd.verdict {
        let explicit = engine::check(model, Some(net), p, &options(DataChoice::Explicit, max_states));
        let both = matches!(explicit.verdict, Verdict::Unknown(Unknown::Unsupported(_)));
        if !why.starts_with("--data bdd") && !both {
            tally.wrong.push(format!("{what}: `{}`: refused without saying `--data bdd`: {why}", p.text));
        }
        tally.refused += 1;
        *tally.why.entry(why.clone()).or_default() += 1;
        return;
    }
    let explicit = engine::check(model, Some(net), p, &options(DataChoice::Explicit, max_states));
    if matches!(bdd.verdict, Verdict::Unknown(_)) || matches!(explicit.verdict, Verdict::Unknown(_)) {
        tally.limits += 1;
        return;
    }
    if bdd.verdict != explicit.verdict {
        tally.wrong.push(format!("{what}: `{}`: bdd {:?}, explicit {:?}", p.text, bdd.verdict, explicit.verdict));
        return;
    }
    let locks = |o: &engine::Outcome| o.warnings.iter().filter(|w| w.message.starts_with("time-lock")).count();
    let (mut bdd, mut explicit) = (bdd, explicit);
    if locks(&bdd) != locks(&explicit) {
        // A search for time-locks that meets the limit gives no warning
        // (the verdict stands): ask both again with room to finish.
        bdd = engine::check(model, Some(net), p, &options(DataChoice::Bdd, 100 * max_states));
        explicit = engine::check(model, Some(net), p, &options(DataChoice::Explicit, 100 * max_states));
    }
    if locks(&bdd) != locks(&explicit) {
        tally.wrong.push(format!(
            "{what}: `{}`: time-lock warnings bdd {}, explicit {}",
            p.text,
            locks(&bdd),
            locks(&explicit)
        ));
        return;
    }
    tally.compared += 1;
    tally.warned += u64::from(locks(&bdd) > 0);
    tally.satisfied += u64::from(bdd.verdict == Verdict::Satisfied);
}

/// Random TCTL properties over the network's locations, data and clocks:
/// every operator, bounded or not, nested up to depth 2, with clock atoms
/// and `deadlock`.
pub fn tctl_properties(net: &Network, seed: u64, count: usize) -> Vec<String> {
    let mut r = Rng(seed ^ 0x7c71_b0dd);
    let data: Vec<_> = net.slots.iter().filter(|s| !s.name.contains('[') && !s.name.contains('.')).collect();
    let atom = |r: &mut Rng| -> String {
        match r.below(6) {
            0 if !data.is_empty() => {
                let s = data[r.below(data.len())];
                if s.is_bool { s.name.clone() } else { format!("{} >= {}", s.name, r.int(s.lo, s.hi)) }
            }
            1 if !net.clocks.is_empty() => {
                let c = &net.clocks[r.below(net.clocks.len())];
                format!("{c} {} {}", r.pick(&["<=", ">=", "<", ">"]), r.int(0, 4))
            }
            2 if r.chance(0.2) => "deadlock".to_string(),
            _ => {
                let p = &net.processes[r.below(net.processes.len())];
                format!("{}.{}", p.name, p.locations[r.below(p.locations.len())].name)
            }
        }
    };
    fn bound(r: &mut Rng) -> String {
        if r.chance(0.5) {
            return String::new();
        }
        format!("[{}{}]", r.pick(&["<=", "<", ">=", ">", "=="]), r.int(0, 4))
    }
    fn formula(r: &mut Rng, depth: u32, atom: &dyn Fn(&mut Rng) -> String) -> String {
        let sub = |r: &mut Rng| if depth == 0 { atom(r) } else { formula(r, depth - 1, atom) };
        match r.below(if depth == 0 { 1 } else { 10 }) {
            0 => {
                let a = atom(r);
                if r.chance(0.3) { format!("(not {a})") } else { a }
            }
            1 => format!("(E<>{} {})", bound(r), sub(r)),
            2 => format!("(A[]{} {})", bound(r), sub(r)),
            3 => format!("(E[]{} {})", bound(r), sub(r)),
            4 => format!("(A<>{} {})", bound(r), sub(r)),
            5 => format!("E[{} U{} {}]", sub(r), bound(r), sub(r)),
            6 => format!("A[{} U{} {}]", sub(r), bound(r), sub(r)),
            7 => format!("({} and {})", sub(r), sub(r)),
            8 => format!("({} or {})", sub(r), sub(r)),
            _ => format!("({} imply {})", atom(r), sub(r)),
        }
    }
    let mut out = Vec::new();
    while out.len() < count {
        let top = formula(&mut r, 2, &atom);
        out.push(if r.chance(0.15) { format!("{} -->{} {}", atom(&mut r), bound(&mut r), atom(&mut r)) } else { top });
    }
    out
}

/// On the random networks of seeds `0..networks`, `per` random TCTL
/// properties each; with `progress`, the counts every 20 networks (a long
/// campaign cut short still tells how far it got).
fn random_campaign(networks: u64, per: usize, max_states: u64, progress: bool) -> Tally {
    let mut tally = Tally::default();
    for (seed, _, loaded, net) in random_networks(networks) {
        for (k, text) in tctl_properties(&net, seed, per).iter().enumerate() {
            let Ok(p) = loaded.query(&format!("t{k}"), text) else { continue };
            compare(&loaded.model, &net, &p, &format!("seed {seed}"), max_states, &mut tally);
        }
        if progress && seed % 20 == 19 {
            eprintln!("tctl with bdds, through seed {seed}: {tally:?}");
        }
    }
    tally
}

#[test]
fn tctl_with_bdds_agrees_on_random_networks() {
    let tally = random_campaign(40, 6, 3_000, false);
    eprintln!("tctl with bdds, random: {tally:?}");
    assert!(tally.wrong.is_empty(), "{}", tally.wrong.join("\n"));
    assert!(tally.compared >= 100 && tally.satisfied >= 20, "{tally:?}");
}

#[test]
#[ignore = "the campaign: cargo test --release --test suite bdd_tctl::tctl_with_bdds_campaign -- --ignored"]
fn tctl_with_bdds_campaign() {
    let tally = random_campaign(400, 12, 20_000, true);
    eprintln!("tctl with bdds, campaign: {tally:?}");
    assert!(tally.wrong.is_empty(), "{}", tally.wrong.join("\n"));
}

/// Every property of `specs/` (with its model) and of the models written
/// for BDD data, the fixpoint engine forced both ways.
#[test]
fn tctl_with_bdds_agrees_on_the_specs() {
    let mut pairs = Vec::new();
    for spec in common::yaml_files("specs") {
        pairs.push((std::path::Path::new("models").join(spec.file_name().unwrap()), Some(spec)));
    }
    for model in common::yaml_files("tests/models/bdd") {
        pairs.push((model, None));
    }
    let mut tally = Tally::default();
    for (model, spec) in pairs {
        let Ok(loaded) = common::load(&model) else { continue };
        let Some((net, props)) = common::timed_properties(&loaded, spec.as_deref()) else { continue };
        for p in &props {
            compare(&loaded.model, &net, p, &model.display().to_string(), 200_000, &mut tally);
        }
    }
    eprintln!("tctl with bdds, specs: {tally:?}");
    assert!(tally.wrong.is_empty(), "{}", tally.wrong.join("\n"));
    assert!(tally.compared >= 60, "{tally:?}");
}
