//! Primitive arithmetic with Java semantics: wrap-around, masked shifts, division by zero,
//! IEEE floating point on the bits of floats and doubles (`term/float.rs`).

use super::Machine;
use super::control::Feasible;
use super::state::{Next, State};
use crate::Result;
use crate::classfile::Kind;
use crate::heap::{HeapStrategy, Value};
use crate::ir::{BinOp, CmpKind, Conv, LocalId, Operand, RelOp};
use crate::solver::Solver;
use crate::term::{BvCmp, BvOp, FpConv, FpOp, Term};

impl<H: HeapStrategy, S: Solver> Machine<'_, H, S> {
    fn wrap(kind: Kind, t: Term) -> Value<H::Ref> {
        if matches!(kind, Kind::Long | Kind::Double) { Value::Long(t) } else { Value::Int(t) }
    }

    fn check_kind(&self, st: &State<H>, kind: Kind) -> Result<()> {
        match kind {
            Kind::Int | Kind::Long | Kind::Float | Kind::Double => Ok(()),
            Kind::Ref => Err(self.fault(st, "arithmetic on references")),
        }
    }

    /// `x op y` on floats or doubles (`frem`/`drem` never get here: `exec.rs` cuts them).
    fn floating(&mut self, st: &State<H>, op: BinOp, x: &Term, y: &Term) -> Result<Term> {
        let op = match op {
            BinOp::Add => FpOp::Add,
            BinOp::Sub => FpOp::Sub,
            BinOp::Mul => FpOp::Mul,
            BinOp::Div => FpOp::Div,
            _ => return Err(self.fault(st, "a bitwise operation on floating-point values")),
        };
        Ok(self.terms.fp(op, x, y))
    }

    pub(super) fn binary(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        op: BinOp,
        kind: Kind,
        a: &Operand,
        b: &Operand,
    ) -> Result<Vec<Next<H>>> {
        let mut st = st;
        self.check_kind(&st, kind)?;
        let x = self.int_operand(&mut st, a)?;
        let y = self.int_operand(&mut st, b)?;
        if matches!(kind, Kind::Float | Kind::Double) {
            let v = self.floating(&st, op, &x, &y)?;
            return Ok(vec![self.produce(st, dst, Self::wrap(kind, v))]);
        }
        let t = &mut self.terms;
        let shift = |t: &mut crate::term::TermPool, y: &Term| -> Term {
            // The JVM masks shift distances; a long shift's distance is an int.
            let (w, m) = if kind == Kind::Long { (64, 63) } else { (32, 31) };
            let mask = t.int(m);
            let d = t.bin(BvOp::And, y, &mask);
            if w == 64 { t.zext(32, &d) } else { d }
        };
        let v = match op {
            BinOp::Add => t.bin(BvOp::Add, &x, &y),
            BinOp::Sub => t.bin(BvOp::Sub, &x, &y),
            BinOp::Mul => t.bin(BvOp::Mul, &x, &y),
            BinOp::And => t.bin(BvOp::And, &x, &y),
            BinOp::Or => t.bin(BvOp::Or, &x, &y),
            BinOp::Xor => t.bin(BvOp::Xor, &x, &y),
            BinOp::Shl => {
                let d = shift(t, &y);
                t.bin(BvOp::Shl, &x, &d)
            }
            BinOp::Shr => {
                let d = shift(t, &y);
                t.bin(BvOp::AShr, &x, &d)
            }
            BinOp::Ushr => {
                let d = shift(t, &y);
                t.bin(BvOp::LShr, &x, &d)
            }
            BinOp::Div | BinOp::Rem => return self.divide(st, dst, op, kind, x, y),
        };
        Ok(vec![self.produce(st, dst, Self::wrap(kind, v))])
    }

    /// Division and remainder: a zero divisor raises ArithmeticException (a program path).
    fn divide(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        op: BinOp,
        kind: Kind,
        x: Term,
        y: Term,
    ) -> Result<Vec<Next<H>>> {
        let zero = self.terms.bv(y.width(), 0);
        let is_zero = self.terms.eq(&y, &zero);
        let mut next = Vec::new();
        for (s, z) in self.split(st, &is_zero) {
            if z {
                next.extend(self.raise(s, "java/lang/ArithmeticException")?);
            } else {
                let bop = if op == BinOp::Div { BvOp::SDiv } else { BvOp::SRem };
                let v = self.terms.bin(bop, &x, &y);
                next.push(self.produce(s, dst, Self::wrap(kind, v)));
            }
        }
        Ok(next)
    }

    pub(super) fn negate(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        kind: Kind,
        a: &Operand,
    ) -> Result<Vec<Next<H>>> {
        let mut st = st;
        self.check_kind(&st, kind)?;
        let x = self.int_operand(&mut st, a)?;
        let v = if matches!(kind, Kind::Float | Kind::Double) {
            // `fneg`/`dneg` flip the sign bit (of NaN too).
            let w = x.width();
            let sign = self.terms.bv(w, (1u64 << (w - 1)) as i64);
            self.terms.bin(BvOp::Xor, &x, &sign)
        } else {
            self.terms.neg(&x)
        };
        Ok(vec![self.produce(st, dst, Self::wrap(kind, v))])
    }

    pub(super) fn convert(&mut self, st: State<H>, dst: Option<LocalId>, c: Conv, a: &Operand) -> Result<Vec<Next<H>>> {
        let mut st = st;
        let t = self.int_operand(&mut st, a)?;
        let p = &mut self.terms;
        let v = match c {
            Conv::I2F | Conv::L2F => Value::Int(p.fp_conv(FpConv::FromInt, 32, &t)),
            Conv::I2D | Conv::L2D => Value::Long(p.fp_conv(FpConv::FromInt, 64, &t)),
            Conv::F2I | Conv::D2I => Value::Int(p.fp_conv(FpConv::ToInt, 32, &t)),
            Conv::F2L | Conv::D2L => Value::Long(p.fp_conv(FpConv::ToInt, 64, &t)),
            Conv::F2D => Value::Long(p.fp_conv(FpConv::Resize, 64, &t)),
            Conv::D2F => Value::Int(p.fp_conv(FpConv::Resize, 32, &t)),
            Conv::I2L => Value::Long(p.sext(32, &t)),
            Conv::L2I => Value::Int(p.extract(31, 0, &t)),
            Conv::I2B => {
                let b = p.extract(7, 0, &t);
                Value::Int(p.sext(24, &b))
            }
            Conv::I2C => {
                let c = p.extract(15, 0, &t);
                Value::Int(p.zext(16, &c))
            }
            _ => {
                let s = p.extract(15, 0, &t);
                Value::Int(p.sext(16, &s))
            }
        };
        Ok(vec![self.produce(st, dst, v)])
    }

    /// `lcmp`, `fcmpl`, `fcmpg`, `dcmpl`, `dcmpg`: -1, 0 or 1 (NaN: -1 for `l`, 1 for `g`).
    pub(super) fn compare(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        k: CmpKind,
        a: &Operand,
        b: &Operand,
    ) -> Result<Vec<Next<H>>> {
        let mut st = st;
        let x = self.int_operand(&mut st, a)?;
        let y = self.int_operand(&mut st, b)?;
        let p = &mut self.terms;
        let (m1, z, one) = (p.int(-1), p.int(0), p.int(1));
        let v = if k == CmpKind::Lcmp {
            let lt = p.cmp(BvCmp::Slt, &x, &y);
            let eq = p.eq(&x, &y);
            let inner = p.ite(&eq, &z, &one);
            p.ite(&lt, &m1, &inner)
        } else {
            let (lt, eq, gt) = (p.fp(FpOp::Lt, &x, &y), p.fp(FpOp::Eq, &x, &y), p.fp(FpOp::Lt, &y, &x));
            let nan = if matches!(k, CmpKind::Fcmpl | CmpKind::Dcmpl) { m1.clone() } else { one.clone() };
            let unordered = p.ite(&gt, &one, &nan);
            let inner = p.ite(&eq, &z, &unordered);
            p.ite(&lt, &m1, &inner)
        };
        Ok(vec![self.produce(st, dst, Value::Int(v))])
    }

    /// The boolean term of a signed comparison.
    pub(super) fn rel(&mut self, op: RelOp, a: &Term, b: &Term) -> Term {
        let p = &mut self.terms;
        match op {
            RelOp::Eq => p.eq(a, b),
            RelOp::Ne => p.ne(a, b),
            RelOp::Lt => p.cmp(BvCmp::Slt, a, b),
            RelOp::Le => p.cmp(BvCmp::Sle, a, b),
            RelOp::Gt => p.cmp(BvCmp::Slt, b, a),
            RelOp::Ge => p.cmp(BvCmp::Sle, b, a),
        }
    }

    /// Whether `cond` can hold (used by bounds checks that only need one side).
    pub(super) fn may(&mut self, st: &State<H>, cond: &Term) -> bool {
        self.feasible(st, std::slice::from_ref(cond)) != Feasible::No
    }
}
