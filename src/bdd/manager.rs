//! A reduced ordered BDD package: hash-consed nodes, one memo table for
//! `ite`, existential quantification and order-preserving renaming.
//!
//! Nodes are never freed: a manager lives for one search, and the sets it
//! keeps (one per symbolic state) share their nodes. Variable `v` is tested
//! above `w` when `v < w`.

use rustc_hash::FxHashMap;

/// A node id: [`FALSE`], [`TRUE`], or an internal node of one manager.
pub type Bdd = u32;
pub const FALSE: Bdd = 0;
pub const TRUE: Bdd = 1;

/// The variable of the terminals: below every real variable.
const LEAF: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Node {
    var: u32,
    lo: Bdd,
    hi: Bdd,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Memo {
    Ite(Bdd, Bdd, Bdd),
    Exists(Bdd, Bdd),
}

pub struct Manager {
    nodes: Vec<Node>,
    unique: FxHashMap<Node, Bdd>,
    memo: FxHashMap<Memo, Bdd>,
}

impl Default for Manager {
    fn default() -> Self {
        Self::new()
    }
}

impl Manager {
    pub fn new() -> Self {
        let leaf = |b| Node { var: LEAF, lo: b, hi: b };
        Manager { nodes: vec![leaf(FALSE), leaf(TRUE)], unique: FxHashMap::default(), memo: FxHashMap::default() }
    }

    /// Nodes made so far (terminals included): the manager's size.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes held by the node table and its indexes (an estimate).
    pub fn bytes(&self) -> usize {
        self.nodes.capacity() * 12 + (self.unique.capacity() + self.memo.capacity()) * 24
    }

    fn mk(&mut self, var: u32, lo: Bdd, hi: Bdd) -> Bdd {
        if lo == hi {
            return lo;
        }
        let n = Node { var, lo, hi };
        if let Some(&id) = self.unique.get(&n) {
            return id;
        }
        let id = self.nodes.len() as Bdd;
        self.nodes.push(n);
        self.unique.insert(n, id);
        id
    }

    /// The variable `v` itself.
    pub fn var(&mut self, v: u32) -> Bdd {
        self.mk(v, FALSE, TRUE)
    }

    pub fn top(&self, f: Bdd) -> u32 {
        self.nodes[f as usize].var
    }

    /// The cofactors of `f` for variable `v` (`f` itself when `v` is not its top).
    fn cofactors(&self, f: Bdd, v: u32) -> (Bdd, Bdd) {
        let n = self.nodes[f as usize];
        if n.var == v { (n.lo, n.hi) } else { (f, f) }
    }

    pub fn ite(&mut self, f: Bdd, g: Bdd, h: Bdd) -> Bdd {
        match (f, g, h) {
            (TRUE, _, _) => return g,
            (FALSE, _, _) => return h,
            (_, TRUE, FALSE) => return f,
            _ if g == h => return g,
            _ => {}
        }
        let key = Memo::Ite(f, g, h);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        let v = self.top(f).min(self.top(g)).min(self.top(h));
        let (f0, f1) = self.cofactors(f, v);
        let (g0, g1) = self.cofactors(g, v);
        let (h0, h1) = self.cofactors(h, v);
        let lo = self.ite(f0, g0, h0);
        let hi = self.ite(f1, g1, h1);
        let r = self.mk(v, lo, hi);
        self.memo.insert(key, r);
        r
    }

    pub fn not(&mut self, f: Bdd) -> Bdd {
        self.ite(f, FALSE, TRUE)
    }

    pub fn and(&mut self, f: Bdd, g: Bdd) -> Bdd {
        self.ite(f, g, FALSE)
    }

    pub fn or(&mut self, f: Bdd, g: Bdd) -> Bdd {
        self.ite(f, TRUE, g)
    }

    pub fn xor(&mut self, f: Bdd, g: Bdd) -> Bdd {
        let ng = self.not(g);
        self.ite(f, ng, g)
    }

    pub fn iff(&mut self, f: Bdd, g: Bdd) -> Bdd {
        let ng = self.not(g);
        self.ite(f, g, ng)
    }

    /// `f ⊆ g` as sets of valuations.
    pub fn implies(&mut self, f: Bdd, g: Bdd) -> bool {
        let ng = self.not(g);
        self.and(f, ng) == FALSE
    }

    /// The conjunction of the variables `vars`: a quantification cube.
    pub fn cube(&mut self, vars: &[u32]) -> Bdd {
        let mut sorted = vars.to_vec();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        sorted.into_iter().fold(TRUE, |acc, v| self.mk(v, FALSE, acc))
    }

    /// `∃ cube. f`.
    pub fn exists(&mut self, f: Bdd, cube: Bdd) -> Bdd {
        if f <= TRUE || cube == TRUE {
            return f;
        }
        let (fv, mut c) = (self.top(f), cube);
        while c != TRUE && self.top(c) < fv {
            c = self.nodes[c as usize].hi;
        }
        if c == TRUE {
            return f;
        }
        let key = Memo::Exists(f, c);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        let Node { lo, hi, .. } = self.nodes[f as usize];
        let r = if self.top(c) == fv {
            let rest = self.nodes[c as usize].hi;
            let l = self.exists(lo, rest);
            if l == TRUE {
                TRUE
            } else {
                let h = self.exists(hi, rest);
                self.or(l, h)
            }
        } else {
            let l = self.exists(lo, c);
            let h = self.exists(hi, c);
            self.mk(fv, l, h)
        };
        self.memo.insert(key, r);
        r
    }

    /// `f` with every variable `v` replaced by `map(v)`; `map` must keep
    /// the order of the variables `f` depends on.
    pub fn rename(&mut self, f: Bdd, map: &impl Fn(u32) -> u32) -> Bdd {
        let mut done = FxHashMap::default();
        self.rename_rec(f, map, &mut done)
    }

    fn rename_rec(&mut self, f: Bdd, map: &impl Fn(u32) -> u32, done: &mut FxHashMap<Bdd, Bdd>) -> Bdd {
        if f <= TRUE {
            return f;
        }
        if let Some(&r) = done.get(&f) {
            return r;
        }
        let Node { var, lo, hi } = self.nodes[f as usize];
        let l = self.rename_rec(lo, map, done);
        let h = self.rename_rec(hi, map, done);
        let r = self.mk(map(var), l, h);
        done.insert(f, r);
        r
    }

    /// One satisfying assignment of `f` as `(variable, value)` pairs along
    /// one path (variables off the path are free), or `None` when `f` is empty.
    pub fn pick(&self, f: Bdd) -> Option<Vec<(u32, bool)>> {
        if f == FALSE {
            return None;
        }
        let mut path = Vec::new();
        let mut n = f;
        while n > TRUE {
            let Node { var, lo, hi } = self.nodes[n as usize];
            let take_hi = lo == FALSE;
            path.push((var, take_hi));
            n = if take_hi { hi } else { lo };
        }
        Some(path)
    }

    /// Whether the total assignment `value` (indexed by variable) is in `f`.
    pub fn contains(&self, f: Bdd, value: impl Fn(u32) -> bool) -> bool {
        let mut n = f;
        while n > TRUE {
            let Node { var, lo, hi } = self.nodes[n as usize];
            n = if value(var) { hi } else { lo };
        }
        n == TRUE
    }
}
