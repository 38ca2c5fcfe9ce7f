//! Lazy initialization in the uber heap: the one choice an input reference becomes, the new
//! input locations it offers, and the first read of an input location's field (which also
//! carries out the writes made to that field before anyone read it).

use std::collections::BTreeMap;
use std::rc::Rc;

use super::state::{Loc, LocId, NULL, PW, RefId, Target, UArray, Uber, UberHeap, number};
use super::summary::{COMPACT, one_of};
use crate::Result;
use crate::classfile::{FieldId, JType};
use crate::heap::objects::{PrimElems, elem_width, fresh_prim};
use crate::heap::{Ctx, ObjKind, Value, compatible, fresh_kinds};
use crate::term::{Sort, SymbolId, Term};

/// How many input locations lazy initialization may offer before it cuts: `--max-objects`
/// without a precondition. With one there is no such cap: the scope bounds the objects a
/// witness input has (the cardinality constraint [`UberHeap::within_scope`]), an offered
/// location that no pruning has ruled out yet is not an object, and no location is offered
/// once those that surely exist fill the scope ([`UberHeap::scope_full`]). A cap on the
/// offered locations would lose inputs within the scope: a path may offer (and rule out)
/// many candidates before it reads the last object a valid input needs.
fn candidate_cap(cx: &Ctx<'_>) -> Option<u32> {
    cx.config.precondition.is_none().then_some(cx.config.bounds.max_objects)
}

/// The result of lazily initializing an input reference.
pub(super) struct Init {
    pub(super) heap: UberHeap,
    pub(super) r: RefId,
    pub(super) assume: Vec<Term>,
    /// The guard of a fresh location `--max-objects` did not allow (cut when it holds).
    pub(super) cut: Option<Term>,
}

impl Uber {
    /// Lazy initialization (the uber rule): one new reference whose pointer is a fresh
    /// choice over null, every compatible input location, and a new input location of each
    /// fresh kind.
    /// `from` is the location whose field (or element) is initialized, none for parameters
    /// and statics.
    pub(super) fn init_ref(
        cx: &mut Ctx<'_>,
        heap: &UberHeap,
        ty: &JType,
        from: Option<LocId>,
        label: &str,
    ) -> Result<Init> {
        let parent = match from {
            Some(l) => heap.loc(l)?.exists.clone(),
            None => cx.terms.tru(),
        };
        let mut h = heap.clone();
        // With a precondition, when the objects that surely exist fill the scope, no other
        // one can exist: no new location, and no alias of one that cannot exist.
        let full = h.scope_full();
        let c = cx.terms.var(label, Sort::Bv(PW));
        let mut targets = vec![Target::Null];
        let mut numbers = vec![0];
        let mut assume = Vec::new();
        // The input locations so far that may alias `ty`.
        let mut candidates: Vec<LocId> = Vec::new();
        // Whether each kind of location may alias `ty` (a few kinds, many locations).
        let mut kinds: Vec<(&ObjKind, bool)> = Vec::new();
        for l in &h.inputs {
            let kind = &h.loc(*l)?.kind;
            let ok = match kinds.iter().find(|(k, _)| *k == kind) {
                Some((_, ok)) => *ok,
                None => {
                    let ok = compatible(cx.table, kind, ty);
                    kinds.push((kind, ok));
                    ok
                }
            };
            if ok {
                candidates.push(*l);
                targets.push(Target::Loc(*l));
                numbers.push(u64::from(l.0) + 1);
            }
        }
        // The choices that are not aliases: null, a new location, "beyond the bound".
        let zero = number(cx, Target::Null);
        let mut not_alias = vec![cx.terms.eq(&c, &zero)];
        let mut offered = Vec::new();
        let mut cut = None;
        let fresh = if full { Vec::new() } else { fresh_kinds(cx, ty) };
        for kind in fresh {
            if candidate_cap(cx).is_some_and(|cap| h.inputs.len() as u32 >= cap) {
                // One number beyond every location so far stands for "a new object the bound
                // did not allow"; choosing it cuts the trace.
                if cut.is_none() {
                    let n = h.locs.len() as i64 + 1;
                    let beyond = cx.terms.bv(PW, n);
                    let g = cx.terms.eq(&c, &beyond);
                    numbers.push(n as u64);
                    not_alias.push(g.clone());
                    h.beyond.push(g.clone());
                    cut = Some(g);
                }
                continue;
            }
            let target = Target::Loc(LocId(h.locs.len() as u32));
            let name = format!("L{}", h.locs.len());
            let k = number(cx, target);
            let g = cx.terms.eq(&c, &k);
            // `exists` is a named boolean defined once, so that the guards of deeper
            // locations stay constant-size instead of repeating the whole chain.
            let exists = cx.terms.var(&format!("{name}.exists"), Sort::Bool);
            let chain = cx.terms.and2(&parent, &g);
            assume.push(cx.terms.eq(&exists, &chain));
            let (mut loc, mut a) = Uber::input_loc(cx, kind, name, exists.clone());
            loc.choice = Some(c.clone());
            loc.from = from;
            assume.append(&mut a);
            let l = h.add_loc(loc)?;
            h.inputs.push(l);
            h.record_existence(cx, l, &exists);
            targets.push(target);
            offered.push(l);
            numbers.push(u64::from(l.0) + 1);
            not_alias.push(g);
        }
        // Aliasing a location requires it to exist. With many candidates this is one
        // constraint through the existence summary; with few, the plain implications
        // (which Z3 solves faster).
        if candidates.len() >= COMPACT
            && let Some(ex) = &heap.existence
        {
            let one = cx.terms.bv(8, 1);
            let bit = cx.terms.select(ex, &c);
            not_alias.push(cx.terms.eq(&bit, &one));
            assume.push(cx.terms.or(&not_alias));
        } else if !candidates.is_empty() {
            let mut each = Vec::with_capacity(candidates.len());
            for l in candidates {
                let k = number(cx, Target::Loc(l));
                let g = cx.terms.eq(&c, &k);
                each.push(cx.terms.implies(&g, &heap.loc(l)?.exists));
            }
            assume.push(cx.terms.and(&each));
        }
        Rc::make_mut(&mut h.pointers).insert(SymbolId::from(label));
        let r = h.add_ref(c.clone(), &targets);
        if let Some(n) = Rc::make_mut(&mut h.refs).get_mut(r.0 as usize) {
            Rc::make_mut(n).offered = offered;
        }
        let offered_any = h.refs.get(r.0 as usize).is_some_and(|n| !n.offered.is_empty());
        assume.push(one_of(cx, &c, &numbers));
        if offered_any {
            assume.extend(h.within_scope(cx));
        }
        Ok(Init { heap: h, r, assume, cut })
    }

    /// A new input location: fields uninitialized; arrays with symbolic length and contents.
    pub(super) fn input_loc(cx: &mut Ctx<'_>, kind: ObjKind, name: String, exists: Term) -> (Loc, Vec<Term>) {
        let mut assume = Vec::new();
        let array = match &kind {
            ObjKind::Array(e) => {
                let len = cx.terms.var(&format!("{name}.length"), Sort::Bv(32));
                let zero = cx.terms.int(0);
                assume.push(cx.terms.sle(&zero, &len));
                let max = cx.terms.int(cx.config.bounds.max_array_length.min(i32::MAX as u32) as i32);
                assume.push(cx.terms.sle(&len, &max));
                let prims = (!e.is_reference()).then(|| {
                    let w = elem_width(e);
                    PrimElems::new(Some(cx.terms.var(&format!("{name}[]"), Sort::Array(32, w))), w)
                });
                Some(UArray { len, prims, refs: BTreeMap::new(), initial_refs: BTreeMap::new() })
            }
            ObjKind::Class(_) => None,
        };
        (Loc::new(kind, true, name, exists, array), assume)
    }

    /// `R(l, f)`, lazily initializing an input location's field on first access.
    /// Returns the heap, the value, constraints and a cut guard.
    pub(super) fn field(
        cx: &mut Ctx<'_>,
        heap: UberHeap,
        l: LocId,
        f: FieldId,
    ) -> Result<(UberHeap, Value<RefId>, Vec<Term>, Option<Term>)> {
        let loc = heap.loc(l)?;
        if let Some(v) = loc.fields.get(&f).cloned() {
            return Ok((heap, v, Vec::new(), None));
        }
        let field = cx.table.field(f).clone();
        if !loc.input {
            return Ok((heap, crate::heap::objects::default_value(cx.terms, &field.ty, NULL), Vec::new(), None));
        }
        let label = crate::heap::field_symbol(cx.table, &loc.name, loc.kind.class(), f);
        let pending = loc.pending.get(&f).cloned().unwrap_or_default();
        let (mut h, v, mut assume, cut) = if field.ty.is_reference() {
            let init = Uber::init_ref(cx, &heap, &field.ty, Some(l), &label)?;
            (init.heap, Value::Ref(init.r), init.assume, init.cut)
        } else {
            let (v, a) = fresh_prim(cx.terms, &field.ty, &label);
            (heap, v, a, None)
        };
        h.loc_mut(l)?.initial.insert(f, v.clone());
        // The writes made through several locations before this first read, in order.
        let mut now = v;
        for (g, w) in &pending {
            now = Uber::blend(cx, &mut h, &mut assume, g, w, &now)?;
        }
        h.set_field(cx, l, f, now.clone())?;
        Ok((h, now, assume, cut))
    }
}

impl UberHeap {
    /// With a precondition, the scope bounds the objects that exist, not the candidates
    /// offered: at most `--max-objects` input locations exist (asserted whenever a new
    /// location is offered, so that the solver rules out bigger inputs at once).
    ///
    /// The count is a sum just wide enough for the number of input locations, compared
    /// unsigned (wider adders make Z3's proofs that no heap within the scope exists slower);
    /// Z3 gets it as a cardinality constraint on the `exists` flags
    /// (`Z3Solver::cardinality`), which it does not bit-blast.
    pub(super) fn within_scope(&self, cx: &mut Ctx<'_>) -> Option<Term> {
        cx.config.precondition.as_ref()?;
        let n = self.inputs.len() as u64;
        let max = u64::from(cx.config.bounds.max_objects);
        if n <= max {
            return None;
        }
        // n > max >= 0, so n >= 1 and both fit in w = bits(n) unsigned bits.
        let w = u64::BITS - n.leading_zeros();
        let (one, zero) = (cx.terms.bv(w, 1), cx.terms.bv(w, 0));
        let mut sum = zero.clone();
        for l in &self.inputs {
            if let Ok(loc) = self.loc(*l) {
                let bit = cx.terms.ite(&loc.exists, &one, &zero);
                sum = cx.terms.bin(crate::term::BvOp::Add, &sum, &bit);
            }
        }
        let max = cx.terms.bv(w, max as i64);
        Some(cx.terms.cmp(crate::term::BvCmp::Ule, &sum, &max))
    }
}
