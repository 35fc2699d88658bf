//! A state formula on one concrete state, for the end of a reachability
//! trace: the valuation an `E<> φ` witness or an `A[] φ` counterexample ends
//! in must satisfy `φ` (respectively `not φ`). Evaluated on exact values
//! with the replay's own constraint test, never with the zone code that
//! found the state.

use super::Replay;
use crate::network::{Network, StateFormula};
use crate::trace::{ConcreteState, ConcreteTrace};

/// Whether the valuation `trace` ends in (after its final delay)
/// satisfies `f`: `Ok(None)` when `f` mentions `deadlock`, a property of
/// the state's futures that one valuation does not show. Pre: `trace`
/// validates ([`super::validate`]).
pub fn ends_in(net: &Network, trace: &ConcreteTrace, f: &StateFormula) -> Result<Option<bool>, String> {
    let r = Replay { net };
    let last = trace.steps.last().map_or(&trace.initial, |s| &s.after);
    let rate = r.rates(trace)?.map(|r| &r[trace.steps.len()][..]);
    let end = ConcreteState { discrete: last.discrete.clone(), clocks: r.delay(last, &trace.final_delay, rate)? };
    r.satisfies(f, &end)
}

/// Whether the concrete state `s` satisfies `f` (`None`: `f` mentions
/// `deadlock`), by the replay's own constraint test: for checking every
/// state of a lasso against the formula it witnesses.
pub fn holds_at(net: &Network, s: &ConcreteState, f: &StateFormula) -> Result<Option<bool>, String> {
    Replay { net }.satisfies(f, s)
}

impl Replay<'_> {
    pub(super) fn satisfies(&self, f: &StateFormula, s: &ConcreteState) -> Result<Option<bool>, String> {
        Ok(match f {
            StateFormula::Pred(conjs) => {
                for c in conjs {
                    if let Some(code) = &c.data
                        && self.eval(code, &s.discrete)? == 0
                    {
                        continue;
                    }
                    let mut all = true;
                    for k in &c.clocks {
                        all &= self.holds(k, &s.discrete, &s.clocks)?;
                    }
                    if all {
                        return Ok(Some(true));
                    }
                }
                Some(false)
            }
            StateFormula::Deadlock => None,
            StateFormula::Not(a) => self.satisfies(a, s)?.map(|v| !v),
            StateFormula::And(a, b) => match (self.satisfies(a, s)?, self.satisfies(b, s)?) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            },
            StateFormula::Or(a, b) => match (self.satisfies(a, s)?, self.satisfies(b, s)?) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
        })
    }
}
