//! Refutes a constraint by the literal equalities and disequalities of a path condition:
//! its equalities between symbols and constants (`a == b`, `0 == a`) join classes, and
//! `a == b` cannot hold between classes that a disequality (`!(a == b)`) or two constants
//! keep apart, nor `!(a == b)` within one class. POSE's P-searches fork on `Y == X` for each
//! earlier symbol the object `Y` may be, and with the identities P decided on its way there
//! many of those sides contradict the path condition in just this way, which the solver's
//! cache would find only by propagation, at the side's next fork.
//!
//! Many of the rest are pigeonholes: the side on which the object read is none of the
//! earlier symbols, when those already take every value the scope leaves it. With the
//! unsigned upper bounds of the symbols (`y <=u 5`), the constants kept apart from them
//! (`0 != y`, the cut's `5 != y`) and the class constraints that keep two symbols apart
//! where one is not null (`!((0 != y) && (x == y))`), a symbol said to differ from as many
//! pairwise apart classes within its values as it has values is refuted too.

use std::collections::HashMap;

use super::{BvCmp, IdBuild, Node, Sort, Term, TermId};

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

/// `(y, x)` when `t` is `!((0 != y) && (x == y))` (either order of the conjuncts and of
/// each equality's sides): where `y` is not null it is not `x`.
fn clause(t: &Term) -> Option<(&Term, &Term)> {
    let Node::Not(inner) = t.node() else { return None };
    let Node::And(xs) = inner.node() else { return None };
    let [p, q] = xs.as_slice() else { return None };
    for (n, e) in [(p, q), (q, p)] {
        let Some((a, b, false)) = literal(n) else { continue };
        let y = match (a.node(), b.node()) {
            (Node::Bv(_, 0), _) => b,
            (_, Node::Bv(_, 0)) => a,
            _ => continue,
        };
        let Some((c, d, true)) = literal(e) else { continue };
        if c == y {
            return Some((y, d));
        }
        if d == y {
            return Some((y, c));
        }
    }
    None
}

/// What adding a literal changed, to undo.
enum Undo {
    /// The class of root `child` joined the class of root `root`, whose constant was `konst`.
    Join { child: TermId, root: TermId, konst: Option<TermId> },
    /// A disequality was added.
    Apart,
    /// An upper bound was added.
    Bound,
    /// A clause `y == 0 || y != x` was added.
    Clause,
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
    parent: HashMap<TermId, TermId, IdBuild>,
    /// The size of each root's class (1 when absent).
    size: HashMap<TermId, u32, IdBuild>,
    /// The constant (term id) of each root's class that has one, the root itself aside.
    konst: HashMap<TermId, TermId, IdBuild>,
    /// Pairs of atoms said to differ.
    apart: Vec<(TermId, TermId)>,
    /// Unsigned upper bounds of symbols (`y <=u 5`).
    bounds: Vec<(TermId, u64)>,
    /// `(y, x)` for `!((0 != y) && (x == y))`: `y` differs from `x` where it is not null.
    clauses: Vec<(TermId, TermId)>,
    /// The values of the constants seen, by term id.
    values: HashMap<TermId, u64, IdBuild>,
    /// The id of the constant 0 of each width seen.
    zeros: Vec<TermId>,
}

impl EqClasses {
    fn find(&self, mut x: TermId) -> TermId {
        while let Some(&p) = self.parent.get(&x) {
            x = p;
        }
        x
    }

    /// Records the values of the constants among `atoms`.
    fn note(&mut self, atoms: [&Term; 2]) {
        for c in atoms {
            if let Node::Bv(_, v) = c.node() {
                self.values.insert(c.id(), *v);
                if *v == 0 && !self.zeros.contains(&c.id()) {
                    self.zeros.push(c.id());
                }
            }
        }
    }

    /// The constant (term id) of the class of root `r`, if it has one.
    fn const_id(&self, r: TermId) -> Option<TermId> {
        self.konst.get(&r).copied().or_else(|| self.values.contains_key(&r).then_some(r))
    }

    /// Whether the literal `a == b` (`equal`) or `!(a == b)` contradicts the classes.
    fn contradicts(&self, a: &Term, b: &Term, equal: bool) -> bool {
        let (ra, rb) = (self.find(a.id()), self.find(b.id()));
        if equal { self.kept_apart(ra, rb) } else { ra == rb }
    }

    /// Whether the atoms `x` and `y` are in the classes of roots `ra` and `rb`, either way.
    fn joins(&self, x: TermId, y: TermId, ra: TermId, rb: TermId) -> bool {
        let (rx, ry) = (self.find(x), self.find(y));
        (rx == ra && ry == rb) || (rx == rb && ry == ra)
    }

    /// Whether the classes of roots `ra` and `rb` are kept apart: by two constants, a
    /// disequality, or a class constraint whose symbol is not null.
    fn kept_apart(&self, ra: TermId, rb: TermId) -> bool {
        if ra == rb {
            return false;
        }
        if let (Some(ka), Some(kb)) = (self.class_value(ra), self.class_value(rb))
            && ka != kb
        {
            return true;
        }
        self.apart.iter().any(|&(x, y)| self.joins(x, y, ra, rb))
            || self.clauses.iter().any(|&(y, x)| self.joins(x, y, ra, rb) && self.non_null(self.find(y)))
    }

    /// The value of the constant of the class of root `r`, if it has one.
    fn class_value(&self, r: TermId) -> Option<u64> {
        self.const_id(r).and_then(|k| self.values.get(&k).copied())
    }

    /// Whether the class of root `r` is not null: a constant other than 0, or kept apart
    /// from a 0.
    fn non_null(&self, r: TermId) -> bool {
        match self.class_value(r) {
            Some(v) => v != 0,
            None => self.zeros.iter().any(|z| {
                let rz = self.find(*z);
                self.apart.iter().any(|&(x, y)| self.joins(x, y, r, rz))
            }),
        }
    }

    /// The values the class of atom `a` can take, as an interval: its constant, or from 0
    /// (1 when not null) up to the least upper bound of `a`, the ends shrunk past the
    /// constants the class is kept apart from. `None` without a bound.
    fn interval(&self, a: TermId) -> Option<(u64, u64)> {
        let r = self.find(a);
        if let Some(v) = self.class_value(r) {
            return Some((v, v));
        }
        let mut hi = self.bounds.iter().filter(|(x, _)| self.find(*x) == r).map(|(_, v)| *v).min()?;
        let mut lo = 0;
        let excluded: Vec<u64> = self
            .apart
            .iter()
            .filter_map(|&(x, y)| {
                let (rx, ry) = (self.find(x), self.find(y));
                if rx == r {
                    self.class_value(ry)
                } else if ry == r {
                    self.class_value(rx)
                } else {
                    None
                }
            })
            .collect();
        while lo <= hi && excluded.contains(&lo) {
            lo += 1;
        }
        while hi > lo && excluded.contains(&hi) {
            hi -= 1;
        }
        Some((lo, hi))
    }

    /// Whether the classes atom `y` is kept apart from take every value it can: as many
    /// pairwise apart classes, each within its interval, as the interval has values.
    fn crowded(&self, y: &Term) -> bool {
        if !matches!(y.node(), Node::Var(..)) {
            return false;
        }
        let ry = self.find(y.id());
        let Some((lo, hi)) = self.interval(y.id()) else { return false };
        if hi < lo {
            return true;
        }
        let room = hi - lo + 1;
        if room > 64 {
            return false;
        }
        let mut partners: Vec<TermId> = Vec::new();
        let mut consider = |x: TermId| {
            let rx = self.find(x);
            if rx != ry && !partners.iter().any(|p| self.find(*p) == rx) {
                partners.push(x);
            }
        };
        for &(a, b) in &self.apart {
            let (ra, rb) = (self.find(a), self.find(b));
            if ra == ry {
                consider(b);
            } else if rb == ry {
                consider(a);
            }
        }
        if self.non_null(ry) {
            for &(c, x) in &self.clauses {
                if self.find(c) == ry {
                    consider(x);
                }
            }
        }
        if (partners.len() as u64) < room {
            return false;
        }
        let mut chosen: Vec<TermId> = Vec::new();
        for p in partners {
            let rp = self.find(p);
            let within = self.interval(p).is_some_and(|(a, b)| a >= lo && b <= hi && a <= b);
            if within && chosen.iter().all(|c| self.kept_apart(self.find(*c), rp)) {
                chosen.push(p);
            }
        }
        chosen.len() as u64 >= room
    }

    /// Adds the literals of `t` (its conjuncts') to the classes.
    fn add(&mut self, t: &Term) {
        if let Node::And(xs) = t.node() {
            for x in xs {
                self.add(x);
            }
            return;
        }
        if let Node::Cmp(BvCmp::Ule, y, k) = t.node()
            && let (Node::Var(..), Node::Bv(_, v)) = (y.node(), k.node())
        {
            self.bounds.push((y.id(), *v));
            self.log.push(Undo::Bound);
            return;
        }
        if let Some((y, x)) = clause(t) {
            self.clauses.push((y.id(), x.id()));
            self.log.push(Undo::Clause);
            return;
        }
        let Some((a, b, equal)) = literal(t) else { return };
        self.note([a, b]);
        if !equal {
            self.apart.push((a.id(), b.id()));
            self.log.push(Undo::Apart);
            return;
        }
        let (ra, rb) = (self.find(a.id()), self.find(b.id()));
        if ra == rb {
            return;
        }
        let (ka, kb) = (self.const_id(ra), self.const_id(rb));
        let size = |r: TermId| self.size.get(&r).copied().unwrap_or(1);
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
                Some(Undo::Bound) => {
                    self.bounds.pop();
                }
                Some(Undo::Clause) => {
                    self.clauses.pop();
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
            if let Some((a, b, equal)) = literal(t) {
                // A constant's value is a fact of every path condition: it stays.
                self.note([a, b]);
                if self.contradicts(a, b, equal) {
                    refuted = true;
                    break;
                }
            }
            self.add(t);
        }
        if !refuted {
            // A symbol the side says is none of several others (a read's side on which the
            // object is none of the earlier symbols): whether those leave it any value.
            let mut counts: Vec<(&Term, u32)> = Vec::new();
            for t in extra {
                let Some((a, b, false)) = literal(t) else { continue };
                for x in [a, b] {
                    match counts.iter_mut().find(|(y, _)| *y == x) {
                        Some((_, n)) => *n += 1,
                        None => counts.push((x, 1)),
                    }
                }
            }
            refuted = counts.iter().any(|(y, n)| *n >= 2 && self.crowded(y));
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

    #[test]
    fn a_symbol_kept_apart_from_as_many_objects_as_it_has_values_is_refuted() {
        // Three objects x1, x2, x3 in 1..=3, pairwise apart (x1 and x3 by a class constraint
        // that holds where x3 is not null, as POSE's aliasing constraints say): a fourth
        // non-null `y` in 1..=3 (`y <=u 4`, `4 != y`, as the scope's cut leaves it) that is
        // none of them has no value left.
        let mut p = TermPool::default();
        let v = |p: &mut TermPool, n: &str| p.var(n, Sort::Bv(32));
        let (x1, x2, x3, y) = (v(&mut p, "x1"), v(&mut p, "x2"), v(&mut p, "x3"), v(&mut p, "y"));
        let (zero, three, four) = (p.int(0), p.int(3), p.int(4));
        let mut base = Vec::new();
        for x in [&x1, &x2, &x3] {
            base.push(p.cmp(BvCmp::Ule, x, &three));
            let null = p.eq(&zero, x);
            base.push(p.not(&null));
        }
        let ne = |p: &mut TermPool, a: &Term, b: &Term| {
            let e = p.eq(a, b);
            p.not(&e)
        };
        base.push(ne(&mut p, &x1, &x2));
        base.push(ne(&mut p, &x2, &x3));
        let some3 = ne(&mut p, &zero, &x3);
        let same13 = p.eq(&x1, &x3);
        let both = p.and2(&some3, &same13);
        base.push(p.not(&both));
        base.push(p.cmp(BvCmp::Ule, &y, &four));
        base.push(ne(&mut p, &four, &y));
        let extra = [ne(&mut p, &zero, &y), ne(&mut p, &x1, &y), ne(&mut p, &x2, &y), ne(&mut p, &x3, &y)];
        let all: Vec<&Term> = extra.iter().collect();
        let mut c = EqClasses::default();
        assert!(c.refutes(&base, &all));
        // One object fewer leaves y a value, and so does a pair not kept apart.
        assert!(!c.refutes(&base, &all[..3]));
        let loose: Vec<Term> = base.iter().filter(|t| **t != base[7]).cloned().collect();
        assert!(!c.refutes(&loose, &all));
        // y may be null: nothing is crowded.
        assert!(!c.refutes(&base, &all[1..]));
    }
}
