//! The two fixpoints every operator is built from: until (a least
//! fixpoint, by a work list) and always over time-divergent runs (a
//! greatest fixpoint of untils through a tick clock).

use crate::domain::federation::Federation;
use crate::domain::zone::Bound;
use crate::engine::Unknown;
use crate::engine::limits::Watch;
use crate::engine::tctl::pre::{Layer, Map, at_zero, intersect, lift, reduced};
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

    fn tick(&mut self) -> Result<(), Unknown> {
        self.steps += 1;
        match self.watch.check(self.steps) {
            Some(why) => Err(why),
            None => Ok(()),
        }
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
            self.steps += 1;
            if let Some(why) = self.watch.check(self.steps) {
                return Err(why);
            }
            let layer = &self.layers[level];
            let new_here = std::mem::take(&mut delta[d]);
            for &id in &space.incoming[d] {
                let step = &space.steps[id as usize];
                let from = step.from as usize;
                let before = layer.pre_step(id, step, &new_here).intersect(&stay[from]);
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
                    let before = layer.pre_step(id, step, entered).intersect(&stay[from]);
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

    /// `EG phi` over time-divergent runs: the states with a divergent run
    /// along which `phi` holds at every point. With a tick clock `u`
    /// appended, the greatest fixpoint of
    /// `X = phi ∩ {v | (v, u = 0) ∈ E[phi U (X ∧ u >= 1)]}`: a run that keeps
    /// `phi` and comes back to X after one time unit, again and again,
    /// lets time diverge; conversely every point of a divergent `phi`-run
    /// is followed, one time unit later, by another.
    pub fn always_divergent(&mut self, level: usize, phi: &Map) -> Result<Map, Unknown> {
        let tick = self.layer(level).dim;
        let stay = lift(phi, 1);
        let mut x = phi.clone();
        loop {
            self.tick()?;
            let goal: Map = lift(&x, 1).iter().map(|f| f.constrain(0, tick, Bound::le(-1))).collect();
            let back = self.until(level + 1, &stay, &goal)?;
            let next = intersect(&at_zero(&back, tick + 1), &x);
            // next ⊆ x always: stable once x ⊆ next.
            if x.iter().zip(&next).all(|(a, b)| a.is_subset_of(b)) {
                return Ok(next);
            }
            x = next;
        }
    }

    /// The states with some time-divergent run.
    pub fn divergent(&mut self, level: usize) -> Result<Map, Unknown> {
        let all = self.layer(level).all();
        self.always_divergent(level, &all)
    }
}

/// Whether the valuation with every clock 0 lies in `f`.
pub fn holds_at_zero(f: &Federation, dim: usize) -> bool {
    Federation::from_zone(crate::domain::zone::Dbm::zero(dim)).is_subset_of(f)
}
