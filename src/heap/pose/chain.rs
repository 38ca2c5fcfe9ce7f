//! POSE's field values as flat chains over the symbols' initializations and writes.

use crate::classfile::JType;
use crate::heap::{Ctx, ObjKind, Value};
use crate::term::Term;
use crate::{Error, Result};

/// What happened to one key of the symbols' objects. The value of `x.key` for a reference
/// `x` equal to some symbol is `W(F0(x))`: `F0` tests the initialized symbols in order and
/// yields the fresh value of the first equal one; each write `W` is `ite(g && x == r, v, _)`.
/// Equal symbols denote the same object, so the first equal symbol's fresh value is the
/// object's initial value, and the chain has one test per initialization or write instead
/// of nesting every alias's own chain.
#[derive(Debug, Clone, Default)]
pub struct KeyLog {
    pub inits: Vec<(Term, Value<Term>)>,
    pub writes: Vec<(Option<Term>, Term, Value<Term>)>,
}

/// The only class an object of type `ty` can have: a concrete class without loaded subclasses.
pub(super) fn sole_kind(cx: &Ctx<'_>, ty: &JType) -> Option<ObjKind> {
    let JType::Class(name) = ty else { return None };
    let c = cx.table.lookup(name)?;
    let class = cx.table.class(c);
    let alone = !class.is_interface() && !class.is_abstract() && cx.table.loaded_subclasses(c) == [c];
    alone.then_some(ObjKind::Class(c))
}

/// `W(F0(x))` of a key's log (see [`KeyLog`]); `default` is the value when `x` equals no
/// initialized symbol (without one, `x` must equal one: the last initialization is not tested).
pub(super) fn chain(
    cx: &mut Ctx<'_>,
    log: &KeyLog,
    x: &Term,
    default: Option<&Value<Term>>,
) -> Result<Option<Value<Term>>> {
    let (tests, mut v) = match (default, log.inits.split_last()) {
        (Some(d), _) => (&log.inits[..], Some(d.clone())),
        (None, Some(((_, z), rest))) => (rest, Some(z.clone())),
        (None, None) => (&log.inits[..], None),
    };
    for (y, z) in tests.iter().rev() {
        let c = cx.terms.eq(x, y);
        v = Some(match v {
            Some(v) => ite_value(cx, &c, z, &v)?,
            None => z.clone(),
        });
    }
    for (g, t, w) in &log.writes {
        let e = cx.terms.eq(x, t);
        let c = match g {
            Some(g) => cx.terms.and2(g, &e),
            None => e,
        };
        v = Some(match v {
            Some(v) => ite_value(cx, &c, w, &v)?,
            None => w.clone(),
        });
    }
    Ok(v)
}

/// `c ? a : b` over values of the same kind.
pub(super) fn ite_value(cx: &mut Ctx<'_>, c: &Term, a: &Value<Term>, b: &Value<Term>) -> Result<Value<Term>> {
    Ok(match (a, b) {
        (Value::Int(x), Value::Int(y)) => Value::Int(cx.terms.ite(c, x, y)),
        (Value::Long(x), Value::Long(y)) => Value::Long(cx.terms.ite(c, x, y)),
        (Value::Ref(x), Value::Ref(y)) => Value::Ref(cx.terms.ite(c, x, y)),
        _ => return Err(Error::Usage("internal error in the POSE heap: mixed value kinds".into())),
    })
}
