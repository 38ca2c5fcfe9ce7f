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

#[cfg(test)]
mod tests;
mod values;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::rc::Rc;

use crate::term::{Assignment, Evaluator, IdBuild, IdHasher, Memo, Node, Sort, SymbolId, Term, TermId, Val};

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
        let common = crate::term::common_prefix(&self.pc, pc);
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
        let start = crate::term::common_prefix(known, pc);
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
}
