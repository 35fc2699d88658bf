//! A model file: bytes → `load_model` → (if valid, timed and parameter-free)
//! the compiled network → (if it has few clocks) a bounded check of each
//! property the model holds, or of `E<> deadlock` when it holds none. Bad
//! input must end in diagnostics; every stage must return, within the
//! fuzzer's time and memory limits.

use kairos::engine::reach::Limits;
use kairos::engine::{self, Options};
use kairos::model::load::load_model;
use kairos::syntax::yaml::Source;

/// States each check may store: enough to run the successor computation on
/// every edge kind, small enough to keep one input well under a millisecond
/// on the seeds.
const MAX_STATES: u64 = 64;

/// Properties checked per input (a model may list many).
const MAX_PROPERTIES: usize = 4;

/// Largest DBM dimension (clocks + 1) checked. The fuzz build keeps the
/// `debug_assert!`s of the DBM contracts, each an O(n³) canonicity test: on
/// 41 clocks 64 states took two minutes (0.08 s without the assertions), so
/// bigger networks are loaded and built only.
const MAX_DIM: usize = 9;

/// One input: must return, whatever the bytes.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let src = Source::new("fuzz.yaml", text.to_string());
    let Ok(loaded) = load_model(&src) else { return };
    let model = &loaded.model;
    if model.hybrid || !model.params.is_empty() {
        return;
    }
    let Ok(net) = kairos::network::build(model) else { return };
    if net.dim() > MAX_DIM {
        return;
    }
    let options =
        Options { limits: Limits { max_states: Some(MAX_STATES), ..Limits::default() }, ..Options::default() };
    let fallback;
    let properties = if model.properties.is_empty() {
        fallback = [loaded.query("fuzz", "E<> deadlock").expect("a valid query")];
        &fallback[..]
    } else {
        &model.properties[..]
    };
    for p in properties.iter().take(MAX_PROPERTIES) {
        engine::check(model, Some(&net), p, &options);
    }
}
