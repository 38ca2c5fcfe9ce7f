//! Which method `--precondition NAME` names for an entry method, and what it is called with.
//!
//! The forms, tried in this order: an instance method `NAME()Z` of the receiver's class or a
//! superclass (a `repOK`); an instance method `NAME(P)Z` taking the entry's parameters `P`;
//! a static `NAME(R, P)Z` of the entry's class taking the receiver (of the entry's class `R`)
//! and the parameters; for a static entry, a static `NAME(P)Z`. Every form needs code and at
//! least one reference among what it is called with, since it constrains input heaps.

use crate::classfile::{ClassId, ClassTable, JType, MethodDesc, MethodId, access};

/// What the precondition's frame starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreArgs {
    /// The receiver only (`NAME()Z`).
    Receiver,
    /// The entry's arguments, receiver first when it has one, in its order.
    All,
}

/// The precondition `name` of `entry` and how it is called, or a sentence saying what forms
/// were looked for and what there is by that name.
pub fn resolve(t: &ClassTable, name: &str, entry: MethodId) -> Result<(MethodId, PreArgs), String> {
    let m = t.method(entry);
    let owner = m.owner;
    let boolean = Some(JType::Boolean);
    let params = m.desc.params.clone();
    let fits = |c: ClassId, desc: &MethodDesc, stat: bool| {
        t.declared_method(c, name, desc).filter(|p| {
            let pd = t.method(*p);
            pd.has_code && (pd.access & access::STATIC != 0) == stat
        })
    };
    let up = |desc: &MethodDesc, stat: bool| t.superclasses(owner).into_iter().find_map(|c| fits(c, desc, stat));
    let mut found = None;
    if !m.is_static() {
        let no_args = MethodDesc { params: vec![], ret: boolean.clone() };
        let with_args = MethodDesc { params: params.clone(), ret: boolean.clone() };
        let mut with_recv = vec![JType::Class(t.class(owner).name.clone())];
        with_recv.extend(params.iter().cloned());
        let stat = MethodDesc { params: with_recv, ret: boolean.clone() };
        found = up(&no_args, false)
            .map(|p| (p, PreArgs::Receiver))
            .or_else(|| (!params.is_empty()).then(|| up(&with_args, false)).flatten().map(|p| (p, PreArgs::All)))
            .or_else(|| fits(owner, &stat, true).map(|p| (p, PreArgs::All)));
    } else if params.iter().any(JType::is_reference) {
        let stat = MethodDesc { params: params.clone(), ret: boolean };
        found = fits(owner, &stat, true).map(|p| (p, PreArgs::All));
    }
    if let Some(f) = found {
        return Ok(f);
    }
    let class = t.class(owner).java_name();
    let same: Vec<String> = t
        .superclasses(owner)
        .into_iter()
        .flat_map(|c| t.class(c).methods.clone())
        .filter(|x| t.method(*x).name == name)
        .map(|x| t.method_display(x))
        .collect();
    let there = if same.is_empty() {
        format!("{class} has no method named {name}")
    } else {
        format!("found only {}", same.join(", "))
    };
    let p: Vec<String> = params.iter().map(JType::java_name).collect();
    let p = p.join(", ");
    let wanted = if m.is_static() {
        if params.iter().any(JType::is_reference) {
            format!("a static boolean {name}({p}) of {class}")
        } else {
            return Err(format!(
                "{} is static and takes no object, so there is no input heap for {name} to constrain",
                t.method_display(entry)
            ));
        }
    } else if params.is_empty() {
        format!("a boolean method {name}() of {class}, or a static boolean {name}({class})")
    } else {
        format!("a boolean method {name}() or {name}({p}) of {class}, or a static boolean {name}({class}, {p})")
    };
    Err(format!("needs {wanted} with code; {there}"))
}

/// The values the precondition's frame starts with, from the entry's arguments `args`
/// (receiver first when it has one).
pub fn frame_args<V: Clone>(how: PreArgs, args: &[V]) -> Vec<V> {
    match how {
        PreArgs::Receiver => args.iter().take(1).cloned().collect(),
        PreArgs::All => args.to_vec(),
    }
}
