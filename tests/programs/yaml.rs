//! A [`Net`] written as a kairos model (FORMAT.md section 1, "Functions").
//! Every compound expression is parenthesised: what is tested is the
//! functions' semantics, not the grammar's precedence.

use std::fmt::Write as _;

use super::*;

pub fn model(net: &Net, name: &str) -> String {
    let mut y = format!("model: {name}\nvariables:\n");
    for (k, r) in net.globals.iter().enumerate() {
        writeln!(y, "  g{k}: {{range: [{}, {}], init: 0}}", r.lo, r.hi).unwrap();
    }
    for (k, (r, n)) in net.arrays.iter().enumerate() {
        writeln!(y, "  a{k}: {{range: [{}, {}], size: {n}, init: 0}}", r.lo, r.hi).unwrap();
    }
    for k in 0..net.flags {
        writeln!(y, "  f{k}: {{type: bool, init: false}}").unwrap();
    }
    y += "channels:\n  s: binary\n";
    functions(&mut y, &net.functions, "");
    y += "templates:\n  P:\n    params: [id]\n";
    writeln!(y, "    variables:\n      c: {{range: [{}, {}], init: 0}}", net.local.lo, net.local.hi).unwrap();
    functions(&mut y, &net.template_functions, "    ");
    y += "    initial: l0\n    locations:\n";
    for l in 0..net.locations {
        writeln!(y, "      l{l}: {{}}").unwrap();
    }
    y += "    edges:\n";
    for e in &net.edges {
        write!(y, "      - {{from: l{}, to: l{}", e.from, e.to).unwrap();
        if let Some(g) = &e.guard {
            write!(y, ", guard: \"{}\"", bexpr(g)).unwrap();
        }
        match e.sync {
            Some(Sync::Send) => y += ", sync: \"s!\"",
            Some(Sync::Receive) => y += ", sync: \"s?\"",
            None => {}
        }
        if !e.update.is_empty() {
            let items: Vec<String> = e.update.iter().map(update_item).collect();
            write!(y, ", update: \"{}\"", items.join("; ")).unwrap();
        }
        y += "}\n";
    }
    writeln!(y, "system:\n  - P(0..{})", net.instances - 1).unwrap();
    y
}

fn functions(y: &mut String, fs: &[Func], indent: &str) {
    if fs.is_empty() {
        return;
    }
    writeln!(y, "{indent}functions:").unwrap();
    for f in fs {
        writeln!(y, "{indent}  - |").unwrap();
        let mut body = String::new();
        function(&mut body, f);
        for line in body.lines() {
            writeln!(y, "{indent}    {line}").unwrap();
        }
    }
}

fn range(r: Range) -> String {
    if r == INT { "int".into() } else { format!("int[{}, {}]", r.lo, r.hi) }
}

fn function(out: &mut String, f: &Func) {
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
    block(out, &f.body, 1);
    out.push_str("}\n");
}

fn block(out: &mut String, body: &[Stmt], depth: usize) {
    let pad = "  ".repeat(depth);
    for s in body {
        match s {
            Stmt::If(c, a, b) => {
                writeln!(out, "{pad}if ({}) {{", bexpr(c)).unwrap();
                block(out, a, depth + 1);
                if b.is_empty() {
                    writeln!(out, "{pad}}}").unwrap();
                } else {
                    writeln!(out, "{pad}}} else {{").unwrap();
                    block(out, b, depth + 1);
                    writeln!(out, "{pad}}}").unwrap();
                }
            }
            Stmt::Loop { slot, n, body, as_while } => {
                let t = slot_name(*slot);
                if *as_while {
                    writeln!(out, "{pad}{t} = 0;\n{pad}while ({t} < {n}) {{").unwrap();
                    block(out, body, depth + 1);
                    writeln!(out, "{pad}  {t}++;\n{pad}}}").unwrap();
                } else {
                    writeln!(out, "{pad}for ({t} = 0; {t} < {n}; {t}++) {{").unwrap();
                    block(out, body, depth + 1);
                    writeln!(out, "{pad}}}").unwrap();
                }
            }
            Stmt::Decl(slot, r, init) => {
                let init = init.as_ref().map(|e| format!(" = {}", iexpr(e))).unwrap_or_default();
                writeln!(out, "{pad}{} {}{init};", range(*r), slot_name(*slot)).unwrap();
            }
            Stmt::Return(None) => writeln!(out, "{pad}return;").unwrap(),
            Stmt::Return(Some(Ret::Int(e))) => writeln!(out, "{pad}return {};", iexpr(e)).unwrap(),
            Stmt::Return(Some(Ret::Bool(e))) => writeln!(out, "{pad}return {};", bexpr(e)).unwrap(),
            simple => writeln!(out, "{pad}{};", update_item(simple)).unwrap(),
        }
    }
}

/// A statement that is also an update entry.
pub fn update_item(s: &Stmt) -> String {
    match s {
        Stmt::Assign(p, e) => format!("{} = {}", place(p), iexpr(e)),
        Stmt::Compound(p, op, e) => format!("{} {}= {}", place(p), iop(*op), iexpr(e)),
        Stmt::Step(p, up) => format!("{}{}", place(p), if *up { "++" } else { "--" }),
        Stmt::SetFlag(k, b) => format!("f{k} = {}", bexpr(b)),
        Stmt::Call(f, args) => call(*f, args),
        other => panic!("not an update entry: {other:?}"),
    }
}

fn slot_name(k: usize) -> String {
    format!("t{k}")
}

fn place(p: &Place) -> String {
    match p {
        Place::Global(k) => format!("g{k}"),
        Place::Elem(k, i) => format!("a{k}[{}]", iexpr(i)),
        // Parameters and locals share one numbering.
        Place::Slot(k) | Place::Ref(k) => slot_name(*k),
        Place::Local => "c".into(),
    }
}

fn call(f: Callee, args: &[Arg]) -> String {
    let name = match f {
        Callee::Global(k) => format!("fg{k}"),
        Callee::Template(k) => format!("ft{k}"),
    };
    let args: Vec<String> = args
        .iter()
        .map(|a| match a {
            Arg::Val(e) => iexpr(e),
            Arg::Ref(p) => place(p),
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

pub fn iexpr(e: &IExpr) -> String {
    match e {
        IExpr::Lit(v) if *v < 0 => format!("({v})"),
        IExpr::Lit(v) => v.to_string(),
        IExpr::Read(p) => place(p),
        IExpr::Id => "id".into(),
        IExpr::Neg(a) => format!("(-{})", iexpr(a)),
        IExpr::Bin(op, a, b) => format!("({} {} {})", iexpr(a), iop(*op), iexpr(b)),
        IExpr::Cond(c, a, b) => format!("({} ? {} : {})", bexpr(c), iexpr(a), iexpr(b)),
        IExpr::Call(f, args) => call(*f, args),
    }
}

pub fn bexpr(e: &BExpr) -> String {
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
            format!("({} {op} {})", iexpr(a), iexpr(b))
        }
        BExpr::Not(a) => format!("!{}", bexpr(a)),
        BExpr::And(a, b) => format!("({} && {})", bexpr(a), bexpr(b)),
        BExpr::Or(a, b) => format!("({} || {})", bexpr(a), bexpr(b)),
        BExpr::Call(f, args) => call(*f, args),
    }
}
