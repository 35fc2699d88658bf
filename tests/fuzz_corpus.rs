//! Replays the committed fuzz corpora (`fuzz/corpus/TARGET/`) and every
//! finding (`fuzz/found/TARGET/`) through the fuzz harnesses themselves
//! (`fuzz/harness/`), so that `cargo test` — and CI, which never builds the
//! fuzz crate — keeps the harnesses compiling against the library and fails
//! if a fixed finding comes back or a corpus input now panics.
//!
//! The fuzz build runs with debug assertions and overflow checks, as this
//! test does in the default test profile (not under `--release`); what it cannot see here is a hang or an allocation over the
//! fuzzer's cap (run `fuzz/run.sh TARGET` for those).

#[path = "../fuzz/harness/expr.rs"]
mod expr;
#[path = "../fuzz/harness/formula.rs"]
mod formula;
#[path = "../fuzz/harness/importer_yaml.rs"]
mod importer_yaml;
#[path = "../fuzz/harness/tchecker.rs"]
mod tchecker;
#[path = "../fuzz/harness/typed.rs"]
mod typed;
#[path = "../fuzz/harness/uppaal.rs"]
mod uppaal;
#[path = "../fuzz/harness/yaml_model.rs"]
mod yaml_model;

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Once;

/// The inputs of one target: its corpus and its findings, in name order.
fn inputs(target: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut files = Vec::new();
    for dir in [root.join("corpus").join(target), root.join("found").join(target)] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries {
            let path = e.expect("a readable directory entry").path();
            if path.is_file() {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

thread_local! {
    /// Set while this thread runs a harness: its panics are caught and listed.
    static REPLAYING: Cell<bool> = const { Cell::new(false) };
}

/// Silences the panic message of a harness run (the failure list names the
/// input), and only those: the tests run in parallel threads, and their own
/// assertion messages must still print.
fn quiet_while_replaying() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !REPLAYING.get() {
                default(info);
            }
        }));
    });
}

/// Runs `harness` on every input of `target`; fails naming each input that
/// panicked. A target must have inputs: an empty or moved corpus would make
/// this test pass without checking anything.
fn replay(target: &str, harness: fn(&[u8])) {
    let files = inputs(target);
    assert!(files.len() >= 4, "fuzz/corpus/{target}: only {} inputs found", files.len());
    quiet_while_replaying();
    let failed: Vec<String> = files
        .iter()
        .filter(|f| {
            let data = std::fs::read(f).expect("a readable corpus file");
            REPLAYING.set(true);
            let panicked = catch_unwind(AssertUnwindSafe(|| harness(&data))).is_err();
            REPLAYING.set(false);
            panicked
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} inputs of `{target}` panic (reproduce one: cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run -s none {target} FILE):\n{}",
        failed.len(),
        files.len(),
        failed.join("\n")
    );
}

#[test]
fn yaml_model_corpus() {
    replay("yaml_model", yaml_model::run);
}

#[test]
fn expr_corpus() {
    replay("expr", expr::run);
}

#[test]
fn formula_corpus() {
    replay("formula", formula::run);
}

#[test]
fn tchecker_corpus() {
    replay("tchecker", tchecker::run);
}

#[test]
fn uppaal_corpus() {
    replay("uppaal", uppaal::run);
}

#[test]
fn typed_corpus() {
    replay("typed", typed::run);
}
