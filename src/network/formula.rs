//! Properties compiled against the network: state formulas whose atoms are
//! compiled data conditions and DBM constraints.

use crate::diag::{Diagnostic, Loc};
use crate::model::formula::{Formula, TermValue};
use crate::model::typed::Cvar;
use crate::model::types::Property;
use crate::network::compile::Env;
use crate::network::linear::atom_constraints;
use crate::network::{ClockConstraint, Code, Network};

/// One disjunct of a state predicate.
#[derive(Clone, Debug)]
pub struct StateConj {
    /// `None` is `true`.
    pub data: Option<Code>,
    pub clocks: Vec<ClockConstraint>,
}

/// A formula without temporal operators, as the engines evaluate it on a
/// symbolic state (a set of valuations, not one point).
#[derive(Clone, Debug)]
pub enum StateFormula {
    /// A disjunction; empty is `false`.
    Pred(Vec<StateConj>),
    Deadlock,
    Not(Box<StateFormula>),
    And(Box<StateFormula>, Box<StateFormula>),
    Or(Box<StateFormula>, Box<StateFormula>),
}

impl StateFormula {
    pub fn mentions_deadlock(&self) -> bool {
        match self {
            StateFormula::Pred(_) => false,
            StateFormula::Deadlock => true,
            StateFormula::Not(a) => a.mentions_deadlock(),
            StateFormula::And(a, b) | StateFormula::Or(a, b) => a.mentions_deadlock() || b.mentions_deadlock(),
        }
    }

    pub fn has_diagonal(&self) -> bool {
        match self {
            StateFormula::Pred(d) => d.iter().any(|c| c.clocks.iter().any(|k| k.i != 0 && k.j != 0)),
            StateFormula::Deadlock => false,
            StateFormula::Not(a) => a.has_diagonal(),
            StateFormula::And(a, b) | StateFormula::Or(a, b) => a.has_diagonal() || b.has_diagonal(),
        }
    }

    /// Some atom constrains a clock.
    pub fn has_clock_atoms(&self) -> bool {
        let mut cs = Vec::new();
        self.clock_constraints(&mut cs);
        !cs.is_empty()
    }

    pub(crate) fn clock_constraints<'a>(&'a self, out: &mut Vec<&'a ClockConstraint>) {
        let mut conjs = Vec::new();
        self.conjunctions(&mut conjs);
        out.extend(conjs.into_iter().flat_map(|c| &c.clocks));
    }

    /// Every conjunction of its atoms' disjunctions.
    pub fn conjunctions<'a>(&'a self, out: &mut Vec<&'a StateConj>) {
        match self {
            StateFormula::Pred(d) => out.extend(d),
            StateFormula::Deadlock => {}
            StateFormula::Not(a) => a.conjunctions(out),
            StateFormula::And(a, b) | StateFormula::Or(a, b) => {
                a.conjunctions(out);
                b.conjunctions(out);
            }
        }
    }
}

/// A `sup`/`inf` term compiled: a clock's index (from 1), or the code of
/// an integer expression over the data.
#[derive(Clone, Debug)]
pub enum MeasuredTerm {
    Clock(u32),
    Data(Code),
}

/// A diagnostic on `property`, at its position.
fn property_error(property: &Property, code: &'static str, msg: String) -> Diagnostic {
    Diagnostic::new(
        Loc { file: property.file.clone(), pos: property.pos, len: 1 },
        code,
        format!("property `{}`: {msg}", property.name),
    )
}

impl Network {
    /// Compiles a term of `property`, a `sup`/`inf` query.
    pub fn measured_term(&self, property: &Property, t: &TermValue) -> Result<MeasuredTerm, Diagnostic> {
        match t {
            TermValue::Clock(Cvar::Continuous(_)) => Err(property_error(
                property,
                "unsupported",
                "`sup`/`inf` of a continuous variable is not supported yet".into(),
            )),
            TermValue::Clock(c) => {
                Ok(MeasuredTerm::Clock(crate::network::build::clock_index(&self.local_clocks, 0, *c)))
            }
            TermValue::Data(e) => {
                let env = Env { layout: &self.layout, inst: 0, args: &[], selects: &[], select_slot: None };
                env.compile(e).map(MeasuredTerm::Data).map_err(|e| property_error(property, "too-large", e))
            }
        }
    }

    /// Compiles a state formula of `property`. Pre: `f.is_state()`.
    pub fn state_formula(&self, property: &Property, f: &Formula) -> Result<StateFormula, Diagnostic> {
        let env = Env { layout: &self.layout, inst: 0, args: &[], selects: &[], select_slot: None };
        let err = |code: &'static str, msg: String| property_error(property, code, msg);
        let bx = |f| Box::new(f);
        Ok(match f {
            Formula::State(dnf) => {
                let mut out = Vec::with_capacity(dnf.len());
                for conj in dnf {
                    let all = conj.data.iter().cloned().reduce(|a, b| {
                        crate::model::typed::TExpr::Binary(crate::syntax::ast::BinOp::And, Box::new(a), Box::new(b))
                    });
                    let data = match all {
                        None => None,
                        Some(t) => match env.compile(&t).map_err(|e| err("too-large", e))? {
                            c if c.as_const().is_some_and(|v| v != 0) => None,
                            c => Some(c),
                        },
                    };
                    let mut clocks = Vec::new();
                    for a in &conj.lin {
                        let first = self.hybrid.as_ref().map(|h| h.first_continuous);
                        atom_constraints(&env, &self.local_clocks, first, &self.params, a, &mut clocks)
                            .map_err(|(code, msg)| err(code, msg))?;
                    }
                    out.push(StateConj { data, clocks });
                }
                StateFormula::Pred(out)
            }
            Formula::Deadlock => StateFormula::Deadlock,
            Formula::Not(a) => StateFormula::Not(bx(self.state_formula(property, a)?)),
            Formula::And(a, b) => {
                StateFormula::And(bx(self.state_formula(property, a)?), bx(self.state_formula(property, b)?))
            }
            Formula::Or(a, b) => {
                StateFormula::Or(bx(self.state_formula(property, a)?), bx(self.state_formula(property, b)?))
            }
            Formula::Imply(a, b) => StateFormula::Or(
                bx(StateFormula::Not(bx(self.state_formula(property, a)?))),
                bx(self.state_formula(property, b)?),
            ),
            _ => {
                return Err(err(
                    "unsupported",
                    "temporal operators nested in a state formula need the TCTL engine (not supported yet)".into(),
                ));
            }
        })
    }

    /// Keeps the constants of `f`'s clock atoms in the extrapolation bounds
    /// of every state, from both sides (an atom acts like a guard).
    /// The network with `f`'s clock constants in its LU bounds
    /// ([`Network::add_formula_bounds`]): itself when `f` has no clock atom,
    /// since a copy costs the whole network (large when a `select` over a
    /// wide range is expanded).
    pub fn with_formula_bounds(&self, f: &StateFormula) -> std::borrow::Cow<'_, Network> {
        let mut cs = Vec::new();
        f.clock_constraints(&mut cs);
        if cs.is_empty() {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut net = self.clone();
        net.add_formula_bounds(f);
        std::borrow::Cow::Owned(net)
    }

    pub fn add_formula_bounds(&mut self, f: &StateFormula) {
        let mut cs = Vec::new();
        f.clock_constraints(&mut cs);
        for c in cs {
            let (lo, hi) = c.effective_range();
            let m = lo.saturating_abs().max(hi.saturating_abs());
            for k in [c.i, c.j] {
                if k != 0 {
                    self.lu.add_global(k as usize, m, m);
                }
            }
        }
    }
}
