//! `--check-models`: replays each trace's concrete input through the machine, concretely.
//!
//! The input heap is rebuilt as a fully materialized lazy heap, so the replay never forks on
//! the heap and every branch is decided by constants. The replay must take the same program
//! path, end the same way, return the same value and leave the same input fields.

use std::collections::{BTreeMap, BTreeSet};

use super::state::{Frame, FrameKind, State};
use super::{Machine, Options, RunInfo, RunResult, Trace, TraceKind};
use crate::budget::{Budget, Stop};
use crate::config::Config;
use crate::heap::graph;
use crate::heap::lazy::Lazy;
use crate::heap::{Concrete, Ctx};
use crate::ir::LocalId;
use crate::lower::Program;
use crate::solver::Solver;
use crate::{Error, Result};

/// The `--precondition-fuse` of a replay: a concrete run of the precondition makes no
/// forks, so it may take many more decisions than a symbolic one.
const REPLAY_PRECONDITION_FUSE: u32 = 1 << 20;

/// Replays every non-cut trace of `result` that has a concrete input; the first
/// disagreement is an error naming the trace.
pub fn check_models<S: Solver>(
    program: &Program,
    config: &Config,
    result: &RunResult,
    mut solver: impl FnMut() -> S,
) -> Result<()> {
    let info = result.info();
    let budget = Budget::new(config.bounds.time_limit_s, config.bounds.max_memory_mb, Stop::new());
    for t in &result.traces {
        check_trace(program, config, &info, t, solver(), &budget)?;
    }
    Ok(())
}

/// Replays one trace (if it is not cut, has a concrete input and asked for no identity
/// hash code) within `budget`; a
/// disagreement is an error naming the trace. A replay the budget stops proves nothing
/// either way and is not an error.
pub fn check_trace<S: Solver>(
    program: &Program,
    config: &Config,
    info: &RunInfo,
    t: &Trace,
    solver: S,
    budget: &Budget,
) -> Result<()> {
    // A concrete run has no identity hash to give (the JVM picks it): such a trace forks.
    // Nor a value for a call with no code and no model: the replay's differs.
    if t.kind == TraceKind::Cut
        || t.notes.iter().any(|n| n == super::IDENTITY_HASH_NOTE)
        || t.notes.iter().any(|n| n.starts_with(super::state::UNDETERMINED_NOTE))
    {
        return Ok(());
    }
    let Some(input) = &t.concrete else { return Ok(()) };
    let replayed = replay(program, config, info, input, solver, budget).map_err(|e| match e {
        Error::ModelCheck { method, msg, .. } => Error::ModelCheck { method, trace: t.id, msg },
        e => e,
    })?;
    match replayed {
        Some(r) => compare(program, info, t, &r),
        None => Ok(()),
    }
}

/// Runs the entry method once on a concrete input; returns the single trace, or `None`
/// when the budget stopped the replay.
pub fn replay<S: Solver>(
    program: &Program,
    config: &Config,
    result: &RunInfo,
    input: &Concrete,
    solver: S,
    budget: &Budget,
) -> Result<Option<Trace>> {
    // Replays are concrete. The precondition runs first, as in the original, so that the
    // paths compare whole and an input that breaks it is caught; its fork budget is lifted
    // (a concrete run has no forks, only the guard on forced decisions, which scales with it).
    let mut cfg = config.clone();
    cfg.bounds.precondition_fuse = cfg.bounds.precondition_fuse.max(REPLAY_PRECONDITION_FUSE);
    let mut m =
        Machine::new(program, &cfg, Lazy, solver, Options { budget: Some(budget.clone()), ..Options::default() });
    let entry = result.method_id;
    let (heap, args) = graph::replay_heap(&mut Ctx { table: &program.table, terms: &mut m.terms, config: &cfg }, input);
    let body = program.body(entry)?.ok_or_else(|| Error::Usage(format!("{} has no code", result.method)))?;
    let mut frame = Frame::new(entry, body, FrameKind::Call);
    for (i, a) in args.iter().enumerate() {
        frame.set(LocalId(i as u32), a.clone());
    }
    let mut st = State {
        frames: vec![frame],
        heap,
        pc: Vec::new(),
        path: Vec::new(),
        initialized: BTreeSet::new(),
        args,
        statics: Vec::new(),
        notes: Vec::new(),
        unknown: false,
        steps: 0,
        pre_decisions: 0,
        witness: None,
        witness_upto: 0,
        unchecked: false,
        init_gaps: Default::default(),
        bottoms: Vec::new(),
        class_objects: Vec::new(),
    };
    m.push_precondition(&mut st, entry)?;
    if !cfg.symbolic_statics {
        let owner = program.table.method(entry).owner;
        st = match m.ensure_init(st, owner)? {
            Ok(s) | Err(super::state::Next::Run(s)) => s,
            Err(_) => return Err(Error::Usage("internal: replay could not initialize the entry class".into())),
        };
    }
    let r = m.run(st, entry, result.arg_names.clone(), &mut |_, _| Ok(true))?;
    if r.halted.is_some() {
        return Ok(None);
    }
    let mut traces = r.traces;
    if traces.is_empty() && r.stats.rejected > 0 {
        return Err(Error::ModelCheck {
            method: result.method.clone(),
            trace: 0,
            msg: format!(
                "the precondition {} returns false on the concrete input",
                cfg.precondition.as_deref().unwrap_or("?")
            ),
        });
    }
    match traces.len() {
        1 => Ok(Some(traces.remove(0))),
        n => Err(Error::ModelCheck {
            method: result.method.clone(),
            trace: 0,
            msg: format!("the concrete replay forked into {n} traces"),
        }),
    }
}

/// Whether a concrete replay's path `replayed` is the symbolic path `symbolic`: which element
/// a symbolic index picked is a decision only where the index is symbolic, and a concrete
/// replay makes none.
pub(super) fn same_path(replayed: &[super::Decision], symbolic: &[super::Decision]) -> bool {
    let branches = |p: &[super::Decision]| -> Vec<super::Decision> {
        p.iter().filter(|d| !matches!(d.choice, super::Choice::Index(_))).cloned().collect()
    };
    branches(replayed) == branches(symbolic)
}

fn compare(program: &Program, result: &RunInfo, t: &Trace, r: &Trace) -> Result<()> {
    let fail = |msg: String| Error::ModelCheck { method: result.method.clone(), trace: t.id, msg };
    if !same_path(&r.path, &t.path) {
        let (replayed, traced) =
            (super::path_in_source(&program.table, &r.path), super::path_in_source(&program.table, &t.path));
        return Err(fail(format!("the replay took program path [{replayed}], the trace [{traced}]")));
    }
    if r.kind != t.kind || r.exception != t.exception {
        let end = |t: &Trace| match (&t.kind, &t.exception) {
            (_, Some(x)) => format!("throwing {x}"),
            (super::TraceKind::Cut, None) => {
                format!("cut ({})", t.cut.as_ref().map(ToString::to_string).unwrap_or_default())
            }
            _ => "returning".to_string(),
        };
        return Err(fail(format!("the replay ended {}, the trace {}", end(r), end(t))));
    }
    let (Some(a), Some(b)) = (&t.concrete, &r.concrete) else { return Ok(()) };
    let (ca, cb) = (canon(program, a), canon(program, b));
    if ca != cb {
        let diff: Vec<String> = ca
            .iter()
            .filter(|(k, v)| cb.get(*k) != Some(v))
            .map(|(k, v)| format!("{k}: trace {v}, replay {}", cb.get(k).map(String::as_str).unwrap_or("-")))
            .collect();
        return Err(fail(format!("the replay disagrees on {}", diff.join("; "))));
    }
    Ok(())
}

/// What a run left behind, by name: the return value and every field of every input object.
fn canon(program: &Program, c: &Concrete) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if let Some(r) = &c.ret {
        out.insert("return".to_string(), c.show(r));
    }
    for o in c.objects.iter().filter(|o| o.input) {
        for (f, v) in &o.after {
            out.insert(format!("{}.{}", o.name, program.table.field(*f).name), c.show(v));
        }
        for (i, v) in o.elems_after.iter().enumerate() {
            out.insert(format!("{}[{i}]", o.name), c.show(v));
        }
    }
    out
}
