//! Constants UPPAAL computes by calling user functions at compile time
//! (`const int P = def_prio(13);`).
//!
//! The call is not interpreted here: the global declarations translated so
//! far (constants, constant arrays, variables, functions) are written out as
//! a kairos model of their own, which the loader checks and the network
//! compiles like any model, and the call is compiled by the same code and
//! run once. So the function means what it means in the translation, with
//! the same range checks, loop budget and run-time errors (located at the
//! function's line in the XML). The value may depend only on constants:
//! the function must be pure (the checker's rule for guards) and the
//! compiled code may read no data but UPPAAL's constant arrays, at their
//! values.

use super::decl::Decls;
use super::emit;
use super::parse::Expr;
use super::print::Printer;
use super::xml::Src;
use crate::import::YamlOut;
use crate::network::Op;
use crate::network::compile::Env;
use crate::syntax::yaml::Source;

/// The template and instance of the model the call is evaluated in.
const HOST: &str = "Constant_evaluation__";

/// Why a value could not be computed.
enum Failure {
    /// A diagnostic's code and message.
    Error(&'static str, String),
    /// The value depends on the state.
    State,
}

/// The value of `e`, which calls a user function, over the global
/// declarations `globals` translated so far; a failure is reported at `e`.
pub(crate) fn value(pr: &mut Printer, globals: &Decls, e: &Expr, want_bool: bool) -> Result<i64, ()> {
    let text = if want_bool { pr.stored_bool(e)?.text } else { pr.int(e)?.text };
    match evaluate(pr.d.src, globals, &text) {
        Ok(v) => Ok(v),
        Err(Failure::Error(code, msg)) => {
            let msg = format!("in {}: the value of `{text}` cannot be computed: {msg}", pr.what);
            pr.d.error(e.at, e.end, code, msg);
            Err(())
        }
        Err(Failure::State) => {
            let msg =
                "a constant computed by a function that reads or assigns variables (its value depends on the state)";
            pr.d.unsupported(e.at, e.end, msg).hint = Some("write the constant's value".into());
            Err(())
        }
    }
}

/// The first of `d`, as a failure.
fn failure(d: Vec<crate::diag::Diagnostic>) -> Failure {
    match d.into_iter().next() {
        Some(d) => Failure::Error(d.code, d.message),
        None => Failure::Error("error", String::new()),
    }
}

/// The value of the kairos expression `text` over `globals`.
fn evaluate(src: &Src, globals: &Decls, text: &str) -> Result<i64, Failure> {
    let mut y = YamlOut::default();
    y.line(0, "model: constant");
    emit::declarations(&mut y, src, globals);
    for l in ["", "templates:", &format!("  {HOST}:"), "    initial: l", "    locations: {l: {}}", "    edges: []"] {
        y.line(0, l);
    }
    y.line(0, format!("system: [{HOST}]"));
    let (yaml, line_map) = y.finish();
    let source = Source::new(format!("{}: the constant's host model", src.file), yaml);
    let loaded = crate::model::load::load_model(&source).map_err(failure)?;
    let t = loaded.expression(text).map_err(|d| match d.first() {
        // The checker's rule for guards: the call assigns variables.
        Some(d) if d.code == "impure-call" => Failure::State,
        _ => failure(d),
    })?;
    let mut net = crate::network::build(&loaded.model).map_err(failure)?;
    net.line_map = Some(line_map.into());
    let env = Env { layout: &net.layout, inst: 0, args: &[], selects: &[], select_slot: None };
    let code = env.compile(&t).map_err(|msg| Failure::Error("too-large", msg))?;
    // The slots of UPPAAL's constant arrays: the only data the value may read.
    let mut constant = vec![false; net.slots.len()];
    let firsts = net.layout.global.iter().copied().chain([net.slots.len() as u32]);
    for (v, (a, b)) in globals.vars.iter().zip(firsts.clone().zip(firsts.skip(1))) {
        constant[a as usize..b as usize].fill(v.constant);
    }
    let reads_constants = |base: u32, len: u32| constant[base as usize..(base + len) as usize].iter().all(|c| *c);
    let reads_state = code.ops.iter().any(|op| match *op {
        Op::Load(slot) => !reads_constants(slot, 1),
        Op::LoadIdx { base, len } | Op::Addr { base, len } => !reads_constants(base, len),
        Op::AtLoc { .. } | Op::Store { .. } | Op::StoreIdx { .. } | Op::StoreAt { .. } => true,
        _ => false,
    });
    if reads_state {
        return Err(Failure::State);
    }
    let data: Vec<i64> = net.slots.iter().map(|s| s.init.0).collect();
    code.eval(&[0], &data, &mut Vec::new()).map_err(|err| Failure::Error("constant-error", err.describe(&net)))
}
