//! Tests of model repair.

#![allow(clippy::unwrap_used)]
use super::*;
use crate::term::{BvCmp, BvOp, TermPool};

#[test]
fn changes_the_newest_choice_and_recomputes_definitions() {
    let mut p = TermPool::new();
    let c = p.var("c", Sort::Bv(8));
    let r = p.var("r", Sort::Bv(8));
    let zero = p.bv(8, 0);
    let two = p.bv(8, 2);
    let is0 = p.eq(&c, &zero);
    let is2 = p.eq(&c, &two);
    let dom = p.or2(&is0, &is2);
    let def = p.ite(&is2, &two, &zero);
    let d = p.eq(&r, &def);
    let rnull = p.eq(&r, &zero);
    let mut base = Assignment::default();
    base.values.insert(SymbolId::from("c"), Val::Bv(2));
    base.values.insert(SymbolId::from("r"), Val::Bv(2));
    let m = Repairer::default().repair(&base, &[], &[dom, d, rnull]).unwrap();
    assert_eq!(m.get("c"), Some(&Val::Bv(0)));
    assert_eq!(m.get("r"), Some(&Val::Bv(0)));
}

#[test]
fn takes_the_value_of_what_a_new_symbol_is_compared_with() {
    let mut p = TermPool::new();
    let key = p.var("key", Sort::Bv(32));
    let c = p.var("c", Sort::Bv(8));
    let (a, b) = (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)));
    let two = p.bv(8, 2);
    let is2 = p.eq(&c, &two);
    // `key == t.key` where `t.key` is a value set over two locations, then `key < b`.
    let value = p.ite(&is2, &a, &b);
    let found = p.eq(&key, &value);
    let less = p.slt(&key, &b);
    let mut base = Assignment::default();
    for (n, v) in [("key", 7), ("c", 2), ("a", 0), ("b", 0)] {
        base.values.insert(SymbolId::from(n), Val::Bv(v));
    }
    // The value set keeps its location (c); a key takes a value it is compared with.
    let mut r = Repairer::default();
    let m = r.repair(&base, &[], std::slice::from_ref(&found)).unwrap();
    assert_eq!((m.eval_bool(&found), m.get("c")), (Some(true), Some(&Val::Bv(2))));
    let m2 = r.repair(&m, std::slice::from_ref(&found), &[found.clone(), less.clone()]).unwrap();
    assert_eq!((m2.eval_bool(&found), m2.eval_bool(&less), m2.get("c")), (Some(true), Some(true), Some(&Val::Bv(2))));
}

#[test]
fn changes_an_old_choice_the_new_constraint_names() {
    let mut p = TermPool::new();
    let c = p.var("c", Sort::Bv(8));
    let (zero, two) = (p.bv(8, 0), p.bv(8, 2));
    let is2 = p.eq(&c, &two);
    let mut pc = vec![is2.clone()];
    let mut base = Assignment::default();
    base.values.insert(SymbolId::from("c"), Val::Bv(2));
    // More newer symbols than the repair tries by recency.
    for i in 0..=RECENT {
        let s = p.var(&format!("s{i}"), Sort::Bv(8));
        pc.push(p.ne(&s, &zero));
        base.values.insert(SymbolId::from(format!("s{i}").as_str()), Val::Bv(1));
    }
    let is0 = p.eq(&c, &zero);
    pc[0] = p.or2(&is2, &is0);
    pc.push(is0.clone());
    let m = Repairer::default().repair(&base, &[], &pc).unwrap();
    assert_eq!((m.eval_bool(&is0), m.get("c")), (Some(true), Some(&Val::Bv(0))));
}

/// A new location once the scope is full: `left -> 8` makes a second object exist,
/// which the bound forbids until `right` leaves the other one (location 4) out. uber
/// bounds the count once per read that materialized an object: with `counts` such
/// entries, the first change leaves that many false.
fn repairs_a_full_scope(counts: usize) {
    let mut p = TermPool::new();
    let (right, left) = (p.var("right", Sort::Bv(8)), p.var("left", Sort::Bv(8)));
    let (e4, e8) = (p.var("L4.exists", Sort::Bool), p.var("L8.exists", Sort::Bool));
    let [zero, two, four, eight] = [0, 2, 4, 8].map(|k| p.bv(8, k));
    let (one16, zero16) = (p.bv(16, 1), p.bv(16, 0));
    let right4 = p.eq(&right, &four);
    let def4 = p.eq(&e4, &right4);
    let r0 = p.eq(&right, &zero);
    let r2 = p.eq(&right, &two);
    let dom = p.or(&[r0.clone(), r2, right4]);
    let nonnull = p.not(&r0);
    let left8 = p.eq(&left, &eight);
    let def8 = p.eq(&e8, &left8);
    let (c4, c8) = (p.ite(&e4, &one16, &zero16), p.ite(&e8, &one16, &zero16));
    let mut pc = vec![def4, dom, nonnull, def8];
    // A second read's count is summed the other way round: another entry.
    for (x, y) in [(&c4, &c8), (&c8, &c4)].into_iter().take(counts) {
        let count = p.bin(BvOp::Add, x, y);
        pc.push(p.cmp(BvCmp::Ule, &count, &one16));
    }
    pc.push(left8);
    let mut base = Assignment::default();
    for (n, v) in [("right", 4), ("left", 0)] {
        base.values.insert(SymbolId::from(n), Val::Bv(v));
    }
    base.values.insert(SymbolId::from("L4.exists"), Val::Bool(true));
    base.values.insert(SymbolId::from("L8.exists"), Val::Bool(false));
    let known = &pc[..pc.len() - 1];
    let m = Repairer::default().repair(&base, known, &pc).unwrap();
    assert!(pc.iter().all(|t| m.eval_bool(t) == Some(true)));
    assert_eq!((m.get("left"), m.get("right")), (Some(&Val::Bv(8)), Some(&Val::Bv(2))));
}

#[test]
fn takes_a_second_step_when_the_first_change_needs_another() {
    repairs_a_full_scope(1);
}

/// Two reads had materialized an object at a full scope (a red-black tree's repOK).
#[test]
fn a_first_change_may_leave_one_more_entry_false() {
    repairs_a_full_scope(2);
}

/// A symbol that only a chain of stores names (a heap summary's index) is not in the
/// occurrence lists: the entries reading array contents are evaluated for any change.
#[test]
fn a_change_reaches_the_entries_that_read_array_contents() {
    let mut p = TermPool::new();
    let ptr = p.var("p", Sort::Bv(8));
    let keys = p.var("K", Sort::Array(8, 8));
    let [one, two, seven] = [1, 2, 7].map(|k| p.bv(8, k));
    let (is1, is2) = (p.eq(&ptr, &one), p.eq(&ptr, &two));
    let dom = p.or2(&is1, &is2);
    let stored = p.store(&keys, &ptr, &seven);
    let read = p.select(&stored, &two);
    let hit = p.eq(&read, &seven);
    let mut base = Assignment::default();
    base.values.insert(SymbolId::from("p"), Val::Bv(1));
    let pc = [dom.clone(), hit.clone()];
    let m = Repairer::default().repair(&base, std::slice::from_ref(&dom), &pc).unwrap();
    assert_eq!((m.get("p"), m.eval_bool(&hit)), (Some(&Val::Bv(2)), Some(true)));
}

#[test]
fn gives_up_rather_than_guessing() {
    let mut p = TermPool::new();
    let c = p.var("c", Sort::Bv(8));
    let one = p.bv(8, 1);
    let is1 = p.eq(&c, &one);
    let not1 = p.not(&is1);
    let base = Assignment::default();
    assert!(Repairer::default().repair(&base, &[], &[is1, not1]).is_none());
}

/// `1 != L5.level` where `L5.level` is 1 now (an AA tree's repOK in a P-search), and
/// `size != 0` where the model leaves `size` out (so it is 0): the values beside the
/// constant are candidates.
#[test]
fn a_symbol_equal_to_a_constant_it_must_differ_from_takes_a_value_beside_it() {
    let mut p = TermPool::new();
    let (level, size) = (p.var("L5.level", Sort::Bv(32)), p.var("this.size", Sort::Bv(32)));
    let (zero, one) = (p.bv(32, 0), p.bv(32, 1));
    let is1 = p.eq(&one, &level);
    let not1 = p.not(&is1);
    let empty = p.eq(&size, &zero);
    let nonempty = p.not(&empty);
    let mut base = Assignment::default();
    base.values.insert(SymbolId::from("L5.level"), Val::Bv(1));
    let m = Repairer::default().repair(&base, &[], std::slice::from_ref(&not1)).unwrap();
    assert_eq!(m.get("L5.level"), Some(&Val::Bv(2)));
    let m = Repairer::default().repair(&Assignment::default(), &[], &[nonempty]).unwrap();
    assert_eq!(m.get("this.size"), Some(&Val::Bv(1)));
}

/// The short repair of the solver chain (`chain::repair::SHORT`) gives up where the value that
/// works is a later candidate than it may try: here the third (3 and 2 are tried first).
#[test]
fn a_repair_tries_no_more_candidates_than_it_is_given() {
    let mut p = TermPool::new();
    let x = p.var("x", Sort::Bv(32));
    let (one, two, three) = (p.bv(32, 1), p.bv(32, 2), p.bv(32, 3));
    let options: Vec<Term> = [&one, &two, &three].iter().map(|k| p.eq(&x, k)).collect();
    let some = p.or(&options);
    let below = p.cmp(BvCmp::Slt, &x, &two);
    let both = p.and(&[some, below]);
    let pc = std::slice::from_ref(&both);
    let base = Assignment::default();
    assert!(Repairer::default().repair_within(&base, &[], pc, 2).is_none());
    let m = Repairer::default().repair_within(&base, &[], pc, 3).unwrap();
    assert_eq!(m.get("x"), Some(&Val::Bv(1)));
}

/// repOK's walk around a possible cycle (`n <= size` at each node) asks for one more
/// each time: the value that meets the newest bound is among the first candidates, not
/// after the values of every bound before it.
#[test]
fn the_entry_to_make_true_gives_the_first_values() {
    let mut p = TermPool::new();
    let size = p.var("this.size", Sort::Bv(32));
    let bounds: Vec<Term> = (1..=21).map(|n| p.bv(32, n)).collect();
    let pc: Vec<Term> = bounds.iter().map(|n| p.cmp(BvCmp::Sle, n, &size)).collect();
    let mut base = Assignment::default();
    base.values.insert(SymbolId::from("this.size"), Val::Bv(20));
    let m = Repairer::default().repair_within(&base, &pc[..20], &pc, 3).unwrap();
    assert!(pc.iter().all(|t| m.eval_bool(t) == Some(true)));
}

/// `size + 1 <= size` (the overflow side of `size > before` after `size = size + 1`)
/// holds only at the largest int: an extreme of the width is a candidate.
#[test]
fn an_overflow_check_takes_an_extreme_of_the_width() {
    let mut p = TermPool::new();
    let size = p.var("this.size", Sort::Bv(32));
    let one = p.bv(32, 1);
    let next = p.bin(BvOp::Add, &size, &one);
    let wraps = p.cmp(BvCmp::Sle, &next, &size);
    let mut base = Assignment::default();
    base.values.insert(SymbolId::from("this.size"), Val::Bv(0));
    let m = Repairer::default().repair(&base, &[], std::slice::from_ref(&wraps)).unwrap();
    assert_eq!(m.get("this.size"), Some(&Val::Bv(0x7fff_ffff)));
}

/// `L2.level == L1.level - 1` with `L2.level == 0` (an AA tree's levels): the value that
/// makes the sides equal is a candidate of `L1.level`.
#[test]
fn a_symbol_plus_a_constant_takes_the_value_that_meets_the_other_side() {
    let mut p = TermPool::new();
    let (l1, l2) = (p.var("L1.level", Sort::Bv(32)), p.var("L2.level", Sort::Bv(32)));
    let (zero, one) = (p.bv(32, 0), p.bv(32, 1));
    let below = p.bin(BvOp::Sub, &l1, &one);
    let leaf = p.eq(&l2, &zero);
    let step = p.eq(&l2, &below);
    let mut base = Assignment::default();
    for (n, v) in [("L1.level", 5), ("L2.level", 0)] {
        base.values.insert(SymbolId::from(n), Val::Bv(v));
    }
    let m = Repairer::default().repair(&base, std::slice::from_ref(&leaf), &[leaf.clone(), step]).unwrap();
    assert_eq!((m.get("L1.level"), m.get("L2.level")), (Some(&Val::Bv(1)), Some(&Val::Bv(0))));
}

/// `!(t.height <= r.height)` where `t` is a value set that may be `r` (`ite(c == 2, a,
/// b)`): once `a` takes the new constraint's 1, `b` takes a value around what it is
/// compared with, though that names `b` too (an AVL tree's repOK, `1 == L3.height`).
#[test]
fn a_symbol_compared_with_a_value_set_that_may_be_itself_takes_a_value_around_it() {
    let mut p = TermPool::new();
    let (c, a, b) = (p.var("c", Sort::Bv(8)), p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)));
    let (two, one) = (p.bv(8, 2), p.bv(32, 1));
    let is2 = p.eq(&c, &two);
    let t = p.ite(&is2, &a, &b);
    let le = p.cmp(BvCmp::Sle, &t, &b);
    let taller = p.not(&le);
    let new = p.eq(&one, &a);
    let mut base = Assignment::default();
    for (n, v) in [("c", 2), ("a", 2), ("b", 1)] {
        base.values.insert(SymbolId::from(n), Val::Bv(v));
    }
    let m = Repairer::default().repair(&base, std::slice::from_ref(&taller), &[taller.clone(), new]).unwrap();
    assert_eq!((m.get("a"), m.get("b")), (Some(&Val::Bv(1)), Some(&Val::Bv(0))));
}

#[test]
fn evaluators_of_one_repair_step_share_only_what_their_changes_leave_alone() {
    // Two candidates' evaluators of {a = 1, b = 2}: one sets `a`, the other `b`. `b + 1`,
    // evaluated by the first, is shared; the second, which changes `b`, evaluates it again.
    let mut p = TermPool::new();
    let (a, b, one) = (p.var("a", Sort::Bv(8)), p.var("b", Sort::Bv(8)), p.bv(8, 1));
    let (b1, ab) = (p.bin(BvOp::Add, &b, &one), p.bin(BvOp::Add, &a, &b));
    let mut base = Assignment::default();
    base.values.insert("a".into(), Val::Bv(1));
    base.values.insert("b".into(), Val::Bv(2));
    let mut ev = Evaluator::sharing(&base, Default::default(), Default::default());
    ev.set("a".into(), Val::Bv(5));
    assert_eq!((ev.eval(&b1), ev.eval(&ab)), (Some(Val::Bv(3)), Some(Val::Bv(7))));
    let (shared, overlay) = ev.into_shared();
    assert!(shared.contains_key(&b1.id()) && !shared.contains_key(&ab.id()));
    assert_eq!(overlay.get("a"), Some(&Val::Bv(5)));
    let mut ev = Evaluator::sharing(&base, Default::default(), shared);
    ev.set("b".into(), Val::Bv(9));
    assert_eq!((ev.eval(&b1), ev.eval(&ab)), (Some(Val::Bv(10)), Some(Val::Bv(10))));
}
