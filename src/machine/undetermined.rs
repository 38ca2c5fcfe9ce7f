//! Undetermined (⊥) values: the result of a call with neither bytecode nor a model is carried
//! while the trace only stores or returns it; a trace whose path depends on it is cut, naming
//! the call, and a test does not assert what it holds (see `Concrete::undetermined`).

use super::Machine;
use super::control::cx;
use super::state::{Bottom, Next, State, UNDETERMINED, UNDETERMINED_CLASS, UNDETERMINED_NOTE};
use crate::Result;
use crate::classfile::JType;
use crate::cut::CutReason;
use crate::heap::{Concrete, HeapStrategy, ObjKind, Roots, Value};
use crate::ir::{Call, InvokeKind};
use crate::solver::Solver;
use crate::term::{Assignment, Evaluator, Sort, Term, Val};

impl<H: HeapStrategy, S: Solver> Machine<'_, H, S> {
    /// The ⊥ result of `call` (shown as `shown`), when all the call can do is make a value: it
    /// returns one and is given no object it could change (only primitives, Strings and
    /// boxes). `None` when it returns nothing or takes such an object: its effects are unknown.
    pub(super) fn undetermined_result(
        &mut self,
        st: &mut State<H>,
        call: &Call,
        shown: &str,
    ) -> Result<Option<Value<H::Ref>>> {
        let Some(ret) = &call.method.desc.ret else { return Ok(None) };
        let table = &self.program.table;
        let value_type = |t: &JType| match t {
            JType::Class(c) => crate::models::is_value(c),
            JType::Array(_) => false,
            _ => true,
        };
        let receiver_ok =
            call.kind == InvokeKind::Static || crate::models::is_value(&table.class(call.method.owner).name);
        if !receiver_ok || !call.method.desc.params.iter().all(value_type) {
            return Ok(None);
        }
        let k = st.bottoms.len();
        let value = if ret.is_reference() {
            let cid = table.intern(UNDETERMINED_CLASS);
            Value::Ref(self.strategy.alloc(cx!(self), &mut st.heap, ObjKind::Class(cid), None)?)
        } else {
            // Unique on the path (`k`) and apart from a precondition run's own (`steps`).
            let name = format!("{UNDETERMINED}{k}_{}", st.steps);
            if ret.is_wide() {
                Value::Long(self.terms.var(&name, Sort::Bv(64)))
            } else {
                Value::Int(self.terms.var(&name, Sort::Bv(32)))
            }
        };
        st.notes.push(format!("{UNDETERMINED_NOTE}{shown}, which has no bytecode and no model"));
        st.bottoms.push(Bottom { call: shown.to_string(), value: value.clone(), hash: false });
        Ok(Some(value))
    }

    /// The call whose undetermined value one of `terms` depends on.
    pub(super) fn undetermined_in(&self, st: &State<H>, terms: &[Term]) -> Option<CutReason> {
        if st.bottoms.iter().all(|b| b.hash || matches!(b.value, Value::Ref(_))) {
            return None;
        }
        for t in terms {
            for v in t.vars() {
                let hit = st.bottoms.iter().find(|b| !b.hash && b.value.term() == Some(&v));
                if let Some(b) = hit {
                    return Some(CutReason::Undetermined(b.call.clone()));
                }
            }
        }
        None
    }

    /// The call whose undetermined result one of `refs` is.
    pub(super) fn undetermined_ref(&self, st: &State<H>, refs: &[&H::Ref]) -> Option<CutReason> {
        st.bottoms
            .iter()
            .find(|b| refs.iter().any(|r| b.value.as_ref() == Some(*r)))
            .map(|b| CutReason::Undetermined(b.call.clone()))
    }

    /// `st`, unless its next step tests, dereferences or dispatches on an undetermined
    /// reference among `refs`: then the state is set aside, cut naming the call.
    pub(super) fn determined(&mut self, st: State<H>, refs: &[&H::Ref]) -> Option<State<H>> {
        if st.bottoms.is_empty() {
            return Some(st);
        }
        match self.undetermined_ref(&st, refs) {
            Some(why) => {
                self.aside.push(Next::Done(st, super::Outcome::Cut(why)));
                None
            }
            None => Some(st),
        }
    }

    /// Marks the places of `c` that hold an undetermined value: those that change when the
    /// state's ⊥ symbols and identity hash codes take other values than in `model` (the
    /// state's heap concretized again), and those that hold the object of an undetermined
    /// reference.
    pub(super) fn mark_undetermined(
        &mut self,
        st: &State<H>,
        model: &Assignment,
        ret: Option<&Value<H::Ref>>,
        c: &mut Concrete,
    ) -> Result<()> {
        let mut other = model.clone();
        let mut with = Vec::new();
        for b in &st.bottoms {
            if let Some(t) = b.value.term()
                && let Some(name) = t.var_names().into_iter().next()
            {
                // Every bit flipped from the model's value (0 when the model leaves it out).
                let was = match model.get(&name) {
                    Some(Val::Bv(v)) => *v,
                    _ => 0,
                };
                let mask = if t.width() >= 64 { u64::MAX } else { (1u64 << t.width()) - 1 };
                other.values.insert(name, Val::Bv(!was & mask));
                with.push((t.clone(), !was & mask));
            }
        }
        let table = &self.program.table;
        let bottom_class = table.lookup(UNDETERMINED_CLASS);
        let flipped = if with.is_empty() {
            None
        } else {
            let solver = &mut self.solver;
            // Array contents the assignment does not fix come from the solver's model.
            let mut values = |ts: &[Term]| {
                let mut e = Evaluator::new(&other);
                ts.iter().map(|t| e.eval(t)).collect::<Option<Vec<Val>>>().or_else(|| solver.eval_with(ts, &with))
            };
            let cx = cx!(self);
            let roots = Roots { args: &st.args, arg_types: &self.arg_types, statics: &st.statics, ret };
            Some(self.strategy.concretize(cx, &st.heap, &other, &mut values, roots)?)
        };
        c.mark_undetermined(flipped.as_ref(), |kind| bottom_class.is_some_and(|b| *kind == ObjKind::Class(b)));
        Ok(())
    }
}
