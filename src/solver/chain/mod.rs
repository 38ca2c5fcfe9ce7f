//! The solver chain: the layers in front of a solver and the order in which a query meets
//! them, in one place.
//!
//! Each layer answers the queries it can from what it keeps, and passes the rest on (KLEE's
//! solver chain): the plain refutation ([`crate::solver::plain`], asked apart through
//! [`Solver::refutes`]), recent models (`recent.rs`), model repair (`repair.rs`), known
//! unsatisfiable sets (`unsat.rs`), unit propagation (`refute.rs`), constraint independence
//! (`independence.rs`), then the solver. Where repair and propagation come depends on
//! whether the query is likely unsatisfiable, which what the chain saw of its site tells
//! (`sites.rs`): see `Chain::answer_past`. Every model a query past the recent models gets
//! becomes the newest recent model.

mod independence;
mod recent;
mod refute;
mod repair;
mod sites;
mod unsat;

use super::plain::Plain;
use super::{SatResult, Site, Solver, SolverStats};
use crate::term::{Assignment, Evaluator, Term, Val};
use independence::Independence;
use recent::Recent;
use refute::Refute;
use repair::Repair;
use sites::Sites;
use unsat::Unsat;

/// A solver with the layers in front of it; a query a layer answers counts as a cache hit,
/// not as a solver query.
pub struct Chain<S> {
    plain: Plain,
    recent: Recent,
    sites: Sites,
    repair: Repair,
    unsat: Unsat,
    refute: Refute,
    independence: Independence<S>,
    inner: S,
    /// Queries the layers answered; of those, models found by repair and queries refuted.
    hits: u64,
    repaired: u64,
    refuted: u64,
    /// Time spent in `check`, in microseconds.
    check_us: u64,
    /// The model pinned by the last `model` call when it came from a layer, with its path
    /// condition (for the solver, should a term need more than the assignment fixes).
    pinned: Option<(Assignment, Vec<Term>)>,
    /// See [`Chain::interrupted_by`].
    interrupt: crate::budget::Interrupt,
}

impl<S: Solver> Chain<S> {
    /// The layers in front of `inner`, which also takes the independent parts of queries.
    pub fn new(inner: S) -> Self {
        Chain {
            plain: Plain::default(),
            recent: Recent::default(),
            sites: Sites::default(),
            repair: Repair::default(),
            unsat: Unsat::default(),
            refute: Refute::default(),
            independence: Independence::default(),
            inner,
            hits: 0,
            repaired: 0,
            refuted: 0,
            check_us: 0,
            pinned: None,
            interrupt: Default::default(),
        }
    }

    /// With a solver of its own for the independent parts of queries.
    pub fn with_side(mut self, side: S) -> Self {
        self.independence = Independence::with_side(side);
        self
    }

    /// Makes every query answer `unknown` at once, and propagation and repair stop where
    /// they are, once `interrupt` is set (the run's budget is spent).
    pub fn interrupted_by(mut self, interrupt: crate::budget::Interrupt) -> Self {
        self.refute.interrupted_by(interrupt.clone());
        self.repair.interrupted_by(interrupt.clone());
        self.interrupt = interrupt;
        self
    }

    /// Whether a query from `site` (if given) past the recent models is likely
    /// unsatisfiable ([`Sites::likely_unsat`]).
    #[cfg(test)]
    pub(crate) fn likely_unsat(&self, site: Option<Site>) -> bool {
        self.sites.likely_unsat(site)
    }

    /// [`Solver::check`] of a query from `site` if given, timed.
    fn check_timed(&mut self, pc: &[Term], site: Option<Site>) -> SatResult {
        let start = std::time::Instant::now();
        let r = self.answer(pc, site);
        self.check_us += start.elapsed().as_micros() as u64;
        r
    }

    /// [`Solver::check`] without the timing, of a query from `site` if given.
    fn answer(&mut self, pc: &[Term], site: Option<Site>) -> SatResult {
        if self.interrupt.is_set() {
            return SatResult::Unknown("interrupted: the budget is spent".into());
        }
        if let Some(m) = self.recent.meeting(pc) {
            self.hits += 1;
            return SatResult::Sat(m);
        }
        let r = self.answer_past(pc, site);
        if let SatResult::Sat(m) = &r {
            self.recent.remember(m.clone(), pc);
        }
        self.sites.record(site, &r);
        r
    }

    /// [`Chain::answer`] of a query no recent model satisfies: the layers past the recent
    /// models, in order.
    ///
    /// Where propagation has lately refuted more than a third of such queries (uber's and
    /// POSE's P-searches, not lazy's), it goes first, without its case splits: a repair that
    /// fails tries every candidate and costs several times as much. The queries of one site
    /// (a P-search's fork at one statement of P) predict their own better than all queries
    /// do. The plain propagation there probes the state a fork's sides share
    /// ([`crate::term::Propagator::refuted_probing`]).
    ///
    /// Then, for these and the P-searches' other queries, a short repair, then the case
    /// splits, before the full repair: most of the queries the plain propagation leaves are
    /// either repaired within a few candidates or refuted by a split, and a full repair that
    /// fails costs several times the short one. The queries from no site (the method's own
    /// forks, and every query without a precondition) are mostly satisfiable: the full
    /// repair goes first. A query refuted by a known unsatisfiable set is not noted in the
    /// share of refuted queries.
    fn answer_past(&mut self, pc: &[Term], site: Option<Site>) -> SatResult {
        let likely = self.sites.likely_unsat(site);
        let mut syms = likely.then(|| self.refute.symbols(pc));
        if let Some(s) = &syms
            && self.refute.probing(pc, s)
        {
            self.sites.note(true);
            return self.refutation();
        }
        let short_first = likely || site.is_some();
        if short_first {
            if let Some(m) = self.repair.newest_repaired(&self.recent, pc, repair::SHORT) {
                return self.met(m);
            }
            let s = syms.take().unwrap_or_else(|| self.refute.symbols(pc));
            if self.refute.splitting(pc, &s) {
                self.sites.note(true);
                return self.refutation();
            }
            syms = Some(s);
        }
        if let Some(m) = self.repair.newest_repaired(&self.recent, pc, repair::FULL) {
            return self.met(m);
        }
        if self.unsat.refutes(pc) {
            return self.refutation();
        }
        // Unit propagation refutes what value sets and field choices decide between them
        // (`term/propagate.rs`): most of the unsatisfiable queries of uber's P-searches.
        let syms = syms.take().unwrap_or_else(|| self.refute.symbols(pc));
        let refuted = !short_first && self.refute.splitting(pc, &syms);
        self.sites.note(refuted);
        if refuted {
            return self.refutation();
        }
        if let Some(m) = self.repair.decided_repaired(&self.recent, &self.refute, pc) {
            self.repaired += 1;
            self.hits += 1;
            return SatResult::Sat(m);
        }
        // Before the solver, the propagation too costly for every query: what it refutes
        // saves a Z3 query, and a run that asks Z3 nothing never makes a Z3 context.
        if self.refute.deeply(pc, &syms) {
            return self.refutation();
        }
        let Chain { independence, recent, repair, inner, unsat, .. } = self;
        if let Some(r) = independence.answer(pc, &syms, recent, repair, inner, unsat) {
            return r;
        }
        let r = self.inner.check(pc);
        if let SatResult::Unsat = r {
            self.unsat.remember(pc);
        }
        r
    }

    /// `Unsat` for a query a layer refuted without the solver, counted.
    fn refutation(&mut self) -> SatResult {
        self.hits += 1;
        self.refuted += 1;
        SatResult::Unsat
    }

    /// `Sat` with a repaired model of a query past the recent models, counted.
    fn met(&mut self, m: Assignment) -> SatResult {
        self.sites.note(false);
        self.repaired += 1;
        self.hits += 1;
        SatResult::Sat(m)
    }
}

impl<S: Solver> Chain<S> {
    /// [`Solver::eval_with`]: the pinned assignment with `with`'s values, else (array
    /// contents) the inner solver's model of the same path condition.
    fn eval_overriding(&mut self, terms: &[Term], with: &[(Term, u64)]) -> Option<Vec<Val>> {
        if let Some((m, pc)) = &self.pinned {
            let mut m = std::borrow::Cow::Borrowed(m);
            for (v, x) in with {
                if let Some(name) = v.var_names().into_iter().next() {
                    m.to_mut().values.insert(name, Val::Bv(*x));
                }
            }
            let mut ev = Evaluator::new(&m);
            if let Some(vals) = terms.iter().map(|t| ev.eval(t)).collect::<Option<Vec<_>>>() {
                return Some(vals);
            }
            // The assignment does not fix these terms (array contents): ask the solver.
            let pc = pc.clone();
            self.pinned = None;
            if !matches!(self.inner.model(&pc), SatResult::Sat(_)) {
                return None;
            }
        }
        if with.is_empty() { self.inner.eval(terms) } else { self.inner.eval_with(terms, with) }
    }
}

impl<S: Solver> Solver for Chain<S> {
    /// A recent or repaired model, a refutation without the solver, or the solver on the
    /// part of `pc` that depends on what the recent models leave open: the rest of `pc`
    /// shares no symbol with that part and a recent model satisfies it, so `pc` is
    /// satisfiable exactly when the part is, and the part's model over its own symbols
    /// completes the recent one.
    fn check(&mut self, pc: &[Term]) -> SatResult {
        self.check_timed(pc, None)
    }

    fn check_at(&mut self, pc: &[Term], site: Site) -> SatResult {
        self.check_timed(pc, Some(site))
    }

    fn refutes(&mut self, pc: &[Term], extra: &[&Term]) -> bool {
        self.plain.refutes(pc, extra)
    }

    /// A recent model of `pc`, or one repaired from the newest, else the solver's.
    fn model(&mut self, pc: &[Term]) -> SatResult {
        self.pinned = None;
        let cached = self.recent.meeting(pc).or_else(|| {
            let m = self.repair.newest_repaired(&self.recent, pc, repair::FULL)?;
            self.repaired += 1;
            self.recent.remember(m.clone(), pc);
            Some(m)
        });
        if let Some(m) = cached {
            self.hits += 1;
            self.pinned = Some((m.clone(), pc.to_vec()));
            return SatResult::Sat(m);
        }
        let r = self.inner.model(pc);
        if let SatResult::Sat(m) = &r {
            self.recent.remember(m.clone(), pc);
        }
        r
    }

    /// The solver: a recent model is any model, not a preferred one. When the solver gives
    /// up (a floating-point query that runs out of time), a recent or repaired model of `pc`
    /// is better than none, and without one the solver is asked for any model:
    /// [`Solver::model`].
    fn model_preferring(&mut self, pc: &[Term], prefer: &[Term]) -> SatResult {
        self.pinned = None;
        match self.inner.model_preferring(pc, prefer) {
            SatResult::Unknown(_) => self.model(pc),
            r => r,
        }
    }

    /// Kept as the newest model, known to satisfy the prefix of `pc` it does
    /// ([`Recent::suggest`]): a query that extends `pc` meets it first, and one it does not
    /// meet is repaired from it. The machine suggests a state's witness, a valid input close
    /// to what the state's next queries ask for (the chain's own models may come from other
    /// searches).
    fn suggest(&mut self, m: &Assignment, pc: &[Term], known: usize) {
        self.recent.suggest(m, pc, known);
    }

    fn eval_with(&mut self, terms: &[Term], with: &[(Term, u64)]) -> Option<Vec<Val>> {
        self.eval_overriding(terms, with)
    }

    fn eval(&mut self, terms: &[Term]) -> Option<Vec<Val>> {
        self.eval_overriding(terms, &[])
    }

    fn stats(&self) -> SolverStats {
        let mut s = self.inner.stats();
        s += self.independence.stats();
        SolverStats {
            cache_hits: self.hits,
            repaired: self.repaired,
            refuted: self.refuted,
            check_us: self.check_us,
            ..s
        }
    }
}
