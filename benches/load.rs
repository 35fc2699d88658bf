//! Loading speed: parse, validate and compile a generated model with many
//! instances (FORMAT.md models grow by the `system` list).
//!
//! Run: `cargo bench --bench load`

use kairos::model::load::load_model;
use kairos::syntax::yaml::Source;

fn main() {
    divan::main();
}

/// A railway crossing with `n` trains, each its own `system` entry (so the
/// YAML itself grows with `n`), and a controller counting them.
fn generated_model(n: usize) -> String {
    let mut s = format!(
        "model: generated\nconstants: {{N: {n}}}\nvariables:\n  count: {{range: [0, N], init: 0}}\n\
         channels:\n  approach: binary\n  leave: binary\n  go: {{kind: binary, size: N}}\n\
         templates:\n  Train:\n    params: [id]\n    clocks: [x]\n    variables:\n      laps: {{range: [0, 3]}}\n    initial: far\n    locations:\n\
         \x20     far: {{}}\n      near: {{invariant: \"x <= 5 + id % 3\"}}\n      on: {{invariant: \"x <= 5\", labels: [crossing]}}\n\
         \x20     stop: {{}}\n    edges:\n\
         \x20     - {{from: far, to: near, sync: \"approach!\", update: \"x = 0\"}}\n\
         \x20     - {{from: near, to: on, guard: \"x > 2 && count <= N\"}}\n\
         \x20     - {{from: near, to: stop, guard: \"x <= 2\", sync: \"go[id - 1]?\"}}\n\
         \x20     - {{from: stop, to: on, sync: \"go[id - 1]?\", update: \"x = 0\"}}\n\
         \x20     - {{from: on, to: far, guard: \"x >= 3\", sync: \"leave!\", update: \"x = 0; laps = (laps + 1) % 4\"}}\n\
         \x20 Gate:\n    initial: up\n    locations:\n      up: {{}}\n      down: {{}}\n    edges:\n\
         \x20     - {{from: up, to: down, sync: \"approach?\", update: \"count += 1\"}}\n\
         \x20     - {{from: down, to: down, guard: \"count < N\", sync: \"approach?\", update: \"count += 1\"}}\n\
         \x20     - {{from: down, to: down, select: \"i : 0..N-1\", sync: \"go[i]!\"}}\n\
         \x20     - {{from: down, to: up, guard: \"count == 1\", sync: \"leave?\", update: \"count -= 1\"}}\n\
         \x20     - {{from: down, to: down, guard: \"count > 1\", sync: \"leave?\", update: \"count -= 1\"}}\n\
         system:\n"
    );
    for i in 1..=n {
        s.push_str(&format!("  - Train({i})\n"));
    }
    s.push_str(
        "  - Gate\nproperties:\n  - {name: safe, check: \"A[] forall (i : 1..N) Train(i).on imply Gate.down\"}\n",
    );
    s
}

#[divan::bench(args = [10, 50, 200])]
fn load_and_compile(bencher: divan::Bencher, n: usize) {
    let text = generated_model(n);
    bencher.bench(|| {
        let src = Source::new("generated.yaml", text.clone());
        let loaded = load_model(&src).expect("the generated model is valid");
        kairos::network::build(&loaded.model).expect("it compiles")
    });
}
