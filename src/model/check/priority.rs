//! `priorities:` (FORMAT.md section 1, "Priorities"): UPPAAL's channel
//! priorities and process priorities, written as UPPAAL writes them, `<`
//! separating levels from the lowest, `,` the members of one level.

use crate::diag::Pos;
use crate::model::types::Priorities;
use crate::syntax::yaml::Node;

/// One member of a level and where it starts.
struct Member {
    text: String,
    pos: Pos,
}

impl super::Checker<'_> {
    /// Checks `priorities:` and records its levels in the model.
    pub(super) fn priorities(&mut self, node: &Node) {
        let mut m = self.r.map(node, "`priorities`");
        let channels = m.get("channels");
        let processes = m.get("processes");
        self.r.finish(m, "`priorities`");
        if let (Some(_), Some(p)) = (channels, processes) {
            self.r.error(p.pos, "unsupported", "not supported yet: channel and process priorities in one model");
            return;
        }
        let mut prio = Priorities {
            channels: self.model.channels.iter().map(|c| vec![0; c.size.unwrap_or(1)]).collect(),
            internal: 0,
            processes: vec![0; self.model.instances.len()],
        };
        let mut ok = true;
        if let Some(n) = channels {
            let mut listed: Vec<Vec<Option<i32>>> = prio.channels.iter().map(|c| vec![None; c.len()]).collect();
            for (level, members) in self.levels(n, "channel priorities").into_iter().enumerate() {
                for m in members {
                    if m.text == "default" {
                        prio.internal = level as i32;
                    } else {
                        ok &= self.channel_level(&m, level as i32, &mut listed);
                    }
                }
            }
            // Channels not listed have the `default` level (the lowest
            // when `default` is not listed either).
            prio.channels = listed.iter().map(|c| c.iter().map(|l| l.unwrap_or(prio.internal)).collect()).collect();
        }
        if let Some(n) = processes {
            for (level, members) in self.levels(n, "process priorities").into_iter().enumerate() {
                for m in members {
                    ok &= self.process_level(&m, level as i32, &mut prio);
                }
            }
        }
        if ok {
            self.model.priorities = Some(prio);
        }
    }

    /// The levels of `a, b < c`, lowest first.
    fn levels(&mut self, node: &Node, what: &str) -> Vec<Vec<Member>> {
        let Some(text) = self.r.scalar(node, &format!("`{what}`")) else { return Vec::new() };
        let mut levels = vec![Vec::new()];
        let mut depth = 0i32;
        let mut start = 0;
        let finish = |levels: &mut Vec<Vec<Member>>, start: usize, end: usize| {
            let raw = &text[start..end];
            let lead = raw.len() - raw.trim_start().len();
            let pos = node.pos_in_text(start + lead);
            levels.last_mut().expect("one level").push(Member { text: raw.trim().to_string(), pos });
        };
        for (k, ch) in text.char_indices() {
            match ch {
                '[' | '(' => depth += 1,
                ']' | ')' => depth -= 1,
                ',' | '<' if depth == 0 => {
                    finish(&mut levels, start, k);
                    if ch == '<' {
                        levels.push(Vec::new());
                    }
                    start = k + 1;
                }
                _ => {}
            }
        }
        finish(&mut levels, start, text.len());
        levels
    }

    /// A channel, or one element of a channel array (constant indices),
    /// given `level` in `listed`; false after reporting a problem.
    fn channel_level(&mut self, m: &Member, level: i32, listed: &mut [Vec<Option<i32>>]) -> bool {
        let (name, rest) = m.text.split_once('[').map_or((m.text.as_str(), ""), |(n, r)| (n.trim(), r));
        let Some(c) = self.model.channels.iter().position(|c| c.name == name) else {
            self.r.error(m.pos, "unknown-name", format!("`{}` is not a channel", m.text));
            return false;
        };
        let dims = self.model.channels[c].dims.clone();
        let mut flat = 0usize;
        let mut count = 0;
        if !rest.is_empty() {
            for (part, &n) in rest.trim_end_matches(']').split("][").zip(dims.iter().chain(std::iter::repeat(&0))) {
                let part = part.trim();
                let value = part.parse::<i64>().ok().or_else(|| self.model.constants.get(part).copied());
                let Some(i) = value else {
                    self.r.error(m.pos, "bad-value", format!("`{part}` in `{}` is not an integer constant", m.text));
                    return false;
                };
                if i < 0 || i >= n as i64 {
                    self.r.error(m.pos, "bad-value", format!("index {i} out of bounds in `{}`", m.text));
                    return false;
                }
                flat = flat * n + i as usize;
                count += 1;
            }
        }
        if count == 0 {
            listed[c].iter_mut().for_each(|l| *l = Some(level));
        } else if count == dims.len() {
            listed[c][flat] = Some(level);
        } else {
            self.r.error(m.pos, "bad-value", format!("`{}` needs {} index(es)", m.text, dims.len()));
            return false;
        }
        true
    }

    /// An instance, or a template standing for all its instances; false
    /// after reporting a problem.
    fn process_level(&mut self, m: &Member, level: i32, prio: &mut Priorities) -> bool {
        let insts = &self.model.instances;
        let named: Vec<usize> = match insts.iter().position(|i| i.name == m.text) {
            Some(i) => vec![i],
            None => match self.model.templates.iter().position(|t| t.name == m.text) {
                // The instances named after the template (`T`, `T(1)`), not
                // those given an alias.
                Some(t) => (0..insts.len())
                    .filter(|&i| insts[i].template == t)
                    .filter(|&i| insts[i].name == m.text || insts[i].name.starts_with(&format!("{}(", m.text)))
                    .collect(),
                None => Vec::new(),
            },
        };
        if named.is_empty() {
            self.r.error(
                m.pos,
                "unknown-name",
                format!("`{}` is neither an instance nor a template of `system`", m.text),
            );
            return false;
        }
        for i in named {
            prio.processes[i] = level;
        }
        true
    }
}
