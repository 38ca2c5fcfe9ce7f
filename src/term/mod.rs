//! Our symbolic terms: hash-consed, printable, simplified on construction.
//!
//! Java `int`-like values are 32-bit bit-vectors and `long` 64-bit ones, with Java's
//! wrap-around semantics; booleans of the path condition are `Sort::Bool`. Reference
//! identities (POSE) and heap choices (uber) are small bit-vectors too. Every term is built
//! through a [`TermPool`], which shares structurally equal terms, so equality and hashing are
//! by id and a term DAG is never walked twice. The solver layer translates terms to Z3 in one
//! place (`solver/z3.rs`); [`eval`] evaluates them under an assignment for model caching
//! and replay.

mod classes;
mod domain;
pub mod eval;
mod float;
mod order;
mod print;
mod propagate;
mod simplify;

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

pub use classes::EqClasses;
pub use eval::{Assignment, Evaluator, IdBuild, IdHasher, Memo, Val};
pub use float::{FpConv, FpOp, java_literal, nan_bits};
pub use order::OrderEdges;
pub use propagate::{Propagator, refuted_by_propagation};

/// The sort of a term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    Bool,
    /// A bit-vector of the given width (32 for int, 64 for long).
    Bv(u32),
    /// An array from `Bv(index)` to `Bv(value)` (contents of input arrays).
    Array(u32, u32),
}

/// Binary bit-vector operators (Java semantics: `SDiv`/`SRem` truncate toward zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BvOp {
    Add,
    Sub,
    Mul,
    SDiv,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

/// Bit-vector comparisons (signed `S*`, unsigned `U*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BvCmp {
    Slt,
    Sle,
    Ult,
    Ule,
}

/// The shape of a term. Children are [`Term`]s, so a `Node` hashes shallowly.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Node {
    Bool(bool),
    /// A bit-vector constant of the given width (value masked to the width).
    Bv(u32, u64),
    /// A free symbol: an input value, a heap choice, an input array.
    Var(SymbolId, Sort),
    Not(Term),
    And(Vec<Term>),
    Or(Vec<Term>),
    Ite(Term, Term, Term),
    Eq(Term, Term),
    Bin(BvOp, Term, Term),
    Neg(Term),
    Cmp(BvCmp, Term, Term),
    /// Sign-extend by the given number of bits.
    SExt(u32, Term),
    /// Zero-extend by the given number of bits.
    ZExt(u32, Term),
    /// Bits `hi..=lo`.
    Extract(u32, u32, Term),
    Select(Term, Term),
    Store(Term, Term, Term),
    /// A floating-point operation on the IEEE bits of two floats or doubles (`float.rs`).
    FpBin(FpOp, Term, Term),
    /// A conversion to or from floating-point bits, to the given width (`float.rs`).
    FpConv(FpConv, u32, Term),
}

/// A free symbol, known by its name: one name per symbol within an exploration (a field's
/// symbol is `obj.field`), so a model read back by name gives each symbol its value. Hashes,
/// compares and orders as its name, and borrows as `&str` for look-ups by name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymbolId(Rc<str>);

impl SymbolId {
    /// The symbol's name, as reports and Z3 print it.
    pub fn name(&self) -> &str {
        &self.0
    }

    /// The name, shared (not copied).
    pub fn shared_name(&self) -> Rc<str> {
        self.0.clone()
    }
}

impl std::ops::Deref for SymbolId {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for SymbolId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for SymbolId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for SymbolId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for SymbolId {
    fn from(name: &str) -> SymbolId {
        SymbolId(Rc::from(name))
    }
}

impl From<String> for SymbolId {
    fn from(name: String) -> SymbolId {
        SymbolId(Rc::from(name))
    }
}

/// A term's id: its number in the pool that made it, from 0 in the order the pool made them.
/// Two terms of one pool are equal exactly when their ids are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(u32);

#[derive(Debug)]
pub struct TermData {
    id: TermId,
    sort: Sort,
    node: Node,
    /// The symbols the term names, one bit each of 64 ([`symbol_bit`]): a term whose bits
    /// miss those of a set of symbols names none of them.
    symbols: u64,
}

/// The bit of [`Term::symbol_bits`] that stands for the symbol `name`.
pub fn symbol_bit(name: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = IdHasher::default();
    h.write(name.as_bytes());
    1 << (h.finish() >> 58)
}

/// A shared, hash-consed term. Equality and hashing are by identity (structural, thanks to
/// the pool).
#[derive(Debug, Clone)]
pub struct Term(Rc<TermData>);

impl PartialEq for Term {
    fn eq(&self, other: &Self) -> bool {
        self.0.id == other.0.id
    }
}
impl Eq for Term {}
impl Hash for Term {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.id.hash(state)
    }
}
impl PartialOrd for Term {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Term {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.id.cmp(&other.0.id)
    }
}

impl Term {
    pub fn id(&self) -> TermId {
        self.0.id
    }
    /// The bits of the symbols it names (see [`symbol_bit`]).
    pub fn symbol_bits(&self) -> u64 {
        self.0.symbols
    }
    pub fn sort(&self) -> Sort {
        self.0.sort
    }
    pub fn node(&self) -> &Node {
        &self.0.node
    }
    /// The width of a bit-vector term (0 for other sorts).
    pub fn width(&self) -> u32 {
        match self.0.sort {
            Sort::Bv(w) => w,
            _ => 0,
        }
    }
    /// `Some(b)` for the constants `true`/`false`.
    pub fn as_bool(&self) -> Option<bool> {
        match self.0.node {
            Node::Bool(b) => Some(b),
            _ => None,
        }
    }
    /// The constant as a signed value, for bit-vector constants.
    pub fn as_i64(&self) -> Option<i64> {
        match self.0.node {
            Node::Bv(w, v) => Some(sign_extend(v, w)),
            _ => None,
        }
    }
    pub fn is_true(&self) -> bool {
        self.as_bool() == Some(true)
    }
    pub fn is_false(&self) -> bool {
        self.as_bool() == Some(false)
    }
    /// The children of this term.
    pub fn children(&self) -> Vec<&Term> {
        let mut out = Vec::new();
        self.push_children(&mut out);
        out
    }

    /// Pushes the children of this term, in order, onto `out` (a walk's stack: no vector of
    /// its own per node).
    pub(crate) fn push_children<'a>(&'a self, out: &mut Vec<&'a Term>) {
        match &self.0.node {
            Node::Bool(_) | Node::Bv(..) | Node::Var(..) => {}
            Node::Not(a)
            | Node::Neg(a)
            | Node::SExt(_, a)
            | Node::ZExt(_, a)
            | Node::Extract(_, _, a)
            | Node::FpConv(_, _, a) => out.push(a),
            Node::And(v) | Node::Or(v) => out.extend(v.iter()),
            Node::Ite(a, b, c) | Node::Store(a, b, c) => out.extend([a, b, c]),
            Node::Eq(a, b) | Node::Bin(_, a, b) | Node::Cmp(_, a, b) | Node::Select(a, b) | Node::FpBin(_, a, b) => {
                out.extend([a, b])
            }
        }
    }

    /// The free symbols of this term, each once, in first-occurrence order.
    pub fn vars(&self) -> Vec<Term> {
        let mut seen: std::collections::HashSet<TermId, IdBuild> = std::collections::HashSet::default();
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            if !seen.insert(t.id()) {
                continue;
            }
            if let Node::Var(..) = t.node() {
                out.push(t.clone());
            }
            t.push_children(&mut stack);
        }
        out
    }

    /// The names of this term's free symbols, each once, in first-occurrence order.
    pub fn var_names(&self) -> Vec<SymbolId> {
        self.vars()
            .iter()
            .filter_map(|v| match v.node() {
                Node::Var(name, _) => Some(name.clone()),
                _ => None,
            })
            .collect()
    }
}

/// How many leading constraints two path conditions share (a depth-first exploration's
/// queries share long prefixes; the solver, the cache, model repair, propagation and the
/// order refutation reuse what they computed for them).
pub fn common_prefix(a: &[Term], b: &[Term]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Interprets the low `w` bits of `v` as a signed number.
pub fn sign_extend(v: u64, w: u32) -> i64 {
    if w >= 64 {
        v as i64
    } else {
        let shift = 64 - w;
        ((v << shift) as i64) >> shift
    }
}

/// Keeps the low `w` bits of `v`.
pub fn mask(v: u64, w: u32) -> u64 {
    if w >= 64 { v } else { v & ((1u64 << w) - 1) }
}

/// The factory of terms: hash-conses nodes and simplifies on construction.
/// One pool serves one exploration; it is never global.
#[derive(Debug, Default)]
pub struct TermPool {
    table: HashMap<Node, Term, IdBuild>,
    next: u32,
}

impl TermPool {
    pub fn new() -> Self {
        TermPool::default()
    }

    /// Interns a node that is already simplified.
    fn intern(&mut self, node: Node, sort: Sort) -> Term {
        if let Some(t) = self.table.get(&node) {
            return t.clone();
        }
        let bits = |ts: &[&Term]| ts.iter().fold(0, |b, t| b | t.symbol_bits());
        let symbols = match &node {
            Node::Var(name, _) => symbol_bit(name),
            Node::Bool(_) | Node::Bv(..) => 0,
            Node::Not(a)
            | Node::Neg(a)
            | Node::SExt(_, a)
            | Node::ZExt(_, a)
            | Node::Extract(_, _, a)
            | Node::FpConv(_, _, a) => bits(&[a]),
            Node::And(v) | Node::Or(v) => v.iter().fold(0, |b, t| b | t.symbol_bits()),
            Node::Ite(a, b, c) | Node::Store(a, b, c) => bits(&[a, b, c]),
            Node::Eq(a, b) | Node::Bin(_, a, b) | Node::Cmp(_, a, b) | Node::Select(a, b) | Node::FpBin(_, a, b) => {
                bits(&[a, b])
            }
        };
        let t = Term(Rc::new(TermData { id: TermId(self.next), sort, node: node.clone(), symbols }));
        self.next += 1;
        self.table.insert(node, t.clone());
        t
    }

    pub fn bool(&mut self, b: bool) -> Term {
        self.intern(Node::Bool(b), Sort::Bool)
    }
    pub fn tru(&mut self) -> Term {
        self.bool(true)
    }
    pub fn fls(&mut self) -> Term {
        self.bool(false)
    }
    /// A bit-vector constant.
    pub fn bv(&mut self, w: u32, v: i64) -> Term {
        self.intern(Node::Bv(w, mask(v as u64, w)), Sort::Bv(w))
    }
    pub fn int(&mut self, v: i32) -> Term {
        self.bv(32, i64::from(v))
    }
    pub fn long(&mut self, v: i64) -> Term {
        self.bv(64, v)
    }
    /// A free symbol. Names must be unique per sort within an exploration.
    pub fn var(&mut self, name: &str, sort: Sort) -> Term {
        self.intern(Node::Var(SymbolId::from(name), sort), sort)
    }

    /// `t` with each symbol that `map` names (by term id) replaced, simplified as it is rebuilt.
    pub fn substitute(&mut self, t: &Term, map: &HashMap<TermId, Term>) -> Term {
        let mut memo: HashMap<TermId, Term> = HashMap::new();
        self.substitute_in(t, map, &mut memo)
    }

    fn substitute_in(&mut self, t: &Term, map: &HashMap<TermId, Term>, memo: &mut HashMap<TermId, Term>) -> Term {
        if let Some(x) = map.get(&t.id()).or_else(|| memo.get(&t.id())) {
            return x.clone();
        }
        let mut sub = |pool: &mut TermPool, x: &Term| pool.substitute_in(x, map, memo);
        let out = match t.node().clone() {
            Node::Bool(_) | Node::Bv(..) | Node::Var(..) => t.clone(),
            Node::Not(a) => {
                let a = sub(self, &a);
                self.not(&a)
            }
            Node::And(xs) => {
                let xs: Vec<Term> = xs.iter().map(|x| sub(self, x)).collect();
                self.and(&xs)
            }
            Node::Or(xs) => {
                let xs: Vec<Term> = xs.iter().map(|x| sub(self, x)).collect();
                self.or(&xs)
            }
            Node::Ite(c, a, b) => {
                let (c, a, b) = (sub(self, &c), sub(self, &a), sub(self, &b));
                self.ite(&c, &a, &b)
            }
            Node::Eq(a, b) => {
                let (a, b) = (sub(self, &a), sub(self, &b));
                self.eq(&a, &b)
            }
            Node::Bin(op, a, b) => {
                let (a, b) = (sub(self, &a), sub(self, &b));
                self.bin(op, &a, &b)
            }
            Node::Neg(a) => {
                let a = sub(self, &a);
                self.neg(&a)
            }
            Node::Cmp(op, a, b) => {
                let (a, b) = (sub(self, &a), sub(self, &b));
                self.cmp(op, &a, &b)
            }
            Node::SExt(n, a) => {
                let a = sub(self, &a);
                self.sext(n, &a)
            }
            Node::ZExt(n, a) => {
                let a = sub(self, &a);
                self.zext(n, &a)
            }
            Node::Extract(h, l, a) => {
                let a = sub(self, &a);
                self.extract(h, l, &a)
            }
            Node::Select(a, i) => {
                let (a, i) = (sub(self, &a), sub(self, &i));
                self.select(&a, &i)
            }
            Node::Store(a, i, v) => {
                let (a, i, v) = (sub(self, &a), sub(self, &i), sub(self, &v));
                self.store(&a, &i, &v)
            }
            Node::FpBin(op, a, b) => {
                let (a, b) = (sub(self, &a), sub(self, &b));
                self.fp(op, &a, &b)
            }
            Node::FpConv(c, to, a) => {
                let a = sub(self, &a);
                self.fp_conv(c, to, &a)
            }
        };
        memo.insert(t.id(), out.clone());
        out
    }
}
