//! The JDK classes the machine knows without a class path: their names, superclass chain,
//! and the fields the models keep in them.
//!
//! The class table installs these as phantoms (no code); [`super::Model`]s give their
//! behaviour. Knowing the hierarchy is what makes `catch (RuntimeException e)` match a
//! `NullPointerException` raised by the machine.

/// (class, superclass) pairs, parents before children.
pub const HIERARCHY: &[(&str, &str)] = &[
    ("java/lang/Throwable", "java/lang/Object"),
    ("java/lang/Exception", "java/lang/Throwable"),
    ("java/lang/Error", "java/lang/Throwable"),
    ("java/lang/RuntimeException", "java/lang/Exception"),
    ("java/lang/NullPointerException", "java/lang/RuntimeException"),
    ("java/lang/ArithmeticException", "java/lang/RuntimeException"),
    ("java/lang/IndexOutOfBoundsException", "java/lang/RuntimeException"),
    ("java/lang/ArrayIndexOutOfBoundsException", "java/lang/IndexOutOfBoundsException"),
    ("java/lang/StringIndexOutOfBoundsException", "java/lang/IndexOutOfBoundsException"),
    ("java/lang/NegativeArraySizeException", "java/lang/RuntimeException"),
    ("java/lang/ClassCastException", "java/lang/RuntimeException"),
    ("java/lang/ArrayStoreException", "java/lang/RuntimeException"),
    ("java/lang/IllegalArgumentException", "java/lang/RuntimeException"),
    ("java/lang/IllegalStateException", "java/lang/RuntimeException"),
    ("java/lang/UnsupportedOperationException", "java/lang/RuntimeException"),
    ("java/util/NoSuchElementException", "java/lang/RuntimeException"),
    ("java/util/ConcurrentModificationException", "java/lang/RuntimeException"),
    ("java/lang/CloneNotSupportedException", "java/lang/Exception"),
    ("java/lang/AssertionError", "java/lang/Error"),
    ("java/lang/StackOverflowError", "java/lang/Error"),
    ("java/lang/Number", "java/lang/Object"),
    ("java/lang/Integer", "java/lang/Number"),
    ("java/lang/Long", "java/lang/Number"),
    ("java/lang/Short", "java/lang/Number"),
    ("java/lang/Byte", "java/lang/Number"),
    ("java/lang/Character", "java/lang/Object"),
    ("java/lang/Boolean", "java/lang/Object"),
    ("java/lang/String", "java/lang/Object"),
    ("java/lang/Math", "java/lang/Object"),
    ("java/lang/StringBuilder", "java/lang/Object"),
    ("java/lang/Class", "java/lang/Object"),
    ("java/util/Objects", "java/lang/Object"),
    ("java/io/PrintStream", "java/lang/Object"),
];

/// Final JDK classes (no subclass can exist).
pub const FINAL: &[&str] = &[
    "java/lang/Integer",
    "java/lang/Long",
    "java/lang/Short",
    "java/lang/Byte",
    "java/lang/Character",
    "java/lang/Boolean",
    "java/lang/String",
    "java/lang/Math",
    "java/lang/StringBuilder",
    "java/lang/Class",
    "java/util/Objects",
];

/// Fields the library models keep in JDK objects (exception messages, boxed values):
/// (class, field, descriptor).
pub const FIELDS: &[(&str, &str, &str)] = &[
    ("java/lang/Throwable", "detailMessage", "Ljava/lang/String;"),
    ("java/lang/Throwable", "cause", "Ljava/lang/Throwable;"),
    ("java/lang/Integer", "value", "I"),
    ("java/lang/Long", "value", "J"),
    ("java/lang/Short", "value", "S"),
    ("java/lang/Byte", "value", "B"),
    ("java/lang/Character", "value", "C"),
    ("java/lang/Boolean", "value", "Z"),
    // A string: its length (-1: characters not modelled) and `MAX_STRING_CHARS` characters.
    ("java/lang/String", "count", "I"),
    ("java/lang/String", "c0", "C"),
    ("java/lang/String", "c1", "C"),
    ("java/lang/String", "c2", "C"),
    ("java/lang/String", "c3", "C"),
    ("java/lang/String", "c4", "C"),
    ("java/lang/String", "c5", "C"),
    ("java/lang/String", "c6", "C"),
    ("java/lang/String", "c7", "C"),
];

/// Interfaces of the JDK that subject code commonly implements.
pub const INTERFACES: &[&str] = &[
    "java/lang/Comparable",
    "java/lang/Cloneable",
    "java/io/Serializable",
    "java/lang/Iterable",
    "java/util/Iterator",
];

/// The JDK interfaces the phantom classes implement: (class, interface).
pub const IMPLEMENTS: &[(&str, &str)] = &[
    ("java/lang/Integer", "java/lang/Comparable"),
    ("java/lang/Long", "java/lang/Comparable"),
    ("java/lang/Short", "java/lang/Comparable"),
    ("java/lang/Byte", "java/lang/Comparable"),
    ("java/lang/Character", "java/lang/Comparable"),
    ("java/lang/Boolean", "java/lang/Comparable"),
    ("java/lang/String", "java/lang/Comparable"),
    ("java/lang/Number", "java/io/Serializable"),
    ("java/lang/Character", "java/io/Serializable"),
    ("java/lang/Boolean", "java/io/Serializable"),
    ("java/lang/String", "java/io/Serializable"),
    ("java/lang/Throwable", "java/io/Serializable"),
];

/// The instance methods the phantom classes declare, so that a call on a symbolic receiver
/// selects by the receiver's class (`key.hashCode()` on an Integer runs Integer's model,
/// on a class of the class path its own method): (class, name, descriptor, abstract).
pub const METHODS: &[(&str, &str, &str, bool)] = &[
    ("java/lang/Object", "hashCode", "()I", false),
    ("java/lang/Object", "equals", "(Ljava/lang/Object;)Z", false),
    ("java/lang/Object", "toString", "()Ljava/lang/String;", false),
    ("java/lang/Comparable", "compareTo", "(Ljava/lang/Object;)I", true),
    ("java/lang/Integer", "hashCode", "()I", false),
    ("java/lang/Integer", "equals", "(Ljava/lang/Object;)Z", false),
    ("java/lang/Integer", "toString", "()Ljava/lang/String;", false),
    ("java/lang/Integer", "compareTo", "(Ljava/lang/Object;)I", false),
    ("java/lang/Integer", "compareTo", "(Ljava/lang/Integer;)I", false),
    ("java/lang/Long", "equals", "(Ljava/lang/Object;)Z", false),
    ("java/lang/Long", "compareTo", "(Ljava/lang/Object;)I", false),
    ("java/lang/Long", "compareTo", "(Ljava/lang/Long;)I", false),
    ("java/lang/Short", "hashCode", "()I", false),
    ("java/lang/Short", "equals", "(Ljava/lang/Object;)Z", false),
    ("java/lang/Byte", "hashCode", "()I", false),
    ("java/lang/Byte", "equals", "(Ljava/lang/Object;)Z", false),
    ("java/lang/Character", "hashCode", "()I", false),
    ("java/lang/Character", "equals", "(Ljava/lang/Object;)Z", false),
    ("java/lang/String", "hashCode", "()I", false),
    ("java/lang/String", "equals", "(Ljava/lang/Object;)Z", false),
    ("java/lang/String", "toString", "()Ljava/lang/String;", false),
    ("java/lang/String", "compareTo", "(Ljava/lang/Object;)I", false),
    ("java/lang/String", "compareTo", "(Ljava/lang/String;)I", false),
    ("java/lang/String", "length", "()I", false),
    ("java/lang/String", "isEmpty", "()Z", false),
    ("java/lang/String", "charAt", "(I)C", false),
];
