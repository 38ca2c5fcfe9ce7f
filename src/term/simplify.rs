//! Term constructors that fold constants and normalize boolean structure as they build.

use super::{BvCmp, BvOp, Node, Sort, Term, TermPool, mask, sign_extend};

impl TermPool {
    pub fn not(&mut self, a: &Term) -> Term {
        match a.node() {
            Node::Bool(b) => self.bool(!b),
            Node::Not(x) => x.clone(),
            _ => self.intern(Node::Not(a.clone()), Sort::Bool),
        }
    }

    /// n-ary conjunction: flattens, drops `true`, detects `false`, `x ∧ ¬x` and
    /// `v = k1 ∧ v = k2` with distinct constants.
    pub fn and(&mut self, parts: &[Term]) -> Term {
        let mut flat: Vec<Term> = Vec::with_capacity(parts.len());
        for p in parts {
            match p.node() {
                Node::Bool(true) => {}
                Node::Bool(false) => return self.fls(),
                Node::And(xs) => flat.extend(xs.iter().cloned()),
                _ => flat.push(p.clone()),
            }
        }
        flat.sort();
        flat.dedup();
        if conflicting(&flat) {
            return self.fls();
        }
        match flat.len() {
            0 => self.tru(),
            1 => flat.swap_remove(0),
            _ => self.intern(Node::And(flat), Sort::Bool),
        }
    }

    /// n-ary disjunction: flattens, drops `false`, detects `true` and `x ∨ ¬x`.
    pub fn or(&mut self, parts: &[Term]) -> Term {
        let mut flat: Vec<Term> = Vec::with_capacity(parts.len());
        for p in parts {
            match p.node() {
                Node::Bool(false) => {}
                Node::Bool(true) => return self.tru(),
                Node::Or(xs) => flat.extend(xs.iter().cloned()),
                _ => flat.push(p.clone()),
            }
        }
        flat.sort();
        flat.dedup();
        if flat.iter().any(|x| matches!(x.node(), Node::Not(y) if flat.binary_search(y).is_ok())) {
            return self.tru();
        }
        match flat.len() {
            0 => self.fls(),
            1 => flat.swap_remove(0),
            _ => self.intern(Node::Or(flat), Sort::Bool),
        }
    }

    pub fn and2(&mut self, a: &Term, b: &Term) -> Term {
        self.and(&[a.clone(), b.clone()])
    }
    pub fn or2(&mut self, a: &Term, b: &Term) -> Term {
        self.or(&[a.clone(), b.clone()])
    }
    pub fn implies(&mut self, a: &Term, b: &Term) -> Term {
        let na = self.not(a);
        self.or2(&na, b)
    }

    /// If-then-else over any sort.
    pub fn ite(&mut self, c: &Term, t: &Term, e: &Term) -> Term {
        if let Some(b) = c.as_bool() {
            return if b { t.clone() } else { e.clone() };
        }
        if t == e {
            return t.clone();
        }
        if let Node::Not(inner) = c.node() {
            let inner = inner.clone();
            return self.ite(&inner, e, t);
        }
        if t.sort() == Sort::Bool {
            match (t.as_bool(), e.as_bool()) {
                (Some(true), Some(false)) => return c.clone(),
                (Some(false), Some(true)) => return self.not(c),
                (Some(true), None) => return self.or2(c, e),
                (Some(false), None) => {
                    let nc = self.not(c);
                    return self.and2(&nc, e);
                }
                (None, Some(false)) => return self.and2(c, t),
                (None, Some(true)) => return self.implies(c, t),
                _ => {}
            }
        }
        // ite(c, ite(c, a, b), e) = ite(c, a, e) and the mirror case.
        if let Node::Ite(c2, a, _) = t.node()
            && c2 == c
        {
            let a = a.clone();
            return self.ite(c, &a, e);
        }
        if let Node::Ite(c2, _, b) = e.node()
            && c2 == c
        {
            let b = b.clone();
            return self.ite(c, t, &b);
        }
        let sort = t.sort();
        self.intern(Node::Ite(c.clone(), t.clone(), e.clone()), sort)
    }

    /// Equality of two terms of the same sort.
    pub fn eq(&mut self, a: &Term, b: &Term) -> Term {
        if a == b {
            return self.tru();
        }
        match (a.node(), b.node()) {
            (Node::Bv(_, x), Node::Bv(_, y)) => return self.bool(x == y),
            (Node::Bool(x), Node::Bool(y)) => return self.bool(x == y),
            (Node::Bool(true), _) => return b.clone(),
            (_, Node::Bool(true)) => return a.clone(),
            (Node::Bool(false), _) => return self.not(b),
            (_, Node::Bool(false)) => return self.not(a),
            // ite(c, k1, k2) = k with constants: decide per branch.
            (Node::Ite(c, x, y), Node::Bv(..)) if x.as_i64().is_some() && y.as_i64().is_some() => {
                let (c, x, y) = (c.clone(), x.clone(), y.clone());
                let ex = self.eq(&x, b);
                let ey = self.eq(&y, b);
                return self.ite(&c, &ex, &ey);
            }
            (Node::Bv(..), Node::Ite(..)) => return self.eq(b, a),
            _ => {}
        }
        if let Some(e) = self.eq_offsets(a, b) {
            return e;
        }
        let (a, b) = if a.id() <= b.id() { (a, b) } else { (b, a) };
        self.intern(Node::Eq(a.clone(), b.clone()), Sort::Bool)
    }

    /// An equality of two bit-vectors each a term plus a constant, moved to one side (exact
    /// under wrap-around): `x - 1 == x` is false, `x - 1 == -1` is `x == 0`, `x + 2 == y + 2`
    /// is `x == y`. `None` when neither side has an offset.
    fn eq_offsets(&mut self, a: &Term, b: &Term) -> Option<Term> {
        let Sort::Bv(w) = a.sort() else { return None };
        let ((x, j), (y, k)) = (offset_form(a), offset_form(b));
        if j == 0 && k == 0 {
            return None;
        }
        match (x, y) {
            (Some(x), Some(y)) if x == y => Some(self.bool(mask(j, w) == mask(k, w))),
            (Some(x), Some(y)) if mask(j, w) == mask(k, w) => Some(self.eq(&x, &y)),
            (Some(x), None) if j != 0 => {
                let c = self.bv(w, k.wrapping_sub(j) as i64);
                Some(self.eq(&x, &c))
            }
            (None, Some(y)) if k != 0 => {
                let c = self.bv(w, j.wrapping_sub(k) as i64);
                Some(self.eq(&y, &c))
            }
            _ => None,
        }
    }

    pub fn ne(&mut self, a: &Term, b: &Term) -> Term {
        let e = self.eq(a, b);
        self.not(&e)
    }

    /// A binary bit-vector operation; constants fold with Java semantics.
    pub fn bin(&mut self, op: BvOp, a: &Term, b: &Term) -> Term {
        let w = a.width();
        if let (Node::Bv(_, x), Node::Bv(_, y)) = (a.node(), b.node())
            && let Some(v) = fold(op, *x, *y, w)
        {
            return self.bv(w, v as i64);
        }
        let zero_b = matches!(b.node(), Node::Bv(_, 0));
        let zero_a = matches!(a.node(), Node::Bv(_, 0));
        match op {
            BvOp::Add | BvOp::Or | BvOp::Xor if zero_b => return a.clone(),
            BvOp::Add | BvOp::Or | BvOp::Xor if zero_a => return b.clone(),
            BvOp::Sub | BvOp::Shl | BvOp::LShr | BvOp::AShr if zero_b => return a.clone(),
            BvOp::Mul | BvOp::And if zero_b => return b.clone(),
            BvOp::Mul | BvOp::And if zero_a => return a.clone(),
            _ => {}
        }
        self.intern(Node::Bin(op, a.clone(), b.clone()), Sort::Bv(w))
    }

    pub fn neg(&mut self, a: &Term) -> Term {
        let w = a.width();
        match a.node() {
            Node::Bv(_, x) => self.bv(w, (x.wrapping_neg()) as i64),
            _ => self.intern(Node::Neg(a.clone()), Sort::Bv(w)),
        }
    }

    /// A bit-vector comparison.
    pub fn cmp(&mut self, op: BvCmp, a: &Term, b: &Term) -> Term {
        if let (Node::Bv(w, x), Node::Bv(_, y)) = (a.node(), b.node()) {
            let (sx, sy) = (sign_extend(*x, *w), sign_extend(*y, *w));
            let r = match op {
                BvCmp::Slt => sx < sy,
                BvCmp::Sle => sx <= sy,
                BvCmp::Ult => x < y,
                BvCmp::Ule => x <= y,
            };
            return self.bool(r);
        }
        if a == b {
            return self.bool(matches!(op, BvCmp::Sle | BvCmp::Ule));
        }
        self.intern(Node::Cmp(op, a.clone(), b.clone()), Sort::Bool)
    }

    pub fn slt(&mut self, a: &Term, b: &Term) -> Term {
        self.cmp(BvCmp::Slt, a, b)
    }
    pub fn sle(&mut self, a: &Term, b: &Term) -> Term {
        self.cmp(BvCmp::Sle, a, b)
    }

    pub fn sext(&mut self, by: u32, a: &Term) -> Term {
        let w = a.width() + by;
        match a.node() {
            _ if by == 0 => a.clone(),
            Node::Bv(aw, x) => self.bv(w, sign_extend(*x, *aw)),
            _ => self.intern(Node::SExt(by, a.clone()), Sort::Bv(w)),
        }
    }

    pub fn zext(&mut self, by: u32, a: &Term) -> Term {
        let w = a.width() + by;
        match a.node() {
            _ if by == 0 => a.clone(),
            Node::Bv(_, x) => self.bv(w, *x as i64),
            _ => self.intern(Node::ZExt(by, a.clone()), Sort::Bv(w)),
        }
    }

    pub fn extract(&mut self, hi: u32, lo: u32, a: &Term) -> Term {
        let w = hi - lo + 1;
        match a.node() {
            _ if lo == 0 && hi + 1 == a.width() => a.clone(),
            Node::Bv(_, x) => self.bv(w, mask(x >> lo, w) as i64),
            // extract of a sign/zero extension back to the original width
            Node::SExt(_, inner) | Node::ZExt(_, inner) if lo == 0 && hi + 1 == inner.width() => inner.clone(),
            _ => self.intern(Node::Extract(hi, lo, a.clone()), Sort::Bv(w)),
        }
    }

    pub fn select(&mut self, arr: &Term, idx: &Term) -> Term {
        let vw = match arr.sort() {
            Sort::Array(_, v) => v,
            _ => 32,
        };
        if let Node::Store(base, i, v) = arr.node() {
            if i == idx {
                return v.clone();
            }
            if i.as_i64().is_some() && idx.as_i64().is_some() {
                let base = base.clone();
                return self.select(&base, idx);
            }
        }
        self.intern(Node::Select(arr.clone(), idx.clone()), Sort::Bv(vw))
    }

    pub fn store(&mut self, arr: &Term, idx: &Term, val: &Term) -> Term {
        let sort = arr.sort();
        self.intern(Node::Store(arr.clone(), idx.clone(), val.clone()), sort)
    }
}

/// Whether a sorted, deduplicated conjunction is trivially contradictory.
fn conflicting(flat: &[Term]) -> bool {
    let mut eqs: Vec<(&Term, u64)> = Vec::new();
    for x in flat {
        match x.node() {
            Node::Not(y) if flat.binary_search(y).is_ok() => return true,
            Node::Eq(a, b) => {
                let pair = match (a.node(), b.node()) {
                    (Node::Var(..), Node::Bv(_, k)) => Some((a, *k)),
                    (Node::Bv(_, k), Node::Var(..)) => Some((b, *k)),
                    _ => None,
                };
                if let Some((v, k)) = pair {
                    if eqs.iter().any(|(v2, k2)| *v2 == v && *k2 != k) {
                        return true;
                    }
                    eqs.push((v, k));
                }
            }
            _ => {}
        }
    }
    // `v = k` together with `¬(v = k)` is caught above; `v = k1 ∧ ¬(v = k2)` is fine.
    false
}

/// Folds a binary operation on constants with Java semantics; `None` for division by zero.
pub(super) fn fold(op: BvOp, x: u64, y: u64, w: u32) -> Option<u64> {
    let sx = sign_extend(x, w);
    let sy = sign_extend(y, w);
    let sh = (y & u64::from(w - 1)) as u32;
    let r = match op {
        BvOp::Add => x.wrapping_add(y),
        BvOp::Sub => x.wrapping_sub(y),
        BvOp::Mul => x.wrapping_mul(y),
        BvOp::SDiv => {
            if sy == 0 {
                return None;
            }
            if w == 32 { (sx as i32).wrapping_div(sy as i32) as i64 as u64 } else { sx.wrapping_div(sy) as u64 }
        }
        BvOp::SRem => {
            if sy == 0 {
                return None;
            }
            if w == 32 { (sx as i32).wrapping_rem(sy as i32) as i64 as u64 } else { sx.wrapping_rem(sy) as u64 }
        }
        // Shift distances are masked by the machine before they get here; mask again so a
        // folded constant always agrees with the JVM.
        BvOp::Shl => x << sh,
        BvOp::LShr => mask(x, w) >> sh,
        BvOp::AShr => (sx >> sh) as u64,
        BvOp::And => x & y,
        BvOp::Or => x | y,
        BvOp::Xor => x ^ y,
    };
    Some(mask(r, w))
}

/// `t` as a term plus a constant offset (`None`: `t` is the constant): `(x - 1) - 1` is `x`
/// and `-2` (modulo the width).
fn offset_form(t: &Term) -> (Option<Term>, u64) {
    let raw = |k: &Term| match k.node() {
        Node::Bv(_, c) => Some(*c),
        _ => None,
    };
    let mut t = t.clone();
    let mut off = 0u64;
    loop {
        let (next, c) = match t.node() {
            Node::Bv(_, c) => return (None, off.wrapping_add(*c)),
            Node::Bin(BvOp::Add, x, k) | Node::Bin(BvOp::Add, k, x) if let Some(c) = raw(k) => (x.clone(), c),
            Node::Bin(BvOp::Sub, x, k) if let Some(c) = raw(k) => (x.clone(), c.wrapping_neg()),
            _ => return (Some(t), off),
        };
        off = off.wrapping_add(c);
        t = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{Assignment, Val};

    #[test]
    fn equalities_of_offsets_fold_and_keep_their_meaning() {
        let mut p = TermPool::default();
        let (x, y) = (p.var("x", Sort::Bv(8)), p.var("y", Sort::Bv(8)));
        let [zero, one, two] = [0, 1, 2].map(|k| p.bv(8, k));
        let x1 = p.bin(BvOp::Sub, &x, &one);
        let x2 = p.bin(BvOp::Sub, &x1, &one);
        // AATree's `L1.level == L1.level - 1`, BinomialHeap's `-1 == L1.degree - 1`.
        assert!(p.eq(&x1, &x).is_false());
        let minus1 = p.bv(8, -1);
        assert_eq!(p.eq(&minus1, &x1), p.eq(&x, &zero));
        let (y2, xp2) = (p.bin(BvOp::Add, &y, &two), p.bin(BvOp::Add, &two, &x));
        assert_eq!(p.eq(&xp2, &y2), p.eq(&x, &y));
        // Exact under wrap-around: each folded form means what it says, for every `x`.
        for (j, c) in [(-2i64, 254u64), (1, 0), (127, 128), (-128, 127), (3, 3)] {
            let k = p.bv(8, j);
            let shifted = p.bin(BvOp::Add, &x, &k);
            let target = p.bv(8, c as i64);
            let (e1, e2, e3) = (p.eq(&shifted, &target), p.eq(&target, &shifted), p.eq(&shifted, &x2));
            for v in 0..256u64 {
                let mut m = Assignment::default();
                m.values.insert("x".into(), Val::Bv(v));
                let sv = v.wrapping_add(j as u64) & 0xff;
                assert_eq!(m.eval_bool(&e1), Some(sv == c), "x + {j} == {c} at x = {v}");
                assert_eq!(m.eval_bool(&e2), Some(sv == c));
                assert_eq!(m.eval_bool(&e3), Some(sv == v.wrapping_sub(2) & 0xff));
            }
        }
    }
}
