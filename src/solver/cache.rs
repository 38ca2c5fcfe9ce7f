//! A counterexample cache in front of any solver: recent models answer queries they satisfy,
//! or repaired, or with the values unit propagation decides; known unsatisfiable sets and
//! propagation refute queries; and a query asks the solver only about the constraints that
//! share symbols with what a known model does not satisfy.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::{SatResult, Site, Solver, SolverStats};
use crate::term::{Assignment, Evaluator, IdBuild, Propagator, SymbolId, Term, TermId, Val};

/// How many recent models are kept.
const KEEP: usize = 8;

/// How many unsatisfiable constraint sets are kept.
const KEEP_UNSAT: usize = 256;

/// Wraps a solver; a query whose every constraint evaluates to true under a cached model is
/// answered `Sat` with that model and counted as a cache hit, not as a solver query.
pub struct ModelCache<S> {
    inner: S,
    /// Recent models, newest first, each with the path condition it is known to satisfy:
    /// a query only evaluates the constraints beyond their common prefix. It starts with the
    /// empty model (every symbol 0 or false, of the empty path condition), so that a run's
    /// first query, which that model or a repair of it meets, takes no solver: a run's first
    /// check in Z3 is dearer than later ones, and may cost the run the Z3 context.
    models: Vec<(Assignment, Vec<Term>)>,
    hits: u64,
    /// Of `hits`: models found by repair, and queries refuted without the solver.
    repaired: u64,
    refuted: u64,
    /// Time spent in `check`, in microseconds.
    check_us: u64,
    repairer: super::repair::Repairer,
    /// The model pinned by the last `model` call when it came from the cache, with its
    /// path condition (for the solver, should a term need more than the assignment fixes).
    pinned: Option<(Assignment, Vec<Term>)>,
    /// Unsatisfiable constraint sets (sorted term ids), newest first.
    unsat: Vec<Vec<TermId>>,
    /// The symbols of each constraint seen, by term id.
    symbols: HashMap<TermId, Rc<[SymbolId]>, IdBuild>,
    /// The solver of the independent parts, when there is one: the parts then leave the
    /// assertion stack of `inner`, which follows the exploration's path conditions, as it
    /// is (re-asserting a long path condition after each part costs more than the part saves).
    side: Option<S>,
    /// Unit propagation, with the facts of recent queries kept for the ones that extend them.
    propagator: Propagator,
    /// The recent share of the queries past the recent models that propagation refuted, in
    /// units of 1/[`SHARE_ONE`]: each such query moves it 1/32 of the way to 0 or 1.
    refuted_share: u32,
    /// By site, whether each of its last queries past the recent models was unsatisfiable
    /// (the lowest bit the newest), and how many of those there are (at most 8).
    sites: HashMap<Site, (u8, u8), IdBuild>,
    /// See [`ModelCache::interrupted_by`].
    interrupt: crate::budget::Interrupt,
}

/// How many candidates the short repair tries before the case splits (see
/// [`ModelCache::answer_past`]): enough for most queries a repair answers at all, few enough
/// that a query the splits then refute costs little.
const SHORT_REPAIR: usize = 8;

/// [`ModelCache::refuted_share`]'s whole.
const SHARE_ONE: u32 = 1 << 16;

impl<S: Solver> ModelCache<S> {
    pub fn new(inner: S) -> Self {
        ModelCache {
            inner,
            models: vec![(Assignment::default(), Vec::new())],
            hits: 0,
            repaired: 0,
            refuted: 0,
            check_us: 0,
            repairer: Default::default(),
            pinned: None,
            unsat: Vec::new(),
            symbols: HashMap::default(),
            side: None,
            propagator: Propagator::default(),
            interrupt: Default::default(),
            refuted_share: 0,
            sites: HashMap::default(),
        }
    }

    /// With a solver of its own for the independent parts of queries.
    pub fn with_side(mut self, side: S) -> Self {
        self.side = Some(side);
        self
    }

    /// Makes every query answer `unknown` at once, and propagation and repair stop where
    /// they are, once `interrupt` is set (the run's budget is spent).
    pub fn interrupted_by(mut self, interrupt: crate::budget::Interrupt) -> Self {
        self.propagator.interrupted_by(interrupt.clone());
        self.repairer.interrupt = interrupt.clone();
        self.interrupt = interrupt;
        self
    }

    /// A cached model of `pc`, or one repaired from the newest (see `repair.rs`).
    fn cached(&mut self, pc: &[Term]) -> Option<Assignment> {
        self.recent(pc).or_else(|| self.repaired(pc))
    }

    /// A recent model that satisfies `pc`, made the newest.
    fn recent(&mut self, pc: &[Term]) -> Option<Assignment> {
        let i = self.lookup(pc)?;
        let (m, _) = self.models.remove(i);
        self.remember(m.clone(), pc);
        Some(m)
    }

    /// A model of `pc` repaired from the newest (see `repair.rs`).
    fn repaired(&mut self, pc: &[Term]) -> Option<Assignment> {
        self.repaired_within(pc, super::repair::MAX_CANDIDATES)
    }

    /// [`ModelCache::repaired`] trying at most `most` candidates.
    fn repaired_within(&mut self, pc: &[Term], most: usize) -> Option<Assignment> {
        let (base, known) = self.models.first()?;
        let m = self.repairer.repair_within(base, known, pc, most)?;
        self.repaired += 1;
        self.remember(m.clone(), pc);
        Some(m)
    }

    fn remember(&mut self, m: Assignment, pc: &[Term]) {
        self.models.insert(0, (m, pc.to_vec()));
        self.models.truncate(KEEP);
    }

    /// Whether `pc` contains a set of constraints known to be unsatisfiable.
    fn known_unsat(&self, pc: &[Term]) -> bool {
        if self.unsat.is_empty() {
            return false;
        }
        let ids: HashSet<TermId, IdBuild> = pc.iter().map(Term::id).collect();
        // Newest terms (largest ids) first: where a set is not contained, those are missing.
        self.unsat.iter().any(|set| set.iter().rev().all(|i| ids.contains(i)))
    }

    fn remember_unsat(&mut self, part: &[Term]) {
        let mut set: Vec<TermId> = part.iter().map(Term::id).collect();
        set.sort_unstable();
        set.dedup();
        self.unsat.insert(0, set);
        self.unsat.truncate(KEEP_UNSAT);
    }

    fn symbols_of(&mut self, t: &Term) -> Rc<[SymbolId]> {
        self.symbols.entry(t.id()).or_insert_with(|| t.var_names().into()).clone()
    }

    /// The symbols of each constraint of `pc`.
    fn symbols_each(&mut self, pc: &[Term]) -> Vec<Rc<[SymbolId]>> {
        pc.iter().map(|t| self.symbols_of(t)).collect()
    }

    /// Constraint independence (KLEE): with a cached model that satisfies `pc[..c]`, the
    /// constraints of `pc` that share symbols, directly or through others, with those of
    /// `pc[c..]` the model does not satisfy (in `pc`'s order), their symbols, and the model.
    /// `None` when that is more than half of `pc`. (Seeding with all of `pc[c..]` instead
    /// would send a constraint the model satisfies, such as uber's `size + 1 <= size`
    /// overflow check, to the solver with the whole heap.) The model values the symbols
    /// `pc[c..]` defines.
    /// `syms` holds the symbols of each constraint of `pc`.
    fn dependent_part(
        &mut self,
        pc: &[Term],
        syms: &[Rc<[SymbolId]>],
    ) -> Option<(Vec<Term>, HashSet<SymbolId>, Assignment)> {
        let (c, m) =
            self.models.iter().map(|(m, known)| (super::common_prefix(known, pc), m)).max_by_key(|(c, _)| *c)?;
        if c == 0 || c >= pc.len() {
            return None;
        }
        // The symbols `pc[c..]` defines (`r9 == ite(...)`) valued as their definitions give:
        // a fresh value set is no reason to ask about the whole heap.
        let m = self.repairer.define(m, pc, c);
        let mut ev = Evaluator::new(&m);
        let mut taken: Vec<bool> =
            pc.iter().enumerate().map(|(i, t)| i >= c && ev.eval(t) != Some(Val::Bool(true))).collect();
        let mut reach: HashSet<SymbolId> =
            syms.iter().zip(&taken).filter(|(_, t)| **t).flat_map(|(s, _)| s.iter().cloned()).collect();
        loop {
            let mut grew = false;
            for i in 0..pc.len() {
                if !taken[i] && syms[i].iter().any(|v| reach.contains(v)) {
                    taken[i] = true;
                    reach.extend(syms[i].iter().cloned());
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        // A part of more than half the query saves the solver little and costs the side
        // solver the assertion of terms the main one already holds (POSE's if-then-else
        // references connect most of a query).
        let n = taken.iter().filter(|t| **t).count();
        if 2 * n > pc.len() {
            return None;
        }
        let part = pc.iter().zip(&taken).filter(|(_, t)| **t).map(|(t, _)| t.clone()).collect();
        Some((part, reach, m))
    }

    fn lookup(&self, pc: &[Term]) -> Option<usize> {
        self.models.iter().position(|(m, known)| {
            let common = super::common_prefix(known, pc);
            let mut ev = Evaluator::new(m);
            pc[common..].iter().all(|t| matches!(ev.eval(t), Some(Val::Bool(true))))
        })
    }

    /// `Unsat` for a query the cache refuted without the solver, counted.
    fn refute(&mut self) -> SatResult {
        self.hits += 1;
        self.refuted += 1;
        SatResult::Unsat
    }

    /// A model of `pc` made of the newest model and the values propagation decided for `pc`
    /// (see [`Propagator::decided`]), repaired where those leave a constraint false: where
    /// a repair of the newest model alone failed, the decided values make the coordinated
    /// changes it could not (a new node at a full scope, and the node that leaves it).
    fn decided_model(&mut self, pc: &[Term]) -> Option<Assignment> {
        let ModelCache { models, propagator, repairer, .. } = self;
        let (base, _) = models.first()?;
        // A start that satisfies `pc` comes back as it is (the walk's first pass).
        propagator.starts(pc, base).into_iter().find_map(|start| repairer.repair(&start, &[], pc))
    }

    /// `Sat` with a repaired model of a query past the recent models, counted.
    fn met(&mut self, m: Assignment) -> SatResult {
        self.note(false);
        self.hits += 1;
        SatResult::Sat(m)
    }

    /// Moves [`ModelCache::refuted_share`] by a query past the recent models.
    fn note(&mut self, refuted: bool) {
        self.refuted_share -= self.refuted_share >> 5;
        if refuted {
            self.refuted_share += SHARE_ONE >> 5;
        }
    }

    /// Whether more than a third of the recent queries past the recent models of `site` (or
    /// without one, or before it has any, of all queries) were unsatisfiable.
    pub(super) fn likely_unsat(&self, site: Option<Site>) -> bool {
        match site.and_then(|s| self.sites.get(&s)) {
            Some((bits, n)) => bits.count_ones() * 3 > u32::from(*n),
            None => self.refuted_share * 3 > SHARE_ONE,
        }
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
        if let Some(m) = self.recent(pc) {
            self.hits += 1;
            return SatResult::Sat(m);
        }
        let r = self.answer_past(pc, site);
        if let Some(s) = site {
            let (bits, n) = self.sites.entry(s).or_default();
            *bits = (*bits << 1) | u8::from(matches!(r, SatResult::Unsat));
            *n = (*n + 1).min(8);
        }
        r
    }

    /// [`ModelCache::answer`] of a query no recent model satisfies.
    fn answer_past(&mut self, pc: &[Term], site: Option<Site>) -> SatResult {
        // Where propagation has lately refuted more than a third of such queries (uber's and
        // POSE's P-searches, not lazy's), it goes first, without its case splits: a repair
        // that fails tries every candidate and costs several times as much. The queries of
        // one site (a P-search's fork at one statement of P) predict their own better than
        // all queries do. The plain propagation there probes the state a fork's sides share
        // ([`Propagator::refuted_probing`]).
        //
        // Then, for these and the P-searches' other queries, a short repair, then the case
        // splits, before the full repair: most of the queries the plain propagation leaves
        // are either repaired within a few candidates or refuted by a split, and a full
        // repair that fails costs several times the short one. The queries from no site (the
        // method's own forks, and every query without a precondition) are mostly
        // satisfiable: the full repair goes first.
        let likely = self.likely_unsat(site);
        let mut syms = likely.then(|| self.symbols_each(pc));
        if let Some(s) = &syms
            && self.propagator.refuted_probing(pc, s)
        {
            self.note(true);
            return self.refute();
        }
        let short_first = likely || site.is_some();
        if short_first {
            if let Some(m) = self.repaired_within(pc, SHORT_REPAIR) {
                return self.met(m);
            }
            let s = syms.take().unwrap_or_else(|| self.symbols_each(pc));
            if self.propagator.refuted(pc, &s) {
                self.note(true);
                return self.refute();
            }
            syms = Some(s);
        }
        if let Some(m) = self.repaired(pc) {
            return self.met(m);
        }
        // Unit propagation refutes what value sets and field choices decide between them
        // (`term/propagate.rs`): most of the unsatisfiable queries of uber's P-searches.
        if self.known_unsat(pc) {
            return self.refute();
        }
        let syms = syms.take().unwrap_or_else(|| self.symbols_each(pc));
        let refuted = !short_first && self.propagator.refuted(pc, &syms);
        self.note(refuted);
        if refuted {
            return self.refute();
        }
        if let Some(m) = self.decided_model(pc) {
            self.repaired += 1;
            self.hits += 1;
            self.remember(m.clone(), pc);
            return SatResult::Sat(m);
        }
        // Before the solver, the propagation too costly for every query: what it refutes
        // saves a Z3 query, and a run that asks Z3 nothing never makes a Z3 context.
        if self.propagator.refuted_deeply(pc, &syms) {
            return self.refute();
        }
        if let Some((part, symbols, mut m)) = self.dependent_part(pc, &syms) {
            let r = match self.side.as_mut() {
                Some(side) => side.check(&part),
                None => self.inner.check(&part),
            };
            return match r {
                SatResult::Sat(own) => {
                    // Only the part's symbols: a model may value others (POSE's every-symbol
                    // models), which the cached model already values as the rest needs. A
                    // symbol of the part the solver's model leaves out is 0/false there, as
                    // for the part's solver: not the cached model's value.
                    m.values.retain(|v, _| !symbols.contains(v));
                    m.values.extend(own.values.into_iter().filter(|(v, _)| symbols.contains(v)));
                    self.remember(m.clone(), pc);
                    SatResult::Sat(m)
                }
                SatResult::Unsat => {
                    self.remember_unsat(&part);
                    SatResult::Unsat
                }
                other => other,
            };
        }
        let r = self.inner.check(pc);
        match &r {
            SatResult::Sat(m) => self.remember(m.clone(), pc),
            SatResult::Unsat => self.remember_unsat(pc),
            SatResult::Unknown(_) => {}
        }
        r
    }
}

impl<S: Solver> Solver for ModelCache<S> {
    /// A cached model, a known unsatisfiable subset, or the solver on the part of `pc` that
    /// depends on what the newest models leave open: the rest of `pc` shares no symbol with
    /// that part and a cached model satisfies it, so `pc` is satisfiable exactly when the
    /// part is, and the part's model over its own symbols completes the cached one.
    fn check(&mut self, pc: &[Term]) -> SatResult {
        self.check_timed(pc, None)
    }

    fn check_at(&mut self, pc: &[Term], site: Site) -> SatResult {
        self.check_timed(pc, Some(site))
    }

    fn model(&mut self, pc: &[Term]) -> SatResult {
        self.pinned = None;
        if let Some(m) = self.cached(pc) {
            self.hits += 1;
            self.pinned = Some((m.clone(), pc.to_vec()));
            return SatResult::Sat(m);
        }
        let r = self.inner.model(pc);
        if let SatResult::Sat(m) = &r {
            self.remember(m.clone(), pc);
        }
        r
    }

    /// The underlying solver: a cached model is any model, not a preferred one. When the
    /// solver gives up (a floating-point query that runs out of time), a cached or repaired
    /// model of `pc` is better than none, and without one the solver is asked for any
    /// model: [`Solver::model`].
    fn model_preferring(&mut self, pc: &[Term], prefer: &[Term]) -> SatResult {
        self.pinned = None;
        match self.inner.model_preferring(pc, prefer) {
            SatResult::Unknown(_) => self.model(pc),
            r => r,
        }
    }

    /// Kept as the newest model, known to satisfy the prefix of `pc` it does: a query that
    /// extends `pc` meets it first, and one it does not meet is repaired from it. The machine
    /// suggests a state's witness, a valid input close to what the state's next queries ask
    /// for: the search for a test's input follows it, and the checks of a fork's sides and
    /// the P-search of a side it does not cover are asked near it (the cache's own models
    /// may come from other searches).
    ///
    /// The machine suggests a state's witness at each of its checks: only the constraints
    /// past what it is known to satisfy (`known`, or more when it is the newest model
    /// already) are evaluated, and it is not kept twice: a witness's whole path condition
    /// is long, and most of it is known to hold.
    fn suggest(&mut self, m: &Assignment, pc: &[Term], known: usize) {
        let newest = match self.models.first() {
            Some((newest, k)) if newest == m && super::common_prefix(k, pc) == k.len() => Some(k.len()),
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

    fn eval(&mut self, terms: &[Term]) -> Option<Vec<Val>> {
        if let Some((m, pc)) = &self.pinned {
            let mut ev = Evaluator::new(m);
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
        self.inner.eval(terms)
    }

    fn stats(&self) -> SolverStats {
        let mut s = self.inner.stats();
        s += self.side.as_ref().map(Solver::stats).unwrap_or_default();
        SolverStats {
            cache_hits: self.hits,
            repaired: self.repaired,
            refuted: self.refuted,
            check_us: self.check_us,
            ..s
        }
    }
}
