//! The uber-lazy strategy's type and its heap's state: reference nodes with their targets,
//! locations with their fields, and the pointer guards that tie a reference to a location.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::classfile::FieldId;
use crate::heap::objects::PrimElems;
use crate::heap::{Ctx, ObjKind, Value};
use crate::term::{Sort, SymbolId, Term};
use crate::{Error, Result};

/// The uber-lazy strategy.
#[derive(Debug, Clone, Copy, Default)]
pub struct Uber;

/// A reference node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RefId(pub u32);

/// A location (an object that may exist).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocId(pub u32);

/// Where a reference may point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    Null,
    Loc(LocId),
}

/// A reference: its pointer symbol and `L(r)`, its guarded targets. The guard of each
/// target is `ptr = #target`; under the path condition exactly one holds.
#[derive(Debug, Clone)]
pub struct RefNode {
    /// The number of the target location (0 for null): a constant, a choice symbol, or a
    /// named symbol defined by a value set or a guarded update.
    pub ptr: Term,
    /// `L(r)`: where `r` may point. The guard of each is `ptr = #target` ([`guard`]), built
    /// when asked for, so a new reference costs no term per target.
    pub targets: Vec<Target>,
    /// For a value set read through a reference with several locations: that reference's
    /// pointer and the value read at each of its locations (pruning follows it back).
    pub via: Option<(Term, Vec<(LocId, RefId)>)>,
    /// For a lazy initialization's choice: the new locations it offered.
    pub offered: Vec<LocId>,
}

impl RefNode {
    /// A reference with pointer `ptr` and targets `targets`, shared.
    pub(super) fn new(ptr: Term, targets: &[Target]) -> Rc<RefNode> {
        Rc::new(RefNode { ptr, targets: targets.to_vec(), via: None, offered: Vec::new() })
    }
}

/// Array contents of a location.
#[derive(Debug, Clone)]
pub struct UArray {
    pub len: Term,
    pub prims: Option<PrimElems>,
    /// Reference elements by concrete index (missing: null for new arrays, uninitialized
    /// for input arrays).
    pub refs: BTreeMap<i64, RefId>,
    pub initial_refs: BTreeMap<i64, RefId>,
}

/// A location.
#[derive(Debug, Clone)]
pub struct Loc {
    pub kind: ObjKind,
    /// Input location (fields lazily initialized) or allocated by the run.
    pub input: bool,
    pub name: String,
    /// The condition under which this input location exists in the concrete input heap.
    pub exists: Term,
    /// The pointer of the lazy initialization that offered this location (none for the
    /// receiver and for allocations): only that choice can make it exist.
    pub choice: Option<Term>,
    /// The input location whose field or element that initialization read (it exists only
    /// where this one's parent does).
    pub from: Option<LocId>,
    /// `R(l, f)`: current field values.
    pub fields: BTreeMap<FieldId, Value<RefId>>,
    /// Field values at lazy initialization (the input heap).
    pub initial: BTreeMap<FieldId, Value<RefId>>,
    /// Writes through a reference with several locations to a field of this input location
    /// that nobody has read yet: (guard, value) in order. The first read initializes the
    /// field and applies them; until then a write costs no initialization (no new choice
    /// and locations for every candidate of every write in a loop).
    pub pending: BTreeMap<FieldId, Vec<(Term, Value<RefId>)>>,
    pub array: Option<UArray>,
}

impl Loc {
    /// A location with no field set, no pending write, offered by no choice.
    pub(super) fn new(kind: ObjKind, input: bool, name: String, exists: Term, array: Option<UArray>) -> Loc {
        Loc {
            kind,
            input,
            name,
            exists,
            choice: None,
            from: None,
            fields: BTreeMap::new(),
            initial: BTreeMap::new(),
            pending: BTreeMap::new(),
            array,
        }
    }
}

/// The fully symbolic heap of one trace.
#[derive(Debug, Clone)]
pub struct UberHeap {
    /// Reference nodes and locations are shared between the heaps of forked states (a fork
    /// copies pointers, not location sets) and copied on write, as are the lists and the maps
    /// and sets below: most forked heaps (a P-search's sides) never change them.
    pub refs: Rc<Vec<Rc<RefNode>>>,
    pub locs: Rc<Vec<Rc<Loc>>>,
    /// Input locations in creation order: the alias candidates of later initializations.
    pub inputs: Vec<LocId>,
    pub statics: Rc<BTreeMap<FieldId, Value<RefId>>>,
    /// The pointer symbols of this heap (choices and value-set definitions): their values are
    /// location numbers, printed as location names.
    pub pointers: Rc<BTreeSet<SymbolId>>,
    pub allocs: u32,
    /// The guards `p = beyond` of the initializations that offered "a new object
    /// `--max-objects` did not allow": a finished trace's model must avoid all of them.
    pub beyond: Vec<Term>,
    /// Per reference field `f`, its summary: an array over location numbers whose element
    /// `#l` is `p(R(l, f))` for every location whose field is set. A value set read through
    /// many locations is `select(S_f, p(r))`, one term however many locations `r` has.
    pub summaries: Rc<BTreeMap<FieldId, Term>>,
    /// The existence summary: element `#l` is 1 exactly when input location `l` exists, so
    /// "an alias needs an existing location" is one constraint per initialization.
    pub existence: Option<Term>,
    /// Set on the input view of a P-search: a read, write or reference
    /// comparison through a reference with several targets forks one alternative per
    /// target, as lazy initialization does, instead of reading a value set. A precondition
    /// walks the whole input, and on the fully symbolic heap each of its steps compares
    /// every pointer it read with every location (a walk around a possible cycle is a
    /// pigeonhole proof for Z3).
    pub pointwise: bool,
    /// With a precondition, `--max-objects`: the most input locations that may exist.
    pub scope: Option<u32>,
    /// The references [`UberHeap::define_ref`] made, by definition.
    pub defined: Rc<BTreeMap<Term, RefId>>,
}

/// The null reference: `L(r0) = {(true, null)}`.
pub const NULL: RefId = RefId(0);

/// Width of pointer symbols (location numbers). 16 bits number 65,535 locations per trace,
/// far more than a trace reaches within its bounds; Z3 bit-blasts pointer equalities, and
/// narrower pointers make uber's queries cheaper.
pub(in crate::heap) const PW: u32 = 16;

/// The most locations a trace may number with [`PW`]-bit pointers (0 is null).
pub(super) const MAX_LOCS: usize = (1 << PW) - 1;

pub(in crate::heap) fn internal(msg: &str) -> Error {
    Error::Usage(format!("internal error in the uber-lazy heap: {msg}"))
}

impl UberHeap {
    pub fn node(&self, r: RefId) -> Result<&RefNode> {
        self.refs.get(r.0 as usize).map(|n| &**n).ok_or_else(|| internal("unknown reference"))
    }
    pub fn loc(&self, l: LocId) -> Result<&Loc> {
        self.locs.get(l.0 as usize).map(|l| &**l).ok_or_else(|| internal("unknown location"))
    }
    pub(in crate::heap) fn loc_mut(&mut self, l: LocId) -> Result<&mut Loc> {
        Rc::make_mut(&mut self.locs).get_mut(l.0 as usize).map(Rc::make_mut).ok_or_else(|| internal("unknown location"))
    }
    /// Adds a reference whose pointer is `ptr` and whose targets are `targets`.
    pub(super) fn add_ref(&mut self, ptr: Term, targets: &[Target]) -> RefId {
        Rc::make_mut(&mut self.refs).push(RefNode::new(ptr, targets));
        RefId(self.refs.len() as u32 - 1)
    }

    /// A reference defined by `def` (an if-then-else over other pointers): a new named
    /// pointer symbol `rN`, with the definition `rN = def` pushed to `assume`. A definition
    /// this heap has made before gives that reference again, with no new symbol: a loop's
    /// `x.next != null` then `x = x.next` reads one value, so the second test is decided
    /// by the first (the pointers a definition names never change, so equal definitions
    /// are equal values).
    pub(in crate::heap) fn define_ref(
        &mut self,
        cx: &mut Ctx<'_>,
        assume: &mut Vec<Term>,
        def: &Term,
        targets: &[Target],
    ) -> RefId {
        if let Some(r) = self.defined.get(def) {
            return *r;
        }
        let name = format!("r{}", self.refs.len());
        let p = cx.terms.var(&name, Sort::Bv(PW));
        Rc::make_mut(&mut self.pointers).insert(SymbolId::from(name.as_str()));
        assume.push(cx.terms.eq(&p, def));
        let r = self.add_ref(p, targets);
        Rc::make_mut(&mut self.defined).insert(def.clone(), r);
        r
    }

    /// The names of location numbers: `null`, then each location's name.
    pub fn number_names(&self) -> Vec<String> {
        std::iter::once("null".to_string()).chain(self.locs.iter().map(|l| l.name.clone())).collect()
    }
    /// Adds a location; an error when the trace would hold more than [`MAX_LOCS`].
    pub(super) fn add_loc(&mut self, loc: Loc) -> Result<LocId> {
        if self.locs.len() >= MAX_LOCS {
            return Err(Error::Usage(format!(
                "a trace of the uber-lazy heap holds at most {MAX_LOCS} objects; lower --max-objects or use --strategy lazy"
            )));
        }
        Rc::make_mut(&mut self.locs).push(Rc::new(loc));
        Ok(LocId(self.locs.len() as u32 - 1))
    }

    /// The non-null locations of `r` with their guards.
    pub(in crate::heap) fn locations(&self, cx: &mut Ctx<'_>, r: RefId) -> Result<Vec<(Term, LocId)>> {
        let node = self.node(r)?;
        Ok(node.targets.iter().filter_map(|t| target_loc(*t).map(|l| (guard(cx, &node.ptr, *t), l))).collect())
    }

    /// The non-null locations of `r`.
    pub(in crate::heap) fn location_ids(&self, r: RefId) -> Vec<LocId> {
        self.node(r).map(|n| n.targets.iter().filter_map(|t| target_loc(*t)).collect()).unwrap_or_default()
    }
}

pub(super) fn target_loc(t: Target) -> Option<LocId> {
    match t {
        Target::Loc(l) => Some(l),
        Target::Null => None,
    }
}

/// The guard of target `t` of a reference with pointer `ptr`: `ptr = #t`.
pub(in crate::heap) fn guard(cx: &mut Ctx<'_>, ptr: &Term, t: Target) -> Term {
    let k = number(cx, t);
    cx.terms.eq(ptr, &k)
}

/// The number of a target: 0 for null, `l + 1` for location `l`.
pub(in crate::heap) fn number(cx: &mut Ctx<'_>, t: Target) -> Term {
    match t {
        Target::Null => cx.terms.bv(PW, 0),
        Target::Loc(l) => cx.terms.bv(PW, i64::from(l.0) + 1),
    }
}
