//! One discrete step of the replay: which edges may fire together, and what
//! they do (FORMAT.md section 1, "Semantics").

use num_traits::Zero;

use super::Replay;
use crate::model::decl::OutOfRange;
use crate::model::typed::Dir;
use crate::network::{Target, Update};
use crate::semantics::Transition;
use crate::trace::names::{channel, clock, constraint};
use crate::trace::{ConcreteState, Rational};

impl Replay<'_> {
    /// The step `t` from `src` (the state after the delay) leads to `after`.
    pub(super) fn transition(&self, src: &ConcreteState, t: &Transition, after: &ConcreteState) -> Result<(), String> {
        let net = self.net;
        let d = &src.discrete;
        if t.edges.is_empty() {
            return Err("a step without edges".into());
        }
        let mut seen = vec![false; net.processes.len()];
        for &(p, e) in &t.edges {
            let Some(proc_) = net.processes.get(p as usize) else { return Err(format!("no process number {p}")) };
            let Some(edge) = proc_.edges.get(e as usize) else {
                return Err(format!("{} has no edge number {e}", proc_.name));
            };
            if std::mem::replace(&mut seen[p as usize], true) {
                return Err(format!("{} takes two edges in one step", proc_.name));
            }
            if edge.from != d.locs[p as usize] {
                return Err(format!(
                    "{} is in {}, but the edge leaves {}",
                    proc_.name,
                    proc_.locations[d.locs[p as usize] as usize].name,
                    proc_.locations[edge.from as usize].name
                ));
            }
            if !self.data_guard(edge, d)? {
                let line = net.source_line(edge.pos.line);
                return Err(format!("the data guard of {}'s edge (line {line}) is false", proc_.name));
            }
            for c in &edge.guard_clocks {
                if !self.holds(c, d, &src.clocks)? {
                    return Err(format!(
                        "the guard `{}` of {}'s edge fails at {}",
                        constraint(net, c, d),
                        proc_.name,
                        self.clocks_text(&src.clocks)
                    ));
                }
            }
        }
        self.synchronisation(src, t)?;
        let committed = |p: usize| net.processes[p].locations[d.locs[p] as usize].committed;
        let observer = t.edges.len() == 1 && net.processes[t.edges[0].0 as usize].observer;
        if !observer && (0..net.processes.len()).any(committed) && !t.edges.iter().any(|&(p, _)| committed(p as usize))
        {
            return Err("some process is in a committed location but no edge of the step leaves one".into());
        }
        let replayed = self.effect(src, t)?;
        if replayed.discrete.locs != after.discrete.locs {
            return Err("the recorded locations are not the edges' targets".into());
        }
        if let Some(k) = (0..net.slots.len()).find(|&k| replayed.discrete.data[k] != after.discrete.data[k]) {
            return Err(format!(
                "`{}` is recorded as {} but the updates give {}",
                net.slots[k].name, after.discrete.data[k], replayed.discrete.data[k]
            ));
        }
        if let Some(k) = (0..net.clocks.len()).find(|&k| replayed.clocks[k] != after.clocks[k]) {
            return Err(format!(
                "clock {} is recorded as {} but should be {}",
                net.clocks[k], after.clocks[k], replayed.clocks[k]
            ));
        }
        self.invariants(&after.discrete, &after.clocks).map_err(|e| format!("in the target state: {e}"))
    }

    /// Internal: one edge without sync. Binary: `c!` then `c?` of another
    /// process on the same channel element. Broadcast: `c!`, then in system
    /// order exactly the other processes with an enabled `c?` edge, one edge
    /// each.
    fn synchronisation(&self, src: &ConcreteState, t: &Transition) -> Result<(), String> {
        let net = self.net;
        let d = &src.discrete;
        let edge = |(p, e): (u32, u32)| &net.processes[p as usize].edges[e as usize];
        let sync =
            |id: (u32, u32)| channel(edge(id), d).map_err(|e| format!("run-time error in a channel index: {e:?}"));
        let (p0, _) = t.edges[0];
        let Some((c, dir)) = sync(t.edges[0])? else {
            return if t.edges.len() == 1 { Ok(()) } else { Err("an internal edge synchronised with others".into()) };
        };
        let chan = &net.channels[c as usize];
        if dir == Dir::Party {
            return self.vector(src, t, c);
        }
        if dir != Dir::Send {
            return Err("the first edge of a synchronisation must send".into());
        }
        for &id in &t.edges[1..] {
            match sync(id)? {
                Some((c2, Dir::Receive)) if c2 == c => {}
                _ => {
                    return Err(format!(
                        "{}'s edge does not receive on {}",
                        net.processes[id.0 as usize].name, chan.name
                    ));
                }
            }
        }
        if !chan.broadcast {
            return match t.edges.len() {
                2 => Ok(()),
                1 => Err(format!(
                    "{}! on the binary channel {} has no receiver",
                    net.processes[p0 as usize].name, chan.name
                )),
                _ => Err(format!("several receivers on the binary channel {}", chan.name)),
            };
        }
        if t.edges[1..].windows(2).any(|w| w[0].0 >= w[1].0) {
            return Err(format!("the receivers of broadcast {} are not in system order", chan.name));
        }
        // Who must join: every other process with an enabled `c?` edge.
        for (q, proc_) in net.processes.iter().enumerate() {
            if q == p0 as usize {
                continue;
            }
            let mut can = false;
            for e in proc_.edges.iter().filter(|e| e.from == d.locs[q]) {
                let on_c = channel(e, d).map_err(|x| format!("run-time error in a channel index: {x:?}"))?
                    == Some((c, Dir::Receive));
                if on_c && self.enabled(e, d, &src.clocks)? {
                    can = true;
                    break;
                }
            }
            let joins = t.edges[1..].iter().any(|&(p, _)| p as usize == q);
            if can && !joins {
                return Err(format!("{} can receive broadcast {} but does not take part", proc_.name, chan.name));
            }
        }
        Ok(())
    }

    /// A synchronisation vector on channel `c`: the edges are on `c`, of
    /// parties in party order, one of each strong party, and one of each
    /// weak party that has an enabled edge on `c` (weak parties' edges have
    /// no clock guard, so the data decide).
    fn vector(&self, src: &ConcreteState, t: &Transition, c: u32) -> Result<(), String> {
        let net = self.net;
        let d = &src.discrete;
        let chan = &net.channels[c as usize];
        let on_c = |e: &crate::network::Edge| -> Result<bool, String> {
            Ok(channel(e, d).map_err(|x| format!("run-time error in a channel index: {x:?}"))? == Some((c, Dir::Party)))
        };
        let mut taken = t.edges.iter().peekable();
        for party in &chan.parties {
            let p = party.instance as u32;
            let proc_ = &net.processes[p as usize];
            if let Some(&&(q, e)) = taken.peek()
                && q == p
            {
                if !on_c(&proc_.edges[e as usize])? {
                    return Err(format!("{}'s edge is not on the vector {}", proc_.name, chan.name));
                }
                taken.next();
                continue;
            }
            if !party.weak {
                return Err(format!("{}, a party of the vector {}, takes no edge", proc_.name, chan.name));
            }
            for e in proc_.edges.iter().filter(|e| e.from == d.locs[p as usize]) {
                if on_c(e)? && self.enabled(e, d, &src.clocks)? {
                    return Err(format!("{} can join the vector {} but does not take part", proc_.name, chan.name));
                }
            }
        }
        match taken.next() {
            None => Ok(()),
            Some(&(q, _)) => Err(format!(
                "{} is not a party of the vector {}, or its edges are not in party order",
                net.processes[q as usize].name, chan.name
            )),
        }
    }

    /// Locations, data and clocks after the edges of `t`: updates of the
    /// sender first, then of the receivers in order, each left to right.
    fn effect(&self, src: &ConcreteState, t: &Transition) -> Result<ConcreteState, String> {
        let net = self.net;
        let mut next = src.clone();
        for &(p, e) in &t.edges {
            next.discrete.locs[p as usize] = net.processes[p as usize].edges[e as usize].to;
        }
        for &(p, e) in &t.edges {
            for u in &net.processes[p as usize].edges[e as usize].updates {
                match u {
                    Update::Reset { clock: k, value } => {
                        if *value < 0 {
                            return Err(format!("clock {} reset to the negative {value}", clock(net, *k)));
                        }
                        next.clocks[*k as usize - 1] = Rational::from_integer((*value).into());
                    }
                    Update::Assign { var, terms, value } => {
                        let v = Rational::from_integer(self.eval(value, &next.discrete)?.into());
                        next.clocks[*var as usize - 1] = super::sum(terms, &next.clocks) + v;
                    }
                    Update::Effect(code) => {
                        self.exec(code, &mut next.discrete)?;
                    }
                    Update::Data { target, value } => {
                        let v = self.exec(value, &mut next.discrete)?;
                        let slot = match target {
                            Target::Slot(s) => *s as usize,
                            Target::Indexed { base, len, index } => {
                                let i = self.eval(index, &next.discrete)?;
                                if i < 0 || i >= i64::from(*len) {
                                    return Err(format!("run-time error: array index {i} out of bounds (size {len})"));
                                }
                                (base + i as u32) as usize
                            }
                        };
                        let s = &net.slots[slot];
                        if v < s.lo || v > s.hi {
                            return Err(match net.out_of_range {
                                OutOfRange::Error => format!(
                                    "run-time error: `{}` = {v} is outside its range [{}, {}]",
                                    s.name, s.lo, s.hi
                                ),
                                OutOfRange::Disable => {
                                    format!("the step is disabled: `{}` = {v} is outside its range", s.name)
                                }
                            });
                        }
                        next.discrete.data[slot] = v;
                    }
                }
            }
        }
        debug_assert!(net.hybrid.is_some() || next.clocks.iter().all(|c| *c >= Rational::zero()));
        Ok(next)
    }
}
