//! A method body built by uberlazy rather than lowered from bytecode (a call-sequence
//! driver, a lambda class's method): locals, blocks and numbered instructions.

use crate::classfile::JType;
use crate::ir::{Block, BlockId, Handler, Instr, Local, LocalId, Stmt, Terminator};

/// The IR under construction.
#[derive(Default)]
pub(super) struct Builder {
    pub(super) locals: Vec<Local>,
    pub(super) blocks: Vec<Block>,
    pc: u32,
}

impl Builder {
    pub(super) fn local(&mut self, name: String, ty: JType) -> LocalId {
        self.locals.push(Local { name, kind: ty.kind(), ty: Some(ty) });
        LocalId(self.locals.len() as u32 - 1)
    }

    pub(super) fn block(&mut self) -> BlockId {
        self.blocks.push(Block {
            start_pc: 0,
            instrs: Vec::new(),
            term: Terminator::Return(None),
            term_pc: 0,
            handlers: Vec::new(),
        });
        BlockId(self.blocks.len() as u32 - 1)
    }

    /// A builder whose first instruction is numbered `pc` (a driver's from 1, a lambda
    /// class's method from 0, as their traces have always named them).
    pub(super) fn starting_at(pc: u32) -> Self {
        Builder { pc, ..Builder::default() }
    }

    pub(super) fn next_pc(&mut self) -> u32 {
        self.pc += 1;
        self.pc - 1
    }

    pub(super) fn push(&mut self, b: BlockId, stmt: Stmt) {
        let pc = self.next_pc();
        if let Some(blk) = self.blocks.get_mut(b.0 as usize) {
            if blk.instrs.is_empty() {
                blk.start_pc = pc;
            }
            blk.instrs.push(Instr { pc, stmt });
        }
    }

    pub(super) fn end(&mut self, b: BlockId, term: Terminator) -> u32 {
        let pc = self.next_pc();
        if let Some(blk) = self.blocks.get_mut(b.0 as usize) {
            if blk.instrs.is_empty() {
                blk.start_pc = pc;
            }
            blk.term = term;
            blk.term_pc = pc;
        }
        pc
    }

    /// Gives block `b` the exception handler `handler` (a driver's: a call there that throws
    /// drops the state).
    pub(super) fn cover(&mut self, b: BlockId, handler: &Handler) {
        if let Some(blk) = self.blocks.get_mut(b.0 as usize) {
            blk.handlers.push(handler.clone());
        }
    }
}
