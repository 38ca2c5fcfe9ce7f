//! The small domains a path condition gives its symbols, which propagation counts and
//! splits on (`propagate.rs`).

use std::collections::HashMap;
use std::rc::Rc;

use super::{BvCmp, Node, SymbolId, Term};

/// The largest upper bound whose values are counted one by one.
const SMALL_DOMAIN: u64 = 64;

/// The values a symbol may take, as the path condition says: `0..=k` (`x <=u k`, `x <u
/// k+1`) or the constants of a disjunction of equalities (uber's candidate domains, `(0 ==
/// L1.right) || (2 == L1.right) || (3 == L1.right)`), sorted.
pub(super) type Domain = Rc<[u64]>;

/// The symbols `pc` gives a small domain (a small upper bound, or a disjunction of
/// equalities with constants), with that domain (the smallest, when there are several).
pub(super) fn small_domains(pc: &[Term]) -> Vec<(SymbolId, Domain)> {
    let mut out: HashMap<SymbolId, Domain> = HashMap::new();
    for t in pc {
        let Some((name, dom)) = domain_of(t) else { continue };
        let b = out.entry(name).or_insert_with(|| dom.clone());
        if dom.len() < b.len() {
            *b = dom;
        }
    }
    let mut out: Vec<(SymbolId, Domain)> = out.into_iter().collect();
    out.sort();
    out
}

/// The domain `t` gives a symbol, if it gives one (see [`small_domains`]).
fn domain_of(t: &Term) -> Option<(SymbolId, Domain)> {
    match t.node() {
        Node::Cmp(op, x, k) => {
            let (Node::Var(name, _), Node::Bv(_, k)) = (x.node(), k.node()) else { return None };
            let max = match op {
                BvCmp::Ule => *k,
                BvCmp::Ult if *k > 0 => *k - 1,
                _ => return None,
            };
            (max <= SMALL_DOMAIN).then(|| (name.clone(), (0..=max).collect()))
        }
        Node::Or(xs) => {
            let mut name: Option<&SymbolId> = None;
            let mut vals = Vec::with_capacity(xs.len());
            for x in xs.iter() {
                let Node::Eq(a, b) = x.node() else { return None };
                let (n, k) = match (a.node(), b.node()) {
                    (Node::Var(n, _), Node::Bv(_, k)) | (Node::Bv(_, k), Node::Var(n, _)) => (n, *k),
                    _ => return None,
                };
                if name.is_some_and(|m| m != n) {
                    return None;
                }
                name = Some(n);
                vals.push(k);
            }
            vals.sort_unstable();
            vals.dedup();
            Some((name?.clone(), vals.into()))
        }
        _ => None,
    }
}
