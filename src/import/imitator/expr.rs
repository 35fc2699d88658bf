//! IMITATOR expressions printed as kairos expressions, and the linear forms
//! of the initial constraint's conjuncts.
//!
//! The operators map one to one (`=` is `==`, `<>` is `!=`, `&` is `&&`,
//! `|` is `||`, `=>` is `imply`, `not` is `!`); numbers must be integers
//! (`2.0` is 2). Division is refused: IMITATOR divides rationals, kairos
//! truncates integers, so no translation of `/` keeps its meaning in general.

use std::collections::HashMap;

use super::lex::Src;
use super::parse::{Expr, ExprKind};
use crate::diag::Diagnostic;
use crate::domain::poly::Q;

/// What an IMITATOR name is, and its kairos name.
#[derive(Clone, Debug)]
pub(super) struct Sym {
    pub kind: super::parse::Kind,
    pub kairos: String,
}

/// The names an expression may use, and how location predicates print.
pub(super) struct Scope<'a> {
    pub src: &'a Src,
    pub names: &'a HashMap<String, Sym>,
    /// IMITATOR automaton → (kairos instance, IMITATOR location → kairos location).
    pub automata: &'a HashMap<String, (String, HashMap<String, String>)>,
}

/// Binding strength of a printed operator (higher binds tighter).
fn prec(op: &str) -> u8 {
    match op {
        "=>" => 1,
        "|" => 2,
        "&" => 3,
        "=" | "<>" | "<" | "<=" | ">" | ">=" => 4,
        "+" | "-" => 5,
        _ => 6,
    }
}

fn kairos_op(op: &str) -> &'static str {
    match op {
        "=>" => "imply",
        "|" => "||",
        "&" => "&&",
        "=" => "==",
        "<>" => "!=",
        "<" => "<",
        "<=" => "<=",
        ">" => ">",
        ">=" => ">=",
        "+" => "+",
        "-" => "-",
        _ => "*",
    }
}

/// The integer a numeral denotes, or why not.
pub(super) fn integer(text: &str) -> Option<String> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if !frac.chars().all(|c| c == '0') {
        return None;
    }
    let int = int.trim_start_matches('0');
    Some(if int.is_empty() { "0".to_string() } else { int.to_string() })
}

impl Scope<'_> {
    /// `e` in kairos's syntax; `Err` holds every unsupported or unknown part.
    pub fn print(&self, e: &Expr) -> Result<String, Vec<Diagnostic>> {
        let mut d = Vec::new();
        let s = self.go(e, &mut d);
        if d.is_empty() { Ok(s) } else { Err(d) }
    }

    fn go(&self, e: &Expr, d: &mut Vec<Diagnostic>) -> String {
        match &e.kind {
            ExprKind::Num(n) => integer(n).unwrap_or_else(|| {
                d.push(self.src.diag(
                    e.at,
                    n.len(),
                    "unsupported",
                    format!("the non-integer number `{n}` is not supported yet"),
                ));
                String::new()
            }),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Var(v) => match self.names.get(v) {
                Some(s) => s.kairos.clone(),
                None => {
                    d.push(self.src.diag(e.at, v.chars().count(), "unknown-name", format!("`{v}` is not declared")));
                    String::new()
                }
            },
            ExprKind::Neg(a) => format!("-{}", self.child(a, 7, d)),
            ExprKind::Not(a) => format!("!{}", self.child(a, 7, d)),
            ExprKind::Bin("/", ..) => {
                d.push(self.src.diag(
                    e.at,
                    1,
                    "unsupported",
                    "division is not supported yet (IMITATOR divides rationals)",
                ));
                String::new()
            }
            ExprKind::Bin(op, a, b) => {
                let p = prec(op);
                // Comparisons do not chain, and `-` is not associative: the
                // right operand of an operator of equal strength is parenthesised.
                let left = self.child(a, if p == 4 { p + 1 } else { p }, d);
                let right = self.child(b, p + 1, d);
                format!("{left} {} {right}", kairos_op(op))
            }
            ExprKind::Loc { automaton, loc, eq } => {
                let Some((inst, locs)) = self.automata.get(&automaton.text) else {
                    d.push(self.src.diag(
                        automaton.at,
                        automaton.text.chars().count(),
                        "unknown-name",
                        format!("there is no automaton `{}`", automaton.text),
                    ));
                    return String::new();
                };
                let Some(l) = locs.get(&loc.text) else {
                    d.push(self.src.diag(
                        loc.at,
                        loc.text.chars().count(),
                        "unknown-name",
                        format!("automaton `{}` has no location `{}`", automaton.text, loc.text),
                    ));
                    return String::new();
                };
                if *eq { format!("{inst}.{l}") } else { format!("!{inst}.{l}") }
            }
        }
    }

    fn child(&self, e: &Expr, min: u8, d: &mut Vec<Diagnostic>) -> String {
        let s = self.go(e, d);
        match &e.kind {
            ExprKind::Bin(op, ..) if prec(op) < min => format!("({s})"),
            _ => s,
        }
    }
}

/// A linear form `Σ coeff·name + constant`, or `None` when `e` is not
/// linear with rational coefficients.
pub(super) fn linear(e: &Expr) -> Option<(HashMap<String, Q>, Q)> {
    let zero = || Q::from_integer(0.into());
    match &e.kind {
        ExprKind::Num(n) => Some((HashMap::new(), decimal(n)?)),
        ExprKind::Var(v) => Some((HashMap::from([(v.clone(), Q::from_integer(1.into()))]), zero())),
        ExprKind::Neg(a) => linear(a).map(|(m, c)| (m.into_iter().map(|(k, v)| (k, -v)).collect(), -c)),
        ExprKind::Bin(op @ ("+" | "-"), a, b) => {
            let (mut m, c) = linear(a)?;
            let (n, k) = linear(b)?;
            let sign = if *op == "+" { Q::from_integer(1.into()) } else { Q::from_integer((-1).into()) };
            for (name, v) in n {
                *m.entry(name).or_insert_with(zero) += &sign * v;
            }
            Some((m, c + sign * k))
        }
        ExprKind::Bin(op @ ("*" | "/"), a, b) => {
            let (m, c) = linear(a)?;
            let (n, k) = linear(b)?;
            if *op == "/" {
                if !n.values().all(|v| *v == zero()) || k == zero() {
                    return None;
                }
                return Some((m.into_iter().map(|(x, v)| (x, v / &k)).collect(), c / k));
            }
            let (vars, scale, constant) = match (m.values().all(|v| *v == zero()), n.values().all(|v| *v == zero())) {
                (true, _) => (n, c, k),
                (_, true) => (m, k, c),
                _ => return None,
            };
            Some((vars.into_iter().map(|(x, v)| (x, v * &scale)).collect(), constant * scale))
        }
        _ => None,
    }
}

/// A decimal numeral as a rational (`0.25` is 1/4).
fn decimal(text: &str) -> Option<Q> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits: num_bigint::BigInt = format!("{int}{frac}").parse().ok()?;
    Some(Q::new(digits, num_bigint::BigInt::from(10).pow(frac.len() as u32)))
}
