//! Model repair: a satisfying assignment of a path condition found by changing a few
//! symbols of a recent model, checked by evaluation, without calling the solver.
//!
//! Path conditions of a depth-first exploration differ from the previous query by a few
//! constraints about the newest symbols (`L7.next -> null` after `L7.next` was introduced).
//! A recent model usually satisfies all but those; setting one recent symbol to one of the
//! constants it is compared with (a heap choice), or to the value of another term it is
//! compared with, or one off it (`L7.key == key`, `key < L7.key`, also where `L7.key` is
//! one value of an if-then-else value set; `L1.level` in `L2.level == L1.level - 1` the value
//! that meets the other side; in an ordering of arithmetic over it, as the overflow check
//! `size + 1 <= size`, an extreme of its width), and recomputing the symbols *defined* by the path
//! condition (`r9 == ite(...)`, `L8.exists <=> ...`, first occurrence of the symbol), often
//! satisfies them all. A choice that needs another takes a short walk of such changes (a new
//! location once the scope is full needs another field to leave an object out). A change
//! re-evaluates only the entries that name the symbol or a symbol defined from it, and those
//! that read array contents (heap summaries, whose symbols are not listed); a model found is
//! checked once more on every entry from the first the changes can reach (the base model is
//! known to satisfy the entries before). A repaired model is as good as a solver's; when none
//! is found the solver is asked.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::rc::Rc;

use crate::term::{
    Assignment, BvOp, Evaluator, IdBuild, IdHasher, Memo, Node, Sort, SymbolId, Term, TermId, Val, mask,
};

/// How many recent symbols are tried, newest first.
const RECENT: usize = 6;
/// How many candidate assignments are evaluated at most per query.
pub const MAX_CANDIDATES: usize = 96;
/// Most symbols one repair changes.
const STEPS: usize = 4;

/// What the path condition says about its symbols, kept across queries: depth-first
/// queries share long prefixes, so only the entries beyond the common prefix are analysed.
#[derive(Default)]
pub struct Repairer {
    pc: Vec<Term>,
    /// For each entry, the symbol it defines (`v == e` at the first occurrence of `v`, `v`
    /// not in `e`).
    defines: Vec<Option<(SymbolId, Term)>>,
    /// The entry where each symbol first occurs.
    first: HashMap<SymbolId, usize>,
    /// Free (not defined) bit-vector symbols with the entry of their first occurrence.
    free: Vec<(usize, SymbolId)>,
    /// Term nodes already walked, with the entry that first reached them: their symbols
    /// are in `first`, so a later entry sharing them (a long chain of stores) walks only
    /// its new nodes.
    walked: HashMap<TermId, usize, BuildHasherDefault<IdHasher>>,
    /// The symbols of each entry (outside array contents), and the entries each occurs in,
    /// in order: the entries a change of a symbol can make true or false.
    symbols: Vec<Rc<[SymbolId]>>,
    occurs: HashMap<SymbolId, Vec<usize>>,
    /// The entries that read array contents (heap summaries), in order: any change may
    /// reach them.
    opaque: Vec<usize>,
    /// The symbols of the entries seen, by term id (depth-first queries come back to them),
    /// and whether they read array contents.
    symbols_of: HashMap<TermId, (Rc<[SymbolId]>, bool), BuildHasherDefault<IdHasher>>,
    /// The nodes [`Repairer::walk_new`] has seen (kept for its room).
    seen: HashSet<TermId, BuildHasherDefault<IdHasher>>,
    /// Set when the run's budget is spent: a repair then gives up.
    pub(super) interrupt: crate::budget::Interrupt,
}

/// A repair under way: the changes made so far, with the defined symbols recomputed (over
/// the base model), and the entries from the first one they reach that they falsify.
struct Walk {
    overlay: HashMap<SymbolId, Val, IdBuild>,
    falsified: BTreeSet<usize>,
    /// The first entry the changes may reach: the base satisfies every entry before it.
    from: usize,
}

/// A change a repair walk tries: `to.0` (first occurring in entry `first`) set to `to.1`
/// to make entry `fix` true, leaving at most `limit` entries false.
struct Change<'a> {
    to: (&'a SymbolId, u64),
    first: usize,
    fix: usize,
    limit: usize,
}

/// The symbols of `t` outside array contents (heap summaries: walking their chains of
/// stores would cost every entry their length), and whether it has array contents.
fn entry_symbols(t: &Term) -> (Rc<[SymbolId]>, bool) {
    let mut seen: HashSet<TermId, BuildHasherDefault<IdHasher>> = HashSet::default();
    let mut out = Vec::new();
    let mut opaque = false;
    let mut stack = vec![t];
    while let Some(x) = stack.pop() {
        if !seen.insert(x.id()) {
            continue;
        }
        match x.node() {
            Node::Var(n, _) => out.push(n.clone()),
            _ if matches!(x.sort(), Sort::Array(..)) => opaque = true,
            _ => stack.extend(x.children()),
        }
    }
    (out.into(), opaque)
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

/// `base` with the values of `overlay` in place of its own.
fn with_overlay(base: &Assignment, overlay: HashMap<SymbolId, Val, IdBuild>) -> Assignment {
    let mut out = base.clone();
    out.values.extend(overlay);
    out
}

fn var_name(t: &Term) -> Option<SymbolId> {
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
            self.opaque.retain(|i| *i < common);
            for syms in self.symbols.drain(common..).rev() {
                for v in syms.iter() {
                    if let Some(list) = self.occurs.get_mut(v) {
                        list.pop();
                    }
                }
            }
        }
        let (mut ids, mut vars) = (Vec::new(), Vec::new());
        for t in &pc[common..] {
            let i = self.pc.len();
            let mut def = None;
            if let Node::Eq(a, b) = t.node() {
                for (v, e) in [(a, b), (b, a)] {
                    if let Some(name) = var_name(v)
                        && !self.first.contains_key(&name)
                        && e.as_i64().is_none()
                        && e.as_bool().is_none()
                        && !self.mentions(e, &name)
                    {
                        def = Some((name, e.clone()));
                        break;
                    }
                }
            }
            ids.clear();
            vars.clear();
            self.new_nodes(t, &mut ids, &mut vars);
            for id in &ids {
                self.walked.insert(*id, i);
            }
            for v in &vars {
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
            let (syms, opaque) = self.symbols_of.entry(t.id()).or_insert_with(|| entry_symbols(t)).clone();
            if opaque {
                self.opaque.push(i);
            }
            for v in syms.iter() {
                self.occurs.entry(v.clone()).or_default().push(i);
            }
            self.symbols.push(syms);
            self.pc.push(t.clone());
        }
    }

    /// The nodes of `t` not walked yet (into `ids`), and the symbols among them (into `vars`).
    /// A symbol that first occurs in `t` is among them: every walked node's symbols occur in
    /// an earlier entry.
    fn new_nodes<'t>(&mut self, t: &'t Term, ids: &mut Vec<TermId>, vars: &mut Vec<&'t Term>) {
        self.walk_new(t, |x| {
            ids.push(x.id());
            if let Node::Var(..) = x.node() {
                vars.push(x);
            }
            false
        });
    }

    /// Whether a node of `e` not walked yet is the symbol `name` (one not walked yet occurs
    /// only there).
    fn mentions(&mut self, e: &Term, name: &str) -> bool {
        self.walk_new(e, |x| matches!(x.node(), Node::Var(n, _) if &**n == name))
    }

    /// Visits each node of `t` not walked yet once, until `stop` says so (then `true`).
    fn walk_new<'t>(&mut self, t: &'t Term, mut stop: impl FnMut(&'t Term) -> bool) -> bool {
        self.seen.clear();
        let mut stack = vec![t];
        while let Some(x) = stack.pop() {
            if self.walked.contains_key(&x.id()) || !self.seen.insert(x.id()) {
                continue;
            }
            if stop(x) {
                return true;
            }
            x.push_children(&mut stack);
        }
        false
    }

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
        with_overlay(base, ev.into_overlay())
    }

    /// The symbols that `named` (those of one entry) depend on: themselves, and those of
    /// their definitions, transitively.
    fn depends(&self, named: &HashSet<SymbolId>) -> HashSet<SymbolId> {
        let mut out = HashSet::new();
        let mut todo: Vec<SymbolId> = named.iter().cloned().collect();
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

    /// A model of `pc` made from `base` (known to satisfy `known`) by changing a few free
    /// symbols, if any: a walk of at most [`STEPS`] changes, each to a symbol the first
    /// falsified entry depends on (a recent one, or one that entry names; from the second
    /// change on, any it depends on), taking a value that makes that entry true without
    /// falsifying more than one entry more than before.
    pub fn repair(&mut self, base: &Assignment, known: &[Term], pc: &[Term]) -> Option<Assignment> {
        self.repair_within(base, known, pc, MAX_CANDIDATES)
    }

    /// [`Repairer::repair`] evaluating at most `most` candidate assignments.
    pub fn repair_within(&mut self, base: &Assignment, known: &[Term], pc: &[Term], most: usize) -> Option<Assignment> {
        self.sync(pc);
        let start = super::common_prefix(known, pc);
        let mut walk = self.start(base, start)?;
        if walk.falsified.is_empty() {
            return Some(with_overlay(base, walk.overlay));
        }
        let mut changed: Vec<SymbolId> = Vec::new();
        let mut tried = 0;
        for step in 0..STEPS {
            if self.interrupt.is_set() {
                return None;
            }
            let bad = *walk.falsified.first()?;
            let mut best: Option<(Walk, SymbolId)> = None;
            let mut ev = self.evaluator(base, &walk.overlay);
            // What no candidate's change reaches is evaluated once for them all.
            let mut shared = Memo::default();
            for (first, name) in self.candidates(bad, step > 0) {
                if changed.contains(&name) {
                    continue;
                }
                for k in self.values(&name, first, bad, &mut ev) {
                    tried += 1;
                    if tried > most {
                        return None;
                    }
                    // A change may leave one more entry false than there are now (the new object
                    // of a full scope breaks the count of each read that materialized one), but
                    // the last may leave none.
                    let limit = if step + 1 == STEPS { 0 } else { walk.falsified.len() + 1 };
                    let to = Change { to: (&name, k), first, fix: bad, limit };
                    let Some(next) = self.change(base, &walk, to, &mut shared) else { continue };
                    if next.falsified.is_empty() {
                        if let Some(m) = self.verified(base, &next) {
                            return Some(m);
                        }
                        continue;
                    }
                    // The next step starts from the change that leaves the fewest entries
                    // false, then the latest first one (`change` keeps them no more than now).
                    let rank = |w: &Walk| (w.falsified.len(), std::cmp::Reverse(w.falsified.first().copied()));
                    if best.as_ref().is_none_or(|(b, _)| rank(&next) < rank(b)) {
                        best = Some((next, name.clone()));
                    }
                }
            }
            let (next, name) = best?;
            walk = next;
            changed.push(name);
        }
        None
    }

    /// Whether `name` is a free (not defined) symbol of the path condition.
    fn is_free(&self, name: &SymbolId) -> bool {
        self.first
            .get(name)
            .is_some_and(|i| self.defines.get(*i).is_some_and(|d| d.as_ref().is_none_or(|(n, _)| n != name)))
    }

    /// An evaluator over `base` with `overlay` applied.
    fn evaluator<'a>(&self, base: &'a Assignment, overlay: &HashMap<SymbolId, Val, IdBuild>) -> Evaluator<'a> {
        let mut ev = Evaluator::new(base);
        for (n, v) in overlay {
            ev.set(n.clone(), v.clone());
        }
        ev
    }

    /// The walk's start: `base` on the entries from `start` on, the symbols they define
    /// recomputed (`None`: a definition could not be evaluated).
    fn start(&self, base: &Assignment, start: usize) -> Option<Walk> {
        let (ev, falsified) = self.pass(Evaluator::new(base), start, false)?;
        Some(Walk { overlay: ev.into_overlay(), falsified, from: start })
    }

    /// Evaluates the entries from `from` on under `ev`, setting each symbol an entry
    /// defines to its definition's value: the evaluator and the entries found false (with
    /// `first_only`, the first of them at most). `None`: a definition could not be evaluated.
    fn pass<'a>(
        &self,
        mut ev: Evaluator<'a>,
        from: usize,
        first_only: bool,
    ) -> Option<(Evaluator<'a>, BTreeSet<usize>)> {
        let mut falsified = BTreeSet::new();
        for (i, t) in self.pc.iter().enumerate().skip(from) {
            if let Some(Some((name, e))) = self.defines.get(i) {
                let v = ev.eval(e)?;
                ev.set(name.clone(), v);
            } else if ev.eval(t) != Some(Val::Bool(true)) {
                falsified.insert(i);
                if first_only {
                    break;
                }
            }
        }
        Some((ev, falsified))
    }

    /// `walk` with the change made: the entries that name its symbol, or a symbol whose
    /// definition's value the change moves, or read array contents (whose symbols are not
    /// listed), evaluated again; `shared` holds the values of the terms the changes of one
    /// step of the walk leave alone. `None` when entry `fix` stays false (a change is for
    /// it), when more than `limit` entries end up false, or when a definition could not be
    /// evaluated. Definitions go in order, `fix` as soon as they are set, the other entries
    /// after it (a plain entry reads no symbol defined after it).
    fn change(&self, base: &Assignment, walk: &Walk, change: Change, shared: &mut Memo) -> Option<Walk> {
        let (name, k) = change.to;
        let mut ev = Evaluator::sharing(base, walk.overlay.clone(), std::mem::take(shared));
        ev.set(name.clone(), Val::Bv(k));
        let falsified = self.judge_change(&mut ev, walk, &change);
        let (back, overlay) = ev.into_shared();
        *shared = back;
        Some(Walk { overlay, falsified: falsified?, from: walk.from.min(change.first) })
    }

    /// The entries [`Repairer::change`] finds false under `ev` (the change made).
    fn judge_change(&self, ev: &mut Evaluator, walk: &Walk, change: &Change) -> Option<BTreeSet<usize>> {
        let (name, fix) = (change.to.0, change.fix);
        let mut falsified = walk.falsified.clone();
        let mut pending: BTreeSet<usize> = self.occurs.get(name).into_iter().flatten().copied().collect();
        // Those before the symbol's first entry cannot read it.
        pending.extend(self.opaque.iter().copied().filter(|i| *i >= change.first));
        let mut before_fix = Vec::new();
        let judge = |ev: &mut Evaluator, falsified: &mut BTreeSet<usize>, i: usize| {
            if self.pc.get(i).is_some_and(|t| ev.eval(t) == Some(Val::Bool(true))) {
                falsified.remove(&i);
            } else {
                falsified.insert(i);
            }
        };
        while let Some(i) = pending.pop_first() {
            match self.defines.get(i) {
                Some(Some((d, e))) => {
                    let v = ev.eval(e)?;
                    if ev.value_of(d) != Some(&v) {
                        pending.extend(self.occurs.get(d).into_iter().flatten().filter(|j| **j > i));
                        ev.set(d.clone(), v);
                    }
                }
                _ if i < fix => before_fix.push(i),
                _ => {
                    judge(ev, &mut falsified, i);
                    if falsified.contains(&fix) {
                        return None;
                    }
                }
            }
        }
        if falsified.contains(&fix) {
            return None;
        }
        for i in before_fix {
            judge(ev, &mut falsified, i);
        }
        (falsified.len() <= change.limit).then_some(falsified)
    }

    /// The model of a walk that falsifies nothing, once every entry from the first it
    /// reaches holds under it, its definitions recomputed in order.
    fn verified(&self, base: &Assignment, walk: &Walk) -> Option<Assignment> {
        let mut ev = Evaluator::new(base);
        for (n, v) in &walk.overlay {
            if self.is_free(n) {
                ev.set(n.clone(), v.clone());
            }
        }
        let (ev, falsified) = self.pass(ev, walk.from, true)?;
        if !falsified.is_empty() {
            return None;
        }
        Some(with_overlay(base, ev.into_overlay()))
    }

    /// The free symbols a change may set to make entry `bad` true: the recent ones it
    /// depends on (through definitions too), then the older ones it names, newest first (a
    /// P-search fixes pointer choices the exploration made long before); with `deep`, then
    /// the older ones it depends on through definitions (a cardinality bound names only
    /// the existence of locations).
    fn candidates(&self, bad: usize, deep: bool) -> Vec<(usize, SymbolId)> {
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
    fn values(&self, name: &SymbolId, first: usize, bad: usize, ev: &mut Evaluator) -> Vec<u64> {
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

#[cfg(test)]
mod tests {
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

    /// The short repair of the model cache (`SHORT_REPAIR`) gives up where the value that
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
}
