//! Which data slots stay explicit under `--data bdd` (issue 16, item 2).
//!
//! A slot read in a clock bound (a guard's or an invariant's constant side),
//! in an array index, or in a channel index stays explicit: its value is part
//! of the discrete state, as in the explicit engine, so that the zone
//! operations, the synchronisation and references see one number. The
//! others are encoded in the data BDD. `symbolic: false` in the model makes
//! a variable explicit anyway; `symbolic: true` on one that must be explicit
//! is a model error ([`Split::conflicts`]).
//!
//! The analysis follows values through one program (a guard, an update, an
//! index, a bound, with its inlined functions): a value depends on the slots
//! it is computed from, on the conditions of the branches it is computed
//! in (`c ? 1 : 2` reads `c`), and, through the frame, on what locals and
//! parameters were given. A loop's body is run again until nothing new
//! flows around it.
//!
//! Values stored into the data are not followed across steps: a slot
//! assigned from BDD data (`idx = reading`) does not make its source
//! explicit. The engine splits every data set by the values of the explicit
//! slots after each step instead (one symbolic state per value), which is
//! sound whatever flows in, and keeps a wide source (a sensor reading) in
//! the BDD when only a coarse value derived from it must be explicit.

use std::collections::BTreeSet;

use crate::network::{ChannelIndex, Code, Network, Op, Target, Update};

/// Why a slot must be explicit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Read in a clock bound, at the edge or location named.
    ClockBound(String),
    /// Read in an array index.
    ArrayIndex(String),
    /// Read in a channel index.
    ChannelIndex(String),
    /// `symbolic: false` in the model.
    Forced,
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::ClockBound(at) => write!(f, "read in a clock bound at `{at}`"),
            Reason::ArrayIndex(at) => write!(f, "read in an array index at `{at}`"),
            Reason::ChannelIndex(at) => write!(f, "read in a channel index at `{at}`"),
            Reason::Forced => write!(f, "`symbolic: false` in the model"),
        }
    }
}

/// Per data slot: `None` when BDD-encoded, else why it is explicit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    pub explicit: Vec<Option<Reason>>,
}

impl Split {
    /// The split of `net`'s data slots: the slots the programs require
    /// explicit, then those forced by `symbolic: false`.
    pub fn of(net: &Network) -> Split {
        let mut explicit = required(net);
        for (s, slot) in net.slots.iter().enumerate() {
            if slot.symbolic == Some(false) && explicit[s].is_none() {
                explicit[s] = Some(Reason::Forced);
            }
        }
        Split { explicit }
    }

    pub fn is_explicit(&self, s: usize) -> bool {
        self.explicit.get(s).is_some_and(|r| r.is_some())
    }

    /// The slots forced `symbolic: true` that must be explicit, with why.
    pub fn conflicts<'a>(&'a self, net: &'a Network) -> impl Iterator<Item = (usize, &'a Reason)> + 'a {
        let forced = move |s: usize| net.slots[s].symbolic == Some(true);
        self.explicit
            .iter()
            .enumerate()
            .filter_map(move |(s, r)| Some((s, r.as_ref()?)))
            .filter(move |(s, _)| forced(*s))
    }
}

/// Per data slot, the first reason the programs of `net` give for it to
/// be explicit (`symbolic:` not consulted).
pub fn required(net: &Network) -> Vec<Option<Reason>> {
    let mut out = vec![None; net.slots.len()];
    let data = net.slots.len() as u32;
    let mut mark = |deps: &Deps, why: &dyn Fn() -> Reason| {
        for &s in deps.iter().filter(|&&s| s < data) {
            if out[s as usize].is_none() {
                out[s as usize] = Some(why());
            }
        }
    };
    for (pi, p) in net.processes.iter().enumerate() {
        for l in &p.locations {
            let at = || format!("{}.{}", p.name, l.name);
            for c in &l.invariant {
                let (index, value) = flows(&c.bound);
                mark(&index, &|| Reason::ArrayIndex(at()));
                mark(&value, &|| Reason::ClockBound(at()));
            }
            if let Some(code) = &l.invariant_data {
                mark(&flows(code).0, &|| Reason::ArrayIndex(at()));
            }
        }
        let edges = p.edges.iter().enumerate().map(|(k, e)| (net.edge_text(pi as u32, k as u32), e));
        let groups = p.select_groups.iter().map(|g| (net.edge_text(pi as u32, g.members[0]), &g.edge));
        for (at, e) in edges.chain(groups) {
            let at = || at.clone();
            let mut codes: Vec<&Code> = e.guard_data.iter().collect();
            for u in &e.updates {
                match u {
                    Update::Data { target, value } => {
                        codes.push(value);
                        if let Target::Indexed { index, .. } = target {
                            let (inner, value) = flows(index);
                            mark(&inner, &|| Reason::ArrayIndex(at()));
                            mark(&value, &|| Reason::ArrayIndex(at()));
                        }
                    }
                    Update::Effect(code) | Update::Assign { value: code, .. } => codes.push(code),
                    Update::Reset { .. } => {}
                }
            }
            for code in codes {
                mark(&flows(code).0, &|| Reason::ArrayIndex(at()));
            }
            for c in &e.guard_clocks {
                let (index, value) = flows(&c.bound);
                mark(&index, &|| Reason::ArrayIndex(at()));
                mark(&value, &|| Reason::ClockBound(at()));
            }
            if let Some(ChannelIndex::Dynamic { index, .. }) = e.sync.as_ref().map(|s| &s.channel) {
                let (inner, value) = flows(index);
                mark(&inner, &|| Reason::ArrayIndex(at()));
                mark(&value, &|| Reason::ChannelIndex(at()));
            }
        }
    }
    out
}

/// A set of slots (data slots first, then select slots).
pub type Deps = BTreeSet<u32>;

/// What a program's values depend on: the slots read by its array indices,
/// and the slots its result depends on.
pub fn flows(code: &Code) -> (Deps, Deps) {
    let mut run = Flow { code, index: Deps::new() };
    let mut stack: Vec<Value> = vec![Value::default(); code.locals as usize];
    run.segment(0, code.ops.len(), &mut stack, &Deps::new());
    let result = if stack.len() > code.locals as usize { pop(&mut stack).deps } else { Deps::new() };
    (run.index, result)
}

/// An abstract value: the slots it depends on, and, for an address (a
/// reference bound to an element), the slots it may point to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Value {
    deps: Deps,
    addr: Deps,
}

impl Value {
    fn of(deps: Deps) -> Value {
        Value { deps, addr: Deps::new() }
    }

    fn union(&self, other: &Value) -> Value {
        Value { deps: &self.deps | &other.deps, addr: &self.addr | &other.addr }
    }
}

struct Flow<'c> {
    code: &'c Code,
    /// The slots read by some array index.
    index: Deps,
}

fn pop(stack: &mut Vec<Value>) -> Value {
    stack.pop().unwrap_or_default()
}

impl Flow<'_> {
    /// Ops `pc..stop` on `stack`, every value made there depending on `ctx`
    /// (the conditions of the enclosing branches) too.
    fn segment(&mut self, mut pc: usize, stop: usize, stack: &mut Vec<Value>, ctx: &Deps) {
        let with = |d: Deps| Value::of(&d | ctx);
        while pc < stop {
            match self.code.ops[pc] {
                Op::Const(_) | Op::AtLoc { .. } => stack.push(with(Deps::new())),
                Op::Load(s) => stack.push(with(Deps::from([s]))),
                Op::LoadIdx { base, len } => {
                    let i = pop(stack);
                    self.index.extend(&i.deps);
                    stack.push(with(&i.deps | &(base..base + len).collect::<Deps>()));
                }
                Op::CheckIndex(_) => {
                    let top = stack.last().map(|v| v.deps.clone()).unwrap_or_default();
                    self.index.extend(top);
                }
                Op::Neg | Op::Not | Op::Bool | Op::Check(_) => {}
                Op::Bin(_) => {
                    let b = pop(stack);
                    let a = pop(stack);
                    stack.push(a.union(&b));
                }
                Op::JumpIfZero(t) | Op::JumpIfNonZero(t) => {
                    let t = (t as usize).clamp(pc + 1, stop);
                    let cond = pop(stack);
                    let inner = &cond.deps | ctx;
                    let mut taken = stack.clone();
                    taken.push(cond);
                    self.segment(pc + 1, t, stack, &inner);
                    merge(stack, &taken);
                    pc = t;
                    continue;
                }
                Op::PopJumpIfZero(t) => {
                    let t = (t as usize).clamp(pc + 1, stop);
                    let cond = pop(stack);
                    let inner = &cond.deps | ctx;
                    let (then_end, end) = match self.code.ops[t - 1] {
                        Op::Jump(e) if (e as usize) >= t && (e as usize) <= stop => (t - 1, e as usize),
                        _ => (t, t),
                    };
                    let mut other = stack.clone();
                    self.segment(pc + 1, then_end, stack, &inner);
                    self.segment(t, end, &mut other, &inner);
                    merge(stack, &other);
                    pc = end;
                    continue;
                }
                // A loop's back edge: the loop runs again on what this pass
                // left, until nothing new flows (sets only grow).
                Op::Jump(start) if (start as usize) <= pc => loop {
                    let before = stack.to_vec();
                    self.segment(start as usize, pc, stack, ctx);
                    merge(stack, &before);
                    if *stack == before {
                        break;
                    }
                },
                Op::Jump(_) | Op::Tick => {}
                Op::LoadLocal(l) => {
                    let v = stack.get(l as usize).cloned().unwrap_or_default();
                    stack.push(v.union(&with(Deps::new())));
                }
                Op::StoreLocal(l) => {
                    let v = pop(stack).union(&with(Deps::new()));
                    if let Some(slot) = stack.get_mut(l as usize) {
                        *slot = v;
                    }
                }
                Op::LoadAt(l) => {
                    let r = stack.get(l as usize).cloned().unwrap_or_default();
                    stack.push(with(&r.deps | &r.addr));
                }
                // A local array's element: any of its slots (the address's
                // `addr` names frame slots here).
                Op::LoadLocalIdx { base, len } => {
                    let i = pop(stack);
                    self.index.extend(&i.deps);
                    let mut v = with(i.deps.clone());
                    for l in base..base + len {
                        v = v.union(&stack.get(l as usize).cloned().unwrap_or_default());
                    }
                    stack.push(v);
                }
                Op::LoadLocalAt(l) => {
                    let r = stack.get(l as usize).cloned().unwrap_or_default();
                    let mut v = with(r.deps.clone());
                    for a in &r.addr {
                        v = v.union(&stack.get(*a as usize).cloned().unwrap_or_default());
                    }
                    stack.push(v);
                }
                Op::StoreLocalAt(l) => {
                    let v = pop(stack).union(&with(Deps::new()));
                    let r = stack.get(l as usize).cloned().unwrap_or_default();
                    for a in &r.addr {
                        if let Some(slot) = stack.get_mut(*a as usize) {
                            *slot = slot.union(&v);
                        }
                    }
                }
                Op::Addr { base, len } => {
                    let i = pop(stack);
                    self.index.extend(&i.deps);
                    stack.push(Value { deps: &i.deps | ctx, addr: (base..base + len).collect() });
                }
                Op::Store { .. } | Op::StoreAt { .. } | Op::Pop => {
                    pop(stack);
                }
                Op::StoreIdx { .. } => {
                    pop(stack);
                    let i = pop(stack);
                    self.index.extend(i.deps);
                }
            }
            pc += 1;
        }
    }
}

/// `stack` joined with `other` element by element (the two branches of a
/// conditional leave stacks of one height).
fn merge(stack: &mut [Value], other: &[Value]) {
    for (a, b) in stack.iter_mut().zip(other) {
        *a = a.union(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::load::load_model;
    use crate::syntax::yaml::Source;

    /// Variables in every role; `extra` adds declarations to `variables:`.
    fn model(extra: &str) -> String {
        format!(
            r#"model: split
variables:
  d: {{range: [1, 3], init: 2}}
  i: {{range: [0, 1]}}
  k: {{range: [0, 1]}}
  c: {{range: [0, 1]}}
  cond: {{type: bool}}
  src: {{range: [0, 100], init: any}}
  via: {{range: [0, 1]}}
  free: {{range: [0, 100], init: any}}
  a: {{range: [0, 5], size: 2}}
{extra}
channels:
  go: {{kind: binary, size: 2}}
functions:
  - |
    int at(int j) {{
      int t = j;
      return a[t];
    }}
templates:
  P:
    clocks: [x]
    initial: l0
    locations:
      l0: {{invariant: "x <= d"}}
      l1: {{}}
    edges:
      - {{from: l0, to: l1, guard: "a[i] == 0 && free > 3", update: "via = src % 2"}}
      - {{from: l1, to: l0, guard: "at(k) + a[cond ? 0 : 1] + a[via] >= 0", sync: "go[c]!"}}
      - {{from: l1, to: l1, sync: "go[0]?", update: "a[0] = src % 6"}}
system:
  - P
"#
        )
    }

    fn split_of(text: &str) -> (Network, Split) {
        let loaded = load_model(&Source::new("split.yaml", text.to_string())).expect("a valid model");
        let net = crate::network::build(&loaded.model).expect("a network");
        let split = Split::of(&net);
        (net, split)
    }

    fn reason(net: &Network, split: &Split, name: &str) -> Option<Reason> {
        let s = net.slots.iter().position(|s| s.name == name).unwrap_or_else(|| panic!("no slot `{name}`"));
        split.explicit[s].clone()
    }

    #[test]
    fn each_role_makes_its_variable_explicit() {
        let (net, split) = split_of(&model(""));
        let r = |n| reason(&net, &split, n);
        assert_eq!(r("d"), Some(Reason::ClockBound("P.l0".into())));
        assert_eq!(r("i"), Some(Reason::ArrayIndex("P: l0 -> l1".into())));
        assert_eq!(r("c"), Some(Reason::ChannelIndex("P: l1 -> l0".into())));
        // Through a function's parameter and local.
        assert_eq!(r("k"), Some(Reason::ArrayIndex("P: l1 -> l0".into())));
        // Through the condition of a branch.
        assert_eq!(r("cond"), Some(Reason::ArrayIndex("P: l1 -> l0".into())));
        assert_eq!(r("via"), Some(Reason::ArrayIndex("P: l1 -> l0".into())));
    }

    #[test]
    fn values_stored_are_not_followed_and_the_rest_is_symbolic() {
        let (net, split) = split_of(&model(""));
        let r = |n| reason(&net, &split, n);
        // `via = src % 2` and `a[0] = src % 6`: the engine splits after the
        // step, the source stays in the BDD.
        assert_eq!(r("src"), None);
        assert_eq!(r("free"), None);
        // The array's elements are read, not indices.
        assert_eq!(r("a[0]"), None);
        assert_eq!(r("a[1]"), None);
    }

    #[test]
    fn symbolic_false_forces_explicit() {
        let (net, split) =
            split_of(&model("  kept: {range: [0, 3], symbolic: false}\n  loose: {range: [0, 3], symbolic: true}"));
        assert_eq!(reason(&net, &split, "kept"), Some(Reason::Forced));
        assert_eq!(reason(&net, &split, "loose"), None);
        // A required variable keeps its own reason under `symbolic: false`.
        let text = model("").replace("d: {range: [1, 3], init: 2}", "d: {range: [1, 3], init: 2, symbolic: false}");
        let (net, split) = split_of(&text);
        assert_eq!(reason(&net, &split, "d"), Some(Reason::ClockBound("P.l0".into())));
    }

    #[test]
    fn symbolic_true_on_a_required_variable_is_a_located_error() {
        let text = model("").replace("c: {range: [0, 1]}", "c: {range: [0, 1], symbolic: true}");
        let loaded = load_model(&Source::new("split.yaml", text.clone())).expect("a valid model");
        let errors = crate::network::build(&loaded.model).expect_err("a conflict");
        assert_eq!(errors.len(), 1);
        let e = &errors[0];
        assert_eq!(e.code, "symbolic-conflict");
        assert!(e.message.contains("read in a channel index at `P: l1 -> l0`"), "{}", e.message);
        let line = text.lines().position(|l| l.contains("symbolic: true")).expect("the line") + 1;
        assert_eq!(e.loc.pos.line, line);
    }

    #[test]
    fn loops_carry_dependencies_through_locals() {
        let text = model("  n: {range: [0, 1]}").replace(
            "int at(int j) {",
            "int at(int j) {\n      int[0, 1] s = 0;\n      for (int[0, 2] q = 0; q < 2; q++) { if (q == 1) return a[s]; s = n; }",
        );
        let (net, split) = split_of(&text);
        assert_eq!(reason(&net, &split, "n"), Some(Reason::ArrayIndex("P: l1 -> l0".into())));
    }
}
