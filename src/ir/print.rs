//! The IR printer: the papers' s-expression style, stable for golden tests.
//!
//! [`print_body`] renders one [`Body`] as plain text. The output depends only on the body
//! and the class names in the table, so it is deterministic and can be compared verbatim.
//!
//! # Layout
//!
//! ```text
//! method samples.Container#swap(Lsamples/Container;)V
//!   param this: a samples.Container
//!   param c: a samples.Container
//!   local e: a java.lang.Object
//!   local s0: a
//! B0 (pc 0):
//!   handler java.lang.NullPointerException -> B3 (e := exception)
//!       1: (if (== c null) B2 B1)
//! B1 (pc 4):
//!       5: (s0 := (this $ data))
//!       8: (this $ data := s0)
//!      12: (goto B2)
//! B2 (pc 13):
//!      13: (return)
//! ```
//!
//! - The header names the method as `pkg.Class#name(descriptor)`.
//! - One line per local, parameters first (`param`), then the others (`local`): the name,
//!   the kind letter (`i` int-like, `j` long, `f` float, `d` double, `a` reference) and the
//!   declared Java type where the body knows it.
//! - One section per block: `B<n> (pc <start>):`, the handlers covering the block in
//!   exception-table order (`handler <class> -> B<n> (<local> := exception)`, `any` for a
//!   catch-all), then one line per statement and a last line for the terminator, each
//!   prefixed by the bytecode offset it came from.
//!
//! # Operands
//!
//! A local prints as its name. Constants: `42` (int), `42L` (long), `1.5f` (float,
//! `NaNf`, `Infinityf`, `-Infinityf`), `1.5d` (double, likewise), `null`, a string literal
//! in double quotes with Rust-style escapes (`"a\n"`), a class literal `pkg.C.class`
//! (`int[].class`). A local id that is not in the body prints as `?L<n>` (never a panic).
//!
//! # Statements and expressions
//!
//! | IR                                   | printed as                                      |
//! |--------------------------------------|-------------------------------------------------|
//! | `Stmt::Assign(x, e)`                 | `(x := e)`                                      |
//! | `Expr::Use(v)`                       | `v`                                             |
//! | `Expr::Binary(op, k, a, b)`          | `(+ a b)`; ops `+ - * / % << >> >>> & \| ^`     |
//! | `Expr::Neg(k, a)`                    | `(neg a)`                                       |
//! | `Expr::Convert(c, a)`                | `(i2l a)`, `(l2i a)`, `(i2b a)`, ... (JVM names)|
//! | `Expr::Compare(k, a, b)`             | `(lcmp a b)`, `(fcmpl a b)`, `(dcmpg a b)`, ... |
//! | `Expr::GetField(x, f)`               | `(x $ f)`                                       |
//! | `Stmt::PutField(x, f, v)`            | `(x $ f := v)`                                  |
//! | `Expr::GetStatic(f)`                 | `(pkg.C $ f)` (the class in place of a receiver)|
//! | `Stmt::PutStatic(f, v)`              | `(pkg.C $ f := v)`                              |
//! | `Expr::New(c)`                       | `(new pkg.C)`                                   |
//! | `Expr::NewArray(t, n)`               | `(newarray int n)`, `(newarray pkg.C[] n)`      |
//! | `Expr::ArrayLength(a)`               | `(length a)`                                    |
//! | `Expr::ArrayLoad(k, a, i)`           | `(a [ i ])`, `(a [ i ] : byte)`                 |
//! | `Stmt::ArrayStore(k, a, i, v)`       | `(a [ i ] := v)`, `(a [ i ] : char := v)`       |
//! | `Expr::InstanceOf(x, t)`             | `(instanceof x pkg.C)`                          |
//! | `Expr::CheckCast` / `Stmt::CheckCast`| `(checkcast x pkg.C)`                           |
//! | `Expr::Invoke` / `Stmt::Invoke`      | `(r @ pkg.C.m(I)I r a1 a2)`, see below          |
//! | `Expr::Concat(args)`                 | `(concat a1 a2)` (invokedynamic concatenation)  |
//! | `Expr::Dynamic(d)`                   | `(dynamic apply(I)Ljava/util/function/... a1)`  |
//! | `Stmt::Monitor(enter, x)`            | `(monitorenter x)`, `(monitorexit x)`           |
//!
//! Kinds that follow from the operands and the assigned local (int vs long arithmetic,
//! int vs reference array elements, ...) are not repeated: each local's kind is in the
//! header. The narrow array element kinds, which the locals cannot show, are spelled out
//! after the index: `: byte` (byte or boolean arrays, `baload`/`bastore`), `: char`,
//! `: short`; likewise `: long`, `: float`, `: double` for those element kinds, so that
//! only int and reference array accesses are unmarked.
//!
//! Calls follow the papers' `(e @ m e)`: the receiver (the first of [`Call::args`]) before
//! `@`, then the method reference `pkg.Owner.name(descriptor)`, then the other arguments.
//! The invoke kind is part of the `@`:
//! `@` (invokevirtual), `@special`, `@interface`, `@static` (no receiver:
//! `(@static pkg.C.max(II)I a b)`). A method reference from an `InterfaceMethodref` whose
//! invoke kind is not `@interface` (a static or private interface method) gets `[itf]`
//! after its descriptor; a non-interface reference used by `@interface` gets `[class]`.
//!
//! # Terminators
//!
//! `(goto B2)`, `(if (< i 4) B1 B2)` (then-block first; relations `== != < >= > <=`; int
//! and reference comparisons look alike, `(if (== c null) B3 B1)`, the operands' kinds tell
//! them apart), `(switch k (1 B2) (5 B3) (default B4))` (cases in the body's order),
//! `(return)`, `(return s0)`, `(throw e)`.

use std::fmt::Write as _;

use crate::classfile::{ClassId, ClassTable};
use crate::ir::{
    ArrayKind, BinOp, Block, Body, Call, CmpKind, Cond, Const, Conv, Expr, FieldRef, Handler, InvokeKind, LocalId,
    MethodRef, Operand, RelOp, Stmt, Terminator,
};

/// Prints a body: header, locals, then every block (see the module documentation).
pub fn print_body(table: &ClassTable, body: &Body) -> String {
    let p = Printer { table, body };
    let mut out = String::new();
    let _ = writeln!(out, "method {}", table.method_display(body.method));
    for (i, l) in body.locals.iter().enumerate() {
        let role = if i < body.param_count { "param" } else { "local" };
        let _ = write!(out, "  {role} {}: {}", l.name, l.kind.letter());
        if let Some(t) = &l.ty {
            let _ = write!(out, " {}", t.java_name());
        }
        out.push('\n');
    }
    for (i, b) in body.blocks.iter().enumerate() {
        p.block(&mut out, i, b);
    }
    out
}

/// Prints one statement as it appears in [`print_body`] (without the pc prefix).
pub fn print_stmt(table: &ClassTable, body: &Body, stmt: &Stmt) -> String {
    Printer { table, body }.stmt(stmt)
}

/// Prints one terminator as it appears in [`print_body`] (without the pc prefix).
pub fn print_terminator(table: &ClassTable, body: &Body, term: &Terminator) -> String {
    Printer { table, body }.term(term)
}

struct Printer<'a> {
    table: &'a ClassTable,
    body: &'a Body,
}

impl Printer<'_> {
    fn block(&self, out: &mut String, i: usize, b: &Block) {
        let _ = writeln!(out, "B{i} (pc {}):", b.start_pc);
        for h in &b.handlers {
            let _ = writeln!(out, "  {}", self.handler(h));
        }
        for ins in &b.instrs {
            let _ = writeln!(out, "  {:>5}: {}", ins.pc, self.stmt(&ins.stmt));
        }
        let _ = writeln!(out, "  {:>5}: {}", b.term_pc, self.term(&b.term));
    }

    fn handler(&self, h: &Handler) -> String {
        let catch = h.catch.map(|c| self.class(c)).unwrap_or_else(|| "any".to_string());
        format!("handler {catch} -> B{} ({} := exception)", h.target.0, self.local(h.exception))
    }

    fn class(&self, c: ClassId) -> String {
        self.table.class(c).java_name()
    }

    fn local(&self, l: LocalId) -> String {
        match self.body.locals.get(l.0 as usize) {
            Some(local) => local.name.clone(),
            None => format!("?L{}", l.0),
        }
    }

    fn op(&self, o: &Operand) -> String {
        match o {
            Operand::Local(l) => self.local(*l),
            Operand::Const(c) => constant(c),
        }
    }

    fn field<'f>(&self, f: &'f FieldRef) -> &'f str {
        &f.name
    }

    fn expr(&self, e: &Expr) -> String {
        match e {
            Expr::Use(o) => self.op(o),
            Expr::Binary(op, _, a, b) => format!("({} {} {})", binop(*op), self.op(a), self.op(b)),
            Expr::Neg(_, a) => format!("(neg {})", self.op(a)),
            Expr::Convert(c, a) => format!("({} {})", conv(*c), self.op(a)),
            Expr::Compare(k, a, b) => format!("({} {} {})", cmp(*k), self.op(a), self.op(b)),
            Expr::GetField(x, f) => format!("({} $ {})", self.op(x), self.field(f)),
            Expr::GetStatic(f) => format!("({} $ {})", self.class(f.owner), self.field(f)),
            Expr::New(c) => format!("(new {})", self.class(*c)),
            Expr::NewArray(t, n) => format!("(newarray {} {})", t.java_name(), self.op(n)),
            Expr::ArrayLength(a) => format!("(length {})", self.op(a)),
            Expr::ArrayLoad(k, a, i) => format!("({} [ {} ]{})", self.op(a), self.op(i), array_kind(*k)),
            Expr::InstanceOf(x, t) => format!("(instanceof {} {})", self.op(x), t.java_name()),
            Expr::CheckCast(x, t) => format!("(checkcast {} {})", self.op(x), t.java_name()),
            Expr::Invoke(c) => self.call(c),
            Expr::Concat(args) => self.list("concat", args),
            Expr::Dynamic(d) => self.list(&format!("dynamic {}{}", d.name, d.desc), &d.args),
        }
    }

    fn stmt(&self, s: &Stmt) -> String {
        match s {
            Stmt::Assign(x, e) => format!("({} := {})", self.local(*x), self.expr(e)),
            Stmt::PutField(x, f, v) => format!("({} $ {} := {})", self.op(x), self.field(f), self.op(v)),
            Stmt::PutStatic(f, v) => format!("({} $ {} := {})", self.class(f.owner), self.field(f), self.op(v)),
            Stmt::ArrayStore(k, a, i, v) => {
                format!("({} [ {} ]{} := {})", self.op(a), self.op(i), array_kind(*k), self.op(v))
            }
            Stmt::Invoke(c) => self.call(c),
            Stmt::CheckCast(x, t) => format!("(checkcast {} {})", self.op(x), t.java_name()),
            Stmt::Monitor(enter, x) => {
                format!("({} {})", if *enter { "monitorenter" } else { "monitorexit" }, self.op(x))
            }
        }
    }

    /// `(head a1 a2 ...)`.
    fn list(&self, head: &str, args: &[Operand]) -> String {
        let mut s = format!("({head}");
        for a in args {
            s.push(' ');
            s.push_str(&self.op(a));
        }
        s.push(')');
        s
    }

    fn method_ref(&self, m: &MethodRef, kind: InvokeKind) -> String {
        let itf = match (m.interface, kind) {
            (true, InvokeKind::Interface) | (false, InvokeKind::Static | InvokeKind::Special | InvokeKind::Virtual) => {
                ""
            }
            (true, _) => "[itf]",
            (false, InvokeKind::Interface) => "[class]",
        };
        format!("{}.{}{}{itf}", self.class(m.owner), m.name, m.desc.descriptor())
    }

    fn call(&self, c: &Call) -> String {
        let at = match c.kind {
            InvokeKind::Virtual => "@",
            InvokeKind::Special => "@special",
            InvokeKind::Interface => "@interface",
            InvokeKind::Static => "@static",
        };
        let mut s = String::from("(");
        let mut args = c.args.iter();
        if c.kind != InvokeKind::Static {
            match args.next() {
                Some(r) => s.push_str(&self.op(r)),
                None => s.push_str("?receiver"),
            }
            s.push(' ');
        }
        s.push_str(at);
        s.push(' ');
        s.push_str(&self.method_ref(&c.method, c.kind));
        for a in args {
            s.push(' ');
            s.push_str(&self.op(a));
        }
        s.push(')');
        s
    }

    fn cond(&self, c: &Cond) -> String {
        match c {
            Cond::Int(r, a, b) | Cond::Ref(r, a, b) => format!("({} {} {})", relop(*r), self.op(a), self.op(b)),
        }
    }

    fn term(&self, t: &Terminator) -> String {
        match t {
            Terminator::Goto(b) => format!("(goto B{})", b.0),
            Terminator::If { cond, then, otherwise } => {
                format!("(if {} B{} B{})", self.cond(cond), then.0, otherwise.0)
            }
            Terminator::Switch { key, cases, default } => {
                let mut s = format!("(switch {}", self.op(key));
                for (k, b) in cases {
                    let _ = write!(s, " ({k} B{})", b.0);
                }
                let _ = write!(s, " (default B{}))", default.0);
                s
            }
            Terminator::Return(None) => "(return)".to_string(),
            Terminator::Return(Some(v)) => format!("(return {})", self.op(v)),
            Terminator::Throw(v) => format!("(throw {})", self.op(v)),
        }
    }
}

fn constant(c: &Const) -> String {
    match c {
        Const::Int(i) => i.to_string(),
        Const::Long(l) => format!("{l}L"),
        Const::Float(f) => float(f64::from(*f), f.is_nan(), &format!("{f:?}"), 'f'),
        Const::Double(d) => float(*d, d.is_nan(), &format!("{d:?}"), 'd'),
        Const::Null => "null".to_string(),
        Const::String(s) => format!("{s:?}"),
        Const::Class(t) => format!("{}.class", t.java_name()),
    }
}

fn float(v: f64, nan: bool, debug: &str, suffix: char) -> String {
    if nan {
        format!("NaN{suffix}")
    } else if v.is_infinite() {
        format!("{}Infinity{suffix}", if v < 0.0 { "-" } else { "" })
    } else {
        format!("{debug}{suffix}")
    }
}

fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::Ushr => ">>>",
        BinOp::And => "&",
        BinOp::Or => "|",
        BinOp::Xor => "^",
    }
}

fn conv(c: Conv) -> &'static str {
    match c {
        Conv::I2L => "i2l",
        Conv::I2F => "i2f",
        Conv::I2D => "i2d",
        Conv::L2I => "l2i",
        Conv::L2F => "l2f",
        Conv::L2D => "l2d",
        Conv::F2I => "f2i",
        Conv::F2L => "f2l",
        Conv::F2D => "f2d",
        Conv::D2I => "d2i",
        Conv::D2L => "d2l",
        Conv::D2F => "d2f",
        Conv::I2B => "i2b",
        Conv::I2C => "i2c",
        Conv::I2S => "i2s",
    }
}

fn cmp(k: CmpKind) -> &'static str {
    match k {
        CmpKind::Lcmp => "lcmp",
        CmpKind::Fcmpl => "fcmpl",
        CmpKind::Fcmpg => "fcmpg",
        CmpKind::Dcmpl => "dcmpl",
        CmpKind::Dcmpg => "dcmpg",
    }
}

fn relop(r: RelOp) -> &'static str {
    match r {
        RelOp::Eq => "==",
        RelOp::Ne => "!=",
        RelOp::Lt => "<",
        RelOp::Ge => ">=",
        RelOp::Gt => ">",
        RelOp::Le => "<=",
    }
}

/// The element-kind marker after an array index: empty for int and reference elements.
fn array_kind(k: ArrayKind) -> &'static str {
    match k {
        ArrayKind::Int | ArrayKind::Ref => "",
        ArrayKind::Long => " : long",
        ArrayKind::Float => " : float",
        ArrayKind::Double => " : double",
        ArrayKind::Byte => " : byte",
        ArrayKind::Char => " : char",
        ArrayKind::Short => " : short",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use crate::classfile::{JType, Kind, MethodDesc, access};
    use crate::ir::{BlockId, Instr, Local};

    fn local(name: &str, kind: Kind, ty: Option<JType>) -> Local {
        Local { name: name.to_string(), kind, ty }
    }

    fn l(i: u32) -> Operand {
        Operand::Local(LocalId(i))
    }

    fn int(i: i32) -> Operand {
        Operand::Const(Const::Int(i))
    }

    fn block(start_pc: u32, instrs: Vec<(u32, Stmt)>, term_pc: u32, term: Terminator) -> Block {
        Block {
            start_pc,
            instrs: instrs.into_iter().map(|(pc, stmt)| Instr { pc, stmt }).collect(),
            term,
            term_pc,
            handlers: Vec::new(),
        }
    }

    /// A table with `samples.Container` (field `data`, method `swap`) and a body for `swap`.
    fn container() -> (ClassTable, Body) {
        let mut t = ClassTable::new();
        let c = t.intern("samples/Container");
        t.class_mut(c).loaded = true;
        let obj = JType::object();
        t.add_field(c, "data".into(), obj.clone(), 0, None);
        let ct = JType::Class("samples/Container".into());
        let m =
            t.add_method(c, "swap".into(), MethodDesc { params: vec![ct.clone()], ret: None }, access::PUBLIC, true);
        let data = FieldRef { owner: c, name: "data".into(), ty: obj.clone() };
        let npe = t.intern("java/lang/NullPointerException");
        let body = Body {
            method: m,
            locals: vec![
                local("this", Kind::Ref, Some(ct.clone())),
                local("c", Kind::Ref, Some(ct)),
                local("e", Kind::Ref, Some(obj)),
                local("s0", Kind::Ref, None),
            ],
            param_count: 2,
            blocks: vec![
                block(
                    0,
                    vec![],
                    1,
                    Terminator::If {
                        cond: Cond::Ref(RelOp::Eq, l(1), Operand::Const(Const::Null)),
                        then: BlockId(2),
                        otherwise: BlockId(1),
                    },
                ),
                Block {
                    handlers: vec![Handler { catch: Some(npe), target: BlockId(3), exception: LocalId(2) }],
                    ..block(
                        4,
                        vec![
                            (5, Stmt::Assign(LocalId(2), Expr::GetField(l(0), data.clone()))),
                            (9, Stmt::Assign(LocalId(3), Expr::GetField(l(1), data.clone()))),
                            (12, Stmt::PutField(l(0), data.clone(), l(3))),
                            (16, Stmt::PutField(l(1), data, l(2))),
                        ],
                        20,
                        Terminator::Goto(BlockId(2)),
                    )
                },
                block(21, vec![], 21, Terminator::Return(None)),
                block(22, vec![], 23, Terminator::Throw(l(2))),
            ],
        };
        (t, body)
    }

    #[test]
    fn prints_swap() {
        let (t, body) = container();
        expect_test::expect![[r#"
            method samples.Container#swap(Lsamples/Container;)V
              param this: a samples.Container
              param c: a samples.Container
              local e: a java.lang.Object
              local s0: a
            B0 (pc 0):
                  1: (if (== c null) B2 B1)
            B1 (pc 4):
              handler java.lang.NullPointerException -> B3 (e := exception)
                  5: (e := (this $ data))
                  9: (s0 := (c $ data))
                 12: (this $ data := s0)
                 16: (c $ data := e)
                 20: (goto B2)
            B2 (pc 21):
                 21: (return)
            B3 (pc 22):
                 23: (throw e)
        "#]]
        .assert_eq(&print_body(&t, &body));
        // Deterministic: printing twice gives the same text.
        assert_eq!(print_body(&t, &body), print_body(&t, &body));
    }

    /// Every expression, statement, constant and terminator form, one per line.
    #[test]
    fn prints_every_variant() {
        let (t, mut body) = container();
        let chain = t.intern("samples/Chain");
        let iface = t.intern("java/util/List");
        let c = t.method(body.method).owner;
        body.locals = vec![
            local("a", Kind::Int, Some(JType::Int)),
            local("b", Kind::Long, None),
            local("x", Kind::Ref, None),
            local("arr", Kind::Ref, Some(JType::Array(Box::new(JType::Int)))),
            local("f", Kind::Float, None),
            local("d", Kind::Double, None),
        ];
        body.param_count = 1;
        let mref = |owner, name: &str, d: &str, interface| MethodRef {
            owner,
            name: name.into(),
            desc: MethodDesc::parse(d).unwrap(),
            interface,
        };
        let max = FieldRef { owner: chain, name: "MAX".into(), ty: JType::Int };
        let mut stmts: Vec<Stmt> = Vec::new();
        let assign = |e: Expr| Stmt::Assign(LocalId(0), e);
        for op in [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Div,
            BinOp::Rem,
            BinOp::Shl,
            BinOp::Shr,
            BinOp::Ushr,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
        ] {
            stmts.push(assign(Expr::Binary(op, Kind::Int, l(0), int(3))));
        }
        stmts.push(Stmt::Assign(LocalId(1), Expr::Binary(BinOp::Ushr, Kind::Long, l(1), int(3))));
        stmts.push(assign(Expr::Neg(Kind::Int, l(0))));
        for c in [
            Conv::I2L,
            Conv::I2F,
            Conv::I2D,
            Conv::L2I,
            Conv::L2F,
            Conv::L2D,
            Conv::F2I,
            Conv::F2L,
            Conv::F2D,
            Conv::D2I,
            Conv::D2L,
            Conv::D2F,
            Conv::I2B,
            Conv::I2C,
            Conv::I2S,
        ] {
            stmts.push(assign(Expr::Convert(c, l(0))));
        }
        for k in [CmpKind::Lcmp, CmpKind::Fcmpl, CmpKind::Fcmpg, CmpKind::Dcmpl, CmpKind::Dcmpg] {
            stmts.push(assign(Expr::Compare(k, l(1), Operand::Const(Const::Long(-7)))));
        }
        for k in [
            Const::Float(1.5),
            Const::Float(f32::NAN),
            Const::Float(f32::NEG_INFINITY),
            Const::Double(0.1),
            Const::Double(f64::INFINITY),
            Const::String("a \"b\"\n".into()),
            Const::Class(JType::Class("samples/Chain".into())),
            Const::Class(JType::Array(Box::new(JType::Int))),
            Const::Long(i64::MIN),
            Const::Int(i32::MIN),
        ] {
            stmts.push(Stmt::Assign(LocalId(2), Expr::Use(Operand::Const(k))));
        }
        stmts.push(Stmt::Assign(LocalId(0), Expr::GetStatic(max.clone())));
        stmts.push(Stmt::PutStatic(max, int(10)));
        stmts.push(Stmt::Assign(LocalId(2), Expr::New(chain)));
        stmts.push(Stmt::Assign(LocalId(3), Expr::NewArray(JType::Int, l(0))));
        stmts.push(Stmt::Assign(
            LocalId(2),
            Expr::NewArray(JType::Array(Box::new(JType::Class("samples/Chain".into()))), int(2)),
        ));
        stmts.push(Stmt::Assign(LocalId(0), Expr::ArrayLength(l(3))));
        for k in [
            ArrayKind::Int,
            ArrayKind::Long,
            ArrayKind::Float,
            ArrayKind::Double,
            ArrayKind::Ref,
            ArrayKind::Byte,
            ArrayKind::Char,
            ArrayKind::Short,
        ] {
            stmts.push(Stmt::Assign(LocalId(0), Expr::ArrayLoad(k, l(3), l(0))));
            stmts.push(Stmt::ArrayStore(k, l(3), int(1), l(0)));
        }
        stmts.push(assign(Expr::InstanceOf(l(2), JType::Class("samples/Chain".into()))));
        stmts.push(Stmt::Assign(LocalId(2), Expr::CheckCast(l(2), JType::Array(Box::new(JType::Int)))));
        stmts.push(Stmt::CheckCast(l(2), JType::Class("samples/Chain".into())));
        stmts.push(assign(Expr::Invoke(Call {
            kind: InvokeKind::Virtual,
            method: mref(c, "foo", "(I)I", false),
            args: vec![l(2), l(0), int(1)],
        })));
        stmts.push(Stmt::Invoke(Call {
            kind: InvokeKind::Special,
            method: mref(chain, "<init>", "()V", false),
            args: vec![l(2)],
        }));
        stmts.push(assign(Expr::Invoke(Call {
            kind: InvokeKind::Static,
            method: mref(chain, "max", "(II)I", false),
            args: vec![l(0), int(2)],
        })));
        stmts.push(assign(Expr::Invoke(Call {
            kind: InvokeKind::Interface,
            method: mref(iface, "size", "()I", true),
            args: vec![l(2)],
        })));
        stmts.push(Stmt::Invoke(Call {
            kind: InvokeKind::Static,
            method: mref(iface, "of", "()Ljava/util/List;", true),
            args: vec![],
        }));
        stmts.push(Stmt::Invoke(Call {
            kind: InvokeKind::Interface,
            method: mref(iface, "clear", "()V", false),
            args: vec![l(2)],
        }));
        // A dangling local id prints, it does not panic.
        stmts.push(Stmt::Assign(LocalId(99), Expr::Use(l(98))));
        let rels = [RelOp::Eq, RelOp::Ne, RelOp::Lt, RelOp::Ge, RelOp::Gt, RelOp::Le];
        let mut blocks: Vec<Block> = rels
            .iter()
            .enumerate()
            .map(|(i, r)| {
                block(
                    i as u32,
                    vec![],
                    i as u32,
                    Terminator::If { cond: Cond::Int(*r, l(0), int(0)), then: BlockId(7), otherwise: BlockId(6) },
                )
            })
            .collect();
        blocks.push(block(
            6,
            vec![],
            6,
            Terminator::If {
                cond: Cond::Ref(RelOp::Ne, l(2), Operand::Const(Const::Null)),
                then: BlockId(7),
                otherwise: BlockId(8),
            },
        ));
        blocks.push(Block {
            handlers: vec![Handler { catch: None, target: BlockId(8), exception: LocalId(2) }],
            ..block(
                7,
                stmts.into_iter().enumerate().map(|(i, s)| (100 + i as u32, s)).collect(),
                200,
                Terminator::Switch {
                    key: l(0),
                    cases: vec![(-1, BlockId(8)), (1, BlockId(9)), (5, BlockId(10))],
                    default: BlockId(11),
                },
            )
        });
        blocks.push(block(201, vec![], 201, Terminator::Return(Some(l(0)))));
        blocks.push(block(202, vec![], 202, Terminator::Return(Some(Operand::Const(Const::Null)))));
        blocks.push(block(203, vec![], 203, Terminator::Throw(l(2))));
        blocks.push(block(204, vec![], 204, Terminator::Switch { key: l(0), cases: vec![], default: BlockId(0) }));
        body.blocks = blocks;
        expect_test::expect![[r#"
            method samples.Container#swap(Lsamples/Container;)V
              param a: i int
              local b: j
              local x: a
              local arr: a int[]
              local f: f
              local d: d
            B0 (pc 0):
                  0: (if (== a 0) B7 B6)
            B1 (pc 1):
                  1: (if (!= a 0) B7 B6)
            B2 (pc 2):
                  2: (if (< a 0) B7 B6)
            B3 (pc 3):
                  3: (if (>= a 0) B7 B6)
            B4 (pc 4):
                  4: (if (> a 0) B7 B6)
            B5 (pc 5):
                  5: (if (<= a 0) B7 B6)
            B6 (pc 6):
                  6: (if (!= x null) B7 B8)
            B7 (pc 7):
              handler any -> B8 (x := exception)
                100: (a := (+ a 3))
                101: (a := (- a 3))
                102: (a := (* a 3))
                103: (a := (/ a 3))
                104: (a := (% a 3))
                105: (a := (<< a 3))
                106: (a := (>> a 3))
                107: (a := (>>> a 3))
                108: (a := (& a 3))
                109: (a := (| a 3))
                110: (a := (^ a 3))
                111: (b := (>>> b 3))
                112: (a := (neg a))
                113: (a := (i2l a))
                114: (a := (i2f a))
                115: (a := (i2d a))
                116: (a := (l2i a))
                117: (a := (l2f a))
                118: (a := (l2d a))
                119: (a := (f2i a))
                120: (a := (f2l a))
                121: (a := (f2d a))
                122: (a := (d2i a))
                123: (a := (d2l a))
                124: (a := (d2f a))
                125: (a := (i2b a))
                126: (a := (i2c a))
                127: (a := (i2s a))
                128: (a := (lcmp b -7L))
                129: (a := (fcmpl b -7L))
                130: (a := (fcmpg b -7L))
                131: (a := (dcmpl b -7L))
                132: (a := (dcmpg b -7L))
                133: (x := 1.5f)
                134: (x := NaNf)
                135: (x := -Infinityf)
                136: (x := 0.1d)
                137: (x := Infinityd)
                138: (x := "a \"b\"\n")
                139: (x := samples.Chain.class)
                140: (x := int[].class)
                141: (x := -9223372036854775808L)
                142: (x := -2147483648)
                143: (a := (samples.Chain $ MAX))
                144: (samples.Chain $ MAX := 10)
                145: (x := (new samples.Chain))
                146: (arr := (newarray int a))
                147: (x := (newarray samples.Chain[] 2))
                148: (a := (length arr))
                149: (a := (arr [ a ]))
                150: (arr [ 1 ] := a)
                151: (a := (arr [ a ] : long))
                152: (arr [ 1 ] : long := a)
                153: (a := (arr [ a ] : float))
                154: (arr [ 1 ] : float := a)
                155: (a := (arr [ a ] : double))
                156: (arr [ 1 ] : double := a)
                157: (a := (arr [ a ]))
                158: (arr [ 1 ] := a)
                159: (a := (arr [ a ] : byte))
                160: (arr [ 1 ] : byte := a)
                161: (a := (arr [ a ] : char))
                162: (arr [ 1 ] : char := a)
                163: (a := (arr [ a ] : short))
                164: (arr [ 1 ] : short := a)
                165: (a := (instanceof x samples.Chain))
                166: (x := (checkcast x int[]))
                167: (checkcast x samples.Chain)
                168: (a := (x @ samples.Container.foo(I)I a 1))
                169: (x @special samples.Chain.<init>()V)
                170: (a := (@static samples.Chain.max(II)I a 2))
                171: (a := (x @interface java.util.List.size()I))
                172: (@static java.util.List.of()Ljava/util/List;[itf])
                173: (x @interface java.util.List.clear()V[class])
                174: (?L99 := ?L98)
                200: (switch a (-1 B8) (1 B9) (5 B10) (default B11))
            B8 (pc 201):
                201: (return a)
            B9 (pc 202):
                202: (return null)
            B10 (pc 203):
                203: (throw x)
            B11 (pc 204):
                204: (switch a (default B0))
        "#]]
        .assert_eq(&print_body(&t, &body));
    }
}
