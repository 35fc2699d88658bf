//! `kairos graph MODEL [--format dot|yaml|json|svg] [--project INSTANCE...]
//! [--max-nodes N] [--domain zone|poly]`: the zone graph, or the graph of
//! polyhedra of a hybrid model, canonical and deterministic; SVG is the DOT
//! laid out by Graphviz's `dot` when it is on the PATH.

use super::args::{Abstraction, Domain, GraphArgs, GraphFormat, OutputFormat};
use super::{exit, load_at, network_at};
use crate::domain::poly::Poly;
use crate::domain::zone::Dbm;
use crate::engine;
use crate::network::Network;
use crate::report;
use crate::report::graph::{DotView, SetText};
use crate::semantics::{Abstraction as Abs, ZoneGraph};

pub(super) fn run(a: GraphArgs) -> u8 {
    let text_format = if a.format == GraphFormat::Json { OutputFormat::Json } else { OutputFormat::Text };
    let (input, given) = match load_at(&a.model, &[], None, text_format, &a.params) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let drawn = matches!(a.format, GraphFormat::Dot | GraphFormat::Svg);
    if !drawn && (!a.project.is_empty() || a.max_nodes.is_some()) {
        eprintln!("kairos: --project and --max-nodes apply to `--format dot` and `svg` only, not yet to YAML or JSON");
        return exit::UNSUPPORTED;
    }
    let net = match network_at(&input, &given, text_format) {
        Ok(Some(n)) => n,
        Ok(None) => {
            eprintln!("kairos: the graph of a model with timing parameters needs a value for each (`--param p=v`)");
            return exit::UNSUPPORTED;
        }
        Err(code) => return code,
    };
    // A linear network (hybrid, or rational parameter values) has no
    // finite abstraction: exact polyhedra, and the limits end what diverges.
    let linear = net.hybrid.is_some();
    let what = if input.loaded.model.hybrid { "hybrid models" } else { "rational parameter values" };
    let poly = match a.domain {
        Some(Domain::Zone) if linear => {
            eprintln!("kairos: zones cannot represent {what}: use `--domain poly` (the default for them)");
            return exit::UNSUPPORTED;
        }
        Some(d) => d == Domain::Poly,
        None => linear,
    };
    let abstraction = match (a.abstraction, net.has_diagonals) {
        (Some(Abstraction::Lu | Abstraction::Alu), _) if linear => {
            eprintln!(
                "kairos: the graph of {what} is exact (no abstraction is sound for them); use `--abstraction none`"
            );
            return exit::UNSUPPORTED;
        }
        (Some(Abstraction::Lu | Abstraction::Alu), true) => {
            eprintln!("kairos: ExtraLU+ is unsound with diagonal constraints; use `--abstraction none`");
            return exit::UNSUPPORTED;
        }
        (Some(Abstraction::None), _) | (None, true) => Abs::None,
        _ if linear => Abs::None,
        _ => Abs::Lu,
    };
    let mut keep = Vec::new();
    for name in &a.project {
        match net.processes.iter().position(|p| &p.name == name) {
            Some(p) => keep.push(p),
            None => {
                let all: Vec<&str> = net.processes.iter().map(|p| p.name.as_str()).collect();
                eprintln!("kairos: --project {name}: no such instance; the instances are {}", all.join(", "));
                return exit::INVALID;
            }
        }
    }
    if poly { print::<Poly>(&net, abstraction, &a, &keep) } else { print::<Dbm>(&net, abstraction, &a, &keep) }
}

/// The graph over sets of type `S`, printed in the format asked for; the
/// exit code.
fn print<S: SetText>(net: &Network, abstraction: Abs, a: &GraphArgs, keep: &[usize]) -> u8 {
    let mut zg = ZoneGraph::<S>::with_sets(net, abstraction);
    // The memory budget of `check` too: a graph of polyhedra need not be
    // finite, and is then stopped rather than left to exhaust the machine.
    let limits = engine::reach::Limits {
        max_states: a.max_states,
        max_bytes: engine::limits::default_max_bytes(),
        ..Default::default()
    };
    match engine::graph::zone_graph(&mut zg, &limits) {
        Ok(g) => {
            match a.format {
                GraphFormat::Dot | GraphFormat::Svg => {
                    let text = if keep.is_empty() {
                        let view = DotView { extrapolated: abstraction != Abs::None, max_nodes: a.max_nodes };
                        report::graph::dot(net, &g, &view)
                    } else {
                        let p = report::graph::project::project(net, &g, keep);
                        eprintln!("kairos: {}", p.note(net));
                        p.dot(net, a.max_nodes)
                    };
                    if a.format == GraphFormat::Svg {
                        return graphviz(&text);
                    }
                    print!("{text}");
                }
                GraphFormat::Yaml => print!("{}", report::graph::yaml(net, &g)),
                GraphFormat::Json => println!("{}", report::graph::json(net, &g)),
            }
            exit::OK
        }
        Err(engine::graph::GraphError::Stopped(why)) => {
            match why {
                engine::Unknown::StateLimit => {
                    eprintln!("kairos: the {} has more than {} states; stopped", S::GRAPH, a.max_states.unwrap_or(0))
                }
                _ => eprintln!("kairos: the {} was stopped ({})", S::GRAPH, why.reason()),
            }
            exit::LIMIT
        }
        Err(engine::graph::GraphError::Run(e)) => {
            eprintln!("kairos: run-time error: {}", e.describe(net));
            exit::RUNTIME_ERROR
        }
    }
}

/// `dot -Tsvg` on `text`, its output on stdout; exit 5 when Graphviz is not
/// on the PATH.
fn graphviz(text: &str) -> u8 {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let child = Command::new("dot").arg("-Tsvg").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn();
    let Ok(mut child) = child else {
        eprintln!(
            "kairos: --format svg needs Graphviz's `dot` on the PATH, which is not available; \
             use `--format dot` and lay the graph out elsewhere"
        );
        return exit::UNSUPPORTED;
    };
    // `dot` reads all its input before writing: no deadlock.
    let written = child.stdin.take().is_some_and(|mut i| i.write_all(text.as_bytes()).is_ok());
    match child.wait_with_output() {
        Ok(out) if written && out.status.success() => {
            print!("{}", String::from_utf8_lossy(&out.stdout));
            exit::OK
        }
        _ => {
            eprintln!("kairos: Graphviz's `dot` failed on the graph");
            exit::UNSUPPORTED
        }
    }
}
