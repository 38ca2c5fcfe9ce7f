//! Lowering one method: find its code, split blocks, simulate the stack block by block.
//!
//! Blocks are lowered in worklist order from the entry; a block's entry stack (the kinds
//! on the operand stack) comes from the first predecessor lowered, and every other
//! predecessor must agree. Handler blocks start with the caught exception on the stack.

use std::collections::BTreeMap;

use cafebabe::attributes::{AttributeData, CodeData};
use cafebabe::bytecode::Opcode;

use super::cfg::{self, Cfg};
use super::frame::{BlockBuf, Locals, LvtEntry};
use crate::classfile::{ClassId, ClassTable, JType, Kind, MethodId, parse};
use crate::error::Location;
use crate::ir::{Block, BlockId, Body, Cond, Const, Handler, Operand, RelOp, Terminator};
use crate::{Error, Result};

/// The state of lowering one method.
pub(super) struct Lowerer<'t> {
    pub table: &'t ClassTable,
    pub origin: String,
    pub at: Location,
    pub locals: Locals,
    pub buf: BlockBuf,
    /// The class whose class file holds the code (and its `BootstrapMethods`).
    pub owner: ClassId,
    pub bootstrap: Vec<super::lambda::Bootstrap>,
    /// The method whose code this is (for its source lines).
    pub code: MethodId,
}

impl Lowerer<'_> {
    /// The source line of bytecode offset `pc`, where the class file has line numbers.
    fn line(&self, pc: u32) -> Option<u32> {
        self.table.method(self.code).source.line(pc)
    }

    pub(super) fn location(&self) -> Location {
        Location { pc: Some(self.buf.pc), line: self.line(self.buf.pc), ..self.at.clone() }
    }
}

/// Lowers the bytecode of `method` to IR.
pub fn lower_method(table: &ClassTable, method: MethodId) -> Result<Body> {
    // The method of a lambda call site's class is built, not lowered from bytes.
    if let Some(site) = table.class(table.method(method).owner).lambda.clone() {
        return super::lambda::body(table, method, &site);
    }
    let m = table.method(method).clone();
    // An inherited target runs its superclass method's code with a receiver of its own class.
    let code_owner = m.inherited.map_or(m.owner, |i| table.method(i).owner);
    let class = table.class(code_owner);
    let at = Location { class: Some(class.java_name()), method: Some(m.signature()), pc: None, line: None };
    let no_code = |why: &str| Error::NoCode { at: at.clone(), why: why.to_string() };
    let bytes = class.bytes.clone().ok_or_else(|| no_code("its class is not on the class path"))?;
    let origin = class.origin.clone().unwrap_or_default();
    let cf = parse::parse_with_code(&origin, &bytes)?;
    let info = cf
        .methods
        .iter()
        .find(|x| x.name == m.name && parse::method_desc(&x.descriptor) == m.desc)
        .ok_or_else(|| no_code("not found in its class file"))?;
    let code = info
        .attributes
        .iter()
        .find_map(|a| match &a.data {
            AttributeData::Code(c) => Some(c),
            _ => None,
        })
        .ok_or_else(|| no_code("abstract or native"))?;
    let lvt = local_variable_table(code);
    let bootstrap = super::lambda::bootstrap_table(&cf);
    let mut lw = Lowerer {
        table,
        origin,
        at: at.clone(),
        locals: Locals::new(lvt),
        buf: BlockBuf::default(),
        owner: code_owner,
        bootstrap,
        code: m.inherited.unwrap_or(method),
    };
    // Parameters first: `this`, then each declared parameter (longs and doubles take two slots).
    let mut slot: u16 = 0;
    let mut param_count = 0;
    if !m.is_static() {
        let this_ty = JType::Class(lw.table.class(m.owner).name.clone());
        lw.locals.param(0, &this_ty, true);
        slot = 1;
        param_count = 1;
    }
    for p in &m.desc.params {
        lw.locals.param(slot, p, false);
        slot = slot.saturating_add(p.kind().slots() as u16);
        param_count += 1;
    }
    let bc = code.bytecode.as_ref().ok_or_else(|| no_code("bytecode was not parsed"))?;
    let cfg = cfg::build(&bc.opcodes, &code.exception_table);
    if cfg.blocks.is_empty() {
        return Err(no_code("empty code"));
    }
    let blocks = lw.lower_blocks(&bc.opcodes, code, &cfg)?;
    let mut body = Body { method, locals: lw.locals.list, param_count, blocks };
    super::rewrite::prune_locals(&mut body);
    Ok(body)
}

fn local_variable_table(code: &CodeData<'_>) -> Vec<LvtEntry> {
    code.attributes
        .iter()
        .filter_map(|a| match &a.data {
            AttributeData::LocalVariableTable(v) => Some(v),
            _ => None,
        })
        .flatten()
        .map(|e| LvtEntry {
            slot: e.index,
            name: e.name.to_string(),
            ty: parse::field_type(&e.descriptor),
            start_pc: e.start_pc as u32,
        })
        .collect()
}

impl Lowerer<'_> {
    fn lower_blocks(&mut self, ops: &[(usize, Opcode<'_>)], code: &CodeData<'_>, cfg: &Cfg) -> Result<Vec<Block>> {
        let n = cfg.blocks.len();
        let mut entry: Vec<Option<Vec<Kind>>> = vec![None; n];
        let mut done: Vec<Option<Block>> = vec![None; n];
        entry[0] = Some(Vec::new());
        let mut work = vec![BlockId(0)];
        while let Some(b) = work.pop() {
            let i = b.0 as usize;
            if done[i].is_some() {
                continue;
            }
            let kinds = entry[i].clone().unwrap_or_default();
            let handlers = self.handlers(code, cfg, cfg.blocks[i].start_pc)?;
            let (block, succs) = self.lower_block(ops, cfg, b, &kinds, handlers)?;
            let mut next: Vec<(BlockId, Vec<Kind>)> = succs;
            for h in &block.handlers {
                next.push((h.target, vec![Kind::Ref]));
            }
            done[i] = Some(block);
            for (s, k) in next {
                let si = s.0 as usize;
                match &entry[si] {
                    None => {
                        entry[si] = Some(k);
                        work.push(s);
                    }
                    Some(old) if *old != k => {
                        self.buf.pc = cfg.blocks[si].start_pc;
                        return Err(Error::Lowering {
                            at: self.location(),
                            opcode: "(join)".into(),
                            why: format!("inconsistent operand stacks at a join: {old:?} and {k:?}"),
                        });
                    }
                    Some(_) => {}
                }
            }
        }
        // Blocks only reachable through jsr/ret-like flows cannot occur here; anything
        // left unlowered is dead code that the reachability pass over-approximated.
        let mut out = Vec::with_capacity(n);
        for (i, b) in done.into_iter().enumerate() {
            match b {
                Some(b) => out.push(b),
                None => out.push(Block {
                    start_pc: cfg.blocks[i].start_pc,
                    instrs: Vec::new(),
                    term: Terminator::Goto(BlockId(i as u32)),
                    term_pc: cfg.blocks[i].start_pc,
                    handlers: Vec::new(),
                }),
            }
        }
        Ok(out)
    }

    /// Handlers covering the block at `start_pc`, in exception-table order.
    fn handlers(&mut self, code: &CodeData<'_>, cfg: &Cfg, start_pc: u32) -> Result<Vec<Handler>> {
        let mut out = Vec::new();
        for e in &code.exception_table {
            if start_pc < e.start_pc as u32 || start_pc >= e.end_pc as u32 {
                continue;
            }
            let Some(target) = cfg.block_at(e.handler_pc as u32) else {
                self.buf.pc = start_pc;
                return Err(Error::Lowering {
                    at: self.location(),
                    opcode: "(exception table)".into(),
                    why: format!("handler offset {} is not an instruction", e.handler_pc),
                });
            };
            let catch = e.catch_type.as_ref().map(|c| self.table.intern(c));
            let exception = self.locals.stack(0, Kind::Ref);
            out.push(Handler { catch, target, exception });
        }
        Ok(out)
    }

    /// Lowers one block; returns it with its successors and the stack kinds they receive.
    fn lower_block(
        &mut self,
        ops: &[(usize, Opcode<'_>)],
        cfg: &Cfg,
        id: BlockId,
        kinds: &[Kind],
        handlers: Vec<Handler>,
    ) -> Result<(Block, Vec<(BlockId, Vec<Kind>)>)> {
        let raw = &cfg.blocks[id.0 as usize];
        self.buf = BlockBuf::enter(&mut self.locals, kinds);
        self.buf.pc = raw.start_pc;
        let last = raw.end.saturating_sub(1);
        let mut term = None;
        for (pc, op) in &ops[raw.first..raw.end] {
            self.buf.pc = *pc as u32;
            if cfg::ends_block(*pc, op) {
                term = Some(self.terminator(*pc, op, ops.get(last + 1).map(|(p, _)| *p as u32), cfg)?);
            } else {
                self.step(op)?;
            }
        }
        let term_pc = self.buf.pc;
        let (term, succs) = match term {
            Some(t) => t,
            None => {
                let next_pc = ops.get(raw.end).map(|(p, _)| *p as u32);
                let next = next_pc.and_then(|p| cfg.block_at(p)).ok_or_else(|| Error::Lowering {
                    at: self.location(),
                    opcode: "(end of code)".into(),
                    why: "control falls off the end of the code".into(),
                })?;
                self.buf.flush(&mut self.locals, &mut []);
                (Terminator::Goto(next), vec![next])
            }
        };
        let exit = self.buf.kinds();
        let instrs = std::mem::take(&mut self.buf.instrs);
        let block = Block { start_pc: raw.start_pc, instrs, term, term_pc, handlers };
        Ok((block, succs.into_iter().map(|s| (s, exit.clone())).collect()))
    }

    /// Lowers a block-ending instruction.
    fn terminator(
        &mut self,
        pc: usize,
        op: &Opcode<'_>,
        fallthrough: Option<u32>,
        cfg: &Cfg,
    ) -> Result<(Terminator, Vec<BlockId>)> {
        use Opcode as O;
        let block = |lw: &Self, t: u32| {
            cfg.block_at(t).ok_or_else(|| lw.malformed(op, &format!("jump to offset {t}, which is not reachable code")))
        };
        let fall = |lw: &Self| match fallthrough {
            Some(p) => block(lw, p),
            None => Err(lw.malformed(op, "control falls off the end of the code")),
        };
        match op {
            O::Goto(j) => {
                let t = block(self, cfg::target(pc, *j))?;
                self.buf.flush(&mut self.locals, &mut []);
                Ok((Terminator::Goto(t), vec![t]))
            }
            O::Ireturn | O::Lreturn | O::Freturn | O::Dreturn | O::Areturn => {
                let kind = match op {
                    O::Ireturn => Kind::Int,
                    O::Lreturn => Kind::Long,
                    O::Freturn => Kind::Float,
                    O::Dreturn => Kind::Double,
                    _ => Kind::Ref,
                };
                let v = self.pop_kind(op, kind)?;
                Ok((Terminator::Return(Some(v)), vec![]))
            }
            O::Return => Ok((Terminator::Return(None), vec![])),
            O::Athrow => {
                let v = self.pop_kind(op, Kind::Ref)?;
                Ok((Terminator::Throw(v), vec![]))
            }
            O::Tableswitch(_) | O::Lookupswitch(_) => {
                let mut key = vec![self.pop_kind(op, Kind::Int)?];
                self.buf.flush(&mut self.locals, &mut key);
                let (default, pairs): (i32, Vec<(i32, i32)>) = match op {
                    O::Tableswitch(t) => (
                        t.default,
                        t.jumps.iter().enumerate().map(|(i, j)| (t.low.wrapping_add(i as i32), *j)).collect(),
                    ),
                    O::Lookupswitch(t) => (t.default, t.match_offsets.clone()),
                    _ => return Err(self.malformed(op, "not a switch")),
                };
                let default = block(self, cfg::target(pc, default))?;
                let mut cases: BTreeMap<i32, BlockId> = BTreeMap::new();
                for (k, j) in pairs {
                    cases.insert(k, block(self, cfg::target(pc, j))?);
                }
                let mut succs: Vec<BlockId> = cases.values().copied().collect();
                succs.push(default);
                let key = key.pop().unwrap_or(Operand::Const(Const::Int(0)));
                Ok((Terminator::Switch { key, cases: cases.into_iter().collect(), default }, succs))
            }
            O::Jsr(_) | O::Ret(_) => Err(self.unsupported(op, "subroutines (jsr/ret, pre-Java-6 finally)")),
            _ => {
                let (rel, is_ref, unary, j) = branch_shape(op).ok_or_else(|| self.malformed(op, "not a branch"))?;
                let kind = if is_ref { Kind::Ref } else { Kind::Int };
                let mut ops = if unary {
                    let a = self.pop_kind(op, kind)?;
                    let zero = if is_ref { Const::Null } else { Const::Int(0) };
                    vec![a, Operand::Const(zero)]
                } else {
                    let b = self.pop_kind(op, kind)?;
                    let a = self.pop_kind(op, kind)?;
                    vec![a, b]
                };
                self.buf.flush(&mut self.locals, &mut ops);
                let then = block(self, cfg::target(pc, j))?;
                let otherwise = fall(self)?;
                let b = ops.pop().unwrap_or(Operand::Const(Const::Null));
                let a = ops.pop().unwrap_or(Operand::Const(Const::Null));
                let cond = if is_ref { Cond::Ref(rel, a, b) } else { Cond::Int(rel, a, b) };
                Ok((Terminator::If { cond, then, otherwise }, vec![then, otherwise]))
            }
        }
    }
}

/// (relation, on references, compares against 0/null, jump offset) of a conditional branch.
fn branch_shape(op: &Opcode<'_>) -> Option<(RelOp, bool, bool, i32)> {
    use Opcode as O;
    Some(match op {
        O::Ifeq(j) => (RelOp::Eq, false, true, *j),
        O::Ifne(j) => (RelOp::Ne, false, true, *j),
        O::Iflt(j) => (RelOp::Lt, false, true, *j),
        O::Ifge(j) => (RelOp::Ge, false, true, *j),
        O::Ifgt(j) => (RelOp::Gt, false, true, *j),
        O::Ifle(j) => (RelOp::Le, false, true, *j),
        O::IfIcmpeq(j) => (RelOp::Eq, false, false, *j),
        O::IfIcmpne(j) => (RelOp::Ne, false, false, *j),
        O::IfIcmplt(j) => (RelOp::Lt, false, false, *j),
        O::IfIcmpge(j) => (RelOp::Ge, false, false, *j),
        O::IfIcmpgt(j) => (RelOp::Gt, false, false, *j),
        O::IfIcmple(j) => (RelOp::Le, false, false, *j),
        O::IfAcmpeq(j) => (RelOp::Eq, true, false, *j),
        O::IfAcmpne(j) => (RelOp::Ne, true, false, *j),
        O::Ifnull(j) => (RelOp::Eq, true, true, *j),
        O::Ifnonnull(j) => (RelOp::Ne, true, true, *j),
        _ => return None,
    })
}
