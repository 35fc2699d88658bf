//! The clocks that matter in a location vector, so that a zone can be
//! printed on them alone: a clock is *active* for a process in location
//! `l` when some path of that process's own edges from `l` reads it (in an
//! invariant or a guard) before resetting it; it is active in a location
//! vector when it is for some process. A clock no process can read before
//! resetting it is reset before any read whatever the interleaving, so
//! its value cannot change what the run does next: leaving it out of a
//! zone's text hides nothing that matters.

use crate::network::{ClockConstraint, Network, Update};

/// Per process, per location, per DBM clock index: active or not.
pub struct Active(Vec<Vec<Vec<bool>>>);

impl Active {
    /// The least fixed point of `active(l) = read(l) ∪ ⋃_{l -e-> l'}
    /// (active(l') \ reset(e))`, per process.
    pub fn new(net: &Network) -> Self {
        let dim = net.dim();
        let mark = |set: &mut Vec<bool>, cs: &[ClockConstraint]| {
            for c in cs {
                set[c.i as usize] = true;
                set[c.j as usize] = true;
            }
        };
        let per = net
            .processes
            .iter()
            .map(|p| {
                let mut active: Vec<Vec<bool>> = p
                    .locations
                    .iter()
                    .enumerate()
                    .map(|(l, loc)| {
                        let mut set = vec![false; dim];
                        mark(&mut set, &loc.invariant);
                        for &e in &p.outgoing[l] {
                            mark(&mut set, &p.edges[e as usize].guard_clocks);
                        }
                        set
                    })
                    .collect();
                let mut changed = true;
                while changed {
                    changed = false;
                    for e in &p.edges {
                        let reset = |k: usize| {
                            e.updates.iter().any(|u| matches!(u, Update::Reset { clock, .. } if *clock as usize == k))
                        };
                        let (to, from) = (e.to as usize, e.from as usize);
                        let new: Vec<usize> =
                            (1..dim).filter(|&k| active[to][k] && !active[from][k] && !reset(k)).collect();
                        for k in new {
                            active[from][k] = true;
                            changed = true;
                        }
                    }
                }
                active
            })
            .collect();
        Active(per)
    }

    /// Whether DBM clock `k` matters in the location vector `locs`.
    pub fn at(&self, locs: &[u32], k: usize) -> bool {
        self.0.iter().zip(locs).any(|(p, &l)| p[l as usize][k])
    }
}

#[cfg(test)]
mod tests {
    use super::Active;
    use crate::engine::graph::zone_graph;
    use crate::engine::reach::Limits;
    use crate::semantics::{Abstraction, ZoneGraph};

    /// The oracle: from every state of the railway crossing's and the
    /// train-gate's zone graphs, the zone with the inactive clocks
    /// forgotten takes exactly the same steps to the same discrete states.
    #[test]
    fn forgetting_inactive_clocks_changes_no_step() {
        for file in ["models/railway-crossing.yaml", "models/train-gate.yaml"] {
            let text = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
            let loaded = crate::model::load::load_model(&crate::syntax::yaml::Source::new(file, text)).unwrap();
            let net = crate::network::build(&loaded.model).unwrap();
            let active = Active::new(&net);
            let mut zg = ZoneGraph::new(&net, Abstraction::Lu);
            let limits = Limits { max_states: Some(20_000), ..Limits::default() };
            let g = zone_graph(&mut zg, &limits).unwrap();
            let (mut ts, mut a, mut b) = (Vec::new(), Vec::new(), Vec::new());
            let mut forgotten = 0;
            for s in &g.states {
                let mut t = s.clone();
                for k in 1..net.dim() {
                    if !active.at(&s.discrete.locs, k) {
                        t.zone.free(k);
                        forgotten += 1;
                    }
                }
                zg.successors(s, &mut ts, &mut a).unwrap();
                zg.successors(&t, &mut ts, &mut b).unwrap();
                let steps = |v: &mut Vec<(crate::semantics::ZoneState, crate::semantics::Transition)>| {
                    let mut out: Vec<_> = v.drain(..).map(|(s, t)| (s.discrete, t.edges)).collect();
                    out.sort();
                    out
                };
                assert_eq!(steps(&mut a), steps(&mut b), "{file}");
            }
            assert!(forgotten > 0, "{file}: some clock is inactive somewhere");
        }
    }
}
