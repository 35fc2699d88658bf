//! Arguments to library calls to printed results and an exit code. The only
//! layer that reads files, prints, and decides exit codes.

mod args;

pub use args::Cli;

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::diag::{Diagnostic, Loc, Pos};
use crate::engine::{self, Verdict};
use crate::model::load::{self, Loaded};
use crate::model::types::Property;
use crate::report;
use crate::syntax::yaml::Source;
use args::{CheckArgs, Command, InputFormat, OutputFormat, ValidateArgs};

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
        Command::Check(a) => check(a),
        Command::Validate(a) => validate(a),
        Command::Graph(a) => graph(a),
        Command::Synth(a) => {
            not_yet(&a.model, a.common.format, "`kairos synth` (parametric synthesis) is not supported yet")
        }
        Command::Sweep(a) => not_yet(&a.model, a.common.format, "`kairos sweep` is not supported yet"),
        Command::Simulate(a) => not_yet(&a.model, OutputFormat::Text, "`kairos simulate` is not supported yet"),
        Command::Bound(a) => bound(a),
        Command::Observer(a) => observer(a),
        Command::Import(a) => import(a),
    }
}

/// Invalid input: every diagnostic on stderr (text) or stdout (JSON).
fn invalid(diags: &[Diagnostic], sources: &[&Source], format: OutputFormat) -> u8 {
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

fn read(path: &Path) -> Result<Source, Diagnostic> {
    let name = path.display().to_string();
    std::fs::read(path)
        .map_err(|e| io_error(&name, format!("cannot read `{name}`: {e}")))
        .and_then(|bytes| String::from_utf8(bytes).map_err(|_| io_error(&name, format!("`{name}` is not UTF-8 text"))))
        .map(|text| Source::new(name, text))
}

fn io_error(file: &str, msg: String) -> Diagnostic {
    Diagnostic::new(Loc { file: file.into(), pos: Pos { index: 0, line: 0, column: 0 }, len: 0 }, "io", msg)
}

/// The input format, from `--input` or the extension.
fn input_format(path: &Path, forced: Option<InputFormat>) -> InputFormat {
    forced.unwrap_or(match path.extension().and_then(|e| e.to_str()) {
        Some("tck") => InputFormat::Tchecker,
        Some("xml") => InputFormat::Uppaal,
        _ => InputFormat::Yaml,
    })
}

/// A model read in another format, translated into YAML.
enum Translated {
    Tchecker(crate::import::Imported),
    Uppaal(crate::import::UppaalModel),
}

impl Translated {
    /// The line of the original file a line of the YAML comes from.
    fn source_line(&self, yaml_line: usize) -> usize {
        match self {
            Translated::Tchecker(t) => t.tck_line(yaml_line),
            Translated::Uppaal(u) => u.source_line(yaml_line),
        }
    }
}

/// What `check` reports on: a property, or an imported query kairos cannot
/// state yet (reported `unknown (unsupported)` in its place, with the
/// diagnostic saying where it is).
enum Item {
    Check(Property),
    Refused(report::verdict::Refused, Diagnostic),
}

impl Item {
    fn refused(name: String, text: String, why: Diagnostic) -> Item {
        Item::Refused(report::verdict::Refused { name, text, why: why.message.clone() }, why)
    }
}

/// A loaded model and the sources read for it (kept for error snippets).
struct Input {
    model_src: Source,
    loaded: Loaded,
    /// Each spec or query file, and what it asks.
    specs: Vec<(Source, Vec<Item>)>,
    /// Set when the model was imported (line map; TChecker's label renames;
    /// UPPAAL's names for queries).
    imported: Option<Translated>,
    /// The model file as given (an imported model's diagnostics point there).
    model_path: PathBuf,
}

/// Reports diagnostics on the model: on an imported model, at the lines of
/// the file the user wrote, not of its YAML translation.
fn invalid_model(
    d: &[Diagnostic],
    src: &Source,
    imported: Option<&Translated>,
    path: &Path,
    format: OutputFormat,
) -> u8 {
    match imported {
        Some(i) => invalid(&source_positions(d, i, path), &[], format),
        None => invalid(d, &[src], format),
    }
}

/// Reads and checks the model and spec files; `Err` holds the exit code.
fn load_input(model: &Path, specs: &[PathBuf], input: Option<InputFormat>, format: OutputFormat) -> Result<Input, u8> {
    let (model_src, imported) = match input_format(model, input) {
        InputFormat::Yaml => (read(model).map_err(|d| invalid(&[d], &[], format))?, None),
        InputFormat::Tchecker | InputFormat::Uppaal => {
            let (src, imported) = import_file(model, input, format)?;
            (src, Some(imported))
        }
    };
    let loaded =
        load::load_model(&model_src).map_err(|d| invalid_model(&d, &model_src, imported.as_ref(), model, format))?;
    let mut out = Vec::new();
    let mut diags = Vec::new();
    let mut sources = Vec::new();
    for path in specs {
        let src = match read(path) {
            Ok(s) => s,
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        if path.extension().is_some_and(|e| e == "q") {
            let Some(Translated::Uppaal(u)) = &imported else {
                diags.push(io_error(
                    &src.name,
                    format!("`{}`: a UPPAAL query file (.q) goes with a UPPAAL model (.xml)", src.name),
                ));
                continue;
            };
            match q_file(u, &loaded, &src) {
                Ok(items) => out.push((src, items)),
                Err(d) => {
                    diags.extend(d);
                    sources.push(src);
                }
            }
            continue;
        }
        let header = load::spec_header(&src).and_then(|(path_text, pos)| {
            match spec_mismatch(model, path, &path_text, pos, &src) {
                Some(d) => Err(vec![d]),
                None => loaded.spec(&src),
            }
        });
        match header {
            Ok(spec) => out.push((src, spec.properties.into_iter().map(Item::Check).collect())),
            Err(d) => {
                diags.extend(d);
                sources.push(src);
            }
        }
    }
    if !diags.is_empty() {
        let mut all: Vec<&Source> = vec![&model_src];
        all.extend(out.iter().map(|(s, _)| s));
        all.extend(sources.iter());
        return Err(invalid(&diags, &all, format));
    }
    Ok(Input { model_src, loaded, specs: out, imported, model_path: model.to_path_buf() })
}

/// The compiled network of a timed, parameter-free model (`None` for the
/// others, whose engines do not exist yet). Instantiation can still fail,
/// and a model without any initial state is invalid (FORMAT.md section 1).
fn network_of(input: &Input, format: OutputFormat) -> Result<Option<crate::network::Network>, u8> {
    let m = &input.loaded.model;
    if m.hybrid || !m.params.is_empty() {
        return Ok(None);
    }
    let invalid =
        |d: &[Diagnostic]| invalid_model(d, &input.model_src, input.imported.as_ref(), &input.model_path, format);
    let net = crate::network::build(m).map_err(|d| invalid(&d))?;
    let mut zg = crate::semantics::ZoneGraph::new(&net, crate::semantics::Abstraction::None);
    let mut initial = Vec::new();
    // A run-time error here is reported by the check itself, with its trace.
    if zg.initial_exact(&mut initial).is_ok() && initial.is_empty() {
        let pos = m.instances.first().map_or(Pos { index: 0, line: 1, column: 1 }, |i| i.pos);
        let d = Diagnostic::new(
            input.model_src.loc(pos, 1),
            "no-initial-state",
            "no initial state satisfies every invariant",
        )
        .with_hint("check the invariants of the initial locations against the initial values");
        return Err(invalid(&[d]));
    }
    Ok(Some(net))
}

/// Reads and translates a TChecker or UPPAAL file; the YAML source is named
/// after it. A file refused only for what is not supported yet exits 5, one
/// with errors 2.
fn import_file(path: &Path, forced: Option<InputFormat>, format: OutputFormat) -> Result<(Source, Translated), u8> {
    let src = read(path).map_err(|d| invalid(&[d], &[], format))?;
    let translated = match input_format(path, forced) {
        InputFormat::Uppaal => crate::import::import_uppaal(&src.name, &src.text).map(Translated::Uppaal),
        _ => crate::import::import_tchecker(&src.name, &src.text).map(Translated::Tchecker),
    };
    let translated = translated.map_err(|d| {
        let code = invalid(&d, &[&src], format);
        if d.iter().all(|d| d.code == "unsupported") { exit::UNSUPPORTED } else { code }
    })?;
    let yaml = match &translated {
        Translated::Tchecker(t) => t.yaml.clone(),
        Translated::Uppaal(u) => u.yaml.clone(),
    };
    Ok((Source::new(format!("{} (as YAML)", src.name), yaml), translated))
}

/// Diagnostics on the YAML translation, pointed back at the lines of the
/// original file.
fn source_positions(diags: &[Diagnostic], imported: &Translated, path: &Path) -> Vec<Diagnostic> {
    diags.iter().map(|d| relocate(d, path, imported.source_line(d.loc.pos.line))).collect()
}

/// `d` moved to `line` of `path` (its column is meaningless there).
fn relocate(d: &Diagnostic, path: &Path, line: usize) -> Diagnostic {
    let mut d = d.clone();
    d.loc = Loc { file: path.display().to_string().into(), pos: Pos { index: 0, line, column: 1 }, len: 0 };
    d
}

/// The queries of a UPPAAL `.q` file, as properties (or refused).
fn q_file(u: &crate::import::UppaalModel, loaded: &Loaded, src: &Source) -> Result<Vec<Item>, Vec<Diagnostic>> {
    let queries = u.query_file(&src.name, &src.text)?;
    let mut items = Vec::new();
    let mut diags = Vec::new();
    for q in queries {
        let formula = match q.formula {
            Ok(f) => f,
            Err(why) => {
                items.push(Item::refused(q.name, q.text, why));
                continue;
            }
        };
        match loaded.query(&q.name, &formula) {
            Ok(p) => items.push(Item::Check(p)),
            // Errors on the translated formula: at the query's line.
            Err(d) => diags.extend(d.iter().map(|d| relocate(d, Path::new(&*src.name), q.line))),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok(items)
}

/// A spec's `model:` must name the model given on the command line.
fn spec_mismatch(model: &Path, spec_path: &Path, named_text: &str, pos: Pos, src: &Source) -> Option<Diagnostic> {
    let named = spec_path.parent().unwrap_or(Path::new(".")).join(named_text);
    let same = match (named.canonicalize(), model.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    (!same).then(|| {
        Diagnostic::new(
            src.loc(pos, named_text.chars().count()),
            "spec-model-mismatch",
            format!("this spec is for `{}`, but the model given is `{}`", named.display(), model.display()),
        )
        .with_hint("pass the model the spec names, or fix `model:` (it is relative to the spec file)")
    })
}

fn validate(a: ValidateArgs) -> u8 {
    let input = match load_input(&a.model, &a.specs, a.input, a.format) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let m = &input.loaded.model;
    let network = match network_of(&input, a.format) {
        Ok(n) => n,
        Err(code) => return code,
    };
    let properties: usize = m.properties.len() + input.specs.iter().map(|(_, s)| s.len()).sum::<usize>();
    let kind = if m.hybrid {
        "hybrid"
    } else if !m.params.is_empty() {
        "parametric timed"
    } else {
        "timed"
    };
    let (locations, edges, clocks, slots) = match &network {
        Some(n) => (
            n.processes.iter().map(|p| p.locations.len()).sum::<usize>(),
            n.processes.iter().map(|p| p.edges.len()).sum::<usize>(),
            n.clocks.len(),
            n.slots.len(),
        ),
        None => (
            m.instances.iter().map(|i| m.templates[i.template].locations.len()).sum(),
            m.instances.iter().map(|i| m.templates[i.template].edges.len()).sum(),
            m.clocks.len() + m.instances.iter().map(|i| m.templates[i.template].clocks.len()).sum::<usize>(),
            0,
        ),
    };
    match a.format {
        OutputFormat::Json => println!(
            "{}",
            json!({"model": m.name, "valid": true, "kind": kind, "instances": m.instances.len(),
                   "locations": locations, "edges": edges, "clocks": clocks, "data_slots": slots, "properties": properties})
        ),
        OutputFormat::Text => println!(
            "{}: valid {kind} model `{}`: {} instances, {locations} locations, {edges} edges, {clocks} clocks, {slots} data slots; {properties} properties",
            a.model.display(),
            m.name,
            m.instances.len()
        ),
    }
    exit::OK
}

fn check(a: CheckArgs) -> u8 {
    let format = a.common.format;
    let mut input = match load_input(&a.model, &a.specs, a.common.input, format) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let mut items: Vec<Item> = std::mem::take(&mut input.specs).into_iter().flat_map(|(_, s)| s).collect();
    let loaded = &input.loaded;
    let mut diags = Vec::new();
    for (k, q) in a.queries.iter().enumerate() {
        let name = if a.queries.len() == 1 { "query".to_string() } else { format!("query{}", k + 1) };
        // With a UPPAAL model, queries are written in UPPAAL's syntax and names.
        let text = match &input.imported {
            Some(Translated::Uppaal(u)) => match u.query(q) {
                Ok(Ok(t)) => t,
                Ok(Err(why)) => {
                    items.push(Item::refused(name, q.clone(), why));
                    continue;
                }
                Err(d) => {
                    let src = Source::new("<query>", q.clone());
                    return invalid(&d, &[&src], format);
                }
            },
            _ => q.clone(),
        };
        match loaded.query(&name, &text) {
            Ok(p) => items.push(Item::Check(p)),
            Err(d) => diags.extend(d),
        }
    }
    if !a.labels.is_empty() {
        let query = match &input.imported {
            Some(Translated::Tchecker(i)) => i.labels_query(&a.labels),
            _ => format!("E<> {}", a.labels.join(" and ")),
        };
        match loaded.query("labels", &query) {
            Ok(p) => items.push(Item::Check(p)),
            Err(d) => diags.extend(d),
        }
    }
    if !diags.is_empty() {
        let queries: Vec<Source> = a.queries.iter().map(|q| Source::new("<query>", q.clone())).collect();
        let mut all: Vec<&Source> = vec![&input.model_src];
        all.extend(queries.iter().take(1));
        return invalid(&diags, &all, format);
    }
    if !a.params.is_empty() {
        eprintln!("kairos: `--param` is not supported yet");
        return exit::UNSUPPORTED;
    }
    let model = &loaded.model;
    if items.is_empty() {
        items = model.properties.iter().cloned().map(Item::Check).collect();
        // The model's own queries kairos cannot check yet (UPPAAL
        // `<queries>`), in their place.
        if let Some(Translated::Uppaal(u)) = &input.imported {
            for s in u.skipped.iter().rev() {
                items.insert(s.index, Item::refused(s.name.clone(), s.text.clone(), s.why.clone()));
            }
        }
    }
    let network = match network_of(&input, format) {
        Ok(n) => n,
        Err(code) => return code,
    };
    let domain = match a.domain {
        args::Domain::Zone => engine::Domain::Zone,
        args::Domain::Poly => engine::Domain::Poly,
    };
    let options = engine::Options { domain, ..options(&a.common) };
    if let Some(code) = unsupported_options(&a.common) {
        return code;
    }
    if items.is_empty() {
        let why = "exploring the whole zone graph needs the `reach` engine, not built yet";
        match format {
            OutputFormat::Json => println!(
                "{}",
                json!({"model": model.name, "properties": [], "stats": null, "warnings": [], "verdict": "unknown", "reason": "unsupported", "message": why})
            ),
            OutputFormat::Text => println!("{}: no property to check; {why}", model.name),
        }
        return exit::UNSUPPORTED;
    }
    for item in &items {
        if let Item::Refused(_, d) = item {
            eprintln!("kairos: note: not checked: {d}");
        }
    }
    /// An item and what checking it gave.
    enum Reported<'i> {
        Checked(&'i Property, Box<engine::Outcome>),
        Refused(&'i report::verdict::Refused),
    }
    let results: Vec<Reported> = items
        .iter()
        .map(|i| match i {
            Item::Check(p) => Reported::Checked(p, Box::new(engine::check(model, network.as_ref(), p, &options))),
            Item::Refused(r, _) => Reported::Refused(r),
        })
        .collect();
    let checked = || {
        results.iter().filter_map(|r| match r {
            Reported::Checked(p, o) => Some((*p, &**o)),
            Reported::Refused(_) => None,
        })
    };
    // The network each outcome's traces are paths of (an observer's
    // product, or the model's).
    fn net_of<'a>(
        o: &'a engine::Outcome,
        model: Option<&'a crate::network::Network>,
    ) -> Option<&'a crate::network::Network> {
        o.network.as_deref().or(model)
    }
    let wanted = |o: &engine::Outcome| a.trace || matches!(o.verdict, Verdict::Error(_));
    match format {
        OutputFormat::Json => {
            let list: Vec<_> = results
                .iter()
                .map(|r| match r {
                    Reported::Checked(p, o) => {
                        let mut v = report::verdict::json(p, o);
                        if wanted(o)
                            && let Some((net, t)) = concrete_trace(net_of(o, network.as_ref()), o.trace.as_ref())
                        {
                            v["trace"] = crate::trace::json(net, &t);
                            if let Some(k) = crate::trace::json::loop_start(&t) {
                                v["loop_start"] = k.into();
                            }
                        }
                        v
                    }
                    Reported::Refused(r) => report::verdict::refused_json(r),
                })
                .collect();
            let warnings: Vec<_> = checked()
                .flat_map(|(p, o)| {
                    let net = net_of(o, network.as_ref());
                    o.warnings.iter().map(move |w| warning_json(&p.name, w, net))
                })
                .collect();
            println!("{}", json!({"model": model.name, "properties": list, "warnings": warnings}));
        }
        OutputFormat::Text => {
            for r in &results {
                let (p, o) = match r {
                    Reported::Checked(p, o) => (p, o),
                    Reported::Refused(r) => {
                        println!("{}", report::verdict::refused_text(r));
                        continue;
                    }
                };
                println!("{}", report::verdict::text(p, o));
                if wanted(o)
                    && let Some((net, t)) = concrete_trace(net_of(o, network.as_ref()), o.trace.as_ref())
                {
                    for line in crate::trace::text(net, &t).lines() {
                        println!("    {line}");
                    }
                }
                for w in &o.warnings {
                    print_warning(&p.name, w, net_of(o, network.as_ref()));
                }
            }
        }
    }
    if checked().any(|(_, o)| matches!(o.verdict, Verdict::Error(_))) {
        return exit::RUNTIME_ERROR;
    }
    let unknown = |want: fn(&engine::Unknown) -> bool| {
        checked().any(|(_, o)| matches!(&o.verdict, Verdict::Unknown(u) if want(u)))
    };
    let refused = results.iter().any(|r| matches!(r, Reported::Refused(_)));
    if unknown(|u| !matches!(u, engine::Unknown::Unsupported(_))) {
        exit::LIMIT
    } else if refused || unknown(|u| matches!(u, engine::Unknown::Unsupported(_))) {
        exit::UNSUPPORTED
    } else if checked().any(|(p, o)| report::verdict::as_expected(p, o) == Some(false)) {
        exit::NOT_AS_EXPECTED
    } else {
        exit::OK
    }
}

/// The model of a one-query command and its property; `Err` holds the
/// exit code.
fn one_query(a: &args::QueryArgs) -> Result<(Input, Property), u8> {
    let format = a.common.format;
    let input = load_input(&a.model, &[], a.common.input, format)?;
    match input.loaded.query("query", &a.query) {
        Ok(p) => Ok((input, p)),
        Err(d) => {
            let q = Source::new("<query>", a.query.clone());
            Err(invalid(&d, &[&input.model_src, &q], format))
        }
    }
}

/// `kairos observer MODEL -q FORMULA`: the observer template as YAML.
fn observer(a: args::QueryArgs) -> u8 {
    let (_, p) = match one_query(&a) {
        Ok(x) => x,
        Err(code) => return code,
    };
    match crate::observer::response(&p) {
        Some(r) => {
            print!("{}", crate::observer::yaml(&p.text, &r));
            exit::OK
        }
        None => {
            eprintln!(
                "kairos: `{}` is not a bounded-response property (`φ -->[<= n] ψ`, `A[] (φ imply A<>[< n] ψ)`, `A<>[<= n] ψ`, ...): it needs no observer",
                p.text
            );
            exit::INVALID
        }
    }
}

/// `kairos bound MODEL -q 'φ --> ψ'`: the exact worst-case response time.
fn bound(a: args::QueryArgs) -> u8 {
    use engine::bound::WorstCase;
    let format = a.common.format;
    let (input, p) = match one_query(&a) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let network = match network_of(&input, format) {
        Ok(Some(n)) => n,
        Ok(None) => {
            return not_yet(&a.model, format, "`kairos bound` on hybrid or parametric models is not supported yet");
        }
        Err(code) => return code,
    };
    let options = options(&a.common);
    let result = engine::bound::worst_case(&network, &p, &options);
    let (word, code) = match &result {
        // Also when no divergent run has a `φ and not ψ` moment at all.
        WorstCase::Sup { value: 0, .. } => ("0 (every φ moment is answered at once)".into(), exit::OK),
        WorstCase::Sup { value, attained: true, .. } => {
            (format!("{value} (attained: some run takes exactly {value})"), exit::OK)
        }
        WorstCase::Sup { value, attained: false, .. } => {
            (format!("{value} (a supremum, not attained: every run takes less than {value})"), exit::OK)
        }
        WorstCase::Unbounded(_) => ("unbounded (some time-divergent run never reaches ψ)".into(), exit::OK),
        WorstCase::None(o) => (
            format!("unknown: {}", report::verdict::text(&p, o).lines().next().unwrap_or_default()),
            match &o.verdict {
                Verdict::Error(_) => exit::RUNTIME_ERROR,
                Verdict::Unknown(engine::Unknown::Unsupported(_)) => exit::UNSUPPORTED,
                _ => exit::LIMIT,
            },
        ),
    };
    let lasso = match &result {
        WorstCase::Unbounded(o) => concrete_trace(Some(&network), o.trace.as_ref()),
        _ => None,
    };
    let time_locks = match &result {
        WorstCase::Sup { warnings, .. } => &warnings[..],
        _ => &[],
    };
    match format {
        OutputFormat::Json => {
            let bound = match &result {
                WorstCase::Sup { value, attained, .. } => json!({"sup": value, "attained": attained}),
                WorstCase::Unbounded(_) => json!("unbounded"),
                WorstCase::None(o) => report::verdict::json(&p, o),
            };
            let warnings: Vec<_> = time_locks.iter().map(|w| warning_json(&p.name, w, Some(&network))).collect();
            let mut v = json!({"model": input.loaded.model.name, "formula": p.text, "bound": bound, "trace": null, "warnings": warnings});
            if let Some((net, t)) = &lasso {
                v["trace"] = crate::trace::json(net, t);
                v["loop_start"] = crate::trace::json::loop_start(t).into();
            }
            println!("{v}");
        }
        OutputFormat::Text => {
            println!("{}: {word}", p.text);
            if let Some((net, t)) = &lasso {
                for line in crate::trace::text(net, t).lines() {
                    println!("    {line}");
                }
            }
            for w in time_locks {
                print_warning(&p.name, w, Some(&network));
            }
        }
    }
    code
}

/// A command whose engine does not exist yet: validate the model, then say so.
fn not_yet(model: &Path, format: OutputFormat, what: &str) -> u8 {
    if let Err(code) = load_input(model, &[], None, format) {
        return code;
    }
    match format {
        OutputFormat::Json => println!("{}", json!({"verdict": "unknown", "reason": "unsupported", "message": what})),
        OutputFormat::Text => eprintln!("kairos: {what}"),
    }
    exit::UNSUPPORTED
}

fn options(c: &args::Common) -> engine::Options {
    use args::{Abstraction, Search};
    engine::Options {
        abstraction: c.abstraction.map(|a| match a {
            Abstraction::None => engine::AbstractionChoice::None,
            Abstraction::Lu => engine::AbstractionChoice::Lu,
            Abstraction::Alu => engine::AbstractionChoice::Alu,
        }),
        subsumption: !c.no_subsumption,
        domain: engine::Domain::Zone,
        order: match c.search {
            Search::Bfs => engine::reach::Order::Bfs,
            Search::Dfs => engine::reach::Order::Dfs,
        },
        limits: engine::reach::Limits {
            max_states: c.max_states,
            // A timeout too large for a `Duration` (or infinite) is no deadline.
            deadline: c
                .timeout
                .and_then(|t| std::time::Duration::try_from_secs_f64(t.max(0.0)).ok())
                .and_then(|d| std::time::Instant::now().checked_add(d)),
            max_bytes: c.max_memory.or_else(engine::limits::default_max_bytes),
        },
    }
}

fn graph(a: args::GraphArgs) -> u8 {
    use crate::semantics::{Abstraction as Abs, ZoneGraph};
    use args::{Abstraction, GraphFormat};
    let text_format = if a.format == GraphFormat::Json { OutputFormat::Json } else { OutputFormat::Text };
    let input = match load_input(&a.model, &[], None, text_format) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let m = &input.loaded.model;
    if m.hybrid || !m.params.is_empty() {
        eprintln!("kairos: the zone graph of hybrid or parametric models is not supported yet");
        return exit::UNSUPPORTED;
    }
    let net = match network_of(&input, text_format) {
        Ok(n) => n.expect("a timed, parameter-free model compiles"),
        Err(code) => return code,
    };
    let abstraction = match (a.abstraction, net.has_diagonals) {
        (Some(Abstraction::Lu | Abstraction::Alu), true) => {
            eprintln!("kairos: ExtraLU+ is unsound with diagonal constraints; use `--abstraction none`");
            return exit::UNSUPPORTED;
        }
        (Some(Abstraction::None), _) | (None, true) => Abs::None,
        _ => Abs::Lu,
    };
    let mut zg = ZoneGraph::new(&net, abstraction);
    let limits = engine::reach::Limits { max_states: a.max_states, ..Default::default() };
    match engine::graph::zone_graph(&mut zg, &limits) {
        Ok(g) => {
            match a.format {
                GraphFormat::Dot => print!("{}", report::graph::dot(&net, &g)),
                GraphFormat::Yaml => print!("{}", report::graph::yaml(&net, &g)),
                GraphFormat::Json => println!("{}", report::graph::json(&net, &g)),
            }
            exit::OK
        }
        Err(engine::graph::GraphError::Stopped(_)) => {
            eprintln!("kairos: the zone graph has more than {} states; stopped", a.max_states.unwrap_or(0));
            exit::LIMIT
        }
        Err(engine::graph::GraphError::Run(e)) => {
            eprintln!("kairos: run-time error: {}", e.describe(&net));
            exit::RUNTIME_ERROR
        }
    }
}

/// The concrete, validated run behind a symbolic trace, with its network.
/// A trace that cannot be made concrete or fails validation is never
/// printed: that is an internal error, said on stderr, and the verdict
/// stands.
/// A warning of property `name` as JSON (FORMAT.md section 7), its trace
/// made concrete on `net`.
fn warning_json(name: &str, w: &engine::Warning, net: Option<&crate::network::Network>) -> serde_json::Value {
    let trace =
        concrete_trace(net, w.trace.as_ref()).map_or(serde_json::Value::Null, |(net, t)| crate::trace::json(net, &t));
    json!({"property": name, "message": w.message, "trace": trace})
}

/// A warning of property `name` on stderr, with its concrete trace.
fn print_warning(name: &str, w: &engine::Warning, net: Option<&crate::network::Network>) {
    eprintln!("warning: {name}: {}", w.message);
    if let Some((net, t)) = concrete_trace(net, w.trace.as_ref()) {
        for line in crate::trace::text(net, &t).lines() {
            eprintln!("    {line}");
        }
    }
}

fn concrete_trace<'n>(
    net: Option<&'n crate::network::Network>,
    symbolic: Option<&engine::SymbolicTrace>,
) -> Option<(&'n crate::network::Network, crate::trace::ConcreteTrace)> {
    let (net, symbolic) = (net?, symbolic?);
    // `concretise` validates what it returns.
    match crate::trace::concretise(net, symbolic) {
        Ok(t) => Some((net, t)),
        Err(e) => {
            eprintln!("kairos: internal error: no valid concrete trace could be built ({e}); please report it");
            None
        }
    }
}

/// Options accepted by the command line whose machinery is not built yet:
/// said out loud, never silently ignored.
fn unsupported_options(c: &args::Common) -> Option<u8> {
    if c.jobs > 1 {
        eprintln!("kairos: note: `--jobs` is not supported yet; exploring with one thread");
    }
    if let Some(e) = c.engine
        && e != args::EngineChoice::Reach
    {
        eprintln!("kairos: only the `reach` engine exists yet");
        return Some(exit::UNSUPPORTED);
    }
    None
}

/// `kairos import FILE.tck|FILE.xml [-o MODEL.yaml]`: the YAML translation,
/// checked by loading it; never written over an existing file.
fn import(a: args::ImportArgs) -> u8 {
    if input_format(&a.file, None) == InputFormat::Yaml {
        eprintln!("kairos: `{}` is not a TChecker (.tck) or UPPAAL (.xml) file", a.file.display());
        return exit::INVALID;
    }
    let (src, imported) = match import_file(&a.file, None, OutputFormat::Text) {
        Ok(x) => x,
        Err(code) => return code,
    };
    if let Err(d) = load::load_model(&src) {
        return invalid(&source_positions(&d, &imported, &a.file), &[], OutputFormat::Text);
    }
    if let Translated::Uppaal(u) = &imported {
        for s in &u.skipped {
            eprintln!("kairos: note: left out of `properties`: {}", s.why);
        }
    }
    match &a.output {
        None => {
            print!("{}", src.text);
            exit::OK
        }
        Some(out) => {
            let file = std::fs::OpenOptions::new().write(true).create_new(true).open(out);
            match file.and_then(|mut f| std::io::Write::write_all(&mut f, src.text.as_bytes())) {
                Ok(()) => exit::OK,
                Err(e) => {
                    eprintln!("kairos: cannot write `{}`: {e} (an existing file is never overwritten)", out.display());
                    exit::INVALID
                }
            }
        }
    }
}
