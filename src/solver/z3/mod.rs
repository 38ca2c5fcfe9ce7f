//! The Z3 back end: solves path conditions incrementally with push/pop.
//!
//! This module (with `translate.rs`, which turns our terms into Z3's once each, `float.rs`
//! and `watch.rs`) is the only one of the crate that imports `z3`. A `Z3Solver` uses the crate's thread-local context; [`isolated`] gives each
//! exploration a context of its own, so that what one method asked Z3 cannot change the
//! queries or models of the next, and watches the exploration's budget: when it runs out
//! (deadline, stop request, memory) a watchdog thread interrupts the query in flight, which
//! then answers `unknown`. The same watchdog enforces the per-query timeout of the solvers
//! made inside [`isolated`]: Z3's own `timeout` parameter starts and joins a timer thread
//! around every check, a cost of its own on every query. Z3's own Ctrl-C handler is off
//! (`ctrl_c=false`): a SIGINT is the process's to handle.

#[cfg(test)]
mod chain_tests;
mod float;
#[cfg(test)]
mod tests;
mod translate;
mod watch;

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use z3::ast::{Ast as _, Bool, Dynamic};
use z3::{Params, SatResult as ZSat};

use super::chain::Chain;
use super::{Hints, SatResult, Solver, SolverStats};
use crate::term::{Assignment, Node, Sort, SymbolId, Term, TermId, Val};
pub use watch::isolated;
use watch::{THREAD_WATCH, Watch, now_us};

/// The solver chain of one exploration ([`Chain`]) over Z3: a per-query timeout of
/// `timeout_ms`, the heap strategy's `hints` ([`Z3Solver::new`],
/// [`Z3Solver::valuing_every_symbol`]), a second Z3 solver for the independent parts of
/// queries (so the first keeps the exploration's path condition), and every layer stopping
/// once `interrupt` is set. The chain starts from the empty model for every strategy: a first
/// model from Z3 would cost every run the Z3 context, which is made only when a query reaches
/// Z3.
pub fn chain(timeout_ms: u32, hints: Hints, interrupt: crate::budget::Interrupt) -> Chain<Z3Solver> {
    let z3 = || Z3Solver::new(timeout_ms, hints.lift).valuing_every_symbol(hints.every_symbol);
    Chain::new(z3()).with_side(z3()).interrupted_by(interrupt)
}

/// Rounds of [`Solver::model_preferring`] that drop one soft constraint of a core; later
/// rounds drop the whole core, so that a long list of impossible wishes stays cheap.
const DROP_ONE_ROUNDS: usize = 24;

/// A check of [`Solver::model_preferring`] stops after this much of Z3's resource count, a
/// limit that does not depend on the machine's load as a clock does: when the wishes cost
/// more, the model is the path condition's own, on every machine alike.
const MODEL_RLIMIT: u32 = 20_000_000;

/// Those checks' deadline is this many per-query timeouts, so that the resource limit, not
/// the clock, is what ends them.
const MODEL_SLACK: u32 = 6;

/// An incremental Z3 solver over our terms.
pub struct Z3Solver {
    /// Made when a query first reaches Z3 ([`Z3Solver::z3`]): making it creates the thread's
    /// Z3 context, a fixed cost (Z3 allocates much) that a run the solver chain answers alone
    /// never spends.
    solver: Option<z3::Solver>,
    /// The constraints currently asserted.
    asserted: Vec<Term>,
    /// Where in `asserted` each push level starts: a level holds the constraints one query
    /// added, not one constraint, so a pop after a query removes one level.
    scopes: Vec<usize>,
    /// Translation cache, by term id.
    cache: HashMap<TermId, Dynamic>,
    /// Scalar symbols translated so far, for model extraction.
    vars: Vec<(Term, Dynamic)>,
    /// The position in `vars` of each scalar symbol, by its name in Z3 ([`Z3Solver::z3_name`]).
    var_index: HashMap<Rc<str>, usize>,
    /// The sort of the first symbol translated under each name (see [`Z3Solver::z3_name`]).
    first_sort: HashMap<SymbolId, Sort>,
    /// Whether some symbol has a name of its own in Z3 (a second sort under its name).
    renamed: bool,
    /// Whether a model values every symbol translated so far ([`Z3Solver::valuing_every_symbol`]).
    every_symbol: bool,
    stats: SolverStats,
    /// The model pinned by the last `model` call.
    pinned: Option<z3::Model>,
    /// Whether comparisons are lifted over if-then-else operands ([`Z3Solver::lifted`]).
    lift: bool,
    /// The per-query timeout and the watch of the watchdog that enforces it, when the
    /// solver is made inside [`isolated`] (otherwise Z3's `timeout` parameter does).
    watch: Option<(u64, Arc<Watch>)>,
    /// The watchdog's interrupt count when the assertion stack was last built clean
    /// ([`Z3Solver::recover`]).
    epoch: u64,
    /// Whether the last check outlived its deadline.
    late: bool,
    /// Whether the last check's answer was dropped because an interrupt may have touched it.
    suspect: bool,
    /// The deadline of a check in per-query timeouts (1, or [`MODEL_SLACK`] for a check
    /// under [`MODEL_RLIMIT`]).
    slack: u32,
    /// The per-query timeout, for a solver made again ([`Z3Solver::with_floats`]).
    timeout_ms: u32,
    /// Whether a floating-point term has been translated, and whether the solver is one
    /// for every theory: it must be then (a `QF_ABV` solver reads `fp.lt` as an
    /// uninterpreted function).
    floats: (bool, bool),
}

impl Z3Solver {
    /// A solver with a per-query timeout in milliseconds and a fixed random seed, so that
    /// runs are deterministic. `lift` lifts comparisons over if-then-else operands (see
    /// [`Z3Solver::lifted`]): the uber-lazy and POSE heaps' value sets are if-then-else
    /// terms, and their lifted comparisons are atoms the queries of a path share. POSE's
    /// P-search terms nest if-then-else references so deep that their lifted form takes
    /// longer to build than Z3 takes to solve the plain one.
    pub fn new(timeout_ms: u32, lift: bool) -> Self {
        let watch = THREAD_WATCH.with(|d| d.borrow().clone()).map(|w| (u64::from(timeout_ms) * 1000, w));
        Z3Solver {
            timeout_ms,
            floats: (false, false),
            solver: None,
            asserted: Vec::new(),
            scopes: Vec::new(),
            cache: HashMap::new(),
            vars: Vec::new(),
            var_index: HashMap::new(),
            first_sort: HashMap::new(),
            renamed: false,
            every_symbol: false,
            stats: SolverStats::default(),
            pinned: None,
            lift,
            watch,
            // Not the count now: an interrupt may still be pending in the context.
            epoch: 0,
            late: false,
            suspect: false,
            slack: 1,
        }
    }

    /// An empty solver with the fixed settings: for every theory (`floats`) or `QF_ABV`.
    fn z3_solver(floats: bool, timeout_ms: u32, own_timeout: bool) -> z3::Solver {
        let solver = if floats { z3::Solver::new() } else { z3::Solver::new_for_logic("QF_ABV").unwrap_or_default() };
        solver.set_params(&Self::params(timeout_ms, own_timeout));
        solver
    }

    /// The Z3 solver, made on first use ([`Z3Solver::made`]).
    fn z3(&mut self) -> &z3::Solver {
        let solver = match self.solver.take() {
            Some(s) => s,
            None => self.made(self.floats.1),
        };
        self.solver.insert(solver)
    }

    /// A new Z3 solver (for every theory with `floats`), the thread's context handed to the
    /// watchdog ([`Watch::context`]): making the first solver creates that context.
    fn made(&self, floats: bool) -> z3::Solver {
        let solver = Self::z3_solver(floats, self.timeout_ms, self.watch.is_none());
        if let Some((_, w)) = &self.watch {
            w.context.store(z3::Context::thread_local().get_z3_context().as_ptr(), Ordering::Release);
        }
        solver
    }

    /// Puts the checks of [`Solver::model_preferring`] under [`MODEL_RLIMIT`] and
    /// [`MODEL_SLACK`] (`on`), or back to the plain settings.
    fn model_limits(&mut self, on: bool) {
        let own = self.watch.is_none();
        let (rlimit, slack) = if on { (MODEL_RLIMIT, MODEL_SLACK) } else { (0, 1) };
        self.slack = slack;
        let mut p = Params::new();
        p.set_u32("rlimit", rlimit);
        if own {
            p.set_u32("timeout", self.timeout_ms.saturating_mul(slack));
        }
        self.z3().set_params(&p);
    }

    /// The fixed settings of every solver: the timeout (unless the watchdog enforces it), a
    /// fixed seed, and no SIGINT handler (Z3 would catch it and only cancel that check).
    fn params(timeout_ms: u32, own_timeout: bool) -> Params {
        let mut p = Params::new();
        if own_timeout {
            p.set_u32("timeout", timeout_ms);
        }
        p.set_u32("random_seed", 0);
        p.set_bool("ctrl_c", false);
        p
    }

    /// Moves to a solver for every theory once a floating-point term has been translated
    /// (bit-vector-only runs keep the faster `QF_ABV` one), asserting the same stack again.
    fn with_floats(&mut self) {
        if self.floats != (true, false) {
            return;
        }
        self.floats.1 = true;
        let solver = self.made(true);
        let ends = self.scopes.iter().skip(1).copied().chain(std::iter::once(self.asserted.len()));
        for (start, end) in self.scopes.iter().copied().zip(ends) {
            solver.push();
            for t in self.asserted.get(start..end).unwrap_or_default() {
                solver.assert(self.gb(t));
            }
        }
        self.solver = Some(solver);
        self.pinned = None;
    }

    /// Makes the asserted stack equal to `pc`, popping and pushing only the difference:
    /// the new constraints go in one push level, and the common ones a popped level held
    /// go back in a level of their own (a sibling query then pops only the last level).
    fn sync(&mut self, pc: &[Term]) {
        self.recover();
        let common = super::common_prefix(&self.asserted, pc);
        let mut pops = 0;
        while self.asserted.len() > common {
            let start = self.scopes.pop().unwrap_or(0);
            self.asserted.truncate(start);
            pops += 1;
        }
        if pops > 0 {
            self.z3().pop(pops);
        }
        let kept = self.asserted.len();
        self.push_level(pc.get(kept..common).unwrap_or_default());
        self.push_level(pc.get(common..).unwrap_or_default());
    }

    /// Asserts `ts` in a new push level (none when `ts` is empty).
    fn push_level(&mut self, ts: &[Term]) {
        if ts.is_empty() {
            return;
        }
        let bs: Vec<Bool> = ts.iter().map(|t| self.boolean(t)).collect();
        self.with_floats();
        self.scopes.push(self.asserted.len());
        let solver = self.z3();
        solver.push();
        for b in &bs {
            solver.assert(b);
        }
        self.asserted.extend_from_slice(ts);
    }

    fn run(&mut self) -> ZSat {
        let start = Instant::now();
        let r = self.by_deadline(|s| s.check());
        self.stats.queries += 1;
        self.stats.solver_us += start.elapsed().as_micros() as u64;
        r
    }

    /// Runs one check under the watchdog's deadline (when there is one). A `sat` or `unsat`
    /// after an interrupt since the stack was built is `unknown`: the interrupt may have
    /// come before the check and cut the stack short.
    fn by_deadline(&mut self, check: impl FnOnce(&z3::Solver) -> ZSat) -> ZSat {
        self.suspect = false;
        let Some((timeout_us, watch)) = self.watch.clone() else { return check(self.z3()) };
        let due = now_us().saturating_add(timeout_us.saturating_mul(u64::from(self.slack))).max(1);
        watch.deadline.store(due, Ordering::Release);
        let r = check(self.z3());
        watch.deadline.store(0, Ordering::Release);
        self.late = now_us() >= due;
        if r != ZSat::Unknown && self.interrupts() != self.epoch {
            self.suspect = true;
            return ZSat::Unknown;
        }
        r
    }

    /// The watchdog's interrupt count ([`Watch::interrupts`]; 0 without a watchdog).
    fn interrupts(&self) -> u64 {
        self.watch.as_ref().map_or(0, |(_, w)| w.interrupts.load(Ordering::Acquire))
    }

    /// After an interrupt of the watchdog (see [`Watch::interrupts`]): consumes the interrupt
    /// Z3 still holds, by a check of an empty solver, and starts an empty solver, which the
    /// next `sync` gives the whole path condition. The pinned model stays: a model is not
    /// changed by later pushes.
    fn recover(&mut self) {
        let mut now = self.interrupts();
        if now == self.epoch {
            return;
        }
        // An interrupt half delivered would stay pending after the check that consumes it.
        while now % 2 == 1 {
            std::thread::yield_now();
            now = self.interrupts();
        }
        let _ = z3::Solver::new().check();
        self.epoch = now;
        self.solver = None;
        self.asserted.clear();
        self.scopes.clear();
    }

    /// Why the last check answered `unknown`.
    fn reason_unknown(&self) -> String {
        if self.suspect {
            return "interrupted".to_string();
        }
        let reason =
            self.solver.as_ref().and_then(z3::Solver::get_reason_unknown).unwrap_or_else(|| "unknown".to_string());
        // A deadline the watchdog enforced reads as Z3's own timeout would.
        if self.late && reason == "canceled" { "timeout".to_string() } else { reason }
    }

    /// Models value every symbol translated so far, not only those the model interprets.
    /// Only POSE under a precondition wants that: its P-searches on the same input view
    /// name their symbols alike, and a guide model that still values the symbols of an
    /// earlier search's accepted path leads the next search down it, where a lean model
    /// leaves it to search from the start.
    pub fn valuing_every_symbol(mut self, every: bool) -> Self {
        self.every_symbol = every;
        self
    }

    /// The model of the last satisfiable check: every symbol the model interprets (those of
    /// the constraints asserted now; others evaluate to 0/false, as Z3's model completion
    /// gives them), or every symbol translated so far ([`Z3Solver::valuing_every_symbol`]).
    /// `None` when Z3 does not give one or cannot evaluate a symbol in it (an interrupt while
    /// evaluating, when the budget runs out: a partial model would rebuild an input off the
    /// trace's path). With a precondition a run translates thousands of symbols, and reading
    /// each from every model would be a large share of the run.
    fn extract_model(&self) -> Option<Assignment> {
        let mut asg = Assignment::default();
        let model = self.solver.as_ref()?.get_model()?;
        let in_model = || {
            model
                .iter()
                .filter(|f| f.arity() == 0)
                .filter_map(|f| self.var_index.get(f.name().as_str()).and_then(|i| self.vars.get(*i)))
        };
        // Every symbol, and then those of the model again when a name has symbols of two
        // sorts (see `z3_name`): the model's is the one of the query.
        let interpreted: Vec<&(Term, Dynamic)> = match (self.every_symbol, self.renamed) {
            (false, _) => in_model().collect(),
            (true, false) => self.vars.iter().collect(),
            (true, true) => self.vars.iter().chain(in_model()).collect(),
        };
        for (t, d) in interpreted {
            let Node::Var(name, sort) = t.node() else { continue };
            let v = match sort {
                Sort::Bool => model.eval(d, true).and_then(|x| x.as_bool()).and_then(|b| b.as_bool()).map(Val::Bool),
                Sort::Bv(_) => model.eval(d, true).and_then(|x| x.as_bv()).and_then(|b| b.as_u64()).map(Val::Bv),
                Sort::Array(..) => continue,
            };
            asg.values.insert(name.clone(), v?);
        }
        Some(asg)
    }

    /// The values of `terms`, translated as `dyns`, in the pinned model.
    fn eval_dynamics(&self, terms: &[Term], dyns: &[Dynamic]) -> Option<Vec<Val>> {
        let model = self.pinned.as_ref()?;
        let mut out = Vec::with_capacity(terms.len());
        for (t, dy) in terms.iter().zip(dyns) {
            let v = match t.sort() {
                Sort::Bool => model.eval(dy, true).and_then(|x| x.as_bool()).and_then(|b| b.as_bool()).map(Val::Bool),
                Sort::Bv(_) => model.eval(dy, true).and_then(|x| x.as_bv()).and_then(|b| b.as_u64()).map(Val::Bv),
                Sort::Array(..) => None,
            };
            out.push(v?);
        }
        Some(out)
    }
}

impl Solver for Z3Solver {
    fn check(&mut self, pc: &[Term]) -> SatResult {
        self.sync(pc);
        match self.run() {
            ZSat::Sat => match self.extract_model() {
                Some(asg) => SatResult::Sat(asg),
                None => {
                    self.stats.unknown += 1;
                    SatResult::Unknown("no complete model (interrupted)".to_string())
                }
            },
            ZSat::Unsat => SatResult::Unsat,
            ZSat::Unknown => {
                self.stats.unknown += 1;
                SatResult::Unknown(self.reason_unknown())
            }
        }
    }

    fn model(&mut self, pc: &[Term]) -> SatResult {
        self.pinned = None;
        let r = self.check(pc);
        if matches!(r, SatResult::Sat(_)) {
            self.pinned = self.solver.as_ref().and_then(z3::Solver::get_model);
        }
        r
    }

    /// Soft constraints as assumptions: each `prefer[k]` is implied by a literal
    /// `prefer!k` (asserted in a scope of its own), the check assumes the literals still
    /// wanted, and an unsatisfiable core drops its least wanted literal until a model comes
    /// out. Deterministic (fixed seed, fixed order) and at most one check per dropped
    /// constraint; if the path condition alone is what fails, the plain model is taken. When
    /// Z3 gives up, `unknown`: a query of the plain path condition would take as long again,
    /// and the solver chain answers from its own models first.
    fn model_preferring(&mut self, pc: &[Term], prefer: &[Term]) -> SatResult {
        if prefer.is_empty() {
            return self.model(pc);
        }
        self.pinned = None;
        self.sync(pc);
        let softs: Vec<Bool> = prefer.iter().map(|t| self.boolean(t)).collect();
        self.with_floats();
        let lits: Vec<Bool> = (0..softs.len()).map(|k| Bool::new_const(format!("prefer!{k}"))).collect();
        self.model_limits(true);
        let solver = self.z3();
        solver.push();
        for (l, s) in lits.iter().zip(&softs) {
            solver.assert(l.implies(s));
        }
        let mut wanted: Vec<usize> = (0..lits.len()).collect();
        let mut found = None;
        let mut gave_up = None;
        for round in 0.. {
            let assumptions: Vec<Bool> = wanted.iter().filter_map(|k| lits.get(*k).cloned()).collect();
            let start = Instant::now();
            let r = self.by_deadline(|s| s.check_assumptions(&assumptions));
            self.stats.model_queries += 1;
            self.stats.model_us += start.elapsed().as_micros() as u64;
            match r {
                ZSat::Sat => {
                    found = self.extract_model().map(|asg| (asg, self.solver.as_ref().and_then(z3::Solver::get_model)));
                    break;
                }
                ZSat::Unknown => {
                    let why = self.reason_unknown();
                    // Wishes that cost more than the resource limit: the plain model.
                    if !why.contains("resource limit") {
                        gave_up = Some(why);
                    }
                    break;
                }
                ZSat::Unsat => {
                    let core = self.solver.as_ref().map(z3::Solver::get_unsat_core).unwrap_or_default();
                    let in_core = |k: &usize| lits.get(*k).is_some_and(|l| core.iter().any(|c| c == l));
                    let before = wanted.len();
                    if round < DROP_ONE_ROUNDS {
                        if let Some(p) = wanted.iter().rposition(in_core) {
                            wanted.remove(p);
                        }
                    } else {
                        wanted.retain(|k| !in_core(k));
                    }
                    if wanted.len() == before {
                        break; // the path condition alone is unsatisfiable
                    }
                }
            }
        }
        self.z3().pop(1);
        self.model_limits(false);
        match found {
            Some((asg, model)) => {
                self.pinned = model;
                SatResult::Sat(asg)
            }
            None => match gave_up {
                Some(why) => SatResult::Unknown(why),
                None => self.model(pc),
            },
        }
    }

    fn eval_with(&mut self, terms: &[Term], with: &[(Term, u64)]) -> Option<Vec<Val>> {
        self.recover();
        let pairs: Vec<(Dynamic, Dynamic)> = with
            .iter()
            .map(|(v, x)| (self.tr(v), Dynamic::from_ast(&z3::ast::BV::from_u64(*x, v.width().max(1)))))
            .collect();
        let refs: Vec<(&Dynamic, &Dynamic)> = pairs.iter().map(|(a, b)| (a, b)).collect();
        let dyns: Vec<Dynamic> = terms.iter().map(|t| self.tr(t).substitute(&refs)).collect();
        self.eval_dynamics(terms, &dyns)
    }

    fn eval(&mut self, terms: &[Term]) -> Option<Vec<Val>> {
        // A pending interrupt would fail the evaluation.
        self.recover();
        let dyns: Vec<Dynamic> = terms.iter().map(|t| self.tr(t)).collect();
        self.eval_dynamics(terms, &dyns)
    }

    fn stats(&self) -> SolverStats {
        self.stats
    }
}
