//! The model-repair layer: a model of a query made from the newest model by a short walk of
//! changes (`solver/repair/`), or from the values propagation decided.

use super::recent::Recent;
use super::refute::Refute;
use crate::solver::repair::{MAX_CANDIDATES, Repairer};
use crate::term::{Assignment, Term};

/// How many candidates the short repair tries before the case splits (see
/// [`super::Chain::answer_past`]): enough for most queries a repair answers at all, few
/// enough that a query the splits then refute costs little.
pub const SHORT: usize = 8;

/// How many candidates the full repair tries.
pub const FULL: usize = MAX_CANDIDATES;

/// Model repair, with what it knows of the path condition kept across queries.
#[derive(Default)]
pub struct Repair {
    repairer: Repairer,
}

impl Repair {
    /// Makes a repair give up where it is once `interrupt` is set.
    pub fn interrupted_by(&mut self, interrupt: crate::budget::Interrupt) {
        self.repairer.interrupt = interrupt;
    }

    /// A model of `pc` repaired from the newest recent model, trying at most `most`
    /// candidates.
    pub fn newest_repaired(&mut self, recent: &Recent, pc: &[Term], most: usize) -> Option<Assignment> {
        let (base, known) = recent.newest()?;
        self.repairer.repair_within(base, known, pc, most)
    }

    /// A model of `pc` made of the newest model and the values propagation decided for `pc`
    /// ([`Refute::starts`]), repaired where those leave a constraint false: where a repair
    /// of the newest model alone failed, the decided values make the coordinated changes it
    /// could not (a new node at a full scope, and the node that leaves it).
    pub fn decided_repaired(&mut self, recent: &Recent, refute: &Refute, pc: &[Term]) -> Option<Assignment> {
        let (base, _) = recent.newest()?;
        // A start that satisfies `pc` comes back as it is (the walk's first pass).
        refute.starts(pc, base).into_iter().find_map(|start| self.repairer.repair(&start, &[], pc))
    }

    /// `base` with the symbols that `pc[start..]` defines valued as their definitions give
    /// ([`Repairer::define`]).
    pub fn define(&mut self, base: &Assignment, pc: &[Term], start: usize) -> Assignment {
        self.repairer.define(base, pc, start)
    }
}
