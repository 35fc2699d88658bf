//! UPPAAL functions printed as kairos functions (FORMAT.md "Functions"):
//! the same statements, types made explicit (a `typedef` becomes its range),
//! conditions and values converted as `print.rs` does for expressions.

use super::decl::{dimension, initial_values};
use super::parse::{Base, Expr, FnDecl, Init, St, Type, VarDecl};
use super::print::{Printer, Range, Sym, Ty};
use crate::import::sanitize;
use std::rc::Rc;

/// `int[lo, hi]`, `bool`; clocks and channels are refused.
fn type_text(pr: &mut Printer, ty: &Type) -> Result<(String, Ty), ()> {
    if let Some((p, at, end)) = ty.prefixes.iter().find(|p| p.0 != "const") {
        pr.d.unsupported(*at, *end, format!("`{p}` in a function"));
        return Err(());
    }
    let range = pr.range(ty)?;
    range_text(pr, ty, range)
}

/// As [`type_text`] for the elements of an array parameter or local, with
/// its sizes: its own `dims`, then its array type's (`t a[2]` over
/// `typedef int[0, 3] t[4]` is `int[0, 3] a[2][4]`).
fn array_type_text(pr: &mut Printer, ty: &Type, dims: &[Expr]) -> Result<(String, Ty, Vec<String>), ()> {
    if let Some((p, at, end)) = ty.prefixes.iter().find(|p| p.0 != "const") {
        pr.d.unsupported(*at, *end, format!("`{p}` in a function"));
        return Err(());
    }
    let (range, type_dims) = pr.element_range(ty)?;
    let (text, t) = range_text(pr, ty, range)?;
    let mut sizes = Vec::new();
    for n in dims {
        match dimension(pr, n)? {
            (size, 0) => sizes.push(size),
            _ => {
                let msg = "an array in a function indexed by a type whose values do not start at 0";
                pr.d.unsupported(n.at, n.end, msg);
                return Err(());
            }
        }
    }
    sizes.extend(type_dims.iter().cloned());
    Ok((text, t, sizes))
}

/// `[N][M]` after a name.
fn size_text(sizes: &[String]) -> String {
    sizes.iter().map(|s| format!("[{s}]")).collect()
}

fn range_text(pr: &mut Printer, ty: &Type, range: Range) -> Result<(String, Ty), ()> {
    match range {
        Range::Int(lo, hi) => Ok((format!("int[{lo}, {hi}]"), Ty::Int)),
        Range::Bool => Ok(("bool".into(), Ty::Bool)),
        Range::Other => {
            let what = if matches!(ty.base, Base::Clock) { "a clock" } else { "a channel" };
            pr.d.unsupported(ty.at, ty.end, format!("{what} as a function's parameter, local or result"));
            Err(())
        }
    }
}

/// Prints `f` with the printer's scopes; returns its text and the symbol
/// that calls resolve to (`name` is its kairos name).
pub(crate) fn function(pr: &mut Printer, f: &FnDecl, name: &str) -> Result<(String, Sym), ()> {
    pr.in_function = true;
    let ret = match &f.ret {
        None => None,
        Some(t) => Some(type_text(pr, t)?),
    };
    let depth = pr.locals_len();
    let mut params = Vec::new();
    let mut texts = Vec::new();
    for p in &f.params {
        if let Some(fields) = pr.struct_fields(&p.ty) {
            // One kairos parameter per field; `const T &s` only reads, so it
            // is passed by value.
            let by_ref = p.by_ref && !p.ty.has("const");
            let mut members = Vec::new();
            let mut kinds = Vec::new();
            for field in fields.iter() {
                if !field.dims.is_empty() || pr.struct_fields(&field.ty).is_some() {
                    pr.d.unsupported(field.at, field.end, "an array or structure field of a structure parameter");
                    return Err(());
                }
                let (t, ty) = type_text(pr, &field.ty)?;
                let pname = sanitize(&format!("{}_{}", p.name, field.name));
                texts.push(format!("{t} {}{pname}", if by_ref { "&" } else { "" }));
                members.push((field.name.clone(), Sym::name(&pname, ty, 0, true)));
                kinds.push((field.name.clone(), ty));
            }
            let sym = Sym::Struct { fields: members.into(), dims: 0, lows: Rc::from([]), assignable: true };
            pr.push_local(&p.name, sym);
            params.push((by_ref, Ty::Int, kinds.into(), 0));
            continue;
        }
        let (t, ty, sizes) = array_type_text(pr, &p.ty, &p.dims)?;
        let pname = sanitize(&p.name);
        texts.push(format!("{t} {}{pname}{}", if p.by_ref { "&" } else { "" }, size_text(&sizes)));
        pr.push_local(&p.name, Sym::name(&pname, ty, sizes.len(), true));
        params.push((p.by_ref, ty, Rc::from([]), sizes.len()));
    }
    let mut body = String::new();
    let printed = stmts(pr, &f.body, ret.as_ref().map(|r| r.1), 1, &mut body);
    pr.truncate_locals(depth);
    printed?;
    let head = ret.as_ref().map_or("void", |r| r.0.as_str());
    let text = format!("{head} {name}({}) {{\n{body}}}", texts.join(", "));
    Ok((text, Sym::Fn { text: name.to_string(), params, ret: ret.map(|r| r.1) }))
}

fn stmts(pr: &mut Printer, list: &[St], ret: Option<Ty>, level: usize, out: &mut String) -> Result<(), ()> {
    let depth = pr.locals_len();
    let r = list.iter().try_for_each(|s| stmt(pr, s, ret, level, out));
    pr.truncate_locals(depth);
    r
}

/// A body in braces, at `level`.
fn braced(pr: &mut Printer, s: &St, ret: Option<Ty>, level: usize) -> Result<String, ()> {
    let mut inner = String::new();
    match s {
        St::Block(list) => stmts(pr, list, ret, level + 1, &mut inner)?,
        other => stmts(pr, std::slice::from_ref(other), ret, level + 1, &mut inner)?,
    }
    Ok(format!("{{\n{inner}{}}}", "  ".repeat(level)))
}

/// `int[0, 3] i = 0, j, buf[4] = {1, 2, 3, 4}` (no `;`), declaring the
/// names.
fn locals(pr: &mut Printer, vars: &[VarDecl]) -> Result<String, ()> {
    let Some(first) = vars.first() else { return Ok(String::new()) };
    let (t, ty, _) = array_type_text(pr, &first.ty, &[])?;
    let mut items = Vec::new();
    for v in vars {
        let name = sanitize(&v.name);
        let (_, _, sizes) = array_type_text(pr, &v.ty, &v.dims)?;
        let init = match (&v.init, sizes.is_empty()) {
            (None, _) => String::new(),
            (Some(Init::Expr(e)), true) => {
                let p = if ty == Ty::Bool { pr.boolean(e)? } else { pr.int(e)? };
                format!(" = {}", p.text)
            }
            (Some(init @ Init::List(..)), false) => {
                let values = initial_values(pr, init, ty == Ty::Bool)?;
                let texts: Vec<String> = values.into_iter().map(|(t, _)| t).collect();
                format!(" = {{{}}}", texts.join(", "))
            }
            (Some(Init::List(_, at, end)), true) => {
                pr.d.error(*at, *end, "type-error", "a list initialises an array, not a single value");
                return Err(());
            }
            (Some(Init::Expr(e)), false) => {
                pr.d.unsupported(e.at, e.end, "a local array initialised without `{...}`").hint =
                    Some("declare it, then assign it: `b = a;`".into());
                return Err(());
            }
        };
        items.push(format!("{name}{}{init}", size_text(&sizes)));
        pr.push_local(&v.name, Sym::name(&name, ty, sizes.len(), true));
    }
    Ok(format!("{t} {}", items.join(", ")))
}

fn stmt(pr: &mut Printer, s: &St, ret: Option<Ty>, level: usize, out: &mut String) -> Result<(), ()> {
    let pad = "  ".repeat(level);
    let line = match s {
        St::Local(vars) => format!("{};", locals(pr, vars)?),
        St::Assigns(list) => {
            let printed: Result<Vec<Vec<String>>, ()> = list.iter().map(|a| pr.assign(a)).collect();
            format!("{};", printed?.concat().join(", "))
        }
        St::If(c, a, b) => {
            let c = pr.boolean(c)?.text;
            let mut text = format!("if ({c}) {}", braced(pr, a, ret, level)?);
            if let Some(b) = b {
                text.push_str(&format!(" else {}", braced(pr, b, ret, level)?));
            }
            text
        }
        St::While(c, body) => {
            let c = pr.boolean(c)?.text;
            format!("while ({c}) {}", braced(pr, body, ret, level)?)
        }
        St::DoWhile(body, c) => {
            let body = braced(pr, body, ret, level)?;
            format!("do {body} while ({});", pr.boolean(c)?.text)
        }
        St::For(init, cond, step, body) => {
            let depth = pr.locals_len();
            let r = (|| {
                let init = match init.as_ref() {
                    St::Local(vars) => locals(pr, vars)?,
                    St::Assigns(list) => {
                        let printed: Result<Vec<Vec<String>>, ()> = list.iter().map(|a| pr.assign(a)).collect();
                        printed?.concat().join(", ")
                    }
                    _ => String::new(),
                };
                let cond = match cond {
                    Some(c) => pr.boolean(c)?.text,
                    None => String::new(),
                };
                let printed: Result<Vec<Vec<String>>, ()> = step.iter().map(|a| pr.assign(a)).collect();
                let step = printed?.concat().join(", ");
                Ok(format!("for ({init}; {cond}; {step}) {}", braced(pr, body, ret, level)?))
            })();
            pr.truncate_locals(depth);
            r?
        }
        St::ForEach(var, ty, body) => {
            let (lo, hi) = match pr.range(ty)? {
                Range::Int(lo, hi) => (lo, hi),
                _ => {
                    pr.d.unsupported(ty.at, ty.end, "a `for` loop over a type that is not an integer range");
                    return Err(());
                }
            };
            // The counter's type goes one past `hi`, where the loop stops;
            // the body cannot assign it (UPPAAL's rule too).
            let name = sanitize(var);
            let depth = pr.locals_len();
            pr.push_local(var, Sym::name(&name, Ty::Int, 0, false));
            let body = braced(pr, body, ret, level);
            pr.truncate_locals(depth);
            format!("for (int[{lo}, ({hi}) + 1] {name} = {lo}; {name} <= ({hi}); {name}++) {}", body?)
        }
        St::Return(value, at, end) => match (value, ret) {
            (None, None) => "return;".into(),
            (Some(e), Some(Ty::Bool)) => format!("return {};", pr.boolean(e)?.text),
            (Some(e), Some(_)) => format!("return {};", pr.int(e)?.text),
            (Some(_), None) => {
                pr.d.error(*at, *end, "type-error", "a `void` function returns a value");
                return Err(());
            }
            (None, Some(_)) => {
                pr.d.error(*at, *end, "type-error", "this function must return a value");
                return Err(());
            }
        },
        St::Block(list) => {
            let mut inner = String::new();
            stmts(pr, list, ret, level + 1, &mut inner)?;
            format!("{{\n{inner}{pad}}}")
        }
    };
    out.push_str(&pad);
    out.push_str(&line);
    out.push('\n');
    Ok(())
}
