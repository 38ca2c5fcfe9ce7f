//! The precondition as a validity oracle (docs/preconditions.md): with `--precondition P` a
//! state lives only while some input within the scope (`--max-objects`) satisfies both its
//! path condition and P. P never forks the exploration and none of its decisions is part of
//! a trace's path: a trace's path is the method's, the same for every strategy.
//!
//! A state carries a *witness*: a model of its path condition under which P returns true.
//! When a step forks (a branch, a switch, a materialization with several feasible
//! alternatives), a side whose constraints the witness satisfies keeps it (where symbol
//! names are global, uber's, the witness also values the symbols the method introduced
//! since, which P's path did not read: their definitions give them, or the values the
//! model has satisfy the constraints); any other side is settled by a *P-search*: P runs
//! symbolically on the side's input view ([`HeapStrategy::input_view`]) in a
//! sub-exploration of its own, depth first (the sides a
//! hint model satisfies first), until one of P's paths returns true (the side lives, with
//! that path's model as its witness) or none can (the side has no valid input and is
//! dropped). At a trace's end one more P-search on the final input view gives the test's
//! input, which then runs concretely for the outcome. P's paths that throw, are cut by
//! `--max-objects` or take more than `--precondition-fuse` decisions (a precondition that
//! never returns) are dead ends of a search; a search that runs out of
//! `--precondition-steps` or of the budget, or whose solver answers `unknown`, is
//! inconclusive, and a side no search could settle ends as a trace cut by
//! `precondition-steps`, by the budget or by `solver-unknown`.

use std::collections::HashSet;
use std::rc::Rc;

use super::state::{Frame, FrameKind, Next, State};
use super::{Machine, Outcome};
use crate::classfile::MethodId;
use crate::cut::CutReason;
use crate::heap::{HeapStrategy, Value};
use crate::ir::LocalId;
use crate::solver::{SatResult, Site, Solver};
use crate::term::{Assignment, Node, SymbolId, Term};
use crate::{Error, Result};

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
    fn new(model: Assignment, pc: &[Term]) -> Witness {
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
    fn extended(&self, rest: &[Term], extend: bool) -> Option<Option<Witness>> {
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

/// What a P-search found.
pub(super) enum Search<H: HeapStrategy> {
    /// A path of P returned true: the state it ended in (on the input view) and the model,
    /// which is pinned in the solver (arrays read from it).
    Found(Box<State<H>>, Assignment),
    /// No input within the scope satisfies P and the state's path condition.
    None,
    /// Inconclusive: a path of P reached `--precondition-fuse`, or the budget ran out.
    Fused,
}

/// A P-search under way: its pending paths, those parked at the current depth limit, and
/// the model it follows.
struct PSearch<H: HeapStrategy> {
    work: Vec<State<H>>,
    parked: Vec<State<H>>,
    steps: u64,
    guide: Option<Assignment>,
    follow: bool,
}

/// Why a P-search was inconclusive (besides the budget running out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Inconclusive {
    /// It took `--precondition-steps` steps.
    Steps,
    /// The solver answered `unknown` on the check of a path of P that returned true.
    Unknown,
}

/// The verdict on one side of a fork.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Valid {
    Yes,
    No,
    Fused,
}

/// A P-search first lets P take this many decisions per object of the scope (a `repOK`
/// checks a handful of things per node), then deepens up to the fuse.
const FIRST_DEPTH_PER_OBJECT: u32 = 16;

impl<H: HeapStrategy, S: Solver> Machine<'_, H, S> {
    /// The precondition of the entry method, when the oracle is on.
    pub(super) fn oracle(&self) -> Option<MethodId> {
        self.precondition
    }

    /// The cut reason of a state no P-search could settle: the budget, when it ran out (Z3
    /// interrupted); else `--precondition-steps`, or the solver's `unknown` on the check of
    /// a path of P that returned true.
    pub(super) fn fuse_cut(&self) -> CutReason {
        let b = &self.config.bounds;
        match self.budget.halt() {
            Some(h) => {
                self.budget_cut.set(Some(h));
                h.reason()
            }
            None => match self.search_stop {
                Inconclusive::Steps => CutReason::PreconditionSteps(b.precondition_steps),
                Inconclusive::Unknown => CutReason::PreconditionUnknown,
            },
        }
    }

    /// Whether some input within the scope satisfies P and `st`'s path condition; on `Yes`
    /// the state's witness covers its whole path condition.
    pub(super) fn validate(&mut self, st: &mut State<H>) -> Result<Valid> {
        if self.oracle().is_none() || Self::in_precondition(st) {
            return Ok(Valid::Yes);
        }
        if let Some(w) = &st.witness
            && let Some(ext) = w.extended(&st.pc[st.witness_upto.min(st.pc.len())..], self.strategy.global_names())
        {
            if let Some(ext) = ext {
                st.witness = Some(Rc::new(ext));
            }
            st.witness_upto = st.pc.len();
            return Ok(Valid::Yes);
        }
        let hint = st.witness.clone();
        // The search is asked near the valid input of the state the side forked from.
        if let Some(w) = &hint {
            self.solver.suggest(&w.model, &st.pc, st.witness_upto);
        }
        self.stats.pre_searches += 1;
        Ok(match self.p_search(st, hint.as_deref().map(|w| &w.model), false)? {
            Search::Found(found, model) => {
                // The P-search's path condition extends the state's.
                let judged = if self.strategy.global_names() { &found.pc } else { &st.pc };
                st.witness = Some(Rc::new(Witness::new(model, judged)));
                st.witness_upto = st.pc.len();
                Valid::Yes
            }
            Search::None => Valid::No,
            Search::Fused => Valid::Fused,
        })
    }

    /// Runs P on the input view of `st` (a sub-exploration that never touches `st`), depth
    /// first, the successors `hint` satisfies first, until a path of P returns true. With
    /// `pin`, the model found comes from Z3 and stays pinned (for reading arrays from it).
    ///
    /// The search deepens step by step: P's paths may first take a few dozen decisions per
    /// object of the scope; a path that needs more is parked, and only when no shorter path
    /// returned true do the parked paths go on (from where they stopped), with four times the
    /// room, up to `--precondition-fuse`. A path of P longer than the fuse (one that walks a
    /// cycle with a symbolic counter, say) is not a witness: on such an input P does not
    /// return true.
    pub(super) fn p_search(&mut self, st: &State<H>, hint: Option<&Assignment>, pin: bool) -> Result<Search<H>> {
        let start = std::time::Instant::now();
        let found = self.p_search_deepening(st, hint, pin);
        self.stats.pre_us += start.elapsed().as_micros() as u64;
        found
    }

    /// [`Self::p_search`] without the timing.
    fn p_search_deepening(&mut self, st: &State<H>, hint: Option<&Assignment>, pin: bool) -> Result<Search<H>> {
        let fuse = self.config.bounds.precondition_fuse.max(1);
        let mut limit = (FIRST_DEPTH_PER_OBJECT * (self.config.bounds.max_objects + 1)).min(fuse);
        let mut search = PSearch {
            work: vec![self.p_start(st)?],
            parked: Vec::new(),
            steps: 0,
            // The model the search follows: the hint, then the last one a check gave.
            guide: hint.cloned(),
            // The search for a test's input follows its hint (the state's witness) only: the
            // input it finds is the one eager checks would find.
            follow: !(pin && hint.is_some()),
        };
        loop {
            // Every P-search reads pointwise, the search for a test's input too: on the
            // whole symbolic input view its queries grow with the scope.
            let outer = std::mem::replace(&mut self.in_p_search, true);
            let r = self.p_search_within(&mut search, (limit < fuse).then_some(limit), pin);
            self.in_p_search = outer;
            if !matches!(r, Ok(Search::Fused)) {
                self.stats.pre_max_steps = self.stats.pre_max_steps.max(search.steps);
            }
            match r? {
                Search::None if !search.parked.is_empty() => {
                    limit = limit.saturating_mul(4).min(fuse);
                    search.work = std::mem::take(&mut search.parked);
                    search.work.reverse();
                }
                found => return Ok(found),
            }
        }
    }

    /// The state P starts in: its frame on the receiver, on the input view of `st`.
    fn p_start(&mut self, st: &State<H>) -> Result<State<H>> {
        let pm = self.oracle().ok_or_else(|| self.fault(st, "a P-search without a precondition"))?;
        let body = self.program.body(pm)?.ok_or_else(|| {
            Error::Usage(format!("the precondition {} was not lowered", self.program.table.method_display(pm)))
        })?;
        let recv = st.args.first().cloned().ok_or_else(|| self.fault(st, "a precondition without a receiver"))?;
        let heap = self.strategy.input_view(super::control::cx!(self), &st.heap)?;
        let mut frame = Frame::new(pm, body, FrameKind::Precondition);
        frame.set(LocalId(0), recv);
        Ok(State {
            frames: vec![frame],
            heap,
            pc: st.pc.clone(),
            path: Vec::new(),
            pre_decisions: 0,
            initialized: st.initialized.clone(),
            args: st.args.clone(),
            statics: st.statics.clone(),
            notes: Vec::new(),
            unknown: false,
            steps: 0,
            witness: None,
            witness_upto: 0,
            unchecked: false,
            init_gaps: Default::default(),
        })
    }

    /// Runs the search's pending paths depth first until one returns true; a path past
    /// `park` decisions waits in `parked` (when its path condition is satisfiable), and a
    /// path past the fuse is dropped.
    fn p_search_within(&mut self, search: &mut PSearch<H>, park: Option<u32>, pin: bool) -> Result<Search<H>> {
        while let Some(first) = search.work.pop() {
            let mut s = first;
            loop {
                search.steps += 1;
                if search.steps > self.config.bounds.precondition_steps {
                    self.search_stop = Inconclusive::Steps;
                    return Ok(Search::Fused);
                }
                if self.budget.halt().is_some() {
                    return Ok(Search::Fused);
                }
                if park.is_some_and(|p| s.pre_decisions > p) {
                    if self.settle(&mut s, &mut search.guide, search.follow) {
                        search.parked.push(s);
                    }
                    break;
                }
                // A state a fork left unchecked runs unchecked until it forks again: a side
                // that only returns false, throws or leaves the scope never costs a query,
                // and a side that returns true is checked by `holds`.
                let unchecked = std::mem::take(&mut s.unchecked);
                let site = fork_site(&s);
                let base = s.pc.len();
                let mut next = self.step(s)?;
                if next.len() == 1 && matches!(next.first(), Some(Next::Run(_))) {
                    if let Some(Next::Run(mut n)) = next.pop() {
                        n.unchecked |= unchecked;
                        s = n;
                        continue;
                    }
                    break;
                }
                let mut runs = Vec::new();
                for n in next {
                    match n {
                        Next::Run(r) => runs.push(r),
                        Next::Done(d, Outcome::Return(Some(Value::Int(t)))) => {
                            if let Some(found) = self.holds(d, &t, pin)? {
                                return Ok(found);
                            }
                        }
                        // A path of P that something other than the scope or the fuse cut
                        // is no witness, and is counted: P could not decide that input.
                        Next::Done(_, Outcome::Cut(why))
                            if !matches!(why, CutReason::MaxObjects(_) | CutReason::PreconditionFuse(_)) =>
                        {
                            *self.stats.pre_cut.entry(why).or_default() += 1;
                        }
                        // P threw, a path needed an object beyond the scope or ran past the
                        // fuse: no witness.
                        Next::Done(..) | Next::Rejected | Next::Pruned => {}
                    }
                }
                // Before its successors run, the state they forked from is checked.
                if unchecked && let Some(r) = runs.first() {
                    match self.check_guiding(&r.pc[..base.min(r.pc.len())], &mut search.guide, search.follow, site) {
                        Some(false) => break,
                        Some(true) => {}
                        None => runs.iter_mut().for_each(|r| r.unknown = true),
                    }
                }
                if let Some(h) = &search.guide {
                    // Stable: the successors the guide satisfies first, otherwise program order.
                    runs.sort_by_key(|r| !r.pc[base.min(r.pc.len())..].iter().all(|t| h.eval_bool(t) != Some(false)));
                }
                search.work.extend(runs.into_iter().rev());
                break;
            }
        }
        Ok(Search::None)
    }

    /// Checks the path condition of a state a fork left unchecked: `false` when it is
    /// unsatisfiable. A model found becomes the search's guide.
    fn settle(&mut self, s: &mut State<H>, guide: &mut Option<Assignment>, follow: bool) -> bool {
        if !s.unchecked {
            return true;
        }
        s.unchecked = false;
        match self.check_guiding(&s.pc, guide, follow, None) {
            Some(sat) => sat,
            None => {
                s.unknown = true;
                true
            }
        }
    }

    /// Whether `pc` is satisfiable (`None`: the solver gave up), asked from `site` if given;
    /// with `follow`, a model found becomes the search's guide.
    fn check_guiding(
        &mut self,
        pc: &[Term],
        guide: &mut Option<Assignment>,
        follow: bool,
        site: Option<Site>,
    ) -> Option<bool> {
        let answer = match site {
            Some(at) => self.solver.check_at(pc, at),
            None => self.solver.check(pc),
        };
        match answer {
            SatResult::Sat(m) => {
                if follow {
                    *guide = Some(m);
                }
                Some(true)
            }
            SatResult::Unsat => Some(false),
            SatResult::Unknown(_) => None,
        }
    }

    /// P returned `t` on state `d`: the search's result when `t` can be true (with a model
    /// of that, pinned in the solver), `None` when it cannot.
    fn holds(&mut self, d: State<H>, t: &Term, pin: bool) -> Result<Option<Search<H>>> {
        let zero = self.terms.int(0);
        let ok = self.terms.ne(t, &zero);
        if ok.is_false() {
            return Ok(None);
        }
        let mut d = d;
        self.stats.pre_max_decisions = self.stats.pre_max_decisions.max(d.pre_decisions);
        d.assume(std::slice::from_ref(&ok));
        let extra = self.strategy.model_constraints(super::control::cx!(self), &d.heap);
        d.assume(&extra);
        let answer = if pin { self.solver.model(&d.pc) } else { self.solver.check(&d.pc) };
        Ok(match answer {
            SatResult::Sat(model) => Some(Search::Found(Box::new(d), model)),
            SatResult::Unsat => None,
            SatResult::Unknown(_) => {
                self.search_stop = Inconclusive::Unknown;
                Some(Search::Fused)
            }
        })
    }
}

/// The site of the check a P-search makes where state `s` forks next: the statement and
/// the call depth it is at (a side of one fork of P runs to the same next fork).
fn fork_site<H: HeapStrategy>(s: &State<H>) -> Option<Site> {
    let f = s.frames.last()?;
    let depth = s.frames.len() as u64 & 0xff;
    let at = (u64::from(f.method.0) << 40) ^ (u64::from(f.block.0) << 20) ^ ((f.next as u64 & 0xfff) << 8);
    Some(Site(at | depth))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::panic)]
    use super::*;
    use crate::term::{BvCmp, Sort, TermPool, Val};

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
