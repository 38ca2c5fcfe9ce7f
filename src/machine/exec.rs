//! One step: fetch the current statement or terminator and dispatch it to its family's handler.

use super::Machine;
use super::control::cx;
use super::state::{Next, State};
use crate::Result;
use crate::classfile::JType;
use crate::cut::Unsupported;
use crate::heap::{HeapStrategy, ObjKind, Value};
use crate::ir::{Const, Expr, LocalId, Operand, Stmt};
use crate::solver::Solver;
use crate::term::Term;

/// What of a statement the machine does not model: the floating-point remainder (`frem`,
/// `drem`: Java's is C's `fmod`, not IEEE's remainder).
fn unmodelled(stmt: &Stmt) -> Option<Unsupported> {
    use crate::classfile::Kind;
    match stmt {
        Stmt::Assign(_, Expr::Binary(crate::ir::BinOp::Rem, Kind::Float | Kind::Double, ..)) => {
            Some(Unsupported::FloatRemainder)
        }
        _ => None,
    }
}

impl<H: HeapStrategy, S: Solver> Machine<'_, H, S> {
    /// Executes the current statement or terminator of the top frame; a class initializer
    /// that reaches code the machine does not run is abandoned instead of the trace.
    pub(super) fn step(&mut self, st: State<H>) -> Result<Vec<Next<H>>> {
        let mut next = self.step_once(st)?;
        // Traces a step cut on the side (an undetermined value, an identity-hash index).
        next.append(&mut self.aside);
        Ok(next.into_iter().map(|n| self.abandon_init(n)).collect())
    }

    /// A trace cut by code the machine does not run inside a class initializer goes on
    /// without that initializer: its frames are dropped (the instruction that started it runs
    /// again), and the class's statics it had not computed are unknown (see `get_static`).
    fn abandon_init(&self, n: Next<H>) -> Next<H> {
        match n {
            Next::Done(mut s, super::Outcome::Cut(why)) if why.is_code_gap() => {
                match s.frames.iter().rposition(|f| f.kind == super::state::FrameKind::ClassInit) {
                    Some(at) => {
                        let class = self.program.table.method(s.frames[at].method).owner;
                        s.frames.truncate(at);
                        s.init_gaps.classes.push((class, why));
                        Next::Run(s)
                    }
                    None => Next::Done(s, super::Outcome::Cut(why)),
                }
            }
            n => n,
        }
    }

    /// Executes the current statement or terminator of the top frame.
    fn step_once(&mut self, mut st: State<H>) -> Result<Vec<Next<H>>> {
        st.steps += 1;
        self.stats.steps += 1;
        let Some(frame) = st.top() else { return Err(self.fault(&st, "a state without frames")) };
        let body = frame.body.clone();
        let Some(block) = body.blocks.get(frame.block.0 as usize) else {
            return Err(self.fault(&st, "a jump to a block that does not exist"));
        };
        match block.instrs.get(frame.next) {
            Some(instr) => match unmodelled(&instr.stmt) {
                // Not modelled yet: the trace ends here, cut with the reason; the run goes on.
                Some(what) => Ok(vec![Next::Done(st, super::Outcome::Cut(what.into()))]),
                None => self.exec_stmt(st, &instr.stmt),
            },
            None => match self.sequence_point(&st)? {
                Some(ended) => Ok(ended),
                None => self.exec_term(st, &block.term),
            },
        }
    }

    fn exec_stmt(&mut self, st: State<H>, stmt: &Stmt) -> Result<Vec<Next<H>>> {
        match stmt {
            Stmt::Assign(dst, e) => self.exec_expr(st, Some(*dst), e),
            Stmt::Invoke(call) => self.exec_call(st, None, call),
            Stmt::PutField(o, f, v) => self.put_field(st, o, f, v),
            Stmt::PutStatic(f, v) => self.put_static(st, f, v),
            Stmt::ArrayStore(k, a, i, v) => self.array_store(st, *k, a, i, v),
            Stmt::CheckCast(o, ty) => self.check_cast(st, None, o, ty),
            Stmt::Monitor(_, o) => self.monitor(st, o),
        }
    }

    fn exec_expr(&mut self, st: State<H>, dst: Option<LocalId>, e: &Expr) -> Result<Vec<Next<H>>> {
        let mut st = st;
        match e {
            Expr::Use(o) => {
                let v = self.operand(&mut st, o)?;
                Ok(vec![self.produce(st, dst, v)])
            }
            Expr::Binary(op, kind, a, b) => self.binary(st, dst, *op, *kind, a, b),
            Expr::Neg(kind, a) => self.negate(st, dst, *kind, a),
            Expr::Convert(c, a) => self.convert(st, dst, *c, a),
            Expr::Compare(k, a, b) => self.compare(st, dst, *k, a, b),
            Expr::GetField(o, f) => self.get_field(st, dst, o, f),
            Expr::GetStatic(f) => self.get_static(st, dst, f),
            Expr::New(c) => self.new_object(st, dst, *c),
            Expr::NewArray(elem, len) => self.new_array(st, dst, elem, len),
            Expr::ArrayLength(a) => self.array_length(st, dst, a),
            Expr::ArrayLoad(k, a, i) => self.array_load(st, dst, *k, a, i),
            Expr::InstanceOf(o, ty) => self.instance_of(st, dst, o, ty),
            Expr::CheckCast(o, ty) => self.check_cast(st, dst, o, ty),
            Expr::Invoke(call) => self.exec_call(st, dst, call),
            Expr::Concat(_) => {
                let v = self.new_string(&mut st, None)?;
                Ok(vec![self.produce(st, dst, v)])
            }
            Expr::Dynamic(d) => {
                let why = Unsupported::Invokedynamic { name: d.name.clone(), why: d.why.clone() };
                Ok(vec![Next::Done(st, super::Outcome::Cut(why.into()))])
            }
        }
    }

    /// `monitorenter`/`monitorexit`: one thread runs a test, so a monitor is only a null check.
    fn monitor(&mut self, st: State<H>, o: &Operand) -> Result<Vec<Next<H>>> {
        let mut st = st;
        let r = self.ref_operand(&mut st, o)?;
        self.non_null(st, &r, |_, mut s| {
            s.advance();
            Ok(vec![Next::Run(s)])
        })
    }

    /// Stores a produced value (if there is a destination) and moves to the next statement.
    pub(super) fn produce(&self, mut st: State<H>, dst: Option<LocalId>, v: Value<H::Ref>) -> Next<H> {
        if let (Some(d), Some(f)) = (dst, st.top_mut()) {
            f.set(d, v);
        }
        st.advance();
        Next::Run(st)
    }

    /// The value of an operand. String and class literals are new opaque objects.
    pub(super) fn operand(&mut self, st: &mut State<H>, o: &Operand) -> Result<Value<H::Ref>> {
        match o {
            Operand::Local(l) => match st.top().and_then(|f| f.get(*l)) {
                Some(v) => Ok(v.clone()),
                None => Err(self.fault(st, &format!("a read of local {} before any write", l.0))),
            },
            Operand::Const(c) => match c {
                Const::Int(i) => Ok(Value::Int(self.terms.int(*i))),
                Const::Long(l) => Ok(Value::Long(self.terms.long(*l))),
                Const::Null => Ok(Value::Ref(self.strategy.null(cx!(self)))),
                Const::String(text) => self.new_string(st, Some(text)),
                Const::Class(ty) => Ok(Value::Ref(self.class_object(st, ty)?)),
                Const::Float(f) => Ok(Value::Int(self.terms.bv(32, i64::from(f.to_bits())))),
                Const::Double(d) => Ok(Value::Long(self.terms.bv(64, d.to_bits() as i64))),
            },
        }
    }

    /// The one `Class` object of type `ty` on this path.
    pub(super) fn class_object(&mut self, st: &mut State<H>, ty: &JType) -> Result<H::Ref> {
        if let Some((_, r)) = st.class_objects.iter().find(|(t, _)| t == ty) {
            return Ok(r.clone());
        }
        let Value::Ref(r) = self.literal_object(st, "java/lang/Class")? else {
            return Err(self.fault(st, "a Class literal that is not an object"));
        };
        st.class_objects.push((ty.clone(), r.clone()));
        Ok(r)
    }

    pub(super) fn literal_object(&mut self, st: &mut State<H>, class: &str) -> Result<Value<H::Ref>> {
        let id = self.program.table.lookup(class).ok_or_else(|| self.fault(st, &format!("literals of {class}")))?;
        Ok(Value::Ref(self.strategy.alloc(cx!(self), &mut st.heap, ObjKind::Class(id), None)?))
    }

    /// An int or long operand as a term.
    pub(super) fn int_operand(&mut self, st: &mut State<H>, o: &Operand) -> Result<Term> {
        match self.operand(st, o)? {
            Value::Int(t) | Value::Long(t) => Ok(t),
            Value::Ref(_) => Err(self.fault(st, "a reference where a number was expected")),
        }
    }

    /// A reference operand.
    pub(super) fn ref_operand(&mut self, st: &mut State<H>, o: &Operand) -> Result<H::Ref> {
        match self.operand(st, o)? {
            Value::Ref(r) => Ok(r),
            _ => Err(self.fault(st, "a number where a reference was expected")),
        }
    }
}
