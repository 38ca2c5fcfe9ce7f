//! The exploration loop: run states to their ends, then turn each end into a [`Trace`].

use super::control::cx;
use super::oracle::{Search, Valid};
use super::search::worklist;
use super::state::{Next, State};
use super::{Machine, Options, Outcome, RunInfo, RunResult, Stats, Tally, Trace, TraceKind};
use crate::Result;
use crate::budget::{Budget, Halt, Stop};
use crate::classfile::MethodId;
use crate::config::Config;
use crate::cut::CutReason;
use crate::heap::{HeapStrategy, Roots, Value};
use crate::lower::Program;
use crate::solver::constant::Constant;
use crate::solver::{SatResult, Solver};
use crate::term::{Term, TermPool};

/// Explores every trace of `entry` with the given strategy and solver; the result holds
/// every trace.
pub fn explore<H: HeapStrategy, S: Solver>(
    program: &Program,
    entry: MethodId,
    config: &Config,
    strategy: H,
    solver: S,
    options: Options,
) -> Result<RunResult> {
    explore_into(program, entry, config, strategy, solver, options, &mut |_, _| Ok(true))
}

/// Explores every trace of `entry`, handing each to `sink` as soon as it ends; the result
/// keeps the traces `sink` returns `true` for (and counts all of them). An error `sink`
/// returns stops the run.
pub fn explore_into<H: HeapStrategy, S: Solver>(
    program: &Program,
    entry: MethodId,
    config: &Config,
    strategy: H,
    solver: S,
    options: Options,
    sink: &mut dyn FnMut(&RunInfo, &Trace) -> Result<bool>,
) -> Result<RunResult> {
    let mut m = Machine::new(program, config, strategy, solver, options);
    m.driver = program.driver(entry).cloned();
    if let Some(d) = &m.driver {
        let mut names: Vec<String> = d.mutators.iter().map(|x| program.table.method(*x).name.clone()).collect();
        names.dedup();
        m.stats.sequence.methods = names;
    }
    let (st, arg_names) = m.initial_state(entry)?;
    m.run(st, entry, arg_names, sink)
}

/// The input of a trace's test under `--precondition`.
enum ValidInput {
    Input(crate::heap::Concrete),
    /// No input within the scope satisfies the precondition on this path.
    None,
    /// No search could settle it (`--precondition-steps`, the budget, the solver).
    Fused,
}

/// How often (in steps) the machine reads its resident memory against `--max-memory`.
const MEMORY_CHECK_STEPS: u64 = 1024;

/// The traces of a run so far: counted, handed to the sink, kept when it asks.
struct Ends<'s> {
    info: RunInfo,
    tally: Tally,
    kept: Vec<Trace>,
    sink: &'s mut dyn FnMut(&RunInfo, &Trace) -> Result<bool>,
}

impl Ends<'_> {
    fn next_id(&self) -> usize {
        self.tally.traces
    }

    fn push(&mut self, t: Trace) -> Result<()> {
        self.tally.add(&t);
        if (self.sink)(&self.info, &t)? {
            self.kept.push(t);
        }
        Ok(())
    }

    /// A trace, unless the state had no valid input after all.
    fn push_some(&mut self, t: Option<Trace>) -> Result<()> {
        match t {
            Some(t) => self.push(t),
            None => Ok(()),
        }
    }
}

impl<'p, H: HeapStrategy, S: Solver> Machine<'p, H, S> {
    pub fn new(program: &'p Program, config: &'p Config, strategy: H, solver: S, options: Options) -> Self {
        let budget = options
            .budget
            .clone()
            .unwrap_or_else(|| Budget::new(config.bounds.time_limit_s, config.bounds.max_memory_mb, Stop::new()));
        Machine {
            program,
            strategy,
            solver,
            terms: TermPool::new(),
            config,
            options,
            stats: Stats::default(),
            budget,
            valid: None,
            entry: None,
            arg_types: Vec::new(),
            aside: Vec::new(),
            budget_cut: std::cell::Cell::new(None),
            in_model: None,
            driver: None,
            reached: Default::default(),
            printed: Default::default(),
            preferred: Default::default(),
        }
    }

    /// Runs from `init` until every state has ended (or the budget runs out), handing each
    /// trace to `sink`.
    pub(super) fn run(
        &mut self,
        init: State<H>,
        entry: MethodId,
        arg_names: Vec<String>,
        sink: &mut dyn FnMut(&RunInfo, &Trace) -> Result<bool>,
    ) -> Result<RunResult> {
        // A driver's run is reported as its method under test's.
        let shown = self.driver.as_ref().map_or(entry, |d| d.target);
        let info = RunInfo {
            method: self.program.table.method_display(shown),
            method_id: shown,
            strategy: self.strategy.name().to_string(),
            arg_names,
        };
        let mut ends = Ends { info, tally: Tally::default(), kept: Vec::new(), sink };
        let mut work = worklist::<State<H>>(self.config.search);
        let mut init = init;
        // With a precondition, the exploration starts only if some input within the scope
        // satisfies it.
        match self.validate(&mut init)? {
            Valid::Yes => work.push_all(vec![init]),
            Valid::No => self.stats.rejected += 1,
            Valid::Fused => {
                let cut = self.fuse_cut();
                let t = self.finish(ends.next_id(), init, Outcome::Cut(cut))?;
                ends.push_some(t)?;
            }
        }
        let mut halted = None;
        'states: while let Some(first) = work.pop() {
            let mut st = first;
            loop {
                if let Some(h) = self.halt() {
                    // The state in hand and every pending one end here, cut by the halt,
                    // without asking the solver anything more.
                    halted = Some(h);
                    ends.push(self.halted_trace(ends.next_id(), st, h))?;
                    while let Some(s) = work.pop() {
                        ends.push(self.halted_trace(ends.next_id(), s, h))?;
                    }
                    break 'states;
                }
                let mut next = self.step(st)?;
                if let Some(e) = self.valid.as_mut().and_then(|v| v.fault.take()) {
                    return Err(e);
                }
                next.append(&mut self.aside);
                if next.len() == 1 && matches!(next.first(), Some(Next::Run(_))) {
                    match next.pop() {
                        Some(Next::Run(s)) => {
                            st = s;
                            continue;
                        }
                        _ => break,
                    }
                }
                let mut runs = Vec::new();
                for n in next {
                    match n {
                        Next::Run(s) => runs.push(s),
                        Next::Done(s, o) => {
                            let t = self.finish(ends.next_id(), s, o)?;
                            ends.push_some(t)?;
                        }
                        Next::Rejected => self.stats.rejected += 1,
                        Next::Pruned => {}
                    }
                }
                work.push_all(runs);
                break;
            }
        }
        self.stats.solver = self.solver.stats();
        self.stats.time_ms = self.budget.start.elapsed().as_millis() as u64;
        let Ends { info, tally, kept, .. } = ends;
        Ok(RunResult {
            method: info.method,
            method_id: info.method_id,
            strategy: info.strategy,
            traces: kept,
            tally,
            stats: self.stats.clone(),
            arg_names: info.arg_names,
            halted: halted.or(self.budget_cut.get()),
        })
    }

    /// Whether the run must stop now: a stop request, the deadline, or (checked every
    /// [`MEMORY_CHECK_STEPS`] steps, not before the first of them: the concrete run of each
    /// test's input is a machine of its own, and reading /proc at every machine's step 0
    /// would cost each of them) the memory limit.
    fn halt(&self) -> Option<Halt> {
        let due = (self.stats.steps + 1).is_multiple_of(MEMORY_CHECK_STEPS);
        self.budget.halt().or_else(|| if due { self.budget.memory() } else { None })
    }

    /// A state the run stopped before it ended, as a cut trace (no model, no path-condition
    /// text: nothing more is asked of the solver once the budget is spent).
    fn halted_trace(&self, id: usize, st: State<H>, h: Halt) -> Trace {
        self.budget_cut.set(Some(h));
        let (prefix, path) = self.split_path(st.path);
        Trace {
            id,
            kind: TraceKind::Cut,
            value: None,
            exception: None,
            cut: Some(h.reason()),
            path,
            prefix,
            pc: st.pc,
            pc_text: Default::default(),
            concrete: None,
            unknown: st.unknown,
            notes: st.notes,
            hash_bound: false,
            dot: None,
        }
    }

    /// A finished trace whose models must also meet the strategy's model constraints: they
    /// join its path condition, or, when no model meets them, the trace needed an object
    /// beyond `--max-objects` and ends cut by it.
    fn meet_model_constraints(&mut self, st: State<H>, outcome: Outcome<H::Ref>) -> (State<H>, Outcome<H::Ref>) {
        let mut st = st;
        if matches!(outcome, Outcome::Cut(_)) {
            return (st, outcome);
        }
        let extra = self.strategy.model_constraints(super::control::cx!(self), &st.heap);
        if extra.is_empty() {
            return (st, outcome);
        }
        if self.feasible(&st, &extra) == super::control::Feasible::No {
            return (st, Outcome::Cut(CutReason::MaxObjects(self.config.bounds.max_objects)));
        }
        // (Under a precondition `finish` drops such a state: it is beyond the scope.)
        st.assume(&extra);
        (st, outcome)
    }

    /// Turns an ended state into a trace: outcome, path, path condition, concrete input.
    /// With a precondition the input is one on which it holds (`None`: the state had no
    /// valid input after all, and no trace).
    fn finish(&mut self, id: usize, st: State<H>, outcome: Outcome<H::Ref>) -> Result<Option<Trace>> {
        let was_cut = matches!(outcome, Outcome::Cut(_));
        let (st, mut outcome) = self.meet_model_constraints(st, outcome);
        if !was_cut && matches!(outcome, Outcome::Cut(_)) && self.drops_beyond_scope(&st) {
            self.stats.beyond_scope += 1;
            return Ok(None);
        }
        let mut unknown = st.unknown;
        let mut hash_bound = false;
        let prefer = self.wants_preferred(&st.path, &outcome);
        let mut checked = None;
        if self.oracle().is_some() && !self.options.counts_only && !matches!(outcome, Outcome::Cut(_)) {
            match self.valid_input(&st, prefer)? {
                ValidInput::Input(c) => checked = Some(c),
                ValidInput::None => {
                    if prefer {
                        // The next trace of the path gets the preferred model instead.
                        self.preferred.remove(&self.test_key(&st.path));
                    }
                    self.stats.rejected += 1;
                    return Ok(None);
                }
                ValidInput::Fused => outcome = Outcome::Cut(self.fuse_cut()),
            }
        }
        let table = &self.program.table;
        let (kind, value, exception, cut, ret) = match &outcome {
            Outcome::Return(v) => {
                let text = v.as_ref().map(|v| match v {
                    Value::Int(t) | Value::Long(t) => t.to_string(),
                    Value::Ref(_) => "ref".to_string(),
                });
                (TraceKind::Return, text, None, None, v.clone())
            }
            Outcome::Exception(c) => (TraceKind::Exception, None, Some(table.class(*c).java_name()), None, None),
            Outcome::Cut(why) => (TraceKind::Cut, None, None, Some(why.clone()), None),
        };
        let concrete = match checked {
            Some(c) => Some(c),
            None => match self.model_of(&st, &st.pc, &st.heap, ret.as_ref(), prefer) {
                SatResult::Sat(_) if self.options.counts_only => None,
                SatResult::Sat(model) => {
                    // Only a trace that asked for an identity hash can mention one (the walk
                    // over the path condition is not for every trace).
                    let hashed = st.notes.iter().any(|n| n == super::IDENTITY_HASH_NOTE);
                    hash_bound = hashed && bound_to_identity_hashes(&st.pc, &model);
                    let solver = &mut self.solver;
                    let mut values = |ts: &[Term]| solver.eval(ts);
                    let cx = cx!(self);
                    let roots =
                        Roots { args: &st.args, arg_types: &self.arg_types, statics: &st.statics, ret: ret.as_ref() };
                    match self.strategy.concretize(cx, &st.heap, &model, &mut values, roots) {
                        Ok(mut c) if !st.bottoms.is_empty() => {
                            self.mark_undetermined(&st, &model, ret.as_ref(), &mut c)?;
                            Some(c)
                        }
                        Ok(c) => Some(c),
                        // Z3 interrupted while the model was read: the budget ran out.
                        Err(_) if self.halt().is_some() => {
                            return Ok(self.halt().map(|h| self.halted_trace(id, st, h)));
                        }
                        Err(e) => return Err(e),
                    }
                }
                // Interrupted by the budget: the trace is cut by it, not of unknown feasibility.
                SatResult::Unknown(_) if self.halt().is_some() => {
                    return Ok(self.halt().map(|h| self.halted_trace(id, st, h)));
                }
                SatResult::Unknown(_) => {
                    unknown = true;
                    None
                }
                SatResult::Unsat => None,
            },
        };
        let dot = if self.options.dot {
            let cx = cx!(self);
            Some(self.strategy.dot(cx, &st.heap))
        } else {
            None
        };
        let pc_text = if self.options.counts_only { Default::default() } else { self.pc_text(&st) };
        let (prefix, path) = self.split_path(st.path);
        Ok(Some(Trace {
            id,
            kind,
            value,
            exception,
            cut,
            path,
            prefix,
            pc: st.pc,
            pc_text,
            concrete,
            unknown,
            notes: st.notes,
            hash_bound,
            dot,
        }))
    }

    /// A model of `pc` (pinned for `eval`): with `prefer`, one that tells behaviours apart
    /// over `heap` and the roots of `st` (distinct objects, distinct small values), else the
    /// solver's first.
    fn model_of(
        &mut self,
        st: &State<H>,
        pc: &[Term],
        heap: &H::Heap,
        ret: Option<&Value<H::Ref>>,
        prefer: bool,
    ) -> SatResult {
        if !prefer {
            return self.solver.model(pc);
        }
        let roots = Roots { args: &st.args, arg_types: &self.arg_types, statics: &st.statics, ret };
        let wanted = self.strategy.preferences(cx!(self), heap, roots);
        self.solver.model_preferring(pc, &wanted)
    }

    /// Whether the trace ending with `outcome` gets a preferred model (see [`super::Prefer`]).
    fn wants_preferred(&mut self, path: &[super::Decision], outcome: &Outcome<H::Ref>) -> bool {
        if self.options.counts_only || matches!(outcome, Outcome::Cut(_)) {
            return false;
        }
        match self.options.prefer {
            super::Prefer::Never => false,
            super::Prefer::Every => true,
            super::Prefer::FirstOfPath => {
                let key = self.test_key(path);
                self.preferred.insert(key)
            }
        }
    }

    /// The input of an ended state's test under `--precondition`: a final P-search on its
    /// input view gives the input heap (every field the precondition reads, which the
    /// method may not have), and a concrete run of the method on it gives what the test
    /// checks; that run must take the trace's path.
    fn valid_input(&mut self, st: &State<H>, prefer: bool) -> Result<ValidInput> {
        let witness = st.witness.clone();
        let mut hint = witness.as_deref().map(|w| w.model.clone());
        let mut known = st.witness_upto;
        if prefer {
            // Search first for a valid input near the method path's preferred model (the
            // search tries the precondition's sides in the order the hint takes them).
            if let SatResult::Sat(m) = self.model_of(st, &st.pc, &st.heap, None, true) {
                hint = Some(m);
                known = st.pc.len();
            }
        }
        // The search follows the hint, a model of the path condition (the witness covers it,
        // or the preferred model is one): its checks extend the path condition, and the
        // cache meets them with the hint before any model it holds.
        if let Some(h) = &hint {
            self.solver.suggest(h, &st.pc, known);
        }
        let (sp, model) = match self.p_search(st, hint.as_ref(), true)? {
            Search::Found(sp, model) => (sp, model),
            Search::None => return Ok(ValidInput::None),
            Search::Fused => return Ok(ValidInput::Fused),
        };
        // Among the valid inputs of the path, one that tells behaviours apart; any model of
        // the search's path condition takes the same precondition path and method path.
        let model = if prefer {
            match self.model_of(st, &sp.pc, &sp.heap, None, true) {
                SatResult::Sat(better) => better,
                _ => match self.solver.model(&sp.pc) {
                    SatResult::Sat(again) => again,
                    _ => model,
                },
            }
        } else {
            model
        };
        let input = {
            let solver = &mut self.solver;
            let mut values = |ts: &[Term]| solver.eval(ts);
            let cx = cx!(self);
            let roots = Roots { args: &st.args, arg_types: &self.arg_types, statics: &st.statics, ret: None };
            match self.strategy.concretize(cx, &sp.heap, &model, &mut values, roots) {
                Ok(input) => input,
                // Z3 interrupted while the model was read: cut by the budget (see `fuse_cut`).
                Err(_) if self.halt().is_some() => return Ok(ValidInput::Fused),
                Err(e) => return Err(e),
            }
        };
        let Some(entry) = self.entry else { return Err(self.fault(st, "a trace end without an entry method")) };
        let info = RunInfo {
            method: self.program.table.method_display(entry),
            method_id: entry,
            strategy: self.strategy.name().to_string(),
            arg_names: Vec::new(),
        };
        let run = super::replay::replay(self.program, self.config, &info, &input, Constant::default(), &self.budget)?;
        let Some(run) = run else { return Ok(ValidInput::Fused) };
        if !super::replay::same_path(&run.path, &st.path) {
            return Err(crate::Error::ModelCheck {
                method: info.method,
                trace: 0,
                msg: format!(
                    "the input found for a state of path [{}] takes path [{}] when run (an engine bug)",
                    super::path_in_source(&self.program.table, &st.path),
                    super::path_in_source(&self.program.table, &run.path)
                ),
            });
        }
        Ok(match run.concrete {
            Some(c) => ValidInput::Input(c),
            None => ValidInput::Fused,
        })
    }
}

impl<H: HeapStrategy, S: Solver> Machine<'_, H, S> {
    /// The path condition as text, heap choices named. Entries printed for an earlier trace
    /// are reused while the value names agree (location names only ever get appended).
    fn pc_text(&mut self, st: &State<H>) -> super::PcText {
        if st.pc.is_empty() {
            return super::PcText::default();
        }
        let names = self.strategy.choice_names(&st.heap);
        let (known, memo) = &mut self.printed;
        let agree = known.iter().zip(&names.values).all(|(a, b)| a == b);
        if !agree {
            memo.clear();
        }
        if !agree || names.values.len() > known.len() {
            *known = names.values.clone();
        }
        let namer = |var: &str, k: i64| -> Option<String> { Some(format!("{var} -> {}", names.name(var, k)?)) };
        super::PcText(
            st.pc
                .iter()
                .map(|t| memo.entry(t.id()).or_insert_with(|| std::rc::Rc::from(t.render(Some(&namer)))).clone())
                .collect(),
        )
    }
}

/// Whether `pc` holds under `model` only for some values of its identity hash codes: it is
/// evaluated with the model's other values and a spread of hash codes (small ones, each bit
/// pattern of a bucket index, extremes and pseudo-random ones), and fails for one of them.
/// A path whose condition mentions a hash but holds for all of them (a one-bucket table, a
/// hash that is only stored) does not depend on the value the JVM picks.
fn bound_to_identity_hashes(pc: &[Term], model: &crate::term::Assignment) -> bool {
    let mut hashes: Vec<crate::term::SymbolId> = Vec::new();
    for name in pc.iter().flat_map(Term::var_names) {
        if name.starts_with(super::IDENTITY_HASH) && !hashes.contains(&name) {
            hashes.push(name);
        }
    }
    if hashes.is_empty() {
        return false;
    }
    // The conjuncts the evaluator can decide under the model (array reads may be beyond it);
    // one it cannot decide that mentions a hash is taken as binding it.
    let mut base = crate::term::Evaluator::new(model);
    let mut judged: Vec<&Term> = Vec::new();
    for t in pc {
        if base.eval(t) == Some(crate::term::Val::Bool(true)) {
            judged.push(t);
        } else if t.vars().iter().any(|v| matches!(v.node(), crate::term::Node::Var(n, _) if hashes.contains(n))) {
            return true;
        }
    }
    let mut samples: Vec<u32> = (0..64).collect();
    samples.extend([u32::MAX, i32::MAX as u32, i32::MIN as u32, 0x5555_5555, 0xaaaa_aaaa]);
    let mut x: u32 = 0x9e37_79b9;
    for _ in 0..64 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        samples.push(x);
    }
    samples.iter().any(|s| {
        let mut m = model.clone();
        for (j, h) in hashes.iter().enumerate() {
            let v = s.wrapping_add((j as u32).wrapping_mul(0x9e37_79b9));
            m.values.insert(h.clone(), crate::term::Val::Bv(u64::from(v)));
        }
        let mut ev = crate::term::Evaluator::new(&m);
        judged.iter().any(|t| ev.eval(t) != Some(crate::term::Val::Bool(true)))
    })
}
