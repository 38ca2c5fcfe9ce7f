//! Heap instructions: fields, statics, `new`, arrays, `instanceof` and `checkcast`.

use super::control::{Forked, cx};
use super::state::{Next, State};
use super::{Choice, Machine};
use crate::Result;
use crate::classfile::{ClassId, FieldId, JType};
use crate::cut::{CutReason, Unsupported};
use crate::heap::{HeapStrategy, ObjKind, Test, Value};
use crate::ir::{ArrayKind, FieldRef, LocalId, Operand};
use crate::solver::Solver;
use crate::term::{BvCmp, Node, Term};

/// Most distinct values a symbolic index into a reference array is concretized to.
const MAX_INDEX_VALUES: usize = 64;

impl<H: HeapStrategy, S: Solver> Machine<'_, H, S> {
    /// The field `f` names, or the trace's end when it does not resolve: cut with a reason
    /// naming it (a field of a JDK class that is neither on the class path nor modelled,
    /// such as `System.err`; or one its class lacks, where the JVM would throw NoSuchFieldError).
    fn field_id(&self, st: State<H>, f: &FieldRef) -> std::result::Result<(State<H>, FieldId), Next<H>> {
        let table = &self.program.table;
        match table.resolve_field(f.owner, &f.name, &f.ty) {
            Some(fid) => Ok((st, fid)),
            None => {
                let owner = table.class(f.owner);
                let shown = format!("{}.{}:{}", owner.java_name(), f.name, f.ty.descriptor());
                let why = if owner.loaded {
                    Unsupported::UnresolvedField(shown).into()
                } else {
                    CutReason::NoModelField(shown)
                };
                Err(Next::Done(st, super::Outcome::Cut(why)))
            }
        }
    }

    pub(super) fn get_field(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        o: &Operand,
        f: &FieldRef,
    ) -> Result<Vec<Next<H>>> {
        let (mut st, fid) = match self.field_id(st, f) {
            Ok(x) => x,
            Err(cut) => return Ok(vec![cut]),
        };
        let r = self.ref_operand(&mut st, o)?;
        self.non_null(st, &r, |m, s| {
            let s = m.prune_locations(s, &r, fid);
            let alts = m.strategy.get_field(cx!(m), &s.heap, &r, fid)?;
            m.each(s, alts, |m, s, v| Ok(vec![m.produce(s, dst, v)]))
        })
    }

    pub(super) fn put_field(&mut self, st: State<H>, o: &Operand, f: &FieldRef, v: &Operand) -> Result<Vec<Next<H>>> {
        let (mut st, fid) = match self.field_id(st, f) {
            Ok(x) => x,
            Err(cut) => return Ok(vec![cut]),
        };
        let r = self.ref_operand(&mut st, o)?;
        let v = self.operand(&mut st, v)?;
        let v = self.narrow_to(&f.ty, v);
        self.non_null(st, &r, |m, s| {
            let alts = m.strategy.put_field(cx!(m), &s.heap, &r, fid, v.clone())?;
            m.each(s, alts, |m, s, ()| {
                let mut s = s;
                s.advance();
                let _ = m;
                Ok(vec![Next::Run(s)])
            })
        })
    }

    pub(super) fn get_static(&mut self, st: State<H>, dst: Option<LocalId>, f: &FieldRef) -> Result<Vec<Next<H>>> {
        let (st, fid) = match self.field_id(st, f) {
            Ok(x) => x,
            Err(cut) => return Ok(vec![cut]),
        };
        let owner = self.program.table.field(fid).owner;
        let st = match self.ensure_init(st, owner)? {
            Ok(s) => s,
            Err(pushed) => return Ok(vec![pushed]),
        };
        let mut st = st;
        if st.init_gaps.unknown(owner, fid).is_some() {
            self.standard_stream(&mut st, owner, fid)?;
        }
        if let Some(why) = st.init_gaps.unknown(owner, fid) {
            let fd = self.program.table.field(fid);
            let field = format!("{}.{}", self.program.table.class(owner).name.replace('/', "."), fd.name);
            let why = CutReason::UnknownStatic { field, why: Box::new(why.clone()) };
            return Ok(vec![Next::Done(st, super::Outcome::Cut(why))]);
        }
        let alts = self.strategy.get_static(cx!(self), &st.heap, fid)?;
        self.each(st, alts, |m, s, v| {
            let mut s = s;
            m.note_static(&mut s, fid, &v);
            Ok(vec![m.produce(s, dst, v)])
        })
    }

    /// `System.out` and `System.err`, which the JVM sets up at startup: a `PrintStream` whose
    /// methods print nothing the test checks (see `models`), the same one for every read.
    fn standard_stream(&mut self, st: &mut State<H>, owner: ClassId, f: FieldId) -> Result<()> {
        let table = &self.program.table;
        let stream = matches!(table.field(f).name.as_str(), "out" | "err");
        if table.class(owner).name != "java/lang/System" || !stream {
            return Ok(());
        }
        let Some(cid) = table.lookup("java/io/PrintStream") else { return Ok(()) };
        let r = self.strategy.alloc(cx!(self), &mut st.heap, ObjKind::Class(cid), None)?;
        st.heap = self.strategy.put_static(cx!(self), &st.heap, f, Value::Ref(r))?;
        st.init_gaps.written.push(f);
        Ok(())
    }

    /// Remembers a static's value at the run's first touch of it (outside initializers).
    fn note_static(&self, st: &mut State<H>, f: FieldId, v: &Value<H::Ref>) {
        let in_init = st.top().is_some_and(|fr| fr.kind == super::state::FrameKind::ClassInit);
        if !in_init && !st.statics.iter().any(|(g, _)| *g == f) {
            st.statics.push((f, v.clone()));
        }
    }

    pub(super) fn put_static(&mut self, st: State<H>, f: &FieldRef, v: &Operand) -> Result<Vec<Next<H>>> {
        let (st, fid) = match self.field_id(st, f) {
            Ok(x) => x,
            Err(cut) => return Ok(vec![cut]),
        };
        let owner = self.program.table.field(fid).owner;
        let mut st = match self.ensure_init(st, owner)? {
            Ok(s) => s,
            Err(pushed) => return Ok(vec![pushed]),
        };
        let v = self.operand(&mut st, v)?;
        let v = self.narrow_to(&f.ty, v);
        let in_init = st.top().is_some_and(|fr| fr.kind == super::state::FrameKind::ClassInit);
        let initializing = st.frames.iter().any(|fr| fr.kind == super::state::FrameKind::ClassInit);
        let own_init = in_init && st.top().is_some_and(|fr| self.program.table.method(fr.method).owner == owner);
        if !(own_init && st.init_gaps.startup(owner)) {
            st.init_gaps.wrote(owner, fid, initializing);
        }
        let states = if in_init || st.statics.iter().any(|(g, _)| *g == fid) {
            vec![st]
        } else {
            // The value before the first write is part of the input the test must set.
            let alts = self.strategy.get_static(cx!(self), &st.heap, fid)?;
            let mut out = Vec::new();
            for f in self.fork(st, alts) {
                match f {
                    Forked::Live(mut s, old) => {
                        self.note_static(&mut s, fid, &old);
                        out.push(s);
                    }
                    Forked::Cut(s, why) => return Ok(vec![Next::Done(s, super::Outcome::Cut(why))]),
                }
            }
            out
        };
        let mut next = Vec::new();
        for mut s in states {
            s.heap = self.strategy.put_static(cx!(self), &s.heap, fid, v.clone())?;
            s.advance();
            next.push(Next::Run(s));
        }
        Ok(next)
    }

    pub(super) fn new_object(&mut self, st: State<H>, dst: Option<LocalId>, c: ClassId) -> Result<Vec<Next<H>>> {
        let class = self.program.table.class(c);
        if class.is_abstract() || class.is_interface() {
            return Err(self.fault(&st, &format!("`new` of the abstract type {}", class.java_name())));
        }
        let mut st = match self.ensure_init(st, c)? {
            Ok(s) => s,
            Err(pushed) => return Ok(vec![pushed]),
        };
        let r = self.strategy.alloc(cx!(self), &mut st.heap, ObjKind::Class(c), None)?;
        Ok(vec![self.produce(st, dst, Value::Ref(r))])
    }

    pub(super) fn new_array(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        elem: &JType,
        len: &Operand,
    ) -> Result<Vec<Next<H>>> {
        let mut st = st;
        let n = self.int_operand(&mut st, len)?;
        let zero = self.terms.int(0);
        let negative = self.terms.cmp(BvCmp::Slt, &n, &zero);
        let mut next = Vec::new();
        for (s, neg) in self.split(st, &negative) {
            if neg {
                next.extend(self.raise(s, "java/lang/NegativeArraySizeException")?);
                continue;
            }
            // A length computed from the inputs is at most MAX_CONCRETE_ARRAY, a restriction of
            // the inputs like --max-array-length (no trace is cut by it): a test lists every
            // element of an array it checks.
            let most = self.terms.int(crate::heap::concrete::MAX_CONCRETE_ARRAY as i32);
            let fits = self.terms.cmp(BvCmp::Sle, &n, &most);
            for (mut s, small) in self.split(s, &fits) {
                if small {
                    let r =
                        self.strategy.alloc(cx!(self), &mut s.heap, ObjKind::Array(elem.clone()), Some(n.clone()))?;
                    next.push(self.produce(s, dst, Value::Ref(r)));
                }
            }
        }
        Ok(next)
    }

    pub(super) fn array_length(&mut self, st: State<H>, dst: Option<LocalId>, a: &Operand) -> Result<Vec<Next<H>>> {
        let mut st = st;
        let r = self.ref_operand(&mut st, a)?;
        self.non_null(st, &r, |m, s| {
            let alts = m.strategy.array_length(cx!(m), &s.heap, &r)?;
            m.each(s, alts, |m, s, len| Ok(vec![m.produce(s, dst, Value::Int(len))]))
        })
    }

    /// Null check, then bounds check against the length: out of bounds raises
    /// ArrayIndexOutOfBoundsException; in bounds continues with `f` (index, element is a ref).
    fn checked_index(
        &mut self,
        st: State<H>,
        r: &H::Ref,
        idx: Term,
        refs: bool,
        f: &mut dyn FnMut(&mut Self, State<H>, Term) -> Result<Vec<Next<H>>>,
    ) -> Result<Vec<Next<H>>> {
        self.non_null(st, r, |m, s| {
            let alts = m.strategy.array_length(cx!(m), &s.heap, r)?;
            m.each(s, alts, |m, s, len| {
                let zero = m.terms.int(0);
                let neg = m.terms.cmp(BvCmp::Slt, &idx, &zero);
                let beyond = m.terms.cmp(BvCmp::Sle, &len, &idx);
                let out = m.terms.or2(&neg, &beyond);
                let mut next = Vec::new();
                for (s, oob) in m.split(s, &out) {
                    if oob {
                        next.extend(m.raise(s, "java/lang/ArrayIndexOutOfBoundsException")?);
                    } else if refs && idx.as_i64().is_none() {
                        for (s, k) in m.concretize_index(s, &idx)? {
                            next.extend(f(m, s, k)?);
                        }
                    } else {
                        next.extend(f(m, s, idx.clone())?);
                    }
                }
                Ok(next)
            })
        })
    }

    /// Forks a symbolic index into each feasible concrete value (a program decision each).
    fn concretize_index(&mut self, st: State<H>, idx: &Term) -> Result<Vec<(State<H>, Term)>> {
        let hashed =
            idx.vars().iter().any(|v| matches!(v.node(), Node::Var(n, _) if n.starts_with(super::IDENTITY_HASH)));
        if let Some(why) = self.undetermined_in(&st, std::slice::from_ref(idx)) {
            self.aside.push(Next::Done(st, super::Outcome::Cut(why)));
            return Ok(Vec::new());
        }
        if hashed {
            // Each value would be a trace no test can make happen (the JVM picks the hash):
            // one cut trace instead, so that the run goes on to the paths a test can take.
            self.aside.push(Next::Done(st, super::Outcome::Cut(CutReason::IdentityHashIndex)));
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        let mut rest = st;
        for _ in 0..MAX_INDEX_VALUES {
            let q = rest.pc.clone();
            let Some(v) = (match self.solver.check(&q) {
                crate::solver::SatResult::Sat(m) => m.eval_i64(idx),
                _ => None,
            }) else {
                break;
            };
            let k = self.terms.int(v as i32);
            let eq = self.terms.eq(idx, &k);
            let mut hit = rest.clone();
            hit.assume(std::slice::from_ref(&eq));
            if self.record(&mut hit, Choice::Index(v), true) {
                out.push((hit, k));
            }
            let ne = self.terms.not(&eq);
            if !self.may(&rest, &ne) {
                return Ok(out);
            }
            rest.assume(std::slice::from_ref(&ne));
        }
        // The values past the first MAX_INDEX_VALUES end as one trace, cut with the reason.
        let why = Unsupported::ManyIndexValues(MAX_INDEX_VALUES).into();
        self.aside.push(Next::Done(rest, super::Outcome::Cut(why)));
        Ok(out)
    }

    pub(super) fn array_load(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        k: ArrayKind,
        a: &Operand,
        i: &Operand,
    ) -> Result<Vec<Next<H>>> {
        let mut st = st;
        let r = self.ref_operand(&mut st, a)?;
        let idx = self.int_operand(&mut st, i)?;
        let refs = k == ArrayKind::Ref;
        let r2 = r.clone();
        self.checked_index(st, &r, idx, refs, &mut |m, s, idx| {
            let alts = m.strategy.array_load(cx!(m), &s.heap, &r2, &idx)?;
            m.each(s, alts, |m, s, v| {
                let v = m.narrow_kind(k, v);
                Ok(vec![m.produce(s, dst, v)])
            })
        })
    }

    pub(super) fn array_store(
        &mut self,
        st: State<H>,
        k: ArrayKind,
        a: &Operand,
        i: &Operand,
        v: &Operand,
    ) -> Result<Vec<Next<H>>> {
        let mut st = st;
        let r = self.ref_operand(&mut st, a)?;
        let idx = self.int_operand(&mut st, i)?;
        let v = self.operand(&mut st, v)?;
        let v = self.narrow_kind(k, v);
        let refs = k == ArrayKind::Ref;
        let r2 = r.clone();
        self.checked_index(st, &r, idx, refs, &mut |m, s, idx| {
            let alts = m.strategy.array_store(cx!(m), &s.heap, &r2, &idx, v.clone())?;
            m.each(s, alts, |_, s, ()| {
                let mut s = s;
                s.advance();
                Ok(vec![Next::Run(s)])
            })
        })
    }

    /// Truncates an int to a narrow array element kind (`bastore`, `castore`, `sastore`).
    fn narrow_kind(&mut self, k: ArrayKind, v: Value<H::Ref>) -> Value<H::Ref> {
        let ty = match k {
            ArrayKind::Byte => JType::Byte,
            ArrayKind::Char => JType::Char,
            ArrayKind::Short => JType::Short,
            _ => return v,
        };
        self.narrow_to(&ty, v)
    }

    /// Truncates an int stored into a narrow field or element to the JVM's stored value.
    pub(super) fn narrow_to(&mut self, ty: &JType, v: Value<H::Ref>) -> Value<H::Ref> {
        let Value::Int(t) = &v else { return v };
        let p = &mut self.terms;
        match ty {
            JType::Byte => {
                let b = p.extract(7, 0, t);
                Value::Int(p.sext(24, &b))
            }
            JType::Short => {
                let s = p.extract(15, 0, t);
                Value::Int(p.sext(16, &s))
            }
            JType::Char => {
                let c = p.extract(15, 0, t);
                Value::Int(p.zext(16, &c))
            }
            JType::Boolean => {
                let one = p.int(1);
                Value::Int(p.bin(crate::term::BvOp::And, t, &one))
            }
            _ => v,
        }
    }

    /// The condition under which a reference is a non-null instance of `ty`, per alternative.
    pub(super) fn instance_cond(&mut self, st: State<H>, r: &H::Ref, ty: &JType) -> Result<Vec<(State<H>, Term)>> {
        let Some(st) = self.determined(st, &[r]) else { return Ok(Vec::new()) };
        let null = self.strategy.null(cx!(self));
        let alts = self.strategy.ref_eq(cx!(self), &st.heap, r, &null)?;
        let mut out = Vec::new();
        for f in self.fork(st, alts) {
            let Forked::Live(s, is_null) = f else { continue };
            let not_null = match is_null {
                Test::Known(true) => {
                    let fls = self.terms.fls();
                    out.push((s, fls));
                    continue;
                }
                Test::Known(false) => self.terms.tru(),
                Test::Cond(c) => self.terms.not(&c),
            };
            let alts = self.strategy.classes(cx!(self), &s.heap, r)?;
            for g in self.fork(s, alts) {
                let Forked::Live(s, classes) = g else { continue };
                let mut parts = Vec::new();
                for (kind, guard) in classes {
                    if self.program.table.is_assignable(&kind.jtype(&self.program.table), ty) {
                        parts.push(guard);
                    }
                }
                let any = self.terms.or(&parts);
                let c = self.terms.and2(&not_null, &any);
                out.push((s, c));
            }
        }
        Ok(out)
    }

    pub(super) fn instance_of(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        o: &Operand,
        ty: &JType,
    ) -> Result<Vec<Next<H>>> {
        let mut st = st;
        let r = self.ref_operand(&mut st, o)?;
        let mut next = Vec::new();
        for (s, c) in self.instance_cond(st, &r, ty)? {
            let (one, zero) = (self.terms.int(1), self.terms.int(0));
            let v = self.terms.ite(&c, &one, &zero);
            next.push(self.produce(s, dst, Value::Int(v)));
        }
        Ok(next)
    }

    /// `checkcast`: null or an instance passes; anything else raises ClassCastException.
    pub(super) fn check_cast(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        o: &Operand,
        ty: &JType,
    ) -> Result<Vec<Next<H>>> {
        let mut st = st;
        let r = self.ref_operand(&mut st, o)?;
        let mut next = Vec::new();
        let null = self.strategy.null(cx!(self));
        for (s, inst) in self.instance_cond(st, &r, ty)? {
            let alts = self.strategy.ref_eq(cx!(self), &s.heap, &r, &null)?;
            for f in self.fork(s, alts) {
                let Forked::Live(s, is_null) = f else { continue };
                let null_c = match is_null {
                    Test::Known(b) => self.terms.bool(b),
                    Test::Cond(c) => c,
                };
                let ok = self.terms.or2(&null_c, &inst);
                for (s, pass) in self.split(s, &ok) {
                    if pass {
                        next.push(self.produce(s, dst, Value::Ref(r.clone())));
                    } else {
                        next.extend(self.raise(s, "java/lang/ClassCastException")?);
                    }
                }
            }
        }
        Ok(next)
    }
}
