//! Signed bounds for unit propagation: a comparison of sums and differences of symbols,
//! read through the if-then-else branches the facts take, decided by the symbols' ranges.
//!
//! A bit-vector term built by `+`, `-` and negation from symbols and constants has the
//! value of its linear form `c + k1·x1 + ...` modulo 2^w. When the form's integer range,
//! from the symbols' known bounds, lies within the signed range of the width, the term's
//! signed value is the form's value: a comparison of two such terms is then decided by the
//! range of their difference (`(1 - L3.height) <= 1` once `L3.height >= 1`), and one that
//! leaves a single symbol bounds it (`0 <= L2.height`). An equality of two such terms
//! makes one of its symbols a linear form of the others, read in its place from then on
//! (`(L1.level - 1) == L6.level`, then `L1.level == (L6.level - 1)` is false).

use super::{Evaluator, Known, decided};
use crate::term::{BvCmp, BvOp, Node, SymbolId, Term, Val, sign_extend};

/// How deep a linear form is read (if-then-else branches and sums).
const DEPTH: u32 = 12;

/// `c + k1·x1 + ...` over the integers; symbols sorted by name, no zero coefficient.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Lin {
    c: i128,
    xs: Vec<(SymbolId, i128, u32)>,
}

impl Lin {
    fn plus(mut self, o: Lin, sign: i128) -> Lin {
        self.c += sign * o.c;
        for (n, k, w) in o.xs {
            match self.xs.binary_search_by(|(m, _, _)| m.as_ref().cmp(n.as_ref())) {
                Ok(i) => self.xs[i].1 += sign * k,
                Err(i) => self.xs.insert(i, (n, sign * k, w)),
            }
        }
        self.xs.retain(|(_, k, _)| *k != 0);
        self
    }

    /// The form's symbols, with their coefficients and widths.
    pub(super) fn xs(&self) -> &[(SymbolId, i128, u32)] {
        &self.xs
    }

    /// Whether the form names the symbol `name`.
    pub(super) fn names(&self, name: &str) -> bool {
        self.xs.iter().any(|(n, _, _)| n.as_ref() == name)
    }

    /// The form with the symbols `ev` values replaced by their (signed) values.
    fn valued(&self, ev: &Evaluator<'_>) -> Lin {
        let mut out = Lin { c: self.c, xs: Vec::with_capacity(self.xs.len()) };
        for (n, k, w) in &self.xs {
            match ev.value_of(n) {
                Some(Val::Bv(v)) => out.c += k * i128::from(sign_extend(*v, *w)),
                _ => out.xs.push((n.clone(), *k, *w)),
            }
        }
        out
    }

    /// The form's value as a `w`-bit value when `values` decide all its symbols.
    pub(super) fn value(&self, values: &crate::term::Assignment, w: u32) -> Option<u64> {
        let decided = self.xs.iter().all(|(n, _, _)| matches!(values.values.get(n), Some(Val::Bv(_))));
        decided.then(|| self.value_in(values, w))
    }

    /// The form's value as a `w`-bit value under the assignment `a` (a symbol it lacks is 0).
    pub(super) fn value_in(&self, a: &crate::term::Assignment, w: u32) -> u64 {
        let c = self.xs.iter().fold(self.c, |c, (n, k, sw)| match a.values.get(n) {
            Some(Val::Bv(v)) => c + k * i128::from(sign_extend(*v, *sw)),
            _ => c,
        });
        crate::term::mask(c as i64 as u64, w)
    }

    /// The integer range of the form, each symbol within `range`.
    fn range(&self, known: Known<'_>) -> (i128, i128) {
        self.xs.iter().fold((self.c, self.c), |(lo, hi), (n, k, w)| {
            let (a, b) = symbol_range(known, n, *w);
            let (p, q) = (k * a, k * b);
            (lo + p.min(q), hi + p.max(q))
        })
    }
}

/// The signed range of a `w`-bit value.
fn signed(w: u32) -> (i128, i128) {
    let half = 1i128 << (w.clamp(1, 64) - 1);
    (-half, half - 1)
}

/// The range the facts give symbol `name` of width `w`.
fn symbol_range(known: Known<'_>, name: &str, w: u32) -> (i128, i128) {
    known.bounds.get(name).copied().unwrap_or_else(|| signed(w))
}

/// The linear form of `t` under the facts, with its range, when that range is within the
/// signed range of `t`'s width (the form's value is then `t`'s signed value).
fn exact(ev: &mut Evaluator<'_>, known: Known<'_>, t: &Term) -> Option<(Lin, (i128, i128))> {
    let lin = linear(ev, known, t, DEPTH, true, false)?;
    let r = lin.range(known);
    let (lo, hi) = signed(t.width());
    (r.0 >= lo && r.1 <= hi).then_some((lin, r))
}

/// The linear form of `t`, with `branches` reading the if-then-else branches the facts
/// decide; `None` for any other operation, an undecided branch, or a term wider than 64 bits.
/// A symbol with a linear form reads as that form when it is exact (equal as integers), and
/// with `modular` also when it is equal modulo 2^w only: the result is then `t` modulo 2^w,
/// for equalities and for solving them, never for a range.
fn linear(
    ev: &mut Evaluator<'_>,
    known: Known<'_>,
    t: &Term,
    depth: u32,
    branches: bool,
    modular: bool,
) -> Option<Lin> {
    let w = t.width();
    if depth == 0 || w == 0 || w > 64 {
        return None;
    }
    if let Some(Val::Bv(v)) = ev.eval(t) {
        return Some(Lin { c: i128::from(sign_extend(v, w)), xs: Vec::new() });
    }
    Some(match t.node() {
        Node::Var(name, _) => match known.defs.get(name) {
            Some((_, form, exact)) if *exact || modular => form.valued(ev),
            _ => Lin { c: 0, xs: vec![(name.clone(), 1, w)] },
        },
        Node::Ite(c, x, y) if branches => match decided(ev, known, c)? {
            true => linear(ev, known, x, depth - 1, branches, modular)?,
            false => linear(ev, known, y, depth - 1, branches, modular)?,
        },
        Node::Bin(op @ (BvOp::Add | BvOp::Sub), a, b) => {
            let x = linear(ev, known, a, depth - 1, branches, modular)?;
            x.plus(linear(ev, known, b, depth - 1, branches, modular)?, if *op == BvOp::Add { 1 } else { -1 })
        }
        Node::Neg(a) => Lin::default().plus(linear(ev, known, a, depth - 1, branches, modular)?, -1),
        _ => return None,
    })
}

/// The one symbol of `x`'s linear form, when its coefficient is 1 or -1, and the value it
/// takes when `x` is `v`: the form is `x` modulo 2^w, and such a form is one-to-one
/// (`(L2.degree - 1) == L3.degree` once `L3.degree` is 0 makes `L2.degree` 1). Through
/// if-then-else branches only with [`Known::deep`]: every equality asks, and reading them
/// for all would cost propagation more than the queries it saves.
pub(super) fn solved(ev: &mut Evaluator<'_>, known: Known<'_>, x: &Term, v: u64) -> Option<(SymbolId, Val)> {
    let lin = linear(ev, known, x, DEPTH, known.deep, true)?;
    let [(name, k, w)] = lin.xs.as_slice() else { return None };
    if k.abs() != 1 || *w != x.width() {
        return None;
    }
    let s = ((i128::from(v) - lin.c) * k).rem_euclid(1i128 << w);
    Some((name.clone(), Val::Bv(s as u64)))
}

/// Whether `t` is a sum or difference, or a symbol with a linear form: an equality of two
/// terms of which neither is says nothing the symbols' own equality (`same`) does not, and
/// [`defined`] and [`equal`] leave it alone (POSE's many equalities of references).
fn arithmetic(known: Known<'_>, t: &Term) -> bool {
    match t.node() {
        Node::Bin(BvOp::Add | BvOp::Sub, ..) | Node::Neg(_) => true,
        Node::Var(name, _) => known.defs.contains_key(name),
        _ => false,
    }
}

/// `form` with the forms of its symbols in `defs` substituted (a few levels deep), and
/// whether it is still exact (`exact` and every form substituted exact).
pub(super) fn expanded(defs: &super::Defs, form: Lin, exact: bool) -> Option<(Lin, bool)> {
    let (mut form, mut exact) = (form, exact);
    for _ in 0..DEPTH {
        let Some(i) = form.xs.iter().position(|(n, _, _)| defs.contains_key(n)) else { return Some((form, exact)) };
        let (n, k, _) = form.xs.remove(i);
        let (_, def, e) = defs.get(&n)?.clone();
        exact &= e;
        form = form.plus(Lin { c: def.c * k, xs: def.xs.into_iter().map(|(m, j, w)| (m, j * k, w)).collect() }, 1);
    }
    None
}

/// `a == b` holding: a symbol of their difference with coefficient 1 or -1 (of the widest
/// range, then the first by name) as a linear form of the others, and whether it is exact.
/// With both sides exact their signed values lie within their width's range, so they are
/// equal as integers, and so is the symbol's signed value to the form's (`(L1.degree - 1)
/// == L4.degree` makes `L4.degree` the form `L1.degree - 1`, which then decides `L4.degree <
/// L1.degree`); otherwise they are equal modulo 2^w, and so are the symbol and the form
/// (`(L1.level - 1) == L3.level` still denies `L1.level == (L3.level - 1)`).
pub(super) fn defined(
    ev: &mut Evaluator<'_>,
    known: Known<'_>,
    a: &Term,
    b: &Term,
) -> Option<(SymbolId, u32, Lin, bool)> {
    if !arithmetic(known, a) && !arithmetic(known, b) {
        return None;
    }
    let (d, exact) = match difference(ev, known, a, b) {
        Some(d) => (d, true),
        None => (modular_difference(ev, known, a, b)?, false),
    };
    // The symbol of the widest range: its form then has a narrower one (`L1.degree` in
    // `[1, 30]` leaves `L4.degree`, of no bounds, the form `L1.degree - 1`, in `[0, 29]`).
    let width = |(n, _, w): &(SymbolId, i128, u32)| {
        let (lo, hi) = symbol_range(known, n, *w);
        hi - lo
    };
    let (i, _) =
        d.xs.iter().enumerate().filter(|(_, x)| x.1.abs() == 1).fold(None, |best: Option<(usize, i128)>, (i, x)| {
            match best {
                Some((_, r)) if r >= width(x) => best,
                _ => Some((i, width(x))),
            }
        })?;
    let mut rest = d;
    let (name, k, w) = rest.xs.remove(i);
    // k·x + rest == 0, so x == -k·rest.
    let form = Lin { c: -k * rest.c, xs: rest.xs.into_iter().map(|(m, j, w)| (m, -k * j, w)).collect() };
    Some((name, w, form, exact))
}

/// `a - b` as a linear form modulo 2^w (symbols with a form only modulo 2^w read as it).
fn modular_difference(ev: &mut Evaluator<'_>, known: Known<'_>, a: &Term, b: &Term) -> Option<Lin> {
    let x = linear(ev, known, a, DEPTH, true, true)?;
    Some(x.plus(linear(ev, known, b, DEPTH, true, true)?, -1))
}

/// `a - b` as a linear form with its range, when `a` and `b` are both exact.
fn difference(ev: &mut Evaluator<'_>, known: Known<'_>, a: &Term, b: &Term) -> Option<Lin> {
    let (x, _) = exact(ev, known, a)?;
    let (y, _) = exact(ev, known, b)?;
    Some(x.plus(y, -1))
}

/// The truth of `a == b` their difference decides: both exact, equal when it is 0 and
/// unequal when its range excludes 0 (`L1.level == (L6.level - 1)` once `L6.level` is
/// `L1.level - 1`); else a difference modulo 2^w that is a constant.
pub(super) fn equal(ev: &mut Evaluator<'_>, known: Known<'_>, a: &Term, b: &Term) -> Option<bool> {
    let w = a.width();
    if w == 0 || w > 64 || (!arithmetic(known, a) && !arithmetic(known, b)) {
        return None;
    }
    let Some(d) = difference(ev, known, a, b) else {
        let d = modular_difference(ev, known, a, b)?;
        return d.xs.is_empty().then(|| d.c.rem_euclid(1i128 << w) == 0);
    };
    let (lo, hi) = d.range(known);
    if (lo, hi) == (0, 0) {
        Some(true)
    } else if lo > 0 || hi < 0 {
        Some(false)
    } else {
        None
    }
}

/// The truth of the signed comparison `a op b` the ranges decide.
pub(super) fn compared(ev: &mut Evaluator<'_>, known: Known<'_>, op: BvCmp, a: &Term, b: &Term) -> Option<bool> {
    // At most this difference is below (`<`) or at (`<=`) zero.
    let most = if op == BvCmp::Slt { -1 } else { 0 };
    let d = difference(ev, known, a, b)?;
    let (lo, hi) = d.range(known);
    if hi <= most {
        Some(true)
    } else if lo > most {
        Some(false)
    } else {
        None
    }
}

/// The bound `a op b` being `want` gives the one symbol of `a - b` (with coefficient 1 or
/// -1), as its name, width and range.
pub(super) fn bounded(
    ev: &mut Evaluator<'_>,
    known: Known<'_>,
    op: BvCmp,
    a: &Term,
    b: &Term,
    want: bool,
) -> Option<(SymbolId, u32, (i128, i128))> {
    let mut d = difference(ev, known, a, b)?;
    // `d <= most` when `want`, else `d >= most + 1`.
    let most = if op == BvCmp::Slt { -1 } else { 0 };
    let (name, k, w) = match d.xs.as_slice() {
        [(n, k, w)] if k.abs() == 1 => (n.clone(), *k, *w),
        _ => return None,
    };
    d.xs.clear();
    let rest = d.c;
    let (lo, hi) = symbol_range(known, &name, w);
    // k·x + rest <= most, or >= most + 1.
    let r = match (want, k) {
        (true, 1) => (lo, hi.min(most - rest)),
        (true, _) => (lo.max(rest - most), hi),
        (false, 1) => (lo.max(most + 1 - rest), hi),
        (false, _) => (lo, hi.min(rest - most - 1)),
    };
    (r != (lo, hi)).then_some((name, w, r))
}
