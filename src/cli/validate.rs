//! `kairos validate MODEL [SPEC ...]`: load and validate only; the size of
//! what was loaded, and with `--verbose` the `--data bdd` split.

use serde_json::json;

use super::args::{OutputFormat, ValidateArgs};
use super::{exit, load, network};

pub(super) fn run(a: ValidateArgs) -> u8 {
    let input = match load(&a.model, &a.specs, a.input, a.format) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let m = &input.loaded.model;
    let network = match network(&input, a.format) {
        Ok(n) => n,
        Err(code) => return code,
    };
    let properties: usize = m.properties.len() + input.specs.iter().map(|(_, s)| s.len()).sum::<usize>();
    let kind = if m.hybrid {
        "hybrid"
    } else if !m.params.is_empty() {
        "parametric timed"
    } else {
        "timed"
    };
    let (locations, edges, clocks, slots) = match &network {
        Some(n) => (
            n.processes.iter().map(|p| p.locations.len()).sum::<usize>(),
            n.processes.iter().map(|p| p.edges.len()).sum::<usize>(),
            n.clocks.len(),
            n.slots.len(),
        ),
        None => (
            m.instances.iter().map(|i| m.templates[i.template].locations.len()).sum(),
            m.instances.iter().map(|i| m.templates[i.template].edges.len()).sum(),
            m.clocks.len() + m.instances.iter().map(|i| m.templates[i.template].clocks.len()).sum::<usize>(),
            0,
        ),
    };
    let split = network.as_ref().filter(|_| a.verbose).map(split_lines).unwrap_or_default();
    match a.format {
        OutputFormat::Json => {
            let mut j = json!({"model": m.name, "valid": true, "kind": kind, "instances": m.instances.len(),
                   "locations": locations, "edges": edges, "clocks": clocks, "data_slots": slots, "properties": properties});
            if a.verbose {
                let vars = split
                    .iter()
                    .map(|(v, why)| json!({"variable": v, "symbolic": why.is_none(), "explicit_because": why}));
                j["data_split"] = vars.collect();
            }
            println!("{j}");
        }
        OutputFormat::Text => println!(
            "{}: valid {kind} model `{}`: {} instances, {locations} locations, {edges} edges, {clocks} clocks, {slots} data slots; {properties} properties",
            a.model.display(),
            m.name,
            m.instances.len()
        ),
    }
    if a.format == OutputFormat::Text && !split.is_empty() {
        println!("--data bdd keeps explicit:");
        for (v, why) in split.iter().filter_map(|(v, w)| Some((v, w.as_ref()?))) {
            println!("  {v}: {why}");
        }
        let bdd: Vec<&str> = split.iter().filter(|(_, w)| w.is_none()).map(|(v, _)| v.as_str()).collect();
        println!("--data bdd encodes as BDDs: {}", if bdd.is_empty() { "nothing".into() } else { bdd.join(", ") });
    }
    exit::OK
}

/// Per variable (an array's elements together when they agree, else one
/// by one), `None` when `--data bdd` encodes it, else why it is explicit.
fn split_lines(net: &crate::network::Network) -> Vec<(String, Option<String>)> {
    let split = crate::bdd::split::Split::of(net);
    let why = |s: usize| split.explicit[s].as_ref().map(|r| r.to_string());
    let base = |s: usize| net.slots[s].name.split('[').next().unwrap_or_default().to_string();
    let mut out = Vec::new();
    let mut s = 0;
    while s < net.slots.len() {
        let n = (s..net.slots.len()).take_while(|&k| base(k) == base(s)).count();
        let agree = (s..s + n).all(|k| split.is_explicit(k) == split.is_explicit(s));
        if n > 1 && agree {
            out.push((base(s), why(s)));
        } else {
            out.extend((s..s + n).map(|k| (net.slots[k].name.clone(), why(k))));
        }
        s += n;
    }
    out
}
