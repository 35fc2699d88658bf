//! The BDD data domain against the explicit evaluator: for random
//! expressions over small ranges, the set of valuations a guard lets pass
//! (or makes fail), and the image of an update, equal what `Code::eval` and
//! `Code::exec` give on every valuation, enumerated one by one.

use kairos::bdd::{self, Encoding, Manager, step};
use kairos::model::decl::OutOfRange;
use kairos::model::load::load_model;
use kairos::network::{Code, EvalError, Network, Target, Update};
use kairos::syntax::yaml::Source;
use proptest::prelude::*;

fn int_expr() -> BoxedStrategy<String> {
    let leaf = prop_oneof![(-4i64..=4).prop_map(|v| format!("{v}")), Just("a".into()), Just("b".into()),];
    leaf.prop_recursive(4, 24, 3, |inner| {
        let b = bool_expr(inner.clone());
        prop_oneof![
            // `b - b +` keeps the index out of the checker's constant folding:
            // its out-of-bounds values are run-time errors, as tested.
            inner.clone().prop_map(|x| format!("arr[b - b + {x}]")),
            inner.clone().prop_map(|x| format!("-({x})")),
            (
                inner.clone(),
                inner.clone(),
                prop_oneof![Just("+"), Just("-"), Just("*"), Just("/"), Just("%"), Just("<?"), Just(">?")]
            )
                .prop_map(|(x, y, o)| format!("({x} {o} {y})")),
            (b, inner.clone(), inner).prop_map(|(c, x, y)| format!("({c} ? {x} : {y})")),
        ]
    })
    .boxed()
}

fn bool_expr(int: impl Strategy<Value = String> + Clone + 'static) -> BoxedStrategy<String> {
    let cmp =
        (int.clone(), int.clone(), prop_oneof![Just("<"), Just("<="), Just("=="), Just("!="), Just(">"), Just(">=")])
            .prop_map(|(x, y, o)| format!("({x} {o} {y})"));
    let quant = int.prop_map(|x| format!("(exists (i : 0..2) arr[i] == {x})"));
    let leaf = prop_oneof![cmp, quant, Just("c".to_string()), Just("true".to_string())];
    leaf.prop_recursive(2, 8, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone(), prop_oneof![Just("&&"), Just("||"), Just("imply")])
                .prop_map(|(x, y, o)| format!("({x} {o} {y})")),
            inner.prop_map(|x| format!("!({x})")),
        ]
    })
    .boxed()
}

fn guard() -> BoxedStrategy<String> {
    bool_expr(int_expr())
}

fn network(guard: &str, update: &str, disable: bool) -> Option<Network> {
    let text = format!(
        "model: m\nvariables:\n  a: {{range: [-3, 4]}}\n  b: {{range: [0, 5]}}\n  c: {{type: bool}}\n  \
         arr: {{range: [0, 3], size: 3}}\n  r: {{range: [-6, 6]}}\ntemplates:\n  P:\n    initial: l\n    \
         locations:\n      l: {{}}\n    edges:\n      - {{from: l, to: l, guard: \"{guard}\", update: \"{update}\"}}\n\
         system: [P]\nout_of_range: {}\n",
        if disable { "disable" } else { "error" }
    );
    // A model the checker rejects statically (a constant index out of
    // bounds) is no case: the caller rejects it, and proptest fails when
    // too many are.
    let loaded = load_model(&Source::new("m.yaml", text)).ok()?;
    let net = kairos::network::build(&loaded.model).ok()?;
    if net.processes[0].edges.is_empty() { None } else { Some(net) }
}

/// Every valuation of the data vector.
fn valuations(net: &Network) -> Vec<Vec<i64>> {
    let mut all = vec![Vec::new()];
    for s in &net.slots {
        all =
            all.into_iter().flat_map(|v: Vec<i64>| (s.lo..=s.hi).map(move |x| [v.clone(), vec![x]].concat())).collect();
    }
    all
}

/// The set of every valuation.
fn everything(m: &mut Manager, enc: &Encoding, net: &Network) -> bdd::Bdd {
    let mut slots = net.slots.clone();
    for s in &mut slots {
        s.init = (s.lo, s.hi);
    }
    enc.initial(m, &slots)
}

/// The explicit successor of `data` by the edge's updates, as
/// `semantics/successors.rs` defines it: `Ok(None)` when disabled.
fn explicit_update(net: &Network, updates: &[Update], data: &[i64]) -> Result<Option<Vec<i64>>, EvalError> {
    let mut d = data.to_vec();
    let mut stack = Vec::new();
    let disabled = |e: EvalError| match (net.out_of_range, e.innermost()) {
        (OutOfRange::Disable, EvalError::OutOfRange { .. }) => Ok(None),
        _ => Err(e),
    };
    for u in updates {
        let Update::Data { target, value } = u else { panic!("only data updates are generated") };
        let v = match value.exec(&[0], &mut d, &mut stack) {
            Ok(v) => v,
            Err(e) => return disabled(e),
        };
        let slot = match target {
            Target::Slot(s) => *s as usize,
            Target::Indexed { base, len, index } => {
                let i = index.eval(&[0], &d, &mut stack)?;
                if i < 0 || i >= *len as i64 {
                    return Err(EvalError::IndexOutOfBounds { index: i, len: *len });
                }
                (*base + i as u32) as usize
            }
        };
        let s = &net.slots[slot];
        if v < s.lo || v > s.hi {
            return disabled(EvalError::OutOfRange { slot: slot as u32, value: v });
        }
        d[slot] = v;
    }
    Ok(Some(d))
}

fn check_guard(g: &str) -> Result<(), TestCaseError> {
    let Some(net) = network(g, "", false) else { return Err(TestCaseError::reject("rejected by the checker")) };
    let code = net.processes[0].edges[0].guard_data.clone().unwrap_or_else(|| Code::constant(1));
    let mut m = Manager::new();
    let enc = Encoding::new(&net.slots);
    let all = everything(&mut m, &enc, &net);
    let split = step::guard(&mut m, &enc, &[0], all, &code).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    let mut stack = Vec::new();
    for v in valuations(&net) {
        let (pass, error) = (enc.contains(&m, split.pass, &v), enc.contains(&m, split.error, &v));
        match code.eval(&[0], &v, &mut stack) {
            Ok(x) => prop_assert_eq!((pass, error), (x != 0, false), "{} at {:?}", g, v),
            Err(_) => prop_assert_eq!((pass, error), (false, true), "{} at {:?}", g, v),
        }
    }
    Ok(())
}

fn check_update(update: &str, disable: bool) -> Result<(), TestCaseError> {
    let Some(net) = network("true", update, disable) else {
        return Err(TestCaseError::reject("rejected by the checker"));
    };
    let updates = net.processes[0].edges[0].updates.clone();
    let mut m = Manager::new();
    let enc = Encoding::new(&net.slots);
    let all = everything(&mut m, &enc, &net);
    let split = step::update(&mut m, &enc, &net.slots, &[0], net.out_of_range, all, &updates)
        .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    let mut image = std::collections::HashSet::new();
    for v in valuations(&net) {
        let explicit = explicit_update(&net, &updates, &v);
        prop_assert_eq!(enc.contains(&m, split.error, &v), explicit.is_err(), "{} error at {:?}", update, v);
        if let Ok(Some(w)) = explicit {
            image.insert(w);
        }
    }
    for w in valuations(&net) {
        prop_assert_eq!(enc.contains(&m, split.pass, &w), image.contains(&w), "{} image at {:?}", update, w);
    }
    if let Some(w) = enc.pick(&m, split.pass) {
        prop_assert!(image.contains(&w), "picked {:?}", w);
    }
    Ok(())
}

/// [`check_guard`] with `b` marked explicit, as the engines mark the slots
/// read in indices: on the set of every valuation (where `b` has many
/// values) and on each of its cuts to one value of `b` (where the machine
/// loads `b` as a constant).
fn check_guard_with_explicit_b(g: &str) -> Result<(), TestCaseError> {
    let Some(net) = network(g, "", false) else { return Err(TestCaseError::reject("rejected by the checker")) };
    let code = net.processes[0].edges[0].guard_data.clone().unwrap_or_else(|| Code::constant(1));
    let mut m = Manager::new();
    let enc = Encoding::new(&net.slots).with_explicit([1]);
    let all = everything(&mut m, &enc, &net);
    let mut stack = Vec::new();
    let cuts = (0..=5).map(|k| (k, enc.equals(&mut m, 1, k))).collect::<Vec<_>>();
    for (b, cut) in [(None, bdd::TRUE)].into_iter().chain(cuts.into_iter().map(|(k, c)| (Some(k), c))) {
        let set = m.and(all, cut);
        let split = step::guard(&mut m, &enc, &[0], set, &code).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        for v in valuations(&net).into_iter().filter(|v| b.is_none_or(|k| v[1] == k)) {
            let (pass, error) = (enc.contains(&m, split.pass, &v), enc.contains(&m, split.error, &v));
            match code.eval(&[0], &v, &mut stack) {
                Ok(x) => prop_assert_eq!((pass, error), (x != 0, false), "{} at {:?}, b cut to {:?}", g, v, b),
                Err(_) => prop_assert_eq!((pass, error), (false, true), "{} at {:?}, b cut to {:?}", g, v, b),
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn guards_pass_and_fail_where_the_explicit_evaluator_says(g in guard()) {
        check_guard(&g)?;
    }

    #[test]
    fn explicit_slots_loaded_as_constants_give_the_same_sets(g in guard()) {
        check_guard_with_explicit_b(&g)?;
    }

    #[test]
    fn updates_map_sets_as_the_explicit_successor_does(
        x in int_expr(), i in int_expr(), y in int_expr(), disable in any::<bool>()
    ) {
        check_update(&format!("r = {x}; arr[b - b + {i}] = {y}; a = r"), disable)?;
    }
}

/// Hand-picked cases whose answers are known: the oracle above is not the
/// only judge.
#[test]
fn known_sets() {
    let net = network("a * 2 + b == 3", "", false).unwrap();
    let mut m = Manager::new();
    let enc = Encoding::new(&net.slots);
    let all = everything(&mut m, &enc, &net);
    let code = net.processes[0].edges[0].guard_data.clone().unwrap();
    let split = step::guard(&mut m, &enc, &[0], all, &code).unwrap();
    // a ∈ [-3, 4], b ∈ [0, 5], 2a + b = 3: (a, b) ∈ {(-1, 5), (0, 3), (1, 1)}.
    let pairs: Vec<(i64, i64)> = valuations(&net)
        .into_iter()
        .filter(|v| enc.contains(&m, split.pass, v))
        .map(|v| (v[0], v[1]))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(pairs, vec![(-1, 5), (0, 3), (1, 1)]);
    assert_eq!(split.error, bdd::FALSE);
    // Set algebra: canonical equality, inclusion.
    let e = enc.equals(&mut m, 0, 1);
    let f = enc.equals(&mut m, 1, 1);
    let point = m.and(e, f);
    let inside = m.and(point, split.pass);
    assert!(m.implies(inside, split.pass));
    assert!(!m.implies(split.pass, inside));
    let again = m.or(inside, split.pass);
    assert_eq!(again, split.pass);
}

/// The largest and smallest values of `x` on the valuations where `g`
/// holds, from its word ([`bdd::word::extreme`]) and by enumeration.
fn check_extremes(g: &str, x: &str) -> Result<(), TestCaseError> {
    let Some(net) = network(g, &format!("r = {x}"), false) else {
        return Err(TestCaseError::reject("rejected by the checker"));
    };
    let edge = &net.processes[0].edges[0];
    let guard = edge.guard_data.clone().unwrap_or_else(|| Code::constant(1));
    let Update::Data { value, .. } = &edge.updates[0] else { panic!("a data update") };
    let mut m = Manager::new();
    let enc = Encoding::new(&net.slots);
    let all = everything(&mut m, &enc, &net);
    let set = step::guard(&mut m, &enc, &[0], all, &guard).map_err(|e| TestCaseError::fail(format!("{e:?}")))?.pass;
    let mut mach = bdd::exec::Machine::new(&mut m, &enc, &[0], OutOfRange::Error, set);
    let word = mach.run(value).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    // The valuations where `x` evaluates: an error takes a valuation off the path.
    let running = mach.path;
    let mut stack = Vec::new();
    let mut values = Vec::new();
    for v in valuations(&net) {
        if guard.eval(&[0], &v, &mut stack).is_ok_and(|b| b != 0) {
            values.extend(value.eval(&[0], &v, &mut stack).ok());
        }
    }
    for largest in [true, false] {
        let want = if largest { values.iter().max() } else { values.iter().min() };
        let got = bdd::word::extreme(&mut m, &word, running, largest);
        prop_assert_eq!(got, want.copied(), "{} on {}, largest {}", x, g, largest);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn extremes_of_a_word_are_the_enumerated_ones(g in guard(), x in int_expr()) {
        check_extremes(&g, &x)?;
    }
}
