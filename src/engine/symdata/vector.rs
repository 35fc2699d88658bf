//! Synchronisation vectors on a data set.
//!
//! A vector step takes one enabled edge of every strong party and of every
//! weak party that has one (FORMAT.md; weak parties' edges have no clock
//! guards, so their data guards alone decide). As for broadcast receivers,
//! whether a weak party joins depends on the valuation, so the data set is
//! split per weak party: one of its edges (the data its guard allows), or
//! none (the data where none is enabled for any select value). A strong
//! party has no "none": where none of its edges is enabled, there is no
//! step. The combination where no party at all takes part is no step.

use crate::bdd::{Encoding, Manager, TRUE};
use crate::model::types::Party;

use super::broadcast::{Choice, combine, stay_out};
use super::edges::{Enabled, Rule, Step};

/// The steps of a vector with `parties`, given the enabled edges on it in
/// process order; `allowed` applies the committed rule.
pub fn steps(
    m: &mut Manager,
    enc: &Encoding,
    parties: &[Party],
    enabled: &[Enabled],
    allowed: &Rule<'_>,
    out: &mut Vec<(Step, crate::bdd::Bdd)>,
) {
    let mut choices: Vec<Vec<Choice>> = Vec::with_capacity(parties.len());
    for party in parties {
        let p = party.instance as u32;
        let mine: Vec<Enabled> = enabled.iter().copied().filter(|e| e.0 == p).collect();
        let mut options: Vec<Choice> = mine.iter().map(|&(q, f, h)| Choice::joins(q, f, h)).collect();
        if party.weak {
            options.push(Choice::none(p, stay_out(m, enc, &mine)));
        } else if options.is_empty() {
            return;
        }
        choices.push(options);
    }
    let all_out = |edges: &[(u32, super::edges::EdgeRef)]| !edges.is_empty() && allowed(edges);
    combine(m, &choices, TRUE, &mut Step::one(Vec::new()), &all_out, out);
}
