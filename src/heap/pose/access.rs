//! POSE reads and writes through a reference term, merged over the objects it may denote.

use std::rc::Rc;

use super::chain::{chain, ite_value};
use super::state::{Alloc, Key, Leaf, Pose, PoseHeap, internal};
use crate::Result;
use crate::heap::{Alt, Ctx, Cut, Value, with_cut};
use crate::term::Term;

impl Pose {
    /// Initializes `key` of symbol leaf `i` (one of several targets), collecting the read's
    /// constraints and `--max-objects` cut.
    fn init_leaf(
        cx: &mut Ctx<'_>,
        h: PoseHeap,
        i: usize,
        key: Key,
        assume: &mut Vec<Term>,
        cuts: &mut Vec<Cut>,
    ) -> Result<PoseHeap> {
        let (h, _, mut a, c) = Pose::read(cx, h, i, key)?;
        assume.append(&mut a);
        cuts.extend(c);
        Ok(h)
    }

    /// Reads `key` through every leaf of `r`. Through one leaf, the value is that object's;
    /// through several, the symbol leaves are initialized and the value is the flat chain of
    /// the key's log applied to `r`, under tests `r == A` of the allocated leaves.
    pub(super) fn read_ref(
        cx: &mut Ctx<'_>,
        heap: &PoseHeap,
        r: &Term,
        key: Key,
        alloc_read: impl Fn(&mut Ctx<'_>, &Alloc) -> Result<Value<Term>>,
    ) -> Result<Vec<Alt<PoseHeap, Value<Term>>>> {
        if heap.pointwise {
            return Pose::read_pointwise(cx, heap, r, key, &alloc_read);
        }
        let leaves: Vec<(Term, Leaf)> = heap.leaves(cx, r)?.into_iter().filter(|(_, l)| *l != Leaf::Null).collect();
        let mut h = heap.clone();
        if let [(_, leaf)] = leaves.as_slice() {
            return Ok(match *leaf {
                Leaf::Alloc(a) => {
                    let v = alloc_read(cx, h.allocs.get(a).ok_or_else(|| internal("unknown allocation"))?)?;
                    vec![Alt::plain(h, v)]
                }
                Leaf::Sym(i) => {
                    let (h, v, assume, cut) = Pose::read(cx, h, i, key)?;
                    with_cut(cx, h, assume, cut, v)
                }
                Leaf::Null => return Err(internal("a read through null")),
            });
        }
        let mut assume = Vec::new();
        let mut cuts = Vec::new();
        let mut allocs = Vec::new();
        let mut syms = false;
        for (g, leaf) in leaves {
            match leaf {
                Leaf::Null => {}
                Leaf::Alloc(a) => {
                    allocs.push((g, alloc_read(cx, h.allocs.get(a).ok_or_else(|| internal("unknown allocation"))?)?))
                }
                Leaf::Sym(i) => {
                    h = Pose::init_leaf(cx, h, i, key, &mut assume, &mut cuts)?;
                    syms = true;
                }
            }
        }
        let mut v = match (syms, h.logs.get(&key)) {
            (true, Some(log)) => chain(cx, log, r, None)?,
            _ => None,
        };
        for (g, x) in allocs.into_iter().rev() {
            v = Some(match v {
                Some(v) => ite_value(cx, &g, &x, &v)?,
                None => x,
            });
        }
        let Some(v) = v else { return Err(internal("a read through null")) };
        let cut = Cut::any(cx, &cuts);
        Ok(with_cut(cx, h, assume, cut, v))
    }

    /// Writes through every leaf of `r` (unconditionally when there is only one). Symbol
    /// leaves are initialized first; then every symbol holding `key` gets
    /// `ite(r == Y, v, Y.key)`, which covers the leaves and all their aliases at once.
    pub(super) fn write_ref(
        cx: &mut Ctx<'_>,
        heap: &PoseHeap,
        r: &Term,
        key: Key,
        v: &Value<Term>,
        alloc_write: impl Fn(&mut Ctx<'_>, &mut Alloc, Option<&Term>, &Value<Term>) -> Result<()>,
    ) -> Result<Vec<Alt<PoseHeap, ()>>> {
        let leaves: Vec<(Term, Leaf)> = heap.leaves(cx, r)?.into_iter().filter(|(_, l)| *l != Leaf::Null).collect();
        let single = leaves.len() == 1;
        let mut h = heap.clone();
        let mut assume = Vec::new();
        let mut cuts = Vec::new();
        let mut sym_leaves = Vec::new();
        for (g, leaf) in leaves {
            match leaf {
                Leaf::Null => {}
                Leaf::Alloc(a) => {
                    let obj = h.allocs.get_mut(a).ok_or_else(|| internal("unknown allocation"))?;
                    alloc_write(cx, obj, (!single).then_some(&g), v)?;
                }
                Leaf::Sym(i) if single => sym_leaves.push(i),
                Leaf::Sym(i) => {
                    h = Pose::init_leaf(cx, h, i, key, &mut assume, &mut cuts)?;
                    sym_leaves.push(i);
                }
            }
        }
        if let Some(&first) = sym_leaves.first() {
            let target = if single { h.syms[first].var.clone() } else { r.clone() };
            h.logs.entry(key).or_default().writes.push((None, target, v.clone()));
            for j in 0..h.syms.len() {
                let leaf = sym_leaves.contains(&j);
                let new = if single && leaf {
                    v.clone()
                } else {
                    if !leaf && !Pose::may_have(cx, &h.syms[j], key) {
                        continue;
                    }
                    let Some(old) = h.syms[j].fields.get(&key) else { continue };
                    let old = old.clone();
                    let c = cx.terms.eq(r, &h.syms[j].var);
                    ite_value(cx, &c, v, &old)?
                };
                Rc::make_mut(&mut h.syms[j]).fields.insert(key, new);
            }
        }
        let cut = Cut::any(cx, &cuts);
        Ok(with_cut(cx, h, assume, cut, ()))
    }
}
