//! Federations: finite unions of zones, for what one zone cannot express
//! (deadlocked valuations, negated clock atoms).

use crate::domain::zone::Dbm;

/// A union of non-empty canonical zones of one dimension (not necessarily
/// disjoint). The empty list is the empty set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Federation {
    pub zones: Vec<Dbm>,
}

impl Federation {
    pub fn empty() -> Self {
        Federation { zones: Vec::new() }
    }

    pub fn from_zone(z: Dbm) -> Self {
        Federation { zones: if z.is_empty() { Vec::new() } else { vec![z] } }
    }

    pub fn is_empty(&self) -> bool {
        self.zones.is_empty()
    }

    pub fn union(mut self, other: Federation) -> Self {
        self.zones.extend(other.zones);
        self
    }

    /// `self ∩ other`. Cost: |self|·|other| intersections.
    pub fn intersect(&self, other: &Federation) -> Federation {
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

    /// `self \ z`, exactly (zone subtraction on each member).
    pub fn subtract_zone(&self, z: &Dbm) -> Federation {
        Federation { zones: self.zones.iter().flat_map(|a| a.subtract(z)).collect() }
    }

    /// `self \ other`.
    pub fn subtract(&self, other: &Federation) -> Federation {
        other.zones.iter().fold(self.clone(), |acc, z| acc.subtract_zone(z))
    }
}
