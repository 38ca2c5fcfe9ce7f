//! Refutes a conjunction by its signed order atoms alone: `a < b`, `a <= b`, their
//! negations and bit-vector equalities are edges of a graph over terms, and a cycle through a
//! strict edge (`a < b <= ... <= a`) cannot hold. A P-search over a search tree that aliases a
//! node back to an ancestor (`L1.key < L5.key` after `L5.key < L4.key < L1.key`) is the case
//! this settles without the solver.

use std::collections::{HashMap, HashSet};

use super::{BvCmp, Node, Sort, Term};

/// `from <= to`, or `from < to` when `strict`, between two terms (by id).
type Edge = (u32, u32, bool);

/// A constant an edge compares: width, signed value, term id.
type Const = (u32, i64, u32);

/// The order edges a constraint states: its conjuncts' signed comparisons and equalities.
/// `consts` collects the constants they compare.
fn edges(t: &Term, out: &mut Vec<Edge>, consts: &mut Vec<Const>) {
    match t.node() {
        Node::And(xs) => xs.iter().for_each(|x| edges(x, out, consts)),
        Node::Cmp(BvCmp::Slt, a, b) => edge(a, b, true, out, consts),
        Node::Cmp(BvCmp::Sle, a, b) => edge(a, b, false, out, consts),
        Node::Eq(a, b) if matches!(a.sort(), Sort::Bv(_)) => {
            edge(a, b, false, out, consts);
            edge(b, a, false, out, consts);
        }
        Node::Not(x) => match x.node() {
            Node::Cmp(BvCmp::Slt, a, b) => edge(b, a, false, out, consts),
            Node::Cmp(BvCmp::Sle, a, b) => edge(b, a, true, out, consts),
            _ => {}
        },
        _ => {}
    }
}

/// Records `a <= b` (`a < b` when `strict`) and the constants among its ends.
fn edge(a: &Term, b: &Term, strict: bool, out: &mut Vec<Edge>, consts: &mut Vec<Const>) {
    for x in [a, b] {
        if let Node::Bv(w, v) = x.node() {
            consts.push((*w, super::sign_extend(*v, *w), x.id()));
        }
    }
    out.push((a.id(), b.id(), strict));
}

/// Whether `base ∧ extra` is unsatisfiable by a strict order cycle through an edge of
/// `extra` (the edges of `base` alone are not examined: a caller passes what it already
/// knows to be consistent there, or nothing).
pub fn refutes(base: &[Term], extra: &[&Term]) -> bool {
    let (mut new, mut consts) = (Vec::new(), Vec::new());
    extra.iter().for_each(|t| edges(t, &mut new, &mut consts));
    if new.is_empty() {
        return false;
    }
    let mut all = Vec::new();
    base.iter().for_each(|t| edges(t, &mut all, &mut consts));
    // Constants of one width are ordered among themselves.
    consts.sort_unstable();
    consts.dedup();
    for pair in consts.windows(2) {
        if let [(w1, v1, a), (w2, v2, b)] = pair
            && w1 == w2
        {
            all.push((*a, *b, v1 < v2));
        }
    }
    let mut next: HashMap<u32, Vec<(u32, bool)>> = HashMap::new();
    for &(a, b, s) in all.iter().chain(&new) {
        next.entry(a).or_default().push((b, s));
    }
    new.iter().any(|&(a, b, s)| reaches(&next, b, a, s))
}

/// Whether `to` is reachable from `from`, through a strict edge unless `strict` already.
fn reaches(next: &HashMap<u32, Vec<(u32, bool)>>, from: u32, to: u32, strict: bool) -> bool {
    let mut seen: HashSet<(u32, bool)> = HashSet::new();
    let mut work = vec![(from, strict)];
    while let Some((n, s)) = work.pop() {
        if n == to && s {
            return true;
        }
        if !seen.insert((n, s)) {
            continue;
        }
        for &(m, e) in next.get(&n).map(Vec::as_slice).unwrap_or_default() {
            work.push((m, s || e));
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::TermPool;

    #[test]
    fn a_strict_cycle_is_refuted_and_a_chain_is_not() {
        let mut p = TermPool::default();
        let (a, b, c) = (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)), p.var("c", Sort::Bv(32)));
        let base = vec![p.slt(&b, &a), p.slt(&c, &b)];
        let closes = p.slt(&a, &c);
        assert!(refutes(&base, &[&closes]));
        // `!(c <= a)` is `a < c`; `a <= c` with `c < b < a` too.
        let le = p.sle(&c, &a);
        let not_le = p.not(&le);
        assert!(refutes(&base, &[&not_le]));
        assert!(refutes(&base, &[&p.sle(&a, &c)]));
        // `c <= a` agrees with the chain; so does `a == a`.
        assert!(!refutes(&base, &[&le]));
        // Equalities carry order: `c == a` with `c < b < a`.
        let eq = p.eq(&c, &a);
        assert!(refutes(&base, &[&eq]));
        // Constants are ordered: `a < 3` and `5 <= a`.
        let (three, five) = (p.int(3), p.int(5));
        let lt3 = p.slt(&a, &three);
        assert!(refutes(std::slice::from_ref(&lt3), &[&p.sle(&five, &a)]));
        assert!(!refutes(&[lt3], &[&p.sle(&a, &five)]));
    }
}
