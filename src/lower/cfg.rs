//! Basic-block boundaries of a bytecode array: leaders, successors and reachability.
//!
//! A block starts at offset 0, at every jump or switch target, after every instruction that
//! ends control flow (branches, switches, returns, `athrow`), at every handler and at the
//! start and end of every protected range, so that one handler list covers a whole block.
//! Only blocks reachable from the entry (through jumps, fall-through and handlers of
//! reachable code) get a [`BlockId`]; dead code is dropped.

use std::collections::{BTreeMap, BTreeSet};

use cafebabe::attributes::ExceptionTableEntry;
use cafebabe::bytecode::Opcode;

use crate::ir::BlockId;

/// One raw block: a range of indices into the opcode list.
#[derive(Debug, Clone)]
pub struct RawBlock {
    pub start_pc: u32,
    /// Index of the first and one past the last opcode of the block.
    pub first: usize,
    pub end: usize,
}

/// The block structure of one method.
#[derive(Debug)]
pub struct Cfg {
    /// Reachable blocks in offset order; the index is the [`BlockId`].
    pub blocks: Vec<RawBlock>,
    /// Block id of every reachable block start offset.
    pub by_pc: BTreeMap<u32, BlockId>,
}

impl Cfg {
    pub fn block_at(&self, pc: u32) -> Option<BlockId> {
        self.by_pc.get(&pc).copied()
    }
}

/// Offset a relative jump lands on.
pub fn target(pc: usize, off: i32) -> u32 {
    (pc as i64 + off as i64).max(0) as u32
}

/// Jump targets of an instruction (not counting fall-through).
pub fn jump_targets(pc: usize, op: &Opcode<'_>) -> Vec<u32> {
    match op {
        Opcode::Goto(j)
        | Opcode::IfAcmpeq(j)
        | Opcode::IfAcmpne(j)
        | Opcode::IfIcmpeq(j)
        | Opcode::IfIcmpge(j)
        | Opcode::IfIcmpgt(j)
        | Opcode::IfIcmple(j)
        | Opcode::IfIcmplt(j)
        | Opcode::IfIcmpne(j)
        | Opcode::Ifeq(j)
        | Opcode::Ifge(j)
        | Opcode::Ifgt(j)
        | Opcode::Ifle(j)
        | Opcode::Iflt(j)
        | Opcode::Ifne(j)
        | Opcode::Ifnonnull(j)
        | Opcode::Ifnull(j)
        | Opcode::Jsr(j) => vec![target(pc, *j)],
        Opcode::Tableswitch(t) => {
            let mut v: Vec<u32> = t.jumps.iter().map(|j| target(pc, *j)).collect();
            v.push(target(pc, t.default));
            v
        }
        Opcode::Lookupswitch(t) => {
            let mut v: Vec<u32> = t.match_offsets.iter().map(|(_, j)| target(pc, *j)).collect();
            v.push(target(pc, t.default));
            v
        }
        _ => Vec::new(),
    }
}

/// Whether control can continue with the next instruction after `op`.
pub fn falls_through(op: &Opcode<'_>) -> bool {
    !matches!(
        op,
        Opcode::Goto(_)
            | Opcode::Tableswitch(_)
            | Opcode::Lookupswitch(_)
            | Opcode::Ireturn
            | Opcode::Lreturn
            | Opcode::Freturn
            | Opcode::Dreturn
            | Opcode::Areturn
            | Opcode::Return
            | Opcode::Athrow
            | Opcode::Ret(_)
    )
}

/// Whether `op` ends a basic block.
pub fn ends_block(pc: usize, op: &Opcode<'_>) -> bool {
    !falls_through(op) || !jump_targets(pc, op).is_empty()
}

/// Splits `ops` into blocks and keeps the reachable ones.
pub fn build(ops: &[(usize, Opcode<'_>)], table: &[ExceptionTableEntry<'_>]) -> Cfg {
    let code_end = ops.last().map(|(pc, _)| *pc as u32 + 1).unwrap_or(0);
    let mut leaders: BTreeSet<u32> = BTreeSet::new();
    leaders.insert(0);
    for (i, (pc, op)) in ops.iter().enumerate() {
        leaders.extend(jump_targets(*pc, op));
        if ends_block(*pc, op)
            && let Some((next, _)) = ops.get(i + 1)
        {
            leaders.insert(*next as u32);
        }
    }
    for e in table {
        leaders.insert(e.handler_pc as u32);
        leaders.insert(e.start_pc as u32);
        if (e.end_pc as u32) < code_end {
            leaders.insert(e.end_pc as u32);
        }
    }
    // Raw blocks over all leaders that are instruction starts.
    let index_of: BTreeMap<u32, usize> = ops.iter().enumerate().map(|(i, (pc, _))| (*pc as u32, i)).collect();
    let starts: Vec<usize> = leaders.iter().filter_map(|pc| index_of.get(pc).copied()).collect();
    let mut raw: Vec<RawBlock> = Vec::new();
    for (k, first) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(ops.len());
        if let Some((pc, _)) = ops.get(*first) {
            raw.push(RawBlock { start_pc: *pc as u32, first: *first, end });
        }
    }
    let raw_at: BTreeMap<u32, usize> = raw.iter().enumerate().map(|(i, b)| (b.start_pc, i)).collect();
    // Reachability over jumps, fall-through and handlers covering reachable blocks.
    let mut live = vec![false; raw.len()];
    let mut work: Vec<usize> = if raw.is_empty() { Vec::new() } else { vec![0] };
    while let Some(b) = work.pop() {
        if live[b] {
            continue;
        }
        live[b] = true;
        let blk = &raw[b];
        let mut succ: Vec<u32> = Vec::new();
        if let Some((pc, op)) = ops.get(blk.end.saturating_sub(1)) {
            succ.extend(jump_targets(*pc, op));
            if falls_through(op)
                && let Some((next, _)) = ops.get(blk.end)
            {
                succ.push(*next as u32);
            }
        }
        for e in table {
            if blk.start_pc >= e.start_pc as u32 && blk.start_pc < e.end_pc as u32 {
                succ.push(e.handler_pc as u32);
            }
        }
        for s in succ {
            if let Some(i) = raw_at.get(&s)
                && !live[*i]
            {
                work.push(*i);
            }
        }
    }
    let blocks: Vec<RawBlock> = raw.into_iter().zip(live).filter(|(_, l)| *l).map(|(b, _)| b).collect();
    let by_pc = blocks.iter().enumerate().map(|(i, b)| (b.start_pc, BlockId(i as u32))).collect();
    Cfg { blocks, by_pc }
}
