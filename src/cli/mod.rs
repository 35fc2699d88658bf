//! Arguments to library calls to printed results and an exit code. The only
//! layer that prints and decides exit codes; each command is a file, a
//! recipe of calls into the library (the input pipeline is [`crate::input`]).
//! Every `print!` here writes through [`output`]: a closed pipe ends the
//! output quietly, never with a panic.

#[macro_use]
mod output;
mod args;
mod bound;
mod check;
mod evidence;
mod graph;
mod html_report;
mod import;
mod observer;
mod options;
mod params;
mod progress;
mod simulate;
mod svg;
mod sweep;
mod synth;
mod synth_witness;
mod validate;

pub use args::Cli;

use std::path::Path;

use serde_json::json;

use crate::diag::Diagnostic;
use crate::input::{self, Input, Rejected};
use crate::model::types::Property;
use crate::report;
use crate::syntax::yaml::Source;
use args::{Command, InputFormat, OutputFormat};

/// Exit codes of FORMAT.md section 6.
pub mod exit {
    pub const OK: u8 = 0;
    pub const NOT_AS_EXPECTED: u8 = 1;
    pub const INVALID: u8 = 2;
    pub const LIMIT: u8 = 3;
    pub const RUNTIME_ERROR: u8 = 4;
    pub const UNSUPPORTED: u8 = 5;
}

/// Runs a parsed command line; returns the exit code.
pub fn run(cli: Cli) -> u8 {
    match cli.command {
        Command::Check(a) => check::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Graph(a) => graph::run(a),
        Command::Synth(a) => synth::run(a),
        Command::Sweep(a) => sweep::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Bound(a) => bound::run(a),
        Command::Observer(a) => observer::run(a),
        Command::Import(a) => import::run(a),
        Command::Report(a) => html_report::run(a),
    }
}

/// Invalid input: every diagnostic on stderr (text) or stdout (JSON).
fn invalid(diags: &[Diagnostic], sources: &[Source], format: OutputFormat) -> u8 {
    match format {
        OutputFormat::Json => println!("{}", report::diagnostics::json(diags)),
        OutputFormat::Text => {
            let texts: Vec<(&str, &str)> = sources.iter().map(|s| (&*s.name, s.text.as_str())).collect();
            eprint!("{}", report::diagnostics::render(diags, &texts));
            let n = diags.len();
            eprintln!("{n} error{} found; nothing was checked", if n == 1 { "" } else { "s" });
        }
    }
    exit::INVALID
}

/// A rejected input, reported; its exit code.
fn rejected(r: Rejected, format: OutputFormat) -> u8 {
    let code = invalid(&r.diags, &r.sources, format);
    if r.unsupported { exit::UNSUPPORTED } else { code }
}

/// The model and spec files, loaded; `Err` holds the exit code.
fn load(
    model: &Path,
    specs: &[std::path::PathBuf],
    forced: Option<InputFormat>,
    format: OutputFormat,
) -> Result<Input, u8> {
    input::load(model, specs, forced.map(Into::into)).map_err(|r| rejected(r, format))
}

/// The compiled network (see [`Input::network`]); `Err` holds the exit code.
fn network(input: &Input, format: OutputFormat) -> Result<Option<crate::network::Network>, u8> {
    input.network().map_err(|r| rejected(r, format))
}

/// The model and spec files loaded with the constants `--param` sets, and
/// what `--param` gives (see [`params::given`]); `Err` holds the exit code.
fn load_at(
    model: &Path,
    specs: &[std::path::PathBuf],
    forced: Option<InputFormat>,
    format: OutputFormat,
    texts: &[String],
) -> Result<(Input, params::Given), u8> {
    let input = load(model, specs, forced, format)?;
    let given = params::given(&input.loaded.model, texts)?;
    if given.constants.is_empty() {
        return Ok((input, given));
    }
    let input = load_constants(model, specs, forced, format, &given.constants)?;
    Ok((input, given))
}

/// The model and spec files loaded with `constants` set; when that makes
/// the model invalid, its diagnostics and then the values that did it.
fn load_constants(
    model: &Path,
    specs: &[std::path::PathBuf],
    forced: Option<InputFormat>,
    format: OutputFormat,
    constants: &[(String, i64)],
) -> Result<Input, u8> {
    input::load_with(model, specs, forced.map(Into::into), constants).map_err(|r| {
        let code = rejected(r, format);
        let set: Vec<String> = constants.iter().map(|(n, v)| format!("{n}={v}")).collect();
        eprintln!("kairos: note: with the constants set by --param {}", set.join(" --param "));
        code
    })
}

/// The compiled network with the timing parameters of `--param` fixed (see
/// [`Input::network_with`]); `Err` holds the exit code.
fn network_at(
    input: &Input,
    given: &params::Given,
    format: OutputFormat,
) -> Result<Option<crate::network::Network>, u8> {
    input.network_with(&given.timing).map_err(|r| rejected(r, format))
}

/// The model of a one-query command (its constants set by `texts`, the
/// `--param` values), its property and what `--param` gives; `Err` holds
/// the exit code.
fn one_query(a: &args::QueryArgs, texts: &[String]) -> Result<(Input, Property, params::Given), u8> {
    let format = a.common.format;
    let (input, given) = load_at(&a.model, &[], a.common.input, format, texts)?;
    match input.query("query", &a.query) {
        Ok(p) => Ok((input, p, given)),
        Err(r) => Err(rejected(r, format)),
    }
}

/// A command whose engine does not exist yet: validate the model, then say so.
fn not_yet(model: &Path, format: OutputFormat, what: &str) -> u8 {
    if let Err(code) = load(model, &[], None, format) {
        return code;
    }
    match format {
        OutputFormat::Json => println!("{}", json!({"verdict": "unknown", "reason": "unsupported", "message": what})),
        OutputFormat::Text => eprintln!("kairos: {what}"),
    }
    exit::UNSUPPORTED
}
