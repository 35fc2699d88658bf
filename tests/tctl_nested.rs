//! The TCTL fixpoint engine on small models whose answers are argued by
//! hand: every operator with every bound kind, nested; time-divergent runs
//! only for `EG`, `AF`, `A[U]`; traces for `EF` witnesses and `AG`
//! counterexamples, checked by the validator.

use kairos::engine::{self, Options, Verdict};
use kairos::model::load::load_model;
use kairos::syntax::yaml::Source;

/// `a` must be left at some x in [1, 2]; `b` lasts exactly 3. So a run is
/// in `a` on [0, t1] (t1 in [1, 2]), in `b` on [t1, t1 + 3], in `a` again
/// from t1 + 3 (in [4, 5]) for another 1 to 2, and so on.
const PULSE: &str = include_str!("models/tctl/pulse.yaml");

/// From `s` (y = 0): `u` now, or `t` at y = 1, where time stops at y = 1
/// forever (a time-lock: no step leaves `t`). Every time-divergent run goes
/// to `u` at time 0.
const LOCK: &str = include_str!("models/tctl/lock.yaml");

fn check_all(text: &str, cases: &[(&str, bool)]) {
    let src = Source::new("m", text.to_string());
    let loaded = load_model(&src).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let tctl = Options { engine: Some(kairos::model::formula::EngineKind::Tctl), ..Options::default() };
    for &(q, holds) in cases {
        let p = loaded.query("q", q).unwrap_or_else(|d| panic!("{q}: {d:?}"));
        let o = engine::check(&loaded.model, Some(&net), &p, &tctl);
        let want = if holds { Verdict::Satisfied } else { Verdict::Violated };
        assert_eq!(o.verdict, want, "`{q}`");
        let outermost_ef = q.starts_with("E<>") || q.starts_with("EF");
        let outermost_ag = q.starts_with("A[]") || q.starts_with("AG");
        let unbounded = !q.contains("E<>[") && !q.contains("A[][") && !q.contains("EF[") && !q.contains("AG[");
        if unbounded && ((outermost_ef && holds) || (outermost_ag && !holds)) {
            let symbolic = o.trace.as_ref().unwrap_or_else(|| panic!("`{q}` gives a trace"));
            let t = kairos::trace::concretise(&net, symbolic).unwrap_or_else(|e| panic!("{q}: {e:?}"));
            kairos::trace::validate(&net, &t).unwrap_or_else(|e| panic!("{q}: {e}"));
        }
    }
}

#[test]
fn bounded_operators_on_a_pulse() {
    check_all(
        PULSE,
        &[
            // b first at t1 in [1, 2].
            ("EF[<=1] P.b", true),
            ("EF[<1] P.b", false),
            ("EF[>=7] P.b", true),
            // a at time 5: leave a at 2, back at 5. At time 3, always b.
            ("EF[==5] P.a", true),
            ("EF[==3] P.a", false),
            ("E<>[>3] P.a", true),
            // Every run is in b by time 2; not always before 2.
            ("AF[<=2] P.b", true),
            ("AF[<2] P.b", false),
            ("A<>[==3] P.b", true),
            ("AF[>6] P.a", true),
            // Only a before b: a throughout [0, 2) by leaving at 2, but
            // time 2 has the b point too.
            ("EG[<2] P.a", true),
            ("EG[<=2] P.a", false),
            ("E[][<=0] P.a", true),
            // b at time 3 whatever the run; a is left and re-entered.
            ("AG[==3] P.b", true),
            ("AG[<=1] P.a", false),
            ("AG[<1] P.a", true),
            ("A[][>=0] (P.a or P.b)", true),
            ("EG[>=4] P.a", false),
            ("EG[>4] (P.a or P.b)", true),
            // Until, bounds on the time of the right-hand side.
            ("E[P.a U[<=1] P.b]", true),
            ("E[P.a U[<1] P.b]", false),
            ("A[P.a U P.b]", true),
            ("A[P.a U[<=2] P.b]", true),
            ("A[P.a U[<=1] P.b]", false),
            // Time 2 is in b whether a is left at 1 or at 2.
            ("A[P.a U[==2] P.b]", true),
            // b lasts from t1 <= 2 to t1 + 3 >= 4, so time 2.5 is in b.
            ("E[P.a U[>2] P.b]", true),
            ("A[P.a U[>=2] P.b]", true),
            ("A[P.a U[>3] P.b]", true),
            // Every point is in a or b: only the time of b matters.
            ("A[P.a U[>5] P.b]", true),
            // The a point at x = 1, just before the earliest step, breaks
            // `x < 1`; `x <= 1` allows leaving at 1.
            ("E[(P.a and P.x < 1) U P.b]", false),
            ("A[(P.a and P.x < 1) U P.b]", false),
            ("E[(P.a and P.x <= 1) U P.b]", true),
            ("A[(P.a and P.x <= 1) U P.b]", false),
            // Clock atoms.
            ("A[] (P.a imply P.x <= 2)", true),
            ("E<> P.b and P.x > 2", true),
            ("A[] (P.b imply P.x < 3)", false),
        ],
    );
}

#[test]
fn nested_properties_on_a_pulse() {
    check_all(
        PULSE,
        &[
            // From every point of a (x <= 2), b within 2: leave at max(x, 1).
            ("A[] (P.a imply EF[<=2] P.b)", true),
            // At x = 0 in a, b needs at least 1.
            ("A[] (P.a imply EF[<1] P.b)", false),
            ("A[] (P.a and P.x >= 1 imply EF[<=0] P.b)", true),
            // b ends within 3 of every point in b, and at x = 0 not before 3.
            ("A[] (P.b imply AF[<=3] P.a)", true),
            ("A[] (P.b imply AF[<3] P.a)", false),
            ("P.b -->[<=3] P.a", true),
            ("P.b -->[==3] P.a", false),
            // From a, every run reaches b and from there a again.
            ("AG (P.a imply AF (P.b and AF P.a))", true),
            // Some run stays in a for 2 from x = 0 only: not from x = 1.
            ("A[] (P.a imply EG[<1] P.a)", false),
            ("E<> (P.a and not EG[<1] P.a)", true),
            ("E<> (P.b and A[P.b U[==3] P.a])", true),
            ("EF (P.a and P.x > 1 and E[P.a U[<=1] P.b])", true),
            ("A[] (P.a imply A[P.a U[<=2] P.b])", true),
            ("A[] not deadlock", true),
            ("E<> deadlock", false),
        ],
    );
}

#[test]
fn time_locks_make_divergent_operators_vacuous() {
    check_all(
        LOCK,
        &[
            // Reaching t is a finite prefix: it counts.
            ("E<> Q.t", true),
            ("E[Q.s U Q.t]", true),
            // Only divergent runs count: they all go to u at time 0.
            ("A<> Q.u", true),
            ("AF[<=0] Q.u", true),
            ("A[Q.s U Q.u]", true),
            ("E[] not Q.u", false),
            ("EG Q.s", false),
            // In t nothing diverges: EG false, AF true there.
            ("A[] (Q.t imply not EG true)", true),
            ("A[] (Q.t imply AF false)", true),
            // t is a deadlock (no step, and time stops).
            ("E<> deadlock", true),
            ("A[] not deadlock", false),
            // u has no step either (time passes there forever).
            ("A[] (deadlock imply not Q.s)", true),
            ("A[] (Q.u imply deadlock)", true),
        ],
    );
}

/// `--max-states` bounds the forward pass and the fixpoints together: the
/// railway crossing's forward pass expands 102 states, the fixpoints of
/// this property a few hundred more.
#[test]
fn the_state_budget_covers_both_passes() {
    let src = Source::new("rc", std::fs::read_to_string("models/railway-crossing.yaml").unwrap());
    let loaded = load_model(&src).unwrap();
    let net = kairos::network::build(&loaded.model).unwrap();
    let p = loaded.query("q", "A[] (Train(1).on imply A[Gate.down U Train(1).far])").unwrap();
    let limits = |n| kairos::engine::reach::Limits { max_states: Some(n), ..Default::default() };
    let tctl = |n| Options { limits: limits(n), ..Options::default() };
    let o = engine::check(&loaded.model, Some(&net), &p, &tctl(200));
    assert_eq!(o.verdict, Verdict::Unknown(kairos::engine::Unknown::StateLimit));
    let visited = o.stats.unwrap().visited;
    assert!(visited > 102 && visited <= 200, "{visited}");
    let o = engine::check(&loaded.model, Some(&net), &p, &tctl(100_000));
    assert_eq!(o.verdict, Verdict::Satisfied);
    assert!(o.stats.unwrap().visited > 200);
}
