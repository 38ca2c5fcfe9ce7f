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

use std::rc::Rc;

use super::oracle::{Inconclusive, Search, Valid};
use super::state::{Frame, FrameKind, Next, State};
use super::witness::Witness;
use super::{Machine, Outcome};
use crate::classfile::MethodId;
use crate::cut::CutReason;
use crate::heap::{HeapStrategy, Value};
use crate::ir::LocalId;
use crate::solver::{SatResult, Site, Solver};
use crate::term::{Assignment, Term};
use crate::{Error, Result};

/// A P-search under way: its pending paths, those parked at the current depth limit, and
/// the model it follows.
struct PSearch<H: HeapStrategy> {
    work: Vec<State<H>>,
    parked: Vec<State<H>>,
    steps: u64,
    guide: Option<Assignment>,
    follow: bool,
}

/// A P-search first lets P take this many decisions per object of the scope (a `repOK`
/// checks a handful of things per node), then deepens up to the fuse.
const FIRST_DEPTH_PER_OBJECT: u32 = 16;

impl<H: HeapStrategy, S: Solver> Machine<'_, H, S> {
    /// The precondition of the entry method, when the oracle is on.
    pub(super) fn oracle(&self) -> Option<MethodId> {
        self.valid.as_ref().map(|v| v.pre.0)
    }

    /// Whether a P-search is running.
    pub(super) fn in_p_search(&self) -> bool {
        self.valid.as_ref().is_some_and(|v| v.running)
    }

    /// Notes why the P-search running now is inconclusive, for its side's cut reason.
    fn inconclusive(&mut self, why: Inconclusive) {
        if let Some(v) = &mut self.valid {
            v.stop = why;
        }
    }

    /// The frame of precondition `pm`, called as `how` says on the entry's arguments `args`
    /// (receiver first).
    pub(super) fn pre_frame(
        &mut self,
        (pm, how): (MethodId, super::pre_method::PreArgs),
        args: &[Value<H::Ref>],
    ) -> Result<Frame<H::Ref>> {
        let body = self.program.body(pm)?.ok_or_else(|| {
            Error::Usage(format!("the precondition {} has no code", self.program.table.method_display(pm)))
        })?;
        let mut frame = Frame::new(pm, body, FrameKind::Precondition);
        for (i, v) in super::pre_method::frame_args(how, args).into_iter().enumerate() {
            frame.set(LocalId(i as u32), v);
        }
        Ok(frame)
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
            None => match self.valid.as_ref().map_or(Inconclusive::Steps, |v| v.stop) {
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
            let outer = self.valid.as_mut().is_some_and(|v| std::mem::replace(&mut v.running, true));
            let r = self.p_search_within(&mut search, (limit < fuse).then_some(limit), pin);
            if let Some(v) = &mut self.valid {
                v.running = outer;
            }
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
        let pre =
            self.valid.as_ref().map(|v| v.pre).ok_or_else(|| self.fault(st, "a P-search without a precondition"))?;
        let frame = self.pre_frame(pre, &st.args)?;
        let heap = self.strategy.input_view(super::control::cx!(self), &st.heap)?;
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
            bottoms: Vec::new(),
            class_objects: Vec::new(),
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
                    self.inconclusive(Inconclusive::Steps);
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
                self.inconclusive(Inconclusive::Unknown);
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
