//! Which networks and properties the data-symbolic engine checks exactly.

use crate::model::typed::Dir;
use crate::network::{ChannelIndex, Network, StateFormula, Update};

/// `Ok` when [`super::check`] is exact on `net` and `goal`, else why not.
pub fn supported(net: &Network, goal: &StateFormula) -> Result<(), String> {
    if net.hybrid.is_some() {
        return Err("hybrid models and fixed timing parameters are not supported".into());
    }
    if net.priorities.is_some() {
        return Err("priorities are not supported yet".into());
    }
    for (pi, p) in net.processes.iter().enumerate() {
        for (k, e) in p.edges.iter().enumerate() {
            let at = || net.edge_text(pi as u32, k as u32);
            let broadcast = |c: u32| net.channels[c as usize].broadcast;
            let receives_broadcast = e.sync.as_ref().is_some_and(|s| {
                s.dir == Dir::Receive
                    && match &s.channel {
                        ChannelIndex::Fixed(c) => broadcast(*c),
                        ChannelIndex::Dynamic { base, len, .. } => (*base..base + len).any(broadcast),
                    }
            });
            if receives_broadcast && !e.guard_clocks.is_empty() {
                return Err(format!("`{}` receives a broadcast under a clock guard", at()));
            }
            if e.updates.iter().any(|u| matches!(u, Update::Assign { .. })) {
                return Err(format!("`{}` assigns a continuous variable", at()));
            }
        }
    }
    goal_supported(goal)
}

fn goal_supported(f: &StateFormula) -> Result<(), String> {
    match f {
        StateFormula::Pred(conjs) if conjs.iter().all(|c| c.clocks.is_empty()) => Ok(()),
        StateFormula::Pred(_) => Err("clock constraints in the property are not supported yet".into()),
        StateFormula::Deadlock => Ok(()),
        StateFormula::Not(a) => goal_supported(a),
        StateFormula::And(a, b) | StateFormula::Or(a, b) => goal_supported(a).and(goal_supported(b)),
    }
}
