//! The command line of FORMAT.md section 6.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Parser, Debug)]
#[command(
    name = "kairos",
    version,
    about = "Model checker for networks of timed and linear hybrid automata",
    long_about = "kairos checks networks of timed and linear hybrid automata written in YAML \
                  (see docs/FORMAT.md) against TCTL properties.\n\n\
                  Exit codes: 0 all as expected; 1 a property is not as expected; 2 invalid input; \
                  3 a resource limit stopped a check; 4 a run-time error in the model; \
                  5 something needed is not supported yet."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check properties of a model (from spec files, -q, --labels, or the model's own).
    Check(CheckArgs),
    /// Load and validate a model and spec files; check nothing.
    Validate(ValidateArgs),
    /// Print the zone graph (polyhedra for hybrid models), canonical and deterministic.
    Graph(GraphArgs),
    /// Synthesise the timing-parameter valuations for which a property holds.
    Synth(SynthArgs),
    /// Check a property over a grid of parameter values.
    Sweep(SweepArgs),
    /// Print a random run of the model.
    Simulate(SimulateArgs),
    /// Convert a TChecker (.tck) or UPPAAL (.xml) model to kairos YAML.
    Import(ImportArgs),
    /// The exact worst-case time from φ to ψ for `φ --> ψ`.
    Bound(BoundArgs),
    /// Print the observer automaton a formula compiles to.
    Observer(QueryArgs),
    /// Check every property and write one self-contained HTML page with the
    /// verdicts and each trace as a timing diagram.
    Report(ReportArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    Yaml,
    Tchecker,
    Uppaal,
}

impl From<InputFormat> for crate::input::Format {
    fn from(f: InputFormat) -> Self {
        match f {
            InputFormat::Yaml => crate::input::Format::Yaml,
            InputFormat::Tchecker => crate::input::Format::Tchecker,
            InputFormat::Uppaal => crate::input::Format::Uppaal,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Abstraction {
    None,
    Lu,
    Alu,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Search {
    Bfs,
    Dfs,
    /// Random depth-first: each node's successors in an order drawn from `--seed`.
    Rdfs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineChoice {
    Reach,
    Observer,
    Live,
    Tctl,
    Param,
}

/// Options shared by the checking commands.
#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
    #[command(flatten)]
    pub run: Run,
}

/// The checking options but the output format (`kairos sweep` has formats
/// of its own).
impl std::ops::Deref for Common {
    type Target = Run;
    fn deref(&self) -> &Run {
        &self.run
    }
}

/// How to check: input format, search, limits, threads.
#[derive(Args, Debug, Clone)]
pub struct Run {
    /// Input format (default: from the file extension).
    #[arg(long, value_enum)]
    pub input: Option<InputFormat>,
    /// Zone abstraction (default: the coarsest sound for the model and query).
    #[arg(long, value_enum)]
    pub abstraction: Option<Abstraction>,
    /// Keep every distinct zone instead of only maximal ones.
    #[arg(long)]
    pub no_subsumption: bool,
    /// Search order.
    #[arg(long, value_enum, default_value = "bfs")]
    pub search: Search,
    /// The seed of `--search rdfs`: the same seed, the same search.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Force an engine instead of the one the formula routes to.
    #[arg(long, value_enum)]
    pub engine: Option<EngineChoice>,
    /// Stop with `unknown` after this many symbolic states.
    #[arg(long)]
    pub max_states: Option<u64>,
    /// Stop with `unknown` past this much memory (e.g. `2G`, `512M`;
    /// default: three quarters of the machine's).
    #[arg(long, value_parser = parse_size)]
    pub max_memory: Option<u64>,
    /// Stop with `unknown` after this many seconds.
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Worker threads: for reachability (default 1: on two cores the second
    /// thread has not paid for itself yet; the other engines use one), and
    /// for `kairos sweep` the grid points checked at once (default: every
    /// core, each point on one thread).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// No progress line on a terminal during long checks.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The model file.
    pub model: PathBuf,
    /// Spec files (their `model:` must name MODEL).
    pub specs: Vec<PathBuf>,
    /// A formula to check (repeatable).
    #[arg(short = 'q', long = "query")]
    pub queries: Vec<String>,
    /// Check `E<> a and b` for these labels (TChecker's `-l a,b`).
    #[arg(long, value_delimiter = ',')]
    pub labels: Vec<String>,
    /// Fix a timing parameter or set an integer constant: `p=v`, `v` an
    /// integer or, for a timing parameter, a rational like `13/2`
    /// (repeatable).
    #[arg(long = "param")]
    pub params: Vec<String>,
    /// Print a trace for each verdict that has one.
    #[arg(long)]
    pub trace: bool,
    /// Continuous domain of the reach engine: DBM zones or exact polyhedra
    /// (default: zones for timed models, polyhedra for hybrid ones and for
    /// rational parameter values).
    #[arg(long, value_enum)]
    pub domain: Option<Domain>,
    /// Data representation of the reach and liveness engines: one vector per state, or
    /// BDDs of valuations (`auto`: BDDs when a variable has `init: any` or more
    /// than 64 values, and the BDD engine takes the model and property).
    #[arg(long, value_enum, default_value = "explicit")]
    pub data: Data,
    /// Draw each trace as a timing diagram in this SVG file (with several
    /// properties, `FILE.svg` becomes `FILE.NAME.svg`, one per property).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Data {
    Explicit,
    Bdd,
    Auto,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Domain {
    Zone,
    Poly,
}

#[derive(Args, Debug)]
pub struct ValidateArgs {
    pub model: PathBuf,
    pub specs: Vec<PathBuf>,
    /// Also list which variables `--data bdd` keeps explicit, and why.
    #[arg(long)]
    pub verbose: bool,
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
    #[arg(long, value_enum)]
    pub input: Option<InputFormat>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GraphFormat {
    Dot,
    Yaml,
    Json,
    /// DOT laid out by Graphviz's `dot`, which must be on the PATH.
    Svg,
}

#[derive(Args, Debug)]
pub struct GraphArgs {
    pub model: PathBuf,
    /// Fix a timing parameter or set an integer constant: `p=v`, `v` an
    /// integer or, for a timing parameter, a rational like `13/2`
    /// (repeatable).
    #[arg(long = "param")]
    pub params: Vec<String>,
    #[arg(long, value_enum, default_value = "dot")]
    pub format: GraphFormat,
    /// Zone abstraction (default: lu, or none with diagonal constraints;
    /// polyhedra of hybrid models and rational parameter values: none).
    #[arg(long, value_enum)]
    pub abstraction: Option<Abstraction>,
    /// The sets of valuations: DBM zones or exact polyhedra (default: zones
    /// for timed models, polyhedra for hybrid ones and for rational
    /// parameter values).
    #[arg(long, value_enum)]
    pub domain: Option<Domain>,
    /// Stop after this many states.
    #[arg(long)]
    pub max_states: Option<u64>,
    /// Quotient the graph onto these instances' locations (DOT and SVG):
    /// one node per location vector of theirs, the rest projected away
    /// (repeatable, or a comma-separated list: `--project Gate,Controller`).
    #[arg(long, value_delimiter = ',', value_name = "INSTANCE")]
    pub project: Vec<String>,
    /// Draw at most N nodes (DOT and SVG), the first breadth-first from
    /// the initial state; a note says what was cut.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<usize>,
}

#[derive(Args, Debug)]
pub struct QueryArgs {
    pub model: PathBuf,
    #[arg(short = 'q', long = "query", required = true)]
    pub query: String,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The model file.
    pub model: PathBuf,
    /// Spec files (their `model:` must name MODEL).
    pub specs: Vec<PathBuf>,
    /// A formula to check (repeatable).
    #[arg(short = 'q', long = "query")]
    pub queries: Vec<String>,
    /// The HTML file to write.
    #[arg(short = 'o', long = "output", required = true)]
    pub output: PathBuf,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args, Debug)]
pub struct BoundArgs {
    #[command(flatten)]
    pub query: QueryArgs,
    /// Fix a timing parameter or set an integer constant: `p=v`, `v` an
    /// integer or, for a timing parameter, a rational like `13/2`
    /// (repeatable).
    #[arg(long = "param")]
    pub params: Vec<String>,
    /// Instead of a response time: the exact supremum and infimum of this
    /// linear term over clocks and continuous variables, over the reachable
    /// states where the state formula of `-q` holds (`-q true`: all). It
    /// has no trace to draw and chooses its own abstraction.
    #[arg(long, value_name = "TERM", conflicts_with_all = ["svg", "abstraction"])]
    pub term: Option<String>,
    /// The domain `--term` is measured in on a timed model (hybrid models:
    /// always polyhedra).
    #[arg(long, value_enum)]
    pub domain: Option<Domain>,
    /// Draw the lasso of an unbounded answer as a timing diagram in this
    /// SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Data representation of the response time's searches, as for `check`
    /// (not with `--term`).
    #[arg(long, value_enum, default_value = "explicit")]
    pub data: Data,
}

#[derive(Args, Debug)]
pub struct SynthArgs {
    pub model: PathBuf,
    /// Spec files: their `synth:` entries are synthesised.
    pub specs: Vec<PathBuf>,
    /// A formula `E<> φ` or `A[] φ` (repeatable).
    #[arg(short = 'q', long = "query")]
    pub queries: Vec<String>,
    /// Set an integer constant: `N=v` (repeatable); the timing parameters
    /// stay open.
    #[arg(long = "param")]
    pub params: Vec<String>,
    /// Check one valuation inside the set and one outside concretely, each
    /// with its trace where the verdict has one.
    #[arg(long)]
    pub trace: bool,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args, Debug)]
pub struct SweepArgs {
    #[arg(required_unless_present = "merge")]
    pub model: Option<PathBuf>,
    #[arg(short = 'q', long = "query", required_unless_present = "merge")]
    pub query: Option<String>,
    /// `p=lo..hi[:step]` or `p=v` for a timing parameter (rationals
    /// allowed) or an integer constant (integer steps) (repeatable).
    #[arg(long = "param", required_unless_present = "merge")]
    pub params: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: SweepFormat,
    /// Draw a map of two parameters (the grid verdicts as coloured cells)
    /// in this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Synthesise the property's parameter set too: drawn over the map,
    /// and in the JSON (not with `--merge`: it needs the model).
    #[arg(long, conflicts_with = "merge")]
    pub with_synth: bool,
    /// Check nothing: write one self-contained `kairos check` command per
    /// grid point to this file (JSON lines), for a cluster.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["merge", "svg", "with_synth"])]
    pub jobs_out: Option<PathBuf>,
    /// Check nothing: rebuild the sweep from the JSON outputs of the
    /// commands `--jobs-out` wrote (files of JSON lines).
    #[arg(long, value_name = "RESULTS", num_args = 1.., conflicts_with_all = ["model", "query", "params"])]
    pub merge: Vec<PathBuf>,
    #[command(flatten)]
    pub run: Run,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SweepFormat {
    Text,
    Json,
    Csv,
}

#[derive(Args, Debug)]
pub struct SimulateArgs {
    pub model: PathBuf,
    /// At most this many discrete steps.
    #[arg(long, default_value_t = 20)]
    pub steps: u64,
    /// The same seed gives the same run.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
    /// Input format (default: from the file extension).
    #[arg(long, value_enum)]
    pub input: Option<InputFormat>,
    /// Draw the run as a timing diagram in this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ImportArgs {
    pub file: PathBuf,
    /// Write the YAML model here (never over an existing file).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

/// A size in bytes: a number with an optional binary suffix `K`, `M`, `G`,
/// `T` (`KiB`, `MB`, ... spellings too), e.g. `512M`, `1.5G`, `100000`.
fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let number: f64 = number.parse().map_err(|_| format!("`{text}` is not a size such as `512M` or `2G`"))?;
    let shift = match unit.trim().to_ascii_uppercase().trim_end_matches("IB").trim_end_matches('B') {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(format!("unknown unit in `{text}`: use K, M, G or T (powers of 1024)")),
    };
    let bytes = number * (1u64 << shift) as f64;
    if !(1.0..=u64::MAX as f64).contains(&bytes) {
        return Err(format!("`{text}` is not a usable memory size"));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_read_with_binary_units() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("1.5g"), Ok(3 << 29));
        assert_eq!(parse_size("64KiB"), Ok(64 << 10));
        assert_eq!(parse_size("100000"), Ok(100_000));
        assert!(parse_size("12X").is_err());
        assert!(parse_size("").is_err());
        assert!(parse_size("0").is_err());
        assert!(parse_size("-3M").is_err());
    }
}
