//! The zones of the passed list, hash-consed and counted: a zone is held
//! once however many live nodes share it, and released when the last of
//! them is covered. A covered node keeps only its place in the tree of
//! paths (parent and step); its zone, when a trace needs it, is recomputed
//! from its ancestors ([`super::Store::path_states`]).
//!
//! The most recently stored zones are held whole, up to a budget
//! ([`WHOLE_BYTES`] by default);
//! older ones are packed ([`ClockSet::pack`]: a DBM in its minimal
//! constraint form). Packing and unpacking cost O(dim³) each, more than a
//! comparison with a whole zone (O(dim²)), and a zone is compared with
//! every new zone of its discrete state and loaded once to be expanded:
//! where the live zones fit in the budget (fddi: few of them, 37 clocks)
//! none is ever packed, and where they do not (csmacd: every visited zone
//! stays live) memory follows the packed size.

use std::collections::VecDeque;
use std::hash::BuildHasher;

use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashSet};

use crate::domain::ClockSet;

/// Heap bytes of the zones held whole, at most, by default.
pub const WHOLE_BYTES: u64 = 16 << 20;

/// A zone as held.
pub enum Held<S: ClockSet> {
    Whole(S),
    Packed(S::Packed),
}

impl<S: ClockSet> Held<S> {
    fn bytes(&self) -> u64 {
        block(match self {
            Held::Whole(z) => z.heap_bytes(),
            Held::Packed(p) => S::packed_bytes(p),
        })
    }

    /// Whether it is `zone`; a packed zone is unpacked into `scratch`
    /// (cheaper than packing `zone`: O(dim²) per kept entry, few).
    fn is(&self, zone: &S, scratch: &mut Option<S>) -> bool {
        match self {
            Held::Whole(z) => z == zone,
            Held::Packed(p) => match scratch {
                Some(s) => {
                    S::unpack_into(p, s);
                    s == zone
                }
                None => scratch.insert(S::unpack(p)) == zone,
            },
        }
    }
}

struct Slot<S: ClockSet> {
    /// `None` once released (the slot is then on the free list).
    zone: Option<Held<S>>,
    /// The hash of the zone whole (a packed zone is not hashed again).
    hash: u64,
    /// Live nodes holding it.
    refs: u32,
}

pub struct Zones<S: ClockSet> {
    slots: Vec<Slot<S>>,
    /// Slot ids, found by the hash of their zone.
    index: HashTable<u32>,
    free: Vec<u32>,
    /// Ids of the zones held whole, oldest first; some may have been
    /// released since (and their slot reused: then it is packed early).
    whole: VecDeque<u32>,
    /// Heap bytes of the zones held whole, at most.
    whole_bytes: u64,
    /// How many zones are held whole, and their heap bytes.
    whole_live: usize,
    whole_heap: u64,
    /// A packed zone unpacked, to compare with a new one.
    scratch: Option<S>,
    /// Heap bytes of the zones held now, and at most so far.
    heap: u64,
    peak_heap: u64,
}

/// A heap block as the allocator sees it: the request rounded up to 16
/// bytes plus a header.
pub(super) fn block(bytes: usize) -> u64 {
    if bytes == 0 { 0 } else { (bytes.div_ceil(16) * 16 + 16) as u64 }
}

fn hash<P: std::hash::Hash>(zone: &P) -> u64 {
    FxBuildHasher.hash_one(zone)
}

impl<S: ClockSet> Zones<S> {
    pub fn new(whole_bytes: u64) -> Self {
        Zones {
            whole_bytes,
            slots: Vec::new(),
            index: HashTable::new(),
            free: Vec::new(),
            whole: VecDeque::new(),
            whole_live: 0,
            whole_heap: 0,
            scratch: None,
            heap: 0,
            peak_heap: 0,
        }
    }

    /// The id of `zone`, stored (whole) if new, with one more holder.
    pub fn acquire(&mut self, zone: &S) -> u32 {
        let h = hash(zone);
        let Zones { slots, index, free, scratch, .. } = self;
        let found = index.find(h, |&id| {
            let slot = &slots[id as usize];
            slot.hash == h && slot.zone.as_ref().is_some_and(|z| z.is(zone, scratch))
        });
        if let Some(&id) = found {
            slots[id as usize].refs += 1;
            return id;
        }
        let held = Held::Whole(zone.clone());
        let bytes = held.bytes();
        let slot = Slot { zone: Some(held), hash: h, refs: 1 };
        let id = match free.pop() {
            Some(id) => {
                slots[id as usize] = slot;
                id
            }
            None => {
                slots.push(slot);
                (slots.len() - 1) as u32
            }
        };
        index.insert_unique(h, id, |&id| slots[id as usize].hash);
        self.heap += bytes;
        self.whole_live += 1;
        self.whole_heap += bytes;
        self.whole.push_back(id);
        self.pack_oldest();
        self.peak_heap = self.peak_heap.max(self.heap);
        id
    }

    /// Packs the oldest zones held whole until those fit in the budget.
    fn pack_oldest(&mut self) {
        while self.whole_heap > self.whole_bytes {
            let Some(id) = self.whole.pop_front() else { break };
            let slot = &mut self.slots[id as usize];
            if let Some(Held::Whole(z)) = &slot.zone {
                let packed = Held::Packed(z.pack());
                let before = slot.zone.replace(packed).as_ref().map_or(0, Held::bytes);
                self.whole_live -= 1;
                self.whole_heap -= before;
                self.heap = self.heap - before + slot.zone.as_ref().map_or(0, Held::bytes);
            }
        }
        // Ids released since they were queued are dropped once they
        // outnumber the zones still queued, so the queue stays within
        // twice the zones held whole.
        if self.whole.len() > 64 && self.whole.len() > 2 * self.whole_live {
            let slots = &self.slots;
            let mut seen = FxHashSet::default();
            // A reused id is queued twice: the later entry is its zone's.
            let is_whole = |id: u32| matches!(slots[id as usize].zone, Some(Held::Whole(_)));
            let kept: Vec<u32> =
                self.whole.iter().rev().copied().filter(|&id| is_whole(id) && seen.insert(id)).collect();
            self.whole = kept.into_iter().rev().collect();
        }
    }

    /// One holder of zone `id` fewer; the zone is dropped with the last.
    pub fn release(&mut self, id: u32) {
        let slot = &mut self.slots[id as usize];
        slot.refs -= 1;
        if slot.refs > 0 {
            return;
        }
        let zone = slot.zone.take().expect("a held zone");
        self.heap -= zone.bytes();
        if let Held::Whole(_) = zone {
            self.whole_live -= 1;
            self.whole_heap -= zone.bytes();
        }
        match self.index.find_entry(slot.hash, |&x| x == id) {
            Ok(entry) => {
                entry.remove();
            }
            Err(_) => unreachable!("a held zone is indexed"),
        }
        self.free.push(id);
    }

    /// Zone `id`, which must be held.
    pub fn get(&self, id: u32) -> &Held<S> {
        self.slots[id as usize].zone.as_ref().expect("a held zone")
    }
    /// Bytes held now, and at most so far (the tables' capacities never
    /// shrink, so only the zones themselves differ).
    pub fn bytes(&self) -> (u64, u64) {
        let tables = (self.slots.capacity() * std::mem::size_of::<Slot<S>>()
            + self.index.capacity() * (4 + 1)
            + self.free.capacity() * 4
            + self.whole.capacity() * 4) as u64;
        (tables + self.heap, tables + self.peak_heap)
    }
}
