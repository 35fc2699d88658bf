//! Evidence for the outermost operator: a witness path for `EF ψ`, a
//! counterexample path for `AG φ` and `φ --> ψ` (to a state of `not φ`,
//! which for a nested φ is where the inner property fails). Found by a forward search
//! on exact zones towards the states of the fixpoint's answer: the
//! fixpoint says such a state is reachable, so breadth-first search meets
//! it after finitely many steps even without extrapolation.

use crate::domain::federation::Federation;
use crate::engine::reach::{self, End, Limits, Order};
use crate::engine::store::Cover;
use crate::engine::tctl::pre::Map;
use crate::engine::tctl::sat::Evaluator;
use crate::engine::tctl::space::Space;
use crate::engine::{SymbolicTrace, same_zone, store_trace};
use crate::model::formula::Formula;
use crate::network::Network;
use crate::semantics::{Abstraction, ZoneGraph, ZoneState};
use crate::syntax::ast::PathOp;

/// The trace the verdict calls for, if the outermost operator gives one.
pub fn trace(
    net: &Network,
    space: &Space,
    eval: &mut Evaluator<'_, '_, '_, '_>,
    formula: &Formula,
    holds: bool,
    limits: &Limits,
) -> Option<SymbolicTrace> {
    let target = match formula {
        Formula::Path { op: PathOp::EF, bound: None, arg } if holds => eval.sat(arg).ok()?,
        Formula::Path { op: PathOp::AG, bound: None, arg } if !holds => {
            let good = eval.sat(arg).ok()?;
            eval.fix.layer(0).complement(&good)
        }
        // `φ -->[b] ψ` is `AG (φ imply AF[b] ψ)`.
        Formula::LeadsTo { bound, lhs, rhs } if !holds => {
            let reacts = Formula::Path { op: PathOp::AF, bound: *bound, arg: rhs.clone() };
            let good = eval.sat(&Formula::Imply(lhs.clone(), Box::new(reacts))).ok()?;
            eval.fix.layer(0).complement(&good)
        }
        _ => return None,
    };
    path_to(net, space, &target, limits)
}

/// A path from an initial state to a state meeting `target`.
fn path_to(net: &Network, space: &Space, target: &Map, limits: &Limits) -> Option<SymbolicTrace> {
    let mut zg = ZoneGraph::new(net, Abstraction::None);
    let mut hit = |_: &mut ZoneGraph<'_>, s: &ZoneState| {
        Ok(match space.states.get_index_of(&s.discrete) {
            Some(d) => target[d].intersect(&Federation::from_zone(s.zone.clone())),
            None => Federation::empty(),
        })
    };
    let run = reach::explore(&mut zg, Order::Bfs, Cover::Inclusion, limits, &mut hit);
    match run.end {
        End::Found { node, witness } => store_trace(&mut zg, &run.store, node, witness, None, None, same_zone),
        _ => None,
    }
}
