//! Typed properties: TCTL over state predicates, and which engine answers them.

use crate::model::typed::{Cmp, Cvar, Dnf, TExpr};
use crate::syntax::ast::{Extremum, PathOp, PathQuant};

/// A time bound `[~ n]` on a temporal operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBound {
    pub cmp: Cmp,
    pub value: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Formula {
    /// A predicate over locations, data and clocks.
    State(Dnf),
    Deadlock,
    Not(Box<Formula>),
    And(Box<Formula>, Box<Formula>),
    Or(Box<Formula>, Box<Formula>),
    Imply(Box<Formula>, Box<Formula>),
    Path {
        op: PathOp,
        bound: Option<TimeBound>,
        arg: Box<Formula>,
    },
    Until {
        quant: PathQuant,
        bound: Option<TimeBound>,
        lhs: Box<Formula>,
        rhs: Box<Formula>,
    },
    LeadsTo {
        bound: Option<TimeBound>,
        lhs: Box<Formula>,
        rhs: Box<Formula>,
    },
    /// `sup{cond}: terms` / `inf{cond}: terms`: a whole property, never
    /// nested (boxed: the largest variant, and a rare one).
    Measure(Box<Measure>),
}

/// The supremum or infimum of each term over the reachable states where
/// `cond` (a state formula) holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Measure {
    pub kind: Extremum,
    pub cond: Box<Formula>,
    pub terms: Vec<Term>,
}

/// One measured term, as written and as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    pub text: String,
    pub value: TermValue,
}

/// What UPPAAL measures: a clock, or an integer expression over the data.
#[derive(Clone, Debug, PartialEq)]
pub enum TermValue {
    Clock(Cvar),
    Data(TExpr),
}

/// The engines of FORMAT.md section 3, as reported in JSON `engine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    Reach,
    Observer,
    Live,
    Tctl,
}

impl EngineKind {
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Reach => "reach",
            EngineKind::Observer => "observer",
            EngineKind::Live => "live",
            EngineKind::Tctl => "tctl",
        }
    }
}

impl Formula {
    /// No temporal operator inside (`deadlock` included).
    pub fn is_state(&self) -> bool {
        match self {
            Formula::State(_) | Formula::Deadlock => true,
            Formula::Not(a) => a.is_state(),
            Formula::And(a, b) | Formula::Or(a, b) | Formula::Imply(a, b) => a.is_state() && b.is_state(),
            _ => false,
        }
    }

    /// The engine FORMAT.md section 3 routes this formula to.
    pub fn engine(&self) -> EngineKind {
        let observer_bound = |b: &Option<TimeBound>| matches!(b, Some(TimeBound { cmp: Cmp::Le | Cmp::Lt, .. }));
        match self {
            Formula::Path { op: PathOp::EF | PathOp::AG, bound: None, arg } if arg.is_state() => EngineKind::Reach,
            // The forward search, measuring (`engine::extremum`).
            Formula::Measure(_) => EngineKind::Reach,
            Formula::LeadsTo { bound, lhs, rhs } if lhs.is_state() && rhs.is_state() => {
                if bound.is_none() {
                    EngineKind::Live
                } else if observer_bound(bound) {
                    EngineKind::Observer
                } else {
                    EngineKind::Tctl
                }
            }
            Formula::Path { op: PathOp::AF, bound, arg } if arg.is_state() && observer_bound(bound) => {
                EngineKind::Observer
            }
            Formula::Path { op: PathOp::AF | PathOp::EG, bound: None, arg } if arg.is_state() => EngineKind::Live,
            Formula::Path { op: PathOp::AG, bound: None, arg } => match arg.as_ref() {
                Formula::Imply(p, q) if p.is_state() => match q.as_ref() {
                    Formula::Path { op: PathOp::AF, bound, arg } if arg.is_state() && observer_bound(bound) => {
                        EngineKind::Observer
                    }
                    Formula::Path { op: PathOp::AF, bound: None, arg } if arg.is_state() => EngineKind::Live,
                    _ => EngineKind::Tctl,
                },
                _ => EngineKind::Tctl,
            },
            _ => EngineKind::Tctl,
        }
    }
}
