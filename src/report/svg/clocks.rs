//! Each clock as a line over time: rising at slope 1 (in the diagram's
//! units, see [`super::layout`]) during delays, flat during a step's
//! column, dropping to its new value where a step resets it. In a linear
//! network the continuous variables are drawn the same way, each delay at
//! the trace's rate for it (any slope, values of any sign).

use num_traits::ToPrimitive;

use super::document::{Svg, num};
use super::layout::Timeline;
use crate::network::Network;
use crate::trace::{ConcreteTrace, Rational};

/// The height of a clock's plot, in pixels.
pub const PLOT: f64 = 44.0;
/// The vertical space a clock takes, its plot and a margin.
pub const ROW: f64 = PLOT + 12.0;

/// The plots of every clock, from `top`.
pub fn clocks(svg: &mut Svg, net: &Network, trace: &ConcreteTrace, time: &Timeline, top: f64, label_x: f64) {
    let states: Vec<_> = std::iter::once(&trace.initial).chain(trace.steps.iter().map(|s| &s.after)).collect();
    for (c, name) in net.clocks.iter().enumerate() {
        // Each state: its value on entry and after its delay.
        let rate = |k: usize| trace.rates.as_ref().map_or(Rational::from_integer(1.into()), |r| r[k][c].clone());
        let values: Vec<(&Rational, Rational)> = states
            .iter()
            .zip(&time.spans)
            .enumerate()
            .map(|(k, (s, span))| (&s.clocks[c], &s.clocks[c] + &span.delay * rate(k)))
            .collect();
        let one = Rational::from_integer(1.into());
        let zero = Rational::from_integer(0.into());
        let all = || values.iter().flat_map(|(a, b)| [*a, b]);
        let max = all().fold(&one, |a, b| if b > a { b } else { a }).clone();
        let min = all().fold(&zero, |a, b| if b < a { b } else { a }).clone();
        let (low, span) = (min.to_f64().unwrap_or(0.0), (&max - &min).to_f64().unwrap_or(1.0));
        let base = top + ROW * c as f64 + PLOT;
        let y = |v: &Rational| base - PLOT * (v.to_f64().unwrap_or(0.0) - low) / span;
        svg.open("g", &[("class", "clock".into()), ("data-clock", name.clone())]);
        svg.text("text", &[("class", "name".into()), ("x", num(label_x)), ("y", num(base - PLOT / 2.0 + 4.0))], name);
        // The vertical scale: the least value (0 unless a variable goes
        // below) at the axis, the largest at the top.
        svg.text("text", &[("class", "name scale".into()), ("x", num(label_x)), ("y", num(base))], &min.to_string());
        svg.text(
            "text",
            &[("class", "name scale".into()), ("x", num(label_x)), ("y", num(base - PLOT + 8.0))],
            &max.to_string(),
        );
        svg.leaf(
            "line",
            &[
                ("class", "axis".into()),
                ("x1", num(time.left)),
                ("y1", num(base)),
                ("x2", num(time.right)),
                ("y2", num(base)),
            ],
        );
        let mut points = Vec::new();
        for ((entry, exit), span) in values.iter().zip(&time.spans) {
            for (x, v) in [(span.enter, *entry), (span.rise_from, *entry), (span.rise_to, exit), (span.leave, exit)] {
                points.push(format!("{},{}", num(x), num(y(v))));
            }
        }
        svg.open("polyline", &[("points", points.join(" "))]);
        svg.title(&format!("clock {name}"));
        svg.close("polyline");
        // The exact values where the clock is reset.
        for (k, step) in trace.steps.iter().enumerate() {
            let (before, after) = (&values[k].1, &step.after.clocks[c]);
            if before != after {
                let x = time.step_x(k);
                svg.with_title(
                    "circle",
                    &[("cx", num(x)), ("cy", num(y(after))), ("r", "2.5".into())],
                    &format!("{name} := {after} at t = {} (was {before})", time.step_time(k)),
                );
            }
        }
        let end = values.last().map(|(_, v)| v.clone()).unwrap_or_default();
        svg.with_title(
            "circle",
            &[("class", "end".into()), ("cx", num(time.right)), ("cy", num(y(&end))), ("r", "2.5".into())],
            &format!("{name} = {end} at the end, t = {}", trace.duration()),
        );
        svg.close("g");
    }
}
