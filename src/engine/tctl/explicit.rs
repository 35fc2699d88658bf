//! Sets of states with explicit data: maps discrete state → federation
//! over the space of the forward pass ([`super::space`]), the fixpoints of
//! [`super::fixpoint`].

use crate::domain::federation::Federation;
use crate::engine::Unknown;
use crate::engine::tctl::fixpoint::{Fixpoints, holds_at_zero};
use crate::engine::tctl::pre::{Map, at_zero, intersect, lift, reduced, union};
use crate::engine::tctl::sat::Stop;
use crate::engine::tctl::sets::{self, Sets};
use crate::model::formula::{Formula, TimeBound};
use crate::model::types::Property;
use crate::network::Network;
use crate::semantics::{ZoneGraph, ZoneState};

pub struct Explicit<'a, 'n, 's, 'w> {
    pub fix: Fixpoints<'s, 'w>,
    pub zg: &'a mut ZoneGraph<'n>,
    pub property: &'a Property,
    pub net: &'n Network,
}

impl Sets for Explicit<'_, '_, '_, '_> {
    type Set = Map;

    fn all(&mut self, level: usize) -> Map {
        self.fix.layer(level).all()
    }

    fn not(&mut self, level: usize, x: &Map) -> Map {
        self.fix.layer(level).complement(x)
    }

    fn union(&mut self, a: &Map, b: &Map) -> Map {
        union(a, b)
    }

    fn intersect(&mut self, a: &Map, b: &Map) -> Map {
        intersect(a, b)
    }

    fn includes(&mut self, a: &Map, b: &Map) -> bool {
        a.iter().zip(b).all(|(x, y)| x.is_subset_of(y))
    }

    fn lift(&mut self, x: &Map) -> Map {
        lift(x, 1)
    }

    fn at_zero(&mut self, level: usize, x: &Map) -> Map {
        at_zero(x, self.fix.layer(level + 1).dim)
    }

    fn within(&mut self, level: usize, x: &Map, b: TimeBound) -> Map {
        let z = self.fix.layer(level).dim - 1;
        x.iter().map(|f| sets::within(f, z, b)).collect()
    }

    fn outside(&mut self, level: usize, x: &Map, b: TimeBound) -> Map {
        let z = self.fix.layer(level).dim - 1;
        x.iter().map(|f| sets::outside(f, z, b)).collect()
    }

    fn until(&mut self, level: usize, stay: &Map, goal: &Map) -> Result<Map, Unknown> {
        self.fix.until(level, stay, goal)
    }

    fn tick(&mut self) -> Result<(), Unknown> {
        self.fix.tick()
    }

    /// A predicate over locations, data and clocks, per discrete state.
    fn atom(&mut self, f: &Formula) -> Result<Map, Stop> {
        let pred =
            self.net.state_formula(self.property, f).map_err(|d| Stop::Unknown(Unknown::Unsupported(d.message)))?;
        let space = self.fix.space;
        let mut out = Vec::with_capacity(space.len());
        for (d, inv) in space.invariant.iter().enumerate() {
            let s = ZoneState { discrete: space.discrete(d as u32).clone(), zone: inv.clone() };
            out.push(reduced(self.zg.sat(&pred, &s).map_err(Stop::Error)?));
        }
        Ok(out)
    }

    fn holds_initially(&mut self, x: &Map) -> bool {
        let space = self.fix.space;
        space.initial.iter().all(|&d| holds_at_zero(&x[d as usize], space.dim))
    }

    /// The complement of the timed predecessor of the sources of the steps
    /// (guard, and resets into the target invariant).
    fn deadlock(&mut self) -> Result<Map, Stop> {
        let space = self.fix.space;
        let layer = self.fix.layer(0);
        let mut out = Vec::with_capacity(space.len());
        for d in 0..space.len() {
            let mut enabled = Federation::empty();
            for &id in &space.outgoing[d] {
                let step = &space.steps[id as usize];
                let target = Federation::from_zone(layer.invariant[step.to as usize].clone());
                enabled = enabled.union(layer.pre_step(id, &step.resets, &target));
            }
            let live = layer.pre_time(space, d, &enabled, &Federation::empty());
            out.push(reduced(live.complement_within(&layer.invariant[d])));
        }
        Ok(out)
    }
}
