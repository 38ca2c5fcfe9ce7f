//! Value sets and guarded updates of the uber heap: how values read or written through a
//! reference with several locations are combined into one value.

use super::uber::{RefId, RefNode, Target, Uber, UberHeap, internal};
use super::{Ctx, Value};
use crate::Result;
use crate::term::Term;

/// Adds the targets of `node` to `acc`, keeping the first occurrence of each.
pub(super) fn union(acc: &mut Vec<Target>, node: &RefNode) {
    for (_, t) in &node.entries {
        if !acc.contains(t) {
            acc.push(*t);
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
                let mut targets = Vec::new();
                union(&mut targets, na);
                union(&mut targets, nb);
                let (r, eq) = heap.define_ref(cx, &def, &targets);
                assume.push(eq);
                Value::Ref(r)
            }
            _ => return Err(internal("a write of the wrong kind")),
        })
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
            let mut targets = Vec::new();
            union(&mut targets, heap.node(last)?);
            let mut def = heap.node(last)?.ptr.clone();
            let mut same = true;
            for (g, x) in it {
                let Value::Ref(r) = x else { return Err(internal("mixed value kinds")) };
                same &= r == last;
                let node = heap.node(r)?;
                union(&mut targets, node);
                def = cx.terms.ite(&g, &node.ptr, &def);
            }
            if same {
                return Ok(Value::Ref(last));
            }
            let (r, eq) = heap.define_ref(cx, &def, &targets);
            assume.push(eq);
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
