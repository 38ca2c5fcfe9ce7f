//! Straight-line instructions: one small handler per opcode family, dispatched from [`Lowerer::step`].

use cafebabe::bytecode::{Opcode, PrimitiveArrayType};
use cafebabe::constant_pool::{InvokeDynamic, LiteralConstant, Loadable, MemberRef, ObjectArrayType};

use super::method::Lowerer;
use crate::classfile::{JType, Kind, parse};
use crate::ir::{
    ArrayKind, BinOp, Call, CmpKind, Const, Conv, Dynamic, Expr, FieldRef, InvokeKind, MethodRef, Operand, Stmt,
};
use crate::{Error, Result};

impl Lowerer<'_> {
    /// Lowers one instruction that does not end its block.
    pub(super) fn step(&mut self, op: &Opcode<'_>) -> Result<()> {
        use Opcode as O;
        match op {
            O::Nop => Ok(()),
            O::AconstNull
            | O::IconstM1
            | O::Iconst0
            | O::Iconst1
            | O::Iconst2
            | O::Iconst3
            | O::Iconst4
            | O::Iconst5
            | O::Lconst0
            | O::Lconst1
            | O::Fconst0
            | O::Fconst1
            | O::Fconst2
            | O::Dconst0
            | O::Dconst1
            | O::Bipush(_)
            | O::Sipush(_) => self.constant(op),
            O::Ldc(l) | O::LdcW(l) | O::Ldc2W(l) => self.ldc(op, l),
            O::Iload(n) => self.load(*n, Kind::Int),
            O::Lload(n) => self.load(*n, Kind::Long),
            O::Fload(n) => self.load(*n, Kind::Float),
            O::Dload(n) => self.load(*n, Kind::Double),
            O::Aload(n) => self.load(*n, Kind::Ref),
            O::Istore(n) => self.store(op, *n, Kind::Int),
            O::Lstore(n) => self.store(op, *n, Kind::Long),
            O::Fstore(n) => self.store(op, *n, Kind::Float),
            O::Dstore(n) => self.store(op, *n, Kind::Double),
            O::Astore(n) => self.store(op, *n, Kind::Ref),
            O::Iinc(n, c) => self.iinc(op, *n, *c),
            O::Pop | O::Pop2 | O::Dup | O::DupX1 | O::DupX2 | O::Dup2 | O::Dup2X1 | O::Dup2X2 | O::Swap => {
                self.stack_op(op)
            }
            O::I2l
            | O::I2f
            | O::I2d
            | O::L2i
            | O::L2f
            | O::L2d
            | O::F2i
            | O::F2l
            | O::F2d
            | O::D2i
            | O::D2l
            | O::D2f
            | O::I2b
            | O::I2c
            | O::I2s => self.convert(op),
            O::Lcmp | O::Fcmpl | O::Fcmpg | O::Dcmpl | O::Dcmpg => self.compare(op),
            O::Ineg | O::Lneg | O::Fneg | O::Dneg => self.negate(op),
            O::Getfield(m) | O::Getstatic(m) | O::Putfield(m) | O::Putstatic(m) => self.field(op, m),
            O::New(c) => {
                let id = self.table.intern(c);
                self.buf.push_expr(&mut self.locals, Expr::New(id), Kind::Ref);
                Ok(())
            }
            O::Newarray(_) | O::Anewarray(_) => self.new_array(op),
            O::Arraylength => {
                let a = self.pop_kind(op, Kind::Ref)?;
                self.buf.push_expr(&mut self.locals, Expr::ArrayLength(a), Kind::Int);
                Ok(())
            }
            O::Checkcast(t) | O::Instanceof(t) => self.type_test(op, t),
            O::Invokestatic(m) => self.invoke(op, InvokeKind::Static, m),
            O::Invokespecial(m) => self.invoke(op, InvokeKind::Special, m),
            O::Invokevirtual(m) => self.invoke(op, InvokeKind::Virtual, m),
            O::Invokeinterface(m, _) => self.invoke(op, InvokeKind::Interface, m),
            O::Invokedynamic(d) => self.invoke_dynamic(op, d),
            O::Monitorenter | O::Monitorexit => {
                let o = self.pop_kind(op, Kind::Ref)?;
                self.buf.emit(Stmt::Monitor(matches!(op, O::Monitorenter), o));
                Ok(())
            }
            O::Multianewarray(..) => Err(self.unsupported(op, "multi-dimensional array creation")),
            O::Jsr(_) | O::Ret(_) => Err(self.unsupported(op, "subroutines (jsr/ret, pre-Java-6 finally)")),
            O::Breakpoint | O::Impdep1 | O::Impdep2 => Err(self.unsupported(op, "reserved opcode")),
            _ => {
                if let Some((kind, ak)) = array_load_kind(op) {
                    let i = self.pop_kind(op, Kind::Int)?;
                    let a = self.pop_kind(op, Kind::Ref)?;
                    self.buf.push_expr(&mut self.locals, Expr::ArrayLoad(ak, a, i), kind);
                    Ok(())
                } else if let Some((kind, ak)) = array_store_kind(op) {
                    let v = self.pop_kind(op, kind)?;
                    let i = self.pop_kind(op, Kind::Int)?;
                    let a = self.pop_kind(op, Kind::Ref)?;
                    self.buf.emit(Stmt::ArrayStore(ak, a, i, v));
                    Ok(())
                } else if let Some((bop, kind)) = binary_op(op) {
                    let rk = if matches!(bop, BinOp::Shl | BinOp::Shr | BinOp::Ushr) { Kind::Int } else { kind };
                    let b = self.pop_kind(op, rk)?;
                    let a = self.pop_kind(op, kind)?;
                    self.buf.push_expr(&mut self.locals, Expr::Binary(bop, kind, a, b), kind);
                    Ok(())
                } else {
                    Err(self.malformed(op, "this instruction cannot appear inside a block"))
                }
            }
        }
    }

    fn constant(&mut self, op: &Opcode<'_>) -> Result<()> {
        use Opcode as O;
        let (c, kind) = match op {
            O::AconstNull => (Const::Null, Kind::Ref),
            O::IconstM1 => (Const::Int(-1), Kind::Int),
            O::Iconst0 => (Const::Int(0), Kind::Int),
            O::Iconst1 => (Const::Int(1), Kind::Int),
            O::Iconst2 => (Const::Int(2), Kind::Int),
            O::Iconst3 => (Const::Int(3), Kind::Int),
            O::Iconst4 => (Const::Int(4), Kind::Int),
            O::Iconst5 => (Const::Int(5), Kind::Int),
            O::Lconst0 => (Const::Long(0), Kind::Long),
            O::Lconst1 => (Const::Long(1), Kind::Long),
            O::Fconst0 => (Const::Float(0.0), Kind::Float),
            O::Fconst1 => (Const::Float(1.0), Kind::Float),
            O::Fconst2 => (Const::Float(2.0), Kind::Float),
            O::Dconst0 => (Const::Double(0.0), Kind::Double),
            O::Dconst1 => (Const::Double(1.0), Kind::Double),
            O::Bipush(b) => (Const::Int(*b as i32), Kind::Int),
            O::Sipush(s) => (Const::Int(*s as i32), Kind::Int),
            _ => return Err(self.malformed(op, "not a constant")),
        };
        self.buf.push(Operand::Const(c), kind);
        Ok(())
    }

    fn ldc(&mut self, op: &Opcode<'_>, l: &Loadable<'_>) -> Result<()> {
        let (c, kind) = match l {
            Loadable::LiteralConstant(LiteralConstant::Integer(i)) => (Const::Int(*i), Kind::Int),
            Loadable::LiteralConstant(LiteralConstant::Long(v)) => (Const::Long(*v), Kind::Long),
            Loadable::LiteralConstant(LiteralConstant::Float(f)) => (Const::Float(*f), Kind::Float),
            Loadable::LiteralConstant(LiteralConstant::Double(d)) => (Const::Double(*d), Kind::Double),
            Loadable::LiteralConstant(LiteralConstant::String(s)) => (Const::String(s.to_string()), Kind::Ref),
            Loadable::LiteralConstant(LiteralConstant::StringBytes(_)) => {
                (Const::String("<undecodable>".to_string()), Kind::Ref)
            }
            Loadable::ClassInfo(name) => {
                let ty = JType::from_class_or_array(name).ok_or_else(|| self.malformed(op, "bad class constant"))?;
                (Const::Class(ty), Kind::Ref)
            }
            Loadable::MethodHandle(_) | Loadable::MethodType(_) | Loadable::Dynamic(_) => {
                return Err(self.unsupported(op, "method handle, method type and dynamic constants"));
            }
        };
        self.buf.push(Operand::Const(c), kind);
        Ok(())
    }

    fn load(&mut self, slot: u16, kind: Kind) -> Result<()> {
        let l = self.locals.var(slot, kind);
        self.buf.push(Operand::Local(l), kind);
        Ok(())
    }

    fn store(&mut self, op: &Opcode<'_>, slot: u16, kind: Kind) -> Result<()> {
        let v = self.pop_kind(op, kind)?;
        let l = self.locals.var(slot, kind);
        self.buf.store(&mut self.locals, l, v);
        Ok(())
    }

    fn iinc(&mut self, _op: &Opcode<'_>, slot: u16, c: i16) -> Result<()> {
        let l = self.locals.var(slot, Kind::Int);
        self.buf.protect(&mut self.locals, l);
        let e = Expr::Binary(BinOp::Add, Kind::Int, Operand::Local(l), Operand::Const(Const::Int(c as i32)));
        self.buf.emit(Stmt::Assign(l, e));
        Ok(())
    }

    /// `pop`, `dup`, `swap` and friends, by the category forms of JVMS §6.5.
    fn stack_op(&mut self, op: &Opcode<'_>) -> Result<()> {
        use Opcode as O;
        let wide = |k: Kind| k.slots() == 2;
        match op {
            O::Pop => {
                self.pop_cat(op, false)?;
            }
            O::Pop2 => {
                let a = self.pop(op)?;
                if !wide(a.kind) {
                    self.pop_cat(op, false)?;
                }
            }
            O::Dup => {
                let a = self.pop_cat(op, false)?;
                self.push_all(&[a.clone(), a]);
            }
            O::DupX1 => {
                let a = self.pop_cat(op, false)?;
                let b = self.pop_cat(op, false)?;
                self.push_all(&[a.clone(), b, a]);
            }
            O::DupX2 => {
                let a = self.pop_cat(op, false)?;
                let b = self.pop(op)?;
                if wide(b.kind) {
                    self.push_all(&[a.clone(), b, a]);
                } else {
                    let c = self.pop_cat(op, false)?;
                    self.push_all(&[a.clone(), c, b, a]);
                }
            }
            O::Dup2 => {
                let a = self.pop(op)?;
                if wide(a.kind) {
                    self.push_all(&[a.clone(), a]);
                } else {
                    let b = self.pop_cat(op, false)?;
                    self.push_all(&[b.clone(), a.clone(), b, a]);
                }
            }
            O::Dup2X1 => {
                let a = self.pop(op)?;
                if wide(a.kind) {
                    let b = self.pop_cat(op, false)?;
                    self.push_all(&[a.clone(), b, a]);
                } else {
                    let b = self.pop_cat(op, false)?;
                    let c = self.pop_cat(op, false)?;
                    self.push_all(&[b.clone(), a.clone(), c, b, a]);
                }
            }
            O::Dup2X2 => {
                let a = self.pop(op)?;
                let b = if wide(a.kind) { None } else { Some(self.pop_cat(op, false)?) };
                let c = self.pop(op)?;
                let d = if wide(c.kind) { None } else { Some(self.pop_cat(op, false)?) };
                let top: Vec<_> = b.into_iter().chain(std::iter::once(a)).collect();
                let below: Vec<_> = d.into_iter().chain(std::iter::once(c)).collect();
                let mut all = top.clone();
                all.extend(below);
                all.extend(top);
                self.push_all(&all);
            }
            O::Swap => {
                let a = self.pop_cat(op, false)?;
                let b = self.pop_cat(op, false)?;
                self.push_all(&[a, b]);
            }
            _ => return Err(self.malformed(op, "not a stack instruction")),
        }
        Ok(())
    }

    fn push_all(&mut self, entries: &[super::frame::Entry]) {
        for e in entries {
            self.buf.push(e.op.clone(), e.kind);
        }
    }

    fn convert(&mut self, op: &Opcode<'_>) -> Result<()> {
        use Opcode as O;
        let (conv, from, to) = match op {
            O::I2l => (Conv::I2L, Kind::Int, Kind::Long),
            O::I2f => (Conv::I2F, Kind::Int, Kind::Float),
            O::I2d => (Conv::I2D, Kind::Int, Kind::Double),
            O::L2i => (Conv::L2I, Kind::Long, Kind::Int),
            O::L2f => (Conv::L2F, Kind::Long, Kind::Float),
            O::L2d => (Conv::L2D, Kind::Long, Kind::Double),
            O::F2i => (Conv::F2I, Kind::Float, Kind::Int),
            O::F2l => (Conv::F2L, Kind::Float, Kind::Long),
            O::F2d => (Conv::F2D, Kind::Float, Kind::Double),
            O::D2i => (Conv::D2I, Kind::Double, Kind::Int),
            O::D2l => (Conv::D2L, Kind::Double, Kind::Long),
            O::D2f => (Conv::D2F, Kind::Double, Kind::Float),
            O::I2b => (Conv::I2B, Kind::Int, Kind::Int),
            O::I2c => (Conv::I2C, Kind::Int, Kind::Int),
            O::I2s => (Conv::I2S, Kind::Int, Kind::Int),
            _ => return Err(self.malformed(op, "not a conversion")),
        };
        let a = self.pop_kind(op, from)?;
        self.buf.push_expr(&mut self.locals, Expr::Convert(conv, a), to);
        Ok(())
    }

    fn compare(&mut self, op: &Opcode<'_>) -> Result<()> {
        use Opcode as O;
        let (k, kind) = match op {
            O::Lcmp => (CmpKind::Lcmp, Kind::Long),
            O::Fcmpl => (CmpKind::Fcmpl, Kind::Float),
            O::Fcmpg => (CmpKind::Fcmpg, Kind::Float),
            O::Dcmpl => (CmpKind::Dcmpl, Kind::Double),
            O::Dcmpg => (CmpKind::Dcmpg, Kind::Double),
            _ => return Err(self.malformed(op, "not a comparison")),
        };
        let b = self.pop_kind(op, kind)?;
        let a = self.pop_kind(op, kind)?;
        self.buf.push_expr(&mut self.locals, Expr::Compare(k, a, b), Kind::Int);
        Ok(())
    }

    fn negate(&mut self, op: &Opcode<'_>) -> Result<()> {
        let kind = match op {
            Opcode::Ineg => Kind::Int,
            Opcode::Lneg => Kind::Long,
            Opcode::Fneg => Kind::Float,
            _ => Kind::Double,
        };
        let a = self.pop_kind(op, kind)?;
        self.buf.push_expr(&mut self.locals, Expr::Neg(kind, a), kind);
        Ok(())
    }

    fn field(&mut self, op: &Opcode<'_>, m: &MemberRef<'_>) -> Result<()> {
        let ty = parse::parse_field_desc(&m.name_and_type.descriptor, &self.origin)?;
        let kind = ty.kind();
        let owner = self.table.intern(&m.class_name);
        let f = FieldRef { owner, name: m.name_and_type.name.to_string(), ty };
        match op {
            Opcode::Getfield(_) => {
                let o = self.pop_kind(op, Kind::Ref)?;
                self.buf.push_expr(&mut self.locals, Expr::GetField(o, f), kind);
            }
            Opcode::Getstatic(_) => self.buf.push_expr(&mut self.locals, Expr::GetStatic(f), kind),
            Opcode::Putfield(_) => {
                let v = self.pop_kind(op, kind)?;
                let o = self.pop_kind(op, Kind::Ref)?;
                self.buf.emit(Stmt::PutField(o, f, v));
            }
            _ => {
                let v = self.pop_kind(op, kind)?;
                self.buf.emit(Stmt::PutStatic(f, v));
            }
        }
        Ok(())
    }

    fn new_array(&mut self, op: &Opcode<'_>) -> Result<()> {
        let elem = match op {
            Opcode::Newarray(p) => primitive_elem(*p),
            Opcode::Anewarray(t) => object_type(t),
            _ => return Err(self.malformed(op, "not an array creation")),
        };
        let n = self.pop_kind(op, Kind::Int)?;
        self.buf.push_expr(&mut self.locals, Expr::NewArray(elem, n), Kind::Ref);
        Ok(())
    }

    fn type_test(&mut self, op: &Opcode<'_>, t: &ObjectArrayType<'_>) -> Result<()> {
        let ty = object_type(t);
        if let JType::Class(c) = &ty {
            self.table.intern(c);
        }
        let o = self.pop_kind(op, Kind::Ref)?;
        if matches!(op, Opcode::Checkcast(_)) {
            // The value stays where it was; only the check is a statement.
            self.buf.emit(Stmt::CheckCast(o.clone(), ty));
            self.buf.push(o, Kind::Ref);
        } else {
            self.buf.push_expr(&mut self.locals, Expr::InstanceOf(o, ty), Kind::Int);
        }
        Ok(())
    }

    fn invoke(&mut self, op: &Opcode<'_>, kind: InvokeKind, m: &MemberRef<'_>) -> Result<()> {
        let desc = parse::parse_method_desc(&m.name_and_type.descriptor, &self.origin)?;
        // Methods invoked on arrays (`clone`, ...) are `Object`'s (JLS §10.7).
        let owner_name = if m.class_name.starts_with('[') { "java/lang/Object" } else { m.class_name.as_ref() };
        let owner = self.table.intern(owner_name);
        let mut args = Vec::with_capacity(desc.params.len() + 1);
        for p in desc.params.iter().rev() {
            args.push(self.pop_kind(op, p.kind())?);
        }
        if kind != InvokeKind::Static {
            args.push(self.pop_kind(op, Kind::Ref)?);
        }
        args.reverse();
        let ret = desc.ret.as_ref().map(|t| t.kind());
        let interface = kind == InvokeKind::Interface;
        let call =
            Call { kind, method: MethodRef { owner, name: m.name_and_type.name.to_string(), desc, interface }, args };
        match ret {
            Some(k) => self.buf.push_expr(&mut self.locals, Expr::Invoke(call), k),
            None => self.buf.emit(Stmt::Invoke(call)),
        }
        Ok(())
    }

    /// `invokedynamic`: string concatenation becomes [`Expr::Concat`], a lambda or method
    /// reference the `new` of its call site's class (`lambda.rs`), any other call site
    /// [`Expr::Dynamic`], which cuts the traces that reach it.
    fn invoke_dynamic(&mut self, op: &Opcode<'_>, d: &InvokeDynamic<'_>) -> Result<()> {
        let desc = parse::parse_method_desc(&d.name_and_type.descriptor, &self.origin)?;
        let mut args = Vec::with_capacity(desc.params.len());
        for p in desc.params.iter().rev() {
            args.push(self.pop_kind(op, p.kind())?);
        }
        args.reverse();
        let name = d.name_and_type.name.to_string();
        let string = matches!(&desc.ret, Some(JType::Class(c)) if c.as_str() == "java/lang/String");
        let e = if string && (name == "makeConcatWithConstants" || name == "makeConcat") {
            Expr::Concat(args)
        } else {
            match self.lambda_site(op, d, &desc)? {
                Ok(site) => {
                    self.new_lambda(site, args);
                    return Ok(());
                }
                Err(why) => Expr::Dynamic(Dynamic { name, desc: desc.clone(), args, why }),
            }
        };
        match desc.ret.as_ref().map(|t| t.kind()) {
            Some(k) => self.buf.push_expr(&mut self.locals, e, k),
            None => {
                let tmp = self.locals.temp(Kind::Int);
                self.buf.emit(Stmt::Assign(tmp, e));
            }
        }
        Ok(())
    }

    /// Pops one entry of any kind.
    pub(super) fn pop(&mut self, op: &Opcode<'_>) -> Result<super::frame::Entry> {
        self.buf.stack.pop().ok_or_else(|| self.malformed(op, "operand stack underflow"))
    }

    /// Pops one entry that must be of category 1 (or 2 if `wide`).
    fn pop_cat(&mut self, op: &Opcode<'_>, wide: bool) -> Result<super::frame::Entry> {
        let e = self.pop(op)?;
        if (e.kind.slots() == 2) != wide {
            return Err(self.malformed(op, "a stack value of the wrong category"));
        }
        Ok(e)
    }

    /// Pops one operand that must be of `kind`.
    pub(super) fn pop_kind(&mut self, op: &Opcode<'_>, kind: Kind) -> Result<Operand> {
        let e = self.pop(op)?;
        if e.kind != kind {
            return Err(self.malformed(op, &format!("expected {kind:?} on the stack, found {:?}", e.kind)));
        }
        Ok(e.op)
    }

    pub(super) fn unsupported(&self, op: &Opcode<'_>, why: &str) -> Error {
        Error::Unsupported { at: self.location(), opcode: opname(op), why: why.to_string() }
    }

    pub(super) fn malformed(&self, op: &Opcode<'_>, why: &str) -> Error {
        Error::Lowering { at: self.location(), opcode: opname(op), why: why.to_string() }
    }
}

/// The JVM mnemonic of an opcode (`if_icmplt`, `invokedynamic`).
pub fn opname(op: &Opcode<'_>) -> String {
    let dbg = format!("{op:?}");
    let head = dbg.split(['(', ' ', '{']).next().unwrap_or("").to_lowercase();
    let fixed = [
        ("ifacmpeq", "if_acmpeq"),
        ("ifacmpne", "if_acmpne"),
        ("ificmpeq", "if_icmpeq"),
        ("ificmpne", "if_icmpne"),
        ("ificmplt", "if_icmplt"),
        ("ificmpge", "if_icmpge"),
        ("ificmpgt", "if_icmpgt"),
        ("ificmple", "if_icmple"),
        ("aconstnull", "aconst_null"),
        ("iconstm1", "iconst_m1"),
        ("dupx1", "dup_x1"),
        ("dupx2", "dup_x2"),
        ("dup2x1", "dup2_x1"),
        ("dup2x2", "dup2_x2"),
        ("ldcw", "ldc_w"),
        ("ldc2w", "ldc2_w"),
    ];
    if let Some((_, f)) = fixed.iter().find(|(k, _)| *k == head) {
        return f.to_string();
    }
    for p in ["iconst", "lconst", "fconst", "dconst"] {
        if let Some(n) = head.strip_prefix(p) {
            return format!("{p}_{n}");
        }
    }
    head
}

fn primitive_elem(p: PrimitiveArrayType) -> JType {
    match p {
        PrimitiveArrayType::Boolean => JType::Boolean,
        PrimitiveArrayType::Char => JType::Char,
        PrimitiveArrayType::Float => JType::Float,
        PrimitiveArrayType::Double => JType::Double,
        PrimitiveArrayType::Byte => JType::Byte,
        PrimitiveArrayType::Short => JType::Short,
        PrimitiveArrayType::Int => JType::Int,
        PrimitiveArrayType::Long => JType::Long,
    }
}

/// The type named by a class constant (`checkcast`, `instanceof`, `anewarray`).
fn object_type(t: &ObjectArrayType<'_>) -> JType {
    match t {
        ObjectArrayType::ArrayType(d) => parse::field_type(d),
        ObjectArrayType::BinaryName(n) => JType::Class(n.to_string()),
    }
}

fn array_load_kind(op: &Opcode<'_>) -> Option<(Kind, ArrayKind)> {
    Some(match op {
        Opcode::Iaload => (Kind::Int, ArrayKind::Int),
        Opcode::Laload => (Kind::Long, ArrayKind::Long),
        Opcode::Faload => (Kind::Float, ArrayKind::Float),
        Opcode::Daload => (Kind::Double, ArrayKind::Double),
        Opcode::Aaload => (Kind::Ref, ArrayKind::Ref),
        Opcode::Baload => (Kind::Int, ArrayKind::Byte),
        Opcode::Caload => (Kind::Int, ArrayKind::Char),
        Opcode::Saload => (Kind::Int, ArrayKind::Short),
        _ => return None,
    })
}

fn array_store_kind(op: &Opcode<'_>) -> Option<(Kind, ArrayKind)> {
    Some(match op {
        Opcode::Iastore => (Kind::Int, ArrayKind::Int),
        Opcode::Lastore => (Kind::Long, ArrayKind::Long),
        Opcode::Fastore => (Kind::Float, ArrayKind::Float),
        Opcode::Dastore => (Kind::Double, ArrayKind::Double),
        Opcode::Aastore => (Kind::Ref, ArrayKind::Ref),
        Opcode::Bastore => (Kind::Int, ArrayKind::Byte),
        Opcode::Castore => (Kind::Int, ArrayKind::Char),
        Opcode::Sastore => (Kind::Int, ArrayKind::Short),
        _ => return None,
    })
}

fn binary_op(op: &Opcode<'_>) -> Option<(BinOp, Kind)> {
    use BinOp::*;
    use Opcode as O;
    Some(match op {
        O::Iadd => (Add, Kind::Int),
        O::Isub => (Sub, Kind::Int),
        O::Imul => (Mul, Kind::Int),
        O::Idiv => (Div, Kind::Int),
        O::Irem => (Rem, Kind::Int),
        O::Ishl => (Shl, Kind::Int),
        O::Ishr => (Shr, Kind::Int),
        O::Iushr => (Ushr, Kind::Int),
        O::Iand => (And, Kind::Int),
        O::Ior => (Or, Kind::Int),
        O::Ixor => (Xor, Kind::Int),
        O::Ladd => (Add, Kind::Long),
        O::Lsub => (Sub, Kind::Long),
        O::Lmul => (Mul, Kind::Long),
        O::Ldiv => (Div, Kind::Long),
        O::Lrem => (Rem, Kind::Long),
        O::Lshl => (Shl, Kind::Long),
        O::Lshr => (Shr, Kind::Long),
        O::Lushr => (Ushr, Kind::Long),
        O::Land => (And, Kind::Long),
        O::Lor => (Or, Kind::Long),
        O::Lxor => (Xor, Kind::Long),
        O::Fadd => (Add, Kind::Float),
        O::Fsub => (Sub, Kind::Float),
        O::Fmul => (Mul, Kind::Float),
        O::Fdiv => (Div, Kind::Float),
        O::Frem => (Rem, Kind::Float),
        O::Dadd => (Add, Kind::Double),
        O::Dsub => (Sub, Kind::Double),
        O::Dmul => (Mul, Kind::Double),
        O::Ddiv => (Div, Kind::Double),
        O::Drem => (Rem, Kind::Double),
        _ => return None,
    })
}
