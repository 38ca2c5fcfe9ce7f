//! POSE reads on a pointwise input view: one alternative per object a reference may denote.
//!
//! A P-search runs the precondition on the input view of a state (docs/preconditions.md).
//! POSE's own reads merge every object a reference may denote into one if-then-else value,
//! and a read of a field no symbol of that object has read yet makes a new symbol. On a
//! precondition that walks a structure the method left open, such as `repOK` counting the
//! nodes of a list whose last `next` may point back into it, every step of the walk then
//! makes one more symbol and one more level of if-then-else, and the proof that no valid
//! input exists grows with every step. Here a read forks instead, as lazy initialization
//! does: one side per target of the reference, and through a symbol whose field is unread,
//! one side per earlier symbol it may alias (it reads that object's value) and one for an
//! object of its own. The sides are disjoint and cover every input, so a search over them
//! finds a valid input exactly when one exists; a walk around a cycle of input objects then
//! reuses their symbols. A primitive field reads the same way: its merged value is an
//! if-then-else over whether the symbol is one of the earlier ones, and the precondition's
//! comparisons of such values (a search tree's key bounds) would leave Z3 to decide the
//! aliasing of the method's symbols in every check.

use std::rc::Rc;

use super::state::{ALLOC_BASE, Alloc, Key, Leaf, Pose, PoseHeap, internal};
use crate::Result;
use crate::heap::{Alt, Ctx, Value, with_cut};
use crate::term::Term;

impl Pose {
    /// `r.key` on a pointwise view: one alternative per non-null target of `r`, each with
    /// the guard that `r` denotes it and no earlier target.
    pub(super) fn read_pointwise(
        cx: &mut Ctx<'_>,
        heap: &PoseHeap,
        r: &Term,
        key: Key,
        alloc_read: &dyn Fn(&mut Ctx<'_>, &Alloc) -> Result<Value<Term>>,
    ) -> Result<Vec<Alt<PoseHeap, Value<Term>>>> {
        let leaves: Vec<(Term, Leaf)> = heap.leaves(cx, r)?.into_iter().filter(|(_, l)| *l != Leaf::Null).collect();
        let mut out = Vec::new();
        for (assume, leaf) in Pose::disjoint(cx, leaves, Vec::new()) {
            match leaf {
                Leaf::Null => {}
                Leaf::Alloc(a) => {
                    let v = alloc_read(cx, heap.allocs.get(a).ok_or_else(|| internal("unknown allocation"))?)?;
                    out.extend(Pose::split_value(cx, heap, assume, v)?);
                }
                Leaf::Sym(i) => out.extend(Pose::read_sym_pointwise(cx, heap.clone(), i, key, assume)?),
            }
        }
        Ok(out)
    }

    /// `Y.key` for symbol `i`: its value when read before; for an unread field (not array
    /// contents), the value of the first earlier symbol of the key's log that `Y` equals,
    /// one alternative each, or a new symbol when `Y` equals none of them.
    fn read_sym_pointwise(
        cx: &mut Ctx<'_>,
        heap: PoseHeap,
        i: usize,
        key: Key,
        assume: Vec<Term>,
    ) -> Result<Vec<Alt<PoseHeap, Value<Term>>>> {
        let s = heap.syms.get(i).ok_or_else(|| internal("unknown symbol"))?;
        if let Some(v) = s.fields.get(&key).cloned() {
            return Pose::split_value(cx, &heap, assume, v);
        }
        let y = s.var.clone();
        let by_alias =
            key != Key::Elems && heap.logs.get(&key).is_some_and(|log| log.writes.is_empty() && !log.inits.is_empty());
        if !by_alias {
            let (h, v, mut a, cut) = Pose::read(cx, heap, i, key)?;
            a.splice(0..0, assume);
            return Ok(with_cut(cx, h, a, cut, v));
        }
        let inits = heap.logs.get(&key).map(|log| log.inits.clone()).unwrap_or_default();
        let mut out = Vec::new();
        let mut unlike: Vec<Term> = Vec::new();
        for (x, z) in &inits {
            let eq = cx.terms.eq(&y, x);
            let mut a = assume.clone();
            a.extend(unlike.iter().cloned());
            a.push(eq.clone());
            unlike.push(cx.terms.not(&eq));
            // The object `Y` denotes holds `z` for `key`, as `x`'s read found it.
            let mut h = heap.clone();
            Pose::record(&mut h, i, key, z);
            out.push(Alt { heap: h, assume: a, value: z.clone(), cut: None });
        }
        // `Y` is none of them: its own fresh value, which the log's chain reduces to.
        let (mut h, _, mut a, cut) = Pose::read(cx, heap, i, key)?;
        let z = match h.syms.get(i).and_then(|s| s.initial.get(&key)) {
            Some((z, _)) => z.clone(),
            None => return Err(internal("a read that initialized nothing")),
        };
        if let Some(s) = h.syms.get_mut(i).map(Rc::make_mut) {
            s.fields.insert(key, z.clone());
        }
        let mut pre = assume;
        pre.extend(unlike);
        a.splice(0..0, pre);
        out.extend(with_cut(cx, h, a, cut, z));
        Ok(out)
    }

    /// Records that symbol `i` read `key` as `z`, which is also its initial value.
    fn record(h: &mut PoseHeap, i: usize, key: Key, z: &Value<Term>) {
        let Some(y) = h.syms.get(i).map(|s| s.var.clone()) else { return };
        h.logs.entry(key).or_default().inits.push((y, z.clone()));
        h.seq += 1;
        let seq = h.seq;
        if let Some(s) = h.syms.get_mut(i).map(Rc::make_mut) {
            s.fields.insert(key, z.clone());
            s.initial.insert(key, (z.clone(), seq));
        }
    }

    /// A read's value `v` under `assume`: a reference with several targets becomes one
    /// alternative per target (the guard that it denotes that target and no earlier one).
    fn split_value(
        cx: &mut Ctx<'_>,
        heap: &PoseHeap,
        assume: Vec<Term>,
        v: Value<Term>,
    ) -> Result<Vec<Alt<PoseHeap, Value<Term>>>> {
        let Value::Ref(r) = &v else { return Ok(vec![Alt { heap: heap.clone(), assume, value: v, cut: None }]) };
        let leaves = heap.leaves(cx, r)?;
        if leaves.len() < 2 {
            return Ok(vec![Alt { heap: heap.clone(), assume, value: v, cut: None }]);
        }
        let mut out = Vec::new();
        for (a, leaf) in Pose::disjoint(cx, leaves, assume) {
            let target = match leaf {
                Leaf::Null => cx.terms.int(0),
                Leaf::Sym(j) => heap.syms.get(j).map(|s| s.var.clone()).ok_or_else(|| internal("unknown symbol"))?,
                Leaf::Alloc(a) => cx.terms.int((ALLOC_BASE + a as i64) as i32),
            };
            out.push(Alt { heap: heap.clone(), assume: a, value: Value::Ref(target), cut: None });
        }
        Ok(out)
    }

    /// Each leaf with `assume` and the guard that the reference denotes it and no earlier
    /// leaf (no guard when there is only one).
    fn disjoint(cx: &mut Ctx<'_>, leaves: Vec<(Term, Leaf)>, assume: Vec<Term>) -> Vec<(Vec<Term>, Leaf)> {
        let single = leaves.len() == 1;
        let mut before: Vec<Term> = Vec::new();
        let mut out = Vec::new();
        for (g, leaf) in leaves {
            let mut a = assume.clone();
            a.extend(before.iter().map(|b| cx.terms.not(b)));
            if !single {
                a.push(g.clone());
            }
            before.push(g);
            out.push((a, leaf));
        }
        out
    }
}
