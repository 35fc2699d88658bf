//! Bitwise and shift operators, `~`, `<?`/`>?` and compound assignments (FORMAT.md
//! "Expressions"), differentially: random well-typed expressions are printed
//! with as few parentheses as UPPAAL's precedence table allows, compiled by
//! kairos (from the YAML format and through the UPPAAL importer) and run on
//! random data; an evaluator written here from the operators' arithmetic
//! definitions (bits as floor divisions, shifts as multiplications by powers
//! of two, in 128 bits) is the oracle, error for error.

use crate::common;

use kairos::import::import_uppaal;
use kairos::model::load::load_model;
use kairos::network::{Network, Update};
use kairos::syntax::yaml::Source;

/// A small deterministic generator (xorshift64*): no dependency, same cases
/// on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Min,
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cmp {
    Lt,
    Le,
    Eq,
    Ne,
}

#[derive(Clone, Debug)]
enum Int {
    Lit(i64),
    Var(usize),
    Neg(Box<Int>),
    Compl(Box<Int>),
    Bin(Op, Box<Int>, Box<Int>),
    Cond(Box<Bool>, Box<Int>, Box<Int>),
}

#[derive(Clone, Debug)]
enum Bool {
    Cmp(Cmp, Box<Int>, Box<Int>),
    And(Box<Bool>, Box<Bool>),
    Or(Box<Bool>, Box<Bool>),
    Not(Box<Bool>),
}

const VARS: [&str; 3] = ["a", "b", "c"];

// UPPAAL's (and C's) precedence, loosest first: `?:` 1, `||` 2, `&&` 3,
// `|` 4, `^` 5, `&` 6, `==` `!=` 7, `<` `<=` 8, `<?` `>?` 9, `<<` `>>` 10,
// `+` `-` 11, `*` `/` `%` 12, prefix 13, atoms 14.
fn op_prec(op: Op) -> u8 {
    match op {
        Op::Or => 4,
        Op::Xor => 5,
        Op::And => 6,
        Op::Min | Op::Max => 9,
        Op::Shl | Op::Shr => 10,
        Op::Add | Op::Sub => 11,
        Op::Mul | Op::Div | Op::Mod => 12,
    }
}

fn op_text(op: Op) -> &'static str {
    match op {
        Op::Add => "+",
        Op::Sub => "-",
        Op::Mul => "*",
        Op::Div => "/",
        Op::Mod => "%",
        Op::And => "&",
        Op::Or => "|",
        Op::Xor => "^",
        Op::Shl => "<<",
        Op::Shr => ">>",
        Op::Min => "<?",
        Op::Max => ">?",
    }
}

fn gen_int(r: &mut Rng, depth: u32) -> Int {
    let leaf = depth == 0 || r.below(5) == 0;
    if leaf {
        // No literal operands: a constant subexpression that fails would be
        // a load-time error, and this test is about run-time evaluation.
        return Int::Var(r.below(3) as usize);
    }
    match r.below(12) {
        0 => Int::Neg(Box::new(gen_int(r, depth - 1))),
        1 => Int::Compl(Box::new(gen_int(r, depth - 1))),
        2 => Int::Cond(
            Box::new(gen_bool(r, depth - 1)),
            Box::new(gen_int(r, depth - 1)),
            Box::new(gen_int(r, depth - 1)),
        ),
        k => {
            let ops = [
                Op::Add,
                Op::Sub,
                Op::Mul,
                Op::Div,
                Op::Mod,
                Op::And,
                Op::Or,
                Op::Xor,
                Op::Shl,
                Op::Shr,
                Op::Min,
                Op::Max,
            ];
            let op = ops[(k as usize - 3 + r.below(12) as usize) % ops.len()];
            // Shift counts: mostly valid literals, sometimes anything (errors).
            let rhs = if matches!(op, Op::Shl | Op::Shr) && r.below(4) != 0 {
                Int::Lit(r.range(0, 63))
            } else {
                gen_int(r, depth - 1)
            };
            Int::Bin(op, Box::new(gen_int(r, depth - 1)), Box::new(rhs))
        }
    }
}

fn gen_bool(r: &mut Rng, depth: u32) -> Bool {
    match if depth == 0 { 0 } else { r.below(5) } {
        0 | 1 => {
            let cmp = [Cmp::Lt, Cmp::Le, Cmp::Eq, Cmp::Ne][r.below(4) as usize];
            Bool::Cmp(cmp, Box::new(gen_int(r, depth.saturating_sub(1))), Box::new(gen_int(r, depth.saturating_sub(1))))
        }
        2 => Bool::And(Box::new(gen_bool(r, depth - 1)), Box::new(gen_bool(r, depth - 1))),
        3 => Bool::Or(Box::new(gen_bool(r, depth - 1)), Box::new(gen_bool(r, depth - 1))),
        _ => Bool::Not(Box::new(gen_bool(r, depth - 1))),
    }
}

/// `text` in parentheses when it binds looser than `min`.
fn wrap((text, prec): (String, u8), min: u8) -> String {
    if prec < min { format!("({text})") } else { text }
}

fn show_int(e: &Int) -> (String, u8) {
    match e {
        Int::Lit(v) => (v.to_string(), 14),
        Int::Var(i) => (VARS[*i].to_string(), 14),
        // `- -x` would lex as `--` in UPPAAL: parenthesise nested prefixes.
        Int::Neg(a) => (format!("-{}", wrap(show_int(a), 14)), 13),
        Int::Compl(a) => (format!("~{}", wrap(show_int(a), 14)), 13),
        Int::Bin(op, a, b) => {
            let p = op_prec(*op);
            (format!("{} {} {}", wrap(show_int(a), p), op_text(*op), wrap(show_int(b), p + 1)), p)
        }
        Int::Cond(c, a, b) => {
            (format!("{} ? {} : {}", wrap(show_bool(c), 2), wrap(show_int(a), 1), wrap(show_int(b), 1)), 1)
        }
    }
}

fn show_bool(e: &Bool) -> (String, u8) {
    match e {
        Bool::Cmp(c, a, b) => {
            let (t, p) = match c {
                Cmp::Lt => ("<", 8),
                Cmp::Le => ("<=", 8),
                Cmp::Eq => ("==", 7),
                Cmp::Ne => ("!=", 7),
            };
            (format!("{} {t} {}", wrap(show_int(a), p), wrap(show_int(b), p + 1)), p)
        }
        Bool::And(a, b) => (format!("{} && {}", wrap(show_bool(a), 3), wrap(show_bool(b), 4)), 3),
        Bool::Or(a, b) => (format!("{} || {}", wrap(show_bool(a), 2), wrap(show_bool(b), 3)), 2),
        Bool::Not(a) => (format!("!{}", wrap(show_bool(a), 14)), 13),
    }
}

/// Bit `i` of `x` in two's complement, from its definition: floor(x / 2^i) mod 2.
fn bit(x: i128, i: u32) -> i128 {
    x.div_euclid(1 << i).rem_euclid(2)
}

/// The 64-bit two's complement number whose bits are `f(bit_i(x), bit_i(y))`.
fn bitwise(x: i64, y: i64, f: impl Fn(i128, i128) -> i128) -> i64 {
    let mut v: i128 = 0;
    for i in 0..64 {
        let b = f(bit(x as i128, i), bit(y as i128, i));
        v += if i == 63 { -b << 63 } else { b << i };
    }
    i64::try_from(v).expect("64 bits")
}

fn fit(v: i128) -> Option<i64> {
    i64::try_from(v).ok()
}

/// The oracle: `None` is a run-time error (overflow, division by zero, a
/// shift count outside 0..=63).
fn eval_int(e: &Int, env: &[i64; 3]) -> Option<i64> {
    match e {
        Int::Lit(v) => Some(*v),
        Int::Var(i) => Some(env[*i]),
        Int::Neg(a) => fit(-(eval_int(a, env)? as i128)),
        Int::Compl(a) => bitwise(eval_int(a, env)?, 0, |x, _| 1 - x).into(),
        Int::Cond(c, a, b) => {
            if eval_bool(c, env)? {
                eval_int(a, env)
            } else {
                eval_int(b, env)
            }
        }
        Int::Bin(op, a, b) => {
            let (x, y) = (eval_int(a, env)?, eval_int(b, env)?);
            let (u, v) = (x as i128, y as i128);
            match op {
                Op::Add => fit(u + v),
                Op::Sub => fit(u - v),
                Op::Mul => fit(u * v),
                // Truncating division, remainder with the dividend's sign.
                Op::Div | Op::Mod if v == 0 => None,
                Op::Div => {
                    let q = u.abs() / v.abs();
                    fit(if (u < 0) != (v < 0) { -q } else { q })
                }
                Op::Mod => {
                    let m = u.abs() % v.abs();
                    fit(if u < 0 { -m } else { m })
                }
                Op::And => Some(bitwise(x, y, |p, q| p * q)),
                Op::Or => Some(bitwise(x, y, |p, q| p + q - p * q)),
                Op::Xor => Some(bitwise(x, y, |p, q| (p + q) % 2)),
                Op::Shl | Op::Shr if !(0..64).contains(&v) => None,
                Op::Shl => fit(u * (1i128 << v)),
                Op::Shr => fit(u.div_euclid(1i128 << v)),
                Op::Min => Some(if x <= y { x } else { y }),
                Op::Max => Some(if x >= y { x } else { y }),
            }
        }
    }
}

fn eval_bool(e: &Bool, env: &[i64; 3]) -> Option<bool> {
    match e {
        Bool::Cmp(c, a, b) => {
            let (x, y) = (eval_int(a, env)?, eval_int(b, env)?);
            Some(match c {
                Cmp::Lt => x < y,
                Cmp::Le => x <= y,
                Cmp::Eq => x == y,
                Cmp::Ne => x != y,
            })
        }
        Bool::And(a, b) => Some(eval_bool(a, env)? && eval_bool(b, env)?),
        Bool::Or(a, b) => Some(eval_bool(a, env)? || eval_bool(b, env)?),
        Bool::Not(a) => Some(!eval_bool(a, env)?),
    }
}

const CASES: usize = 400;
const VALUATIONS: usize = 25;

fn cases() -> Vec<Int> {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    (0..CASES).map(|_| gen_int(&mut r, 4)).collect()
}

fn yaml_model(cases: &[Int]) -> String {
    let mut s = String::from(
        "model: bitwise\nvariables:\n  a: {range: [-100000, 100000]}\n  b: {range: [-100000, 100000]}\n  c: {range: [-100000, 100000]}\n  r: {range: [-1000000, 1000000]}\ntemplates:\n  P:\n    initial: l\n    locations: {l: {}}\n    edges:\n",
    );
    for e in cases {
        s.push_str(&format!("      - {{from: l, to: l, update: \"r = {}\"}}\n", show_int(e).0));
    }
    s.push_str("system: [P]\n");
    s
}

fn uppaal_model(cases: &[Int]) -> String {
    let mut s = String::from(
        "<nta><declaration>int[-100000, 100000] a, b, c; int r;</declaration>\n<template><name>P</name><location id=\"l\"><name>l</name></location><init ref=\"l\"/>\n",
    );
    for e in cases {
        let text = show_int(e).0.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        s.push_str(&format!(
            "<transition><source ref=\"l\"/><target ref=\"l\"/><label kind=\"assignment\">r = {text}</label></transition>\n"
        ));
    }
    s.push_str("</template><system>system P;</system></nta>\n");
    s
}

fn network(name: &str, yaml: &str) -> Network {
    let loaded = load_model(&Source::new(name, yaml.to_string()))
        .unwrap_or_else(|d| panic!("{name}: {}", d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")));
    kairos::network::build(&loaded.model).unwrap_or_else(|d| panic!("{name}: {d:?}"))
}

/// Runs every edge's `r = e` on random valuations of `a`, `b`, `c` and
/// compares with the oracle; returns how many evaluations ended in an error.
fn differential(net: &Network, cases: &[Int], what: &str) -> usize {
    let slot = |n: &str| net.slots.iter().position(|s| s.name == n).unwrap_or_else(|| panic!("{what}: no `{n}`"));
    let slots = [slot("a"), slot("b"), slot("c")];
    let edges = &net.processes[0].edges;
    assert_eq!(edges.len(), cases.len(), "{what}: one edge per case");
    let mut r = Rng(0xD1B5_4A32_D192_ED03);
    let mut data = vec![0; net.slots.len()];
    let mut stack = Vec::new();
    let mut errors = 0;
    for (edge, e) in edges.iter().zip(cases) {
        let [Update::Data { value, .. }] = edge.updates.as_slice() else { panic!("{what}: one update per edge") };
        for k in 0..VALUATIONS {
            // Small values often (shift counts, equal operands), the extremes sometimes.
            let pick = |r: &mut Rng| match (k, r.below(4)) {
                (0, _) => 0,
                (_, 0) => r.range(-100000, 100000),
                (_, 1) => [-100000, 100000, -1, 1][r.below(4) as usize],
                _ => r.range(-9, 70),
            };
            let env = [pick(&mut r), pick(&mut r), pick(&mut r)];
            for (s, v) in slots.iter().zip(env) {
                data[*s] = v;
            }
            let got = value.eval(&[0], &data, &mut stack).ok();
            let want = eval_int(e, &env);
            assert_eq!(got, want, "{what}: `{}` with a, b, c = {env:?}", show_int(e).0);
            errors += usize::from(want.is_none());
        }
    }
    errors
}

#[test]
fn compiled_expressions_agree_with_the_arithmetic_definitions() {
    let cases = cases();
    let net = network("bitwise.yaml", &yaml_model(&cases));
    let errors = differential(&net, &cases, "kairos format");
    let total = CASES * VALUATIONS;
    // The oracle is exercised on both sides: values and run-time errors.
    assert!(errors > total / 50 && errors < total / 2, "{errors} errors in {total} evaluations");
}

#[test]
fn imported_uppaal_expressions_agree_with_the_arithmetic_definitions() {
    let cases = cases();
    let model = import_uppaal("bitwise.xml", &uppaal_model(&cases))
        .unwrap_or_else(|d| panic!("{}", d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")));
    let net = network("bitwise.xml", &model.yaml);
    differential(&net, &cases, "UPPAAL import");
}

/// Precedence cases worth naming: each reads as the parenthesised form.
#[test]
fn precedence_follows_uppaal() {
    let pairs = [
        ("1 | 6 & 3", "1 | (6 & 3)"),
        ("5 ^ 1 | 2", "(5 ^ 1) | 2"),
        ("6 & 3 ^ 1", "(6 & 3) ^ 1"),
        ("1 << 2 + 1", "1 << (2 + 1)"),
        ("1 << 3 < 9 ? 1 : 0", "((1 << 3) < 9) ? 1 : 0"),
        ("~1 + 3", "(~1) + 3"),
        ("-8 >> 1", "(-8) >> 1"),
        ("(6 & 3) == 2 ? 7 : 8", "((6 & 3) == 2) ? 7 : 8"),
        ("7 >? 2 << 3", "7 >? (2 << 3)"),
        ("1 + 2 <? 2", "(1 + 2) <? 2"),
        ("3 <? 5 < 4 ? 1 : 0", "((3 <? 5) < 4) ? 1 : 0"),
    ];
    let mut s = String::from("model: prec\nvariables:\n  r: {range: [-100, 100]}\nproperties:\n");
    for (k, (a, b)) in pairs.iter().enumerate() {
        s.push_str(&format!("  - {{name: p{k}, check: \"AG ({a}) == ({b})\", expect: true}}\n"));
    }
    s.push_str("templates:\n  P:\n    initial: l\n    locations: {l: {}}\nsystem: [P]\n");
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("lang-bitwise-prec.yaml");
    std::fs::write(&path, &s).unwrap();
    let (code, out, err) = common::kairos(&["check", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    // And a mistaken parse is a type error, not a silent other meaning.
    let (code, out, err) = common::kairos(&["check", path.to_str().unwrap(), "-q", "AG (1 & 2 == 2)"]);
    assert_eq!(code, 2, "`1 & (2 == 2)` mixes an integer and a boolean: {out}{err}");
}

/// Compound assignments, as updates and inside functions, against their
/// expanded forms `v = v op e`.
#[test]
fn compound_assignments_are_their_expanded_forms() {
    let model = "model: compound
variables:
  v: {range: [-1000, 1000], init: 13}
  w: {range: [-1000, 1000], init: 13}
functions:
  - |
    void step(int &x) {
      x <<= 2; x |= 3; x ^= 9; x &= 57; x >>= 1; x *= 3; x /= 2; x %= 17; x -= 4; x += 1;
    }
templates:
  P:
    initial: a
    locations: {a: {}, b: {}, c: {}}
    edges:
      - {from: a, to: b, update: \"step(v); w = ((((((((((w << 2) | 3) ^ 9) & 57) >> 1) * 3) / 2) % 17) - 4) + 1)\"}
      - {from: b, to: c, update: \"v <<= 3; w = w << 3\"}
system: [P]
properties:
  - {name: same, check: \"AG v == w\", expect: true}
  - {name: moved, check: \"EF P.c && v == 40\", expect: true}
";
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("lang-compound.yaml");
    std::fs::write(&path, model).unwrap();
    let (code, out, err) = common::kairos(&["check", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
}
