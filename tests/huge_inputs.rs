//! Inputs far beyond what a user writes get an answer or an error, never an
//! abort. These are slow (seconds to a minute, gigabytes), so they are
//! ignored by default; run them with
//! `cargo test --release --test suite huge_inputs:: -- --ignored`.

use crate::common;

use std::io::Write;
use std::path::PathBuf;

fn temp_model(name: &str, write: impl FnOnce(&mut dyn Write)) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kairos-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    write(&mut file);
    file.flush().unwrap();
    path
}

#[test]
#[ignore = "writes and checks a 100 MB model (about 40 s and 4.5 GB in release)"]
fn a_100_mb_model_gets_an_answer() {
    let path = temp_model("big.yaml", |f| {
        writeln!(f, "model: big\ntemplates:\n  P:\n    clocks: [x]\n    initial: l0\n    locations:").unwrap();
        for i in 0..5_800_000 {
            writeln!(f, "      l{i}: {{}}").unwrap();
        }
        writeln!(
            f,
            "    edges:\n      - {{from: l0, to: l1, guard: \"x > 1\"}}\nsystem: [P]\n\
             properties:\n  - {{name: p, check: \"E<> P.l1\", expect: true}}"
        )
        .unwrap();
    });
    assert!(std::fs::metadata(&path).unwrap().len() > 100 << 20);
    let (code, out, err) = common::kairos(&["check", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("p: satisfied"), "{out}");
}

#[test]
#[ignore = "2000 clocks: DBMs of 4 million entries (debug assertions make it take minutes)"]
fn thousands_of_clocks_get_an_answer() {
    let clocks: Vec<String> = (0..2000).map(|i| format!("x{i}")).collect();
    let path = temp_model("clocks.yaml", |f| {
        write!(
            f,
            "model: clocks\ntemplates:\n  P:\n    clocks: [{}]\n    initial: a\n    locations:\n\
             \x20     a: {{invariant: \"x0 <= 5\"}}\n      b: {{}}\n    edges:\n\
             \x20     - {{from: a, to: b, guard: \"x1 > 3\", update: \"x2 = 0\"}}\n\
             \x20     - {{from: b, to: a, guard: \"x2 > 1\", update: \"x0 = 0\"}}\n\
             system: [P]\nproperties:\n  - {{name: p, check: \"E<> P.b and P.x2 > 4\", expect: true}}\n",
            clocks.join(", ")
        )
        .unwrap();
    });
    let (code, out, err) = common::kairos(&["check", path.to_str().unwrap(), "--timeout", "60"]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(code, 0, "{out}\n{err}");
}
