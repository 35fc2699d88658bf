//! An independent replay of a concrete trace on the concrete semantics of
//! FORMAT.md section 1. It evaluates compiled expressions ([`Code::eval`])
//! and clock constraints on exact rational valuations, and never calls the
//! zone code: a bug there cannot hide a wrong trace here.

use num_traits::Zero;

mod formula;
mod keeps;
mod linear;
pub mod region;
mod shows;
mod step;

pub use formula::{ends_in, holds_at};
pub use keeps::{Keeps, keeps};
pub use shows::{Showing, showings, shows};

use super::names::{channel, constraint, edge_move};
use super::{ConcreteState, ConcreteTrace, Rational};
use crate::model::typed::Dir;
use crate::network::{ClockConstraint, Code, Edge, Network};
use crate::semantics::{Discrete, Transition};

/// `Ok` when `trace` is a run of `net` (for a lasso: a run whose loop can
/// be repeated forever with time diverging); otherwise where and why not.
///
/// **Lassos.** The loop's first and last steps, and possibly some in
/// between, are *progress marks*: steps without edges that change
/// nothing. Checked: at least one time unit passes between consecutive
/// marks; the loop ends with a mark and no final delay; and the states
/// right after the first and the last mark have the same locations and
/// data and region-equivalent clocks ([`region`]). Why that makes the run
/// infinite and time-divergent: add a clock `z` reset at every mark, and
/// read each mark as an edge guarded by `z >= 1`. This is a timed
/// automaton, and `z = 0` at both ends, so the two ends are
/// region-equivalent states of it (its constants: `M_x`, and 1 for `z`).
/// Region equivalence is a time-abstract bisimulation, so the loop's
/// steps, marks included, can be taken again from its end into an
/// equivalent state, and so on forever; each pass takes a mark guarded by
/// `z >= 1` after `z` was reset at the pass's start, so at least one time
/// unit. With diagonal constraints the regions are refined by the classes
/// of the differences the diagonals relate ([`region`]), which keeps them a
/// time-abstract bisimulation.
pub fn validate(net: &Network, trace: &ConcreteTrace) -> Result<(), String> {
    let r = Replay { net };
    r.shape(&trace.initial).map_err(|e| format!("initial state: {e}"))?;
    r.initial(&trace.initial).map_err(|e| format!("initial state: {e}"))?;
    let rates = r.rates(trace)?;
    let mut at = trace.initial.clone();
    // The time since the last progress mark of the loop.
    let mut since_mark: Option<Rational> = None;
    for (k, step) in trace.steps.iter().enumerate() {
        let name = describe(net, &step.transition);
        let here = |e: String| format!("step {} ({name}): {e}", k + 1);
        let rate = rates.map(|r| &r[k][..]);
        let waited =
            ConcreteState { discrete: at.discrete.clone(), clocks: r.delay(&at, &step.delay, rate).map_err(here)? };
        r.shape(&step.after).map_err(here)?;
        let in_loop = trace.loop_start.is_some_and(|l| k >= l);
        if let Some(t) = since_mark.as_mut() {
            *t += &step.delay;
        }
        if step.transition.edges.is_empty() && in_loop {
            if step.after != waited {
                return Err(here("a progress mark changes the state".into()));
            }
            if since_mark.as_ref().is_some_and(|t| *t < Rational::from_integer(1.into())) {
                return Err(here("less than one time unit since the previous progress mark".into()));
            }
            since_mark = Some(Rational::zero());
        } else {
            if trace.loop_start == Some(k) {
                return Err(here("the loop does not start with a progress mark".into()));
            }
            r.transition(&waited, &step.transition, &step.after).map_err(here)?;
        }
        at = step.after.clone();
    }
    let rate = rates.map(|r| &r[trace.steps.len()][..]);
    r.delay(&at, &trace.final_delay, rate).map_err(|e| format!("final delay: {e}"))?;
    match trace.loop_start {
        Some(l) => repeatable(net, trace, l),
        None => Ok(()),
    }
}

/// The end conditions of a lasso's loop (see [`validate`]).
fn repeatable(net: &Network, trace: &ConcreteTrace, l: usize) -> Result<(), String> {
    let last = trace.steps.last().ok_or("an empty lasso")?;
    if l + 1 >= trace.steps.len() || !last.transition.edges.is_empty() {
        return Err("the loop does not end with a progress mark after its start".into());
    }
    if !trace.final_delay.is_zero() {
        return Err("a lasso ends with its last progress mark, not after a delay".into());
    }
    let (a, b) = (&trace.steps[l].after, &last.after);
    if a.discrete != b.discrete || !region::equivalent(net, &a.clocks, &b.clocks) {
        return Err(format!(
            "the loop ends in another region than it starts: {} vs {}",
            r_text(net, a),
            r_text(net, b)
        ));
    }
    Ok(())
}

fn r_text(net: &Network, s: &ConcreteState) -> String {
    crate::trace::text::state(net, s)
}

fn describe(net: &Network, t: &Transition) -> String {
    let ok =
        t.edges.iter().all(|&(p, e)| net.processes.get(p as usize).is_some_and(|pr| (e as usize) < pr.edges.len()));
    if !ok {
        return format!("{:?}", t.edges);
    }
    t.edges.iter().map(|&(p, e)| edge_move(net, p, e)).collect::<Vec<_>>().join(", ")
}

/// `Σ a_k·v_k` over variables numbered from 1.
fn sum(terms: &[(u32, i64)], values: &[Rational]) -> Rational {
    terms.iter().fold(Rational::zero(), |s, &(k, a)| s + Rational::from_integer(a.into()) * &values[k as usize - 1])
}

struct Replay<'n> {
    net: &'n Network,
}

impl Replay<'_> {
    fn eval(&self, code: &Code, d: &Discrete) -> Result<i64, String> {
        code.eval(&d.locs, &d.data, &mut Vec::new()).map_err(|e| format!("run-time error: {e:?}"))
    }

    /// Runs an update's code, which may assign `d`'s data.
    fn exec(&self, code: &Code, d: &mut Discrete) -> Result<i64, String> {
        code.exec(&d.locs, &mut d.data, &mut Vec::new()).map_err(|e| format!("run-time error: {e:?}"))
    }

    /// Whether `v_i - v_j ≺ ±bound` holds, with `v_0 = 0` (in a linear
    /// network, `Σ a_k·v_k ≺ ±bound + offset`).
    fn holds(&self, c: &ClockConstraint, d: &Discrete, clocks: &[Rational]) -> Result<bool, String> {
        let b = self.eval(&c.bound, d)?;
        let b = Rational::from_integer(if c.negate { -i128::from(b) } else { i128::from(b) }.into());
        let at = |k: u32| if k == 0 { Rational::zero() } else { clocks[k as usize - 1].clone() };
        let (lhs, b) = match &c.linear {
            Some(l) => (sum(&l.terms, clocks), b + &l.offset),
            None => (at(c.i) - at(c.j), b),
        };
        Ok(if c.strict { lhs < b } else { lhs <= b })
    }

    fn clocks_text(&self, clocks: &[Rational]) -> String {
        let parts: Vec<String> = self.net.clocks.iter().zip(clocks).map(|(n, v)| format!("{n} = {v}")).collect();
        parts.join(", ")
    }

    /// One location per process, one value per slot within its range, one
    /// non-negative value per clock.
    fn shape(&self, s: &ConcreteState) -> Result<(), String> {
        let net = self.net;
        if s.discrete.locs.len() != net.processes.len()
            || s.discrete.data.len() != net.slots.len()
            || s.clocks.len() != net.clocks.len()
        {
            return Err("the state has the wrong number of locations, variables or clocks".into());
        }
        for (p, &l) in s.discrete.locs.iter().enumerate() {
            if l as usize >= net.processes[p].locations.len() {
                return Err(format!("{} has no location number {l}", net.processes[p].name));
            }
        }
        for (slot, &v) in net.slots.iter().zip(s.discrete.data.iter()) {
            if v < slot.lo || v > slot.hi {
                return Err(format!("`{}` = {v} is outside its range [{}, {}]", slot.name, slot.lo, slot.hi));
            }
        }
        // A linear network's variables may be negative (assignments, rates).
        if net.hybrid.is_none()
            && let Some(k) = s.clocks.iter().position(|c| *c < Rational::zero())
        {
            return Err(format!("clock {} is negative ({})", net.clocks[k], s.clocks[k]));
        }
        Ok(())
    }

    /// Initial locations, initial data, every clock 0, invariants hold.
    fn initial(&self, s: &ConcreteState) -> Result<(), String> {
        let net = self.net;
        for (p, proc_) in net.processes.iter().enumerate() {
            let l = s.discrete.locs[p];
            if l != proc_.initial {
                return Err(format!(
                    "{} is in {}, not in its initial location {}",
                    proc_.name, proc_.locations[l as usize].name, proc_.locations[proc_.initial as usize].name
                ));
            }
        }
        for (slot, &v) in net.slots.iter().zip(s.discrete.data.iter()) {
            if v < slot.init.0 || v > slot.init.1 {
                return Err(format!("`{}` = {v} is not an initial value", slot.name));
            }
        }
        self.initial_values(&s.clocks)?;
        self.invariants(&s.discrete, &s.clocks)
    }

    /// Every location's invariant (data and clocks) holds.
    fn invariants(&self, d: &Discrete, clocks: &[Rational]) -> Result<(), String> {
        for (p, proc_) in self.net.processes.iter().enumerate() {
            let loc = &proc_.locations[d.locs[p] as usize];
            if let Some(code) = &loc.invariant_data
                && self.eval(code, d)? == 0
            {
                return Err(format!("the data invariant of {}.{} fails", proc_.name, loc.name));
            }
            for c in &loc.invariant {
                if !self.holds(c, d, clocks)? {
                    return Err(format!(
                        "the invariant `{}` of {}.{} fails at {}",
                        constraint(self.net, c, d),
                        proc_.name,
                        loc.name,
                        self.clocks_text(clocks)
                    ));
                }
            }
        }
        Ok(())
    }

    /// Checks a delay from `s` and returns the valuation after it. Time
    /// cannot pass in an urgent or committed location, nor while a
    /// synchronisation on an urgent channel is enabled; invariants are
    /// convex (upper bounds), so holding at both ends means holding
    /// throughout.
    fn delay(&self, s: &ConcreteState, delay: &Rational, rate: Option<&[Rational]>) -> Result<Vec<Rational>, String> {
        let net = self.net;
        if *delay < Rational::zero() {
            return Err(format!("negative delay {delay}"));
        }
        self.invariants(&s.discrete, &s.clocks).map_err(|e| format!("before the delay: {e}"))?;
        if delay.is_zero() {
            return Ok(s.clocks.clone());
        }
        for (p, proc_) in net.processes.iter().enumerate() {
            let loc = &proc_.locations[s.discrete.locs[p] as usize];
            if loc.urgent || loc.committed {
                let kind = if loc.committed { "committed" } else { "urgent" };
                return Err(format!("delay {delay} in the {kind} location {}.{}", proc_.name, loc.name));
            }
        }
        if let Some(c) = self.urgent_sync(&s.discrete)? {
            return Err(format!(
                "delay {delay} while a synchronisation on the urgent channel {} is enabled",
                net.channels[c as usize].name
            ));
        }
        let after: Vec<Rational> = match rate {
            Some(r) => {
                self.rate_within(&s.discrete, r)?;
                s.clocks.iter().zip(r).map(|(c, r)| c + delay * r).collect()
            }
            None => s.clocks.iter().map(|c| c + delay).collect(),
        };
        self.invariants(&s.discrete, &after).map_err(|e| format!("after the delay {delay}: {e}"))?;
        Ok(after)
    }

    /// An urgent channel with an enabled synchronisation: a sender whose
    /// guard holds, with (binary) a receiver in another process whose guard
    /// holds. Urgent edges carry no clock guards (a validation error), so
    /// data guards decide.
    fn urgent_sync(&self, d: &Discrete) -> Result<Option<u32>, String> {
        let net = self.net;
        let mut enabled: Vec<(u32, Dir, usize)> = Vec::new();
        for (p, proc_) in net.processes.iter().enumerate() {
            for edge in proc_.edges.iter().filter(|e| e.from == d.locs[p]) {
                let Some((c, dir)) = channel(edge, d).map_err(|e| format!("run-time error: {e:?}"))? else { continue };
                if net.channels[c as usize].urgent && self.data_guard(edge, d)? {
                    enabled.push((c, dir, p));
                }
            }
        }
        Ok(enabled.iter().find_map(|&(c, dir, p)| {
            let partner = net.channels[c as usize].broadcast
                || enabled.iter().any(|&(c2, d2, q)| c2 == c && d2 == Dir::Receive && q != p);
            (dir == Dir::Send && partner).then_some(c)
        }))
    }

    fn data_guard(&self, edge: &Edge, d: &Discrete) -> Result<bool, String> {
        match &edge.guard_data {
            None => Ok(true),
            Some(g) => Ok(self.eval(g, d)? != 0),
        }
    }

    /// Whether every guard of `edge` (data and clocks) holds at `clocks`.
    fn enabled(&self, edge: &Edge, d: &Discrete, clocks: &[Rational]) -> Result<bool, String> {
        if !self.data_guard(edge, d)? {
            return Ok(false);
        }
        for c in &edge.guard_clocks {
            if !self.holds(c, d, clocks)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
