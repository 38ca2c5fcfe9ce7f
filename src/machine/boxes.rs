//! The models of the boxes' `equals` and `compareTo` (`Integer`, `Long`, ...) on symbolic
//! values: what makes boxed keys of a map equal, hashed and ordered as the JVM does.

use super::Machine;
use super::state::{Next, State};
use crate::classfile::JType;
use crate::heap::{HeapStrategy, Value};
use crate::ir::LocalId;
use crate::solver::Solver;
use crate::term::{BvCmp, Term};
use crate::{Error, Result};

impl<H: HeapStrategy, S: Solver> Machine<'_, H, S> {
    /// `box.equals(other)`: 1 when `other` is a non-null box of `class` with the same value.
    pub(super) fn box_equals(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        class: &str,
        args: &[Value<H::Ref>],
    ) -> Result<Vec<Next<H>>> {
        let (Some(Value::Ref(a)), Some(Value::Ref(b))) = (args.first().cloned(), args.get(1).cloned()) else {
            return Err(self.fault(&st, "a box's equals without two references"));
        };
        let ty = JType::Class(class.to_string());
        let mut next = Vec::new();
        for (s, inst) in self.instance_cond(st, &b, &ty)? {
            for (s, yes) in self.split(s, &inst) {
                if !yes {
                    let zero = self.terms.int(0);
                    next.push(self.finish_call(s, dst, Some(Value::Int(zero))));
                    continue;
                }
                next.extend(self.box_values(s, &a, &b, class, |m, s, x, y| {
                    let eq = m.terms.eq(&x, &y);
                    let (one, zero) = (m.terms.int(1), m.terms.int(0));
                    let v = m.terms.ite(&eq, &one, &zero);
                    Ok(vec![m.finish_call(s, dst, Some(Value::Int(v)))])
                })?);
            }
        }
        Ok(next)
    }

    /// `box.compareTo(other)`: -1, 0 or 1 by value; a null `other` raises
    /// NullPointerException, and (`cast`: the `Object` bridge) a non-box ClassCastException.
    pub(super) fn box_compare(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        class: &str,
        cast: bool,
        args: &[Value<H::Ref>],
    ) -> Result<Vec<Next<H>>> {
        let (Some(Value::Ref(a)), Some(Value::Ref(b))) = (args.first().cloned(), args.get(1).cloned()) else {
            return Err(self.fault(&st, "a box's compareTo without two references"));
        };
        let class = class.to_string();
        self.non_null(st, &b, |m, s| {
            if !cast {
                return m.compare_values(s, dst, &a, &b, &class);
            }
            let mut next = Vec::new();
            for (s, inst) in m.instance_cond(s, &b, &JType::Class(class.clone()))? {
                for (s, yes) in m.split(s, &inst) {
                    if yes {
                        next.extend(m.compare_values(s, dst, &a, &b, &class)?);
                    } else {
                        next.extend(m.raise(s, "java/lang/ClassCastException")?);
                    }
                }
            }
            Ok(next)
        })
    }

    /// -1, 0 or 1 as the value of box `a` is below, equal to or above that of box `b`.
    fn compare_values(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        a: &H::Ref,
        b: &H::Ref,
        class: &str,
    ) -> Result<Vec<Next<H>>> {
        self.box_values(st, a, b, class, |m, s, x, y| {
            let lt = m.terms.cmp(BvCmp::Slt, &x, &y);
            let eq = m.terms.eq(&x, &y);
            let (m1, z, one) = (m.terms.int(-1), m.terms.int(0), m.terms.int(1));
            let inner = m.terms.ite(&eq, &z, &one);
            let v = m.terms.ite(&lt, &m1, &inner);
            Ok(vec![m.finish_call(s, dst, Some(Value::Int(v)))])
        })
    }

    /// Reads the `value` fields of boxes `a` and `b` (both of `class`) and continues with them.
    fn box_values(
        &mut self,
        st: State<H>,
        a: &H::Ref,
        b: &H::Ref,
        class: &str,
        mut f: impl FnMut(&mut Self, State<H>, Term, Term) -> Result<Vec<Next<H>>>,
    ) -> Result<Vec<Next<H>>> {
        let fid = self
            .model_field(class, "value")
            .ok_or_else(|| Error::MissingClass { name: class.to_string(), context: Some("library model".into()) })?;
        let alts = self.strategy.get_field(super::control::cx!(self), &st.heap, a, fid)?;
        let b = b.clone();
        self.each(st, alts, |m, s, x| {
            let alts = m.strategy.get_field(super::control::cx!(m), &s.heap, &b, fid)?;
            m.each(s, alts, |m, s, y| match (x.term(), y.term()) {
                (Some(x), Some(y)) => f(m, s, x.clone(), y.clone()),
                _ => Err(m.fault(&s, "a box without a primitive value")),
            })
        })
    }
}
