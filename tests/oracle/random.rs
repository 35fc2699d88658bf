//! A small seeded generator of random networks (moved here from
//! `tests/differential.rs` so that `tests/liveness_differential.rs` can use
//! it too): the same seed, the same network. About half of them have strict
//! clock bounds (a stream of its own, see [`Strictness`]), independently of
//! whether they have diagonal guards (8%).
#![allow(dead_code)]

use std::fmt::Write as _;

// ---------------------------------------------------------------------------
// A small seeded generator (SplitMix64): the same seed, the same network.

pub struct Rng(pub u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
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
    /// Some comparison was made strict.
    made: bool,
}

impl Strictness {
    fn new(seed: u64) -> Strictness {
        let mut rng = Rng(seed ^ 0x5717_c7b0_0dd5_eed5);
        let on = rng.chance(0.5);
        Strictness { rng, on, made: false }
    }

    /// `op` (a clock comparison), made strict in a share of the atoms of a
    /// strict network.
    fn op(&mut self, op: &'static str) -> &'static str {
        if !self.on || self.rng.chance(0.4) {
            return op;
        }
        self.made |= op == "<=" || op == ">=";
        match op {
            "<=" => "<",
            ">=" => ">",
            other => other,
        }
    }
}

/// Any boolean combination (FORMAT.md section 3): guards and properties
/// written with negated compounds, `imply`, disjunctions, `!` and `not`.
/// A stream of its own, like [`Strictness`]: it only rewrites what the
/// main stream drew (guards) or adds properties after the others, so the
/// rest of a seed's network is what it was before booleans were generated.
struct Booleans {
    rng: Rng,
    /// This network has rewritten guards (about a third of them do).
    guards: bool,
}

impl Booleans {
    fn new(seed: u64) -> Booleans {
        let mut rng = Rng(seed ^ 0xb001_ea45_0f0f_1e55);
        let guards = rng.chance(0.35);
        Booleans { rng, guards }
    }

    /// A random boolean tree over `atoms` (each used once, in order), every
    /// compound parenthesised, with negations of atoms and of compounds.
    fn tree(&mut self, atoms: &[String]) -> String {
        let r = &mut self.rng;
        let t = if atoms.len() == 1 {
            atoms[0].clone()
        } else {
            let k = 1 + r.below(atoms.len() - 1);
            let (a, b) = (self.tree(&atoms[..k]), self.tree(&atoms[k..]));
            let op = *self.rng.pick(&["and", "or", "imply", "&&", "||", "and", "or"]);
            format!("({a} {op} {b})")
        };
        match self.rng.below(10) {
            0..=2 => format!("not ({t})"),
            3 => format!("!({t})"),
            _ => t,
        }
    }

    /// A guard from the atoms the main stream drew: their conjunction, or
    /// on some edges of a network with booleans a random tree over them.
    fn guard(&mut self, atoms: &[String]) -> String {
        if !self.guards || atoms.is_empty() || !self.rng.chance(0.5) {
            return atoms.join(" && ");
        }
        self.tree(atoms)
    }
}

pub struct Gen {
    rng: Rng,
    strict: Strictness,
    booleans: Booleans,
    global_clock: bool,
    nmax: i64,
    has_m: bool,
    has_ub: bool,
    diagonals: bool,
    /// `out_of_range: error`: protect most increments by a guard.
    errors: bool,
}

pub struct Generated {
    pub yaml: String,
    pub properties: Vec<String>,
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
            let op = self.strict.op(op);
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

    pub fn generate(seed: u64) -> Generated {
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
            booleans: Booleans::new(seed),
        };
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
        // Synchronisation vectors draw from a stream of their own, so that
        // every other choice of a seed's network is what it was before they
        // existed. With `vectors`, the first two templates' instances are
        // parties (so there are at least two) and later ones half the time;
        // a party is weak a third of the time, and its `sv` edges then carry
        // no clock guard. The channel's line is written once the instances
        // are known.
        let mut vrng = Rng(seed ^ 0x7665_6374_6f72_7321);
        let vectors = vrng.chance(0.3);
        let vector_at = y.len();
        let mut parties: Vec<String> = Vec::new();
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
            let party = vectors && (t < 2 || vrng.chance(0.5));
            let weak = party && vrng.chance(0.33);
            if party {
                let mark = if weak { "?" } else { "" };
                parties.extend(instances[instances.len() - count..].iter().map(|i| format!("\"{}{mark}\"", i.name)));
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
                // are allowed (not on urgent channels; on broadcast
                // receivers half the time, whose zones then split).
                let send = |g: &mut Gen, even: bool| if even != g.rng.chance(0.2) { "!" } else { "?" };
                let (sync, clock_guards) = match g.rng.below(100) {
                    0..=49 => (None, true),
                    50..=66 => (Some(format!("c{}", send(&mut g, t.is_multiple_of(2)))), true),
                    67..=77 => {
                        let dir = send(&mut g, t == 0);
                        let guarded = dir == "!" || g.rng.chance(0.5);
                        (Some(format!("bc{dir}")), guarded)
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
                let on_vector = party && sync.is_none() && vrng.chance(0.4);
                let sync = if on_vector { Some("sv".to_string()) } else { sync };
                let mut protect = Vec::new();
                let nupd = *g.rng.pick(&[0, 1, 1, 2, 2, 3]);
                let updates: Vec<String> = (0..nupd).map(|_| g.update(&ctx, select, &mut protect)).collect();
                let mut atoms = Vec::new();
                for _ in 0..*g.rng.pick(&[0, 1, 1, 1, 2, 2, 3]) {
                    if clock_guards && g.rng.chance(0.6) {
                        // A weak party's clock atom is drawn and dropped: the
                        // main stream stays as without vectors.
                        let atom = g.clock_atom(&ctx);
                        if !(on_vector && weak) {
                            atoms.push(atom);
                        }
                    } else {
                        atoms.push(g.data_atom(&ctx, select));
                    }
                }
                let keep = if g.errors { 0.8 } else { 0.3 };
                let mut guard = Vec::new();
                if !atoms.is_empty() {
                    guard.push(g.booleans.guard(&atoms));
                }
                for p in protect {
                    if g.rng.chance(keep) && !atoms.contains(&p) && !guard.contains(&p) {
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
        if vectors {
            y.insert_str(vector_at, &format!("  sv: {{kind: vector, parties: [{}]}}\n", parties.join(", ")));
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
        // The model has a strict bound (it may have none by chance).
        let strict_model = s.made;
        // Diagonal networks used to be closed, properties included: one
        // whose model came out closed stays what it was.
        if self.diagonals && !strict_model {
            s.on = false;
        }
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
                // Strict only if the model is: a closed model keeps its
                // properties (and the strictness stream its draws).
                let mut op = |op| if strict_model { s.op(op) } else { op };
                out.push(match r.below(3) {
                    0 => format!("E<> {x} - {y} {} {}", op(">="), r.int(1, 4)),
                    1 => format!("E<> {x} - {y} {} {} and {}", op("<="), r.int(-4, -1), loc(r, i)),
                    _ => format!("A[] ({} imply {x} - {y} {} {})", loc(r, i), op("<="), r.int(0, 4)),
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
        // Networks with strict bounds: a diagonal property that pins the
        // difference down (a unit window, an equality, an implication, next
        // to a bound), drawn from the strictness stream so that closed
        // networks keep their properties.
        if strict_model && s.rng.chance(0.5) {
            let q = &mut s.rng;
            let i = inst(q);
            let t = &templates[instances[i].template];
            let (x, y) = if t.clocks.len() >= 2 && q.chance(0.5) {
                // Two clocks of one instance (or one and `g`).
                let a = q.below(t.clocks.len());
                let b = (a + 1 + q.below(t.clocks.len() - 1)) % t.clocks.len();
                let name = |c: &String| if c == "g" { c.clone() } else { format!("{}.{c}", instances[i].name) };
                (name(&t.clocks[a]), name(&t.clocks[b]))
            } else {
                let j = inst(q);
                (clock(q, i), clock(q, j))
            };
            if x != y {
                let c = q.int(-3, 3);
                let op = *q.pick(&["<", "<=", ">", ">="]);
                out.push(match q.below(4) {
                    0 => format!("E<> {x} - {y} > {c} and {x} - {y} < {}", c + 1),
                    1 => format!("E<> {} and {x} - {y} == {c}", loc(q, i)),
                    2 => format!("A[] ({} imply {x} - {y} {op} {c})", loc(q, i)),
                    _ => format!("E<> {x} - {y} {op} {c} and {} {} {}", clock(q, i), q.pick(&["<", ">"]), q.int(0, 6)),
                });
            }
        }
        // Boolean combinations of location, data and clock atoms (strict
        // and not, diagonals in networks that have them), from the
        // booleans' stream.
        for quant in ["E<>", "A[]"] {
            let q = &mut self.booleans.rng;
            let mut atoms = Vec::new();
            for _ in 0..q.int(2, 4) {
                let i = inst(q);
                atoms.push(match q.below(8) {
                    0 | 1 => loc(q, i),
                    2 => format!("n {} {}", q.pick(&["==", "!=", "<=", ">"]), q.int(0, self.nmax)),
                    3 => (*q.pick(&["b", "!b", "a[0] >= 1", "a[1] + a[2] <= 2"])).to_string(),
                    4 if self.diagonals => {
                        let j = inst(q);
                        let (x, y) = (clock(q, i), clock(q, j));
                        if x == y {
                            loc(q, i)
                        } else {
                            format!("{x} - {y} {} {}", q.pick(&["<", "<=", ">", ">=", "=="]), q.int(-3, 3))
                        }
                    }
                    _ => format!("{} {} {}", clock(q, i), q.pick(&["<", "<=", ">", ">=", "=="]), q.int(0, 6)),
                });
            }
            if q.chance(0.1) {
                atoms.push("deadlock".into());
            }
            out.push(format!("{quant} {}", self.booleans.tree(&atoms)));
        }
        out
    }
}

/// Random liveness properties over the network's locations and data.
pub fn liveness_properties(net: &kairos::network::Network, seed: u64) -> Vec<String> {
    let mut r = Rng(seed ^ 0x5eed_11fe);
    let atom = |r: &mut Rng| -> String {
        let p = &net.processes[r.below(net.processes.len())];
        let data: Vec<_> = net.slots.iter().filter(|s| !s.name.contains('[') && !s.name.contains('.')).collect();
        if !data.is_empty() && r.chance(0.25) {
            let s = data[r.below(data.len())];
            return if s.is_bool { s.name.clone() } else { format!("{} >= {}", s.name, r.int(s.lo, s.hi)) };
        }
        format!("{}.{}", p.name, p.locations[r.below(p.locations.len())].name)
    };
    let (a, b, c) = (atom(&mut r), atom(&mut r), atom(&mut r));
    vec![
        format!("E[] not {a}"),
        format!("E[] ({a} or {b})"),
        format!("A<> {a}"),
        format!("A<> ({b} or not {c})"),
        format!("{a} --> {b}"),
        format!("({b} and not {c}) --> ({a} or {c})"),
    ]
}
