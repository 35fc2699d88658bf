//! An IMITATOR model's syntax tree translated into kairos YAML (the rules
//! are in [`HEADER`]).

use std::collections::HashMap;

use super::expr::{Scope, Sym, linear};
use super::lex::Src;
use super::parse::{Automaton, Expr, ExprKind, Kind, Model, Name};
use crate::diag::Diagnostic;
use crate::import::{Taken, YamlOut, quoted, sanitize};

/// The translation rules, written at the top of every YAML produced.
pub(super) const HEADER: &str = "\
# Translated from IMITATOR by `kairos import` (FORMAT.md, \"IMITATOR models\"):
# - clocks, parameters and discrete variables are global; each automaton is a
#   template instantiated once, under its own name;
# - a parameter's bounds are the one-parameter conjuncts of `init` (p >= c,
#   p <= c, p = c); a parameter, or an integer variable nothing assigns,
#   declared with a value is a constant;
# - `int`/`discrete` variables are integers in [-2^31, 2^31 - 1] (a value
#   outside is a run-time error, never a silent wrap);
# - an action declared by one automaton is internal; by two, a binary channel
#   the first (in file order) sends on; an action an automaton declares but
#   never uses blocks it everywhere (IMITATOR removes it), so its edges are
#   left out.";

/// The kairos range of an IMITATOR integer or rational variable.
const RANGE: &str = "[-2147483648, 2147483647]";

pub(super) struct Translated {
    pub yaml: String,
    pub line_map: Vec<usize>,
    pub names: HashMap<String, Sym>,
    pub automata: HashMap<String, (String, HashMap<String, String>)>,
}

/// Diagnostics collected over the whole model, one per construct.
pub(super) struct Diags<'a> {
    pub src: &'a Src,
    pub list: Vec<Diagnostic>,
}

impl Diags<'_> {
    pub fn at(&mut self, n: &Name, code: &'static str, msg: impl Into<String>) {
        self.list.push(self.src.diag(n.at, n.text.chars().count(), code, msg));
    }

    /// At the first token of `e` (a comparison's `at` is its operator).
    pub fn expr(&mut self, e: &Expr, code: &'static str, msg: impl Into<String>) {
        let mut first = e;
        while let ExprKind::Bin(_, a, _) = &first.kind {
            first = a;
        }
        self.list.push(self.src.diag(first.at.min(e.at), 1, code, msg));
    }
}

pub(super) fn translate(src: &Src, m: &Model) -> Result<Translated, Vec<Diagnostic>> {
    let mut d = Diags { src, list: Vec::new() };
    let mut taken = Taken::default();
    let mut names: HashMap<String, Sym> = HashMap::new();
    let mut order: Vec<(String, usize)> = Vec::new();
    let mut declared_values: HashMap<String, Expr> = HashMap::new();
    let assigned: Vec<&str> = m
        .automata
        .iter()
        .flat_map(|a| &a.locs)
        .flat_map(|l| &l.edges)
        .flat_map(|e| &e.updates)
        .map(|(v, _)| v.text.as_str())
        .chain(m.init.iter().flat_map(|i| &i.values).map(|(v, _)| v.text.as_str()))
        .collect();
    for decl in &m.decls {
        for (n, value) in &decl.names {
            if names.contains_key(&n.text) {
                d.at(n, "duplicate-name", format!("`{}` is declared twice", n.text));
                continue;
            }
            // A parameter given a value in its declaration is that constant.
            // So is an integer variable given a value that nothing assigns:
            // kairos takes only constants where IMITATOR takes it too.
            let fixed = value.is_some() && !assigned.contains(&n.text.as_str());
            let kind = match decl.kind {
                Kind::Parameter if value.is_some() => Kind::Constant,
                Kind::Int | Kind::Rational if fixed => Kind::Constant,
                k => k,
            };
            if kind == Kind::Constant && value.is_none() {
                d.at(n, "syntax-error", format!("the constant `{}` needs a value", n.text));
            }
            if let Some(v) = value {
                declared_values.insert(n.text.clone(), v.clone());
            }
            names.insert(n.text.clone(), Sym { kind, kairos: taken.fresh(&sanitize(&n.text)) });
            order.push((n.text.clone(), n.at));
        }
    }
    let mut automata = HashMap::new();
    for a in &m.automata {
        let inst = taken.fresh(&sanitize(&a.name.text));
        let mut locs = HashMap::new();
        let mut local = Taken::default();
        for l in &a.locs {
            if locs.contains_key(&l.name.text) {
                d.at(&l.name, "duplicate-name", format!("location `{}` is declared twice", l.name.text));
            }
            locs.insert(l.name.text.clone(), local.fresh(&sanitize(&l.name.text)));
        }
        if automata.insert(a.name.text.clone(), (inst, locs)).is_some() {
            d.at(&a.name, "duplicate-name", format!("automaton `{}` is declared twice", a.name.text));
        }
    }
    let scope = Scope { src, names: &names, automata: &automata };
    let mut out = YamlOut::default();
    for line in HEADER.lines() {
        out.line(0, line);
    }
    let name =
        std::path::Path::new(&*src.file).file_stem().map_or("imitator".into(), |s| s.to_string_lossy().to_string());
    out.line(0, format!("model: {}", quoted(&name)));

    let init = m.init.as_ref();
    let (bounds, zeroed, init_values) =
        super::init::initial_constraint(init.map_or(&[][..], |i| &i.constraints[..]), &names, &mut d);
    let line = |at: usize| src.pos(at).line;

    let constants: Vec<_> = order.iter().filter(|(n, _)| names[n].kind == Kind::Constant).collect();
    if !constants.is_empty() {
        out.line(0, "constants:");
        for (n, at) in constants {
            let value = declared_values.get(n).map(|v| match linear(v) {
                Some((m, c)) if m.is_empty() && c.is_integer() => Ok(c.to_integer().to_string()),
                _ => Err(()),
            });
            match value {
                Some(Ok(v)) => out.line(line(*at), format!("  {}: {v}", names[n].kairos)),
                _ => d.list.push(src.diag(
                    *at,
                    n.len(),
                    "unsupported",
                    format!("`{n}`: a constant that is not an integer is not supported yet"),
                )),
            }
        }
    }
    let clocks: Vec<_> = order.iter().filter(|(n, _)| names[n].kind == Kind::Clock).collect();
    for (n, at) in &clocks {
        if !zeroed.contains(n) {
            d.list.push(src.diag(
                *at,
                n.len(),
                "unsupported",
                format!(
                    "clock `{n}` is not set to 0 by `init` (IMITATOR starts it at any value >= 0): not supported yet"
                ),
            ));
        }
    }
    if !clocks.is_empty() {
        let list: Vec<&str> = clocks.iter().map(|(n, _)| names[n].kairos.as_str()).collect();
        out.line(line(clocks[0].1), format!("clocks: [{}]", list.join(", ")));
    }
    let params: Vec<_> = order.iter().filter(|(n, _)| names[n].kind == Kind::Parameter).collect();
    if !params.is_empty() {
        out.line(0, "parameters:");
        for (n, at) in params {
            let b = bounds.get(n.as_str());
            let mut fields = Vec::new();
            for (key, v) in [("min", b.and_then(|b| b.min.as_ref())), ("max", b.and_then(|b| b.max.as_ref()))] {
                if let Some(v) = v {
                    let v = if v.is_integer() { v.to_integer().to_string() } else { quoted(&v.to_string()) };
                    fields.push(format!("{key}: {v}"));
                }
            }
            // IMITATOR leaves a parameter unbounded above; `kairos synth`
            // needs a box, which only the user can choose.
            let note = if fields.iter().any(|f| f.starts_with("max")) {
                ""
            } else {
                "  # no upper bound in IMITATOR: give `max` to synthesise"
            };
            out.line(line(*at), format!("  {}: {{{}}}{note}", names[n].kairos, fields.join(", ")));
        }
    }
    let vars: Vec<_> =
        order.iter().filter(|(n, _)| matches!(names[n].kind, Kind::Int | Kind::Rational | Kind::Bool)).collect();
    if !vars.is_empty() {
        out.line(0, "variables:");
        for (n, at) in vars {
            let given = init.and_then(|i| i.values.iter().find(|(v, _)| v.text == *n).map(|(_, e)| e));
            let given = given.or(init_values.get(n.as_str()).copied()).or(declared_values.get(n));
            let value = match given {
                Some(e) => scope.print(e).unwrap_or_else(|x| {
                    d.list.extend(x);
                    String::new()
                }),
                None if names[n].kind == Kind::Bool => "false".to_string(),
                None => "0".to_string(),
            };
            let kind = if names[n].kind == Kind::Bool { "type: bool".to_string() } else { format!("range: {RANGE}") };
            out.line(line(*at), format!("  {}: {{{kind}, init: {}}}", names[n].kairos, quoted(&value)));
        }
    }
    if let Some(i) = init {
        for (v, _) in &i.values {
            if !matches!(names.get(&v.text).map(|s| s.kind), Some(Kind::Int | Kind::Rational | Kind::Bool)) {
                d.at(v, "unknown-name", format!("`{}` is not a discrete variable", v.text));
            }
        }
        for (a, l) in &i.locs {
            match automata.get(&a.text) {
                None => d.at(a, "unknown-name", format!("there is no automaton `{}`", a.text)),
                Some((_, locs)) if !locs.contains_key(&l.text) => {
                    d.at(l, "unknown-name", format!("automaton `{}` has no location `{}`", a.text, l.text))
                }
                _ => {}
            }
        }
    }

    let channels = channels(m, &mut taken, &mut d);
    if channels.values().any(|c| matches!(c, Role::Channel { .. })) {
        out.line(0, "channels:");
        let mut listed: Vec<_> = channels
            .values()
            .filter_map(|c| match c {
                Role::Channel { name, .. } => Some(name.clone()),
                _ => None,
            })
            .collect();
        listed.sort();
        listed.dedup();
        for c in listed {
            out.line(0, format!("  {c}: binary"));
        }
    }
    out.line(0, "templates:");
    for a in &m.automata {
        template(a, init, &scope, &channels, &mut out, &mut d);
    }
    out.line(0, "system:");
    for a in &m.automata {
        out.line(line(a.name.at), format!("  - {}", automata[&a.name.text].0));
    }
    if m.automata.is_empty() && d.list.is_empty() {
        d.list.push(src.diag(0, 0, "empty-system", "the model has no automaton"));
    }
    if !d.list.is_empty() {
        let mut list = d.list;
        list.sort_by_key(|x| x.loc.pos.index);
        list.dedup();
        return Err(list);
    }
    let (yaml, line_map) = out.finish();
    Ok(Translated { yaml, line_map, names, automata })
}

/// How an action is translated.
enum Role {
    /// Declared by one automaton: its edges are internal.
    Internal,
    /// Declared by two: `sender` sends on channel `name`, the other receives.
    Channel { name: String, sender: String },
    /// Declared but unused by some automaton that declares it: blocked.
    Blocked,
}

fn channels(m: &Model, taken: &mut Taken, d: &mut Diags) -> HashMap<String, Role> {
    let mut declared: HashMap<&str, Vec<&Automaton>> = HashMap::new();
    let mut order = Vec::new();
    for a in &m.automata {
        let mut seen = Vec::new();
        for act in &a.actions {
            if seen.contains(&act.text) {
                continue;
            }
            seen.push(act.text.clone());
            let list = declared.entry(&act.text).or_default();
            if list.is_empty() {
                order.push(act.text.as_str());
            }
            list.push(a);
            if list.len() == 3 {
                d.at(act, "unsupported", format!("action `{}` is declared by three or more automata: synchronisation of more than two automata is not supported yet", act.text));
            }
        }
        for l in &a.locs {
            for e in &l.edges {
                if let Some(s) = &e.sync
                    && !a.actions.iter().any(|x| x.text == s.text)
                {
                    d.at(
                        s,
                        "unknown-name",
                        format!("action `{}` is not declared by automaton `{}`", s.text, a.name.text),
                    );
                }
            }
        }
    }
    let mut roles = HashMap::new();
    for act in order {
        let list = &declared[act];
        let used = |a: &Automaton| {
            a.locs.iter().flat_map(|l| &l.edges).any(|e| e.sync.as_ref().is_some_and(|s| s.text == act))
        };
        let role = if !list.iter().all(|a| used(a)) {
            Role::Blocked
        } else if list.len() == 1 {
            Role::Internal
        } else {
            Role::Channel { name: taken.fresh(&sanitize(act)), sender: list[0].name.text.clone() }
        };
        roles.insert(act.to_string(), role);
    }
    roles
}

fn template(
    a: &Automaton,
    init: Option<&super::parse::Init>,
    scope: &Scope,
    channels: &HashMap<String, Role>,
    out: &mut YamlOut,
    d: &mut Diags,
) {
    let src = scope.src;
    let line = |at: usize| src.pos(at).line;
    let (inst, locs) = &scope.automata[&a.name.text];
    out.line(line(a.name.at), format!("  {inst}:"));
    let initial = init.and_then(|i| i.locs.iter().find(|(x, _)| x.text == a.name.text));
    match initial {
        Some((_, l)) => {
            if let Some(k) = locs.get(&l.text) {
                out.line(line(l.at), format!("    initial: {k}"));
            }
        }
        None => {
            d.at(&a.name, "missing-initial", format!("`init` gives no initial location of automaton `{}`", a.name.text))
        }
    }
    let print = |e: &Expr, d: &mut Diags| {
        scope.print(e).unwrap_or_else(|x| {
            d.list.extend(x);
            String::new()
        })
    };
    out.line(0, "    locations:");
    for l in &a.locs {
        let mut fields = Vec::new();
        if !matches!(l.invariant.kind, ExprKind::Bool(true)) {
            fields.push(format!("invariant: {}", quoted(&print(&l.invariant, d))));
        }
        if l.urgent {
            fields.push("urgent: true".to_string());
        }
        out.line(line(l.name.at), format!("      {}: {{{}}}", locs[&l.name.text], fields.join(", ")));
    }
    let mut edges = Vec::new();
    for l in &a.locs {
        for e in &l.edges {
            let Some(to) = locs.get(&e.target.text) else {
                d.at(
                    &e.target,
                    "unknown-name",
                    format!("automaton `{}` has no location `{}`", a.name.text, e.target.text),
                );
                continue;
            };
            let mut fields = vec![format!("from: {}", locs[&l.name.text]), format!("to: {to}")];
            if !matches!(e.guard.kind, ExprKind::Bool(true)) {
                fields.push(format!("guard: {}", quoted(&print(&e.guard, d))));
            }
            match e.sync.as_ref().and_then(|s| channels.get(&s.text)) {
                Some(Role::Blocked) => {
                    edges.push((
                        line(e.at),
                        format!(
                            "      # left out (action `{}` is blocked): from {} to {to}",
                            e.sync.as_ref().map_or("", |s| &s.text),
                            locs[&l.name.text]
                        ),
                    ));
                    continue;
                }
                Some(Role::Channel { name, sender }) => {
                    let mark = if *sender == a.name.text { "!" } else { "?" };
                    fields.push(format!("sync: {}", quoted(&format!("{name}{mark}"))));
                }
                _ => {}
            }
            let mut updates = Vec::new();
            for (v, value) in &e.updates {
                match scope.names.get(&v.text).map(|s| s.kind) {
                    Some(Kind::Clock) => {
                        if !matches!(&value.kind, ExprKind::Num(n) if super::expr::integer(n).as_deref() == Some("0")) {
                            d.expr(value, "unsupported", "a clock update other than `:= 0` is not supported yet");
                        }
                        updates.push(format!("{} = 0", scope.names[&v.text].kairos));
                    }
                    Some(Kind::Int | Kind::Rational | Kind::Bool) => {
                        updates.push(format!("{} = {}", scope.names[&v.text].kairos, print(value, d)));
                    }
                    Some(_) => d.at(v, "invalid-update", format!("`{}` is not a clock or discrete variable", v.text)),
                    None => d.at(v, "unknown-name", format!("`{}` is not declared", v.text)),
                }
            }
            if !updates.is_empty() {
                fields.push(format!("update: {}", quoted(&updates.join("; "))));
            }
            edges.push((line(e.at), format!("      - {{{}}}", fields.join(", "))));
        }
    }
    if edges.iter().all(|(_, e)| e.trim_start().starts_with('#')) {
        out.line(0, "    edges: []");
    } else {
        out.line(0, "    edges:");
    }
    for (l, e) in edges {
        out.line(l, e);
    }
}
