//! The IR printer: the papers' s-expression style, stable for golden tests.

use crate::classfile::ClassTable;
use crate::ir::Body;

/// Prints a body.
pub fn print_body(_table: &ClassTable, _body: &Body) -> String {
    String::new()
}
