//! `sup`/`inf` queries ([`crate::engine::extremum`]) with data as BDDs.
//!
//! The data-symbolic forward search ([`search::explore`]) covers every
//! reachable state by its nodes `(l, D, Z)`, each of whose states is
//! reachable (a node's data only grows by unions of reachable sets), under
//! the same abstraction and LU bounds as the explicit measure. Each node's
//! `D` is split into cells on which the valuations of `Z` meeting `φ` are
//! one federation ([`deadlock::parts`]); on a cell with a non-empty one,
//! a term `T = L(x) − R` ranges over `L` on the federation (as in the
//! explicit measure) less `R` over the cell's valuations, which the cell
//! leaves free of the clock valuations: `sup T = sup L − min R` and
//! `sup −T = sup −L + max R`, the ends of `R` read off its word
//! ([`word::extreme`]), each the value of some valuation of the cell, so
//! attained where the explicit measure would attain it.

use super::deadlock;
use super::search::{self, End};
use super::supported;
use crate::bdd::exec::Machine;
use crate::bdd::{FALSE, Unsupported, word};
use crate::domain::poly::Sup;
use crate::domain::zone::Dbm;
use crate::engine::bound::term::{Ends, Term};
use crate::engine::{Options, Stats};
use crate::model::decl::OutOfRange;
use crate::network::{Network, StateFormula};
use crate::semantics::ZoneGraph;

/// How a measure with BDD data ended without its values.
pub(crate) enum Stop {
    /// A limit stopped the search (its statistics).
    Limit(crate::engine::Unknown, Stats),
    /// Some valuation makes a guard, an update, `φ` or a term fail: the
    /// explicit measure answers (and gives the trace).
    Error,
}

/// `(sup T, sup −T)` of each of `terms` over the reachable states of `net`
/// where `phi` holds, on zones, and the search's statistics.
pub(crate) fn measure(
    net: &Network,
    terms: &[Term],
    phi: &StateFormula,
    options: &Options,
) -> Result<Result<(Vec<Ends>, Stats), Stop>, Unsupported> {
    let started = std::time::Instant::now();
    supported(net).map_err(Unsupported)?;
    let mut run = search::explore::<Dbm>(net, &StateFormula::Pred(Vec::new()), options)?;
    match run.end {
        End::Exhausted => {}
        End::Stopped(u) => return Ok(Err(Stop::Limit(u, run.stats))),
        End::Error => return Ok(Err(Stop::Error)),
        End::Found(_) => unreachable!("nothing is searched for"),
    }
    let mut zg = ZoneGraph::<Dbm>::with_sets(net, run.abstraction);
    let mut ends = vec![(Sup::Empty, Sup::Empty); terms.len()];
    let (m, enc) = (&mut run.m, &run.enc);
    for node in &run.nodes {
        let Some(parts) = deadlock::parts(net, &mut zg, m, enc, &node.locs, node.data, &node.zone, phi)? else {
            return Ok(Err(Stop::Error));
        };
        for (cell, fed) in parts.into_iter().filter(|(_, fed)| !fed.is_empty()) {
            for (t, e) in terms.iter().zip(ends.iter_mut()) {
                let (low, high) = match t.bound().as_const() {
                    // A clock's term: `R` is a constant, no word to run per cell.
                    Some(k) => (k, k),
                    None => {
                        let mut mach = Machine::new(m, enc, &node.locs, OutOfRange::Error, cell);
                        let r = mach.run(t.bound())?;
                        if mach.error != FALSE {
                            return Ok(Err(Stop::Error));
                        }
                        match (word::extreme(m, &r, cell, false), word::extreme(m, &r, cell, true)) {
                            (Some(low), Some(high)) => (low, high),
                            _ => continue,
                        }
                    }
                };
                let (low, high) = (t.data_value(low), t.data_value(high));
                // A negated bound swaps the ends.
                let (low, high) = if low <= high { (low, high) } else { (high, low) };
                if !t.widen(e, &fed.zones, &low, &high) {
                    return Err(Unsupported("zones measure only `x`, `-x` and `x - y`".into()));
                }
            }
        }
    }
    run.stats.time_s = started.elapsed().as_secs_f64();
    Ok(Ok((ends, run.stats)))
}
