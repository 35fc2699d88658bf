//! The operators of [`crate::engine::tctl::sets::Sets`] on per-control
//! lists of (data BDD, federation) ([`Pairs`]).
//!
//! - Boolean operations refine the two partitions within `R_c`.
//! - The discrete predecessor by a step `c → c'` of a pair `(b, G)` is
//!   `(pre(b), reset_pre(G) ∩ guard)`, `pre(b)` the valuations of `R_c`
//!   the step's relation maps into `b` ([`pre_data`]); pairs from different
//!   `b` may overlap (a `select` may lead one valuation to several), so
//!   they are joined by union.
//! - The timed predecessor refines the goal's and avoid's partitions by the
//!   data where time may pass: there `pred_t(G, A) ∩ Inv`, elsewhere `G`.
//! - Formula clocks act on the federations only.
//!
//! For one data valuation every operation is the explicit engine's on its
//! discrete state, so the termination argument of `tctl/mod.rs` holds per
//! valuation, and there are finitely many.

use crate::bdd::{Encoding, FALSE, Manager};
use crate::domain::federation::Federation;
use crate::domain::zone::Bound;
use crate::engine::Unknown;
use crate::engine::limits::Watch;
use crate::engine::symdata::search::{self as data_search, cells, data_bounds};
use crate::engine::tctl::pre::Layer;
use crate::engine::tctl::sat::Stop;
use crate::engine::tctl::sets::{self, Sets};
use crate::model::formula::{Formula, TimeBound};
use crate::model::types::Property;
use crate::network::{Network, StateFormula};
use crate::semantics::{Discrete, ZoneGraph, ZoneState};

use super::pairs::Pairs;
use super::space::{Space, pre_data};

/// A set of states: per control of the space, its pairs.
pub type Set = Vec<Pairs>;

pub struct Bdds<'a, 'n, 'w> {
    pub m: &'a mut Manager,
    pub enc: &'a Encoding,
    pub space: &'a Space,
    pub zg: &'a mut ZoneGraph<'n>,
    pub net: &'n Network,
    pub property: &'a Property,
    layers: Vec<Layer>,
    watch: Watch<'w>,
    /// Work-list steps so far (after the forward search's expansions).
    pub steps: u64,
    /// A run-time error met on some reachable valuation (the sets then
    /// stop with an `Unknown`): the explicit engine reports it.
    pub met_error: bool,
    /// Why the sets stopped, when not supported yet.
    pub refused: Option<String>,
}

impl<'a, 'n, 'w> Bdds<'a, 'n, 'w> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        m: &'a mut Manager,
        enc: &'a Encoding,
        space: &'a Space,
        zg: &'a mut ZoneGraph<'n>,
        net: &'n Network,
        property: &'a Property,
        watch: Watch<'w>,
        visited: u64,
    ) -> Self {
        let layers = Vec::new();
        Bdds { m, enc, space, zg, net, property, layers, watch, steps: visited, met_error: false, refused: None }
    }

    fn layer(&mut self, level: usize) -> &Layer {
        while self.layers.len() <= level {
            let invariants: Vec<_> = self.space.controls.iter().map(|c| c.invariant.clone()).collect();
            let guards = self.space.steps.iter().map(|s| &s.guard);
            let l = Layer::of(self.space.dim, &invariants, guards, self.layers.len());
            self.layers.push(l);
        }
        &self.layers[level]
    }

    fn error(&mut self) -> Stop {
        self.met_error = true;
        Stop::Unknown(Unknown::Unsupported("a run-time error on some reachable valuation".into()))
    }

    fn refuse(&mut self, why: String) -> Stop {
        self.refused = Some(why.clone());
        Stop::Unknown(Unknown::Unsupported(why))
    }

    /// Per control, `op` of the two sets' pairs.
    fn each(&mut self, a: &Set, b: &Set, op: fn(&mut Manager, crate::bdd::Bdd, &Pairs, &Pairs) -> Pairs) -> Set {
        let space = self.space;
        (0..space.controls.len()).map(|c| op(self.m, space.controls[c].data, &a[c], &b[c])).collect()
    }

    /// Per control, `f` on every federation.
    fn map(&mut self, x: &Set, mut f: impl FnMut(&Federation) -> Federation) -> Set {
        x.iter().map(|p| p.map(self.m, &mut f)).collect()
    }

    /// The complement of `x` in control `c` at `level`.
    fn not_in(&mut self, level: usize, c: usize, x: &Pairs) -> Pairs {
        let inv = self.layer(level).invariant[c].clone();
        let data = self.space.controls[c].data;
        Pairs::combine(self.m, data, x, &Pairs::default(), |f, _| f.complement_within(&inv))
    }

    /// The discrete predecessor by step `id` of `x` (in its target).
    fn pre_step(&mut self, level: usize, id: u32, x: &Pairs) -> Pairs {
        let space = self.space;
        let step = &space.steps[id as usize];
        let within = space.controls[step.from as usize].data;
        let mut out = Pairs::default();
        for (b, g) in &x.0 {
            let data = pre_data(self.m, self.enc, step, *b);
            if data == FALSE {
                continue;
            }
            let f = self.layer(level).pre_step(id, &step.resets, g);
            let mut one = Pairs::default();
            one.push(self.m, data, f);
            if !one.is_empty() {
                out = Pairs::union(self.m, within, &out, &one);
            }
        }
        out
    }

    /// The timed predecessor in control `c`: from where a delay allowed
    /// there leads into `goal` without meeting `avoid`.
    fn pre_time(&mut self, level: usize, c: usize, goal: &Pairs, avoid: &Pairs) -> Pairs {
        let space = self.space;
        let control = &space.controls[c];
        if control.delay == FALSE || goal.is_empty() {
            return goal.clone();
        }
        self.layer(level);
        let layer = &self.layers[level];
        let empty = Federation::empty();
        let still = self.m.not(control.delay);
        let mut out = Pairs::default();
        for (d, g, a) in Pairs::cells(self.m, control.data, goal, avoid, &empty) {
            if g.is_empty() {
                continue;
            }
            let (waits, stuck) = (self.m.and(d, control.delay), self.m.and(d, still));
            if waits != FALSE {
                out.push(self.m, waits, layer.pre_delay(c, g, a));
            }
            out.push(self.m, stuck, g.clone());
        }
        out
    }

    /// A state formula's states in control `c`.
    fn atom_in(&mut self, c: usize, pred: &StateFormula) -> Result<Pairs, Stop> {
        let space = self.space;
        let control = &space.controls[c];
        let enc = self.enc;
        let mut out = Pairs::default();
        if !pred.has_clock_atoms() {
            let s = match data_search::sat(self.m, enc, &control.locs, control.data, pred) {
                Ok(s) => s,
                Err(u) => return Err(self.refuse(u.0)),
            };
            if s.error != FALSE {
                return Err(self.error());
            }
            out.push(self.m, s.pass, Federation::from_zone(control.invariant.clone()));
            return Ok(out);
        }
        // On each cell the formula's data conditions and the clock bounds
        // it reads from the data are constant: one federation per cell.
        let mut conjs = Vec::new();
        pred.conjunctions(&mut conjs);
        let mut sides = Vec::new();
        for code in conjs.iter().filter_map(|c| c.data.as_ref()) {
            let s = match crate::bdd::step::guard(self.m, enc, &control.locs, control.data, code) {
                Ok(s) => s,
                Err(u) => return Err(self.refuse(u.0)),
            };
            if s.error != FALSE {
                return Err(self.error());
            }
            sides.push(s.pass);
        }
        let codes = data_bounds(conjs.iter().flat_map(|c| &c.clocks));
        let parts = match cells(self.m, enc, &control.locs, control.data, &codes, &sides) {
            Ok(Some(parts)) => parts,
            Ok(None) => return Err(self.error()),
            Err(u) => return Err(self.refuse(u.0)),
        };
        for (cell, v) in parts {
            let state = ZoneState {
                discrete: Discrete { locs: control.locs.clone(), data: v },
                zone: control.invariant.clone(),
            };
            match self.zg.sat(pred, &state) {
                Ok(f) => out.push(self.m, cell, f),
                Err(_) => return Err(self.error()),
            }
        }
        Ok(out)
    }
}

impl Sets for Bdds<'_, '_, '_> {
    type Set = Set;

    fn all(&mut self, level: usize) -> Set {
        self.layer(level);
        let layer = &self.layers[level];
        let mut out = Vec::with_capacity(self.space.controls.len());
        for (c, control) in self.space.controls.iter().enumerate() {
            let mut p = Pairs::default();
            p.push(self.m, control.data, Federation::from_zone(layer.invariant[c].clone()));
            out.push(p);
        }
        out
    }

    fn not(&mut self, level: usize, x: &Set) -> Set {
        (0..x.len()).map(|c| self.not_in(level, c, &x[c])).collect()
    }

    fn union(&mut self, a: &Set, b: &Set) -> Set {
        self.each(a, b, Pairs::union)
    }

    fn intersect(&mut self, a: &Set, b: &Set) -> Set {
        self.each(a, b, Pairs::intersect)
    }

    fn includes(&mut self, a: &Set, b: &Set) -> bool {
        let space = self.space;
        (0..a.len()).all(|c| Pairs::includes(self.m, space.controls[c].data, &a[c], &b[c]))
    }

    fn lift(&mut self, x: &Set) -> Set {
        self.map(x, |f| f.with_clocks_appended(1))
    }

    fn at_zero(&mut self, level: usize, x: &Set) -> Set {
        let last = self.layer(level + 1).dim - 1;
        self.map(x, |f| f.constrain(last, 0, Bound::le(0)).projected_to(last))
    }

    fn within(&mut self, level: usize, x: &Set, b: TimeBound) -> Set {
        let z = self.layer(level).dim - 1;
        self.map(x, |f| sets::within(f, z, b))
    }

    fn outside(&mut self, level: usize, x: &Set, b: TimeBound) -> Set {
        let z = self.layer(level).dim - 1;
        self.map(x, |f| sets::outside(f, z, b))
    }

    /// The work list of `tctl/fixpoint.rs`, per control: only what was
    /// added last is propagated (both predecessors distribute over union).
    fn until(&mut self, level: usize, stay: &Set, goal: &Set) -> Result<Set, Unknown> {
        let space = self.space;
        let avoid = self.not(level, stay);
        let mut x: Set = (0..space.controls.len()).map(|c| self.pre_time(level, c, &goal[c], &avoid[c])).collect();
        let mut delta = x.clone();
        let mut queued: Vec<bool> = x.iter().map(|p| !p.is_empty()).collect();
        let mut work: Vec<usize> = (0..space.controls.len()).filter(|&c| queued[c]).collect();
        while let Some(d) = work.pop() {
            queued[d] = false;
            self.tick()?;
            let new_here = std::mem::take(&mut delta[d]);
            for &id in &space.incoming[d] {
                let from = space.steps[id as usize].from as usize;
                let within = space.controls[from].data;
                let back = self.pre_step(level, id, &new_here);
                let before = Pairs::intersect(self.m, within, &back, &stay[from]);
                if before.is_empty() {
                    continue;
                }
                let added = self.pre_time(level, from, &before, &avoid[from]);
                let fresh = Pairs::combine(self.m, within, &added, &x[from], |a, b| a.subtract(b));
                if fresh.is_empty() {
                    continue;
                }
                x[from] = Pairs::union(self.m, within, &x[from], &fresh);
                delta[from] = Pairs::union(self.m, within, &delta[from], &fresh);
                if !queued[from] {
                    queued[from] = true;
                    work.push(from);
                }
            }
        }
        Ok(x)
    }

    fn tick(&mut self) -> Result<(), Unknown> {
        self.watch.step(&mut self.steps)
    }

    fn atom(&mut self, f: &Formula) -> Result<Set, Stop> {
        let pred =
            self.net.state_formula(self.property, f).map_err(|d| Stop::Unknown(Unknown::Unsupported(d.message)))?;
        if pred.mentions_deadlock() {
            return Err(self.refuse("`deadlock` inside a state formula of a TCTL property".into()));
        }
        (0..self.space.controls.len()).map(|c| self.atom_in(c, &pred)).collect()
    }

    /// Whether every initial valuation, clocks 0, is in `x`.
    fn holds_initially(&mut self, x: &Set) -> bool {
        let space = self.space;
        let zero = Federation::from_zone(crate::domain::zone::Dbm::zero(space.dim));
        space.initial.iter().all(|&(c, init)| {
            let mut good = FALSE;
            for (d, f) in &x[c as usize].0 {
                if zero.is_subset_of(f) {
                    good = self.m.or(good, *d);
                }
            }
            self.m.implies(init, good)
        })
    }

    /// The complement of the timed predecessor of the sources of the steps
    /// (guard, and resets into the target invariant).
    fn deadlock(&mut self) -> Result<Set, Stop> {
        let all = self.all(0);
        let space = self.space;
        let mut out = Vec::with_capacity(space.controls.len());
        for c in 0..space.controls.len() {
            let mut enabled = Pairs::default();
            for &id in &space.outgoing[c] {
                let back = self.pre_step(0, id, &all[space.steps[id as usize].to as usize]);
                enabled = Pairs::union(self.m, space.controls[c].data, &enabled, &back);
            }
            let live = self.pre_time(0, c, &enabled, &Pairs::default());
            out.push(self.not_in(0, c, &live));
        }
        Ok(out)
    }
}
