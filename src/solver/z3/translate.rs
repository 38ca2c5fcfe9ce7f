//! Our terms as Z3 terms: each node translated once, comparisons lifted over if-then-else
//! operands, cardinality bounds, and reads below stores at constant indices as case splits.

use std::rc::Rc;

use z3::Sort as ZSort;
use z3::ast::{Array, Ast, BV, Bool, Dynamic};

use super::{Z3Solver, float};
use crate::term::{BvCmp, BvOp, Node, Sort, SymbolId, Term};

impl Z3Solver {
    pub(super) fn boolean(&mut self, t: &Term) -> Bool {
        self.tr(t).as_bool().unwrap_or_else(|| Bool::from_bool(false))
    }

    /// Translates a term (iteratively over the DAG, children first, each node once).
    pub(super) fn tr(&mut self, root: &Term) -> Dynamic {
        let mut stack: Vec<(Term, bool)> = vec![(root.clone(), false)];
        while let Some((t, expanded)) = stack.pop() {
            if self.cache.contains_key(&t.id()) {
                continue;
            }
            if !expanded {
                stack.push((t.clone(), true));
                for c in t.children() {
                    if !self.cache.contains_key(&c.id()) {
                        stack.push((c.clone(), false));
                    }
                }
                continue;
            }
            if let Node::Var(name, sort) = t.node() {
                self.first_sort.entry(name.clone()).or_insert(*sort);
            }
            let d = self.translate_node(&t);
            self.floats.0 |= matches!(t.node(), Node::FpBin(..) | Node::FpConv(..));
            if let Node::Var(name, sort @ (Sort::Bool | Sort::Bv(_))) = t.node() {
                let z3_name = self.z3_name(name, *sort);
                self.renamed |= *z3_name != **name;
                self.var_index.insert(z3_name, self.vars.len());
                self.vars.push((t.clone(), d.clone()));
            }
            self.cache.insert(t.id(), d);
        }
        self.cache.get(&root.id()).cloned().unwrap_or_else(|| Dynamic::from_ast(&Bool::from_bool(false)))
    }

    /// The name in Z3 of our symbol `name` of sort `sort`: the name itself for the first
    /// sort it was translated with, else the name with the sort appended. Z3 keeps constants
    /// of one name and different sorts apart, but a model names them alike, and the model
    /// of one query must not read another query's symbol (a field `value` of an `Integer`
    /// in one trace, of a map entry in the next).
    fn z3_name(&self, name: &SymbolId, sort: Sort) -> Rc<str> {
        match self.first_sort.get(name) {
            Some(first) if *first != sort => Rc::from(format!("{name}#{sort:?}")),
            _ => name.shared_name(),
        }
    }

    fn get(&self, t: &Term) -> Dynamic {
        self.cache.get(&t.id()).cloned().unwrap_or_else(|| Dynamic::from_ast(&Bool::from_bool(false)))
    }
    pub(super) fn gb(&self, t: &Term) -> Bool {
        self.get(t).as_bool().unwrap_or_else(|| Bool::from_bool(false))
    }
    fn gv(&self, t: &Term) -> BV {
        self.get(t).as_bv().unwrap_or_else(|| BV::from_u64(0, t.width().max(1)))
    }

    fn translate_node(&self, t: &Term) -> Dynamic {
        let d = |a: &dyn Ast| Dynamic::from_ast(a);
        match t.node() {
            Node::Bool(b) => d(&Bool::from_bool(*b)),
            Node::Bv(w, v) => d(&BV::from_u64(*v, *w)),
            Node::Var(name, sort) => {
                let name = self.z3_name(name, *sort);
                match sort {
                    Sort::Bool => d(&Bool::new_const(name.as_ref())),
                    Sort::Bv(w) => d(&BV::new_const(name.as_ref(), *w)),
                    Sort::Array(iw, vw) => {
                        d(&Array::new_const(name.as_ref(), &ZSort::bitvector(*iw), &ZSort::bitvector(*vw)))
                    }
                }
            }
            Node::Not(a) => d(&self.gb(a).not()),
            Node::And(xs) => d(&Bool::and(&xs.iter().map(|x| self.gb(x)).collect::<Vec<_>>())),
            Node::Or(xs) => d(&Bool::or(&xs.iter().map(|x| self.gb(x)).collect::<Vec<_>>())),
            Node::Ite(c, a, b) => self.gb(c).ite(&self.get(a), &self.get(b)),
            Node::Eq(a, b) if a.width() > 0 => d(&self.lifted(a, b, &mut |x, y| x.eq(y))),
            Node::Eq(a, b) => d(&self.get(a).eq(self.get(b))),
            Node::Bin(op, a, b) => {
                let (x, y) = (self.gv(a), self.gv(b));
                d(&match op {
                    BvOp::Add => x.bvadd(&y),
                    BvOp::Sub => x.bvsub(&y),
                    BvOp::Mul => x.bvmul(&y),
                    BvOp::SDiv => x.bvsdiv(&y),
                    BvOp::SRem => x.bvsrem(&y),
                    BvOp::Shl => x.bvshl(&y),
                    BvOp::LShr => x.bvlshr(&y),
                    BvOp::AShr => x.bvashr(&y),
                    BvOp::And => x.bvand(&y),
                    BvOp::Or => x.bvor(&y),
                    BvOp::Xor => x.bvxor(&y),
                })
            }
            Node::Neg(a) => d(&self.gv(a).bvneg()),
            Node::Cmp(BvCmp::Ule, a, b) if let Some(pb) = self.cardinality(a, b) => d(&pb),
            Node::Cmp(op, a, b) => d(&self.lifted(a, b, &mut |x, y| match op {
                BvCmp::Slt => x.bvslt(y),
                BvCmp::Sle => x.bvsle(y),
                BvCmp::Ult => x.bvult(y),
                BvCmp::Ule => x.bvule(y),
            })),
            Node::SExt(by, a) => d(&self.gv(a).sign_ext(*by)),
            Node::ZExt(by, a) => d(&self.gv(a).zero_ext(*by)),
            Node::Extract(hi, lo, a) => d(&self.gv(a).extract(*hi, *lo)),
            Node::Select(arr, i) => self.select(arr, i, t.width()),
            Node::Store(arr, i, v) => match self.get(arr).as_array() {
                Some(arr) => d(&arr.store(&self.gv(i), &self.gv(v))),
                None => self.get(arr),
            },
            Node::FpBin(op, a, b) => {
                float::binary(*op, &self.gv(a), &self.gv(b)).unwrap_or_else(|| d(&Bool::from_bool(false)))
            }
            Node::FpConv(c, to, a) => d(&float::convert(*c, *to, &self.gv(a)).unwrap_or_else(|| BV::from_u64(0, *to))),
        }
    }
}

/// How many leaves a comparison lifted over if-then-else operands may have.
const LIFT_LEAVES: usize = 64;

impl Z3Solver {
    /// `sum <=u k` where `sum` adds constants and `ite(b, 1, 0)` terms that cannot overflow
    /// its width: a cardinality constraint on the `b`s (uber's scope bound), which Z3 keeps
    /// as one instead of bit-blasting the adders.
    pub(super) fn cardinality(&self, sum: &Term, k: &Term) -> Option<Bool> {
        let Node::Bv(w, k) = k.node() else { return None };
        let mut bits = Vec::new();
        let mut constant: u64 = 0;
        let mut stack = vec![sum];
        while let Some(x) = stack.pop() {
            match x.node() {
                Node::Bin(BvOp::Add, a, b) => stack.extend([a, b]),
                Node::Bv(_, v) => constant = constant.checked_add(*v)?,
                Node::Ite(c, one, zero) if one.as_i64() == Some(1) && zero.as_i64() == Some(0) => bits.push(self.gb(c)),
                _ => return None,
            }
        }
        let n = bits.len() as u64;
        if bits.len() < 2 || *w >= 63 || constant.checked_add(n)? >= 1u64 << w {
            return None;
        }
        let room = i32::try_from(k.checked_sub(constant)?).ok()?;
        let weighted: Vec<(&Bool, i32)> = bits.iter().map(|b| (b, 1)).collect();
        Some(Bool::pb_le(&weighted, room))
    }

    /// `cmp(a, b)` with the if-then-else structure of bit-vector operands lifted out of the
    /// comparison: `ite(c, x, y) <= k` becomes `ite(c, x <= k, y <= k)`. A value read through a
    /// reference with several locations is such an if-then-else over the locations' fields;
    /// lifted, its comparisons are atoms over the fields themselves, which the queries of a
    /// path share (Z3 hash-conses them), instead of one 32-bit multiplexer and comparator per
    /// read. Only while the lifted form has at most [`LIFT_LEAVES`] comparisons.
    fn lifted(&self, a: &Term, b: &Term, cmp: &mut dyn FnMut(&BV, &BV) -> Bool) -> Bool {
        /// The leaves of `t`'s if-then-else tree, counted only up to just over `cap`: the
        /// tree of a DAG that shares subterms can be exponentially larger than the DAG.
        fn leaves(t: &Term, cap: usize) -> usize {
            match t.node() {
                Node::Ite(_, x, y) => {
                    let l = leaves(x, cap);
                    if l > cap { l } else { l + leaves(y, cap - l) }
                }
                _ => 1,
            }
        }
        if !self.lift || leaves(a, LIFT_LEAVES).saturating_mul(leaves(b, LIFT_LEAVES)) > LIFT_LEAVES {
            return cmp(&self.gv(a), &self.gv(b));
        }
        self.lift(a, b, cmp)
    }

    fn lift(&self, a: &Term, b: &Term, cmp: &mut dyn FnMut(&BV, &BV) -> Bool) -> Bool {
        if let Node::Ite(c, x, y) = a.node() {
            let (l, r) = (self.lift(x, b, cmp), self.lift(y, b, cmp));
            return self.gb(c).ite(&l, &r);
        }
        if let Node::Ite(c, x, y) = b.node() {
            let (l, r) = (self.lift(a, x, cmp), self.lift(a, y, cmp));
            return self.gb(c).ite(&l, &r);
        }
        cmp(&self.gv(a), &self.gv(b))
    }

    /// `arr[i]`. Below stores at constant indices (the heap summaries), the read is the
    /// if-then-else over those stores, newest first: Z3 then sees the case split the
    /// stores stand for instead of reasoning in the theory of arrays.
    fn select(&self, arr: &Term, i: &Term, width: u32) -> Dynamic {
        let mut stores = Vec::new();
        let mut base = arr;
        while let Node::Store(below, j, v) = base.node() {
            if j.as_i64().is_none() {
                break;
            }
            stores.push((j, v));
            base = below;
        }
        let idx = self.gv(i);
        let mut out = match self.get(base).as_array() {
            Some(a) => a.select(&idx),
            None => Dynamic::from_ast(&BV::from_u64(0, width.max(1))),
        };
        for (j, v) in stores.into_iter().rev() {
            out = idx.eq(self.gv(j)).ite(&self.get(v), &out);
        }
        out
    }
}
