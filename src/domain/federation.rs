//! Federations: finite unions of convex sets (zones), for what one cannot
//! express (deadlocked valuations, negated clock atoms).

use crate::domain::ClockSet;
use crate::domain::zone::Dbm;

/// A union of non-empty sets of one dimension (not necessarily disjoint).
/// The empty list is the empty set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Federation<S = Dbm> {
    pub zones: Vec<S>,
}

impl<S: ClockSet> Default for Federation<S> {
    fn default() -> Self {
        Federation { zones: Vec::new() }
    }
}

impl<S: ClockSet> Federation<S> {
    pub fn empty() -> Self {
        Self::default()
    }

    pub fn from_zone(z: S) -> Self {
        Federation { zones: if z.is_empty() { Vec::new() } else { vec![z] } }
    }

    pub fn is_empty(&self) -> bool {
        self.zones.is_empty()
    }

    pub fn union(mut self, other: Federation<S>) -> Self {
        self.zones.extend(other.zones);
        self
    }

    /// `self ∩ other`. Cost: |self|·|other| intersections.
    pub fn intersect(&self, other: &Federation<S>) -> Federation<S> {
        let mut zones = Vec::new();
        for a in &self.zones {
            for b in &other.zones {
                let mut z = a.clone();
                if z.intersect(b) {
                    zones.push(z);
                }
            }
        }
        Federation { zones }
    }

    /// `self \ z`, exactly (subtraction on each member).
    pub fn subtract_zone(&self, z: &S) -> Federation<S> {
        Federation { zones: self.zones.iter().flat_map(|a| a.subtract(z)).collect() }
    }

    /// `self \ other`.
    pub fn subtract(&self, other: &Federation<S>) -> Federation<S> {
        other.zones.iter().fold(self.clone(), |acc, z| acc.subtract_zone(z))
    }
}
