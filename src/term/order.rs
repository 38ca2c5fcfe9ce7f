//! Refutes a conjunction by its signed order atoms alone: `a < b`, `a <= b`, their
//! negations and bit-vector equalities are edges of a graph over terms, and a cycle through a
//! strict edge (`a < b <= ... <= a`) cannot hold. A P-search over a search tree that aliases a
//! node back to an ancestor (`L1.key < L5.key` after `L5.key < L4.key < L1.key`) is the case
//! this settles without the solver; [`refutes_resolved`] does it through the if-then-else
//! values whose conditions unit propagation decided.

use super::{BvCmp, Node, Sort, Term};

/// `from <= to`, or `from < to` when `strict`, between two terms (by id).
type Edge = (u32, u32, bool);

/// A constant an edge compares: width, signed value, term id.
type Const = (u32, i64, u32);

/// The order edges a constraint states: its conjuncts' signed comparisons and equalities,
/// between their operands as `resolve` gives them. `consts` collects the constants they
/// compare. `false` when a conjunct denies that a term equals itself (`!(a == a)`).
fn edges(t: &Term, resolve: &mut dyn FnMut(&Term) -> Term, out: &mut Vec<Edge>, consts: &mut Vec<Const>) -> bool {
    let bv = |a: &Term| matches!(a.sort(), Sort::Bv(_));
    // `a <= b` (`a < b` when strict), and `b <= a` too for an equality.
    let (a, b, strict, both) = match t.node() {
        Node::And(xs) => return xs.iter().all(|x| edges(x, resolve, out, consts)),
        Node::Cmp(BvCmp::Slt, a, b) => (a, b, true, false),
        Node::Cmp(BvCmp::Sle, a, b) => (a, b, false, false),
        Node::Eq(a, b) if bv(a) => (a, b, false, true),
        Node::Not(x) => match x.node() {
            Node::Cmp(BvCmp::Slt, a, b) => (b, a, false, false),
            Node::Cmp(BvCmp::Sle, a, b) => (b, a, true, false),
            Node::Eq(a, b) if bv(a) => return resolve(a).id() != resolve(b).id(),
            _ => return true,
        },
        _ => return true,
    };
    let (a, b) = (resolve(a), resolve(b));
    for x in [&a, &b] {
        if let Node::Bv(w, v) = x.node() {
            consts.push((*w, super::sign_extend(*v, *w), x.id()));
        }
    }
    out.push((a.id(), b.id(), strict));
    if both {
        out.push((b.id(), a.id(), false));
    }
    true
}

/// Orders the constants of one width among themselves: edges between them.
fn const_edges(consts: &mut Vec<Const>, out: &mut Vec<Edge>) {
    consts.sort_unstable();
    consts.dedup();
    for pair in consts.windows(2) {
        if let [(w1, v1, a), (w2, v2, b)] = pair
            && w1 == w2
        {
            out.push((*a, *b, v1 < v2));
        }
    }
}

/// Whether `to` is reachable from `from` over the edges of `sorted` (sorted by source: a
/// node's successors are one run of it) and of `loose` (in any order, a few), through a
/// strict edge unless `strict` already.
fn reaches(sorted: &[Edge], loose: &[Edge], from: u32, to: u32, strict: bool) -> bool {
    let mut seen: Vec<(u32, bool)> = Vec::new();
    let mut work = vec![(from, strict)];
    while let Some((n, s)) = work.pop() {
        if n == to && s {
            return true;
        }
        // Reached through a strict edge, a node reaches all it would otherwise.
        if seen.contains(&(n, s)) || seen.contains(&(n, true)) {
            continue;
        }
        seen.push((n, s));
        let lo = sorted.partition_point(|e| e.0 < n);
        let run = sorted.get(lo..).unwrap_or_default().iter().take_while(|e| e.0 == n);
        work.extend(run.chain(loose.iter().filter(|e| e.0 == n)).map(|&(_, m, e)| (m, s || e)));
    }
    false
}

/// How many edges of the path condition may stay unsorted: past that, they are sorted with
/// the rest (the questions of one P-search share the state's path condition, whose edges
/// are then sorted once, and differ in a few entries of their own).
const LOOSE: usize = 16;

/// The order edges of a path condition's entries, kept across questions: the questions of
/// a P-search share the long path condition of the state it searches from, so only the
/// entries beyond the common prefix are walked again.
#[derive(Default)]
pub struct OrderEdges {
    /// The entries walked, and the number of edges and constants after each.
    entries: Vec<Term>,
    ends: Vec<(usize, usize)>,
    edges: Vec<Edge>,
    consts: Vec<Const>,
    /// The first `sorted_len` of `edges`, sorted by source.
    sorted: Vec<Edge>,
    sorted_len: usize,
}

impl OrderEdges {
    /// Brings the edges up to `base`.
    fn sync(&mut self, base: &[Term]) {
        let common = super::common_prefix(&self.entries, base);
        self.entries.truncate(common);
        self.ends.truncate(common);
        let (e, c) = self.ends.last().copied().unwrap_or_default();
        self.edges.truncate(e);
        self.consts.truncate(c);
        if self.edges.len() < self.sorted_len {
            self.sorted.clear();
            self.sorted_len = 0;
        }
        let mut same = |t: &Term| t.clone();
        for t in &base[common..] {
            edges(t, &mut same, &mut self.edges, &mut self.consts);
            self.entries.push(t.clone());
            self.ends.push((self.edges.len(), self.consts.len()));
        }
    }

    /// Whether `base ∧ extra` is unsatisfiable by a strict order cycle through an edge of
    /// `extra` (the edges of `base` alone are not examined: a caller passes what it already
    /// knows to be consistent there, or nothing). The edges of `base` are kept for the next
    /// question.
    pub fn refutes(&mut self, base: &[Term], extra: &[&Term]) -> bool {
        let (mut new, mut consts) = (Vec::new(), Vec::new());
        let mut same = |t: &Term| t.clone();
        for t in extra {
            edges(t, &mut same, &mut new, &mut consts);
        }
        if new.is_empty() {
            return false;
        }
        self.sync(base);
        if self.edges.len() - self.sorted_len > LOOSE {
            self.sorted.clone_from(&self.edges);
            self.sorted.sort_unstable();
            self.sorted.dedup();
            self.sorted_len = self.edges.len();
        }
        let mut loose = self.edges.get(self.sorted_len..).unwrap_or_default().to_vec();
        consts.extend_from_slice(&self.consts);
        const_edges(&mut consts, &mut loose);
        loose.extend_from_slice(&new);
        new.iter().any(|&(a, b, s)| reaches(&self.sorted, &loose, b, a, s))
    }
}

/// Whether the conjunction `pc` is unsatisfiable by a strict order cycle (or a term said to
/// differ from itself) once each compared operand is replaced by `resolve`'s term for it,
/// one the caller knows to be equal to it under `pc`: the branch an if-then-else value takes
/// where unit propagation decided its condition (`term/propagate.rs`). uber's keys are such
/// values, `ite(2 == L1.right, L1.key, L2.key)`, which the plain graph cannot see through.
pub(super) fn refutes_resolved(pc: &[Term], resolve: &mut dyn FnMut(&Term) -> Term) -> bool {
    let (mut all, mut consts) = (Vec::new(), Vec::new());
    for t in pc {
        if !edges(t, resolve, &mut all, &mut consts) {
            return true;
        }
    }
    if !all.iter().any(|e| e.2) {
        return false;
    }
    const_edges(&mut consts, &mut all);
    strict_cycle(&all)
}

/// Whether a strict edge lies on a cycle: its ends in one strongly connected component
/// (Tarjan's algorithm, iterative; one walk over the graph instead of one per strict edge).
fn strict_cycle(edges: &[Edge]) -> bool {
    let mut nodes: Vec<u32> = edges.iter().flat_map(|e| [e.0, e.1]).collect();
    nodes.sort_unstable();
    nodes.dedup();
    let index = |id: u32| nodes.binary_search(&id).unwrap_or_default();
    let n = nodes.len();
    // Adjacency by source index.
    let mut adj: Vec<(usize, usize)> = edges.iter().map(|e| (index(e.0), index(e.1))).collect();
    adj.sort_unstable();
    adj.dedup();
    let mut start = vec![0usize; n + 1];
    for &(a, _) in &adj {
        start[a + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    const NONE: usize = usize::MAX;
    let (mut order, mut low, mut comp) = (vec![NONE; n], vec![0usize; n], vec![NONE; n]);
    let (mut next, mut comps) = (0usize, 0usize);
    let mut stack: Vec<usize> = Vec::new();
    let mut on_stack = vec![false; n];
    for root in 0..n {
        if order[root] != NONE {
            continue;
        }
        // (node, next edge to look at)
        let mut walk: Vec<(usize, usize)> = vec![(root, start[root])];
        order[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut e)) = walk.last_mut() {
            if *e < start[v + 1] {
                let w = adj[*e].1;
                *e += 1;
                if order[w] == NONE {
                    order[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    walk.push((w, start[w]));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            walk.pop();
            if let Some(&(u, _)) = walk.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == order[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp[w] = comps;
                    if w == v {
                        break;
                    }
                }
                comps += 1;
            }
        }
    }
    edges.iter().filter(|e| e.2).any(|e| comp[index(e.0)] == comp[index(e.1)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::TermPool;

    fn refutes(base: &[Term], extra: &[&Term]) -> bool {
        OrderEdges::default().refutes(base, extra)
    }

    #[test]
    fn kept_edges_follow_the_path_condition_asked_about() {
        let mut p = TermPool::default();
        let (a, b, c) = (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)), p.var("c", Sort::Bv(32)));
        let (ba, cb, ab) = (p.slt(&b, &a), p.slt(&c, &b), p.slt(&a, &b));
        let closes = p.slt(&a, &c);
        let mut kept = OrderEdges::default();
        assert!(kept.refutes(&[ba.clone(), cb.clone()], &[&closes]));
        // A sibling path condition: its second entry differs, and so does the answer.
        assert!(!kept.refutes(&[ba.clone(), ab.clone()], &[&closes]));
        assert!(kept.refutes(&[ba.clone(), cb.clone()], &[&closes]));
        // A shorter one drops the edges of the entries past it.
        assert!(!kept.refutes(&[ba], &[&closes]));
    }

    #[test]
    fn a_strict_cycle_is_refuted_and_a_chain_is_not() {
        let mut p = TermPool::default();
        let (a, b, c) = (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)), p.var("c", Sort::Bv(32)));
        let base = vec![p.slt(&b, &a), p.slt(&c, &b)];
        let closes = p.slt(&a, &c);
        assert!(refutes(&base, &[&closes]));
        // `!(c <= a)` is `a < c`; `a <= c` with `c < b < a` too.
        let le = p.sle(&c, &a);
        let not_le = p.not(&le);
        assert!(refutes(&base, &[&not_le]));
        assert!(refutes(&base, &[&p.sle(&a, &c)]));
        // `c <= a` agrees with the chain; so does `a == a`.
        assert!(!refutes(&base, &[&le]));
        // Equalities carry order: `c == a` with `c < b < a`.
        let eq = p.eq(&c, &a);
        assert!(refutes(&base, &[&eq]));
        // Constants are ordered: `a < 3` and `5 <= a`.
        let (three, five) = (p.int(3), p.int(5));
        let lt3 = p.slt(&a, &three);
        assert!(refutes(std::slice::from_ref(&lt3), &[&p.sle(&five, &a)]));
        assert!(!refutes(&[lt3], &[&p.sle(&a, &five)]));
    }

    #[test]
    fn a_strict_edge_closes_a_cycle_only_inside_one_component() {
        // 1 <= 2 <= 3 <= 1 is a cycle without a strict edge; 3 < 4 leaves it.
        let loose = [(1, 2, false), (2, 3, false), (3, 1, false), (3, 4, true)];
        assert!(!strict_cycle(&loose));
        // 4 <= 1 takes 4 into the component: 3 < 4 <= 1 <= 2 <= 3.
        assert!(strict_cycle(&[&loose[..], &[(4, 1, false)]].concat()));
        // Two components joined one way only, and a strict self-loop.
        assert!(!strict_cycle(&[(1, 2, false), (2, 1, false), (2, 3, true), (3, 4, false), (4, 3, false)]));
        assert!(strict_cycle(&[(7, 7, true)]));
    }
}
