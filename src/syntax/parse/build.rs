//! From pest pairs to the AST: precedence with pest's Pratt parser, spans,
//! nesting limits, and the checks the grammar cannot express (calls without a
//! member, integer overflow, `-->` operands).

use std::sync::LazyLock;

use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};

use super::errors::{nesting_error, token_at};
use super::{MAX_NESTING, MAX_TREE_DEPTH, Rule};
use crate::syntax::ast::{
    Action, AssignOp, BinOp, BoundOp, Expr, ExprKind, Extremum, Ident, InstanceRef, ParseError, PathOp, PathQuant,
    Quantifier, Select, Span, Sync, SyncDir, SystemArg, SystemEntry, TimeBound, UnOp, Update,
};

type R<T> = Result<T, ParseError>;

/// An expression and the depth of its tree (a leaf is 1). Boxed while it
/// travels through the Pratt parser: small stack frames keep 256 levels of
/// brackets within a 2 MiB stack in debug builds.
pub(super) struct Node {
    pub(super) expr: Expr,
    depth: usize,
}

type Boxed = Box<Node>;

impl Node {
    #[allow(clippy::boxed_local, reason = "nodes stay boxed through the Pratt parser to keep its frames small")]
    fn into_expr(self: Box<Self>) -> Box<Expr> {
        Box::new(self.expr)
    }
}

/// Operator nesting around a point of the text: `nest` counts brackets, prefix
/// operators and right-associative operators (what can nest without limit);
/// `total` also counts the left-associative operators of precedence climbing,
/// and bounds the recursion of the Pratt parser.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Depth {
    nest: usize,
    total: usize,
}

/// Bound on `Depth::total`: never reached by text within [`MAX_NESTING`]
/// except with pathological mixes of precedence levels and prefix operators.
const MAX_TOTAL: usize = 4 * MAX_NESTING;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fix {
    Prefix,
    Postfix,
    Left,
    Right,
}

/// The operators, loosest first (UPPAAL's precedence; FORMAT.md, section 3).
const LEVELS: &[(Fix, &[Rule])] = &[
    (Fix::Prefix, &[Rule::quant, Rule::path_prefix]),
    (Fix::Left, &[Rule::leadsto]), // not associative: see `check_leadsto`
    (Fix::Right, &[Rule::imply]),
    (Fix::Left, &[Rule::or]),
    (Fix::Left, &[Rule::and]),
    (Fix::Prefix, &[Rule::not]),
    (Fix::Right, &[Rule::assign_op]),
    (Fix::Right, &[Rule::cond_op]),
    (Fix::Left, &[Rule::lor]),
    (Fix::Left, &[Rule::land]),
    (Fix::Left, &[Rule::bor]),
    (Fix::Left, &[Rule::bxor]),
    (Fix::Left, &[Rule::band]),
    (Fix::Left, &[Rule::eq, Rule::ne]),
    (Fix::Left, &[Rule::lt, Rule::le, Rule::gt, Rule::ge]),
    (Fix::Left, &[Rule::min_op, Rule::max_op]),
    (Fix::Left, &[Rule::shl, Rule::shr]),
    (Fix::Left, &[Rule::add, Rule::sub]),
    (Fix::Left, &[Rule::mul, Rule::div, Rule::rem]),
    (Fix::Prefix, &[Rule::neg, Rule::bang, Rule::bnot, Rule::pre_up, Rule::pre_down]),
    (Fix::Postfix, &[Rule::index, Rule::post_up, Rule::post_down]),
];

/// The precedence pest's `PrattParser` gives to level `i` (it starts at 10 and
/// adds 10 per `op` call); `plan` mirrors its algorithm with these numbers.
fn prec(level: usize) -> u32 {
    10 * (level as u32 + 2)
}

fn op_info(rule: Rule) -> Option<(Fix, u32)> {
    LEVELS.iter().enumerate().find_map(|(i, (fix, rules))| rules.contains(&rule).then_some((*fix, prec(i))))
}

static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    LEVELS.iter().fold(PrattParser::new(), |pratt, (fix, rules)| {
        let op = |rule: Rule| match fix {
            Fix::Prefix => Op::prefix(rule),
            Fix::Postfix => Op::postfix(rule),
            Fix::Left => Op::infix(rule, Assoc::Left),
            Fix::Right => Op::infix(rule, Assoc::Right),
        };
        match rules.split_first() {
            Some((first, rest)) => pratt.op(rest.iter().fold(op(*first), |acc, &r| acc | op(r))),
            None => pratt,
        }
    })
});

/// `=`, `+=`, ..., `>>=` as written.
fn assign_op(text: &str) -> AssignOp {
    match text.trim() {
        "+=" => AssignOp::With(BinOp::Add),
        "-=" => AssignOp::With(BinOp::Sub),
        "*=" => AssignOp::With(BinOp::Mul),
        "/=" => AssignOp::With(BinOp::Div),
        "%=" => AssignOp::With(BinOp::Mod),
        "&=" => AssignOp::With(BinOp::BitAnd),
        "|=" => AssignOp::With(BinOp::BitOr),
        "^=" => AssignOp::With(BinOp::BitXor),
        "<<=" => AssignOp::With(BinOp::Shl),
        ">>=" => AssignOp::With(BinOp::Shr),
        _ => AssignOp::Set,
    }
}

/// An error that the grammar should have made impossible.
pub(super) fn internal(span: Span) -> ParseError {
    ParseError { span, message: "internal parser error: unexpected syntax tree".to_string() }
}

pub(super) fn span_of(pair: &Pair<'_, Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

pub(super) fn ident(pair: &Pair<'_, Rule>) -> Ident {
    Ident { name: pair.as_str().to_string(), span: span_of(pair) }
}

fn leaf(kind: ExprKind, span: Span) -> Boxed {
    Box::new(Node { expr: Expr { kind, span, paren: false }, depth: 1 })
}

/// The children of a pair, without the punctuation rules (which exist only so
/// that error messages can name them).
pub(super) fn children<'t>(pair: Pair<'t, Rule>) -> Vec<Pair<'t, Rule>> {
    pair.into_inner()
        .filter(|p| {
            !matches!(
                p.as_rule(),
                Rule::lparen
                    | Rule::rparen
                    | Rule::rbracket
                    | Rule::colon
                    | Rule::dotdot
                    | Rule::comma
                    | Rule::semi
                    | Rule::lbrace
                    | Rule::rbrace
                    | Rule::kw_if
                    | Rule::kw_else
                    | Rule::kw_while
                    | Rule::kw_do
                    | Rule::kw_for
                    | Rule::kw_return
            )
        })
        .collect()
}

/// The `i`-th child, or an internal error located at the parent.
pub(super) fn nth<'t>(kids: &[Pair<'t, Rule>], i: usize, parent: Span) -> R<Pair<'t, Rule>> {
    kids.get(i).cloned().ok_or_else(|| internal(parent))
}

fn too_deep(at: Span) -> ParseError {
    ParseError {
        span: at,
        message: format!(
            "expression too deep: its syntax tree would have more than {MAX_TREE_DEPTH} levels \
             (a very long chain of operators?); group parts of it in parentheses"
        ),
    }
}

/// A new node over children of tree depth `below`, checked against
/// [`MAX_TREE_DEPTH`] (an error located at `at`).
fn node(kind: ExprKind, span: Span, below: usize, at: Span) -> R<Boxed> {
    if below >= MAX_TREE_DEPTH {
        return Err(too_deep(at));
    }
    Ok(Box::new(Node { expr: Expr { kind, span, paren: false }, depth: below + 1 }))
}

pub(super) struct Builder<'t> {
    pub(super) text: &'t str,
}

impl<'t> Builder<'t> {
    pub(super) fn new(text: &'t str) -> Self {
        Builder { text }
    }

    /// The span of the token starting at `pos` (for errors about an operator).
    fn token_span(&self, pos: usize) -> Span {
        let len = token_at(self.text, pos).map_or(0, str::len);
        Span::new(pos, pos + len)
    }

    fn check_depth(&self, d: Depth, at: usize) -> R<()> {
        if d.nest > MAX_NESTING {
            return Err(nesting_error(self.token_span(at)));
        }
        if d.total > MAX_TOTAL {
            return Err(ParseError {
                span: self.token_span(at),
                message: format!(
                    "expression nested too deeply (more than {MAX_TOTAL} levels of brackets and operators)"
                ),
            });
        }
        Ok(())
    }

    pub(super) fn top_sequence(&self, seq: Pair<'t, Rule>) -> R<Expr> {
        self.sequence(seq, Depth::default()).map(|n| n.expr)
    }

    /// `sup{φ}: e1, e2` or `inf: e`: the condition and the terms are
    /// sequences at the top level of their own.
    pub(super) fn measure(&self, pair: Pair<'t, Rule>) -> R<Expr> {
        let span = span_of(&pair);
        let kids = children(pair);
        let kind = match nth(&kids, 0, span)?.as_rule() {
            Rule::kw_sup => Extremum::Sup,
            _ => Extremum::Inf,
        };
        let (mut cond, mut terms) = (None, Vec::new());
        for k in kids.into_iter().skip(1) {
            match k.as_rule() {
                Rule::formula => cond = Some(Box::new(self.top_sequence(k)?)),
                Rule::expr => terms.push(self.top_sequence(k)?),
                _ => {}
            }
        }
        Ok(Expr { kind: ExprKind::Measure { kind, cond, terms }, span, paren: false })
    }

    /// A sequence in brackets opened at `open`, in a context at depth `depth`.
    fn nested(&self, seq: Pair<'t, Rule>, depth: Depth, open: usize) -> R<Boxed> {
        let inner = Depth { nest: depth.nest + 1, total: depth.total + 1 };
        self.check_depth(inner, open)?;
        self.sequence(seq, inner)
    }

    /// An `expr` or `formula` pair: a flat sequence of operators and operands,
    /// in a context at depth `depth`.
    pub(super) fn sequence(&self, seq: Pair<'t, Rule>, depth: Depth) -> R<Boxed> {
        let pairs: Vec<Pair<'t, Rule>> = seq.into_inner().collect();
        let depths = self.plan(&pairs, depth)?;
        let starts: Vec<usize> = pairs.iter().map(|p| p.as_span().start()).collect();
        // Every pair of a sequence starts at a different offset.
        let at = |p: &Pair<'t, Rule>| {
            let i = starts.partition_point(|&s| s < p.as_span().start());
            depths.get(i).copied().unwrap_or(depth)
        };
        PRATT
            .map_primary(|p| {
                let d = at(&p);
                self.primary(p, d)
            })
            .map_prefix(|op, arg| {
                let d = at(&op);
                self.prefix(op, d, arg?)
            })
            .map_postfix(|lhs, op| {
                let d = at(&op);
                match op.as_rule() {
                    Rule::post_up | Rule::post_down => self.step(lhs?, op, true),
                    _ => self.index(lhs?, op, d),
                }
            })
            .map_infix(|lhs, op, rhs| {
                let d = at(&op);
                self.infix(lhs?, op, d, rhs?)
            })
            .parse(pairs.into_iter())
    }

    /// Replays the Pratt parser's recursion over `pairs` without recursing,
    /// giving the depth at every pair and rejecting a sequence that nests too
    /// deeply before the Pratt parser (which recurses per level) sees it.
    /// An operator's depth counts its own frame: what belongs to it (a bound,
    /// the range of a quantifier, the middle of `? :`) is at that depth.
    fn plan(&self, pairs: &[Pair<'t, Rule>], base: Depth) -> R<Vec<Depth>> {
        // Open Pratt frames above the sequence's own: (right binding power, counted in `nest`).
        let mut frames: Vec<(u32, bool)> = Vec::new();
        let mut counted = 0;
        let mut out = Vec::with_capacity(pairs.len());
        let mut want_operand = true;
        for pair in pairs {
            let here = |counted: usize, frames: &Vec<(u32, bool)>| Depth {
                nest: base.nest + counted,
                total: base.total + frames.len(),
            };
            let start = pair.as_span().start();
            let info = op_info(pair.as_rule());
            if want_operand {
                if let Some((Fix::Prefix, p)) = info {
                    frames.push((p - 1, true));
                    counted += 1;
                    let d = here(counted, &frames);
                    self.check_depth(d, start)?;
                    out.push(d);
                } else {
                    out.push(here(counted, &frames));
                    want_operand = false;
                }
                continue;
            }
            let Some((fix, p)) = info else {
                return Err(internal(span_of(pair)));
            };
            while let Some(&(rbp, c)) = frames.last() {
                if rbp < p {
                    break;
                }
                frames.pop();
                if c {
                    counted -= 1;
                }
            }
            match fix {
                Fix::Postfix => {
                    out.push(here(counted, &frames));
                    continue;
                }
                Fix::Left => frames.push((p, false)),
                Fix::Right => {
                    frames.push((p - 1, true));
                    counted += 1;
                }
                Fix::Prefix => return Err(internal(span_of(pair))),
            }
            let d = here(counted, &frames);
            self.check_depth(d, start)?;
            out.push(d);
            want_operand = true;
        }
        Ok(out)
    }

    /// A dispatcher only: every form has a function of its own, so that the
    /// recursion through parentheses goes through small stack frames.
    fn primary(&self, pair: Pair<'t, Rule>, depth: Depth) -> R<Boxed> {
        match pair.as_rule() {
            Rule::paren | Rule::fparen => self.paren(pair, depth),
            Rule::applied => self.applied(pair, depth),
            Rule::dotted => self.dotted(pair, depth),
            Rule::until => self.until(pair, depth),
            _ => self.atom(pair),
        }
    }

    fn paren(&self, pair: Pair<'t, Rule>, depth: Depth) -> R<Boxed> {
        let span = span_of(&pair);
        let inner = pair.into_inner().next().ok_or_else(|| internal(span))?;
        let mut node = self.nested(inner, depth, span.start)?;
        node.expr.paren = true;
        node.expr.span = span;
        Ok(node)
    }

    fn atom(&self, pair: Pair<'t, Rule>) -> R<Boxed> {
        let span = span_of(&pair);
        let text = pair.as_str();
        match pair.as_rule() {
            Rule::int => match text.parse::<i64>() {
                Ok(v) => Ok(leaf(ExprKind::Int(v), span)),
                Err(_) => Err(ParseError {
                    span,
                    message: format!("integer `{text}` is too large: integers are 64-bit (at most {})", i64::MAX),
                }),
            },
            Rule::decimal => Ok(leaf(ExprKind::Decimal(text.to_string()), span)),
            Rule::true_lit => Ok(leaf(ExprKind::Bool(true), span)),
            Rule::false_lit => Ok(leaf(ExprKind::Bool(false), span)),
            Rule::name => Ok(leaf(ExprKind::Name(text.to_string()), span)),
            Rule::deadlock => Ok(leaf(ExprKind::Deadlock, span)),
            _ => Err(internal(span)),
        }
    }

    /// `Gate.down`, or the call `Gate.ready(2)`.
    fn dotted(&self, pair: Pair<'t, Rule>, depth: Depth) -> R<Boxed> {
        let span = span_of(&pair);
        let kids = children(pair);
        let template = ident(&nth(&kids, 0, span)?);
        let instance = InstanceRef { span: template.span, template, args: None };
        self.member(instance, nth(&kids, 1, span)?, depth, 0, span)
    }

    /// `instance.member`, or `instance.f(a, b)`; `below`: the depth of the
    /// instance's arguments.
    fn member(
        &self,
        instance: InstanceRef,
        suffix: Pair<'t, Rule>,
        depth: Depth,
        below: usize,
        span: Span,
    ) -> R<Boxed> {
        let named = nth(&children(suffix), 0, span)?;
        if named.as_rule() != Rule::member_call {
            return node(ExprKind::Member { instance, member: ident(&named) }, span, below, span);
        }
        let kids = children(named);
        let member = ident(&nth(&kids, 0, span)?);
        let (args, deeper) = self.call_args(nth(&kids, 1, span)?, depth)?;
        node(ExprKind::Call { of: Some(instance), name: member, args }, span, below.max(deeper), span)
    }

    /// The arguments of a call, and the depth of the deepest.
    fn call_args(&self, call: Pair<'t, Rule>, depth: Depth) -> R<(Vec<Expr>, usize)> {
        let call_span = span_of(&call);
        let mut args = Vec::new();
        let mut below = 0;
        for arg in children(call) {
            let n = self.nested(arg, depth, call_span.start)?;
            below = below.max(n.depth);
            args.push(n.expr);
        }
        Ok((args, below))
    }

    /// `Train(1).on`, or the call `f(a, b)` when no member follows.
    fn applied(&self, pair: Pair<'t, Rule>, depth: Depth) -> R<Boxed> {
        let span = span_of(&pair);
        let kids = children(pair);
        let template = ident(&nth(&kids, 0, span)?);
        let call = nth(&kids, 1, span)?;
        let call_span = span_of(&call);
        let (args, below) = self.call_args(call, depth)?;
        let Some(suffix) = kids.get(2).cloned() else {
            return node(ExprKind::Call { of: None, name: template, args }, span, below, span);
        };
        if args.is_empty() {
            let name = &template.name;
            return Err(ParseError {
                span,
                message: format!("`{name}()` names no instance: write `{name}.x` for a template without parameters"),
            });
        }
        let instance = InstanceRef { span: template.span.to(call_span), template, args: Some(args) };
        self.member(instance, suffix, depth, below, span)
    }

    /// `E[ p U q ]`, `A[ p U[<=5] q ]`.
    fn until(&self, pair: Pair<'t, Rule>, depth: Depth) -> R<Boxed> {
        let span = span_of(&pair);
        let kids = children(pair);
        let quant = match nth(&kids, 0, span)?.as_rule() {
            Rule::until_e => PathQuant::E,
            _ => PathQuant::A,
        };
        let inner = Depth { nest: depth.nest + 1, total: depth.total + 1 };
        self.check_depth(inner, span.start)?;
        let lhs = self.sequence(nth(&kids, 1, span)?, inner)?;
        let mut rest = kids.iter().skip(3).cloned();
        let mut next = rest.next().ok_or_else(|| internal(span))?;
        let mut bound = None;
        let mut below = lhs.depth;
        if next.as_rule() == Rule::bound {
            let (b, d) = self.bound(next, inner)?;
            below = below.max(d);
            bound = Some(b);
            next = rest.next().ok_or_else(|| internal(span))?;
        }
        let rhs = self.sequence(next, inner)?;
        below = below.max(rhs.depth);
        node(ExprKind::Until { quant, bound, lhs: lhs.into_expr(), rhs: rhs.into_expr() }, span, below, span)
    }

    /// `[<= n]` of an operator at depth `depth`: the bound and the tree depth
    /// of its value.
    fn bound(&self, pair: Pair<'t, Rule>, depth: Depth) -> R<(TimeBound, usize)> {
        let span = span_of(&pair);
        let kids = children(pair);
        let op = match nth(&kids, 0, span)?.as_str() {
            "<=" => BoundOp::Le,
            "<" => BoundOp::Lt,
            ">=" => BoundOp::Ge,
            ">" => BoundOp::Gt,
            "==" => BoundOp::Eq,
            _ => return Err(internal(span)),
        };
        let value = self.sequence(nth(&kids, 1, span)?, depth)?;
        let d = value.depth;
        Ok((TimeBound { op, value: value.into_expr(), span }, d))
    }

    fn prefix(&self, op: Pair<'t, Rule>, depth: Depth, arg: Boxed) -> R<Boxed> {
        match op.as_rule() {
            Rule::quant => self.quant(op, depth, arg),
            Rule::path_prefix => self.path(op, depth, arg),
            Rule::pre_up | Rule::pre_down => self.step(arg, op, false),
            rule => {
                let op_span = self.token_span(op.as_span().start());
                let un = match rule {
                    Rule::neg => UnOp::Neg,
                    Rule::bnot => UnOp::BitNot,
                    _ => UnOp::Not,
                };
                let span = op_span.to(arg.expr.span);
                let below = arg.depth;
                let kind = ExprKind::Unary { op: un, arg: arg.into_expr() };
                node(kind, span, below, op_span)
            }
        }
    }

    /// `forall (i : lo..hi) body`.
    fn quant(&self, op: Pair<'t, Rule>, depth: Depth, body: Boxed) -> R<Boxed> {
        let op_span = span_of(&op);
        let kids = children(op);
        let quant = match nth(&kids, 0, op_span)?.as_rule() {
            Rule::forall_kw => Quantifier::Forall,
            _ => Quantifier::Exists,
        };
        let var = ident(&nth(&kids, 1, op_span)?);
        let lo = self.sequence(nth(&kids, 2, op_span)?, depth)?;
        let hi = self.sequence(nth(&kids, 3, op_span)?, depth)?;
        let span = op_span.to(body.expr.span);
        let below = body.depth.max(lo.depth).max(hi.depth);
        let kind = ExprKind::Quant { quant, var, lo: lo.into_expr(), hi: hi.into_expr(), body: body.into_expr() };
        node(kind, span, below, self.token_span(op_span.start))
    }

    /// `E<> p`, `A[][<=5] p`, `AF p`, ...
    fn path(&self, op: Pair<'t, Rule>, depth: Depth, arg: Boxed) -> R<Boxed> {
        let op_span = span_of(&op);
        let kids = children(op);
        let path = match nth(&kids, 0, op_span)?.as_rule() {
            Rule::path_ef => PathOp::EF,
            Rule::path_af => PathOp::AF,
            Rule::path_eg => PathOp::EG,
            _ => PathOp::AG,
        };
        let (bound, bd) = match kids.get(1).cloned() {
            Some(b) => {
                let (b, d) = self.bound(b, depth)?;
                (Some(b), d)
            }
            None => (None, 0),
        };
        let span = op_span.to(arg.expr.span);
        let below = arg.depth.max(bd);
        node(ExprKind::Path { op: path, bound, arg: arg.into_expr() }, span, below, self.path_token(op_span.start).1)
    }

    /// `a[i]`.
    fn index(&self, base: Boxed, op: Pair<'t, Rule>, depth: Depth) -> R<Boxed> {
        let op_span = span_of(&op);
        let inner = op.into_inner().next().ok_or_else(|| internal(op_span))?;
        let index = self.nested(inner, depth, op_span.start)?;
        let span = base.expr.span.to(op_span);
        let below = base.depth.max(index.depth);
        node(ExprKind::Index { base: base.into_expr(), index: index.into_expr() }, span, below, op_span)
    }

    /// `n++`, `n--` (`post`: the value is the old one), `++n`, `--n`.
    fn step(&self, target: Boxed, op: Pair<'t, Rule>, post: bool) -> R<Boxed> {
        let op_span = span_of(&op);
        let bin = if matches!(op.as_rule(), Rule::pre_up | Rule::post_up) { BinOp::Add } else { BinOp::Sub };
        let one = Box::new(Expr { kind: ExprKind::Int(1), span: op_span, paren: false });
        let span = target.expr.span.to(op_span);
        let below = target.depth;
        let kind = ExprKind::Assign { target: target.into_expr(), op: AssignOp::With(bin), value: one, post };
        node(kind, span, below, op_span)
    }

    fn infix(&self, lhs: Boxed, op: Pair<'t, Rule>, depth: Depth, rhs: Boxed) -> R<Boxed> {
        let bin = match op.as_rule() {
            Rule::assign_op => {
                let span = lhs.expr.span.to(rhs.expr.span);
                let below = lhs.depth.max(rhs.depth);
                let (target, value) = (lhs.into_expr(), rhs.into_expr());
                let kind = ExprKind::Assign { target, op: assign_op(op.as_str()), value, post: false };
                return node(kind, span, below, span_of(&op));
            }
            Rule::cond_op => return self.cond(lhs, op, depth, rhs),
            Rule::leadsto => return self.leadsto(lhs, op, depth, rhs),
            Rule::imply => BinOp::Imply,
            Rule::or | Rule::lor => BinOp::Or,
            Rule::and | Rule::land => BinOp::And,
            Rule::bor => BinOp::BitOr,
            Rule::bxor => BinOp::BitXor,
            Rule::band => BinOp::BitAnd,
            Rule::shl => BinOp::Shl,
            Rule::shr => BinOp::Shr,
            Rule::min_op => BinOp::Min,
            Rule::max_op => BinOp::Max,
            Rule::eq => BinOp::Eq,
            Rule::ne => BinOp::Ne,
            Rule::lt => BinOp::Lt,
            Rule::le => BinOp::Le,
            Rule::gt => BinOp::Gt,
            Rule::ge => BinOp::Ge,
            Rule::add => BinOp::Add,
            Rule::sub => BinOp::Sub,
            Rule::mul => BinOp::Mul,
            Rule::div => BinOp::Div,
            Rule::rem => BinOp::Mod,
            _ => return Err(internal(span_of(&op))),
        };
        let span = lhs.expr.span.to(rhs.expr.span);
        let below = lhs.depth.max(rhs.depth);
        node(ExprKind::Binary { op: bin, lhs: lhs.into_expr(), rhs: rhs.into_expr() }, span, below, span_of(&op))
    }

    /// `c ? a : b`.
    fn cond(&self, cond: Boxed, op: Pair<'t, Rule>, depth: Depth, other: Boxed) -> R<Boxed> {
        let op_span = span_of(&op);
        let inner = op.into_inner().next().ok_or_else(|| internal(op_span))?;
        let then = self.sequence(inner, depth)?;
        let span = cond.expr.span.to(other.expr.span);
        let below = cond.depth.max(then.depth).max(other.depth);
        node(
            ExprKind::Cond { cond: cond.into_expr(), then: then.into_expr(), other: other.into_expr() },
            span,
            below,
            op_span,
        )
    }

    /// `p --> q`, `p -->[<=5] q`.
    fn leadsto(&self, lhs: Boxed, op: Pair<'t, Rule>, depth: Depth, rhs: Boxed) -> R<Boxed> {
        let arrow = Span::new(op.as_span().start(), op.as_span().start() + "-->".len());
        let (bound, bd) = match children(op).into_iter().next() {
            Some(b) => {
                let (b, d) = self.bound(b, depth)?;
                (Some(b), d)
            }
            None => (None, 0),
        };
        self.check_leadsto(&lhs.expr, &rhs.expr, arrow)?;
        let span = lhs.expr.span.to(rhs.expr.span);
        let below = lhs.depth.max(rhs.depth).max(bd);
        node(ExprKind::LeadsTo { bound, lhs: lhs.into_expr(), rhs: rhs.into_expr() }, span, below, arrow)
    }

    /// Both operands of `-->` are state formulas: `a --> b --> c` needs
    /// parentheses, and so does a path formula inside an operand.
    fn check_leadsto(&self, lhs: &Expr, rhs: &Expr, arrow: Span) -> R<()> {
        if !lhs.paren && matches!(lhs.kind, ExprKind::LeadsTo { .. }) {
            return Err(ParseError {
                span: arrow,
                message: "`-->` is not associative: add parentheses, as in `(a --> b) --> c` or `a --> (b --> c)`"
                    .to_string(),
            });
        }
        let mut todo = vec![lhs, rhs];
        while let Some(e) = todo.pop() {
            if e.paren {
                continue;
            }
            let what = match &e.kind {
                ExprKind::Path { .. } => {
                    let (tok, span) = self.path_token(e.span.start);
                    Some((format!("`{tok}`"), span))
                }
                ExprKind::Until { quant, .. } => {
                    let q = if *quant == PathQuant::E { "E" } else { "A" };
                    Some((format!("`{q}[ .. U .. ]`"), e.span))
                }
                ExprKind::LeadsTo { .. } => Some(("`-->`".to_string(), e.span)),
                _ => None,
            };
            if let Some((what, span)) = what {
                return Err(ParseError {
                    span,
                    message: format!(
                        "a path formula ({what}) inside an operand of `-->` must be put in parentheses: \
                         both sides of `-->` are state formulas"
                    ),
                });
            }
            match &e.kind {
                ExprKind::Index { base, index } => todo.extend([&**base, &**index]),
                ExprKind::Unary { arg, .. } => todo.push(arg),
                ExprKind::Binary { lhs, rhs, .. } => todo.extend([&**lhs, &**rhs]),
                ExprKind::Cond { cond, then, other } => todo.extend([&**cond, &**then, &**other]),
                ExprKind::Quant { lo, hi, body, .. } => todo.extend([&**lo, &**hi, &**body]),
                _ => {}
            }
        }
        Ok(())
    }

    /// The path operator written at `start` (`E<>`, `A[]`, `AF`, ...) and its span.
    fn path_token(&self, start: usize) -> (String, Span) {
        let span = self.token_span(start);
        (self.text[span.start..span.end].to_string(), span)
    }

    /// One action of an update list: `x = e`, `a[i] += e`, `n++`, `--n`, `f(x)`.
    pub(super) fn action(&self, pair: Pair<'t, Rule>) -> R<Action> {
        let span = span_of(&pair);
        let inner = pair.into_inner().next().ok_or_else(|| internal(span))?;
        let kids = children(inner.clone());
        match inner.as_rule() {
            Rule::call => Ok(Action::Call(self.applied(inner, Depth::default())?.expr)),
            Rule::step_pre | Rule::step_post => {
                let (step, target) = match inner.as_rule() {
                    Rule::step_pre => (nth(&kids, 0, span)?, nth(&kids, 1, span)?),
                    _ => (nth(&kids, 1, span)?, nth(&kids, 0, span)?),
                };
                let op = AssignOp::With(if step.as_rule() == Rule::incr { BinOp::Add } else { BinOp::Sub });
                let one = Expr { kind: ExprKind::Int(1), span: span_of(&step), paren: false };
                Ok(Action::Assign(Update { target: self.lvalue(target)?, op, value: one, span }))
            }
            _ => {
                let target = self.lvalue(nth(&kids, 0, span)?)?;
                let op = assign_op(nth(&kids, 1, span)?.as_str());
                let value = self.sequence(nth(&kids, 2, span)?, Depth::default())?.expr;
                Ok(Action::Assign(Update { target, op, value, span }))
            }
        }
    }

    /// `v` or `a[i][j]`.
    pub(super) fn lvalue(&self, pair: Pair<'t, Rule>) -> R<Expr> {
        let span = span_of(&pair);
        let mut kids = children(pair).into_iter();
        let name = kids.next().ok_or_else(|| internal(span))?;
        let mut node = leaf(ExprKind::Name(name.as_str().to_string()), span_of(&name));
        for index in kids {
            node = self.index(node, index, Depth::default())?;
        }
        Ok(node.expr)
    }

    pub(super) fn select(&self, pair: Pair<'t, Rule>) -> R<Select> {
        let span = span_of(&pair);
        let kids = children(pair);
        let var = ident(&nth(&kids, 0, span)?);
        let lo = self.sequence(nth(&kids, 1, span)?, Depth::default())?.expr;
        let hi = self.sequence(nth(&kids, 2, span)?, Depth::default())?.expr;
        Ok(Select { var, lo, hi, span })
    }

    pub(super) fn sync(&self, pairs: Vec<Pair<'t, Rule>>) -> R<Sync> {
        let whole = Span::new(0, self.text.len());
        let channel = ident(&nth(&pairs, 0, whole)?);
        let last = pairs.last().cloned().ok_or_else(|| internal(whole))?;
        let dir = match last.as_rule() {
            Rule::send => SyncDir::Send,
            Rule::recv => SyncDir::Receive,
            _ => SyncDir::Party,
        };
        let mut indices = Vec::new();
        for p in pairs.iter().skip(1).filter(|p| p.as_rule() == Rule::index) {
            let inner = p.clone().into_inner().next().ok_or_else(|| internal(whole))?;
            indices.push(self.nested(inner, Depth::default(), p.as_span().start())?.expr);
        }
        let span = channel.span.to(span_of(&last));
        Ok(Sync { channel, indices, dir, span })
    }

    pub(super) fn system_entry(&self, pairs: Vec<Pair<'t, Rule>>) -> R<SystemEntry> {
        let whole = Span::new(0, self.text.len());
        let mut it = pairs.into_iter().peekable();
        let alias = match it.next_if(|p| p.as_rule() == Rule::alias) {
            Some(a) => Some(ident(&nth(&children(a), 0, whole)?)),
            None => None,
        };
        let template = ident(&it.next().ok_or_else(|| internal(whole))?);
        let mut end = template.span;
        let mut args = Vec::new();
        if let Some(list) = it.next_if(|p| p.as_rule() == Rule::sys_args) {
            end = span_of(&list);
            let open = list.as_span().start();
            for arg in children(list) {
                let arg_span = span_of(&arg);
                let mut parts = children(arg).into_iter();
                let lo = parts.next().ok_or_else(|| internal(arg_span))?;
                let lo = self.nested(lo, Depth::default(), open)?.expr;
                args.push(match parts.next() {
                    Some(hi) => SystemArg::Range(lo, self.nested(hi, Depth::default(), open)?.expr),
                    None => SystemArg::Single(lo),
                });
            }
        }
        let start = alias.as_ref().map_or(template.span, |a| a.span);
        Ok(SystemEntry { alias, template, args, span: start.to(end) })
    }
}
