//! The declarations of a model or spec file as written: names and embedded
//! texts with their positions, before any resolution or typing.

use crate::model::reader::{MapReader, Name, Reader};
use crate::syntax::yaml::Node;

/// Embedded text (an expression, update, formula...) and where it stands.
pub type Text = Node;

#[derive(Clone, Debug)]
pub struct ModelDecl {
    pub name: Option<Name>,
    pub doc: Option<String>,
    pub constants: Vec<(Name, Text)>,
    pub clocks: Vec<Name>,
    /// Named types (`types:`): a range or `bool`, and a `size` for an array
    /// type; their `init` is always `Default`.
    pub types: Vec<VarDecl>,
    pub variables: Vec<VarDecl>,
    pub channels: Vec<ChanDecl>,
    pub parameters: Vec<ParamDecl>,
    pub continuous: Vec<ContDecl>,
    /// Function definitions, one block scalar each.
    pub functions: Vec<Text>,
    pub templates: Vec<TemplateDecl>,
    pub system: Vec<Text>,
    pub properties: Vec<PropertyDecl>,
    pub out_of_range: OutOfRange,
    /// `priorities:`, a mapping checked with the channels and instances.
    pub priorities: Option<Node>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutOfRange {
    /// A run-time error (verdict `error`, exit 4).
    #[default]
    Error,
    /// The step is disabled (TChecker's meaning).
    Disable,
}

#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant, reason = "a handful per model file, built once")]
pub enum VarType {
    /// `range: [lo, hi]`, inclusive.
    Int {
        lo: Text,
        hi: Text,
    },
    Bool,
    /// `type: NAME`, a type of `types:`.
    Named(Text),
}

#[derive(Clone, Debug)]
pub enum Init {
    /// The lower bound (`false` for bools).
    Default,
    /// `init: any`: every value of the range.
    Any(Text),
    /// One value (for every element of an array).
    Value(Text),
    /// One value per array element.
    List(Text, Vec<Text>),
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub name: Name,
    pub ty: VarType,
    pub size: Option<Text>,
    pub init: Init,
    /// `symbolic: true|false`: the variable's side of the `--data bdd` split.
    pub symbolic: Option<(bool, crate::diag::Pos)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChanKind {
    Binary,
    Broadcast,
    /// A synchronisation vector (TChecker's `sync`): its parties, instances
    /// named in `parties`, take one edge each in one step.
    Vector,
}

#[derive(Clone, Debug)]
pub struct ChanDecl {
    pub name: Name,
    pub kind: ChanKind,
    pub urgent: bool,
    pub size: Option<Text>,
    /// For a vector: the instances as written, `NAME` or `NAME?` (weak).
    pub parties: Vec<Text>,
}

/// A timing parameter: a rational left open, with optional inclusive bounds.
#[derive(Clone, Debug)]
pub struct ParamDecl {
    pub name: Name,
    pub min: Option<Text>,
    pub max: Option<Text>,
}

/// A continuous variable: `init` is one value or an interval.
#[derive(Clone, Debug)]
pub struct ContDecl {
    pub name: Name,
    pub init: Vec<Text>,
}

#[derive(Clone, Debug)]
pub struct TemplateDecl {
    pub name: Name,
    pub params: Vec<Name>,
    pub clocks: Vec<Name>,
    pub variables: Vec<VarDecl>,
    pub functions: Vec<Text>,
    pub initial: Option<Name>,
    pub locations: Vec<LocDecl>,
    pub edges: Vec<EdgeDecl>,
    /// Reserved for user observers (issue: liveness); parsed so it is not an
    /// unknown key, refused by the checker until then.
    pub observer: Option<(bool, crate::diag::Pos)>,
}

/// A rate: one value or an interval `[lo, hi]`.
#[derive(Clone, Debug)]
pub struct RateDecl {
    pub var: Name,
    pub values: Vec<Text>,
}

#[derive(Clone, Debug)]
pub struct LocDecl {
    pub name: Name,
    pub invariant: Option<Text>,
    pub urgent: bool,
    pub committed: bool,
    pub labels: Vec<Name>,
    pub rates: Vec<RateDecl>,
}

#[derive(Clone, Debug)]
pub struct EdgeDecl {
    pub pos: crate::diag::Pos,
    pub from: Option<Name>,
    pub to: Option<Name>,
    pub select: Option<Text>,
    pub guard: Option<Text>,
    pub sync: Option<Text>,
    pub update: Option<Text>,
}

#[derive(Clone, Debug)]
pub enum Expect {
    Bool(bool),
    /// A parameter constraint, for `synth` entries.
    Constraint(Text),
}

#[derive(Clone, Debug)]
pub struct PropertyDecl {
    pub pos: crate::diag::Pos,
    pub name: Option<Name>,
    pub formula: Text,
    /// A `synth:` entry rather than a `check:` one.
    pub synth: bool,
    pub expect: Option<Expect>,
    /// Where `expect:` is written (a `sup`/`inf` property takes none).
    pub expect_pos: Option<crate::diag::Pos>,
}

#[derive(Clone, Debug)]
pub struct SpecDecl {
    pub model: Option<(String, crate::diag::Pos)>,
    pub properties: Vec<PropertyDecl>,
}

impl Reader<'_> {
    pub fn model_decl(&mut self, root: &Node) -> ModelDecl {
        let mut m = self.map(root, "a model file");
        let name = match m.get("model") {
            Some(n) => self.scalar(n, "the model's name").map(|text| Name { text, pos: n.pos }),
            None => {
                self.error(root.pos, "missing-key", "a model file needs `model: NAME`").hint =
                    Some("add a first line like `model: my-model`".into());
                None
            }
        };
        let doc = m.get("doc").and_then(|n| self.scalar(n, "`doc`"));
        let constants = match m.get("constants") {
            Some(n) => {
                let mut c = self.map(n, "`constants`");

                c.rest().into_iter().filter_map(|(k, v)| Some((self.name(k, "constant name")?, v.clone()))).collect()
            }
            None => Vec::new(),
        };
        let clocks = m.get("clocks").map(|n| self.names(n, "clock name")).unwrap_or_default();
        let types = m.get("types").map(|n| self.variables(n, "type")).unwrap_or_default();
        let variables = m.get("variables").map(|n| self.variables(n, "variable")).unwrap_or_default();
        let channels = m.get("channels").map(|n| self.channels(n)).unwrap_or_default();
        let parameters = m.get("parameters").map(|n| self.parameters(n)).unwrap_or_default();
        let continuous = m.get("continuous").map(|n| self.continuous(n)).unwrap_or_default();
        let functions = m.get("functions").map(|n| self.seq(n, "`functions`").to_vec()).unwrap_or_default();
        let templates = match m.get("templates") {
            Some(n) => {
                let mut t = self.map(n, "`templates`");

                t.rest()
                    .into_iter()
                    .filter_map(|(k, v)| {
                        let name = self.name(k, "template name")?;
                        Some(self.template(name, v))
                    })
                    .collect()
            }
            None => {
                self.error(root.pos, "missing-key", "a model needs `templates:`");
                Vec::new()
            }
        };
        let system = match m.get("system") {
            Some(n) => self.seq(n, "`system`").to_vec(),
            None => {
                self.error(root.pos, "missing-key", "a model needs `system:`, the list of instances").hint =
                    Some("add e.g. `system: [Train(1..N), Gate]`".into());
                Vec::new()
            }
        };
        let properties = m.get("properties").map(|n| self.properties(n)).unwrap_or_default();
        let out_of_range = match m.get("out_of_range") {
            None => OutOfRange::Error,
            Some(n) => match self.scalar(n, "`out_of_range`").as_deref() {
                Some("error") | None => OutOfRange::Error,
                Some("disable") => OutOfRange::Disable,
                Some(other) => {
                    self.error(n.pos, "bad-value", format!("`out_of_range` is `error` or `disable`, not `{other}`"));
                    OutOfRange::Error
                }
            },
        };
        let priorities = m.get("priorities").cloned();
        self.finish(m, "a model file");
        ModelDecl {
            name,
            doc,
            constants,
            clocks,
            types,
            variables,
            channels,
            parameters,
            continuous,
            functions,
            templates,
            system,
            properties,
            out_of_range,
            priorities,
        }
    }

    pub fn spec_decl(&mut self, root: &Node) -> SpecDecl {
        let mut m = self.map(root, "a spec file");
        let model = match m.get("model") {
            Some(n) => self.scalar(n, "`model`").map(|s| (s, n.pos)),
            None => {
                self.error(root.pos, "missing-key", "a spec file needs `model: PATH` (relative to the spec file)");
                None
            }
        };
        let properties = match m.get("properties") {
            Some(n) => self.properties(n),
            None => {
                self.error(root.pos, "missing-key", "a spec file needs `properties:`");
                Vec::new()
            }
        };
        self.finish(m, "a spec file");
        SpecDecl { model, properties }
    }

    /// `variables:`, or `types:` when `what` is `"type"` (no `init`).
    fn variables(&mut self, node: &Node, what: &str) -> Vec<VarDecl> {
        let mut m = self.map(node, if what == "type" { "`types`" } else { "`variables`" });
        let mut out = Vec::new();
        for (k, v) in m.rest() {
            let Some(name) = self.name(k, &format!("{what} name")) else {
                continue;
            };
            let mut f = self.map(v, &format!("{what} `{}`", name.text));
            let ty_node = f.get("type");
            let range = f.get("range");
            let ty = match ty_node.map(|t| (t, self.scalar(t, "`type`"))) {
                Some((_, Some(t))) if t == "bool" => {
                    if let Some(r) = range {
                        self.error(r.pos, "bad-value", "a bool variable has no `range`");
                    }
                    Some(VarType::Bool)
                }
                Some((t, Some(other))) if other != "int" => {
                    if let Some(r) = range {
                        self.error(r.pos, "bad-value", format!("a variable of type `{other}` has its type's range"));
                    }
                    Some(VarType::Named(t.clone()))
                }
                _ => match range {
                    Some(r) => match self.seq(r, "`range`") {
                        [lo, hi] => Some(VarType::Int { lo: lo.clone(), hi: hi.clone() }),
                        _ => {
                            self.error(r.pos, "bad-range", "`range` is a list of two bounds, `[lo, hi]`");
                            None
                        }
                    },
                    None => {
                        self.error(
                            v.pos,
                            "missing-key",
                            format!("{what} `{}` needs `range: [lo, hi]` or `type: bool`", name.text),
                        );
                        None
                    }
                },
            };
            let size = f.get("size").cloned();
            // A type has no `init` (an `init:` there is an unknown key).
            let init_node = if what == "type" { None } else { f.get("init") };
            let init = match init_node {
                None => Init::Default,
                Some(n) if n.as_scalar().is_some_and(|s| s.plain && s.value == "any") => Init::Any(n.clone()),
                Some(n) if n.as_scalar().is_some() => Init::Value(n.clone()),
                Some(n) => Init::List(n.clone(), self.seq(n, "`init`").to_vec()),
            };
            // A type has no `symbolic` either: it is a variable's storage.
            let symbolic_node = if what == "type" { None } else { f.get("symbolic") };
            let symbolic = symbolic_node.and_then(|n| Some((self.boolean(n, "`symbolic`")?, n.pos)));
            self.finish(f, &format!("{what} `{}`", name.text));
            if let Some(ty) = ty {
                out.push(VarDecl { name, ty, size, init, symbolic });
            }
        }
        out
    }

    fn channels(&mut self, node: &Node) -> Vec<ChanDecl> {
        let mut m = self.map(node, "`channels`");
        let mut out = Vec::new();
        for (k, v) in m.rest() {
            let Some(name) = self.name(k, "channel name") else {
                continue;
            };
            let (kind_node, urgent, size, parties) = if v.as_scalar().is_some() {
                (v, false, None, Vec::new())
            } else {
                let mut f = self.map(v, &format!("channel `{}`", name.text));
                let kind = f.get("kind");
                let urgent = f.get("urgent").and_then(|u| self.boolean(u, "`urgent`")).unwrap_or(false);
                let size = f.get("size").cloned();
                let parties = f.get("parties").map(|p| self.seq(p, "`parties`").to_vec()).unwrap_or_default();
                self.finish(f, &format!("channel `{}`", name.text));
                match kind {
                    Some(kind) => (kind, urgent, size, parties),
                    None => {
                        self.error(
                            v.pos,
                            "missing-key",
                            format!("channel `{}` needs `kind: binary` or `kind: broadcast`", name.text),
                        );
                        continue;
                    }
                }
            };
            let kind = match self.scalar(kind_node, "a channel kind").as_deref() {
                Some("binary") => ChanKind::Binary,
                Some("broadcast") => ChanKind::Broadcast,
                Some("vector") => ChanKind::Vector,
                Some(other) => {
                    self.error(kind_node.pos, "bad-value", format!("unknown channel kind `{other}`")).hint = Some(
                        "a channel is `binary`, `broadcast` or `vector`; urgency is `{kind: binary, urgent: true}`"
                            .into(),
                    );
                    continue;
                }
                None => continue,
            };
            out.push(ChanDecl { name, kind, urgent, size, parties });
        }
        out
    }

    fn parameters(&mut self, node: &Node) -> Vec<ParamDecl> {
        let mut m = self.map(node, "`parameters`");
        let mut out = Vec::new();
        for (k, v) in m.rest() {
            let Some(name) = self.name(k, "parameter name") else {
                continue;
            };
            let mut f = self.map(v, &format!("parameter `{}`", name.text));
            let min = f.get("min").cloned();
            let max = f.get("max").cloned();
            self.finish(f, &format!("parameter `{}`", name.text));
            out.push(ParamDecl { name, min, max });
        }
        out
    }

    fn continuous(&mut self, node: &Node) -> Vec<ContDecl> {
        let mut m = self.map(node, "`continuous`");
        let mut out = Vec::new();
        for (k, v) in m.rest() {
            let Some(name) = self.name(k, "continuous variable name") else {
                continue;
            };
            let mut f = self.map(v, &format!("continuous variable `{}`", name.text));
            let init = match f.get("init") {
                None => Vec::new(),
                Some(n) if n.as_scalar().is_some() => vec![n.clone()],
                Some(n) => match self.seq(n, "`init`") {
                    items @ [_, _] => items.to_vec(),
                    _ => {
                        self.error(n.pos, "bad-range", "`init` is a value or an interval `[lo, hi]`");
                        Vec::new()
                    }
                },
            };
            self.finish(f, &format!("continuous variable `{}`", name.text));
            out.push(ContDecl { name, init });
        }
        out
    }

    fn template(&mut self, name: Name, node: &Node) -> TemplateDecl {
        let what = format!("template `{}`", name.text);
        let mut m = self.map(node, &what);
        let params = m.get("params").map(|n| self.names(n, "parameter name")).unwrap_or_default();
        let clocks = m.get("clocks").map(|n| self.names(n, "clock name")).unwrap_or_default();
        let variables = m.get("variables").map(|n| self.variables(n, "variable")).unwrap_or_default();
        let functions = m.get("functions").map(|n| self.seq(n, "`functions`").to_vec()).unwrap_or_default();
        let initial = match m.get("initial") {
            Some(n) => self.name(n, "location name"),
            None => {
                self.error(name.pos, "missing-key", format!("{what} needs `initial: LOCATION`"));
                None
            }
        };
        let observer = m.get("observer").and_then(|n| Some((self.boolean(n, "`observer`")?, n.pos)));
        let locations = match m.get("locations") {
            Some(n) => {
                let mut l = self.map(n, "`locations`");

                l.rest()
                    .into_iter()
                    .filter_map(|(k, v)| {
                        let name = self.name(k, "location name")?;
                        Some(self.location(name, v))
                    })
                    .collect()
            }
            None => {
                self.error(name.pos, "missing-key", format!("{what} needs `locations:`"));
                Vec::new()
            }
        };
        let edges = match m.get("edges") {
            Some(n) => self.seq(n, "`edges`").iter().map(|e| self.edge(e)).collect(),
            None => Vec::new(),
        };
        self.finish(m, &what);
        TemplateDecl { name, params, clocks, variables, functions, initial, locations, edges, observer }
    }

    fn location(&mut self, name: Name, node: &Node) -> LocDecl {
        let what = format!("location `{}`", name.text);
        let mut m = self.map(node, &what);
        let invariant = m.get("invariant").cloned();
        let urgent = self.flag(&mut m, "urgent");
        let committed = self.flag(&mut m, "committed");
        let labels = m.get("labels").map(|n| self.names(n, "label")).unwrap_or_default();
        let mut rates = Vec::new();
        if let Some(r) = m.get("rate") {
            let mut rm = self.map(r, "`rate`");
            for (k, v) in rm.rest() {
                let Some(var) = self.name(k, "variable name") else {
                    continue;
                };
                let values = if v.as_scalar().is_some() {
                    vec![v.clone()]
                } else {
                    match self.seq(v, "a rate") {
                        items @ [_, _] => items.to_vec(),
                        _ => {
                            self.error(v.pos, "bad-range", "a rate is a value or an interval `[lo, hi]`");
                            continue;
                        }
                    }
                };
                rates.push(RateDecl { var, values });
            }
        }
        if urgent && committed {
            self.error(name.pos, "urgent-and-committed", format!("{what} is both urgent and committed")).hint =
                Some("committed implies urgent: keep only `committed: true`".into());
        }
        self.finish(m, &what);
        LocDecl { name, invariant, urgent, committed, labels, rates }
    }

    fn flag(&mut self, m: &mut MapReader<'_>, key: &'static str) -> bool {
        m.get(key).and_then(|n| self.boolean(n, &format!("`{key}`"))).unwrap_or(false)
    }

    fn edge(&mut self, node: &Node) -> EdgeDecl {
        let mut m = self.map(node, "an edge");
        let end = |this: &mut Self, m: &mut MapReader<'_>, key: &'static str| match m.get(key) {
            Some(n) => this.name(n, "location name"),
            None => {
                this.error(node.pos, "missing-key", format!("an edge needs `{key}: LOCATION`"));
                None
            }
        };
        let from = end(self, &mut m, "from");
        let to = end(self, &mut m, "to");
        let select = m.get("select").cloned();
        let guard = m.get("guard").cloned();
        let sync = m.get("sync").cloned();
        let update = m.get("update").cloned();
        self.finish(m, "an edge");
        EdgeDecl { pos: node.pos, from, to, select, guard, sync, update }
    }

    fn properties(&mut self, node: &Node) -> Vec<PropertyDecl> {
        let mut out = Vec::new();
        for item in self.seq(node, "`properties`") {
            // A bare string is a formula without a name.
            if item.as_scalar().is_some() {
                out.push(PropertyDecl {
                    pos: item.pos,
                    name: None,
                    formula: item.clone(),
                    synth: false,
                    expect: None,
                    expect_pos: None,
                });
                continue;
            }
            let mut m = self.map(item, "a property");
            let name =
                m.get("name").and_then(|n| self.scalar(n, "a property name").map(|text| Name { text, pos: n.pos }));
            let check = m.get("check");
            let synth = m.get("synth");
            let expect_pos = m.get("expect").map(|n| n.pos);
            let expect = m.get("expect").map(|n| match n.as_scalar() {
                Some(s) if s.plain && (s.value == "true" || s.value == "false") => Expect::Bool(s.value == "true"),
                _ => Expect::Constraint(n.clone()),
            });
            self.finish(m, "a property");
            let (formula, is_synth) = match (check, synth) {
                (Some(f), None) => (f, false),
                (None, Some(f)) => (f, true),
                (Some(_), Some(s)) => {
                    self.error(s.pos, "bad-property", "a property has `check:` or `synth:`, not both");
                    continue;
                }
                (None, None) => {
                    self.error(item.pos, "missing-key", "a property needs `check: FORMULA` (or `synth: FORMULA`)");
                    continue;
                }
            };
            if let (false, Some(Expect::Constraint(c))) = (is_synth, &expect) {
                self.error(c.pos, "bad-value", "`expect` of a `check` property is `true` or `false`");
            }
            out.push(PropertyDecl {
                pos: item.pos,
                name,
                formula: formula.clone(),
                synth: is_synth,
                expect,
                expect_pos,
            });
        }
        out
    }
}
