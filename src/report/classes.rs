//! The `classes` listing: every loaded class with its methods and whether each lowers.
//!
//! ```text
//! public class samples.Container
//!   ok       public <init>()V
//!   ok       public swap(Lsamples/Container;)V
//! public abstract class frontend.Shape
//!   no code  public abstract area()I
//!   FAILED   public twice()I at offset 3: unsupported instruction ...
//! lowered 2 of 3 methods
//! ```

use crate::classfile::access;

/// Whether one method lowers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LowerStatus {
    /// Abstract or native; `odd` when it is neither and lacks its Code attribute.
    NoCode {
        odd: bool,
    },
    Lowered,
    /// The lowering's error (names class, method, offset and opcode).
    Failed(String),
    /// The lowering panicked: a bug in uberlazy.
    Panicked(String),
}

/// One method of a listed class.
#[derive(Debug, Clone)]
pub struct MethodListing {
    pub access: u16,
    /// `name(desc)`.
    pub signature: String,
    /// `pkg.Class#name(desc)`.
    pub display: String,
    pub status: LowerStatus,
}

/// One loaded class with its methods in class-file order.
#[derive(Debug, Clone)]
pub struct ClassListing {
    pub access: u16,
    /// `pkg.Class`.
    pub name: String,
    pub methods: Vec<MethodListing>,
}

/// What a listing found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// Loaded classes listed.
    pub classes: usize,
    /// Methods with code.
    pub with_code: usize,
    /// Methods with code that lowered.
    pub lowered: usize,
    /// Methods whose lowering panicked (a bug; also counted as not lowered).
    pub panicked: usize,
}

impl Counts {
    /// The last line of a listing.
    pub fn footer(&self) -> String {
        format!("lowered {} of {} methods\n", self.lowered, self.with_code)
    }
}

/// The lines of one class (header, then a line per method), counting it in `counts`; with
/// `failures_only`, only the methods that do not lower, and nothing for a class without any.
pub fn class_text(c: &ClassListing, failures_only: bool, counts: &mut Counts) -> Option<String> {
    counts.classes += 1;
    let mut lines = Vec::with_capacity(c.methods.len());
    for m in &c.methods {
        let (status, detail) = match &m.status {
            LowerStatus::NoCode { odd } => {
                ("no code", odd.then(|| "the class file has no Code attribute for it".to_string()))
            }
            LowerStatus::Lowered => ("ok", None),
            LowerStatus::Failed(e) => ("FAILED", Some(e.clone())),
            LowerStatus::Panicked(e) => ("PANICKED", Some(e.clone())),
        };
        if !matches!(m.status, LowerStatus::NoCode { .. }) {
            counts.with_code += 1;
        }
        match m.status {
            LowerStatus::Lowered => counts.lowered += 1,
            LowerStatus::Panicked(_) => counts.panicked += 1,
            _ => {}
        }
        if failures_only && !matches!(status, "FAILED" | "PANICKED") {
            continue;
        }
        let mut line = format!("  {status:<8} {}{}", method_flags(m.access), m.signature);
        if let Some(d) = detail {
            // Lowering errors start with `pkg.Class#sig`, already on the line.
            match d.strip_prefix(&m.display) {
                Some(rest) if rest.starts_with(' ') || rest.starts_with(':') => line.push_str(rest),
                _ => {
                    line.push_str(": ");
                    line.push_str(&d);
                }
            }
        }
        lines.push(line);
    }
    if failures_only && lines.is_empty() {
        return None;
    }
    let mut text = class_header(c.access, &c.name);
    text.push('\n');
    for l in lines {
        text.push_str(&l);
        text.push('\n');
    }
    Some(text)
}

/// `public abstract class a.B`, `public interface a.I`.
fn class_header(flags: u16, name: &str) -> String {
    let mut s = String::new();
    if flags & access::PUBLIC != 0 {
        s.push_str("public ");
    }
    if flags & access::FINAL != 0 {
        s.push_str("final ");
    }
    if flags & access::INTERFACE != 0 {
        s.push_str("interface ");
    } else {
        if flags & access::ABSTRACT != 0 {
            s.push_str("abstract ");
        }
        s.push_str(if flags & 0x4000 != 0 { "enum " } else { "class " });
    }
    s.push_str(name);
    s
}

/// Method access flags as Java modifiers (plus `bridge`, `varargs`, `synthetic`), each
/// followed by a space.
fn method_flags(flags: u16) -> String {
    const NAMES: [(u16, &str); 12] = [
        (access::PUBLIC, "public"),
        (access::PRIVATE, "private"),
        (access::PROTECTED, "protected"),
        (access::STATIC, "static"),
        (access::FINAL, "final"),
        (0x0020, "synchronized"),
        (0x0040, "bridge"),
        (0x0080, "varargs"),
        (access::NATIVE, "native"),
        (access::ABSTRACT, "abstract"),
        (0x0800, "strictfp"),
        (0x1000, "synthetic"),
    ];
    let mut s = String::new();
    for (bit, name) in NAMES {
        if flags & bit != 0 {
            s.push_str(name);
            s.push(' ');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags() {
        assert_eq!(method_flags(access::PUBLIC | access::STATIC | 0x1000), "public static synthetic ");
        assert_eq!(class_header(access::PUBLIC | access::INTERFACE | access::ABSTRACT, "a.I"), "public interface a.I");
        assert_eq!(class_header(access::ABSTRACT, "a.B"), "abstract class a.B");
    }
}
