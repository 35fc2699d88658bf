//! Where each moment of a run is drawn: the horizontal time axis.
//!
//! A run alternates delays and steps. A delay `d` is `scale · d` pixels
//! wide, so every clock line rises at one fixed slope; a step is a column
//! [`GAP`] pixels wide in which time stands still, its marker in the
//! middle. A step after a zero delay therefore sits `GAP` pixels to the
//! right of the one before it: several steps at one instant stay apart.
//! The scale is `clamp(floor(TARGET / duration), MIN_SCALE, MAX_SCALE)`
//! pixels per time unit (`MAX_SCALE` for a run of duration 0), so a run of
//! any length spans about `TARGET` pixels of time, plus its steps.

use num_traits::ToPrimitive;

use crate::trace::{ConcreteTrace, Rational};

/// The width of a step's column, in pixels.
pub const GAP: f64 = 16.0;
/// The width the delays of a run aim at, in pixels.
const TARGET: f64 = 640.0;
const MIN_SCALE: f64 = 4.0;
const MAX_SCALE: f64 = 80.0;

/// One state of the run, held from `enter` (a step's marker, or the left
/// edge) to `leave` (the next step's marker, or the right edge); its delay
/// runs from `rise_from` to `rise_to`.
#[derive(Clone, Debug)]
pub struct Span {
    pub enter: f64,
    pub rise_from: f64,
    pub rise_to: f64,
    pub leave: f64,
    /// The time the state is entered and its delay.
    pub at: Rational,
    pub delay: Rational,
}

/// The horizontal layout of a whole run.
#[derive(Clone, Debug)]
pub struct Timeline {
    /// Pixels per time unit.
    pub scale: f64,
    /// State `0` is the initial one, state `k + 1` the one step `k` enters.
    pub spans: Vec<Span>,
    pub left: f64,
    pub right: f64,
}

impl Timeline {
    /// The layout of `trace`, its first delay starting at pixel `left`.
    pub fn new(trace: &ConcreteTrace, left: f64) -> Self {
        let duration = trace.duration().to_f64().unwrap_or(0.0);
        let scale = if duration > 0.0 { (TARGET / duration).floor().clamp(MIN_SCALE, MAX_SCALE) } else { MAX_SCALE };
        let delays: Vec<&Rational> =
            trace.steps.iter().map(|s| &s.delay).chain(std::iter::once(&trace.final_delay)).collect();
        let mut spans = Vec::with_capacity(delays.len());
        let (mut x, mut at) = (left, Rational::from_integer(0.into()));
        for (k, d) in delays.iter().enumerate() {
            let (enter, rise_from) = if k == 0 { (left, left) } else { (x, x + GAP / 2.0) };
            let rise_to = rise_from + scale * d.to_f64().unwrap_or(0.0);
            let last = k + 1 == delays.len();
            let leave = if last { rise_to } else { rise_to + GAP / 2.0 };
            spans.push(Span { enter, rise_from, rise_to, leave, at: at.clone(), delay: (*d).clone() });
            at += *d;
            x = leave;
        }
        // A run ending on a step still shows its last state.
        let right = x.max(spans.last().map_or(left, |s| s.enter) + GAP);
        if let Some(s) = spans.last_mut() {
            s.leave = right;
        }
        Timeline { scale, spans, left, right }
    }

    /// The marker of step `k`.
    pub fn step_x(&self, k: usize) -> f64 {
        self.spans[k + 1].enter
    }

    /// The time of step `k`.
    pub fn step_time(&self, k: usize) -> &Rational {
        &self.spans[k + 1].at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::semantics::{Discrete, Transition};
    use crate::trace::{ConcreteState, ConcreteStep};

    fn run(delays: &[i64], last: i64) -> ConcreteTrace {
        let state = ConcreteState { discrete: Discrete { locs: Box::new([]), data: Box::new([]) }, clocks: vec![] };
        let r = |v: i64| Rational::from_integer(v.into());
        ConcreteTrace {
            initial: state.clone(),
            steps: delays
                .iter()
                .map(|&d| ConcreteStep {
                    delay: r(d),
                    transition: Transition { edges: vec![], out: vec![], unless: vec![] },
                    after: state.clone(),
                })
                .collect(),
            final_delay: r(last),
            loop_start: None,
            rates: None,
        }
    }

    #[test]
    fn delays_scale_and_steps_at_one_instant_stay_apart() {
        let t = Timeline::new(&run(&[2, 0, 0, 6], 0), 100.0);
        assert_eq!(t.scale, 80.0);
        let xs: Vec<f64> = (0..4).map(|k| t.step_x(k)).collect();
        // 2 units, then two steps at the same instant, a gap apart each.
        assert_eq!(xs, vec![100.0 + 160.0 + 8.0, 284.0, 300.0, 316.0 + 480.0]);
        assert_eq!(t.step_time(2), &Rational::from_integer(2.into()));
        assert!(t.right > xs[3]);
    }

    #[test]
    fn a_long_run_is_scaled_down() {
        let t = Timeline::new(&run(&[100, 60], 0), 0.0);
        assert_eq!(t.scale, 4.0);
        let t = Timeline::new(&run(&[10], 6), 0.0);
        assert_eq!(t.scale, 40.0);
    }
}
