//! What a lambda class does: the call site it came from and the method its method calls.

use super::descriptor::{JType, MethodDesc};
use super::ids::{ClassId, FieldId};

/// How the functional interface method reaches its target (the kind of the implementation
/// method handle, JVMS §4.4.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    /// `REF_invokeStatic`.
    Static,
    /// `REF_invokeVirtual`.
    Virtual,
    /// `REF_invokeInterface`.
    Interface,
    /// `REF_invokeSpecial` (a private method, e.g. javac's `lambda$m$0`).
    Special,
    /// `REF_newInvokeSpecial`: `new Owner(args)`, the new object is the result.
    New,
}

/// The method a lambda class's method calls.
#[derive(Debug, Clone, PartialEq)]
pub struct LambdaTarget {
    pub kind: TargetKind,
    /// The class named by the method handle (`java/lang/Object` for a method of an array).
    pub owner: ClassId,
    pub name: String,
    pub desc: MethodDesc,
    /// Whether the handle names an interface method (`InterfaceMethodref`).
    pub interface: bool,
    /// The type of the receiver of an instance target (the handle's class, or an array type).
    pub receiver: Option<JType>,
}

impl LambdaTarget {
    /// The target's parameter types, the receiver first for an instance method.
    pub fn params(&self) -> Vec<JType> {
        self.receiver.iter().cloned().chain(self.desc.params.iter().cloned()).collect()
    }
}

/// What a lambda class does: the call site it came from and the target its method calls.
#[derive(Debug, Clone, PartialEq)]
pub struct LambdaSite {
    /// The class whose code holds the call site.
    pub owner: ClassId,
    /// The call site's entry in the owner's `BootstrapMethods` attribute.
    pub bootstrap: u16,
    /// The call site's name (the interface method's name) and descriptor (captured values →
    /// functional interface).
    pub name: String,
    pub site: MethodDesc,
    /// The functional interface.
    pub interface: ClassId,
    /// Extra interfaces (`altMetafactory` markers, `Serializable`).
    pub markers: Vec<ClassId>,
    /// The erased interface method descriptor, then the bridges (`altMetafactory`).
    pub methods: Vec<MethodDesc>,
    pub target: LambdaTarget,
    /// The fields that hold the captured values, in call-site order (filled in by
    /// [`ClassTable::lambda_class`]).
    pub captured: Vec<FieldId>,
}
