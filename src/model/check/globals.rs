//! Global declarations: constants, clocks, variables, channels, timing
//! parameters and continuous variables.

use crate::diag::Pos;
use crate::model::check::Checker;
use crate::model::check::expr::{Ctx, Scope, Sym, Ty};
use crate::model::decl::{ChanKind, Init, ModelDecl, VarDecl, VarType};
use crate::model::typed::{Cvar, TExpr, VarRef};
use crate::model::types::{Channel, Continuous, Ratio, TimingParam, Var, VarInit};
use crate::syntax::parse::parse_expr;
use crate::syntax::yaml::Node;

/// Largest integer range bound: data fits comfortably in 64-bit arithmetic.
const MAX_DATA_BOUND: i64 = 1 << 40;

/// The global names only.
pub struct Globals<'a>(pub &'a indexmap::IndexMap<String, (Sym, Pos)>);

impl Scope for Globals<'_> {
    fn lookup(&self, name: &str) -> Option<Sym> {
        self.0.get(name).map(|(s, _)| s.clone())
    }
}

impl Checker<'_> {
    /// The global declarations, a constant named in `constants` set to the
    /// value given there (its declared expression is still checked); a name
    /// there that is no constant is an error.
    pub(super) fn globals(&mut self, decl: &ModelDecl, constants: &[(String, i64)]) {
        for (name, value) in &decl.constants {
            let declared = self.const_expr(value, &Globals(&self.globals.clone()), "a constant");
            let given = constants.iter().find(|(n, _)| *n == name.text).map(|(_, v)| *v);
            let v = given.or(declared).unwrap_or(0);
            self.model.constants.insert(name.text.clone(), v);
            self.declare(name, Sym::Const(v));
        }
        for (name, _) in constants {
            if !decl.constants.iter().any(|(n, _)| n.text == *name) {
                let all: Vec<&str> = decl.constants.iter().map(|(n, _)| n.text.as_str()).collect();
                let known = if all.is_empty() {
                    "the model has none".to_string()
                } else {
                    format!("the constants are {}", all.join(", "))
                };
                self.r.error(
                    Pos { index: 0, line: 1, column: 1 },
                    "unknown-constant",
                    format!("no constant `{name}` to set; {known}"),
                );
            }
        }
        for t in &decl.types {
            let scope = Globals(&self.globals.clone());
            if let Some(var) = self.var(t, &scope, false) {
                let sym = Sym::Type { is_bool: var.is_bool, lo: var.lo, hi: var.hi, dims: var.dims };
                self.declare(&t.name, sym);
            }
        }
        for name in &decl.clocks {
            self.declare(name, Sym::Clock(Cvar::GlobalClock(self.model.clocks.len())));
            self.model.clocks.push(name.text.clone());
        }
        for v in &decl.variables {
            let scope = Globals(&self.globals.clone());
            if let Some(var) = self.var(v, &scope, true) {
                let id = self.model.vars.len();
                self.declare(
                    &v.name,
                    Sym::Var { var: VarRef::Global(id), is_bool: var.is_bool, dims: var.dims.clone() },
                );
                self.model.vars.push(var);
            }
        }
        for ch in &decl.channels {
            let dims = ch.size.as_ref().and_then(|s| self.dims(s, &Globals(&self.globals.clone()))).unwrap_or_default();
            let id = self.model.channels.len();
            self.declare(&ch.name, Sym::Channel(id));
            self.model.channels.push(Channel {
                name: ch.name.text.clone(),
                broadcast: ch.kind == ChanKind::Broadcast,
                urgent: ch.urgent,
                vector: ch.kind == ChanKind::Vector,
                parties: Vec::new(),
                size: (!dims.is_empty()).then(|| dims.iter().product()),
                dims,
            });
        }
        for p in &decl.parameters {
            let min = p.min.as_ref().and_then(|n| self.ratio(n));
            let max = p.max.as_ref().and_then(|n| self.ratio(n));
            if let (Some(lo), Some(hi), Some(n)) = (min, max, p.max.as_ref())
                && (lo.num as i128) * (hi.den as i128) > (hi.num as i128) * (lo.den as i128)
            {
                self.r.error(n.pos, "empty-range", format!("parameter `{}` has `min` greater than `max`", p.name.text));
            }
            self.declare(&p.name, Sym::TimingParam(self.model.params.len()));
            self.model.params.push(TimingParam { name: p.name.text.clone(), min, max });
        }
        for cv in &decl.continuous {
            let init = match cv.init.as_slice() {
                [] => Some((Ratio { num: 0, den: 1 }, Ratio { num: 0, den: 1 })),
                [v] => self.ratio(v).map(|r| (r, r)),
                [lo, hi] => match (self.ratio(lo), self.ratio(hi)) {
                    (Some(a), Some(b)) if (a.num as i128) * (b.den as i128) <= (b.num as i128) * (a.den as i128) => {
                        Some((a, b))
                    }
                    (Some(_), Some(_)) => {
                        self.r.error(lo.pos, "empty-range", "the interval's lower end is above its upper end");
                        None
                    }
                    _ => None,
                },
                _ => None,
            };
            self.declare(&cv.name, Sym::Continuous(Cvar::Continuous(self.model.continuous.len())));
            self.model.continuous.push(Continuous {
                name: cv.name.text.clone(),
                init: init.unwrap_or((Ratio { num: 0, den: 1 }, Ratio { num: 0, den: 1 })),
            });
        }
    }

    /// A constant integer written as a YAML scalar (a number or an expression).
    pub fn const_expr(&mut self, node: &Node, scope: &dyn Scope, what: &str) -> Option<i64> {
        let e = self.parse(node, what, parse_expr)?;
        self.const_int(node, &e, scope)
    }

    /// A foldable expression that may use template parameters.
    pub fn param_expr(&mut self, node: &Node, scope: &dyn Scope, what: &str, want_bool: bool) -> Option<TExpr> {
        let e = self.parse(node, what, parse_expr)?;
        match (self.ty(node, &e, scope, Ctx::Const), want_bool) {
            (Ty::Int(t), false) | (Ty::Bool(t), true) => Some(t),
            (Ty::Bad, _) => None,
            (other, _) => {
                self.expected(node.pos, if want_bool { "`true` or `false`" } else { "an integer" }, &other);
                None
            }
        }
    }

    /// A variable declaration (global, or local to a template when `scope`
    /// includes its parameters).
    pub(super) fn var(&mut self, v: &VarDecl, scope: &dyn Scope, global: bool) -> Option<Var> {
        let mut dims = match &v.size {
            Some(s) => self.dims(s, scope)?,
            None => Vec::new(),
        };
        let (is_bool, lo, hi) = match &v.ty {
            VarType::Bool => (true, TExpr::Const(0), TExpr::Const(1)),
            VarType::Named(t) => {
                let name = self.r.scalar(t, "a type")?;
                let Some(Sym::Type { is_bool, lo, hi, dims: inner }) = scope.lookup(&name) else {
                    self.r.error(t.pos, "unknown-type", format!("unknown type `{name}`")).hint =
                        Some("`type:` is `bool`, `int` or a name declared under `types:`".into());
                    return None;
                };
                // `{type: row_t, size: 2}` of an array type `row_t`: its own
                // dimensions first, then the type's (UPPAAL's `row_t m[2]`).
                dims.extend(inner);
                if dims.iter().product::<usize>() > super::array::MAX_SIZE as usize {
                    self.r.error(t.pos, "bad-size", format!("more than {} elements", super::array::MAX_SIZE));
                    return None;
                }
                (is_bool, lo, hi)
            }
            VarType::Int { lo, hi } => {
                let l = self.param_expr(lo, scope, "a range bound", false);
                let h = self.param_expr(hi, scope, "a range bound", false);
                let (l, h) = (l?, h?);
                if let (Some(a), Some(b)) = (l.as_const(), h.as_const()) {
                    if a > b {
                        self.r
                            .error(lo.pos, "empty-range", format!("the range of `{}` is empty: {a} > {b}", v.name.text))
                            .hint = Some("write the range as `[lo, hi]` with lo <= hi".into());
                        // Still declared, so its uses do not cascade into "unknown name".
                    }
                    for (bound, node) in [(a, lo), (b, hi)] {
                        if bound.abs() > MAX_DATA_BOUND {
                            self.r.error(node.pos, "bound-too-large", format!("range bound {bound} is beyond ±2^40"));
                            return None;
                        }
                    }
                }
                (false, l, h)
            }
        };
        let size = (!dims.is_empty()).then(|| dims.iter().product::<usize>());
        let value = |c: &mut Self, n: &Node| c.param_expr(n, scope, "an initial value", is_bool).map(|t| (t, n.pos));
        // A bad initialiser is reported and the variable declared anyway
        // (with its default value), so that its uses raise no follow-on
        // "unknown name" errors.
        let init = (|| {
            Some(match &v.init {
                Init::Default => VarInit::Default,
                Init::Any(_) => VarInit::Any,
                Init::Value(n) => VarInit::Values(vec![value(self, n)?; size.unwrap_or(1)]),
                Init::List(n, items) => {
                    let Some(len) = size else {
                        self.r.error(
                            n.pos,
                            "bad-init",
                            format!("`{}` is not an array: give one initial value", v.name.text),
                        );
                        return None;
                    };
                    if dims.len() == 1 && items.len() != len {
                        self.r.error(
                            n.pos,
                            "bad-init",
                            format!("`{}` has {len} elements but {} initial values", v.name.text, items.len()),
                        );
                        return None;
                    }
                    let items = self.init_items(&v.name.text, n, &dims)?;
                    VarInit::Values(items.into_iter().map(|n| value(self, n)).collect::<Option<Vec<_>>>()?)
                }
            })
        })()
        .unwrap_or(VarInit::Default);
        let var =
            Var { name: v.name.text.clone(), pos: v.name.pos, is_bool, lo, hi, size, dims, init, symbolic: v.symbolic };
        if global {
            self.check_init(&var, &[]);
        }
        Some(var)
    }

    /// Reports initial values outside the range, once parameters are known.
    pub fn check_init(&mut self, var: &Var, args: &[i64]) -> bool {
        let (Some(lo), Some(hi)) = (crate::model::fold::fold(&var.lo, args), crate::model::fold::fold(&var.hi, args))
        else {
            return true;
        };
        // A range empty whatever the parameters was reported where declared.
        let depends_on_params = var.lo.as_const().is_none() || var.hi.as_const().is_none();
        if lo > hi && !depends_on_params {
            return false;
        }
        if lo > hi {
            self.r.error(
                var.pos,
                "empty-range",
                format!("the range of `{}` is empty for this instance: {lo} > {hi}", var.name),
            );
            return false;
        }
        if let VarInit::Values(values) = &var.init {
            for (t, pos) in values {
                if let Some(v) = crate::model::fold::fold(t, args)
                    && (v < lo || v > hi)
                {
                    self.r.error(
                        *pos,
                        "init-out-of-range",
                        format!("initial value {v} of `{}` is outside its range [{lo}, {hi}]", var.name),
                    );
                    return false;
                }
            }
        }
        true
    }

    /// A rational number: `3`, `-2`, `7/2` or `3.5`.
    fn ratio(&mut self, node: &Node) -> Option<Ratio> {
        let text = self.r.scalar(node, "a number")?;
        match parse_ratio(text.trim()) {
            Some(r) => Some(r),
            None => {
                self.r.error(node.pos, "bad-number", format!("`{text}` is not a rational number")).hint =
                    Some("write an integer, a fraction like `7/2`, or a decimal like `3.5`".into());
                None
            }
        }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

/// Parses `n`, `n/d` or a decimal into a reduced fraction.
pub fn parse_ratio(text: &str) -> Option<Ratio> {
    let (num, den) = if let Some((n, d)) = text.split_once('/') {
        (n.trim().parse::<i64>().ok()?, d.trim().parse::<i64>().ok()?)
    } else if let Some((int, frac)) = text.split_once('.') {
        if frac.is_empty() || !frac.chars().all(|c| c.is_ascii_digit()) || frac.len() > 12 {
            return None;
        }
        let den = 10i64.pow(frac.len() as u32);
        let neg = int.starts_with('-');
        let whole = if int == "-" || int.is_empty() { 0 } else { int.parse::<i64>().ok()? };
        let f = frac.parse::<i64>().ok()?;
        let n = whole.checked_mul(den)?.checked_add(if neg { -f } else { f })?;
        (n, den)
    } else {
        (text.parse::<i64>().ok()?, 1)
    };
    if den <= 0 {
        return None;
    }
    let g = gcd(num, den).max(1);
    Some(Ratio { num: num / g, den: den / g })
}
