//! Evidence below the outermost operator: when the subformula that decides
//! a nested verdict at the end of its path is itself temporal, the trace
//! goes on from that point with the run that shows it (a path for `EF`,
//! `E[U]` holding and `AG` failing, a lasso for `EG` holding and `AF`,
//! `A[U]` failing), or ends there when no run can (`EF` failing, `AG`,
//! `AF`, `A[U]` holding, `EG`, `E[U]` failing). Every operator with every
//! bound kind at the inner position, answers argued per case.
//!
//! Oracle: each trace is replayed by the validator, and from each blamed
//! point it must show the blamed subformula ([`shows`]), which is parsed
//! again from the text the engine prints: the engine's sets are not
//! trusted. Mutated traces (the inner run started elsewhere, cut short,
//! a step dropped) are refused.

use kairos::engine::{self, Blame, Options, Shown, Verdict};
use kairos::model::formula::EngineKind;
use kairos::model::load::{Loaded, load_model};
use kairos::network::Network;
use kairos::syntax::yaml::Source;
use kairos::trace::validate::shows;
use kairos::trace::{ConcreteTrace, Rational};
use num_traits::Zero;

/// `a` must be left at some x in [1, 2]; `b` lasts exactly 3 (left at x =
/// 3, x reset on both edges). From `b` at x the next `a` point comes at
/// time 3 - x; from `a` at x, `b` comes at a time in [max(1 - x, 0), 2 - x].
const PULSE: &str = include_str!("models/tctl/pulse.yaml");

const RAILWAY: &str = include_str!("../models/railway-crossing.yaml");

/// The crossing with one train (the fixpoints stay small).
fn railway() -> String {
    RAILWAY.replace("  N: 3 ", "  N: 1 ")
}

#[derive(Clone)]
struct Checked {
    net: Network,
    loaded: Loaded,
    verdict: Verdict,
    trace: Option<ConcreteTrace>,
    /// The blamed subformulas, outermost first.
    blames: Vec<Blame>,
}

/// `q` through the fixpoint engine; its trace, if any, made concrete and
/// replayed.
fn run(yaml: &str, q: &str) -> Checked {
    let loaded = load_model(&Source::new("m.yaml", yaml.to_string())).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let p = loaded.query("q", q).unwrap_or_else(|d| panic!("{q}: {d:?}"));
    let tctl = Options { engine: Some(EngineKind::Tctl), ..Options::default() };
    let o = engine::check(&loaded.model, Some(&net), &p, &tctl);
    let trace = o.trace.as_ref().map(|t| {
        let c = kairos::trace::concretise(&net, t).unwrap_or_else(|e| panic!("`{q}`: {e}"));
        kairos::trace::validate(&net, &c).unwrap_or_else(|e| panic!("`{q}`: {e}"));
        c
    });
    let mut blames = Vec::new();
    let mut next = o.trace.as_ref().and_then(|t| t.blame.clone());
    while let Some(b) = next {
        next = b.then.as_deref().cloned();
        blames.push(b);
    }
    Checked { net, loaded, verdict: o.verdict, trace, blames }
}

impl Checked {
    /// Whether the trace, from `at`, shows that the subformula `text` has
    /// the value `holds` there, by the validator.
    fn shows(&self, at: &(usize, Rational), text: &str, holds: bool) -> Result<(), String> {
        let p = self.loaded.query("s", text).unwrap_or_else(|d| panic!("{text}: {d:?}"));
        shows(&self.net, &p, self.trace.as_ref().expect("a trace"), at, &p.formula, holds)
    }
}

/// The end point of `c`, as a blame's `at`.
fn end(c: &ConcreteTrace) -> (usize, Rational) {
    (c.steps.len(), c.final_delay.clone())
}

/// Checks `q`: its verdict, and the subformulas blamed along its trace
/// (text and what the trace shows of each), each checked by the validator
/// from its point: a path or lasso must show it, a subformula about every
/// run must be one that no run shows, and the trace must end there. Limits
/// of this oracle: `shows` checks a subformula over state formulas only;
/// an outer link of a chain (its arguments temporal) is accepted as far as
/// the replay goes, and its claim rests on the next link, checked from its
/// own point. `EveryRun` checks the classification (`shows` refuses such
/// a formula by its shape), not the model.
fn check(yaml: &str, q: &str, verdict: Verdict, expected: &[(&str, Shown)]) -> Checked {
    let c = run(yaml, q);
    assert_eq!(c.verdict, verdict, "`{q}`");
    let got: Vec<(&str, Shown)> = c.blames.iter().map(|b| (b.text.as_str(), b.shown)).collect();
    assert_eq!(got, expected, "`{q}`");
    let Some(t) = &c.trace else {
        assert!(expected.is_empty(), "`{q}`: no trace");
        return c;
    };
    let lasso = c.blames.iter().any(|b| b.shown == Shown::Lasso);
    assert_eq!(t.loop_start.is_some(), lasso, "`{q}`: a lasso exactly when a blamed formula calls for one");
    for b in &c.blames {
        let at = b.at.clone().unwrap_or_else(|| end(t));
        let text = kairos::trace::text(&c.net, t);
        match b.shown {
            Shown::Path | Shown::Lasso => {
                c.shows(&at, &b.text, b.holds).unwrap_or_else(|e| panic!("`{q}`: `{}`: {e}\n{text}", b.text));
            }
            Shown::EveryRun => {
                assert!(c.shows(&at, &b.text, b.holds).is_err(), "`{q}`: `{}` about every run", b.text);
                assert_eq!(at, end(t), "`{q}`: the trace ends at the point\n{text}");
            }
            Shown::Point | Shown::Missing => assert_eq!(at, end(t), "`{q}`\n{text}"),
        }
    }
    c
}

/// A property, its verdict, and the blamed subformulas with what the
/// trace shows of each.
type Case<'a> = (&'a str, Verdict, &'a [(&'a str, Shown)]);

fn check_all(yaml: &str, cases: &[Case]) {
    for (q, v, blames) in cases {
        check(yaml, q, v.clone(), blames);
    }
}

use Shown::{EveryRun, Lasso, Path};
use Verdict::{Satisfied as Holds, Violated as Fails};

#[test]
fn inner_ef_and_ag_are_paths() {
    let cases: &[Case] = &[
        // From `b` at x = 0, `a` comes at time 3 exactly.
        ("E<> (P.b and EF[<=3] P.a)", Holds, &[("EF[<=3] P.a", Path)]),
        // Strictly before 3 only from x > 0: the path ends inside the delay
        // in `b`, and the inner path starts there.
        ("E<> (P.b and EF[<3] P.a)", Holds, &[("EF[<3] P.a", Path)]),
        // `b` at time 4: leave `a` at 1 (b on [1, 4]).
        ("E<> (P.a and EF[>=4] P.b)", Holds, &[("EF[>=4] P.b", Path)]),
        ("E<> (P.a and EF[>5] P.b)", Holds, &[("EF[>5] P.b", Path)]),
        // From `a` at x = 0, leave at 1 or 2: `b` at time 2 either way.
        ("E<> (P.a and EF[==2] P.b)", Holds, &[("EF[==2] P.b", Path)]),
        // From `a` at x = 0, `b` needs at least 1: nothing shows it fails.
        ("A[] (P.a imply EF[<1] P.b)", Fails, &[("EF[<1] P.b", EveryRun)]),
        // `b` lasts until its x = 3, then `a`: the `a` point comes at time
        // 3 - x, within 2 once x >= 1, before 3 once x > 0.
        ("A[] (P.b imply AG[<=2] P.b)", Fails, &[("AG[<=2] P.b", Path)]),
        ("A[] (P.b imply AG[<3] P.b)", Fails, &[("AG[<3] P.b", Path)]),
        // From `b` at x = 0 the `a` point at time 3 is at time >= 3.
        ("A[] (P.b imply AG[>=3] P.b)", Fails, &[("AG[>=3] P.b", Path)]),
        // `b` comes back: `a` does not last.
        ("A[] (P.b imply AG[>4] P.a)", Fails, &[("AG[>4] P.a", Path)]),
        // From `a` at x = 0, leaving at 1 puts a `b` point at time 1.
        ("A[] (P.a imply AG[==1] P.a)", Fails, &[("AG[==1] P.a", Path)]),
        // Every point is in `a` or `b`: holds, no trace.
        ("A[] (P.a imply AG[>=3] (P.a or P.b))", Holds, &[]),
        // Seen from the other side: `not AG` holding is `AG` failing.
        ("E<> (P.b and not AG[<=2] P.b)", Holds, &[("AG[<=2] P.b", Path)]),
    ];
    check_all(PULSE, cases);
}

#[test]
fn inner_until_is_a_path_when_existential() {
    let cases: &[Case] = &[
        // From `a` at x = 0, leave at x = 1: `b` at time 1.
        ("E<> (P.a and E[P.a U[<=1] P.b])", Holds, &[("E[P.a U[<=1] P.b]", Path)]),
        // Strictly before 1: only from x > 0 (leave at x = 1).
        ("E<> (P.a and E[P.a U[<1] P.b])", Holds, &[("E[P.a U[<1] P.b]", Path)]),
        // From `b` at x = 0, `a` at time 3; `b` meanwhile.
        ("E<> (P.b and E[P.b U[>=3] P.a])", Holds, &[("E[P.b U[>=3] P.a]", Path)]),
        ("E<> (P.b and E[P.b U[>2] P.a])", Holds, &[("E[P.b U[>2] P.a]", Path)]),
        ("E<> (P.b and E[P.b U[==3] P.a])", Holds, &[("E[P.b U[==3] P.a]", Path)]),
        // From `b` at x > 0 `a` comes before 3: no run shows a failure.
        ("A[] (P.b imply E[P.b U[==3] P.a])", Fails, &[("E[P.b U[==3] P.a]", EveryRun)]),
    ];
    check_all(PULSE, cases);
}

#[test]
fn inner_eg_af_and_all_until_are_lassos() {
    let cases: &[Case] = &[
        // `b` at x <= 1 lasts 2 more: every point before time 2 is in `b`.
        ("E<> (P.b and EG[<2] P.b)", Holds, &[("EG[<2] P.b", Lasso)]),
        // Through time 2 as well: only from x < 1.
        ("E<> (P.b and EG[<=2] P.b)", Holds, &[("EG[<=2] P.b", Lasso)]),
        // Leaving `a` always at x = 1 keeps `a` points at x <= 1.
        ("E<> (P.a and EG[>=2] (P.b or P.x <= 1))", Holds, &[("EG[>=2] (P.b or P.x <= 1)", Lasso)]),
        // `a` never lasts: no run keeps it after 3.
        ("E<> (P.b and EG[>3] P.a)", Fails, &[]),
        // From `a` at x >= 1, leave at once: `b` holds all of time 1.
        ("E<> (P.a and EG[==1] P.b)", Holds, &[("EG[==1] P.b", Lasso)]),
        // `EG` failing is about every run.
        ("A[] (P.b imply EG[<2] P.b)", Fails, &[("EG[<2] P.b", EveryRun)]),
        // From `b` at x < 1, `a` comes after time 2; at x = 0, at 3.
        ("A[] (P.b imply AF[<=2] P.a)", Fails, &[("AF[<=2] P.a", Lasso)]),
        ("A[] (P.b imply AF[<3] P.a)", Fails, &[("AF[<3] P.a", Lasso)]),
        // `a` has x <= 2 (its invariant): never `a and x > 2`.
        ("A[] (P.b imply AF[>=1] (P.a and P.x > 2))", Fails, &[("AF[>=1] (P.a and P.x > 2)", Lasso)]),
        ("A[] (P.b imply AF[>1] (P.a and P.x > 2))", Fails, &[("AF[>1] (P.a and P.x > 2)", Lasso)]),
        // From `b` at x > 1: `a` on [3 - x, 4 - x] when left after 1, all
        // before 3, then `b` until after 3.
        ("A[] (P.b imply AF[==3] P.a)", Fails, &[("AF[==3] P.a", Lasso)]),
        // `AF` holding is about every run: `b` again after `a`, always.
        ("E<> (P.a and AF[>2] P.b)", Holds, &[("AF[>2] P.b", EveryRun)]),
        // `a` comes at 3 - x: after 2 when x < 1.
        ("A[] (P.b imply A[P.b U[<=2] P.a])", Fails, &[("A[P.b U[<=2] P.a]", Lasso)]),
        ("A[] (P.b imply A[P.b U[<3] P.a])", Fails, &[("A[P.b U[<3] P.a]", Lasso)]),
        // Waiting in `a` up to x = 2 meets `a and x = 2` (neither side)
        // before `b`: the until fails early.
        ("A[] (P.a imply A[(P.a and P.x < 2) U[>=1] P.b])", Fails, &[("A[(P.a and P.x < 2) U[>=1] P.b]", Lasso)]),
        ("A[] (P.a imply A[(P.a and P.x < 2) U[>1] P.b])", Fails, &[("A[(P.a and P.x < 2) U[>1] P.b]", Lasso)]),
        // As for `AF[==3]` above, from `b` at x > 1.
        ("A[] (P.b imply A[P.b U[==3] P.a])", Fails, &[("A[P.b U[==3] P.a]", Lasso)]),
        // Every point is `a` or `b`, and `b` comes within 2 of `a`.
        ("E<> (P.a and A[P.a U[<=2] P.b])", Holds, &[("A[P.a U[<=2] P.b]", EveryRun)]),
    ];
    check_all(PULSE, cases);
}

#[test]
fn nested_paths_go_on_into_the_next_subformula() {
    let cases: &[Case] = &[
        // From `b`, `a` comes; there, once x >= 1, leaving at once puts all
        // of time 1 in `b`: the path to that point, then the lasso.
        (
            "E<> (P.b and EF (P.a and P.x >= 1 and EG[==1] P.b))",
            Holds,
            &[("EF (P.a and P.x >= 1 and EG[==1] P.b)", Path), ("EG[==1] P.b", Lasso)],
        ),
        // Two paths, then a lasso: `a` waits for `b`, whose start (x = 0)
        // keeps `b` for 2 more.
        (
            "E<> (P.b and EF (P.a and E[P.a U (P.b and EG[<2] P.b)]))",
            Holds,
            &[
                ("EF (P.a and E[P.a U (P.b and EG[<2] P.b)])", Path),
                ("E[P.a U (P.b and EG[<2] P.b)]", Path),
                ("EG[<2] P.b", Lasso),
            ],
        ),
        // The path ends where a universal subformula holds: nothing more.
        (
            "E<> (P.b and EF[<=3] (P.a and AF[>2] P.b))",
            Holds,
            &[("EF[<=3] (P.a and AF[>2] P.b)", Path), ("AF[>2] P.b", EveryRun)],
        ),
        // `not AG` is `AG` failing, whose path ends where `EG[<2] P.b`
        // holds (its negation fails).
        (
            "E<> (P.a and not AG not (P.b and EG[<2] P.b))",
            Holds,
            &[("AG not (P.b and EG[<2] P.b)", Path), ("EG[<2] P.b", Lasso)],
        ),
    ];
    check_all(PULSE, cases);
}

#[test]
fn railway_nested_evidence() {
    let one = railway();
    let cases: &[Case] = &[
        // Once on, the gate is down until the train is far, but it is then
        // raised: `Gate.down` gives way to `Gate.raising`, not `Gate.up`.
        ("A[] (Train(1).on imply A[Gate.down U Gate.up])", Fails, &[("A[Gate.down U Gate.up]", Lasso)]),
        // At an approach the gate starts lowering (y = 0), and `lowering`
        // may take the full unit (y <= 1).
        ("A[] (Train(1).near and Train(1).x == 0 imply AF[<1] Gate.down)", Fails, &[("AF[<1] Gate.down", Lasso)]),
        // The train may wait near until x = 5, not past it.
        (
            "E<> (Train(1).near and Train(1).x == 0 and EG[<5] not Train(1).on)",
            Holds,
            &[("EG[<5] not Train(1).on", Lasso)],
        ),
        (
            "A[] (Train(1).near and Train(1).x == 0 imply EG[<=5] not Train(1).on)",
            Fails,
            &[("EG[<=5] not Train(1).on", EveryRun)],
        ),
        // On at x > 2, the train may leave at x = 3, within 1 of it; the
        // gate stays down meanwhile.
        (
            "E<> (Train(1).on and E[Gate.down U[<=3] Train(1).far])",
            Holds,
            &[("E[Gate.down U[<=3] Train(1).far]", Path)],
        ),
        // Right after the exit the gate is raising: `Gate.up` fails at time 0.
        ("A[] (Train(1).far imply AG[<=1] Gate.up)", Fails, &[("AG[<=1] Gate.up", Path)]),
        // `raising` is left at y >= 1: up before 1 from y > 0.
        ("E<> (Gate.raising and EF[<1] Gate.up)", Holds, &[("EF[<1] Gate.up", Path)]),
        // A far train need not approach: `AF` fails, the lasso stays far.
        ("A[] (Train(1).far imply AF[>=2] Train(1).near)", Fails, &[("AF[>=2] Train(1).near", Lasso)]),
        // Nested twice: from far, a run to an approach (x = 0) from which
        // the train keeps off the crossing before 5.
        (
            "E<> (Train(1).far and EF (Train(1).near and Train(1).x == 0 and EG[<5] not Train(1).on))",
            Holds,
            &[
                ("EF (Train(1).near and Train(1).x == 0 and EG[<5] not Train(1).on)", Path),
                ("EG[<5] not Train(1).on", Lasso),
            ],
        ),
    ];
    check_all(&one, cases);
}

/// The validator refuses evidence that is not what it claims: started
/// from another point, cut short at its start, or missing a step.
#[test]
fn mutated_evidence_is_refused() {
    // A path: from `b` at x > 0, `a` before 3. Started at x = 0 instead
    // (the same state, before the delay), `a` comes only at 3.
    let c = check(PULSE, "E<> (P.b and EF[<3] P.a)", Holds, &[("EF[<3] P.a", Path)]);
    let (n, d) = c.blames[0].at.clone().unwrap();
    assert!(d > Rational::zero(), "the point lies inside a delay");
    assert!(c.shows(&(n, Rational::zero()), "EF[<3] P.a", true).is_err());
    refuses_cut_and_dropped(&c);
    // A lasso: from `b` at x = 0 `a` comes only at 3; from the initial
    // state (in `a`), `AF[<=2] P.a` holds at once.
    let c = check(PULSE, "A[] (P.b imply AF[<=2] P.a)", Fails, &[("AF[<=2] P.a", Lasso)]);
    assert!(c.shows(&(0, Rational::zero()), "AF[<=2] P.a", false).is_err());
    refuses_cut_and_dropped(&c);
    let c = check(
        &railway(),
        "A[] (Train(1).on imply A[Gate.down U Gate.up])",
        Fails,
        &[("A[Gate.down U Gate.up]", Lasso)],
    );
    assert!(c.shows(&(0, Rational::zero()), "A[Gate.down U Gate.up]", false).is_err());
    refuses_cut_and_dropped(&c);
}

/// The trace of `c` without its first blame's evidence (cut at its point),
/// and without the evidence's first step: the validator refuses both.
fn refuses_cut_and_dropped(c: &Checked) {
    let b = &c.blames[0];
    let (n, d) = b.at.clone().unwrap();
    let t = c.trace.clone().unwrap();
    let cut = ConcreteTrace { steps: t.steps[..n].to_vec(), final_delay: d.clone(), loop_start: None, ..t.clone() };
    kairos::trace::validate(&c.net, &cut).unwrap();
    let on_cut = Checked { trace: Some(cut), ..c.clone() };
    assert!(on_cut.shows(&(n, d.clone()), &b.text, b.holds).is_err(), "`{}` shown by no run", b.text);
    let mut dropped = t.clone();
    dropped.steps.remove(n);
    dropped.loop_start = dropped.loop_start.map(|l| l - 1);
    let refused = kairos::trace::validate(&c.net, &dropped).is_err()
        || Checked { trace: Some(dropped), ..c.clone() }.shows(&(n, d), &b.text, b.holds).is_err();
    assert!(refused, "`{}` without the evidence's first step", b.text);
}

/// From `s` (y = 0): `u` now, or `t` at y = 1, where time stops. `u` and
/// `t` have no step: both are deadlocks.
const LOCK: &str = include_str!("models/tctl/lock.yaml");

#[test]
fn deadlock_goals_get_paths() {
    let cases: &[Case] = &[
        // `u` at once: a deadlock, at time 0.
        ("E<> (Q.s and EF[<=1] deadlock)", Holds, &[("EF[<=1] deadlock", Path)]),
        // `s or deadlock` until a deadlock at time >= 1: wait in `u`.
        ("E<> (Q.s and E[Q.s U[>=1] deadlock])", Holds, &[("E[Q.s U[>=1] deadlock]", Path)]),
        // Every divergent run goes to `u` at once: the until holds.
        ("E<> (Q.s and not A[Q.s U deadlock])", Fails, &[]),
    ];
    check_all(LOCK, cases);
}

/// At the top, a bounded `EF` or `AG` and an `E[U]` have a path from the
/// initial state too, checked from there like the nested ones.
#[test]
fn outermost_bounded_reachability_and_until_are_paths() {
    let cases: &[Case] = &[
        // Leave `a` at 1, back in `a` at 4: time 5 is in `a`.
        ("EF[==5] P.a", Holds, &[]),
        // Leaving `a` at 1 puts `b` at time 1.
        ("AG[<=1] P.a", Fails, &[]),
        ("AG[>=2] (P.a or P.x < 3)", Fails, &[]),
        ("E[P.a U[<=1] P.b]", Holds, &[]),
        ("E[P.a U[>2] P.b]", Holds, &[]),
        // Then the lasso keeping `b` for 2 from where `b` starts.
        ("E[P.a U (P.b and EG[<2] P.b)]", Holds, &[("EG[<2] P.b", Lasso)]),
        // `b` by time 3, where `a` must come within 2: only every run shows it.
        ("EF[<=3] (P.b and AF[<=2] P.a)", Holds, &[("AF[<=2] P.a", EveryRun)]),
    ];
    for (q, v, blames) in cases {
        let c = check(PULSE, q, v.clone(), blames);
        let holds = *v == Holds;
        c.shows(&(0, Rational::zero()), q, holds).unwrap_or_else(|e| panic!("`{q}`: {e}"));
        let t = c.trace.as_ref().expect("a path");
        assert!(t.steps.len() + usize::from(!t.final_delay.is_zero()) > 0, "`{q}`: a path, not the initial state");
    }
}
