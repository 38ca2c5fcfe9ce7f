//! Refuting a conjunction of constraints by unit propagation (and the order cycles it
//! uncovers), without a solver.
//!
//! Facts are what single constraints force once the facts so far are substituted: `b` and
//! `!b` for a boolean symbol, `x == v` when the other side of an equality is decided (`r5 ==
//! ite(2 == L1.right, L1.right, L2.right)` once `L1.right` and `L2.right` are known, or
//! `(L2.degree - 1) == L3.degree` once `L3.degree` is), `x != c`,
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
//! many as it holds says the rest do not exist; and signed ranges of the symbols a sum or
//! difference compared leaves alone (`0 <= L2.height` makes `(0 - L2.height) <= 1` true:
//! `propagate_linear.rs`), and the linear form an equality of two such terms gives one of
//! their symbols (`(L1.degree - 1) == L4.degree` makes `L4.degree` `L1.degree - 1`). A
//! constraint the facts make false, or two facts that disagree, refute the whole
//! conjunction; when propagation finds nothing, a few
//! symbols of a small domain (such a bound, or uber's candidate domain `(0 == L1.right) ||
//! (2 == L1.right) || (3 == L1.right)`) with two values left are split on. Sound, not
//! complete: `false` only means that propagation found no contradiction (the solver decides).
//!
//! It answers the P-searches' most common unsatisfiable query under uber's if-then-else heap
//! (a precondition's choice of a field's target that the path condition's value sets rule
//! out) without Z3; and where it refutes nothing, the values it decided (in the case a split
//! left open first: [`Propagator::decided`]) are most of a model (`solver/chain/`). A
//! [`Propagator`] keeps the facts of recent queries: a depth-first search asks about path
//! conditions that extend each other, and after the first round only the constraints that
//! name a symbol something new was learned about are evaluated again. Case splits and the
//! probes of the state a fork's sides share are in `propagate_cases.rs`.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::domain::{Domain, small_domains};
use super::{Assignment, Evaluator, IdBuild, Node, SymbolId, Term, TermId, Val};

/// Most rounds of propagation (each round evaluates every constraint once).
const ROUNDS: usize = 16;

/// What one round learned.
#[derive(Default)]
struct Learned {
    equal: Vec<(SymbolId, Val)>,
    unequal: Vec<(SymbolId, u64)>,
    atoms: Vec<((TermId, TermId), bool)>,
    /// Two undecided symbols found equal (also among `atoms`).
    same: Vec<(SymbolId, SymbolId)>,
    /// Signed ranges of symbols (name, width, range).
    bounds: Vec<(SymbolId, u32, (i128, i128))>,
    /// Symbols found equal to a linear form of others (`propagate_linear.rs`).
    defs: Vec<(SymbolId, u32, linear::Lin, bool)>,
}

/// The bit-vector values each symbol is known to differ from.
type Unequal = HashSet<(SymbolId, u64), IdBuild>;

/// The truth of equalities between two undecided terms, by their ids (the smaller first).
type Atoms = HashMap<(TermId, TermId), bool, IdBuild>;

/// The signed range each undecided bit-vector symbol is known to lie in (`propagate_linear.rs`).
type Bounds = HashMap<SymbolId, (i128, i128), IdBuild>;

/// The undecided bit-vector symbols known to equal a linear form of others (`L3.degree`
/// is `L1.degree - 1`), with their width and whether they are equal as signed integers
/// (exact) or modulo 2^w only: the forms name no symbol that has one itself when they are
/// learned.
type Defs = HashMap<SymbolId, (u32, linear::Lin, bool), IdBuild>;

/// What the facts say besides symbol values: the values symbols differ from, and equalities.
#[derive(Clone, Copy)]
struct Known<'a> {
    unequal: &'a Unequal,
    atoms: &'a Atoms,
    bounds: &'a Bounds,
    defs: &'a Defs,
    /// Whether an equality of a value with arithmetic over if-then-else values is solved
    /// through the branches the facts take ([`Propagator::refuted_deeply`]).
    deep: bool,
    /// See [`Facts::interrupt`]: once set, nothing more is decided.
    interrupt: &'a crate::budget::Interrupt,
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
    let syms: Vec<Rc<[SymbolId]>> = pc.iter().map(|t| t.var_names().into()).collect();
    Propagator::default().refuted(pc, &syms)
}

/// Refutes a conjunction from facts already found (see [`refuted_by_propagation`]); `facts`
/// ends as what propagation found when it refutes nothing. `syms` holds the symbols of each
/// constraint; `start` says which constraints the facts may not have seen yet; without `splits`
/// no case is split on, and `left_open` gets the facts of the most decided case a split
/// leaves open.
fn refuted_from(
    facts: &mut Facts,
    pc: &[Term],
    syms: &[Rc<[SymbolId]>],
    start: Dirty,
    splits: bool,
    left_open: &mut Option<Facts>,
) -> bool {
    let bounds = small_domains(pc);
    if facts.refuted(pc, syms, &bounds, start) {
        return true;
    }
    splits && cases::split_refuted(facts, pc, syms, &bounds, cases::SPLIT_DEPTH, left_open)
}

/// Which constraints a round of propagation evaluates: all of them, those from index `from`
/// on, and those that name a symbol in `names` (the others would learn nothing new: what
/// they say about their symbols is unchanged since they last were evaluated).
struct Dirty {
    all: bool,
    from: usize,
    names: HashSet<SymbolId, IdBuild>,
}

impl Dirty {
    /// The constraints from index `from` on (the facts hold what those before say).
    fn after(from: usize) -> Dirty {
        Dirty { all: false, from, names: HashSet::default() }
    }

    /// Whether the round evaluates `pc[i]`, `t`, whose symbols are `syms`; `bits` holds the
    /// [`super::symbol_bit`]s of `names`: a constraint whose [`Term::symbol_bits`] miss them
    /// all names none of them, and its symbols are not looked up.
    fn covers(&self, i: usize, t: &Term, syms: &[SymbolId], bits: u64) -> bool {
        self.all || i >= self.from || (t.symbol_bits() & bits != 0 && syms.iter().any(|v| self.names.contains(v)))
    }

    /// The [`super::symbol_bit`]s of `names`.
    fn bits(&self) -> u64 {
        self.names.iter().fold(0, |b, n| b | super::symbol_bit(n))
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
    /// The facts of the most decided case a split of the last query left open.
    open: Option<(Vec<Term>, Facts)>,
    /// See [`Facts::interrupt`].
    interrupt: crate::budget::Interrupt,
}

/// How many path conditions a [`Propagator`] keeps the facts of. A depth-first search
/// checks a fork's later sides after the first side's whole subtree, by when the facts of the
/// state they share (and its probes) are gone if too few are kept; each query looks through
/// them all, so too many cost too.
const KEEP_FACTS: usize = 48;

impl Propagator {
    /// Makes every propagation stop, refuting nothing, once `interrupt` is set.
    pub fn interrupted_by(&mut self, interrupt: crate::budget::Interrupt) {
        self.interrupt = interrupt;
    }

    /// Whether propagation refutes the conjunction of `pc`; `syms` holds the symbols of each
    /// of its constraints (the solver chain keeps them by term).
    pub fn refuted(&mut self, pc: &[Term], syms: &[Rc<[SymbolId]>]) -> bool {
        self.refuted_splitting(pc, syms, true)
    }

    /// [`Propagator::refuted`] without the case splits when not `splits`: the facts found
    /// are kept all the same, so a later call with splits on `pc` starts from them.
    pub fn refuted_splitting(&mut self, pc: &[Term], syms: &[Rc<[SymbolId]>], splits: bool) -> bool {
        self.refuted_with(pc, syms, splits, false)
    }

    /// [`Propagator::refuted`] without the case splits, probing the prefix `pc` shares with
    /// the last query (see [`Facts::probed`]) when its facts are new: the prefix is the state
    /// a fork's sides share, so what the probes learn serves every side. For queries that are
    /// often unsatisfiable (the solver chain's guess): POSE's P-searches fork on the object a
    /// field holds, one side per earlier symbol it may be, and the path condition leaves one
    /// of a few numbers to the object the method's reads went through, which otherwise only
    /// a case split finds, once per side.
    pub fn refuted_probing(&mut self, pc: &[Term], syms: &[Rc<[SymbolId]>]) -> bool {
        self.refuted_with(pc, syms, false, true)
    }

    /// [`Propagator::refuted_splitting`], with `probe` as in [`Propagator::refuted_probing`].
    fn refuted_with(&mut self, pc: &[Term], syms: &[Rc<[SymbolId]>], splits: bool, probe: bool) -> bool {
        let (mut facts, mut from) = self
            .recent
            .iter()
            .filter(|(known, _)| known.len() <= pc.len() && super::common_prefix(known, pc) == known.len())
            .max_by_key(|(known, _)| known.len())
            .map(|(known, f)| (f.clone(), known.len()))
            .unwrap_or_default();
        facts.interrupt = self.interrupt.clone();
        let shared = super::common_prefix(&self.last, pc);
        self.last = pc.to_vec();
        if shared > from && shared < pc.len() {
            // Only the prefix's propagation (and probes): its splits and order cycles are
            // the query's.
            let (part, part_syms) = (&pc[..shared], &syms[..shared]);
            let domains = small_domains(part);
            if facts.propagate(part, part_syms, &domains, Dirty::after(from))
                || (probe && facts.probed(part, part_syms, &domains))
            {
                return true;
            }
            self.keep(part, facts.clone());
            from = shared;
        }
        let mut open = None;
        if refuted_from(&mut facts, pc, syms, Dirty::after(from), splits, &mut open) {
            return true;
        }
        self.open = open.map(|o| (pc.to_vec(), o));
        self.keep(pc, facts);
        false
    }

    /// Propagation from no facts, without case splits, solving equalities of arithmetic over
    /// if-then-else values through the branches the facts take (POSE's BinomialHeap
    /// `c.degree == ite(h == s, h.degree, s.degree) - 1` with `1 != ite(...)`), keeping
    /// nothing: for a query no cheaper step answered, before the solver (reading the
    /// branches for every query costs more than the queries it saves, and case splits here
    /// would cost every query it cannot refute).
    pub fn refuted_deeply(&self, pc: &[Term], syms: &[Rc<[SymbolId]>]) -> bool {
        let mut facts = Facts { deep: true, interrupt: self.interrupt.clone(), ..Facts::default() };
        facts.refuted(pc, syms, &small_domains(pc), Dirty::after(0))
    }

    /// The symbol values propagation decided for `pc`, the query it last failed to refute
    /// (none for any other): first those of the most decided case a split left open, then
    /// those without the split. A model of `pc` often differs from a recent one in just these
    /// (a new node at a full scope: the node that leaves it, and what pointed to it).
    pub fn decided(&self, pc: &[Term]) -> Vec<&Assignment> {
        self.facts_of(pc).into_iter().map(|f| &f.values).filter(|a| !a.values.is_empty()).collect()
    }

    /// Models to start a repair of `pc` from, the query propagation last failed to refute
    /// (none for any other), in the order of [`Propagator::decided`]: `base` with the values
    /// decided, each symbol a range bounds moved into it, and each symbol with a linear form
    /// given the form's value (BinomialHeap's `L4.degree >= 1` moves `L1.degree` to 3, its
    /// children's degrees `L1.degree - 1` and `L1.degree - 2` follow: three coordinated
    /// changes a repair walk does not find).
    pub fn starts(&self, pc: &[Term], base: &Assignment) -> Vec<Assignment> {
        let facts: Vec<&Facts> = self
            .facts_of(pc)
            .into_iter()
            .filter(|f| !(f.values.values.is_empty() && f.bounds.is_empty() && f.defs.is_empty()))
            .collect();
        let mut widths: HashMap<SymbolId, u32, IdBuild> = HashMap::default();
        if facts.iter().any(|f| !f.bounds.is_empty()) {
            for v in pc.iter().flat_map(Term::vars) {
                if let Node::Var(name, super::Sort::Bv(w)) = v.node() {
                    widths.insert(name.clone(), *w);
                }
            }
        }
        facts.into_iter().map(|f| f.start(base, &widths)).collect()
    }

    /// The facts of `pc` when it is the query propagation last failed to refute: those of the
    /// case a split left open, then those without the split.
    fn facts_of(&self, pc: &[Term]) -> Vec<&Facts> {
        let open = self.open.iter().filter(|(known, _)| known.as_slice() == pc).map(|(_, f)| f);
        let plain = self.recent.first().filter(|(known, _)| known.as_slice() == pc).map(|(_, f)| f);
        open.chain(plain).collect()
    }

    fn keep(&mut self, pc: &[Term], facts: Facts) {
        self.recent.retain(|(known, _)| known.as_slice() != pc);
        self.recent.insert(0, (pc.to_vec(), facts));
        self.recent.truncate(KEEP_FACTS);
    }
}

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
    same: HashMap<SymbolId, HashSet<SymbolId, IdBuild>, IdBuild>,
    bounds: Bounds,
    defs: Defs,
    /// See [`Known::deep`].
    deep: bool,
    /// Set when the run's budget is spent: propagation then stops and refutes nothing.
    interrupt: crate::budget::Interrupt,
}

impl Facts {
    /// `base` with the decided values, the bounded symbols moved into their ranges and the
    /// symbols with linear forms given their values (see [`Propagator::starts`]); `widths`
    /// holds the widths of the bounded symbols.
    fn start(&self, base: &Assignment, widths: &HashMap<SymbolId, u32, IdBuild>) -> Assignment {
        let mut a = base.clone();
        a.values.extend(self.values.values.iter().map(|(k, v)| (k.clone(), v.clone())));
        for (name, (lo, hi)) in &self.bounds {
            let Some(&w) = widths.get(name) else { continue };
            if self.values.values.contains_key(name) {
                continue;
            }
            let now = match a.values.get(name) {
                Some(Val::Bv(v)) => i128::from(super::sign_extend(*v, w)),
                _ => 0,
            };
            let to = now.clamp(*lo, *hi);
            if to != now {
                a.values.insert(name.clone(), Val::Bv(super::mask(to as i64 as u64, w)));
            }
        }
        // The forms name no symbol with a form of its own when learned, but one learned
        // later may: a pass per form reaches the fixpoint.
        for _ in 0..self.defs.len() {
            let mut changed = false;
            for (name, (w, form, _)) in &self.defs {
                if self.values.values.contains_key(name) {
                    continue;
                }
                let v = Val::Bv(form.value_in(&a, *w));
                if a.values.get(name) != Some(&v) {
                    a.values.insert(name.clone(), v);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        a
    }

    fn known(&self) -> Known<'_> {
        Known {
            unequal: &self.unequal,
            atoms: &self.atoms,
            bounds: &self.bounds,
            defs: &self.defs,
            deep: self.deep,
            interrupt: &self.interrupt,
        }
    }

    /// Propagation to a fixpoint, then the order cycles through the branches it decides.
    fn refuted(&mut self, pc: &[Term], syms: &[Rc<[SymbolId]>], bounds: &[(SymbolId, Domain)], start: Dirty) -> bool {
        if self.propagate(pc, syms, bounds, start) {
            return true;
        }
        let mut ev = Evaluator::partial(&self.values);
        let known = self.known();
        super::order::refutes_resolved(pc, &mut |t| taken_branch(&mut ev, known, t))
    }

    /// The values of its domain `dom` the undecided symbol `name` is not known to differ
    /// from (nor a symbol it equals), in order; none when `name` is decided.
    fn left<'a>(&'a self, name: &'a SymbolId, dom: &'a [u64]) -> impl Iterator<Item = u64> + 'a {
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
    fn propagate(&mut self, pc: &[Term], syms: &[Rc<[SymbolId]>], bounds: &[(SymbolId, Domain)], start: Dirty) -> bool {
        let mut dirty = start;
        // What a round's values decide stays decided under the next round's, which add to
        // them: each round evaluates only what the last left unknown.
        let mut kept = super::Memo::default();
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
            // A symbol whose form the values now decide takes the form's value.
            for (name, (w, form, _)) in &self.defs {
                if !self.values.values.contains_key(name)
                    && let Some(v) = form.value(&self.values, *w)
                {
                    learned.equal.push((name.clone(), Val::Bv(v)));
                }
            }
            {
                let mut ev = Evaluator::partial_keeping(&self.values, std::mem::take(&mut kept));
                let known = self.known();
                // A round over all constraints asks no names.
                let bits = if dirty.all { 0 } else { dirty.bits() };
                for (i, t) in pc.iter().enumerate() {
                    if !dirty.covers(i, t, syms.get(i).map_or(&[][..], |s| &s[..]), bits) {
                        continue;
                    }
                    if self.interrupt.is_set() {
                        return false;
                    }
                    match decided(&mut ev, known, t) {
                        Some(false) => return true,
                        // An equality known true before its sides were exact (a bound
                        // learned since) may define a symbol now.
                        Some(true) => {
                            if let Node::Eq(a, b) = t.node()
                                && a.width() > 0
                            {
                                let (x, y) = (taken_branch(&mut ev, known, a), taken_branch(&mut ev, known, b));
                                if ev.eval(&x).is_none() && ev.eval(&y).is_none() {
                                    learned.defs.extend(linear::defined(&mut ev, known, &x, &y));
                                }
                            }
                        }
                        None => force(&mut ev, known, t, true, &mut learned),
                    }
                }
                kept = ev.into_known();
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
        for (name, w, (lo, hi)) in learned.bounds {
            let (lo, hi) = match self.bounds.get(&name) {
                Some((a, b)) => (lo.max(*a), hi.min(*b)),
                None => (lo, hi),
            };
            if lo > hi {
                return None;
            }
            if self.bounds.get(&name) == Some(&(lo, hi)) {
                continue;
            }
            if let Some(Val::Bv(v)) = self.values.values.get(&name) {
                let v = i128::from(super::sign_extend(*v, w));
                if v < lo || v > hi {
                    return None;
                }
            } else if lo == hi {
                let v = super::mask(lo as i64 as u64, w);
                if self.unequal.contains(&(name.clone(), v)) {
                    return None;
                }
                self.values.values.insert(name.clone(), Val::Bv(v));
            }
            self.bounds.insert(name.clone(), (lo, hi));
            grew.names.insert(name);
        }
        for (name, w, form, exact) in learned.defs {
            // Acyclic: the form, with the forms learned since substituted, must not name
            // the symbol (two equalities of one round may define each other's symbols).
            // An exact form takes the place of one modulo 2^w (a bound learned since).
            if self.values.values.contains_key(&name) || self.defs.get(&name).is_some_and(|(_, _, e)| *e || !exact) {
                continue;
            }
            if exact {
                // The symbols of an exact form keep no form modulo 2^w (which would make it
                // one modulo 2^w as well).
                for (m, _, _) in form.xs() {
                    if self.defs.get(m).is_some_and(|(_, _, e)| !*e) {
                        self.defs.remove(m);
                    }
                }
            }
            if let Some((form, exact)) = linear::expanded(&self.defs, form, exact)
                && !form.names(&name)
            {
                self.defs.insert(name.clone(), (w, form, exact));
                grew.names.insert(name);
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
    if known.interrupt.is_set() {
        return None;
    }
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
                // Two undecided sides: a difference their linear forms decide
                // (`propagate_linear.rs`; it may deny an equality found true), or an
                // equality known.
                (None, None) => linear::equal(ev, known, &x, &y).or_else(|| known.atoms.get(&atom(&x, &y)).copied()),
                // One side decided: a symbol known to differ from it, or else `force` learns
                // what the other side must be.
                _ => differs(ev, known, &x, &y).then_some(false),
            }
        }
        Node::Not(a) => decided(ev, known, a).map(|b| !b),
        Node::Cmp(op @ (super::BvCmp::Slt | super::BvCmp::Sle), a, b) => linear::compared(ev, known, *op, a, b),
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
    matches!(symbol_and_value(ev, known, a, b), Some((name, Val::Bv(v))) if known.unequal.contains(&(name.clone(), v)))
}

/// The key of an equality between two terms.
fn atom(x: &Term, y: &Term) -> (TermId, TermId) {
    (x.id().min(y.id()), x.id().max(y.id()))
}

/// `(x, v)` when one side of an equality is the value `v` and the other an undecided symbol
/// `x`, or a sum or difference that leaves only `x` undecided (`linear::solved`).
fn symbol_and_value(ev: &mut Evaluator<'_>, known: Known<'_>, a: &Term, b: &Term) -> Option<(SymbolId, Val)> {
    for (x, y) in [(a, b), (b, a)] {
        if let Node::Var(name, _) = x.node()
            && ev.eval(x).is_none()
            && let Some(v) = ev.eval(y)
        {
            return Some((name.clone(), v));
        }
    }
    for (x, y) in [(a, b), (b, a)] {
        if let Some(Val::Bv(v)) = ev.eval(y)
            && ev.eval(x).is_none()
            && let Some(found) = linear::solved(ev, known, x, v)
        {
            return Some(found);
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
            if let Some((name, v)) = symbol_and_value(ev, known, a, b) {
                push_value(out, name, v, want);
                return;
            }
            // Read through the branches the facts take: a symbol and a value, or two
            // undecided terms whose equality is then known.
            let (x, y) = (taken_branch(ev, known, a), taken_branch(ev, known, b));
            if let Some((name, v)) = symbol_and_value(ev, known, &x, &y) {
                push_value(out, name, v, want);
            } else if x != y && ev.eval(&x).is_none() && ev.eval(&y).is_none() {
                out.atoms.push((atom(&x, &y), want));
                if let (true, Node::Var(a, _), Node::Var(b, _)) = (want, x.node(), y.node()) {
                    out.same.push((a.clone(), b.clone()));
                }
                if want {
                    out.defs.extend(linear::defined(ev, known, &x, &y));
                }
            }
        }
        Node::Cmp(op @ (super::BvCmp::Slt | super::BvCmp::Sle), a, b) => {
            out.bounds.extend(linear::bounded(ev, known, *op, a, b, want));
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
fn push_value(out: &mut Learned, name: SymbolId, v: Val, want: bool) {
    match (want, v) {
        (true, v) => out.equal.push((name, v)),
        // Two booleans that differ: one known gives the other.
        (false, Val::Bool(v)) => out.equal.push((name, Val::Bool(!v))),
        (false, Val::Bv(v)) => out.unequal.push((name, v)),
        (false, Val::Arr(..)) => {}
    }
}

#[path = "propagate_cases.rs"]
mod cases;

#[path = "propagate_linear.rs"]
mod linear;

#[cfg(test)]
#[path = "propagate_tests.rs"]
mod tests;
