//! A concrete trace as a timing diagram in plain SVG, written by hand: no
//! browser, font metrics or Graphviz needed, and the same trace always
//! gives the same bytes (coordinates with one decimal, see
//! [`document::num`]).
//!
//! From top to bottom: a caption and a legend; the time axis, labelled
//! with the exact times of the steps; one lane per process with its
//! location over time ([`lanes`]); the steps across the lanes, a
//! synchronisation as arrows from the sender to each receiver; each clock
//! as a line ([`clocks`]); each data variable as a step plot ([`data`]).
//! The horizontal scale is in [`layout`]: delays are proportional to
//! time, and each step takes a fixed-width column so that several steps at
//! one instant stay readable. A lasso's loop (the steps from
//! [`ConcreteTrace::loop_start`] on) is shaded and labelled. Every exact
//! value, delay and time is in a `<title>` tooltip; the drawing itself
//! uses floating point only for pixel positions.
//!
//! [`param_map`] draws a sweep's verdicts over two parameters.

mod clocks;
mod data;
pub mod document;
mod lanes;
pub mod layout;
pub mod param_map;

use document::{Svg, num};
use layout::Timeline;

use crate::network::Network;
use crate::trace::ConcreteTrace;

/// The width of the names column, in pixels.
const NAMES: f64 = 170.0;
const MARGIN: f64 = 16.0;
/// Where the time axis is, below the caption and legend.
const AXIS: f64 = 72.0;
/// Where the process lanes start.
const LANES: f64 = AXIS + 30.0;
/// The gap above a section (clocks, data) and its heading.
const SECTION: f64 = 26.0;
const MIN_WIDTH: f64 = 760.0;

const STYLE: &str = "
text { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; font-size: 11px; fill: #222; }
.caption { font-size: 14px; font-weight: bold; }
.legend, .scale, .tick { font-size: 10px; fill: #555; }
.heading { font-size: 11px; font-weight: bold; fill: #555; }
.name { text-anchor: end; }
.location rect { stroke: #8a8a8a; stroke-width: 0.6; }
.grid { stroke: #d0d0d0; stroke-width: 0.6; stroke-dasharray: 2 3; }
.axis { stroke: #999; stroke-width: 0.8; }
.step circle { fill: #1f4e8c; }
.step .sync { stroke: #1f4e8c; stroke-width: 1.4; }
.channel { font-size: 10px; fill: #1f4e8c; font-style: italic; }
.progress line { stroke: #b8860b; stroke-width: 1.2; stroke-dasharray: 5 3; }
.loop rect { fill: #fff3c4; fill-opacity: 0.55; stroke: #b8860b; stroke-dasharray: 4 3; }
.loop text { fill: #8a6400; font-weight: bold; }
.verdict-mark line { stroke: #b03a2e; stroke-width: 2; }
.verdict-mark text { fill: #b03a2e; font-weight: bold; text-anchor: end; }
.clock polyline { fill: none; stroke: #b03a2e; stroke-width: 1.6; }
.clock circle { fill: #b03a2e; }
.data polyline { fill: none; stroke: #2e7d32; stroke-width: 1.6; }
.data rect { fill: transparent; }
.delay rect { fill: transparent; }
";

/// The timing diagram of `trace`, a run of `net`, under `caption`.
pub fn timing_diagram(net: &Network, trace: &ConcreteTrace, caption: &str) -> String {
    diagram(net, trace, caption, None)
}

/// [`timing_diagram`] with a note at the run's last state, where a nested
/// formula's deciding subformula fails or holds (`at_end`, e.g.
/// "`A[Gate.down U Gate.up]` fails here").
pub fn marked_diagram(net: &Network, trace: &ConcreteTrace, caption: &str, at_end: &str) -> String {
    diagram(net, trace, caption, Some(at_end))
}

fn diagram(net: &Network, trace: &ConcreteTrace, caption: &str, at_end: Option<&str>) -> String {
    let time = Timeline::new(trace, MARGIN + NAMES + 10.0);
    let label_x = MARGIN + NAMES;
    let lanes_bottom = LANES + lanes::LANE * net.processes.len() as f64;
    let clocks_top = lanes_bottom + if net.clocks.is_empty() { 0.0 } else { SECTION };
    let clocks_bottom = clocks_top + clocks::ROW * net.clocks.len() as f64;
    let data_top = clocks_bottom + if net.slots.is_empty() { 0.0 } else { SECTION };
    let bottom = data_top + data::ROW * net.slots.len() as f64;
    // Wide enough for the legend, whatever the run.
    let width = (time.right + MARGIN + 40.0).max(MIN_WIDTH);
    let mut svg = Svg::new(width, bottom + MARGIN, STYLE);
    svg.open("defs", &[]);
    svg.open(
        "marker",
        &[
            ("id", "arrow".into()),
            ("viewBox", "0 0 8 8".into()),
            ("refX", "7".into()),
            ("refY", "4".into()),
            ("markerWidth", "7".into()),
            ("markerHeight", "7".into()),
            ("orient", "auto".into()),
        ],
    );
    svg.leaf("path", &[("d", "M0,0 L8,4 L0,8 z".into()), ("fill", "#1f4e8c".into())]);
    svg.close("marker");
    svg.close("defs");
    svg.text("text", &[("class", "caption".into()), ("x", num(MARGIN)), ("y", "22".into())], caption);
    let legend = [
        "Lanes: each process's location over time. Arrows: synchronisations, sender to receivers; dots: the \
         processes that move."
            .to_string(),
        format!(
            "Red: {}. Green: data. 1 time unit = {} px; steps at one instant are {} px apart. Hover for exact \
             times and values.",
            if trace.rates.is_some() {
                "clocks and continuous variables (at their rates during delays)"
            } else {
                "clocks (slope 1 during delays)"
            },
            time.scale,
            layout::GAP
        ),
    ];
    for (i, line) in legend.iter().enumerate() {
        svg.text("text", &[("class", "legend".into()), ("x", num(MARGIN)), ("y", num(38.0 + 12.0 * i as f64))], line);
    }
    if let Some(k) = trace.loop_start {
        loop_band(&mut svg, &time, k, bottom);
    }
    axis(&mut svg, trace, &time, bottom);
    lanes::lanes(&mut svg, net, trace, &time, LANES, label_x);
    if !net.clocks.is_empty() {
        heading(&mut svg, "clocks", clocks_top);
        clocks::clocks(&mut svg, net, trace, &time, clocks_top, label_x);
    }
    if !net.slots.is_empty() {
        heading(&mut svg, "data", data_top);
        data::data(&mut svg, net, trace, &time, data_top, label_x);
    }
    // Last, so that the arrows are drawn over the location bars.
    lanes::steps(&mut svg, net, trace, &time, LANES, lanes_bottom);
    if let Some(note) = at_end {
        end_mark(&mut svg, &time, note, bottom);
    }
    svg.finish()
}

fn heading(svg: &mut Svg, text: &str, top: f64) {
    svg.text("text", &[("class", "heading".into()), ("x", num(MARGIN)), ("y", num(top - 8.0))], text);
}

/// The time axis: a tick and a dotted grid line at each step, the exact
/// time under a tick when it differs from the last label and there is
/// room; each delay a hover area with its exact length.
fn axis(svg: &mut Svg, trace: &ConcreteTrace, time: &Timeline, bottom: f64) {
    svg.open("g", &[("class", "time".into())]);
    svg.leaf(
        "line",
        &[
            ("class", "axis".into()),
            ("x1", num(time.left)),
            ("y1", num(AXIS)),
            ("x2", num(time.right)),
            ("y2", num(AXIS)),
        ],
    );
    svg.text("text", &[("class", "name".into()), ("x", num(MARGIN + NAMES)), ("y", num(AXIS + 4.0))], "time");
    let mut last_label: Option<(f64, String)> = None;
    let mut tick = |svg: &mut Svg, x: f64, t: String| {
        svg.leaf(
            "line",
            &[("class", "grid".into()), ("x1", num(x)), ("y1", num(AXIS)), ("x2", num(x)), ("y2", num(bottom))],
        );
        let room = last_label.as_ref().is_none_or(|(lx, lt)| *lt != t && x - lx >= 9.0 * lt.len().max(2) as f64);
        if room {
            svg.text("text", &[("class", "tick".into()), ("x", num(x)), ("y", num(AXIS - 5.0))], &t);
            last_label = Some((x, t));
        }
    };
    tick(svg, time.left, "0".into());
    for k in 0..trace.steps.len() {
        tick(svg, time.step_x(k), time.step_time(k).to_string());
    }
    tick(svg, time.right, trace.duration().to_string());
    for span in &time.spans {
        if span.rise_to > span.rise_from {
            svg.open("g", &[("class", "delay".into())]);
            svg.title(&format!("delay {} (t = {} to {})", span.delay, span.at, &span.at + &span.delay));
            svg.leaf(
                "rect",
                &[
                    ("x", num(span.rise_from)),
                    ("y", num(AXIS - 16.0)),
                    ("width", num(span.rise_to - span.rise_from)),
                    ("height", "20".into()),
                ],
            );
            svg.close("g");
        }
    }
    svg.close("g");
}

/// A line at the run's end with the note of what is decided there; the
/// note is right-aligned so a long formula stays inside the picture.
fn end_mark(svg: &mut Svg, time: &Timeline, note: &str, bottom: f64) {
    svg.open("g", &[("class", "verdict-mark".into())]);
    svg.title(note);
    svg.leaf("line", &[("x1", num(time.right)), ("y1", num(AXIS + 8.0)), ("x2", num(time.right)), ("y2", num(bottom))]);
    svg.text("text", &[("x", num(time.right - 4.0)), ("y", num(AXIS + 20.0))], note);
    svg.close("g");
}

/// The loop of a lasso: steps `k..` repeat forever.
fn loop_band(svg: &mut Svg, time: &Timeline, k: usize, bottom: f64) {
    let x0 = time.step_x(k);
    svg.open("g", &[("class", "loop".into())]);
    svg.title(&format!("the loop: steps {} to the end repeat forever, time diverging", k + 1));
    svg.leaf(
        "rect",
        &[
            ("x", num(x0)),
            ("y", num(AXIS + 8.0)),
            ("width", num(time.right - x0)),
            ("height", num(bottom - AXIS - 8.0)),
        ],
    );
    svg.text("text", &[("x", num(x0 + 4.0)), ("y", num(AXIS + 20.0))], "loop: repeats forever");
    svg.close("g");
}
