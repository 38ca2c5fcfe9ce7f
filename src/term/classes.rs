//! Refutes a constraint by the literal equalities and disequalities of a path condition:
//! its equalities between symbols and constants (`a == b`, `0 == a`) join classes, and
//! `a == b` cannot hold between classes that a disequality (`!(a == b)`) or two constants
//! keep apart, nor `!(a == b)` within one class. POSE's P-searches fork on `Y == X` for each
//! earlier symbol the object `Y` may be, and with the identities P decided on its way there
//! many of those sides contradict the path condition in just this way, which the solver's
//! cache found only by propagation, at the side's next fork (RedBlackTree#insert with repOK
//! at scope 4: about one side in eight; POSE's 47 SIR methods with repOK at scope 4 797 ->
//! 720 ms, at scope 5 11.7 -> 9.5 s).

use std::collections::HashMap;

use super::{IdBuild, Node, Sort, Term};

/// A bit-vector symbol or constant.
fn atom(t: &Term) -> bool {
    matches!(t.node(), Node::Var(..) | Node::Bv(..)) && matches!(t.sort(), Sort::Bv(_))
}

/// `(a, b, equal)` when `t` is `a == b` (`equal`) or `!(a == b)` between atoms.
fn literal(t: &Term) -> Option<(&Term, &Term, bool)> {
    match t.node() {
        Node::Eq(a, b) if atom(a) && atom(b) => Some((a, b, true)),
        Node::Not(x) => match x.node() {
            Node::Eq(a, b) if atom(a) && atom(b) => Some((a, b, false)),
            _ => None,
        },
        _ => None,
    }
}

/// What adding a literal changed, to undo.
enum Undo {
    /// The class of root `child` joined the class of root `root`, whose constant was `konst`.
    Join { child: u32, root: u32, konst: Option<u32> },
    /// A disequality was added.
    Apart,
}

/// The classes of the atoms of the path condition last asked about, kept between queries
/// for the next path condition that shares a prefix with it (as [`super::OrderEdges`]).
#[derive(Default)]
pub struct EqClasses {
    /// The entries walked, and the length of `log` after each.
    entries: Vec<Term>,
    ends: Vec<usize>,
    log: Vec<Undo>,
    /// Union-find by term id, without path compression (so that a join undoes).
    parent: HashMap<u32, u32, IdBuild>,
    /// The size of each root's class (1 when absent).
    size: HashMap<u32, u32, IdBuild>,
    /// The constant (term id) of each root's class that has one, the root itself aside.
    konst: HashMap<u32, u32, IdBuild>,
    /// Pairs of atoms said to differ.
    apart: Vec<(u32, u32)>,
}

impl EqClasses {
    fn find(&self, mut x: u32) -> u32 {
        while let Some(&p) = self.parent.get(&x) {
            x = p;
        }
        x
    }

    /// The constant of the class of `t`, whose root is `root`.
    fn constant(&self, t: &Term, root: u32) -> Option<u32> {
        self.konst.get(&root).copied().or_else(|| (matches!(t.node(), Node::Bv(..)) && t.id() == root).then_some(root))
    }

    /// Whether the literal `a == b` (`equal`) or `!(a == b)` contradicts the classes.
    fn contradicts(&self, a: &Term, b: &Term, equal: bool) -> bool {
        let (ra, rb) = (self.find(a.id()), self.find(b.id()));
        if !equal {
            return ra == rb;
        }
        if ra == rb {
            return false;
        }
        if let (Some(ka), Some(kb)) = (self.constant(a, ra), self.constant(b, rb))
            && ka != kb
        {
            return true;
        }
        self.apart.iter().any(|&(x, y)| {
            let (rx, ry) = (self.find(x), self.find(y));
            (rx == ra && ry == rb) || (rx == rb && ry == ra)
        })
    }

    /// Adds the literals of `t` (its conjuncts') to the classes.
    fn add(&mut self, t: &Term) {
        if let Node::And(xs) = t.node() {
            for x in xs {
                self.add(x);
            }
            return;
        }
        let Some((a, b, equal)) = literal(t) else { return };
        if !equal {
            self.apart.push((a.id(), b.id()));
            self.log.push(Undo::Apart);
            return;
        }
        let (ra, rb) = (self.find(a.id()), self.find(b.id()));
        if ra == rb {
            return;
        }
        let (ka, kb) = (self.constant(a, ra), self.constant(b, rb));
        let size = |r: u32| self.size.get(&r).copied().unwrap_or(1);
        let (child, root) = if size(ra) < size(rb) { (ra, rb) } else { (rb, ra) };
        let grown = size(root) + size(child);
        self.log.push(Undo::Join { child, root, konst: self.konst.get(&root).copied() });
        self.parent.insert(child, root);
        self.size.insert(root, grown);
        if let Some(k) = ka.or(kb).filter(|k| *k != root) {
            self.konst.insert(root, k);
        }
    }

    /// Undoes the log back to `len` entries.
    fn undo(&mut self, len: usize) {
        while self.log.len() > len {
            match self.log.pop() {
                Some(Undo::Join { child, root, konst }) => {
                    self.parent.remove(&child);
                    let (whole, part) = (self.size.get(&root), self.size.get(&child));
                    let back = whole.copied().unwrap_or(1).saturating_sub(part.copied().unwrap_or(1));
                    self.size.insert(root, back);
                    match konst {
                        Some(k) => self.konst.insert(root, k),
                        None => self.konst.remove(&root),
                    };
                }
                Some(Undo::Apart) => {
                    self.apart.pop();
                }
                None => break,
            }
        }
    }

    /// Brings the classes up to `base`.
    fn sync(&mut self, base: &[Term]) {
        let common = super::common_prefix(&self.entries, base);
        let keep = if common == 0 { 0 } else { self.ends.get(common - 1).copied().unwrap_or(0) };
        self.undo(keep);
        self.entries.truncate(common);
        self.ends.truncate(common);
        for t in base.get(common..).unwrap_or_default() {
            self.add(t);
            self.entries.push(t.clone());
            self.ends.push(self.log.len());
        }
    }

    /// Whether `extra`, taken in order after `base`, contradicts the classes of `base`'s
    /// literal equalities and disequalities (see the module's documentation).
    pub fn refutes(&mut self, base: &[Term], extra: &[&Term]) -> bool {
        if !extra.iter().any(|t| literal(t).is_some()) {
            return false;
        }
        self.sync(base);
        let mark = self.log.len();
        let mut refuted = false;
        for t in extra {
            if let Some((a, b, equal)) = literal(t)
                && self.contradicts(a, b, equal)
            {
                refuted = true;
                break;
            }
            self.add(t);
        }
        self.undo(mark);
        refuted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::TermPool;

    #[test]
    fn an_equality_between_classes_kept_apart_is_refuted() {
        let mut p = TermPool::default();
        let v = |p: &mut TermPool, n: &str| p.var(n, Sort::Bv(32));
        let (y, x, r, z) = (v(&mut p, "Y"), v(&mut p, "X"), v(&mut p, "R"), v(&mut p, "Z"));
        // P decided `Y == R`; the method's path says `R != X`: `Y == X` cannot hold, `Y == Z` can.
        let yr = p.eq(&y, &r);
        let rx = p.eq(&r, &x);
        let base = vec![yr, p.not(&rx)];
        let (yx, yz) = (p.eq(&y, &x), p.eq(&y, &z));
        let mut c = EqClasses::default();
        assert!(c.refutes(&base, &[&yx]));
        assert!(!c.refutes(&base, &[&yz]));
        // Within one class a disequality is refuted; an extra constraint counts for the next.
        let not_yr = p.not(&base[0]);
        assert!(c.refutes(&base, &[&not_yr]));
        let zx = p.eq(&z, &x);
        assert!(c.refutes(&base, &[&yz, &zx]));
        // Nothing of the extras stays: a shorter path condition no longer keeps R from X.
        assert!(!c.refutes(&base[..1], &[&yx]));
        assert!(c.refutes(&base, &[&yx]));
    }

    #[test]
    fn two_constants_keep_their_classes_apart() {
        let mut p = TermPool::default();
        let (y, x) = (p.var("Y", Sort::Bv(32)), p.var("X", Sort::Bv(32)));
        let (zero, three) = (p.int(0), p.int(3));
        let base = vec![p.eq(&zero, &y), p.eq(&x, &three)];
        let yx = p.eq(&y, &x);
        let y3 = p.eq(&y, &three);
        let y0 = p.eq(&y, &zero);
        let mut c = EqClasses::default();
        assert!(c.refutes(&base, &[&yx]));
        assert!(c.refutes(&base, &[&y3]));
        assert!(!c.refutes(&base, &[&y0]));
        // A sibling path condition, whose second entry differs.
        let x0 = p.eq(&x, &zero);
        assert!(!c.refutes(&[base[0].clone(), x0], &[&yx]));
    }
}
