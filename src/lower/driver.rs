//! Call-sequence drivers (`--inputs api`): what a driver is and how a trace of it reads back
//! as calls; `install.rs` builds one. A driver is the IR of a synthetic static method that builds the
//! receiver through a public constructor and up to N public mutator calls, then calls the
//! method under test, so that the machine explores the sequences and the method together.
//!
//! The driver's parameters are the sequence's choices and arguments, all symbolic: at step
//! `s` a switch on `c<s>` picks mutator `i` (case `i`) or the method under test (default),
//! so a trace's decisions in the driver say which calls built its input, and a model gives
//! their arguments. An element argument (`Object`, `Comparable`, `Integer`, ...) is
//! `Integer.valueOf` of an int parameter (a `String` parameter where the class keys by
//! strings); a `String` is a parameter the strategy makes as an input value; a collection, a
//! map, an own-type or interface-typed argument is built by one of its recipes
//! (`recipes.rs`), picked by an int parameter (a case per recipe, null by default). The last switch (after N calls) has only its
//! default, so the decision that starts the method under test is always the driver's last
//! one. Every call before the method under test is covered by a handler to the driver's
//! `threw` block, where the machine drops the state (a prefix that throws builds no input).
//! The receiver is kept in a static field of the synthetic class (`Sequence.receiver`) so
//! that the concrete heap of a trace reaches it; observers (`size()`, `toArray()`, for JDK
//! classes, whose fields a test cannot read, and for collections and maps) run after the call
//! and keep their values in static fields too.

use crate::classfile::{ClassId, FieldId, JType, MethodId};
use crate::ir::{BlockId, LocalId};

/// The calls after the constructor a test's input takes where its path allows: one element
/// says little about a collection, three make a test hard to read at a glance.
pub const TEST_CALLS: usize = 2;

/// The internal name of the class that holds the drivers.
pub const SEQUENCE_CLASS: &str = "uberlazy/Sequence";

/// How a driver passes one argument of a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    /// The driver parameter that holds the argument (the int it is boxed from, or the int
    /// that picks its recipe).
    pub param: usize,
    /// The argument's declared type in the callee.
    pub ty: JType,
    pub how: How,
}

/// What a driver parameter makes of an argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum How {
    /// The parameter itself: a primitive, or a `String` the strategy makes as an input value.
    Param,
    /// `Integer.valueOf(param)`.
    Boxed,
    /// The object recipe `param` picks (case `k` → `recipes[k]`; any other value: null).
    Built(Vec<Recipe>),
}

impl Arg {
    /// The recipe a model's value of the parameter picks (`None`: the argument is null).
    pub fn recipe(&self, picked: i64) -> Option<&Recipe> {
        match &self.how {
            How::Built(rs) => usize::try_from(picked).ok().and_then(|k| rs.get(k)),
            _ => None,
        }
    }
}

/// How a driver builds an object argument: `calls[0]` makes it (a public constructor of
/// `class`, or a static factory), the rest are called on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipe {
    /// The class of the object made (the factory's declared result for a factory).
    pub class: ClassId,
    pub calls: Vec<Site>,
}

/// One call a driver can make: a constructor or factory, a mutator at some step, or the method under test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    pub method: MethodId,
    pub args: Vec<Arg>,
}

/// A step of a sequence: the switch that picks its call (case `i` → `calls[i]`, default →
/// the method under test).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepSites {
    /// The bytecode offset the driver gives the switch (its decisions carry it).
    pub pc: u32,
    pub block: BlockId,
    pub calls: Vec<Site>,
}

/// A driver: the synthetic method and how to read a trace of it back as calls.
#[derive(Debug, Clone)]
pub struct Driver {
    /// The synthetic static method the machine runs.
    pub method: MethodId,
    /// The method under test.
    pub target: MethodId,
    /// The class whose instance the sequence builds (the method's owner, or the subclass a
    /// user named it through).
    pub class: ClassId,
    /// The static field that holds the receiver after construction.
    pub receiver: Option<FieldId>,
    /// The driver's local that holds the receiver.
    pub receiver_local: Option<LocalId>,
    /// Public constructors and static factories of the class; with several, the switch at
    /// `ctor_pc` picks one (case `k` picks `ctors[k]`, the default `ctors[0]`).
    pub ctors: Vec<Site>,
    pub ctor_pc: Option<u32>,
    /// Steps 1..=N, then the last switch (no calls).
    pub steps: Vec<StepSites>,
    /// The call of the method under test.
    pub call: Site,
    /// No-argument observers run after the call, with the static field holding each result.
    pub observers: Vec<(MethodId, FieldId)>,
    /// The switch that starts the observers (its decision ends the tested path).
    pub observe_pc: Option<u32>,
    /// Where a call of the prefix that throws goes: the machine drops such states.
    pub threw: BlockId,
    /// The mutators a step may call (for reports).
    pub mutators: Vec<MethodId>,
}

impl Driver {
    /// The blocks at which a prefix has ended (the step switches): states there are
    /// compared for subsumption.
    pub fn checkpoint(&self, b: BlockId) -> Option<usize> {
        self.steps.iter().position(|s| s.block == b)
    }

    /// How many calls after the constructor the driver decisions (offset and switch case)
    /// made before the method under test.
    pub fn calls_after_constructor(&self, decisions: impl IntoIterator<Item = (u32, Option<i32>)>) -> usize {
        decisions.into_iter().filter(|(pc, case)| case.is_some() && self.steps.iter().any(|s| s.pc == *pc)).count()
    }

    /// The calls a trace's driver decisions (offset and switch case, in order) made before
    /// the method under test: the constructor first.
    pub fn calls(&self, decisions: impl IntoIterator<Item = (u32, Option<i32>)>) -> Vec<&Site> {
        let mut out = Vec::new();
        let mut ctor = if self.ctor_pc.is_none() { self.ctors.first() } else { None };
        let mut steps = Vec::new();
        for (pc, case) in decisions {
            if Some(pc) == self.ctor_pc {
                ctor = self.ctors.get(case.and_then(|k| usize::try_from(k).ok()).unwrap_or(0));
            } else if let Some(s) = self.steps.iter().find(|s| s.pc == pc)
                && let Some(site) = case.and_then(|k| s.calls.get(usize::try_from(k).ok()?))
            {
                steps.push(site);
            }
        }
        out.extend(ctor);
        out.extend(steps);
        out
    }
}

/// What a user asked of the sequences.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// At most this many calls after the constructor.
    pub max_calls: u32,
    /// The mutators by name (empty: chosen automatically).
    pub methods: Vec<String>,
    /// Element arguments (`Object`, `Comparable`, ...) are `String`s rather than boxed ints
    /// (`--object-inputs string`, or a class that keys by strings).
    pub strings: bool,
}
