//! The product of a network and the observer of a bounded response.

use super::Response;
use crate::diag::Pos;
use crate::domain::poly::Q;
use crate::model::formula::Formula;
use crate::model::typed::{Cmp, TExpr};
use crate::network::compile::Env;
use crate::network::{
    ClockConstraint, Code, Edge, LinearTerm, Location, LuBounds, Network, Op, Process, StateConj, StateFormula, Update,
};
use crate::syntax::ast::BinOp;

/// The network with the observer added, and where to find it.
#[derive(Clone, Debug)]
pub struct Product {
    pub net: Network,
    /// The observer's process and its clock.
    pub process: u32,
    pub clock: u32,
    pub wait: u32,
    pub bad: u32,
}

impl Product {
    /// `Observer.<loc>` as a state formula.
    pub fn at(&self, loc: u32) -> StateFormula {
        let code = Code { ops: vec![Op::AtLoc { inst: self.process, loc }], ..Code::default() };
        StateFormula::Pred(vec![StateConj { data: Some(code), clocks: Vec::new() }])
    }
}

/// A clock-free state formula as one boolean expression.
fn expr(f: &Formula) -> Result<TExpr, String> {
    let bin = |op, a: &Formula, b: &Formula| Ok(TExpr::Binary(op, Box::new(expr(a)?), Box::new(expr(b)?)));
    match f {
        Formula::State(dnf) => {
            let mut out: Option<TExpr> = None;
            for conj in dnf {
                if !conj.lin.is_empty() {
                    return Err("clock constraints in a bounded-response property are not supported yet".into());
                }
                let all = conj
                    .data
                    .iter()
                    .cloned()
                    .reduce(|a, b| TExpr::Binary(BinOp::And, Box::new(a), Box::new(b)))
                    .unwrap_or(TExpr::Const(1));
                out = Some(match out {
                    None => all,
                    Some(o) => TExpr::Binary(BinOp::Or, Box::new(o), Box::new(all)),
                });
            }
            Ok(out.unwrap_or(TExpr::Const(0)))
        }
        Formula::Not(a) => Ok(TExpr::Not(Box::new(expr(a)?))),
        Formula::And(a, b) => bin(BinOp::And, a, b),
        Formula::Or(a, b) => bin(BinOp::Or, a, b),
        Formula::Imply(a, b) => bin(BinOp::Imply, a, b),
        Formula::Deadlock => Err("`deadlock` in a bounded-response property is not supported yet".into()),
        _ => Err("temporal operators nested in a state formula need the TCTL engine (not supported yet)".into()),
    }
}

fn location(name: &str, invariant_data: Option<Code>) -> Location {
    Location {
        name: name.into(),
        invariant: Vec::new(),
        invariant_data,
        urgent: false,
        committed: false,
        labels: Vec::new(),
    }
}

/// When a response is late: `w > value`, or `w >= value` when `reached`.
#[derive(Clone, Debug)]
pub struct Late {
    pub value: Q,
    pub reached: bool,
}

impl Late {
    /// Late for `r`'s bound: past `n` for `<= n`, at `n` for `< n`.
    pub fn of(r: &Response) -> Late {
        Late { value: Q::from_integer(r.bound.value.into()), reached: r.bound.cmp == Cmp::Lt }
    }

    /// `late` as a guard on `w`: a difference constraint for an integer
    /// value; a linear one (linear networks only) otherwise.
    fn guard(&self, net: &Network, w: u32) -> Result<ClockConstraint, String> {
        // w > n (w >= n when reached): 0 - w < -n (0 - w <= -n).
        let strict = !self.reached;
        if self.value.is_integer() {
            let n =
                i64::try_from(self.value.to_integer()).map_err(|_| format!("the bound {} is too large", self.value))?;
            return Ok(ClockConstraint {
                i: 0,
                j: w,
                strict,
                bound: Code::constant(n),
                negate: true,
                range: (n, n),
                linear: None,
            });
        }
        if net.hybrid.is_none() {
            return Err(format!("a non-integer bound ({}) on a timed network", self.value));
        }
        // -w < -value: the terms against `0 + offset`.
        let linear = LinearTerm { terms: vec![(w, -1)], offset: -self.value.clone() };
        Ok(ClockConstraint {
            i: 0,
            j: 0,
            strict,
            bound: Code::constant(0),
            negate: false,
            range: (0, 0),
            linear: Some(Box::new(linear)),
        })
    }
}

/// `net` with the observer of `r`, which goes `bad` when `late`; without
/// `late`, the observer has no `bad` edge (to measure response times,
/// `kairos bound`).
pub fn product(net: &Network, r: &Response, late: Option<&Late>) -> Result<Product, String> {
    let env = Env { layout: &net.layout, inst: 0, args: &[], selects: &[], select_slot: None };
    let not_psi = TExpr::Not(Box::new(expr(&r.response)?));
    let not_psi_code = env.compile(&not_psi)?;
    let mut out = net.clone();
    out.clocks.push("Observer.w".into());
    let w = out.clocks.len() as u32;
    let process = out.processes.len() as u32;
    let nowhere = Pos { index: 0, line: 0, column: 0 };
    let edge = |from, to, guard_data, guard_clocks, updates| Edge {
        from,
        to,
        guard_data,
        guard_clocks,
        sync: None,
        updates,
        select: Vec::new(),
        pos: nowhere,
    };
    let (idle, wait, bad) = (0, 1, 2);
    let mut edges = Vec::new();
    if let Some(phi) = &r.trigger {
        let start = TExpr::Binary(BinOp::And, Box::new(expr(phi)?), Box::new(not_psi));
        let start = env.compile(&start)?;
        edges.push(edge(idle, wait, Some(start), Vec::new(), vec![Update::Reset { clock: w, value: 0 }]));
    }
    if let Some(late) = late {
        edges.push(edge(wait, bad, None, vec![late.guard(net, w)?], Vec::new()));
    }
    let mut outgoing = vec![Vec::new(); 3];
    for (k, e) in edges.iter().enumerate() {
        outgoing[e.from as usize].push(k as u32);
    }
    out.processes.push(Process {
        name: "Observer".into(),
        template: "Observer".into(),
        locations: vec![location("idle", None), location("wait", Some(not_psi_code)), location("bad", None)],
        initial: if r.trigger.is_some() { idle } else { wait },
        edges,
        outgoing,
        observer: true,
        select_groups: Vec::new(),
    });
    if let Some(h) = &mut out.hybrid {
        // `w` is read in `wait` only, and reset on entering it: elsewhere it
        // stands still, so that it does not grow the polyhedra forever.
        h.add_clock(w, process as usize, &[false, true, false]);
    }
    out.local_clocks.push(vec![w]);
    out.layout.local.push(Vec::new());
    out.lu = LuBounds::new(&out.processes, &out.channels, out.clocks.len());
    Ok(Product { net: out, process, clock: w, wait, bad })
}
