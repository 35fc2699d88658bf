//! Variable, constant, channel, clock and type declarations (global or of a
//! template), resolved into a scope and into what the YAML declares.
//!
//! UPPAAL's meaning is kept: `int` ranges over [-32768, 32767], a variable
//! without initialiser starts at 0 (`false`), a global integer constant is a
//! kairos constant, and constants kairos cannot declare (booleans, those of
//! a template) are substituted where they are used.

use super::eval::NoValue;
use super::parse::{Base, ChanPrio, Decl, EK, Expr, Init, Type, VarDecl};
use super::print::{Printer, Range, Scope, StructArray, Sym, Ty};
use super::xml::Diags;
use crate::import::{Taken, sanitize};
use std::rc::Rc;

/// A bounded integer or a boolean, as YAML declares it.
pub(crate) enum VarTy {
    Int(String, String),
    Bool,
}

pub(crate) struct VarOut {
    pub name: String,
    /// The UPPAAL name.
    pub uppaal: String,
    pub ty: VarTy,
    /// Each dimension's size (empty for a scalar).
    pub size: Vec<String>,
    /// One value, or one per element (`list`).
    pub init: Vec<String>,
    pub list: bool,
    /// What the YAML says of it, when its UPPAAL name is not enough.
    pub note: Option<String>,
    /// UPPAAL's constant array: no edge assigns it.
    pub constant: bool,
    pub at: usize,
}

pub(crate) struct ChanOut {
    pub name: String,
    pub uppaal: String,
    pub broadcast: bool,
    pub urgent: bool,
    pub size: Vec<String>,
    pub at: usize,
}

/// Declarations translated: the names they bring in scope and what the YAML
/// declares for them.
#[derive(Default)]
pub(crate) struct Decls {
    pub scope: Scope,
    /// Global integer constants: (kairos name, UPPAAL name, value, position).
    pub consts: Vec<(String, String, String, usize)>,
    /// (kairos name, UPPAAL name, position).
    pub clocks: Vec<(String, String, usize)>,
    pub vars: Vec<VarOut>,
    pub chans: Vec<ChanOut>,
    /// Functions as kairos text, with their position.
    pub functions: Vec<(String, usize)>,
    /// `chan priority ...;` as the kairos `priorities: channels:` text,
    /// with its position.
    pub chan_priority: Option<(String, usize)>,
}

/// What a declared name is.
enum Kind {
    Int(String, String),
    Bool,
    Clock,
    Chan,
}

/// Declares `decls` into `out`; `outer` are the enclosing scopes (outermost
/// first), `taken` the kairos names already used in the namespace, `global`
/// whether these are global declarations.
pub(crate) fn declare(
    decls: &[Decl],
    out: &mut Decls,
    outer: &[&Scope],
    taken: &mut Taken,
    global: bool,
    d: &mut Diags,
) {
    for decl in decls {
        // A declaration that failed (reported, or silently after a refused
        // one) still declares its name, as `Sym::Refused`: its uses are not
        // reported again.
        let refuse = |out: &mut Decls, name: &String| {
            out.scope.entry(name.clone()).or_insert(Sym::Refused);
        };
        match decl {
            Decl::Typedef(v) => {
                typedef(v, out, outer, d);
                refuse(out, &v.name);
            }
            Decl::Var(v) => {
                let _ = variable(v, out, outer, taken, global, d);
                refuse(out, &v.name);
            }
            Decl::Refused(names) => {
                for name in names {
                    refuse(out, name);
                }
            }
            Decl::Function(f) => {
                let mut scopes = outer.to_vec();
                let local = std::mem::take(&mut out.scope);
                scopes.push(&local);
                let name = taken.fresh(&sanitize(&f.name));
                let mut pr = Printer::new(scopes, d, format!("the function `{}`", f.name));
                let printed = super::function::function(&mut pr, f, &name);
                out.scope = local;
                if let Ok((text, sym)) = printed {
                    out.functions.push((text, f.at));
                    out.scope.insert(f.name.clone(), sym);
                }
                refuse(out, &f.name);
            }
            Decl::ChanPriority(members) => {
                let mut pr = Printer::new(outer.iter().copied().chain([&out.scope]).collect(), d, "`chan priority`");
                if let Some(text) = chan_priority(&mut pr, members) {
                    out.chan_priority = Some((text, members[0].at));
                }
            }
            Decl::Instance { .. } | Decl::Partial { .. } | Decl::System(..) => {}
        }
    }
}

/// The kairos text of `chan priority` (channel names and constant indices
/// translated, indices counted from 0); `None` when reported.
fn chan_priority(pr: &mut Printer, members: &[ChanPrio]) -> Option<String> {
    let mut text = String::new();
    for (k, m) in members.iter().enumerate() {
        let (at, end) = (&m.at, &m.end);
        if k > 0 {
            text.push_str(if m.level > members[k - 1].level { " < " } else { ", " });
        }
        let Some((name, index)) = &m.channel else {
            text.push_str("default");
            continue;
        };
        let Some(Sym::Val { text: kname, ty: Ty::Chan, dims, lows, .. }) = pr.lookup(name) else {
            pr.d.error(*at, *end, "unknown-name", format!("`{name}` is not a channel"));
            return None;
        };
        if !index.is_empty() && index.len() != dims {
            pr.d.error(*at, *end, "type-error", format!("`{name}` has {dims} dimension(s)"));
            return None;
        }
        text.push_str(&kname);
        for (n, i) in index.iter().enumerate() {
            let Ok(v) = pr.value(i) else {
                pr.d.unsupported(i.at, i.end, "a channel priority indexed by a value not known before the run");
                return None;
            };
            text.push_str(&format!("[{}]", v - lows.get(n).copied().unwrap_or(0)));
        }
    }
    Some(text)
}

fn typedef(v: &VarDecl, out: &mut Decls, outer: &[&Scope], d: &mut Diags) {
    if let Some((p, at, end)) = v.ty.prefixes.first() {
        d.unsupported(*at, *end, format!("a `typedef` with `{p}`"));
        return;
    }
    let mut scopes = outer.to_vec();
    let local = std::mem::take(&mut out.scope);
    scopes.push(&local);
    let mut pr = Printer::new(scopes, d, format!("the type `{}`", v.name));
    if let Some((fields, inner)) = pr.struct_array(&v.ty) {
        // `typedef fun_t flow_t[N]`: the new dimensions, then the element
        // type's.
        let dims: Rc<[Expr]> = v.dims.iter().chain(inner.iter()).cloned().collect();
        out.scope = local;
        out.scope.insert(v.name.clone(), Sym::StructType(fields, dims));
        return;
    }
    let range = pr.element_range(&v.ty);
    let bounds = if matches!(range, Ok((Range::Int(..), _))) { pr.bounds(&v.ty).ok() } else { None };
    // `typedef row_t mat_t[2]`: the new dimensions, then the element type's.
    let own: Result<Vec<String>, ()> = v
        .dims
        .iter()
        .map(|n| match dimension(&mut pr, n)? {
            (size, 0) => Ok(size),
            _ => {
                pr.d.unsupported(n.at, n.end, "an array type indexed by a type whose values do not start at 0");
                Err(())
            }
        })
        .collect();
    out.scope = local;
    match (range, own) {
        (Ok((Range::Other, _)), _) => {
            d.unsupported(v.at, v.end, "a `typedef` of a clock or channel type");
        }
        (Ok((r, inner)), Ok(mut dims)) => {
            dims.extend(inner.iter().cloned());
            out.scope.insert(v.name.clone(), Sym::Type(r, bounds, dims.into()));
        }
        _ => {}
    }
}

fn variable(
    v: &VarDecl,
    out: &mut Decls,
    outer: &[&Scope],
    taken: &mut Taken,
    global: bool,
    d: &mut Diags,
) -> Result<(), ()> {
    let ty = &v.ty;
    for (p, at, end) in &ty.prefixes {
        match p.as_str() {
            "hybrid" => {
                d.unsupported(*at, *end, "`hybrid` clocks");
                return Err(());
            }
            "urgent" | "broadcast" if !matches!(ty.base, Base::Chan) => {
                d.error(*at, *end, "type-error", format!("`{p}` applies to channels only"));
                return Err(());
            }
            _ => {}
        }
    }
    if let Some((fields, inner)) = struct_type(ty, out, outer) {
        // `flow_t v[2]` over `typedef fun_t flow_t[3]`: `v`'s dimensions,
        // then the type's.
        let v = &VarDecl { dims: v.dims.iter().chain(inner.iter()).cloned().collect(), ..v.clone() };
        let mut diags = Diags::new(d.src);
        let mut leaf = |f: &VarDecl| {
            let declared = variable(f, out, outer, taken, global, d).is_ok();
            out.scope.shift_remove(&f.name).filter(|_| declared)
        };
        let sym = structure(v, &fields, &mut leaf, &mut diags);
        d.list.extend(diags.list);
        out.scope.insert(v.name.clone(), sym.ok_or(())?);
        return Ok(());
    }
    let is_const = ty.has("const");
    let what = format!("the declaration of `{}`", v.name);
    let local = std::mem::take(&mut out.scope);
    let mut scopes = outer.to_vec();
    scopes.push(&local);
    let mut pr = Printer::new(scopes, d, what);
    let kind = match &ty.base {
        Base::Clock => Ok((Kind::Clock, std::rc::Rc::from([]))),
        Base::Chan => Ok((Kind::Chan, std::rc::Rc::from([]))),
        _ => pr.element_range(ty).and_then(|(r, dims)| match r {
            Range::Int(lo, hi) => Ok((Kind::Int(lo, hi), dims)),
            Range::Bool => Ok((Kind::Bool, dims)),
            Range::Other => {
                pr.d.unsupported(ty.at, ty.end, "a `typedef` of a clock or channel");
                Err(())
            }
        }),
    };
    // An array of an array type (`row_t m[2]`) has its own dimensions first.
    let (kind, type_dims) = match kind {
        Ok((k, dims)) => (Ok(k), dims),
        Err(()) => (Err(()), std::rc::Rc::from([])),
    };
    let size: Result<Vec<(String, i64)>, ()> = v.dims.iter().map(|n| dimension(&mut pr, n)).collect();
    let (size, lows): (Result<Vec<String>, ()>, Vec<i64>) = match size {
        Ok(s) => {
            let (mut size, mut lows): (Vec<String>, Vec<i64>) = s.into_iter().unzip();
            size.extend(type_dims.iter().cloned());
            lows.resize(size.len(), 0);
            (Ok(size), lows)
        }
        Err(()) => (Err(()), Vec::new()),
    };
    // UPPAAL starts the elements an initialiser leaves out at 0.
    let padded = match (&v.init, &size) {
        (Some(init @ Init::List(..)), Ok(size)) => {
            let mut sizes = Vec::with_capacity(size.len());
            for n in &v.dims {
                sizes.push(super::clocks::known_dim(&mut pr, n).ok().flatten().map(|(n, _)| n));
            }
            sizes.extend(type_dims.iter().map(|n| n.parse().ok()));
            if let Some((at, end, len, n)) = super::pad::overflow(init, &sizes) {
                let msg =
                    format!("an initialiser of {len} values for {n} elements (UPPAAL's meaning is not documented)");
                pr.d.unsupported(at, end, msg).hint = Some(format!("give {n} values"));
            }
            Some(super::pad::pad(init, &sizes, matches!(kind, Ok(Kind::Bool))))
        }
        _ => v.init.clone(),
    };
    let values = match (&kind, &padded) {
        (Ok(Kind::Int(..) | Kind::Bool), Some(init)) => {
            let want_bool = matches!(kind, Ok(Kind::Bool));
            initial_values(&mut pr, init, want_bool).map(Some)
        }
        _ => Ok(None),
    };
    // A constant's value, when UPPAAL computes it at compile time (not when
    // it reads a parameter that stays a kairos parameter).
    let known = match (&kind, &padded) {
        (Ok(Kind::Int(..) | Kind::Bool), Some(init)) if is_const => constant_values(&mut pr, init),
        _ => Ok(None),
    };
    // UPPAAL computes a constant's user-function calls at compile time: so
    // does the importer for a global constant (`constcall.rs`), its values
    // then written as numbers (kairos folds no call in a constant or an
    // initial value). A template's constant may read its parameters, which
    // stay kairos parameters: refused.
    let declared_const = matches!(kind, Ok(Kind::Int(..))) && global || size.as_ref().is_ok_and(|s| !s.is_empty());
    let (known, values) = match (known, &padded) {
        (Ok(None), Some(init)) if is_const && declared_const => {
            let mut exprs = Vec::new();
            leaves(init, &mut exprs);
            match exprs.iter().copied().find_map(call) {
                Some(c) if !global => {
                    pr.d.unsupported(c.at, c.end, "a constant of a template computed by a function call").hint =
                        Some("write the constant's value".into());
                    (Err(()), values)
                }
                Some(_) => {
                    let want_bool = matches!(kind, Ok(Kind::Bool));
                    match computed(&mut pr, out, &exprs, want_bool) {
                        Ok(k) => {
                            let texts = k.iter().map(|&v| literal(v, want_bool)).collect();
                            (Ok(Some(k)), Ok(Some(texts)))
                        }
                        Err(()) => (Err(()), values),
                    }
                }
                None => (Ok(None), values),
            }
        }
        (k, _) => (k, values),
    };
    let declared = if is_const && matches!(kind, Ok(Kind::Int(..))) { pr.constant_bounds(ty).ok() } else { None };
    out.scope = local;
    let (kind, size, values, known) = (kind?, size?, values?, known?);
    let dims = size.len();
    let line_at = v.at;
    match kind {
        Kind::Clock => {
            if v.init.is_some() || is_const {
                d.error(
                    v.at,
                    v.end,
                    "type-error",
                    "a clock has no initialiser and cannot be constant (clocks start at 0)",
                );
                return Err(());
            }
            if !v.dims.is_empty() {
                // One clock per element.
                let mut scopes = outer.to_vec();
                scopes.push(&out.scope);
                let mut pr = Printer::new(scopes, d, format!("the declaration of `{}`", v.name));
                let dims = super::clocks::dims(&mut pr, &v.dims)?;
                let base = sanitize(&v.name);
                let names: Vec<String> = super::clocks::names(&base, &dims).iter().map(|n| taken.fresh(n)).collect();
                for (n, uppaal) in names.iter().zip(super::clocks::uppaal_names(&v.name, &dims)) {
                    out.clocks.push((n.clone(), uppaal, line_at));
                }
                out.scope.insert(v.name.clone(), Sym::Clocks { names: names.into(), dims: dims.into() });
                return Ok(());
            }
            let name = taken.fresh(&sanitize(&v.name));
            out.clocks.push((name.clone(), v.name.clone(), line_at));
            out.scope.insert(v.name.clone(), Sym::name(&name, Ty::Clock, 0, true));
        }
        Kind::Chan => {
            if !global {
                d.unsupported(v.at, v.end, "a channel local to a template").hint =
                    Some("declare the channel globally".into());
                return Err(());
            }
            if v.init.is_some() || is_const {
                d.error(v.at, v.end, "type-error", "a channel has no value");
                return Err(());
            }
            let name = taken.fresh(&sanitize(&v.name));
            out.chans.push(ChanOut {
                name: name.clone(),
                uppaal: v.name.clone(),
                broadcast: ty.has("broadcast"),
                urgent: ty.has("urgent"),
                size,
                at: line_at,
            });
            out.scope.insert(v.name.clone(), Sym::name(&name, Ty::Chan, dims, false).with_lows(lows));
        }
        Kind::Int(..) | Kind::Bool if is_const && size.is_empty() => {
            let ty_ = if matches!(kind, Kind::Bool) { Ty::Bool } else { Ty::Int };
            let Some((value, prec)) = values.and_then(|v| v.into_iter().next()) else {
                d.error(v.at, v.end, "missing-value", format!("the constant `{}` has no value", v.name));
                return Err(());
            };
            let sym = if global && ty_ == Ty::Int {
                let name = taken.fresh(&sanitize(&v.name));
                out.consts.push((name.clone(), v.name.clone(), value, line_at));
                Sym::name(&name, Ty::Int, 0, false)
            } else {
                // kairos has no boolean or template-local constants: the
                // value is substituted where the name is used.
                Sym::value_text(value, prec, ty_)
            };
            let sym = match known {
                Some(k) => sym.with_value(k),
                None => sym,
            };
            out.scope.insert(v.name.clone(), sym);
        }
        Kind::Int(..) | Kind::Bool => {
            if is_const && values.is_none() {
                d.error(v.at, v.end, "missing-value", format!("the constant array `{}` has no value", v.name));
                return Err(());
            }
            let var_ty = match kind {
                // kairos has no constant arrays: a constant array is a
                // variable no edge can assign (the printer refuses it as a
                // target), over the range of its values when they are
                // known, so that clock bounds read from it stay tight.
                Kind::Int(..) if is_const && known.is_some() => {
                    let k = known.as_deref().unwrap_or_default();
                    if let Some((lo, hi)) = declared
                        && let Some(bad) = k.iter().find(|x| !(lo..=hi).contains(*x))
                    {
                        d.error(
                            v.at,
                            v.end,
                            "init-out-of-range",
                            format!("the constant array `{}` holds {bad}, outside its type [{lo}, {hi}]", v.name),
                        );
                        return Err(());
                    }
                    let (lo, hi) = (k.iter().min(), k.iter().max());
                    VarTy::Int(lo.map_or("0".into(), i64::to_string), hi.map_or("0".into(), i64::to_string))
                }
                Kind::Int(lo, hi) => VarTy::Int(lo, hi),
                _ => VarTy::Bool,
            };
            let default = if matches!(var_ty, VarTy::Bool) { "false" } else { "0" };
            let (init, list) = match values {
                None => (vec![default.to_string()], false),
                Some(vals) => {
                    let list = matches!(v.init, Some(Init::List(..)));
                    if list && size.is_empty() {
                        d.error(v.at, v.end, "type-error", format!("`{}` is not an array: give one value", v.name));
                        return Err(());
                    }
                    (vals.into_iter().map(|(t, _)| t).collect(), list)
                }
            };
            let name = taken.fresh(&sanitize(&v.name));
            let ty_ = if matches!(var_ty, VarTy::Bool) { Ty::Bool } else { Ty::Int };
            out.vars.push(VarOut {
                name: name.clone(),
                uppaal: v.name.clone(),
                ty: var_ty,
                size,
                init,
                list,
                note: if is_const {
                    Some(format!("UPPAAL's constant array `{}`: never assigned", v.name))
                } else {
                    ty.has("meta").then(|| format!("UPPAAL's `meta` variable `{}`: kept in the state", v.name))
                },
                constant: is_const,
                at: line_at,
            });
            let sym = Sym::name(&name, ty_, dims, !is_const).with_lows(lows);
            // (One value for a whole array sets every element: no value
            // per index to read.)
            let sym = match known {
                Some(k) if list || dims == 0 => sym.with_value(k),
                _ => sym,
            };
            out.scope.insert(v.name.clone(), sym);
        }
    }
    Ok(())
}

/// The fields of `ty` when it is a `struct` type or an array type of them,
/// and the array's dimensions.
fn struct_type(ty: &Type, out: &Decls, outer: &[&Scope]) -> Option<StructArray> {
    match &ty.base {
        Base::Struct(f) => Some((f.clone(), Rc::from([]))),
        Base::Named(n) => match std::iter::once(&out.scope).chain(outer.iter().rev().copied()).find_map(|s| s.get(n)) {
            Some(Sym::StructType(f, dims)) => Some((f.clone(), dims.clone())),
            _ => None,
        },
        _ => None,
    }
}

/// A variable of a `struct` type (or an array of them), flattened: each
/// field is a variable of its own, named `v_field`, with `v`'s dimensions
/// before the field's (`q[i].a[j]` is `q_a[i][j]`). `leaf` declares one
/// field's variable and returns its symbol (`None`: refused, reported).
fn structure(
    v: &VarDecl,
    fields: &[VarDecl],
    leaf: &mut dyn FnMut(&VarDecl) -> Option<Sym>,
    d: &mut Diags,
) -> Option<Sym> {
    let mut inits = Vec::with_capacity(fields.len());
    for k in 0..fields.len() {
        inits.push(match &v.init {
            None => None,
            Some(init) => {
                let Some(i) = field_init(init, v.dims.len(), (k, &fields[k].name), fields.len()) else {
                    d.unsupported(v.at, v.end, "this initialiser of a `struct` variable").hint =
                        Some("give one `{...}` per structure, its fields in order".into());
                    return None;
                };
                Some(i)
            }
        });
    }
    let mut list = Vec::with_capacity(fields.len());
    for (f, init) in fields.iter().zip(inits) {
        // `const` and the other prefixes apply to every field.
        let mut ty = f.ty.clone();
        ty.prefixes.extend(v.ty.prefixes.iter().cloned());
        let name = format!("{}.{}", v.name, f.name);
        let dims = v.dims.iter().chain(&f.dims).cloned().collect();
        list.push(leaf(&VarDecl { ty, name, at: v.at, end: v.end, dims, init }).map(|sym| (f.name.clone(), sym)));
    }
    let list: Vec<(String, Sym)> = list.into_iter().collect::<Option<_>>()?;
    let k = v.dims.len();
    let lows = match list.first().map(|(_, s)| s) {
        Some(Sym::Val { lows, .. } | Sym::Struct { lows, .. }) if lows.len() >= k => Rc::from(&lows[..k]),
        _ => Rc::from([]),
    };
    Some(Sym::Struct { fields: list.into(), dims: k, lows, assignable: !v.ty.has("const") })
}

/// The initialiser of field `k` (named `name`, of `n`) taken from the
/// initialiser of a structure with `depth` dimensions: the same lists over
/// the dimensions, each structure's `{...}` replaced by its `k`-th item, and
/// a structure given by name (`FIN` of `const fun_t FIN = {...}`) by its
/// field (`FIN.cmd`). `None` when the shape does not fit.
fn field_init(init: &Init, depth: usize, (k, name): (usize, &str), n: usize) -> Option<Init> {
    let (items, at, end) = match init {
        Init::List(items, at, end) => (items, at, end),
        Init::Expr(e) if depth == 0 => {
            let kind = EK::Dot(Box::new(e.clone()), name.to_string());
            return Some(Init::Expr(Expr { kind, height: e.height + 1, ..*e }));
        }
        Init::Expr(_) => return None,
    };
    if depth == 0 {
        return if items.len() == n { items.get(k).cloned() } else { None };
    }
    let items: Option<Vec<Init>> = items.iter().map(|i| field_init(i, depth - 1, (k, name), n)).collect();
    Some(Init::List(items?, *at, *end))
}

/// The size of one dimension of an array and its first index: an integer
/// (from 0), or a bounded type (`int q[id_t]`: one element per value of the
/// type, from its lower bound; the printer shifts the indices).
pub(crate) fn dimension(pr: &mut Printer, n: &super::parse::Expr) -> Result<(String, i64), ()> {
    match &n.kind {
        EK::Name(t) => match pr.lookup(t) {
            Some(Sym::Type(Range::Int(_, hi), Some((0, _)), dims)) if dims.is_empty() => Ok((format!("{hi} + 1"), 0)),
            Some(Sym::Type(Range::Int(..), Some((lo, hi)), dims)) if dims.is_empty() && lo <= hi => {
                Ok(((hi - lo + 1).to_string(), lo))
            }
            Some(Sym::Type(..)) => {
                pr.d.unsupported(n.at, n.end, "an array indexed by this type (its bounds are not constants)");
                Err(())
            }
            _ => pr.int(n).map(|p| (p.text, 0)),
        },
        _ => pr.int(n).map(|p| (p.text, 0)),
    }
}

/// The compile-time values of a constant's initialiser (one, or one per
/// element); `None` when one of them reads something that is not constant.
fn constant_values(pr: &mut Printer, init: &Init) -> Result<Option<Vec<i64>>, ()> {
    let mut exprs = Vec::new();
    leaves(init, &mut exprs);
    let mut out = Vec::with_capacity(exprs.len());
    for e in exprs {
        match pr.value(e) {
            Ok(v) => out.push(v),
            Err(NoValue::Unknown(..)) => return Ok(None),
            Err(NoValue::Reported) => return Err(()),
        }
    }
    Ok(Some(out))
}

/// The printed initial values (with their precedence): one, or one per
/// element of a `{...}` list.
pub(crate) fn initial_values(pr: &mut Printer, init: &Init, want_bool: bool) -> Result<Vec<(String, u8)>, ()> {
    let one = |pr: &mut Printer, e: &super::parse::Expr| -> Result<(String, u8), ()> {
        if !want_bool {
            return pr.int(e).map(|p| (p.text, p.prec));
        }
        pr.stored_bool(e).map(|p| (p.text, p.prec))
    };
    match init {
        Init::Expr(e) => Ok(vec![one(pr, e)?]),
        Init::List(..) => {
            let mut exprs = Vec::new();
            leaves(init, &mut exprs);
            exprs.into_iter().map(|e| one(pr, e)).collect()
        }
    }
}

/// The values of a global constant's initialiser `exprs`, some of which
/// call functions: those through `constcall`, the others folded.
fn computed(pr: &mut Printer, globals: &Decls, exprs: &[&Expr], want_bool: bool) -> Result<Vec<i64>, ()> {
    let mut out = Vec::with_capacity(exprs.len());
    for e in exprs {
        out.push(match pr.value(e) {
            Ok(v) => v,
            Err(NoValue::Unknown(..)) => super::constcall::value(pr, globals, e, want_bool)?,
            Err(NoValue::Reported) => return Err(()),
        });
    }
    Ok(out)
}

/// A computed value as an initial value's text and precedence.
fn literal(v: i64, want_bool: bool) -> (String, u8) {
    match (want_bool, v) {
        (true, _) => ((v != 0).to_string(), super::print::ATOM),
        (false, 0..) => (v.to_string(), super::print::ATOM),
        (false, _) => (v.to_string(), super::print::UNARY),
    }
}

/// A call of a function in `e`, if any.
fn call(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        EK::Call(..) | EK::Method(..) => Some(e),
        EK::Index(a, b) | EK::Bin(_, a, b) => call(a).or_else(|| call(b)),
        EK::Dot(a, _) | EK::Neg(a) | EK::Not(a) | EK::BitNot(a) | EK::Quant(_, _, _, a) => call(a),
        EK::Step { target, .. } => call(target),
        EK::Cond(c, a, b) => call(c).or_else(|| call(a)).or_else(|| call(b)),
        _ => None,
    }
}

/// The values of an initialiser in order: `{{1, 2}, {3, 4}}` (a
/// multi-dimensional array, row-major as kairos stores it) is 1, 2, 3, 4.
fn leaves<'i>(init: &'i Init, out: &mut Vec<&'i super::parse::Expr>) {
    match init {
        Init::Expr(e) => out.push(e),
        Init::List(items, ..) => items.iter().for_each(|i| leaves(i, out)),
    }
}
