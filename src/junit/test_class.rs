//! The emitted test class of one method (`MethodTests`) and the JUnit generation it is written for.

use std::path::PathBuf;

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
