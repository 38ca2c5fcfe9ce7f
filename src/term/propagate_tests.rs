//! Unit propagation's refutations (term/propagate.rs), on the path conditions of the heaps.

use super::*;
use crate::term::{BvCmp, BvOp, Sort, TermPool};

/// `x <=u k` over 16-bit values (POSE's numbering of its symbols).
fn at_most(p: &mut TermPool, x: &Term, k: i64) -> Term {
    let k = p.bv(16, k);
    p.cmp(BvCmp::Ule, x, &k)
}

#[test]
fn a_value_set_decided_by_its_fields_refutes_the_opposite_null_test() {
    // uber's `r5 = ite(2 == L1.right, L1.right, L2.right)`; the P-search chose
    // `L1.right -> L3` (3) and `L2.right -> null` (0), so `r5 != null` cannot hold.
    let mut p = TermPool::default();
    let (l1r, l2r, r5) = (p.var("L1.right", Sort::Bv(32)), p.var("L2.right", Sort::Bv(32)), p.var("r5", Sort::Bv(32)));
    let (zero, two, three) = (p.int(0), p.int(2), p.int(3));
    let c = p.eq(&two, &l1r);
    let ite = p.ite(&c, &l1r, &l2r);
    let def = p.eq(&ite, &r5);
    let nonnull = p.ne(&zero, &r5);
    let facts = [p.eq(&three, &l1r), p.eq(&zero, &l2r)];
    let mut pc = vec![def.clone(), nonnull.clone()];
    pc.extend(facts.iter().cloned());
    assert!(refuted_by_propagation(&pc));
    // Without the choice of `L2.right` nothing is decided: satisfiable as far as it knows.
    assert!(!refuted_by_propagation(&[def, nonnull, facts[0].clone()]));
}

#[test]
fn clauses_and_disequalities_propagate() {
    let mut p = TermPool::default();
    let (root, exists) = (p.var("this.root", Sort::Bv(32)), p.var("L1.exists", Sort::Bool));
    let (zero, two) = (p.int(0), p.int(2));
    // `root in {null, L1}`, `root != null`, `root == L1 <=> L1.exists`, `!L1.exists`.
    let is_null = p.eq(&zero, &root);
    let is_l1 = p.eq(&root, &two);
    let one_of = p.or(&[is_null.clone(), is_l1.clone()]);
    let nonnull = p.not(&is_null);
    let iff = p.eq(&is_l1, &exists);
    let absent = p.not(&exists);
    assert!(refuted_by_propagation(&[one_of.clone(), nonnull.clone(), iff.clone(), absent]));
    // With `L1.exists` the same facts agree (root -> L1).
    assert!(!refuted_by_propagation(&[one_of, nonnull, iff, exists]));
}

#[test]
fn a_decided_side_of_an_equivalence_forces_the_other() {
    // `L5.exists <=> (L2.exists && L2.parent == 6)` with `L5.exists`: `L2.parent -> L5`,
    // which `L2.parent != 6` denies.
    let mut p = TermPool::default();
    let (l5, l2, parent) =
        (p.var("L5.exists", Sort::Bool), p.var("L2.exists", Sort::Bool), p.var("L2.parent", Sort::Bv(16)));
    let six = p.bv(16, 6);
    let at_l5 = p.eq(&parent, &six);
    let both = p.and(&[l2, at_l5.clone()]);
    let iff = p.eq(&l5, &both);
    let elsewhere = p.not(&at_l5);
    assert!(refuted_by_propagation(&[iff.clone(), l5.clone(), elsewhere.clone()]));
    // Without `L5.exists` the equivalence only says `L5` is absent.
    assert!(!refuted_by_propagation(&[iff, elsewhere]));
}

#[test]
fn order_cycles_are_refuted_through_decided_if_then_else_values() {
    // uber's `key == ite(2 == L1.right, L1.key, L2.key)` with `L1.key <= key`, and the
    // P-search's `L1.right -> L2` (3) and `L2.key < L1.key`: a cycle once the value is
    // read as `L2.key`.
    let mut p = TermPool::default();
    let (key, k1, k2, right) = (
        p.var("key", Sort::Bv(32)),
        p.var("L1.key", Sort::Bv(32)),
        p.var("L2.key", Sort::Bv(32)),
        p.var("L1.right", Sort::Bv(16)),
    );
    let (two, three) = (p.bv(16, 2), p.bv(16, 3));
    let at_l1 = p.eq(&two, &right);
    let value = p.ite(&at_l1, &k1, &k2);
    let mut pc = vec![p.sle(&k1, &key), p.sle(&key, &value), p.sle(&value, &key), p.slt(&k2, &k1)];
    // Without the choice of `L1.right` the value may be `L1.key`: no cycle.
    assert!(!refuted_by_propagation(&pc));
    pc.push(p.eq(&right, &three));
    assert!(refuted_by_propagation(&pc));
    // A value said to differ from itself once resolved.
    let ne = p.eq(&value, &k2);
    let ne = p.not(&ne);
    assert!(refuted_by_propagation(&[p.eq(&right, &three), ne]));
}

#[test]
fn a_bounded_symbol_takes_the_one_value_left_and_none_refutes() {
    // POSE numbers its symbols: `this <=u 1`, `root <=u 2`, `next <=u 3`, each non-null
    // and apart from those before; with `next <=u 2` no number is left for it.
    let mut p = TermPool::default();
    let (this, root, next) =
        (p.var("this", Sort::Bv(16)), p.var("this.root", Sort::Bv(16)), p.var("this.root.next", Sort::Bv(16)));
    let zero = p.bv(16, 0);
    let mut pc = vec![at_most(&mut p, &this, 1), p.ne(&this, &zero), at_most(&mut p, &root, 2), p.ne(&root, &zero)];
    pc.extend([p.ne(&root, &this), p.ne(&next, &zero), p.ne(&next, &this), p.ne(&next, &root)]);
    let mut open = pc.clone();
    open.push(at_most(&mut p, &next, 3));
    assert!(!refuted_by_propagation(&open));
    pc.push(at_most(&mut p, &next, 2));
    assert!(refuted_by_propagation(&pc));
    // Without `root != this`, `root` may be 1 and leave 2 for `next`: nothing refuted.
    let apart = p.ne(&root, &this);
    pc.retain(|t| *t != apart);
    assert!(!refuted_by_propagation(&pc));
}

#[test]
fn a_symbol_with_two_values_left_is_split_on() {
    // `next <=u 2`, non-null: `next` is 1 (`a`) or 2 (`b`), and `a.key < b.key`. A key of
    // `next` below `b.key` and above `a.key` fits neither.
    let mut p = TermPool::default();
    let next = p.var("next", Sort::Bv(16));
    let (zero, one, two) = (p.bv(16, 0), p.bv(16, 1), p.bv(16, 2));
    let (ka, kb) = (p.var("a.key", Sort::Bv(32)), p.var("b.key", Sort::Bv(32)));
    let is_a = p.eq(&next, &one);
    let is_b = p.eq(&next, &two);
    let ib = p.ite(&is_b, &kb, &ka);
    let key = p.ite(&is_a, &ka, &ib);
    let bound = at_most(&mut p, &next, 2);
    let mut pc = vec![bound, p.ne(&next, &zero), p.slt(&ka, &kb), p.slt(&key, &kb)];
    assert!(!refuted_by_propagation(&pc));
    pc.push(p.slt(&ka, &key));
    assert!(refuted_by_propagation(&pc));
}

#[test]
fn a_probe_of_the_prefix_two_queries_share_decides_what_a_split_of_each_would() {
    // `next` is 1 (`a`) or 2 (`b`), `a.key < b.key`, and the key read through `next` is at
    // least `b.key`: `next` must be `b`, which only a case of `next` shows. The next query
    // reads `x` or `y` through `next`, needs 7 and `x` is not.
    let mut p = TermPool::default();
    let next = p.var("next", Sort::Bv(16));
    let (zero, one) = (p.bv(16, 0), p.bv(16, 1));
    let (ka, kb) = (p.var("a.key", Sort::Bv(32)), p.var("b.key", Sort::Bv(32)));
    let (x, y, seven) = (p.var("x", Sort::Bv(32)), p.var("y", Sort::Bv(32)), p.int(7));
    let is_a = p.eq(&next, &one);
    let key = p.ite(&is_a, &ka, &kb);
    let bound = at_most(&mut p, &next, 2);
    let prefix = vec![bound, p.ne(&next, &zero), p.slt(&ka, &kb), p.sle(&kb, &key)];
    let value = p.ite(&is_a, &y, &x);
    let mut first = prefix.clone();
    first.push(p.eq(&x, &seven));
    let mut second = prefix;
    second.extend([p.eq(&value, &seven), p.ne(&x, &seven)]);
    let syms = |pc: &[Term]| -> Vec<Rc<[SymbolId]>> { pc.iter().map(|t| t.var_names().into()).collect() };
    let (s1, s2) = (syms(&first), syms(&second));
    let mut plain = Propagator::default();
    assert!(!plain.refuted_splitting(&first, &s1, false));
    assert!(!plain.refuted_splitting(&second, &s2, false), "without a case of `next` nothing is decided");
    let mut probing = Propagator::default();
    assert!(!probing.refuted_probing(&first, &s1));
    assert!(probing.refuted_probing(&second, &s2));
    // And the probe refutes nothing that holds: `x == 7` alone is satisfiable.
    let mut third = second.clone();
    third.truncate(4);
    third.push(p.eq(&value, &seven));
    let s3 = syms(&third);
    let mut probing = Propagator::default();
    assert!(!probing.refuted_probing(&first, &s1));
    assert!(!probing.refuted_probing(&third, &s3));
}

#[test]
fn symbols_with_up_to_four_values_left_are_split_on_two_levels_deep() {
    // `x` is 2, 3 or 4 and `y` 5 or 6; the key `v` read through `x` is `k2`, `k3` or `k4`,
    // the key `w` read through `y` is `k5` or `k6`, and `w < a <= v`. Every `ki <= kj`
    // closes a cycle in each case of `x` and `y` together, none in a case of one alone.
    let mut p = TermPool::default();
    let (x, y) = (p.var("x", Sort::Bv(16)), p.var("y", Sort::Bv(16)));
    let c: Vec<Term> = (0..7).map(|k| p.bv(16, k)).collect();
    let k: Vec<Term> = (0..7).map(|i| p.var(&format!("k{i}"), Sort::Bv(32))).collect();
    let a = p.var("a", Sort::Bv(32));
    let (is2, is3, is5) = (p.eq(&x, &c[2]), p.eq(&x, &c[3]), p.eq(&y, &c[5]));
    let rest = p.ite(&is3, &k[3], &k[4]);
    let v = p.ite(&is2, &k[2], &rest);
    let w = p.ite(&is5, &k[5], &k[6]);
    let mut pc = vec![at_most(&mut p, &x, 4), p.ne(&x, &c[0]), p.ne(&x, &c[1]), at_most(&mut p, &y, 6)];
    pc.extend((0..5).map(|i| p.ne(&y, &c[i])));
    pc.extend([p.sle(&a, &v), p.slt(&w, &a)]);
    for (i, j) in [(2, 5), (2, 6), (3, 5), (3, 6), (4, 5)] {
        pc.push(p.sle(&k[i], &k[j]));
    }
    assert!(!refuted_by_propagation(&pc), "x = 4 with y = 6 is open");
    pc.push(p.sle(&k[4], &k[6]));
    assert!(refuted_by_propagation(&pc));
}

#[test]
fn a_candidate_domain_with_two_values_left_is_split_on() {
    // uber's `(0 == c) || (2 == c) || (3 == c)` with `c != null`: `c` is 2 or 3. The key
    // read through it is `k1` or `k2`; `key` equals it and differs from both.
    let mut p = TermPool::default();
    let c = p.var("L1.right", Sort::Bv(8));
    let [zero, two, three] = [0, 2, 3].map(|k| p.bv(8, k));
    let (key, k1, k2) = (p.var("key", Sort::Bv(32)), p.var("L1.key", Sort::Bv(32)), p.var("L2.key", Sort::Bv(32)));
    let (is2, is3) = (p.eq(&c, &two), p.eq(&c, &three));
    let is0 = p.eq(&c, &zero);
    let domain = p.or(&[is0, is2.clone(), is3.clone()]);
    let read = p.ite(&is2, &k1, &k2);
    let mut pc = vec![domain, p.ne(&c, &zero), p.eq(&key, &read), p.ne(&key, &k1)];
    assert!(!refuted_by_propagation(&pc));
    let other = p.var("L3.key", Sort::Bv(32));
    let read3 = p.ite(&is3, &k2, &other);
    pc.push(p.ne(&key, &read3));
    assert!(refuted_by_propagation(&pc));
}

#[test]
fn equal_symbols_differ_from_the_same_values() {
    // `next <=u 3` and `other == next`, where `other` differs from 0, 1 and 2: `next` is 3.
    let mut p = TermPool::default();
    let (next, other) = (p.var("next", Sort::Bv(16)), p.var("other", Sort::Bv(16)));
    let three = p.bv(16, 3);
    let le = at_most(&mut p, &next, 3);
    let same = p.eq(&next, &other);
    let mut pc = vec![le, same];
    for v in 0..3 {
        let k = p.bv(16, v);
        pc.push(p.ne(&other, &k));
    }
    assert!(!refuted_by_propagation(&pc));
    pc.push(p.ne(&next, &three));
    assert!(refuted_by_propagation(&pc));
}

#[test]
fn equalities_between_undecided_references_are_facts() {
    // POSE's P-search: `this.root != this.root.right`, then `this.root.right != ite(this.root
    // == this.root.right, this.root.right, this.root.right.right)` (the value read as its
    // else branch: `this.root.right != this.root.right.right`), then the choice
    // `this.root.right == this.root.right.right` contradicts it.
    let mut p = TermPool::default();
    let (r, rr, rrr) = (
        p.var("this.root", Sort::Bv(32)),
        p.var("this.root.right", Sort::Bv(32)),
        p.var("this.root.right.right", Sort::Bv(32)),
    );
    let same = p.eq(&r, &rr);
    let apart = p.not(&same);
    let value = p.ite(&same, &rr, &rrr);
    let read = p.eq(&rr, &value);
    let not_read = p.not(&read);
    let choice = p.eq(&rr, &rrr);
    assert!(refuted_by_propagation(&[apart.clone(), not_read.clone(), choice.clone()]));
    // Without `this.root != this.root.right` the value may be `this.root.right` itself.
    assert!(!refuted_by_propagation(&[not_read.clone(), choice.clone()]));
    // The choice the other way agrees.
    let other = p.not(&choice);
    assert!(!refuted_by_propagation(&[apart, not_read, other]));
}

#[test]
fn order_cycles_need_no_decided_symbol() {
    // `x < y` and `y < x` contradict as an order cycle, not by propagation; `x <= y` and
    // `y <= x` agree.
    let mut p = TermPool::default();
    let (x, y) = (p.var("x", Sort::Bv(32)), p.var("y", Sort::Bv(32)));
    assert!(refuted_by_propagation(&[p.slt(&x, &y), p.slt(&y, &x)]));
    assert!(!refuted_by_propagation(&[p.sle(&x, &y), p.sle(&y, &x)]));
    // Once both are fixed, the order is evaluated.
    let (one, two) = (p.int(1), p.int(2));
    let pc = [p.slt(&y, &x), p.eq(&x, &one), p.eq(&two, &y)];
    assert!(refuted_by_propagation(&pc));
}

#[test]
fn a_count_of_existing_locations_over_the_scope_refutes_and_at_the_scope_closes_the_rest() {
    // uber's scope bound `1 + (L1.exists ? 1 : 0) + ... <=u 4` (3 bits, six locations).
    let mut p = TermPool::default();
    let exists: Vec<Term> = (1..=5).map(|i| p.var(&format!("L{i}.exists"), Sort::Bool)).collect();
    let (one, zero) = (p.bv(3, 1), p.bv(3, 0));
    let mut sum = one.clone();
    for e in &exists {
        let bit = p.ite(e, &one, &zero);
        sum = p.bin(crate::term::BvOp::Add, &sum, &bit);
    }
    let four = p.bv(3, 4);
    let scope = p.cmp(BvCmp::Ule, &sum, &four);
    // Four of them exist (L5 undecided): five objects where four fit.
    let mut pc = vec![scope.clone()];
    pc.extend(exists[..4].iter().cloned());
    assert!(refuted_by_propagation(&pc));
    // Three exist: the scope is full, so neither L4 nor L5 can.
    let mut pc = vec![scope];
    pc.extend(exists[..3].iter().cloned());
    assert!(!refuted_by_propagation(&pc));
    pc.push(p.or(&[exists[3].clone(), exists[4].clone()]));
    assert!(refuted_by_propagation(&pc));
}

#[test]
fn kept_facts_serve_the_queries_that_extend_them_and_never_a_sibling() {
    // The first test's terms, asked as a depth-first search asks: a prefix, then two
    // sides of a fork on `L2.right` (null, which refutes `r5 != null`, and L4, which does not).
    let mut p = TermPool::default();
    let (l1r, l2r, r5) = (p.var("L1.right", Sort::Bv(32)), p.var("L2.right", Sort::Bv(32)), p.var("r5", Sort::Bv(32)));
    let (zero, two, three, four) = (p.int(0), p.int(2), p.int(3), p.int(4));
    let c = p.eq(&two, &l1r);
    let ite = p.ite(&c, &l1r, &l2r);
    let prefix = vec![p.eq(&ite, &r5), p.ne(&zero, &r5), p.eq(&three, &l1r)];
    let side = |p: &mut TermPool, v: &Term| {
        let mut pc = prefix.clone();
        pc.push(p.eq(v, &l2r));
        pc
    };
    let (null_side, l4_side) = (side(&mut p, &zero), side(&mut p, &four));
    let mut kept = Propagator::default();
    for (pc, refuted) in [(&prefix, false), (&null_side, true), (&l4_side, false), (&null_side, true)] {
        let syms: Vec<Rc<[SymbolId]>> = pc.iter().map(|t| t.var_names().into()).collect();
        assert_eq!(kept.refuted(pc, &syms), refuted, "{pc:?}");
        assert_eq!(refuted_by_propagation(pc), refuted);
    }
}

/// BinomialHeap's degrees (repOK's P-search): `L3.degree` is 0 and `L2.degree - 1` is
/// `L3.degree`, so `L2.degree` is 1 and `(L2.degree - 1) - 1` is negative: solving the
/// equality for the symbol under the constants refutes it without Z3.
#[test]
fn an_equality_through_added_constants_decides_the_symbol() {
    let mut p = TermPool::default();
    let (d2, d3) = (p.var("L2.degree", Sort::Bv(32)), p.var("L3.degree", Sort::Bv(32)));
    let (zero, one) = (p.int(0), p.int(1));
    let less = p.bin(super::super::BvOp::Sub, &d2, &one);
    let twice = p.bin(super::super::BvOp::Sub, &less, &one);
    let negative = p.slt(&twice, &zero);
    let pc = [p.eq(&zero, &d3), p.eq(&less, &d3), p.not(&negative)];
    assert!(refuted_by_propagation(&pc));
    // Without the last constraint nothing contradicts, and the decided values say `L2.degree`.
    let syms: Vec<Rc<[SymbolId]>> = pc.iter().map(|t| t.var_names().into()).collect();
    let mut prop = Propagator::default();
    assert!(!prop.refuted(&pc[..2], &syms[..2]));
    let decided = prop.decided(&pc[..2]);
    assert_eq!(decided.last().and_then(|a| a.get("L2.degree")), Some(&Val::Bv(1)));
    // A negated sum is solved as well: `-(x + 3) == 5` makes `x` -8.
    let x = p.var("x", Sort::Bv(32));
    let (three, five) = (p.int(3), p.int(5));
    let sum = p.bin(super::super::BvOp::Add, &x, &three);
    let minus = p.neg(&sum);
    let eq = p.eq(&minus, &five);
    let one_syms: Vec<Rc<[SymbolId]>> = vec![eq.var_names().into()];
    assert!(!prop.refuted(std::slice::from_ref(&eq), &one_syms));
    let decided = prop.decided(std::slice::from_ref(&eq));
    assert_eq!(decided.last().and_then(|a| a.get("x")), Some(&Val::Bv((-8i32) as u32 as u64)));
}

/// A split of `c` in {2, 3}: `c == 2` reads `a`, which must be 5 and is 4; the case `c == 3`
/// is left open, and its values (`c` 3, `b` 5) come first among those decided.
#[test]
fn the_case_a_split_leaves_open_decides_more() {
    let mut p = TermPool::default();
    let c = p.var("c", Sort::Bv(16));
    let (a, b) = (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)));
    let (two, three, four, five) = (p.bv(16, 2), p.bv(16, 3), p.int(4), p.int(5));
    let (is2, is3) = (p.eq(&c, &two), p.eq(&c, &three));
    let read = p.ite(&is2, &a, &b);
    let pc = [p.or2(&is2, &is3), p.eq(&a, &four), p.eq(&read, &five)];
    let syms: Vec<Rc<[SymbolId]>> = pc.iter().map(|t| t.var_names().into()).collect();
    let mut prop = Propagator::default();
    assert!(!prop.refuted(&pc, &syms));
    let decided = prop.decided(&pc);
    assert_eq!(decided.len(), 2, "the open case, then the facts without splits");
    assert_eq!((decided[0].get("c"), decided[0].get("b")), (Some(&Val::Bv(3)), Some(&Val::Bv(5))));
    assert_eq!(decided[1].get("c"), None);
    // Another query's values are not this one's.
    assert!(prop.decided(&pc[..2]).is_empty());
}

/// AvlTree's balance under repOK: a height at least 0 (or 1) and a difference of heights
/// read through decided branches above 1, which Z3 refuted.
#[test]
fn signed_bounds_decide_a_difference_of_heights() {
    let mut p = TermPool::default();
    let (h2, h3) = (p.var("L2.height", Sort::Bv(32)), p.var("L3.height", Sort::Bv(32)));
    let (zero, one) = (p.int(0), p.int(1));
    let minus = p.bin(super::super::BvOp::Sub, &zero, &h2);
    let above = p.cmp(BvCmp::Sle, &minus, &one);
    assert!(refuted_by_propagation(&[p.cmp(BvCmp::Sle, &zero, &h2), p.not(&above)]));
    // `1 == L3.height`, `L3.height <= L2.height`, and `L3.height - L2.height > 1`.
    let diff = p.bin(super::super::BvOp::Sub, &h3, &h2);
    let balanced = p.cmp(BvCmp::Sle, &diff, &one);
    let pc = [p.eq(&one, &h3), p.cmp(BvCmp::Sle, &h3, &h2), p.not(&balanced)];
    assert!(refuted_by_propagation(&pc));
    assert!(!refuted_by_propagation(&pc[1..]), "without L3.height's value it may wrap around");
    // A bound that leaves one value decides the symbol.
    let at_most = p.cmp(BvCmp::Sle, &h2, &one);
    let q = [pc[0].clone(), pc[1].clone(), at_most];
    let syms: Vec<Rc<[SymbolId]>> = q.iter().map(|t| t.var_names().into()).collect();
    let mut prop = Propagator::default();
    assert!(!prop.refuted(&q, &syms));
    assert_eq!(prop.decided(&q).last().and_then(|a| a.get("L2.height")), Some(&Val::Bv(1)));
}

/// `x + 1 <= x` holds where `x + 1` wraps around (`x` the largest int): no range decides it
/// until a bound keeps the sum within the width.
#[test]
fn a_sum_that_may_wrap_around_is_not_decided() {
    let mut p = TermPool::default();
    let x = p.var("x", Sort::Bv(32));
    let (one, five) = (p.int(1), p.int(5));
    let next = p.bin(super::super::BvOp::Add, &x, &one);
    let wraps = p.cmp(BvCmp::Sle, &next, &x);
    assert!(!refuted_by_propagation(std::slice::from_ref(&wraps)));
    assert!(refuted_by_propagation(&[p.cmp(BvCmp::Sle, &x, &five), wraps]));
}

#[test]
fn two_symbols_an_equality_relates_decide_their_comparisons() {
    // AATree's P-search: `(L1.level - 1) == L6.level` and `L1.level == (L6.level - 1)`
    // cannot both hold; BinomialHeap's `(L1.degree - 1) == L4.degree` with `0 <= L1.degree`
    // denies `L1.degree <= L4.degree` (without the bound `L1.degree` may be the least int,
    // and `L4.degree` the largest).
    let mut p = TermPool::default();
    let (l1, l6) = (p.var("L1.level", Sort::Bv(32)), p.var("L6.level", Sort::Bv(32)));
    let (zero, one) = (p.int(0), p.int(1));
    let l1m = p.bin(BvOp::Sub, &l1, &one);
    let l6m = p.bin(BvOp::Sub, &l6, &one);
    let below = p.eq(&l1m, &l6);
    let above = p.eq(&l1, &l6m);
    let positive = p.slt(&zero, &l1);
    assert!(refuted_by_propagation(&[positive.clone(), below.clone(), above.clone()]));
    // Without the bound they differ by 2 modulo 2^32 all the same.
    assert!(refuted_by_propagation(&[below.clone(), above.clone()]));
    // `L1.level == L6.level + 1` agrees (whatever wraps around).
    let l6p = p.bin(BvOp::Add, &l6, &one);
    let agrees = p.eq(&l1, &l6p);
    assert!(!refuted_by_propagation(&[below.clone(), agrees]));
    // Without a bound the sides may wrap around: `L1.level - 1` is no integer form.
    let l4 = p.var("L4.degree", Sort::Bv(32));
    let at_least = p.sle(&zero, &l1);
    let degree = p.eq(&l1m, &l4);
    let not_below = p.sle(&l1, &l4);
    assert!(refuted_by_propagation(&[at_least, degree.clone(), not_below.clone()]));
    assert!(!refuted_by_propagation(&[degree, not_below]));
}

#[test]
fn a_start_moves_bounded_symbols_into_range_and_their_forms_follow() {
    // BinomialHeap's P-search: `L1`'s child `L3` and grandchild `L4` have degrees one and
    // two below it; a recent model has 2, 1, 0, and the query asks `L4.degree - 1 >= 0`.
    let mut p = TermPool::default();
    let (l1, l3, l4) =
        (p.var("L1.degree", Sort::Bv(32)), p.var("L3.degree", Sort::Bv(32)), p.var("L4.degree", Sort::Bv(32)));
    let (zero, one, thirty) = (p.int(0), p.int(1), p.int(30));
    let l1m = p.bin(BvOp::Sub, &l1, &one);
    let l3m = p.bin(BvOp::Sub, &l3, &one);
    let l4m = p.bin(BvOp::Sub, &l4, &one);
    let pc = [p.sle(&zero, &l1), p.sle(&l1, &thirty), p.eq(&l1m, &l3), p.eq(&l3m, &l4), p.sle(&zero, &l4m)];
    let mut base = Assignment::default();
    for (n, v) in [("L1.degree", 2), ("L3.degree", 1), ("L4.degree", 0)] {
        base.values.insert(SymbolId::from(n), Val::Bv(v));
    }
    let syms: Vec<Rc<[SymbolId]>> = pc.iter().map(|t| t.var_names().into()).collect();
    let mut prop = Propagator::default();
    assert!(!prop.refuted(&pc, &syms));
    let starts = prop.starts(&pc, &base);
    assert!(!starts.is_empty());
    for start in starts.iter().take(1) {
        assert!(pc.iter().all(|t| start.eval_bool(t) == Some(true)), "{start:?}");
        assert_eq!([start.get("L1.degree"), start.get("L4.degree")], [Some(&Val::Bv(3)), Some(&Val::Bv(1))]);
    }
    // No start for a query propagation did not last see.
    assert!(prop.starts(&pc[..4], &base).is_empty());
}

#[test]
fn a_round_keeps_what_the_last_decided_and_asks_again_what_it_did_not() {
    // `a == 1` is decided under {a = 1} and stays decided when `b` is learned; `b == 2`,
    // unknown then, is evaluated again (a kept unknown would hide what `b` decides).
    let mut p = TermPool::new();
    let (a, b) = (p.var("a", Sort::Bv(8)), p.var("b", Sort::Bv(8)));
    let (one, two) = (p.bv(8, 1), p.bv(8, 2));
    let (a1, b2) = (p.eq(&a, &one), p.eq(&b, &two));
    let mut values = Assignment::default();
    values.values.insert("a".into(), Val::Bv(1));
    let mut ev = Evaluator::partial(&values);
    assert_eq!((ev.eval(&a1), ev.eval(&b2)), (Some(Val::Bool(true)), None));
    let kept = ev.into_known();
    values.values.insert("b".into(), Val::Bv(2));
    let mut ev = Evaluator::partial_keeping(&values, kept);
    assert_eq!((ev.eval(&a1), ev.eval(&b2)), (Some(Val::Bool(true)), Some(Val::Bool(true))));
}

/// A query of POSE's P-search over BinomialHeap's repOK: the child's degree is 0, one less
/// than the sibling's (an if-then-else value, `s` once `h != s`), which differs from 1.
/// Only the deep propagation solves the difference through the branch.
#[test]
fn a_deep_propagation_solves_arithmetic_through_the_branches_the_facts_take() {
    let mut p = TermPool::default();
    let (h, s) = (p.var("h", Sort::Bv(16)), p.var("s", Sort::Bv(16)));
    let (hd, sd, cd) =
        (p.var("h.degree", Sort::Bv(32)), p.var("s.degree", Sort::Bv(32)), p.var("c.degree", Sort::Bv(32)));
    let (zero, one) = (p.int(0), p.int(1));
    let same = p.eq(&h, &s);
    let apart = p.not(&same);
    let degree = p.ite(&same, &hd, &sd);
    let is1 = p.eq(&one, &degree);
    let not1 = p.not(&is1);
    let below = p.bin(BvOp::Sub, &degree, &one);
    let child = p.eq(&cd, &below);
    let leaf = p.eq(&zero, &cd);
    let pc = [apart, not1, child, leaf];
    let syms: Vec<Rc<[SymbolId]>> = pc.iter().map(|t| t.var_names().into()).collect();
    let mut prop = Propagator::default();
    assert!(!prop.refuted(&pc, &syms));
    assert!(prop.refuted_deeply(&pc, &syms));
    // With the child's degree 1 instead, the sibling's is 2: nothing to refute.
    let leaf = p.eq(&one, &cd);
    let pc = [pc[0].clone(), pc[1].clone(), pc[2].clone(), leaf];
    let syms: Vec<Rc<[SymbolId]>> = pc.iter().map(|t| t.var_names().into()).collect();
    assert!(!prop.refuted_deeply(&pc, &syms));
}
