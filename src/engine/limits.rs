//! When a search gives up before its answer: a state budget, a deadline, a
//! memory budget and an interrupt (Ctrl-C). Each ends the check with
//! `unknown` and the statistics so far, never with an abort.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::Unknown;

#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub max_states: Option<u64>,
    pub deadline: Option<Instant>,
    /// Resident memory of the whole process, in bytes.
    pub max_bytes: Option<u64>,
}

/// Set from a signal handler; checked by every search loop.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Asks every running search to stop (async-signal-safe: one atomic store).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// How often the costlier checks (clock, memory) run, in expansions: often
/// enough that a deadline is met within milliseconds, rare enough to cost
/// nothing measurable.
const SLOW_CHECK_EVERY: u64 = 256;

impl Limits {
    /// Whether a search that has expanded `visited` states must stop.
    pub fn check(&self, visited: u64) -> Option<Unknown> {
        if self.max_states.is_some_and(|m| visited >= m) {
            return Some(Unknown::StateLimit);
        }
        if !visited.is_multiple_of(SLOW_CHECK_EVERY) {
            return None;
        }
        if INTERRUPTED.load(Ordering::Relaxed) {
            return Some(Unknown::Interrupted);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Unknown::Timeout);
        }
        if let Some(max) = self.max_bytes
            && resident_bytes().is_some_and(|r| r >= max)
        {
            return Some(Unknown::MemoryLimit);
        }
        None
    }
}

/// The process's resident set, read from `/proc/self/statm` (Linux); `None`
/// where that file does not exist.
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page_size())
}

/// The page size `statm` counts in. Linux reports it in the auxiliary
/// vector; every platform this runs on uses 4 KiB pages unless `AT_PAGESZ`
/// says otherwise.
fn page_size() -> u64 {
    static PAGE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *PAGE.get_or_init(|| {
        std::fs::read("/proc/self/auxv")
            .ok()
            .and_then(|auxv| {
                auxv.chunks_exact(16).find_map(|e| {
                    const AT_PAGESZ: u64 = 6;
                    let key = u64::from_ne_bytes(e[..8].try_into().ok()?);
                    if key != AT_PAGESZ {
                        return None;
                    }
                    Some(u64::from_ne_bytes(e[8..].try_into().ok()?))
                })
            })
            .unwrap_or(4096)
    })
}

/// The default memory budget: three quarters of the machine's memory
/// (`MemTotal` in `/proc/meminfo`), so that a search ends with `unknown`
/// before the operating system kills it.
pub fn default_max_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024 / 4 * 3)
}
