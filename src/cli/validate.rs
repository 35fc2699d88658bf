//! `kairos validate MODEL [SPEC ...]`: load and validate only; the size of
//! what was loaded.

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
    match a.format {
        OutputFormat::Json => println!(
            "{}",
            json!({"model": m.name, "valid": true, "kind": kind, "instances": m.instances.len(),
                   "locations": locations, "edges": edges, "clocks": clocks, "data_slots": slots, "properties": properties})
        ),
        OutputFormat::Text => println!(
            "{}: valid {kind} model `{}`: {} instances, {locations} locations, {edges} edges, {clocks} clocks, {slots} data slots; {properties} properties",
            a.model.display(),
            m.name,
            m.instances.len()
        ),
    }
    exit::OK
}
