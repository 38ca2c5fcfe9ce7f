//! Calls and returns: resolution, virtual dispatch, class initialization, the entry state.

use std::collections::BTreeSet;

use super::control::{Forked, cx};
use super::state::{Frame, FrameKind, Next, State};
use super::{Choice, Machine, Outcome};
use crate::classfile::{ClassId, JType, MethodId};
use crate::cut::{CutReason, Unsupported};
use crate::heap::{HeapStrategy, ObjKind, Value};
use crate::ir::{Call, InvokeKind, LocalId};
use crate::solver::Solver;
use crate::term::Term;
use crate::{Error, Result};

impl<H: HeapStrategy, S: Solver> Machine<'_, H, S> {
    /// The state at the entry of `entry`: symbolic receiver and arguments, and the
    /// precondition frame on top when one is configured.
    pub(super) fn initial_state(&mut self, entry: MethodId) -> Result<(State<H>, Vec<String>)> {
        let table = &self.program.table;
        let m = table.method(entry).clone();
        let body = self.program.body(entry)?.ok_or_else(|| Error::NoCode {
            at: crate::error::Location {
                class: Some(table.class(m.owner).java_name()),
                method: Some(m.signature()),
                pc: None,
                line: None,
            },
            why: "abstract or native".into(),
        })?;
        let mut heap = self.strategy.new_heap(cx!(self));
        let mut frame = Frame::new(entry, body.clone(), FrameKind::Call);
        let mut pc = Vec::new();
        let mut args = Vec::new();
        let mut names = Vec::new();
        let mut types: Vec<JType> = Vec::new();
        if !m.is_static() {
            types.push(JType::Class(table.class(m.owner).name.clone()));
        }
        types.extend(m.desc.params.iter().cloned());
        for (i, ty) in types.iter().enumerate() {
            let local = LocalId(i as u32);
            let name = body.locals.get(i).map(|l| l.name.clone()).unwrap_or_else(|| format!("arg{i}"));
            let receiver = i == 0 && !m.is_static();
            let v = if ty.is_reference() {
                let (r, mut c) = self.strategy.input(cx!(self), &mut heap, &name, ty, receiver)?;
                pc.append(&mut c);
                Value::Ref(r)
            } else {
                let (v, mut c) = crate::heap::objects::fresh_prim(&mut self.terms, ty, &name);
                pc.append(&mut c);
                v
            };
            frame.set(local, v.clone());
            args.push(v);
            names.push(name);
        }
        pc.retain(|t| !t.is_true());
        let mut st = State {
            frames: vec![frame],
            heap,
            pc,
            path: Vec::new(),
            initialized: BTreeSet::new(),
            args: args.clone(),
            statics: Vec::new(),
            notes: Vec::new(),
            unknown: false,
            steps: 0,
            pre_decisions: 0,
            witness: None,
            witness_upto: 0,
            unchecked: false,
            init_gaps: Default::default(),
            bottoms: Vec::new(),
            class_objects: Vec::new(),
        };
        // The precondition is an oracle on the inputs, not a prefix of every trace.
        self.valid = self.precondition_of(entry)?.map(super::oracle::ValidInputSearch::new);
        self.entry = Some(entry);
        self.arg_types = types;
        if !self.config.symbolic_statics {
            st = match self.ensure_init(st, m.owner)? {
                Ok(s) | Err(Next::Run(s)) => s,
                Err(_) => return Err(Error::Usage("internal: class initialization of the entry failed".into())),
            };
        }
        Ok((st, names))
    }

    /// The `--precondition` method of `entry` and what it is called with
    /// ([`super::pre_method::resolve`]), if one is configured; an error if it names none (the
    /// pipeline refuses such flags before any work).
    pub(super) fn precondition_of(&self, entry: MethodId) -> Result<Option<(MethodId, super::pre_method::PreArgs)>> {
        let Some(pre) = self.config.precondition.as_deref() else { return Ok(None) };
        super::pre_method::resolve(&self.program.table, pre, entry)
            .map(Some)
            .map_err(|why| Error::Usage(format!("--precondition {pre}: {why}")))
    }

    /// Pushes the `--precondition` frame on top of the entry frame of `st`, so that a
    /// concrete replay checks its input first (the trace is rejected where it is false).
    pub(super) fn push_precondition(&mut self, st: &mut State<H>, entry: MethodId) -> Result<()> {
        if let Some(pre) = self.precondition_of(entry)? {
            let frame = self.pre_frame(pre, &st.args)?;
            st.frames.push(frame);
        }
        Ok(())
    }

    /// Runs the class initializers of `c` and its superclasses first, if they have not run on
    /// this path: `Err(Next::Run)` with the initializer frames pushed (the current instruction
    /// runs again after them), or `Ok(state)` if nothing is to do.
    pub(super) fn ensure_init(&mut self, st: State<H>, c: ClassId) -> Result<std::result::Result<State<H>, Next<H>>> {
        let mut st = st;
        if self.config.symbolic_statics || st.initialized.contains(&c) {
            return Ok(Ok(st));
        }
        let table = &self.program.table;
        let mut pushed = false;
        // Superclasses are initialized first: push the subclass initializer first, so that
        // the superclass one (pushed later) runs first.
        for k in table.superclasses(c) {
            if !st.initialized.insert(k) {
                continue;
            }
            if crate::models::JVM_STARTUP_CLASSES.contains(&table.class(k).name.as_str()) {
                st.init_gaps.classes.push((k, Unsupported::JvmStartup.into()));
            }
            let clinit = table.class(k).methods.iter().copied().find(|m| table.method(*m).name == "<clinit>");
            if let Some(ci) = clinit {
                let body = self
                    .program
                    .body(ci)?
                    .ok_or_else(|| Error::Usage(format!("{} was not lowered", table.method_display(ci))))?;
                st.frames.push(Frame::new(ci, body, FrameKind::ClassInit));
                pushed = true;
            }
        }
        if pushed { Ok(Err(Next::Run(st))) } else { Ok(Ok(st)) }
    }

    /// `invoke*`: resolves, dispatches on the receiver's possible classes, and pushes a frame
    /// (or applies a library model).
    pub(super) fn exec_call(&mut self, st: State<H>, dst: Option<LocalId>, call: &Call) -> Result<Vec<Next<H>>> {
        let mut st = st;
        let mut args = Vec::with_capacity(call.args.len());
        for a in &call.args {
            args.push(self.operand(&mut st, a)?);
        }
        let table = &self.program.table;
        let resolved = table.resolve_method(call.method.owner, &call.method.name, &call.method.desc);
        if call.kind == InvokeKind::Static {
            // A JDK method with a Java model (System.arraycopy, Arrays.copyOf) runs the model
            // instead of the JDK class's code, and that class is not initialized.
            if let Some(model) = table.java_model(call.method.owner, &call.method.name, &call.method.desc) {
                return self.invoke_target(st, dst, call, Some(model), args);
            }
            // A static method of a class the models describe that no model covers runs the
            // JDK's code (the class is not initialized: its statics are the models').
            let owner_name = &table.class(call.method.owner).name;
            if resolved.is_none()
                && crate::models::lookup(owner_name, &call.method.name, &call.method.desc.descriptor()).is_none()
                && let Some(code) = table.jdk_static_code(call.method.owner, &call.method.name, &call.method.desc)
            {
                return self.invoke_target(st, dst, call, Some(code), args);
            }
            let owner = resolved.map(|m| table.method(m).owner).unwrap_or(call.method.owner);
            let st = match self.ensure_init(st, owner)? {
                Ok(s) => s,
                Err(pushed) => return Ok(vec![pushed]),
            };
            return self.invoke_target(st, dst, call, resolved, args);
        }
        let Some(Value::Ref(recv)) = args.first().cloned() else {
            return Err(self.fault(&st, "an instance call without a receiver"));
        };
        let call = call.clone();
        self.non_null(st, &recv, |m, s| {
            if call.kind == InvokeKind::Special || resolved.is_some_and(|r| m.program.table.method(r).is_private()) {
                return m.invoke_target(s, dst, &call, resolved, args.clone());
            }
            m.dispatch(s, dst, &call, resolved, &recv, args.clone())
        })
    }

    /// Virtual selection over the receiver's possible classes; a polymorphic call site
    /// records the selected method as a program decision.
    fn dispatch(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        call: &Call,
        resolved: Option<MethodId>,
        recv: &H::Ref,
        args: Vec<Value<H::Ref>>,
    ) -> Result<Vec<Next<H>>> {
        let table = &self.program.table;
        // A method of a phantom interface the models name without its methods
        // (`Iterator#hasNext`) is selected by name and descriptor in the receiver's class.
        let select = |k: ClassId| match resolved {
            Some(r) => table.select_method(k, r),
            None => table
                .resolve_method(k, &call.method.name, &call.method.desc)
                .filter(|m| !table.method(*m).is_abstract() && table.class(k).loaded),
        };
        let site_targets: BTreeSet<MethodId> =
            table.loaded_subclasses(call.method.owner).into_iter().filter_map(select).collect();

        let polymorphic = site_targets.len() > 1;
        let Some(st) = self.determined(st, &[recv]) else { return Ok(Vec::new()) };
        let alts = self.strategy.classes(cx!(self), &st.heap, recv)?;
        let mut next = Vec::new();
        for f in self.fork(st, alts) {
            let s = match f {
                Forked::Live(s, classes) => (s, classes),
                Forked::Cut(s, why) => {
                    next.push(Next::Done(s, Outcome::Cut(why)));
                    continue;
                }
            };
            let (s, classes) = s;
            // Group the possible classes by the method they select.
            let mut groups: Vec<(Option<MethodId>, Vec<Term>)> = Vec::new();
            for (kind, guard) in classes {
                let table = &self.program.table;
                let target = match (kind, resolved) {
                    (ObjKind::Class(c), Some(r)) => Some(table.select_method(c, r).unwrap_or(r)),
                    (ObjKind::Class(c), None) => table
                        .resolve_method(c, &call.method.name, &call.method.desc)
                        .filter(|m| !table.method(*m).is_abstract()),
                    (ObjKind::Array(_), r) => r,
                };
                match groups.iter_mut().find(|(t, _)| *t == target) {
                    Some((_, gs)) => gs.push(guard),
                    None => groups.push((target, vec![guard])),
                }
            }
            let alts: Vec<crate::heap::Alt<H::Heap, Option<MethodId>>> = groups
                .into_iter()
                .map(|(t, gs)| {
                    let g = self.terms.or(&gs);
                    crate::heap::Alt { heap: s.heap.clone(), assume: vec![g], value: t, cut: None }
                })
                .collect();
            for g in self.fork(s, alts) {
                let Forked::Live(s, target) = g else { continue };
                let s = if let (true, Some(target)) = (polymorphic, target) {
                    let name = self.program.table.method_display(target);
                    match self.decide(s, Choice::Dispatch(name), true) {
                        Ok(s) => s,
                        Err(done) => {
                            next.push(done);
                            continue;
                        }
                    }
                } else {
                    s
                };
                next.extend(self.invoke_target(s, dst, call, target, args.clone())?);
            }
        }
        Ok(next)
    }

    /// Enters `target` (or its library model when it has no code on the class path).
    fn invoke_target(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        call: &Call,
        target: Option<MethodId>,
        args: Vec<Value<H::Ref>>,
    ) -> Result<Vec<Next<H>>> {
        let table = &self.program.table;
        let code = target.filter(|t| table.method(*t).has_code && table.class(table.method(*t).owner).loaded);
        let Some(t) = code else {
            return self.library(st, dst, call, target, args);
        };
        if st.frames.len() as u64 > u64::from(self.config.bounds.max_calls) {
            let n = self.config.bounds.max_calls;
            return Ok(vec![Next::Done(st, Outcome::Cut(CutReason::MaxCalls(n)))]);
        }
        // A callee that did not lower (an unsupported instruction) or that the reachability
        // pass did not see ends this trace, cut with the reason; the run goes on.
        let body = match self.program.body(t) {
            Ok(Some(b)) => b,
            Ok(None) => {
                let why = Unsupported::NotLowered(table.method_display(t)).into();
                return Ok(vec![Next::Done(st, Outcome::Cut(why))]);
            }
            Err(e) => return Ok(vec![Next::Done(st, Outcome::Cut(Unsupported::Lowering(e.to_string()).into()))]),
        };
        let mut frame = Frame::new(t, body, FrameKind::Call);
        for (slot, a) in args.into_iter().enumerate() {
            frame.set(LocalId(slot as u32), a);
        }
        frame.ret_to = dst;
        let mut st = st;
        st.frames.push(frame);
        Ok(vec![Next::Run(st)])
    }

    /// Returns from the top frame.
    pub(super) fn ret(&mut self, st: State<H>, v: Option<Value<H::Ref>>) -> Result<Vec<Next<H>>> {
        let mut st = st;
        let Some(done) = st.frames.pop() else { return Err(self.fault(&st, "a return without a frame")) };
        if st.frames.is_empty() {
            return Ok(vec![Next::Done(st, Outcome::Return(v))]);
        }
        match done.kind {
            FrameKind::ClassInit => Ok(vec![Next::Run(st)]),
            FrameKind::Precondition => {
                let Some(Value::Int(t)) = v else {
                    return Err(self.fault(&st, "a precondition that does not return a boolean"));
                };
                let zero = self.terms.int(0);
                let holds = self.terms.ne(&t, &zero);
                let mut next = Vec::new();
                for (s, ok) in self.split(st, &holds) {
                    next.push(if ok { Next::Run(s) } else { Next::Rejected });
                }
                Ok(next)
            }
            FrameKind::Call => {
                if let Some(f) = st.top_mut() {
                    if let (Some(d), Some(v)) = (done.ret_to, v) {
                        f.set(d, v);
                    }
                    f.next += 1;
                }
                Ok(vec![Next::Run(st)])
            }
        }
    }
}
