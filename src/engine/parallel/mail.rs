//! The states in transit between workers, and how the workers know the
//! search is over.
//!
//! Every discrete state has one owner ([`super::owners`]); a
//! worker hands a successor it does not own to the owner's mailbox, in
//! batches, so that the passed lists are never shared and never locked.
//!
//! **Termination.** `pending` counts the active workers plus the states in
//! transit. A sender adds a batch's length *before* posting it; a receiver
//! counts itself active *before* taking its mail and subtracts the batch
//! only once every state of it is stored (or dropped as covered) in its own
//! passed list and queue. A worker goes idle (subtracts itself) only with
//! an empty queue, its own batches posted and its mailbox empty. So work
//! left anywhere keeps `pending` above 0, and `pending` never passes
//! through 0 while work remains: `pending == 0` is the end, read as one
//! atomic value.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// A batch of states and the worker that sent it.
pub struct Batch<T> {
    pub from: usize,
    pub states: Vec<T>,
}

pub struct Mail<T> {
    boxes: Box<[Mutex<Vec<Batch<T>>>]>,
    /// Batches read by their receivers, back with their senders to be
    /// overwritten: a state's buffers are then allocated once per slot, not
    /// once per message, and never freed by another thread than the one
    /// that allocated them (which the allocator makes slow).
    spent: Box<[Mutex<Vec<Vec<T>>>]>,
    /// States posted to each mailbox and not yet taken, read by an idle
    /// worker without the lock.
    waiting: Box<[AtomicU64]>,
    pending: AtomicU64,
    /// Mailbox locks found taken.
    contended: AtomicU64,
    batches: AtomicU64,
}

impl<T: Send> Mail<T> {
    /// Mailboxes for `workers` workers, all counted active.
    pub fn new(workers: usize) -> Self {
        Mail {
            boxes: (0..workers).map(|_| Mutex::new(Vec::new())).collect(),
            spent: (0..workers).map(|_| Mutex::new(Vec::new())).collect(),
            waiting: (0..workers).map(|_| AtomicU64::new(0)).collect(),
            pending: AtomicU64::new(workers as u64),
            contended: AtomicU64::new(0),
            batches: AtomicU64::new(0),
        }
    }

    fn lock<'a, U>(&self, m: &'a Mutex<U>) -> MutexGuard<'a, U> {
        match m.try_lock() {
            Ok(guard) => guard,
            Err(_) => {
                self.contended.fetch_add(1, Ordering::Relaxed);
                // A worker panicking while holding a mailbox ends the search
                // with its panic; the mail is not read after that.
                m.lock().unwrap_or_else(|e| e.into_inner())
            }
        }
    }

    fn mailbox(&self, k: usize) -> MutexGuard<'_, Vec<Batch<T>>> {
        self.lock(&self.boxes[k])
    }

    /// Posts `batch` (not empty) to worker `to`.
    pub fn post(&self, to: usize, batch: Batch<T>) {
        let n = batch.states.len() as u64;
        self.pending.fetch_add(n, Ordering::SeqCst);
        self.batches.fetch_add(1, Ordering::Relaxed);
        self.mailbox(to).push(batch);
        self.waiting[to].fetch_add(n, Ordering::Release);
    }

    /// Whether worker `me` has mail, without taking the lock.
    pub fn has_mail(&self, me: usize) -> bool {
        self.waiting[me].load(Ordering::Acquire) > 0
    }

    /// Worker `me`'s mail (it must be counted active). Each batch taken
    /// stays pending until [`Mail::received`].
    pub fn take(&self, me: usize, into: &mut Vec<Batch<T>>) {
        let mut mailbox = self.mailbox(me);
        let n: usize = mailbox.iter().map(|b| b.states.len()).sum();
        into.append(&mut mailbox);
        self.waiting[me].fetch_sub(n as u64, Ordering::AcqRel);
    }

    /// A taken batch's states are stored or dropped: the batch goes back
    /// to its sender.
    pub fn received(&self, batch: Batch<T>) {
        self.pending.fetch_sub(batch.states.len() as u64, Ordering::SeqCst);
        self.lock(&self.spent[batch.from]).push(batch.states);
    }

    /// A batch of worker `me`'s that its receiver has read, to overwrite.
    pub fn spent(&self, me: usize) -> Option<Vec<T>> {
        self.lock(&self.spent[me]).pop()
    }

    /// A worker with nothing to do stops counting itself active.
    pub fn idle(&self) {
        self.pending.fetch_sub(1, Ordering::SeqCst);
    }

    /// An idle worker with mail counts itself active again (before it takes
    /// the mail: the mail is still pending, so this never revives a
    /// finished search).
    pub fn wake(&self) {
        self.pending.fetch_add(1, Ordering::SeqCst);
    }

    /// Whether no worker is active and nothing is in transit.
    pub fn is_finished(&self) -> bool {
        self.pending.load(Ordering::SeqCst) == 0
    }

    pub fn contended(&self) -> u64 {
        self.contended.load(Ordering::Relaxed)
    }

    pub fn batches(&self) -> u64 {
        self.batches.load(Ordering::Relaxed)
    }
}
