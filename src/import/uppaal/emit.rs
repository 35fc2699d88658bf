//! The YAML text of a translated UPPAAL model, each line mapped to the XML
//! line it comes from.

use super::decl::{Decls, VarOut, VarTy};
use super::system::System;
use super::template::TemplateOut;
use super::xml::{self, Src};
use crate::import::{YamlOut, quoted, scalar};

/// A query of the model's `<queries>`: its formula, or whether it is left
/// out as not supported yet (`true`) or as wrong (`false`).
pub(crate) struct Property<'x> {
    pub query: &'x xml::Query,
    pub formula: Result<String, bool>,
    /// Its rank among the queries, from 1.
    pub index: usize,
}

pub(crate) const HEADER: &str = "\
Translation rules (UPPAAL's meaning kept exactly; what cannot be kept is refused):
 - `int` is {range: [-32768, 32767]}, `int[lo,hi]` {range: [lo, hi]}, `bool` {type: bool};
   a variable without initialiser starts at 0 (false). An assignment out of range
   is a run-time error, as in UPPAAL. kairos computes with 64-bit integers, UPPAAL
   with 32-bit ones: only intermediate results beyond 32 bits can differ.
 - A `meta` variable is an ordinary variable, kept in the state (UPPAAL leaves it out
   of the states it compares: the same verdicts when, as intended, it is written before
   it is read on every path; possibly more states).
 - Global `const int` are constants (one computed by a function call: its value, the
   function run at import); other constants (`const bool`, constants of a
   template) are replaced by their value where used; `typedef` names by their range.
   A constant array is a variable no edge assigns, over the range of its values.
   Arrays keep their dimensions (`int q[id_t]`: one element per value of `id_t`, indexed
   from 0: over `int[1,N] id_t`, `q[i]` is `q[i - 1]`; `row_t m[2]`: `m`'s, then the
   array type `row_t`'s), initialisers listed row-major (a shorter list ends with zeros,
   as UPPAAL starts the elements it leaves out at 0). A `struct` variable is one
   variable per field, `s_f` (`q[i].f[j]` is `q_f[i][j]`); copying a structure copies
   its fields; a structure parameter is one parameter per field (`const &` by value).
 - An integer used as a condition or stored into a boolean is `e != 0` (`0` and `1` are
   `false` and `true`), a boolean used as an integer `(b ? 1 : 0)`; `x++`, `x--`, `*=`,
   `/=`, `%=` are spelled out; UPPAAL's `not`, `and`, `or` are `!`, `&&`, `||` (same
   precedence); parentheses keep UPPAAL's grouping where kairos's precedence differs
   (`imply`).
 - A template parameter passed by value with an integer type is a template param; a
   template with reference (`&`) or boolean parameters is printed once per instance,
   with the arguments substituted. A by-value parameter the template assigns is a
   local copy (as in UPPAAL): a local variable initialised from the parameter.
   Arguments are computed at compile time and checked against the parameter's type.
 - `X = T(args);` is the instance `X = T(args)`; `system T;` over parameters with
   bounded types is T(lo..hi, ...), one instance per value, named T(v) as in UPPAAL.
   `X(const t a) = T(a);` then `system X;` is T over the values of X's parameter types.
 - Queries keep the first line of their comment as their name. `A<>` and `-->` range
   over non-Zeno runs in kairos (FORMAT.md section 3), over all runs in UPPAAL.
 - Functions keep their statements, with `typedef` names replaced by their ranges and
   `n++` in expressions kept (evaluated left to right, as UPPAAL); `a = b = e` is `b = e, a = b`.
 - Layout (coordinates, nails, colours) and comments are not translated, nor are
   `progress` and `gantt` blocks and the verifier's `<option>`s (search hints and
   presentation, no part of the model's meaning), nor locations' exponential rates
   (statistical model checking draws delays with them; the symbolic semantics,
   which kairos checks, ignores them).";

/// A number or a name plain, an expression quoted.
fn num(s: &str) -> String {
    if s.parse::<i64>().is_ok() { s.to_string() } else { scalar(s) }
}

/// `size: N`, or `size: [N, M]` for a multi-dimensional array.
fn size(dims: &[String]) -> String {
    match dims {
        [n] => format!("size: {}", num(n)),
        _ => format!("size: [{}]", dims.iter().map(|n| num(n)).collect::<Vec<_>>().join(", ")),
    }
}

fn note(kairos: &str, uppaal: &str) -> String {
    if kairos == uppaal { String::new() } else { format!("   # UPPAAL's `{uppaal}`") }
}

pub(crate) fn yaml(src: &Src, globals: &Decls, sys: &System, properties: &[Property]) -> (String, Vec<usize>) {
    let mut y = YamlOut::default();
    let line = |at: usize| src.line(at);
    y.line(0, format!("# Imported from the UPPAAL model `{}` by `kairos import`.", src.file));
    for l in HEADER.lines() {
        y.line(0, format!("# {l}"));
    }
    y.line(0, "");
    let stem = std::path::Path::new(&*src.file).file_stem().map_or("uppaal".into(), |s| s.to_string_lossy());
    y.line(0, format!("model: {}", scalar(&stem)));

    declarations(&mut y, src, globals);

    y.line(0, "");
    y.line(0, "templates:");
    for (i, t) in sys.templates.iter().enumerate() {
        if i > 0 {
            y.line(0, "");
        }
        template(&mut y, src, t);
    }

    y.line(0, "");
    y.line(0, "system:");
    for e in &sys.entries {
        y.line(line(e.at), format!("  - {}", scalar(&e.text)));
    }
    if sys.priorities.is_some() || globals.chan_priority.is_some() {
        y.line(0, "priorities:");
    }
    if let Some((p, at)) = &globals.chan_priority {
        y.line(line(*at), format!("  channels: {}", scalar(p)));
    }
    if let Some(p) = &sys.priorities {
        y.line(0, format!("  processes: {}", scalar(p)));
    }

    if !properties.is_empty() {
        y.line(0, "");
        y.line(0, "properties:");
        for p in properties {
            let q = p.query;
            let comment: Vec<String> = q.comment.as_ref().map_or(Vec::new(), |c| {
                c.string().lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect()
            });
            for c in comment.iter().skip(1) {
                y.line(line(q.at), format!("  # {c}"));
            }
            let formula = match &p.formula {
                Ok(f) => f,
                Err(unsupported) => {
                    let why = if *unsupported { "not supported yet" } else { "invalid" };
                    y.line(line(q.at), format!("  # {why}: {}", q.formula.string().trim()));
                    continue;
                }
            };
            let name = query_name(q, p.index);
            y.line(line(q.at), format!("  - {{name: {}, check: {}}}", quoted(&name), quoted(formula)));
        }
    }
    y.finish()
}

/// The global declarations: constants, clocks, variables, functions,
/// channels (also what a constant computed by a call is evaluated against:
/// `constcall.rs`).
pub(crate) fn declarations(y: &mut YamlOut, src: &Src, globals: &Decls) {
    let line = |at: usize| src.line(at);
    if !globals.consts.is_empty() {
        y.line(0, "");
        y.line(0, "constants:");
        for (k, u, v, at) in &globals.consts {
            y.line(line(*at), format!("  {k}: {}{}", num(v), note(k, u)));
        }
    }
    if !globals.clocks.is_empty() {
        y.line(0, "");
        y.line(0, "clocks:");
        for (k, u, at) in &globals.clocks {
            y.line(line(*at), format!("  - {k}{}", note(k, u)));
        }
    }
    variables(y, src, &globals.vars, "");
    functions(y, src, &globals.functions, "");
    if !globals.chans.is_empty() {
        y.line(0, "");
        y.line(0, "channels:");
        for c in &globals.chans {
            let kind = if c.broadcast { "broadcast" } else { "binary" };
            let text = match (c.size.as_slice(), c.urgent) {
                ([], false) => kind.to_string(),
                (dims, urgent) => {
                    let mut f = vec![format!("kind: {kind}")];
                    if urgent {
                        f.push("urgent: true".into());
                    }
                    if !dims.is_empty() {
                        f.push(size(dims));
                    }
                    format!("{{{}}}", f.join(", "))
                }
            };
            y.line(line(c.at), format!("  {}: {text}{}", c.name, note(&c.name, &c.uppaal)));
        }
    }
}

/// The property name of a query of `<queries>` (the `index`-th, from 1):
/// the first line of its comment, or `query N`.
pub(crate) fn query_name(q: &xml::Query, index: usize) -> String {
    let comment = q.comment.as_ref().map(|c| c.string()).unwrap_or_default();
    comment.lines().map(str::trim).find(|l| !l.is_empty()).map_or_else(|| format!("query {index}"), str::to_string)
}

fn variables(y: &mut YamlOut, src: &Src, vars: &[VarOut], indent: &str) {
    if vars.is_empty() {
        return;
    }
    if indent.is_empty() {
        y.line(0, "");
    }
    y.line(0, format!("{indent}variables:"));
    for v in vars {
        let mut f = match &v.ty {
            VarTy::Int(lo, hi) => vec![format!("range: [{}, {}]", num(lo), num(hi))],
            VarTy::Bool => vec!["type: bool".to_string()],
        };
        if !v.size.is_empty() {
            f.push(size(&v.size));
        }
        let init: Vec<String> = v.init.iter().map(|s| num(s)).collect();
        f.push(if v.list { format!("init: [{}]", init.join(", ")) } else { format!("init: {}", init[0]) });
        let note = v.note.as_ref().map_or_else(|| note(&v.name, &v.uppaal), |n| format!("   # {n}"));
        y.line(src.line(v.at), format!("{indent}  {}: {{{}}}{note}", v.name, f.join(", ")));
    }
}

/// Each function as a literal block scalar, its lines mapped to the line of
/// its definition.
fn functions(y: &mut YamlOut, src: &Src, fns: &[(String, usize)], indent: &str) {
    if fns.is_empty() {
        return;
    }
    if indent.is_empty() {
        y.line(0, "");
    }
    y.line(0, format!("{indent}functions:"));
    for (text, at) in fns {
        let line = src.line(*at);
        y.line(line, format!("{indent}  - |"));
        for l in text.lines() {
            y.line(line, format!("{indent}    {l}"));
        }
    }
}

fn template(y: &mut YamlOut, src: &Src, t: &TemplateOut) {
    let line = |at: usize| src.line(at);
    y.line(line(t.at), format!("  {}:   # {}", t.name, t.origin));
    if !t.params.is_empty() {
        y.line(line(t.at), format!("    params: [{}]", t.params.join(", ")));
    }
    if !t.decls.clocks.is_empty() {
        let names: Vec<&str> = t.decls.clocks.iter().map(|c| c.0.as_str()).collect();
        y.line(line(t.decls.clocks[0].2), format!("    clocks: [{}]", names.join(", ")));
    }
    variables(y, src, &t.decls.vars, "    ");
    functions(y, src, &t.decls.functions, "    ");
    y.line(line(t.at), format!("    initial: {}", t.initial));
    y.line(0, "    locations:");
    for l in &t.locations {
        let mut f = Vec::new();
        if let Some(inv) = &l.invariant {
            f.push(format!("invariant: {}", quoted(inv)));
        }
        if !l.rates.is_empty() {
            let rates: Vec<String> = l
                .rates
                .iter()
                .map(|(x, e)| format!("{x}: {}", if e.parse::<i64>().is_ok() { e.clone() } else { quoted(e) }))
                .collect();
            f.push(format!("rate: {{{}}}", rates.join(", ")));
        }
        if l.committed {
            f.push("committed: true".into());
        } else if l.urgent {
            f.push("urgent: true".into());
        }
        let note = l.note.as_ref().map_or(String::new(), |n| format!("   # {n}"));
        y.line(line(l.at), format!("      {}: {{{}}}{note}", l.name, f.join(", ")));
    }
    if t.edges.is_empty() {
        y.line(0, "    edges: []");
        return;
    }
    y.line(0, "    edges:");
    for e in &t.edges {
        let mut f = vec![format!("from: {}", e.from), format!("to: {}", e.to)];
        for (key, v) in [("select", &e.select), ("guard", &e.guard), ("sync", &e.sync), ("update", &e.update)] {
            if let Some(v) = v {
                f.push(format!("{key}: {}", quoted(v)));
            }
        }
        y.line(line(e.at), format!("      - {{{}}}", f.join(", ")));
    }
}
