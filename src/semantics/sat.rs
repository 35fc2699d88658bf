//! The valuations of a symbolic state that satisfy a state formula: clock
//! atoms are intersected with the zone, never evaluated on one point.

use crate::domain::ClockSet;
pub use crate::domain::federation::Federation;
use crate::network::StateFormula;
use crate::semantics::{RunError, ZoneGraph, ZoneState};

impl<S: ClockSet> ZoneGraph<'_, S> {
    pub fn sat(&mut self, f: &StateFormula, s: &ZoneState<S>) -> Result<Federation<S>, RunError> {
        let wrap = |x| RunError { error: x, transition: None };
        Ok(match f {
            StateFormula::Pred(conjs) => {
                let mut out = Federation::empty();
                for c in conjs {
                    if let Some(code) = &c.data {
                        let mut stack = Vec::new();
                        if code.eval(&s.discrete.locs, &s.discrete.data, &mut stack).map_err(wrap)? == 0 {
                            continue;
                        }
                    }
                    let mut z = s.zone.clone();
                    let mut ok = true;
                    for k in &c.clocks {
                        if !self.constrain(k, &s.discrete, &mut z).map_err(wrap)? {
                            ok = false;
                            break;
                        }
                    }
                    if ok {
                        out.zones.push(z);
                    }
                }
                out
            }
            StateFormula::Deadlock => self.deadlocked(s)?,
            StateFormula::Not(a) => Federation::from_zone(s.zone.clone()).subtract(&self.sat(a, s)?),
            StateFormula::And(a, b) => self.sat(a, s)?.intersect(&self.sat(b, s)?),
            StateFormula::Or(a, b) => self.sat(a, s)?.union(self.sat(b, s)?),
        })
    }
}
