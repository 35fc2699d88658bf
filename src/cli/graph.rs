//! `kairos graph MODEL [--format dot|yaml|json]`: the zone graph, canonical
//! and deterministic.

use super::args::{Abstraction, GraphArgs, GraphFormat, OutputFormat};
use super::{exit, load, network};
use crate::engine;
use crate::report;
use crate::semantics::{Abstraction as Abs, ZoneGraph};

pub(super) fn run(a: GraphArgs) -> u8 {
    let text_format = if a.format == GraphFormat::Json { OutputFormat::Json } else { OutputFormat::Text };
    let input = match load(&a.model, &[], None, text_format) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let m = &input.loaded.model;
    if m.hybrid || !m.params.is_empty() {
        eprintln!("kairos: the zone graph of hybrid or parametric models is not supported yet");
        return exit::UNSUPPORTED;
    }
    let net = match network(&input, text_format) {
        Ok(n) => n.expect("a timed, parameter-free model compiles"),
        Err(code) => return code,
    };
    let abstraction = match (a.abstraction, net.has_diagonals) {
        (Some(Abstraction::Lu | Abstraction::Alu), true) => {
            eprintln!("kairos: ExtraLU+ is unsound with diagonal constraints; use `--abstraction none`");
            return exit::UNSUPPORTED;
        }
        (Some(Abstraction::None), _) | (None, true) => Abs::None,
        _ => Abs::Lu,
    };
    let mut zg = ZoneGraph::new(&net, abstraction);
    let limits = engine::reach::Limits { max_states: a.max_states, ..Default::default() };
    match engine::graph::zone_graph(&mut zg, &limits) {
        Ok(g) => {
            match a.format {
                GraphFormat::Dot => print!("{}", report::graph::dot(&net, &g)),
                GraphFormat::Yaml => print!("{}", report::graph::yaml(&net, &g)),
                GraphFormat::Json => println!("{}", report::graph::json(&net, &g)),
            }
            exit::OK
        }
        Err(engine::graph::GraphError::Stopped(_)) => {
            eprintln!("kairos: the zone graph has more than {} states; stopped", a.max_states.unwrap_or(0));
            exit::LIMIT
        }
        Err(engine::graph::GraphError::Run(e)) => {
            eprintln!("kairos: run-time error: {}", e.describe(&net));
            exit::RUNTIME_ERROR
        }
    }
}
