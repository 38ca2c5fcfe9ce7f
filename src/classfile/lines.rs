//! Source positions of bytecode: the line of an offset (`LineNumberTable`) and, for each
//! conditional jump, whether taking it means that the source condition holds.
//!
//! javac compiles `if (c)`, `while (c)` and `for (...; c; ...)` to a forward jump taken when
//! `c` is false (to the `else` branch or out of the loop), `do ... while (c)` to a backward
//! jump taken when `c` holds, and the first operands of `a || b` to a forward jump taken
//! when that operand holds (straight to the `then` block, which starts where the last
//! operand's jump falls through). [`SourceMap::holds`] undoes this, so that a report can say
//! "line 31 true twice, then false" in the terms of the source.

use std::collections::BTreeMap;

/// Lines and jump senses of one method's code.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceMap {
    /// (first offset, line), sorted by offset.
    lines: Vec<(u32, u32)>,
    /// Per conditional jump offset: whether the jump is taken when its source condition holds.
    taken_when_true: BTreeMap<u32, bool>,
}

/// A conditional jump: its offset and target.
#[derive(Debug, Clone, Copy)]
struct Jump {
    at: u32,
    target: u32,
}

/// Length of a conditional jump instruction (`ifeq` .. `if_acmpne`, `ifnull`, `ifnonnull`).
const JUMP_LEN: u32 = 3;

impl SourceMap {
    /// The map of a method from its `LineNumberTable` entries (start offset, line) and the
    /// offsets and targets of its conditional jumps.
    fn new(mut lines: Vec<(u32, u32)>, jumps: &[Jump]) -> SourceMap {
        lines.sort();
        lines.dedup_by_key(|(pc, _)| *pc);
        let mut taken_when_true = BTreeMap::new();
        // Last jump first: whether a jump is a `||` operand depends on the jump it skips to.
        for j in jumps.iter().rev() {
            let sense = if j.target <= j.at {
                true
            } else {
                // A forward jump to just after a later forward jump that is taken when its
                // condition is false: the `then` block of `a || b`, reached when `a` holds.
                jumps
                    .iter()
                    .any(|k| k.at > j.at && k.at + JUMP_LEN == j.target && taken_when_true.get(&k.at) == Some(&false))
            };
            taken_when_true.insert(j.at, sense);
        }
        SourceMap { lines, taken_when_true }
    }

    /// The source line of bytecode offset `pc`, if the class file has line numbers.
    pub fn line(&self, pc: u32) -> Option<u32> {
        let i = self.lines.partition_point(|(start, _)| *start <= pc);
        i.checked_sub(1).and_then(|i| self.lines.get(i)).map(|(_, l)| *l)
    }

    /// Whether the source condition of the conditional jump at `pc` holds when the jump was
    /// `taken` (or not). Offsets that are not conditional jumps keep `taken`.
    pub fn holds(&self, pc: u32, taken: bool) -> bool {
        match self.taken_when_true.get(&pc) {
            Some(true) | None => taken,
            Some(false) => !taken,
        }
    }
}

/// The source map of a method's code given its line table; `walk` visits each instruction
/// (offset and opcode) and fails on malformed code, in which case only lines are kept.
pub fn source_map(
    code: &[u8],
    lines: Vec<(u32, u32)>,
    walk: impl Fn(&[u8], &mut dyn FnMut(usize, u8)) -> Result<(), String>,
) -> SourceMap {
    let mut jumps = Vec::new();
    let ok = walk(code, &mut |pc, op| {
        if matches!(op, 0x99..=0xa6 | 0xc6 | 0xc7)
            && let Some(b) = code.get(pc + 1..pc + 3)
        {
            let off = i64::from(i16::from_be_bytes([b[0], b[1]]));
            if let Ok(target) = u32::try_from(pc as i64 + off) {
                jumps.push(Jump { at: pc as u32, target });
            }
        }
    });
    if ok.is_err() {
        jumps.clear();
    }
    SourceMap::new(lines, &jumps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jump(at: u32, target: u32) -> Jump {
        Jump { at, target }
    }

    #[test]
    fn lines_cover_offsets_up_to_the_next_entry() {
        let m = SourceMap::new(vec![(16, 61), (0, 60), (26, 60), (34, 63)], &[]);
        assert_eq!(m.line(0), Some(60));
        assert_eq!(m.line(13), Some(60));
        assert_eq!(m.line(21), Some(61));
        assert_eq!(m.line(40), Some(63));
        assert_eq!(SourceMap::default().line(3), None);
    }

    /// `if (a) ..`, loops: a forward jump is taken when the condition is false; a
    /// backward one (do-while) when it holds.
    #[test]
    fn javac_jumps_skip_what_a_false_condition_skips() {
        let m = SourceMap::new(vec![], &[jump(13, 34), jump(40, 8)]);
        assert!(!m.holds(13, true) && m.holds(13, false));
        assert!(m.holds(40, true));
        assert!(m.holds(99, true), "not a jump: as taken");
    }

    /// `if (a || b) T else E`: `if a goto T; if !b goto E; T:`; and `(a && b) || c`:
    /// `if !a goto L; if b goto T; L: if !c goto E; T:`.
    #[test]
    fn or_operands_jump_to_the_then_block_when_true() {
        let or = SourceMap::new(vec![], &[jump(1, 10), jump(7, 20)]);
        assert!(or.holds(1, true) && !or.holds(7, true));
        let and_or = SourceMap::new(vec![], &[jump(1, 7), jump(4, 10), jump(7, 30)]);
        assert!(!and_or.holds(1, true), "a of (a && b): taken when false");
        assert!(and_or.holds(4, true), "b of (a && b) || c: taken to the then block");
        assert!(!and_or.holds(7, true));
    }
}
