//! Names and small evaluations shared by the validator and the printers.

use crate::model::typed::Dir;
use crate::network::{ChannelIndex, ClockConstraint, Edge, EvalError, Network};
use crate::semantics::Discrete;

/// The channel element an edge synchronises on in state `d`, and its
/// direction; `None` for an internal edge.
pub fn channel(edge: &Edge, d: &Discrete) -> Result<Option<(u32, Dir)>, EvalError> {
    let Some(s) = &edge.sync else { return Ok(None) };
    let c = match &s.channel {
        ChannelIndex::Fixed(c) => *c,
        ChannelIndex::Dynamic { base, len, index } => {
            let i = index.eval(&d.locs, &d.data, &mut Vec::new())?;
            if i < 0 || i >= i64::from(*len) {
                return Err(EvalError::IndexOutOfBounds { index: i, len: *len });
            }
            base + i as u32
        }
    };
    Ok(Some((c, s.dir)))
}

/// `approach!`, `go[2]?`, or `None` for an internal edge; evaluated in the
/// source state `d`.
pub fn sync_label(net: &Network, edge: &Edge, d: &Discrete) -> Option<String> {
    match channel(edge, d) {
        Ok(None) => None,
        Ok(Some((c, dir))) => Some(format!("{}{}", net.channels[c as usize].name, dir.mark())),
        Err(_) => edge.sync.as_ref().map(|s| format!("<channel index error>{}", s.dir.mark())),
    }
}

/// A data value as the user wrote it: `true`/`false` for booleans.
pub fn value(net: &Network, slot: usize, v: i64) -> String {
    if net.slots[slot].is_bool { (v != 0).to_string() } else { v.to_string() }
}

/// The name of DBM clock `k` (`k >= 1`).
pub fn clock(net: &Network, k: u32) -> &str {
    &net.clocks[k as usize - 1]
}

/// `Train(1).x > 2`, `x - y <= 3`, with the bound evaluated in `d`.
pub fn constraint(net: &Network, c: &ClockConstraint, d: &Discrete) -> String {
    let op = if c.strict { "<" } else { "<=" };
    let Ok(v) = c.bound.eval(&d.locs, &d.data, &mut Vec::new()) else { return "<bound error>".into() };
    let v = if c.negate { v.saturating_neg() } else { v };
    match (c.i, c.j) {
        (i, 0) => format!("{} {op} {v}", clock(net, i)),
        (0, j) => format!("{} {} {}", clock(net, j), if c.strict { ">" } else { ">=" }, v.saturating_neg()),
        (i, j) => format!("{} - {} {op} {v}", clock(net, i), clock(net, j)),
    }
}

/// `Train(1): far -> near`.
pub fn edge_move(net: &Network, p: u32, e: u32) -> String {
    net.edge_text(p, e)
}
