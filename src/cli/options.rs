//! Flags shared by `run`, `compare` and `gen`: bounds and analysis options → [`Config`].

use clap::Args;

use crate::config::{self, Bounds, Config, Inputs, ObjectInputs, SearchOrder, Strategy};
use crate::{Error, Result};

/// Exploration bounds and analysis options (the same for every strategy).
#[derive(Debug, Clone, Args)]
pub struct AnalysisArgs {
    /// Maximum program decisions (branch outcomes, exception edges) per trace.
    #[arg(long, default_value_t = config::DEFAULT_MAX_DEPTH)]
    pub max_depth: u32,
    /// Maximum input objects per trace: the scope of the inputs [default: 64; 5 with
    /// --precondition].
    #[arg(long)]
    pub max_objects: Option<u32>,
    /// Maximum call depth.
    #[arg(long, default_value_t = config::DEFAULT_MAX_CALLS)]
    pub max_calls: u32,
    /// Wall-clock budget in seconds: per method and strategy for run and compare; for gen, of
    /// the whole run, shared by need: more to a method still covering new branches.
    #[arg(long, default_value_t = config::DEFAULT_TIME_LIMIT_S)]
    pub time_limit: u64,
    /// Most decisions one run of the --precondition method may make on one input; an input
    /// on which it takes longer (e.g. walks a cycle) counts as invalid [default: 32 per
    /// object of the scope].
    #[arg(long, alias = "precondition-depth")]
    pub precondition_fuse: Option<u32>,
    /// Most steps one search for a valid input of one fork side may take (at least 1); a side
    /// whose search runs out of them ends as a trace cut by precondition-steps.
    #[arg(long, default_value_t = config::DEFAULT_PRECONDITION_STEPS, value_parser = clap::value_parser!(u64).range(1..))]
    pub precondition_steps: u64,
    /// Largest length of an input array (restricts inputs; no trace is cut by it).
    #[arg(long, default_value_t = config::DEFAULT_MAX_ARRAY_LENGTH)]
    pub max_array_length: u32,
    /// Per-query solver timeout in milliseconds, at least 1 (a timeout is `unknown`, never `unsat`).
    #[arg(long, default_value_t = config::DEFAULT_SOLVER_TIMEOUT_MS, value_parser = clap::value_parser!(u32).range(1..))]
    pub solver_timeout: u32,
    /// Resident memory (MiB) above which an exploration stops and reports its pending traces as
    /// cut [default: half of the machine's memory, at most 4096].
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(64..))]
    pub max_memory: Option<u64>,
    /// Treat static fields as symbolic inputs instead of running class initializers.
    #[arg(long)]
    pub symbolic_statics: bool,
    /// Give calls to code that is not on the class path and not modelled a fresh symbolic result.
    #[arg(long)]
    pub havoc_unknown: bool,
    /// Keep only inputs on which this boolean no-argument method of the receiver returns true
    /// (checked on candidate inputs; its own branches are not part of any path).
    #[arg(long, value_name = "METHOD")]
    pub precondition: Option<String>,
    /// The JDK (its home directory, holding jmods/java.base.jmod) that supplies the JDK
    /// superclasses of class path classes [default: $JAVA_HOME, else the JDK of `java` on PATH].
    #[arg(long, value_name = "DIR")]
    pub jdk: Option<std::path::PathBuf>,
    /// Search order: dfs or bfs.
    #[arg(long, default_value = "dfs", value_parser = ["dfs", "bfs"])]
    pub search: String,
    /// What a non-null input of declared type Object is: integer (a boxed Integer with a
    /// symbolic value, so keys can be equal, hashed and ordered), string (a String of up to 8
    /// symbolic chars, for String-keyed maps and tries), object (a plain Object), or auto:
    /// string when the class fixes a type argument to String (PatriciaTrie), else integer.
    #[arg(long, default_value = "auto", value_parser = ["auto", "integer", "string", "object"])]
    pub object_inputs: String,
    /// How tests build the receiver: heap (field by field through reflection, any shape), api
    /// (a public constructor, then up to --max-sequence public calls with symbolic arguments),
    /// or auto: for gen without --precondition, per path api when a sequence reaches the path,
    /// else heap; heap for run and compare.
    #[arg(long, default_value = "auto", value_parser = ["auto", "heap", "api"])]
    pub inputs: String,
    /// With --inputs api or auto: most calls after the constructor.
    #[arg(long, value_name = "N", default_value_t = config::DEFAULT_MAX_SEQUENCE)]
    pub max_sequence: u32,
    /// With --inputs api or auto: the methods a sequence may call, by name, comma-separated [default:
    /// every public method that may write a field of the class and whose arguments a test can build].
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub sequence_methods: Vec<String>,
}

impl AnalysisArgs {
    /// The configuration for one strategy.
    pub fn config(&self, strategy: Strategy, check_models: bool) -> Config {
        let max_objects = self.max_objects.unwrap_or(if self.precondition.is_some() {
            config::DEFAULT_SCOPE
        } else {
            config::DEFAULT_MAX_OBJECTS
        });
        Config {
            strategy,
            bounds: Bounds {
                max_depth: self.max_depth,
                max_objects,
                max_calls: self.max_calls,
                time_limit_s: self.time_limit,
                max_array_length: self.max_array_length,
                precondition_fuse: self.precondition_fuse.unwrap_or_else(|| config::precondition_fuse_for(max_objects)),
                precondition_steps: self.precondition_steps,
                max_memory_mb: self.max_memory.unwrap_or_else(crate::budget::default_max_memory_mb),
            },
            search: if self.search == "bfs" { SearchOrder::Bfs } else { SearchOrder::Dfs },
            object_inputs: match self.object_inputs.as_str() {
                "object" => ObjectInputs::Object,
                "string" => ObjectInputs::String,
                "integer" => ObjectInputs::Integer,
                _ => ObjectInputs::Auto,
            },
            inputs: match self.inputs.as_str() {
                "api" => Inputs::Api { max_calls: self.max_sequence, methods: self.sequence_methods.clone() },
                "heap" => Inputs::Heap,
                _ => Inputs::Auto { max_calls: self.max_sequence, methods: self.sequence_methods.clone() },
            },
            symbolic_statics: self.symbolic_statics,
            havoc_unknown: self.havoc_unknown,
            check_models,
            solver_timeout_ms: self.solver_timeout,
            precondition: self.precondition.clone(),
            jdk: self.jdk.clone().or_else(config::installed_jdk),
        }
    }

    /// A `--jdk` that is given must hold `jmods/java.base.jmod`.
    /// The budget of a whole `run` or `gen` process: `--time-limit` from now, the memory
    /// limit, and the stop switch the signals turn on.
    pub fn process_budget(&self, stop: &crate::budget::Stop) -> crate::budget::Budget {
        let memory = self.max_memory.unwrap_or_else(crate::budget::default_max_memory_mb);
        crate::budget::Budget::new(self.time_limit, memory, stop.clone())
    }

    pub fn check_jdk(&self) -> Result<()> {
        match &self.jdk {
            Some(home) if !config::jdk_jmod(home).is_file() => Err(Error::Usage(format!(
                "--jdk {}: no {} there (a JDK home holds jmods/java.base.jmod)",
                home.display(),
                config::jdk_jmod(home).display()
            ))),
            _ => Ok(()),
        }
    }
}

/// Parses `lazy,uber` into strategies (an unknown or repeated name is a usage error).
pub fn strategies(list: &str) -> Result<Vec<Strategy>> {
    let mut out: Vec<Strategy> = Vec::new();
    for s in list.split(',').filter(|s| !s.is_empty()) {
        let st = Strategy::parse(s.trim())
            .ok_or_else(|| Error::Usage(format!("unknown strategy `{s}`; use lazy, lazier, uber or pose")))?;
        if out.contains(&st) {
            return Err(Error::Usage(format!("strategy {st} is named twice in `{list}`")));
        }
        out.push(st);
    }
    Ok(out)
}

/// Whether progress lines should go to stderr (only when it is a terminal).
pub fn progress_enabled() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal()
}
