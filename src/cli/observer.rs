//! `kairos observer MODEL -q FORMULA`: the observer template a
//! bounded-response formula compiles to, as YAML.

use super::args::QueryArgs;
use super::{exit, one_query};

pub(super) fn run(a: QueryArgs) -> u8 {
    let (_, p, _) = match one_query(&a, &[]) {
        Ok(x) => x,
        Err(code) => return code,
    };
    match crate::observer::response(&p) {
        Some(r) => {
            print!("{}", crate::observer::yaml(&p.text, &r));
            exit::OK
        }
        None => {
            eprintln!(
                "kairos: `{}` is not a bounded-response property (`φ -->[<= n] ψ`, `A[] (φ imply A<>[< n] ψ)`, `A<>[<= n] ψ`, ...): it needs no observer",
                p.text
            );
            exit::INVALID
        }
    }
}
