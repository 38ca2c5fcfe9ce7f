//! One symbolic execution state: call frames, heap, path condition and program path.

use std::collections::BTreeSet;
use std::rc::Rc;

use super::trace::{Decision, Outcome};
use crate::classfile::{ClassId, MethodId};
use crate::heap::{HeapStrategy, Value};
use crate::ir::{Block, BlockId, Body, Instr, LocalId, Operand};
use crate::term::Term;

/// Why a frame was pushed; decides what happens when it returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    /// The entry method or an ordinary call.
    Call,
    /// A class initializer run before the instruction that triggered it (re-executed after).
    ClassInit,
    /// The precondition (e.g. `repOK`): run on an input view by a P-search, or before the
    /// entry method when a concrete input is replayed.
    Precondition,
}

/// A method activation.
#[derive(Debug, Clone)]
pub struct Frame<R> {
    pub method: MethodId,
    pub body: Rc<Body>,
    pub locals: Vec<Option<Value<R>>>,
    pub block: BlockId,
    /// Index of the next statement of the block; `instrs.len()` means the terminator.
    pub next: usize,
    /// Where the caller wants the return value.
    pub ret_to: Option<LocalId>,
    pub kind: FrameKind,
}

impl<R: Clone> Frame<R> {
    pub fn new(method: MethodId, body: Rc<Body>, kind: FrameKind) -> Self {
        let n = body.locals.len();
        Frame { method, body, locals: vec![None; n], block: BlockId(0), next: 0, ret_to: None, kind }
    }

    pub fn block(&self) -> Option<&Block> {
        self.body.blocks.get(self.block.0 as usize)
    }

    /// The statement about to run, or `None` at the terminator.
    pub fn instr(&self) -> Option<&Instr> {
        self.block().and_then(|b| b.instrs.get(self.next))
    }

    /// The bytecode offset about to run.
    pub fn pc(&self) -> u32 {
        match (self.instr(), self.block()) {
            (Some(i), _) => i.pc,
            (None, Some(b)) => b.term_pc,
            (None, None) => 0,
        }
    }

    pub fn get(&self, l: LocalId) -> Option<&Value<R>> {
        self.locals.get(l.0 as usize).and_then(|v| v.as_ref())
    }

    pub fn set(&mut self, l: LocalId, v: Value<R>) {
        if let Some(slot) = self.locals.get_mut(l.0 as usize) {
            *slot = Some(v);
        }
    }

    /// Moves to the start of a block.
    pub fn goto(&mut self, b: BlockId) {
        self.block = b;
        self.next = 0;
    }

    /// Whether an operand names a local that holds no value (malformed IR).
    pub fn operand_missing(&self, o: &Operand) -> bool {
        matches!(o, Operand::Local(l) if self.get(*l).is_none())
    }
}

/// A symbolic state.
pub struct State<H: HeapStrategy> {
    pub frames: Vec<Frame<H::Ref>>,
    pub heap: H::Heap,
    /// The path condition: constraints in the order they were added.
    pub pc: Vec<Term>,
    /// The program path: decisions at branches, switches, exception edges and dispatch.
    pub path: Vec<Decision>,
    /// Decisions made inside the precondition on this path (not part of `path`; they count
    /// against `--precondition-fuse`).
    pub pre_decisions: u32,
    /// Classes whose initializer has run (or been scheduled) on this path.
    pub initialized: BTreeSet<ClassId>,
    /// The entry method's arguments (receiver first), for reports and test generation.
    pub args: Vec<Value<H::Ref>>,
    /// Each static field the run touched outside class initializers, with its value at
    /// that first touch (the value a test must set before the call).
    pub statics: Vec<(crate::classfile::FieldId, Value<H::Ref>)>,
    /// Notes for the report (havoc'd calls, solver `unknown`s).
    pub notes: Vec<String>,
    /// Some feasibility check on this path answered `unknown`.
    pub unknown: bool,
    /// Instructions executed, for the time-limit check.
    pub steps: u64,
    /// With `--precondition`: a model of the path condition on which the precondition holds
    /// (see `machine/witness.rs`), shared by the states forked from this one.
    pub witness: Option<Rc<super::witness::Witness>>,
    /// How much of `pc` the witness is known to satisfy.
    pub witness_upto: usize,
    /// Forked inside a P-search without a feasibility check (see `ValidInputSearch::running`): the
    /// search checks the path condition when the state forks again or returns true.
    pub unchecked: bool,
    /// Class initializers abandoned on this path, and which statics are known anyway.
    pub init_gaps: InitGaps,
    /// Undetermined values on this path: results of calls with neither code nor a model.
    pub bottoms: Vec<Bottom<H::Ref>>,
    /// The `Class` object of each type this path asked for (a class literal, `getClass()`):
    /// one per type, so that two of them are the same object exactly when their types are.
    pub class_objects: Vec<(crate::classfile::JType, H::Ref)>,
}

/// A value no code computed (⊥): the result of a call with neither bytecode nor a model. A
/// trace may store or return it; one whose path depends on it is cut, naming the call.
/// An identity hash code is kept here too: paths may depend on it (see `bound_to_identity_hashes`),
/// but no test checks a value computed from it.
#[derive(Debug, Clone)]
pub struct Bottom<R> {
    /// The call, as `pkg.Class#name(desc)`.
    pub call: String,
    /// A fresh symbol (a primitive) or a fresh object of [`UNDETERMINED_CLASS`] (a reference).
    pub value: Value<R>,
    /// An identity hash code: the JVM picks it, and a path may depend on it.
    pub hash: bool,
}

/// The name prefix of the symbol of an undetermined primitive (`undetermined0`, ...).
pub const UNDETERMINED: &str = "undetermined";

/// How the note of a trace that made an undetermined value starts.
pub const UNDETERMINED_NOTE: &str = "undetermined: the result of ";

/// The phantom class of an undetermined reference's object; no test builds or checks one.
pub const UNDETERMINED_CLASS: &str = "uberlazy/Undetermined";

/// Class initializers that reached code the machine does not run: each was abandoned where
/// it stopped, so the statics it had not yet computed are unknown, and only a trace that reads
/// one of them is cut.
#[derive(Debug, Clone, Default)]
pub struct InitGaps {
    /// Each class whose initializer was abandoned, with why.
    pub classes: Vec<(ClassId, crate::cut::CutReason)>,
    /// Statics written inside an initializer, or of an abandoned class afterwards: their
    /// values are known.
    pub written: Vec<crate::classfile::FieldId>,
}

impl InitGaps {
    /// Why static `f` of class `owner` has no known value, if it has none.
    pub fn unknown(&self, owner: ClassId, f: crate::classfile::FieldId) -> Option<&crate::cut::CutReason> {
        let why = self.classes.iter().find(|(c, _)| *c == owner).map(|(_, why)| why)?;
        if self.written.contains(&f) { None } else { Some(why) }
    }

    /// Whether `owner`'s statics are the JVM's startup state (`System.out`): what its own
    /// initializer writes there is not their value.
    pub fn startup(&self, owner: ClassId) -> bool {
        let startup = crate::cut::CutReason::Unsupported(crate::cut::Unsupported::JvmStartup);
        self.classes.iter().any(|(c, why)| *c == owner && *why == startup)
    }

    /// Notes a write of static `f` of class `owner` (`in_init`: by a class initializer).
    pub fn wrote(&mut self, owner: ClassId, f: crate::classfile::FieldId, in_init: bool) {
        if (in_init || self.classes.iter().any(|(c, _)| *c == owner)) && !self.written.contains(&f) {
            self.written.push(f);
        }
    }
}

impl<H: HeapStrategy> Clone for State<H> {
    fn clone(&self) -> Self {
        State {
            frames: self.frames.clone(),
            heap: self.heap.clone(),
            pc: self.pc.clone(),
            path: self.path.clone(),
            pre_decisions: self.pre_decisions,
            initialized: self.initialized.clone(),
            args: self.args.clone(),
            statics: self.statics.clone(),
            notes: self.notes.clone(),
            unknown: self.unknown,
            steps: self.steps,
            witness: self.witness.clone(),
            witness_upto: self.witness_upto,
            unchecked: self.unchecked,
            init_gaps: self.init_gaps.clone(),
            bottoms: self.bottoms.clone(),
            class_objects: self.class_objects.clone(),
        }
    }
}

impl<H: HeapStrategy> State<H> {
    pub fn top(&self) -> Option<&Frame<H::Ref>> {
        self.frames.last()
    }
    pub fn top_mut(&mut self) -> Option<&mut Frame<H::Ref>> {
        self.frames.last_mut()
    }

    /// Adds constraints to the path condition, skipping trivially true and repeated ones.
    pub fn assume(&mut self, ts: &[Term]) {
        for t in ts {
            if !t.is_true() && !self.pc.contains(t) {
                self.pc.push(t.clone());
            }
        }
    }

    /// Advances past the current statement.
    pub fn advance(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            f.next += 1;
        }
    }
}

/// What a step leads to.
pub enum Next<H: HeapStrategy> {
    /// A state that continues running.
    Run(State<H>),
    /// A finished trace.
    Done(State<H>, Outcome<H::Ref>),
    /// A state dropped without a trace: its precondition does not hold.
    Rejected,
    /// A call-sequence prefix dropped without a trace (`machine/sequence.rs`): it threw, or
    /// an earlier prefix reached the same state.
    Pruned,
}
