//! The models of `String` on symbolic characters: a string is its length (`count`) and
//! [`MAX_STRING_CHARS`] char fields, and `length`, `charAt`, `equals`, `hashCode`,
//! `compareTo`, `substring` and `toCharArray` are terms over them (no loop, no fork but the
//! exceptions the JDK raises and `substring`'s whole string, which is the string itself).
//!
//! An input string has a symbolic length in `0..=MAX_STRING_CHARS` (a restriction of the
//! inputs, as `--max-array-length` is for arrays); a literal has its characters; a string
//! the code computes (concatenation, `String.valueOf`, `toString`) has length -1, and a
//! model that needs its characters cuts the trace.

use super::Machine;
use super::state::{Next, State};
use crate::classfile::{FieldId, JType};
use crate::cut::Unsupported;
use crate::heap::{HeapStrategy, ObjKind, Value};
use crate::ir::LocalId;
use crate::models::{MAX_STRING_CHARS, STRING, StringOp};
use crate::solver::Solver;
use crate::term::{BvOp, Term};
use crate::{Error, Result};

/// A string's length and characters as terms (characters past the length are unused).
struct Chars {
    len: Term,
    chars: Vec<Term>,
}

impl<H: HeapStrategy, S: Solver> Machine<'_, H, S> {
    /// The fields of a string: `count`, then the characters.
    fn string_fields(&self) -> Result<Vec<FieldId>> {
        let mut names = vec!["count".to_string()];
        names.extend((0..MAX_STRING_CHARS).map(|k| format!("c{k}")));
        names
            .iter()
            .map(|n| {
                self.model_field(STRING, n).ok_or_else(|| Error::MissingClass {
                    name: STRING.to_string(),
                    context: Some("String model".into()),
                })
            })
            .collect()
    }

    /// A new string holding `text` (length -1 when it is computed or too long to model).
    pub(super) fn new_string(&mut self, st: &mut State<H>, text: Option<&str>) -> Result<Value<H::Ref>> {
        let units: Option<Vec<u16>> = text.map(|t| t.encode_utf16().collect());
        let mut values = Vec::with_capacity(MAX_STRING_CHARS + 1);
        match units.filter(|u| u.len() <= MAX_STRING_CHARS) {
            Some(u) => {
                values.push(self.terms.int(u.len() as i32));
                values.extend(u.iter().map(|c| self.terms.int(i32::from(*c))));
            }
            None => values.push(self.terms.int(-1)),
        }
        self.string_of(st, values)
    }

    /// A new string whose `count` and characters are `values` (the rest stay 0).
    fn string_of(&mut self, st: &mut State<H>, values: Vec<Term>) -> Result<Value<H::Ref>> {
        let id = self.program.table.lookup(STRING).ok_or_else(|| self.fault(st, "literals of java/lang/String"))?;
        let r = self.strategy.alloc(super::control::cx!(self), &mut st.heap, ObjKind::Class(id), None)?;
        let fields = self.string_fields()?;
        for (f, v) in fields.into_iter().zip(values) {
            let alts = self.strategy.put_field(super::control::cx!(self), &st.heap, &r, f, Value::Int(v))?;
            match <[_; 1]>::try_from(alts) {
                Ok([alt]) if alt.assume.is_empty() && alt.cut.is_none() => st.heap = alt.heap,
                _ => return Err(self.fault(st, "a write to a new String with alternatives")),
            }
        }
        Ok(Value::Ref(r))
    }

    /// Reads the length and characters of string `r`, and continues with them; a computed
    /// string cuts the trace, and an input string's length is at most [`MAX_STRING_CHARS`].
    fn with_chars(
        &mut self,
        st: State<H>,
        r: &H::Ref,
        f: &mut dyn FnMut(&mut Self, State<H>, Chars) -> Result<Vec<Next<H>>>,
    ) -> Result<Vec<Next<H>>> {
        let fields = self.string_fields()?;
        self.read_all(st, r, &fields, Vec::new(), &mut |m, s, mut ts| {
            let len = ts.remove(0);
            if len.as_i64() == Some(-1) {
                return Ok(vec![Next::Done(s, super::Outcome::Cut(Unsupported::ComputedString.into()))]);
            }
            let (zero, max) = (m.terms.int(0), m.terms.int(MAX_STRING_CHARS as i32));
            let range = [m.terms.sle(&zero, &len), m.terms.sle(&len, &max)];
            let range = m.terms.and(&range);
            let mut next = Vec::new();
            // The other side is a longer input string: outside the inputs modelled.
            for (s, yes) in m.split(s, &range) {
                if yes {
                    next.extend(f(m, s, Chars { len: len.clone(), chars: ts.clone() })?);
                }
            }
            Ok(next)
        })
    }

    /// Reads `fields` of `r` in order (each read may fork) and continues with their terms.
    fn read_all(
        &mut self,
        st: State<H>,
        r: &H::Ref,
        fields: &[FieldId],
        got: Vec<Term>,
        f: &mut dyn FnMut(&mut Self, State<H>, Vec<Term>) -> Result<Vec<Next<H>>>,
    ) -> Result<Vec<Next<H>>> {
        let Some((first, rest)) = fields.split_first() else { return f(self, st, got) };
        let alts = self.strategy.get_field(super::control::cx!(self), &st.heap, r, *first)?;
        self.each(st, alts, |m, s, v| {
            let Some(t) = v.term().cloned() else { return Err(m.fault(&s, "a String field without a value")) };
            let mut got = got.clone();
            got.push(t);
            m.read_all(s, r, rest, got, f)
        })
    }

    /// `String.length`, `isEmpty`, `charAt`, `equals`, `hashCode`, `compareTo`.
    pub(super) fn string_op(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        op: StringOp,
        args: &[Value<H::Ref>],
    ) -> Result<Vec<Next<H>>> {
        let Some(Value::Ref(a)) = args.first().cloned() else {
            return Err(self.fault(&st, "a String model without a receiver"));
        };
        match op {
            StringOp::Length | StringOp::IsEmpty | StringOp::HashCode => self.with_chars(st, &a, &mut |m, s, x| {
                let v = match op {
                    StringOp::Length => x.len.clone(),
                    StringOp::IsEmpty => {
                        let zero = m.terms.int(0);
                        let empty = m.terms.eq(&x.len, &zero);
                        m.bool_int(&empty)
                    }
                    _ => m.string_hash(&x),
                };
                Ok(vec![m.finish_call(s, dst, Some(Value::Int(v)))])
            }),
            StringOp::CharAt => {
                let Some(i) = args.get(1).and_then(|v| v.term()).cloned() else {
                    return Err(self.fault(&st, "charAt without an index"));
                };
                self.with_chars(st, &a, &mut |m, s, x| m.char_at(s, dst, &x, &i))
            }
            StringOp::Substring { end } => {
                let begin = args.get(1).and_then(|v| v.term()).cloned();
                let stop = args.get(2).and_then(|v| v.term()).cloned();
                let Some(begin) = begin.filter(|_| !end || stop.is_some()) else {
                    return Err(self.fault(&st, "substring without its indices"));
                };
                self.with_chars(st, &a, &mut |m, s, x| {
                    let stop = stop.clone().unwrap_or_else(|| x.len.clone());
                    m.substring(s, dst, &a, &x, &begin, &stop)
                })
            }
            StringOp::ToCharArray => self.with_chars(st, &a, &mut |m, s, x| m.char_array(s, dst, &x)),
            StringOp::Equals | StringOp::Compare { .. } => {
                let Some(Value::Ref(b)) = args.get(1).cloned() else {
                    return Err(self.fault(&st, "a String comparison without an argument"));
                };
                self.string_pair(st, dst, op, &a, &b)
            }
        }
    }

    /// `equals` and `compareTo`: the argument's class decides first (equals is false on a
    /// non-String; compareTo raises NullPointerException on null and, as the `Object`
    /// bridge, ClassCastException on a non-String), then the characters.
    fn string_pair(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        op: StringOp,
        a: &H::Ref,
        b: &H::Ref,
    ) -> Result<Vec<Next<H>>> {
        let ty = JType::Class(STRING.to_string());
        let compare = |m: &mut Self, s: State<H>| -> Result<Vec<Next<H>>> {
            m.with_chars(s, a, &mut |m, s, x| {
                m.with_chars(s, b, &mut |m, s, y| {
                    let v = if op == StringOp::Equals {
                        let eq = m.string_eq(&x, &y);
                        m.bool_int(&eq)
                    } else {
                        m.string_compare(&x, &y)
                    };
                    Ok(vec![m.finish_call(s, dst, Some(Value::Int(v)))])
                })
            })
        };
        if let StringOp::Compare { cast: false } = op {
            return self.non_null(st, b, |m, s| compare(m, s));
        }
        let mut next = Vec::new();
        for (s, inst) in self.instance_cond(st, b, &ty)? {
            for (s, yes) in self.split(s, &inst) {
                if yes {
                    next.extend(compare(self, s)?);
                } else if op == StringOp::Equals {
                    let zero = self.terms.int(0);
                    next.push(self.finish_call(s, dst, Some(Value::Int(zero))));
                } else {
                    // Not a String: null (NullPointerException) or another class.
                    next.extend(self.non_null(s, b, |m, s| m.raise(s, "java/lang/ClassCastException"))?);
                }
            }
        }
        Ok(next)
    }

    /// `s.charAt(i)`: StringIndexOutOfBoundsException outside `0..length`.
    fn char_at(&mut self, st: State<H>, dst: Option<LocalId>, x: &Chars, i: &Term) -> Result<Vec<Next<H>>> {
        let zero = self.terms.int(0);
        let parts = [self.terms.sle(&zero, i), self.terms.slt(i, &x.len)];
        let inside = self.terms.and(&parts);
        let mut next = Vec::new();
        for s in self.within_bounds(st, &inside, &mut next)? {
            let v = self.char_of(x, i);
            next.push(self.finish_call(s, dst, Some(Value::Int(v))));
        }
        Ok(next)
    }

    /// The sides of `st` on which `inside` holds; on the others the JDK raises
    /// StringIndexOutOfBoundsException, into `next`.
    fn within_bounds(&mut self, st: State<H>, inside: &Term, next: &mut Vec<Next<H>>) -> Result<Vec<State<H>>> {
        let mut ok = Vec::new();
        for (s, yes) in self.split(st, inside) {
            if yes {
                ok.push(s);
            } else {
                next.extend(self.raise(s, "java/lang/StringIndexOutOfBoundsException")?);
            }
        }
        Ok(ok)
    }

    /// `s.substring(begin, end)`: StringIndexOutOfBoundsException unless
    /// `0 <= begin <= end <= length`; `s` itself when that is all of it, else a new string
    /// whose character `k` is `s`'s `begin + k`.
    fn substring(
        &mut self,
        st: State<H>,
        dst: Option<LocalId>,
        this: &H::Ref,
        x: &Chars,
        begin: &Term,
        end: &Term,
    ) -> Result<Vec<Next<H>>> {
        let zero = self.terms.int(0);
        let parts = [self.terms.sle(&zero, begin), self.terms.sle(begin, end), self.terms.sle(end, &x.len)];
        let inside = self.terms.and(&parts);
        let mut next = Vec::new();
        for s in self.within_bounds(st, &inside, &mut next)? {
            let whole = [self.terms.eq(begin, &zero), self.terms.eq(end, &x.len)];
            let whole = self.terms.and(&whole);
            for (mut s, all) in self.split(s, &whole) {
                if all {
                    // A path of its own: the JDK's `return this`, named as such.
                    let callee = self.in_model.clone().unwrap_or_default();
                    let choice = super::Choice::Dispatch(format!("{callee} returns the string itself"));
                    match self.decide(s, choice, true) {
                        Ok(s) => next.push(self.finish_call(s, dst, Some(Value::Ref(this.clone())))),
                        Err(done) => next.push(done),
                    }
                    continue;
                }
                let mut values = vec![self.terms.bin(BvOp::Sub, end, begin)];
                for k in 0..x.chars.len() {
                    let at = self.terms.int(k as i32);
                    let from = self.terms.bin(BvOp::Add, begin, &at);
                    values.push(self.char_of(x, &from));
                }
                let r = self.string_of(&mut s, values)?;
                next.push(self.finish_call(s, dst, Some(r)));
            }
        }
        Ok(next)
    }

    /// `s.toCharArray()`: a new `char[]` as long as `s` holding its characters.
    fn char_array(&mut self, st: State<H>, dst: Option<LocalId>, x: &Chars) -> Result<Vec<Next<H>>> {
        let mut st = st;
        let kind = ObjKind::Array(JType::Char);
        let r = self.strategy.alloc(super::control::cx!(self), &mut st.heap, kind, Some(x.len.clone()))?;
        // Characters past the length are written too, where no read can reach them.
        for (k, c) in x.chars.iter().enumerate() {
            let at = self.terms.int(k as i32);
            let alts =
                self.strategy.array_store(super::control::cx!(self), &st.heap, &r, &at, Value::Int(c.clone()))?;
            match <[_; 1]>::try_from(alts) {
                Ok([alt]) if alt.cut.is_none() => {
                    st.heap = alt.heap;
                    st.assume(&alt.assume);
                }
                _ => return Err(self.fault(&st, "a write to a new char[] with alternatives")),
            }
        }
        Ok(vec![self.finish_call(st, dst, Some(Value::Ref(r)))])
    }

    /// Character `i` of `x` (0 outside the modelled characters).
    fn char_of(&mut self, x: &Chars, i: &Term) -> Term {
        let zero = self.terms.int(0);
        let mut v = zero;
        for (k, c) in x.chars.iter().enumerate() {
            let at = self.terms.int(k as i32);
            let here = self.terms.eq(i, &at);
            v = self.terms.ite(&here, c, &v);
        }
        v
    }

    /// 1 or 0 as `b` holds.
    fn bool_int(&mut self, b: &Term) -> Term {
        let (one, zero) = (self.terms.int(1), self.terms.int(0));
        self.terms.ite(b, &one, &zero)
    }

    /// Same length and the same characters below it.
    fn string_eq(&mut self, x: &Chars, y: &Chars) -> Term {
        let mut parts = vec![self.terms.eq(&x.len, &y.len)];
        for (k, (a, b)) in x.chars.iter().zip(&y.chars).enumerate() {
            let at = self.terms.int(k as i32);
            let past = self.terms.sle(&x.len, &at);
            let same = self.terms.eq(a, b);
            parts.push(self.terms.or(&[past, same]));
        }
        self.terms.and(&parts)
    }

    /// `s[0]*31^(n-1) + ... + s[n-1]`, as the JDK computes it (wrapping).
    fn string_hash(&mut self, x: &Chars) -> Term {
        let mut h = self.terms.int(0);
        let k31 = self.terms.int(31);
        for (k, c) in x.chars.iter().enumerate() {
            let at = self.terms.int(k as i32);
            let inside = self.terms.slt(&at, &x.len);
            let times = self.terms.bin(BvOp::Mul, &h, &k31);
            let next = self.terms.bin(BvOp::Add, &times, c);
            h = self.terms.ite(&inside, &next, &h);
        }
        h
    }

    /// The difference of the first differing characters, else of the lengths.
    fn string_compare(&mut self, x: &Chars, y: &Chars) -> Term {
        let mut v = self.terms.bin(BvOp::Sub, &x.len, &y.len);
        for (k, (a, b)) in x.chars.iter().zip(&y.chars).enumerate().rev() {
            let at = self.terms.int(k as i32);
            let parts = [self.terms.slt(&at, &x.len), self.terms.slt(&at, &y.len), self.terms.ne(a, b)];
            let differ = self.terms.and(&parts);
            let d = self.terms.bin(BvOp::Sub, a, b);
            v = self.terms.ite(&differ, &d, &v);
        }
        v
    }
}
