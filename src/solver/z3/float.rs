//! Z3 terms of Java's floating-point operations on IEEE bits, as `term/float.rs` defines them.
//!
//! Values are bit-vectors of their IEEE-754 bits; each operation reads its operands as Z3
//! floating-point terms (`to_fp` of the bits), computes with round-to-nearest-even, and gives
//! back the bits, NaN as Java's canonical NaN. The two conversions the z3 crate does not
//! offer (bits to float, signed integer to float) are made through `z3-sys`.

use z3::Sort as ZSort;
use z3::ast::{Ast, BV, Bool, Dynamic, Float, RoundingMode};

use crate::term::{FpConv, FpOp, nan_bits};

fn float_sort(w: u32) -> ZSort {
    if w == 64 { ZSort::double() } else { ZSort::float32() }
}

/// Wraps a term Z3 made in `bv`'s context (`None` when Z3 rejected the operands' sorts).
fn wrap(bv: &BV, made: Option<z3_sys::Z3_ast>) -> Option<Float> {
    // SAFETY: `made` is a term Z3 just created in `bv`'s context; `wrap` takes a reference.
    made.map(|a| unsafe { Float::wrap(bv.get_ctx(), a) })
}

/// The float or double whose IEEE bits are `bv` (32 or 64 bits).
fn of_bits(bv: &BV) -> Option<Float> {
    let sort = float_sort(bv.get_size());
    // SAFETY: `bv` and `sort` are live in the same (thread-local) context and their sizes match.
    let made =
        unsafe { z3_sys::Z3_mk_fpa_to_fp_bv(bv.get_ctx().get_z3_context(), bv.get_z3_ast(), sort.get_z3_sort()) };
    wrap(bv, made)
}

/// The signed integer `bv` rounded to the float or double of width `to`.
fn of_int(bv: &BV, to: u32) -> Option<Float> {
    let (sort, rne) = (float_sort(to), RoundingMode::round_nearest_ties_to_even());
    // SAFETY: as in `of_bits`; `rne` is a rounding-mode term of the same context.
    let made = unsafe {
        z3_sys::Z3_mk_fpa_to_fp_signed(
            bv.get_ctx().get_z3_context(),
            rne.get_z3_ast(),
            bv.get_z3_ast(),
            sort.get_z3_sort(),
        )
    };
    wrap(bv, made)
}

/// The bits of `f` (width `w`), NaN as Java's canonical NaN.
fn bits(f: &Float, w: u32) -> BV {
    f.is_nan().ite(&BV::from_u64(nan_bits(w), w), &f.to_ieee_bv())
}

/// `a op b` on the bits of two floats or doubles: bits, or a boolean for a comparison.
pub fn binary(op: FpOp, a: &BV, b: &BV) -> Option<Dynamic> {
    let w = a.get_size();
    let (x, y) = (of_bits(a)?, of_bits(b)?);
    let rne = RoundingMode::round_nearest_ties_to_even();
    let value = |f: Float| Dynamic::from_ast(&bits(&f, w));
    let truth = |b: Bool| Dynamic::from_ast(&b);
    Some(match op {
        FpOp::Add => value(x.add_with_rounding_mode(&y, &rne)),
        FpOp::Sub => value(x.sub_with_rounding_mode(&y, &rne)),
        FpOp::Mul => value(x.mul_with_rounding_mode(&y, &rne)),
        FpOp::Div => value(x.div_with_rounding_mode(&y, &rne)),
        FpOp::Lt => truth(x.lt(&y)),
        FpOp::Le => truth(x.le(&y)),
        FpOp::Eq => truth(x.eq_fpa(&y)),
    })
}

/// `a` converted to width `to` with Java's rules (see `FpConv`).
pub fn convert(c: FpConv, to: u32, a: &BV) -> Option<BV> {
    let from = a.get_size();
    let rne = RoundingMode::round_nearest_ties_to_even();
    Some(match c {
        FpConv::FromInt => bits(&of_int(a, to)?, to),
        FpConv::Resize => bits(&of_bits(a)?.to_fp_with_rounding_mode(&rne, &float_sort(to)), to),
        FpConv::ToInt => {
            let x = of_bits(a)?;
            // 2^(to-1) and its negation, exact in either width.
            let limit = |neg: bool| -> Option<Float> {
                let v = if neg { -(2f64.powi(to as i32 - 1)) } else { 2f64.powi(to as i32 - 1) };
                let raw = if from == 64 { v.to_bits() } else { u64::from((v as f32).to_bits()) };
                of_bits(&BV::from_u64(raw, from))
            };
            let (max, min) = if to == 64 { (i64::MAX, i64::MIN) } else { (i64::from(i32::MAX), i64::from(i32::MIN)) };
            let (max, min) = (BV::from_i64(max, to), BV::from_i64(min, to));
            let truncated = x.to_sbv_with_rounding_mode(&RoundingMode::round_towards_zero(), to);
            let low = x.le(&limit(true)?).ite(&min, &truncated);
            let high = x.ge(&limit(false)?).ite(&max, &low);
            x.is_nan().ite(&BV::from_u64(0, to), &high)
        }
    })
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use crate::solver::Solver;
    use crate::solver::z3::Z3Solver;
    use crate::term::{FpOp, Sort, TermPool};

    /// A model of `0.0 < x` has a positive `x`: the solver reads floating point as IEEE
    /// (a bit-vector-only solver would take `fp.lt` for an uninterpreted function).
    #[test]
    fn models_obey_floating_point_comparisons() {
        let mut p = TermPool::new();
        let x = p.var("x", Sort::Bv(64));
        let zero = p.long(0);
        let one = p.long(1.5f64.to_bits() as i64);
        let (pos, below) = (p.fp(FpOp::Lt, &zero, &x), p.fp(FpOp::Lt, &x, &one));
        let mut s = Z3Solver::new(1000, true);
        let crate::solver::SatResult::Sat(m) = s.model(&[pos, below]) else { panic!("unsat") };
        let v = f64::from_bits(m.eval_i64(&x).unwrap_or(0) as u64);
        assert!(v > 0.0 && v < 1.5, "{v}");
    }
}
