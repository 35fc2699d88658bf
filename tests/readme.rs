//! The README works on a fresh clone: every command of its `sh` blocks runs
//! (the `kairos` ones, against the binary under test) and every file it
//! names or links to is in the repository.

use crate::common;

use std::path::Path;

/// The lines of the README's `sh` code blocks, comments dropped.
fn commands(readme: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_sh = !in_sh && t == "```sh";
            continue;
        }
        let command = t.split(" # ").next().unwrap_or_default().trim();
        if in_sh && !command.is_empty() && !command.starts_with('#') {
            out.push(command.to_string());
        }
    }
    out
}

/// `line` split into words as a POSIX shell would, for the quoting the
/// README uses (single and double quotes, no escapes, no expansion).
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_default().push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_default();
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_default().push(c),
        }
    }
    assert!(quote.is_none(), "unbalanced quotes in `{line}`");
    words.extend(word);
    words
}

fn readme() -> String {
    std::fs::read_to_string("README.md").expect("README.md")
}

#[test]
fn every_path_the_readme_names_is_in_the_repository() {
    let readme = readme();
    let mut named = Vec::new();
    for command in commands(&readme) {
        for (k, w) in words(&command).iter().enumerate() {
            // Files the command writes (`-o FILE`) need not exist.
            let writes = k > 0 && words(&command)[k - 1] == "-o";
            if w.contains('/') && !w.starts_with('-') && !w.contains(['<', '>', '|']) && !writes {
                named.push(w.clone());
            }
        }
    }
    // Links: `](path)`, other than web addresses and anchors.
    for part in readme.split("](").skip(1) {
        let target = part.split(')').next().unwrap_or_default();
        if !target.contains("://") && !target.starts_with('#') {
            named.push(target.to_string());
        }
    }
    assert!(named.len() >= 10, "the README's paths were found: {named:?}");
    for path in named {
        assert!(!path.starts_with("..") && !path.starts_with('/'), "`{path}` is outside the repository");
        assert!(Path::new(&path).exists(), "the README names `{path}`, which is not in the repository");
    }
}

/// Every `cargo run --release -- ARGS` of the README, as `kairos ARGS`:
/// each gives an answer (exit 0, or 1 where a property does not hold, as
/// TChecker's labels `cs1,cs2` and some queries of the UPPAAL file), none
/// is invalid, unsupported or an internal error; files are written into a
/// scratch folder.
#[test]
fn every_kairos_command_of_the_readme_runs() {
    let scratch = std::env::temp_dir().join(format!("kairos-readme-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let mut ran = 0;
    for command in commands(&readme()) {
        let Some(args) = command.strip_prefix("cargo run --release -- ") else { continue };
        let mut args = words(args);
        for k in 1..args.len() {
            if args[k - 1] == "-o" {
                args[k] = scratch.join(&args[k]).display().to_string();
            }
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = common::kairos(&args);
        assert!(
            (code == 0 || code == 1) && !err.contains("internal error"),
            "`kairos {}` exits {code}:\n{out}\n{err}",
            args.join(" ")
        );
        ran += 1;
    }
    std::fs::remove_dir_all(&scratch).ok();
    assert!(ran >= 10, "the README's commands were found ({ran})");
}
