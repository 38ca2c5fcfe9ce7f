//! The Javalite-like IR: typed locals, basic blocks, explicit control flow, no operand stack.
//!
//! One [`Body`] per method. Parameters come first among the locals (`this` is local 0 of an
//! instance method). Every statement and terminator keeps the bytecode offset (`pc`) it came
//! from, so that errors, program decisions and reports can point back at the bytecode.
//!
//! Heap operations are exactly these: `new`, field read/write, static read/write, reference
//! comparison (`If` with [`Cond::Ref`]), array new/load/store/length, `instanceof` and
//! `checkcast`. Calls are symbolic [`MethodRef`]s, resolved against the class table by the
//! machine.

pub mod print;

use crate::classfile::{ClassId, JType, Kind, MethodDesc, MethodId};

/// Index of a local (parameters, JVM locals and former stack slots) in a [`Body`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalId(pub u32);

/// Index of a basic block in a [`Body`]. Block 0 is the entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

/// A local variable of the IR.
#[derive(Debug, Clone, PartialEq)]
pub struct Local {
    /// Printable, unique within the body: `this`, a source name from the LocalVariableTable,
    /// `v3` (JVM slot 3), `s0` (operand stack depth 0); a kind suffix (`v3j`) disambiguates
    /// a slot reused with another kind.
    pub name: String,
    pub kind: Kind,
    /// The declared type, where known (parameters and LocalVariableTable entries).
    pub ty: Option<JType>,
}

/// A constant operand.
#[derive(Debug, Clone, PartialEq)]
pub enum Const {
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    Null,
    /// A string literal (`ldc "..."`); the machine models it as an opaque non-null object.
    String(String),
    /// A class literal (`ldc Foo.class`).
    Class(JType),
}

/// An operand: a local or a constant.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    Local(LocalId),
    Const(Const),
}

/// Arithmetic and bitwise binary operators. Shifts mask their distance as the JVM does
/// (`& 31` for int, `& 63` for long); `Div`/`Rem` truncate toward zero (JLS §15.17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    Ushr,
    And,
    Or,
    Xor,
}

/// Primitive conversions (JVMS §2.11.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Conv {
    I2L,
    I2F,
    I2D,
    L2I,
    L2F,
    L2D,
    F2I,
    F2L,
    F2D,
    D2I,
    D2L,
    D2F,
    I2B,
    I2C,
    I2S,
}

/// Three-way comparisons that push -1/0/1 (`lcmp`, `fcmpl`, `fcmpg`, `dcmpl`, `dcmpg`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpKind {
    Lcmp,
    Fcmpl,
    Fcmpg,
    Dcmpl,
    Dcmpg,
}

/// Relational operators of conditional branches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RelOp {
    Eq,
    Ne,
    Lt,
    Ge,
    Gt,
    Le,
}

/// The element kind of an array access (`iaload` → Int, `baload` → Byte, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArrayKind {
    Int,
    Long,
    Float,
    Double,
    Ref,
    /// `baload`/`bastore`: byte or boolean arrays (stored as a byte, loaded sign-extended).
    Byte,
    Char,
    Short,
}

/// The four invoke instructions (`invokedynamic` becomes [`Expr::Concat`], the `new` of a
/// lambda class (`LambdaMetafactory`) or [`Expr::Dynamic`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InvokeKind {
    Static,
    Special,
    Virtual,
    Interface,
}

/// A symbolic field reference, as in the constant pool; resolved by the machine.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldRef {
    /// The class named in the instruction (resolution may find the field in a superclass).
    pub owner: ClassId,
    pub name: String,
    pub ty: JType,
}

/// A symbolic method reference, as in the constant pool.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodRef {
    pub owner: ClassId,
    pub name: String,
    pub desc: MethodDesc,
    /// Whether the constant pool entry is an `InterfaceMethodref`.
    pub interface: bool,
}

/// A call: the receiver (if any) is the first argument.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub kind: InvokeKind,
    pub method: MethodRef,
    pub args: Vec<Operand>,
}

/// The right-hand side of an assignment.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Use(Operand),
    /// Arithmetic on two operands of the given kind (Int, Long, Float or Double).
    Binary(BinOp, Kind, Operand, Operand),
    Neg(Kind, Operand),
    Convert(Conv, Operand),
    /// -1/0/1 comparison of two longs, floats or doubles.
    Compare(CmpKind, Operand, Operand),
    /// `(x $ f)`: read an instance field.
    GetField(Operand, FieldRef),
    /// Read a static field.
    GetStatic(FieldRef),
    /// `(new C)`: allocate an object without running a constructor (the `<init>` call follows).
    New(ClassId),
    /// A new array with this element type and length.
    NewArray(JType, Operand),
    ArrayLength(Operand),
    /// `a[i]`.
    ArrayLoad(ArrayKind, Operand, Operand),
    /// 1 if the operand is a non-null instance of the type, else 0.
    InstanceOf(Operand, JType),
    /// The operand itself, after checking it is null or an instance of the type.
    CheckCast(Operand, JType),
    /// `(e @ m e)`: a call whose result is assigned.
    Invoke(Call),
    /// `invokedynamic` string concatenation (`makeConcatWithConstants`): a new non-null
    /// `String` built from the operands (its characters are not modelled).
    Concat(Vec<Operand>),
    /// Any other `invokedynamic` call site (an unknown bootstrap method, or a lambda or
    /// method reference the lowering cannot turn into a class of its own): the machine cuts
    /// the trace that reaches it, naming the call site and why.
    Dynamic(Dynamic),
}

/// An `invokedynamic` call site other than string concatenation.
#[derive(Debug, Clone, PartialEq)]
pub struct Dynamic {
    /// The call site's name (the functional interface method, e.g. `apply`).
    pub name: String,
    pub desc: MethodDesc,
    pub args: Vec<Operand>,
    /// Why the call site is not lowered (`bootstrap method ...`, or what a lambda needs).
    pub why: String,
}

/// A statement (no control flow).
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// `(x := e)`.
    Assign(LocalId, Expr),
    /// `(x $ f := e)`.
    PutField(Operand, FieldRef, Operand),
    PutStatic(FieldRef, Operand),
    /// `a[i] := v`.
    ArrayStore(ArrayKind, Operand, Operand, Operand),
    /// A call whose result (if any) is discarded.
    Invoke(Call),
    /// `checkcast` whose result is not kept (the value stays where it was).
    CheckCast(Operand, JType),
    /// `monitorenter` (true) / `monitorexit` (false): a null check only, since a test runs
    /// one thread and javac's code always releases what it takes.
    Monitor(bool, Operand),
}

/// A statement with the bytecode offset it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Instr {
    pub pc: u32,
    pub stmt: Stmt,
}

/// The condition of a two-way branch.
#[derive(Debug, Clone, PartialEq)]
pub enum Cond {
    /// Signed comparison of two ints (`if_icmp*`, and `if*` against the constant 0).
    Int(RelOp, Operand, Operand),
    /// Reference (in)equality (`if_acmp*`, and `ifnull`/`ifnonnull` against `Const::Null`).
    /// Only `RelOp::Eq` and `RelOp::Ne` occur.
    Ref(RelOp, Operand, Operand),
}

/// How a block ends.
#[derive(Debug, Clone, PartialEq)]
pub enum Terminator {
    Goto(BlockId),
    If {
        cond: Cond,
        then: BlockId,
        otherwise: BlockId,
    },
    /// `tableswitch`/`lookupswitch`: cases sorted by key.
    Switch {
        key: Operand,
        cases: Vec<(i32, BlockId)>,
        default: BlockId,
    },
    Return(Option<Operand>),
    Throw(Operand),
}

/// An exception handler covering a block: if an instruction of the block throws an
/// exception that is an instance of `catch` (any exception if `None`), the exception is
/// stored into `exception` and control goes to `target`.
#[derive(Debug, Clone, PartialEq)]
pub struct Handler {
    pub catch: Option<ClassId>,
    pub target: BlockId,
    pub exception: LocalId,
}

/// A basic block: straight-line statements, then one terminator.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// Bytecode offset of the block's first instruction.
    pub start_pc: u32,
    pub instrs: Vec<Instr>,
    pub term: Terminator,
    /// Bytecode offset of the instruction that produced the terminator.
    pub term_pc: u32,
    /// Handlers covering every instruction of this block, in exception-table order
    /// (the first that matches wins).
    pub handlers: Vec<Handler>,
}

/// A lowered method body.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    pub method: MethodId,
    pub locals: Vec<Local>,
    /// The first `param_count` locals are the parameters (`this` first if not static).
    pub param_count: usize,
    pub blocks: Vec<Block>,
}

impl Body {
    pub fn local(&self, id: LocalId) -> &Local {
        &self.locals[id.0 as usize]
    }
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.0 as usize]
    }
    /// The parameter locals, `this` first for instance methods.
    pub fn params(&self) -> impl Iterator<Item = LocalId> {
        (0..self.param_count as u32).map(LocalId)
    }
}
