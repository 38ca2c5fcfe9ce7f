//! The candidates of a repair walk: which symbols a change may set, and the values each may take.

use std::collections::{BTreeSet, HashSet};
use std::hash::BuildHasherDefault;

use super::{RECENT, Repairer};
use crate::term::{BvOp, Evaluator, IdHasher, Node, Sort, SymbolId, Term, TermId, Val, mask};

/// How many values of an if-then-else [`may_be`] looks at.
const LEAVES: usize = 32;

/// Whether `t` is the symbol `name` or an if-then-else one of whose values is (among its
/// first [`LEAVES`] values): a comparison of `t` then compares `name`.
fn may_be(t: &Term, name: &str) -> bool {
    let mut stack = vec![t];
    let mut seen = 0;
    while let Some(x) = stack.pop() {
        match x.node() {
            Node::Var(n, _) if &**n == name => return true,
            Node::Ite(_, a, b) if seen < LEAVES => {
                seen += 1;
                stack.push(b);
                stack.push(a);
            }
            _ => {}
        }
    }
    false
}

/// `c` when `t` is `name + c` or `name - c'` (`c = -c'`) for a constant.
fn offset(t: &Term, name: &str) -> Option<u64> {
    let is_name = |x: &Term| matches!(x.node(), Node::Var(n, _) if &**n == name);
    match t.node() {
        Node::Bin(BvOp::Add, a, b) => match (a.node(), b.node()) {
            (_, Node::Bv(_, c)) if is_name(a) => Some(*c),
            (Node::Bv(_, c), _) if is_name(b) => Some(*c),
            _ => None,
        },
        Node::Bin(BvOp::Sub, a, b) => match b.node() {
            Node::Bv(_, c) if is_name(a) => Some(c.wrapping_neg()),
            _ => None,
        },
        _ => None,
    }
}

/// `v` and the values one above and one below it, in `w` bits.
fn around(v: u64, w: u32) -> [u64; 3] {
    [mask(v, w), mask(v.wrapping_add(1), w), mask(v.wrapping_sub(1), w)]
}

impl Repairer {
    /// The constants `name` is compared with (`name == k`) in the entries from `from` on,
    /// and the values under `base` of the other terms it is compared with (`name == e`,
    /// `name < e`, ...): each value, one above and one below it, so that `key == L3.key`,
    /// `key != L3.key` and `key < L3.key` each get a candidate. Where `name` plus a constant
    /// is compared with a term, the value that makes them equal (and one above and below);
    /// where an ordering compares other arithmetic over `name`, the extremes of its width.
    /// A term compared with `name` may name it too (a value set that may be `name`'s own
    /// location): its value now counts. Where `name` equals a constant it is compared with,
    /// the values beside it (`1 != L5.level` with `L5.level` 1, which otherwise has no
    /// candidate and goes to the solver).
    /// `now` is `name`'s value under `ev`. The values of entry `bad` (the one a change is
    /// for) come first: a walk of repOK's `n <= size` around a possible cycle adds
    /// `1 <= size`, `2 <= size`, ..., and the value that meets the newest would come last
    /// of all, after a candidate for every earlier bound.
    fn constants(
        &self,
        name: &str,
        now: &Val,
        from: usize,
        bad: usize,
        ev: &mut Evaluator,
    ) -> (BTreeSet<u64>, Vec<u64>) {
        let mut out = BTreeSet::new();
        let mut near = Vec::new();
        let mut width = 0;
        let mut visited: HashSet<TermId, BuildHasherDefault<IdHasher>> = HashSet::default();
        let entries = self.occurs.get(name).map(Vec::as_slice).unwrap_or_default();
        let first = entries.contains(&bad).then_some(bad);
        let order = first.into_iter().chain(entries.iter().copied().filter(|i| Some(*i) != first));
        for t in order.filter(|i| *i >= from).filter_map(|i| self.pc.get(i)) {
            let mut stack = vec![t.clone()];
            while let Some(x) = stack.pop() {
                if !visited.insert(x.id()) {
                    continue;
                }
                // An ordering of arithmetic over `name` (`size + 1 <= size`, an overflow
                // check) may need the extremes of its width: the largest and the smallest
                // signed values, and the largest unsigned one.
                if let Node::Cmp(_, a, b) = x.node()
                    && [a, b].iter().any(|t| !may_be(t, name) && t.var_names().iter().any(|m| &**m == name))
                    && a.width() > 0
                {
                    let top = mask(u64::MAX, a.width());
                    near.extend([top >> 1, (top >> 1) + 1, top]);
                }
                if let Node::Eq(a, b) | Node::Cmp(_, a, b) = x.node() {
                    for (v, k) in [(a, b), (b, a)] {
                        // `name` plus a constant (`L2.level == L1.level - 1`): the value that
                        // makes the sides equal, one above and one below it.
                        if let Some(c) = offset(v, name)
                            && !k.var_names().iter().any(|m| &**m == name)
                            && let Some(Val::Bv(e)) = ev.eval(k)
                        {
                            near.extend(around(e.wrapping_sub(c), k.width()));
                        }
                        // `name` itself, or a value an if-then-else may take (a value set).
                        if !may_be(v, name) {
                            continue;
                        }
                        match k.node() {
                            Node::Bv(w, raw) if matches!(x.node(), Node::Eq(..)) => {
                                out.insert(*raw);
                                width = *w;
                            }
                            _ if k.width() > 0 => {
                                if let Some(Val::Bv(e)) = ev.eval(k) {
                                    near.extend(around(e, k.width()));
                                }
                            }
                            _ => {}
                        }
                    }
                }
                // Array contents (heap summaries) hold no comparisons worth a candidate, and
                // walking their chains of stores would cost every query their length.
                if !matches!(x.node(), Node::Var(..)) && !matches!(x.sort(), Sort::Array(..)) {
                    stack.extend(x.children().into_iter().cloned());
                }
            }
        }
        // Compared with one constant and equal to it now, it may need to differ from it
        // (`1 != L5.level`); a choice among locations has the others to take.
        if let Some(k) = out.first().filter(|k| out.len() == 1 && *now == Val::Bv(**k)) {
            near.extend(&around(*k, width)[1..]);
        }
        (out, near)
    }

    /// The free symbols a change may set to make entry `bad` true: the recent ones it
    /// depends on (through definitions too), then the older ones it names, newest first (a
    /// P-search fixes pointer choices the exploration made long before); with `deep`, then
    /// the older ones it depends on through definitions (a cardinality bound names only
    /// the existence of locations).
    pub(super) fn candidates(&self, bad: usize, deep: bool) -> Vec<(usize, SymbolId)> {
        let Some(t) = self.pc.get(bad) else { return Vec::new() };
        let named: HashSet<SymbolId> = t.var_names().into_iter().collect();
        let deps = self.depends(&named);
        let newest = self.free.iter().rev();
        let mut out: Vec<(usize, SymbolId)> =
            newest.clone().take(RECENT).filter(|(_, n)| deps.contains(n)).cloned().collect();
        let older: Vec<&(usize, SymbolId)> = newest.skip(RECENT).filter(|(_, n)| deps.contains(n)).collect();
        out.extend(older.iter().filter(|(_, n)| named.contains(n)).map(|x| (*x).clone()));
        if deep {
            out.extend(older.iter().filter(|(_, n)| !named.contains(n)).map(|x| (*x).clone()));
        }
        out
    }

    /// The values a change tries for `name` (first occurring in entry `first`), other than
    /// its value under `ev`: null first, then the newest locations (a fresh object before
    /// an alias), then the values of what the symbol is compared with, in entry `bad`
    /// (the one the change is for) first.
    pub(super) fn values(&self, name: &SymbolId, first: usize, bad: usize, ev: &mut Evaluator) -> Vec<u64> {
        // A symbol the assignment leaves out is 0 (see `Evaluator`).
        let now = ev.value_of(name).cloned().unwrap_or(Val::Bv(0));
        let (ks, near) = self.constants(name, &now, first, bad, ev);
        let zero = ks.contains(&0).then_some(0);
        let mut seen = BTreeSet::new();
        zero.into_iter()
            .chain(ks.iter().rev().copied().filter(|k| *k != 0))
            .chain(near)
            .filter(|k| seen.insert(*k) && now != Val::Bv(*k))
            .collect()
    }
}
