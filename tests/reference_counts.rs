//! State counts against TChecker v0.8 on hand translations of its models
//! (../shared/reference/REFERENCE.md: ExtraLU+ with local bounds, elapsed
//! semantics, BFS). `reach` keeps every distinct zone; `covreach` keeps
//! maximal ones.

use crate::common;

use kairos::engine::reach::Order;
use kairos::engine::{self, AbstractionChoice, Options, Verdict};
use std::path::Path;

fn run(model: &str, subsumption: bool, abstraction: AbstractionChoice) -> (Verdict, engine::Stats) {
    let loaded = common::load(Path::new(model)).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let p = loaded.model.properties.first().expect("the file carries TChecker's label query");
    let options = Options { abstraction: Some(abstraction), subsumption, order: Order::Bfs, ..Options::default() };
    let o = engine::check(&loaded.model, Some(&net), p, &options);
    (o.verdict, o.stats.unwrap())
}

/// (file, reach visited, reach transitions, covreach stored)
const TCHECKER: &[(&str, u64, u64, u64)] = &[
    ("tests/models/tchecker/fischer_3.yaml", 71, 126, 65),
    ("tests/models/tchecker/train_gate_2.yaml", 56, 84, 56),
    ("tests/models/tchecker/train_gate_3.yaml", 765, 1503, 765),
];

#[test]
fn counts_without_subsumption_equal_tcheckers_reach() {
    for &(model, visited, transitions, _) in TCHECKER {
        let (verdict, s) = run(model, false, AbstractionChoice::Lu);
        assert_eq!(verdict, Verdict::Violated, "{model}: the labels are unreachable together");
        assert_eq!((s.visited, s.transitions), (visited, transitions), "{model}");
        assert_eq!(s.stored, visited, "{model}: without subsumption every visited state is kept");
    }
}

#[test]
fn stored_with_inclusion_does_not_exceed_tcheckers_covreach() {
    for &(model, _, _, stored) in TCHECKER {
        for abstraction in [AbstractionChoice::Lu, AbstractionChoice::Alu] {
            let (verdict, s) = run(model, true, abstraction);
            assert_eq!(verdict, Verdict::Violated, "{model}");
            assert!(s.stored <= stored, "{model} {abstraction:?}: stored {} > TChecker's {stored}", s.stored);
        }
    }
}

#[test]
fn exact_zones_agree_on_the_verdicts() {
    for &(model, ..) in TCHECKER {
        let (verdict, _) = run(model, true, AbstractionChoice::None);
        assert_eq!(verdict, Verdict::Violated, "{model}");
    }
}
