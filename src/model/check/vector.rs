//! Synchronisation vectors (`kind: vector`, TChecker's `sync` declarations):
//! their parties resolved to instances, and the rules their edges follow.
//!
//! A step on a vector takes one enabled edge of every strong party and of
//! every weak party that has one, in the order of `parties` (the order their
//! updates run). An instance that is no party never takes the vector's
//! edges, so having such edges is an error rather than dead code. A weak
//! party joins when an edge's data guard holds; with a clock guard, joining
//! would depend on the zone (the split of broadcast receivers), which
//! TChecker forbids and kairos does not do yet.

use crate::model::check::Checker;
use crate::model::decl::{ChanKind, ModelDecl};
use crate::model::reader::closest;
use crate::model::types::Party;

impl Checker<'_> {
    pub(super) fn vectors(&mut self, decl: &ModelDecl) {
        for ch in decl.channels.iter().filter(|c| c.kind == ChanKind::Vector) {
            let Some(id) = self.model.channels.iter().position(|c| c.name == ch.name.text) else { continue };
            let pos = ch.name.pos;
            if ch.urgent {
                self.r.error(pos, "unsupported", "not supported yet: an urgent synchronisation vector");
                continue;
            }
            if ch.size.is_some() {
                self.r.error(pos, "unsupported", "not supported yet: an array of synchronisation vectors");
                continue;
            }
            let mut parties: Vec<Party> = Vec::new();
            for node in &ch.parties {
                let Some(text) = self.r.scalar(node, "a party (an instance's name)") else { continue };
                let (name, weak) = match text.trim().strip_suffix('?') {
                    Some(name) => (name.trim(), true),
                    None => (text.trim(), false),
                };
                let Some(instance) = self.model.instances.iter().position(|i| i.name == name) else {
                    let names: Vec<&str> = self.model.instances.iter().map(|i| i.name.as_str()).collect();
                    let hint = match closest(name, &names) {
                        Some(best) => format!("did you mean `{best}`?"),
                        None => format!("the instances are: {}", names.join(", ")),
                    };
                    self.r.error(node.pos, "unknown-instance", format!("no instance `{name}` in `system`")).hint =
                        Some(hint);
                    continue;
                };
                if parties.iter().any(|p| p.instance == instance) {
                    self.r.error(
                        node.pos,
                        "duplicate-party",
                        format!("`{name}` is a party of `{}` twice", ch.name.text),
                    );
                    continue;
                }
                parties.push(Party { instance, weak });
            }
            if ch.parties.len() < 2 {
                self.r
                    .error(pos, "bad-vector", format!("the vector `{}` needs at least two `parties`", ch.name.text))
                    .hint = Some("list the instances that synchronise, e.g. `parties: [P, Q, \"R?\"]`".into());
                continue;
            }
            self.vector_edges(id, &parties);
            self.model.channels[id].parties = parties;
        }
    }

    /// The edges on vector `id`: only parties have them, and a weak party's
    /// carry no clock guard.
    fn vector_edges(&mut self, id: usize, parties: &[Party]) {
        for (k, inst) in self.model.instances.iter().enumerate() {
            let party = parties.iter().find(|p| p.instance == k);
            for e in &self.model.templates[inst.template].edges {
                if e.sync.as_ref().is_none_or(|s| s.channel != id) {
                    continue;
                }
                let channel = &self.model.channels[id].name;
                match party {
                    None => {
                        self.r
                            .error(
                                e.pos,
                                "not-a-party",
                                format!(
                                    "`{}` has an edge on the vector `{channel}` but is not one of its parties",
                                    inst.name
                                ),
                            )
                            .hint = Some(format!("add `{}` to the `parties` of `{channel}`", inst.name));
                        return;
                    }
                    Some(p) if p.weak && e.guard.iter().any(|c| c.lin.iter().any(|a| !a.terms.is_empty())) => {
                        self.r.error(
                            e.pos,
                            "unsupported",
                            format!(
                                "not supported yet: a clock guard on an edge of `{}`, a weak party of `{channel}`",
                                inst.name
                            ),
                        );
                        return;
                    }
                    Some(_) => {}
                }
            }
        }
    }
}
