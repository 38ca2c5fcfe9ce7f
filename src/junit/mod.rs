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
mod imports;
pub mod java;
mod layout;
mod names;
mod oracle;
pub mod runtime;
mod sequence;
pub use sequence::sequence_calls;
mod test_class;

use crate::classfile::ClassTable;
use crate::machine::RunResult;
pub use test_class::{Junit, MethodTests};

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
        names: names::test_names(table, r, options.driver),
    };
    let name = emit::test_class_name(table, r.method_id);
    emit::class_source(&target, r, &name)
}
