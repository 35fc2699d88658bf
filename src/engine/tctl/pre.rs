//! Predecessor operators on maps `discrete state → federation`, at a level
//! (the number of auxiliary clocks appended after the model's, which no
//! step resets and every delay advances).

use crate::domain::federation::Federation;
use crate::domain::zone::Dbm;
use crate::engine::tctl::space::Space;

/// A set of states: per discrete state of the space, the valuations in it
/// (always inside the invariant).
pub type Map = Vec<Federation>;

/// The space's invariants and guards with the level's auxiliary clocks
/// appended (free: no invariant or guard mentions them).
pub struct Layer {
    pub dim: usize,
    pub invariant: Vec<Dbm>,
    guard: Vec<Dbm>,
}

impl Layer {
    pub fn new(space: &Space, extra: usize) -> Layer {
        Layer::of(space.dim, &space.invariant, space.steps.iter().map(|s| &s.guard), extra)
    }

    /// The layer of invariants `invariant` and step guards `guards` over
    /// `dim` (clocks plus one), `extra` clocks appended.
    pub fn of<'g>(dim: usize, invariant: &[Dbm], guards: impl Iterator<Item = &'g Dbm>, extra: usize) -> Layer {
        Layer {
            dim: dim + extra,
            invariant: invariant.iter().map(|z| z.with_clocks_appended(extra)).collect(),
            guard: guards.map(|g| g.with_clocks_appended(extra)).collect(),
        }
    }

    /// Every state: the invariants.
    pub fn all(&self) -> Map {
        self.invariant.iter().map(|z| Federation::from_zone(z.clone())).collect()
    }

    /// `inv \ x` per discrete state.
    pub fn complement(&self, x: &Map) -> Map {
        x.iter().zip(&self.invariant).map(|(f, inv)| f.complement_within(inv)).collect()
    }

    /// The discrete predecessor by one step of `x ⊆ Inv(step.to)`: the
    /// valuations meeting the guard and the source invariant whose image by
    /// the resets lies in `x` (the target invariant holds since `x` is
    /// inside it).
    pub fn pre_step(&self, id: u32, resets: &[(usize, i32)], x: &Federation) -> Federation {
        let mut back = x.clone();
        for &(clock, value) in resets.iter().rev() {
            back = back.reset_pre(clock, value);
        }
        back.intersect_zone(&self.guard[id as usize])
    }

    /// The timed predecessor in discrete state `d`: the valuations from
    /// which a delay allowed there leads into `goal` without meeting
    /// `avoid`. The invariants are upper bounds, so the delays leading
    /// into `goal ⊆ Inv` stay inside `Inv` throughout. Where no time may
    /// pass, `goal` itself.
    pub fn pre_time(&self, space: &Space, d: usize, goal: &Federation, avoid: &Federation) -> Federation {
        if !space.delay[d] {
            return goal.clone();
        }
        self.pre_delay(d, goal, avoid)
    }

    /// The timed predecessor in discrete state (or control) `d` where time
    /// may pass.
    pub fn pre_delay(&self, d: usize, goal: &Federation, avoid: &Federation) -> Federation {
        goal.pred_t(avoid).intersect_zone(&self.invariant[d])
    }
}

/// `x` with `extra` free clocks appended.
pub fn lift(x: &Map, extra: usize) -> Map {
    x.iter().map(|f| f.with_clocks_appended(extra)).collect()
}

/// The states of `x` where the last clock (of `dim`) is 0, projected onto
/// the clocks before it.
pub fn at_zero(x: &Map, dim: usize) -> Map {
    let last = dim - 1;
    x.iter().map(|f| f.constrain(last, 0, crate::domain::zone::Bound::le(0)).projected_to(last)).collect()
}

pub fn union(a: &Map, b: &Map) -> Map {
    a.iter().zip(b).map(|(x, y)| reduced(x.clone().union(y.clone()))).collect()
}

pub fn intersect(a: &Map, b: &Map) -> Map {
    a.iter().zip(b).map(|(x, y)| reduced(x.intersect(y))).collect()
}

pub fn reduced(mut f: Federation) -> Federation {
    f.reduce();
    f
}
