//! Every setting of an analysis run in one place, with documented defaults.
//!
//! The CLI builds a [`Config`] from its flags; library code receives it by reference.
//! Nothing below `main` reads the environment or global state.

use serde::Serialize;

/// The heap algorithm that materializes reference-typed inputs (docs/glossary.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// Generalized symbolic execution with lazy initialization, as Symbolic PathFinder does it.
    Lazy,
    /// Lazier# initialization (Deng et al.).
    Lazier,
    /// The fully symbolic heap of uber-lazy symbolic execution.
    Uber,
    /// Path-optimal symbolic execution (Braione & Denaro).
    Pose,
}

impl Strategy {
    /// All strategies, in the order reports list them.
    pub const ALL: [Strategy; 4] = [Strategy::Lazy, Strategy::Lazier, Strategy::Uber, Strategy::Pose];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Lazy => "lazy",
            Strategy::Lazier => "lazier",
            Strategy::Uber => "uber",
            Strategy::Pose => "pose",
        }
    }

    pub fn parse(s: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|x| x.name() == s)
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The order in which pending states are explored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchOrder {
    /// Depth-first (default): keeps solver push/pop incremental and memory small.
    Dfs,
    /// Breadth-first.
    Bfs,
}

/// What an input reference whose declared type is `java.lang.Object` (an element, a key, a
/// value of a collection) holds when it is not null (`--object-inputs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjectInputs {
    /// `String` when the target's class fixes a type argument of a supertype to `String`
    /// (`PatriciaTrie<E> extends AbstractPatriciaTrie<String, E>`), else `Integer` (default;
    /// resolved per method before it is explored).
    Auto,
    /// A boxed `Integer` with a symbolic value: equal keys, hash codes and orders are values
    /// a test can build (`new Integer(3)`), as in `map.get(3)`.
    Integer,
    /// A `String` of at most `models::MAX_STRING_CHARS` symbolic characters: keys of a
    /// String-keyed map or trie (`"ab"`), compared, hashed and ordered as the JDK does.
    String,
    /// A plain `new Object()`: identity equality, and a hash code no test can choose.
    Object,
}

/// How a test builds the receiver and the arguments of the method under test (`--inputs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Inputs {
    /// Field by field (default): any heap shape, aliasing and cycles included, built without
    /// constructors through reflection (`Heap.alloc`, `Heap.set`).
    Heap,
    /// By calls: a public constructor or static factory, then up to `max_calls` public
    /// mutators with symbolic arguments (object arguments built by calls too,
    /// `lower/recipes.rs`), explored with the method under test; states a shorter prefix
    /// already reached are pruned (`lower/driver.rs`, `machine/sequence.rs`).
    Api {
        /// `--max-sequence` (default [`DEFAULT_MAX_SEQUENCE`]).
        max_calls: u32,
        /// `--sequence-methods`: the mutators by name (empty: every public method that may
        /// write a field of the class and whose arguments a test can build).
        methods: Vec<String>,
    },
    /// Both, per path of the method under test (the CLI's default): `gen` explores the
    /// method once with inputs built by calls (as `Api`, a quarter of the method's time) and
    /// once with heap inputs, and each path gets its test from a call-built input when a
    /// sequence reached it, else from a heap input. Under a precondition, for a static method
    /// with no object argument to build, for a class no test can construct, and for `run`
    /// and `compare` (whose counts are one exploration's), it is `Heap`.
    Auto {
        /// As `Api`'s.
        max_calls: u32,
        /// As `Api`'s.
        methods: Vec<String>,
    },
}

impl Inputs {
    /// The call-sequence settings of `Api` and `Auto`.
    pub fn sequences(&self) -> Option<(u32, &[String])> {
        match self {
            Inputs::Heap => None,
            Inputs::Api { max_calls, methods } | Inputs::Auto { max_calls, methods } => Some((*max_calls, methods)),
        }
    }
}

/// Default of `--max-sequence`: calls after the constructor.
pub const DEFAULT_MAX_SEQUENCE: u32 = 3;

/// The exploration bounds. Every strategy uses the same bounds, and every report prints them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bounds {
    /// Maximum program decisions (branch outcomes and exception edges) per trace.
    pub max_depth: u32,
    /// Maximum input objects materialized per trace.
    pub max_objects: u32,
    /// Maximum call depth (frames above the entry method).
    pub max_calls: u32,
    /// Wall-clock budget for the whole exploration, in seconds.
    pub time_limit_s: u64,
    /// Largest length of an input array (a restriction of the input domain, not a cut:
    /// models never pick longer arrays).
    pub max_array_length: u32,
    /// Most decisions one run of the precondition (`--precondition`) may make: a fuse
    /// against a precondition that never returns. The scope (`max_objects`) is what bounds
    /// the valid inputs; a precondition that checks one of them returns long before this.
    pub precondition_fuse: u32,
    /// Most steps one search for a valid input may take (a P-search, `machine/
    /// precondition.rs`): a guard against one fork side taking the whole time limit. A side
    /// whose search runs out of them ends as a trace cut by `precondition-steps`.
    pub precondition_steps: u64,
    /// Resident memory of the process, in MiB, above which an exploration stops (its
    /// pending states end as traces cut by `max-memory`).
    pub max_memory_mb: u64,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_depth: DEFAULT_MAX_DEPTH,
            max_objects: DEFAULT_MAX_OBJECTS,
            max_calls: DEFAULT_MAX_CALLS,
            time_limit_s: DEFAULT_TIME_LIMIT_S,
            max_array_length: DEFAULT_MAX_ARRAY_LENGTH,
            precondition_fuse: DEFAULT_PRECONDITION_FUSE,
            precondition_steps: DEFAULT_PRECONDITION_STEPS,
            max_memory_mb: DEFAULT_MAX_MEMORY_MB,
        }
    }
}

/// Default of `--precondition-fuse` where no scope is given ([`precondition_fuse_for`]
/// of the default `--max-objects`).
pub const DEFAULT_PRECONDITION_FUSE: u32 = precondition_fuse_for(DEFAULT_MAX_OBJECTS);

/// Decisions the precondition may make per object of the scope: a `repOK` checks a few
/// things per node, so a valid input within the scope needs far fewer.
pub const FUSE_PER_OBJECT: u32 = 32;

/// The default `--precondition-fuse` for a scope of `max_objects`.
pub const fn precondition_fuse_for(max_objects: u32) -> u32 {
    FUSE_PER_OBJECT.saturating_mul(max_objects.saturating_add(1))
}

/// Default of `--precondition-steps`: a guard that keeps one search for a valid input well
/// inside the default time limit, far above what the searches of small scopes take (`run
/// --json` reports the most one search took: `precondition_max_steps`).
pub const DEFAULT_PRECONDITION_STEPS: u64 = 20_000_000;

/// Default of `--max-array-length`.
pub const DEFAULT_MAX_ARRAY_LENGTH: u32 = 16;

/// Default of `--max-depth`.
pub const DEFAULT_MAX_DEPTH: u32 = 50;
/// Default of `--max-objects`.
pub const DEFAULT_MAX_OBJECTS: u32 = 64;
/// Default of `--max-objects` with `--precondition`: the scope of the valid inputs, small
/// enough that every method of a textbook data structure finishes in seconds.
pub const DEFAULT_SCOPE: u32 = 5;
/// Default of `--max-calls`.
pub const DEFAULT_MAX_CALLS: u32 = 32;
/// Default of `--time-limit` (seconds).
pub const DEFAULT_TIME_LIMIT_S: u64 = 300;
/// Default of `--max-memory` (MiB) where the machine's memory is not known; the CLI's
/// default is half of the machine's memory, at most this ([`crate::budget::default_max_memory_mb`]).
pub const DEFAULT_MAX_MEMORY_MB: u64 = 4096;
/// Default per-query solver timeout in milliseconds (`--solver-timeout`).
pub const DEFAULT_SOLVER_TIMEOUT_MS: u32 = 10_000;

/// The `java.base` module of the JDK at `home`: `<home>/jmods/java.base.jmod`.
pub fn jdk_jmod(home: &std::path::Path) -> std::path::PathBuf {
    home.join("jmods").join("java.base.jmod")
}

/// The installed JDK: `$JAVA_HOME`, else the home of the `java` found on `PATH` (symlinks
/// resolved), when it holds `jmods/java.base.jmod`. Read from the environment: for the CLI
/// and a library caller's own setup, never below them.
pub fn installed_jdk() -> Option<std::path::PathBuf> {
    let from_env = std::env::var_os("JAVA_HOME").map(std::path::PathBuf::from);
    let from_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths).map(|d| d.join("java")).find(|p| p.is_file()).and_then(|java| {
            let real = std::fs::canonicalize(java).ok()?;
            Some(real.parent()?.parent()?.to_path_buf())
        })
    });
    from_env.into_iter().chain(from_path).find(|home| jdk_jmod(home).is_file())
}

/// One analysis run's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Config {
    pub strategy: Strategy,
    pub bounds: Bounds,
    pub search: SearchOrder,
    /// What an input of declared type `Object` holds (default: auto, see [`ObjectInputs`]).
    pub object_inputs: ObjectInputs,
    /// How tests build their inputs (default: field by field).
    pub inputs: Inputs,
    /// Static fields are symbolic inputs instead of starting from the class initializer.
    pub symbolic_statics: bool,
    /// Calls to code that is neither on the class path nor modelled return a fresh symbolic
    /// value (reported in the trace) instead of failing.
    pub havoc_unknown: bool,
    /// Replay every trace's concrete input through the machine and fail on disagreement.
    pub check_models: bool,
    /// Per-query solver timeout in milliseconds; a timeout is `unknown`, never `unsat`.
    pub solver_timeout_ms: u32,
    /// A boolean no-argument method of the receiver's class that must return true on the
    /// input (e.g. `repOK`): only states some input within the scope satisfying it can
    /// reach are explored, and every emitted input satisfies it.
    pub precondition: Option<String>,
    /// The JDK whose `jmods/java.base.jmod` supplies the JDK superclasses of class path
    /// classes that the class path lacks (`--jdk`; the CLI defaults to the installed JDK,
    /// a library caller to none).
    #[serde(skip)]
    pub jdk: Option<std::path::PathBuf>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            strategy: Strategy::Lazy,
            bounds: Bounds::default(),
            search: SearchOrder::Dfs,
            object_inputs: ObjectInputs::Auto,
            inputs: Inputs::Heap,
            symbolic_statics: false,
            havoc_unknown: false,
            check_models: false,
            solver_timeout_ms: DEFAULT_SOLVER_TIMEOUT_MS,
            precondition: None,
            jdk: None,
        }
    }
}
