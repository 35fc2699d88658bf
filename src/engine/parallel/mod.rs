//! Multi-core forward exploration for `E<>` and `A[]` (`--jobs N`): the
//! discrete states are split among the workers ([`owners`]), each worker
//! keeps the passed list and the queue of its own discrete states (the
//! one-thread [`Store`], unshared and unlocked), and a successor owned by
//! another worker is posted to it in a batch ([`mail`]). This is the
//! hash-partitioned search of Stern and Dill's parallel Murphi, applied to
//! the zone graph: subsumption only ever compares zones of one discrete
//! state, and a discrete state lives on one worker (but for the few a moved
//! bucket leaves on two), so the passed lists need no sharing at all.
//! (Dalsgaard, Laarman, Larsen, Olesen and van de
//! Pol, "Multi-core reachability for timed automata", FORMATS 2012, share
//! one passed list under locks instead; on our cheap successors the locks,
//! the shared hash-consing and the shared counters cost more than they
//! saved, see ARCHITECTURE.md.)
//!
//! **Why the verdict is the one thread's.** Subsumption by inclusion or
//! aLU is sound and complete in any order of exploration: a state is
//! dropped only when a live zone of its discrete state covers it, and a
//! covering zone's successors cover the dropped one's (inclusion and aLU
//! are simulations), so some explored state covers every reachable one,
//! whichever worker got there first. Only how many states are stored
//! before subsumption prunes them depends on the order. A state stored by
//! two workers (its bucket moved between them, [`owners`]) is work done
//! twice: each worker drops only what its own passed list covers.
//!
//! **Why the trace is the one thread's.** The workers search for the
//! verdict only. When one meets a target (or a run-time error), they all
//! stop and the caller runs the one-thread search, which finds the same
//! verdict and the breadth-first trace it always reports. A satisfied
//! `E<>` (a violated `A[]`) thus costs the parallel search up to the hit
//! plus the sequential one; an exhausted search, where the work is, is
//! parallel throughout.
//!
//! **Why layer by layer.** Each worker queues breadth-first, but left to
//! itself one runs layers ahead of the other, expands small zones before
//! the other's shallower, larger zones of the same discrete states arrive,
//! and so stores and expands states that one thread would have found
//! covered (fischer 10: 464 000 to 580 000 states expanded, one thread
//! 447 598). A worker therefore waits while another has a shallower state
//! queued (the [`gate`]); the two then expand what one thread expands, within
//! 1 % (fischer 10: 447 598 every time), at the cost of a wait at the end of
//! each layer.
//!
//! Liveness, bounded response, `bound` and the fixpoint engine run on one
//! thread.

mod gate;
mod mail;
mod owners;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::domain::ClockSet;
use crate::domain::federation::Federation;
use crate::engine::limits::{Limits, Watch, peak_resident_bytes};
use crate::engine::reach::Order;
use crate::engine::store::{Cover, Store, discrete_hash};
use crate::engine::waiting::Waiting;
use crate::engine::{Stats, Unknown};
use crate::network::Network;
use crate::semantics::{Abstraction, RunError, ZoneGraph, ZoneState};
use gate::Gate;
use mail::{Batch, Mail};
use owners::{Balance, Owners};

/// The target test, shared by the workers.
pub type SharedTarget<'a, S> =
    dyn Fn(&mut ZoneGraph<'_, S>, &ZoneState<S>) -> Result<Federation<S>, RunError> + Sync + 'a;

/// How the parallel search ended.
pub enum Ended {
    /// Every reachable state explored, no target met.
    Exhausted,
    Stopped(Unknown),
    /// A target or a run-time error met: the one-thread search gives the
    /// verdict and its trace.
    Hit,
}

/// Successors for another worker are posted once this many are gathered,
/// and every [`ROUND`] expansions whatever their number, so that no worker
/// waits long for states another one holds back.
const BATCH: usize = 64;
const ROUND: usize = 16;
/// Expansions are claimed from the shared count in blocks: the state
/// budget holds exactly without a shared write per expansion.
const CLAIM: u64 = 64;

/// A state with the [`discrete_hash`] of its discrete state (computed
/// once, for its owner and for the owner's passed list) and its depth.
type Hashed<S> = (u64, u32, ZoneState<S>);

/// What the workers share.
struct Shared<S> {
    mail: Mail<Hashed<S>>,
    owners: Owners,
    /// Expansions claimed (in blocks of [`CLAIM`]) by all workers.
    claimed: AtomicU64,
    /// States stored by all workers, as last reported by each (for the
    /// progress display).
    stored: AtomicU64,
    halted: AtomicBool,
    gate: Gate,
    /// Why the search halted (the first worker to halt says).
    end: Mutex<Option<Ended>>,
}

impl<S> Shared<S> {
    fn halt(&self, why: Ended) {
        let mut end = self.end.lock().unwrap_or_else(|e| e.into_inner());
        if end.is_none() {
            *end = Some(why);
        }
        self.halted.store(true, Ordering::SeqCst);
        // A held worker sleeps: it must see the halt.
        self.gate.wake_all();
    }
}

/// Explores the zone graph of `net` with `jobs` workers until a target
/// state, a run-time error, a limit or the end.
pub fn explore<S: ClockSet + Send + Sync>(
    net: &Network,
    abstraction: Abstraction,
    cover: Cover,
    limits: &Limits,
    jobs: usize,
    target: &SharedTarget<'_, S>,
) -> (Ended, Stats) {
    let start = Instant::now();
    let shared = Shared {
        mail: Mail::new(jobs),
        owners: Owners::new(net, jobs),
        claimed: AtomicU64::new(0),
        stored: AtomicU64::new(0),
        halted: AtomicBool::new(false),
        gate: Gate::new(jobs),
        end: Mutex::new(None),
    };
    let mut initial = Vec::new();
    if ZoneGraph::<S>::with_sets(net, abstraction).initial(&mut initial).is_err() {
        return (Ended::Hit, Stats { jobs: jobs as u32, ..Stats::default() });
    }
    for s in initial {
        // Sent as from its owner, which keeps it for its own batches.
        let hash = discrete_hash(&s.discrete);
        let to = shared.owners.owner(shared.owners.bucket(&s.discrete, hash));
        shared.mail.post(to, Batch { from: to, states: vec![(hash, 0, s)] });
    }
    let totals: Vec<Tally> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|me| {
                let shared = &shared;
                scope.spawn(move || Worker::new(me, jobs, net, abstraction, cover, limits).run(shared, target))
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    });
    let end = shared.end.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or(Ended::Exhausted);
    let mut stats = Stats {
        time_s: start.elapsed().as_secs_f64(),
        peak_rss_bytes: peak_resident_bytes().unwrap_or(0),
        jobs: jobs as u32,
        contended: shared.mail.contended(),
        batches: shared.mail.batches(),
        ..Stats::default()
    };
    for t in totals {
        stats.visited += t.visited;
        stats.transitions += t.transitions;
        stats.stored += t.stored;
        stats.store_bytes += t.bytes.0;
        stats.peak_bytes += t.bytes.1;
        stats.waits += t.waits;
        stats.moved += t.moved;
    }
    (end, stats)
}

/// One worker's share of the statistics.
struct Tally {
    visited: u64,
    transitions: u64,
    stored: u64,
    bytes: (u64, u64),
    waits: u64,
    moved: u64,
}

/// One worker: the passed list and queue of the discrete states it owns.
struct Worker<'n, 'l, S: ClockSet> {
    me: usize,
    zg: ZoneGraph<'n, S>,
    store: Store<S>,
    queue: Waiting,
    /// Successors gathered for each worker (one per worker): the first `n`
    /// states of a batch whose further slots are spent states to overwrite.
    outbox: Vec<(Vec<Hashed<S>>, usize)>,
    watch: Watch<'l>,
    limits: &'l Limits,
    /// The expansion numbers this worker has claimed and not used.
    claim: std::ops::Range<u64>,
    /// This worker's stored states as last added to [`Shared::stored`].
    reported: u64,
    visited: u64,
    transitions: u64,
    /// Times this worker, idle or held at the gate, yielded or slept.
    waits: u64,
    balance: Balance,
    /// The depth of the last state expanded.
    layer: u32,
}

impl<'n, 'l, S: ClockSet + Send + Sync> Worker<'n, 'l, S> {
    fn new(
        me: usize,
        jobs: usize,
        net: &'n Network,
        abstraction: Abstraction,
        cover: Cover,
        limits: &'l Limits,
    ) -> Self {
        Worker {
            me,
            zg: ZoneGraph::with_sets(net, abstraction),
            // Each worker holds the one-thread budget of zones whole, not a
            // share of it: with a share, two workers packed 1.8 times as
            // many zones as one thread and unpacked more at expansion
            // (csmacd 11: 89 030 packs and 257 630 unpacks, against 48 886
            // and 240 460 on one thread; 65 122 and 169 905 with the whole
            // budget each, for 12 MB more). Zones are hash-consed per
            // worker, so the two hold more distinct zones than one thread.
            store: Store::new(cover),
            queue: Waiting::new(Order::Bfs),
            outbox: (0..jobs).map(|_| (Vec::new(), 0)).collect(),
            watch: limits.watch(),
            limits,
            claim: 0..0,
            reported: 0,
            visited: 0,
            transitions: 0,
            waits: 0,
            balance: Balance::new(),
            layer: 0,
        }
    }

    /// Expands until the search ends or halts; this worker's statistics.
    fn run(mut self, shared: &Shared<S>, target: &SharedTarget<'_, S>) -> Tally {
        let (mut transitions, mut successors) = (Vec::new(), Vec::new());
        let mut mail = Vec::new();
        let mut state: Option<ZoneState<S>> = None;
        shared.gate.register(self.me);
        'work: while !shared.halted.load(Ordering::Relaxed) {
            if shared.mail.has_mail(self.me) {
                shared.mail.take(self.me, &mut mail);
            }
            for batch in mail.drain(..) {
                for (hash, depth, s) in &batch.states {
                    let bucket = shared.owners.bucket(&s.discrete, *hash);
                    self.admit(shared, s, *hash, bucket, *depth, target);
                }
                shared.mail.received(batch);
            }
            let mut held = false;
            for _ in 0..ROUND {
                let Some(next) = self.queue.depth() else { break };
                if shared.gate.ahead(self.me, next) {
                    held = true;
                    break;
                }
                let Some((id, depth)) = self.queue.pop() else { break };
                if depth > self.layer {
                    self.layer = depth;
                    self.balance.layer(&shared.owners, self.me, depth);
                }
                if !self.store.is_alive(id) {
                    continue;
                }
                if let Some(why) = self.claim(shared) {
                    shared.halt(Ended::Stopped(why));
                    break 'work;
                }
                let current = state
                    .get_or_insert_with(|| ZoneState { discrete: self.store.discrete(id), zone: self.store.zone(id) });
                self.store.load(id, current);
                // Between successors too, as on one thread (reach::explore).
                let (mut stop, watch) = (None, &mut self.watch);
                let expanded = self.zg.successors_while(current, &mut transitions, &mut successors, || {
                    stop = watch.poll();
                    stop.is_none()
                });
                if let Some(why) = stop {
                    shared.halt(Ended::Stopped(why));
                    break 'work;
                }
                if expanded.is_err() {
                    shared.halt(Ended::Hit);
                    break 'work;
                }
                self.transitions += successors.len() as u64;
                for (s, _) in &successors {
                    let hash = discrete_hash(&s.discrete);
                    let bucket = shared.owners.bucket(&s.discrete, hash);
                    let to = shared.owners.owner(bucket);
                    if to == self.me {
                        self.admit(shared, s, hash, bucket, depth + 1, target);
                    } else if self.gather(shared, to, hash, depth + 1, s) >= BATCH {
                        self.post(shared, to);
                    }
                }
            }
            self.post_all(shared);
            if held && !shared.mail.has_mail(self.me) {
                self.waits += 1;
                shared.gate.sleep();
            }
            if self.queue.is_empty() && !shared.mail.has_mail(self.me) {
                // Idle, it holds no one back (else: a deadlock, the other
                // held by the depth it last published).
                shared.gate.publish(self.me, u32::MAX);
                shared.mail.idle();
                if !wait_for_mail(shared, self.me, &mut self.waits) {
                    break;
                }
            }
        }
        self.report_stored(shared);
        Tally {
            visited: self.visited,
            transitions: self.transitions,
            stored: self.store.stored(),
            bytes: self.store.bytes(),
            waits: self.waits,
            moved: self.balance.given,
        }
    }

    /// Stores `state` (whose discrete state hashes to `hash`, in `bucket`) unless
    /// covered, tests it and queues it at `depth`; a hit halts the search.
    fn admit(
        &mut self,
        shared: &Shared<S>,
        state: &ZoneState<S>,
        hash: u64,
        bucket: usize,
        depth: u32,
        target: &SharedTarget<'_, S>,
    ) {
        let Some(id) = self.store.insert_hashed(&mut self.zg, state, hash, None) else { return };
        self.balance.stored(&shared.owners, self.me, bucket, depth);
        match target(&mut self.zg, state) {
            Ok(w) if w.is_empty() => self.queue.push(id, depth, self.store.retired()),
            _ => shared.halt(Ended::Hit),
        }
    }

    /// Adds `s` to the batch for worker `to`, in a spent slot when there is
    /// one; the batch's length.
    fn gather(&mut self, shared: &Shared<S>, to: usize, hash: u64, depth: u32, s: &ZoneState<S>) -> usize {
        let (states, n) = &mut self.outbox[to];
        if *n == 0 && states.is_empty() {
            *states = shared.mail.spent(self.me).unwrap_or_default();
        }
        match states.get_mut(*n) {
            Some((h, d, slot)) => {
                // Field by field: a derived `clone_from` would allocate anew.
                (*h, *d) = (hash, depth);
                slot.discrete.clone_from(&s.discrete);
                slot.zone.clone_from(&s.zone);
            }
            None => states.push((hash, depth, s.clone())),
        }
        *n += 1;
        *n
    }

    fn post(&mut self, shared: &Shared<S>, to: usize) {
        let (states, n) = &mut self.outbox[to];
        let mut states = std::mem::take(states);
        states.truncate(std::mem::take(n));
        shared.mail.post(to, Batch { from: self.me, states });
    }

    fn post_all(&mut self, shared: &Shared<S>) {
        for to in 0..self.outbox.len() {
            if self.outbox[to].1 > 0 {
                self.post(shared, to);
            }
        }
    }

    /// Adds this worker's stored states since its last report to the
    /// progress display's count.
    fn report_stored(&mut self, shared: &Shared<S>) {
        let stored = self.store.stored();
        // Covering can lower a worker's count: the change wraps, and so
        // does the atomic sum, which is then exact.
        let delta = stored.wrapping_sub(std::mem::replace(&mut self.reported, stored));
        self.watch.stored(shared.stored.fetch_add(delta, Ordering::Relaxed).wrapping_add(delta));
    }

    /// Counts one expansion against the limits: `Some` when the search must
    /// stop.
    fn claim(&mut self, shared: &Shared<S>) -> Option<Unknown> {
        if self.claim.start == self.claim.end {
            let max = self.limits.max_states.unwrap_or(u64::MAX);
            let base = shared.claimed.fetch_add(CLAIM, Ordering::Relaxed);
            if base >= max {
                return Some(Unknown::StateLimit);
            }
            self.claim = base..max.min(base + CLAIM);
            self.report_stored(shared);
        }
        // Below the state budget by construction: the watch sees the others.
        let why = self.watch.check(self.claim.start);
        if why.is_none() {
            self.claim.start += 1;
            self.visited += 1;
        }
        why
    }
}

/// An idle worker waits until it has mail (true: it is active again) or the
/// search is over or halted (false); `waits` counts its yields and sleeps.
fn wait_for_mail<S: Send>(shared: &Shared<S>, me: usize, waits: &mut u64) -> bool {
    let mut spins = 0u32;
    loop {
        if shared.halted.load(Ordering::Relaxed) || shared.mail.is_finished() {
            return false;
        }
        if shared.mail.has_mail(me) {
            shared.mail.wake();
            return true;
        }
        spins += 1;
        *waits += 1;
        if spins < 64 {
            std::thread::yield_now();
        } else {
            std::thread::sleep(Duration::from_micros(50));
        }
    }
}
