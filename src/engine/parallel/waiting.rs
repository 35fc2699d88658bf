//! The shared waiting set: one queue per worker, each worker taking from
//! the front of its own (first in, first out: close to breadth-first) and,
//! when it runs dry, stealing half of another's from the back.
//!
//! Termination: `pending` counts the states queued or being expanded. A
//! worker adds a state's successors before it retires the state itself, so
//! `pending` is 0 only when no queue holds work and no worker can add any:
//! the search is over.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

pub struct Waiting<T> {
    queues: Box<[Mutex<VecDeque<T>>]>,
    pending: AtomicU64,
    steals: AtomicU64,
}

impl<T: Send> Waiting<T> {
    pub fn new(workers: usize) -> Self {
        Waiting {
            queues: (0..workers).map(|_| Mutex::new(VecDeque::new())).collect(),
            pending: AtomicU64::new(0),
            steals: AtomicU64::new(0),
        }
    }

    fn queue(&self, k: usize) -> std::sync::MutexGuard<'_, VecDeque<T>> {
        // A panicking worker ends the search with its panic.
        self.queues[k].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `item` on worker `me`'s queue.
    pub fn push(&self, me: usize, item: T) {
        self.pending.fetch_add(1, Ordering::SeqCst);
        self.queue(me).push_back(item);
    }

    /// The next state for worker `me`: its own, or half of the fullest
    /// other queue's back. `None` when every queue was empty.
    pub fn pop(&self, me: usize) -> Option<T> {
        if let Some(item) = self.queue(me).pop_front() {
            return Some(item);
        }
        let n = self.queues.len();
        let victim = (1..n).map(|k| (me + k) % n).max_by_key(|&k| self.queue(k).len())?;
        let stolen = {
            let mut q = self.queue(victim);
            let keep = q.len() / 2;
            q.split_off(keep)
        };
        if stolen.is_empty() {
            return None;
        }
        self.steals.fetch_add(1, Ordering::Relaxed);
        let mut own = self.queue(me);
        own.extend(stolen);
        own.pop_front()
    }

    /// A popped state is expanded (its successors pushed).
    pub fn done(&self) {
        self.pending.fetch_sub(1, Ordering::SeqCst);
    }

    /// Whether no state is queued or being expanded.
    pub fn is_finished(&self) -> bool {
        self.pending.load(Ordering::SeqCst) == 0
    }

    /// Successful steals so far.
    pub fn steals(&self) -> u64 {
        self.steals.load(Ordering::Relaxed)
    }
}
