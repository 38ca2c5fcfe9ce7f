//! The lowering's view of a JVM frame: IR locals for JVM slots, stack depths and temporaries,
//! and the abstract operand stack of the block being lowered.
//!
//! JVM local slot `n` holding kind `k` becomes one IR local (named from the
//! LocalVariableTable when that is unambiguous, else `vn`); stack depth `d` becomes `sd`;
//! `tn` are temporaries. Within a block the stack holds [`Operand`]s, so that loads and
//! constants are not copied; a write to a local that the stack still refers to first
//! saves the old value in a temporary. At the end of a block the stack is *flushed*: every
//! entry is moved to its depth's canonical local, which is where successor blocks find it.

use std::collections::{HashMap, HashSet};

use crate::classfile::{JType, Kind};
use crate::ir::{Expr, Instr, Local, LocalId, Operand, Stmt};

/// What an IR local stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    Var(u16, Kind),
    Stack(usize, Kind),
    Temp(u32),
}

/// One LocalVariableTable entry.
#[derive(Debug, Clone)]
pub struct LvtEntry {
    pub slot: u16,
    pub name: String,
    pub ty: JType,
    pub start_pc: u32,
}

/// The IR locals of one body, created on first use.
#[derive(Debug, Default)]
pub struct Locals {
    pub list: Vec<Local>,
    by_key: HashMap<Key, LocalId>,
    used: HashSet<String>,
    lvt: Vec<LvtEntry>,
    temps: u32,
}

impl Locals {
    pub fn new(lvt: Vec<LvtEntry>) -> Self {
        Locals { lvt, ..Locals::default() }
    }

    fn add(&mut self, key: Key, name: String, kind: Kind, ty: Option<JType>) -> LocalId {
        let mut name = name;
        while self.used.contains(&name) {
            name.push('_');
        }
        self.used.insert(name.clone());
        let id = LocalId(self.list.len() as u32);
        self.list.push(Local { name, kind, ty });
        self.by_key.insert(key, id);
        id
    }

    /// Registers a parameter in JVM slot `slot` (called in parameter order, before anything else).
    pub fn param(&mut self, slot: u16, ty: &JType, is_this: bool) -> LocalId {
        let kind = ty.kind();
        let lvt_name = self.lvt.iter().find(|e| e.slot == slot && e.start_pc == 0).map(|e| e.name.clone());
        let name = lvt_name.unwrap_or_else(|| if is_this { "this".to_string() } else { format!("v{slot}") });
        self.add(Key::Var(slot, kind), name, kind, Some(ty.clone()))
    }

    /// The local for JVM slot `slot` holding values of `kind`.
    pub fn var(&mut self, slot: u16, kind: Kind) -> LocalId {
        if let Some(id) = self.by_key.get(&Key::Var(slot, kind)) {
            return *id;
        }
        let entries: Vec<&LvtEntry> = self.lvt.iter().filter(|e| e.slot == slot && e.ty.kind() == kind).collect();
        let mut names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        let (name, ty) = match (names.as_slice(), entries.first()) {
            ([one], Some(first)) if !self.used.contains(*one) => {
                let same_ty = entries.iter().all(|e| e.ty == first.ty);
                (one.to_string(), same_ty.then(|| first.ty.clone()))
            }
            _ => {
                let plain = format!("v{slot}");
                if self.used.contains(&plain) { (format!("v{slot}{}", kind.letter()), None) } else { (plain, None) }
            }
        };
        self.add(Key::Var(slot, kind), name, kind, ty)
    }

    /// The canonical local of operand-stack depth `depth` holding `kind`.
    pub fn stack(&mut self, depth: usize, kind: Kind) -> LocalId {
        if let Some(id) = self.by_key.get(&Key::Stack(depth, kind)) {
            return *id;
        }
        let plain = format!("s{depth}");
        let name = if self.used.contains(&plain) { format!("s{depth}{}", kind.letter()) } else { plain };
        self.add(Key::Stack(depth, kind), name, kind, None)
    }

    /// A fresh temporary.
    pub fn temp(&mut self, kind: Kind) -> LocalId {
        let n = self.temps;
        self.temps += 1;
        self.add(Key::Temp(n), format!("t{n}"), kind, None)
    }

    fn is_stack(&self, id: LocalId) -> bool {
        self.by_key.iter().any(|(k, v)| *v == id && matches!(k, Key::Stack(..)))
    }
}

/// One operand-stack entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub op: Operand,
    pub kind: Kind,
}

/// The abstract stack and the statements emitted so far for the current block.
#[derive(Debug, Default)]
pub struct BlockBuf {
    pub stack: Vec<Entry>,
    pub instrs: Vec<Instr>,
    pub pc: u32,
}

impl BlockBuf {
    /// A block entered with the stack kinds `kinds`, each in its canonical local.
    pub fn enter(locals: &mut Locals, kinds: &[Kind]) -> Self {
        let stack = kinds
            .iter()
            .enumerate()
            .map(|(d, k)| Entry { op: Operand::Local(locals.stack(d, *k)), kind: *k })
            .collect();
        BlockBuf { stack, instrs: Vec::new(), pc: 0 }
    }

    pub fn emit(&mut self, stmt: Stmt) {
        self.instrs.push(Instr { pc: self.pc, stmt });
    }

    pub fn push(&mut self, op: Operand, kind: Kind) {
        self.stack.push(Entry { op, kind });
    }

    /// Saves, in a temporary, the current value of `x` for every stack entry that refers to it.
    pub fn protect(&mut self, locals: &mut Locals, x: LocalId) {
        let mut temp: Option<LocalId> = None;
        for i in 0..self.stack.len() {
            if self.stack[i].op == Operand::Local(x) {
                let t = match temp {
                    Some(t) => t,
                    None => {
                        let t = locals.temp(self.stack[i].kind);
                        self.emit(Stmt::Assign(t, Expr::Use(Operand::Local(x))));
                        temp = Some(t);
                        t
                    }
                };
                self.stack[i].op = Operand::Local(t);
            }
        }
    }

    /// Pushes the value of `e` (of `kind`) through the canonical local of the new depth.
    pub fn push_expr(&mut self, locals: &mut Locals, e: Expr, kind: Kind) {
        let dst = locals.stack(self.stack.len(), kind);
        self.protect(locals, dst);
        self.emit(Stmt::Assign(dst, e));
        self.push(Operand::Local(dst), kind);
    }

    /// `x := v`, folding `(s := e); (x := s)` into `(x := e)` when `s` is a dead stack local.
    pub fn store(&mut self, locals: &mut Locals, x: LocalId, v: Operand) {
        let referenced = self.stack.iter().any(|e| e.op == Operand::Local(x));
        if !referenced
            && let Operand::Local(s) = &v
            && locals.is_stack(*s)
            && !self.stack.iter().any(|e| e.op == v)
            && let Some(Instr { stmt: Stmt::Assign(dst, _), .. }) = self.instrs.last_mut()
            && dst == s
        {
            *dst = x;
            return;
        }
        self.protect(locals, x);
        self.emit(Stmt::Assign(x, Expr::Use(v)));
    }

    /// Moves every stack entry to its canonical local; `extra` operands (a terminator's,
    /// already popped) are kept valid.
    pub fn flush(&mut self, locals: &mut Locals, extra: &mut [Operand]) {
        let targets: Vec<(usize, LocalId)> = self
            .stack
            .iter()
            .enumerate()
            .filter_map(|(d, e)| {
                let canon = locals.stack(d, e.kind);
                (e.op != Operand::Local(canon)).then_some((d, canon))
            })
            .collect();
        if targets.is_empty() {
            return;
        }
        let written: Vec<LocalId> = targets.iter().map(|(_, l)| *l).collect();
        // Values that live in a local about to be overwritten are saved first.
        for w in &written {
            let needs = self.stack.iter().any(|e| e.op == Operand::Local(*w)) || extra.contains(&Operand::Local(*w));
            if !needs {
                continue;
            }
            let kind = locals.list.get(w.0 as usize).map(|l| l.kind).unwrap_or(Kind::Int);
            let t = locals.temp(kind);
            self.emit(Stmt::Assign(t, Expr::Use(Operand::Local(*w))));
            // Every entry that refers to `w` sits at another depth than `w`'s own, so it
            // is about to be moved and must read the saved value.
            for e in self.stack.iter_mut() {
                if e.op == Operand::Local(*w) {
                    e.op = Operand::Local(t);
                }
            }
            for o in extra.iter_mut() {
                if *o == Operand::Local(*w) {
                    *o = Operand::Local(t);
                }
            }
        }
        for (d, canon) in targets {
            let op = self.stack[d].op.clone();
            if op != Operand::Local(canon) {
                self.emit(Stmt::Assign(canon, Expr::Use(op)));
                self.stack[d].op = Operand::Local(canon);
            }
        }
    }

    /// The kinds on the stack, bottom first.
    pub fn kinds(&self) -> Vec<Kind> {
        self.stack.iter().map(|e| e.kind).collect()
    }
}
