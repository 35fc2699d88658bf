//! The system block: instantiations `X = T(args);` and the `system` line,
//! turned into kairos templates to print and `system` entries.
//!
//! - `system T;` over a template whose parameters all have bounded integer
//!   types is one instance per combination of values, named `T(v, ...)` as
//!   in UPPAAL (kairos `T(lo..hi, ...)`).
//! - `X = T(args);` is the instance `X` (kairos alias `X = T(args)`); when
//!   T has parameters that cannot stay kairos parameters, X gets a template
//!   of its own with those arguments substituted.

use super::eval::NoValue;
use super::parse::{Base, Decl, EK, Expr, VarDecl};
use super::print::{Printer, Procs, Range, Scope, Sym, Ty};
use super::template::{TemplateOut, Tpl, print_template};
use super::xml::Diags;
use crate::import::{Taken, sanitize};

/// One entry of the YAML `system` list.
pub(crate) struct Entry {
    pub text: String,
    pub at: usize,
}

pub(crate) struct System {
    pub templates: Vec<TemplateOut>,
    pub entries: Vec<Entry>,
    pub procs: Procs,
    /// `system A < B, C;`: the kairos `priorities: processes:` text.
    pub priorities: Option<String>,
}

pub(crate) fn build(tpls: &[Tpl], decls: &[Decl], globals: &Scope, d: &mut Diags) -> System {
    let mut names = Taken::default();
    let mut sys = System { templates: Vec::new(), entries: Vec::new(), procs: Procs::default(), priorities: None };
    // The templates whose parameters all stay parameters: printed once,
    // whether instantiated or not (so that their errors are reported);
    // `Some(None)` when printing failed (reported).
    let mut shared: Vec<Option<Option<usize>>> = Vec::new();
    for t in tpls {
        let k = names.fresh(&sanitize(&t.name));
        if !t.all_kept() {
            shared.push(None);
            continue;
        }
        let idx = push(&mut sys, print_template(t, k, format!("template `{}`", t.name), &[], globals, d));
        shared.push(Some(idx));
    }
    let find = |name: &str| tpls.iter().position(|t| t.name == name);

    let instances: Vec<&Decl> =
        decls.iter().filter(|x| matches!(x, Decl::Instance { .. } | Decl::Partial { .. } | Decl::Refused(_))).collect();
    type Line<'a> = (&'a Vec<(String, usize, usize)>, &'a Vec<u32>);
    let lines: Vec<Line> =
        decls.iter().filter_map(|x| if let Decl::System(l, p) = x { Some((l, p)) } else { None }).collect();
    let (list, levels) = match lines.as_slice() {
        [one] => *one,
        [] => {
            let at = d.src.text.len();
            if !d.list.iter().any(|x| x.code == "unsupported" || x.code == "syntax-error") {
                d.error(at, at, "missing-system", "the <system> element has no `system` line").hint =
                    Some("end it with `system P1, P2;` naming the processes".into());
            }
            return sys;
        }
        [_, second, ..] => {
            let (_, at, end) = second.0[0];
            d.error(at, end, "duplicate-key", "a second `system` line");
            return sys;
        }
    };
    let mut aliases = Taken::default();
    // The kairos templates a `system` entry already instantiates for every
    // value of their parameters: a second one would repeat the instances.
    let mut expanded: Vec<usize> = Vec::new();
    for (pname, at, end) in list {
        let (at, end) = (*at, *end);
        if sys.procs.by_name.contains_key(pname) {
            d.error(at, end, "duplicate-instance", format!("`{pname}` appears twice in `system`"));
            continue;
        }
        let inst = instances.iter().find_map(|x| match x {
            Decl::Instance { name, template, t_at, args, end, .. } if name == pname => {
                Some((template, *t_at, args, *end))
            }
            _ => None,
        });
        if let Some((template, t_at, args, i_end)) = inst {
            let Some(ti) = find(template) else {
                if partial(&instances, template).is_some() {
                    let msg = format!("an instance of the partial instantiation `{template}`");
                    d.unsupported(t_at, t_at + template.len(), msg).hint =
                        Some("instantiate the template it binds directly".into());
                    continue;
                }
                d.error(t_at, t_at + template.len(), "unknown-template", format!("`{template}` is not a template"));
                continue;
            };
            let t = &tpls[ti];
            if args.len() != t.params.len() {
                d.error(
                    t_at,
                    i_end,
                    "wrong-arity",
                    format!("template `{template}` takes {} argument(s), {} given", t.params.len(), args.len()),
                );
                continue;
            }
            let Some((kept_args, subst)) = arguments(t, args, globals, d) else { continue };
            let alias = aliases.fresh(&sanitize(pname));
            let k = if let Some(idx) = shared[ti] {
                let Some(idx) = idx else { continue };
                sys.templates[idx].name.clone()
            } else {
                let base = format!("{}_{}", sanitize(&t.name), alias);
                let origin = format!("`{pname} = {}(...)`", t.name);
                let Some(idx) = push(&mut sys, print_template(t, names.fresh(&base), origin, &subst, globals, d))
                else {
                    continue;
                };
                sys.templates[idx].name.clone()
            };
            let m = member_index(&sys, &k);
            let args = if kept_args.is_empty() { String::new() } else { format!("({})", kept_args.join(", ")) };
            sys.entries.push(Entry { text: format!("{alias} = {k}{args}"), at });
            sys.procs.by_name.insert(pname.clone(), (alias, 0, m));
        } else if let Some(p) = partial(&instances, pname) {
            let Some(ti) = find(p.template) else {
                let (t_at, tn) = (p.t_at, p.template);
                if partial(&instances, tn).is_some() {
                    let msg = format!("a partial instantiation of the partial instantiation `{tn}`");
                    d.unsupported(t_at, t_at + tn.len(), msg).hint =
                        Some("instantiate the template it binds directly".into());
                    continue;
                }
                d.error(t_at, t_at + tn.len(), "unknown-template", format!("`{tn}` is not a template"));
                continue;
            };
            let Some(Some(idx)) = shared[ti] else {
                if shared[ti].is_none() {
                    let msg =
                        format!("a partial instantiation of `{}`, whose instances are printed one by one", p.template);
                    d.unsupported(p.at, p.end, msg).hint =
                        Some(format!("instantiate `{}` once per value: `P1 = {}(...);`", p.template, p.template));
                }
                continue;
            };
            let Some(ranges) = partial_ranges(&p, &tpls[ti], globals, d) else { continue };
            if expanded.contains(&idx) {
                let msg = format!("`{pname}` instantiates `{}` for every value again", p.template);
                d.unsupported(at, end, msg);
                continue;
            }
            expanded.push(idx);
            let k = sys.templates[idx].name.clone();
            let text = if ranges.is_empty() { k.clone() } else { format!("{k}({})", ranges.join(", ")) };
            sys.entries.push(Entry { text, at });
            sys.procs.by_name.insert(pname.clone(), (k, ranges.len(), idx));
        } else if let Some(ti) = find(pname) {
            let t = &tpls[ti];
            let Some(idx) = shared[ti] else {
                // UPPAAL's type checker too: "free process parameters must
                // be a bounded integer or scalar" (not `bool`, not `&`).
                let free = t.params.iter().zip(&t.kept).find(|(_, k)| !**k).map(|(p, _)| p);
                if let Some(p) = free.filter(|p| t.indexing.contains(&p.name)) {
                    let msg =
                        format!("`system {pname};` over a template whose parameter `{}` indexes a clock array", p.name);
                    d.unsupported(at, end, msg).hint =
                        Some(format!("instantiate it once per value: `P1 = {pname}(...);` and list them in `system`"));
                    continue;
                }
                // Over a refused type (`scalar`, reported): no new error.
                if let Some(Base::Named(n)) = free.map(|p| &p.ty.base)
                    && matches!(globals.get(n), Some(Sym::Refused))
                {
                    continue;
                }
                let p = free.map_or("", |p| p.name.as_str());
                d.error(
                    at,
                    end,
                    "type-error",
                    format!("`system {pname};` needs bounded integer parameters; `{p}` of `{pname}` is not one"),
                )
                .hint = Some(format!("instantiate it: `P1 = {pname}(...);` and list `P1` in `system`"));
                continue;
            };
            let Some(idx) = idx else { continue };
            let k = sys.templates[idx].name.clone();
            let mut ranges = Vec::new();
            for (p, r) in t.params.iter().zip(&t.ranges) {
                match r {
                    Some((lo, hi)) if !matches!(p.ty.base, Base::Int(None)) => ranges.push(format!("{lo}..{hi}")),
                    _ => {
                        d.error(at, end, "unbounded-parameter", format!(
                            "`system {pname};` needs every parameter of `{pname}` to have a bounded type; `{}` has not",
                            p.name
                        ))
                        .hint = Some("give it a type like `int[0, N-1]`, or instantiate the template explicitly".into());
                    }
                }
            }
            if ranges.len() != t.params.len() {
                continue;
            }
            if expanded.contains(&idx) {
                d.unsupported(at, end, format!("`{pname}` instantiates `{pname}` for every value again"));
                continue;
            }
            expanded.push(idx);
            let text = if ranges.is_empty() { k.clone() } else { format!("{k}({})", ranges.join(", ")) };
            sys.entries.push(Entry { text, at });
            sys.procs.by_name.insert(pname.clone(), (k.clone(), t.params.len(), idx));
        } else {
            let refused = instances.iter().any(|x| matches!(x, Decl::Refused(names) if names.contains(pname)));
            if !refused {
                d.error(at, end, "unknown-name", format!("`{pname}` is neither a template nor an instantiation"));
            }
        }
    }
    sys.priorities = process_priorities(&sys, list, levels);
    sys
}

/// The kairos `priorities: processes:` text of `system A < B, C;` (`None`
/// without `<`): each process by its kairos instance name, or a template
/// set by its kairos template (which stands for its instances).
fn process_priorities(sys: &System, list: &[(String, usize, usize)], levels: &[u32]) -> Option<String> {
    if levels.iter().all(|&l| l == 0) {
        return None;
    }
    let mut text = String::new();
    for (k, (pname, _, _)) in list.iter().enumerate() {
        if k > 0 {
            text.push_str(if levels[k] > levels[k - 1] { " < " } else { ", " });
        }
        // A process refused (reported) leaves nothing to check.
        text.push_str(&sys.procs.by_name.get(pname)?.0);
    }
    Some(text)
}

/// A partial instantiation `X(params) = T(args);`, borrowed.
struct Partial<'a> {
    at: usize,
    end: usize,
    params: &'a [super::parse::Param],
    template: &'a str,
    t_at: usize,
    args: &'a [Expr],
}

fn partial<'a>(instances: &[&'a Decl], name: &str) -> Option<Partial<'a>> {
    instances.iter().find_map(|x| match x {
        Decl::Partial { name: n, at, params, template, t_at, args, end, .. } if n == name => {
            Some(Partial { at: *at, end: *end, params, template, t_at: *t_at, args })
        }
        _ => None,
    })
}

/// The kairos ranges `lo..hi` of the parameters of the partial
/// instantiation `p` of `t`, instantiated for every value by `system X;`;
/// `None` when reported. Supported: the arguments are X's parameters in
/// order (X renames and narrows T's parameters), each of a bounded integer
/// type within that of T's parameter, as UPPAAL checks its arguments.
fn partial_ranges(p: &Partial, t: &Tpl, globals: &Scope, d: &mut Diags) -> Option<Vec<String>> {
    let identity = p.args.len() == p.params.len()
        && p.args.iter().zip(p.params).all(|(a, q)| matches!(&a.kind, EK::Name(n) if *n == q.name));
    if !identity || p.args.len() != t.params.len() {
        let msg = "a partial instantiation whose arguments are not its parameters, in order";
        d.unsupported(p.at, p.end, msg).hint =
            Some(format!("write `{}(...) = {}(a, b, ...)` over all of them", p.template, p.template));
        return None;
    }
    let mut out = Vec::new();
    for (q, (tp, tb)) in p.params.iter().zip(t.params.iter().zip(&t.bounds)) {
        let mut pr = Printer::new(vec![globals], d, format!("the parameters of `{}`", t.name));
        let range = pr.range(&q.ty).ok()?;
        let bounds = pr.bounds(&q.ty).ok();
        let (Range::Int(lo, hi), Some((l, h)), false) =
            (range, bounds, q.by_ref || matches!(q.ty.base, Base::Int(None)))
        else {
            let msg = format!("`system` needs bounded integer parameters; `{}` is not one", q.name);
            d.error(q.at, q.end, "type-error", msg);
            return None;
        };
        if let Some((tl, th)) = tb
            && (l < *tl || h > *th)
        {
            let msg = format!(
                "`{}` ranges over [{l}, {h}], outside the type [{tl}, {th}] of `{}` of `{}`",
                q.name, tp.name, t.name
            );
            d.error(q.at, q.end, "argument-out-of-range", msg);
            return None;
        }
        out.push(format!("{lo}..{hi}"));
    }
    Some(out)
}

fn push(sys: &mut System, t: Option<TemplateOut>) -> Option<usize> {
    let t = t?;
    sys.procs.members.push(t.members.clone());
    sys.templates.push(t);
    Some(sys.templates.len() - 1)
}

fn member_index(sys: &System, name: &str) -> usize {
    sys.templates.iter().position(|t| t.name == name).expect("the template was just printed")
}

/// The values substituted for parameters that are not kept, by name.
type Subst = Vec<(String, Sym)>;

/// The value of the argument `a` of the by-value parameter `i` of `t`, or
/// `None` (reported): UPPAAL computes by-value arguments at compile time.
/// Substituting the text of a non-constant one would make the instance read
/// the variable's current value instead of its value at instantiation.
fn constant(pr: &mut Printer, t: &Tpl, i: usize, a: &Expr) -> Option<i64> {
    match pr.value(a) {
        Err(NoValue::Reported) => None,
        Err(NoValue::Unknown(at, end)) => {
            let msg = format!(
                "the argument for `{}` of `{}` must be computable at compile time; this is not a constant",
                t.params[i].name, t.name
            );
            pr.d.error(at, end, "not-constant", msg).hint =
                Some("pass an expression over literals and constants".into());
            None
        }
        Ok(v) => Some(v),
    }
}

/// The value of the argument `a` of the kept parameter `i` of `t`, if it
/// fits (else reported): UPPAAL refuses a by-value argument outside the
/// parameter's type (kairos parameters have no type to check it against).
fn in_range(pr: &mut Printer, t: &Tpl, i: usize, a: &Expr) -> Option<i64> {
    let v = constant(pr, t, i, a)?;
    match t.bounds[i] {
        Some((lo, hi)) if !(lo..=hi).contains(&v) => {
            let p = &t.params[i];
            let msg = format!(
                "the argument for `{}` of `{}` is {v}, outside the parameter's type [{lo}, {hi}]",
                p.name, t.name
            );
            pr.d.error(a.at, a.end, "argument-out-of-range", msg);
            None
        }
        _ => Some(v),
    }
}

/// The structure substituted for the parameter `i` of `t` of a `struct`
/// type with `fields` (an array of them over `dims` dimensions): the
/// argument `a` names a structure of that type, a constant one when passed
/// by value (UPPAAL computes by-value arguments at compile time).
fn structure(pr: &mut Printer, t: &Tpl, i: usize, a: &Expr, fields: &[VarDecl], dims: usize) -> Option<Sym> {
    let p = &t.params[i];
    let EK::Name(n) = &a.kind else {
        let msg = format!("an argument for the structure parameter `{}` of `{}` other than a name", p.name, t.name);
        pr.d.unsupported(a.at, a.end, msg).hint = Some("declare the structure and pass its name".into());
        return None;
    };
    let Some(Sym::Struct { fields: given, dims: k, lows, assignable }) = pr.lookup(n) else {
        if !matches!(pr.lookup(n), Some(Sym::Refused)) {
            let msg = format!("this argument does not fit the structure parameter `{}` of `{}`", p.name, t.name);
            pr.d.error(a.at, a.end, "type-error", msg);
        }
        return None;
    };
    let same = k == dims && given.len() == fields.len() && given.iter().zip(fields).all(|((g, _), f)| *g == f.name);
    if !same {
        let msg = format!("`{n}` is not of the type of the parameter `{}` of `{}`", p.name, t.name);
        pr.d.error(a.at, a.end, "type-error", msg);
        return None;
    }
    if !p.by_ref && assignable {
        let msg = format!(
            "the argument for `{}` of `{}` must be computable at compile time; `{n}` is a variable",
            p.name, t.name
        );
        pr.d.error(a.at, a.end, "not-constant", msg).hint =
            Some(format!("declare `{n}` `const`, or pass it by reference: `&{}`", p.name));
        return None;
    }
    if p.by_ref && !assignable && !p.ty.has("const") {
        let msg = format!("`{n}` is a constant: the parameter `{}` of `{}` must be `const`", p.name, t.name);
        pr.d.error(a.at, a.end, "type-error", msg);
        return None;
    }
    let assignable = assignable && !p.ty.has("const");
    Some(Sym::Struct { fields: given, dims: k, lows, assignable })
}

/// Whether `e` indexes an array (in an argument: a constant array).
fn reads_array(e: &Expr) -> bool {
    match &e.kind {
        EK::Index(..) => true,
        EK::Neg(a) | EK::Not(a) | EK::BitNot(a) => reads_array(a),
        EK::Bin(_, a, b) => reads_array(a) || reads_array(b),
        EK::Cond(c, a, b) => reads_array(c) || reads_array(a) || reads_array(b),
        _ => false,
    }
}

/// The printed arguments of the kept parameters, and the values substituted
/// for the others.
fn arguments(t: &Tpl, args: &[Expr], globals: &Scope, d: &mut Diags) -> Option<(Vec<String>, Subst)> {
    let mut kept = Vec::new();
    let mut subst = Vec::new();
    let mut ok = true;
    for (i, (p, a)) in t.params.iter().zip(args).enumerate() {
        let mut pr = Printer::new(vec![globals], d, format!("the argument for `{}` of `{}`", p.name, t.name));
        if t.kept[i] {
            match (pr.int(a), in_range(&mut pr, t, i, a)) {
                // An argument that reads a constant array (a kairos
                // variable) is given by its value.
                (Ok(_), Some(v)) if reads_array(a) => kept.push(v.to_string()),
                (Ok(p), Some(_)) => kept.push(p.text),
                _ => ok = false,
            }
            continue;
        }
        if !p.by_ref && t.indexing.contains(&p.name) {
            // It names a clock of an array: its value, known here.
            match in_range(&mut pr, t, i, a) {
                Some(v) => {
                    let prec = if v < 0 { super::print::UNARY } else { super::print::ATOM };
                    subst.push((p.name.clone(), Sym::value_text(v.to_string(), prec, Ty::Int).with_value(vec![v])));
                }
                None => ok = false,
            }
            continue;
        }
        if let Some((fields, dims)) = pr.struct_array(&p.ty).filter(|_| p.dims.is_empty()) {
            match structure(&mut pr, t, i, a, &fields, dims.len()) {
                Some(sym) => subst.push((p.name.clone(), sym)),
                None => ok = false,
            }
            continue;
        }
        // `bool` written or through a typedef.
        let is_bool = matches!(pr.range(&p.ty), Ok(Range::Bool));
        if !p.by_ref && is_bool && constant(&mut pr, t, i, a).is_none() {
            ok = false;
            continue;
        }
        let Ok(sym) = pr.reference(a, p.by_ref) else {
            ok = false;
            continue;
        };
        let Sym::Val { ty, .. } = &sym else { continue };
        let want = match &p.ty.base {
            super::parse::Base::Clock => Ty::Clock,
            super::parse::Base::Chan => Ty::Chan,
            _ if is_bool => Ty::Bool,
            _ => *ty, // integers (checked by the printer as used)
        };
        if *ty != want
            || (p.by_ref && *ty == Ty::Int && !matches!(sym, Sym::Val { assignable: true, .. }) && !p.ty.has("const"))
        {
            d.error(
                a.at,
                a.end,
                "type-error",
                format!("this argument does not fit the parameter `{}` of `{}`", p.name, t.name),
            );
            ok = false;
            continue;
        }
        let sym = if p.ty.has("const") {
            match sym {
                Sym::Val { text, prec, ty, dims, lows, value, .. } => {
                    Sym::Val { text, prec, ty, dims, lows, assignable: false, value }
                }
                s => s,
            }
        } else {
            sym
        };
        subst.push((p.name.clone(), sym));
    }
    ok.then_some((kept, subst))
}
