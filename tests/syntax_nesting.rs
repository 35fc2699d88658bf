//! The nesting limit: 256 levels parse on a 2 MiB stack (the default of a
//! spawned thread) even in a debug build; 257 levels, and 100 000, are a
//! located error, never a stack overflow.

use kairos::syntax::ast::{Expr, MAX_NESTING, ParseError};
use kairos::syntax::parse::{MAX_TREE_DEPTH, parse_expr, parse_formula, parse_sync, parse_updates};

/// Runs `f` on a thread with a 2 MiB stack.
fn small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no overflow of the 2 MiB stack, no failed assertion")
}

/// Deepest chain of nodes in `e`, counted without recursion.
fn tree_depth(e: &Expr) -> usize {
    use kairos::syntax::ast::ExprKind::*;
    let mut todo: Vec<(&Expr, usize)> = vec![(e, 1)];
    let mut max = 0;
    while let Some((e, d)) = todo.pop() {
        max = max.max(d);
        let kids: Vec<&Expr> = match &e.kind {
            Index { base, index } => vec![base, index],
            Unary { arg, .. } | Path { arg, .. } => vec![arg],
            Binary { lhs, rhs, .. } | Until { lhs, rhs, .. } | LeadsTo { lhs, rhs, .. } => {
                vec![lhs, rhs]
            }
            Cond { cond, then, other } => vec![cond, then, other],
            Quant { lo, hi, body, .. } => vec![lo, hi, body],
            Member { instance, .. } => instance.args.iter().flatten().collect(),
            _ => vec![],
        };
        todo.extend(kids.into_iter().map(|k| (k, d + 1)));
    }
    max
}

/// Texts nesting `n` levels deep, each as (name, formula?, text).
fn shapes(n: usize) -> Vec<(&'static str, bool, String)> {
    vec![
        ("parentheses", false, format!("{}x{}", "(".repeat(n), ")".repeat(n))),
        ("brackets", false, format!("{}0{}", "a[".repeat(n), "]".repeat(n))),
        ("bang", false, format!("{}x", "!".repeat(n))),
        ("minus", false, format!("{}x", "- ".repeat(n))),
        ("not", false, format!("{}x", "not ".repeat(n))),
        ("not-paren", false, format!("{}x{}", "not(".repeat(n / 2), ")".repeat(n / 2))),
        ("imply chain", false, format!("{}x", "x imply ".repeat(n))),
        ("cond chain", false, format!("{}x", "c ? 1 : ".repeat(n))),
        ("cond middle", false, format!("{}1{}", "c ? ".repeat(n), " : 0".repeat(n))),
        ("forall", false, format!("{}x", "forall (i : 0..1) ".repeat(n))),
        ("index sum", false, format!("{}0{}", "a[1 + ".repeat(n), "]".repeat(n))),
        ("member args", false, format!("{}0{}", "T(".repeat(n), ").x".repeat(n))),
        ("E<>", true, format!("{}p", "E<> ".repeat(n))),
        ("A[]", true, format!("{}p", "A[] ".repeat(n))),
        ("AF bounded", true, format!("{}p", "AF[<=1] ".repeat(n))),
        ("exists", true, format!("{}p", "exists (i : 0..1) ".repeat(n))),
        ("formula parens", true, format!("{}p{}", "(".repeat(n), ")".repeat(n))),
        ("until", true, format!("{}p{}", "E[ p U ".repeat(n), " ]".repeat(n))),
        ("E<> and", true, format!("{}p", "p and E<> ".repeat(n))),
    ]
}

fn parse(formula: bool, text: &str) -> Result<Expr, ParseError> {
    if formula { parse_formula(text) } else { parse_expr(text) }
}

#[test]
fn nesting_256_parses_on_a_small_stack() {
    small_stack(|| {
        for (name, formula, text) in shapes(MAX_NESTING) {
            let e = parse(formula, &text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            assert!(tree_depth(&e) <= MAX_TREE_DEPTH, "{name}");
        }
    });
}

#[test]
fn nesting_257_is_a_located_error() {
    small_stack(|| {
        for (name, formula, text) in shapes(MAX_NESTING + 1) {
            if name == "not-paren" {
                continue; // 257 / 2 levels of each: see `mixed_nesting_counts_both`
            }
            let e = parse(formula, &text).expect_err(name);
            assert!(e.message.contains("nesting deeper than 256"), "{name}: {e:?}");
            assert!(e.span.start > 0 && e.span.end <= text.len(), "{name}: {e:?}");
            assert!(e.span.start < e.span.end, "{name}: {e:?}");
        }
    });
}

#[test]
fn nesting_100_000_is_a_located_error() {
    // Chains of operators that pest parses slowly in debug builds (seconds per
    // 100 000 levels) run at 20 000 levels: the check is the same loop.
    const SLOW: &[&str] = &["imply chain", "cond chain", "exists", "AF bounded", "E<> and"];
    let big = shapes(100_000).into_iter().filter(|s| !SLOW.contains(&s.0));
    let slow = shapes(20_000).into_iter().filter(|s| SLOW.contains(&s.0));
    // One thread per shape, in parallel.
    let threads: Vec<_> = big
        .chain(slow)
        .map(|(name, formula, text)| {
            std::thread::Builder::new()
                .stack_size(2 * 1024 * 1024)
                .spawn(move || {
                    let e = parse(formula, &text).expect_err(name);
                    assert!(e.message.contains("nesting deeper than 256"), "{name}: {e:?}");
                    assert!(e.span.start > 0 && e.span.end <= text.len(), "{name}: {e:?}");
                })
                .expect("spawn")
        })
        .collect();
    for t in threads {
        t.join().expect("no overflow, no failed assertion");
    }
}

#[test]
fn error_points_at_the_257th_level() {
    let text = format!("{}x{}", "(".repeat(300), ")".repeat(300));
    let e = parse_expr(&text).unwrap_err();
    assert_eq!((e.span.start, e.span.end), (256, 257));

    let text = format!("{}x", "!".repeat(300));
    let e = parse_expr(&text).unwrap_err();
    assert_eq!((e.span.start, e.span.end), (256, 257));

    let text = format!("{}p", "E<> ".repeat(300));
    let e = parse_formula(&text).unwrap_err();
    assert_eq!((e.span.start, e.span.end), (4 * 256, 4 * 256 + 3));

    let text = format!("{}x", "x imply ".repeat(300));
    let e = parse_expr(&text).unwrap_err();
    assert_eq!((e.span.start, e.span.end), (8 * 256 + 2, 8 * 256 + 7));
}

#[test]
fn mixed_nesting_counts_both() {
    // Parentheses and prefix operators count together.
    small_stack(|| {
        let ok = format!("{}x{}", "!(".repeat(128), ")".repeat(128));
        parse_expr(&ok).unwrap();
        let bad = format!("{}x{}", "!(".repeat(129), ")".repeat(129));
        let e = parse_expr(&bad).unwrap_err();
        assert!(e.message.contains("nesting deeper than 256"), "{e:?}");
        assert_eq!(e.span.start, 256);
    });
}

#[test]
fn long_flat_chains_are_fine_up_to_the_tree_limit() {
    small_stack(|| {
        // A left-associative chain is flat to the nesting limit, deep as a tree.
        let text = vec!["x"; 1000].join(" + ");
        let e = parse_expr(&text).unwrap();
        assert_eq!(tree_depth(&e), 1000);
        let text = vec!["a"; 1000].join(" && ");
        parse_formula(&text).unwrap();
        let text = format!("{}x", "(x + 1) * ".repeat(300));
        parse_expr(&text).unwrap();
    });
}

#[test]
fn very_long_chains_are_a_located_error() {
    small_stack(|| {
        for (formula, text) in [
            (false, vec!["1"; 20_000].join(" + ")),
            (false, vec!["1"; 20_000].join("*")),
            (true, vec!["p"; 20_000].join(" and ")),
            (false, format!("a{}", "[0]".repeat(20_000))),
            (false, vec!["1"; MAX_TREE_DEPTH + 1].join(" - ")),
        ] {
            let e = parse(formula, &text).unwrap_err();
            assert!(e.message.contains("too deep"), "{e:?}");
            assert!(e.span.start > 0 && e.span.end <= text.len());
        }
        let e = parse_updates(&format!("a{} = 1", "[0]".repeat(20_000))).unwrap_err();
        assert!(e.message.contains("too deep"), "{e:?}");
    });
}

#[test]
fn deep_sync_index_and_updates() {
    small_stack(|| {
        let text = format!("go[{}0{}]!", "(".repeat(255), ")".repeat(255));
        parse_sync(&text).unwrap();
        let text = format!("go[{}0{}]!", "(".repeat(256), ")".repeat(256));
        assert!(parse_sync(&text).unwrap_err().message.contains("nesting deeper than 256"));
        let text = format!("x = {}0{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(parse_updates(&text).unwrap_err().message.contains("nesting deeper than 256"));
    });
}
