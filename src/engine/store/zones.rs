//! The zones of the passed list, packed ([`ClockSet::pack`]: a DBM in its
//! minimal constraint form), hash-consed and counted: a zone is held
//! once however many live nodes share it, and released when the last of
//! them is covered. A covered node keeps only its place in the tree of
//! paths (parent and step); its zone, when a trace needs it, is recomputed
//! from its ancestors ([`super::Store::path_states`]).

use std::hash::BuildHasher;

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use crate::domain::ClockSet;

struct Slot<S: ClockSet> {
    /// `None` once released (the slot is then on the free list).
    zone: Option<S::Packed>,
    /// Live nodes holding it.
    refs: u32,
}

pub struct Zones<S: ClockSet> {
    slots: Vec<Slot<S>>,
    /// Slot ids, found by the hash of their zone.
    index: HashTable<u32>,
    free: Vec<u32>,
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
    pub fn new() -> Self {
        Zones { slots: Vec::new(), index: HashTable::new(), free: Vec::new(), heap: 0, peak_heap: 0 }
    }

    /// The id of `zone`, stored if new, with one more holder.
    pub fn acquire(&mut self, zone: &S) -> u32 {
        let zone = zone.pack();
        let h = hash(&zone);
        let Zones { slots, index, free, .. } = self;
        if let Some(&id) = index.find(h, |&id| slots[id as usize].zone.as_ref() == Some(&zone)) {
            slots[id as usize].refs += 1;
            return id;
        }
        let bytes = block(S::packed_bytes(&zone));
        let slot = Slot { zone: Some(zone), refs: 1 };
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
        index.insert_unique(h, id, |&id| hash(slots[id as usize].zone.as_ref().expect("an indexed zone is held")));
        self.heap += bytes;
        self.peak_heap = self.peak_heap.max(self.heap);
        id
    }

    /// One holder of zone `id` fewer; the zone is dropped with the last.
    pub fn release(&mut self, id: u32) {
        let slot = &mut self.slots[id as usize];
        slot.refs -= 1;
        if slot.refs > 0 {
            return;
        }
        let zone = slot.zone.take().expect("a held zone");
        self.heap -= block(S::packed_bytes(&zone));
        match self.index.find_entry(hash(&zone), |&x| x == id) {
            Ok(entry) => {
                entry.remove();
            }
            Err(_) => unreachable!("a held zone is indexed"),
        }
        self.free.push(id);
    }

    /// Zone `id` as packed, which must be held.
    pub fn get(&self, id: u32) -> &S::Packed {
        self.slots[id as usize].zone.as_ref().expect("a held zone")
    }

    /// Bytes held now, and at most so far (the tables' capacities never
    /// shrink, so only the zones themselves differ).
    pub fn bytes(&self) -> (u64, u64) {
        let tables = (self.slots.capacity() * std::mem::size_of::<Slot<S>>()
            + self.index.capacity() * (4 + 1)
            + self.free.capacity() * 4) as u64;
        (tables + self.heap, tables + self.peak_heap)
    }
}
