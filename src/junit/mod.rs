//! From traces to JUnit sources: one test class per method, one test per non-cut trace.
//!
//! The emitter sees only a [`RunResult`] (traces with their concrete heaps) and the class
//! table. Each test rebuilds the input heap without constructors (via the runtime helper
//! in [`runtime`], emitted next to the tests), calls the method, and asserts the return
//! value or exception class and the whole heap after the call (`oracle.rs`: every input
//! object, and every object the method allocated that the test can reach). Its comment
//! says in source terms what the input is and which way the method goes (`describe.rs`);
//! the raw path and path condition go to a JSON sidecar next to the source.

mod describe;
mod emit;
pub mod java;
mod layout;
mod oracle;
pub mod runtime;
mod sequence;

use std::path::PathBuf;

use crate::classfile::ClassTable;
use crate::machine::RunResult;

/// The JUnit generation to emit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Junit {
    Five,
    Four,
}

/// The emitted test class of one method.
#[derive(Debug, Clone)]
pub struct MethodTests {
    pub class_name: String,
    /// Java package (dotted), empty for the default package.
    pub package: String,
    pub source: String,
    /// The sidecar of the source (JSON): per trace its test, outcome and program path, and for
    /// a trace with a test its path condition (its list of conjuncts), which the tests'
    /// comments leave out.
    pub sidecar: String,
    /// Number of `@Test` methods.
    pub tests: usize,
    /// Traces without a test: (trace id, reason).
    pub skipped: Vec<(usize, String)>,
}

impl MethodTests {
    /// Path of the source below the output directory (`samples/Chain_hasNull4Test.java`).
    pub fn path(&self) -> PathBuf {
        let mut p = PathBuf::new();
        for part in self.package.split('.').filter(|s| !s.is_empty()) {
            p.push(part);
        }
        p.push(format!("{}.java", self.class_name));
        p
    }

    /// Path of the sidecar below the output directory (`samples/Chain_hasNull4Test.json`).
    pub fn sidecar_path(&self) -> PathBuf {
        self.path().with_extension("json")
    }
}

/// How to emit tests.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    pub junit: Junit,
    /// A boolean method of the receiver that each test asserts on the rebuilt input.
    pub precondition: Option<&'a str>,
    /// A boolean method of the receiver whose value on the rebuilt input each test records
    /// (see `Heap.valid`), without asserting it.
    pub validity: Option<&'a str>,
    /// The call-sequence driver the traces come from (`--inputs api`; with `auto`, those
    /// with a prefix): tests build their inputs by its calls.
    pub driver: Option<&'a crate::lower::driver::Driver>,
    /// Once on, the traces left get no test (the class holds the tests written so far).
    pub stop: Option<&'a crate::budget::Stop>,
}

/// The calls after the constructor that built the input of a trace of driver `d`.
pub fn sequence_calls(d: &crate::lower::driver::Driver, t: &crate::machine::Trace) -> usize {
    d.calls_after_constructor(crate::machine::driver_decisions(d, &t.prefix))
}

/// Emits the test class for one explored method.
pub fn emit(table: &ClassTable, r: &RunResult, options: &Options<'_>) -> MethodTests {
    let target = emit::Target {
        table,
        method: r.method_id,
        junit: options.junit,
        precondition: options.precondition,
        validity: options.validity,
        driver: options.driver,
        stop: options.stop,
    };
    let name = emit::test_class_name(table, r.method_id);
    emit::class_source(&target, r, &name)
}
