//! `kairos bound --term T -q φ`: the exact range of a linear term over the
//! reachable `φ`-states, on polyhedra (hybrid models) and on zones and
//! polyhedra (timed models).
//!
//! Oracles: the figures argued in the models' comments; the reach engine,
//! which never maximises (it intersects and tests emptiness): with `sup = n/d`,
//! no reachable `φ`-state has `d·T > n`, one has `d·T == n` when attained,
//! and when not, none has `d·T >= n` but one has `d·T > n − 1/1000` (`− 1`
//! on timed models, whose clocks take no coefficient); and on
//! timed models (random networks included) the zone and polyhedra figures,
//! and the exact ones of the hybrid reading where its exploration ends.

use crate::common;
use crate::oracle;

use std::path::Path;
use std::time::{Duration, Instant};

use kairos::domain::poly::Q;
use kairos::engine::bound::term::{Range, Side, range};
use kairos::engine::reach::Limits;
use kairos::engine::{self, Domain, Options, Verdict};
use kairos::model::load::{Loaded, load_model};
use kairos::network::Network;
use kairos::syntax::yaml::Source;

fn measure(l: &Loaded, net: &Network, term: &str, phi: &str, options: &Options) -> Result<Option<Range>, String> {
    let t = l.query("term", &format!("({term}) <= 0")).map_err(|d| d[0].message.clone())?;
    let p = l.query("where", phi).map_err(|d| d[0].message.clone())?;
    range(net, &t, &p, options).map_err(|o| format!("{:?}", o.verdict))
}

/// Whether some reachable state satisfies `goal`, by the reach engine
/// (`A[] not goal` fails: correct for several initial states too).
fn reachable(l: &Loaded, net: &Network, goal: &str) -> bool {
    let p = l.query("oracle", &format!("A[] not ({goal})")).unwrap_or_else(|d| panic!("`{goal}`: {}", d[0].message));
    match engine::check(&l.model, Some(net), &p, &Options::default()).verdict {
        Verdict::Satisfied => false,
        Verdict::Violated => true,
        v => panic!("`{goal}`: {v:?}"),
    }
}

/// The reach engine confirms one side of `T`'s range: `s = 1` the supremum,
/// `s = -1` the infimum (the supremum of `−T`).
fn confirm_side(l: &Loaded, net: &Network, term: &str, phi: &str, side: &Side, s: i64) {
    // Some reachable `φ`-state has `s·T ≻ w − minus / (scale·d)`, `w = p / d`.
    let beyond = |rel: &str, w: &Q, scale: i64, minus: i64| {
        let (p, d) = (w.numer() * scale - minus, w.denom() * scale);
        let (rel, p) = if s > 0 { (rel.to_string(), p) } else { (rel.replace('>', "<"), -p) };
        reachable(l, net, &format!("({phi}) and {d} * ({term}) {rel} {p}"))
    };
    match side {
        Side::Finite { value, attained } => {
            let w = if s < 0 { -value.clone() } else { value.clone() };
            assert!(!beyond(">", &w, 1, 0), "`{term}` beyond {value} where `{phi}`");
            if *attained {
                assert!(beyond("==", &w, 1, 0), "`{term}` never {value} where `{phi}`");
            } else {
                assert!(!beyond(">=", &w, 1, 0), "`{term}` reaches {value} where `{phi}`");
                // Timed models take no scaled clock: within 1 there.
                let scale = if net.hybrid.is_some() { 1000 } else { 1 };
                assert!(beyond(">", &w, scale, 1), "`{term}` not near {value} where `{phi}`");
            }
        }
        Side::Infinite | Side::Beyond => {
            let rel = if s > 0 { "> 1000" } else { "< -1000" };
            assert!(reachable(l, net, &format!("({phi}) and ({term}) {rel}")), "`{term}` where `{phi}`")
        }
    }
}

fn confirm(l: &Loaded, net: &Network, term: &str, phi: &str, r: &Option<Range>) {
    match r {
        None => assert!(!reachable(l, net, phi), "`{phi}` is reachable"),
        Some(r) => {
            confirm_side(l, net, term, phi, &r.sup, 1);
            confirm_side(l, net, term, phi, &r.inf, -1);
        }
    }
}

fn finite(value: i64, attained: bool) -> Side {
    Side::Finite { value: Q::from_integer(value.into()), attained }
}

/// The model at `path` with its timing parameters fixed to `params`.
fn model(path: &str, params: &[i64]) -> (Loaded, Network) {
    let l = common::load(Path::new(path)).unwrap();
    let values: Vec<Q> = params.iter().map(|&v| Q::from_integer(v.into())).collect();
    let net = kairos::network::build_with(&l.model, &values).unwrap();
    (l, net)
}

/// A model, its parameter values, a term, `φ`, and the range's `sup`, `inf`.
type Case = (&'static str, &'static [i64], &'static str, &'static str, Side, Side);

/// Each figure argued in the model.
#[test]
fn hybrid_models_have_their_argued_ranges() {
    let cases: &[Case] = &[
        ("models/water-level.yaml", &[], "level", "true", finite(12, true), finite(1, true)),
        ("models/water-level.yaml", &[], "level", "Monitor.delay_off", finite(5, true), finite(1, true)),
        ("models/water-level.yaml", &[], "level - Monitor.t", "Monitor.delay_on", finite(10, true), finite(10, true)),
        ("models/stopwatch-scheduler.yaml", &[], "L.r", "not L.idle", finite(13, true), finite(0, true)),
        ("models/stopwatch-scheduler.yaml", &[], "L.r - L.c", "not L.idle", finite(4, true), finite(0, true)),
        ("models/thermostat.yaml", &[], "T", "true", finite(22, true), finite(18, true)),
        ("models/thermostat.yaml", &[], "Thermostat.x", "Thermostat.on", finite(2, true), finite(0, true)),
        ("models/thermostat.yaml", &[], "Thermostat.x", "Thermostat.off", finite(4, true), finite(0, true)),
        ("models/hytech-crossing.yaml", &[7], "Gate.g", "Gate.lowering", finite(6, true), finite(0, true)),
        ("models/hytech-crossing.yaml", &[7], "a", "true", finite(90, true), finite(0, true)),
    ];
    for (path, params, term, phi, sup, inf) in cases {
        let (l, net) = model(path, params);
        assert!(net.hybrid.is_some(), "{path}");
        let r = measure(&l, &net, term, phi, &Options::default()).unwrap_or_else(|e| panic!("{path}: {e}"));
        let want = Range { sup: sup.clone(), inf: inf.clone() };
        assert_eq!(r.as_ref(), Some(&want), "{path}: `{term}` where `{phi}`");
        confirm(&l, &net, term, phi, &r);
    }
}

#[test]
fn rational_and_unreachable_ranges() {
    // The first heating phase from 20 ends within 1, and after the first
    // phase one lasts at least 2/3 (the model's comments).
    let (l, net) = model("models/thermostat.yaml", &[]);
    let r = measure(&l, &net, "Thermostat.x", "Thermostat.on and cycled and T >= 21", &Options::default()).unwrap();
    let Some(Range { inf: Side::Finite { value, attained: true }, .. }) = &r else { panic!("{r:?}") };
    assert_eq!(*value, Q::new(2.into(), 3.into()));
    confirm(&l, &net, "Thermostat.x", "Thermostat.on and cycled and T >= 21", &r);
    // A strict supremum: the level is below 12 while rising before the delay.
    let (l, net) = model("models/water-level.yaml", &[]);
    let r = measure(&l, &net, "level", "Monitor.watch_high and level < 10", &Options::default()).unwrap();
    assert_eq!(r.as_ref().map(|r| &r.sup), Some(&finite(10, false)));
    confirm(&l, &net, "level", "Monitor.watch_high and level < 10", &r);
    let r = measure(&l, &net, "level", "level > 12", &Options::default()).unwrap();
    assert_eq!(r, None);
    confirm(&l, &net, "level", "level > 12", &r);
}

#[test]
fn what_is_no_term_is_refused() {
    let (l, net) = model("models/water-level.yaml", &[]);
    for bad in ["level * level", "true", "3"] {
        assert!(measure(&l, &net, bad, "true", &Options::default()).is_err(), "`{bad}`");
    }
    let (l, net) = model("models/train-gate.yaml", &[]);
    let e = measure(&l, &net, "2 * Train(0).x", "true", &Options::default()).unwrap_err();
    assert!(e.contains("x - y"), "a timed model's terms are differences: {e}");
}

/// Options with the domain, a state cap and a deadline (the polyhedra are
/// slow on Fischer: a generous one for the models, seconds for the random
/// networks).
fn with_domain(domain: Domain, max_states: u64, seconds: u64) -> Options {
    let deadline = Instant::now().checked_add(Duration::from_secs(seconds));
    Options {
        domain,
        limits: Limits { max_states: Some(max_states), deadline, ..Limits::default() },
        ..Options::default()
    }
}

/// Zones, polyhedra on the timed network, and (where its exact exploration
/// ends) the hybrid reading agree; `Beyond` on the abstraction is infinite
/// in exact terms. Returns (compared zones and polyhedra, compared with the
/// hybrid reading too); an exploration stopped by its limits compares nothing.
fn agree(
    l: &Loaded,
    net: &Network,
    hybrid: Option<(&Loaded, &Network)>,
    term: &str,
    phi: &str,
    seconds: u64,
) -> (bool, bool) {
    let (Ok(zone), Ok(poly)) = (
        measure(l, net, term, phi, &with_domain(Domain::Zone, 20_000, seconds)),
        measure(l, net, term, phi, &with_domain(Domain::Poly, 20_000, seconds)),
    ) else {
        return (false, false);
    };
    assert_eq!(zone, poly, "{}: `{term}` where `{phi}`", l.model.name);
    confirm(l, net, term, phi, &zone);
    let Some((hl, hnet)) = hybrid else { return (true, false) };
    let Ok(exact) = measure(hl, hnet, term, phi, &with_domain(Domain::Auto, 200, seconds)) else {
        return (true, false);
    };
    let abstracted = |s: &Side| if *s == Side::Infinite { Side::Beyond } else { s.clone() };
    let exact = exact.map(|r| Range { sup: abstracted(&r.sup), inf: abstracted(&r.inf) });
    assert_eq!(zone, exact, "{}: `{term}` where `{phi}`, hybrid reading", l.model.name);
    (true, true)
}

#[test]
fn zones_and_polyhedra_agree_on_timed_models() {
    let cases = [
        ("models/fischer.yaml", "P(1).x", "P(1).req", Some((2, true))),
        ("models/fischer.yaml", "P(1).x - P(2).x", "P(1).cs and P(2).req", None),
        ("models/train-gate.yaml", "Train(0).x", "Train(0).Cross", Some((5, true))),
        ("models/train-gate.yaml", "Train(0).x", "Train(0).Appr", Some((20, true))),
    ];
    for (path, term, phi, sup) in cases {
        let (l, net) = model(path, &[]);
        assert!(agree(&l, &net, None, term, phi, 300).0, "{path}: `{term}` where `{phi}` within the limits");
        if let Some((v, attained)) = sup {
            let r = measure(&l, &net, term, phi, &Options::default()).unwrap();
            assert_eq!(r.map(|r| r.sup), Some(finite(v, attained)), "{path}: `{term}` where `{phi}`");
        }
    }
}

#[test]
fn zones_and_polyhedra_agree_on_random_networks() {
    let (mut ranges, mut compared, mut exact) = (0, 0, 0);
    for seed in 0..8 {
        let g = oracle::random::Gen::generate(seed);
        let Ok(l) = load_model(&Source::new(format!("random-{seed}.yaml"), g.yaml.clone())) else { continue };
        let Ok(net) = kairos::network::build(&l.model) else { continue };
        let hybrid_yaml = format!("{}\ncontinuous:\n  hybrid_probe: {{init: 0}}\n", g.yaml);
        let hl = load_model(&Source::new(format!("random-{seed}-hybrid.yaml"), hybrid_yaml)).unwrap();
        let hnet = kairos::network::build(&hl.model).unwrap();
        for clock in net.clocks.clone() {
            let (c, e) = agree(&l, &net, Some((&hl, &hnet)), &clock, "true", 5);
            (ranges, compared, exact) = (ranges + 1, compared + c as usize, exact + e as usize);
        }
    }
    eprintln!("random: {ranges} clock ranges, {compared} compared on zones and polyhedra, {exact} also exactly");
    assert!(compared >= 8 && exact >= 4, "{ranges} ranges, {compared} compared, {exact} exact");
}
