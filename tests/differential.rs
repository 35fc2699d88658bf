//! Differential testing of the zone-graph reachability engine against an
//! independent explicit explorer (tests/oracle/), on random networks: closed
//! ones (non-strict clock constraints only) against the grid oracle
//! (discrete time, exact for them), the others (strict bounds, no diagonals)
//! against the region oracle; closed networks with few clocks also compare
//! the two oracles (see tests/oracle/grid.rs and region.rs for why each is
//! exact).
//!
//! Every network comes from a seed; on a disagreement the test prints the
//! model, the property, both verdicts and the seed (and the command that
//! reproduces it), and fails.
//!
//! `cargo test --test differential` checks a few hundred networks;
//! `cargo test --release --test differential -- --ignored` runs the big
//! campaign (10 000 networks, larger budgets). Environment:
//! - `KAIROS_DIFF_SEED`, `KAIROS_DIFF_COUNT`: the first seed and how many;
//! - `KAIROS_DIFF_MODEL=file.yaml`: check that model and its own
//!   `properties:` instead (for minimised models);
//! - `KAIROS_DIFF_DUMP`, `KAIROS_DIFF_VERBOSE`: print every generated model,
//!   every oracle exploration and engine run with its time.

mod oracle;

use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use kairos::engine::reach::{Limits, Order};
use kairos::engine::{self, AbstractionChoice, Options, Unknown, Verdict};
use kairos::model::formula::Formula;
use kairos::model::load::load_model;
use kairos::network::StateFormula;
use kairos::syntax::ast::PathOp;
use kairos::syntax::yaml::Source;

use oracle::{Config, Oracle, Time};

// ---------------------------------------------------------------------------
// A small seeded generator (SplitMix64): the same seed, the same network.

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

// ---------------------------------------------------------------------------
// Random networks, as model text (FORMAT.md sections 1-3).

struct Instance {
    /// `T0(1)` or `T1`.
    name: String,
    template: usize,
}

struct Template {
    clocks: Vec<String>,
    locations: Vec<String>,
    has_hot: bool,
}

/// What a generated edge may use.
struct EdgeCtx<'a> {
    /// Local clocks and the global ones.
    clocks: &'a [String],
    has_id: bool,
    has_v: bool,
}

/// Which non-strict clock comparisons become strict. A stream of its own:
/// the main stream, hence every closed network, is what it was before
/// strict bounds were generated (a seed's closed network is reproducible
/// across that change).
struct Strictness {
    rng: Rng,
    /// This network has strict bounds (about half of them do).
    on: bool,
}

impl Strictness {
    fn new(seed: u64) -> Strictness {
        let mut rng = Rng(seed ^ 0x5717_c7b0_0dd5_eed5);
        let on = rng.chance(0.5);
        Strictness { rng, on }
    }

    /// `op` (a clock comparison), made strict in a share of the atoms of a
    /// strict network.
    fn op(&mut self, op: &'static str) -> &'static str {
        if !self.on || self.rng.chance(0.4) {
            return op;
        }
        match op {
            "<=" => "<",
            ">=" => ">",
            other => other,
        }
    }
}

struct Gen {
    rng: Rng,
    strict: Strictness,
    global_clock: bool,
    nmax: i64,
    has_m: bool,
    has_ub: bool,
    diagonals: bool,
    /// `out_of_range: error`: protect most increments by a guard.
    errors: bool,
}

struct Generated {
    yaml: String,
    properties: Vec<String>,
}

impl Gen {
    /// A clock bound: mostly a small constant, sometimes `K` or data.
    fn bound(&mut self, ctx: &EdgeCtx<'_>) -> String {
        match self.rng.below(11) {
            0 => "K".into(),
            1 => format!("n + {}", self.rng.int(0, 2)),
            2 if ctx.has_id => format!("id + {}", self.rng.int(0, 3)),
            // Negative for n = 0 (a bound below zero).
            10 => format!("{} - n", self.rng.int(-1, 2)),
            3 | 4 => self.rng.int(0, 10).to_string(),
            _ => self.rng.int(0, 5).to_string(),
        }
    }

    fn clock_atom(&mut self, ctx: &EdgeCtx<'_>) -> String {
        let r = &mut self.rng;
        if self.diagonals && ctx.clocks.len() >= 2 && r.chance(0.3) {
            let i = r.below(ctx.clocks.len());
            let j = (i + 1 + r.below(ctx.clocks.len() - 1)) % ctx.clocks.len();
            let op = *r.pick(&["<=", ">=", "=="]);
            return format!("{} - {} {op} {}", ctx.clocks[i], ctx.clocks[j], r.int(-3, 3));
        }
        let x = r.pick(ctx.clocks).clone();
        let op = *r.pick(&["<=", ">=", ">=", "=="]);
        if r.chance(0.08) {
            let (a, b) = (r.int(0, 3), r.int(4, 8));
            return format!("({x} {} {a} || {x} {} {b})", self.strict.op("<="), self.strict.op(">="));
        }
        let b = self.bound(ctx);
        format!("{x} {} {b}", self.strict.op(op))
    }

    fn data_atom(&mut self, ctx: &EdgeCtx<'_>, select: bool) -> String {
        let r = &mut self.rng;
        let nmax = self.nmax;
        loop {
            let s = match r.below(14) {
                0 => format!("n == {}", r.int(0, nmax)),
                1 => format!("n != {}", r.int(0, nmax)),
                2 => format!("n < {}", r.int(1, nmax)),
                3 => format!("n >= {}", r.int(1, nmax)),
                4 => "b".into(),
                5 => "!b".into(),
                6 => format!("a[{}] == {}", r.int(0, 2), r.int(0, 2)),
                7 => format!("a[{}] <= n", r.int(0, 2)),
                8 if ctx.has_v => format!("v == {}", r.int(0, 2)),
                9 if ctx.has_id => format!("id == {}", r.int(1, 2)),
                10 if self.has_m => format!("m <= {}", r.int(-1, 1)),
                11 => "n + a[0] <= 3".into(),
                12 if select => format!("a[i] <= {}", r.int(0, 2)),
                // Out of bounds when n = 3: a run-time error in a guard.
                13 if r.chance(0.1) => format!("a[n] != {}", r.int(0, 3)),
                _ => continue,
            };
            return s;
        }
    }

    /// One update item; `protect` receives a guard atom keeping it in range
    /// (used in `out_of_range: error` networks most of the time).
    fn update(&mut self, ctx: &EdgeCtx<'_>, select: bool, protect: &mut Vec<String>) -> String {
        let r = &mut self.rng;
        let nmax = self.nmax;
        loop {
            let s = match r.below(15) {
                0..=3 => {
                    let x = r.pick(ctx.clocks).clone();
                    if r.chance(0.75) { format!("{x} = 0") } else { format!("{x} = {}", r.int(1, 6)) }
                }
                4 => {
                    protect.push(format!("n < {nmax}"));
                    "n += 1".into()
                }
                5 => {
                    protect.push("n > 0".into());
                    "n -= 1".into()
                }
                6 => format!("n = {}", r.int(0, nmax)),
                7 => {
                    let k = r.int(0, 2);
                    format!("a[{k}] = {}", r.int(0, 3))
                }
                8 => {
                    let k = r.int(0, 2);
                    protect.push(format!("a[{k}] < 3"));
                    format!("a[{k}] += 1")
                }
                9 => if r.chance(0.5) { "b = !b" } else { "b = true" }.into(),
                10 if ctx.has_v => {
                    protect.push("v < 2".into());
                    "v += 1".into()
                }
                11 if ctx.has_id => "n = id".into(),
                12 if self.has_m => {
                    protect.push(format!("n <= {}", 3.min(nmax)));
                    "m = n - 1".into()
                }
                13 if select => "a[i] = n".into(),
                // Out of bounds when n = 3.
                14 => format!("a[n] = {}", r.int(0, 3)),
                _ => continue,
            };
            return s;
        }
    }

    fn generate(seed: u64) -> Generated {
        let mut rng = Rng(seed);
        let errors = rng.chance(0.4);
        let mut g = Gen {
            global_clock: rng.chance(0.35),
            nmax: rng.int(2, 3),
            has_m: rng.chance(0.3),
            has_ub: rng.chance(0.5),
            diagonals: rng.chance(0.08),
            errors,
            rng,
            strict: Strictness::new(seed),
        };
        // The region oracle does not decide diagonals: those stay closed.
        g.strict.on &= !g.diagonals;
        let mut y = String::new();
        let _ = writeln!(y, "model: random-{seed}");
        let _ = writeln!(y, "constants: {{K: {}}}", g.rng.int(1, 5));
        if g.global_clock {
            y.push_str("clocks: [g]\n");
        }
        y.push_str("variables:\n");
        let _ = writeln!(y, "  n: {{range: [0, {}], init: 0}}", g.nmax);
        if g.has_m {
            y.push_str("  m: {range: [-1, 2], init: any}\n");
        }
        let init: Vec<String> = (0..3).map(|_| g.rng.int(0, 2).to_string()).collect();
        let _ = writeln!(y, "  a: {{range: [0, 3], size: 3, init: [{}]}}", init.join(", "));
        let _ = writeln!(y, "  b: {{type: bool, init: {}}}", g.rng.chance(0.3));
        y.push_str("channels:\n  c: binary\n  bc: broadcast\n  u: {kind: binary, urgent: true}\n");
        y.push_str("  ch: {kind: binary, size: 2}\n");
        if g.has_ub {
            y.push_str("  ub: {kind: broadcast, urgent: true}\n");
        }
        y.push_str("templates:\n");

        let total = g.rng.int(2, 4) as usize;
        let mut instances: Vec<Instance> = Vec::new();
        let mut templates: Vec<Template> = Vec::new();
        let mut system = Vec::new();
        while instances.len() < total {
            let t = templates.len();
            let name = format!("T{t}");
            let left = total - instances.len();
            let count = if left >= 2 && g.rng.chance(0.4) { 2 } else { 1 };
            let has_id = count == 2 || g.rng.chance(0.4);
            if count == 2 {
                system.push(format!("{name}(1..2)"));
                instances.push(Instance { name: format!("{name}(1)"), template: t });
                instances.push(Instance { name: format!("{name}(2)"), template: t });
            } else if has_id {
                let id = g.rng.int(1, 2);
                system.push(format!("{name}({id})"));
                instances.push(Instance { name: format!("{name}({id})"), template: t });
            } else {
                system.push(name.clone());
                instances.push(Instance { name: name.clone(), template: t });
            }
            let nclocks = if g.rng.chance(0.15) { 3 } else { g.rng.int(1, 2) as usize };
            let local: Vec<String> = ["x", "y", "z"][..nclocks].iter().map(|s| s.to_string()).collect();
            let mut clocks = local.clone();
            if g.global_clock {
                clocks.push("g".into());
            }
            let has_v = g.rng.chance(0.3);
            let ctx = EdgeCtx { clocks: &clocks, has_id, has_v };
            let _ = writeln!(y, "  {name}:");
            if has_id {
                y.push_str("    params: [id]\n");
            }
            let _ = writeln!(y, "    clocks: [{}]", local.join(", "));
            if has_v {
                y.push_str("    variables: {v: {range: [0, 2]}}\n");
            }
            y.push_str("    initial: l0\n    locations:\n");
            let nlocs = g.rng.int(2, 5) as usize;
            let locations: Vec<String> = (0..nlocs).map(|i| format!("l{i}")).collect();
            let mut has_hot = false;
            for l in &locations {
                let mut attrs = Vec::new();
                if g.rng.chance(0.35) {
                    let mut inv = Vec::new();
                    let x = g.rng.pick(&clocks).clone();
                    if g.rng.chance(0.12) {
                        inv.push(format!("{x} {} n + {}", g.strict.op("<="), g.rng.int(1, 3)));
                    } else {
                        inv.push(format!("{x} {} {}", g.strict.op("<="), g.rng.int(1, 8)));
                    }
                    if g.rng.chance(0.2) {
                        let x2 = g.rng.pick(&clocks).clone();
                        inv.push(format!("{x2} {} {}", g.strict.op("<="), g.rng.int(2, 10)));
                    }
                    if g.rng.chance(0.05) {
                        inv.push(format!("n <= {}", g.nmax));
                    }
                    attrs.push(format!("invariant: \"{}\"", inv.join(" && ")));
                }
                match g.rng.below(100) {
                    0..=11 => attrs.push("urgent: true".into()),
                    12..=21 => attrs.push("committed: true".into()),
                    _ => {}
                }
                if g.rng.chance(0.08) {
                    attrs.push("labels: [hot]".into());
                    has_hot = true;
                }
                let _ = writeln!(y, "      {l}: {{{}}}", attrs.join(", "));
            }
            y.push_str("    edges:\n");
            // A cycle through every location (so that most of them can be
            // reached), then a few random edges.
            let extra = g.rng.int(1, nlocs as i64 + 1) as usize;
            for k in 0..nlocs + extra {
                let (from, to) = if k < nlocs {
                    (locations[k].clone(), locations[(k + 1) % nlocs].clone())
                } else {
                    (g.rng.pick(&locations).clone(), g.rng.pick(&locations).clone())
                };
                let select = g.rng.chance(0.15);
                let mut attrs = vec![format!("from: {from}"), format!("to: {to}")];
                if select {
                    if g.rng.chance(0.2) {
                        // A second select variable, unused or in a guard.
                        attrs.push("select: \"i : 0..1, j : 0..2\"".into());
                    } else {
                        attrs.push("select: \"i : 0..1\"".into());
                    }
                }
                // Senders mostly in even templates, receivers in odd ones
                // (and broadcasts mostly from the first), so that partners
                // exist. The synchronisation decides whether clock guards
                // are allowed (not on urgent channels, nor broadcast
                // receivers).
                let send = |g: &mut Gen, even: bool| if even != g.rng.chance(0.2) { "!" } else { "?" };
                let (sync, clock_guards) = match g.rng.below(100) {
                    0..=49 => (None, true),
                    50..=66 => (Some(format!("c{}", send(&mut g, t.is_multiple_of(2)))), true),
                    67..=77 => {
                        let dir = send(&mut g, t == 0);
                        (Some(format!("bc{dir}")), dir == "!")
                    }
                    78..=85 => (Some(format!("u{}", send(&mut g, !t.is_multiple_of(2)))), false),
                    86..=89 if g.has_ub => (Some(format!("ub{}", send(&mut g, t == 1))), false),
                    _ => {
                        let idx = if select && g.rng.chance(0.6) {
                            "i".to_string()
                        } else if has_id && g.rng.chance(0.4) {
                            "id - 1".to_string()
                        } else if g.rng.chance(0.25) {
                            // Resolved at run time.
                            "a[0] % 2".to_string()
                        } else {
                            g.rng.int(0, 1).to_string()
                        };
                        (Some(format!("ch[{idx}]{}", send(&mut g, t.is_multiple_of(2)))), true)
                    }
                };
                let mut protect = Vec::new();
                let nupd = *g.rng.pick(&[0, 1, 1, 2, 2, 3]);
                let updates: Vec<String> = (0..nupd).map(|_| g.update(&ctx, select, &mut protect)).collect();
                let mut guard = Vec::new();
                for _ in 0..*g.rng.pick(&[0, 1, 1, 1, 2, 2, 3]) {
                    if clock_guards && g.rng.chance(0.6) {
                        guard.push(g.clock_atom(&ctx));
                    } else {
                        guard.push(g.data_atom(&ctx, select));
                    }
                }
                let keep = if g.errors { 0.8 } else { 0.3 };
                for p in protect {
                    if g.rng.chance(keep) && !guard.contains(&p) {
                        guard.push(p);
                    }
                }
                if !guard.is_empty() {
                    attrs.push(format!("guard: \"{}\"", guard.join(" && ")));
                }
                if let Some(s) = sync {
                    attrs.push(format!("sync: \"{s}\""));
                }
                if !updates.is_empty() {
                    attrs.push(format!("update: \"{}\"", updates.join("; ")));
                }
                let _ = writeln!(y, "      - {{{}}}", attrs.join(", "));
            }
            templates.push(Template { clocks, locations, has_hot });
        }
        y.push_str("system:\n");
        for s in &system {
            let _ = writeln!(y, "  - {s}");
        }
        let _ = writeln!(y, "out_of_range: {}", if g.errors { "error" } else { "disable" });
        let properties = g.properties(&instances, &templates);
        Generated { yaml: y, properties }
    }

    fn properties(&mut self, instances: &[Instance], templates: &[Template]) -> Vec<String> {
        let r = &mut self.rng;
        let s = &mut self.strict;
        let mut out = Vec::new();
        let inst = |r: &mut Rng| r.below(instances.len());
        // `I.l`, for a random instance and location (not the initial one,
        // most of the time).
        let loc = |r: &mut Rng, i: usize| {
            let t = &templates[instances[i].template];
            let l = if t.locations.len() > 1 && r.chance(0.85) {
                &t.locations[1 + r.below(t.locations.len() - 1)]
            } else {
                &t.locations[0]
            };
            format!("{}.{l}", instances[i].name)
        };
        // `I.x` for a local clock of instance `i`, or the global `g`.
        let clock = |r: &mut Rng, i: usize| {
            let t = &templates[instances[i].template];
            let c = r.pick(&t.clocks);
            if c == "g" { "g".to_string() } else { format!("{}.{c}", instances[i].name) }
        };
        let two = |r: &mut Rng| {
            let i = r.below(instances.len());
            let j = (i + 1 + r.below(instances.len() - 1)) % instances.len();
            (i, j)
        };

        let i = inst(r);
        out.push(format!("E<> {}", loc(r, i)));
        let (i, j) = two(r);
        out.push(format!("E<> {} and {}", loc(r, i), loc(r, j)));
        out.push(match r.below(3) {
            0 => format!("E<> n == {} and a[{}] >= 1", r.int(1, self.nmax), r.int(0, 2)),
            1 => format!("E<> b and n >= {}", r.int(1, self.nmax)),
            _ => format!("E<> a[0] + a[1] + a[2] >= {}", r.int(3, 6)),
        });
        let i = inst(r);
        out.push(match r.below(4) {
            0 => format!("E<> {} {} {}", clock(r, i), s.op(">="), r.int(2, 9)),
            1 => format!("E<> {} and {} {} {}", loc(r, i), clock(r, i), s.op(">="), r.int(1, 6)),
            2 => format!("E<> {} and {} {} {} and n >= 1", loc(r, i), clock(r, i), s.op("<="), r.int(0, 3)),
            _ => {
                let j = inst(r);
                let (x, a) = (clock(r, i), r.int(2, 6));
                let (y, b) = (clock(r, j), r.int(0, 2));
                format!("E<> {x} {} {a} and {y} {} {b}", s.op(">="), s.op("<="))
            }
        });
        let (i, j) = two(r);
        out.push(match r.below(6) {
            0 => format!("A[] not ({} and {})", loc(r, i), loc(r, j)),
            1 => format!("A[] ({} imply {} {} {})", loc(r, i), clock(r, i), s.op("<="), r.int(1, 8)),
            2 => format!("A[] n <= {} or b", r.int(0, self.nmax - 1)),
            3 => format!("A[] ({} imply {} {} {})", loc(r, i), clock(r, i), s.op(">="), r.int(1, 4)),
            4 => {
                let (x, a) = (clock(r, i), r.int(1, 6));
                let (y, b) = (clock(r, j), r.int(1, 6));
                format!("A[] {x} {} {a} or {y} {} {b}", s.op("<="), s.op("<="))
            }
            _ => format!("A[] ({} imply not {})", loc(r, i), loc(r, j)),
        });
        if r.chance(0.25) {
            let (i, j) = two(r);
            let (x, y) = (clock(r, i), clock(r, j));
            if x != y {
                out.push(match r.below(3) {
                    0 => format!("E<> {x} - {y} >= {}", r.int(1, 4)),
                    1 => format!("E<> {x} - {y} <= {} and {}", r.int(-4, -1), loc(r, i)),
                    _ => format!("A[] ({} imply {x} - {y} <= {})", loc(r, i), r.int(0, 4)),
                });
            }
        }
        if r.chance(0.5) {
            let i = inst(r);
            out.push(match r.below(4) {
                0 => "E<> deadlock".to_string(),
                1 => "A[] not deadlock".to_string(),
                2 => format!("E<> deadlock and {} {} {}", clock(r, i), s.op("<="), r.int(0, 4)),
                _ => format!("A[] (deadlock imply {})", loc(r, i)),
            });
        }
        if templates.iter().any(|t| t.has_hot) && r.chance(0.5) {
            out.push("E<> hot".to_string());
        }
        out
    }
}

// ---------------------------------------------------------------------------
// The comparison.

#[derive(Clone, Copy, Debug)]
struct Budget {
    /// States the oracle may explore.
    oracle_states: usize,
    /// States the engine may visit without extrapolation.
    none_states: u64,
    /// Largest clock count for which the fine grid `1/(n+1)` is tried (and
    /// closed networks are self-checked).
    fine_clocks: usize,
    /// On closed networks with few clocks, also compare the oracle in
    /// integer time with the fine grid, and the grid with regions.
    cross_check: bool,
    /// The command that runs the same test.
    command: &'static str,
}

#[derive(Default, Debug)]
struct Tally {
    networks: u64,
    invalid: u64,
    invalid_examples: Vec<String>,
    bad_queries: u64,
    properties: u64,
    /// Properties the oracle settled (and the engine was run on).
    oracle_settled: u64,
    oracle_gave_up: u64,
    /// Would need the fine grid on too many clocks.
    too_many_clocks: u64,
    /// Deadlock properties in networks with reachable run-time errors.
    deadlock_with_errors: u64,
    fine_grid: u64,
    /// Properties settled on regions (networks with strict bounds).
    regions: u64,
    /// Properties with diagonals in networks with strict bounds (no oracle).
    strict_diagonal: u64,
    /// Networks where the oracle was compared with itself: integer time
    /// with the fine grid, and the grid with regions.
    self_checks: u64,
    region_checks: u64,
    engine_runs: u64,
    agreed: u64,
    agreed_found: u64,
    agreed_error: u64,
    unknown_limit: u64,
    unsupported_diagonal: u64,
    oracle_states: u64,
    disagreements: Vec<Disagreement>,
}

#[derive(Debug)]
struct Disagreement {
    seed: u64,
    /// One line: property, engine setting and verdict, oracle verdict.
    summary: String,
    /// With the model.
    details: String,
}

impl Tally {
    fn merge(&mut self, o: Tally) {
        self.networks += o.networks;
        self.invalid += o.invalid;
        if self.invalid_examples.len() < 3 {
            self.invalid_examples.extend(o.invalid_examples);
        }
        self.bad_queries += o.bad_queries;
        self.properties += o.properties;
        self.oracle_settled += o.oracle_settled;
        self.oracle_gave_up += o.oracle_gave_up;
        self.too_many_clocks += o.too_many_clocks;
        self.deadlock_with_errors += o.deadlock_with_errors;
        self.fine_grid += o.fine_grid;
        self.regions += o.regions;
        self.strict_diagonal += o.strict_diagonal;
        self.self_checks += o.self_checks;
        self.region_checks += o.region_checks;
        self.engine_runs += o.engine_runs;
        self.agreed += o.agreed;
        self.agreed_found += o.agreed_found;
        self.agreed_error += o.agreed_error;
        self.unknown_limit += o.unknown_limit;
        self.unsupported_diagonal += o.unsupported_diagonal;
        self.oracle_states += o.oracle_states;
        self.disagreements.extend(o.disagreements);
    }
}

/// One property, ready for both sides.
struct Prop {
    text: String,
    property: kairos::model::types::Property,
    /// `A[]`: the engine searches for `not φ`.
    negated: bool,
    /// What a witness must satisfy: φ, or `not φ` for `A[]`.
    goal: StateFormula,
}

fn check_network(seed: u64, budget: Budget, tally: &mut Tally) {
    let generated = Gen::generate(seed);
    if std::env::var("KAIROS_DIFF_DUMP").is_ok() {
        eprintln!("=== seed {seed}\n{}{:#?}", generated.yaml, generated.properties);
    }
    check_generated(seed, &generated, budget, tally);
}

/// Checks one model; without generated properties, the model's own
/// (`properties:`) are used.
fn check_generated(seed: u64, generated: &Generated, budget: Budget, tally: &mut Tally) {
    tally.networks += 1;
    let src = Source::new(format!("random-{seed}.yaml"), generated.yaml.clone());
    let reject = |tally: &mut Tally, why: String| {
        tally.invalid += 1;
        if tally.invalid_examples.len() < 3 {
            tally.invalid_examples.push(format!("seed {seed}: {why}\n{}", generated.yaml));
        }
    };
    let loaded = match load_model(&src) {
        Ok(l) => l,
        Err(d) => return reject(tally, format!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>())),
    };
    let net = match kairos::network::build(&loaded.model) {
        Ok(n) => n,
        Err(d) => return reject(tally, format!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>())),
    };
    let mut props = Vec::new();
    let own: Vec<String> = loaded.model.properties.iter().map(|p| p.text.clone()).collect();
    let texts = if generated.properties.is_empty() { &own } else { &generated.properties };
    for (k, text) in texts.iter().enumerate() {
        let property = match loaded.query(&format!("p{k}"), text) {
            Ok(p) => p,
            Err(d) => {
                tally.bad_queries += 1;
                tally.invalid_examples.push(format!("seed {seed}: query `{text}`: {:?}", d[0].message));
                continue;
            }
        };
        let (negated, arg) = match &property.formula {
            Formula::Path { op: PathOp::EF, bound: None, arg } => (false, arg.clone()),
            Formula::Path { op: PathOp::AG, bound: None, arg } => (true, arg.clone()),
            other => panic!("generated an unexpected formula shape: {other:?}"),
        };
        let phi = net.state_formula(&property, &arg).expect("a state formula");
        let goal = if negated { StateFormula::Not(Box::new(phi)) } else { phi };
        props.push(Prop { text: text.clone(), property, negated, goal });
    }
    tally.properties += props.len() as u64;

    let n = net.clocks.len();
    let fine = n as i64 + 1;
    let closed = oracle::closed(&net);
    // Which properties each exploration answers.
    let plan: Vec<(Time, Vec<usize>)> = if closed {
        // Integer time where it is exact, the grid 1/(n+1) elsewhere.
        let (mut integer, mut fine_grid) = (Vec::new(), Vec::new());
        for (k, p) in props.iter().enumerate() {
            if oracle::strict_atoms(&p.goal, true) <= 1 {
                integer.push(k);
            } else if n <= budget.fine_clocks {
                fine_grid.push(k);
            } else {
                tally.too_many_clocks += 1;
            }
        }
        vec![(Time::Grid(1), integer), (Time::Grid(fine), fine_grid)]
    } else {
        let (plain, diagonal): (Vec<usize>, Vec<usize>) =
            (0..props.len()).partition(|&k| !net.has_diagonals && !props[k].goal.has_diagonal());
        tally.strict_diagonal += diagonal.len() as u64;
        vec![(Time::Regions, plain)]
    };
    let mut exact_too_big = false;
    // (property, goal reachable, error reachable): in integer time, and all.
    let mut integer_results = Vec::new();
    let mut settled = Vec::new();
    for (time, ids) in plan {
        if ids.is_empty() {
            continue;
        }
        let formulas: Vec<&StateFormula> = ids.iter().map(|&k| &props[k].goal).collect();
        let config = Config { time, max_states: budget.oracle_states };
        let t0 = Instant::now();
        let explored = Oracle::explore(&net, &formulas, config);
        if std::env::var("KAIROS_DIFF_VERBOSE").is_ok() {
            eprintln!(
                "seed {seed} oracle ({}): {:?} in {:.3} s",
                time_name(time),
                explored.as_ref().map(|o| o.state_count()).ok(),
                t0.elapsed().as_secs_f64()
            );
        }
        let Ok(mut oracle) = explored else {
            tally.oracle_gave_up += ids.len() as u64;
            continue;
        };
        tally.oracle_states += oracle.state_count() as u64;
        let error = oracle.error.clone();
        for &k in &ids {
            let p = &props[k];
            if error.is_some() && oracle::mentions_deadlock(&p.goal) {
                // Whether an erroring step counts as "possible" for
                // `deadlock` is not what this test is about.
                tally.deadlock_with_errors += 1;
                continue;
            }
            let found = oracle.reachable(&p.goal).expect("generated properties evaluate without errors");
            if time == Time::Grid(1) {
                integer_results.push((k, found, error.is_some()));
            }
            settled.push((k, found, error.is_some()));
            tally.oracle_settled += 1;
            match time {
                Time::Grid(1) => {}
                Time::Grid(_) => tally.fine_grid += 1,
                Time::Regions => tally.regions += 1,
            }
            compare(
                seed,
                generated,
                &loaded.model,
                &net,
                p,
                found,
                &error,
                &mut oracle,
                time,
                budget,
                &mut exact_too_big,
                tally,
            );
        }
    }
    if budget.cross_check && closed && n <= budget.fine_clocks {
        if !integer_results.is_empty()
            && self_check(seed, generated, &net, &props, &integer_results, Time::Grid(fine), budget, tally)
        {
            tally.self_checks += 1;
        }
        // Two independent exact oracles: the grid (closed networks) and
        // regions (no diagonals).
        if !net.has_diagonals {
            settled.retain(|&(k, ..)| !props[k].goal.has_diagonal());
            if !settled.is_empty() && self_check(seed, generated, &net, &props, &settled, Time::Regions, budget, tally)
            {
                tally.region_checks += 1;
            }
        }
    }
}

fn time_name(time: Time) -> String {
    match time {
        Time::Grid(1) => "integer time".into(),
        Time::Grid(k) => format!("time step 1/{k}"),
        Time::Regions => "regions".into(),
    }
}

/// The oracle against itself: answers `earlier` (integer time where it is
/// exact, or the grid) must be those of an exploration in `time` (the grid
/// `1/(n+1)`, or regions). This checks the digitisation argument, the
/// scaling and normalisation code, and the region code. Whether the other
/// exploration stayed within the budget.
#[allow(clippy::too_many_arguments)]
fn self_check(
    seed: u64,
    generated: &Generated,
    net: &kairos::network::Network,
    props: &[Prop],
    earlier: &[(usize, bool, bool)],
    time: Time,
    budget: Budget,
    tally: &mut Tally,
) -> bool {
    let formulas: Vec<&StateFormula> = earlier.iter().map(|&(k, ..)| &props[k].goal).collect();
    let config = Config { time, max_states: budget.oracle_states };
    let Ok(mut oracle) = Oracle::explore(net, &formulas, config) else { return false };
    let error = oracle.error.is_some();
    for &(k, found, earlier_error) in earlier {
        let p = &props[k];
        let now_found = oracle.reachable(&p.goal).expect("generated properties evaluate without errors");
        if now_found != found || error != earlier_error {
            let summary = format!(
                "seed {seed}: `{}`: ORACLE SELF-CHECK: grid: goal {found}, error {earlier_error}; {}: goal \
                 {now_found}, error {error}",
                p.text,
                time_name(time)
            );
            let details = format!("{summary}\n--- model ---\n{}", generated.yaml);
            tally.disagreements.push(Disagreement { seed, summary, details });
        }
    }
    true
}

#[allow(clippy::too_many_arguments)]
fn compare(
    seed: u64,
    generated: &Generated,
    model: &kairos::model::types::Model,
    net: &kairos::network::Network,
    p: &Prop,
    found: bool,
    error: &Option<String>,
    oracle: &mut Oracle<'_>,
    time: Time,
    budget: Budget,
    exact_too_big: &mut bool,
    tally: &mut Tally,
) {
    let diagonal = net.has_diagonals || p.goal_has_diagonal();
    use AbstractionChoice::{Alu, Lu, None as Exact};
    // Both orders for every abstraction, with subsumption; and the plain
    // passed list (equal zones only) once.
    let settings = [
        (Lu, Order::Bfs, true),
        (Lu, Order::Dfs, true),
        (Alu, Order::Bfs, true),
        (Alu, Order::Dfs, true),
        (Exact, Order::Bfs, true),
        (Exact, Order::Dfs, true),
        (Lu, Order::Bfs, false),
    ];
    for (abstraction, order, subsumption) in settings {
        // Once the exact zone graph overflowed the state limit without a
        // goal or error to stop at, it will again: spare the time.
        if abstraction == Exact && *exact_too_big && !found && error.is_none() {
            tally.unknown_limit += 1;
            continue;
        }
        {
            let max_states = match abstraction {
                AbstractionChoice::None => budget.none_states,
                _ => 5_000_000,
            };
            let options = Options {
                abstraction: Some(abstraction),
                order,
                limits: Limits { max_states: Some(max_states), ..Limits::default() },
                subsumption,
            };
            tally.engine_runs += 1;
            let setting = format!("{abstraction:?}, {order:?}{}", if subsumption { "" } else { ", no subsumption" });
            let t0 = Instant::now();
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                engine::check(model, Some(net), &p.property, &options)
            }));
            let outcome = match run {
                Ok(o) => o,
                Err(payload) => {
                    let msg = payload
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    let verdict = Verdict::Unknown(Unknown::Unsupported(format!("PANIC: {msg}")));
                    tally.disagreements.push(report(
                        seed,
                        generated,
                        p,
                        &setting,
                        &verdict,
                        found,
                        error,
                        oracle,
                        (time, budget.command),
                    ));
                    continue;
                }
            };
            if std::env::var("KAIROS_DIFF_VERBOSE").is_ok() {
                eprintln!(
                    "seed {seed} {setting} `{}`: {:?} in {:.3} s",
                    p.text,
                    outcome.verdict,
                    t0.elapsed().as_secs_f64()
                );
            }
            // `Some(true)`: the engine found a state meeting the goal.
            let engine_found = match (&outcome.verdict, p.negated) {
                (Verdict::Satisfied, false) | (Verdict::Violated, true) => Some(true),
                (Verdict::Violated, false) | (Verdict::Satisfied, true) => Some(false),
                (Verdict::Error(_), _) => None,
                (Verdict::Unknown(Unknown::StateLimit), _) if abstraction == AbstractionChoice::None => {
                    *exact_too_big |= !found && error.is_none();
                    tally.unknown_limit += 1;
                    continue;
                }
                // Without subsumption an LU graph can exceed millions of
                // zones (seed 2043440: 6.1 million): a budget, not a
                // verdict. With subsumption, the limit is a failure.
                (Verdict::Unknown(Unknown::StateLimit), _) if !subsumption => {
                    tally.unknown_limit += 1;
                    continue;
                }
                (Verdict::Unknown(Unknown::Unsupported(_)), _)
                    if diagonal && abstraction != AbstractionChoice::None =>
                {
                    tally.unsupported_diagonal += 1;
                    continue;
                }
                _ => {
                    tally.disagreements.push(report(
                        seed,
                        generated,
                        p,
                        &setting,
                        &outcome.verdict,
                        found,
                        error,
                        oracle,
                        (time, budget.command),
                    ));
                    continue;
                }
            };
            // With a reachable run-time error the engine may stop at it,
            // unless it met a witness first; it can never exhaust the space.
            let ok = match engine_found {
                Some(true) => found,
                Some(false) => !found && error.is_none(),
                None => error.is_some(),
            };
            if ok {
                tally.agreed += 1;
                match engine_found {
                    Some(true) => tally.agreed_found += 1,
                    None => tally.agreed_error += 1,
                    Some(false) => {}
                }
            } else {
                tally.disagreements.push(report(
                    seed,
                    generated,
                    p,
                    &setting,
                    &outcome.verdict,
                    found,
                    error,
                    oracle,
                    (time, budget.command),
                ));
            }
        }
    }
}

impl Prop {
    fn goal_has_diagonal(&self) -> bool {
        self.goal.has_diagonal()
    }
}

#[allow(clippy::too_many_arguments)]
fn report(
    seed: u64,
    generated: &Generated,
    p: &Prop,
    setting: &str,
    verdict: &Verdict,
    found: bool,
    error: &Option<String>,
    oracle: &mut Oracle<'_>,
    (time, command): (Time, &str),
) -> Disagreement {
    let witness = oracle.witness(&p.goal).map(|i| oracle.show(i));
    let summary = format!(
        "seed {seed}: `{}`: engine ({setting}) {verdict:?}; oracle ({}): goal reachable {found}, \
         run-time error {}",
        p.text,
        time_name(time),
        if error.is_some() { "reachable" } else { "unreachable" }
    );
    let details = format!(
        "DISAGREEMENT (seed {seed})\nproperty: {}\nengine ({setting}): {verdict:?}\n\
         oracle ({}, {} states): goal reachable = {found}{}, run-time error reachable = {:?}\n\
         reproduce: KAIROS_DIFF_SEED={seed} KAIROS_DIFF_COUNT=1 {}\n\
         --- model ---\n{}properties:\n  - {{name: p, check: \"{}\"}}\n",
        p.text,
        time_name(time),
        oracle.state_count(),
        witness.map(|w| format!(" (e.g. {w})")).unwrap_or_default(),
        error,
        command,
        generated.yaml,
        p.text,
    );
    Disagreement { seed, summary, details }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| v.parse().unwrap_or_else(|_| panic!("{name} must be an integer")))
}

/// Checks `count` networks from `first_seed` on, in parallel; panics on any
/// disagreement.
fn campaign(first_seed: u64, count: u64, budget: Budget) -> Tally {
    let next = AtomicU64::new(0);
    let total = Mutex::new(Tally::default());
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut mine = Tally::default();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    check_network(first_seed.wrapping_add(i), budget, &mut mine);
                }
                total.lock().unwrap().merge(mine);
            });
        }
    });
    total.into_inner().unwrap()
}

fn run(default_seed: u64, default_count: u64, budget: Budget) {
    // A model file (with its own properties) instead of random ones.
    if let Ok(path) = std::env::var("KAIROS_DIFF_MODEL") {
        let yaml = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut t = Tally::default();
        check_generated(0, &Generated { yaml, properties: Vec::new() }, budget, &mut t);
        for d in &t.disagreements {
            println!("{}", d.summary);
        }
        println!("{path}: {} engine runs, {} agreed, {} disagreements", t.engine_runs, t.agreed, t.disagreements.len());
        assert!(t.disagreements.is_empty() && t.invalid == 0, "{:?}", t.invalid_examples);
        return;
    }
    let first = env_u64("KAIROS_DIFF_SEED").unwrap_or(default_seed);
    let count = env_u64("KAIROS_DIFF_COUNT").unwrap_or(default_count);
    let started = Instant::now();
    let t = campaign(first, count, budget);
    let elapsed = started.elapsed();
    println!(
        "differential: {} networks (seeds {first}..{}) in {:.1} s\n  \
         {} invalid models, {} properties\n  \
         oracle: {} properties settled ({} on the fine grid, {} on regions), {} states in all, {} properties \
         given up (state budget), {} needing the fine grid on too many clocks, {} with diagonals in networks with \
         strict bounds, {} deadlock properties skipped (run-time errors); networks self-checked: {} integer time vs \
         fine grid, {} grid vs regions\n  \
         engine: {} runs, {} agreed ({} found a goal, {} run-time errors), {} unknown (state limit: without \
         extrapolation or without subsumption), {} unsupported (diagonals with lu/alu)\n  \
         {} DISAGREEMENTS in {} networks",
        t.networks,
        first + count - 1,
        elapsed.as_secs_f64(),
        t.invalid,
        t.properties,
        t.oracle_settled,
        t.fine_grid,
        t.regions,
        t.oracle_states,
        t.oracle_gave_up,
        t.too_many_clocks,
        t.strict_diagonal,
        t.deadlock_with_errors,
        t.self_checks,
        t.region_checks,
        t.engine_runs,
        t.agreed,
        t.agreed_found,
        t.agreed_error,
        t.unknown_limit,
        t.unsupported_diagonal,
        t.disagreements.len(),
        {
            let mut s: Vec<u64> = t.disagreements.iter().map(|d| d.seed).collect();
            s.sort_unstable();
            s.dedup();
            s.len()
        },
    );
    for e in &t.invalid_examples {
        println!("rejected: {e}");
    }
    let mut disagreements = t.disagreements;
    disagreements.sort_by_key(|d| d.seed);
    for d in &disagreements {
        println!("{}", d.summary);
    }
    let mut shown = Vec::new();
    for d in &disagreements {
        if shown.len() < 5 && !shown.contains(&d.seed) {
            shown.push(d.seed);
            println!("{}", d.details);
        }
    }
    assert!(disagreements.is_empty(), "{} disagreements (the first ones are printed above)", disagreements.len());
    assert!(
        t.invalid * 20 <= t.networks && t.bad_queries == 0,
        "too many generated models fail to load ({} of {}, {} bad queries): fix the generator",
        t.invalid,
        t.networks,
        t.bad_queries
    );
    assert!(t.agreed > 0, "nothing was compared");
}

#[test]
fn zone_engine_agrees_with_the_discrete_time_oracle() {
    run(
        1,
        500,
        Budget {
            oracle_states: 20_000,
            none_states: 300,
            fine_clocks: 3,
            cross_check: true,
            command: "cargo test --test differential -- --nocapture",
        },
    );
}

#[test]
#[ignore = "the big campaign: cargo test --release --test differential -- --ignored"]
fn zone_engine_agrees_with_the_discrete_time_oracle_campaign() {
    run(
        1_000_000,
        10_000,
        Budget {
            oracle_states: 1_000_000,
            none_states: 10_000,
            fine_clocks: 5,
            cross_check: true,
            command: "cargo test --release --test differential -- --ignored --nocapture",
        },
    );
}

/// A hand-made network for the oracle tests below.
struct Known {
    loaded: kairos::model::load::Loaded,
    net: kairos::network::Network,
}

impl Known {
    fn new(text: &str) -> Known {
        let loaded = load_model(&Source::new("known.yaml", text.to_string())).unwrap();
        let net = kairos::network::build(&loaded.model).unwrap();
        Known { loaded, net }
    }

    /// The state formula of the `E<>` query `q`.
    fn goal(&self, q: &str) -> StateFormula {
        let p = self.loaded.query("q", q).unwrap();
        let Formula::Path { arg, .. } = &p.formula else { unreachable!() };
        self.net.state_formula(&p, arg).unwrap()
    }

    fn ask(&self, f: &StateFormula, time: Time) -> bool {
        let mut o = Oracle::explore(&self.net, &[f], Config { time, max_states: 100_000 }).unwrap();
        o.reachable(f).unwrap()
    }
}

/// The oracle on two hand-made networks whose answers are known, so that a
/// bug in the oracle does not pass for agreement.
#[test]
fn the_oracle_knows_simple_answers() {
    let text = r#"
model: known
templates:
  P:
    clocks: [x, y]
    initial: a
    locations:
      a: {invariant: "x <= 1"}
      b: {}
      done: {}
    edges:
      - {from: a, to: b, update: "y = 0"}
      - {from: b, to: done, guard: "x - y <= 0"}
      - {from: b, to: done, guard: "x - y >= 1"}
system: [P]
"#;
    let known = Known::new(text);
    let goal = |q: &str| known.goal(q);
    let ask = |f: &StateFormula, grain: i64| known.ask(f, Time::Grid(grain));
    // `y` reset at x = 1/2 leaves x - y = 1/2 in b: a deadlock (steps are
    // enabled when x - y <= 0 or x - y >= 1) that integer time cannot see,
    // and the grid 1/3 can.
    let dead = goal("E<> deadlock and P.b");
    assert!(!ask(&dead, 1));
    assert!(ask(&dead, 3));
    assert!(oracle::strict_atoms(&dead, true) > 1);
    // Reachability of locations and closed clock atoms is the same.
    for q in ["E<> P.done", "E<> P.b and P.x - P.y >= 1", "E<> P.b and P.x >= 7"] {
        let f = goal(q);
        assert!(ask(&f, 1) && ask(&f, 3), "{q}");
    }
    let f = goal("E<> P.a and P.x >= 2");
    assert!(!ask(&f, 1) && !ask(&f, 3));
    // Two strict atoms on one cycle: 0 < x - y < 1 in b; x = y in a.
    for q in ["E<> P.b and P.x - P.y > 0 and P.x - P.y < 1", "E<> P.a and P.x > 0 and P.y < 1"] {
        let f = goal(q);
        assert!(oracle::strict_atoms(&f, true) == 2, "{q}");
        assert!(!ask(&f, 1) && ask(&f, 3), "{q}");
    }
    // Strict lower bounds only: exact in integer time.
    let f = goal("A[] P.x <= 1 or P.y <= 1");
    assert_eq!(oracle::strict_atoms(&f, false), 1);
}

/// The region oracle on a network with strict bounds, where integer time
/// misses behaviours: `x > 1` with the invariant `x < 2` holds only between
/// integers.
#[test]
fn the_region_oracle_knows_strict_answers() {
    let text = r#"
model: strict
templates:
  P:
    clocks: [x, y]
    initial: a
    locations:
      a: {invariant: "x < 2"}
      b: {}
      c: {invariant: "y < 1"}
      never: {}
    edges:
      - {from: a, to: b, guard: "x > 1", update: "y = 0"}
      - {from: a, to: never, guard: "x >= 2"}
      - {from: b, to: c, guard: "x < 2 && y > 0"}
system: [P]
"#;
    let known = Known::new(text);
    let answers = [
        ("E<> P.a and P.x > 0 and P.x < 1", true),
        ("E<> P.b", true),
        ("E<> P.never", false),
        // y is reset at some x in (1, 2), so it is below 1 when x reaches 2.
        ("E<> P.c and P.x >= 2", true),
        ("E<> P.c and P.y >= 1", false),
        // a can always wait for x > 1; b deadlocks once x >= 2 (time may
        // pass there), not before; c is a time-lock.
        ("E<> deadlock and P.a", false),
        ("E<> deadlock and P.b", true),
        ("E<> deadlock and P.b and P.x < 2", false),
        ("E<> deadlock and P.c", true),
    ];
    for (q, expected) in answers {
        assert_eq!(known.ask(&known.goal(q), Time::Regions), expected, "{q}");
    }
    // Integer time never sees `1 < x < 2`.
    assert!(!known.ask(&known.goal("E<> P.b"), Time::Grid(1)));
}
