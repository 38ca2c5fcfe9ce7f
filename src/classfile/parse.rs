//! Parsing class files with `cafebabe` into [`ClassTable`] entries.

use std::borrow::Cow;

use cafebabe::attributes::AttributeData;
use cafebabe::constant_pool::LiteralConstant;
use cafebabe::descriptors::{FieldDescriptor, FieldType, MethodDescriptor, ReturnDescriptor};
use cafebabe::{ClassFile, ParseOptions};

use super::{ClassSource, ClassTable, ConstValue, JType, MethodDesc};
use crate::{Error, Result};

/// Parses the class file structure (without bytecode) and reports errors with the origin.
pub fn parse_structure<'a>(src: &'a ClassSource) -> Result<ClassFile<'a>> {
    let mut opts = ParseOptions::default();
    opts.parse_bytecode(false);
    cafebabe::parse_class_with_options(&src.bytes, &opts)
        .map_err(|e| Error::ClassFormat { file: src.origin.clone(), msg: e.to_string() })
}

/// Parses a class file including the bytecode of every method (used by the lowering).
pub fn parse_with_code<'a>(origin: &str, bytes: &'a [u8]) -> Result<ClassFile<'a>> {
    cafebabe::parse_class(bytes).map_err(|e| Error::ClassFormat { file: origin.to_string(), msg: e.to_string() })
}

/// Adds the class in `src` to the table. A name already loaded keeps its first definition.
pub fn add_class(t: &mut ClassTable, src: &ClassSource) -> Result<()> {
    let cf = parse_structure(src)?;
    let name = cf.this_class.to_string();
    let id = t.intern(&name);
    if t.class(id).loaded {
        return Ok(());
    }
    let super_class = cf.super_class.as_ref().map(|s| t.intern(s));
    let interfaces = cf.interfaces.iter().map(|i| t.intern(i)).collect();
    {
        let c = t.class_mut(id);
        c.loaded = true;
        c.origin = Some(src.origin.clone());
        c.access = cf.access_flags.bits();
        c.super_class = super_class;
        c.interfaces = interfaces;
        c.bytes = Some(src.bytes.clone());
    }
    for f in &cf.fields {
        let ty = field_type(&f.descriptor);
        let constant = f.attributes.iter().find_map(|a| match &a.data {
            AttributeData::ConstantValue(v) => const_value(v),
            _ => None,
        });
        t.add_field(id, f.name.to_string(), ty, f.access_flags.bits(), constant);
    }
    for m in &cf.methods {
        let desc = method_desc(&m.descriptor);
        let has_code = m.attributes.iter().any(|a| matches!(a.data, AttributeData::Code(_)));
        t.add_method(id, m.name.to_string(), desc, m.access_flags.bits(), has_code);
    }
    Ok(())
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
pub fn parse_field_desc(s: &Cow<'_, str>, origin: &str) -> Result<JType> {
    JType::parse(s)
        .ok_or_else(|| Error::ClassFormat { file: origin.to_string(), msg: format!("bad field descriptor {s}") })
}

/// Parses a method descriptor string from a member reference.
pub fn parse_method_desc(s: &Cow<'_, str>, origin: &str) -> Result<MethodDesc> {
    MethodDesc::parse(s)
        .ok_or_else(|| Error::ClassFormat { file: origin.to_string(), msg: format!("bad method descriptor {s}") })
}
