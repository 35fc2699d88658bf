//! From pest pairs to function definitions and their statements.

use pest::iterators::Pair;

use super::Rule;
use super::build::{Builder, Depth, children, ident, internal, nth, span_of};
use crate::syntax::ast::{Action, Expr, Function, Init, LocalVar, Param, ParseError, Stmt, StmtKind, ValueType};

type R<T> = Result<T, ParseError>;

impl<'t> Builder<'t> {
    pub(super) fn function(&self, pair: Pair<'t, Rule>) -> R<Function> {
        let span = span_of(&pair);
        let kids = children(pair);
        let ret = self.ret_type(nth(&kids, 0, span)?)?;
        let name = ident(&nth(&kids, 1, span)?);
        let params = children(nth(&kids, 2, span)?).into_iter().map(|p| self.param(p)).collect::<R<_>>()?;
        let body = self.block(nth(&kids, 3, span)?)?;
        Ok(Function { ret, name, params, body, span })
    }

    fn ret_type(&self, pair: Pair<'t, Rule>) -> R<Option<ValueType>> {
        let span = span_of(&pair);
        let inner = pair.into_inner().next().ok_or_else(|| internal(span))?;
        match inner.as_rule() {
            Rule::ty_void => Ok(None),
            _ => self.value_type(inner).map(Some),
        }
    }

    fn value_type(&self, pair: Pair<'t, Rule>) -> R<ValueType> {
        let span = span_of(&pair);
        let kids = children(pair);
        match nth(&kids, 0, span)?.as_rule() {
            Rule::ty_bool => Ok(ValueType::Bool),
            _ => match kids.get(1) {
                None => Ok(ValueType::Int(None)),
                Some(range) => {
                    let bounds = children(range.clone());
                    let lo = self.expr(nth(&bounds, 0, span)?)?;
                    let hi = self.expr(nth(&bounds, 1, span)?)?;
                    Ok(ValueType::Int(Some(Box::new((lo, hi)))))
                }
            },
        }
    }

    fn param(&self, pair: Pair<'t, Rule>) -> R<Param> {
        let span = span_of(&pair);
        let kids = children(pair);
        let ty = self.value_type(nth(&kids, 0, span)?)?;
        let by_ref = kids.iter().any(|k| k.as_rule() == Rule::by_ref);
        let name = ident(kids.iter().find(|k| k.as_rule() == Rule::name).ok_or_else(|| internal(span))?);
        let dims = self.dims(&kids)?;
        Ok(Param { ty, by_ref, name, dims })
    }

    /// The sizes `[N][M]` among `kids`.
    fn dims(&self, kids: &[Pair<'t, Rule>]) -> R<Vec<Expr>> {
        kids.iter()
            .filter(|k| k.as_rule() == Rule::index)
            .map(|k| {
                let span = span_of(k);
                self.expr(nth(&children(k.clone()), 0, span)?)
            })
            .collect()
    }

    fn init(&self, pair: Pair<'t, Rule>) -> R<Init> {
        let span = span_of(&pair);
        let inner = pair.into_inner().next().ok_or_else(|| internal(span))?;
        if inner.as_rule() == Rule::array_init {
            let items = children(inner).into_iter().map(|p| self.init(p)).collect::<R<_>>()?;
            return Ok(Init::List(items, span));
        }
        Ok(Init::Value(self.expr(inner)?))
    }

    fn expr(&self, pair: Pair<'t, Rule>) -> R<Expr> {
        Ok(self.sequence(pair, Depth::default())?.expr)
    }

    fn block(&self, pair: Pair<'t, Rule>) -> R<Vec<Stmt>> {
        children(pair).into_iter().map(|s| self.stmt(s)).collect()
    }

    fn actions(&self, pairs: Vec<Pair<'t, Rule>>) -> R<Vec<Action>> {
        pairs.into_iter().filter(|p| p.as_rule() == Rule::update).map(|p| self.action(p)).collect()
    }

    /// The first part of `for (...)`: declarations or actions.
    fn for_init(&self, pair: Pair<'t, Rule>) -> R<Stmt> {
        let span = span_of(&pair);
        let kids = children(pair);
        if kids.first().is_some_and(|k| k.as_rule() == Rule::value_ty) {
            return self.local_decl(kids, span);
        }
        Ok(Stmt { kind: StmtKind::Actions(self.actions(kids)?), span })
    }

    fn local_decl(&self, kids: Vec<Pair<'t, Rule>>, span: crate::syntax::ast::Span) -> R<Stmt> {
        let mut it = kids.into_iter();
        let ty = self.value_type(it.next().ok_or_else(|| internal(span))?)?;
        let mut vars = Vec::new();
        for v in it {
            let parts = children(v);
            let name = ident(&nth(&parts, 0, span)?);
            let dims = self.dims(&parts)?;
            let init = parts.iter().find(|p| p.as_rule() == Rule::init).cloned().map(|e| self.init(e)).transpose()?;
            vars.push(LocalVar { name, dims, init });
        }
        Ok(Stmt { kind: StmtKind::Local { ty, vars }, span })
    }

    /// A `stmt` pair.
    fn stmt(&self, pair: Pair<'t, Rule>) -> R<Stmt> {
        let span = span_of(&pair);
        let inner = pair.into_inner().next().ok_or_else(|| internal(span))?;
        let rule = inner.as_rule();
        let kids = children(inner);
        let boxed = |b: &Self, p: Pair<'t, Rule>| b.stmt(p).map(Box::new);
        let kind = match rule {
            Rule::block => StmtKind::Block(kids.into_iter().map(|s| self.stmt(s)).collect::<R<_>>()?),
            Rule::if_stmt => StmtKind::If {
                cond: self.expr(nth(&kids, 0, span)?)?,
                then: boxed(self, nth(&kids, 1, span)?)?,
                other: kids.get(2).cloned().map(|p| boxed(self, p)).transpose()?,
            },
            Rule::while_stmt => {
                StmtKind::While { cond: self.expr(nth(&kids, 0, span)?)?, body: boxed(self, nth(&kids, 1, span)?)? }
            }
            Rule::do_stmt => {
                StmtKind::DoWhile { body: boxed(self, nth(&kids, 0, span)?)?, cond: self.expr(nth(&kids, 1, span)?)? }
            }
            Rule::for_stmt => {
                let cond = children(nth(&kids, 1, span)?).into_iter().next().map(|e| self.expr(e)).transpose()?;
                StmtKind::For {
                    init: Box::new(self.for_init(nth(&kids, 0, span)?)?),
                    cond,
                    step: self.actions(children(nth(&kids, 2, span)?))?,
                    body: boxed(self, nth(&kids, 3, span)?)?,
                }
            }
            Rule::return_stmt => StmtKind::Return(kids.into_iter().next().map(|e| self.expr(e)).transpose()?),
            Rule::local_decl => return self.local_decl(kids, span),
            Rule::update_stmt => StmtKind::Actions(self.actions(kids)?),
            Rule::empty_stmt => StmtKind::Block(Vec::new()),
            _ => return Err(internal(span)),
        };
        Ok(Stmt { kind, span })
    }
}
