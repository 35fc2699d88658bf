//! The `system` list: instances of templates, in order.

use crate::model::check::Checker;
use crate::model::check::globals::Globals;
use crate::model::decl::ModelDecl;
use crate::model::types::Instance;
use crate::syntax::ast::SystemArg;
use crate::syntax::parse::parse_system_entry;

/// Most instances one model may have.
const MAX_INSTANCES: usize = 1 << 16;

impl Checker<'_> {
    pub(super) fn labels_vs_globals(&mut self, decl: &ModelDecl) {
        for t in &decl.templates {
            for l in &t.locations {
                for label in &l.labels {
                    if self.globals.contains_key(&label.text) {
                        self.r
                            .error(
                                label.pos,
                                "duplicate-name",
                                format!("the label `{}` clashes with a global name", label.text),
                            )
                            .hint = Some(
                            "a label is true where some instance is in a location carrying it; rename it or the global"
                                .into(),
                        );
                    }
                }
            }
        }
    }

    pub(super) fn system(&mut self, decl: &ModelDecl) {
        let globals = self.globals.clone();
        let scope = Globals(&globals);
        for node in &decl.system {
            let Some(entry) = self.parse(node, "a system entry", parse_system_entry) else { continue };
            let pos = node.pos_in_text(entry.template.span.start);
            let Some(tid) = self.model.templates.iter().position(|t| t.name == entry.template.name) else {
                let names: Vec<&str> = self.model.templates.iter().map(|t| t.name.as_str()).collect();
                let hint = match crate::model::reader::closest(&entry.template.name, &names) {
                    Some(best) => format!("did you mean `{best}`?"),
                    None => format!("the templates are: {}", names.join(", ")),
                };
                self.r.error(pos, "unknown-template", format!("unknown template `{}`", entry.template.name)).hint =
                    Some(hint);
                continue;
            };
            let arity = self.model.templates[tid].params.len();
            if entry.args.len() != arity {
                let name = &entry.template.name;
                let d = self.r.error(
                    pos,
                    "wrong-arity",
                    format!("template `{name}` takes {arity} parameter(s), {} given", entry.args.len()),
                );
                if arity > 0 && entry.args.is_empty() {
                    d.hint = Some(format!("name its instances with arguments, e.g. `{name}(1..N)`"));
                }
                continue;
            }
            let mut ranges = Vec::new();
            for a in &entry.args {
                let (lo, hi, at) = match a {
                    SystemArg::Single(e) => {
                        let v = self.const_int(node, e, &scope);
                        (v, v, e.span.start)
                    }
                    SystemArg::Range(lo, hi) => {
                        (self.const_int(node, lo, &scope), self.const_int(node, hi, &scope), lo.span.start)
                    }
                };
                let (Some(lo), Some(hi)) = (lo, hi) else { continue };
                if lo > hi {
                    self.r.error(node.pos_in_text(at), "empty-range", format!("the range {lo}..{hi} is empty")).hint =
                        Some("ranges are inclusive `lo..hi` with lo <= hi".into());
                    continue;
                }
                ranges.push((lo, hi));
            }
            if ranges.len() != arity {
                continue;
            }
            let count = ranges.iter().try_fold(1u64, |n, (lo, hi)| n.checked_mul((hi - lo + 1) as u64));
            if count.is_none_or(|n| n as usize + self.model.instances.len() > MAX_INSTANCES) {
                self.r.error(node.pos, "too-large", format!("more than {MAX_INSTANCES} instances"));
                continue;
            }
            if entry.alias.is_some() && count != Some(1) {
                self.r.error(node.pos, "bad-alias", "an alias names one instance; this entry makes several");
                continue;
            }
            // Every combination, the last argument varying fastest.
            let mut args: Vec<i64> = ranges.iter().map(|r| r.0).collect();
            loop {
                let name = match &entry.alias {
                    Some(a) => a.name.clone(),
                    None if arity == 0 => entry.template.name.clone(),
                    None => format!(
                        "{}({})",
                        entry.template.name,
                        args.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ")
                    ),
                };
                self.instance(Instance { name, template: tid, args: args.clone(), pos: node.pos });
                let mut k = args.len();
                loop {
                    if k == 0 {
                        break;
                    }
                    k -= 1;
                    if args[k] < ranges[k].1 {
                        args[k] += 1;
                        break;
                    }
                    args[k] = ranges[k].0;
                }
                if args.iter().zip(&ranges).all(|(a, r)| *a == r.0) {
                    break;
                }
            }
        }
        if self.model.instances.is_empty() && !decl.system.is_empty() {
            return;
        }
        if decl.system.is_empty()
            && let Some(n) = &decl.name
        {
            self.r.error(n.pos, "empty-system", "the `system` list is empty: nothing to check");
        }
    }

    fn instance(&mut self, inst: Instance) {
        if self.model.instances.iter().any(|i| i.name == inst.name) {
            self.r.error(
                inst.pos,
                "duplicate-instance",
                format!("the instance `{}` appears twice in `system`", inst.name),
            );
            return;
        }
        let vars = self.model.templates[inst.template].vars.clone();
        for v in &vars {
            self.check_init(v, &inst.args);
        }
        self.model.instances.push(inst);
    }
}
