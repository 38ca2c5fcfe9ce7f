//! The heap-strategy trait: how reference-typed inputs are materialized (docs/glossary.md).
//!
//! All strategies run the same machine; they differ only in how a reference that comes from
//! the input (the receiver, a parameter, a field of an input object, a symbolic static) is
//! turned into objects. Every operation returns the *alternatives* it leads to ([`Alt`]):
//! lazy initialization forks one alternative per aliasing choice; the uber-lazy heap and
//! POSE return one alternative whose values carry guards. An alternative may `assume`
//! constraints; the machine checks them and adds them to the path condition. The
//! alternatives of one operation are always exhaustive.

pub mod concrete;
pub mod graph;
pub mod lazier;
pub mod lazy;
pub mod objects;
pub mod pose;
pub mod uber;
mod value;

use std::fmt::Debug;

use crate::Result;
use crate::classfile::{ClassTable, FieldId, JType};
use crate::config::{Config, ObjectInputs};
use crate::cut::CutReason;
use crate::solver::Hints;
use crate::term::{Assignment, Term, TermPool, Val};

pub use concrete::{CObj, CVal, Concrete, Place};
pub use value::{ObjKind, Value, compatible, field_symbol, fields_of};

/// What the machine lends a strategy for one operation.
pub struct Ctx<'a> {
    pub table: &'a ClassTable,
    pub terms: &'a mut TermPool,
    pub config: &'a Config,
}

/// One alternative of a heap operation.
#[derive(Debug, Clone)]
pub struct Alt<H, T> {
    pub heap: H,
    /// Constraints this alternative adds to the path condition (checked by the machine).
    pub assume: Vec<Term>,
    pub value: T,
    /// Set when a bound (max objects) cut this alternative: the machine ends it as a cut trace.
    pub cut: Option<CutReason>,
}

impl<H, T> Alt<H, T> {
    /// An alternative without assumptions.
    pub fn plain(heap: H, value: T) -> Self {
        Alt { heap, assume: Vec::new(), value, cut: None }
    }
}

/// The guards of a `--max-objects` cut: the cut side assumes `taken`, the continuing side
/// assumes `keep`.
#[derive(Debug, Clone)]
pub struct Cut {
    pub taken: Term,
    pub keep: Term,
}

impl Cut {
    /// The cut that happens exactly when guard `g` holds.
    pub fn when(cx: &mut Ctx<'_>, g: Option<Term>) -> Option<Cut> {
        let g = g?;
        let keep = cx.terms.not(&g);
        Some(Cut { taken: g, keep })
    }
}

/// Alternatives of an operation a `--max-objects` cut may end: without a cut, one; with
/// one, the cut side (which ends as a cut trace) and the continuing side.
pub fn with_cut<H: Clone, T: Clone>(
    cx: &mut Ctx<'_>,
    heap: H,
    assume: Vec<Term>,
    cut: Option<Cut>,
    value: T,
) -> Vec<Alt<H, T>> {
    let Some(c) = cut else { return vec![Alt { heap, assume, value, cut: None }] };
    let mut a1 = assume.clone();
    a1.push(c.taken);
    let mut a2 = assume;
    a2.push(c.keep);
    let why = CutReason::MaxObjects(cx.config.bounds.max_objects);
    vec![
        Alt { heap: heap.clone(), assume: a1, value: value.clone(), cut: Some(why) },
        Alt { heap, assume: a2, value, cut: None },
    ]
}

/// What a concretization starts from: the entry's arguments, the static fields the run
/// touched with their values when it first touched them, and the return value.
#[derive(Debug, Clone, Copy)]
pub struct Roots<'a, R> {
    pub args: &'a [Value<R>],
    /// The declared types of `args`.
    pub arg_types: &'a [JType],
    pub statics: &'a [(FieldId, Value<R>)],
    pub ret: Option<&'a Value<R>>,
}

/// How to print heap choices: an atom `var == k` with `var` in `vars` reads `var -> values[k]`.
#[derive(Debug, Clone, Default)]
pub struct ChoiceNames {
    pub vars: std::collections::BTreeSet<crate::term::SymbolId>,
    pub values: Vec<String>,
}

impl ChoiceNames {
    /// The name of value `k` of symbol `var`, if `var` is a heap choice.
    pub fn name(&self, var: &str, k: i64) -> Option<&str> {
        if !self.vars.contains(var) {
            return None;
        }
        self.values.get(usize::try_from(k).ok()?).map(String::as_str)
    }
}

/// Whether a dereferenced reference is null.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nullness {
    Null,
    NonNull,
}

/// The answer to a reference test (equality, instance-of): known, or a condition on inputs.
#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    Known(bool),
    Cond(Term),
}

/// A heap algorithm. One implementation per folder: `lazy/`, `lazier/`, `uber/`, `pose/`
/// (lazy and lazier# share the object graph of `graph/`, which also replays a concrete input).
pub trait HeapStrategy {
    /// A reference value as held in locals and fields.
    type Ref: Clone + Debug + PartialEq;
    /// The per-state heap.
    type Heap: Clone + Debug;

    fn name(&self) -> &'static str;

    /// An empty heap.
    fn new_heap(&self, cx: &mut Ctx<'_>) -> Self::Heap;

    /// The null reference.
    fn null(&self, cx: &mut Ctx<'_>) -> Self::Ref;

    /// A reference-typed input of the entry method: the receiver (`receiver`: never null)
    /// or a parameter named `name` of declared type `ty`; with the constraints its symbols
    /// must satisfy.
    fn input(
        &self,
        cx: &mut Ctx<'_>,
        heap: &mut Self::Heap,
        name: &str,
        ty: &JType,
        receiver: bool,
    ) -> Result<(Self::Ref, Vec<Term>)>;

    /// A new object (`new C`) or array (`len` given) with default field/element values.
    /// Fails only when the strategy cannot number another object in the trace.
    fn alloc(&self, cx: &mut Ctx<'_>, heap: &mut Self::Heap, kind: ObjKind, len: Option<Term>) -> Result<Self::Ref>;

    /// Splits a reference about to be dereferenced into null / non-null.
    fn null_split(&self, cx: &mut Ctx<'_>, heap: &Self::Heap, r: &Self::Ref) -> Result<Vec<Alt<Self::Heap, Nullness>>>;

    /// A 32-bit term whose value tells the object `r` denotes apart from every other object
    /// of the heap (its number), when the strategy has one; the same object always gives the
    /// same term. A precondition's identity hash codes are made from it, so that a visited set
    /// of input objects finds an object it holds.
    fn identity(&self, _cx: &mut Ctx<'_>, _heap: &Self::Heap, _r: &Self::Ref) -> Option<Term> {
        None
    }

    /// Reference equality `a == b` (either may be null).
    fn ref_eq(
        &self,
        cx: &mut Ctx<'_>,
        heap: &Self::Heap,
        a: &Self::Ref,
        b: &Self::Ref,
    ) -> Result<Vec<Alt<Self::Heap, Test>>>;

    /// The possible classes of a non-null reference, each with the condition under which the
    /// object has that class (`true` when it is the only one).
    fn classes(
        &self,
        cx: &mut Ctx<'_>,
        heap: &Self::Heap,
        r: &Self::Ref,
    ) -> Result<Vec<Alt<Self::Heap, Vec<(ObjKind, Term)>>>>;

    /// Reads field `f` of a non-null reference.
    fn get_field(
        &self,
        cx: &mut Ctx<'_>,
        heap: &Self::Heap,
        r: &Self::Ref,
        f: FieldId,
    ) -> Result<Vec<Alt<Self::Heap, Value<Self::Ref>>>>;

    /// Writes field `f` of a non-null reference.
    fn put_field(
        &self,
        cx: &mut Ctx<'_>,
        heap: &Self::Heap,
        r: &Self::Ref,
        f: FieldId,
        v: Value<Self::Ref>,
    ) -> Result<Vec<Alt<Self::Heap, ()>>>;

    /// Reads a static field. `initial` is the value it holds before any write: the default
    /// (after which the class initializer runs) or, with `--symbolic-statics`, an input.
    fn get_static(
        &self,
        cx: &mut Ctx<'_>,
        heap: &Self::Heap,
        f: FieldId,
    ) -> Result<Vec<Alt<Self::Heap, Value<Self::Ref>>>>;

    /// Writes a static field.
    fn put_static(&self, cx: &mut Ctx<'_>, heap: &Self::Heap, f: FieldId, v: Value<Self::Ref>) -> Result<Self::Heap>;

    /// The length of a non-null array reference.
    fn array_length(&self, cx: &mut Ctx<'_>, heap: &Self::Heap, r: &Self::Ref) -> Result<Vec<Alt<Self::Heap, Term>>>;

    /// Reads element `idx` (already checked to be in bounds) of a non-null array.
    fn array_load(
        &self,
        cx: &mut Ctx<'_>,
        heap: &Self::Heap,
        r: &Self::Ref,
        idx: &Term,
    ) -> Result<Vec<Alt<Self::Heap, Value<Self::Ref>>>>;

    /// Writes element `idx` (already checked to be in bounds) of a non-null array.
    fn array_store(
        &self,
        cx: &mut Ctx<'_>,
        heap: &Self::Heap,
        r: &Self::Ref,
        idx: &Term,
        v: Value<Self::Ref>,
    ) -> Result<Vec<Alt<Self::Heap, ()>>>;

    /// The concrete input and output of a finished trace under a model of its path condition:
    /// the input heap (every input object fully initialized), the entry's arguments, and
    /// what the run left in the input objects and returned.
    /// `values` evaluates terms in the same model where the assignment does not suffice
    /// (array contents).
    fn concretize(
        &self,
        cx: &mut Ctx<'_>,
        heap: &Self::Heap,
        model: &Assignment,
        values: &mut dyn FnMut(&[Term]) -> Option<Vec<Val>>,
        roots: Roots<'_, Self::Ref>,
    ) -> Result<Concrete>;

    /// The input heap as the run found it: every input object's fields as they were before
    /// the run wrote them (read ones hold their initial value, the others are not yet read),
    /// so that a precondition can be run on the input of a state the method has changed.
    /// Later reads materialize as usual (their names continue the state's). The view is
    /// *pointwise*: a read, write or comparison through a reference with several possible
    /// targets forks one alternative per target (uber, and POSE through a symbol that may
    /// alias earlier ones), so that a P-search runs like lazy initialization. Strategies
    /// that materialize always read pointwise.
    fn input_view(&self, cx: &mut Ctx<'_>, heap: &Self::Heap) -> Result<Self::Heap>;

    /// Soft constraints for the model of a finished trace, most wanted first (see
    /// [`concrete::preferences`]): distinct non-null input objects where the path leaves the
    /// choice open, then distinct small non-zero values. The default asks for the int-like
    /// arguments only.
    fn preferences(&self, cx: &mut Ctx<'_>, _heap: &Self::Heap, roots: Roots<'_, Self::Ref>) -> Vec<Term> {
        concrete::preferences(cx.terms, Vec::new(), &concrete::int_args(roots.args, roots.arg_types))
    }

    /// A human-readable description of the final heap (for `--dot`): Graphviz source.
    fn dot(&self, cx: &mut Ctx<'_>, heap: &Self::Heap) -> String;

    /// Constraints a model of a finished trace must meet beyond its path condition. The
    /// uber heap's "new object beyond `--max-objects`" is cut where it is dereferenced, but a
    /// choice read once and then only compared could still pick it; such a model would
    /// rebuild an input without that object. Strategies that materialize have none.
    fn model_constraints(&self, _cx: &mut Ctx<'_>, _heap: &Self::Heap) -> Vec<Term> {
        Vec::new()
    }

    /// The outcome of a reference test that [`HeapStrategy::ref_eq`] left as a condition:
    /// `a == b` is `equal` on this side of the split. A strategy may drop what the outcome
    /// rules out (uber: targets and locations no pointer can reach any more).
    fn ref_test_outcome(&self, _heap: &mut Self::Heap, _a: &Self::Ref, _b: &Self::Ref, _equal: bool) {}

    /// When `r` may be at several locations: the guards of those whose field `f` a read
    /// would initialize with a new location (uber: reference fields), for the machine to
    /// check against the path condition before the read. Strategies that materialize have
    /// none.
    fn location_guards(&self, _cx: &mut Ctx<'_>, _heap: &Self::Heap, _r: &Self::Ref, _f: FieldId) -> Vec<Term> {
        Vec::new()
    }

    /// Drops the locations at positions `dead` of [`HeapStrategy::location_guards`] from `r`:
    /// the path condition rules them out.
    fn drop_locations(&self, _heap: &mut Self::Heap, _r: &Self::Ref, _f: FieldId, _dead: &[usize]) {}

    /// Whether the alternatives of a materialization differ in the heap's shape rather than
    /// in constraints (lazy, lazier#): a model of the path condition then says nothing
    /// about which alternative an input takes.
    fn shape_choices(&self) -> bool {
        false
    }

    /// Whether a symbol's name means the same part of the input in every state of a run and
    /// in every P-search on its input views (uber: `L7.key` is the key of input location 7,
    /// whose place the path condition's `L7.exists <=> ...` fixes), so that a model of a
    /// P-search's path condition can judge later constraints over the search's own
    /// symbols. Strategies whose objects are placed by the heap's shape (lazy: the `o5` of
    /// a P-search need not be the method's `o5`) say no.
    fn global_names(&self) -> bool {
        false
    }

    /// What the solver should know of this strategy's path conditions, with or without a
    /// precondition (see [`Hints`]): lifted comparisons and models of each query's symbols
    /// unless a strategy says otherwise.
    fn solver_hints(&self, _precondition: bool) -> Hints {
        Hints::default()
    }

    /// Names of the values of heap choice symbols (`this.next = 2` means `this.next -> L1`),
    /// for printing path conditions. Strategies without choice symbols have none.
    fn choice_names(&self, _heap: &Self::Heap) -> ChoiceNames {
        ChoiceNames::default()
    }
}

/// The classes a fresh input object of declared type `ty` may have: the type itself when it
/// is a concrete class, otherwise every loaded concrete subclass (sorted by name). `Object`
/// is a boxed `Integer` under `--object-inputs integer` (the default), a `String` under
/// `--object-inputs string`, and so is a JDK interface or abstract class that class
/// implements and no loaded class does (`Comparable`, `Number`).
pub fn fresh_kinds(cx: &Ctx<'_>, ty: &JType) -> Vec<ObjKind> {
    let table = cx.table;
    let (boxed, value_class) = match cx.config.object_inputs {
        ObjectInputs::Integer | ObjectInputs::Auto => (true, INTEGER),
        ObjectInputs::String => (true, crate::models::STRING),
        ObjectInputs::Object => (false, INTEGER),
    };
    let value = || table.lookup(value_class).map(ObjKind::Class).into_iter().collect::<Vec<_>>();
    match ty {
        JType::Array(e) => vec![ObjKind::Array((**e).clone())],
        JType::Class(name) if boxed && name == "java/lang/Object" => value(),
        JType::Class(name) => {
            let Some(c) = table.lookup(name) else { return Vec::new() };
            let class = table.class(c);
            if !class.is_interface() && !class.is_abstract() {
                return vec![ObjKind::Class(c)];
            }
            let loaded: Vec<ObjKind> = table
                .loaded_subclasses(c)
                .into_iter()
                .filter(|k| !table.class(*k).is_interface() && !table.class(*k).is_abstract())
                .map(ObjKind::Class)
                .collect();
            let fits = || table.lookup(value_class).is_some_and(|i| table.is_subclass(i, c));
            if loaded.is_empty() && boxed && !class.on_class_path() && fits() { value() } else { loaded }
        }
        _ => Vec::new(),
    }
}

/// The class of the boxed inputs of `--object-inputs integer`.
const INTEGER: &str = "java/lang/Integer";
