//! Carrying out the JDK models of [`crate::models`] on symbolic values.
//!
//! A call whose target is not on the class path runs the model found by walking the
//! superclass chain of the named class (so `new NoSuchElementException("x")` uses the
//! Throwable constructor model). Anything else ends the trace, cut with a reason naming the
//! method, or with `--havoc-unknown` gets a fresh symbolic result noted in the trace.

use super::Machine;
use super::control::{Forked, cx};
use super::state::{Next, State};
use crate::classfile::MethodId;
use crate::cut::{CutReason, Unsupported};
use crate::heap::{HeapStrategy, Test, Value};
use crate::ir::{Call, LocalId};
use crate::models::{self, FloatOp, Model};
use crate::solver::Solver;
use crate::term::{BvCmp, BvOp, FpOp, Sort, Term};
use crate::{Error, Result};

impl<H: HeapStrategy, S: Solver> Machine<'_, H, S> {
    pub(super) fn library(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        call: &Call,
        target: Option<MethodId>,
        args: Vec<Value<H::Ref>>,
    ) -> Result<Vec<Next<H>>> {
        // No model or call reads an undetermined object (its class is a phantom's).
        let refs: Vec<&H::Ref> = args.iter().filter_map(Value::as_ref).collect();
        let Some(st) = self.determined(st, &refs) else { return Ok(Vec::new()) };
        let table = &self.program.table;
        // A native of the JDK has a model or none; one of the class path is not run.
        if let Some(t) = target
            && table.class(table.method(t).owner).loaded
            && !table.class(table.method(t).owner).jdk
        {
            let why = Unsupported::AbstractOrNative(table.method_display(t)).into();
            return Ok(vec![Next::Done(st, super::Outcome::Cut(why))]);
        }
        let name = call.method.name.as_str();
        let desc = call.method.desc.descriptor();
        // The model of the selected method (a phantom class's own, e.g. Integer.hashCode on an
        // Integer receiver), else of the named class or the nearest superclass that has one.
        let start = target.map_or(call.method.owner, |t| table.method(t).owner);
        let chain: Vec<String> = table.superclasses(start).iter().map(|c| table.class(*c).name.clone()).collect();
        if let Some(model) = chain.iter().find_map(|class| models::lookup(class, name, &desc)) {
            let callee = match target {
                Some(t) => table.method_display(t),
                None => format!("{}#{}{}", table.class(call.method.owner).java_name(), name, desc),
            };
            self.in_model = Some(callee);
            let next = self.run_model(st, dst, model, &args);
            self.in_model = None;
            return next;
        }
        let shown = format!("{}#{}{}", table.class(call.method.owner).java_name(), name, desc);
        let mut st = st;
        if !self.config.havoc_unknown {
            let native = target.filter(|t| table.class(table.method(*t).owner).loaded).map(|t| table.method_display(t));
            // A call that can only make a value gives an undetermined one (⊥); any other
            // ends the trace, cut with a reason naming the call; the run goes on.
            if let Some(v) = self.undetermined_result(&mut st, call, native.as_deref().unwrap_or(&shown))? {
                return Ok(vec![self.finish_call(st, dst, Some(v))]);
            }
            let why = match native {
                Some(m) => CutReason::NativeWithoutModel(m),
                None => CutReason::NoModel(shown),
            };
            return Ok(vec![Next::Done(st, super::Outcome::Cut(why))]);
        }
        st.notes.push(format!("havoc: result of {shown} is a fresh symbolic value"));
        let v = match &call.method.desc.ret {
            None => None,
            Some(ty) if ty.is_reference() => {
                let n = st.notes.len();
                let (r, c) = self.strategy.input(cx!(self), &mut st.heap, &format!("havoc{n}"), ty, false)?;
                st.assume(&c);
                Some(Value::Ref(r))
            }
            Some(ty) => {
                let n = st.notes.len();
                let (v, c) = crate::heap::objects::fresh_prim(&mut self.terms, ty, &format!("havoc{n}"));
                st.assume(&c);
                Some(v)
            }
        };
        Ok(vec![self.finish_call(st, dst, v)])
    }

    /// What a floating-point model gives for `a` (and `b`, of two-operand methods).
    fn float_model(&mut self, op: FloatOp, a: &Term, b: Option<&Term>) -> Term {
        let p = &mut self.terms;
        let w = a.width();
        let nan = p.bv(w, crate::term::nan_bits(w) as i64);
        let is_nan = |p: &mut crate::term::TermPool, x: &Term| {
            let same = p.fp(FpOp::Eq, x, x);
            p.not(&same)
        };
        let canonical = |p: &mut crate::term::TermPool, x: &Term| {
            let c = is_nan(p, x);
            p.ite(&c, &nan, x)
        };
        let b = b.unwrap_or(a);
        match op {
            FloatOp::RawBits => a.clone(),
            FloatOp::Bits => canonical(p, a),
            FloatOp::Hash => {
                let bits = canonical(p, a);
                if w < 64 {
                    return bits;
                }
                let high = p.extract(63, 32, &bits);
                let low = p.extract(31, 0, &bits);
                p.bin(BvOp::Xor, &high, &low)
            }
            FloatOp::IsNaN => {
                let c = is_nan(p, a);
                let (one, zero) = (p.int(1), p.int(0));
                p.ite(&c, &one, &zero)
            }
            FloatOp::Compare => {
                let (lt, gt) = (p.fp(FpOp::Lt, a, b), p.fp(FpOp::Lt, b, a));
                let (x, y) = (canonical(p, a), canonical(p, b));
                let (m1, zero, one) = (p.int(-1), p.int(0), p.int(1));
                let (same, below) = (p.eq(&x, &y), p.cmp(BvCmp::Slt, &x, &y));
                let by_bits = p.ite(&below, &m1, &one);
                let by_bits = p.ite(&same, &zero, &by_bits);
                let inner = p.ite(&gt, &one, &by_bits);
                p.ite(&lt, &m1, &inner)
            }
            FloatOp::Abs => {
                let magnitude = p.bv(w, if w == 64 { i64::MAX } else { i64::from(i32::MAX) });
                p.bin(BvOp::And, a, &magnitude)
            }
            FloatOp::Min | FloatOp::Max => {
                let max = op == FloatOp::Max;
                // Equal operands differ only as 0.0 and -0.0: min ors the sign bits, max ands them.
                let (lt, gt) = (p.fp(FpOp::Lt, a, b), p.fp(FpOp::Lt, b, a));
                let equal = p.bin(if max { BvOp::And } else { BvOp::Or }, a, b);
                let (first, second) = if max { (b, a) } else { (a, b) };
                let inner = p.ite(&gt, second, &equal);
                let ordered = p.ite(&lt, first, &inner);
                let (na, nb) = (is_nan(p, a), is_nan(p, b));
                let either = p.or2(&na, &nb);
                p.ite(&either, &nan, &ordered)
            }
        }
    }

    /// Stores a model's result and moves past the call.
    pub(super) fn finish_call(&self, st: State<H>, dst: Option<LocalId>, v: Option<Value<H::Ref>>) -> Next<H> {
        match v {
            Some(v) => self.produce(st, dst, v),
            None => {
                let mut st = st;
                st.advance();
                Next::Run(st)
            }
        }
    }

    /// Carries out `model` on the call's arguments.
    fn run_model(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        model: Model,
        args: &[Value<H::Ref>],
    ) -> Result<Vec<Next<H>>> {
        let int = |i: usize| args.get(i).and_then(|v| v.term()).cloned();
        let missing = |m: &Self, st: &State<H>| m.fault(st, "a JDK model called with arguments of the wrong kind");
        Ok(match model {
            Model::Nothing => vec![self.finish_call(st, dst, None)],
            Model::Store { class, fields } => self.set_fields(st, dst, args, class, fields)?,
            Model::Load { class, field } => self.read_field(st, dst, args, class, field)?,
            Model::IdentityEquals => self.identity_equals(st, dst, args)?,
            Model::GetClass => self.get_class(st, dst, args)?,
            // Inside the precondition an identity hash is a function of the object: a visited
            // set of input objects works, and the precondition's result, which a test checks,
            // does not depend on which hash each object gets.
            Model::IdentityHash
                if Self::in_precondition(&st)
                    && let Some(Value::Ref(r)) = args.first()
                    && let Some(id) = self.strategy.identity(cx!(self), &st.heap, r) =>
            {
                let id = match id.width() {
                    32 => id,
                    w if w < 32 => self.terms.zext(32 - w, &id),
                    _ => self.terms.extract(31, 0, &id),
                };
                let k = self.terms.bv(32, i64::from(IDENTITY_MIX as i32));
                let h = self.terms.bin(crate::term::BvOp::Mul, &id, &k);
                vec![self.finish_call(st, dst, Some(Value::Int(h)))]
            }
            Model::IdentityHash => {
                let mut st = st;
                let n = st.notes.len();
                st.notes.push(super::IDENTITY_HASH_NOTE.into());
                let v = self.terms.var(&format!("{}{n}", super::IDENTITY_HASH), Sort::Bv(32));
                let call = self.in_model.clone().unwrap_or_default();
                st.bottoms.push(super::state::Bottom { call, value: Value::Int(v.clone()), hash: true });
                vec![self.finish_call(st, dst, Some(Value::Int(v)))]
            }
            Model::MinMax { max, long_ } => {
                let (Some(a), Some(b)) = (int(0), int(1)) else { return Err(missing(self, &st)) };
                let lt = self.terms.cmp(BvCmp::Slt, &a, &b);
                let v = if max { self.terms.ite(&lt, &b, &a) } else { self.terms.ite(&lt, &a, &b) };
                let v = if long_ { Value::Long(v) } else { Value::Int(v) };
                vec![self.finish_call(st, dst, Some(v))]
            }
            Model::Abs { long_ } => {
                let Some(a) = int(0) else { return Err(missing(self, &st)) };
                let zero = self.terms.bv(a.width(), 0);
                let neg = self.terms.cmp(BvCmp::Slt, &a, &zero);
                let na = self.terms.neg(&a);
                let v = self.terms.ite(&neg, &na, &a);
                let v = if long_ { Value::Long(v) } else { Value::Int(v) };
                vec![self.finish_call(st, dst, Some(v))]
            }
            Model::Float(op) => {
                let (Some(a), b) = (int(0), int(1)) else { return Err(missing(self, &st)) };
                let v = self.float_model(op, &a, b.as_ref());
                let v = if v.width() == 64 { Value::Long(v) } else { Value::Int(v) };
                vec![self.finish_call(st, dst, Some(v))]
            }
            Model::Compare => {
                let (Some(a), Some(b)) = (int(0), int(1)) else { return Err(missing(self, &st)) };
                let lt = self.terms.cmp(BvCmp::Slt, &a, &b);
                let eq = self.terms.eq(&a, &b);
                let (m1, z, one) = (self.terms.int(-1), self.terms.int(0), self.terms.int(1));
                let inner = self.terms.ite(&eq, &z, &one);
                let v = self.terms.ite(&lt, &m1, &inner);
                vec![self.finish_call(st, dst, Some(Value::Int(v)))]
            }
            Model::ValueOf { class } => self.value_of(st, dst, class, args)?,
            Model::AssertionStatus => {
                let table = &self.program.table;
                let jdk = st.top().is_some_and(|f| table.class(table.method(f.method).owner).jdk);
                let v = self.terms.int(i32::from(!jdk));
                vec![self.finish_call(st, dst, Some(Value::Int(v)))]
            }
            Model::RequireNonNull => {
                let Some(Value::Ref(r)) = args.first().cloned() else { return Err(missing(self, &st)) };
                self.non_null(st, &r, |m, s| Ok(vec![m.finish_call(s, dst, Some(Value::Ref(r.clone())))]))?
            }
            Model::Receiver => {
                let Some(r) = args.first().cloned() else { return Err(missing(self, &st)) };
                vec![self.finish_call(st, dst, Some(r))]
            }
            Model::BoxEquals { class } => self.box_equals(st, dst, class, args)?,
            Model::BoxCompare { class, cast } => self.box_compare(st, dst, class, cast, args)?,
            Model::NewString => {
                let mut st = st;
                let s = self.new_string(&mut st, None)?;
                vec![self.finish_call(st, dst, Some(s))]
            }
            Model::String(op) => self.string_op(st, dst, op, args)?,
        })
    }

    /// A new box of `class` holding argument 0.
    fn value_of(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        class: &str,
        args: &[Value<H::Ref>],
    ) -> Result<Vec<Next<H>>> {
        let Some(cid) = self.program.table.lookup(class) else {
            return Err(Error::MissingClass { name: class.to_string(), context: Some("library model".into()) });
        };
        let mut st = st;
        let r = self.strategy.alloc(cx!(self), &mut st.heap, crate::heap::ObjKind::Class(cid), None)?;
        let mut all = vec![Value::Ref(r.clone())];
        all.extend(args.iter().cloned());
        let next = self.set_fields(st, None, &all, class, &[(1, "value")])?;
        // set_fields advanced past the call; store the new box as the result.
        Ok(next
            .into_iter()
            .map(|n| match n {
                Next::Run(mut s) => {
                    if let (Some(d), Some(f)) = (dst, s.top_mut()) {
                        f.set(d, Value::Ref(r.clone()));
                    }
                    Next::Run(s)
                }
                other => other,
            })
            .collect())
    }

    /// Writes `args[i]` into field `f` of the receiver `args[0]`, then moves past the call.
    fn set_fields(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        args: &[Value<H::Ref>],
        class: &str,
        writes: &[(usize, &str)],
    ) -> Result<Vec<Next<H>>> {
        let Some(Value::Ref(recv)) = args.first().cloned() else {
            return Err(self.fault(&st, "a constructor model without a receiver"));
        };
        let mut states = vec![st];
        for (i, field) in writes {
            let Some(v) = args.get(*i).cloned() else { continue };
            let Some(fid) = self.model_field(class, field) else { continue };
            let mut next_states = Vec::new();
            for s in states {
                let alts = self.strategy.put_field(cx!(self), &s.heap, &recv, fid, v.clone())?;
                for f in self.fork(s, alts) {
                    if let Forked::Live(s, ()) = f {
                        next_states.push(s);
                    }
                }
            }
            states = next_states;
        }
        Ok(states.into_iter().map(|s| self.finish_call(s, dst, None)).collect())
    }

    /// The field a library model keeps in a JDK class (see `models::classes`).
    pub(super) fn model_field(&self, class: &str, field: &str) -> Option<crate::classfile::FieldId> {
        let t = &self.program.table;
        let c = t.lookup(class)?;
        t.class(c).fields.iter().copied().find(|f| t.field(*f).name == field)
    }

    /// Reads field `field` of class `class` from the receiver `args[0]`.
    fn read_field(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        args: &[Value<H::Ref>],
        class: &str,
        field: &str,
    ) -> Result<Vec<Next<H>>> {
        let Some(Value::Ref(recv)) = args.first().cloned() else {
            return Err(self.fault(&st, "a getter model without a receiver"));
        };
        let fid = self
            .model_field(class, field)
            .ok_or_else(|| Error::MissingClass { name: class.to_string(), context: Some("library model".into()) })?;
        let alts = self.strategy.get_field(cx!(self), &st.heap, &recv, fid)?;
        self.each(st, alts, |m, s, v| Ok(vec![m.finish_call(s, dst, Some(v))]))
    }

    /// `Object.equals`: reference identity, as an int term (no fork of its own).
    /// `Object.getClass()`: per class the receiver may have, that class's one `Class` object;
    /// a null receiver raises NullPointerException.
    fn get_class(&mut self, st: State<H>, dst: Option<LocalId>, args: &[Value<H::Ref>]) -> Result<Vec<Next<H>>> {
        let Some(Value::Ref(r)) = args.first().cloned() else {
            return Err(self.fault(&st, "Object.getClass without a receiver"));
        };
        let null = self.strategy.null(cx!(self));
        let alts = self.strategy.ref_eq(cx!(self), &st.heap, &r, &null)?;
        let mut next = Vec::new();
        for f in self.fork(st, alts) {
            let Forked::Live(s, is_null) = f else { continue };
            let is_null = match is_null {
                Test::Known(b) => self.terms.bool(b),
                Test::Cond(c) => c,
            };
            for (s, null) in self.split(s, &is_null) {
                if null {
                    next.extend(self.raise(s, "java/lang/NullPointerException")?);
                    continue;
                }
                let alts = self.strategy.classes(cx!(self), &s.heap, &r)?;
                for g in self.fork(s, alts) {
                    let Forked::Live(s, classes) = g else { continue };
                    for (kind, guard) in classes {
                        for (mut s, holds) in self.split(s.clone(), &guard) {
                            if holds {
                                let ty = kind.jtype(&self.program.table);
                                let obj = self.class_object(&mut s, &ty)?;
                                next.push(self.finish_call(s, dst, Some(Value::Ref(obj))));
                            }
                        }
                    }
                }
            }
        }
        Ok(next)
    }

    fn identity_equals(&mut self, st: State<H>, dst: Option<LocalId>, args: &[Value<H::Ref>]) -> Result<Vec<Next<H>>> {
        let (Some(Value::Ref(a)), Some(Value::Ref(b))) = (args.first(), args.get(1)) else {
            return Err(self.fault(&st, "Object.equals without two references"));
        };
        let Some(st) = self.determined(st, &[a, b]) else { return Ok(Vec::new()) };
        let alts = self.strategy.ref_eq(cx!(self), &st.heap, a, b)?;
        self.each(st, alts, |m, s, t| {
            let c = match t {
                Test::Known(b) => m.terms.bool(b),
                Test::Cond(c) => c,
            };
            let (one, zero) = (m.terms.int(1), m.terms.int(0));
            let v = m.terms.ite(&c, &one, &zero);
            Ok(vec![m.finish_call(s, dst, Some(Value::Int(v)))])
        })
    }
}

/// The odd constant a precondition's identity hash multiplies an object's number by (the
/// golden ratio's, as `ThreadLocal` spreads its hashes), so that neighbours fall in other
/// buckets of a hash table.
const IDENTITY_MIX: u32 = 0x9e37_79b9;
