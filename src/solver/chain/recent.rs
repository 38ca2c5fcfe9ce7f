//! The model-reuse layer: recent models, each with the path condition it is known to
//! satisfy, answer the queries they satisfy.

use crate::term::{Assignment, Evaluator, Term, Val, common_prefix};

/// How many recent models are kept.
const KEEP: usize = 8;

/// Recent models, newest first, each with the path condition it is known to satisfy: a query
/// only evaluates the constraints beyond their common prefix.
pub struct Recent {
    models: Vec<(Assignment, Vec<Term>)>,
}

impl Default for Recent {
    /// The empty model (every symbol 0 or false, of the empty path condition), so that a
    /// run's first query, which that model or a repair of it meets, takes no solver: a run's
    /// first check in Z3 is dearer than later ones, and may cost the run the Z3 context.
    fn default() -> Self {
        Recent { models: vec![(Assignment::default(), Vec::new())] }
    }
}

impl Recent {
    /// A recent model that satisfies `pc`, made the newest.
    pub fn meeting(&mut self, pc: &[Term]) -> Option<Assignment> {
        let i = self.models.iter().position(|(m, known)| {
            let common = common_prefix(known, pc);
            let mut ev = Evaluator::new(m);
            pc[common..].iter().all(|t| matches!(ev.eval(t), Some(Val::Bool(true))))
        })?;
        let (m, _) = self.models.remove(i);
        self.remember(m.clone(), pc);
        Some(m)
    }

    /// Keeps `m` as the newest model, known to satisfy `pc`.
    pub fn remember(&mut self, m: Assignment, pc: &[Term]) {
        self.models.insert(0, (m, pc.to_vec()));
        self.models.truncate(KEEP);
    }

    /// The newest model and the path condition it is known to satisfy.
    pub fn newest(&self) -> Option<&(Assignment, Vec<Term>)> {
        self.models.first()
    }

    /// The model known to satisfy the longest prefix of `pc` (the last of those that tie),
    /// with that prefix's length.
    pub fn longest_prefix(&self, pc: &[Term]) -> Option<(usize, &Assignment)> {
        self.models.iter().map(|(m, known)| (common_prefix(known, pc), m)).max_by_key(|(c, _)| *c)
    }

    /// Keeps `m`, known to satisfy `pc[..known]`, as the newest model for the prefix of `pc`
    /// it satisfies. The machine suggests a state's witness at each of its checks: only the
    /// constraints past what it is known to satisfy (`known`, or more when it is the newest
    /// model already) are evaluated, and it is not kept twice: a witness's whole path
    /// condition is long, and most of it is known to hold.
    pub fn suggest(&mut self, m: &Assignment, pc: &[Term], known: usize) {
        let newest = match self.models.first() {
            Some((newest, k)) if newest == m && common_prefix(k, pc) == k.len() => Some(k.len()),
            _ => None,
        };
        let from = newest.unwrap_or(0).max(known.min(pc.len()));
        let mut ev = Evaluator::new(m);
        let met = from + pc[from..].iter().take_while(|t| matches!(ev.eval(t), Some(Val::Bool(true)))).count();
        match (newest, self.models.first_mut()) {
            (Some(_), Some((_, newest))) => *newest = pc[..met].to_vec(),
            _ => self.remember(m.clone(), &pc[..met]),
        }
    }
}
