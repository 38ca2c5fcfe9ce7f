//! Parsing class files with `cafebabe` into [`ClassTable`] entries.
//!
//! Robustness: any byte string must give either a class or an [`Error`], never a panic or
//! an abort. `cafebabe` is guarded twice: every call runs under [`catch_panic`] (a panic
//! becomes an error naming the file), and before it parses bytecode, [`check_code`] walks
//! each method's code and rejects a `tableswitch`/`lookupswitch` whose table cannot fit in
//! the code (cafebabe would otherwise reserve memory for up to 2^32 entries and abort).

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

use cafebabe::attributes::AttributeData;
use cafebabe::constant_pool::LiteralConstant;
use cafebabe::descriptors::{FieldDescriptor, FieldType, MethodDescriptor, ReturnDescriptor};
use cafebabe::{ClassFile, ParseOptions};

use super::classpath::ClassSource;
use super::descriptor::{JType, MethodDesc};
use super::ids::ClassId;
use super::table::{Class, ClassTable, ConstValue, Field, Method};
use crate::{Error, Result};

/// Parses the class file structure (without bytecode) and reports errors with the origin.
pub fn parse_structure<'a>(src: &'a ClassSource) -> Result<ClassFile<'a>> {
    structure(&src.origin, &src.bytes)
}

fn structure<'a>(origin: &str, bytes: &'a [u8]) -> Result<ClassFile<'a>> {
    let mut opts = ParseOptions::default();
    opts.parse_bytecode(false);
    guarded(origin, || cafebabe::parse_class_with_options(bytes, &opts))
}

/// Runs a cafebabe parse, turning its errors and panics into [`Error::ClassFormat`].
fn guarded<'a>(
    origin: &str,
    f: impl FnOnce() -> std::result::Result<ClassFile<'a>, cafebabe::ParseError>,
) -> Result<ClassFile<'a>> {
    let format = |msg: String| Error::ClassFormat { file: origin.to_string(), msg };
    match catch_panic(f) {
        Ok(r) => r.map_err(|e| format(e.to_string())),
        Err(msg) => Err(format(format!("the class file parser failed: {msg}"))),
    }
}

/// Parses a class file including the bytecode of every method (used by the lowering).
/// The code of every method is checked with [`check_code`] first.
pub fn parse_with_code<'a>(origin: &str, bytes: &'a [u8]) -> Result<ClassFile<'a>> {
    let cf = structure(origin, bytes)?;
    for m in &cf.methods {
        for a in &m.attributes {
            if let AttributeData::Code(c) = &a.data {
                check_code(c.code).map_err(|msg| Error::ClassFormat {
                    file: origin.to_string(),
                    msg: format!("method {}{}: {msg}", m.name, m.descriptor),
                })?;
            }
        }
    }
    guarded(origin, || cafebabe::parse_class(bytes))
}

/// Walks the instructions of a method's code and checks that each is complete, that the
/// opcode exists, and that `tableswitch`/`lookupswitch` tables fit inside the code. The
/// message names the offset and the instruction.
pub fn check_code(code: &[u8]) -> std::result::Result<(), String> {
    walk_code(code, &mut |_, _| {})
}

/// Walks the instructions of a method's code as [`check_code`] does, calling `visit` with
/// the offset and opcode of each complete instruction.
pub fn walk_code(code: &[u8], visit: &mut dyn FnMut(usize, u8)) -> std::result::Result<(), String> {
    let len = code.len();
    let u4 = |at: usize| -> Option<i32> { code.get(at..at + 4).map(|b| i32::from_be_bytes([b[0], b[1], b[2], b[3]])) };
    let mut pc = 0usize;
    while pc < len {
        let op = code[pc];
        let size: usize = match op {
            0x00..=0x0f | 0x1a..=0x35 | 0x3b..=0x83 | 0x85..=0x98 | 0xac..=0xb1 | 0xbe | 0xbf | 0xc2 | 0xc3 => 1,
            0x10 | 0x12 | 0x15..=0x19 | 0x36..=0x3a | 0xa9 | 0xbc => 2,
            0x11 | 0x13 | 0x14 | 0x84 | 0x99..=0xa8 | 0xb2..=0xb8 | 0xbb | 0xbd | 0xc0 | 0xc1 | 0xc6 | 0xc7 => 3,
            0xc5 => 4,
            0xb9 | 0xba | 0xc8 | 0xc9 => 5,
            0xc4 => match code.get(pc + 1) {
                Some(0x84) => 6,
                Some(0x15..=0x19 | 0x36..=0x3a | 0xa9) => 4,
                Some(o) => return Err(format!("offset {pc}: wide with opcode 0x{o:02x}")),
                None => return Err(format!("offset {pc}: truncated wide")),
            },
            0xaa | 0xab => {
                let name = if op == 0xaa { "tableswitch" } else { "lookupswitch" };
                let base = (pc + 4) & !3; // after the opcode and its 0-3 padding bytes
                let word = |i: usize| u4(base + 4 * i).ok_or_else(|| format!("offset {pc}: truncated {name}"));
                let entries: i64 = if op == 0xaa {
                    let (low, high) = (word(1)?, word(2)?);
                    if low > high {
                        return Err(format!("offset {pc}: tableswitch with low {low} > high {high}"));
                    }
                    i64::from(high) - i64::from(low) + 1
                } else {
                    let n = word(1)?;
                    if n < 0 {
                        return Err(format!("offset {pc}: lookupswitch with {n} pairs"));
                    }
                    2 * i64::from(n)
                };
                let header = if op == 0xaa { 12 } else { 8 };
                let end = (base as i64) + header + 4 * entries;
                if end > len as i64 {
                    return Err(format!(
                        "offset {pc}: {name} with {} entries does not fit in the code ({len} bytes)",
                        if op == 0xaa { entries } else { entries / 2 }
                    ));
                }
                (end as usize) - pc
            }
            _ => return Err(format!("offset {pc}: unknown opcode 0x{op:02x}")),
        };
        if pc + size > len {
            return Err(format!("offset {pc}: truncated instruction (opcode 0x{op:02x})"));
        }
        visit(pc, op);
        pc += size;
    }
    Ok(())
}

thread_local! {
    /// `Some` while [`catch_panic`] runs on this thread: the panic hook stores the message
    /// here instead of printing it.
    static CAPTURE: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// Runs `f`; a panic inside it becomes `Err(message)` (with its source location) and is
/// not printed. Panics elsewhere keep the previous panic hook's behaviour. This is a last
/// line of defence around code that must not panic on bad input (cafebabe, the lowering).
pub fn catch_panic<R>(f: impl FnOnce() -> R) -> std::result::Result<R, String> {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let captured = CAPTURE.with(|c| match c.try_borrow_mut() {
                Ok(mut c) if c.is_some() => {
                    *c = Some(Some(info.to_string()));
                    true
                }
                _ => false,
            });
            if !captured {
                previous(info);
            }
        }));
    });
    let outer = CAPTURE.with(|c| c.borrow_mut().replace(None));
    let r = catch_unwind(AssertUnwindSafe(f));
    let msg = CAPTURE.with(|c| std::mem::replace(&mut *c.borrow_mut(), outer)).flatten();
    r.map_err(|payload| {
        msg.or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string())
    })
}

/// What a class file declares, read once and then entered into a table.
struct Parsed {
    name: String,
    super_class: Option<String>,
    interfaces: Vec<String>,
    access: u16,
    inner_access: Option<u16>,
    signature: Option<String>,
    fields: Vec<(String, JType, u16, Option<ConstValue>)>,
    methods: Vec<(String, MethodDesc, u16, Option<super::lines::SourceMap>)>,
}

fn parsed(src: &ClassSource) -> Result<Parsed> {
    let cf = parse_structure(src)?;
    let name = cf.this_class.to_string();
    let inner_access = cf.attributes.iter().find_map(|a| match &a.data {
        AttributeData::InnerClasses(entries) => {
            entries.iter().find(|e| e.inner_class_info == name).map(|e| e.access_flags.bits())
        }
        _ => None,
    });
    let signature = cf.attributes.iter().find_map(|a| match &a.data {
        AttributeData::Signature(s) => Some(s.to_string()),
        _ => None,
    });
    let fields = cf
        .fields
        .iter()
        .map(|f| {
            let constant = f.attributes.iter().find_map(|a| match &a.data {
                AttributeData::ConstantValue(v) => const_value(v),
                _ => None,
            });
            (f.name.to_string(), field_type(&f.descriptor), f.access_flags.bits(), constant)
        })
        .collect();
    let methods = cf
        .methods
        .iter()
        .map(|m| {
            let code = m.attributes.iter().find_map(|a| match &a.data {
                AttributeData::Code(c) => Some(c),
                _ => None,
            });
            let source = code.map(|c| super::lines::source_map(c.code, line_table(c), walk_code));
            (m.name.to_string(), method_desc(&m.descriptor), m.access_flags.bits(), source)
        })
        .collect();
    Ok(Parsed {
        super_class: cf.super_class.as_ref().map(|s| s.to_string()),
        interfaces: cf.interfaces.iter().map(|i| i.to_string()).collect(),
        access: cf.access_flags.bits(),
        name,
        inner_access,
        signature,
        fields,
        methods,
    })
}

/// Adds the class in `src` to the table. A name already loaded keeps its first definition.
pub fn add_class(t: &mut ClassTable, src: &ClassSource) -> Result<()> {
    let p = parsed(src)?;
    let id = t.intern(&p.name);
    if t.class(id).loaded {
        return Ok(());
    }
    let super_class = p.super_class.as_ref().map(|s| t.intern(s));
    let interfaces = p.interfaces.iter().map(|i| t.intern(i)).collect();
    {
        let c = t.class_mut(id);
        c.signature = p.signature;
        c.loaded = true;
        c.origin = Some(src.origin.clone());
        c.access = p.access;
        c.super_class = super_class;
        c.interfaces = interfaces;
        c.inner_access = p.inner_access;
        c.bytes = Some(src.bytes.clone());
    }
    for (name, ty, access, constant) in p.fields {
        t.add_field(id, name, ty, access, constant);
    }
    for (name, desc, access, source) in p.methods {
        let mid = t.add_method(id, name, desc, access, source.is_some());
        if let Some(s) = source {
            t.method_mut(mid).source = s;
        }
    }
    Ok(())
}

/// Adds the class in `src`, whose name the table does not know yet, through a shared
/// reference: its superclass and interfaces are interned first (which may load them), then
/// the class is added whole as a JDK class (`jdk`, never listed nor an input's class).
pub fn add_jdk_class(t: &ClassTable, src: &ClassSource, rename: Option<&str>) -> Result<ClassId> {
    let mut p = parsed(src)?;
    if let Some(name) = rename {
        p.name = name.to_string();
    }
    let super_class = p.super_class.as_ref().map(|s| t.intern(s));
    let interfaces: Vec<ClassId> = p.interfaces.iter().map(|i| t.intern(i)).collect();
    if let Some(known) = t.lookup(&p.name) {
        return Ok(known);
    }
    let id = t.next_class_id();
    let fields = p
        .fields
        .into_iter()
        .map(|(name, ty, access, constant)| t.push_field(|f| Field { id: f, owner: id, name, ty, access, constant }))
        .collect();
    let methods = p
        .methods
        .into_iter()
        .map(|(name, desc, access, source)| {
            t.push_method(|m| Method {
                id: m,
                owner: id,
                name,
                desc,
                access,
                has_code: source.is_some(),
                source: source.unwrap_or_default(),
                inherited: None,
            })
        })
        .collect();
    Ok(t.push_class(Class {
        id,
        name: p.name,
        loaded: true,
        jdk: true,
        inner_access: p.inner_access,
        signature: p.signature,
        origin: Some(src.origin.clone()),
        access: p.access,
        super_class,
        interfaces,
        fields,
        methods,
        bytes: Some(src.bytes.clone()),
        lambda: None,
    }))
}

/// The `LineNumberTable` entries of a method's code as (start offset, line).
fn line_table(c: &cafebabe::attributes::CodeData<'_>) -> Vec<(u32, u32)> {
    c.attributes
        .iter()
        .filter_map(|a| match &a.data {
            AttributeData::LineNumberTable(t) => Some(t),
            _ => None,
        })
        .flatten()
        .map(|e| (u32::from(e.start_pc), u32::from(e.line_number)))
        .collect()
}

fn const_value(v: &LiteralConstant<'_>) -> Option<ConstValue> {
    Some(match v {
        LiteralConstant::Integer(i) => ConstValue::Int(*i),
        LiteralConstant::Long(l) => ConstValue::Long(*l),
        LiteralConstant::Float(f) => ConstValue::Float(*f),
        LiteralConstant::Double(d) => ConstValue::Double(*d),
        LiteralConstant::String(s) => ConstValue::String(s.to_string()),
        LiteralConstant::StringBytes(_) => return None,
    })
}

/// Converts a cafebabe field descriptor to a [`JType`].
pub fn field_type(d: &FieldDescriptor<'_>) -> JType {
    let base = match &d.field_type {
        FieldType::Byte => JType::Byte,
        FieldType::Char => JType::Char,
        FieldType::Double => JType::Double,
        FieldType::Float => JType::Float,
        FieldType::Integer => JType::Int,
        FieldType::Long => JType::Long,
        FieldType::Short => JType::Short,
        FieldType::Boolean => JType::Boolean,
        FieldType::Object(c) => JType::Class(c.to_string()),
    };
    (0..d.dimensions).fold(base, |t, _| JType::Array(Box::new(t)))
}

/// Converts a cafebabe method descriptor to a [`MethodDesc`].
pub fn method_desc(d: &MethodDescriptor<'_>) -> MethodDesc {
    MethodDesc {
        params: d.parameters.iter().map(field_type).collect(),
        ret: match &d.return_type {
            ReturnDescriptor::Void => None,
            ReturnDescriptor::Return(r) => Some(field_type(r)),
        },
    }
}

/// Parses a descriptor string from a member reference, with a clear error if malformed.
pub fn parse_field_desc(s: &str, origin: &str) -> Result<JType> {
    JType::parse(s)
        .ok_or_else(|| Error::ClassFormat { file: origin.to_string(), msg: format!("bad field descriptor {s}") })
}

/// Parses a method descriptor string from a member reference.
pub fn parse_method_desc(s: &str, origin: &str) -> Result<MethodDesc> {
    MethodDesc::parse(s)
        .ok_or_else(|| Error::ClassFormat { file: origin.to_string(), msg: format!("bad method descriptor {s}") })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]

    use super::*;

    #[test]
    fn catch_panic_turns_panics_into_messages() {
        assert_eq!(catch_panic(|| 7), Ok(7));
        let e = catch_panic(|| -> u8 { panic!("boom {}", 42) }).unwrap_err();
        assert!(e.contains("boom 42") && e.contains("parse.rs"), "{e}");
        // Nested: the inner panic is caught by the inner guard, the outer one still works.
        let r = catch_panic(|| {
            let inner = catch_panic(|| -> u8 { panic!("inner") });
            assert!(inner.unwrap_err().contains("inner"));
            panic!("outer")
        });
        assert!(r.unwrap_err().contains("outer"));
    }

    #[test]
    fn garbage_is_a_class_format_error() {
        let src = ClassSource { origin: "x/Y.class".into(), bytes: std::rc::Rc::from(&b"\xca\xfe\xba\xbe\0\0"[..]) };
        let e = parse_structure(&src).err().unwrap().to_string();
        assert!(e.starts_with("malformed class file x/Y.class"), "{e}");
        let e = parse_with_code("x/Y.class", b"").err().unwrap().to_string();
        assert!(e.contains("x/Y.class"), "{e}");
    }
}
