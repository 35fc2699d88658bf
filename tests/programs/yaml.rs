//! A [`Net`] written as a kairos model (FORMAT.md section 1, "Functions").

use std::fmt::Write as _;

use super::text::{Dialect, bexpr, function, update_item};
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
            write!(y, ", guard: \"{}\"", bexpr(g, Dialect::Kairos)).unwrap();
        }
        match e.sync {
            Some(Sync::Send) => y += ", sync: \"s!\"",
            Some(Sync::Receive) => y += ", sync: \"s?\"",
            None => {}
        }
        if !e.update.is_empty() {
            let items: Vec<String> = e.update.iter().map(|s| update_item(s, Dialect::Kairos)).collect();
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
        function(&mut body, f, Dialect::Kairos);
        for line in body.lines() {
            writeln!(y, "{indent}    {line}").unwrap();
        }
    }
}
