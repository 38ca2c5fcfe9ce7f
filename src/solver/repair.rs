//! Model repair: a satisfying assignment of a path condition found by changing one heap
//! choice of a recent model, checked by evaluation, without calling the solver.
//!
//! Path conditions of a depth-first exploration differ from the previous query by a few
//! constraints about the newest symbols (`L7.next -> null` after `L7.next` was introduced).
//! A recent model usually satisfies all but those; setting one recent symbol to one of the
//! constants it is compared with, and recomputing the symbols *defined* by the path
//! condition (`r9 == ite(...)`, `L8.exists <=> ...`, first occurrence of the symbol), often
//! satisfies them all. Every candidate is verified by evaluating the whole path condition,
//! so a repaired model is as good as a solver's; when none is found the solver is asked.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::rc::Rc;

use crate::term::{Assignment, Evaluator, IdHasher, Node, Sort, Term, Val};

/// How many recent symbols are tried, newest first.
const RECENT: usize = 6;
/// How many candidate assignments are evaluated at most per query.
const MAX_CANDIDATES: usize = 96;

/// What the path condition says about its symbols.
struct Shape {
    /// For each entry of the path condition, the symbol it defines (`v == e`, first
    /// occurrence of `v`, `v` not in `e`).
    defines: Vec<Option<(Rc<str>, Term)>>,
    /// Free (not defined) bit-vector symbols in order of first occurrence.
    free: Vec<Rc<str>>,
    /// Constants each symbol is compared with (`v == k`).
    constants: HashMap<Rc<str>, BTreeSet<u64>>,
}

fn var_name(t: &Term) -> Option<(Rc<str>, Sort)> {
    match t.node() {
        Node::Var(n, s) => Some((n.clone(), *s)),
        _ => None,
    }
}

fn shape(pc: &[Term]) -> Shape {
    let mut seen: HashSet<Rc<str>> = HashSet::new();
    let mut defined: HashSet<Rc<str>> = HashSet::new();
    let mut shape = Shape { defines: Vec::with_capacity(pc.len()), free: Vec::new(), constants: HashMap::new() };
    let mut visited: HashSet<u32, BuildHasherDefault<IdHasher>> = HashSet::default();
    for t in pc {
        let mut def = None;
        if let Node::Eq(a, b) = t.node() {
            for (v, e) in [(a, b), (b, a)] {
                if let Some((name, _)) = var_name(v)
                    && !seen.contains(&name)
                    && e.as_i64().is_none()
                    && e.as_bool().is_none()
                    && !e.vars().iter().any(|x| var_name(x).is_some_and(|(n, _)| n == name))
                {
                    def = Some((name, e.clone()));
                    break;
                }
            }
        }
        if let Some((name, _)) = &def {
            seen.insert(name.clone());
            defined.insert(name.clone());
        }
        // Walk the new part of the DAG: first occurrences and `v == k` atoms.
        let mut stack = vec![t.clone()];
        while let Some(x) = stack.pop() {
            if !visited.insert(x.id()) {
                continue;
            }
            match x.node() {
                Node::Var(n, sort) => {
                    seen.insert(n.clone());
                    if matches!(sort, Sort::Bv(_)) && !defined.contains(n) && !shape.free.contains(n) {
                        shape.free.push(n.clone());
                    }
                }
                Node::Eq(a, b) => {
                    for (v, k) in [(a, b), (b, a)] {
                        if let (Some((n, Sort::Bv(_))), Some(_)) = (var_name(v), k.as_i64())
                            && let Node::Bv(_, raw) = k.node()
                        {
                            shape.constants.entry(n).or_default().insert(*raw);
                        }
                    }
                }
                _ => {}
            }
            stack.extend(x.children().into_iter().cloned());
        }
        shape.defines.push(def);
    }
    shape
}

/// Recomputes the defined symbols of `asg` (with `name` set to `k`, if given) in
/// path-condition order and checks every entry.
fn satisfies(shape: &Shape, pc: &[Term], asg: &Assignment, change: Option<(&Rc<str>, u64)>) -> Option<Assignment> {
    let mut ev = Evaluator::new(asg);
    if let Some((name, k)) = change {
        ev.set(name.clone(), Val::Bv(k));
    }
    for (i, t) in pc.iter().enumerate() {
        if let Some(Some((name, e))) = shape.defines.get(i) {
            let v = ev.eval(e)?;
            ev.set(name.clone(), v);
            continue;
        }
        if ev.eval(t) != Some(Val::Bool(true)) {
            return None;
        }
    }
    let mut out = asg.clone();
    out.values.extend(ev.into_overlay());
    Some(out)
}

/// A model of `pc` made from `base` by changing at most one recent free symbol, if any.
pub fn repair(base: &Assignment, pc: &[Term]) -> Option<Assignment> {
    let shape = shape(pc);
    if let Some(m) = satisfies(&shape, pc, base, None) {
        return Some(m);
    }
    let mut tried = 0;
    for name in shape.free.iter().rev().take(RECENT) {
        let Some(ks) = shape.constants.get(name) else { continue };
        // Null first, then the newest locations (a fresh object before an alias).
        let zero = ks.contains(&0).then_some(0);
        for k in zero.into_iter().chain(ks.iter().rev().copied().filter(|k| *k != 0)) {
            if base.get(name) == Some(&Val::Bv(k)) {
                continue;
            }
            tried += 1;
            if tried > MAX_CANDIDATES {
                return None;
            }
            if let Some(m) = satisfies(&shape, pc, base, Some((name, k))) {
                return Some(m);
            }
        }
    }
    None
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
        let m = repair(&base, &[dom, d, rnull]).unwrap();
        assert_eq!(m.get("c"), Some(&Val::Bv(0)));
        assert_eq!(m.get("r"), Some(&Val::Bv(0)));
    }

    #[test]
    fn gives_up_rather_than_guessing() {
        let mut p = TermPool::new();
        let c = p.var("c", Sort::Bv(8));
        let one = p.bv(8, 1);
        let is1 = p.eq(&c, &one);
        let not1 = p.not(&is1);
        let base = Assignment::default();
        assert!(repair(&base, &[is1, not1]).is_none());
    }
}
