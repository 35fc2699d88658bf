//! The progress line of a long check on a terminal: states stored and
//! visited, states per second, memory against its budget (or a sweep's
//! points checked), redrawn four times a second on stderr from a thread of
//! its own, and erased before the results are printed. Nothing when stderr is not a terminal, with
//! `--quiet`, or in the first second (short checks stay silent).

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::engine::limits::{Progress, resident_bytes};

const REFRESH: Duration = Duration::from_millis(250);
const QUIET_FOR: Duration = Duration::from_secs(1);

/// The running display; dropping it stops and erases it.
pub(super) struct Line {
    done: Arc<AtomicBool>,
    drawer: Option<JoinHandle<()>>,
}

/// Starts the display of `progress` (the searches write it through their
/// limits) when stderr is a terminal and not `quiet`.
pub(super) fn start(progress: &Arc<Progress>, max_bytes: Option<u64>, quiet: bool) -> Option<Line> {
    let p = Arc::clone(progress);
    let (mut last_visited, mut last_at) = (0, Instant::now());
    start_with(quiet, move || {
        let now = Instant::now();
        let visited = p.visited.load(Ordering::Relaxed);
        // A new property starts counting from 0 again.
        let rate = visited.saturating_sub(last_visited) as f64 / now.duration_since(last_at).as_secs_f64();
        (last_visited, last_at) = (visited, now);
        let mb = |b: u64| b as f64 / 1048576.0;
        let memory = match (resident_bytes(), max_bytes) {
            (Some(r), Some(m)) => format!("{:.0} of {:.0} MB", mb(r), mb(m)),
            (Some(r), None) => format!("{:.0} MB", mb(r)),
            _ => String::new(),
        };
        let stored = p.stored.load(Ordering::Relaxed);
        format!("{stored} stored, {visited} visited, {rate:.0} states/s, {memory}")
    })
}

/// Starts a display of the lines `line` gives, on the same terms as
/// [`start`].
pub(super) fn start_with(quiet: bool, line: impl FnMut() -> String + Send + 'static) -> Option<Line> {
    if quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let done = Arc::new(AtomicBool::new(false));
    let stop = Arc::clone(&done);
    let drawer = std::thread::spawn(move || draw(line, &stop));
    Some(Line { done, drawer: Some(drawer) })
}

fn draw(mut line: impl FnMut() -> String, done: &AtomicBool) {
    let started = Instant::now();
    let mut drawn = false;
    while !done.load(Ordering::Relaxed) {
        // Woken early when the check ends (a park may also end spuriously:
        // then the line is just redrawn sooner).
        std::thread::park_timeout(REFRESH);
        if done.load(Ordering::Relaxed) {
            break;
        }
        // Computed every time: a rate is measured since the last call.
        let text = line();
        if Instant::now().duration_since(started) < QUIET_FOR {
            continue;
        }
        eprint!("\r\x1b[2K{text}");
        drawn = true;
    }
    if drawn {
        eprint!("\r\x1b[2K");
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(d) = self.drawer.take() {
            d.thread().unpark();
            let _ = d.join();
        }
    }
}
