//! Which networks and properties the data-symbolic engine checks exactly.

use crate::network::{Network, StateFormula};

/// `Ok` when the data-symbolic reach search is exact on `net`, else why not.
pub fn supported(net: &Network) -> Result<(), String> {
    if net.priorities.is_some() {
        return Err("priorities are not supported yet".into());
    }
    Ok(())
}

/// `Ok` when `net` is timed: the measures over the reachable zones
/// (`kairos bound`, `sup`/`inf`) run on zones only.
pub fn timed(net: &Network) -> Result<(), String> {
    match net.hybrid {
        Some(_) => Err("measures on hybrid models and fixed timing parameters are not supported yet".into()),
        None => Ok(()),
    }
}

/// `Ok` when `f` reads the locations and the data only, as the liveness
/// search's cuts of data sets need ([`super::search::sat`]); the reach
/// search decides the rest per clock valuation ([`super::deadlock`]).
pub fn data_only(f: &StateFormula) -> Result<(), String> {
    if f.mentions_deadlock() {
        return Err("`deadlock` inside a liveness property is not supported yet".into());
    }
    if f.has_clock_atoms() {
        return Err("clock constraints inside a liveness property are not supported yet".into());
    }
    Ok(())
}
