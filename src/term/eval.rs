//! Evaluating terms under an assignment of their free symbols (models, the solver chain, replay).

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use super::simplify::fold;
use super::{BvCmp, Node, Sort, SymbolId, Term, TermId, mask, sign_extend};

/// A concrete value of a term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Val {
    Bool(bool),
    /// A bit-vector value, masked to its width.
    Bv(u64),
    /// Array contents: explicit points and a default for the rest.
    Arr(Rc<BTreeMap<u64, u64>>, u64),
}

/// Values of free symbols, by name. Scalar symbols without a value evaluate to 0/false, as
/// Z3's model completion does; unassigned arrays make evaluation unknown (`None`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Assignment {
    pub values: BTreeMap<SymbolId, Val>,
}

impl Assignment {
    /// The value of a symbol, if assigned.
    pub fn get(&self, name: &str) -> Option<&Val> {
        self.values.get(name)
    }

    /// Evaluates a boolean term; `None` if it reads an array point the assignment does not fix.
    pub fn eval_bool(&self, t: &Term) -> Option<bool> {
        match Evaluator::new(self).eval(t)? {
            Val::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// Evaluates a bit-vector term to its signed value.
    pub fn eval_i64(&self, t: &Term) -> Option<i64> {
        match Evaluator::new(self).eval(t)? {
            Val::Bv(v) => Some(sign_extend(v, t.width())),
            _ => None,
        }
    }

    /// Evaluates any term.
    pub fn eval(&self, t: &Term) -> Option<Val> {
        Evaluator::new(self).eval(t)
    }
}

/// Evaluated terms by id, with their values (`None`: unknown).
pub type Memo = HashMap<TermId, Option<Val>, BuildHasherDefault<IdHasher>>;

/// A memoizing evaluator (terms are DAGs; each node is evaluated once).
pub struct Evaluator<'a> {
    asg: &'a Assignment,
    /// Values that override the assignment (set before the symbol is first evaluated).
    overlay: HashMap<SymbolId, Val, IdBuild>,
    /// The evaluator's own values: the first [`FIRST`] in `first`, the rest in `memo`.
    first: First,
    memo: Memo,
    /// Symbols without a value are unknown (`None`) instead of 0/false.
    partial: bool,
    /// With [`Evaluator::sharing`]: the values of terms that name no symbol set since the
    /// evaluator was made (`changed`, as [`super::symbol_bit`]s), valid for any evaluator of
    /// the same assignment and overlay; they go back with [`Evaluator::into_shared`].
    shared: Option<Memo>,
    changed: u64,
}

/// Hashes term ids (dense small integers) by one multiplication, and symbol names a word at
/// a time (as rustc's FxHasher): the memo and propagation's facts are the hot path of the
/// solver chain, where SipHash took a fifth of POSE's time.
#[derive(Default)]
pub struct IdHasher(u64);

/// How many values an evaluator's memo holds before it grows, once it has more than
/// [`FIRST`].
const MEMO_ROOM: usize = 32;

/// How many values an evaluator keeps in place before it makes its memo: most evaluators
/// (the solver chain's look at a recent model, a P-search's order of a fork's sides) value a
/// node or two, and a memo with [`MEMO_ROOM`] is an allocation past the allocator's
/// per-thread cache for each.
const FIRST: usize = 8;

/// The first values an evaluator keeps, in order, without allocating.
struct First {
    len: usize,
    ids: [TermId; FIRST],
    vals: [Option<Val>; FIRST],
}

impl First {
    fn new() -> First {
        First { len: 0, ids: [TermId(0); FIRST], vals: [const { None }; FIRST] }
    }

    fn get(&self, id: TermId) -> Option<&Option<Val>> {
        let i = self.ids[..self.len].iter().position(|x| *x == id)?;
        self.vals.get(i)
    }

    /// Keeps `v` as `id`'s value, or hands it back when full.
    fn push(&mut self, id: TermId, v: Option<Val>) -> Option<(TermId, Option<Val>)> {
        if self.len == FIRST {
            return Some((id, v));
        }
        self.ids[self.len] = id;
        self.vals[self.len] = v;
        self.len += 1;
        None
    }

    /// Moves the values kept into `memo`.
    fn drain_into(&mut self, memo: &mut Memo) {
        let len = std::mem::take(&mut self.len);
        for (id, v) in self.ids[..len].iter().zip(&mut self.vals) {
            memo.insert(*id, v.take());
        }
    }
}

/// Builds [`IdHasher`]s: `HashMap<K, V, IdBuild>`.
pub type IdBuild = BuildHasherDefault<IdHasher>;

impl IdHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            self.add(u64::from_le_bytes(b));
        }
        for b in words.remainder() {
            self.add(u64::from(*b));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

impl<'a> Evaluator<'a> {
    pub fn new(asg: &'a Assignment) -> Self {
        // The memo is made when the first values are full (see `First`).
        Evaluator {
            asg,
            overlay: HashMap::default(),
            first: First::new(),
            memo: Memo::default(),
            partial: false,
            shared: None,
            changed: 0,
        }
    }

    /// An evaluator of `asg` with `overlay`'s values in place of its own that reads and adds
    /// to `shared` the values of the terms that name no symbol [`Evaluator::set`] changes:
    /// the evaluators of one model repair's candidates, each a change of one symbol (and of
    /// those defined from it), share what the change cannot reach.
    pub fn sharing(asg: &'a Assignment, overlay: HashMap<SymbolId, Val, IdBuild>, shared: Memo) -> Self {
        Evaluator { overlay, shared: Some(shared), ..Evaluator::new(asg) }
    }

    /// The shared values of [`Evaluator::sharing`], and the overlay.
    pub fn into_shared(self) -> (Memo, HashMap<SymbolId, Val, IdBuild>) {
        (self.shared.unwrap_or_default(), self.overlay)
    }

    /// An evaluator under a partial assignment: a term is known (`Some`) only when the
    /// assigned symbols decide it whatever values the others take.
    pub fn partial(asg: &'a Assignment) -> Self {
        Evaluator { partial: true, ..Evaluator::new(asg) }
    }

    /// [`Evaluator::partial`] that starts from the values `kept` ([`Evaluator::into_known`]
    /// of an evaluator under an assignment `asg` extends): a term a partial assignment
    /// decides keeps its value under any that assigns more.
    pub fn partial_keeping(asg: &'a Assignment, kept: Memo) -> Self {
        Evaluator { memo: kept, ..Evaluator::partial(asg) }
    }

    /// The values of the terms evaluated so far that the assignment decided.
    pub fn into_known(mut self) -> Memo {
        let mut memo = std::mem::take(&mut self.memo);
        self.first.drain_into(&mut memo);
        memo.retain(|_, v| v.is_some());
        memo
    }

    /// The value of symbol `name`: the overlay's, else the assignment's (`None`: unset).
    pub fn value_of(&self, name: &str) -> Option<&Val> {
        // An empty overlay (most evaluators') is not asked: asking hashes the name.
        if self.overlay.is_empty() {
            return self.asg.values.get(name);
        }
        self.overlay.get(name).or_else(|| self.asg.values.get(name))
    }

    /// Gives `name` the value `v` from now on. Only sound before any term reading `name` has
    /// been evaluated (results are memoized).
    pub fn set(&mut self, name: SymbolId, v: Val) {
        if self.shared.is_some() {
            self.changed |= super::symbol_bit(&name);
        }
        self.overlay.insert(name, v);
    }

    /// The overriding values set so far.
    pub fn into_overlay(self) -> HashMap<SymbolId, Val, IdBuild> {
        self.overlay
    }

    pub fn eval(&mut self, t: &Term) -> Option<Val> {
        // Constants cost less to evaluate than to memoize (symbols do not: an assignment
        // looks them up by name).
        if matches!(t.node(), Node::Bool(_) | Node::Bv(..)) {
            return self.eval_node(t);
        }
        // A term no changed symbol reaches has its value in the shared memo, any other in the
        // evaluator's own (`changed` only grows, so a term stays on its side).
        let id = t.id();
        if let Some(m) = &self.shared
            && t.symbol_bits() & self.changed == 0
        {
            if let Some(v) = m.get(&id) {
                return v.clone();
            }
            let v = self.eval_node(t);
            if let Some(m) = &mut self.shared {
                m.insert(id, v.clone());
            }
            return v;
        }
        if let Some(v) = self.first.get(id).or_else(|| self.memo.get(&id)) {
            return v.clone();
        }
        let v = self.eval_node(t);
        self.keep(id, v.clone());
        v
    }

    /// Keeps `v` as the value of term `id` in the evaluator's own memo.
    fn keep(&mut self, id: TermId, v: Option<Val>) {
        if let Some((id, v)) = self.first.push(id, v) {
            if self.memo.capacity() == 0 {
                // Room for a typical constraint's nodes: growing the memo from empty would
                // rehash it several times per evaluator.
                self.memo.reserve(MEMO_ROOM);
            }
            self.memo.insert(id, v);
        }
    }

    fn bv(&mut self, t: &Term) -> Option<u64> {
        match self.eval(t)? {
            Val::Bv(v) => Some(v),
            _ => None,
        }
    }

    fn boolean(&mut self, t: &Term) -> Option<bool> {
        match self.eval(t)? {
            Val::Bool(b) => Some(b),
            _ => None,
        }
    }

    fn eval_node(&mut self, t: &Term) -> Option<Val> {
        let w = t.width();
        Some(match t.node() {
            Node::Bool(b) => Val::Bool(*b),
            Node::Bv(_, v) => Val::Bv(*v),
            Node::Var(name, sort) => match self.value_of(name) {
                Some(v) => v.clone(),
                None if self.partial => return None,
                None => match sort {
                    Sort::Bool => Val::Bool(false),
                    Sort::Bv(_) => Val::Bv(0),
                    // Array contents are only known where a model fixed them: unknown elsewhere,
                    // so the solver chain never claims more than it knows.
                    Sort::Array(..) => return None,
                },
            },
            Node::Not(a) => Val::Bool(!self.boolean(a)?),
            Node::And(xs) => {
                // Short-circuit on a known false even if another conjunct is unknown.
                let mut unknown = false;
                for x in xs {
                    match self.boolean(x) {
                        Some(false) => return Some(Val::Bool(false)),
                        Some(true) => {}
                        None => unknown = true,
                    }
                }
                if unknown {
                    return None;
                }
                Val::Bool(true)
            }
            Node::Or(xs) => {
                let mut unknown = false;
                for x in xs {
                    match self.boolean(x) {
                        Some(true) => return Some(Val::Bool(true)),
                        Some(false) => {}
                        None => unknown = true,
                    }
                }
                if unknown {
                    return None;
                }
                Val::Bool(false)
            }
            Node::Ite(c, a, b) => {
                if self.boolean(c)? {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Node::Eq(a, b) => Val::Bool(self.eval(a)? == self.eval(b)?),
            Node::Bin(op, a, b) => {
                let (x, y) = (self.bv(a)?, self.bv(b)?);
                // SMT-LIB semantics for division by zero (the machine never asks for it on a
                // feasible path, but the solver chain may evaluate such a term).
                match fold(*op, x, y, w) {
                    Some(v) => Val::Bv(v),
                    None => Val::Bv(0),
                }
            }
            Node::Neg(a) => Val::Bv(mask(self.bv(a)?.wrapping_neg(), w)),
            Node::Cmp(op, a, b) => {
                let aw = a.width();
                let (x, y) = (self.bv(a)?, self.bv(b)?);
                let (sx, sy) = (sign_extend(x, aw), sign_extend(y, aw));
                Val::Bool(match op {
                    BvCmp::Slt => sx < sy,
                    BvCmp::Sle => sx <= sy,
                    BvCmp::Ult => x < y,
                    BvCmp::Ule => x <= y,
                })
            }
            Node::SExt(_, a) => Val::Bv(mask(sign_extend(self.bv(a)?, a.width()) as u64, w)),
            Node::ZExt(_, a) => Val::Bv(self.bv(a)?),
            Node::Extract(_, lo, a) => Val::Bv(mask(self.bv(a)? >> lo, w)),
            Node::Select(arr, i) => {
                let i = self.bv(i)?;
                // Walk down the stores to the one at `i` (no copy of the array per store);
                // only below all of them is the array's own value needed.
                let mut arr = arr;
                while let Node::Store(below, j, v) = arr.node() {
                    if self.bv(j)? == i {
                        return self.eval(v);
                    }
                    arr = below;
                }
                match self.eval(arr)? {
                    Val::Arr(points, default) => Val::Bv(points.get(&i).copied().unwrap_or(default)),
                    _ => return None,
                }
            }
            Node::FpBin(op, a, b) => {
                let v = super::float::fold_op(*op, a.width(), self.bv(a)?, self.bv(b)?);
                if op.is_cmp() { Val::Bool(v != 0) } else { Val::Bv(v) }
            }
            Node::FpConv(c, to, a) => Val::Bv(super::float::fold_conv(*c, a.width(), *to, self.bv(a)?)),
            Node::Store(arr, i, v) => {
                let (i, v) = (self.bv(i)?, self.bv(v)?);
                match self.eval(arr)? {
                    Val::Arr(points, default) => {
                        let mut p = (*points).clone();
                        p.insert(i, v);
                        Val::Arr(Rc::new(p), default)
                    }
                    _ => return None,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{BvOp, Sort, TermPool};

    #[test]
    fn an_evaluator_knows_every_value_it_memoized_past_its_first_ones() {
        // A sum of twelve symbols has 23 nodes besides its constants: more than the
        // evaluator keeps in place, so its memo takes the rest.
        let mut p = TermPool::default();
        let xs: Vec<Term> = (0..12).map(|i| p.var(&format!("x{i}"), Sort::Bv(32))).collect();
        let mut sum = xs[0].clone();
        for x in &xs[1..] {
            sum = p.bin(BvOp::Add, &sum, x);
        }
        let mut asg = Assignment::default();
        for (i, _) in xs.iter().enumerate().take(6) {
            asg.values.insert(format!("x{i}").into(), Val::Bv(i as u64 + 1));
        }
        let mut ev = Evaluator::new(&asg);
        assert_eq!(ev.eval(&sum), Some(Val::Bv(21)));
        // Evaluated again from the memo, the same.
        assert_eq!(ev.eval(&sum), Some(Val::Bv(21)));
        let known = ev.into_known();
        for (i, x) in xs.iter().enumerate().take(6) {
            assert_eq!(known.get(&x.id()), Some(&Some(Val::Bv(i as u64 + 1))), "x{i}");
        }
        assert_eq!(known.get(&sum.id()), Some(&Some(Val::Bv(21))));
        // A partial evaluator knows only what the assigned symbols decide, and keeps it.
        let mut partial = Evaluator::partial(&asg);
        assert_eq!(partial.eval(&sum), None);
        let kept = partial.into_known();
        assert!(xs[..6].iter().all(|x| kept.contains_key(&x.id())));
        assert!(!kept.contains_key(&sum.id()) && !kept.contains_key(&xs[6].id()));
        let mut again = Evaluator::partial_keeping(&asg, kept);
        assert_eq!(again.eval(&xs[0]), Some(Val::Bv(1)));
    }
}
