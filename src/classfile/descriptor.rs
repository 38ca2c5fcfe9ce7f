//! Java types and method descriptors, parsed from JVM descriptor strings (JVMS §4.3).

use std::fmt;

/// A Java type as it appears in a field or method descriptor. Class names are kept in
/// internal form (`java/lang/Object`); the class table maps them to `ClassId`s.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JType {
    Boolean,
    Byte,
    Char,
    Short,
    Int,
    Long,
    Float,
    Double,
    /// A class or interface type, internal name (`java/lang/String`).
    Class(String),
    /// An array type with its element type.
    Array(Box<JType>),
}

/// The computational kind of a value (JVMS §2.11.1): what a local or stack slot holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// boolean, byte, char, short and int: 32-bit two's complement.
    Int,
    /// long: 64-bit two's complement.
    Long,
    Float,
    Double,
    /// Any reference (object or array), including `null`.
    Ref,
}

impl Kind {
    /// The one-letter name used in IR local names and the printer (`i`, `j`, `f`, `d`, `a`).
    pub fn letter(self) -> char {
        match self {
            Kind::Int => 'i',
            Kind::Long => 'j',
            Kind::Float => 'f',
            Kind::Double => 'd',
            Kind::Ref => 'a',
        }
    }

    /// Number of JVM local/stack slots (category 1 or 2).
    pub fn slots(self) -> usize {
        match self {
            Kind::Long | Kind::Double => 2,
            _ => 1,
        }
    }
}

impl JType {
    /// The computational kind of values of this type.
    pub fn kind(&self) -> Kind {
        match self {
            JType::Boolean | JType::Byte | JType::Char | JType::Short | JType::Int => Kind::Int,
            JType::Long => Kind::Long,
            JType::Float => Kind::Float,
            JType::Double => Kind::Double,
            JType::Class(_) | JType::Array(_) => Kind::Ref,
        }
    }

    /// True for `long` and `double`: 64-bit values (two slots), kept as 64-bit terms.
    pub fn is_wide(&self) -> bool {
        matches!(self, JType::Long | JType::Double)
    }

    /// True for class, interface and array types.
    pub fn is_reference(&self) -> bool {
        self.kind() == Kind::Ref
    }

    /// `java/lang/Object`.
    pub fn object() -> JType {
        JType::Class("java/lang/Object".to_string())
    }

    /// Parses one field descriptor (`I`, `Ljava/lang/Object;`, `[[J`); the whole string must match.
    pub fn parse(desc: &str) -> Option<JType> {
        let (t, rest) = parse_one(desc)?;
        rest.is_empty().then_some(t)
    }

    /// Parses a class-or-array name as used by `checkcast`, `anewarray` and friends:
    /// either an internal class name (`java/lang/String`) or an array descriptor (`[I`).
    pub fn from_class_or_array(name: &str) -> Option<JType> {
        if name.starts_with('[') {
            JType::parse(name)
        } else if name.is_empty() {
            None
        } else {
            Some(JType::Class(name.to_string()))
        }
    }

    /// The JVM descriptor string of this type.
    pub fn descriptor(&self) -> String {
        match self {
            JType::Boolean => "Z".into(),
            JType::Byte => "B".into(),
            JType::Char => "C".into(),
            JType::Short => "S".into(),
            JType::Int => "I".into(),
            JType::Long => "J".into(),
            JType::Float => "F".into(),
            JType::Double => "D".into(),
            JType::Class(c) => format!("L{c};"),
            JType::Array(e) => format!("[{}", e.descriptor()),
        }
    }

    /// The Java source spelling (`int`, `java.lang.Object`, `int[]`).
    pub fn java_name(&self) -> String {
        match self {
            JType::Boolean => "boolean".into(),
            JType::Byte => "byte".into(),
            JType::Char => "char".into(),
            JType::Short => "short".into(),
            JType::Int => "int".into(),
            JType::Long => "long".into(),
            JType::Float => "float".into(),
            JType::Double => "double".into(),
            JType::Class(c) => c.replace('/', "."),
            JType::Array(e) => format!("{}[]", e.java_name()),
        }
    }

    /// A short readable spelling for the IR printer: the simple class name, `int`, `Node[]`.
    pub fn short_name(&self) -> String {
        match self {
            JType::Class(c) => c.rsplit('/').next().unwrap_or(c).to_string(),
            JType::Array(e) => format!("{}[]", e.short_name()),
            other => other.java_name(),
        }
    }
}

impl fmt::Display for JType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.java_name())
    }
}

fn parse_one(s: &str) -> Option<(JType, &str)> {
    let mut chars = s.chars();
    let c = chars.next()?;
    let rest = chars.as_str();
    let t = match c {
        'Z' => JType::Boolean,
        'B' => JType::Byte,
        'C' => JType::Char,
        'S' => JType::Short,
        'I' => JType::Int,
        'J' => JType::Long,
        'F' => JType::Float,
        'D' => JType::Double,
        'L' => {
            let end = rest.find(';')?;
            let name = &rest[..end];
            if name.is_empty() {
                return None;
            }
            return Some((JType::Class(name.to_string()), &rest[end + 1..]));
        }
        '[' => {
            let (e, rest) = parse_one(rest)?;
            return Some((JType::Array(Box::new(e)), rest));
        }
        _ => return None,
    };
    Some((t, rest))
}

/// A method descriptor: parameter types and return type (`None` for `void`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MethodDesc {
    pub params: Vec<JType>,
    pub ret: Option<JType>,
}

impl MethodDesc {
    /// Parses `(IJLjava/lang/Object;)V`.
    pub fn parse(desc: &str) -> Option<MethodDesc> {
        let inner = desc.strip_prefix('(')?;
        let close = inner.find(')')?;
        let (mut params_s, ret_s) = (&inner[..close], &inner[close + 1..]);
        let mut params = Vec::new();
        while !params_s.is_empty() {
            let (t, rest) = parse_one(params_s)?;
            params.push(t);
            params_s = rest;
        }
        let ret = if ret_s == "V" { None } else { Some(JType::parse(ret_s)?) };
        Some(MethodDesc { params, ret })
    }

    /// The descriptor string.
    pub fn descriptor(&self) -> String {
        let mut s = String::from("(");
        for p in &self.params {
            s.push_str(&p.descriptor());
        }
        s.push(')');
        match &self.ret {
            Some(r) => s.push_str(&r.descriptor()),
            None => s.push('V'),
        }
        s
    }

    /// Number of JVM argument slots (longs and doubles count twice), without the receiver.
    pub fn arg_slots(&self) -> usize {
        self.params.iter().map(|p| p.kind().slots()).sum()
    }
}

impl fmt::Display for MethodDesc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.descriptor())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_descriptors() {
        for d in ["(IJLjava/lang/Object;[[Z)V", "()I", "([Lsamples/Chain;)Lsamples/Chain;"] {
            let m = MethodDesc::parse(d);
            assert_eq!(m.map(|m| m.descriptor()).as_deref(), Some(d));
        }
        assert_eq!(MethodDesc::parse("(L;)V"), None);
        assert_eq!(MethodDesc::parse("(I"), None);
        assert_eq!(JType::parse("[I").map(|t| t.java_name()).as_deref(), Some("int[]"));
    }
}
