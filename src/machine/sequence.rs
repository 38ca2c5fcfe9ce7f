//! Call-sequence runs (`--inputs api`): where a driver's prefix ends, states an earlier
//! prefix already reached are pruned (subsumption), and a prefix that threw is dropped.
//!
//! At each step switch of the driver (`lower/driver.rs`) the state's heap reachable from the
//! receiver is written as a canonical key: objects numbered in the order a breadth-first
//! walk meets them, classes, every field (ints as terms whose symbols are renamed in the
//! order they are met), then the conjuncts of the path condition that constrain those
//! symbols (closed over shared symbols), renamed the same way and sorted. Two states with
//! equal keys stand for the same set of concrete receivers, so the later one (at a step no
//! earlier than the first's) adds no input the first cannot make: it is pruned, as in
//! Symstra's state subsumption restricted to equivalence. A `modCount` field (the fail-fast
//! counter of java.util's collections, read only by iterators) is left out of the key. A heap the walk cannot read
//! without a choice (never the case for objects the driver made) is not compared.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::rc::Rc;

use super::control::{Feasible, cx};
use super::reached::Seen;
use super::state::{Next, State};
use super::{Choice, Decision, Machine};
use crate::Result;
use crate::heap::{HeapStrategy, ObjKind, Test, Value, fields_of};
use crate::lower::driver::Driver;
use crate::solver::Solver;
use crate::term::{Node, SymbolId, Term, TermId};

/// The fail-fast counter of java.util's collections (and of the libraries that copy them):
/// only iterators read it, so states that differ in it alone are the same to every test.
const FAIL_FAST_COUNTER: &str = "modCount";

/// The most objects a key walks (a larger receiver is not compared).
const MAX_KEY_OBJECTS: usize = 256;

impl<H: HeapStrategy, S: Solver> Machine<'_, H, S> {
    /// Where in `path` the method under test starts: after the driver's last decision when
    /// that decision chose it (a switch default); the whole path is the prefix otherwise
    /// (a trace cut before the call), and without a driver nothing is.
    fn tested_from(&self, path: &[Decision]) -> usize {
        let Some(d) = &self.driver else { return 0 };
        let marker = |x: &Decision| x.method == d.method && Some(x.pc) != d.observe_pc;
        match path.iter().rposition(marker) {
            Some(i) if matches!(path.get(i).map(|x| &x.choice), Some(Choice::Case(None))) => i + 1,
            _ => path.len(),
        }
    }

    /// Where in `path` the method under test ended: at the driver's observe switch, if the
    /// path reached it (the observers' decisions after it are no part of the tested path).
    fn tested_to(&self, path: &[Decision]) -> usize {
        let Some(d) = &self.driver else { return path.len() };
        match d.observe_pc {
            Some(pc) => path.iter().rposition(|x| x.method == d.method && x.pc == pc).unwrap_or(path.len()),
            None => path.len(),
        }
    }

    /// The decisions of the method under test in `path` (all of it without a driver).
    pub(super) fn tested_part<'a>(&self, path: &'a [Decision]) -> &'a [Decision] {
        let to = self.tested_to(path);
        path.get(self.tested_from(path).min(to)..to).unwrap_or_default()
    }

    /// Whether the switch with these targets (the default last) is a driver's step switch.
    pub(super) fn at_driver_switch<T>(&self, targets: &[(State<H>, Option<i32>, T)]) -> bool {
        let Some(d) = &self.driver else { return false };
        let on_driver = |s: &State<H>| s.frames.len() == 1 && s.top().is_some_and(|f| f.method == d.method);
        matches!(targets.last(), Some((s, None, _)) if on_driver(s))
    }

    /// Which traces share a test (and the preferred model of their first): those of one path
    /// of the method under test, and with a driver, of inputs of fewer than
    /// [`crate::lower::driver::TEST_CALLS`] calls or not.
    pub(super) fn test_key(&self, path: &[Decision]) -> u128 {
        let digest = super::path_digest(self.tested_part(path));
        let Some(d) = &self.driver else { return digest };
        let prefix = path.get(..self.tested_from(path)).unwrap_or_default();
        let calls = d.calls_after_constructor(driver_decisions(d, prefix));
        digest ^ u128::from(calls >= crate::lower::driver::TEST_CALLS)
    }

    /// Whether a path may take one more decision: without a driver, `--max-depth` bounds the
    /// path; with one, it bounds the decisions of the method under test, and the whole
    /// sequence gets `--max-depth` per call.
    pub(super) fn within_depth(&self, path: &[Decision]) -> bool {
        let max = u64::from(self.config.bounds.max_depth);
        let Some(d) = &self.driver else { return (path.len() as u64) < max };
        let calls = d.steps.len() as u64 + 1;
        (self.tested_part(path).len() as u64) < max && (path.len() as u64) < max * calls
    }

    /// `path` as (prefix, path of the method under test).
    pub(super) fn split_path(&self, mut path: Vec<Decision>) -> (Vec<Decision>, Vec<Decision>) {
        let to = self.tested_to(&path);
        path.truncate(to);
        let at = self.tested_from(&path);
        let tested = path.split_off(at);
        (path, tested)
    }

    /// At a driver's step switch or `threw` block: `Some(next)` when the state ends there
    /// (pruned or dropped), `None` to go on.
    pub(super) fn sequence_point(&mut self, st: &State<H>) -> Result<Option<Vec<Next<H>>>> {
        let Some(d) = self.driver.clone() else { return Ok(None) };
        let Some(f) = st.top() else { return Ok(None) };
        if f.method != d.method || f.instr().is_some() || st.frames.len() != 1 {
            return Ok(None);
        }
        if f.block == d.threw {
            self.stats.sequence.threw += 1;
            return Ok(Some(vec![Next::Pruned]));
        }
        let Some(step) = d.checkpoint(f.block) else { return Ok(None) };
        let Some(key) = self.state_key(st, &d)? else {
            self.stats.sequence.prefixes += 1;
            return Ok(None);
        };
        if self.subsumed(st, &key, step) {
            self.stats.sequence.pruned += 1;
            return Ok(Some(vec![Next::Pruned]));
        }
        self.stats.sequence.prefixes += 1;
        self.reached.exact.insert(key.exact.clone(), step);
        if key.closed {
            let seen = self.reached.shapes.entry(key.shape.clone()).or_default();
            seen.push(Rc::new(Seen { step, vars: key.vars, constraints: key.constraints }));
            if seen.len() > MAX_SEEN_PER_SHAPE {
                seen.remove(0);
            }
        }
        Ok(None)
    }

    /// Whether an earlier prefix of at most `step` calls reached every receiver this state
    /// stands for: the same key, or the same shape with constraints this state's path
    /// condition implies (one solver query per candidate).
    fn subsumed(&mut self, st: &State<H>, key: &StateKey, step: usize) -> bool {
        if self.reached.exact.get(&key.exact).is_some_and(|first| *first <= step) {
            return true;
        }
        let candidates: Vec<Rc<Seen>> = match self.reached.shapes.get(&key.shape) {
            Some(v) => v.iter().filter(|s| s.step <= step).cloned().collect(),
            None => return false,
        };
        for old in candidates {
            if old.vars.len() != key.vars.len() {
                continue;
            }
            if old.constraints.is_empty() {
                return true;
            }
            let map: HashMap<TermId, Term> = old.vars.iter().zip(&key.vars).map(|(o, n)| (o.id(), n.clone())).collect();
            let renamed: Vec<Term> = old.constraints.iter().map(|c| self.terms.substitute(c, &map)).collect();
            let all = self.terms.and(&renamed);
            let denied = self.terms.not(&all);
            if self.feasible(st, &[denied]) == Feasible::No {
                return true;
            }
        }
        false
    }

    /// The canonical key of the heap reachable from the driver's receiver (see the module
    /// comment), or `None` when it cannot be read without a choice.
    fn state_key(&mut self, st: &State<H>, d: &Driver) -> Result<Option<StateKey>> {
        let Some(recv) = d.receiver_local.and_then(|l| st.top().and_then(|f| f.get(l))) else {
            return Ok(None);
        };
        let Value::Ref(root) = recv.clone() else { return Ok(None) };
        let mut objects: Vec<H::Ref> = vec![root];
        let mut names = Names::default();
        let mut heap_vars: HashSet<SymbolId> = HashSet::new();
        let mut key = String::new();
        let null = self.strategy.null(cx!(self));
        let mut k = 0;
        while let Some(r) = objects.get(k).cloned() {
            k += 1;
            if objects.len() > MAX_KEY_OBJECTS {
                return Ok(None);
            }
            let classes = self.strategy.classes(cx!(self), &st.heap, &r)?;
            let [alt] = classes.as_slice() else { return Ok(None) };
            let [(kind, _)] = alt.value.as_slice() else { return Ok(None) };
            let kind = kind.clone();
            let _ = write!(key, "#{}:", k - 1);
            let values: Vec<Value<H::Ref>> = match &kind {
                ObjKind::Class(c) => {
                    let _ = write!(key, "{}{{", self.program.table.class(*c).name);
                    let mut vs = Vec::new();
                    for f in fields_of(&self.program.table, &kind) {
                        if self.program.table.field(f).name == FAIL_FAST_COUNTER {
                            continue;
                        }
                        let alts = self.strategy.get_field(cx!(self), &st.heap, &r, f)?;
                        let [a] = alts.as_slice() else { return Ok(None) };
                        if !a.assume.is_empty() {
                            return Ok(None);
                        }
                        vs.push(a.value.clone());
                    }
                    vs
                }
                ObjKind::Array(e) => {
                    let lens = self.strategy.array_length(cx!(self), &st.heap, &r)?;
                    let [len] = lens.as_slice() else { return Ok(None) };
                    let Some(n) = len.value.as_i64().filter(|n| (0..=64).contains(n)) else { return Ok(None) };
                    let _ = write!(key, "{}[{n}]{{", e.descriptor());
                    let mut vs = Vec::new();
                    for i in 0..n {
                        let idx = self.terms.int(i as i32);
                        let alts = self.strategy.array_load(cx!(self), &st.heap, &r, &idx)?;
                        let [a] = alts.as_slice() else { return Ok(None) };
                        vs.push(a.value.clone());
                    }
                    vs
                }
            };
            for v in values {
                match v {
                    Value::Int(t) | Value::Long(t) => {
                        for x in t.vars() {
                            if let Node::Var(n, _) = x.node() {
                                heap_vars.insert(n.clone());
                            }
                        }
                        render(&t, &mut names, &mut key);
                    }
                    Value::Ref(x) => {
                        if !self.write_ref(st, &mut objects, &null, x, &mut key)? {
                            return Ok(None);
                        }
                    }
                }
                key.push(',');
            }
            key.push('}');
        }
        // The conjuncts that constrain the heap's symbols, closed over shared symbols.
        let mut vars = heap_vars;
        let mut chosen: Vec<&Term> = Vec::new();
        let mut rest: Vec<(&Term, Vec<SymbolId>)> = st
            .pc
            .iter()
            .map(|c| {
                (
                    c,
                    c.vars()
                        .iter()
                        .filter_map(|v| if let Node::Var(n, _) = v.node() { Some(n.clone()) } else { None })
                        .collect(),
                )
            })
            .collect();
        loop {
            let (hit, miss): (Vec<_>, Vec<_>) =
                rest.into_iter().partition(|(_, vs)| vs.iter().any(|v| vars.contains(v)));
            rest = miss;
            if hit.is_empty() {
                break;
            }
            for (c, vs) in hit {
                vars.extend(vs);
                chosen.push(c);
            }
        }
        chosen.sort_by_key(|c| c.id());
        let shape = key.clone();
        let heap_vars = names.order.clone();
        let mut parts: Vec<String> = chosen
            .iter()
            .map(|c| {
                let mut s = String::new();
                render(c, &mut names, &mut s);
                s
            })
            .collect();
        // The constraints name no symbol beyond the heap's: the shape's own.
        let closed = names.order.len() == heap_vars.len();
        parts.sort();
        key.push('|');
        key.push_str(&parts.join("&"));
        let constraints = chosen.into_iter().cloned().collect();
        Ok(Some(StateKey { exact: key, shape, vars: heap_vars, constraints, closed }))
    }

    /// Writes reference `x` into `key`: `null`, `#i` for the `i`-th object walked, or the
    /// next number for an object not met yet (added to `objects`); false when telling which
    /// takes a choice.
    fn write_ref(
        &mut self,
        st: &State<H>,
        objects: &mut Vec<H::Ref>,
        null: &H::Ref,
        x: H::Ref,
        key: &mut String,
    ) -> Result<bool> {
        match self.identify(st, objects, null, &x)? {
            Some(Ident::Null) => key.push_str("null"),
            Some(Ident::Seen(i)) => {
                let _ = write!(key, "#{i}");
            }
            Some(Ident::New) => {
                let _ = write!(key, "#{}", objects.len());
                objects.push(x);
            }
            None => return Ok(false),
        }
        Ok(true)
    }

    /// Whether `x` is null, one of `objects` or another object; `None` when telling takes a
    /// choice.
    fn identify(&mut self, st: &State<H>, objects: &[H::Ref], null: &H::Ref, x: &H::Ref) -> Result<Option<Ident>> {
        let known = |alts: Vec<crate::heap::Alt<H::Heap, Test>>| match alts.as_slice() {
            [a] if a.assume.is_empty() => match a.value {
                Test::Known(b) => Some(b),
                Test::Cond(_) => None,
            },
            _ => None,
        };
        let is_null = known(self.strategy.ref_eq(cx!(self), &st.heap, x, null)?);
        match is_null {
            Some(true) => return Ok(Some(Ident::Null)),
            Some(false) => {}
            None => return Ok(None),
        }
        for (i, o) in objects.iter().enumerate() {
            match known(self.strategy.ref_eq(cx!(self), &st.heap, x, o)?) {
                Some(true) => return Ok(Some(Ident::Seen(i))),
                Some(false) => {}
                None => return Ok(None),
            }
        }
        Ok(Some(Ident::New))
    }
}

/// What a reference of the walked heap is.
enum Ident {
    Null,
    /// The object numbered so.
    Seen(usize),
    /// An object the walk has not met yet.
    New,
}

/// The canonical names of the symbols a key has met, and the symbols in that order.
#[derive(Default)]
struct Names {
    by_name: HashMap<SymbolId, String>,
    order: Vec<Term>,
}

/// The key of a state at a step switch (see the module comment).
struct StateKey {
    /// Shape and constraints, symbols renamed.
    exact: String,
    /// The heap alone, symbols renamed.
    shape: String,
    /// The heap's symbols in the order the shape names them.
    vars: Vec<Term>,
    /// The path condition's conjuncts over them (closed over shared symbols).
    constraints: Vec<Term>,
    /// Whether the constraints mention only the heap's symbols.
    closed: bool,
}

/// How many states of one shape are kept as candidates to subsume later ones.
const MAX_SEEN_PER_SHAPE: usize = 8;

/// The decisions of driver `d` in `path` as its switches see them: offset and case.
pub fn driver_decisions<'a>(d: &'a Driver, path: &'a [Decision]) -> impl Iterator<Item = (u32, Option<i32>)> + 'a {
    path.iter().filter(move |x| x.method == d.method).map(|x| match x.choice {
        Choice::Case(k) => (x.pc, k),
        _ => (x.pc, None),
    })
}

/// Writes `t` with its symbols renamed in the order they are first met (`names`).
fn render(t: &Term, names: &mut Names, out: &mut String) {
    match t.node() {
        Node::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        Node::Bv(w, v) => {
            let _ = write!(out, "{v}:{w}");
        }
        Node::Var(n, _) => {
            let k = names.by_name.len();
            let name = names.by_name.entry(n.clone()).or_insert_with(|| {
                names.order.push(t.clone());
                format!("v{k}")
            });
            out.push_str(name);
        }
        node => {
            let _ = write!(out, "({}", op_name(node));
            for c in t.children() {
                out.push(' ');
                render(c, names, out);
            }
            out.push(')');
        }
    }
}

/// The operator of a compound node, as the key writes it.
fn op_name(node: &Node) -> String {
    match node {
        Node::Not(_) => "not".into(),
        Node::And(_) => "and".into(),
        Node::Or(_) => "or".into(),
        Node::Ite(..) => "ite".into(),
        Node::Eq(..) => "=".into(),
        Node::Bin(op, ..) => format!("{op:?}"),
        Node::Neg(_) => "neg".into(),
        Node::Cmp(op, ..) => format!("{op:?}"),
        Node::SExt(n, _) => format!("sext{n}"),
        Node::ZExt(n, _) => format!("zext{n}"),
        Node::Extract(h, l, _) => format!("extract{h}_{l}"),
        Node::Select(..) => "select".into(),
        Node::Store(..) => "store".into(),
        Node::FpBin(op, ..) => format!("fp{op:?}"),
        Node::FpConv(c, to, _) => format!("fp{c:?}{to}"),
        Node::Bool(_) | Node::Bv(..) | Node::Var(..) => String::new(),
    }
}
