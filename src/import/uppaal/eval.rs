//! Values UPPAAL computes at compile time: constants, the bounds of types
//! and the arguments of instantiations. The importer needs the numbers
//! where UPPAAL checks them before any run (an argument out of its
//! parameter's range, an index out of a constant array's bounds); elsewhere
//! kairos folds the printed text itself.
//!
//! Arithmetic is [`crate::model::fold::const_binary`]'s: 64-bit, checked.
//! Booleans are 0 and 1, `&&`, `||`, `imply` and `?:` short-circuit.

use super::parse::{Base, Bin, EK, Expr, Type};
use super::print::{Printer, Range, Sym};
use crate::model::fold::const_binary;
use crate::syntax::ast::BinOp;

/// Why an expression has no compile-time value.
pub(crate) enum NoValue {
    /// It reads what is not a constant (a variable, a parameter kept as a
    /// kairos parameter, a clock, ...): the bytes of that read.
    Unknown(usize, usize),
    /// The evaluation failed (division by zero, overflow, index out of
    /// bounds): reported.
    Reported,
}

impl Printer<'_, '_> {
    /// The value of `x`, read through the printer's scopes.
    pub fn value(&mut self, x: &Expr) -> Result<i64, NoValue> {
        let unknown = Err(NoValue::Unknown(x.at, x.end));
        match &x.kind {
            EK::Int(v) => Ok(*v),
            EK::Bool(b) => Ok(i64::from(*b)),
            EK::Name(n) => match self.lookup(n) {
                Some(Sym::Val { value: Some(v), dims: 0, .. }) => Ok(v[0]),
                Some(Sym::Refused) => Err(NoValue::Reported),
                _ => unknown,
            },
            EK::Index(base, i) => {
                let EK::Name(n) = &base.kind else { return unknown };
                let Some(Sym::Val { value: Some(values), dims: 1, lows, .. }) = self.lookup(n) else { return unknown };
                let low = lows.first().copied().unwrap_or(0);
                let k = self.value(i)?;
                match k.checked_sub(low).and_then(|k| usize::try_from(k).ok()).and_then(|k| values.get(k)) {
                    Some(v) => Ok(*v),
                    None => {
                        let msg = format!(
                            "in {}: index {k} is out of the bounds of `{n}` (size {})",
                            self.what,
                            values.len()
                        );
                        self.d.error(i.at, i.end, "index-out-of-bounds", msg);
                        Err(NoValue::Reported)
                    }
                }
            }
            EK::Neg(a) => {
                let v = self.value(a)?;
                v.checked_neg().ok_or_else(|| self.overflow(x))
            }
            EK::Not(a) => Ok(i64::from(self.value(a)? == 0)),
            EK::BitNot(a) => Ok(!self.value(a)?),
            EK::Bin(op, a, b) => self.value_binary(x, *op, a, b),
            EK::Cond(c, a, b) => {
                if self.value(c)? != 0 {
                    self.value(a)
                } else {
                    self.value(b)
                }
            }
            // A field of a constant structure (`FIN.cmd`).
            EK::Dot(base, member) => {
                let EK::Name(n) = &base.kind else { return unknown };
                let Some(Sym::Struct { fields, dims: 0, .. }) = self.lookup(n) else { return unknown };
                match fields.iter().find(|(f, _)| f == member) {
                    Some((_, Sym::Val { value: Some(v), dims: 0, .. })) => Ok(v[0]),
                    _ => unknown,
                }
            }
            EK::Deadlock | EK::Call(..) | EK::Method(..) | EK::Quant(..) | EK::Step { .. } | EK::Rate(_) => unknown,
        }
    }

    fn value_binary(&mut self, x: &Expr, op: Bin, a: &Expr, b: &Expr) -> Result<i64, NoValue> {
        let op = match op {
            Bin::And => return Ok(i64::from(self.value(a)? != 0 && self.value(b)? != 0)),
            Bin::Or => return Ok(i64::from(self.value(a)? != 0 || self.value(b)? != 0)),
            Bin::Imply => return Ok(i64::from(self.value(a)? == 0 || self.value(b)? != 0)),
            op => op,
        };
        let (u, v) = (self.value(a)?, self.value(b)?);
        if v == 0 && matches!(op, BinOp::Div | BinOp::Mod) {
            let msg = format!("in {}: division by zero", self.what);
            self.d.error(x.at, x.end, "division-by-zero", msg);
            return Err(NoValue::Reported);
        }
        if matches!(op, BinOp::Shl | BinOp::Shr) && !(0..64).contains(&v) {
            let msg = format!("in {}: shift by {v} (the count must lie in 0..63)", self.what);
            self.d.error(x.at, x.end, "shift-count", msg);
            return Err(NoValue::Reported);
        }
        const_binary(op, u, v).ok_or_else(|| self.overflow(x))
    }

    fn overflow(&mut self, x: &Expr) -> NoValue {
        let msg = format!("in {}: integer overflow", self.what);
        self.d.error(x.at, x.end, "overflow", msg);
        NoValue::Reported
    }

    /// The values a constant of type `ty` may hold: UPPAAL's 16-bit range
    /// of `int` bounds what is assigned (a variable), not a constant's value
    /// (`const int period = 120000`), which is a 32-bit integer; a range
    /// written in the type still bounds it.
    pub fn constant_bounds(&mut self, ty: &Type) -> Result<(i64, i64), NoValue> {
        match &ty.base {
            Base::Int(None) => Ok((i32::MIN.into(), i32::MAX.into())),
            _ => self.bounds(ty),
        }
    }

    /// The bounds of an integer type (`int` is UPPAAL's 16-bit range).
    pub fn bounds(&mut self, ty: &Type) -> Result<(i64, i64), NoValue> {
        match &ty.base {
            Base::Int(None) => Ok((-32768, 32767)),
            Base::Int(Some((lo, hi))) => Ok((self.value(lo)?, self.value(hi)?)),
            Base::Named(n) => match self.lookup(n) {
                Some(Sym::Type(Range::Int(..), Some(b), _)) => Ok(b),
                Some(Sym::Refused) => Err(NoValue::Reported),
                _ => Err(NoValue::Unknown(ty.at, ty.end)),
            },
            Base::Bool | Base::Clock | Base::Chan | Base::Struct(_) => Err(NoValue::Unknown(ty.at, ty.end)),
        }
    }
}
