//! When a search gives up before its answer: a state budget, a deadline, a
//! memory budget and an interrupt (Ctrl-C). Each ends the check with
//! `unknown` and the statistics so far, never with an abort.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::Unknown;

#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub max_states: Option<u64>,
    pub deadline: Option<Instant>,
    /// Resident memory of the whole process, in bytes.
    pub max_bytes: Option<u64>,
    /// Where the searches say how far they are, for a progress display.
    pub progress: Option<Arc<Progress>>,
}

/// How far the running search is: written by its threads at every
/// expansion (relaxed stores, no ordering needed), read by a display.
#[derive(Debug, Default)]
pub struct Progress {
    pub visited: AtomicU64,
    pub stored: AtomicU64,
}

/// Set from a signal handler; checked by every search loop.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Asks every running search to stop. Returns whether that had been asked
/// already.
pub fn interrupt() -> bool {
    INTERRUPTED.swap(true, Ordering::Relaxed)
}

/// How often resident memory is read: often enough that a budget is
/// overshot by little (at a few hundred MB/s, a few MB), rarely enough to
/// cost nothing measurable.
const MEMORY_CHECK_EVERY: Duration = Duration::from_millis(5);

/// Within one expansion the limits are looked at once in `stride` polls, the
/// stride doubling up to this while reads come less than [`POLL_GAP`] apart
/// and falling back to 1 once they do not: cheap successors (a small
/// model's take well under a microsecond) pay a counter, not a clock read
/// each, and successors that take milliseconds a read each.
const MAX_STRIDE: u32 = 32;
const POLL_GAP: Duration = Duration::from_micros(200);

/// The visited count is published once in this many expansions: often
/// enough for a display redrawn a few times a second, and rarely enough
/// that the workers of `--jobs` do not pass the counter's cache line to
/// and fro at every expansion.
const PUBLISH_EVERY: u32 = 64;

impl Limits {
    /// A watch over these limits for one search.
    pub fn watch(&self) -> Watch<'_> {
        let now = Instant::now();
        Watch { limits: self, memory_checked: now, unpublished: 0, polled: now, stride: 1, countdown: 1 }
    }
}

/// The limits as one search checks them, once per expansion.
pub struct Watch<'a> {
    limits: &'a Limits,
    memory_checked: Instant,
    /// Expansions checked since the visited count was last published.
    unpublished: u32,
    /// When [`Watch::poll`] last read the clock, its stride and the polls
    /// left until it reads it again.
    polled: Instant,
    stride: u32,
    countdown: u32,
}

impl Watch<'_> {
    /// Counts one more step of a fixpoint's work list in `steps` and says
    /// whether the search must stop (as [`Watch::check`]).
    pub fn step(&mut self, steps: &mut u64) -> Result<(), Unknown> {
        *steps += 1;
        match self.check(*steps) {
            Some(why) => Err(why),
            None => Ok(()),
        }
    }

    /// Whether a search that has expanded `visited` states must stop.
    /// The clock is read at every call: an expansion can take long (a
    /// discrete state with many zones), and a deadline must be met within a
    /// fraction of a second.
    pub fn check(&mut self, visited: u64) -> Option<Unknown> {
        let l = self.limits;
        if let Some(p) = &l.progress {
            self.unpublished += 1;
            if self.unpublished == PUBLISH_EVERY {
                self.unpublished = 0;
                p.visited.store(visited, Ordering::Relaxed);
            }
        }
        if l.max_states.is_some_and(|m| visited >= m) {
            return Some(Unknown::StateLimit);
        }
        if INTERRUPTED.load(Ordering::Relaxed) {
            return Some(Unknown::Interrupted);
        }
        if l.deadline.is_none() && l.max_bytes.is_none() {
            return None;
        }
        self.timed(Instant::now())
    }

    /// Whether the search must stop in the middle of an expansion, between
    /// two of its successors: on an interrupt, a deadline or a memory budget
    /// (the state budget counts expansions, checked by [`Watch::check`]).
    /// Cheap enough to call once per successor.
    pub fn poll(&mut self) -> Option<Unknown> {
        self.countdown -= 1;
        if self.countdown > 0 {
            return None;
        }
        let now = Instant::now();
        let gap = now.duration_since(std::mem::replace(&mut self.polled, now));
        self.stride = if gap < POLL_GAP { (self.stride * 2).min(MAX_STRIDE) } else { 1 };
        self.countdown = self.stride;
        if INTERRUPTED.load(Ordering::Relaxed) {
            return Some(Unknown::Interrupted);
        }
        self.timed(now)
    }

    /// The deadline and the memory budget at `now`.
    fn timed(&mut self, now: Instant) -> Option<Unknown> {
        let l = self.limits;
        if l.deadline.is_some_and(|d| now >= d) {
            return Some(Unknown::Timeout);
        }
        if let Some(max) = l.max_bytes
            && now.duration_since(self.memory_checked) >= MEMORY_CHECK_EVERY
        {
            self.memory_checked = now;
            if resident_bytes().is_some_and(|r| r >= max) {
                return Some(Unknown::MemoryLimit);
            }
        }
        None
    }
}

impl Watch<'_> {
    /// Tells the progress display how many states are stored.
    pub fn stored(&self, stored: u64) {
        if let Some(p) = &self.limits.progress {
            p.stored.store(stored, Ordering::Relaxed);
        }
    }
}

/// The process's resident set, read from `/proc/self/statm` (Linux); `None`
/// where that file does not exist.
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page_size())
}

/// The process's peak resident set (`VmHWM` in `/proc/self/status`).
pub fn peak_resident_bytes() -> Option<u64> {
    proc_kib("/proc/self/status", "VmHWM:")
}

/// The value of the `key  N kB` line of a `/proc` file, in bytes.
fn proc_kib(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
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
    Some(proc_kib("/proc/meminfo", "MemTotal:")? / 4 * 3)
}
