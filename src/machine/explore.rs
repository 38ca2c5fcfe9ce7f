//! The exploration loop: run states to their ends, then turn each end into a [`Trace`].

use std::time::{Duration, Instant};

use super::search::worklist;
use super::state::{Next, State};
use super::{Machine, Options, Outcome, RunResult, Stats, Trace, TraceKind};
use crate::Result;
use crate::classfile::MethodId;
use crate::config::Config;
use crate::heap::{Ctx, HeapStrategy, Roots, Value};
use crate::lower::Program;
use crate::solver::{SatResult, Solver};
use crate::term::{Term, TermPool};

/// Explores every trace of `entry` with the given strategy and solver.
pub fn explore<H: HeapStrategy, S: Solver>(
    program: &Program,
    entry: MethodId,
    config: &Config,
    strategy: H,
    solver: S,
    options: Options,
) -> Result<RunResult> {
    let mut m = Machine::new(program, config, strategy, solver, options);
    let (st, arg_names) = m.initial_state(entry)?;
    m.run(st, entry, arg_names)
}

impl<'p, H: HeapStrategy, S: Solver> Machine<'p, H, S> {
    pub fn new(program: &'p Program, config: &'p Config, strategy: H, solver: S, options: Options) -> Self {
        Machine {
            program,
            strategy,
            solver,
            terms: TermPool::new(),
            config,
            options,
            stats: Stats::default(),
            start: Instant::now(),
            printed: Default::default(),
        }
    }

    /// Runs from `init` until every state has ended, and reports the traces.
    pub(super) fn run(&mut self, init: State<H>, entry: MethodId, arg_names: Vec<String>) -> Result<RunResult> {
        let limit = Duration::from_secs(self.config.bounds.time_limit_s);
        let mut work = worklist::<State<H>>(self.config.search);
        work.push_all(vec![init]);
        let mut ends: Vec<Trace> = Vec::new();
        while let Some(first) = work.pop() {
            let mut st = first;
            loop {
                if self.start.elapsed() > limit {
                    let t = self.finish(
                        ends.len(),
                        st,
                        Outcome::Cut(format!("time-limit ({}s)", self.config.bounds.time_limit_s)),
                    )?;
                    ends.push(t);
                    break;
                }
                let mut next = self.step(st)?;
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
                            let t = self.finish(ends.len(), s, o)?;
                            ends.push(t);
                        }
                        Next::Rejected => self.stats.rejected += 1,
                    }
                }
                work.push_all(runs);
                break;
            }
        }
        self.stats.solver = self.solver.stats();
        self.stats.time_ms = self.start.elapsed().as_millis() as u64;
        Ok(RunResult {
            method: self.program.table.method_display(entry),
            method_id: entry,
            strategy: self.strategy.name().to_string(),
            traces: ends,
            stats: self.stats.clone(),
            arg_names,
        })
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
            let why = format!("max-objects ({})", self.config.bounds.max_objects);
            return (st, Outcome::Cut(why));
        }
        st.assume(&extra);
        (st, outcome)
    }

    /// Turns an ended state into a trace: outcome, path, path condition, concrete input.
    fn finish(&mut self, id: usize, st: State<H>, outcome: Outcome<H::Ref>) -> Result<Trace> {
        let (st, outcome) = self.meet_model_constraints(st, outcome);
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
        let mut unknown = st.unknown;
        let model = if self.options.counts_only {
            self.solver.model(&st.pc)
        } else {
            // A model that tells behaviours apart: distinct objects, distinct small values.
            let cx = &mut Ctx { table: &self.program.table, terms: &mut self.terms, config: self.config };
            let roots = Roots { args: &st.args, statics: &st.statics, ret: ret.as_ref() };
            let prefer = self.strategy.preferences(cx, &st.heap, roots);
            self.solver.model_preferring(&st.pc, &prefer)
        };
        let concrete = match model {
            SatResult::Sat(_) if self.options.counts_only => None,
            SatResult::Sat(model) => {
                let solver = &mut self.solver;
                let mut values = |ts: &[Term]| solver.eval(ts);
                let cx = &mut Ctx { table: &self.program.table, terms: &mut self.terms, config: self.config };
                let roots = Roots { args: &st.args, statics: &st.statics, ret: ret.as_ref() };
                Some(self.strategy.concretize(cx, &st.heap, &model, &mut values, roots)?)
            }
            SatResult::Unknown(_) => {
                unknown = true;
                None
            }
            SatResult::Unsat => None,
        };
        let dot = if self.options.dot {
            let cx = &mut Ctx { table: &self.program.table, terms: &mut self.terms, config: self.config };
            Some(self.strategy.dot(cx, &st.heap))
        } else {
            None
        };
        let pc_text = if self.options.counts_only { Default::default() } else { self.pc_text(&st) };
        Ok(Trace {
            id,
            kind,
            value,
            exception,
            cut,
            pre_decisions: st.pre_decisions as usize,
            path: st.path,
            pc: st.pc,
            pc_text,
            concrete,
            unknown,
            notes: st.notes,
            dot,
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
