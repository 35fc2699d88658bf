//! The discrete states of the passed list, interned in two flat arrays.
//!
//! Every discrete state of a network has as many locations and data values
//! as any other, so the `k`-th state is a fixed-size slice of each array.
//! Against a set of `Discrete`s (two heap blocks each) a look-up touches
//! one slice instead of three scattered blocks, which is what the look-up
//! costs: on large models it is dominated by cache misses, not by
//! instructions. The memory is the values alone.

use std::hash::{BuildHasher, Hash, Hasher};

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use crate::semantics::Discrete;

#[derive(Default)]
pub struct Discretes {
    locs: Vec<u32>,
    data: Vec<i64>,
    /// Locations and data values per state (fixed by the first one).
    width: (usize, usize),
    index: HashTable<u32>,
    len: u32,
}

/// The hash `d` is filed under (the Fx hash of its locations and data),
/// for a caller that needs it too and hands it to `Store::insert_hashed`.
pub fn discrete_hash(d: &Discrete) -> u64 {
    hash(&d.locs, &d.data)
}

fn hash(locs: &[u32], data: &[i64]) -> u64 {
    let mut h = FxBuildHasher.build_hasher();
    locs.hash(&mut h);
    data.hash(&mut h);
    h.finish()
}

impl Discretes {
    fn slices(&self, id: u32) -> (&[u32], &[i64]) {
        let (l, d) = self.width;
        let k = id as usize;
        (&self.locs[k * l..(k + 1) * l], &self.data[k * d..(k + 1) * d])
    }

    /// The id of `d`, whose [`discrete_hash`] is `h`, interned if new; whether
    /// it was new.
    pub fn intern(&mut self, d: &Discrete, h: u64) -> (u32, bool) {
        if self.len == 0 {
            self.width = (d.locs.len(), d.data.len());
        }
        debug_assert_eq!(self.width, (d.locs.len(), d.data.len()), "one network's states");
        debug_assert_eq!(h, discrete_hash(d));
        if let Some(&id) = self.index.find(h, |&id| self.slices(id) == (&d.locs[..], &d.data[..])) {
            return (id, false);
        }
        let id = self.len;
        self.locs.extend_from_slice(&d.locs);
        self.data.extend_from_slice(&d.data);
        self.len += 1;
        let Discretes { locs, data, width: (l, w), index, .. } = self;
        index.insert_unique(h, id, |&k| {
            let k = k as usize;
            hash(&locs[k * *l..(k + 1) * *l], &data[k * *w..(k + 1) * *w])
        });
        (id, true)
    }

    /// Whether state `id` is `d`.
    pub fn is(&self, id: u32, d: &Discrete) -> bool {
        self.slices(id) == (&d.locs[..], &d.data[..])
    }

    /// State `id` copied into `out` (without allocating when `out` is of
    /// the same network).
    pub fn load(&self, id: u32, out: &mut Discrete) {
        let (locs, data) = self.slices(id);
        if (out.locs.len(), out.data.len()) == self.width {
            out.locs.copy_from_slice(locs);
            out.data.copy_from_slice(data);
        } else {
            *out = self.get(id);
        }
    }

    /// State `id` as a new `Discrete`.
    pub fn get(&self, id: u32) -> Discrete {
        let (locs, data) = self.slices(id);
        Discrete { locs: locs.into(), data: data.into() }
    }

    /// Bytes held (the arrays and the index's table: an id and a control
    /// byte per bucket).
    pub fn bytes(&self) -> u64 {
        (self.locs.capacity() * 4 + self.data.capacity() * 8 + self.index.capacity() * 5) as u64
    }
}
