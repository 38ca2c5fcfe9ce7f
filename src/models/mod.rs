//! What uberlazy knows about the JDK without its class files: the classes the machine
//! needs by name, and what the JDK methods that data-structure code calls do.
//!
//! Nothing here runs anything. [`classes`] lists JDK classes with their real superclass
//! chain and the fields the models keep (the class table installs them as phantoms);
//! [`lookup`] maps a call to a [`Model`], a description of the method's effect that the
//! machine carries out on symbolic values (`machine/library.rs`). A call whose target is
//! not on the class path looks up a model along the superclass chain of the named class,
//! so `new NoSuchElementException("x")` uses Throwable's constructor model.

pub mod classes;

/// JDK classes whose methods uberlazy runs as Java code of its own (`javasrc/models/`,
/// compiled into [`JAVA_MODELS_JAR`]): (JDK class, model class). A call to a JDK method runs
/// the model class's static method of the same name and descriptor when it has one, even
/// when the JDK class is on the class path (its code goes through natives).
pub const JAVA_MODELS: &[(&str, &str)] = &[
    ("java/lang/System", "uberlazy/models/JdkSystem"),
    ("java/util/Arrays", "uberlazy/models/JdkArrays"),
    ("jdk/internal/util/ArraysSupport", "uberlazy/models/JdkArraysSupport"),
    ("java/lang/reflect/Array", "uberlazy/models/JdkReflectArray"),
];

/// JDK classes whose statics the JVM sets up at startup, not their class initializers
/// (`System.props`, `System.out`, `SharedSecrets.javaLangAccess`): the machine knows none of
/// them, but for the standard streams.
pub const JVM_STARTUP_CLASSES: &[&str] = &["java/lang/System", "jdk/internal/access/SharedSecrets"];

/// The compiled model classes (`testdata/models.jar`, built from `javasrc/models/`).
pub static JAVA_MODELS_JAR: &[u8] = include_bytes!("../../testdata/models.jar");

/// What a modelled JDK method does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// Nothing (`Object.<init>`, `Throwable.<init>()`).
    Nothing,
    /// Stores argument `i` into field `name` of the receiver (argument 0), for each pair
    /// (`Throwable.<init>(String)`, `Integer.<init>(int)`); `class` declares the fields.
    Store { class: &'static str, fields: &'static [(usize, &'static str)] },
    /// Returns field `field` of the receiver (`getMessage`, `intValue`).
    Load { class: &'static str, field: &'static str },
    /// `Object.equals`: reference identity.
    IdentityEquals,
    /// `Object.getClass()`: the one `Class` object of the receiver's class on the path.
    GetClass,
    /// `Object.hashCode`, `System.identityHashCode`: a fresh symbolic int.
    IdentityHash,
    /// `Math.min`/`max` of two ints (`long_`: longs).
    MinMax { max: bool, long_: bool },
    /// `Math.abs` of an int (`long_`: a long).
    Abs { long_: bool },
    /// A static method of `Float`, `Double` or `Math` on floats or doubles (kept as their
    /// IEEE bits).
    Float(FloatOp),
    /// `Integer.compare`/`Long.compare`: -1, 0 or 1.
    Compare,
    /// `Integer.valueOf(int)` and the other boxes: a new box holding argument 0 in
    /// `class`'s `value` field (the JDK's small-value cache is not modelled).
    ValueOf { class: &'static str },
    /// `String.valueOf(x)`, which javac calls for the object operands of a string
    /// concatenation: a new non-null `String` (its characters are not modelled).
    NewString,
    /// Returns the receiver (`StringBuilder.append`, which javac 8 calls for `+`).
    Receiver,
    /// `Class.desiredAssertionStatus`, which javac calls in the class initializer of a class
    /// with `assert` statements: true for the class path's classes (so an `assert` runs, and a
    /// failing one is an `AssertionError` outcome, whose test needs `-ea`), false for the
    /// JDK's (`-ea` leaves system classes' assertions off).
    AssertionStatus,
    /// `Objects.requireNonNull(x[, message])`: NullPointerException when `x` is null, else `x`.
    RequireNonNull,
    /// A box's `equals(Object)`: argument 1 is a non-null box of `class` with the same value.
    BoxEquals { class: &'static str },
    /// A box's `compareTo`: of the receiver's and argument 1's values, -1, 0 or 1
    /// (`Integer.compare`); `cast`: the argument is an `Object` (the bridge method), so a
    /// non-box raises ClassCastException. A null argument raises NullPointerException.
    BoxCompare { class: &'static str, cast: bool },
    /// A `String` method on symbolic characters (`machine/strings.rs`).
    String(StringOp),
}

/// The floating-point methods modelled, of `float` or `double` alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatOp {
    /// `floatToRawIntBits`, `intBitsToFloat` and the `Double` pair: the same bits.
    RawBits,
    /// `floatToIntBits`, `doubleToLongBits`: the bits, every NaN as the canonical one.
    Bits,
    /// `Float.hashCode(f)`, `Double.hashCode(d)`: the bits (a double's two halves xored).
    Hash,
    IsNaN,
    /// `Float.compare`, `Double.compare`: numeric order, then `-0.0 < 0.0 < NaN`.
    Compare,
    /// `Math.abs`: the sign bit cleared.
    Abs,
    /// `Math.min`, `Math.max`: NaN if either is, `-0.0` below `0.0`.
    Min,
    Max,
}

/// The `String` methods modelled on a string's length and characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StringOp {
    Length,
    IsEmpty,
    CharAt,
    Equals,
    HashCode,
    /// `compareTo`; `cast`: the `Object` bridge (a non-String raises ClassCastException).
    Compare {
        cast: bool,
    },
    /// `substring(begin)` and, with `end`, `substring(begin, end)`: the string itself when
    /// it is all of it, else a new string.
    Substring {
        end: bool,
    },
    /// `toCharArray`: a new `char[]` of the characters.
    ToCharArray,
}

/// The class of strings.
pub const STRING: &str = "java/lang/String";

/// How many characters a modelled string holds: an input string is at most this long, and a
/// longer literal is modelled as a computed string (its characters unknown).
pub const MAX_STRING_CHARS: usize = 8;

/// Boxing classes: (class, primitive descriptor, unboxing method).
const BOXES: &[(&str, &str, &str)] = &[
    ("java/lang/Integer", "I", "intValue"),
    ("java/lang/Long", "J", "longValue"),
    ("java/lang/Short", "S", "shortValue"),
    ("java/lang/Byte", "B", "byteValue"),
    ("java/lang/Character", "C", "charValue"),
    ("java/lang/Boolean", "Z", "booleanValue"),
];

/// Whether `class` (an internal name) is a boxing class (`Integer`, `Long`, ...): immutable,
/// with its primitive in a `value` field; a test makes one from its value.
pub fn is_box(class: &str) -> bool {
    BOXES.iter().any(|(c, _, _)| *c == class)
}

/// Whether objects of `class` are values a test makes from their contents: the boxes and
/// `String` (immutable; the oracle checks them by value, never field by field).
pub fn is_value(class: &str) -> bool {
    is_box(class) || class == STRING
}

/// The model of `class.name desc` as declared by exactly that class (internal names).
pub fn lookup(class: &str, name: &str, desc: &str) -> Option<Model> {
    const THROWABLE: &str = "java/lang/Throwable";
    Some(match (class, name, desc) {
        ("java/lang/Object", "<init>", "()V") | ("java/lang/Throwable", "<init>", "()V") => Model::Nothing,
        // The JDK's class initializers link their natives (`Thread`, `System`, `Unsafe`): nothing
        // a Java program can observe.
        (_, "registerNatives" | "initIDs", "()V") => Model::Nothing,
        // No class-data-sharing archive: the class initializer computes its statics itself.
        ("jdk/internal/misc/CDS", "initializeFromArchive", "(Ljava/lang/Class;)V") => Model::Nothing,
        ("java/lang/Throwable", "<init>", "(Ljava/lang/String;)V") => {
            Model::Store { class: THROWABLE, fields: &[(1, "detailMessage")] }
        }
        ("java/lang/Throwable", "<init>", "(Ljava/lang/String;Ljava/lang/Throwable;)V") => {
            Model::Store { class: THROWABLE, fields: &[(1, "detailMessage"), (2, "cause")] }
        }
        ("java/lang/Throwable", "<init>", "(Ljava/lang/Throwable;)V") => {
            Model::Store { class: THROWABLE, fields: &[(1, "cause")] }
        }
        // `assert x : detail`: the detail's text is not modelled (a test checks the class only).
        ("java/lang/AssertionError", "<init>", "()V" | "(Ljava/lang/Object;)V" | "(Z)V" | "(C)V" | "(I)V" | "(J)V") => {
            Model::Nothing
        }
        ("java/lang/Throwable", "getMessage" | "getLocalizedMessage", "()Ljava/lang/String;") => {
            Model::Load { class: THROWABLE, field: "detailMessage" }
        }
        ("java/lang/Throwable", "getCause", "()Ljava/lang/Throwable;") => {
            Model::Load { class: THROWABLE, field: "cause" }
        }
        ("java/lang/Object", "equals", "(Ljava/lang/Object;)Z") => Model::IdentityEquals,
        ("java/lang/Object", "getClass", "()Ljava/lang/Class;") => Model::GetClass,
        ("java/lang/Object", "hashCode", "()I") | ("java/lang/System", "identityHashCode", "(Ljava/lang/Object;)I") => {
            Model::IdentityHash
        }
        ("java/lang/Math", "max" | "min", "(II)I" | "(JJ)J") => {
            Model::MinMax { max: name == "max", long_: desc == "(JJ)J" }
        }
        ("java/lang/Math", "abs", "(I)I" | "(J)J") => Model::Abs { long_: desc == "(J)J" },
        ("java/lang/Math", "abs" | "min" | "max", "(F)F" | "(D)D" | "(FF)F" | "(DD)D")
        | ("java/lang/Float" | "java/lang/Double", _, _) => return float(name, desc).map(Model::Float),
        ("java/lang/Integer" | "java/lang/Long", "compare", "(II)I" | "(JJ)I") => Model::Compare,
        ("java/lang/String", "valueOf", _) if desc.ends_with(")Ljava/lang/String;") => Model::NewString,
        // An exception's message, mostly: what it says is not modelled, only that it is a string.
        ("java/lang/String", "format", _) if desc.ends_with(")Ljava/lang/String;") => Model::NewString,
        ("java/lang/String", "toString", "()Ljava/lang/String;") => Model::Receiver,
        ("java/lang/String", "length", "()I") => Model::String(StringOp::Length),
        ("java/lang/String", "isEmpty", "()Z") => Model::String(StringOp::IsEmpty),
        ("java/lang/String", "charAt", "(I)C") => Model::String(StringOp::CharAt),
        ("java/lang/String", "equals", "(Ljava/lang/Object;)Z") => Model::String(StringOp::Equals),
        ("java/lang/String", "hashCode", "()I") => Model::String(StringOp::HashCode),
        ("java/lang/String", "compareTo", "(Ljava/lang/Object;)I") => Model::String(StringOp::Compare { cast: true }),
        ("java/lang/String", "compareTo", "(Ljava/lang/String;)I") => Model::String(StringOp::Compare { cast: false }),
        ("java/lang/String", "substring", "(I)Ljava/lang/String;") => Model::String(StringOp::Substring { end: false }),
        ("java/lang/String", "substring", "(II)Ljava/lang/String;") => Model::String(StringOp::Substring { end: true }),
        ("java/lang/String", "toCharArray", "()[C") => Model::String(StringOp::ToCharArray),
        ("java/lang/StringBuilder", "<init>", _) => Model::Nothing,
        ("java/lang/Class", "desiredAssertionStatus", "()Z") => Model::AssertionStatus,
        ("java/util/Objects", "requireNonNull", "(Ljava/lang/Object;)Ljava/lang/Object;")
        | ("java/util/Objects", "requireNonNull", "(Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/Object;")
        | (
            "java/util/Objects",
            "requireNonNull",
            "(Ljava/lang/Object;Ljava/util/function/Supplier;)Ljava/lang/Object;",
        ) => Model::RequireNonNull,
        // A builder's characters are not modelled: what it makes is a computed string.
        ("java/lang/StringBuilder", "append" | "reverse", _) => Model::Receiver,
        ("java/lang/StringBuilder", "toString", "()Ljava/lang/String;") => Model::NewString,
        // `System.out` and `System.err`: what a method prints is not part of what a test checks.
        ("java/io/PrintStream", "print" | "println" | "write" | "flush" | "close", _) => Model::Nothing,
        ("java/io/PrintStream", "printf" | "format" | "append", _) => Model::Receiver,
        ("java/lang/Object" | "java/lang/Integer", "toString", "()Ljava/lang/String;") => Model::NewString,
        _ => return boxing(class, name, desc),
    })
}

/// The static floating-point methods of `Float`, `Double` and `Math` by name and descriptor.
fn float(name: &str, desc: &str) -> Option<FloatOp> {
    Some(match (name, desc) {
        ("floatToRawIntBits", "(F)I")
        | ("intBitsToFloat", "(I)F")
        | ("doubleToRawLongBits", "(D)J")
        | ("longBitsToDouble", "(J)D") => FloatOp::RawBits,
        ("floatToIntBits", "(F)I") | ("doubleToLongBits", "(D)J") => FloatOp::Bits,
        ("hashCode", "(F)I" | "(D)I") => FloatOp::Hash,
        ("isNaN", "(F)Z" | "(D)Z") => FloatOp::IsNaN,
        ("compare", "(FF)I" | "(DD)I") => FloatOp::Compare,
        ("abs", "(F)F" | "(D)D") => FloatOp::Abs,
        ("min", "(FF)F" | "(DD)D") => FloatOp::Min,
        ("max", "(FF)F" | "(DD)D") => FloatOp::Max,
        _ => return None,
    })
}

/// `Integer.valueOf`, `new Integer(int)`, `intValue()` and the other boxes.
fn boxing(class: &str, name: &str, desc: &str) -> Option<Model> {
    let (class, prim, unbox) = BOXES.iter().find(|(c, _, _)| *c == class)?;
    if name == "valueOf" && desc == format!("({prim})L{class};") {
        return Some(Model::ValueOf { class });
    }
    if name == "<init>" && desc == format!("({prim})V") {
        return Some(Model::Store { class, fields: &[(1, "value")] });
    }
    if name == *unbox && desc == format!("(){prim}") {
        return Some(Model::Load { class, field: "value" });
    }
    match (name, desc) {
        // The value itself is the hash of the int-sized boxes (Long and Boolean differ).
        ("hashCode", "()I") if matches!(*prim, "I" | "S" | "B" | "C") => Some(Model::Load { class, field: "value" }),
        ("equals", "(Ljava/lang/Object;)Z") if *prim != "Z" => Some(Model::BoxEquals { class }),
        // Integer and Long compare to -1, 0, 1 (the narrower boxes return a difference).
        ("compareTo", _) if matches!(*prim, "I" | "J") => {
            let cast = desc == "(Ljava/lang/Object;)I";
            (cast || desc == format!("(L{class};)I")).then_some(Model::BoxCompare { class, cast })
        }
        _ => None,
    }
}
