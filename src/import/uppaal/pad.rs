//! An array initialiser shorter than its array (`int a[8] = {1, 1};`).
//! UPPAAL's type checker accepts it: only a structure's initialiser must be
//! complete (UTAP's `checkInitialiser` checks the fields of a record, never
//! the length of an array's list), and the elements left out start at 0
//! (`false`), as a variable without initialiser does. kairos wants one
//! value per element, so the importer writes the zeros out.
//!
//! A list longer than its array is accepted by that type checker too, but
//! what UPPAAL's (closed) verifier does with the values past the end is
//! documented nowhere: it is refused ([`overflow`]), never guessed.

use super::parse::{EK, Expr, Init};

/// `init` with every `{...}` list shorter than its dimension completed with
/// zeros (`false` when `boolean`; lists of them for the inner dimensions).
/// `sizes` are the array's dimensions, outermost first, `None` where the
/// size is not known at compile time (such a list, and one whose nesting is
/// not the array's, is left as written: the model's checker reports it).
pub(crate) fn pad(init: &Init, sizes: &[Option<i64>], boolean: bool) -> Init {
    let (Init::List(items, at, end), Some((size, inner))) = (init, sizes.split_first()) else {
        return init.clone();
    };
    let mut items: Vec<Init> = items.iter().map(|i| pad(i, inner, boolean)).collect();
    let nested = items.iter().all(|i| matches!(i, Init::List(..)) != inner.is_empty());
    if let Some(size) = size.and_then(|n| usize::try_from(n).ok())
        && nested
        && items.len() < size
        && let Some(fill) = filler(inner, boolean, *at, *end)
    {
        items.resize(size, fill);
    }
    Init::List(items, *at, *end)
}

/// The first `{...}` list of `init` longer than its dimension of `sizes`
/// (as [`pad`] reads them): its bytes, its length and the dimension.
pub(crate) fn overflow(init: &Init, sizes: &[Option<i64>]) -> Option<(usize, usize, usize, i64)> {
    let (Init::List(items, at, end), Some((size, inner))) = (init, sizes.split_first()) else {
        return None;
    };
    match size {
        Some(n) if usize::try_from(*n).is_ok_and(|n| items.len() > n) => Some((*at, *end, items.len(), *n)),
        _ => items.iter().find_map(|i| overflow(i, inner)),
    }
}

/// The initialiser of an element of shape `sizes` left out of a list at
/// bytes `at..end`: all zeros.
fn filler(sizes: &[Option<i64>], boolean: bool, at: usize, end: usize) -> Option<Init> {
    match sizes.split_first() {
        None => {
            let kind = if boolean { EK::Bool(false) } else { EK::Int(0) };
            Some(Init::Expr(Expr { kind, at, end, height: 1 }))
        }
        Some((size, inner)) => {
            let size = usize::try_from((*size)?).ok()?;
            Some(Init::List(vec![filler(inner, boolean, at, end)?; size], at, end))
        }
    }
}
