//! Value sets and guarded updates of the uber heap: how values read or written through a
//! reference with several locations are combined into one value.

use super::state::{LocId, RefId, RefNode, Target, Uber, UberHeap, internal};
use crate::Result;
use crate::heap::{Ctx, Value};
use crate::term::Term;

/// The union of target lists in order of first occurrence, with a bit set of the targets
/// seen (by location number) so that it stays linear in the number of targets.
#[derive(Default)]
struct Union {
    list: Vec<Target>,
    seen: Vec<u64>,
}

impl Union {
    /// Adds the targets of `node`.
    fn add(&mut self, node: &RefNode) {
        for t in &node.targets {
            let n = match t {
                Target::Null => 0,
                Target::Loc(l) => l.0 as usize + 1,
            };
            let (word, bit) = (n / 64, 1u64 << (n % 64));
            if self.seen.len() <= word {
                self.seen.resize(word + 1, 0);
            }
            if let Some(w) = self.seen.get_mut(word)
                && *w & bit == 0
            {
                *w |= bit;
                self.list.push(*t);
            }
        }
    }
}

impl Uber {
    /// A guarded merge of two values: `g ? new : old` (ST of both for references: the new
    /// reference points where `new` does when `g` holds and where `old` does otherwise).
    /// The definition of a new pointer goes to `assume`.
    pub(super) fn blend(
        cx: &mut Ctx<'_>,
        heap: &mut UberHeap,
        assume: &mut Vec<Term>,
        g: &Term,
        new: &Value<RefId>,
        old: &Value<RefId>,
    ) -> Result<Value<RefId>> {
        Ok(match (new, old) {
            (Value::Int(a), Value::Int(b)) => Value::Int(cx.terms.ite(g, a, b)),
            (Value::Long(a), Value::Long(b)) => Value::Long(cx.terms.ite(g, a, b)),
            (Value::Ref(a), Value::Ref(b)) if a == b => Value::Ref(*a),
            (Value::Ref(a), Value::Ref(b)) => {
                let (na, nb) = (heap.node(*a)?, heap.node(*b)?);
                let def = cx.terms.ite(g, &na.ptr, &nb.ptr);
                let mut targets = Union::default();
                targets.add(na);
                targets.add(nb);
                let r = heap.define_ref(cx, assume, &def, &targets.list);
                Value::Ref(r)
            }
            _ => return Err(internal("a write of the wrong kind")),
        })
    }

    /// The value set of the references `sources` (read at each location of a reference),
    /// defined by `def` (a summary read): the one source if they are all the same, else a
    /// new reference whose targets are their union. The definition goes to `assume`.
    pub(super) fn value_set(
        cx: &mut Ctx<'_>,
        heap: &mut UberHeap,
        assume: &mut Vec<Term>,
        def: &Term,
        sources: &[(LocId, RefId)],
    ) -> Result<Value<RefId>> {
        let Some((_, first)) = sources.first() else { return Err(internal("an empty value set")) };
        if sources.iter().all(|(_, r)| r == first) {
            return Ok(Value::Ref(*first));
        }
        let mut targets = Union::default();
        for (_, r) in sources {
            targets.add(heap.node(*r)?);
        }
        let r = heap.define_ref(cx, assume, def, &targets.list);
        Ok(Value::Ref(r))
    }

    /// Combines guarded values: a value set for references (a new reference whose pointer
    /// is the if-then-else of the sources' pointers, its targets their union), an
    /// if-then-else chain for numbers. The last value is the default: the guards are
    /// exhaustive. The definition of a new pointer goes to `assume`.
    pub(super) fn combine(
        cx: &mut Ctx<'_>,
        heap: &mut UberHeap,
        assume: &mut Vec<Term>,
        vals: Vec<(Term, Value<RefId>)>,
    ) -> Result<Value<RefId>> {
        let mut it = vals.into_iter().rev();
        let Some((_, last)) = it.next() else { return Err(internal("empty combine")) };
        if let Value::Ref(last) = last {
            let mut targets = Union::default();
            targets.add(heap.node(last)?);
            let mut def = heap.node(last)?.ptr.clone();
            let mut same = true;
            for (g, x) in it {
                let Value::Ref(r) = x else { return Err(internal("mixed value kinds")) };
                same &= r == last;
                let node = heap.node(r)?;
                targets.add(node);
                def = cx.terms.ite(&g, &node.ptr, &def);
            }
            if same {
                return Ok(Value::Ref(last));
            }
            let r = heap.define_ref(cx, assume, &def, &targets.list);
            return Ok(Value::Ref(r));
        }
        let mut v = last;
        for (g, x) in it {
            v = match (&x, &v) {
                (Value::Int(a), Value::Int(b)) => Value::Int(cx.terms.ite(&g, a, b)),
                (Value::Long(a), Value::Long(b)) => Value::Long(cx.terms.ite(&g, a, b)),
                _ => return Err(internal("mixed value kinds")),
            };
        }
        Ok(v)
    }
}
