//! `--param p=v`: timing parameters fixed to integers or rationals, and
//! integer constants set (FORMAT.md section 4), the concrete half of
//! parametric analysis.

use num_traits::Zero;

use super::exit;
use crate::domain::poly::Q;
use crate::model::types::{Model, Ratio};
use crate::network::linear_ratio;

/// Constants set, with their values, in declaration order.
pub(super) type Constants = Vec<(String, i64)>;

/// What `--param` gives, sorted out against the model: constants, set when
/// the model is loaded, and timing parameters, fixed when its network is
/// built.
#[derive(Clone, Debug, Default)]
pub(super) struct Given {
    pub constants: Constants,
    /// One value per timing parameter, in declaration order; none when no
    /// timing parameter is given.
    pub timing: Vec<Q>,
}

impl Given {
    /// The names and values given, constants first (each group in
    /// declaration order), values as `kairos check --param` prints them.
    pub fn point(&self, model: &Model) -> Vec<(String, String)> {
        let constants = self.constants.iter().map(|(n, v)| (n.clone(), v.to_string()));
        let timing = model.params.iter().zip(&self.timing).map(|(p, v)| (p.name.clone(), v.to_string()));
        constants.chain(timing).collect()
    }
}

/// `p=v` texts sorted into constants and timing parameters of `model` (the
/// model as loaded before any constant is set). `Err`: the exit code, the
/// reason said.
pub(super) fn given(model: &Model, texts: &[String]) -> Result<Given, u8> {
    let (constants, timing) = sort(model, texts)?;
    Ok(Given { constants, timing: values(model, timing)? })
}

/// The constants `texts` set, for a command that leaves the timing
/// parameters open (`kairos synth`); naming one is exit 5.
pub(super) fn constants_only(model: &Model, texts: &[String], command: &str) -> Result<Constants, u8> {
    let (constants, timing) = sort(model, texts)?;
    if let Some((text, ..)) = timing.first() {
        eprintln!(
            "kairos: --param {text}: {command} leaves the timing parameters open; fixing one is not supported yet \
             (`--param` sets constants here)"
        );
        return Err(exit::UNSUPPORTED);
    }
    Ok(constants)
}

/// A `--param` text naming a timing parameter: the text, the parameter's
/// index and the value.
type Timing<'t> = (&'t str, usize, Q);

/// The constants (with their values, in declaration order) and the texts
/// naming timing parameters, parsed.
fn sort<'t>(model: &Model, texts: &'t [String]) -> Result<(Constants, Vec<Timing<'t>>), u8> {
    let invalid = |text: &str, e: &str| {
        eprintln!("kairos: --param {text}: {e}");
        exit::INVALID
    };
    let mut constants: Vec<(usize, String, i64)> = Vec::new();
    let mut timing = Vec::new();
    for text in texts {
        let (name, value) = parse(text).map_err(|e| invalid(text, &e))?;
        if let Some(k) = model.constants.get_index_of(name) {
            if !value.is_integer() {
                return Err(invalid(text, &format!("`{name}` is an integer constant; its value must be an integer")));
            }
            let v = i64::try_from(value.to_integer()).map_err(|_| invalid(text, "out of 64-bit range"))?;
            if constants.iter().any(|(j, ..)| *j == k) {
                return Err(invalid(text, &format!("`{name}` is given twice")));
            }
            constants.push((k, name.to_string(), v));
        } else if let Some(k) = model.params.iter().position(|p| p.name == name) {
            timing.push((text.as_str(), k, value));
        } else {
            let list =
                |what: &str, all: Vec<&str>| (!all.is_empty()).then(|| format!("the {what} are {}", all.join(", ")));
            let known: Vec<String> = [
                list("timing parameters", model.params.iter().map(|p| p.name.as_str()).collect()),
                list("constants", model.constants.keys().map(String::as_str).collect()),
            ]
            .into_iter()
            .flatten()
            .collect();
            let known = if known.is_empty() { "the model has neither".to_string() } else { known.join("; ") };
            return Err(invalid(text, &format!("no timing parameter or constant `{name}`; {known}")));
        }
    }
    constants.sort_by_key(|(k, ..)| *k);
    Ok((constants.into_iter().map(|(_, n, v)| (n, v)).collect(), timing))
}

/// One value per timing parameter of `model`, in declaration order, from
/// the `--param` texts naming timing parameters; none when none is given.
/// `Err`: the exit code, the reason said.
fn values(model: &Model, given: Vec<Timing<'_>>) -> Result<Vec<Q>, u8> {
    let mut out: Vec<Option<Q>> = vec![None; model.params.len()];
    let none = given.is_empty();
    for (text, k, value) in given {
        let p = &model.params[k];
        let outside =
            |b: Option<Ratio>, below: bool| b.map(linear_ratio).filter(|b| if below { value < *b } else { value > *b });
        if let Some(b) = outside(p.min, true).or_else(|| outside(p.max, false)) {
            eprintln!("kairos: --param {text}: outside the parameter's bounds (it passes {b})");
            return Err(exit::INVALID);
        }
        if out[k].replace(value).is_some() {
            eprintln!("kairos: --param {text}: `{}` is given twice", p.name);
            return Err(exit::INVALID);
        }
    }
    if none {
        return Ok(Vec::new());
    }
    if let Some(k) = out.iter().position(Option::is_none) {
        eprintln!(
            "kairos: --param: `{}` has no value; checking for every value of some parameters is not supported yet",
            model.params[k].name
        );
        return Err(exit::UNSUPPORTED);
    }
    Ok(out.into_iter().flatten().collect())
}

/// `name=v` with `v` an integer or `n/d`.
fn parse(text: &str) -> Result<(&str, Q), String> {
    let (name, value) = text.split_once('=').ok_or("expected `name=value`")?;
    Ok((name.trim(), rational(value)?))
}

/// An integer or `n/d`.
pub(super) fn rational(value: &str) -> Result<Q, String> {
    let int = |s: &str| s.trim().parse::<i64>().map_err(|_| format!("`{}` is not an integer", s.trim()));
    Ok(match value.split_once('/') {
        Some((n, d)) => {
            let d = int(d)?;
            if d.is_zero() {
                return Err("a zero denominator".into());
            }
            Q::new(int(n)?.into(), d.into())
        }
        None => Q::from_integer(int(value)?.into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_integers_or_ratios() {
        assert_eq!(parse("m=7").unwrap(), ("m", Q::from_integer(7.into())));
        assert_eq!(parse("m = 13/2").unwrap(), ("m", Q::new(13.into(), 2.into())));
        assert_eq!(parse("m=-26/4").unwrap(), ("m", Q::new((-13).into(), 2.into())));
        assert!(parse("m").is_err());
        assert!(parse("m=1/0").is_err());
        assert!(parse("m=x").is_err());
    }
}
