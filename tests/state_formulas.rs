//! State formulas are any boolean combination of location, label, data and
//! clock atoms (FORMAT.md section 3), in properties and guards.
//!
//! - The shapes users write first, on the railway crossing, each with its
//!   verdict argued, and the counterexample of a violated `A[]` replayed
//!   into the complement of the formula.
//! - An oracle for the normalisation (negations pushed to the atoms, then a
//!   DNF): random boolean trees over the atoms of a small network, evaluated
//!   by this test on random states, against the compiled formula evaluated
//!   by the trace validator on the same states. Neither evaluator shares
//!   code with the typing that produced the DNF.

use crate::common;

use std::path::Path;

use kairos::engine::{self, Options, Verdict};
use kairos::model::formula::Formula;
use kairos::network::StateFormula;
use kairos::semantics::Discrete;
use kairos::trace::{self, ConcreteState, ConcreteTrace, Rational};

fn railway() -> kairos::model::load::Loaded {
    common::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("models/railway-crossing.yaml")).unwrap()
}

/// The verdict of `query`; a violated `A[]` or satisfied `E<>` also gives a
/// trace that must replay into its target (checked inside `concretise`).
fn check(loaded: &kairos::model::load::Loaded, query: &str) -> Verdict {
    let net = kairos::network::build(&loaded.model).unwrap();
    let p = loaded.query("q", query).unwrap_or_else(|d| panic!("{query}: {d:?}"));
    let o = engine::check(&loaded.model, Some(&net), &p, &Options::default());
    if let Some(t) = &o.trace {
        trace::concretise(&net, t).unwrap_or_else(|e| panic!("{query}: {e}"));
    }
    o.verdict
}

#[test]
fn the_shapes_users_write_first_on_the_railway_crossing() {
    let m = railway();
    // A train that approached 3 time units ago sees the gate down: the gate
    // is down at most 1 after the first `approach` (models/railway-crossing
    // .yaml, argument step 2), and a near train's clock counts from it.
    assert_eq!(check(&m, "A[] (Train(1).near and Train(1).x == 3 imply Gate.down)"), Verdict::Satisfied);
    // Train(1) far with a large x (x is not reset while far) while Train(2)
    // has just approached: count == 1 and the gate is still up.
    assert_eq!(check(&m, "A[] (count == 1 and Train(1).x >= 3 imply Gate.down)"), Verdict::Violated);
    // A near train may wait until x = 5 before entering: x >= 3 while near.
    assert_eq!(check(&m, "A[] not (Train(1).near and Train(1).x >= 3)"), Verdict::Violated);
    // ... but it enters by x = 5 (invariant), so never near with x > 5.
    assert_eq!(check(&m, "A[] not (Train(1).near and Train(1).x > 5)"), Verdict::Satisfied);
    // The initial state has the gate up and x = 0, so it satisfies the
    // negation at once.
    assert_eq!(check(&m, "E<> not (Gate.up and Train(1).x > 1)"), Verdict::Satisfied);
    // Whenever the gate is up, no train is on the crossing: the safety
    // property with a negated disjunction over instances.
    assert_eq!(check(&m, "A[] (Gate.up imply not (Train(1).on or Train(2).on or Train(3).on))"), Verdict::Satisfied);
    // De Morgan through a quantifier: some train is not far, with x > 4.
    assert_eq!(check(&m, "E<> not forall (i : 1..3) (Train(i).far or Train(i).x <= 4)"), Verdict::Satisfied);
    // `imply` nested on the left of `imply`: ((near imply x <= 5) imply down)
    // fails where near with x <= 5 and the gate not yet down (at the approach).
    assert_eq!(check(&m, "A[] ((Train(1).near imply Train(1).x <= 5) imply Gate.down)"), Verdict::Violated);
}

#[test]
fn a_negated_compound_guard_splits_into_its_cases() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models/formulas/negated-guard.yaml");
    let m = common::load(&path).unwrap();
    for p in &m.model.properties {
        let got = check(&m, &p.text);
        let want = if matches!(p.expect, Some(kairos::model::decl::Expect::Bool(true))) {
            Verdict::Satisfied
        } else {
            Verdict::Violated
        };
        assert_eq!(got, want, "{}", p.name);
    }
    assert_eq!(m.model.properties.len(), 3);
}

#[test]
fn a_counterexample_outside_the_complement_is_refused() {
    // The planted check: the trace of a violated `A[] φ` must end in
    // `not φ`; given `φ` as its target instead, the replay refuses it.
    let m = railway();
    let net = kairos::network::build(&m.model).unwrap();
    let p = m.query("q", "A[] not (Train(1).near and Train(1).x >= 3)").unwrap();
    let o = engine::check(&m.model, Some(&net), &p, &Options::default());
    let mut t = o.trace.expect("a counterexample");
    trace::concretise(&net, &t).expect("the honest trace replays");
    let Some(StateFormula::Not(phi)) = t.target.take() else { panic!("the target of an A[] is `not φ`") };
    t.target = Some(*phi);
    let err = trace::concretise(&net, &t).expect_err("a run ending in φ is no counterexample to A[] φ");
    assert!(err.to_string().contains("outside the property's target"), "{err}");
}

#[test]
fn guards_and_properties_never_panic_on_deep_negations() {
    // Every nesting of `not` over `and`/`or`/`imply` types without a panic
    // and with at most the located "too large" refusal.
    let m = railway();
    let mut f = "Train(1).x > 1".to_string();
    for k in 0..40 {
        let atom = format!("Train({}).x {} {}", 1 + k % 3, ["<", "<=", ">=", "==", ">"][k % 5], k % 6);
        f = match k % 4 {
            0 => format!("not ({f} and {atom})"),
            1 => format!("!({atom} || {f})"),
            2 => format!("not ({f} imply {atom})"),
            _ => format!("({atom} imply not {f})"),
        };
        if let Err(d) = m.query("q", &format!("E<> {f}")) {
            assert!(d.iter().all(|d| d.code == "too-large"), "{d:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// The normalisation against direct evaluation.

/// A random boolean tree over the atoms of `points.yaml`.
#[derive(Clone, Debug)]
enum Tree {
    /// `P(i).l_k`
    Loc(usize, u32),
    /// `n ~ c`
    Data(Op, i64),
    B,
    /// `P(i).x ~ c` (clock `x`/`y` of instance `i`), or a difference with
    /// `P(j).y`.
    Clock {
        i: usize,
        y: bool,
        minus: Option<usize>,
        op: Op,
        c: i64,
    },
    Not(Box<Tree>),
    And(Box<Tree>, Box<Tree>),
    Or(Box<Tree>, Box<Tree>),
    Imply(Box<Tree>, Box<Tree>),
    /// `forall`/`exists (i : 1..2) P(i).x ~ c`
    Quant {
        forall: bool,
        op: Op,
        c: i64,
    },
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
}

impl Op {
    fn text(self) -> &'static str {
        ["<", "<=", "==", "!=", ">=", ">"][self as usize]
    }
    fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Ge => a >= b,
            Op::Gt => a > b,
        }
    }
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
    fn op(&mut self) -> Op {
        [Op::Lt, Op::Le, Op::Eq, Op::Ne, Op::Ge, Op::Gt][self.below(6) as usize]
    }
}

fn tree(r: &mut Rng, depth: u32) -> Tree {
    let bx = Box::new;
    if depth == 0 || r.below(4) == 0 {
        return match r.below(6) {
            0 => Tree::Loc(1 + r.below(2) as usize, r.below(3) as u32),
            1 => Tree::Data(r.op(), r.below(4) as i64),
            2 => Tree::B,
            3 => Tree::Quant { forall: r.below(2) == 0, op: r.op(), c: r.below(5) as i64 },
            _ => {
                let minus = (r.below(4) == 0).then(|| 1 + r.below(2) as usize);
                let c = r.below(5) as i64 - if minus.is_some() { 2 } else { 0 };
                Tree::Clock { i: 1 + r.below(2) as usize, y: r.below(2) == 0, minus, op: r.op(), c }
            }
        };
    }
    match r.below(5) {
        0 => Tree::Not(bx(tree(r, depth - 1))),
        1 => Tree::And(bx(tree(r, depth - 1)), bx(tree(r, depth - 1))),
        2 => Tree::Or(bx(tree(r, depth - 1)), bx(tree(r, depth - 1))),
        3 => Tree::Imply(bx(tree(r, depth - 1)), bx(tree(r, depth - 1))),
        _ => Tree::Not(bx(Tree::And(bx(tree(r, depth - 1)), bx(tree(r, depth - 1))))),
    }
}

/// The text of `t`, every compound parenthesised, in both spellings of the
/// connectives.
fn text(t: &Tree, r: &mut Rng) -> String {
    let clock = |i: usize, y: bool| format!("P({i}).{}", if y { "y" } else { "x" });
    match t {
        Tree::Loc(i, l) => format!("P({i}).l{l}"),
        Tree::Data(op, c) => format!("n {} {c}", op.text()),
        Tree::B => "b".into(),
        Tree::Clock { i, y, minus: None, op, c } => format!("{} {} {c}", clock(*i, *y), op.text()),
        Tree::Clock { i, y, minus: Some(j), op, c } => {
            format!("{} - {} {} {c}", clock(*i, *y), clock(*j, !*y), op.text())
        }
        Tree::Quant { forall, op, c } => {
            // A quantifier's body extends as far right as it can.
            format!("({} (i : 1..2) P(i).x {} {c})", if *forall { "forall" } else { "exists" }, op.text())
        }
        Tree::Not(a) => {
            let a = text(a, r);
            // `not` binds loosely (`not a || b` is `not (a || b)`): parenthesised.
            if r.below(2) == 0 { format!("(not ({a}))") } else { format!("!({a})") }
        }
        Tree::And(a, b) => {
            let op = if r.below(2) == 0 { "and" } else { "&&" };
            format!("({} {op} {})", text(a, r), text(b, r))
        }
        Tree::Or(a, b) => {
            let op = if r.below(2) == 0 { "or" } else { "||" };
            format!("({} {op} {})", text(a, r), text(b, r))
        }
        Tree::Imply(a, b) => format!("({} imply {})", text(a, r), text(b, r)),
    }
}

/// A state of `points.yaml`: locations, `n`, `b`, and the clocks in half
/// units (`x` of `P(i)` at `2i - 2`, `y` at `2i - 1`).
struct Point {
    locs: [u32; 2],
    n: i64,
    b: bool,
    halves: [i64; 4],
}

fn eval(t: &Tree, p: &Point) -> bool {
    let clock = |i: usize, y: bool| p.halves[2 * (i - 1) + y as usize];
    match t {
        Tree::Loc(i, l) => p.locs[i - 1] == *l,
        Tree::Data(op, c) => op.holds(p.n, *c),
        Tree::B => p.b,
        Tree::Clock { i, y, minus, op, c } => {
            let v = clock(*i, *y) - minus.map_or(0, |j| clock(j, !*y));
            op.holds(v, 2 * c)
        }
        Tree::Quant { forall, op, c } => {
            let mut each = (1..=2).map(|i| op.holds(clock(i, false), 2 * c));
            if *forall { each.all(|b| b) } else { each.any(|b| b) }
        }
        Tree::Not(a) => !eval(a, p),
        Tree::And(a, b) => eval(a, p) && eval(b, p),
        Tree::Or(a, b) => eval(a, p) || eval(b, p),
        Tree::Imply(a, b) => !eval(a, p) || eval(b, p),
    }
}

#[test]
fn the_normal_form_means_what_the_formula_says() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models/formulas/points.yaml");
    let loaded = common::load(&path).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let slot = |name: &str| net.slots.iter().position(|s| s.name == name).unwrap();
    let (n_slot, b_slot) = (slot("n"), slot("b"));
    let clock_slot: Vec<usize> = ["P(1).x", "P(1).y", "P(2).x", "P(2).y"]
        .iter()
        .map(|c| net.clocks.iter().position(|k| k == c).unwrap_or_else(|| panic!("{c} in {:?}", net.clocks)))
        .collect();
    let mut r = Rng(19);
    let (mut formulas, mut points, mut disjuncts) = (0, 0, 0);
    for _ in 0..400 {
        let t = tree(&mut r, 4);
        let q = text(&t, &mut r);
        let p = loaded.query("q", &format!("E<> {q}")).unwrap_or_else(|d| panic!("`{q}`: {d:?}"));
        let Formula::Path { arg, .. } = &p.formula else { panic!("`{q}`: not an E<>") };
        if let Formula::State(d) = arg.as_ref() {
            disjuncts += d.len();
        }
        let f = net.state_formula(&p, arg).unwrap();
        formulas += 1;
        for _ in 0..40 {
            let pt = Point {
                locs: [r.below(3) as u32, r.below(3) as u32],
                n: r.below(4) as i64,
                b: r.below(2) == 0,
                halves: [r.below(11) as i64, r.below(11) as i64, r.below(11) as i64, r.below(11) as i64],
            };
            let mut data = vec![0; net.slots.len()];
            data[n_slot] = pt.n;
            data[b_slot] = pt.b as i64;
            let mut clocks = vec![Rational::from_integer(0.into()); net.clocks.len()];
            for (k, &s) in clock_slot.iter().enumerate() {
                clocks[s] = Rational::new(pt.halves[k].into(), 2.into());
            }
            let state = ConcreteState { discrete: Discrete { locs: pt.locs.into(), data: data.into() }, clocks };
            let at = ConcreteTrace {
                initial: state,
                steps: vec![],
                final_delay: Rational::from_integer(0.into()),
                loop_start: None,
                rates: None,
            };
            let got = trace::validate::ends_in(&net, &at, &f).unwrap().unwrap();
            assert_eq!(
                got,
                eval(&t, &pt),
                "`{q}` at locations {:?}, n = {}, b = {}, clocks (halves) {:?}",
                pt.locs,
                pt.n,
                pt.b,
                pt.halves
            );
            points += 1;
        }
    }
    println!("{formulas} formulas ({disjuncts} disjuncts in all), {points} points");
}
