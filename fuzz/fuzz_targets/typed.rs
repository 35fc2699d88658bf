//! libFuzzer entry for `harness/typed.rs` (what it checks is documented
//! there; the root test `tests/fuzz_corpus.rs` replays the same function on
//! the committed corpus).
#![no_main]

#[path = "../harness/typed.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::run(data));
