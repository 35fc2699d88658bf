//! The least fixpoint every operator is built from, with explicit data:
//! until, by a work list (always over time-divergent runs, a greatest
//! fixpoint of untils through a tick clock, is [`super::sets::Sets::always_divergent`]).

use crate::domain::federation::Federation;
use crate::engine::Unknown;
use crate::engine::limits::Watch;
use crate::engine::tctl::pre::{Layer, Map, reduced};
use crate::engine::tctl::space::Space;

/// The fixpoints over one space, with the layers built so far (level `k`
/// has `k` auxiliary clocks) and the limits.
pub struct Fixpoints<'s, 'w> {
    pub space: &'s Space,
    layers: Vec<Layer>,
    watch: Watch<'w>,
    /// Work-list steps so far, after the `visited` of the forward pass:
    /// the engine's `visited`, which `--max-states` bounds.
    pub steps: u64,
}

impl<'s, 'w> Fixpoints<'s, 'w> {
    pub fn new(space: &'s Space, watch: Watch<'w>, visited: u64) -> Self {
        Fixpoints { space, layers: Vec::new(), watch, steps: visited }
    }

    pub fn layer(&mut self, level: usize) -> &Layer {
        while self.layers.len() <= level {
            let l = Layer::new(self.space, self.layers.len());
            self.layers.push(l);
        }
        &self.layers[level]
    }

    pub fn tick(&mut self) -> Result<(), Unknown> {
        self.watch.step(&mut self.steps)
    }

    /// `E[stay U goal]` over run prefixes: the states with a run that
    /// reaches `goal` while every earlier point (every instant of every
    /// delay) is in `stay`. Pre: `goal ⊆ stay`. The least fixpoint of
    /// `X = pre_t(goal ∪ (stay ∩ pre_d(X)), not stay)`; since both
    /// predecessors distribute over union, only what was added last is
    /// propagated (semi-naive evaluation). The result is reduced.
    pub fn until(&mut self, level: usize, stay: &Map, goal: &Map) -> Result<Map, Unknown> {
        self.layer(level);
        let space = self.space;
        let layer = &self.layers[level];
        let avoid = layer.complement(stay);
        let mut x: Map = (0..space.len()).map(|d| reduced(layer.pre_time(space, d, &goal[d], &avoid[d]))).collect();
        let mut delta = x.clone();
        let mut queued: Vec<bool> = x.iter().map(|f| !f.is_empty()).collect();
        let mut work: Vec<usize> = (0..space.len()).filter(|&d| queued[d]).collect();
        while let Some(d) = work.pop() {
            queued[d] = false;
            self.watch.step(&mut self.steps)?;
            let layer = &self.layers[level];
            let new_here = std::mem::take(&mut delta[d]);
            for &id in &space.incoming[d] {
                let step = &space.steps[id as usize];
                let from = step.from as usize;
                let before = layer.pre_step(id, &step.resets, &new_here).intersect(&stay[from]);
                if before.is_empty() {
                    continue;
                }
                // A zone inside one member of X adds nothing; any other is
                // kept whole (exact subtraction costs more than it saves).
                // Each kept zone is new, and the zones the operators build
                // from the model's constants are finitely many, so this
                // ends too.
                let mut added = Federation::empty();
                for z in layer.pre_time(space, from, &before, &avoid[from]).zones {
                    if !x[from].covered_by_member(&z) && !added.covered_by_member(&z) {
                        added.zones.retain(|a| !a.is_subset_of(&z));
                        added.zones.push(z);
                    }
                }
                if added.is_empty() {
                    continue;
                }
                x[from].zones.retain(|m| !added.covered_by_member(m));
                x[from].zones.extend(added.zones.iter().cloned());
                delta[from].zones.extend(added.zones);
                if !queued[from] {
                    queued[from] = true;
                    work.push(from);
                }
            }
        }
        Ok(x.into_iter().map(reduced).collect())
    }

    /// The states of `E[stay U goal]` by rank, for walking a run down to
    /// `goal`: `ranks[0]` delays into `goal`, and a state first found in
    /// `ranks[k]` delays (inside `stay`) to a step into `ranks[k - 1]`.
    /// Kleene's iteration, each round from the previous round's zones
    /// only; a zone inside a member found before is not kept, so the
    /// rounds end as the work list of [`Fixpoints::until`] does. Pre:
    /// `goal ⊆ stay`.
    pub fn until_ranked(&mut self, level: usize, stay: &Map, goal: &Map) -> Result<Vec<Map>, Unknown> {
        self.layer(level);
        let space = self.space;
        let layer = &self.layers[level];
        let avoid = layer.complement(stay);
        let first: Map = (0..space.len()).map(|d| reduced(layer.pre_time(space, d, &goal[d], &avoid[d]))).collect();
        let mut found = first.clone();
        let mut ranks = vec![first];
        loop {
            self.tick()?;
            let layer = &self.layers[level];
            let last = ranks.last().expect("a first rank");
            let mut round = vec![Federation::empty(); space.len()];
            for (to, entered) in last.iter().enumerate().filter(|(_, f)| !f.is_empty()) {
                for &id in &space.incoming[to] {
                    let step = &space.steps[id as usize];
                    let from = step.from as usize;
                    let before = layer.pre_step(id, &step.resets, entered).intersect(&stay[from]);
                    for z in layer.pre_time(space, from, &before, &avoid[from]).zones {
                        if !found[from].covered_by_member(&z) && !round[from].covered_by_member(&z) {
                            round[from].zones.push(z);
                        }
                    }
                }
            }
            if round.iter().all(Federation::is_empty) {
                return Ok(ranks);
            }
            for (f, r) in found.iter_mut().zip(&round) {
                f.zones.extend(r.zones.iter().cloned());
            }
            ranks.push(round);
        }
    }
}

/// Whether the valuation with every clock 0 lies in `f`.
pub fn holds_at_zero(f: &Federation, dim: usize) -> bool {
    Federation::from_zone(crate::domain::zone::Dbm::zero(dim)).is_subset_of(f)
}
