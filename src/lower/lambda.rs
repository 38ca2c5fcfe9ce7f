//! Lambda and method-reference call sites (`invokedynamic` of `LambdaMetafactory`): the
//! `new` of a synthetic class per call site, and the IR of that class's method.
//!
//! The call site becomes `(t := (new Owner$$Lambda$k))`, one `(t $ capI := v)` per captured
//! value, and `t` on the stack: plain IR, so the interface call that later runs the lambda
//! dispatches to the class's method like any virtual call. That method reads the captured
//! fields and calls the target with them first, then its own parameters: a reference
//! parameter is cast to the target's parameter type where they differ, a primitive is boxed
//! with `valueOf` and a box unboxed with `xValue()` where one side is primitive and the
//! other not; `REF_newInvokeSpecial` is `new Target(args)`. What a class cannot do (primitive
//! widening, a field method handle, an unknown bootstrap method) leaves the call site an
//! [`Expr::Dynamic`] that cuts the traces reaching it with the reason.

use cafebabe::ClassFile;
use cafebabe::attributes::AttributeData;
use cafebabe::constant_pool::{BootstrapArgument, LiteralConstant, MemberKind, ReferenceKind};

use super::build::Builder;
use crate::classfile::lambda::{LambdaSite, LambdaTarget, TargetKind};
use crate::classfile::{ClassTable, JType, MethodDesc, MethodId};
use crate::error::Location;
use crate::ir::{BlockId, Body, Call, Expr, FieldRef, InvokeKind, LocalId, MethodRef, Operand, Stmt, Terminator};
use crate::{Error, Result};

/// The bootstrap method class of lambdas and method references.
pub(super) const METAFACTORY: &str = "java/lang/invoke/LambdaMetafactory";

/// One entry of a class's `BootstrapMethods` attribute, in owned form.
#[derive(Debug, Clone)]
pub(super) struct Bootstrap {
    pub(super) class: String,
    pub(super) name: String,
    pub(super) args: Vec<Arg>,
}

/// A static argument of a bootstrap method.
#[derive(Debug, Clone)]
pub(super) enum Arg {
    Handle(Handle),
    Type(String),
    Int(i32),
    Class(String),
    Other,
}

/// A method handle constant.
#[derive(Debug, Clone)]
pub(super) struct Handle {
    /// `None` for a field handle.
    pub(super) kind: Option<TargetKind>,
    pub(super) class: String,
    pub(super) name: String,
    pub(super) desc: String,
    pub(super) interface: bool,
}

/// The `BootstrapMethods` attribute of `cf` (empty without one).
pub(super) fn bootstrap_table(cf: &ClassFile<'_>) -> Vec<Bootstrap> {
    let entries = cf.attributes.iter().find_map(|a| match &a.data {
        AttributeData::BootstrapMethods(v) => Some(v),
        _ => None,
    });
    let Some(entries) = entries else { return Vec::new() };
    entries
        .iter()
        .map(|e| Bootstrap {
            class: e.method.class_name.to_string(),
            name: e.method.member_ref.name.to_string(),
            args: e.arguments.iter().map(arg).collect(),
        })
        .collect()
}

fn arg(a: &BootstrapArgument<'_>) -> Arg {
    match a {
        BootstrapArgument::MethodHandle(h) => Arg::Handle(Handle {
            kind: match h.kind {
                ReferenceKind::InvokeStatic => Some(TargetKind::Static),
                ReferenceKind::InvokeVirtual => Some(TargetKind::Virtual),
                ReferenceKind::InvokeInterface => Some(TargetKind::Interface),
                ReferenceKind::InvokeSpecial => Some(TargetKind::Special),
                ReferenceKind::NewInvokeSpecial => Some(TargetKind::New),
                _ => None,
            },
            class: h.class_name.to_string(),
            name: h.member_ref.name.to_string(),
            desc: h.member_ref.descriptor.to_string(),
            interface: matches!(h.member_kind, MemberKind::InterfaceMethod),
        }),
        BootstrapArgument::MethodType(t) => Arg::Type(t.to_string()),
        BootstrapArgument::LiteralConstant(LiteralConstant::Integer(i)) => Arg::Int(*i),
        BootstrapArgument::ClassInfo(c) => Arg::Class(c.to_string()),
        BootstrapArgument::LiteralConstant(_) => Arg::Other,
    }
}

/// How one value passes from one type to another on the way into or out of the target.
#[derive(Debug, Clone, PartialEq)]
enum Adapt {
    Same,
    /// `checkcast` to this type.
    Cast(JType),
    /// `Box.valueOf(prim)`.
    Box(&'static str, JType),
    /// `checkcast Box`, then `box.xValue()`.
    Unbox(&'static str, &'static str, JType),
}

/// The boxes: (class, primitive, unboxing method).
const BOXES: [(&str, JType, &str); 8] = [
    ("java/lang/Integer", JType::Int, "intValue"),
    ("java/lang/Long", JType::Long, "longValue"),
    ("java/lang/Short", JType::Short, "shortValue"),
    ("java/lang/Byte", JType::Byte, "byteValue"),
    ("java/lang/Character", JType::Char, "charValue"),
    ("java/lang/Boolean", JType::Boolean, "booleanValue"),
    ("java/lang/Float", JType::Float, "floatValue"),
    ("java/lang/Double", JType::Double, "doubleValue"),
];

fn box_of(prim: &JType) -> Option<(&'static str, &'static str)> {
    BOXES.iter().find(|(_, p, _)| p == prim).map(|(c, _, u)| (*c, *u))
}

/// How a value of type `from` (known to be a `seen`, which may be more specific) becomes a
/// `to`; `None` for what a lambda class does not do (primitive widening, a box of another
/// primitive).
fn adapt(from: &JType, to: &JType, seen: &JType) -> Option<Adapt> {
    let is_class = |t: &JType, n: &str| matches!(t, JType::Class(c) if c == n);
    match (from.is_reference(), to.is_reference()) {
        (true, true) if from == to || is_class(to, "java/lang/Object") => Some(Adapt::Same),
        (true, true) => Some(Adapt::Cast(to.clone())),
        (false, false) => (from == to).then_some(Adapt::Same),
        (false, true) => {
            let (b, _) = box_of(from)?;
            let fits = ["java/lang/Object", "java/lang/Number", "java/lang/Comparable", "java/io/Serializable", b];
            fits.iter().any(|n| is_class(to, n)).then(|| Adapt::Box(b, from.clone()))
        }
        (true, false) => {
            let (b, unbox) = box_of(to)?;
            let other_box = BOXES.iter().any(|(c, _, _)| is_class(seen, c) && *c != b);
            (!other_box).then(|| Adapt::Unbox(b, unbox, to.clone()))
        }
    }
}

/// The target's result type: the new object of a constructor handle, else the return type.
fn target_result(t: &LambdaTarget, table: &ClassTable) -> Option<JType> {
    match t.kind {
        TargetKind::New => Some(JType::Class(table.class(t.owner).name.clone())),
        _ => t.desc.ret.clone(),
    }
}

/// Why the interface method `m` (parameters `seen` as instantiated) cannot call `target`
/// after `captured`, if it cannot.
pub(super) fn check_method(
    table: &ClassTable,
    target: &LambdaTarget,
    captured: &[JType],
    m: &MethodDesc,
    seen: &MethodDesc,
) -> Option<String> {
    let tparams = target.params();
    if captured.len() + m.params.len() != tparams.len() {
        return Some(format!(
            "{} captured values and {} parameters for a target of {}",
            captured.len(),
            m.params.len(),
            tparams.len()
        ));
    }
    let (tc, tp) = tparams.split_at(captured.len());
    for (c, t) in captured.iter().zip(tc) {
        if adapt(c, t, c).is_none_or(|a| matches!(a, Adapt::Box(..) | Adapt::Unbox(..))) {
            return Some(format!("a captured {c} passed as {t}"));
        }
    }
    for (i, (p, t)) in m.params.iter().zip(tp).enumerate() {
        let s = seen.params.get(i).unwrap_or(p);
        if adapt(p, t, s).is_none() {
            return Some(format!("parameter {i} of type {s} passed as {t}"));
        }
    }
    match (&m.ret, target_result(target, table)) {
        (None, _) => None,
        (Some(r), None) => Some(format!("a void target for a result of type {r}")),
        (Some(r), Some(t)) => adapt(&t, r, &t).is_none().then(|| format!("a result of type {t} returned as {r}")),
    }
}

/// The IR under construction of a lambda class's method: one block.
struct Build {
    b: Builder,
    blk: BlockId,
}

impl Build {
    fn local(&mut self, name: String, ty: JType) -> LocalId {
        self.b.local(name, ty)
    }

    fn emit(&mut self, stmt: Stmt) {
        self.b.push(self.blk, stmt);
    }

    /// A temporary holding the result of `call` (of type `ty`).
    fn call(&mut self, ty: JType, call: Call) -> Operand {
        let n = self.b.locals.len();
        let t = self.local(format!("t{n}"), ty);
        self.emit(Stmt::Assign(t, Expr::Invoke(call)));
        Operand::Local(t)
    }

    /// `v` adapted by `a`.
    fn adapt(&mut self, table: &ClassTable, v: Operand, a: Adapt) -> Operand {
        match a {
            Adapt::Same => v,
            Adapt::Cast(ty) => {
                self.emit(Stmt::CheckCast(v.clone(), ty));
                v
            }
            Adapt::Box(b, prim) => {
                let owner = table.intern(b);
                let desc = MethodDesc { params: vec![prim], ret: Some(JType::Class(b.to_string())) };
                let method = MethodRef { owner, name: "valueOf".into(), desc, interface: false };
                self.call(JType::Class(b.to_string()), Call { kind: InvokeKind::Static, method, args: vec![v] })
            }
            Adapt::Unbox(b, unbox, prim) => {
                self.emit(Stmt::CheckCast(v.clone(), JType::Class(b.to_string())));
                let owner = table.intern(b);
                let desc = MethodDesc { params: vec![], ret: Some(prim.clone()) };
                let method = MethodRef { owner, name: unbox.into(), desc, interface: false };
                self.call(prim, Call { kind: InvokeKind::Virtual, method, args: vec![v] })
            }
        }
    }
}

/// The IR of method `m` of a lambda class: read the captured fields, call the target with
/// them and the parameters, return its (adapted) result.
pub(super) fn body(table: &ClassTable, m: MethodId, site: &LambdaSite) -> Result<Body> {
    let meth = table.method(m).clone();
    let class = meth.owner;
    let at =
        Location { class: Some(table.class(class).java_name()), method: Some(meth.signature()), pc: None, line: None };
    let unsupported = |why: String| Error::Unsupported { at: at.clone(), opcode: "invokedynamic".into(), why };
    let mut builder = Builder::default();
    let blk = builder.block();
    let mut b = Build { b: builder, blk };
    let this = b.local("this".into(), JType::Class(table.class(class).name.clone()));
    let params: Vec<LocalId> =
        meth.desc.params.iter().enumerate().map(|(i, t)| b.local(format!("a{i}"), t.clone())).collect();
    let param_count = b.b.locals.len();
    let tparams = site.target.params();
    let mut args = Vec::with_capacity(tparams.len());
    for (i, f) in site.captured.iter().enumerate() {
        let fd = table.field(*f);
        let (name, ty) = (fd.name.clone(), fd.ty.clone());
        let l = b.local(name.clone(), ty.clone());
        let to = tparams.get(i).cloned().unwrap_or_else(|| ty.clone());
        b.emit(Stmt::Assign(l, Expr::GetField(Operand::Local(this), FieldRef { owner: class, name, ty: ty.clone() })));
        let a = adapt(&ty, &to, &ty).ok_or_else(|| unsupported(format!("captured {ty} passed as {to}")))?;
        args.push(b.adapt(table, Operand::Local(l), a));
    }
    for (p, ty) in params.iter().zip(&meth.desc.params) {
        let to =
            tparams.get(args.len()).cloned().ok_or_else(|| unsupported("more parameters than the target's".into()))?;
        let a = adapt(ty, &to, ty).ok_or_else(|| unsupported(format!("parameter of type {ty} passed as {to}")))?;
        args.push(b.adapt(table, Operand::Local(*p), a));
    }
    let t = &site.target;
    let result = match t.kind {
        TargetKind::New => {
            let n = b.local("new".into(), JType::Class(table.class(t.owner).name.clone()));
            b.emit(Stmt::Assign(n, Expr::New(t.owner)));
            let method = MethodRef { owner: t.owner, name: t.name.clone(), desc: t.desc.clone(), interface: false };
            let mut all = vec![Operand::Local(n)];
            all.extend(args);
            b.emit(Stmt::Invoke(Call { kind: InvokeKind::Special, method, args: all }));
            Some(Operand::Local(n))
        }
        kind => {
            let kind = match kind {
                TargetKind::Static => InvokeKind::Static,
                TargetKind::Virtual => InvokeKind::Virtual,
                TargetKind::Interface => InvokeKind::Interface,
                _ => InvokeKind::Special,
            };
            let method =
                MethodRef { owner: t.owner, name: t.name.clone(), desc: t.desc.clone(), interface: t.interface };
            let call = Call { kind, method, args };
            match &t.desc.ret {
                Some(r) => Some(b.call(r.clone(), call)),
                None => {
                    b.emit(Stmt::Invoke(call));
                    None
                }
            }
        }
    };
    let ret = match (&meth.desc.ret, result, target_result(t, table)) {
        (None, _, _) => None,
        (Some(to), Some(v), Some(from)) => {
            let a = adapt(&from, to, &from)
                .ok_or_else(|| unsupported(format!("a result of type {from} returned as {to}")))?;
            Some(b.adapt(table, v, a))
        }
        (Some(to), _, _) => return Err(unsupported(format!("a void target for a result of type {to}"))),
    };
    let Build { b: mut builder, blk } = b;
    builder.end(blk, Terminator::Return(ret));
    Ok(Body { method: m, locals: builder.locals, param_count, blocks: builder.blocks })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(n: &str) -> JType {
        JType::Class(n.to_string())
    }

    #[test]
    fn values_are_cast_boxed_and_unboxed_but_never_widened() {
        let (object, integer, string) =
            (class("java/lang/Object"), class("java/lang/Integer"), class("java/lang/String"));
        assert_eq!(adapt(&string, &object, &string), Some(Adapt::Same));
        assert_eq!(adapt(&object, &string, &string), Some(Adapt::Cast(string.clone())));
        assert_eq!(adapt(&JType::Int, &object, &JType::Int), Some(Adapt::Box("java/lang/Integer", JType::Int)));
        assert_eq!(adapt(&JType::Int, &string, &JType::Int), None);
        assert_eq!(
            adapt(&object, &JType::Int, &integer),
            Some(Adapt::Unbox("java/lang/Integer", "intValue", JType::Int))
        );
        // An Integer where a long is expected needs widening after unboxing: not done.
        assert_eq!(adapt(&object, &JType::Long, &integer), None);
        assert_eq!(adapt(&JType::Int, &JType::Long, &JType::Int), None);
        assert_eq!(adapt(&JType::Int, &JType::Int, &JType::Int), Some(Adapt::Same));
    }
}
