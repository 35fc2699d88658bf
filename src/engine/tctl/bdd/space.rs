//! The state space the fixpoints run on with BDD data: the controls
//! (location vector, values of the explicit slots) a forward search with
//! BDD data reached, each with its reachable data `R_c`, its invariant, the
//! data where time may pass, and the steps between controls with their
//! clock guards, resets and data relations.
//!
//! Restricted to the reachable data as the explicit engine is to the
//! reachable discrete states, and for the same reason (`tctl/space.rs`).
//! The clock bounds of invariants and guards read explicit slots only
//! ([`crate::bdd::split`]), so one control has one invariant zone and a
//! step one guard zone; this is checked, and refused where it fails.

use crate::bdd::exec::Machine;
use crate::bdd::{Bdd, Encoding, FALSE, Manager, step, word};
use crate::domain::zone::Dbm;
use crate::engine::symdata::Reached;
use crate::engine::symdata::edges::grouped;
use crate::engine::symdata::search::{self, by_explicit, cells, data_bounds, urgent};
use crate::network::{Network, Update};
use crate::semantics::{Discrete, ZoneGraph};

pub struct Control {
    pub locs: Box<[u32]>,
    /// The reachable data `R_c`.
    pub data: Bdd,
    pub invariant: Dbm,
    /// The valuations of `data` where time may pass.
    pub delay: Bdd,
}

/// A step from control `from` to control `to`, for every valuation its
/// data relation takes there.
pub struct Step {
    pub from: u32,
    pub to: u32,
    /// The clock guard, intersected with the source invariant.
    pub guard: Dbm,
    /// `(clock, value)` in the order they run.
    pub resets: Vec<(usize, i32)>,
    /// Over the source's current bits, the select bits and the next bits
    /// of the written slots: the data guard, and each written slot's next
    /// value equal to what the updates give it (valuations whose updates
    /// are disabled left out).
    pub relation: Bdd,
    /// The written data slots.
    pub written: Vec<usize>,
    /// The next bits of the written slots and the select bits.
    pub quantified: Bdd,
}

pub struct Space {
    pub dim: usize,
    pub controls: Vec<Control>,
    pub steps: Vec<Step>,
    pub incoming: Vec<Vec<u32>>,
    pub outgoing: Vec<Vec<u32>>,
    /// The initial controls with their initial data (inside `R_c`).
    pub initial: Vec<(u32, Bdd)>,
}

/// Why there is no space.
pub enum Failed {
    /// Not supported yet: why.
    Refused(String),
    /// Some reachable valuation makes a guard, an update or an invariant
    /// fail: the explicit engine reports it with its trace.
    Error,
}

impl From<crate::bdd::Unsupported> for Failed {
    fn from(u: crate::bdd::Unsupported) -> Failed {
        Failed::Refused(u.0)
    }
}

impl Space {
    pub fn build(net: &Network, zg: &mut ZoneGraph<'_>, reached: &mut Reached) -> Result<Space, Failed> {
        let dim = zg.dim();
        let mut controls = Vec::with_capacity(reached.controls.len());
        for ((locs, _), &data) in &reached.controls {
            controls.push(control(net, zg, &mut reached.m, &reached.enc, locs, data)?);
        }
        let mut space = Space {
            dim,
            steps: Vec::new(),
            incoming: vec![Vec::new(); controls.len()],
            outgoing: vec![Vec::new(); controls.len()],
            initial: Vec::new(),
            controls,
        };
        let grouped = grouped(net);
        for from in 0..space.controls.len() {
            let (locs, data) = (space.controls[from].locs.clone(), space.controls[from].data);
            let (m, enc) = (&mut reached.m, &reached.enc);
            let (enabled, error) = search::enabled(net, &grouped, m, enc, &locs, data)?;
            if error != FALSE {
                return Err(Failed::Error);
            }
            for (t, g) in search::steps(net, &locs, &enabled, m, enc) {
                space.connect(net, zg, reached, from as u32, &t, g)?;
            }
        }
        let start: Box<[u32]> = net.processes.iter().map(|p| p.initial).collect();
        // As `ZoneGraph::initial_exact`: an initial state meets its invariant.
        let zero = Dbm::zero(dim);
        let initial = |c: &Control| c.locs == start && zero.is_subset_of(&c.invariant);
        for (c, control) in space.controls.iter().enumerate().filter(|(_, c)| initial(c)) {
            let at = reached.m.and(reached.initial, control.data);
            if at != FALSE {
                space.initial.push((c as u32, at));
            }
        }
        Ok(space)
    }

    /// The steps `t` takes from control `from` with the data `g` its guards
    /// allow, one per target control.
    fn connect(
        &mut self,
        net: &Network,
        zg: &mut ZoneGraph<'_>,
        reached: &mut Reached,
        from: u32,
        t: &crate::engine::symdata::edges::Step,
        g: Bdd,
    ) -> Result<(), Failed> {
        let (m, enc) = (&mut reached.m, &reached.enc);
        let locs = self.controls[from as usize].locs.clone();
        let one_cell = cells(m, enc, &locs, g, &data_bounds(t.clock_atoms(net)), &[])?;
        let Some(one_cell) = one_cell else { return Err(Failed::Error) };
        if one_cell.len() != 1 {
            return Err(Failed::Refused("a clock guard reads data kept in the BDD".into()));
        }
        let transition = t.representative(net);
        let v = enc.pick(m, g).expect("an enabled step has data");
        let mut guard = self.controls[from as usize].invariant.clone();
        match zg.guard(&Discrete { locs: locs.clone(), data: v.into() }, &transition, &mut guard) {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err(_) => return Err(Failed::Error),
        }
        let mut next_locs = locs.clone();
        for (&(p, _), e) in t.0.iter().zip(t.edges(net)) {
            next_locs[p as usize] = e.to;
        }
        let updates: Vec<&Update> = t.edges(net).flat_map(|e| &e.updates).collect();
        let mut resets = Vec::new();
        for u in &updates {
            match u {
                Update::Reset { clock, value } => resets.push((*clock as usize, *value as i32)),
                Update::Assign { .. } => return Err(Failed::Refused("linear assignments".into())),
                _ => {}
            }
        }
        let mut mach = Machine::new(m, enc, &next_locs, net.out_of_range, g);
        step::run_updates(&mut mach, &net.slots, updates.iter().copied())?;
        if mach.error != FALSE {
            return Err(Failed::Error);
        }
        let (mut relation, mem) = (mach.path, std::mem::take(&mut mach.mem));
        let mut written = Vec::new();
        for (s, w) in mem.iter().enumerate().take(enc.data_len()) {
            let Some(w) = w else { continue };
            let next = enc.word(m, s, true);
            let eq = word::eq(m, &next, w);
            relation = m.and(relation, eq);
            written.push(s);
        }
        let selects: Vec<u32> = (enc.data_len()..enc.len()).flat_map(|s| enc.current_vars(s)).collect();
        let mut vars: Vec<u32> =
            written.iter().flat_map(|&s| enc.next_vars(s)).chain(selects.iter().copied()).collect();
        vars.sort_unstable();
        let quantified = m.cube(&vars);
        // The image, for the target controls.
        let mut sources: Vec<u32> = written.iter().flat_map(|&s| enc.current_vars(s)).chain(selects).collect();
        sources.sort_unstable();
        let cube = m.cube(&sources);
        let image = m.exists(relation, cube);
        let image = enc.next_to_current(m, image);
        for part in by_explicit(m, enc, &reached.explicit, image) {
            let v = enc.pick(m, part).expect("a part has data");
            let fixed: Box<[i64]> = reached.explicit.iter().map(|&s| v[s]).collect();
            let Some(to) = reached.controls.get_index_of(&(next_locs.clone(), fixed)) else { continue };
            let id = self.steps.len() as u32;
            self.outgoing[from as usize].push(id);
            self.incoming[to].push(id);
            self.steps.push(Step {
                from,
                to: to as u32,
                guard: guard.clone(),
                resets: resets.clone(),
                relation,
                written: written.clone(),
                quantified,
            });
        }
        Ok(())
    }
}

/// Control `locs` with the reachable data `data`: its invariant (one zone:
/// its bounds are constant on `data`) and where time may pass.
fn control(
    net: &Network,
    zg: &mut ZoneGraph<'_>,
    m: &mut Manager,
    enc: &Encoding,
    locs: &[u32],
    data: Bdd,
) -> Result<Control, Failed> {
    let bounds =
        data_bounds(locs.iter().enumerate().flat_map(|(p, &l)| &net.processes[p].locations[l as usize].invariant));
    match cells(m, enc, locs, data, &bounds, &[])? {
        None => return Err(Failed::Error),
        Some(c) if c.len() != 1 => return Err(Failed::Refused("an invariant reads data kept in the BDD".into())),
        Some(_) => {}
    }
    let v = enc.pick(m, data).expect("a reached control has data");
    let mut invariant = Dbm::universe(zg.dim());
    let d = Discrete { locs: locs.into(), data: v.into() };
    if zg.invariant(&d, &mut invariant).is_err() {
        return Err(Failed::Error);
    }
    let still = locs.iter().enumerate().any(|(p, &l)| {
        let loc = &net.processes[p].locations[l as usize];
        loc.urgent || loc.committed
    });
    let delay = if still {
        FALSE
    } else {
        let Some(blocked) = urgent(net, m, enc, locs, data)? else { return Err(Failed::Error) };
        let free = m.not(blocked);
        m.and(data, free)
    };
    Ok(Control { locs: locs.into(), data, invariant, delay })
}

/// The valuations of the source of `step` from which its updates lead into
/// `target` (data of the target control).
pub fn pre_data(m: &mut Manager, enc: &Encoding, step: &Step, target: Bdd) -> Bdd {
    let renamed = enc.current_to_next(m, target, &step.written);
    let both = m.and(step.relation, renamed);
    m.exists(both, step.quantified)
}
