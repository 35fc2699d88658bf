//! The checking options shared by the commands, as the engines take them.

use super::args::{self, Abstraction, Run, Search};
use super::exit;
use crate::engine;
use crate::model::formula::EngineKind;

pub(super) fn options(c: &Run) -> engine::Options {
    engine::Options {
        abstraction: c.abstraction.map(|a| match a {
            Abstraction::None => engine::AbstractionChoice::None,
            Abstraction::Lu => engine::AbstractionChoice::Lu,
            Abstraction::Alu => engine::AbstractionChoice::Alu,
        }),
        subsumption: !c.no_subsumption,
        jobs: c.jobs.unwrap_or(1).max(1),
        domain: engine::Domain::Auto,
        data: engine::DataChoice::Explicit,
        order: match c.search {
            Search::Bfs => engine::reach::Order::Bfs,
            Search::Dfs => engine::reach::Order::Dfs,
            Search::Rdfs => engine::reach::Order::Rdfs { seed: c.seed },
        },
        limits: engine::reach::Limits {
            max_states: c.max_states,
            // A timeout too large for a `Duration` (or infinite) is no deadline.
            deadline: c
                .timeout
                .and_then(|t| std::time::Duration::try_from_secs_f64(t.max(0.0)).ok())
                .and_then(|d| std::time::Instant::now().checked_add(d)),
            max_bytes: c.max_memory.or_else(engine::limits::default_max_bytes),
            progress: None,
        },
        engine: c.engine.and_then(|e| match e {
            args::EngineChoice::Reach => Some(EngineKind::Reach),
            args::EngineChoice::Observer => Some(EngineKind::Observer),
            args::EngineChoice::Live => Some(EngineKind::Live),
            args::EngineChoice::Tctl => Some(EngineKind::Tctl),
            args::EngineChoice::Param => None,
        }),
        tctl: engine::tctl::Cache::default(),
        time_locks: engine::liveness::Cache::default(),
    }
}

/// The domain of `--domain`.
pub(super) fn domain(d: Option<args::Domain>) -> engine::Domain {
    match d {
        None => engine::Domain::Auto,
        Some(args::Domain::Zone) => engine::Domain::Zone,
        Some(args::Domain::Poly) => engine::Domain::Poly,
    }
}

/// `--data`.
pub(super) fn data(d: args::Data) -> engine::DataChoice {
    match d {
        args::Data::Explicit => engine::DataChoice::Explicit,
        args::Data::Auto => engine::DataChoice::Auto,
        args::Data::Bdd => engine::DataChoice::Bdd,
    }
}

/// Options accepted by the command line whose machinery is not built yet:
/// said out loud, never silently ignored.
pub(super) fn unsupported_options(c: &Run) -> Option<u8> {
    if c.engine == Some(args::EngineChoice::Param) {
        eprintln!("kairos: the `param` engine is not built yet");
        return Some(exit::UNSUPPORTED);
    }
    None
}
