//! `--data auto`: the data representation chosen from the model.
//!
//! BDDs pay where one explicit state per valuation drowns the search: a
//! variable that starts anywhere in its range (`init: any`), or one whose
//! range is wide enough for a `select` or an input to spread over many
//! values. Anything else (the TChecker families: a few flags and counters
//! of at most 15 values) stays explicit, where a state costs a vector
//! instead of a BDD; so does a wide variable the split keeps explicit (read
//! in a clock bound or an index). A model or property the BDD engine refuses is checked
//! explicitly: `auto` never turns an answer into a refusal.

use crate::bdd::split::Split;
use crate::engine::{DataChoice, Options, Outcome, Unknown, Verdict};
use crate::network::Network;

/// How every refusal of BDD data begins, so that `auto` can fall back.
pub const REFUSAL: &str = "--data bdd";

/// Ranges with more values than this make `auto` choose BDDs.
pub const WIDE_RANGE: i64 = 64;

/// Whether `auto` chooses BDDs for `net`: some slot that spreads (over its
/// initial values or a wide range) goes into the BDD. A slot the split keeps
/// explicit ([`Split`]) has one value per state under BDDs too, so it gains
/// nothing from them.
pub fn wants_bdds(net: &Network) -> bool {
    let spreads = |s: &crate::network::Slot| s.init.0 != s.init.1 || s.hi as i128 - s.lo as i128 >= WIDE_RANGE as i128;
    if !net.slots.iter().any(spreads) {
        return false;
    }
    let split = Split::of(net);
    net.slots.iter().enumerate().any(|(k, s)| spreads(s) && !split.is_explicit(k))
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
pub fn refused(o: &Outcome) -> bool {
    matches!(&o.verdict, Verdict::Unknown(Unknown::Unsupported(why)) if why.starts_with(REFUSAL))
}
