//! libFuzzer entry for `harness/tchecker.rs` (what it checks is documented
//! there; the root test `tests/fuzz_corpus.rs` replays the same function on
//! the committed corpus).
#![no_main]

#[path = "../harness/tchecker.rs"]
mod harness;
#[path = "../harness/importer_yaml.rs"]
mod importer_yaml;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::run(data));
