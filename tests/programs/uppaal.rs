//! A [`Net`] written as an UPPAAL model (XML), the scalar globals and the
//! first array gathered in a structure `st` (the importer flattens it).

use std::fmt::Write as _;

use super::text::{Dialect, bexpr, function, range, update_item};
use super::*;

const D: Dialect = Dialect::Uppaal;

/// `<`, `>` and `&` as XML text.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

pub fn model(net: &Net) -> String {
    let mut decl = String::from("struct {\n");
    for (k, r) in net.globals.iter().enumerate() {
        writeln!(decl, "  {} g{k};", range(*r)).unwrap();
    }
    let (r, n) = net.arrays[0];
    writeln!(decl, "  {} a0[{n}];\n}} st;", range(r)).unwrap();
    for (k, (r, n)) in net.arrays.iter().enumerate().skip(1) {
        writeln!(decl, "{} a{k}[{n}];", range(*r)).unwrap();
    }
    for k in 0..net.flags {
        writeln!(decl, "bool f{k};").unwrap();
    }
    writeln!(decl, "chan s;\ntypedef int[0, {}] pid_t;", net.instances - 1).unwrap();
    for f in &net.functions {
        function(&mut decl, f, D);
    }
    let mut local = format!("{} c;\n", range(net.local));
    for f in &net.template_functions {
        function(&mut local, f, D);
    }
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<nta>\n");
    writeln!(x, "<declaration>{}</declaration>", escape(&decl)).unwrap();
    x += "<template>\n<name>P</name>\n<parameter>const pid_t id</parameter>\n";
    writeln!(x, "<declaration>{}</declaration>", escape(&local)).unwrap();
    for l in 0..net.locations {
        writeln!(x, "<location id=\"id{l}\"><name>l{l}</name></location>").unwrap();
    }
    x += "<init ref=\"id0\"/>\n";
    for e in &net.edges {
        writeln!(x, "<transition><source ref=\"id{}\"/><target ref=\"id{}\"/>", e.from, e.to).unwrap();
        if let Some(g) = &e.guard {
            writeln!(x, "<label kind=\"guard\">{}</label>", escape(&bexpr(g, D))).unwrap();
        }
        match e.sync {
            Some(Sync::Send) => x += "<label kind=\"synchronisation\">s!</label>\n",
            Some(Sync::Receive) => x += "<label kind=\"synchronisation\">s?</label>\n",
            None => {}
        }
        if !e.update.is_empty() {
            let items: Vec<String> = e.update.iter().map(|s| update_item(s, D)).collect();
            writeln!(x, "<label kind=\"assignment\">{}</label>", escape(&items.join(", "))).unwrap();
        }
        x += "</transition>\n";
    }
    x += "</template>\n<system>system P;</system>\n</nta>\n";
    x
}
