//! The first layer of the chain: the refutation a fork's side gets before any check, without
//! a query (a constraint the path condition denies, a strict order cycle, classes of literal
//! equalities kept apart).
//!
//! The machine asks it through [`super::Solver::refutes`], apart from the checks: inside a
//! P-search a side it does not refute is kept unchecked, and what it refutes counts as no
//! query. The order edges and the classes of the last path condition asked about are kept
//! for the next one, which shares a prefix with it.

use crate::term::{EqClasses, Node, OrderEdges, Term};

/// The order edges and equality classes of the path condition last asked about.
#[derive(Default)]
pub struct Plain {
    order: OrderEdges,
    classes: EqClasses,
}

impl Plain {
    /// Whether `pc ∧ extra` is unsatisfiable because a constraint of `extra` is denied by
    /// `pc` (or denies one of it), closes a strict order cycle with `pc`'s comparisons
    /// ([`OrderEdges::refutes`]), or equates what `pc`'s literal equalities keep apart
    /// ([`EqClasses::refutes`]).
    pub fn refutes(&mut self, pc: &[Term], extra: &[&Term]) -> bool {
        let denied = |t: &&Term| match t.node() {
            Node::Not(x) => pc.contains(x),
            _ => pc.iter().any(|p| matches!(p.node(), Node::Not(x) if x == *t)),
        };
        extra.iter().any(denied) || self.order.refutes(pc, extra) || self.classes.refutes(pc, extra)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{Sort, TermPool};

    /// A constraint the path condition denies, a strict order cycle, and an equality of what
    /// a disequality keeps apart are refuted; a constraint consistent with all is not.
    #[test]
    fn refutes_what_the_path_condition_plainly_rules_out() {
        let mut p = TermPool::new();
        let (x, y, z) = (p.var("x", Sort::Bv(32)), p.var("y", Sort::Bv(32)), p.var("z", Sort::Bv(32)));
        let (x_lt_y, y_lt_z, z_lt_x) = (p.slt(&x, &y), p.slt(&y, &z), p.slt(&z, &x));
        let x_eq_z = p.eq(&x, &z);
        let x_ne_z = p.not(&x_eq_z);
        let not_lt = p.not(&x_lt_y);
        let pc = [x_lt_y.clone(), y_lt_z.clone(), x_ne_z];
        let mut plain = Plain::default();
        assert!(plain.refutes(&pc, &[&not_lt]));
        assert!(plain.refutes(&pc, &[&z_lt_x]));
        assert!(plain.refutes(&pc, &[&x_eq_z]));
        let y_eq_z = p.eq(&y, &z);
        let z_ne_y = p.not(&y_eq_z);
        assert!(!plain.refutes(&pc, &[&z_ne_y]));
    }
}
