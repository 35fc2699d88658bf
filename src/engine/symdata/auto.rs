//! `--data auto`: the data representation chosen from the model.
//!
//! BDDs pay where one explicit state per valuation drowns the search: a
//! variable that starts anywhere in its range (`init: any`), or one whose
//! range is wide enough for a `select` or an input to spread over many
//! values. Anything else (the TChecker families: a few flags and counters
//! of at most 15 values) stays explicit, where a state costs a vector
//! instead of a BDD. A model or property the BDD engine refuses is checked
//! explicitly: `auto` never turns an answer into a refusal.

use crate::engine::{DataChoice, Options, Outcome, Unknown, Verdict};
use crate::network::Network;

/// How every refusal of BDD data begins, so that `auto` can fall back.
pub const REFUSAL: &str = "--data bdd";

/// Ranges with more values than this make `auto` choose BDDs.
pub const WIDE_RANGE: i64 = 64;

/// Whether `auto` chooses BDDs for `net`.
pub fn wants_bdds(net: &Network) -> bool {
    net.slots.iter().any(|s| s.init.0 != s.init.1 || s.hi as i128 - s.lo as i128 >= WIDE_RANGE as i128)
}

/// `check` run with the data `options.data` names, `auto` resolved for
/// `net`; the statistics say what `auto` chose.
pub fn resolve(net: &Network, options: &Options, check: impl Fn(&Options) -> Outcome) -> Outcome {
    if options.data != DataChoice::Auto {
        return check(options);
    }
    let with = |data| Options { data, ..options.clone() };
    let mut chosen = if wants_bdds(net) { DataChoice::Bdd } else { DataChoice::Explicit };
    let mut o = check(&with(chosen));
    if chosen == DataChoice::Bdd && refused(&o) {
        chosen = DataChoice::Explicit;
        o = check(&with(chosen));
    }
    if let Some(s) = &mut o.stats {
        s.data = Some(chosen);
    }
    o
}

/// The BDD engine refused the model or the property.
fn refused(o: &Outcome) -> bool {
    matches!(&o.verdict, Verdict::Unknown(Unknown::Unsupported(why)) if why.starts_with(REFUSAL))
}
