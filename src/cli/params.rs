//! `--param p=v`: timing parameters fixed to integers or rationals
//! (FORMAT.md section 4), the concrete half of parametric analysis.

use num_traits::Zero;

use super::exit;
use crate::domain::poly::Q;
use crate::model::types::{Model, Ratio};
use crate::network::linear_ratio;

/// One value per parameter of `model`, in declaration order, from `p=v`
/// texts; none when none is given. `Err`: the exit code, the reason said.
pub(super) fn values(model: &Model, given: &[String]) -> Result<Vec<Q>, u8> {
    let mut out: Vec<Option<Q>> = vec![None; model.params.len()];
    for text in given {
        let (name, value) = parse(text).map_err(|e| {
            eprintln!("kairos: --param {text}: {e}");
            exit::INVALID
        })?;
        let Some(k) = model.params.iter().position(|p| p.name == name) else {
            let all: Vec<&str> = model.params.iter().map(|p| p.name.as_str()).collect();
            let known = if all.is_empty() {
                "the model has none".to_string()
            } else {
                format!("the parameters are {}", all.join(", "))
            };
            eprintln!("kairos: --param {text}: no parameter `{name}`; {known}");
            return Err(exit::INVALID);
        };
        let p = &model.params[k];
        let outside =
            |b: Option<Ratio>, below: bool| b.map(linear_ratio).filter(|b| if below { value < *b } else { value > *b });
        if let Some(b) = outside(p.min, true).or_else(|| outside(p.max, false)) {
            eprintln!("kairos: --param {text}: outside the parameter's bounds (it passes {b})");
            return Err(exit::INVALID);
        }
        if out[k].replace(value).is_some() {
            eprintln!("kairos: --param {text}: `{name}` is given twice");
            return Err(exit::INVALID);
        }
    }
    if given.is_empty() {
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
