//! Java `float` and `double` on IEEE-754 bits: the one definition evaluation, folding and printing share.
//!
//! A `float` value is the 32-bit bit-vector of its IEEE-754 bits and a `double` the 64-bit
//! one, so fields, array elements, locals and models hold them like ints and longs. Only the
//! operations below read the bits as floating point (round to nearest even, as the JVM);
//! every result that is NaN is Java's canonical NaN (`Float.NaN`, `Double.NaN`), so a value
//! has one bit pattern whether Z3 or this file computed it. `fneg` flips the sign bit and
//! needs no operation of its own.

use super::{Node, Sort, Term, TermPool};

/// A floating-point operation on two values of one width (`Bv(32)` float, `Bv(64)` double).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FpOp {
    Add,
    Sub,
    Mul,
    Div,
    /// `a < b` (false when either is NaN), a boolean term.
    Lt,
    /// `a <= b` (false when either is NaN).
    Le,
    /// `a == b` numerically: `0.0 == -0.0`, NaN equals nothing.
    Eq,
}

impl FpOp {
    /// Whether the operation is a comparison (a boolean term).
    pub fn is_cmp(self) -> bool {
        matches!(self, FpOp::Lt | FpOp::Le | FpOp::Eq)
    }
}

/// A conversion to the given width (the node keeps the width; the operand has its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FpConv {
    /// `i2f`, `i2d`, `l2f`, `l2d`: a signed integer to floating point, rounded to nearest.
    FromInt,
    /// `f2i`, `f2l`, `d2i`, `d2l`: toward zero; NaN is 0, out of range saturates.
    ToInt,
    /// `f2d` (exact) and `d2f` (rounded to nearest).
    Resize,
}

/// Java's canonical NaN of a width.
pub fn nan_bits(w: u32) -> u64 {
    if w == 64 { f64::NAN.to_bits() & !(1 << 63) } else { u64::from(f32::NAN.to_bits() & !(1 << 31)) }
}

/// A floating-point value, of either width.
#[derive(Clone, Copy)]
enum F {
    S(f32),
    D(f64),
}

fn from_bits(w: u32, v: u64) -> F {
    if w == 64 { F::D(f64::from_bits(v)) } else { F::S(f32::from_bits(v as u32)) }
}

fn to_bits(x: F) -> u64 {
    match x {
        F::S(f) if f.is_nan() => nan_bits(32),
        F::D(d) if d.is_nan() => nan_bits(64),
        F::S(f) => u64::from(f.to_bits()),
        F::D(d) => d.to_bits(),
    }
}

/// The value of `a op b` on bits of width `w`: the result's bits, or a comparison's 0/1.
pub fn fold_op(op: FpOp, w: u32, a: u64, b: u64) -> u64 {
    match (from_bits(w, a), from_bits(w, b)) {
        (F::S(x), F::S(y)) => match op {
            FpOp::Add => to_bits(F::S(x + y)),
            FpOp::Sub => to_bits(F::S(x - y)),
            FpOp::Mul => to_bits(F::S(x * y)),
            FpOp::Div => to_bits(F::S(x / y)),
            FpOp::Lt => u64::from(x < y),
            FpOp::Le => u64::from(x <= y),
            FpOp::Eq => u64::from(x == y),
        },
        (F::D(x), F::D(y)) => match op {
            FpOp::Add => to_bits(F::D(x + y)),
            FpOp::Sub => to_bits(F::D(x - y)),
            FpOp::Mul => to_bits(F::D(x * y)),
            FpOp::Div => to_bits(F::D(x / y)),
            FpOp::Lt => u64::from(x < y),
            FpOp::Le => u64::from(x <= y),
            FpOp::Eq => u64::from(x == y),
        },
        _ => 0,
    }
}

/// The bits of converting `v` (width `from`) to width `to` (Rust's `as` has Java's rounding,
/// saturation and NaN-to-0 rules).
pub fn fold_conv(c: FpConv, from: u32, to: u32, v: u64) -> u64 {
    let int = super::sign_extend(v, from);
    match (c, to) {
        (FpConv::FromInt, 32) => to_bits(F::S(int as f32)),
        (FpConv::FromInt, _) => to_bits(F::D(int as f64)),
        (FpConv::ToInt, _) => {
            let i = match from_bits(from, v) {
                F::S(f) if to == 64 => f as i64,
                F::S(f) => i64::from(f as i32),
                F::D(d) if to == 64 => d as i64,
                F::D(d) => i64::from(d as i32),
            };
            super::mask(i as u64, to)
        }
        (FpConv::Resize, _) => match from_bits(from, v) {
            F::S(f) if to == 64 => to_bits(F::D(f64::from(f))),
            F::D(d) if to == 32 => to_bits(F::S(d as f32)),
            x => to_bits(x),
        },
    }
}

/// The Java literal of bits `v` of width `w` (`1.5f`, `-0.0`, `Float.NaN`, ...).
pub fn java_literal(w: u32, v: u64) -> String {
    let (ty, suffix) = if w == 64 { ("Double", "") } else { ("Float", "f") };
    match from_bits(w, v) {
        F::S(f) if f.is_nan() => format!("{ty}.NaN"),
        F::D(d) if d.is_nan() => format!("{ty}.NaN"),
        F::S(f) if f.is_infinite() => format!("{ty}.{}_INFINITY", if f > 0.0 { "POSITIVE" } else { "NEGATIVE" }),
        F::D(d) if d.is_infinite() => format!("{ty}.{}_INFINITY", if d > 0.0 { "POSITIVE" } else { "NEGATIVE" }),
        // `{:?}` is the shortest decimal that reads back to the same bits, with a `.0` or exponent.
        F::S(f) => format!("{f:?}{suffix}"),
        F::D(d) => format!("{d:?}{suffix}"),
    }
}

impl TermPool {
    /// `a op b` on floating-point bits (see [`FpOp`]); constants fold.
    pub fn fp(&mut self, op: FpOp, a: &Term, b: &Term) -> Term {
        let w = a.width();
        if let (Node::Bv(_, x), Node::Bv(_, y)) = (a.node(), b.node()) {
            let v = fold_op(op, w, *x, *y);
            return if op.is_cmp() { self.bool(v != 0) } else { self.bv(w, v as i64) };
        }
        let sort = if op.is_cmp() { Sort::Bool } else { Sort::Bv(w) };
        self.intern(Node::FpBin(op, a.clone(), b.clone()), sort)
    }

    /// `a` converted to width `to` (see [`FpConv`]); constants fold.
    pub fn fp_conv(&mut self, c: FpConv, to: u32, a: &Term) -> Term {
        if let Node::Bv(from, x) = a.node() {
            return self.bv(to, fold_conv(c, *from, to, *x) as i64);
        }
        self.intern(Node::FpConv(c, to, a.clone()), Sort::Bv(to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_semantics_of_conversions_and_nan() {
        let f = |x: f32| u64::from(x.to_bits());
        assert_eq!(fold_conv(FpConv::ToInt, 32, 32, f(f32::NAN)), 0);
        assert_eq!(fold_conv(FpConv::ToInt, 32, 32, f(3.0e10)), i32::MAX as u64);
        assert_eq!(fold_conv(FpConv::ToInt, 32, 32, f(-2.7)), super::super::mask(-2i64 as u64, 32));
        assert_eq!(fold_conv(FpConv::FromInt, 32, 32, 16_777_217), f(16_777_216.0));
        assert_eq!(fold_op(FpOp::Div, 32, f(0.0), f(0.0)), nan_bits(32));
        assert_eq!(fold_op(FpOp::Eq, 32, f(0.0), f(-0.0)), 1);
        assert_eq!(fold_op(FpOp::Lt, 32, f(f32::NAN), f(1.0)), 0);
        assert_eq!(java_literal(32, f(1.5)), "1.5f");
        assert_eq!(java_literal(64, (-0.0f64).to_bits()), "-0.0");
        assert_eq!(java_literal(64, f64::INFINITY.to_bits()), "Double.POSITIVE_INFINITY");
        assert_eq!(nan_bits(32), 0x7fc0_0000);
        assert_eq!(nan_bits(64), 0x7ff8_0000_0000_0000);
    }
}
