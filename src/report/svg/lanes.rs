//! One lane per process: its locations as coloured bars over time, and
//! each step drawn across the lanes it involves: an arrow from the sender
//! of a synchronisation to each receiver, a dot on each process that moves.

use super::document::{Svg, num};
use super::layout::Timeline;
use crate::model::typed::Dir;
use crate::network::Network;
use crate::trace::ConcreteTrace;
use crate::trace::names::channel;

/// The height of a process lane, in pixels.
pub const LANE: f64 = 26.0;
/// Fill colours of locations, by the location's index in its process.
const FILLS: [&str; 6] = ["#dbe9f6", "#fde2c8", "#d9f0d3", "#f3d9ec", "#fff2b3", "#e4e4e4"];
/// Roughly the width of one character of the 11px labels.
const CHAR: f64 = 6.6;

/// The centre line of lane `p` when the lanes start at `top`.
pub fn lane_y(top: f64, p: usize) -> f64 {
    top + LANE * p as f64 + LANE / 2.0
}

/// The lanes of every process, from `top`; `label_x` is where the names
/// end.
pub fn lanes(svg: &mut Svg, net: &Network, trace: &ConcreteTrace, time: &Timeline, top: f64, label_x: f64) {
    let states: Vec<_> = std::iter::once(&trace.initial).chain(trace.steps.iter().map(|s| &s.after)).collect();
    for (p, proc_) in net.processes.iter().enumerate() {
        let y = top + LANE * p as f64;
        svg.open("g", &[("class", "lane".into()), ("data-process", proc_.name.clone())]);
        svg.text(
            "text",
            &[("class", "name".into()), ("x", num(label_x)), ("y", num(y + LANE / 2.0 + 4.0))],
            &proc_.name,
        );
        // Consecutive states in the same location are one bar.
        let mut k = 0;
        while k < states.len() {
            let loc = states[k].discrete.locs[p];
            let mut j = k;
            while j + 1 < states.len() && states[j + 1].discrete.locs[p] == loc {
                j += 1;
            }
            let (x0, x1) = (time.spans[k].enter, time.spans[j].leave);
            let from = &time.spans[k].at;
            let to = &time.spans[j].at + &time.spans[j].delay;
            let name = &proc_.locations[loc as usize].name;
            svg.open("g", &[("class", "location".into())]);
            svg.title(&format!("{}.{name} from t = {from} to t = {to}", proc_.name));
            svg.leaf(
                "rect",
                &[
                    ("x", num(x0)),
                    ("y", num(y + 3.0)),
                    ("width", num(x1 - x0)),
                    ("height", num(LANE - 6.0)),
                    ("fill", FILLS[loc as usize % FILLS.len()].into()),
                ],
            );
            if (x1 - x0) >= CHAR * name.chars().count() as f64 + 10.0 {
                svg.text("text", &[("x", num(x0 + 7.0)), ("y", num(y + LANE / 2.0 + 4.0))], name);
            }
            svg.close("g");
            k = j + 1;
        }
        svg.close("g");
    }
}

/// Every step of the run as one `<g class="step">`, across the lanes from
/// `top` to `bottom`: its tooltip says when and what.
pub fn steps(svg: &mut Svg, net: &Network, trace: &ConcreteTrace, time: &Timeline, top: f64, bottom: f64) {
    let mut before = &trace.initial;
    for (k, step) in trace.steps.iter().enumerate() {
        let x = time.step_x(k);
        let at = time.step_time(k);
        let d = &before.discrete;
        if step.transition.edges.is_empty() {
            // A lasso's progress mark: nothing moves, at least one time
            // unit passes between two of them.
            svg.open("g", &[("class", "step progress".into())]);
            svg.title(&format!("step {}: progress mark at t = {at} (after delay {})", k + 1, step.delay));
            svg.leaf("line", &[("x1", num(x)), ("y1", num(top)), ("x2", num(x)), ("y2", num(bottom))]);
            svg.close("g");
            before = &step.after;
            continue;
        }
        let what = crate::trace::text::edges(net, d, &step.transition);
        svg.open("g", &[("class", "step".into())]);
        svg.title(&format!("step {} at t = {at} (after delay {}): {what}", k + 1, step.delay));
        let mut sender = None;
        let mut receivers = Vec::new();
        let mut label = None;
        for &(p, e) in &step.transition.edges {
            let edge = &net.processes[p as usize].edges[e as usize];
            if let Ok(Some((c, dir))) = channel(edge, d) {
                label = Some(net.channels[c as usize].name.clone());
                // A vector's first party is drawn as its sender.
                if dir == Dir::Send || (dir == Dir::Party && sender.is_none()) {
                    sender = Some(p as usize)
                } else {
                    receivers.push(p as usize)
                }
            }
        }
        if let Some(s) = sender {
            let y0 = lane_y(top, s);
            for &r in &receivers {
                let y1 = lane_y(top, r);
                // Stop short of the receiver's dot, on the side it comes from.
                let y1 = if y1 > y0 { y1 - 5.0 } else { y1 + 5.0 };
                svg.leaf(
                    "line",
                    &[
                        ("class", "sync".into()),
                        ("x1", num(x)),
                        ("y1", num(y0)),
                        ("x2", num(x)),
                        ("y2", num(y1)),
                        ("marker-end", "url(#arrow)".into()),
                    ],
                );
            }
            if let Some(l) = &label {
                svg.text("text", &[("class", "channel".into()), ("x", num(x + 4.0)), ("y", num(y0 - 5.0))], l);
            }
        }
        for &(p, _) in &step.transition.edges {
            svg.leaf("circle", &[("cx", num(x)), ("cy", num(lane_y(top, p as usize))), ("r", "3.5".into())]);
        }
        svg.close("g");
        before = &step.after;
    }
}
