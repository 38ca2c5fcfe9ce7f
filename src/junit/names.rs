//! Test method names that say the behaviour: the method, what it did and, where an argument
//! is null, which one, or how many calls built the input (`part_throwsNullPointerException_whenWIsNull`,
//! `tail_returnsItself`, `isEmpty_returnsTrue_onNew`, `indexOf_returnsNegative_after2Calls`); a
//! name taken twice gets `_2`, `_3`, ...

use std::collections::{BTreeMap, HashMap};

use super::java::ident;
use crate::classfile::{ClassTable, JType};
use crate::heap::{CVal, Concrete, ObjKind, Place};
use crate::lower::driver::How;
use crate::machine::{RunResult, Trace, TraceKind};

/// The name of each trace's test, by trace id (cut traces have none).
pub(super) fn test_names(
    table: &ClassTable,
    r: &RunResult,
    driver: Option<&crate::lower::driver::Driver>,
) -> BTreeMap<usize, String> {
    let m = table.method(r.method_id);
    let method = match m.name.as_str() {
        "<init>" => "new".to_string(),
        n => ident(n),
    };
    let mut taken: HashMap<String, usize> = HashMap::new();
    let mut out = BTreeMap::new();
    for t in r.traces.iter().filter(|t| t.kind != TraceKind::Cut) {
        let mut name = format!("{method}_{}", outcome(table, t, m.desc.ret.as_ref(), !m.is_static()));
        if let (Some(d), false, false) = (driver, t.prefix.is_empty(), m.is_static()) {
            // Built by calls: how many after the constructor.
            match super::sequence::sequence_calls(d, t) {
                0 => name.push_str("_onNew"),
                1 => name.push_str("_afterOneCall"),
                n => name.push_str(&format!("_after{n}Calls")),
            }
        } else if let (Some(d), false, Some(c)) = (driver, t.prefix.is_empty(), &t.concrete) {
            // A static method's arguments built by calls: which one is null.
            // The run's argument names are the method's when a heap run's (`auto`), else the
            // driver's (`part_0`): then the argument is named by its type, else its position.
            let driver_named = r.arg_names.iter().enumerate().all(|(j, n)| *n == format!("{}_{j}", m.name));
            let names: Vec<String> = if r.arg_names.len() == d.call.args.len() && !driver_named {
                r.arg_names.clone()
            } else {
                let by_type = |j: usize, ty: &crate::classfile::JType| match ty {
                    crate::classfile::JType::Class(c) => c.rsplit(['/', '$']).next().unwrap_or(c).to_string(),
                    _ => format!("arg{j}"),
                };
                d.call.args.iter().enumerate().map(|(j, a)| by_type(j, &a.ty)).collect()
            };
            let null = d.call.args.iter().zip(&names).find(|(a, _)| {
                let picked = match c.args.get(a.param) {
                    Some(CVal::Int(x)) => *x,
                    _ => 0,
                };
                match &a.how {
                    How::Built(_) => a.recipe(picked).is_none(),
                    How::Param => c.args.get(a.param) == Some(&CVal::Null),
                    How::Boxed => false,
                }
            });
            if let Some((_, arg)) = null {
                name.push_str(&format!("_when{}IsNull", capitalized(&ident(arg))));
            }
        } else if let Some(c) = &t.concrete
            && let Some(arg) = null_argument(c, &r.arg_names, !m.is_static())
        {
            name.push_str(&format!("_when{}IsNull", capitalized(&ident(arg))));
        }
        let n = taken.entry(name.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            name = format!("{name}_{n}");
        }
        out.insert(t.id, name);
    }
    out
}

/// What the trace did, as a name: `throwsX`, `completes`, `returnsTrue`, `returnsNull`,
/// `returnsZero`, `returnsItself`, `returnsNewNode`, ...
fn outcome(table: &ClassTable, t: &Trace, ret: Option<&JType>, has_receiver: bool) -> String {
    if t.kind == TraceKind::Exception {
        let x = t.exception.as_deref().unwrap_or("Exception");
        let simple = x.rsplit(['.', '$']).next().unwrap_or(x);
        return format!("throws{}", ident(simple));
    }
    let (Some(ty), Some(c)) = (ret, &t.concrete) else { return "completes".to_string() };
    if c.undetermined.contains(&Place::Result) {
        return "returnsAValue".to_string();
    }
    let kind = match (&c.ret, ty) {
        (None, _) => return "completes".to_string(),
        (Some(CVal::Null), _) => "Null".to_string(),
        (Some(CVal::Int(x)), JType::Boolean) => if *x != 0 { "True" } else { "False" }.to_string(),
        (Some(CVal::Int(x) | CVal::Long(x)), JType::Float | JType::Double) => {
            let negative = if *ty == JType::Float { (*x as u32) >> 31 == 1 } else { *x < 0 };
            if negative { "Negative" } else { "NonNegative" }.to_string()
        }
        (Some(CVal::Int(x) | CVal::Long(x)), _) => match x.signum() {
            -1 => "Negative",
            0 => "Zero",
            _ => "Positive",
        }
        .to_string(),
        (Some(CVal::Obj(i)), _) => match c.objects.get(*i) {
            Some(_) if has_receiver && c.args.first() == Some(&CVal::Obj(*i)) => "Itself".to_string(),
            Some(o) if o.input => "Input".to_string(),
            Some(o) => match &o.kind {
                ObjKind::Class(k) => {
                    let n = table.class(*k).java_name();
                    format!("New{}", capitalized(&ident(n.rsplit(['.', '$']).next().unwrap_or(&n))))
                }
                ObjKind::Array(_) => "NewArray".to_string(),
            },
            None => "Object".to_string(),
        },
    };
    format!("returns{kind}")
}

/// The first argument (the receiver excluded) that is null on the input.
fn null_argument<'a>(c: &Concrete, names: &'a [String], has_receiver: bool) -> Option<&'a str> {
    let skip = usize::from(has_receiver);
    c.args.iter().zip(names).skip(skip).find(|(v, _)| **v == CVal::Null).map(|(_, n)| n.as_str())
}

/// `word` with its first letter in upper case.
fn capitalized(word: &str) -> String {
    let mut cs = word.chars();
    match cs.next() {
        Some(f) => f.to_uppercase().chain(cs).collect(),
        None => String::new(),
    }
}
