//! Code of a [`Net`] as text: expressions, update entries and function
//! definitions, in kairos's syntax or UPPAAL's (the same C, but the scalar
//! globals and the first array are fields of one structure `st`, which the
//! UPPAAL importer flattens). Every compound expression is parenthesised:
//! what is tested is the semantics, not the grammar's precedence.

use std::fmt::Write as _;

use super::*;

#[derive(Clone, Copy, PartialEq)]
pub enum Dialect {
    Kairos,
    Uppaal,
}

impl Dialect {
    fn prefix(self) -> &'static str {
        match self {
            Dialect::Kairos => "",
            Dialect::Uppaal => "st.",
        }
    }
}

pub fn range(r: Range) -> String {
    if r == INT { "int".into() } else { format!("int[{}, {}]", r.lo, r.hi) }
}

pub fn function(out: &mut String, f: &Func, d: Dialect) {
    let ret = match f.ret {
        Type::Void => "void".into(),
        Type::Bool => "bool".into(),
        Type::Int(r) => range(r),
    };
    let params: Vec<String> = f
        .params
        .iter()
        .enumerate()
        .map(|(k, p)| match p {
            Param::Val(r) => format!("{} {}", range(*r), slot_name(k)),
            Param::Ref => format!("int &{}", slot_name(k)),
        })
        .collect();
    writeln!(out, "{ret} {}({}) {{", f.name, params.join(", ")).unwrap();
    block(out, &f.body, 1, d);
    out.push_str("}\n");
}

fn block(out: &mut String, body: &[Stmt], depth: usize, d: Dialect) {
    let pad = "  ".repeat(depth);
    for s in body {
        match s {
            Stmt::If(c, a, b) => {
                writeln!(out, "{pad}if ({}) {{", bexpr(c, d)).unwrap();
                block(out, a, depth + 1, d);
                if b.is_empty() {
                    writeln!(out, "{pad}}}").unwrap();
                } else {
                    writeln!(out, "{pad}}} else {{").unwrap();
                    block(out, b, depth + 1, d);
                    writeln!(out, "{pad}}}").unwrap();
                }
            }
            Stmt::Loop { slot, n, body, form } => {
                let t = slot_name(*slot);
                match form {
                    LoopForm::While => {
                        writeln!(out, "{pad}{t} = 0;\n{pad}while ({t} < {n}) {{").unwrap();
                        block(out, body, depth + 1, d);
                        writeln!(out, "{pad}  {t}++;\n{pad}}}").unwrap();
                    }
                    LoopForm::DoWhile => {
                        writeln!(out, "{pad}{t} = 0;\n{pad}do {{").unwrap();
                        block(out, body, depth + 1, d);
                        writeln!(out, "{pad}  {t}++;\n{pad}}} while ({t} < {n});").unwrap();
                    }
                    LoopForm::For => {
                        writeln!(out, "{pad}for ({t} = 0; {t} < {n}; {t}++) {{").unwrap();
                        block(out, body, depth + 1, d);
                        writeln!(out, "{pad}}}").unwrap();
                    }
                }
            }
            Stmt::Decl(slot, r, init) => {
                let init = init.as_ref().map(|e| format!(" = {}", iexpr(e, d))).unwrap_or_default();
                writeln!(out, "{pad}{} {}{init};", range(*r), slot_name(*slot)).unwrap();
            }
            Stmt::Return(None) => writeln!(out, "{pad}return;").unwrap(),
            Stmt::Return(Some(Ret::Int(e))) => writeln!(out, "{pad}return {};", iexpr(e, d)).unwrap(),
            Stmt::Return(Some(Ret::Bool(e))) => writeln!(out, "{pad}return {};", bexpr(e, d)).unwrap(),
            simple => writeln!(out, "{pad}{};", update_item(simple, d)).unwrap(),
        }
    }
}

/// A statement that is also an update entry.
pub fn update_item(s: &Stmt, d: Dialect) -> String {
    match s {
        Stmt::Assign(p, e) => format!("{} = {}", place(p, d), iexpr(e, d)),
        Stmt::Compound(p, op, e) => format!("{} {}= {}", place(p, d), iop(*op), iexpr(e, d)),
        Stmt::Step(p, up) => format!("{}{}", place(p, d), if *up { "++" } else { "--" }),
        Stmt::SetFlag(k, b) => format!("f{k} = {}", bexpr(b, d)),
        Stmt::Call(f, args) => call(*f, args, d),
        other => panic!("not an update entry: {other:?}"),
    }
}

fn slot_name(k: usize) -> String {
    format!("t{k}")
}

fn place(p: &Place, d: Dialect) -> String {
    match p {
        Place::Global(k) => format!("{}g{k}", d.prefix()),
        Place::Elem(0, i) => format!("{}a0[{}]", d.prefix(), iexpr(i, d)),
        Place::Elem(k, i) => format!("a{k}[{}]", iexpr(i, d)),
        // Parameters and locals share one numbering.
        Place::Slot(k) | Place::Ref(k) => slot_name(*k),
        Place::Local => "c".into(),
    }
}

fn call(f: Callee, args: &[Arg], d: Dialect) -> String {
    let name = match f {
        Callee::Global(k) => format!("fg{k}"),
        Callee::Template(k) => format!("ft{k}"),
    };
    let args: Vec<String> = args
        .iter()
        .map(|a| match a {
            Arg::Val(e) => iexpr(e, d),
            Arg::Ref(p) => place(p, d),
        })
        .collect();
    format!("{name}({})", args.join(", "))
}

fn iop(op: IOp) -> &'static str {
    match op {
        IOp::Add => "+",
        IOp::Sub => "-",
        IOp::Mul => "*",
        IOp::Div => "/",
        IOp::Mod => "%",
        IOp::Min => "<?",
        IOp::Max => ">?",
        IOp::And => "&",
        IOp::Or => "|",
        IOp::Xor => "^",
        IOp::Shl => "<<",
        IOp::Shr => ">>",
    }
}

pub fn iexpr(e: &IExpr, d: Dialect) -> String {
    match e {
        IExpr::Lit(v) if *v < 0 => format!("({v})"),
        IExpr::Lit(v) => v.to_string(),
        IExpr::Read(p) => place(p, d),
        IExpr::Id => "id".into(),
        IExpr::Neg(a) => format!("(-{})", iexpr(a, d)),
        IExpr::Bin(op, a, b) => format!("({} {} {})", iexpr(a, d), iop(*op), iexpr(b, d)),
        IExpr::Cond(c, a, b) => format!("({} ? {} : {})", bexpr(c, d), iexpr(a, d), iexpr(b, d)),
        IExpr::Call(f, args) => call(*f, args, d),
        IExpr::Step(p, up, post) => {
            let op = if *up { "++" } else { "--" };
            if *post { format!("({}{op})", place(p, d)) } else { format!("({op}{})", place(p, d)) }
        }
    }
}

pub fn bexpr(e: &BExpr, d: Dialect) -> String {
    match e {
        BExpr::Lit(b) => b.to_string(),
        BExpr::Flag(k) => format!("f{k}"),
        BExpr::Cmp(op, a, b) => {
            let op = match op {
                COp::Lt => "<",
                COp::Le => "<=",
                COp::Eq => "==",
                COp::Ne => "!=",
                COp::Ge => ">=",
                COp::Gt => ">",
            };
            format!("({} {op} {})", iexpr(a, d), iexpr(b, d))
        }
        BExpr::Not(a) => format!("!{}", bexpr(a, d)),
        BExpr::And(a, b) => format!("({} && {})", bexpr(a, d), bexpr(b, d)),
        BExpr::Or(a, b) => format!("({} || {})", bexpr(a, d), bexpr(b, d)),
        BExpr::Call(f, args) => call(*f, args, d),
    }
}
