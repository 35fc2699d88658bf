//! What an exhausted data-symbolic liveness search shows of time-locks
//! inside its nodes: the facts [`Locks`] of the explicit engine
//! ([`crate::engine::liveness`]), so that the engine layer skips the
//! fixpoint engine's time-lock scan where they settle it.
//!
//! **Every run diverges.** The phase-0 part of the graph holds a path for
//! every concrete run (see [`super`]: at each step the successor whose data
//! set holds the next valuation). A run with infinitely many discrete steps
//! and finitely many time units follows, after its last tick arc, a path of
//! edge arcs only, whose tail stays in an SCC of the edge arcs. So when
//! every such SCC passes the test of [`zeno::every_run_diverges`] (a clock
//! reset and waited for at least one unit, labelled as the explicit engine
//! labels its steps, [`Progress::of`]: the labels read clock bounds, hence
//! explicit slots only, one value per node), no run is Zeno.
//!
//! **No valuation is stuck.** A reachable `(v, ν)` lies in the data set of
//! some phase-0 node and in the aLU abstraction of its zone (the induction
//! of [`crate::engine::liveness::zeno::never_stuck`]: a step of `ν`
//! simulated by one of the zone's valuations with the same data leads into
//! the successor node holding `v`'s successor, the bounds being those of
//! the explicit slots). So it is enough that, on each phase-0 node, no
//! valuation of its data set where time cannot pass forever has a
//! deadlocked clock valuation in that cover, within the invariant: the
//! data-symbolic deadlock test ([`deadlock::sat`]) on the cover.

use super::Live;
use super::Stop;
use crate::bdd::FALSE;
use crate::domain::zone::Dbm;
use crate::engine::liveness::Locks;
use crate::engine::liveness::progress::Progress;
use crate::engine::liveness::zeno::every_run_diverges;
use crate::engine::symdata::deadlock;
use crate::engine::symdata::search::urgent;
use crate::network::StateFormula;
use crate::semantics::{Abstraction, Discrete};

/// An arc between phase-0 nodes by a discrete step, with its label.
pub(super) type Logged = (u32, u32, Progress);

/// The facts the exhausted search `g` shows.
pub(super) fn locks(g: &mut Live<'_, '_, Dbm>) -> Result<Locks, Stop> {
    let pairs: Vec<(u32, u32)> = g.arcs.iter().map(|&(a, b, _)| (a, b)).collect();
    let labels: Vec<Progress> = g.arcs.iter().map(|a| a.2).collect();
    // The explicit engine's bound on the work; past it, the scan decides.
    let budget = 64 * pairs.len() + 1024;
    if !every_run_diverges(g.nodes.len(), &pairs, &labels, budget) {
        return Ok(Locks::Unknown);
    }
    Ok(if never_stuck(g)? { Locks::Excluded } else { Locks::Diverges })
}

/// Whether no valuation of a phase-0 node is stuck (see the module doc).
fn never_stuck(g: &mut Live<'_, '_, Dbm>) -> Result<bool, Stop> {
    let net = g.net;
    for k in 0..g.nodes.len() {
        let n = &g.nodes[k];
        if n.phase {
            continue;
        }
        let (locs, data, zone) = (n.locs.clone(), n.data, n.zone.clone());
        let location = |p: usize, l: u32| &net.processes[p].locations[l as usize];
        let bounded = locs.iter().enumerate().any(|(p, &l)| !location(p, l).invariant.is_empty());
        let urgent_location = locs.iter().enumerate().any(|(p, &l)| location(p, l).urgent || location(p, l).committed);
        // Where time can pass forever, nothing is stuck.
        let candidates = if bounded || urgent_location {
            data
        } else {
            match urgent(net, &mut g.m, &g.enc, &locs, data)? {
                Some(set) => set,
                None => return Ok(false),
            }
        };
        if candidates == FALSE {
            continue;
        }
        let v = g.enc.pick(&g.m, data).expect("a node has data");
        let d = Discrete { locs: locs.clone(), data: v.into() };
        let mut cover = if g.zg.abstraction == Abstraction::None {
            zone
        } else {
            g.zg.load_bounds(&d);
            zone.alu_cover(&g.zg.lower, &g.zg.upper)
        };
        // The invariant's clock bounds read explicit slots: one value on
        // the node's data.
        match g.zg.invariant(&d, &mut cover) {
            Ok(true) => {}
            Ok(false) => continue,
            Err(_) => return Ok(false),
        }
        let dead = deadlock::sat(net, &mut g.zg, &mut g.m, &g.enc, &locs, candidates, &cover, &StateFormula::Deadlock)?;
        if dead.pass != FALSE || dead.error != FALSE {
            return Ok(false);
        }
    }
    Ok(true)
}
