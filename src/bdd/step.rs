//! Guards and updates of one transition on a data set.
//!
//! A guard `g` maps the set `S` to `S ∧ g`. Updates run symbolically
//! ([`Machine`]) to one word `e_s` per written slot `s`; the image is the
//! relational product `(∃ x_W. S ∧ ¬err ∧ ⋀_{s∈W} x'_s = e_s)[x' := x]`
//! over the written slots `W` only (the others keep their bits), which for a
//! deterministic assignment is the substitution of `e_s` for `s`.

use super::encode::Encoding;
use super::exec::{Machine, Unsupported};
use super::manager::{Bdd, FALSE, Manager};
use super::word;
use crate::model::decl::OutOfRange;
use crate::network::{Code, Slot, Target, Update};

/// A data set split by a guard or an update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// The valuations that pass (for an update: the image).
    pub pass: Bdd,
    /// The valuations whose evaluation is a run-time error.
    pub error: Bdd,
}

/// `set ∧ code`, in locations `locs`.
pub fn guard(m: &mut Manager, enc: &Encoding, locs: &[u32], set: Bdd, code: &Code) -> Result<Split, Unsupported> {
    let mut mach = Machine::new(m, enc, locs, OutOfRange::Error, set);
    let v = mach.run(code)?;
    let nz = word::nonzero(mach.m, &v);
    let pass = mach.m.and(mach.path, nz);
    Ok(Split { pass, error: mach.error })
}

/// Runs `updates` (in order, in locations `locs`) on the machine: the
/// values the linear assignments give their continuous variables, in
/// order (each read where it runs, after the data updates before it).
pub fn run_updates<'u>(
    mach: &mut Machine<'_>,
    slots: &[Slot],
    updates: impl IntoIterator<Item = &'u Update>,
) -> Result<Vec<word::Word>, Unsupported> {
    let range = |s: usize| (slots[s].lo, slots[s].hi);
    let mut assigned = Vec::new();
    for u in updates {
        match u {
            Update::Reset { .. } => {}
            Update::Assign { value, .. } => assigned.push(mach.run(value)?),
            Update::Effect(code) => {
                mach.run(code)?;
            }
            Update::Data { target: Target::Slot(s), value } => {
                let v = mach.run(value)?;
                mach.store(*s as usize, v, range(*s as usize))?;
            }
            Update::Data { target: Target::Indexed { base, len, index }, value } => {
                let v = mach.run(value)?;
                let i = mach.run(index)?;
                mach.store_indexed(*base, *len, &i, v, range)?;
            }
        }
    }
    Ok(assigned)
}

/// The image of `set` by `updates` (run in order, in locations `locs`).
pub fn update<'u>(
    m: &mut Manager,
    enc: &Encoding,
    slots: &[Slot],
    locs: &[u32],
    mode: OutOfRange,
    set: Bdd,
    updates: impl IntoIterator<Item = &'u Update>,
) -> Result<Split, Unsupported> {
    let mut mach = Machine::new(m, enc, locs, mode, set);
    run_updates(&mut mach, slots, updates)?;
    let (error, mut rel) = (mach.error, mach.path);
    let mem = std::mem::take(&mut mach.mem);
    let mut written = Vec::new();
    for (s, w) in mem.iter().enumerate().rev() {
        let Some(w) = w else { continue };
        let next = enc.word(m, s, true);
        let eq = word::eq(m, &next, w);
        rel = m.and(rel, eq);
        written.extend(enc.current_vars(s));
    }
    // Select variables are quantified too: the image is over the data.
    written.extend((enc.data_len()..enc.len()).flat_map(|s| enc.current_vars(s)));
    if written.is_empty() || rel == FALSE {
        return Ok(Split { pass: rel, error });
    }
    let cube = m.cube(&written);
    let image = m.exists(rel, cube);
    let pass = enc.next_to_current(m, image);
    Ok(Split { pass, error })
}

/// The valuations of `set` that `updates` map to the valuation `point`
/// without error.
#[allow(clippy::too_many_arguments)]
pub fn preimage<'u>(
    m: &mut Manager,
    enc: &Encoding,
    slots: &[Slot],
    locs: &[u32],
    mode: OutOfRange,
    set: Bdd,
    updates: impl IntoIterator<Item = &'u Update>,
    point: &[i64],
) -> Result<Bdd, Unsupported> {
    let mut mach = Machine::new(m, enc, locs, mode, set);
    run_updates(&mut mach, slots, updates)?;
    let mut pre = mach.path;
    for (s, &v) in point.iter().enumerate() {
        let w = mach.load(s);
        let eq = word::eq(mach.m, &w, &word::Word::constant(v));
        pre = mach.m.and(pre, eq);
    }
    Ok(pre)
}
