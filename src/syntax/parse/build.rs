//! From pest pairs to the AST: precedence with pest's Pratt parser, spans,
//! nesting limits, and the checks the grammar cannot express (calls without a
//! member, integer overflow, `-->` operands).

use std::sync::LazyLock;

use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};

use super::errors::{nesting_error, token_at};
use super::{MAX_NESTING, MAX_TREE_DEPTH, Rule};
use crate::syntax::ast::{
    AssignOp, BinOp, BoundOp, Expr, ExprKind, Ident, InstanceRef, ParseError, PathOp, PathQuant,
    Quantifier, Select, Span, Sync, SyncDir, SystemArg, SystemEntry, TimeBound, UnOp, Update,
};

type R<T> = Result<T, ParseError>;

/// An expression and the depth of its tree (a leaf is 1).
type Node = (Expr, usize);

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
const MAX_TOTAL: usize = 2 * MAX_NESTING;

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
    (Fix::Left, &[Rule::leadsto]), // not associative: checked in `infix`
    (Fix::Right, &[Rule::imply]),
    (Fix::Left, &[Rule::or]),
    (Fix::Left, &[Rule::and]),
    (Fix::Prefix, &[Rule::not]),
    (Fix::Right, &[Rule::cond_op]),
    (Fix::Left, &[Rule::lor]),
    (Fix::Left, &[Rule::land]),
    (Fix::Left, &[Rule::eq, Rule::ne]),
    (Fix::Left, &[Rule::lt, Rule::le, Rule::gt, Rule::ge]),
    (Fix::Left, &[Rule::add, Rule::sub]),
    (Fix::Left, &[Rule::mul, Rule::div, Rule::rem]),
    (Fix::Prefix, &[Rule::neg, Rule::bang]),
    (Fix::Postfix, &[Rule::index]),
];

/// The precedence pest's `PrattParser` gives to level `i` (it starts at 10 and
/// adds 10 per `op` call); `plan` mirrors its algorithm with these numbers.
fn prec(level: usize) -> u32 {
    10 * (level as u32 + 2)
}

fn op_info(rule: Rule) -> Option<(Fix, u32)> {
    LEVELS
        .iter()
        .enumerate()
        .find_map(|(i, (fix, rules))| rules.contains(&rule).then_some((*fix, prec(i))))
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

/// An error that the grammar should have made impossible.
pub(super) fn internal(span: Span) -> ParseError {
    ParseError { span, message: "internal parser error: unexpected syntax tree".to_string() }
}

fn span_of(pair: &Pair<'_, Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn ident(pair: &Pair<'_, Rule>) -> Ident {
    Ident { name: pair.as_str().to_string(), span: span_of(pair) }
}

fn leaf(kind: ExprKind, span: Span) -> Node {
    (Expr { kind, span, paren: false }, 1)
}

/// The children of a pair, without the punctuation rules (which exist only so
/// that error messages can name them).
fn children<'t>(pair: Pair<'t, Rule>) -> Vec<Pair<'t, Rule>> {
    pair.into_inner()
        .filter(|p| {
            !matches!(
                p.as_rule(),
                Rule::lparen | Rule::rparen | Rule::rbracket | Rule::colon | Rule::dotdot | Rule::comma | Rule::semi
            )
        })
        .collect()
}

/// The `i`-th child, or an internal error located at the parent.
fn nth<'t>(kids: &[Pair<'t, Rule>], i: usize, parent: Span) -> R<Pair<'t, Rule>> {
    kids.get(i).cloned().ok_or_else(|| internal(parent))
}

pub(super) struct Builder<'t> {
    text: &'t str,
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

    fn node(&self, kind: ExprKind, span: Span, depth: usize, at: Span) -> R<Node> {
        if depth > MAX_TREE_DEPTH {
            return Err(ParseError {
                span: at,
                message: format!(
                    "expression too deep: its syntax tree would have more than {MAX_TREE_DEPTH} levels \
                     (a very long chain of operators?); group parts of it in parentheses"
                ),
            });
        }
        Ok((Expr { kind, span, paren: false }, depth))
    }

    /// One level deeper, entering a bracket opened at `at`.
    fn deeper(&self, depth: Depth, at: usize) -> R<Depth> {
        let d = Depth { nest: depth.nest + 1, total: depth.total + 1 };
        self.check_depth(d, at)?;
        Ok(d)
    }

    fn check_depth(&self, d: Depth, at: usize) -> R<()> {
        let span = self.token_span(at);
        if d.nest > MAX_NESTING {
            return Err(nesting_error(span));
        }
        if d.total > MAX_TOTAL {
            return Err(ParseError {
                span,
                message: format!(
                    "expression nested too deeply (more than {MAX_TOTAL} levels of brackets and operators)"
                ),
            });
        }
        Ok(())
    }

    pub(super) fn top_sequence(&self, seq: Pair<'t, Rule>) -> R<Expr> {
        self.sequence(seq, Depth::default()).map(|(e, _)| e)
    }

    /// A sequence in brackets opened at `open`, in a context at depth `depth`.
    fn nested(&self, seq: Pair<'t, Rule>, depth: Depth, open: usize) -> R<Node> {
        let inner = self.deeper(depth, open)?;
        self.sequence(seq, inner)
    }

    /// An `expr` or `formula` pair: a flat sequence of operators and operands,
    /// in a context at depth `depth`.
    fn sequence(&self, seq: Pair<'t, Rule>, depth: Depth) -> R<Node> {
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
                self.postfix(lhs?, op, d)
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

    fn primary(&self, pair: Pair<'t, Rule>, depth: Depth) -> R<Node> {
        let span = span_of(&pair);
        match pair.as_rule() {
            Rule::int => match pair.as_str().parse::<i64>() {
                Ok(v) => Ok(leaf(ExprKind::Int(v), span)),
                Err(_) => Err(ParseError {
                    span,
                    message: format!(
                        "integer `{}` is too large: integers are 64-bit (at most {})",
                        pair.as_str(),
                        i64::MAX
                    ),
                }),
            },
            Rule::decimal => Ok(leaf(ExprKind::Decimal(pair.as_str().to_string()), span)),
            Rule::true_lit => Ok(leaf(ExprKind::Bool(true), span)),
            Rule::false_lit => Ok(leaf(ExprKind::Bool(false), span)),
            Rule::name => Ok(leaf(ExprKind::Name(pair.as_str().to_string()), span)),
            Rule::deadlock => Ok(leaf(ExprKind::Deadlock, span)),
            Rule::dotted => {
                let kids = children(pair);
                let template = ident(&nth(&kids, 0, span)?);
                let member = self.member_suffix(nth(&kids, 1, span)?, span)?;
                let instance = InstanceRef { span: template.span, template, args: None };
                Ok(leaf(ExprKind::Member { instance, member }, span))
            }
            Rule::applied => self.applied(pair, depth),
            Rule::paren | Rule::fparen => {
                let kids = children(pair);
                let (mut e, d) = self.nested(nth(&kids, 0, span)?, depth, span.start)?;
                e.paren = true;
                e.span = span;
                Ok((e, d))
            }
            Rule::until => self.until(pair, depth),
            _ => Err(internal(span)),
        }
    }

    fn member_suffix(&self, suffix: Pair<'t, Rule>, parent: Span) -> R<Ident> {
        let kids = children(suffix);
        Ok(ident(&nth(&kids, 0, parent)?))
    }

    /// `Train(1).on`; `p(i)` without a member is an error.
    fn applied(&self, pair: Pair<'t, Rule>, depth: Depth) -> R<Node> {
        let span = span_of(&pair);
        let kids = children(pair);
        let template = ident(&nth(&kids, 0, span)?);
        let call = nth(&kids, 1, span)?;
        let call_span = span_of(&call);
        let Some(suffix) = kids.get(2).cloned() else {
            let name = &template.name;
            return Err(ParseError {
                span,
                message: format!(
                    "`{name}(...)` must be followed by `.` and a member, as in `{name}(1).x`: \
                     arguments only select an instance of a template (there are no function calls)"
                ),
            });
        };
        let mut args = Vec::new();
        let mut tree = 1;
        for arg in children(call) {
            let (e, d) = self.nested(arg, depth, call_span.start)?;
            tree = tree.max(d + 1);
            args.push(e);
        }
        let member = self.member_suffix(suffix, span)?;
        let instance = InstanceRef { span: template.span.to(call_span), template, args: Some(args) };
        self.node(ExprKind::Member { instance, member }, span, tree, span)
    }

    /// `E[ p U q ]`, `A[ p U[<=5] q ]`.
    fn until(&self, pair: Pair<'t, Rule>, depth: Depth) -> R<Node> {
        let span = span_of(&pair);
        let kids = children(pair);
        let quant = match nth(&kids, 0, span)?.as_rule() {
            Rule::until_e => PathQuant::E,
            _ => PathQuant::A,
        };
        let (lhs, ld) = self.nested(nth(&kids, 1, span)?, depth, span.start)?;
        let mut rest = kids.iter().skip(3);
        let mut next = rest.next().cloned().ok_or_else(|| internal(span))?;
        let mut bound = None;
        let mut tree = ld;
        if next.as_rule() == Rule::bound {
            let (b, bd) = self.bound(next, depth)?;
            tree = tree.max(bd);
            bound = Some(b);
            next = rest.next().cloned().ok_or_else(|| internal(span))?;
        }
        let (rhs, rd) = self.nested(next, depth, span.start)?;
        let kind = ExprKind::Until { quant, bound, lhs: Box::new(lhs), rhs: Box::new(rhs) };
        self.node(kind, span, 1 + tree.max(rd), span)
    }

    /// `[<= n]`: the bound and the depth of its value.
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
        let (value, d) = self.nested(nth(&kids, 1, span)?, depth, span.start)?;
        Ok((TimeBound { op, value: Box::new(value), span }, d))
    }

    fn prefix(&self, op: Pair<'t, Rule>, depth: Depth, (arg, ad): Node) -> R<Node> {
        let op_span = span_of(&op);
        let span = op_span.to(arg.span);
        match op.as_rule() {
            Rule::not | Rule::bang => {
                self.node(ExprKind::Unary { op: UnOp::Not, arg: Box::new(arg) }, span, ad + 1, op_span)
            }
            Rule::neg => self.node(ExprKind::Unary { op: UnOp::Neg, arg: Box::new(arg) }, span, ad + 1, op_span),
            Rule::quant => {
                let kids = children(op.clone());
                let quant = match nth(&kids, 0, op_span)?.as_rule() {
                    Rule::forall_kw => Quantifier::Forall,
                    _ => Quantifier::Exists,
                };
                let var = ident(&nth(&kids, 1, op_span)?);
                let open = op
                    .clone()
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::lparen)
                    .map_or(op_span.start, |p| p.as_span().start());
                let (lo, lod) = self.nested(nth(&kids, 2, op_span)?, depth, open)?;
                let (hi, hid) = self.nested(nth(&kids, 3, op_span)?, depth, open)?;
                let kind =
                    ExprKind::Quant { quant, var, lo: Box::new(lo), hi: Box::new(hi), body: Box::new(arg) };
                self.node(kind, span, 1 + ad.max(lod).max(hid), op_span)
            }
            Rule::path_prefix => {
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
                let kind = ExprKind::Path { op: path, bound, arg: Box::new(arg) };
                self.node(kind, span, 1 + ad.max(bd), op_span)
            }
            _ => Err(internal(op_span)),
        }
    }

    fn postfix(&self, (base, bd): Node, op: Pair<'t, Rule>, depth: Depth) -> R<Node> {
        let op_span = span_of(&op);
        if op.as_rule() != Rule::index {
            return Err(internal(op_span));
        }
        let kids = children(op);
        let (index, id) = self.nested(nth(&kids, 0, op_span)?, depth, op_span.start)?;
        let span = base.span.to(op_span);
        let kind = ExprKind::Index { base: Box::new(base), index: Box::new(index) };
        self.node(kind, span, 1 + bd.max(id), op_span)
    }

    fn infix(&self, (lhs, ld): Node, op: Pair<'t, Rule>, depth: Depth, (rhs, rd): Node) -> R<Node> {
        let op_span = span_of(&op);
        let span = lhs.span.to(rhs.span);
        let tree = 1 + ld.max(rd);
        let bin = match op.as_rule() {
            Rule::cond_op => {
                let kids = children(op);
                let (then, td) = self.nested(nth(&kids, 0, op_span)?, depth, op_span.start)?;
                let kind = ExprKind::Cond { cond: Box::new(lhs), then: Box::new(then), other: Box::new(rhs) };
                return self.node(kind, span, tree.max(td + 1), op_span);
            }
            Rule::leadsto => {
                let arrow = Span::new(op_span.start, op_span.start + "-->".len());
                let (bound, bd) = match children(op).into_iter().next() {
                    Some(b) => {
                        let (b, d) = self.bound(b, depth)?;
                        (Some(b), d)
                    }
                    None => (None, 0),
                };
                self.check_leadsto(&lhs, &rhs, arrow)?;
                let kind = ExprKind::LeadsTo { bound, lhs: Box::new(lhs), rhs: Box::new(rhs) };
                return self.node(kind, span, tree.max(bd + 1), op_span);
            }
            Rule::imply => BinOp::Imply,
            Rule::or | Rule::lor => BinOp::Or,
            Rule::and | Rule::land => BinOp::And,
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
            _ => return Err(internal(op_span)),
        };
        let kind = ExprKind::Binary { op: bin, lhs: Box::new(lhs), rhs: Box::new(rhs) };
        self.node(kind, span, tree, op_span)
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
        let rest = self.text.get(start..).unwrap_or("");
        let q = &rest[..rest.len().min(1)];
        let after = rest.get(1..).unwrap_or("");
        if after.starts_with("<>") {
            return (format!("{q}<>"), Span::new(start, start + 3));
        }
        let trimmed = after.trim_start();
        if let Some(inner) = trimmed.strip_prefix('[') {
            let close = inner.trim_start();
            if close.starts_with(']') {
                let end = self.text.len() - close.len() + 1;
                return (format!("{q}[]"), Span::new(start, end));
            }
        }
        let span = self.token_span(start);
        (self.text[span.start..span.end].to_string(), span)
    }

    pub(super) fn update(&self, pair: Pair<'t, Rule>) -> R<Update> {
        let span = span_of(&pair);
        let kids = children(pair);
        let target = self.lvalue(nth(&kids, 0, span)?)?;
        let op = match nth(&kids, 1, span)?.as_rule() {
            Rule::add_assign => AssignOp::Add,
            Rule::sub_assign => AssignOp::Sub,
            _ => AssignOp::Set,
        };
        let (value, _) = self.sequence(nth(&kids, 2, span)?, Depth::default())?;
        Ok(Update { target, op, value, span })
    }

    /// `v` or `a[i][j]`.
    fn lvalue(&self, pair: Pair<'t, Rule>) -> R<Expr> {
        let span = span_of(&pair);
        let mut kids = children(pair).into_iter();
        let name = kids.next().ok_or_else(|| internal(span))?;
        let mut node = leaf(ExprKind::Name(name.as_str().to_string()), span_of(&name));
        for index in kids {
            node = self.postfix(node, index, Depth::default())?;
        }
        Ok(node.0)
    }

    pub(super) fn select(&self, pair: Pair<'t, Rule>) -> R<Select> {
        let span = span_of(&pair);
        let kids = children(pair);
        let var = ident(&nth(&kids, 0, span)?);
        let (lo, _) = self.sequence(nth(&kids, 1, span)?, Depth::default())?;
        let (hi, _) = self.sequence(nth(&kids, 2, span)?, Depth::default())?;
        Ok(Select { var, lo, hi, span })
    }

    pub(super) fn sync(&self, pairs: Vec<Pair<'t, Rule>>) -> R<Sync> {
        let whole = Span::new(0, self.text.len());
        let channel = ident(&nth(&pairs, 0, whole)?);
        let dir_pair = pairs.last().cloned().ok_or_else(|| internal(whole))?;
        let dir = match dir_pair.as_rule() {
            Rule::send => SyncDir::Send,
            Rule::recv => SyncDir::Receive,
            _ => return Err(internal(whole)),
        };
        let index = match pairs.get(1) {
            Some(p) if p.as_rule() == Rule::index => {
                let kids = children(p.clone());
                let (e, _) = self.nested(nth(&kids, 0, whole)?, Depth::default(), p.as_span().start())?;
                Some(e)
            }
            _ => None,
        };
        let span = channel.span.to(span_of(&dir_pair));
        Ok(Sync { channel, index, dir, span })
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
                let (lo, _) = self.nested(lo, Depth::default(), open)?;
                args.push(match parts.next() {
                    Some(hi) => SystemArg::Range(lo, self.nested(hi, Depth::default(), open)?.0),
                    None => SystemArg::Single(lo),
                });
            }
        }
        let start = alias.as_ref().map_or(template.span, |a| a.span);
        Ok(SystemEntry { alias, template, args, span: start.to(end) })
    }
}
