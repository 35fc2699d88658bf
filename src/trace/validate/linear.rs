//! What the replay checks differently in a linear network (FORMAT.md
//! section 5): continuous variables start within their initial intervals,
//! and each delay moves every variable at a rate within the interval its
//! state sets (the trace gives the rate vector of each delay; the location
//! invariants are convex, so holding at both ends of the straight line means
//! holding all along).

use num_traits::Zero;

use super::Replay;
use crate::semantics::Discrete;
use crate::trace::{ConcreteTrace, Rational};

impl Replay<'_> {
    /// Every clock 0; in a linear network, every continuous variable within
    /// its initial interval.
    pub(super) fn initial_values(&self, clocks: &[Rational]) -> Result<(), String> {
        let net = self.net;
        let first = net.hybrid.as_ref().map_or(clocks.len() + 1, |h| h.first_continuous as usize);
        for (k, v) in clocks.iter().enumerate() {
            match &net.hybrid {
                Some(h) if k + 1 >= first => {
                    let (lo, hi) = &h.init[k + 1 - first];
                    if v < lo || v > hi {
                        return Err(format!("{} starts at {v}, outside [{lo}, {hi}]", net.clocks[k]));
                    }
                }
                _ if !v.is_zero() => return Err(format!("clock {} starts at {v}, not 0", net.clocks[k])),
                _ => {}
            }
        }
        Ok(())
    }

    /// The rate vectors of the trace's delays: present, one per delay, in a
    /// linear network; absent (every rate 1) otherwise.
    pub(super) fn rates<'t>(&self, trace: &'t ConcreteTrace) -> Result<Option<&'t [Vec<Rational>]>, String> {
        match (&self.net.hybrid, &trace.rates) {
            (None, None) => Ok(None),
            (Some(_), Some(r))
                if r.len() == trace.steps.len() + 1 && r.iter().all(|v| v.len() == self.net.clocks.len()) =>
            {
                Ok(Some(r))
            }
            (Some(_), _) => Err("a run of a linear network needs one rate vector per delay".into()),
            (None, Some(_)) => Err("a run of a timed network has no rates".into()),
        }
    }

    /// Every rate of `rate` is within the interval of its variable in `d`:
    /// the location's (at most one process sets it), else 1 for a clock and
    /// 0 for a continuous variable.
    pub(super) fn rate_within(&self, d: &Discrete, rate: &[Rational]) -> Result<(), String> {
        let net = self.net;
        let h = net.hybrid.as_ref().ok_or("a rate in a timed network")?;
        let first = h.first_continuous as usize;
        let mut set: Vec<Option<(usize, Rational, Rational)>> = vec![None; rate.len()];
        let mut stack = Vec::new();
        for (p, &l) in d.locs.iter().enumerate() {
            let Some(rates) = h.rates.get(p).and_then(|r| r.get(l as usize)) else { continue };
            for (v, rate) in rates {
                let k = *v as usize - 1;
                if let Some((q, ..)) = &set[k] {
                    return Err(format!(
                        "run-time error: {} and {} both set the rate of {}",
                        net.processes[*q].name, net.processes[p].name, net.clocks[k]
                    ));
                }
                let (lo, hi) = rate
                    .at(&d.locs, &d.data, &mut stack)
                    .map_err(|e| format!("run-time error: {}", e.describe(net)))?;
                set[k] = Some((p, lo, hi));
            }
        }
        for (k, (r, s)) in rate.iter().zip(set).enumerate() {
            let default = if k + 1 < first { Rational::from_integer(1.into()) } else { Rational::zero() };
            let (lo, hi) = s.map_or((default.clone(), default), |(_, lo, hi)| (lo, hi));
            if *r < lo || *r > hi {
                return Err(format!("{} moves at rate {r}, outside [{lo}, {hi}]", net.clocks[k]));
            }
        }
        Ok(())
    }
}
