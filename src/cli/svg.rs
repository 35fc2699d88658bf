//! `--svg FILE`: the timing diagrams of the traces a command found
//! ([`crate::report::svg`]). With several properties, each gets its own
//! file: `FILE` with `.NAME` inserted before the extension
//! (`out.svg` -> `out.query1.svg`), NAME the property's name with every
//! character other than a letter, digit, `-`, `_` or `.` replaced by `_`.
//! A path that is one of the command's input files is refused before
//! anything is checked.

use std::path::{Path, PathBuf};

use super::exit;
use crate::network::Network;
use crate::trace::ConcreteTrace;

/// Where the diagram of property `name` goes.
pub(super) fn path_for(file: &Path, name: &str, several: bool) -> PathBuf {
    if !several {
        return file.to_path_buf();
    }
    let safe: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect();
    let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let named = match file.extension() {
        Some(ext) => format!("{stem}.{safe}.{}", ext.to_string_lossy()),
        None => format!("{stem}.{safe}"),
    };
    file.with_file_name(named)
}

/// `Err(exit code)`, said on stderr, when one of `outputs` (given with
/// the option `flag`) is one of `inputs` (the same file, however it is spelled).
pub(super) fn refuse_inputs(flag: &str, outputs: &[PathBuf], inputs: &[&Path]) -> Result<(), u8> {
    for out in outputs {
        let Ok(o) = std::fs::canonicalize(out) else { continue };
        if let Some(i) = inputs.iter().find(|i| std::fs::canonicalize(i).is_ok_and(|i| i == o)) {
            eprintln!(
                "kairos: {flag} {} is the input file {}; choose another path (nothing was checked)",
                out.display(),
                i.display()
            );
            return Err(exit::INVALID);
        }
    }
    Ok(())
}

/// Writes the diagram of `trace` (with `at_end` noted at its last state);
/// `false`, said on stderr, when it could not be written.
pub(super) fn write(path: &Path, net: &Network, trace: &ConcreteTrace, caption: &str, at_end: Option<&str>) -> bool {
    let text = match at_end {
        Some(note) => crate::report::svg::marked_diagram(net, trace, caption, note),
        None => crate::report::svg::timing_diagram(net, trace, caption),
    };
    match std::fs::write(path, text) {
        Ok(()) => {
            eprintln!("kairos: timing diagram written to {}", path.display());
            true
        }
        Err(e) => {
            eprintln!("kairos: cannot write {}: {e}", path.display());
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_properties_get_one_file_each() {
        let f = Path::new("out/trace.svg");
        assert_eq!(path_for(f, "q", false), PathBuf::from("out/trace.svg"));
        assert_eq!(path_for(f, "gate-down", true), PathBuf::from("out/trace.gate-down.svg"));
        assert_eq!(path_for(f, "a b/c", true), PathBuf::from("out/trace.a_b_c.svg"));
        assert_eq!(path_for(Path::new("t"), "q1", true), PathBuf::from("t.q1"));
    }
}
