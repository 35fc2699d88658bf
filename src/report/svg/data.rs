//! Each data variable as a step plot: flat while nothing writes it, a
//! vertical jump at the step that changes it, its value written on each
//! flat part wide enough to hold it.

use super::document::{Svg, num};
use super::layout::Timeline;
use crate::network::Network;
use crate::trace::ConcreteTrace;
use crate::trace::names::value;

/// The height of a variable's plot, in pixels.
pub const PLOT: f64 = 24.0;
/// The vertical space a variable takes, its plot and a margin.
pub const ROW: f64 = PLOT + 12.0;
const CHAR: f64 = 6.6;

/// The plots of every variable, from `top`; the vertical scale of each is
/// the range of values it takes in the run.
pub fn data(svg: &mut Svg, net: &Network, trace: &ConcreteTrace, time: &Timeline, top: f64, label_x: f64) {
    let states: Vec<_> = std::iter::once(&trace.initial).chain(trace.steps.iter().map(|s| &s.after)).collect();
    for (v, slot) in net.slots.iter().enumerate() {
        let values: Vec<i64> = states.iter().map(|s| s.discrete.data[v]).collect();
        let (lo, hi) = (values.iter().min().copied().unwrap_or(0), values.iter().max().copied().unwrap_or(0));
        let base = top + ROW * v as f64 + PLOT;
        let y = |x: i64| if hi == lo { base - PLOT / 2.0 } else { base - PLOT * (x - lo) as f64 / (hi - lo) as f64 };
        svg.open("g", &[("class", "data".into()), ("data-variable", slot.name.clone())]);
        svg.text(
            "text",
            &[("class", "name".into()), ("x", num(label_x)), ("y", num(base - PLOT / 2.0 + 4.0))],
            &slot.name,
        );
        let mut points = Vec::new();
        let mut k = 0;
        while k < values.len() {
            let mut j = k;
            while j + 1 < values.len() && values[j + 1] == values[k] {
                j += 1;
            }
            let (x0, x1) = (time.spans[k].enter, time.spans[j].leave);
            points.push(format!("{},{}", num(x0), num(y(values[k]))));
            points.push(format!("{},{}", num(x1), num(y(values[k]))));
            let shown = value(net, v, values[k]);
            let (from, to) = (&time.spans[k].at, &time.spans[j].at + &time.spans[j].delay);
            svg.open("g", &[("class", "value".into())]);
            svg.title(&format!("{} = {shown} from t = {from} to t = {to}", slot.name));
            svg.leaf(
                "rect",
                &[("x", num(x0)), ("y", num(base - PLOT)), ("width", num(x1 - x0)), ("height", num(PLOT))],
            );
            if x1 - x0 >= CHAR * shown.len() as f64 + 10.0 {
                svg.text("text", &[("x", num(x0 + 7.0)), ("y", num(y(values[k]) - 3.0))], &shown);
            }
            svg.close("g");
            k = j + 1;
        }
        svg.leaf("polyline", &[("points", points.join(" "))]);
        svg.close("g");
    }
}
