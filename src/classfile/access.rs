//! The JVM access flags the class table keeps (JVMS §4.1, §4.5, §4.6).

pub const PUBLIC: u16 = 0x0001;
pub const PRIVATE: u16 = 0x0002;
pub const PROTECTED: u16 = 0x0004;
pub const STATIC: u16 = 0x0008;
pub const FINAL: u16 = 0x0010;
pub const NATIVE: u16 = 0x0100;
pub const INTERFACE: u16 = 0x0200;
pub const ABSTRACT: u16 = 0x0400;
pub const SYNTHETIC: u16 = 0x1000;
/// `ACC_BRIDGE` of a method: a forwarder the compiler made (generic or visibility bridge).
pub const BRIDGE: u16 = 0x0040;
/// Methods the compiler made (accessors, bridges): never targets, mutators or overloads.
pub const COMPILER_MADE: u16 = SYNTHETIC | BRIDGE;
