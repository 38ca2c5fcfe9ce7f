//! Tests of the Z3 back end: Java semantics, incremental queries, lifting, interrupts.

#![allow(clippy::unwrap_used, clippy::panic)]
use super::*;
use crate::budget::Budget;
use crate::term::{BvCmp, BvOp, TermPool};

#[test]
fn java_division_and_overflow_agree_with_folding() {
    let mut p = TermPool::new();
    let x = p.var("x", Sort::Bv(32));
    let min = p.int(i32::MIN);
    let m1 = p.int(-1);
    let q = p.bin(BvOp::SDiv, &x, &m1);
    let eqx = p.eq(&x, &min);
    let eqq = p.eq(&q, &min);
    let mut s = Z3Solver::new(1000, true);
    // x = MIN → MIN / -1 = MIN (Java wraps).
    assert!(matches!(s.check(&[eqx.clone(), eqq.clone()]), SatResult::Sat(_)));
    let ne = p.not(&eqq);
    assert_eq!(s.check(&[eqx, ne]), SatResult::Unsat);
}

#[test]
fn incremental_prefixes_and_models() {
    let mut p = TermPool::new();
    let x = p.var("x", Sort::Bv(32));
    let five = p.int(5);
    let lt = p.slt(&x, &five);
    let zero = p.int(0);
    let gt = p.slt(&zero, &x);
    let mut s = Z3Solver::new(1000, true);
    match s.check(&[lt.clone(), gt.clone()]) {
        SatResult::Sat(m) => {
            let v = m.eval_i64(&x).unwrap();
            assert!(0 < v && v < 5);
        }
        other => panic!("{other:?}"),
    }
    let ge = p.not(&lt);
    assert!(matches!(s.check(&[ge]), SatResult::Sat(_)));
    assert_eq!(s.stats().queries, 2);
}

/// One name, two sorts (a field `value` of an `Integer` in one trace, of a map entry's
/// reference in the next): the model of a query values that query's symbol, whichever of
/// the two was translated last. Before, the later one's stood in for it and read 0.
#[test]
fn a_model_values_the_symbol_of_its_query_when_a_name_has_two_sorts() {
    let mut p = TermPool::new();
    let (int, ptr) = (p.var("L2.value", Sort::Bv(32)), p.var("L2.value", Sort::Bv(16)));
    let (eight, nine) = (p.int(8), p.bv(16, 9));
    let (int_is_8, ptr_is_9) = (p.eq(&int, &eight), p.eq(&ptr, &nine));
    for every in [false, true] {
        let mut s = Z3Solver::new(1000, true).valuing_every_symbol(every);
        for (q, t, want) in [(&int_is_8, &int, 8), (&ptr_is_9, &ptr, 9), (&int_is_8, &int, 8)] {
            match s.model(std::slice::from_ref(q)) {
                SatResult::Sat(m) => assert_eq!(m.eval_i64(t), Some(want), "every symbol: {every}"),
                other => panic!("{other:?}"),
            }
        }
    }
}

/// A count of booleans under a bound (uber's scope) answers as the bit-vector sum it is
/// made from: at most two of three; and a sum that may wrap stays a bit-vector sum.
#[test]
fn a_cardinality_bound_answers_as_its_sum() {
    let mut p = TermPool::new();
    let bits: Vec<Term> = (0..3).map(|i| p.var(&format!("b{i}"), Sort::Bool)).collect();
    let count = |p: &mut TermPool, w: u32, start: i64| {
        let (one, zero) = (p.bv(w, 1), p.bv(w, 0));
        let mut sum = p.bv(w, start);
        for b in &bits {
            let bit = p.ite(b, &one, &zero);
            sum = p.bin(BvOp::Add, &sum, &bit);
        }
        sum
    };
    let (sum, two) = (count(&mut p, 2, 0), p.bv(2, 2));
    let within = p.cmp(BvCmp::Ule, &sum, &two);
    let mut s = Z3Solver::new(1000, true);
    assert!(s.cardinality(&sum, &two).is_some());
    assert_eq!(s.check(&[within.clone(), bits[0].clone(), bits[1].clone(), bits[2].clone()]), SatResult::Unsat);
    let not2 = p.not(&bits[2]);
    assert!(matches!(s.check(&[within, bits[0].clone(), bits[1].clone(), not2]), SatResult::Sat(_)));
    // 1 + three bits in two bits wraps to 0 when all are set: 0 <= 2 holds.
    let wrapping = count(&mut p, 2, 1);
    let wraps = p.cmp(BvCmp::Ule, &wrapping, &two);
    assert!(s.cardinality(&wrapping, &two).is_none());
    assert!(matches!(s.check(&[wraps, bits[0].clone(), bits[1].clone(), bits[2].clone()]), SatResult::Sat(_)));
}

/// Comparisons lifted over if-then-else operands decide exactly as the plain ones: a
/// value read through one of three locations, compared with a key, both ways round.
#[test]
fn lifted_comparisons_answer_as_plain_ones() {
    let mut p = TermPool::new();
    let ptr = p.var("p", Sort::Bv(16));
    let (a, b, c, key) =
        (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)), p.var("c", Sort::Bv(32)), p.var("key", Sort::Bv(32)));
    let (one, two) = (p.bv(16, 1), p.bv(16, 2));
    let (is1, is2) = (p.eq(&ptr, &one), p.eq(&ptr, &two));
    let inner = p.ite(&is2, &b, &c);
    let read = p.ite(&is1, &a, &inner);
    let lt = p.slt(&read, &key);
    let eq = p.eq(&key, &read);
    let (a_lt, b_lt, c_lt) = (p.slt(&a, &key), p.slt(&b, &key), p.slt(&c, &key));
    let (not_a, not_b, not_c) = (p.not(&a_lt), p.not(&b_lt), p.not(&c_lt));
    let not_eq = p.not(&eq);
    let queries: Vec<Vec<Term>> = vec![
        vec![lt.clone(), not_a.clone(), not_b.clone(), not_c.clone()],
        vec![lt.clone(), not_a, not_b, c_lt],
        vec![lt.clone(), is1.clone(), a_lt.clone()],
        vec![eq.clone(), is2.clone(), not_eq.clone()],
        vec![eq, is1, lt],
    ];
    let expected = [false, true, true, false, false];
    for lift in [true, false] {
        let mut s = Z3Solver::new(1000, lift);
        for (q, want) in queries.iter().zip(expected) {
            assert_eq!(matches!(s.check(q), SatResult::Sat(_)), want, "lift {lift}: {q:?}");
        }
    }
}

/// An if-then-else DAG whose tree has 2^60 leaves (each level shares the one below twice)
/// is compared as a whole: deciding whether to lift it looks at no more than the cap.
#[test]
fn lifting_does_not_walk_a_shared_dag_as_a_tree() {
    let mut p = TermPool::new();
    let key = p.var("key", Sort::Bv(32));
    let mut t = p.var("x", Sort::Bv(32));
    for k in 0..60 {
        let (c, d, x) = (p.var(&format!("c{k}"), Sort::Bool), p.var(&format!("d{k}"), Sort::Bool), p.int(k));
        let inner = p.ite(&d, &t, &x);
        t = p.ite(&c, &t, &inner);
    }
    let lt = p.slt(&t, &key);
    let mut s = Z3Solver::new(1000, true);
    assert!(matches!(s.check(&[lt]), SatResult::Sat(_)));
}

/// A budget that runs out between a satisfiable check and the reading of its model
/// interrupts Z3, which then evaluates nothing: that is no model, never an empty one (an
/// empty model made every input reference null, a test off its trace's path).
#[test]
fn a_model_read_after_an_interrupt_is_no_model() {
    let mut p = TermPool::new();
    let x = p.var("x", Sort::Bv(32));
    let five = p.int(5);
    let lt = p.slt(&x, &five);
    let mut s = Z3Solver::new(1000, true);
    assert!(matches!(s.check(&[lt]), SatResult::Sat(_)));
    assert!(s.extract_model().is_some());
    z3::Context::thread_local().handle().interrupt();
    assert!(s.extract_model().is_none());
}

/// An interrupt stays pending in Z3's context after the query it was meant for, and a
/// push under it drops the constraints it should take in (Z3 then answers `sat` on an
/// unsatisfiable stack): a solver that sees the watchdog's count move starts over.
#[test]
fn an_interrupt_between_queries_does_not_cut_the_stack_short() {
    let budget = Budget::new(600, 4096, crate::budget::Stop::new());
    isolated(&budget, || {
        let mut p = TermPool::new();
        let (x, y) = (p.var("x", Sort::Bv(32)), p.var("y", Sort::Bv(32)));
        let (one, three, five, hundred) = (p.int(1), p.int(3), p.int(5), p.int(100));
        let succ = p.bin(BvOp::Add, &x, &one);
        let base = [p.slt(&five, &x), p.slt(&x, &hundred), p.eq(&y, &succ)];
        let small = p.slt(&y, &three);
        let mut s = Z3Solver::new(1000, true);
        assert!(matches!(s.check(&base), SatResult::Sat(_)));
        // What the watchdog does when the budget runs out between two queries.
        let watch = THREAD_WATCH.with(|d| d.borrow().clone()).unwrap();
        watch.interrupts.fetch_add(1, Ordering::AcqRel);
        z3::Context::thread_local().handle().interrupt();
        watch.interrupts.fetch_add(1, Ordering::AcqRel);
        let all = [&base[..], &[small]].concat();
        assert_eq!(s.check(&all), SatResult::Unsat);
        assert!(matches!(s.check(&base), SatResult::Sat(_)));
    });
}

/// A solver that no query has reached leaves the thread without a Z3 context (making one
/// is a fixed cost, and the solver chain answers most runs alone); the first query
/// that reaches Z3 makes it and hands it to the watchdog.
#[test]
fn the_z3_context_is_made_by_the_first_query_that_reaches_z3() {
    let budget = Budget::new(600, 4096, crate::budget::Stop::new());
    isolated(&budget, || {
        let mut p = TermPool::new();
        let (x, five) = (p.var("x", Sort::Bv(32)), p.int(5));
        let mut s = Z3Solver::new(1000, true);
        let watch = THREAD_WATCH.with(|d| d.borrow().clone()).unwrap();
        assert!(watch.context.load(Ordering::Acquire).is_null());
        assert!(matches!(s.check(&[p.slt(&x, &five)]), SatResult::Sat(_)));
        assert!(!watch.context.load(Ordering::Acquire).is_null());
    });
}

/// Inside [`isolated`] a query's timeout is kept by the watchdog, not by Z3's timer: a
/// query past it answers `unknown` for a timeout, and the next query answers as usual.
#[test]
fn the_watchdog_keeps_a_queries_timeout() {
    let budget = Budget::new(600, 4096, crate::budget::Stop::new());
    isolated(&budget, || {
        let mut p = TermPool::new();
        // Seventeen pairwise distinct 4-bit values: a pigeonhole proof, far beyond the timeout.
        let xs: Vec<Term> = (0..17).map(|i| p.var(&format!("x{i}"), Sort::Bv(4))).collect();
        let mut hard = Vec::new();
        for (i, a) in xs.iter().enumerate() {
            for b in &xs[i + 1..] {
                let same = p.eq(a, b);
                hard.push(p.not(&same));
            }
        }
        let mut s = Z3Solver::new(50, true);
        assert!(s.watch.is_some(), "the watchdog keeps the timeout");
        assert_eq!(s.check(&hard), SatResult::Unknown("timeout".to_string()));
        let five = p.int(5);
        let z = p.var("z", Sort::Bv(32));
        let easy = p.slt(&z, &five);
        assert!(matches!(s.check(&[easy]), SatResult::Sat(_)));
    });
}
