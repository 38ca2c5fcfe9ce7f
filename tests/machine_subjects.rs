//! The machine on small subjects (javasrc/subjects): recursion, loops cut by a bound,
//! virtual dispatch, exceptions caught and uncaught, division by zero, overflow, arrays
//! with symbolic indices and static fields. Counts are derived by hand in each test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use uberlazy::config::{Config, Strategy};
use uberlazy::cut::CutReason;
use uberlazy::heap::CVal;
use uberlazy::machine::{Choice, RunResult, TraceKind};

/// The jar of the subjects every test here explores.
const SUBJECTS: &str = "testdata/subjects.jar";

/// Explores `spec` of the subjects with `config`.
fn run_with(spec: &str, config: Config) -> RunResult {
    common::run_with(SUBJECTS, spec, config)
}

fn lazy(spec: &str) -> RunResult {
    run_with(spec, Config { strategy: Strategy::Lazy, check_models: true, ..Config::default() })
}

/// (normal returns, exceptions by class, cut traces).
fn outcomes(r: &RunResult) -> (usize, Vec<String>, usize) {
    let ret = r.traces.iter().filter(|t| t.kind == TraceKind::Return).count();
    let mut exc: Vec<String> = r.traces.iter().filter_map(|t| t.exception.clone()).collect();
    exc.sort();
    let cut = r.traces.iter().filter(|t| t.kind == TraceKind::Cut).count();
    (ret, exc, cut)
}

fn returned(r: &RunResult) -> Vec<Option<CVal>> {
    let mut v: Vec<Option<CVal>> = r
        .traces
        .iter()
        .filter(|t| t.kind == TraceKind::Return)
        .map(|t| t.concrete.as_ref().and_then(|c| c.ret.clone()))
        .collect();
    v.sort();
    v
}

#[test]
fn division_by_zero_is_an_uncaught_exception() {
    let r = lazy("subjects.Arith#div");
    assert_eq!(outcomes(&r), (1, vec!["java.lang.ArithmeticException".to_string()], 0));
}

#[test]
fn a_caught_exception_continues_at_the_handler() {
    let r = lazy("subjects.Arith#safeDiv");
    assert_eq!(outcomes(&r), (2, vec![], 0));
    // The handler returns -1 (d == 0); the other trace returns n / d.
    let handler = r.traces.iter().find(|t| t.concrete.as_ref().and_then(|c| c.ret.clone()) == Some(CVal::Int(-1)));
    let h = handler.expect("a trace through the handler");
    assert_eq!(h.concrete.as_ref().unwrap().args[1], CVal::Int(0));
}

#[test]
fn user_throw_is_an_uncaught_exception() {
    let r = lazy("subjects.Arith#checked");
    assert_eq!(outcomes(&r), (1, vec!["java.lang.IllegalArgumentException".to_string()], 0));
}

#[test]
fn int_overflow_wraps_around() {
    let r = lazy("subjects.Arith#overflows");
    assert_eq!(returned(&r), vec![Some(CVal::Int(0)), Some(CVal::Int(1))]);
    let wraps =
        r.traces.iter().find(|t| t.concrete.as_ref().and_then(|c| c.ret.clone()) == Some(CVal::Int(1))).unwrap();
    // Only Integer.MAX_VALUE + 1 wraps below itself.
    assert_eq!(wraps.concrete.as_ref().unwrap().args[0], CVal::Int(i64::from(i32::MAX)));
}

#[test]
fn long_comparisons_take_three_ways() {
    let r = lazy("subjects.Arith#compareLong");
    assert_eq!(returned(&r), vec![Some(CVal::Int(-1)), Some(CVal::Int(0)), Some(CVal::Int(1))]);
}

#[test]
fn arrays_with_symbolic_index_and_length() {
    // A concrete array, a symbolic index: in bounds or ArrayIndexOutOfBounds.
    let r = lazy("subjects.Arrays#pick");
    assert_eq!(outcomes(&r), (1, vec!["java.lang.ArrayIndexOutOfBoundsException".to_string()], 0));
    // An input array: null, out of bounds, in bounds.
    let r = lazy("subjects.Arrays#at");
    assert_eq!(
        outcomes(&r),
        (
            1,
            vec!["java.lang.ArrayIndexOutOfBoundsException".to_string(), "java.lang.NullPointerException".to_string()],
            0
        )
    );
    // A symbolic length: negative, or a length a test can hold (at most 65536 elements).
    let r = lazy("subjects.Arrays#make");
    assert_eq!(outcomes(&r), (1, vec!["java.lang.NegativeArraySizeException".to_string()], 0));
}

#[test]
fn static_fields_start_from_the_class_initializer() {
    // count = 5 in <clinit>; 5 + 1 > 6 is false: one trace.
    let r = lazy("subjects.Counter#bump");
    assert_eq!(returned(&r), vec![Some(CVal::Int(0))]);
    // With symbolic statics the count is an input: both outcomes.
    let mut config = Config { strategy: Strategy::Lazy, check_models: true, ..Config::default() };
    config.symbolic_statics = true;
    let r = run_with("subjects.Counter#bump", config);
    assert_eq!(returned(&r), vec![Some(CVal::Int(0)), Some(CVal::Int(1))]);
}

#[test]
fn virtual_dispatch_on_a_materialized_object() {
    // shape: null, a fresh Circle, a fresh Square (Shape is abstract).
    let r = lazy("subjects.Holder#area");
    assert_eq!(outcomes(&r), (3, vec![], 0));
    let mut targets: Vec<String> = r
        .traces
        .iter()
        .flat_map(|t| t.path.iter())
        .filter_map(|d| match &d.choice {
            Choice::Dispatch(m) => Some(m.clone()),
            _ => None,
        })
        .collect();
    targets.sort();
    assert_eq!(targets, vec!["subjects.Circle#area()I".to_string(), "subjects.Square#area()I".to_string()]);
    // Uber keeps the class choice in one heap but dispatch is a program decision: 3 traces.
    let r =
        run_with("subjects.Holder#area", Config { strategy: Strategy::Uber, check_models: true, ..Config::default() });
    assert_eq!(r.traces.len(), 3);
}

/// `length()` recurses once per node. With --max-depth 3, lazy materializes at level k
/// (objects this, o1, .. o(k-1) exist): null, k aliases (cycles, cut) and a fresh node:
/// 2 + 3 + 4 traces for levels 1..3, and the fresh o3 of level 3 gives 6 more cut traces.
#[test]
fn recursion_is_cut_by_max_depth() {
    let mut config = Config { strategy: Strategy::Lazy, check_models: true, ..Config::default() };
    config.bounds.max_depth = 3;
    let r = run_with("subjects.Node#length", config.clone());
    assert_eq!(r.traces.len(), 15);
    assert_eq!(returned(&r), vec![Some(CVal::Int(1)), Some(CVal::Int(2)), Some(CVal::Int(3))]);
    assert_eq!(outcomes(&r).2, 12);
    assert!(r.traces.iter().filter_map(|t| t.cut.as_ref()).all(|c| matches!(c, CutReason::MaxDepth(3))));
    // Uber: one trace per program path: three returns and the two sides of the cut branch.
    config.strategy = Strategy::Uber;
    let u = run_with("subjects.Node#length", config);
    assert_eq!(u.traces.len(), 5);
}

#[test]
fn recursion_is_cut_by_max_calls() {
    let mut config = Config { strategy: Strategy::Lazy, check_models: true, ..Config::default() };
    config.bounds.max_calls = 2;
    let r = run_with("subjects.Node#length", config);
    assert!(r.traces.iter().any(|t| t.cut == Some(CutReason::MaxCalls(2))));
    assert_eq!(returned(&r), vec![Some(CVal::Int(1)), Some(CVal::Int(2)), Some(CVal::Int(3))]);
}

/// A loop over an input list: `sum()` visits n nodes with n + 1 decisions; at depth 4 the
/// lists of 0..3 further nodes return, everything longer is cut.
#[test]
fn a_loop_is_cut_by_max_depth() {
    let mut config = Config { strategy: Strategy::Uber, check_models: true, ..Config::default() };
    config.bounds.max_depth = 4;
    let r = run_with("subjects.Node#sum", config);
    let (ret, exc, cut) = outcomes(&r);
    assert_eq!((ret, exc.len()), (3, 0));
    assert!(cut >= 1);
    assert!(r.traces.iter().filter_map(|t| t.cut.as_ref()).all(|c| *c == CutReason::MaxDepth(4)));
}

/// The code javac 17 emits (javasrc/modern, `--release 17`), with every strategy: a monitor
/// is a null check, string concatenation a new non-null String, a lambda the new object of
/// its call site's class whose body runs when called, another `invokedynamic` (a record's
/// `hashCode`) cuts its trace naming the bootstrap method, `Objects.requireNonNull` checks,
/// asserts are off.
#[test]
fn monitors_concatenation_and_lambdas_run_with_every_strategy() {
    for strategy in [Strategy::Lazy, Strategy::Lazier, Strategy::Uber, Strategy::Pose] {
        let config = Config { strategy, check_models: true, ..Config::default() };
        let run = |spec: &str| common::run_with("testdata/modern.jar", spec, config.clone());
        // synchronized (m): null raises NullPointerException, else m.count is returned.
        let r = run("modern.Modern#lockedCount");
        assert_eq!(outcomes(&r), (1, vec!["java.lang.NullPointerException".to_string()], 0), "{strategy:?}");
        // The receiver is never null: one path, count + 1.
        assert_eq!(outcomes(&run("modern.Modern#bump")), (1, vec![], 0), "{strategy:?}");
        // The concatenation is never null: the "none" branch is infeasible, one path (lazy
        // initialization still splits on `next`, which the concatenation reads).
        let r = run("modern.Modern#describe");
        assert_eq!(r.tally.paths(), 1, "{strategy:?}");
        assert_eq!(outcomes(&r), (r.traces.len(), vec![], 0), "{strategy:?}");
        // A lambda is the new object of its call site's class: one path, not cut.
        let r = run("modern.Modern#counter");
        assert_eq!(outcomes(&r), (1, vec![], 0), "{strategy:?}");
        assert_eq!(outcomes(&run("modern.Modern#bumpedBelow")), (2, vec![], 0), "{strategy:?}");
        let r = run("modern.Modern#pointHash");
        assert_eq!(outcomes(&r), (0, vec![], 1), "{strategy:?}");
        let why = r.traces[0].cut.as_ref().map(ToString::to_string).unwrap_or_default();
        let named = "invokedynamic hashCode (bootstrap method java.lang.runtime.ObjectMethods.bootstrap)";
        assert!(why.contains(named), "{strategy:?}: {why}");
        // Objects.requireNonNull: null raises NullPointerException, else the field is read.
        let r = run("modern.Modern#checked");
        assert_eq!(outcomes(&r), (1, vec!["java.lang.NullPointerException".to_string()], 0), "{strategy:?}");
        // Assertions are on for the class path's classes (as `java -ea` runs them): a failing
        // assert is an AssertionError outcome.
        let failing = vec!["java.lang.AssertionError".to_string()];
        assert_eq!(outcomes(&run("modern.Modern#positive")), (1, failing, 0), "{strategy:?}");
    }
}

/// A subclass field that hides its superclass's field of the same name is another field,
/// with a value of its own, in every strategy: `size == super.size`, `<` and `>` are three
/// paths (one symbol for both fields left one), and each replays on its model.
#[test]
fn a_hidden_field_is_a_field_of_its_own() {
    for strategy in [Strategy::Lazy, Strategy::Lazier, Strategy::Uber, Strategy::Pose] {
        let r = run_with("subjects.Shadow#sizes", Config { strategy, check_models: true, ..Config::default() });
        assert_eq!(outcomes(&r), (3, vec![], 0), "{strategy:?}");
        let got: Vec<Option<CVal>> = returned(&r);
        assert_eq!(got, vec![Some(CVal::Int(-1)), Some(CVal::Int(0)), Some(CVal::Int(1))], "{strategy:?}");
    }
}
