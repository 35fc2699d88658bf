//! The layer gate: a worker does not expand a state more than [`AHEAD`]
//! layers below the shallowest state another worker has queued (why: the
//! module doc of [`super`]), and a worker so held sleeps until that can
//! have changed.
//!
//! **Why it sleeps.** A held worker used to yield in a loop: up to 535 000
//! times in one fischer 10 run on a loaded machine, where a yield hardly
//! gives the core up to the worker it waits for, and on every turn it
//! wrote its depth and locked its mailbox. A held worker now parks. It is
//! woken (unparked) when another worker publishes another depth or halts
//! the search; a wake-up before the park is kept by the thread (Rust's
//! park token), so none is lost between the test and the park, and an
//! early one only costs another test. The worker it waits for changes its
//! depth, goes idle (which publishes `u32::MAX`) or halts: a held worker
//! always wakes. Mail does not wake it: that would cost the sender a
//! system call per batch, for states that can wait until the layer ends.
//! (CPU time under load did not change measurably either way.)
//!
//! **Why the depth is written only when it changes.** Each worker's depth
//! sits on its own cache line ([`Padded`]), and is written once per layer
//! instead of at every expansion: the other worker reads it at each
//! expansion, and a write would take the line away from it each time.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Barrier, OnceLock};
use std::thread::Thread;

/// A worker does not expand a state more than this many layers below the
/// shallowest state another worker has queued.
const AHEAD: u32 = 0;

pub struct Gate {
    /// The depth of the state each worker expands next (`u32::MAX`: none).
    depth: Box<[Padded<AtomicU32>]>,
    /// Each worker's thread, to wake it.
    threads: Box<[OnceLock<Thread>]>,
    /// Every worker registers its thread before any publishes a depth.
    registered: Barrier,
}

impl Gate {
    pub fn new(workers: usize) -> Self {
        Gate {
            depth: (0..workers).map(|_| Padded(AtomicU32::new(0))).collect(),
            threads: (0..workers).map(|_| OnceLock::new()).collect(),
            registered: Barrier::new(workers),
        }
    }

    /// Called by worker `me` on its own thread before anything else: it
    /// returns once every worker can be woken.
    pub fn register(&self, me: usize) {
        // Only worker `me` sets its cell, once.
        let _ = self.threads[me].set(std::thread::current());
        self.registered.wait();
    }

    /// Publishes that worker `me` expands a state at `depth` next
    /// (`u32::MAX`: it has none, and holds no one back).
    pub fn publish(&self, me: usize, depth: u32) {
        // Only worker `me` writes its depth: its own last write is read.
        if self.depth[me].0.load(Ordering::Relaxed) != depth {
            self.depth[me].0.store(depth, Ordering::Relaxed);
            self.wake_others(me);
        }
    }

    /// [`Gate::publish`]es `depth` for worker `me`; whether another worker
    /// has a state queued more than [`AHEAD`] layers above it.
    pub fn ahead(&self, me: usize, depth: u32) -> bool {
        self.publish(me, depth);
        self.depth.iter().any(|d| d.0.load(Ordering::Relaxed).saturating_add(AHEAD) < depth)
    }

    /// Wakes worker `k` if it sleeps (else its next sleep ends at once).
    fn wake(&self, k: usize) {
        if let Some(t) = self.threads[k].get() {
            t.unpark();
        }
    }

    /// Wakes every worker but `me`.
    fn wake_others(&self, me: usize) {
        (0..self.threads.len()).filter(|&k| k != me).for_each(|k| self.wake(k));
    }

    pub fn wake_all(&self) {
        (0..self.threads.len()).for_each(|k| self.wake(k));
    }

    /// Worker `me`, held, sleeps until woken (it then tests again).
    pub fn sleep(&self) {
        std::thread::park();
    }
}

/// `T` aligned (and so padded) to 128 bytes: a cache line, and the pair of
/// lines that x86 processors fetch together.
#[repr(align(128))]
pub(super) struct Padded<T>(pub T);
