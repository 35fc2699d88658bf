//! Parser tests: every example of FORMAT.md (sections 1 and 3), precedence,
//! spans, located errors and the nesting limit.
//!
//! Trees are compared as S-expressions printed by `sx` below: `(EF (and a b))`.

use kairos::syntax::ast::{Action, StmtKind, Update};
use kairos::syntax::ast::{
    AssignOp, BinOp, BoundOp, Expr, ExprKind, ParseError, PathOp, PathQuant, Quantifier, Select, Span, SyncDir,
    SystemArg, TimeBound, UnOp,
};
use kairos::syntax::parse::{
    parse_expr, parse_formula, parse_function, parse_selects, parse_sync, parse_system_entry, parse_updates,
};

// ---------------------------------------------------------------- printer

fn bound(b: &Option<TimeBound>) -> String {
    match b {
        None => String::new(),
        Some(b) => {
            let op = match b.op {
                BoundOp::Lt => "<",
                BoundOp::Le => "<=",
                BoundOp::Eq => "==",
                BoundOp::Ge => ">=",
                BoundOp::Gt => ">",
            };
            format!("[{op}{}]", sx(&b.value))
        }
    }
}

/// The tree as an S-expression; a parenthesised node is marked with `^`
/// only where `carets` asks for it (see `sxp`).
fn sx(e: &Expr) -> String {
    print(e, false)
}

/// Like `sx`, with `^` after every node written in parentheses.
fn sxp(e: &Expr) -> String {
    print(e, true)
}

fn print(e: &Expr, carets: bool) -> String {
    let p = |e: &Expr| print(e, carets);
    let s = match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Decimal(d) => format!("dec:{d}"),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Name(n) => n.clone(),
        ExprKind::Member { instance, member } => {
            let args = match &instance.args {
                None => String::new(),
                Some(args) => format!("({})", args.iter().map(p).collect::<Vec<_>>().join(", ")),
            };
            format!("{}{args}.{}", instance.template.name, member.name)
        }
        ExprKind::Index { base, index } => format!("(at {} {})", p(base), p(index)),
        ExprKind::Unary { op, arg } => {
            let op = match op {
                UnOp::Neg => "neg",
                UnOp::Not => "not",
                UnOp::BitNot => "compl",
            };
            format!("({op} {})", p(arg))
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let op = bin_sym(*op);
            format!("({op} {} {})", p(lhs), p(rhs))
        }
        ExprKind::Cond { cond, then, other } => format!("(? {} {} {})", p(cond), p(then), p(other)),
        ExprKind::Call { of, name, args } => {
            let of = of.as_ref().map(|i| format!("{}.", i.template.name)).unwrap_or_default();
            format!("(call {of}{}{})", name.name, args.iter().map(|a| format!(" {}", p(a))).collect::<String>())
        }
        ExprKind::Quant { quant, var, lo, hi, body } => {
            let q = match quant {
                Quantifier::Forall => "forall",
                Quantifier::Exists => "exists",
            };
            format!("({q} {} {} {} {})", var.name, p(lo), p(hi), p(body))
        }
        ExprKind::Assign { target, op, value, post } => {
            let op = match op {
                AssignOp::Set => "=".to_string(),
                AssignOp::With(op) => format!("{}=", bin_sym(*op)),
            };
            let post = if *post { "post" } else { "" };
            format!("({post}{op} {} {})", p(target), p(value))
        }
        ExprKind::Deadlock => "deadlock".to_string(),
        ExprKind::Path { op, bound: b, arg } => {
            let op = match op {
                PathOp::EF => "EF",
                PathOp::AF => "AF",
                PathOp::EG => "EG",
                PathOp::AG => "AG",
            };
            format!("({op}{} {})", bound(b), p(arg))
        }
        ExprKind::Until { quant, bound: b, lhs, rhs } => {
            let q = match quant {
                PathQuant::E => "EU",
                PathQuant::A => "AU",
            };
            format!("({q}{} {} {})", bound(b), p(lhs), p(rhs))
        }
        ExprKind::LeadsTo { bound: b, lhs, rhs } => {
            format!("(-->{} {} {})", bound(b), p(lhs), p(rhs))
        }
        ExprKind::Measure { kind, cond, terms } => {
            let cond = cond.as_deref().map_or_else(|| "true".to_string(), p);
            format!("({} {cond}{})", kind.word(), terms.iter().map(|t| format!(" {}", p(t))).collect::<String>())
        }
    };
    if carets && e.paren { format!("{s}^") } else { s }
}

fn bin_sym(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Mod => "%",
        BinOp::BitAnd => "&",
        BinOp::BitOr => "|",
        BinOp::BitXor => "^",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::Min => "<?",
        BinOp::Max => ">?",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::And => "and",
        BinOp::Or => "or",
        BinOp::Imply => "imply",
    }
}

fn updates_sx(us: &[Action]) -> String {
    us.iter()
        .map(|a| {
            let u = match a {
                Action::Assign(u) => u,
                Action::Call(e) => return sx(e),
            };
            let op = match u.op {
                AssignOp::Set => "=".to_string(),
                AssignOp::With(op) => format!("{}=", bin_sym(op)),
            };
            format!("({op} {} {})", sx(&u.target), sx(&u.value))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn selects_sx(ss: &[Select]) -> String {
    ss.iter().map(|s| format!("({} {} {})", s.var.name, sx(&s.lo), sx(&s.hi))).collect::<Vec<_>>().join(" ")
}

// ---------------------------------------------------------------- helpers

#[track_caller]
fn ex(text: &str) -> String {
    match parse_expr(text) {
        Ok(e) => sx(&e),
        Err(e) => panic!("parse_expr({text:?}) failed: {e:?}"),
    }
}

#[track_caller]
fn fo(text: &str) -> String {
    match parse_formula(text) {
        Ok(e) => sx(&e),
        Err(e) => panic!("parse_formula({text:?}) failed: {e:?}"),
    }
}

#[track_caller]
fn ex_err(text: &str) -> ParseError {
    match parse_expr(text) {
        Ok(e) => panic!("parse_expr({text:?}) should fail, gave {}", sx(&e)),
        Err(e) => e,
    }
}

#[track_caller]
fn fo_err(text: &str) -> ParseError {
    match parse_formula(text) {
        Ok(e) => panic!("parse_formula({text:?}) should fail, gave {}", sx(&e)),
        Err(e) => e,
    }
}

/// Asserts that the error's message contains `needle` and that its span starts
/// at `at` (a byte offset).
#[track_caller]
fn assert_err(e: &ParseError, at: usize, needle: &str) {
    assert!(e.message.contains(needle), "message {:?} lacks {needle:?}", e.message);
    assert_eq!(e.span.start, at, "span of {e:?}");
    assert!(e.span.end >= e.span.start);
}

// ---------------------------------------------------------------- FORMAT.md, section 1

#[test]
fn format_invariants_and_guards() {
    assert_eq!(ex("x <= 5"), "(<= x 5)");
    assert_eq!(ex("x > 2"), "(> x 2)");
    assert_eq!(ex("x >= 3"), "(>= x 3)");
    assert_eq!(ex("queue[i] == id"), "(== (at queue i) id)");
    assert_eq!(ex("a >= 0"), "(>= a 0)");
    assert_eq!(ex("2*a + t <= 10"), "(<= (+ (* 2 a) t) 10)");
}

#[test]
fn format_clock_constraints() {
    assert_eq!(ex("x - y <= 3"), "(<= (- x y) 3)");
    assert_eq!(ex("x <= m"), "(<= x m)");
    assert_eq!(ex("x - y < m + 3"), "(< (- x y) (+ m 3))");
    assert_eq!(ex("x == N"), "(== x N)");
    assert_eq!(ex("x > 2 && count < N"), "(and (> x 2) (< count N))");
    assert_eq!(ex("x < 1 || y > 2"), "(or (< x 1) (> y 2))");
}

#[test]
fn format_init_values_and_ranges() {
    assert_eq!(ex("0"), "0");
    assert_eq!(ex("N"), "N");
    assert_eq!(ex("1000"), "1000");
    assert_eq!(ex("false"), "false");
    assert_eq!(ex("true"), "true");
    assert_eq!(ex("N-1"), "(- N 1)");
}

#[test]
fn format_updates() {
    assert_eq!(updates_sx(&parse_updates("x = 0").unwrap()), "(= x 0)");
    assert_eq!(updates_sx(&parse_updates("count += 1").unwrap()), "(+= count 1)");
    assert_eq!(updates_sx(&parse_updates("count -= 1").unwrap()), "(-= count 1)");
    assert_eq!(updates_sx(&parse_updates("a[i] = e").unwrap()), "(= (at a i) e)");
    assert_eq!(updates_sx(&parse_updates("v += e").unwrap()), "(+= v e)");
    assert_eq!(updates_sx(&parse_updates("v -= e").unwrap()), "(-= v e)");
    assert_eq!(updates_sx(&parse_updates("x = c").unwrap()), "(= x c)");
    assert_eq!(
        updates_sx(&parse_updates("x = 0; count += 1; a[i] -= 2").unwrap()),
        "(= x 0) (+= count 1) (-= (at a i) 2)"
    );
    assert_eq!(
        updates_sx(&parse_updates("a *= 2; b /= 2; c %= 3; d &= 1; e |= 2; f ^= 3; g <<= 1; h >>= 1").unwrap()),
        "(*= a 2) (/= b 2) (%= c 3) (&= d 1) (|= e 2) (^= f 3) (<<= g 1) (>>= h 1)"
    );
    assert_eq!(updates_sx(&parse_updates("m = a << 2; n = a >= b").unwrap()), "(= m (<< a 2)) (= n (>= a b))");
}

#[test]
fn assignments_inside_expressions() {
    // `n++` yields the old value (`post`), `++n` and `n += e` the new one.
    assert_eq!(updates_sx(&parse_updates("a[n++] = x").unwrap()), "(= (at a (post+= n 1)) x)");
    assert_eq!(updates_sx(&parse_updates("y = --n * 2").unwrap()), "(= y (* (-= n 1) 2))");
    assert_eq!(updates_sx(&parse_updates("y = a[i]-- + 1").unwrap()), "(= y (+ (post-= (at a i) 1) 1))");
    // Assignment binds loosest and to the right, as in C.
    assert_eq!(ex("x = y += c ? 1 : 2"), "(= x (+= y (? c 1 2)))");
    assert_eq!(ex("(n <<= 1) < 4"), "(< (<<= n 1) 4)");
    // `- -x` stays two negations; `--x` is a decrement; `-->` is no `--`.
    assert_eq!(ex("- -x"), "(neg (neg x))");
    assert_eq!(ex("x-- - 1"), "(- (post-= x 1) 1)");
    assert_eq!(ex("--x"), "(-= x 1)");
    assert_eq!(fo("p --> q"), "(--> p q)");
    assert_eq!(ex("a == b"), "(== a b)");
    assert_eq!(ex("a <= b"), "(<= a b)");
}

#[test]
fn updates_trailing_semicolon_and_empty() {
    assert_eq!(updates_sx(&parse_updates("x = 0;").unwrap()), "(= x 0)");
    assert_eq!(updates_sx(&parse_updates(" x = 0 ; y = x + 1 ; ").unwrap()), "(= x 0) (= y (+ x 1))");
    assert!(parse_updates("").unwrap().is_empty());
    assert!(parse_updates("  \n\t ").unwrap().is_empty());
    assert_eq!(
        updates_sx(&parse_updates("a[i][j+1] = b[0] ? 1 : 2").unwrap()),
        "(= (at (at a i) (+ j 1)) (? (at b 0) 1 2))"
    );
}

#[test]
fn update_spans() {
    let us: Vec<Update> = parse_updates("x = 0; count += 1")
        .unwrap()
        .into_iter()
        .map(|a| match a {
            Action::Assign(u) => u,
            Action::Call(_) => panic!("an assignment"),
        })
        .collect();
    assert_eq!(us[0].span, Span::new(0, 5));
    assert_eq!(us[0].target.span, Span::new(0, 1));
    assert_eq!(us[0].value.span, Span::new(4, 5));
    assert_eq!(us[1].span, Span::new(7, 17));
    assert_eq!(us[1].op, AssignOp::With(BinOp::Add));
}

#[test]
fn format_selects() {
    assert_eq!(selects_sx(&parse_selects("i : 0..N-1").unwrap()), "(i 0 (- N 1))");
    assert_eq!(selects_sx(&parse_selects("i : 0..2, j : 1..3").unwrap()), "(i 0 2) (j 1 3)");
    assert_eq!(selects_sx(&parse_selects("i:0..N-1,j:1..3").unwrap()), "(i 0 (- N 1)) (j 1 3)");
    let s = parse_selects("i : 0..N-1").unwrap();
    assert_eq!(s[0].span, Span::new(0, 10));
    assert_eq!(s[0].var.span, Span::new(0, 1));
}

#[test]
fn format_syncs() {
    for (text, chan, dir) in [
        ("approach!", "approach", SyncDir::Send),
        ("leave!", "leave", SyncDir::Send),
        ("approach?", "approach", SyncDir::Receive),
        ("leave?", "leave", SyncDir::Receive),
        ("lower!", "lower", SyncDir::Send),
    ] {
        let s = parse_sync(text).unwrap();
        assert_eq!(s.channel.name, chan);
        assert_eq!(s.dir, dir);
        assert!(s.indices.is_empty());
        assert_eq!(s.span, Span::new(0, text.len()));
    }
    let s = parse_sync("go[i]?").unwrap();
    assert_eq!((s.channel.name.as_str(), s.dir), ("go", SyncDir::Receive));
    assert_eq!(s.indices.iter().map(sx).collect::<Vec<_>>(), ["i"]);
    let s = parse_sync(" go[id-1] ! ").unwrap();
    assert_eq!(s.dir, SyncDir::Send);
    assert_eq!(s.indices.iter().map(sx).collect::<Vec<_>>(), ["(- id 1)"]);
    assert_eq!(s.span, Span::new(1, 11));
    let s = parse_sync("c[i][j + 1]!").unwrap();
    assert_eq!(s.indices.iter().map(sx).collect::<Vec<_>>(), ["i", "(+ j 1)"]);
}

fn args_sx(args: &[SystemArg]) -> String {
    args.iter()
        .map(|a| match a {
            SystemArg::Single(e) => sx(e),
            SystemArg::Range(lo, hi) => format!("{}..{}", sx(lo), sx(hi)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn format_system_entries() {
    let e = parse_system_entry("Train(1..N)").unwrap();
    assert!(e.alias.is_none());
    assert_eq!(e.template.name, "Train");
    assert_eq!(args_sx(&e.args), "1..N");
    assert_eq!(e.span, Span::new(0, 11));

    let e = parse_system_entry("Gate").unwrap();
    assert_eq!((e.alias.is_none(), e.template.name.as_str(), e.args.len()), (true, "Gate", 0));

    let e = parse_system_entry("g = Gate").unwrap();
    assert_eq!(e.alias.as_ref().unwrap().name, "g");
    assert_eq!(e.template.name, "Gate");
    assert_eq!(e.span, Span::new(0, 8));

    let e = parse_system_entry("t1 = Train(1)").unwrap();
    assert_eq!(e.alias.as_ref().unwrap().name, "t1");
    assert_eq!(e.template.name, "Train");
    assert_eq!(args_sx(&e.args), "1");

    let e = parse_system_entry("P(1..2, 3)").unwrap();
    assert_eq!(args_sx(&e.args), "1..2, 3");
    let e = parse_system_entry("P(N-1, 0..N - 1)").unwrap();
    assert_eq!(args_sx(&e.args), "(- N 1), 0..(- N 1)");
}

#[test]
fn format_model_property() {
    assert_eq!(
        fo("A[] forall (i : 1..N) Train(i).on imply Gate.down"),
        "(AG (forall i 1 N (imply Train(i).on Gate.down)))"
    );
}

// ---------------------------------------------------------------- FORMAT.md, section 3

#[test]
fn format_spec_properties() {
    assert_eq!(fo("E<> Train(1).on"), "(EF Train(1).on)");
    assert_eq!(
        fo("A[] (Train(1).near imply A<>[<=7] Train(1).far)"),
        "(AG (imply Train(1).near (AF[<=7] Train(1).far)))"
    );
    assert_eq!(fo("Train(1).near -->[<=6] Gate.down"), "(-->[<=6] Train(1).near Gate.down)");
}

#[test]
fn format_formula_grammar_forms() {
    assert_eq!(fo("deadlock"), "deadlock");
    assert_eq!(fo("true"), "true");
    assert_eq!(fo("false"), "false");
    assert_eq!(fo("not p"), "(not p)");
    assert_eq!(fo("p and q"), "(and p q)");
    assert_eq!(fo("p or q"), "(or p q)");
    assert_eq!(fo("p imply q"), "(imply p q)");
    assert_eq!(fo("(p)"), "p");
    assert_eq!(fo("EF p"), "(EF p)");
    assert_eq!(fo("AF p"), "(AF p)");
    assert_eq!(fo("EG p"), "(EG p)");
    assert_eq!(fo("AG p"), "(AG p)");
    assert_eq!(fo("EF[<=5] p"), "(EF[<=5] p)");
    assert_eq!(fo("AF[<5] p"), "(AF[<5] p)");
    assert_eq!(fo("EG[>=2] p"), "(EG[>=2] p)");
    assert_eq!(fo("AG[>1] p"), "(AG[>1] p)");
    assert_eq!(fo("AG[==N] p"), "(AG[==N] p)");
    assert_eq!(fo("E[p U q]"), "(EU p q)");
    assert_eq!(fo("A[p U q]"), "(AU p q)");
    assert_eq!(fo("E[ p U[<=5] q ]"), "(EU[<=5] p q)");
    assert_eq!(fo("A[ p U[<=5] q ]"), "(AU[<=5] p q)");
    assert_eq!(fo("E<> p"), "(EF p)");
    assert_eq!(fo("A[] p"), "(AG p)");
    assert_eq!(fo("E[] p"), "(EG p)");
    assert_eq!(fo("A<> p"), "(AF p)");
    assert_eq!(fo("E<>[<=5] p"), "(EF[<=5] p)");
    assert_eq!(fo("A[][<3] p"), "(AG[<3] p)");
    assert_eq!(fo("E[][<=4] p"), "(EG[<=4] p)");
    assert_eq!(fo("A<>[<=7] p"), "(AF[<=7] p)");
    assert_eq!(fo("AF[<=7] p"), "(AF[<=7] p)");
    assert_eq!(fo("p --> q"), "(--> p q)");
    assert_eq!(fo("p -->[<=6] q"), "(-->[<=6] p q)");
    assert_eq!(fo("forall (i : 1..N) p"), "(forall i 1 N p)");
    assert_eq!(fo("exists (i : 1..N) p"), "(exists i 1 N p)");
    assert_eq!(fo("E<> deadlock"), "(EF deadlock)");
    assert_eq!(fo("A[] not deadlock"), "(AG (not deadlock))");
}

#[test]
fn format_atoms() {
    assert_eq!(fo("Gate.down"), "Gate.down");
    assert_eq!(fo("crossing"), "crossing");
    assert_eq!(fo("Train(1).crossing"), "Train(1).crossing");
    assert_eq!(fo("Train(1).x > 3"), "(> Train(1).x 3)");
    assert_eq!(fo("Train(i+1).x"), "Train((+ i 1)).x");
    assert_eq!(fo("t1.x"), "t1.x");
    assert_eq!(fo("E<> Train(1).on and Gate.up"), "(EF (and Train(1).on Gate.up))");
}

#[test]
fn format_observer_and_cli_shapes() {
    assert_eq!(fo("E<> a and b"), "(EF (and a b))");
    assert_eq!(fo("A[] (phi imply A<>[<=5] psi)"), "(AG (imply phi (AF[<=5] psi)))");
    assert_eq!(fo("AG(phi imply AF[<=5] psi)"), "(AG (imply phi (AF[<=5] psi)))");
    assert_eq!(fo("A<>[<5] psi"), "(AF[<5] psi)");
    assert_eq!(fo("phi --> psi"), "(--> phi psi)");
    assert_eq!(fo("m > 6"), "(> m 6)");
    assert_eq!(fo("b > a and a >= 0"), "(and (> b a) (>= a 0))");
    assert_eq!(fo("E<> Train(1).on"), "(EF Train(1).on)");
}

// ---------------------------------------------------------------- precedence

#[test]
fn precedence_formulas() {
    assert_eq!(fo("E<> a and b"), "(EF (and a b))");
    assert_eq!(fo("forall (i : 1..N) p imply q"), "(forall i 1 N (imply p q))");
    assert_eq!(fo("forall (i : 1..N) Train(i).on imply q"), "(forall i 1 N (imply Train(i).on q))");
    assert_eq!(fo("not x > 3"), "(not (> x 3))");
    assert_eq!(fo("not a and b"), "(and (not a) b)");
    assert_eq!(fo("not a == b"), "(not (== a b))");
    assert_eq!(fo("a imply b imply c"), "(imply a (imply b c))");
    assert_eq!(fo("a or b and c"), "(or a (and b c))");
    assert_eq!(fo("a and b or c"), "(or (and a b) c)");
    assert_eq!(fo("a or b imply c or d"), "(imply (or a b) (or c d))");
    assert_eq!(fo("A[] (p imply A<>[<=7] q)"), "(AG (imply p (AF[<=7] q)))");
    assert_eq!(fo("A[] p imply q"), "(AG (imply p q))");
    assert_eq!(fo("E<> E<> p"), "(EF (EF p))");
    assert_eq!(fo("p and E<> q or r"), "(and p (EF (or q r)))");
    assert_eq!(fo("a --> b or c"), "(--> a (or b c))");
    assert_eq!(fo("a imply b --> c imply d"), "(--> (imply a b) (imply c d))");
    assert_eq!(fo("a and b -->[<=3] c"), "(-->[<=3] (and a b) c)");
    assert_eq!(fo("a-->b"), "(--> a b)");
    assert_eq!(fo("a -->[< N+1] b"), "(-->[<(+ N 1)] a b)");
    assert_eq!(fo("(E<> p) --> q"), "(--> (EF p) q)");
    assert_eq!(fo("p --> (A[] q)"), "(--> p (AG q))");
    assert_eq!(fo("(a --> b) --> c"), "(--> (--> a b) c)");
    assert_eq!(fo("E<> p --> q"), "(EF (--> p q))");
    assert_eq!(fo("A[ p and q U r or s ]"), "(AU (and p q) (or r s))");
    assert_eq!(fo("E[ E<> p U A[] q ]"), "(EU (EF p) (AG q))");
    assert_eq!(fo("!a && b"), "(and (not a) b)");
    assert_eq!(fo("not a && b"), "(not (and a b))");
    assert_eq!(fo("a ? b : c and d"), "(and (? a b c) d)");
    assert_eq!(fo("not a ? b : c"), "(not (? a b c))");
    assert_eq!(fo("forall (i : 0..1) a --> b"), "(forall i 0 1 (--> a b))");
}

#[test]
fn precedence_expressions() {
    assert_eq!(ex("!a == b"), "(== (not a) b)");
    assert_eq!(ex("a | b ^ c & d == e"), "(| a (^ b (& c (== d e))))");
    assert_eq!(ex("a & b | c ^ d"), "(| (& a b) (^ c d))");
    assert_eq!(ex("a << b + 1 < c >> 2"), "(< (<< a (+ b 1)) (>> c 2))");
    assert_eq!(ex("~a + -b & ~~c"), "(& (+ (compl a) (neg b)) (compl (compl c)))");
    assert_eq!(ex("a && b | c || d & e"), "(or (and a (| b c)) (& d e))");
    assert_eq!(ex("a >> 1 >> 2"), "(>> (>> a 1) 2)");
    assert_eq!(ex("a <? b >? c << 1 < d"), "(< (>? (<? a b) (<< c 1)) d)");
    assert_eq!(ex("1 + 2 * 3"), "(+ 1 (* 2 3))");
    assert_eq!(ex("(1 + 2) * 3"), "(* (+ 1 2) 3)");
    assert_eq!(ex("1 - 2 - 3"), "(- (- 1 2) 3)");
    assert_eq!(ex("8 / 4 / 2 % 3"), "(% (/ (/ 8 4) 2) 3)");
    assert_eq!(ex("a ? b : c ? d : e"), "(? a b (? c d e))");
    assert_eq!(ex("a ? b ? c : d : e"), "(? a (? b c d) e)");
    assert_eq!(ex("x == 1 ? 2 : 3"), "(? (== x 1) 2 3)");
    assert_eq!(ex("a || b ? c : d"), "(? (or a b) c d)");
    assert_eq!(ex("a ? b : c || d"), "(? a b (or c d))");
    assert_eq!(ex("x - y <= 3"), "(<= (- x y) 3)");
    assert_eq!(ex("a || b && c"), "(or a (and b c))");
    assert_eq!(ex("a && b || c"), "(or (and a b) c)");
    assert_eq!(ex("a == b != c"), "(!= (== a b) c)");
    assert_eq!(ex("a < b == c >= d"), "(== (< a b) (>= c d))");
    assert_eq!(ex("-x * y"), "(* (neg x) y)");
    assert_eq!(ex("- - - x"), "(neg (neg (neg x)))");
    assert_eq!(ex("!!x"), "(not (not x))");
    assert_eq!(ex("-a[i]"), "(neg (at a i))");
    assert_eq!(ex("a[i][j]"), "(at (at a i) j)");
    assert_eq!(ex("a[b[i]]"), "(at a (at b i))");
    assert_eq!(ex("x--1"), "(- x (neg 1))");
    assert_eq!(ex("a and b || c"), "(and a (or b c))");
    assert_eq!(ex("a || b and c"), "(and (or a b) c)");
    assert_eq!(ex("not a || b"), "(not (or a b))");
    assert_eq!(ex("a imply b or c"), "(imply a (or b c))");
    assert_eq!(ex("forall (i : 0..N-1) a[i] > 0 && b"), "(forall i 0 (- N 1) (and (> (at a i) 0) b))");
    assert_eq!(ex("exists (j : 0..2) a[j] == 1 or c"), "(exists j 0 2 (or (== (at a j) 1) c))");
    assert_eq!(ex("b and forall (i : 0..1) c or d"), "(and b (forall i 0 1 (or c d)))");
    assert_eq!(ex("Train(1).x + Gate.y[2]"), "(+ Train(1).x (at Gate.y 2))");
}

#[test]
fn literals_and_names() {
    assert_eq!(ex("3.5"), "dec:3.5");
    assert_err(&ex_err("0..N"), 1, "unexpected `..`");
    assert_eq!(ex("0.25 * 4"), "(* dec:0.25 4)");
}

#[test]
fn keywords_need_word_boundaries() {
    assert_eq!(fo("EFx"), "EFx");
    assert_eq!(fo("EF x"), "(EF x)");
    assert_eq!(fo("EF(x)"), "(EF x)");
    assert_eq!(fo("Ax and Ex or Ux"), "(or (and Ax Ex) Ux)");
    assert_eq!(fo("android or orx and notable"), "(or android (and orx notable))");
    assert_eq!(fo("deadlocked"), "deadlocked");
    assert_eq!(fo("forallx"), "forallx");
    assert_eq!(ex("truex == falsey"), "(== truex falsey)");
    assert_eq!(ex("_a1 + B_2"), "(+ _a1 B_2)");
    assert_eq!(fo("not(x)"), "(not x)");
    assert_eq!(fo("E [ p U q ]"), "(EU p q)");
    assert_eq!(fo("A [ ] p"), "(AG p)");
}

#[test]
fn whitespace_between_tokens() {
    assert_eq!(ex("\tx\n<=\r\n5 "), "(<= x 5)");
    assert_eq!(fo("  Train ( 1 ) . on  "), "Train(1).on");
    assert_eq!(fo("E<>[ <= 5 ]p"), "(EF[<=5] p)");
    assert_eq!(fo("a -->[<=1]b"), "(-->[<=1] a b)");
    assert_eq!(ex("x<=5&&y>=3"), "(and (<= x 5) (>= y 3))");
}

#[test]
fn paren_flag_and_spans() {
    let e = parse_formula("(E<> p) --> q").unwrap();
    assert_eq!(sxp(&e), "(--> (EF p)^ q)");
    let e = parse_expr("((a)) + (b * c)").unwrap();
    assert_eq!(sxp(&e), "(+ a^ (* b c)^)");
    assert!(!e.paren);
    assert_eq!(e.span, Span::new(0, 15));
    let ExprKind::Binary { lhs, rhs, .. } = &e.kind else { panic!() };
    assert_eq!(lhs.span, Span::new(0, 5), "the outer parentheses belong to the span");
    assert_eq!(rhs.span, Span::new(8, 15));

    let e = parse_formula("A[] (p imply A<>[<=7] q)").unwrap();
    assert_eq!(e.span, Span::new(0, 24));
    let ExprKind::Path { op: PathOp::AG, bound: None, arg } = &e.kind else { panic!() };
    assert!(arg.paren);
    let ExprKind::Binary { rhs, .. } = &arg.kind else { panic!() };
    assert_eq!(rhs.span, Span::new(13, 23));
    let ExprKind::Path { bound: Some(b), .. } = &rhs.kind else { panic!() };
    assert_eq!(b.span, Span::new(16, 21));
    assert_eq!(b.value.span, Span::new(19, 20));

    let e = parse_expr("Train(1).on").unwrap();
    let ExprKind::Member { instance, member } = &e.kind else { panic!() };
    assert_eq!(instance.span, Span::new(0, 8));
    assert_eq!(instance.template.span, Span::new(0, 5));
    assert_eq!(member.span, Span::new(9, 11));
    assert_eq!(e.span, Span::new(0, 11));

    let e = parse_expr("Gate.down").unwrap();
    let ExprKind::Member { instance, .. } = &e.kind else { panic!() };
    assert!(instance.args.is_none());
    assert_eq!(instance.span, Span::new(0, 4));

    let e = parse_formula("forall (i : 1..N) p").unwrap();
    let ExprKind::Quant { var, lo, hi, body, .. } = &e.kind else { panic!() };
    assert_eq!(
        (var.span, lo.span, hi.span, body.span),
        (Span::new(8, 9), Span::new(12, 13), Span::new(15, 16), Span::new(18, 19))
    );
    assert_eq!(e.span, Span::new(0, 19));

    let e = parse_expr("- x").unwrap();
    assert_eq!(e.span, Span::new(0, 3));
    let e = parse_expr("a[i + 1]").unwrap();
    assert_eq!(e.span, Span::new(0, 8));
    let e = parse_expr("a ? b : c").unwrap();
    assert_eq!(e.span, Span::new(0, 9));
    let e = parse_formula("E[p U[<=2] q]").unwrap();
    assert_eq!(e.span, Span::new(0, 13));
}

// ---------------------------------------------------------------- errors

#[test]
fn error_expected_operand() {
    assert_err(&ex_err("x +"), 3, "expected an expression after `+`");
    assert_err(&ex_err("x + )"), 4, "expected an expression after `+`, found `)`");
    assert_err(&ex_err(""), 0, "expected an expression, but the text is empty");
    assert_err(&ex_err("   "), 3, "the text is empty");
    assert_err(&ex_err("x <= "), 5, "expected an expression after `<=`");
    assert_err(&ex_err("("), 1, "expected an expression after `(`");
    assert_err(&ex_err("["), 0, "expected an expression, found `[`");
    assert_err(&ex_err("*"), 0, "found `*`");
    assert_err(&ex_err("x + and"), 4, "found `and`");
    assert_err(&fo_err("E<>"), 3, "expected a formula after `E<>`");
    assert_err(&fo_err("p and"), 5, "expected a formula after `and`");
    assert_err(&fo_err("p -->"), 5, "expected a formula after `-->`");
}

#[test]
fn error_unexpected_token() {
    assert_err(&ex_err("a)"), 1, "unexpected `)`");
    assert_err(&ex_err("a b"), 2, "unexpected `b`");
    assert_err(&ex_err("x ≤ 3"), 2, "unexpected `≤`");
    let e = ex_err("x ≤ 3");
    assert_eq!(e.span, Span::new(2, 5), "byte offsets, whole character");
    // An assignment is an expression (the checker refuses it in guards).
    assert_eq!(ex("a = b"), "(= a b)");
    assert_eq!(ex("a &= b"), "(&= a b)");
    assert_err(&ex_err("é"), 0, "found `é`");
    assert_err(&ex_err("3.5.2"), 3, "unexpected `.`");
}

#[test]
fn error_unclosed_brackets() {
    assert_err(&ex_err("(a + b"), 6, "expected `)` or an operator, but the text ends");
    assert_err(&ex_err("(a b)"), 3, "expected `)` or an operator, found `b`");
    assert_err(&ex_err("a[i"), 3, "expected `]` or an operator");
    assert_err(&ex_err("a[i)"), 3, "expected `]`");
    assert_err(&fo_err("E[ p U q"), 8, "`]`");
    assert_err(&fo_err("A[ p q ]"), 5, "expected `U` or an operator, found `q`");
}

#[test]
fn error_temporal_in_expression() {
    assert_err(&ex_err("E<> p"), 0, "only allowed in properties");
    assert_err(&ex_err("a --> b"), 2, "only allowed in properties");
    assert_err(&ex_err("a-->b"), 1, "only allowed in properties");
    assert_err(&ex_err("deadlock"), 0, "only allowed in properties");
    assert_err(&ex_err("A[] p"), 0, "only allowed in properties");
}

#[test]
fn calls_without_a_member_are_function_calls() {
    assert_eq!(ex("p(i)"), "(call p i)");
    assert_eq!(ex("f() + g(1, x[2])"), "(+ (call f) (call g 1 (at x 2)))");
    assert_eq!(fo("forall (i : 1..N) p(i) imply q"), "(forall i 1 N (imply (call p i) q))");
    assert_err(&ex_err("Train().x"), 0, "`Train()` names no instance");
    assert_err(&ex_err("Gate."), 5, "expected a name after `.`");
    assert_err(&ex_err("Train(1).3"), 9, "expected a name after `.`, found `3`");
}

#[test]
fn error_integer_overflow() {
    assert_eq!(ex("9223372036854775807"), "9223372036854775807");
    let e = ex_err("1 + 9223372036854775808");
    assert_err(&e, 4, "too large");
    assert_eq!(e.span, Span::new(4, 23));
    assert_err(&ex_err("99999999999999999999999999"), 0, "64-bit");
}

#[test]
fn error_leads_to_not_associative() {
    let e = fo_err("a --> b --> c");
    assert_err(&e, 8, "`-->` is not associative");
    assert!(e.message.contains("parentheses"));
    assert_eq!(e.span, Span::new(8, 11));
    assert_err(&fo_err("a --> b -->[<=2] c"), 8, "not associative");
}

#[test]
fn error_path_operator_in_leads_to_operand() {
    let e = fo_err("p --> E<> q");
    assert_err(&e, 6, "`E<>`");
    assert!(e.message.contains("parentheses"), "{e:?}");
    assert_eq!(e.span, Span::new(6, 9));
    assert_err(&fo_err("p --> q and A[] r"), 12, "`A[]`");
    assert_err(&fo_err("p -->[<=5] AF[<=2] r"), 11, "`AF`");
    assert_err(&fo_err("p --> forall (i : 0..1) E[] q"), 24, "`E[]`");
    assert_err(&fo_err("A[p U q] --> r"), 0, "parentheses");
    assert_err(&fo_err("p --> forall (i : 0..1) q --> r"), 24, "parentheses");
    // Parenthesised, they are nested formulas.
    assert_eq!(fo("p --> (E<> q)"), "(--> p (EF q))");
    assert_eq!(fo("(A[p U q]) --> r"), "(--> (AU p q) r)");
}

#[test]
fn error_sync() {
    // A bare name is a synchronisation vector's edge; the checker asks
    // binary and broadcast channels for their direction.
    assert_eq!(parse_sync("approach").unwrap().dir, SyncDir::Party);
    assert_eq!(parse_sync("go[i]").unwrap().dir, SyncDir::Party);
    assert_err(&parse_sync("go[i] x").unwrap_err(), 6, "found `x`");
    assert_err(&parse_sync("").unwrap_err(), 0, "expected a channel name");
    assert_err(&parse_sync("a!!").unwrap_err(), 2, "unexpected `!`");
    assert_err(&parse_sync("go[]!").unwrap_err(), 3, "expected an expression after `[`");
}

#[test]
fn error_updates() {
    assert_err(&parse_updates("x 0").unwrap_err(), 2, "`=`, `+=`, `-=`, `++` or `--`");
    assert_err(&parse_updates("x == 0").unwrap_err(), 2, "use `=` to assign");
    assert_err(&parse_updates("x = ").unwrap_err(), 4, "expected an expression after `=`");
    assert_err(&parse_updates("x = 0;; y = 1").unwrap_err(), 6, "expected an assignment");
    assert_err(&parse_updates("x = 1 y = 2").unwrap_err(), 6, "expected `;` or an operator, found `y`");
    assert_err(&parse_updates("1 = x").unwrap_err(), 0, "expected an assignment");
}

#[test]
fn error_selects() {
    assert_err(&parse_selects("i 0..3").unwrap_err(), 2, "expected `:`");
    assert_err(&parse_selects("i : 0 3").unwrap_err(), 6, "`..`");
    assert_err(&parse_selects("i : 0..3,").unwrap_err(), 9, "expected a select variable after `,`");
    assert_err(&parse_selects("").unwrap_err(), 0, "the text is empty");
}

#[test]
fn error_system_entries() {
    assert_err(&parse_system_entry("Train()").unwrap_err(), 6, "expected an expression after `(`");
    assert_err(&parse_system_entry("Train(1").unwrap_err(), 7, "`)`");
    assert_err(&parse_system_entry("g = ").unwrap_err(), 4, "expected a template name after `=`");
    assert_err(&parse_system_entry("").unwrap_err(), 0, "the text is empty");
    assert_err(&parse_system_entry("Train(1..)").unwrap_err(), 9, "expected an expression after `..`");
}

#[test]
fn error_bounds_and_quantifiers() {
    assert_err(&fo_err("E<>[5] p"), 4, "expected a comparison");
    assert_err(&fo_err("E<>[<=5 p"), 8, "expected `]` or an operator, found `p`");
    assert_err(&fo_err("forall i : 0..1) p"), 7, "expected `(` after `forall`");
    assert_err(&fo_err("forall (i 0..1) p"), 10, "expected `:` after `i`");
    assert_err(&fo_err("forall (i : 0 1) p"), 14, "`..`");
    assert_err(&fo_err("forall (1 : 0..1) p"), 8, "expected a name after `(`");
    assert_err(&fo_err("forall (i : 0..1)"), 17, "expected a formula after `)`");
}

/// Errors are always located inside the text (or at its end) and never panic.
#[test]
fn no_panic_on_odd_input() {
    let samples = [
        "",
        " ",
        "(",
        ")",
        "[",
        "]",
        "?",
        ":",
        "..",
        ".",
        ",",
        ";",
        "!",
        "-",
        "-->",
        "<>",
        "E",
        "A",
        "U",
        "E[",
        "A[",
        "E[]",
        "A[][",
        "E<>[",
        "E<>[<=",
        "E[ p U",
        "E[ p U[<=1",
        "forall",
        "forall (",
        "forall (i",
        "forall (i :",
        "forall (i : 1..",
        "a ?",
        "a ? b",
        "a ? b :",
        "Train(",
        "Train(1",
        "Train(1)",
        "Train(1).",
        "x = ",
        "x =",
        "=",
        "+=",
        "é",
        "ü+1",
        "\u{0}",
        "\u{feff}x",
        "1e5",
        "0x10",
        "1_000",
        "a[",
        "a[]",
        "--> -->",
        "!!",
        "not",
        "not not",
        "p --> --> q",
        "((((",
        "))))",
        "[[[]]]",
        "a..b",
        "3.",
        ".5",
        "E<>[<=5][<=3] p",
        "A[][] p",
        "-->[",
        "-->[<",
        "go[",
        "go[i",
        "g =",
        "g = =",
        "P(1..2,",
        "P(,)",
    ];
    for s in samples {
        for r in [
            parse_expr(s).err(),
            parse_formula(s).err(),
            parse_updates(s).err(),
            parse_selects(s).err(),
            parse_sync(s).err(),
            parse_system_entry(s).err(),
        ]
        .into_iter()
        .flatten()
        {
            assert!(r.span.start <= r.span.end && r.span.end <= s.len(), "{s:?}: {r:?}");
            assert!(s.is_char_boundary(r.span.start) && s.is_char_boundary(r.span.end), "{s:?}: {r:?}");
            assert!(!r.message.is_empty());
            assert!(!r.message.contains("Rule::") && !r.message.contains("expr_"), "{s:?}: {r:?}");
        }
    }
}

// ---------------------------------------------------------------- functions

#[test]
fn updates_with_steps_and_calls() {
    assert_eq!(
        updates_sx(&parse_updates("n++; --m; enqueue(id); a[i]--").unwrap()),
        "(+= n 1) (-= m 1) (call enqueue id) (-= (at a i) 1)"
    );
    assert_err(&parse_updates("n + 1").unwrap_err(), 2, "expected");
}

#[test]
fn function_definitions() {
    let f = parse_function(
        "int[0, N] front(int &q[N], bool b) { int i = 0, j; for (i = 0; i < N; i++) { j += q[i]; } if (b) return 1; else { return j; } }",
    );
    let f = f.expect("array parameters are in the grammar");
    assert!(f.params[0].by_ref && f.params[0].dims.len() == 1, "`int &q[N]`: one dimension, by reference");
    assert!(!f.params[1].by_ref && f.params[1].dims.is_empty());
    let by_value = parse_function("void h(int q[2][3]) { }").expect("by value, two dimensions");
    assert!(!by_value.params[0].by_ref && by_value.params[0].dims.len() == 2);
    let f = parse_function(
        "int[0, N] f(int &r, bool b) { int i = 0, j; for (i = 0; i < N; i++) { j += r; } while (b) b = false; if (b) return 1; else { return j; } }",
    )
    .unwrap();
    assert_eq!(f.name.name, "f");
    assert!(f.params[0].by_ref && !f.params[1].by_ref);
    let kinds: Vec<&str> = f
        .body
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Local { .. } => "local",
            StmtKind::For { .. } => "for",
            StmtKind::While { .. } => "while",
            StmtKind::If { other: Some(_), .. } => "if-else",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["local", "for", "while", "if-else"]);
    let d = parse_function("int f(int n) { do { n--; } while (n > 0); do n++; while (n < 3); return n; }").unwrap();
    assert!(matches!(d.body[0].kind, StmtKind::DoWhile { .. }) && matches!(d.body[1].kind, StmtKind::DoWhile { .. }));
    let e = parse_function("void f(int n) { do n--; while (n > 0) }").unwrap_err();
    assert!(e.message.contains("`;`"), "a `do` loop ends with `;`: {}", e.message);
    let v = parse_function("void g() { return; }").unwrap();
    assert!(v.ret.is_none() && matches!(v.body[0].kind, StmtKind::Return(None)));
}

#[test]
fn function_errors_are_located() {
    let text = "int f() {\n  return 1 +;\n}";
    let e = parse_function(text).unwrap_err();
    assert_eq!(&text[e.span.start..e.span.end], ";");
    assert!(e.message.contains("expected an expression"), "{}", e.message);
    let e = parse_function("int f() { x = 1 }").unwrap_err();
    assert!(e.message.contains("`;`"), "{}", e.message);
    let deep = format!("void f() {{ {} }}", "if (a) ".repeat(2000) + "x = 1;");
    let e = parse_function(&deep).unwrap_err();
    assert!(e.message.contains("function too large"), "{}", e.message);
}
