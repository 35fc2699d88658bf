//! What the fixpoint engine computes from the network alone, kept for the
//! next property of the same model run: the discrete states and steps of
//! the forward pass, and the states with a time-divergent run (`EG true`,
//! the time-lock analysis every operator over divergent runs needs).
//!
//! The cache lives in the [`Options`](crate::engine::Options) a run checks
//! its properties with. An entry is used only for a network equal to the
//! one it was computed on (compared on its full `Debug` text, every field
//! of it: a sweep or a test may hand the same options other networks);
//! a clone of the options starts empty. Nothing stopped by a limit is
//! kept, so a later property meets its own limits afresh.

use std::sync::{Arc, Mutex, OnceLock};

use crate::engine::Stats;
use crate::engine::limits::Limits;
use crate::engine::tctl::pre::Map;
use crate::engine::tctl::space::{Failed, Space};
use crate::network::Network;
use crate::semantics::ZoneGraph;

#[derive(Default)]
pub struct Cache(Mutex<Option<Arc<Analysis>>>);

/// The forward pass over one network, and its divergent states once some
/// property has computed them.
pub struct Analysis {
    key: String,
    pub space: Space,
    pub forward: Stats,
    pub divergent: OnceLock<Map>,
}

impl Cache {
    /// The analysis of `net`, from the cache or built by the forward pass
    /// on `zg` (and then kept).
    pub fn analysis(&self, net: &Network, zg: &mut ZoneGraph<'_>, limits: &Limits) -> Result<Arc<Analysis>, Failed> {
        let key = format!("{net:?}");
        let mut slot = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(a) = slot.as_ref().filter(|a| a.key == key) {
            return Ok(Arc::clone(a));
        }
        let (space, forward) = Space::build(zg, limits)?;
        let a = Arc::new(Analysis { key, space, forward, divergent: OnceLock::new() });
        *slot = Some(Arc::clone(&a));
        Ok(a)
    }
}

impl Clone for Cache {
    /// Empty: options are copied to check other networks.
    fn clone(&self) -> Self {
        Cache::default()
    }
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("tctl::Cache")
    }
}
