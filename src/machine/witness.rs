//! A witness: a model of a state's path condition under which the precondition returns
//! true, and how it judges constraints the state adds after it was found.

use std::collections::HashSet;

use crate::term::{Assignment, Node, SymbolId, Term};

/// A model of a state's path condition under which the precondition returns true.
#[derive(Debug)]
pub struct Witness {
    pub model: Assignment,
    /// The symbols the model is known to value as the input they name: only constraints
    /// over these are judged by it. Those of the state's path condition, and with
    /// [`HeapStrategy::global_names`] those of the P-search's own path as well (the input
    /// the precondition read: a later read of the same field names the same symbol); the
    /// model may also value other symbols, left from earlier models, which a later
    /// materialization of the state may name differently.
    vars: HashSet<SymbolId>,
}

impl Witness {
    pub(super) fn new(model: Assignment, pc: &[Term]) -> Witness {
        let vars = pc.iter().flat_map(Term::var_names).collect();
        Witness { model, vars }
    }

    /// Whether the model satisfies `t` and `t` speaks only of symbols the model was made for.
    fn covers(&self, t: &Term) -> bool {
        t.vars().iter().all(|v| matches!(v.node(), Node::Var(name, _) if self.vars.contains(name)))
            && self.model.eval_bool(t) == Some(true)
    }

    /// When `t` defines a symbol the model was not made for (`r9 == ite(...)`, `L7.exists
    /// <=> ...`, `2 == r9`) from symbols it was: that symbol and its value. The precondition's
    /// path does not read such a symbol, so any value keeps the model a witness.
    fn definition(&self, t: &Term) -> Option<(SymbolId, crate::term::Val)> {
        let Node::Eq(a, b) = t.node() else { return None };
        [(a, b), (b, a)].into_iter().find_map(|(v, e)| {
            let Node::Var(name, _) = v.node() else { return None };
            let known = |x: &Term| matches!(x.node(), Node::Var(n, _) if self.vars.contains(n));
            if self.vars.contains(name) || !e.vars().iter().all(known) {
                return None;
            }
            Some((name.clone(), self.model.eval(e)?))
        })
    }

    /// The witness judging `rest` too: `None` when some entry is neither satisfied by the
    /// model nor, with `extend`, by valuing new symbols; else the model with the new symbols
    /// valued (`Some(None)`: none was needed). A new symbol is one outside `vars`, which with
    /// [`HeapStrategy::global_names`] (the only case for `extend`) hold every symbol the
    /// precondition's path reads: a definition of one (`r9 == ite(...)`,
    /// [`Witness::definition`]) gives its value, and an entry that the model's values of
    /// its new symbols satisfy keeps those values.
    pub(super) fn extended(&self, rest: &[Term], extend: bool) -> Option<Option<Witness>> {
        let mut ext: Option<Witness> = None;
        for t in rest {
            let cur = ext.as_ref().unwrap_or(self);
            if cur.covers(t) {
                continue;
            }
            if !extend {
                return None;
            }
            let definition = cur.definition(t);
            if definition.is_none() && cur.model.eval_bool(t) != Some(true) {
                return None;
            }
            let w = ext.get_or_insert_with(|| Witness { model: self.model.clone(), vars: self.vars.clone() });
            match definition {
                Some((name, val)) => {
                    w.model.values.insert(name.clone(), val);
                    w.vars.insert(name);
                }
                // The values the model gives them (a symbol it lacks reads as 0 or false, and
                // keeps reading so).
                None => w.vars.extend(t.var_names()),
            }
        }
        Some(ext)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::panic)]
    use crate::machine::witness::Witness;
    use crate::term::{Assignment, BvCmp, Sort, TermPool, Val};

    /// A P-search read `L1.right -> L3` (3) and `L3.key`; the method then reads
    /// `L1.right.key` through a new reference `r7` and compares it with its `key`.
    #[test]
    fn a_witness_values_new_symbols_only_where_the_constraints_let_it() {
        let mut p = TermPool::default();
        let (right, k3, key) =
            (p.var("L1.right", Sort::Bv(16)), p.var("L3.key", Sort::Bv(32)), p.var("key", Sort::Bv(32)));
        let (r7, two, three) = (p.var("r7", Sort::Bv(16)), p.bv(16, 2), p.bv(16, 3));
        let p_path = [p.eq(&right, &three)];
        let mut model = Assignment::default();
        model.values.insert("L1.right".into(), Val::Bv(3));
        model.values.insert("L3.key".into(), Val::Bv(5));
        let w = Witness::new(model, &p_path);
        // r7 is defined from what P read: valued 3, and `r7 != 2` then holds.
        let is_two = p.eq(&right, &two);
        let ite = p.ite(&is_two, &two, &right);
        let def = p.eq(&r7, &ite);
        let not_two = p.ne(&r7, &two);
        let Some(Some(ext)) = w.extended(&[def.clone(), not_two], true) else {
            panic!("the definition extends the witness")
        };
        assert_eq!(ext.model.get("r7"), Some(&Val::Bv(3)));
        // `r7 == 2` contradicts the definition's value: a search must decide.
        let two_again = p.eq(&r7, &two);
        assert!(w.extended(&[def.clone(), two_again], true).is_none());
        // `key < L3.key`: the method's key is new, and the model's value for it (none: 0) satisfies it.
        let below = p.cmp(BvCmp::Slt, &key, &k3);
        assert!(matches!(w.extended(std::slice::from_ref(&below), true), Some(Some(_))));
        // Without global names nothing new is valued.
        assert!(w.extended(&[def], false).is_none());
        assert!(w.extended(&[below], false).is_none());
    }
}
