//! Liveness and bounded response on hybrid models (exact polyhedra): the
//! answers argued by hand from the water-level monitor's cycle
//! (models/water-level.yaml). The pump goes off at level 1 and the level
//! rises at 1 to 10 (9 time units), then the monitor waits 2: the pump is on
//! again exactly 11 after it went off, so `off -->[<= 11] on` holds and
//! `-->[< 11]` fails. The pump goes on at level 12 and the level falls at 2
//! to 5 (7/2 time units), then 2 more: it is off again 11/2 after going on,
//! so `on -->[<= 6] off` holds and `-->[<= 5] off` fails. The cycle
//! (16.5 long) repeats forever, so every `-->` between the pump's states
//! holds, `A<> Tank.on` holds, `E[] Tank.off` fails (the pump goes on) and
//! `E[] true` holds (a divergent run exists). The violations and witnesses
//! need a run: the periodic cycle confirms them (engine/liveness/periodic.rs),
//! and a sound counter-check is that they fail or hold as argued. Each
//! case is checked with explicit data and with data as BDDs (the
//! data-symbolic search on polyhedra, `engine/symdata/live.rs`).

use crate::common;

use std::path::Path;

use kairos::engine::{self, DataChoice, Options, Outcome, Verdict};
use kairos::model::formula::EngineKind;
use kairos::model::load::Loaded;
use kairos::network::Network;

fn water() -> (Loaded, Network) {
    let loaded = common::load(Path::new("models/water-level.yaml")).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    assert!(net.hybrid.is_some());
    (loaded, net)
}

fn check(loaded: &Loaded, net: &Network, query: &str, data: DataChoice) -> Outcome {
    let p = loaded.query("q", query).unwrap();
    let o = engine::check(&loaded.model, Some(net), &p, &Options { data, ..Options::default() });
    if let Some(t) = &o.trace {
        let network = o.network.as_deref().unwrap_or(net);
        kairos::trace::concretise(network, t).unwrap_or_else(|e| panic!("`{query}`: {e:?}"));
    }
    o
}

/// The water level's outcomes of `cases` (query, whether it holds), each
/// answered by `engine` with the argued verdict, with explicit data, then
/// with BDD data.
fn verdicts<'a>(cases: &[(&'a str, bool)], engine: EngineKind) -> Vec<(&'a str, bool, Outcome)> {
    let (loaded, net) = water();
    let mut out = Vec::new();
    for data in [DataChoice::Explicit, DataChoice::Bdd] {
        for &(query, holds) in cases {
            let o = check(&loaded, &net, query, data);
            assert_eq!(o.engine, engine, "`{query}` {data:?}");
            let want = if holds { Verdict::Satisfied } else { Verdict::Violated };
            assert_eq!(o.verdict, want, "`{query}` {data:?}");
            // Not handed to the explicit engine (a run-time error would be).
            let by = o.stats.as_ref().and_then(|s| s.data);
            assert!(data == DataChoice::Explicit || by != Some(DataChoice::Explicit), "`{query}`");
            out.push((query, holds, o));
        }
    }
    out
}

#[test]
fn water_level_bounded_responses_have_the_argued_bounds() {
    let cases = [
        ("Tank.off -->[<=11] Tank.on", true),
        ("Tank.off -->[<11] Tank.on", false),
        ("Tank.off -->[<=10] Tank.on", false),
        ("Tank.on -->[<=6] Tank.off", true),
        ("Tank.on -->[<=5] Tank.off", false),
        ("A[] (Monitor.delay_on imply A<>[<=2] Tank.on)", true),
        ("A[] (Monitor.delay_on imply A<>[<2] Tank.on)", false),
    ];
    for (query, holds, o) in verdicts(&cases, EngineKind::Observer) {
        // A violation's path leads to the late observer.
        if !holds {
            let t = o.trace.as_ref().unwrap_or_else(|| panic!("`{query}`: a trace"));
            let product = o.network.as_deref().expect("the observer product");
            let obs = product.processes.len() - 1;
            let end = &t.states.last().unwrap().discrete;
            assert_eq!(product.processes[obs].locations[end.locs[obs] as usize].name, "bad", "`{query}`");
        }
    }
}

#[test]
fn water_level_liveness_has_the_argued_verdicts() {
    let cases = [
        ("Tank.off --> Tank.on", true),
        ("Tank.on --> Tank.off", true),
        ("A<> Tank.on", true),
        ("A<> Monitor.delay_off", true),
        ("E[] Tank.off", false),
        ("E[] true", true),
        ("E[] not Monitor.watch_low", false),
    ];
    verdicts(&cases, EngineKind::Live);
}

/// A cycle of polyhedra that no run follows forever (the model's comment
/// argues it): no witness is claimed, the answer is unknown, said.
#[test]
fn a_cycle_without_a_periodic_run_is_not_a_witness() {
    let loaded = common::load(Path::new("tests/models/hybrid/doubling.yaml")).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    for (query, data) in
        ["E[] true", "A<> false"].into_iter().flat_map(|q| [(q, DataChoice::Explicit), (q, DataChoice::Bdd)])
    {
        let o = check(&loaded, &net, query, data);
        match &o.verdict {
            Verdict::Unknown(kairos::engine::Unknown::Unsupported(why)) => {
                assert!(why.contains("no ultimately periodic run"), "`{query}` {data:?}: {why}")
            }
            other => panic!("`{query}` {data:?}: {other:?}"),
        }
    }
}
