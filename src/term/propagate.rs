//! Refuting a conjunction of constraints by unit propagation (and the order cycles it
//! uncovers), without a solver.
//!
//! Facts are what single constraints force once the facts so far are substituted: `b` and
//! `!b` for a boolean symbol, `x == v` when the other side of an equality is decided (`r5 ==
//! ite(2 == L1.right, L1.right, L2.right)` once `L1.right` and `L2.right` are known), `x != c`,
//! the one undecided part of a clause, and what the other side of an equivalence must be when
//! one side is decided (`L5.exists <=> (L2.exists && L2.parent == 6)`), and the truth of an
//! equality between two undecided terms once their if-then-else values are read as the
//! branch the facts take (POSE's `this.root.right != ite(this.root == this.root.right,
//! this.root.right, this.root.right.right)` with `this.root != this.root.right` says
//! `this.root.right != this.root.right.right`), and the one value left to a symbol bounded
//! above by a small constant (`x <=u 5`) that the facts say it differs from all others (or a
//! symbol it was found equal to differs from): POSE numbers its symbols so, and a P-search
//! that found the scope's objects all distinct leaves none for one more
//! (`this.root.right.right.right <=u 5` once `this` is 1, the three before it 2, 3 and 4, and
//! `5 != this.root.right.right.right`), and a count of input locations at uber's scope bound
//! (`1 + (L1.exists ? 1 : 0) + ... <=u 4`): more existing than the scope holds refutes, and as
//! many as it holds says the rest do not exist. A constraint the facts make false, or two
//! facts that disagree, refute the whole conjunction; when propagation finds nothing, a few
//! symbols of a small domain (such a bound, or uber's candidate domain `(0 == L1.right) ||
//! (2 == L1.right) || (3 == L1.right)`) with two values left are split on. Sound, not
//! complete: `false` only means that propagation found no contradiction (the solver decides).
//!
//! It answers the P-searches' most common unsatisfiable query under uber's if-then-else heap
//! (a precondition's choice of a field's target that the path condition's value sets rule
//! out) without Z3. A [`Propagator`] keeps the facts of recent queries: a depth-first
//! search asks about path conditions that extend each other, and after the first round only
//! the constraints that name a symbol something new was learned about are evaluated again.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::domain::{Domain, small_domains};
use super::{Assignment, Evaluator, IdBuild, Node, Term, Val};

/// Most rounds of propagation (each round evaluates every constraint once).
const ROUNDS: usize = 16;

/// What one round learned.
#[derive(Default)]
struct Learned {
    equal: Vec<(Rc<str>, Val)>,
    unequal: Vec<(Rc<str>, u64)>,
    atoms: Vec<((u32, u32), bool)>,
    /// Two undecided symbols found equal (also among `atoms`).
    same: Vec<(Rc<str>, Rc<str>)>,
}

/// The bit-vector values each symbol is known to differ from.
type Unequal = HashSet<(Rc<str>, u64), IdBuild>;

/// The truth of equalities between two undecided terms, by their ids (the smaller first).
type Atoms = HashMap<(u32, u32), bool, IdBuild>;

/// What the facts say besides symbol values: the values symbols differ from, and equalities.
#[derive(Clone, Copy)]
struct Known<'a> {
    unequal: &'a Unequal,
    atoms: &'a Atoms,
}

/// Whether the conjunction of `pc` is unsatisfiable by unit propagation, or by a strict
/// order cycle among its comparisons once the if-then-else values whose conditions the facts
/// decide are read as the branch they take (`L1.key <= key <= ite(2 == L1.right, L1.key,
/// L2.key)` with `L2.key < L1.key` and `L1.right` decided to be `3`).
///
/// When that finds nothing, a few symbols of a small domain with two to four values left are
/// split on, and within each case a few more: every value refuted refutes the conjunction
/// (POSE's search-tree P-searches: the method's `this.root.right.right` is `this.root` or
/// `this.root.right` once the other numbers are taken, and either closes an order cycle
/// among the keys; `this.root.right.left` is one of three nodes, and each case closes a cycle
/// through another if-then-else value; uber's P-searches: `L1.right` is 2 or 3 by its
/// candidate domain, and either takes the method's `key` to a key it differs from).
pub fn refuted_by_propagation(pc: &[Term]) -> bool {
    let syms: Vec<Rc<[Rc<str>]>> = pc.iter().map(|t| t.var_names().into()).collect();
    Propagator::default().refuted(pc, &syms)
}

/// Refutes a conjunction from facts already found (see [`refuted_by_propagation`]); `facts`
/// ends as what propagation found when it refutes nothing. `syms` holds the symbols of each
/// constraint; `start` says which constraints the facts may not have seen yet; without `splits`
/// no case is split on.
fn refuted_from(facts: &mut Facts, pc: &[Term], syms: &[Rc<[Rc<str>]>], start: Dirty, splits: bool) -> bool {
    let bounds = small_domains(pc);
    if facts.refuted(pc, syms, &bounds, start) {
        return true;
    }
    splits && split_refuted(facts, pc, syms, &bounds, SPLIT_DEPTH)
}

/// Whether, for one of the first [`SPLITS`] symbols with two to [`SPLIT_VALUES`] values
/// left, every value refutes `pc` (propagated from `facts`, at a fixpoint), each case split
/// again `depth - 1` levels deeper.
fn split_refuted(facts: &Facts, pc: &[Term], syms: &[Rc<[Rc<str>]>], bounds: &[(Rc<str>, Domain)], depth: u32) -> bool {
    let open: Vec<(Rc<str>, Vec<u64>)> = bounds
        .iter()
        .filter_map(|(name, dom)| {
            let vs: Vec<u64> = facts.left(name, dom).take(SPLIT_VALUES + 1).collect();
            (2..=SPLIT_VALUES).contains(&vs.len()).then(|| (name.clone(), vs))
        })
        .take(SPLITS)
        .collect();
    open.into_iter().any(|(name, vs)| {
        vs.iter().all(|v| {
            let mut f = facts.clone();
            f.values.values.insert(name.clone(), Val::Bv(*v));
            // At a fixpoint but for the split symbol: only its constraints can learn more.
            let names = std::iter::once(name.clone()).collect();
            f.refuted(pc, syms, bounds, Dirty { all: false, from: pc.len(), names })
                || (depth > 1 && split_refuted(&f, pc, syms, bounds, depth - 1))
        })
    })
}

/// Which constraints a round of propagation evaluates: all of them, those from index `from`
/// on, and those that name a symbol in `names` (the others would learn nothing new: what
/// they say about their symbols is unchanged since they last were evaluated).
struct Dirty {
    all: bool,
    from: usize,
    names: HashSet<Rc<str>, IdBuild>,
}

impl Dirty {
    /// The constraints from index `from` on (the facts hold what those before say).
    fn after(from: usize) -> Dirty {
        Dirty { all: false, from, names: HashSet::default() }
    }

    fn covers(&self, i: usize, syms: &[Rc<str>]) -> bool {
        self.all || i >= self.from || syms.iter().any(|v| self.names.contains(v))
    }
}

/// [`refuted_by_propagation`] over a sequence of related queries (a depth-first search's
/// path conditions): the facts found for a path condition are kept, and a query that extends
/// one starts from them (what a prefix implies the query implies too), as does the prefix
/// two consecutive queries share (the sides of one fork), whose facts are then found once.
#[derive(Default)]
pub struct Propagator {
    /// Recent path conditions, newest first, with the facts propagation found for them.
    recent: Vec<(Vec<Term>, Facts)>,
    /// The last query.
    last: Vec<Term>,
}

/// How many path conditions a [`Propagator`] keeps the facts of.
const KEEP_FACTS: usize = 8;

impl Propagator {
    /// Whether propagation refutes the conjunction of `pc`; `syms` holds the symbols of each
    /// of its constraints (the model cache keeps them by term).
    pub fn refuted(&mut self, pc: &[Term], syms: &[Rc<[Rc<str>]>]) -> bool {
        self.refuted_splitting(pc, syms, true)
    }

    /// [`Propagator::refuted`] without the case splits when not `splits`: the facts found
    /// are kept all the same, so a later call with splits on `pc` starts from them.
    pub fn refuted_splitting(&mut self, pc: &[Term], syms: &[Rc<[Rc<str>]>], splits: bool) -> bool {
        let (mut facts, mut from) = self
            .recent
            .iter()
            .filter(|(known, _)| known.len() <= pc.len() && super::common_prefix(known, pc) == known.len())
            .max_by_key(|(known, _)| known.len())
            .map(|(known, f)| (f.clone(), known.len()))
            .unwrap_or_default();
        let shared = super::common_prefix(&self.last, pc);
        self.last = pc.to_vec();
        if shared > from && shared < pc.len() {
            // Only the prefix's propagation: its splits and order cycles are the query's.
            let part = &pc[..shared];
            if facts.propagate(part, &syms[..shared], &small_domains(part), Dirty::after(from)) {
                return true;
            }
            self.keep(part, facts.clone());
            from = shared;
        }
        if refuted_from(&mut facts, pc, syms, Dirty::after(from), splits) {
            return true;
        }
        self.keep(pc, facts);
        false
    }

    fn keep(&mut self, pc: &[Term], facts: Facts) {
        self.recent.retain(|(known, _)| known.as_slice() != pc);
        self.recent.insert(0, (pc.to_vec(), facts));
        self.recent.truncate(KEEP_FACTS);
    }
}

/// How many symbols [`refuted_by_propagation`] splits on at most, at each level.
const SPLITS: usize = 4;

/// The most values a symbol it splits on may have left (six was slower: symbols with many
/// values left took the place of those whose cases refute).
const SPLIT_VALUES: usize = 4;

/// How many levels deep it splits. POSE with repOK at scope 5 over the 47 public SIR
/// methods, one run each: two values and one level 19.8 s (7,427 Z3 queries), four values
/// and two levels 15.6 s (2,220), three levels 14.2 s.
const SPLIT_DEPTH: u32 = 2;

/// `t` with its if-then-else structure resolved as far as the facts decide the conditions.
fn taken_branch(ev: &mut Evaluator<'_>, known: Known<'_>, t: &Term) -> Term {
    let mut t = t.clone();
    loop {
        let next = match t.node() {
            Node::Ite(c, x, y) => match decided(ev, known, c) {
                Some(true) => x.clone(),
                Some(false) => y.clone(),
                None => return t,
            },
            _ => return t,
        };
        t = next;
    }
}

/// What propagation knows: symbol values and the values symbols differ from.
#[derive(Default, Clone)]
struct Facts {
    values: Assignment,
    unequal: Unequal,
    atoms: Atoms,
    /// The undecided symbols each is known to equal: they differ from the same values.
    same: HashMap<Rc<str>, HashSet<Rc<str>, IdBuild>, IdBuild>,
}

impl Facts {
    /// Propagation to a fixpoint, then the order cycles through the branches it decides.
    fn refuted(&mut self, pc: &[Term], syms: &[Rc<[Rc<str>]>], bounds: &[(Rc<str>, Domain)], start: Dirty) -> bool {
        if self.propagate(pc, syms, bounds, start) {
            return true;
        }
        let mut ev = Evaluator::partial(&self.values);
        let known = Known { unequal: &self.unequal, atoms: &self.atoms };
        super::order::refutes_resolved(pc, &mut |t| taken_branch(&mut ev, known, t))
    }

    /// The values of its domain `dom` the undecided symbol `name` is not known to differ
    /// from (nor a symbol it equals), in order; none when `name` is decided.
    fn left<'a>(&'a self, name: &'a Rc<str>, dom: &'a [u64]) -> impl Iterator<Item = u64> + 'a {
        let decided = self.values.values.contains_key(name);
        let same = self.same.get(name);
        let excluded = move |v: u64| {
            std::iter::once(name).chain(same.into_iter().flatten()).any(|x| self.unequal.contains(&(x.clone(), v)))
        };
        dom.iter().copied().take_while(move |_| !decided).filter(move |v| !excluded(*v))
    }

    /// Propagates to a fixpoint: `true` when a constraint or two facts contradict. The first
    /// round evaluates the constraints `start` covers, each later one those that name a
    /// symbol the round before learned something about (all of them after a new equality
    /// between undecided terms).
    fn propagate(&mut self, pc: &[Term], syms: &[Rc<[Rc<str>]>], bounds: &[(Rc<str>, Domain)], start: Dirty) -> bool {
        let mut dirty = start;
        for _ in 0..ROUNDS {
            let mut learned = Learned::default();
            for (name, dom) in bounds {
                if self.values.values.contains_key(name) {
                    continue;
                }
                let mut left = self.left(name, dom);
                match (left.next(), left.next()) {
                    (None, _) => return true,
                    (Some(v), None) => learned.equal.push((name.clone(), Val::Bv(v))),
                    _ => {}
                }
            }
            {
                let mut ev = Evaluator::partial(&self.values);
                let known = Known { unequal: &self.unequal, atoms: &self.atoms };
                for (i, t) in pc.iter().enumerate() {
                    if !dirty.covers(i, syms.get(i).map_or(&[][..], |s| &s[..])) {
                        continue;
                    }
                    match decided(&mut ev, known, t) {
                        Some(false) => return true,
                        Some(true) => {}
                        None => force(&mut ev, known, t, true, &mut learned),
                    }
                }
            }
            match self.learn(learned) {
                None => return true,
                Some(next) if next.all || !next.names.is_empty() => dirty = next,
                Some(_) => return false,
            }
        }
        false
    }

    /// Adds what a round learned: `None` on a contradiction, else what grew (nothing when
    /// no symbol is named and not `all`).
    fn learn(&mut self, learned: Learned) -> Option<Dirty> {
        let mut grew = Dirty { all: false, from: usize::MAX, names: HashSet::default() };
        for (name, v) in learned.equal {
            if let Val::Bv(x) = v
                && self.unequal.contains(&(name.clone(), x))
            {
                return None;
            }
            match self.values.values.get(&name) {
                Some(old) if *old != v => return None,
                Some(_) => {}
                None => {
                    self.values.values.insert(name.clone(), v);
                    grew.names.insert(name);
                }
            }
        }
        for (name, v) in learned.unequal {
            if self.values.values.get(&name) == Some(&Val::Bv(v)) {
                return None;
            }
            if self.unequal.insert((name.clone(), v)) {
                grew.names.insert(name);
            }
        }
        for (key, v) in learned.atoms {
            match self.atoms.insert(key, v) {
                Some(old) if old != v => return None,
                Some(_) => {}
                None => grew.all = true,
            }
        }
        for (a, b) in learned.same {
            // A symbol's disequalities now count for the other (see `left`).
            if self.same.entry(a.clone()).or_default().insert(b.clone()) {
                grew.names.insert(a.clone());
            }
            if self.same.entry(b.clone()).or_default().insert(a.clone()) {
                grew.names.insert(b);
            }
        }
        Some(grew)
    }
}

/// The truth of `t` under the facts: evaluated, an equality of a symbol with a value the
/// symbol is known to differ from, or an equality whose sides, read as the branches the facts
/// take, are one term, two values, or an equality already known.
fn decided(ev: &mut Evaluator<'_>, known: Known<'_>, t: &Term) -> Option<bool> {
    match ev.eval(t) {
        Some(Val::Bool(b)) => return Some(b),
        Some(_) => return None,
        None => {}
    }
    match t.node() {
        Node::Eq(a, b) => {
            if differs(ev, known, a, b) {
                return Some(false);
            }
            let (x, y) = (taken_branch(ev, known, a), taken_branch(ev, known, b));
            if x == y {
                return Some(true);
            }
            match (ev.eval(&x), ev.eval(&y)) {
                (Some(p), Some(q)) => Some(p == q),
                (None, None) => known.atoms.get(&atom(&x, &y)).copied(),
                // One side decided: a symbol known to differ from it, or else `force` learns
                // what the other side must be.
                _ => differs(ev, known, &x, &y).then_some(false),
            }
        }
        Node::Not(a) => decided(ev, known, a).map(|b| !b),
        Node::Cmp(op, sum, k) => {
            let (max, (ones, open)) = (count_bound(*op, k)?, bit_count(ev, known, sum)?);
            if ones > max { Some(false) } else { (ones + open.len() as u64 <= max).then_some(true) }
        }
        _ => None,
    }
}

/// The largest count `sum <=u k` (or `sum <u k`) allows.
fn count_bound(op: super::BvCmp, k: &Term) -> Option<u64> {
    match (op, k.node()) {
        (super::BvCmp::Ule, Node::Bv(_, k)) => Some(*k),
        (super::BvCmp::Ult, Node::Bv(_, k)) if *k > 0 => Some(*k - 1),
        _ => None,
    }
}

/// A sum of constants and `ite(c, 1, 0)` bits (uber's scope bound: how many input locations
/// exist), as what the decided bits and constants add up to and the undecided conditions;
/// `None` for any other term or when the sum could wrap around its width.
fn bit_count(ev: &mut Evaluator<'_>, known: Known<'_>, sum: &Term) -> Option<(u64, Vec<Term>)> {
    fn walk(ev: &mut Evaluator<'_>, known: Known<'_>, t: &Term, acc: &mut (u64, Vec<Term>)) -> Option<()> {
        match t.node() {
            Node::Bin(super::BvOp::Add, a, b) => {
                walk(ev, known, a, acc)?;
                walk(ev, known, b, acc)
            }
            Node::Bv(_, v) => {
                acc.0 = acc.0.checked_add(*v)?;
                Some(())
            }
            Node::Ite(c, one, zero) if matches!((one.node(), zero.node()), (Node::Bv(_, 1), Node::Bv(_, 0))) => {
                match decided(ev, known, c) {
                    Some(true) => acc.0 += 1,
                    Some(false) => {}
                    None => acc.1.push(c.clone()),
                }
                Some(())
            }
            _ => None,
        }
    }
    let Node::Bin(super::BvOp::Add, ..) = sum.node() else { return None };
    let width = match sum.sort() {
        super::Sort::Bv(w) if w < 64 => w,
        _ => return None,
    };
    let mut acc = (0, Vec::new());
    walk(ev, known, sum, &mut acc)?;
    (acc.0.checked_add(acc.1.len() as u64)? < 1u64 << width).then_some(acc)
}

/// Whether one side is a symbol known to differ from the value of the other.
fn differs(ev: &mut Evaluator<'_>, known: Known<'_>, a: &Term, b: &Term) -> bool {
    matches!(symbol_and_value(ev, a, b), Some((name, Val::Bv(v))) if known.unequal.contains(&(name.clone(), v)))
}

/// The key of an equality between two terms.
fn atom(x: &Term, y: &Term) -> (u32, u32) {
    (x.id().min(y.id()), x.id().max(y.id()))
}

/// `(x, v)` when one side of an equality is an undecided symbol `x` and the other the value `v`.
fn symbol_and_value(ev: &mut Evaluator<'_>, a: &Term, b: &Term) -> Option<(Rc<str>, Val)> {
    for (x, y) in [(a, b), (b, a)] {
        if let Node::Var(name, _) = x.node()
            && ev.eval(x).is_none()
            && let Some(v) = ev.eval(y)
        {
            return Some((name.clone(), v));
        }
    }
    None
}

/// The facts that `t` being `want` forces, given what `ev` knows.
fn force(ev: &mut Evaluator<'_>, known: Known<'_>, t: &Term, want: bool, out: &mut Learned) {
    match t.node() {
        Node::Var(name, _) => out.equal.push((name.clone(), Val::Bool(want))),
        Node::Not(a) => force(ev, known, a, !want, out),
        Node::And(xs) if want => xs.iter().for_each(|x| force(ev, known, x, true, out)),
        Node::Or(xs) if !want => xs.iter().for_each(|x| force(ev, known, x, false, out)),
        Node::And(xs) | Node::Or(xs) => {
            // A clause (or a negated conjunction): when every part but one is decided the
            // wrong way, that one part must go the right way.
            let mut open = None;
            for x in xs {
                match decided(ev, known, x) {
                    Some(b) if b == want => return,
                    Some(_) => {}
                    None if open.is_some() => return,
                    None => open = Some(x),
                }
            }
            if let Some(x) = open {
                force(ev, known, x, want, out);
            }
        }
        Node::Eq(a, b) => {
            // `x <=> (p && q)` with `x` decided: the other side must take `x`'s value (or
            // the opposite one for `!(x <=> ...)`).
            for (x, y) in [(a, b), (b, a)] {
                if let Some(Val::Bool(v)) = ev.eval(x)
                    && !matches!(y.node(), Node::Var(..))
                    && ev.eval(y).is_none()
                {
                    force(ev, known, y, v == want, out);
                    return;
                }
            }
            if let Some((name, v)) = symbol_and_value(ev, a, b) {
                push_value(out, name, v, want);
                return;
            }
            // Read through the branches the facts take: a symbol and a value, or two
            // undecided terms whose equality is then known.
            let (x, y) = (taken_branch(ev, known, a), taken_branch(ev, known, b));
            if let Some((name, v)) = symbol_and_value(ev, &x, &y) {
                push_value(out, name, v, want);
            } else if x != y && ev.eval(&x).is_none() && ev.eval(&y).is_none() {
                out.atoms.push((atom(&x, &y), want));
                if let (true, Node::Var(a, _), Node::Var(b, _)) = (want, x.node(), y.node()) {
                    out.same.push((a.clone(), b.clone()));
                }
            }
        }
        // A count at its bound: every undecided bit is 0.
        Node::Cmp(op, sum, k) if want => {
            if let (Some(max), Some((ones, open))) = (count_bound(*op, k), bit_count(ev, known, sum))
                && ones == max
            {
                open.iter().for_each(|c| force(ev, known, c, false, out));
            }
        }
        _ => {}
    }
}

/// The fact an equality of the symbol `name` with the value `v` being `want` gives.
fn push_value(out: &mut Learned, name: Rc<str>, v: Val, want: bool) {
    match (want, v) {
        (true, v) => out.equal.push((name, v)),
        // Two booleans that differ: one known gives the other.
        (false, Val::Bool(v)) => out.equal.push((name, Val::Bool(!v))),
        (false, Val::Bv(v)) => out.unequal.push((name, v)),
        (false, Val::Arr(..)) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{BvCmp, Sort, TermPool};

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
        let (l1r, l2r, r5) =
            (p.var("L1.right", Sort::Bv(32)), p.var("L2.right", Sort::Bv(32)), p.var("r5", Sort::Bv(32)));
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
        let (l1r, l2r, r5) =
            (p.var("L1.right", Sort::Bv(32)), p.var("L2.right", Sort::Bv(32)), p.var("r5", Sort::Bv(32)));
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
            let syms: Vec<Rc<[Rc<str>]>> = pc.iter().map(|t| t.var_names().into()).collect();
            assert_eq!(kept.refuted(pc, &syms), refuted, "{pc:?}");
            assert_eq!(refuted_by_propagation(pc), refuted);
        }
    }
}
