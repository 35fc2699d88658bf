//! `kairos import FILE.tck|FILE.xml|FILE.imi [-o MODEL.yaml]`: the YAML translation,
//! checked by loading it; never written over an existing file.

use super::args::{ImportArgs, OutputFormat};
use super::{exit, load};
use crate::input::{Format, Translation};

pub(super) fn run(a: ImportArgs) -> u8 {
    if Format::of(&a.file, None) == Format::Yaml {
        eprintln!("kairos: `{}` is not a TChecker (.tck), UPPAAL (.xml) or IMITATOR (.imi) file", a.file.display());
        return exit::INVALID;
    }
    let input = match load(&a.file, &[], None, OutputFormat::Text) {
        Ok(i) => i,
        Err(code) => return code,
    };
    if let Some(Translation::Uppaal(u)) = &input.imported {
        for s in &u.skipped {
            eprintln!("kairos: note: left out of `properties`: {}", s.why);
        }
    }
    let yaml = &input.model_src.text;
    match &a.output {
        None => {
            print!("{yaml}");
            exit::OK
        }
        Some(out) => {
            let file = std::fs::OpenOptions::new().write(true).create_new(true).open(out);
            match file.and_then(|mut f| std::io::Write::write_all(&mut f, yaml.as_bytes())) {
                Ok(()) => exit::OK,
                Err(e) => {
                    eprintln!("kairos: cannot write `{}`: {e} (an existing file is never overwritten)", out.display());
                    exit::INVALID
                }
            }
        }
    }
}
