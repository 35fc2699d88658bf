//! The compiled network: instances flattened, names turned into dense ids,
//! expressions compiled, edges split per `select` value and guard disjunct,
//! synchronisations indexed, and clock bounds computed per location.
//!
//! Clocks are numbered from 1 (index 0 is the DBM's reference clock):
//! global clocks first, then each instance's local clocks in system order.

mod bounds;
pub(crate) mod build;
pub mod code;
pub(crate) mod compile;
mod formula;
mod function;
mod linear;

pub use bounds::{LuBounds, NO_BOUND};
pub use build::{build, build_with};
pub use code::{Code, EvalError, Op};
pub use formula::{MeasuredTerm, StateConj, StateFormula};
pub use linear::{Hybrid, LinearTerm, LocRate, ratio as linear_ratio};

use crate::diag::Pos;
use crate::model::decl::OutOfRange;
use crate::model::typed::Dir;

/// The clock constraint `x_i - x_j ≺ bound` (`≺` is `<` when `strict`).
/// `bound` may depend on data; when `negate`, the bound is minus its value
/// (from `x >= e`, written `0 - x <= -e`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockConstraint {
    pub i: u32,
    pub j: u32,
    pub strict: bool,
    pub bound: Code,
    pub negate: bool,
    /// Every value `bound` can take over the data ranges (before `negate`).
    pub range: (i64, i64),
    /// In linear networks (hybrid models, fixed timing parameters): the
    /// constraint is `Σ a_k·x_k ≺ ±bound + offset` over these terms instead,
    /// and `i`, `j` are 0. Timed networks never have one, so zones keep
    /// their difference constraints.
    pub linear: Option<Box<LinearTerm>>,
}

impl ClockConstraint {
    /// The range of the signed bound `±bound`.
    pub fn effective_range(&self) -> (i64, i64) {
        let (lo, hi) = self.range;
        if self.negate { (hi.saturating_neg(), lo.saturating_neg()) } else { (lo, hi) }
    }
}

/// One integer slot of the data vector (array elements have one each).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// `count`, `queue[2]`, `Train(1).n`.
    pub name: String,
    pub lo: i64,
    pub hi: i64,
    pub is_bool: bool,
    /// The initial values: one, or the whole range for `init: any`.
    pub init: (i64, i64),
    /// `symbolic: true|false` in the model: the `--data bdd` split forced
    /// (`bdd::split`).
    pub symbolic: Option<bool>,
}

#[derive(Clone, Debug)]
pub struct Location {
    pub name: String,
    pub invariant: Vec<ClockConstraint>,
    /// Data conditions of the invariant (rare), `None` when there are none.
    pub invariant_data: Option<Code>,
    pub urgent: bool,
    pub committed: bool,
    pub labels: Vec<String>,
}

/// Where an assignment writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Slot(u32),
    /// `a[i]`: the index is computed at run time.
    Indexed {
        base: u32,
        len: u32,
        index: Code,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Update {
    /// `v = e`, `v += e`, `v -= e` (the op is folded into `value` as `v + e`).
    Data { target: Target, value: Code },
    /// `x = c`.
    Reset { clock: u32, value: i64 },
    /// `x = Σ a_k·x_k + value` in linear networks (every update of a clock or
    /// continuous variable there, resets included).
    Assign { var: u32, terms: Vec<(u32, i64)>, value: Code },
    /// A function call run for its effect on the data.
    Effect(Code),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChannelIndex {
    Fixed(u32),
    /// Computed at run time: `go[q[0]]!`.
    Dynamic {
        base: u32,
        len: u32,
        index: Code,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeSync {
    pub channel: ChannelIndex,
    pub dir: Dir,
}

#[derive(Clone, Debug)]
pub struct Edge {
    pub from: u32,
    pub to: u32,
    pub guard_data: Option<Code>,
    pub guard_clocks: Vec<ClockConstraint>,
    pub sync: Option<EdgeSync>,
    pub updates: Vec<Update>,
    /// The values of the edge's `select` variables, for traces (`i=2`).
    pub select: Vec<(String, i64)>,
    /// The edge in the model file, for messages.
    pub pos: Pos,
}

/// The edges that one model edge with `select` expands to (one per value,
/// for one guard disjunct), when the selected values reach only its data
/// guard and data updates: the clock guard, sync and resets are then the
/// same for every member. `edge` is that edge compiled once more with
/// select `k` read from slot `first_slot + k` (a slot of
/// [`Network::select_slots`], numbered after [`Network::slots`]), so the BDD
/// engine takes one step for all values (the selected bits quantified).
#[derive(Clone, Debug)]
pub struct SelectGroup {
    /// The expanded edges (ids in the process), in the order of their values.
    pub members: Vec<u32>,
    pub edge: Edge,
    pub first_slot: u32,
}

#[derive(Clone, Debug)]
pub struct Process {
    pub name: String,
    pub template: String,
    pub locations: Vec<Location>,
    pub initial: u32,
    pub edges: Vec<Edge>,
    /// Outgoing edge ids per location.
    pub outgoing: Vec<Vec<u32>>,
    /// An observer (a property's, or a template marked `observer: true`):
    /// it watches the others, so its internal edges may fire while another
    /// process is in a committed location (the committed rule constrains
    /// the observed system, not the watching).
    pub observer: bool,
    /// The select groups of the edges (empty for observers).
    pub select_groups: Vec<SelectGroup>,
}

/// One element of a (possibly array) channel.
#[derive(Clone, Debug)]
pub struct Channel {
    /// `approach`, `go[2]`.
    pub name: String,
    pub broadcast: bool,
    pub urgent: bool,
    /// A synchronisation vector's parties (process indices), in the order
    /// their updates run; empty for binary and broadcast channels.
    pub parties: Vec<crate::model::types::Party>,
}

#[derive(Clone, Debug)]
pub struct Network {
    pub name: String,
    /// Clock names, index `k` is DBM clock `k + 1`: `t`, `Train(1).x`; in
    /// a linear network the continuous variables follow the clocks.
    pub clocks: Vec<String>,
    pub slots: Vec<Slot>,
    /// The select variables of [`SelectGroup`]s, one slot each (their
    /// range as `lo..hi` and `init`); slot `k` here is data slot
    /// `slots.len() + k` in a group's code.
    pub select_slots: Vec<Slot>,
    pub processes: Vec<Process>,
    pub channels: Vec<Channel>,
    pub out_of_range: OutOfRange,
    /// Some guard, invariant or property compares a clock difference.
    pub has_diagonals: bool,
    pub lu: LuBounds,
    /// Where each variable lives, for compiling properties.
    pub(crate) layout: compile::Layout,
    /// Per instance, per local clock: its clock index (from 1).
    pub(crate) local_clocks: Vec<Vec<u32>>,
    /// The timing parameters' fixed values (empty when not fixed).
    pub params: Vec<crate::domain::poly::Q>,
    /// The rates and initial values of a linear network
    /// (`None`: a timed network, explored on zones or rate-1 polyhedra).
    pub hybrid: Option<Box<Hybrid>>,
    /// For a model imported from another format: the line of the original
    /// file each line of its YAML translation comes from, so that run-time
    /// errors name the lines the user wrote.
    pub line_map: Option<std::sync::Arc<[usize]>>,
    /// The priority levels (`None`: the model has no `priorities:`).
    pub priorities: Option<Priorities>,
}

/// Priority levels (FORMAT.md section 1, "Priorities"), higher wins. A
/// step's priority is its channel's level (`internal` for a step without
/// a channel), then the highest level of its processes.
#[derive(Clone, Debug)]
pub struct Priorities {
    /// Per channel element.
    pub channels: Vec<i32>,
    /// The `default` level: internal steps and channels not listed.
    pub internal: i32,
    /// Per process.
    pub processes: Vec<i32>,
}

impl Network {
    /// `Train(1): far -> near`, how traces and messages name an edge.
    pub fn edge_text(&self, p: u32, e: u32) -> String {
        let proc_ = &self.processes[p as usize];
        let edge = &proc_.edges[e as usize];
        format!(
            "{}: {} -> {}",
            proc_.name, proc_.locations[edge.from as usize].name, proc_.locations[edge.to as usize].name
        )
    }

    /// The line of the model file the user wrote for `line` of the model
    /// the network was built from (the same line unless imported).
    pub fn source_line(&self, line: usize) -> usize {
        match &self.line_map {
            Some(map) => crate::import::source_line(map, line),
            None => line,
        }
    }

    /// Number of clocks plus the reference clock: the DBM dimension.
    pub fn dim(&self) -> usize {
        self.clocks.len() + 1
    }
}
