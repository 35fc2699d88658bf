//! Clock rates: the conjuncts `x' == e` of a location's invariant (UPPAAL's
//! stopwatches, `x' == 0`, and rates read from the data, `x' == runs[id]`)
//! become the location's kairos `rate:` entries, `e` printed as an integer
//! expression (FORMAT.md section 5: evaluated in the discrete state). A
//! `forall (i : T)` over such conjuncts is one rate per value of `i`. The
//! rest of the invariant stays its invariant.

use super::parse::{Bin, EK, Expr, R};
use super::print::{ATOM, LAND, Printer, Sym, Ty};

/// A location's invariant split: the rest of it, printed (`None`: nothing
/// left), and its rates, `(clock, integer expression)`.
pub(crate) type Split = (Option<String>, Vec<(String, String)>);

impl Printer<'_, '_> {
    /// The invariant `e`, its rates taken out.
    pub fn invariant(&mut self, e: &Expr) -> R<Split> {
        let mut rest = Vec::new();
        let mut rates = Vec::new();
        self.conjuncts(e, &mut rest, &mut rates)?;
        let rest = (!rest.is_empty()).then(|| rest.join(" && "));
        Ok((rest, rates))
    }

    fn conjuncts(&mut self, e: &Expr, rest: &mut Vec<String>, rates: &mut Vec<(String, String)>) -> R<()> {
        if !has_rate(e) {
            let p = self.boolean(e)?;
            rest.push(p.at(LAND + 1));
            return Ok(());
        }
        match &e.kind {
            EK::Bin(Bin::And, a, b) => {
                self.conjuncts(a, rest, rates)?;
                self.conjuncts(b, rest, rates)
            }
            EK::Bin(Bin::Eq, a, b) if matches!(a.kind, EK::Rate(_)) || matches!(b.kind, EK::Rate(_)) => {
                let (x, value) = match (&a.kind, &b.kind) {
                    (EK::Rate(x), _) => (x, b),
                    (_, EK::Rate(x)) => (x, a),
                    _ => unreachable!("one side is a rate"),
                };
                let clock = self.expr(x)?;
                if clock.ty != Ty::Clock {
                    let msg = format!("in {}: `'` (a rate) applies to clocks only", self.what);
                    self.d.error(x.at, x.end, "type-error", msg);
                    return Err(());
                }
                if has_rate(value) {
                    self.d.unsupported(value.at, value.end, format!("a rate read from a rate (in {})", self.what));
                    return Err(());
                }
                let value = self.int(value)?;
                // The same rate twice (nested `forall`s repeat it) is one.
                match rates.iter().find(|(c, _)| *c == clock.text) {
                    Some((_, v)) if *v == value.text => {}
                    Some(_) => {
                        let msg = format!("in {}: two different rates for the clock `{}`", self.what, clock.text);
                        self.d.error(e.at, e.end, "type-error", msg);
                        return Err(());
                    }
                    None => rates.push((clock.text, value.text)),
                }
                Ok(())
            }
            EK::Quant(true, var, ty, body) => {
                let (lo, hi) = match self.bounds(ty) {
                    Ok(b) => b,
                    Err(super::eval::NoValue::Reported) => return Err(()),
                    Err(super::eval::NoValue::Unknown(at, end)) => {
                        let msg = format!("a `forall` over rates whose range is not constant (in {})", self.what);
                        self.d.unsupported(at, end, msg);
                        return Err(());
                    }
                };
                // Each value of `var` bound as a constant, so that clock
                // arrays indexed by it name one clock each.
                for k in lo..=hi {
                    let n = self.locals_len();
                    let sym = Sym::value_text(k.to_string(), ATOM, Ty::Int).with_value(vec![k]);
                    self.push_local(var, sym);
                    let r = self.conjuncts(body, rest, rates);
                    self.truncate_locals(n);
                    r?;
                }
                Ok(())
            }
            _ => {
                let msg =
                    format!("a clock rate `x'` other than a conjunct `x' == e` of an invariant (in {})", self.what);
                self.d.unsupported(e.at, e.end, msg);
                Err(())
            }
        }
    }
}

/// Whether `e` mentions a rate `x'`.
fn has_rate(e: &Expr) -> bool {
    match &e.kind {
        EK::Rate(_) => true,
        EK::Int(_) | EK::Bool(_) | EK::Name(_) | EK::Deadlock => false,
        EK::Index(a, b) | EK::Bin(_, a, b) => has_rate(a) || has_rate(b),
        EK::Dot(a, _) | EK::Neg(a) | EK::Not(a) | EK::BitNot(a) | EK::Step { target: a, .. } => has_rate(a),
        EK::Call(_, args) => args.iter().any(has_rate),
        EK::Method(a, _, args) => has_rate(a) || args.iter().any(has_rate),
        EK::Cond(a, b, c) => has_rate(a) || has_rate(b) || has_rate(c),
        EK::Quant(_, _, _, e) => has_rate(e),
    }
}
