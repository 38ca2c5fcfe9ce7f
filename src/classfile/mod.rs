//! The class table: every class on the class path with its fields, methods and hierarchy.
//!
//! Classes are loaded from a [`ClassPath`] (jars, directories, single `.class` files) and
//! parsed with `cafebabe` in [`parse`]. Classes that are referenced but not on the class path
//! (the JDK, mostly) get a *phantom* entry so that every class name has a [`ClassId`]; the
//! well-known JDK classes the machine models (exceptions, boxes) come with their real
//! superclass chain from [`jdk`]. Resolution follows JVMS §5.4.3 and selection §5.4.6.

pub mod access;
pub mod classpath;
pub mod descriptor;
mod ids;
mod jdk;
pub mod jmod;
pub mod lambda;
mod lambda_site;
pub mod lines;
mod load;
mod names;
pub mod parse;
mod resolve;
mod table;
mod unzip;

pub use classpath::{ClassPath, ClassSource};
pub use descriptor::{JType, Kind, MethodDesc};
pub use ids::{ClassId, FieldId, MethodId};
pub use table::{Class, ClassTable, ConstValue, Field, Method};
