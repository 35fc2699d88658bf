//! Which worker owns a discrete state: the worker of its bucket, a bucket
//! being chosen by the locations of some of the processes (the *key*), and
//! buckets handed from a busier worker to a less busy one as the search
//! goes.
//!
//! **Why a key.** A step moves one process, or a few. With the owner chosen
//! by a hash of the whole discrete state, half of all successors belong to
//! the other of two workers and are copied through its mailbox: the
//! copies, and the cache misses of reading another core's writes, cost the
//! second worker a third of its time (ARCHITECTURE.md, "What the second
//! core costs"). With the owner chosen by the locations of half of the
//! processes, a step that moves none of them keeps its successor with the
//! worker that computed it.
//!
//! **Which processes.** The first half of them, and more while their
//! locations have fewer than [`SPREAD`] combinations (fewer would leave
//! too few buckets to share out). Not when the network has a *hub*, a
//! process that synchronises with at least half of the others (the bus of
//! CSMA/CD, the gate of train-gate): a party to most steps with one of the
//! others, it makes most steps change the key whichever processes it
//! holds, and measured there (csmacd 13, train_gate 6, the hub left out of
//! the key) the key saved nothing and its moved buckets cost states stored
//! twice; such networks, and those whose key would take every process,
//! key on the whole discrete state as before.
//!
//! **Why buckets move.** Which key values the states have depends on the
//! model, and so would the workers' shares: measured with a fixed split,
//! 59/41 on csmacd 12 and 63/37 on train_gate 5. Each worker counts the
//! states it stores per bucket and layer; one that stored clearly more of
//! a layer than another gives it buckets carrying about half the
//! difference, once per layer (shares compared over shorter windows
//! swing with the layer gate's waits, and buckets then moved back and
//! forth thousands of times, fischer 11 storing twice its states). A
//! state of a moved bucket that its old owner had stored may then be
//! stored again by the new one: work done twice (`moved` in the
//! statistics counts the buckets handed over), never a wrong verdict,
//! since each worker only drops a state its own passed list covers (the
//! module doc of [`super`] says why any split is sound).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use rustc_hash::FxBuildHasher;
use std::hash::{BuildHasher, Hash, Hasher};

use super::gate::Padded;
use crate::model::typed::Dir;
use crate::network::{ChannelIndex, Network};
use crate::semantics::Discrete;

/// Buckets per search.
const BUCKETS: usize = 1024;
/// Fewer combinations of the key's locations than this spread too little.
const SPREAD: u64 = BUCKETS as u64;
/// A layer whose shares differ by less than this part of the larger one
/// (or by fewer than [`FEW`] states) is left alone.
const SLACK: u64 = 3;
const FEW: u64 = 1024;

pub struct Owners {
    /// The processes whose locations choose a state's bucket; empty: the
    /// whole discrete state does.
    key: Box<[usize]>,
    /// Each bucket's worker.
    table: Box<[AtomicU32]>,
    /// Per worker and depth modulo 3: the depth (high half) and the states
    /// the worker stored at that depth (low half), written by that worker
    /// alone as it stores them (on its own cache line, read by another
    /// once per layer).
    layers: Box<[Padded<[AtomicU64; 3]>]>,
}

impl Owners {
    pub fn new(net: &Network, workers: usize) -> Owners {
        Owners {
            key: key(net).into_boxed_slice(),
            table: (0..BUCKETS).map(|b| AtomicU32::new((b % workers) as u32)).collect(),
            layers: (0..workers).map(|_| Padded([0, 1, 2].map(|d| AtomicU64::new(d << 32)))).collect(),
        }
    }

    /// The bucket of `d`, whose [`discrete_hash`](crate::engine::store::discrete_hash)
    /// is `hash`.
    pub fn bucket(&self, d: &Discrete, hash: u64) -> usize {
        let h = if self.key.is_empty() {
            hash
        } else {
            let mut h = FxBuildHasher.build_hasher();
            for &p in self.key.iter() {
                d.locs[p].hash(&mut h);
            }
            h.finish()
        };
        // A multiplication spreads every bit of the hash into the top ones:
        // the passed lists file states by the low bits of the same hash.
        ((h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) % BUCKETS as u64) as usize
    }

    pub fn owner(&self, bucket: usize) -> usize {
        self.table[bucket].load(Ordering::Relaxed) as usize
    }
}

/// One worker's view of the balance: the states it stored per bucket at
/// the depth it expands, the one before and the next (by the depth modulo
/// 3).
pub struct Balance {
    per_bucket: [Vec<u32>; 3],
    /// The depth each of `per_bucket` counts, and its states.
    depths: [u32; 3],
    counts: [u64; 3],
    /// Buckets this worker gave away.
    pub given: u64,
}

impl Balance {
    pub fn new() -> Balance {
        Balance { per_bucket: [0, 1, 2].map(|_| vec![0; BUCKETS]), depths: [0, 1, 2], counts: [0; 3], given: 0 }
    }

    /// Worker `me` stored a state of `bucket` at `depth`.
    pub fn stored(&mut self, owners: &Owners, me: usize, bucket: usize, depth: u32) {
        let slot = depth as usize % 3;
        if self.depths[slot] != depth {
            self.depths[slot] = depth;
            self.per_bucket[slot].fill(0);
            self.counts[slot] = 0;
        }
        self.per_bucket[slot][bucket] += 1;
        self.counts[slot] += 1;
        owners.layers[me].0[slot]
            .store(u64::from(depth) << 32 | self.counts[slot].min(u32::MAX.into()), Ordering::Relaxed);
    }

    /// Worker `me` begins to expand the states of `depth`, and compares the
    /// layer before: the layer gate let it, so that layer was expanded
    /// whole, and every worker's count of it is final (a worker that
    /// stored none of it has not written it: 0), while no worker can yet
    /// store states two layers deeper over it. When another worker stored
    /// clearly fewer, `me` gives it buckets carrying about half the
    /// difference: the states of the next layers follow their buckets.
    /// (Compared at the layer being begun, whose states may still be in
    /// transit, moves followed counts not yet complete: fischer 7 moved
    /// buckets in two runs of six and stored up to 7 % more states.)
    pub fn layer(&mut self, owners: &Owners, me: usize, depth: u32) {
        let Some(done) = depth.checked_sub(1) else { return };
        let slot = done as usize % 3;
        if self.depths[slot] != done {
            return;
        }
        let mine = self.counts[slot];
        let least = owners
            .layers
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != me)
            .map(|(k, l)| {
                let l = l.0[slot].load(Ordering::Relaxed);
                (if l >> 32 == u64::from(done) { l & u64::from(u32::MAX) } else { 0 }, k)
            })
            .min();
        if let Some((theirs, to)) = least
            && mine > theirs + (mine / SLACK).max(FEW)
        {
            self.give(owners, me, to, done, (mine - theirs) / 2);
        }
    }

    /// Hands buckets of `me` carrying about `want` of its states at
    /// `depth` to worker `to`, the busiest first while they fit.
    fn give(&mut self, owners: &Owners, me: usize, to: usize, depth: u32, want: u64) {
        let counts = &self.per_bucket[depth as usize % 3];
        let mut mine: Vec<(u32, usize)> =
            (0..BUCKETS).filter(|&b| counts[b] > 0 && owners.owner(b) == me).map(|b| (counts[b], b)).collect();
        mine.sort_unstable_by(|a, b| b.cmp(a));
        let mut left = want;
        for (n, b) in mine {
            if u64::from(n) <= left {
                owners.table[b].store(to as u32, Ordering::Relaxed);
                left -= u64::from(n);
                self.given += 1;
            }
        }
    }
}

/// The processes whose locations choose the bucket (the module doc says
/// which); empty when they would not spread the states.
fn key(net: &Network) -> Vec<usize> {
    let n = net.processes.len();
    if hubs(net).into_iter().any(|hub| hub) {
        return Vec::new();
    }
    let mut key = Vec::new();
    let mut spread = 1u64;
    for p in 0..n {
        if key.len() >= n.div_ceil(2) && spread >= SPREAD {
            break;
        }
        key.push(p);
        spread = spread.saturating_mul(net.processes[p].locations.len() as u64);
    }
    // Too few combinations, or all processes: no locality to keep.
    if spread < SPREAD || key.len() == n { Vec::new() } else { key }
}

/// Per process, whether it is a hub: it synchronises with at least half
/// of the other processes (and with two or more).
fn hubs(net: &Network) -> Vec<bool> {
    let n = net.processes.len();
    // Per channel, the processes sending and those receiving on it.
    let mut sides: Vec<[Vec<usize>; 2]> = vec![[Vec::new(), Vec::new()]; net.channels.len()];
    for (p, proc_) in net.processes.iter().enumerate() {
        for e in &proc_.edges {
            let Some(s) = &e.sync else { continue };
            let channels = match &s.channel {
                ChannelIndex::Fixed(c) => *c..*c + 1,
                ChannelIndex::Dynamic { base, len, .. } => *base..*base + *len,
            };
            for c in channels {
                let side = &mut sides[c as usize][usize::from(s.dir == Dir::Receive)];
                if side.last() != Some(&p) {
                    side.push(p);
                }
            }
        }
    }
    let mut partners: Vec<Vec<usize>> = vec![Vec::new(); n];
    for [send, receive] in &sides {
        for (a, b) in [(send, receive), (receive, send)] {
            for &p in a {
                partners[p].extend(b.iter().filter(|&&q| q != p));
            }
        }
    }
    partners
        .iter_mut()
        .map(|q| {
            q.sort_unstable();
            q.dedup();
            q.len() >= 2 && 2 * q.len() + 1 >= n
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::load::load_model;
    use crate::syntax::yaml::Source;

    fn net(path: &str) -> Network {
        let text = std::fs::read_to_string(path).expect("a model of the repository");
        let loaded = load_model(&Source::new(path, text)).expect("a valid model");
        crate::network::build(&loaded.model).expect("a network")
    }

    fn names(net: &Network, key: &[usize]) -> Vec<String> {
        key.iter().map(|&p| net.processes[p].name.clone()).collect()
    }

    #[test]
    fn the_key_is_half_of_the_processes_without_a_hub() {
        let fischer = net("models/bench/fischer_8.yaml");
        assert_eq!(key(&fischer), [0, 1, 2, 3, 4], "half of eight processes, then more: 4^5 values");
        assert!(hubs(&fischer).iter().all(|h| !h));
        for (path, hub) in [("models/bench/csmacd_8.yaml", "Bus"), ("models/bench/train_gate_5.yaml", "Gate")] {
            let net = net(path);
            let found: Vec<usize> = (0..net.processes.len()).filter(|&p| hubs(&net)[p]).collect();
            assert_eq!(names(&net, &found), [hub], "{path}");
            assert!(key(&net).is_empty(), "{path}: the whole state is the key");
        }
        // Two processes cannot spread the states: the whole state is the key.
        assert!(key(&net("models/bench/fischer_2.yaml")).is_empty());
    }

    /// Worker 0 stored 2 200 states of a layer in eight of its buckets;
    /// the share of buckets it gives worker 1 carries about half the
    /// difference with what worker 1 stored of that layer.
    #[test]
    fn a_busier_worker_gives_buckets_worth_half_the_difference() {
        let net = net("models/bench/fischer_8.yaml");
        let moved = |theirs: Option<u64>| {
            let (owners, mut mine) = (Owners::new(&net, 2), Balance::new());
            let buckets: Vec<usize> = (0..BUCKETS).filter(|&b| owners.owner(b) == 0).take(8).collect();
            for (k, &b) in buckets.iter().enumerate() {
                for _ in 0..(100 + 50 * k) {
                    mine.stored(&owners, 0, b, 3);
                }
            }
            if let Some(n) = theirs {
                owners.layers[1].0[0].store(3 << 32 | n, Ordering::Relaxed);
            }
            mine.layer(&owners, 0, 4);
            let carried = buckets.iter().enumerate().filter(|&(_, &b)| owners.owner(b) == 1);
            (mine.given, carried.map(|(k, _)| 100 + 50 * k as u64).sum::<u64>())
        };
        let (given, carried) = moved(Some(500));
        assert!(given > 0 && (700..=850).contains(&carried), "{given} buckets carrying {carried} of 2 200");
        // Worker 1 stored none of that layer (its count is of an older one).
        let (given, carried) = moved(None);
        assert!(given > 0 && (900..=1_100).contains(&carried), "{given} buckets carrying {carried} of 2 200");
        // Within the slack: left alone.
        assert_eq!(moved(Some(2_000)), (0, 0));
    }
}
