//! Refutes a conjunction by its signed order atoms alone: `a < b`, `a <= b`, their
//! negations and bit-vector equalities are edges of a graph over terms, and a cycle through a
//! strict edge (`a < b <= ... <= a`) cannot hold. A P-search over a search tree that aliases a
//! node back to an ancestor (`L1.key < L5.key` after `L5.key < L4.key < L1.key`) is the case
//! this settles without the solver; [`refutes_resolved`] does it through the if-then-else
//! values whose conditions unit propagation decided.

use super::{BvCmp, Node, Sort, Term, TermId};

/// `from <= to`, or `from < to` when `strict`, between two terms (by id) of a width.
type Edge = (TermId, TermId, bool, u32);

/// A constant an edge compares: width, signed value, term id.
type Const = (u32, i64, TermId);

/// The order edges of constraints, the constants they compare and the widths an ordering
/// (not only an equality) compares: a width only equalities compare (uber's location
/// numbers) has a strict cycle exactly where two constants are said to be equal.
#[derive(Default)]
struct Graph {
    edges: Vec<Edge>,
    consts: Vec<Const>,
    ordered: Vec<u32>,
}

impl Graph {
    /// Adds the order edges `t` states: its conjuncts' signed comparisons and equalities,
    /// between their operands as `resolve` gives them. `false` when a conjunct denies that a
    /// term equals itself (`!(a == a)`).
    fn add(&mut self, t: &Term, resolve: &mut dyn FnMut(&Term) -> Term) -> bool {
        let bv = |a: &Term| matches!(a.sort(), Sort::Bv(_));
        // `a <= b` (`a < b` when strict), and `b <= a` too for an equality.
        let (a, b, strict, both) = match t.node() {
            Node::And(xs) => return xs.iter().all(|x| self.add(x, resolve)),
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
        let w = a.width();
        if !both && !self.ordered.contains(&w) {
            self.ordered.push(w);
        }
        let (a, b) = (resolve(a), resolve(b));
        for x in [&a, &b] {
            if let Node::Bv(w, v) = x.node() {
                self.consts.push((*w, super::sign_extend(*v, *w), x.id()));
            }
        }
        self.edges.push((a.id(), b.id(), strict, w));
        if both {
            self.edges.push((b.id(), a.id(), false, w));
        }
        true
    }

    /// Empties the graph, keeping its room.
    fn clear(&mut self) {
        self.edges.clear();
        self.consts.clear();
        self.ordered.clear();
    }

    /// Edges between the constants of each width, in order.
    fn const_edges(&mut self) -> Vec<Edge> {
        self.consts.sort_unstable();
        self.consts.dedup();
        chain_edges(&self.consts, |_| true).collect()
    }
}

/// Edges between consecutive constants of `consts` (sorted) of one width that `width` admits.
fn chain_edges<'a>(consts: &'a [Const], width: impl Fn(&u32) -> bool + 'a) -> impl Iterator<Item = Edge> + 'a {
    consts.windows(2).filter_map(move |pair| match pair {
        [(w1, v1, a), (w2, v2, b)] if w1 == w2 && width(w1) => Some((*a, *b, v1 < v2, *w1)),
        _ => None,
    })
}

/// The edges of `sorted` (sorted by source: a node's successors are one run of it) and of
/// `loose` (in any order, a few) that leave `n`.
fn successors<'a>(sorted: &'a [Edge], loose: &'a [Edge], n: TermId) -> impl Iterator<Item = &'a Edge> + 'a {
    let lo = sorted.partition_point(|e| e.0 < n);
    let run = sorted.get(lo..).unwrap_or_default().iter().take_while(move |e| e.0 == n);
    run.chain(loose.iter().filter(move |e| e.0 == n))
}

/// The nodes a walk has seen and has yet to visit (kept across walks for their room).
#[derive(Default)]
struct Walk {
    seen: Vec<(TermId, bool)>,
    work: Vec<(TermId, bool)>,
}

/// Whether `to` is reachable from `from` over the edges of `sorted` and `loose`, through a
/// strict edge unless `strict` already.
fn reaches(sorted: &[Edge], loose: &[Edge], from: TermId, to: TermId, strict: bool, walk: &mut Walk) -> bool {
    let Walk { seen, work } = walk;
    seen.clear();
    work.clear();
    work.push((from, strict));
    while let Some((n, s)) = work.pop() {
        if n == to && s {
            return true;
        }
        // Reached through a strict edge, a node reaches all it would otherwise.
        if seen.contains(&(n, s)) || seen.contains(&(n, true)) {
            continue;
        }
        seen.push((n, s));
        work.extend(successors(sorted, loose, n).map(|&(_, m, e, _)| (m, s || e)));
    }
    false
}

/// Whether the terms equal to `from` over the edges of `sorted` and `loose` (equalities
/// only, at a width no ordering compares) hold two different constants (`is_const`).
fn joins_constants(
    sorted: &[Edge],
    loose: &[Edge],
    is_const: impl Fn(TermId) -> bool,
    from: TermId,
    walk: &mut Walk,
) -> bool {
    let Walk { seen, work } = walk;
    seen.clear();
    work.clear();
    work.push((from, false));
    let mut constant = None;
    while let Some((n, _)) = work.pop() {
        if seen.contains(&(n, false)) {
            continue;
        }
        seen.push((n, false));
        if is_const(n) {
            if constant.is_some_and(|c| c != n) {
                return true;
            }
            constant = Some(n);
        }
        work.extend(successors(sorted, loose, n).map(|e| (e.1, false)));
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
    /// The entries walked, and the numbers of edges, constants and ordered widths after each.
    entries: Vec<Term>,
    ends: Vec<(usize, usize, usize)>,
    graph: Graph,
    /// The first `sorted_len` of the edges, sorted by source.
    sorted: Vec<Edge>,
    sorted_len: usize,
    /// How many of the constants `scratch.base_consts` holds sorted (`usize::MAX`: none
    /// since the constants changed).
    consts_sorted: usize,
    scratch: Scratch,
}

/// What one question builds, kept for its room: the question's own graph, the edges not
/// sorted, the constants (of the path condition and with the question's), the walk.
#[derive(Default)]
struct Scratch {
    new: Graph,
    loose: Vec<Edge>,
    base_consts: Vec<Const>,
    consts: Vec<Const>,
    walk: Walk,
}

impl OrderEdges {
    /// Brings the edges up to `base`.
    fn sync(&mut self, base: &[Term]) {
        let common = super::common_prefix(&self.entries, base);
        self.entries.truncate(common);
        self.ends.truncate(common);
        let (e, c, o) = self.ends.last().copied().unwrap_or_default();
        if c < self.graph.consts.len() {
            self.consts_sorted = usize::MAX;
        }
        let g = &mut self.graph;
        g.edges.truncate(e);
        g.consts.truncate(c);
        g.ordered.truncate(o);
        if g.edges.len() < self.sorted_len {
            self.sorted.clear();
            self.sorted_len = 0;
        }
        let mut same = |t: &Term| t.clone();
        for t in &base[common..] {
            g.add(t, &mut same);
            self.entries.push(t.clone());
            self.ends.push((g.edges.len(), g.consts.len(), g.ordered.len()));
        }
    }

    /// Whether `base ∧ extra` is unsatisfiable by a strict order cycle through an edge of
    /// `extra` (the edges of `base` alone are not examined: a caller passes what it already
    /// knows to be consistent there, or nothing). The edges of `base` are kept for the next
    /// question. An equality at a width no ordering compares walks only the terms it equates.
    pub fn refutes(&mut self, base: &[Term], extra: &[&Term]) -> bool {
        let mut new = std::mem::take(&mut self.scratch.new);
        new.clear();
        let mut same = |t: &Term| t.clone();
        for t in extra {
            new.add(t, &mut same);
        }
        let refuted = !new.edges.is_empty() && self.closes_cycle(base, &new);
        self.scratch.new = new;
        refuted
    }

    /// [`OrderEdges::refutes`] of the edges `new` (not empty) states.
    fn closes_cycle(&mut self, base: &[Term], new: &Graph) -> bool {
        self.sync(base);
        let g = &self.graph;
        if g.edges.len() - self.sorted_len > LOOSE {
            self.sorted.clone_from(&g.edges);
            self.sorted.sort_unstable();
            self.sorted.dedup();
            self.sorted_len = g.edges.len();
        }
        let ordered = |w: &u32| g.ordered.contains(w) || new.ordered.contains(w);
        let s = &mut self.scratch;
        s.loose.clear();
        s.loose.extend_from_slice(g.edges.get(self.sorted_len..).unwrap_or_default());
        s.loose.extend_from_slice(&new.edges);
        // The constants' chain matters only to an edge at a width an ordering compares.
        if new.edges.iter().any(|e| ordered(&e.3)) {
            if self.consts_sorted != g.consts.len() {
                s.base_consts.clone_from(&g.consts);
                s.base_consts.sort_unstable();
                s.base_consts.dedup();
                self.consts_sorted = g.consts.len();
            }
            s.consts.clone_from(&s.base_consts);
            if !new.consts.is_empty() {
                s.consts.extend_from_slice(&new.consts);
                s.consts.sort_unstable();
                s.consts.dedup();
            }
            s.loose.extend(chain_edges(&s.consts, ordered));
        }
        let is_const = |n: TermId| g.consts.iter().chain(&new.consts).any(|c| c.2 == n);
        new.edges.iter().any(|&(a, b, strict, w)| {
            if ordered(&w) {
                reaches(&self.sorted, &s.loose, b, a, strict, &mut s.walk)
            } else {
                joins_constants(&self.sorted, &s.loose, is_const, b, &mut s.walk)
            }
        })
    }
}

/// Whether the conjunction `pc` is unsatisfiable by a strict order cycle (or a term said to
/// differ from itself) once each compared operand is replaced by `resolve`'s term for it,
/// one the caller knows to be equal to it under `pc`: the branch an if-then-else value takes
/// where unit propagation decided its condition (`term/propagate.rs`). uber's keys are such
/// values, `ite(2 == L1.right, L1.key, L2.key)`, which the plain graph cannot see through.
pub(super) fn refutes_resolved(pc: &[Term], resolve: &mut dyn FnMut(&Term) -> Term) -> bool {
    let mut g = Graph::default();
    for t in pc {
        if !g.add(t, resolve) {
            return true;
        }
    }
    if !g.edges.iter().any(|e| e.2) {
        return false;
    }
    let chain = g.const_edges();
    g.edges.extend(chain);
    strict_cycle(&g.edges)
}

/// Whether a strict edge lies on a cycle: its ends in one strongly connected component
/// (Tarjan's algorithm, iterative; one walk over the graph instead of one per strict edge).
fn strict_cycle(edges: &[Edge]) -> bool {
    let mut nodes: Vec<TermId> = edges.iter().flat_map(|e| [e.0, e.1]).collect();
    nodes.sort_unstable();
    nodes.dedup();
    let index = |id: TermId| nodes.binary_search(&id).unwrap_or_default();
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
    fn kept_constants_follow_the_path_condition_asked_about() {
        let mut p = TermPool::default();
        let (a, b) = (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)));
        let (three, seven, nine) = (p.int(3), p.int(7), p.int(9));
        let (b_below3, a_below7) = (p.slt(&b, &three), p.slt(&a, &seven));
        let (nine_le_b, nine_le_a) = (p.sle(&nine, &b), p.sle(&nine, &a));
        let mut kept = OrderEdges::default();
        // `b < 3` and `9 <= b`: 9 <= b < 3 < 9.
        assert!(kept.refutes(std::slice::from_ref(&b_below3), &[&nine_le_b]));
        // As many constants, another one: 9 <= a < 7 < 9 needs the chain of 7, not of 3.
        assert!(kept.refutes(std::slice::from_ref(&a_below7), &[&nine_le_a]));
        assert!(!kept.refutes(&[b_below3], &[&nine_le_a]));
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
    fn locations_only_equalities_compare_refute_two_constants_in_one_class() {
        let mut p = TermPool::default();
        let (l, r) = (p.var("L1.left", Sort::Bv(16)), p.var("L1.right", Sort::Bv(16)));
        let (three, four) = (p.bv(16, 3), p.bv(16, 4));
        let base = vec![p.eq(&three, &l), p.eq(&four, &r)];
        // `L1.left == L1.right` equates 3 and 4; `L1.left == 3` again does not.
        assert!(refutes(&base, &[&p.eq(&l, &r)]));
        assert!(!refutes(&base, &[&p.eq(&l, &three)]));
        assert!(refutes(&base, &[&p.eq(&l, &four)]));
        // Once an ordering compares the width, the chain of constants decides as before.
        let (a, b) = (p.var("a", Sort::Bv(16)), p.var("b", Sort::Bv(16)));
        let lt = p.slt(&a, &b);
        assert!(refutes(&[lt.clone(), p.eq(&a, &four)], &[&p.eq(&b, &three)]));
        assert!(!refutes(&[lt, p.eq(&a, &three)], &[&p.eq(&b, &four)]));
    }

    #[test]
    fn a_strict_edge_closes_a_cycle_only_inside_one_component() {
        let e = |a: u32, b: u32, strict: bool| (TermId(a), TermId(b), strict, 32);
        // 1 <= 2 <= 3 <= 1 is a cycle without a strict edge; 3 < 4 leaves it.
        let loose = [e(1, 2, false), e(2, 3, false), e(3, 1, false), e(3, 4, true)];
        assert!(!strict_cycle(&loose));
        // 4 <= 1 takes 4 into the component: 3 < 4 <= 1 <= 2 <= 3.
        assert!(strict_cycle(&[&loose[..], &[e(4, 1, false)]].concat()));
        // Two components joined one way only, and a strict self-loop.
        assert!(!strict_cycle(&[e(1, 2, false), e(2, 1, false), e(2, 3, true), e(3, 4, false), e(4, 3, false)]));
        assert!(strict_cycle(&[e(7, 7, true)]));
    }
}
