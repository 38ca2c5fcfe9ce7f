//! Control flow: forks and feasibility, program decisions, terminators, exceptions.

use super::oracle::Valid;
use super::state::{FrameKind, Next, State};
use super::{Choice, Decision, Machine, Outcome};
use crate::classfile::{ClassId, FieldId};
use crate::cut::CutReason;
use crate::heap::{Alt, HeapStrategy, Nullness, ObjKind, Test, Value};
use crate::ir::{Cond, Operand, RelOp, Terminator};
use crate::solver::{SatResult, Solver};
use crate::term::{Evaluator, Term, Val};
use crate::{Error, Result};

/// Borrows the pieces of the machine a heap strategy needs, leaving the strategy free.
macro_rules! cx {
    ($m:expr) => {
        &mut crate::heap::Ctx { table: &$m.program.table, terms: &mut $m.terms, config: $m.config }
    };
}
pub(crate) use cx;

/// An alternative after feasibility checking.
pub enum Forked<H: HeapStrategy, T> {
    Live(State<H>, T),
    Cut(State<H>, CutReason),
}

/// The answer of a feasibility check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feasible {
    Yes,
    No,
    /// The solver gave up: explored as feasible, flagged in the trace.
    Unknown,
}

impl<H: HeapStrategy, S: Solver> Machine<'_, H, S> {
    /// Is `pc ∧ extra` satisfiable?
    pub(super) fn feasible(&mut self, st: &State<H>, extra: &[Term]) -> Feasible {
        if let Some(v) = self.plainly(st, extra) {
            return v;
        }
        let mut q = st.pc.clone();
        q.extend(extra.iter().filter(|t| !t.is_true() && !st.pc.contains(t)).cloned());
        // A fork's sides are asked near the state's valid input (see `Solver::suggest`).
        if let Some(w) = &st.witness
            && !self.in_p_search()
        {
            self.solver.suggest(&w.model, &st.pc, st.witness_upto);
        }
        match self.solver.check(&q) {
            SatResult::Sat(_) => Feasible::Yes,
            SatResult::Unsat => Feasible::No,
            SatResult::Unknown(_) => Feasible::Unknown,
        }
    }

    /// The verdict on `pc ∧ extra` when it needs no query: a constraint that is false, or one
    /// the solver's plain refutation rules out ([`Solver::refutes`]: denied by the path
    /// condition, an order cycle, classes kept apart); constraints all true or already in it.
    fn plainly(&mut self, st: &State<H>, extra: &[Term]) -> Option<Feasible> {
        if extra.iter().any(|t| t.is_false()) {
            return Some(Feasible::No);
        }
        let extra: Vec<&Term> = extra.iter().filter(|t| !t.is_true() && !st.pc.contains(t)).collect();
        if extra.is_empty() {
            return Some(Feasible::Yes);
        }
        if self.solver.refutes(&st.pc, &extra) { Some(Feasible::No) } else { None }
    }

    /// [`Machine::feasible`] outside a P-search; inside one, the plain verdict
    /// or `Yes` with the state to be marked unchecked (the second value).
    fn feasible_or_defer(&mut self, st: &State<H>, extra: &[Term]) -> (Feasible, bool) {
        if !self.in_p_search() {
            return (self.feasible(st, extra), false);
        }
        match self.plainly(st, extra) {
            Some(v) => (v, false),
            None => (Feasible::Yes, true),
        }
    }

    /// Whether each of `alts` is satisfiable together with the path condition. The solver is
    /// asked about the disjunction of those not decided yet: unsatisfiable rules them all out
    /// at once, and a model decides every one it satisfies. So a set of which a few are
    /// possible costs about as many queries as are possible, plus one, instead of one per
    /// alternative (the location pruning before a read rules out most of its candidates).
    pub(super) fn feasible_each(&mut self, st: &State<H>, alts: &[Term]) -> Vec<Feasible> {
        let mut out: Vec<Option<Feasible>> = vec![None; alts.len()];
        loop {
            let open: Vec<(usize, &Term)> =
                alts.iter().enumerate().filter(|(i, _)| out.get(*i) == Some(&None)).collect();
            let mut set = |i: usize, v: Feasible| {
                if let Some(o) = out.get_mut(i) {
                    *o = Some(v);
                }
            };
            if open.len() < 2 {
                for (i, t) in open {
                    set(i, self.feasible(st, std::slice::from_ref(t)));
                }
                break;
            }
            let terms: Vec<Term> = open.iter().map(|(_, t)| (*t).clone()).collect();
            let mut q = st.pc.clone();
            q.push(self.terms.or(&terms));
            let mut decided = false;
            match self.solver.check(&q) {
                SatResult::Unsat => {
                    for (i, _) in open {
                        set(i, Feasible::No);
                    }
                    break;
                }
                SatResult::Sat(m) => {
                    let mut ev = Evaluator::new(&m);
                    for (i, t) in &open {
                        if ev.eval(t) == Some(Val::Bool(true)) {
                            set(*i, Feasible::Yes);
                            decided = true;
                        }
                    }
                }
                SatResult::Unknown(_) => {}
            }
            if !decided {
                // No model, or one that shows none of them: one by one.
                for (i, t) in open {
                    set(i, self.feasible(st, std::slice::from_ref(t)));
                }
                break;
            }
        }
        out.into_iter().map(|v| v.unwrap_or(Feasible::Unknown)).collect()
    }

    /// Turns a strategy's alternatives into states, dropping infeasible ones. The
    /// alternatives are exhaustive, so a lone survivor needs no check. With a precondition,
    /// several survivors are kept only where some valid input reaches them.
    pub(super) fn fork<T>(&mut self, st: State<H>, alts: Vec<Alt<H::Heap, T>>) -> Vec<Forked<H, T>> {
        if !st.bottoms.is_empty() {
            let assumed: Vec<Term> = alts.iter().flat_map(|a| a.assume.iter().cloned()).collect();
            if let Some(why) = self.undetermined_in(&st, &assumed) {
                return vec![Forked::Cut(st, why)];
            }
        }
        let n = alts.len();
        let mut verdicts = Vec::with_capacity(n);
        let mut rejected = 0;
        for (i, alt) in alts.iter().enumerate() {
            let v = if n == 1 || (i + 1 == n && rejected == n - 1) {
                (Feasible::Yes, false)
            } else {
                self.feasible_or_defer(&st, &alt.assume)
            };
            if v.0 == Feasible::No {
                rejected += 1;
            }
            verdicts.push(v);
        }
        let mut remaining = n - rejected;
        let several = remaining > 1;
        // A shape choice is not in the path condition: the witness cannot vouch for it.
        let reshaped = several && self.strategy.shape_choices();
        let mut out = Vec::with_capacity(remaining);
        let mut st = Some(st);
        for (alt, (v, defer)) in alts.into_iter().zip(verdicts) {
            if v == Feasible::No {
                continue;
            }
            remaining -= 1;
            let s = if remaining == 0 { st.take() } else { st.clone() };
            let Some(mut s) = s else { continue };
            s.heap = alt.heap;
            s.assume(&alt.assume);
            s.unknown |= v == Feasible::Unknown;
            // A lone survivor of exhaustive alternatives needs no check.
            s.unchecked |= defer && several;
            if reshaped {
                s.witness = None;
            }
            match alt.cut {
                // With a precondition the scope is the input domain: a state that needs an
                // object beyond it has no input, and is counted apart, not reported.
                Some(_) if self.drops_beyond_scope(&s) => self.stats.beyond_scope += 1,
                Some(c) => out.push(Forked::Cut(s, c)),
                None if several => match self.valid_side(&mut s) {
                    Valid::Yes => out.push(Forked::Live(s, alt.value)),
                    Valid::No => {}
                    Valid::Fused => out.push(Forked::Cut(s, self.fuse_cut())),
                },
                None => out.push(Forked::Live(s, alt.value)),
            }
        }
        out
    }

    /// Whether a `--max-objects` cut of `s` is dropped rather than reported: with a
    /// precondition, outside the precondition itself.
    pub(super) fn drops_beyond_scope(&self, s: &State<H>) -> bool {
        self.oracle().is_some() && !Self::in_precondition(s)
    }

    /// The oracle's verdict on one side of a fork (see `precondition.rs`); an engine fault
    /// in the check is kept for the run loop to report, and ends the side.
    pub(super) fn valid_side(&mut self, s: &mut State<H>) -> Valid {
        match self.validate(s) {
            Ok(Valid::No) => {
                self.stats.rejected += 1;
                Valid::No
            }
            Ok(v) => v,
            Err(e) => {
                // `validate` fails only in a run with a valid-input search, which keeps the fault.
                if let Some(v) = &mut self.valid {
                    v.fault.get_or_insert(e);
                }
                Valid::No
            }
        }
    }

    /// Splits a state on a boolean condition: the feasible sides, `true` first.
    pub(super) fn split(&mut self, st: State<H>, cond: &Term) -> Vec<(State<H>, bool)> {
        if let Some(b) = cond.as_bool() {
            return vec![(st, b)];
        }
        if !st.bottoms.is_empty()
            && let Some(why) = self.undetermined_in(&st, std::slice::from_ref(cond))
        {
            self.aside.push(Next::Done(st, Outcome::Cut(why)));
            return Vec::new();
        }
        let not = self.terms.not(cond);
        let (t, defer_t) = self.feasible_or_defer(&st, std::slice::from_ref(cond));
        let (f, defer_f) = if t == Feasible::No {
            (Feasible::Yes, false)
        } else {
            self.feasible_or_defer(&st, std::slice::from_ref(&not))
        };
        let both = t != Feasible::No && f != Feasible::No;
        let mut out = Vec::with_capacity(2);
        let mut st = Some(st);
        if t != Feasible::No {
            let s = if f != Feasible::No { st.clone() } else { st.take() };
            if let Some(mut s) = s {
                s.assume(std::slice::from_ref(cond));
                s.unknown |= t == Feasible::Unknown;
                s.unchecked |= defer_t && both;
                out.push((s, true));
            }
        }
        if f != Feasible::No
            && let Some(mut s) = st.take()
        {
            s.assume(std::slice::from_ref(&not));
            s.unknown |= f == Feasible::Unknown;
            s.unchecked |= defer_f && both;
            out.push((s, false));
        }
        if out.len() > 1 && self.oracle().is_some() {
            let mut kept = Vec::with_capacity(2);
            for (mut s, b) in out {
                match self.valid_side(&mut s) {
                    Valid::Yes => kept.push((s, b)),
                    Valid::No => {}
                    Valid::Fused => self.aside.push(Next::Done(s, Outcome::Cut(self.fuse_cut()))),
                }
            }
            return kept;
        }
        out
    }

    /// Records a program decision at the current instruction; `false` if it exceeds
    /// `--max-depth` (the caller ends the trace as cut). The decision that exceeds the bound
    /// is still recorded, so that the two sides of a cut branch stay distinct paths.
    /// Inside the precondition decisions are not part of the path: they only count against
    /// `--precondition-fuse`.
    pub(super) fn record(&self, st: &mut State<H>, choice: Choice, _forked: bool) -> bool {
        let b = &self.config.bounds;
        if Self::in_precondition(st) {
            st.pre_decisions += 1;
            return st.pre_decisions <= b.precondition_fuse;
        }
        // A class initializer runs once per JVM, whichever test triggers it first: its
        // branches are no part of a method's path.
        if st.frames.iter().any(|f| f.kind == super::state::FrameKind::ClassInit) {
            return true;
        }
        let within = self.within_depth(&st.path);
        let Some(f) = st.top() else { return false };
        let d = Decision { method: f.method, pc: f.pc(), choice };
        st.path.push(d);
        within
    }

    /// Whether the state is still running the precondition.
    pub(super) fn in_precondition(st: &State<H>) -> bool {
        st.frames.iter().any(|f| f.kind == super::state::FrameKind::Precondition)
    }

    /// Records a decision, or ends the trace as cut by `--max-depth`.
    pub(super) fn decide(
        &self,
        mut st: State<H>,
        choice: Choice,
        forked: bool,
    ) -> std::result::Result<State<H>, Next<H>> {
        let in_pre = Self::in_precondition(&st);
        if self.record(&mut st, choice, forked) {
            Ok(st)
        } else if in_pre {
            let fuse = self.config.bounds.precondition_fuse;
            Err(Next::Done(st, Outcome::Cut(CutReason::PreconditionFuse(fuse))))
        } else {
            let d = self.config.bounds.max_depth;
            Err(Next::Done(st, Outcome::Cut(CutReason::MaxDepth(d))))
        }
    }

    pub(super) fn exec_term(&mut self, st: State<H>, term: &Terminator) -> Result<Vec<Next<H>>> {
        match term {
            Terminator::Goto(b) => {
                let mut st = st;
                if let Some(f) = st.top_mut() {
                    f.goto(*b);
                }
                Ok(vec![Next::Run(st)])
            }
            Terminator::If { cond, then, otherwise } => self.branch(st, cond, *then, *otherwise),
            Terminator::Switch { key, cases, default } => self.switch(st, key, cases, *default),
            Terminator::Return(v) => {
                let mut st = st;
                let v = match v {
                    Some(o) => Some(self.operand(&mut st, o)?),
                    None => None,
                };
                self.ret(st, v)
            }
            Terminator::Throw(o) => {
                let mut st = st;
                let v = self.operand(&mut st, o)?;
                let Value::Ref(r) = v else { return Err(self.fault(&st, "throw of a non-reference")) };
                self.throw_ref(st, r)
            }
        }
    }

    fn branch(
        &mut self,
        st: State<H>,
        cond: &Cond,
        then: crate::ir::BlockId,
        otherwise: crate::ir::BlockId,
    ) -> Result<Vec<Next<H>>> {
        let mut st = st;
        // Traces a materialization split cut (a bound), reported as cut.
        let mut cuts = Vec::new();
        // Each outcome with whether its own split forked; `None` when no materialization
        // split came first (then the decision forked iff there are several outcomes).
        let (outcomes, split): (Vec<(State<H>, bool)>, Option<Vec<bool>>) = match cond {
            Cond::Int(op, a, b) => {
                let a = self.int_operand(&mut st, a)?;
                let b = self.int_operand(&mut st, b)?;
                let c = self.rel(*op, &a, &b);
                (self.split(st, &c), None)
            }
            Cond::Ref(op, a, b) => {
                let ra = self.ref_operand(&mut st, a)?;
                let rb = self.ref_operand(&mut st, b)?;
                let Some(st) = self.determined(st, &[&ra, &rb]) else { return Ok(Vec::new()) };
                let alts = self.strategy.ref_eq(cx!(self), &st.heap, &ra, &rb)?;
                let ne = *op == RelOp::Ne;
                let forks = self.fork(st, alts);
                let materialized = forks.iter().filter(|f| matches!(f, Forked::Live(..))).count() > 1;
                let (mut out, mut split) = (Vec::new(), Vec::new());
                for f in forks {
                    match f {
                        Forked::Live(s, Test::Known(eq)) => {
                            out.push((s, eq != ne));
                            split.push(false);
                        }
                        Forked::Live(s, Test::Cond(c)) => {
                            let sides = self.split(s, &c);
                            let n = sides.len();
                            for (mut s, eq) in sides {
                                self.strategy.ref_test_outcome(&mut s.heap, &ra, &rb, eq);
                                out.push((s, eq != ne));
                                split.push(n > 1);
                            }
                        }
                        Forked::Cut(s, why) => cuts.push(Next::Done(s, Outcome::Cut(why))),
                    }
                }
                (out, materialized.then_some(split))
            }
        };
        let mut next = cuts;
        next.reserve(outcomes.len());
        let several = outcomes.len() > 1;
        for (i, (s, taken)) in outcomes.into_iter().enumerate() {
            // A materialization split already counted as a fork (`fork`): the decision only
            // counts again where its own split forked too.
            let forked = match &split {
                Some(sp) => sp.get(i).copied().unwrap_or(false),
                None => several,
            };
            match self.decide(s, Choice::Branch(taken), forked) {
                Ok(mut s) => {
                    if let Some(f) = s.top_mut() {
                        f.goto(if taken { then } else { otherwise });
                    }
                    next.push(Next::Run(s));
                }
                Err(done) => next.push(done),
            }
        }
        Ok(next)
    }

    fn switch(
        &mut self,
        st: State<H>,
        key: &Operand,
        cases: &[(i32, crate::ir::BlockId)],
        default: crate::ir::BlockId,
    ) -> Result<Vec<Next<H>>> {
        let mut st = st;
        let k = self.int_operand(&mut st, key)?;
        let mut targets: Vec<(State<H>, Option<i32>, crate::ir::BlockId)> = Vec::new();
        if let Some(v) = k.as_i64() {
            let hit = cases.iter().find(|(c, _)| i64::from(*c) == v);
            targets.push((st, hit.map(|(c, _)| *c), hit.map(|(_, b)| *b).unwrap_or(default)));
        } else {
            let mut misses = Vec::new();
            for (c, b) in cases {
                let ct = self.terms.int(*c);
                let eq = self.terms.eq(&k, &ct);
                match self.feasible(&st, std::slice::from_ref(&eq)) {
                    Feasible::No => {}
                    v => {
                        let mut s = st.clone();
                        s.assume(std::slice::from_ref(&eq));
                        s.unknown |= v == Feasible::Unknown;
                        targets.push((s, Some(*c), *b));
                    }
                }
                misses.push(self.terms.not(&eq));
            }
            match self.feasible(&st, &misses) {
                Feasible::No => {}
                v => {
                    st.assume(&misses);
                    st.unknown |= v == Feasible::Unknown;
                    targets.push((st, None, default));
                }
            }
        }
        if self.at_driver_switch(&targets) {
            // A sequence tries the method under test before a longer prefix (shortest inputs first).
            targets.rotate_right(1);
        }
        let mut next = Vec::new();
        let forked = targets.len() > 1;
        for (mut s, case, b) in targets {
            if forked {
                match self.valid_side(&mut s) {
                    Valid::Yes => {}
                    Valid::No => continue,
                    Valid::Fused => {
                        next.push(Next::Done(s, Outcome::Cut(self.fuse_cut())));
                        continue;
                    }
                }
            }
            match self.decide(s, Choice::Case(case), forked) {
                Ok(mut s) => {
                    if let Some(f) = s.top_mut() {
                        f.goto(b);
                    }
                    next.push(Next::Run(s));
                }
                Err(done) => next.push(done),
            }
        }
        Ok(next)
    }

    /// Raises a JVM exception (`java/lang/NullPointerException`, ...) at the current instruction.
    pub(super) fn raise(&mut self, st: State<H>, class: &str) -> Result<Vec<Next<H>>> {
        let mut st = st;
        if let Some(callee) = self.in_model.clone() {
            // Raised inside a modelled JDK method: the path says the call was made (unless
            // its dispatch already did).
            let at = st.top().map(|f| (f.method, f.pc()));
            let dispatched = st.path.last().is_some_and(|d| {
                Some((d.method, d.pc)) == at && matches!(&d.choice, Choice::Dispatch(c) if *c == callee)
            });
            if !dispatched {
                st = match self.decide(st, Choice::Dispatch(callee), true) {
                    Ok(s) => s,
                    Err(done) => return Ok(vec![done]),
                };
            }
        }
        let id = self.program.table.lookup(class).ok_or_else(|| Error::MissingClass {
            name: class.to_string(),
            context: Some("the machine's exception model".into()),
        })?;
        let r = self.strategy.alloc(cx!(self), &mut st.heap, ObjKind::Class(id), None)?;
        self.unwind(st, r, id)
    }

    /// `athrow`: null check, then unwinding with each possible class of the thrown object.
    fn throw_ref(&mut self, st: State<H>, r: H::Ref) -> Result<Vec<Next<H>>> {
        let mut next = Vec::new();
        let Some(st) = self.determined(st, &[&r]) else { return Ok(Vec::new()) };
        let alts = self.strategy.null_split(cx!(self), &st.heap, &r)?;
        for f in self.fork(st, alts) {
            match f {
                Forked::Live(s, Nullness::Null) => next.extend(self.raise(s, "java/lang/NullPointerException")?),
                Forked::Live(s, Nullness::NonNull) => {
                    let alts = self.strategy.classes(cx!(self), &s.heap, &r)?;
                    for g in self.fork(s, alts) {
                        let Forked::Live(s, classes) = g else { continue };
                        for (kind, guard) in classes {
                            let ObjKind::Class(c) = kind else { continue };
                            for (s2, ok) in self.split(s.clone(), &guard) {
                                if ok {
                                    next.extend(self.unwind(s2, r.clone(), c)?);
                                }
                            }
                        }
                    }
                }
                Forked::Cut(s, why) => next.push(Next::Done(s, Outcome::Cut(why))),
            }
        }
        Ok(next)
    }

    /// Records the exception edge and transfers control to the first matching handler,
    /// popping frames; an exception out of the entry method ends the trace.
    pub(super) fn unwind(&mut self, st: State<H>, exc: H::Ref, class: ClassId) -> Result<Vec<Next<H>>> {
        let name = self.program.table.class(class).java_name();
        let mut st = match self.decide(st, Choice::Throw(name), true) {
            Ok(s) => s,
            Err(done) => return Ok(vec![done]),
        };
        loop {
            let Some(frame) = st.top() else { return Ok(vec![Next::Done(st, Outcome::Exception(class))]) };
            let handler = frame.block().and_then(|b| {
                b.handlers.iter().find(|h| h.catch.is_none_or(|c| self.program.table.is_subclass(class, c))).cloned()
            });
            if let Some(h) = handler {
                if let Some(f) = st.top_mut() {
                    f.set(h.exception, Value::Ref(exc));
                    f.goto(h.target);
                }
                return Ok(vec![Next::Run(st)]);
            }
            let popped = st.frames.pop();
            if popped.is_some_and(|f| f.kind == FrameKind::Precondition) {
                return Ok(vec![Next::Rejected]);
            }
            if st.frames.is_empty() {
                return Ok(vec![Next::Done(st, Outcome::Exception(class))]);
            }
        }
    }

    /// Dereference check: the non-null alternatives continue with `f`; null ones raise NPE.
    pub(super) fn non_null(
        &mut self,
        st: State<H>,
        r: &H::Ref,
        mut f: impl FnMut(&mut Self, State<H>) -> Result<Vec<Next<H>>>,
    ) -> Result<Vec<Next<H>>> {
        let Some(st) = self.determined(st, &[r]) else { return Ok(Vec::new()) };
        let alts = self.strategy.null_split(cx!(self), &st.heap, r)?;
        let mut next = Vec::new();
        for fk in self.fork(st, alts) {
            match fk {
                Forked::Live(s, Nullness::Null) => next.extend(self.raise(s, "java/lang/NullPointerException")?),
                Forked::Live(s, Nullness::NonNull) => next.extend(f(self, s)?),
                Forked::Cut(s, why) => next.push(Next::Done(s, Outcome::Cut(why))),
            }
        }
        Ok(next)
    }

    /// Before a read of `f` through a reference that may be at several locations, drops
    /// those of its locations whose `f` the read would initialize but the path condition
    /// rules out (an alias a precondition's ordering excludes): their fields would count
    /// as objects and be carried along. With a precondition, of several left it also drops
    /// those no valid input puts the reference at (the path condition then says so), as
    /// lazy initialization drops such an alias once: kept, every later P-search of the
    /// state's descendants would refute it again.
    pub(super) fn prune_locations(&mut self, mut st: State<H>, r: &H::Ref, f: FieldId) -> State<H> {
        if self.in_p_search() {
            // A P-search reads through each location on a side of its own (a pointwise heap).
            return st;
        }
        let guards = self.strategy.location_guards(cx!(self), &st.heap, r, f);
        let mut dead: Vec<usize> = self
            .feasible_each(&st, &guards)
            .into_iter()
            .enumerate()
            .filter(|(_, v)| *v == Feasible::No)
            .map(|(i, _)| i)
            .collect();
        if self.oracle().is_some() {
            // One location always stays: a state without any valid input is the oracle's
            // to drop at its next fork or end, not a read's.
            let mut alive = guards.len() - dead.len();
            for (i, g) in guards.iter().enumerate() {
                if alive <= 1 {
                    break;
                }
                if dead.contains(&i) {
                    continue;
                }
                let mut side = st.clone();
                side.assume(std::slice::from_ref(g));
                // The state's witness settles the location it takes without a search.
                if self.valid_side(&mut side) == Valid::No {
                    dead.push(i);
                    alive -= 1;
                    let not = self.terms.not(g);
                    st.assume(std::slice::from_ref(&not));
                }
            }
            dead.sort_unstable();
        }
        if !dead.is_empty() {
            self.strategy.drop_locations(&mut st.heap, r, f, &dead);
        }
        st
    }

    /// Continues each alternative of a heap operation with `f`; cut ones end as cut traces.
    pub(super) fn each<T>(
        &mut self,
        st: State<H>,
        alts: Vec<Alt<H::Heap, T>>,
        mut f: impl FnMut(&mut Self, State<H>, T) -> Result<Vec<Next<H>>>,
    ) -> Result<Vec<Next<H>>> {
        let mut next = Vec::new();
        for fk in self.fork(st, alts) {
            match fk {
                Forked::Live(s, v) => next.extend(f(self, s, v)?),
                Forked::Cut(s, why) => next.push(Next::Done(s, Outcome::Cut(why))),
            }
        }
        Ok(next)
    }

    /// An engine fault at the current instruction.
    pub(super) fn fault(&self, st: &State<H>, what: &str) -> Error {
        Error::MachineUnsupported { at: self.location(st), what: what.to_string() }
    }

    /// The current class, method and offset, for error messages.
    pub(super) fn location(&self, st: &State<H>) -> crate::error::Location {
        let t = &self.program.table;
        match st.top() {
            Some(f) => {
                let m = t.method(f.method);
                crate::error::Location {
                    class: Some(t.class(m.owner).java_name()),
                    method: Some(m.signature()),
                    pc: Some(f.pc()),
                    line: m.source.line(f.pc()),
                }
            }
            None => crate::error::Location::default(),
        }
    }
}
