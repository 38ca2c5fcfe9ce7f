//! Model repair: a satisfying assignment of a path condition found by changing one symbol
//! of a recent model, checked by evaluation, without calling the solver.
//!
//! Path conditions of a depth-first exploration differ from the previous query by a few
//! constraints about the newest symbols (`L7.next -> null` after `L7.next` was introduced).
//! A recent model usually satisfies all but those; setting one recent symbol to one of the
//! constants it is compared with (a heap choice), or to the value of another term it is
//! compared with, or one off it (`L7.key == key`, `key < L7.key`, also where `L7.key` is
//! one value of an if-then-else value set), and recomputing the symbols *defined* by the path
//! condition (`r9 == ite(...)`, `L8.exists <=> ...`, first occurrence of the symbol), often
//! satisfies them all. Every candidate is verified by evaluation: the base model is known to
//! satisfy a prefix of the path condition, and a changed symbol cannot affect the entries
//! before its first occurrence, so every other entry is evaluated. A repaired model is as
//! good as a solver's; when none is found the solver is asked.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::rc::Rc;

use crate::term::{Assignment, Evaluator, IdHasher, Node, Sort, Term, Val};

/// How many recent symbols are tried, newest first.
const RECENT: usize = 6;
/// How many candidate assignments are evaluated at most per query.
const MAX_CANDIDATES: usize = 96;

/// What the path condition says about its symbols, kept across queries: depth-first
/// queries share long prefixes, so only the entries beyond the common prefix are analysed.
#[derive(Default)]
pub struct Repairer {
    pc: Vec<Term>,
    /// For each entry, the symbol it defines (`v == e` at the first occurrence of `v`, `v`
    /// not in `e`).
    defines: Vec<Option<(Rc<str>, Term)>>,
    /// The entry where each symbol first occurs.
    first: HashMap<Rc<str>, usize>,
    /// Free (not defined) bit-vector symbols with the entry of their first occurrence.
    free: Vec<(usize, Rc<str>)>,
    /// Term nodes already walked, with the entry that first reached them: their symbols
    /// are in `first`, so a later entry sharing them (a long chain of stores) walks only
    /// its new nodes.
    walked: HashMap<u32, usize, BuildHasherDefault<IdHasher>>,
}

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

fn var_name(t: &Term) -> Option<Rc<str>> {
    match t.node() {
        Node::Var(n, _) => Some(n.clone()),
        _ => None,
    }
}

impl Repairer {
    /// Brings the analysis up to `pc`.
    fn sync(&mut self, pc: &[Term]) {
        let common = super::common_prefix(&self.pc, pc);
        if common < self.pc.len() {
            self.pc.truncate(common);
            self.defines.truncate(common);
            self.first.retain(|_, i| *i < common);
            self.free.retain(|(i, _)| *i < common);
            self.walked.retain(|_, i| *i < common);
        }
        for t in &pc[common..] {
            let i = self.pc.len();
            let mut def = None;
            if let Node::Eq(a, b) = t.node() {
                for (v, e) in [(a, b), (b, a)] {
                    if let Some(name) = var_name(v)
                        && !self.first.contains_key(&name)
                        && e.as_i64().is_none()
                        && e.as_bool().is_none()
                        && !self.new_nodes(e).1.iter().any(|x| var_name(x).as_ref() == Some(&name))
                    {
                        def = Some((name, e.clone()));
                        break;
                    }
                }
            }
            let (ids, vars) = self.new_nodes(t);
            for id in ids {
                self.walked.insert(id, i);
            }
            for v in vars {
                let Node::Var(name, sort) = v.node() else { continue };
                if self.first.contains_key(name) {
                    continue;
                }
                self.first.insert(name.clone(), i);
                let defined = def.as_ref().is_some_and(|(d, _)| d == name);
                if matches!(sort, Sort::Bv(_)) && !defined {
                    self.free.push((i, name.clone()));
                }
            }
            self.defines.push(def);
            self.pc.push(t.clone());
        }
    }

    /// The nodes of `t` not walked yet, and the symbols among them. A symbol that first
    /// occurs in `t` is among them: every walked node's symbols occur in an earlier entry.
    fn new_nodes(&self, t: &Term) -> (Vec<u32>, Vec<Term>) {
        let mut seen: HashSet<u32, BuildHasherDefault<IdHasher>> = HashSet::default();
        let (mut ids, mut vars) = (Vec::new(), Vec::new());
        let mut stack = vec![t.clone()];
        while let Some(x) = stack.pop() {
            if self.walked.contains_key(&x.id()) || !seen.insert(x.id()) {
                continue;
            }
            ids.push(x.id());
            if let Node::Var(..) = x.node() {
                vars.push(x.clone());
            }
            stack.extend(x.children().into_iter().cloned());
        }
        (ids, vars)
    }

    /// The constants `name` is compared with (`name == k`) in the entries from `from` on,
    /// and the values under `base` of the other terms it is compared with (`name == e`,
    /// `name < e`, ...): each value, one above and one below it, so that `key == L3.key`,
    /// `key != L3.key` and `key < L3.key` each get a candidate.
    fn constants(&self, name: &str, from: usize, base: &Assignment) -> (BTreeSet<u64>, Vec<u64>) {
        let mut out = BTreeSet::new();
        let mut near = Vec::new();
        let mut ev = Evaluator::new(base);
        let mut visited: HashSet<u32, BuildHasherDefault<IdHasher>> = HashSet::default();
        for t in self.pc.iter().skip(from) {
            let mut stack = vec![t.clone()];
            while let Some(x) = stack.pop() {
                if !visited.insert(x.id()) {
                    continue;
                }
                if let Node::Eq(a, b) | Node::Cmp(_, a, b) = x.node() {
                    for (v, k) in [(a, b), (b, a)] {
                        // `name` itself, or a value an if-then-else may take (a value set).
                        if !may_be(v, name) {
                            continue;
                        }
                        match k.node() {
                            Node::Bv(_, raw) if matches!(x.node(), Node::Eq(..)) => {
                                out.insert(*raw);
                            }
                            _ if k.width() > 0 && !k.var_names().iter().any(|m| &**m == name) => {
                                if let Some(Val::Bv(e)) = ev.eval(k) {
                                    let mask = if k.width() >= 64 { u64::MAX } else { (1u64 << k.width()) - 1 };
                                    near.extend([e, e.wrapping_add(1) & mask, e.wrapping_sub(1) & mask]);
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
        (out, near)
    }

    /// Checks the entries from `start` on under `base` (with `change` applied),
    /// recomputing the symbols they define: the model when all hold, else the first entry
    /// that does not (`None`: one could not be evaluated). `base` must satisfy the entries
    /// before `start`, and the changed symbol must not occur before `start`.
    fn satisfies(
        &self,
        base: &Assignment,
        start: usize,
        change: Option<(&Rc<str>, u64)>,
    ) -> std::result::Result<Assignment, Option<usize>> {
        let mut ev = Evaluator::new(base);
        if let Some((name, k)) = change {
            ev.set(name.clone(), Val::Bv(k));
        }
        for (i, t) in self.pc.iter().enumerate().skip(start) {
            if let Some(Some((name, e))) = self.defines.get(i) {
                let v = ev.eval(e).ok_or(None)?;
                ev.set(name.clone(), v);
                continue;
            }
            if ev.eval(t) != Some(Val::Bool(true)) {
                return Err(Some(i));
            }
        }
        let mut out = base.clone();
        out.values.extend(ev.into_overlay());
        Ok(out)
    }

    /// `base` with the symbols that the entries of `pc` from `start` on define set, in
    /// order, to what their definitions give under it (where they can be evaluated). A
    /// defined symbol first occurs in its definition, so entries before `start` keep their
    /// values.
    pub fn define(&mut self, base: &Assignment, pc: &[Term], start: usize) -> Assignment {
        self.sync(pc);
        let mut ev = Evaluator::new(base);
        for def in self.defines.iter().skip(start) {
            if let Some((name, e)) = def
                && let Some(v) = ev.eval(e)
            {
                ev.set(name.clone(), v);
            }
        }
        let mut out = base.clone();
        out.values.extend(ev.into_overlay());
        out
    }

    /// The symbols that `named` (those of one entry) depend on: themselves, and those of
    /// their definitions, transitively.
    fn depends(&self, named: &HashSet<Rc<str>>) -> HashSet<Rc<str>> {
        let mut out = HashSet::new();
        let mut todo: Vec<Rc<str>> = named.iter().cloned().collect();
        while let Some(n) = todo.pop() {
            if !out.insert(n.clone()) {
                continue;
            }
            if let Some(Some(Some((d, e)))) = self.first.get(&n).map(|i| self.defines.get(*i))
                && *d == n
            {
                todo.extend(e.var_names());
            }
        }
        out
    }

    /// A model of `pc` made from `base` (known to satisfy `known`) by changing at most one
    /// free symbol (a recent one, or one of the first entry `base` falsifies), if any.
    pub fn repair(&mut self, base: &Assignment, known: &[Term], pc: &[Term]) -> Option<Assignment> {
        self.sync(pc);
        let start = super::common_prefix(known, pc);
        let bad = match self.satisfies(base, start, None) {
            Ok(m) => return Some(m),
            Err(None) => return None,
            Err(Some(i)) => self.pc.get(i)?.clone(),
        };
        // Only a symbol the first falsified entry depends on can make it true: the recent
        // ones, then the others it names, newest first (a P-search fixes pointer choices
        // the exploration made long before).
        let named: HashSet<Rc<str>> = bad.var_names().into_iter().collect();
        let deps = self.depends(&named);
        let newest = self.free.iter().rev();
        let mut tried = 0;
        let mut candidates: Vec<(usize, Rc<str>)> =
            newest.clone().take(RECENT).filter(|(_, n)| deps.contains(n)).cloned().collect();
        let older: Vec<(usize, Rc<str>)> = newest.skip(RECENT).filter(|(_, n)| named.contains(n)).cloned().collect();
        candidates.extend(older);
        for (first, name) in candidates {
            let (ks, near) = self.constants(&name, first, base);
            // Null first, then the newest locations (a fresh object before an alias), then
            // the values of what the symbol is compared with.
            let zero = ks.contains(&0).then_some(0);
            let mut seen = BTreeSet::new();
            let ordered = zero.into_iter().chain(ks.iter().rev().copied().filter(|k| *k != 0)).chain(near);
            for k in ordered {
                if !seen.insert(k) {
                    continue;
                }
                if base.get(&name) == Some(&Val::Bv(k)) {
                    continue;
                }
                tried += 1;
                if tried > MAX_CANDIDATES {
                    return None;
                }
                if let Ok(m) = self.satisfies(base, start.min(first), Some((&name, k))) {
                    return Some(m);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::term::TermPool;

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
        base.values.insert(Rc::from("c"), Val::Bv(2));
        base.values.insert(Rc::from("r"), Val::Bv(2));
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
            base.values.insert(Rc::from(n), Val::Bv(v));
        }
        // The value set keeps its location (c); a key takes a value it is compared with.
        let mut r = Repairer::default();
        let m = r.repair(&base, &[], std::slice::from_ref(&found)).unwrap();
        assert_eq!((m.eval_bool(&found), m.get("c")), (Some(true), Some(&Val::Bv(2))));
        let m2 = r.repair(&m, std::slice::from_ref(&found), &[found.clone(), less.clone()]).unwrap();
        assert_eq!(
            (m2.eval_bool(&found), m2.eval_bool(&less), m2.get("c")),
            (Some(true), Some(true), Some(&Val::Bv(2)))
        );
    }

    #[test]
    fn changes_an_old_choice_the_new_constraint_names() {
        let mut p = TermPool::new();
        let c = p.var("c", Sort::Bv(8));
        let (zero, two) = (p.bv(8, 0), p.bv(8, 2));
        let is2 = p.eq(&c, &two);
        let mut pc = vec![is2.clone()];
        let mut base = Assignment::default();
        base.values.insert(Rc::from("c"), Val::Bv(2));
        // More newer symbols than the repair tries by recency.
        for i in 0..=RECENT {
            let s = p.var(&format!("s{i}"), Sort::Bv(8));
            pc.push(p.ne(&s, &zero));
            base.values.insert(Rc::from(format!("s{i}").as_str()), Val::Bv(1));
        }
        let is0 = p.eq(&c, &zero);
        pc[0] = p.or2(&is2, &is0);
        pc.push(is0.clone());
        let m = Repairer::default().repair(&base, &[], &pc).unwrap();
        assert_eq!((m.eval_bool(&is0), m.get("c")), (Some(true), Some(&Val::Bv(0))));
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
}
