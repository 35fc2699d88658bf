//! Random CLOSED networks where time matters, for response times
//! (tests/bound_differential.rs). The networks of random.rs are built for
//! reachability: urgency, committed locations and run-time errors abound,
//! most of them time-lock at once, and their response times are almost
//! all 0 or `∞`. Here processes dwell in locations between a lower bound
//! (guards `x >= d`) and an upper bound (invariants `x <= c`), hand over
//! through channels and a shared counter, and mostly can always leave: so
//! finite, positive worst cases are common, and time-lock-free networks
//! (the only ones `kairos bound` answers) too. Some urgency, committed
//! locations and upper-bound guards remain, for partial time-locks.
#![allow(dead_code)]

use std::fmt::Write as _;

use super::random::Rng;

/// The model text of network `seed`.
pub fn generate(seed: u64) -> String {
    let mut r = Rng(seed ^ 0x7173_d0e1_1a6e_5eed);
    let mut y = String::new();
    let _ = writeln!(y, "model: timed-{seed}");
    let global = r.chance(0.3);
    if global {
        y.push_str("clocks: [g]\n");
    }
    y.push_str("variables:\n  n: {range: [0, 2], init: 0}\n  b: {type: bool, init: false}\n");
    y.push_str("channels:\n  c: binary\n  bc: broadcast\n  u: {kind: binary, urgent: true}\n");
    y.push_str("templates:\n");
    let instances = r.int(1, 3) as usize;
    let mut system = Vec::new();
    for t in 0..instances {
        let name = format!("T{t}");
        system.push(name.clone());
        let nclocks = r.int(1, 2) as usize;
        let mut clocks: Vec<String> = ["x", "y"][..nclocks].iter().map(|s| s.to_string()).collect();
        let _ = writeln!(y, "  {name}:\n    clocks: [{}]\n    initial: l0\n    locations:", clocks.join(", "));
        if global {
            clocks.push("g".into());
        }
        let nlocs = r.int(2, 4) as usize;
        // Per location: its invariant's clock and constant, if any, and
        // whether time cannot pass there.
        let mut invariants: Vec<Option<(String, i64)>> = Vec::new();
        let mut instant = Vec::new();
        for l in 0..nlocs {
            let mut attrs = Vec::new();
            let inv = r.chance(0.65).then(|| (r.pick(&clocks[..nclocks]).clone(), r.int(1, 6)));
            if let Some((x, c)) = &inv {
                attrs.push(format!("invariant: \"{x} <= {c}\""));
            }
            invariants.push(inv);
            let kind = match r.below(100) {
                0..=4 => Some("urgent: true"),
                5..=9 => Some("committed: true"),
                _ => None,
            };
            attrs.extend(kind.map(str::to_string));
            instant.push(kind.is_some());
            let _ = writeln!(y, "      l{l}: {{{}}}", attrs.join(", "));
        }
        y.push_str("    edges:\n");
        // A cycle through the locations whose edges can be taken before
        // the invariant expires (mostly), then a few random edges with
        // synchronisations, data guards and upper bounds.
        let extra = r.int(0, nlocs as i64) as usize;
        for k in 0..nlocs + extra {
            let cycle = k < nlocs;
            let (from, to) = if cycle { (k, (k + 1) % nlocs) } else { (r.below(nlocs), r.below(nlocs)) };
            let mut guard = Vec::new();
            if !instant[from] {
                // A lower bound within the invariant (it can be met), or not.
                match &invariants[from] {
                    Some((x, c)) if r.chance(0.7) => guard.push(format!("{x} >= {}", r.int(0, *c))),
                    _ if r.chance(0.5) => guard.push(format!("{} >= {}", r.pick(&clocks), r.int(0, 5))),
                    _ => {}
                }
            }
            if r.chance(if cycle { 0.05 } else { 0.2 }) {
                // An upper bound: a time-lock when nothing else leaves.
                guard.push(format!("{} <= {}", r.pick(&clocks), r.int(1, 5)));
            }
            if !cycle && r.chance(0.3) {
                guard.push(r.pick(&["n < 2", "n >= 1", "n == 0", "b", "!b"]).to_string());
            }
            let mut attrs = vec![format!("from: l{from}"), format!("to: l{to}")];
            if !cycle && instances > 1 && r.chance(0.5) {
                // Senders in the first template, receivers in the others.
                let dir = if t == 0 { "!" } else { "?" };
                let sync = format!("{}{dir}", r.pick(&["c", "c", "bc", "u"]));
                // No clock guards on urgent channels nor broadcast receivers.
                if sync.starts_with('u') || sync == "bc?" {
                    guard.clear();
                }
                attrs.push(format!("sync: \"{sync}\""));
            }
            if !guard.is_empty() {
                attrs.insert(2, format!("guard: \"{}\"", guard.join(" && ")));
            }
            let mut updates = Vec::new();
            // Mostly reset the clock the target's invariant reads.
            match &invariants[to] {
                Some((x, _)) if r.chance(0.85) => updates.push(format!("{x} = 0")),
                _ if r.chance(0.5) => updates.push(format!("{} = 0", r.pick(&clocks[..nclocks]))),
                _ => {}
            }
            if r.chance(0.25) {
                updates.push(r.pick(&["n = (n + 1) % 3", "n = 0", "b = !b", "b = true"]).to_string());
            }
            if global && r.chance(0.2) {
                updates.push("g = 0".into());
            }
            if !updates.is_empty() {
                attrs.push(format!("update: \"{}\"", updates.join("; ")));
            }
            let _ = writeln!(y, "      - {{{}}}", attrs.join(", "));
        }
    }
    y.push_str("system:\n");
    for s in &system {
        let _ = writeln!(y, "  - {s}");
    }
    y
}
