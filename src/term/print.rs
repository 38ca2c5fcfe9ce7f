//! Readable infix printing of terms (`(this.val + o1.val) <= 3`, `c0 ? a : b`).
//!
//! Terms are DAGs: a big subterm used more than once is printed once, as a definition
//! `$1 = ...` before the term (`let $1 = (c ? a : b) in ($1 == null)`), so that output
//! stays proportional to the DAG, not to its tree unfolding.

use std::collections::HashMap;
use std::fmt;

use super::{BvCmp, BvOp, FpConv, FpOp, Node, Sort, Term, TermId};

/// Names an equality atom `var == constant` specially (e.g. a heap choice as
/// `this.next -> L2`); returns `None` to print it normally.
pub type AtomNamer<'a> = &'a dyn Fn(&str, i64) -> Option<String>;

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(None))
    }
}

impl Term {
    /// Prints the term, naming `var == k` atoms with `namer` where it gives a name.
    pub fn render(&self, namer: Option<AtomNamer<'_>>) -> String {
        let shared = shared_subterms(self);
        let mut names: HashMap<TermId, String> = HashMap::new();
        let mut defs: Vec<String> = Vec::new();
        for t in &shared {
            let mut d = String::new();
            write_term(t, &mut d, namer, 0, &names);
            let name = format!("${}", names.len() + 1);
            defs.push(format!("{name} = {d}"));
            names.insert(t.id(), name);
        }
        let mut s = String::new();
        if !defs.is_empty() {
            s.push_str("let ");
            s.push_str(&defs.join(", "));
            s.push_str(" in ");
        }
        write_term(self, &mut s, namer, 0, &names);
        s
    }
}

/// Subterms worth naming (used more than once and not tiny), children before parents.
fn shared_subterms(root: &Term) -> Vec<Term> {
    const MIN_SIZE: u64 = 6;
    let mut uses: HashMap<TermId, u32> = HashMap::new();
    let mut size: HashMap<TermId, u64> = HashMap::new();
    let mut order: Vec<Term> = Vec::new();
    let mut seen: std::collections::HashSet<TermId> = std::collections::HashSet::new();
    let mut stack: Vec<(Term, bool)> = vec![(root.clone(), false)];
    while let Some((t, expanded)) = stack.pop() {
        if expanded {
            let n =
                t.children().iter().map(|c| size.get(&c.id()).copied().unwrap_or(1)).fold(1u64, u64::saturating_add);
            size.insert(t.id(), n);
            order.push(t);
            continue;
        }
        if !seen.insert(t.id()) {
            continue;
        }
        stack.push((t.clone(), true));
        for c in t.children() {
            *uses.entry(c.id()).or_insert(0) += 1;
            if !size.contains_key(&c.id()) {
                stack.push((c.clone(), false));
            }
        }
    }
    order
        .into_iter()
        .filter(|t| t.id() != root.id())
        .filter(|t| uses.get(&t.id()).copied().unwrap_or(0) > 1 && size.get(&t.id()).copied().unwrap_or(1) >= MIN_SIZE)
        .collect()
}

/// Deeper nesting is elided (`...`) so that printing never exhausts the stack.
const MAX_DEPTH: usize = 256;

fn write_term(t: &Term, out: &mut String, namer: Option<AtomNamer<'_>>, depth: usize, names: &HashMap<TermId, String>) {
    if depth > MAX_DEPTH {
        out.push_str("...");
        return;
    }
    if depth > 0
        && let Some(n) = names.get(&t.id())
    {
        out.push_str(n);
        return;
    }
    let mut sub = |t: &Term, out: &mut String| write_term(t, out, namer, depth + 1, names);
    match t.node() {
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Bv(..) => {
            let v = t.as_i64().unwrap_or(0);
            if t.width() == 64 {
                out.push_str(&format!("{v}L"));
            } else {
                out.push_str(&v.to_string());
            }
        }
        Node::Var(name, _) => out.push_str(name),
        Node::Not(a) => {
            if let Node::Eq(x, y) = a.node() {
                if let Some(s) = named_atom(x, y, namer) {
                    out.push_str("!(");
                    out.push_str(&s);
                    out.push(')');
                    return;
                }
                out.push('(');
                sub(x, out);
                out.push_str(" != ");
                sub(y, out);
                out.push(')');
            } else {
                out.push('!');
                sub(a, out);
            }
        }
        Node::And(xs) | Node::Or(xs) => {
            let op = if matches!(t.node(), Node::And(_)) { " && " } else { " || " };
            out.push('(');
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    out.push_str(op);
                }
                sub(x, out);
            }
            out.push(')');
        }
        Node::Ite(c, a, b) => {
            out.push('(');
            sub(c, out);
            out.push_str(" ? ");
            sub(a, out);
            out.push_str(" : ");
            sub(b, out);
            out.push(')');
        }
        Node::Eq(a, b) => {
            if let Some(s) = named_atom(a, b, namer) {
                out.push_str(&s);
                return;
            }
            out.push('(');
            sub(a, out);
            out.push_str(if a.sort() == Sort::Bool { " <=> " } else { " == " });
            sub(b, out);
            out.push(')');
        }
        Node::Bin(op, a, b) => {
            out.push('(');
            sub(a, out);
            out.push_str(match op {
                BvOp::Add => " + ",
                BvOp::Sub => " - ",
                BvOp::Mul => " * ",
                BvOp::SDiv => " / ",
                BvOp::SRem => " % ",
                BvOp::Shl => " << ",
                BvOp::LShr => " >>> ",
                BvOp::AShr => " >> ",
                BvOp::And => " & ",
                BvOp::Or => " | ",
                BvOp::Xor => " ^ ",
            });
            sub(b, out);
            out.push(')');
        }
        Node::Neg(a) => {
            out.push('-');
            sub(a, out);
        }
        Node::Cmp(op, a, b) => {
            out.push('(');
            sub(a, out);
            out.push_str(match op {
                BvCmp::Slt => " < ",
                BvCmp::Sle => " <= ",
                BvCmp::Ult => " <u ",
                BvCmp::Ule => " <=u ",
            });
            sub(b, out);
            out.push(')');
        }
        Node::SExt(_, a) => cast(t, a, out, &mut sub),
        Node::ZExt(_, a) => cast(t, a, out, &mut sub),
        Node::Extract(_, _, a) => cast(t, a, out, &mut sub),
        Node::Select(a, i) => {
            sub(a, out);
            out.push('[');
            sub(i, out);
            out.push(']');
        }
        Node::Store(a, i, v) => {
            sub(a, out);
            out.push('[');
            sub(i, out);
            out.push_str(" := ");
            sub(v, out);
            out.push(']');
        }
        Node::FpBin(op, a, b) => {
            // Constants as the float or double they are, not their bits.
            let sub = |t: &Term, out: &mut String| match t.node() {
                Node::Bv(w, v) => out.push_str(&super::java_literal(*w, *v)),
                _ => sub(t, out),
            };
            out.push('(');
            sub(a, out);
            out.push_str(match op {
                FpOp::Add => " +. ",
                FpOp::Sub => " -. ",
                FpOp::Mul => " *. ",
                FpOp::Div => " /. ",
                FpOp::Lt => " <. ",
                FpOp::Le => " <=. ",
                FpOp::Eq => " ==. ",
            });
            sub(b, out);
            out.push(')');
        }
        Node::FpConv(c, to, a) => {
            let ty = match (c, to) {
                (FpConv::ToInt, 64) => "long",
                (FpConv::ToInt, _) => "int",
                (_, 64) => "double",
                _ => "float",
            };
            out.push_str(&format!("({ty}) "));
            sub(a, out);
        }
    }
}

fn named_atom(a: &Term, b: &Term, namer: Option<AtomNamer<'_>>) -> Option<String> {
    let namer = namer?;
    match (a.node(), b.node()) {
        (Node::Var(n, _), Node::Bv(..)) => namer(n, b.as_i64()?),
        (Node::Bv(..), Node::Var(n, _)) => namer(n, a.as_i64()?),
        _ => None,
    }
}

/// Prints width changes as Java casts: `(long) x`, `(int) x`, `(byte) x`, `(char) x`.
fn cast(t: &Term, inner: &Term, out: &mut String, sub: &mut dyn FnMut(&Term, &mut String)) {
    let name = match (t.node(), t.width(), inner.width()) {
        (Node::SExt(..), 64, _) => "long",
        (Node::SExt(..), 32, 8) | (Node::Extract(..), 8, _) => "byte",
        (Node::SExt(..), 32, 16) | (Node::Extract(..), 16, _) => "short",
        (Node::ZExt(..), 32, 16) => "char",
        (Node::Extract(..), 32, _) => "int",
        _ => "",
    };
    if name.is_empty() {
        out.push_str(&format!("(bv{})", t.width()));
    } else {
        out.push('(');
        out.push_str(name);
        out.push_str(") ");
    }
    sub(inner, out);
}
