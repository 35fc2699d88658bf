//! A sweep on a cluster, run locally: the commands `--jobs-out` writes
//! (each run through `sh`, as GNU parallel or a Slurm array would run it),
//! their outputs merged by `--merge`, give the direct sweep's JSON, table
//! and CSV; inconsistent outputs are refused.

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::Value;

const FISCHER: &str = "models/fischer-param.yaml";
const MUTEX: &str = "A[] not (P(1).cs and P(2).cs)";
const GRID: [&str; 4] = ["--param", "a=0..3", "--param", "b=0..2:2/3"];

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("kairos-sweep-jobs-{}-{name}", std::process::id()))
}

/// `v` without the timings, which differ from run to run.
fn untimed(mut v: Value) -> Value {
    for p in v["points"].as_array_mut().unwrap() {
        p.as_object_mut().unwrap().remove("time_s");
    }
    v
}

/// Runs one shell line with the binary under test first on `PATH`; it
/// exits 0, or 1 where the property does not hold.
fn sh(line: &str) -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_kairos")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out = std::process::Command::new("sh").args(["-c", line]).env("PATH", path).output().unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{line}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn merged_job_outputs_give_the_direct_sweep() {
    let jobs = scratch("jobs.jsonl");
    let sweep = [&["sweep", FISCHER, "-q", MUTEX][..], &GRID[..]].concat();
    let (code, out, err) = common::kairos(&[&sweep[..], &["--jobs-out", jobs.to_str().unwrap()]].concat());
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let lines: Vec<Value> =
        std::fs::read_to_string(&jobs).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    std::fs::remove_file(&jobs).unwrap();
    assert_eq!(lines.len(), 4 * 4);
    // Out of order, in two files, as a cluster would leave them.
    let (first, second) = (scratch("out1.jsonl"), scratch("out2.jsonl"));
    let (mut one, mut two) = (String::new(), String::new());
    for (k, job) in lines.iter().enumerate().rev() {
        let argv: Vec<&str> = job["argv"].as_array().unwrap().iter().map(|w| w.as_str().unwrap()).collect();
        assert_eq!(argv[..2], ["kairos", "check"]);
        assert!(argv.contains(&format!("a={}", job["params"]["a"].as_str().unwrap()).as_str()));
        let out = sh(job["command"].as_str().unwrap());
        // The shell line is the argv.
        let (_, direct, _) = common::kairos(&argv[1..]);
        let verdict = |s: &str| serde_json::from_str::<Value>(s).unwrap()["properties"][0]["verdict"].clone();
        assert_eq!(verdict(&out), verdict(&direct));
        if k % 2 == 0 { &mut one } else { &mut two }.push_str(&out);
    }
    std::fs::write(&first, one).unwrap();
    std::fs::write(&second, two).unwrap();
    let merge = ["sweep", "--merge", first.to_str().unwrap(), second.to_str().unwrap()];
    for format in ["json", "text", "csv"] {
        let (code, merged, err) = common::kairos(&[&merge[..], &["--format", format]].concat());
        assert_eq!(code, 0, "{err}");
        let (_, direct, _) = common::kairos(&[&sweep[..], &["--format", format]].concat());
        match format {
            "json" => assert_eq!(
                untimed(serde_json::from_str(&merged).unwrap()),
                untimed(serde_json::from_str(&direct).unwrap())
            ),
            "csv" => {
                // Every column but `time_s`.
                let cut = |s: &str| {
                    let rows: Vec<Vec<&str>> = s.lines().map(|l| l.split(',').collect()).collect();
                    let k = rows[0].iter().position(|c| *c == "time_s").unwrap();
                    rows.into_iter()
                        .map(|mut r| {
                            r.remove(k);
                            r.join(",")
                        })
                        .collect::<Vec<_>>()
                };
                assert_eq!(cut(&merged), cut(&direct));
            }
            _ => assert_eq!(merged, direct),
        }
    }
    // The same point twice, or another sweep's output, is refused.
    let (code, _, err) = common::kairos(&["sweep", "--merge", first.to_str().unwrap(), first.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("is given twice"), "{err}");
    let other = scratch("other.json");
    let (_, out, _) = common::kairos(&[
        "check",
        FISCHER,
        "-q",
        "E<> P(1).cs",
        "--param",
        "a=1",
        "--param",
        "b=1",
        "--format",
        "json",
    ]);
    std::fs::write(&other, out).unwrap();
    let (code, _, err) = common::kairos(&["sweep", "--merge", first.to_str().unwrap(), other.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("is not the sweep of the first output"), "{err}");
    for f in [first, second, other] {
        std::fs::remove_file(f).unwrap();
    }
}
