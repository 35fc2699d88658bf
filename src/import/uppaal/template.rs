//! Templates: parameters, local declarations, locations and transitions,
//! printed as one kairos template.
//!
//! A parameter passed by value with an integer type stays a kairos template
//! parameter (kairos parameters are integers and constant, like UPPAAL's
//! `const` ones). The others (references `&`, booleans) cannot be kairos
//! parameters: the template is printed once per instance, with the argument
//! substituted for the parameter. A by-value parameter the template assigns
//! is, in UPPAAL, a local copy of the argument: it becomes a local variable
//! of the parameter's type initialised from the parameter (or from the
//! substituted argument).

use super::decl::{self, Decls, VarOut, VarTy};
use super::lex::lex;
use super::parse::{Decl, Param, Parser};
use super::print::{Printer, Range, Scope, Sym, Ty};
use super::xml::{self, Diags, Text};
use crate::import::{Taken, sanitize};

/// A UPPAAL template, parsed.
pub(crate) struct Tpl<'x> {
    pub name: String,
    pub xml: &'x xml::Template,
    pub params: Vec<Param>,
    /// Per parameter: kept as a kairos parameter (else substituted).
    pub kept: Vec<bool>,
    /// Per parameter: the range of its type, as kairos texts (kept
    /// parameters only).
    pub ranges: Vec<Option<(String, String)>>,
    /// Per parameter: the bounds of its type, when computed at compile time
    /// (kept parameters only): arguments are checked against them.
    pub bounds: Vec<Option<(i64, i64)>>,
    /// Per parameter: passed by value and assigned by the template, so a
    /// local copy.
    pub copied: Vec<bool>,
    pub decls: Vec<Decl>,
    /// The parameters that index a clock array: substituted by value.
    pub indexing: Vec<String>,
}

impl Tpl<'_> {
    pub fn all_kept(&self) -> bool {
        self.kept.iter().all(|k| *k)
    }
}

/// Parses a text with `f`; `None` after a reported error.
pub(crate) fn parse_text<T>(
    text: &Text,
    what: &str,
    d: &mut Diags,
    f: impl FnOnce(&mut Parser) -> Result<T, ()>,
) -> Option<T> {
    let toks = lex(text, d)?;
    let mut p = Parser::new(&toks, d, what);
    f(&mut p).ok()
}

pub(crate) fn parse_template<'x>(x: &'x xml::Template, globals: &Scope, d: &mut Diags) -> Tpl<'x> {
    let name = x.name.string().trim().to_string();
    let what = format!("the parameters of `{name}`");
    let params = match &x.parameter {
        Some(t) => parse_text(t, &what, d, |p| p.params()).unwrap_or_default(),
        None => Vec::new(),
    };
    let decls = match &x.declaration {
        Some(t) => parse_text(t, &format!("the declarations of `{name}`"), d, |p| Ok(p.declarations(false)))
            .unwrap_or_default(),
        None => Vec::new(),
    };
    let mut kept = Vec::new();
    let mut ranges = Vec::new();
    let mut bounds = Vec::new();
    let assigned = assigned_names(x, d);
    let indexing = clock_index_params(x, &params, &decls, globals, d);
    let copied: Vec<bool> =
        params.iter().map(|p| !p.by_ref && !p.ty.has("const") && assigned.contains(&p.name)).collect();
    for (i, p) in params.iter().enumerate() {
        let mut pr = Printer::new(vec![globals], d, what.clone());
        if pr.struct_array(&p.ty).is_some() && p.dims.is_empty() {
            // A structure (or an array of them) is substituted: by
            // reference a variable's fields, by value a constant's.
            if copied[i] {
                d.unsupported(p.at, p.end, "a structure parameter passed by value that the template assigns").hint =
                    Some(format!("declare it `const` or pass it by reference: `&{}`", p.name));
            }
            kept.push(false);
            ranges.push(None);
            bounds.push(None);
            continue;
        }
        let range = pr.range(&p.ty).ok();
        let is_int = matches!(range, Some(Range::Int(..)));
        bounds.push(match is_int && !p.by_ref {
            // A `const` parameter is a value, not a local variable.
            true if p.ty.has("const") => pr.constant_bounds(&p.ty).ok(),
            true => pr.bounds(&p.ty).ok(),
            false => None,
        });
        if !p.by_ref && matches!(range, Some(Range::Other)) {
            d.unsupported(p.at, p.end, "a clock or channel parameter passed by value").hint = Some(format!(
                "pass it by reference: `{} &{}`",
                if matches!(p.ty.base, super::parse::Base::Clock) { "clock" } else { "chan" },
                p.name
            ));
        }
        kept.push(!p.by_ref && is_int && !indexing.contains(&p.name));
        ranges.push(match range {
            Some(Range::Int(lo, hi)) if !p.by_ref => Some((lo, hi)),
            _ => None,
        });
    }
    Tpl { name, xml: x, params, kept, ranges, bounds, copied, decls, indexing }
}

/// The parameters of template `x` that index a clock array (`job[id]`):
/// the clock is only known once the parameter's value is, so they are
/// substituted (see `clocks`). A label that does not parse is skipped here:
/// printing it reports the error.
fn clock_index_params(x: &xml::Template, params: &[Param], decls: &[Decl], globals: &Scope, d: &Diags) -> Vec<String> {
    let local = |n: &str| {
        decls.iter().any(|v| {
            matches!(v, Decl::Var(v) if v.name == n && !v.dims.is_empty() && matches!(v.ty.base, super::parse::Base::Clock))
        })
    };
    let is_clock_array = |n: &str| local(n) || matches!(globals.get(n), Some(Sym::Clocks { .. }));
    let mut quiet = Diags::new(d.src);
    let mut exprs = Vec::new();
    let texts = x.locations.iter().filter_map(|l| l.invariant.as_ref());
    let labels = x.transitions.iter().flat_map(|t| &t.labels);
    for text in texts.chain(labels.clone().filter(|l| l.kind == "guard").map(|l| &l.text)) {
        let Some(toks) = lex(text, &mut quiet) else { continue };
        if let Ok(e) = Parser::new(&toks, &mut quiet, "").expr() {
            exprs.push(e);
        }
    }
    for l in labels.filter(|l| l.kind == "assignment") {
        let Some(toks) = lex(&l.text, &mut quiet) else { continue };
        let Ok(list) = Parser::new(&toks, &mut quiet, "").assignments() else { continue };
        exprs.extend(list.into_iter().flat_map(|a| [a.lhs, a.rhs]));
    }
    params
        .iter()
        .filter(|p| exprs.iter().any(|e| super::clocks::indexes_clock_array(e, &p.name, &is_clock_array)))
        .map(|p| p.name.clone())
        .collect()
}

/// The names the assignments of template `x` assign (`v` for `v = 1`,
/// `a[i] += 2`). A label that does not parse is skipped here: printing it
/// reports the error.
fn assigned_names(x: &xml::Template, d: &Diags) -> Vec<String> {
    let mut quiet = Diags::new(d.src);
    let mut out = Vec::new();
    for l in x.transitions.iter().flat_map(|t| &t.labels).filter(|l| l.kind == "assignment") {
        let Some(toks) = lex(&l.text, &mut quiet) else { continue };
        let Ok(list) = Parser::new(&toks, &mut quiet, "").assignments() else { continue };
        for a in list {
            let mut e = &a.lhs;
            while let super::parse::EK::Index(base, _) | super::parse::EK::Dot(base, _) = &e.kind {
                e = base;
            }
            if let super::parse::EK::Name(n) = &e.kind {
                out.push(n.clone());
            }
        }
    }
    out
}

pub(crate) struct LocOut {
    pub name: String,
    pub invariant: Option<String>,
    /// `x' == e` of the invariant: `(clock, e)`.
    pub rates: Vec<(String, String)>,
    pub urgent: bool,
    pub committed: bool,
    /// The UPPAAL name, when it differs (or the id, for an unnamed one).
    pub note: Option<String>,
    pub at: usize,
}

pub(crate) struct EdgeOut {
    pub from: String,
    pub to: String,
    pub select: Option<String>,
    pub guard: Option<String>,
    pub sync: Option<String>,
    pub update: Option<String>,
    pub at: usize,
}

/// A kairos template.
pub(crate) struct TemplateOut {
    pub name: String,
    /// What it instantiates (UPPAAL template, and the substituted
    /// arguments), for a comment.
    pub origin: String,
    pub params: Vec<String>,
    pub decls: Decls,
    pub initial: String,
    pub locations: Vec<LocOut>,
    pub edges: Vec<EdgeOut>,
    pub at: usize,
    /// Locations and local variables by UPPAAL name (for queries).
    pub members: Scope,
}

/// Prints template `t` as the kairos template `name`; `subst` gives the
/// value of every parameter that is not kept.
pub(crate) fn print_template(
    t: &Tpl,
    name: String,
    origin: String,
    subst: &[(String, Sym)],
    globals: &Scope,
    d: &mut Diags,
) -> Option<TemplateOut> {
    let errors = d.list.len();
    let mut taken = Taken::default();
    let mut params_scope = Scope::new();
    let mut params = Vec::new();
    // Local copies of the by-value parameters the template assigns: the
    // parameter, the local's name and type, its initial value.
    let mut copies = Vec::new();
    for (i, p) in t.params.iter().enumerate() {
        // The copy keeps the UPPAAL name (queries read it as `P(1).v`).
        let copy = t.copied[i].then(|| taken.fresh(&sanitize(&p.name)));
        if t.kept[i] {
            let base = sanitize(&p.name);
            let k = taken.fresh(&if copy.is_some() { format!("{base}_init") } else { base });
            params_scope.insert(p.name.clone(), Sym::name(&k, Ty::Int, 0, false));
            if let (Some(local), Some((lo, hi))) = (copy, &t.ranges[i]) {
                copies.push((p, local, VarTy::Int(lo.clone(), hi.clone()), k.clone()));
            }
            params.push(k);
        } else if let Some((_, s)) = subst.iter().find(|(n, _)| *n == p.name) {
            params_scope.insert(p.name.clone(), s.clone());
            if let (Some(local), Sym::Val { text, ty: Ty::Bool, .. }) = (copy, s) {
                copies.push((p, local, VarTy::Bool, text.clone()));
            }
        }
    }
    let mut decls = Decls::default();
    // The template's declarations are initialised from the parameters, not
    // the copies (which are declared after them).
    decl::declare(&t.decls, &mut decls, &[globals, &params_scope], &mut taken, false, d);
    for (k, (p, local, ty, init)) in copies.into_iter().enumerate() {
        let sym_ty = if matches!(ty, VarTy::Bool) { Ty::Bool } else { Ty::Int };
        decls.scope.insert(p.name.clone(), Sym::name(&local, sym_ty, 0, true));
        decls.vars.insert(
            k,
            VarOut {
                name: local,
                uppaal: p.name.clone(),
                ty,
                size: Vec::new(),
                init: vec![init],
                list: false,
                note: Some(format!("UPPAAL's by-value parameter `{}`, assigned: a local copy", p.name)),
                constant: false,
                at: p.at,
            },
        );
    }
    // A substituted argument names globals; a local of the same kairos name
    // would capture it.
    for (p, s) in subst {
        for text in s.texts() {
            let Some(g) = text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).find(|w| taken.has(w)) else {
                continue;
            };
            d.unsupported(
                t.xml.at,
                t.xml.at + 1,
                format!("passing `{text}` for `{p}`: `{g}` is also a name of `{}`", t.name),
            )
            .hint = Some(format!("rename the local `{g}` of `{}`", t.name));
        }
    }
    let scopes: Vec<&Scope> = vec![globals, &params_scope, &decls.scope];
    let mut members = Scope::new();
    for (n, s) in &decls.scope {
        if matches!(s, Sym::Val { assignable: true, .. } | Sym::Struct { assignable: true, .. } | Sym::Fn { .. }) {
            members.insert(n.clone(), s.clone());
        }
    }

    // Locations.
    let mut locations = Vec::new();
    let mut ids: Vec<(&str, String)> = Vec::new();
    for l in &t.xml.locations {
        let uname = l.name.as_ref().map(|n| n.string().trim().to_string()).filter(|n| !n.is_empty());
        let base = uname.clone().unwrap_or_else(|| l.id.clone());
        let k = taken.fresh(&sanitize(&base));
        if ids.iter().any(|(id, _)| *id == l.id) {
            d.error(l.at, l.at + 1, "duplicate-name", format!("two locations of `{}` have the id `{}`", t.name, l.id));
        }
        ids.push((&l.id, k.clone()));
        if let Some(u) = &uname {
            members.entry(u.clone()).or_insert_with(|| Sym::name(&k, Ty::Bool, 0, false));
        }
        let (invariant, rates) = l
            .invariant
            .as_ref()
            .filter(|t| !t.is_comment())
            .and_then(|text| {
                let what = format!("the invariant of `{base}` in `{}`", t.name);
                let e = parse_text(text, &what, d, |p| {
                    let e = p.expr()?;
                    p.expect_end()?;
                    Ok(e)
                })?;
                Printer::new(scopes.clone(), d, what).invariant(&e).ok()
            })
            .unwrap_or_default();
        let named = match &uname {
            Some(u) if *u != k => Some(format!("UPPAAL's `{u}`")),
            None => Some(format!("unnamed location `{}`", l.id)),
            _ => None,
        };
        let rate = l.rate.as_ref().map(|r| format!("exponential rate `{r}` ignored (statistical model checking only)"));
        let note = match (named, rate) {
            (Some(n), Some(r)) => Some(format!("{n}; {r}")),
            (n, r) => n.or(r),
        };
        locations.push(LocOut { name: k, invariant, rates, urgent: l.urgent, committed: l.committed, note, at: l.at });
    }
    let find = |id: &str| ids.iter().find(|(i, _)| *i == id).map(|(_, k)| k.clone());
    let initial = match &t.xml.init {
        Some((r, at)) => find(r).or_else(|| {
            d.error(*at, at + 1, "unknown-name", format!("<init ref=\"{r}\"> names no location of `{}`", t.name));
            None
        }),
        None => {
            d.error(
                t.xml.at,
                t.xml.at + 1,
                "missing-initial",
                format!("template `{}` has no initial location", t.name),
            )
            .hint = Some("add <init ref=\"...\"/> naming the initial location".into());
            None
        }
    };

    // Transitions.
    let mut edges = Vec::new();
    for tr in &t.xml.transitions {
        let end = |r: &Option<String>, d: &mut Diags| {
            let r = r.as_deref().filter(|r| !t.xml.refused.iter().any(|x| x == r))?;
            find(r).or_else(|| {
                d.error(
                    tr.at,
                    tr.at + 1,
                    "unknown-name",
                    format!("a transition of `{}` refers to no location `{r}`", t.name),
                );
                None
            })
        };
        let (from, to) = (end(&tr.source, d), end(&tr.target, d));
        if let Some(e) = edge(t, tr, &scopes, d)
            && let (Some(from), Some(to)) = (from, to)
        {
            edges.push(EdgeOut { from, to, ..e });
        }
    }
    let initial = initial?;
    (d.list.len() == errors).then(|| TemplateOut {
        name,
        origin,
        params,
        decls,
        initial,
        locations,
        edges,
        at: t.xml.at,
        members,
    })
}

/// The labels of a transition, printed (`from` and `to` left empty).
fn edge(t: &Tpl, tr: &xml::Transition, scopes: &[&Scope], d: &mut Diags) -> Option<EdgeOut> {
    let mut out = EdgeOut {
        from: String::new(),
        to: String::new(),
        select: None,
        guard: None,
        sync: None,
        update: None,
        at: tr.at,
    };
    let mut ok = true;
    // Selects first: they bind names for the other labels.
    let mut select_scope = Scope::new();
    let mut seen: Vec<&str> = Vec::new();
    for l in &tr.labels {
        if seen.contains(&l.kind.as_str()) {
            d.error(l.at, l.at + 1, "duplicate-key", format!("this transition has two `{}` labels", l.kind));
            ok = false;
        }
        seen.push(&l.kind);
    }
    if let Some(l) = tr.labels.iter().find(|l| l.kind == "select" && !l.text.is_comment()) {
        let what = format!("a select of `{}`", t.name);
        let mut parts = Vec::new();
        match parse_text(&l.text, &what, d, |p| p.selects()) {
            Some(sels) => {
                for (name, at, end, ty) in sels {
                    let mut pr = Printer::new(scopes.to_vec(), d, what.clone());
                    match pr.range(&ty) {
                        Ok(Range::Int(lo, hi)) => {
                            let k = sanitize(&name);
                            parts.push(format!("{k} : {lo}..{hi}"));
                            select_scope.insert(name, Sym::name(&k, Ty::Int, 0, false));
                        }
                        Ok(_) => {
                            d.unsupported(at, end, "a select over a type that is not a bounded integer");
                            ok = false;
                        }
                        Err(()) => ok = false,
                    }
                }
                out.select = Some(parts.join(", "));
            }
            None => ok = false,
        }
    }
    let mut scopes = scopes.to_vec();
    scopes.push(&select_scope);
    for l in &tr.labels {
        if l.text.is_comment() {
            continue;
        }
        let what = match l.kind.as_str() {
            "guard" => format!("a guard of `{}`", t.name),
            "synchronisation" => format!("a synchronisation of `{}`", t.name),
            "assignment" => format!("an update of `{}`", t.name),
            _ => continue,
        };
        let printed = match l.kind.as_str() {
            "guard" => parse_text(&l.text, &what, d, |p| {
                let e = p.expr()?;
                p.expect_end()?;
                Ok(e)
            })
            .and_then(|e| Printer::new(scopes.clone(), d, what).boolean(&e).ok().map(|p| p.text))
            .map(|g| out.guard = Some(g)),
            "synchronisation" => parse_text(&l.text, &what, d, |p| p.sync()).and_then(|(c, send)| {
                let c = Printer::new(scopes.clone(), d, what).channel(&c).ok()?;
                out.sync = Some(format!("{c}{}", if send { "!" } else { "?" }));
                Some(())
            }),
            _ => parse_text(&l.text, &what, d, |p| p.assignments()).and_then(|list| {
                let mut pr = Printer::new(scopes.clone(), d, what);
                let printed: Result<Vec<Vec<String>>, ()> = list.iter().map(|a| pr.assign(a)).collect();
                let printed = printed.ok()?.concat();
                out.update = (!printed.is_empty()).then(|| printed.join("; "));
                Some(())
            }),
        };
        ok &= printed.is_some();
    }
    ok.then_some(out)
}
