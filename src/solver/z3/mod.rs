//! The Z3 back end: translates our terms (once each) and solves incrementally with push/pop.
//!
//! This module (with `float.rs` and `watch.rs`) is the only one of the crate that imports
//! `z3`. A `Z3Solver` uses the crate's thread-local context; [`isolated`] gives each
//! exploration a context of its own, so that what one method asked Z3 cannot change the
//! queries or models of the next, and watches the exploration's budget: when it runs out
//! (deadline, stop request, memory) a watchdog thread interrupts the query in flight, which
//! then answers `unknown`. The same watchdog enforces the per-query timeout of the solvers
//! made inside [`isolated`]: Z3's own `timeout` parameter starts and joins a timer thread
//! around every check, a cost of its own on every query. Z3's own Ctrl-C handler is off
//! (`ctrl_c=false`): a SIGINT is the process's to handle.

#[cfg(test)]
mod cache_tests;
mod float;
mod watch;

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use z3::ast::{Array, Ast, BV, Bool, Dynamic};
use z3::{Params, SatResult as ZSat, Sort as ZSort};

use super::{SatResult, Solver, SolverStats};
use crate::term::{Assignment, BvCmp, BvOp, Node, Sort, SymbolId, Term, TermId, Val};
pub use watch::isolated;
use watch::{THREAD_WATCH, Watch, now_us};

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
    /// Z3 context, a fixed cost (Z3 allocates much) that a run the model cache answers alone
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

    fn boolean(&mut self, t: &Term) -> Bool {
        self.tr(t).as_bool().unwrap_or_else(|| Bool::from_bool(false))
    }

    /// Translates a term (iteratively over the DAG, children first, each node once).
    fn tr(&mut self, root: &Term) -> Dynamic {
        let mut stack: Vec<(Term, bool)> = vec![(root.clone(), false)];
        while let Some((t, expanded)) = stack.pop() {
            if self.cache.contains_key(&t.id()) {
                continue;
            }
            if !expanded {
                stack.push((t.clone(), true));
                for c in t.children() {
                    if !self.cache.contains_key(&c.id()) {
                        stack.push((c.clone(), false));
                    }
                }
                continue;
            }
            if let Node::Var(name, sort) = t.node() {
                self.first_sort.entry(name.clone()).or_insert(*sort);
            }
            let d = self.translate_node(&t);
            self.floats.0 |= matches!(t.node(), Node::FpBin(..) | Node::FpConv(..));
            if let Node::Var(name, sort @ (Sort::Bool | Sort::Bv(_))) = t.node() {
                let z3_name = self.z3_name(name, *sort);
                self.renamed |= *z3_name != **name;
                self.var_index.insert(z3_name, self.vars.len());
                self.vars.push((t.clone(), d.clone()));
            }
            self.cache.insert(t.id(), d);
        }
        self.cache.get(&root.id()).cloned().unwrap_or_else(|| Dynamic::from_ast(&Bool::from_bool(false)))
    }

    /// The name in Z3 of our symbol `name` of sort `sort`: the name itself for the first
    /// sort it was translated with, else the name with the sort appended. Z3 keeps constants
    /// of one name and different sorts apart, but a model names them alike, and the model
    /// of one query must not read another query's symbol (a field `value` of an `Integer`
    /// in one trace, of a map entry in the next).
    fn z3_name(&self, name: &SymbolId, sort: Sort) -> Rc<str> {
        match self.first_sort.get(name) {
            Some(first) if *first != sort => Rc::from(format!("{name}#{sort:?}")),
            _ => name.shared_name(),
        }
    }

    fn get(&self, t: &Term) -> Dynamic {
        self.cache.get(&t.id()).cloned().unwrap_or_else(|| Dynamic::from_ast(&Bool::from_bool(false)))
    }
    fn gb(&self, t: &Term) -> Bool {
        self.get(t).as_bool().unwrap_or_else(|| Bool::from_bool(false))
    }
    fn gv(&self, t: &Term) -> BV {
        self.get(t).as_bv().unwrap_or_else(|| BV::from_u64(0, t.width().max(1)))
    }

    fn translate_node(&self, t: &Term) -> Dynamic {
        let d = |a: &dyn Ast| Dynamic::from_ast(a);
        match t.node() {
            Node::Bool(b) => d(&Bool::from_bool(*b)),
            Node::Bv(w, v) => d(&BV::from_u64(*v, *w)),
            Node::Var(name, sort) => {
                let name = self.z3_name(name, *sort);
                match sort {
                    Sort::Bool => d(&Bool::new_const(name.as_ref())),
                    Sort::Bv(w) => d(&BV::new_const(name.as_ref(), *w)),
                    Sort::Array(iw, vw) => {
                        d(&Array::new_const(name.as_ref(), &ZSort::bitvector(*iw), &ZSort::bitvector(*vw)))
                    }
                }
            }
            Node::Not(a) => d(&self.gb(a).not()),
            Node::And(xs) => d(&Bool::and(&xs.iter().map(|x| self.gb(x)).collect::<Vec<_>>())),
            Node::Or(xs) => d(&Bool::or(&xs.iter().map(|x| self.gb(x)).collect::<Vec<_>>())),
            Node::Ite(c, a, b) => self.gb(c).ite(&self.get(a), &self.get(b)),
            Node::Eq(a, b) if a.width() > 0 => d(&self.lifted(a, b, &mut |x, y| x.eq(y))),
            Node::Eq(a, b) => d(&self.get(a).eq(self.get(b))),
            Node::Bin(op, a, b) => {
                let (x, y) = (self.gv(a), self.gv(b));
                d(&match op {
                    BvOp::Add => x.bvadd(&y),
                    BvOp::Sub => x.bvsub(&y),
                    BvOp::Mul => x.bvmul(&y),
                    BvOp::SDiv => x.bvsdiv(&y),
                    BvOp::SRem => x.bvsrem(&y),
                    BvOp::Shl => x.bvshl(&y),
                    BvOp::LShr => x.bvlshr(&y),
                    BvOp::AShr => x.bvashr(&y),
                    BvOp::And => x.bvand(&y),
                    BvOp::Or => x.bvor(&y),
                    BvOp::Xor => x.bvxor(&y),
                })
            }
            Node::Neg(a) => d(&self.gv(a).bvneg()),
            Node::Cmp(BvCmp::Ule, a, b) if let Some(pb) = self.cardinality(a, b) => d(&pb),
            Node::Cmp(op, a, b) => d(&self.lifted(a, b, &mut |x, y| match op {
                BvCmp::Slt => x.bvslt(y),
                BvCmp::Sle => x.bvsle(y),
                BvCmp::Ult => x.bvult(y),
                BvCmp::Ule => x.bvule(y),
            })),
            Node::SExt(by, a) => d(&self.gv(a).sign_ext(*by)),
            Node::ZExt(by, a) => d(&self.gv(a).zero_ext(*by)),
            Node::Extract(hi, lo, a) => d(&self.gv(a).extract(*hi, *lo)),
            Node::Select(arr, i) => self.select(arr, i, t.width()),
            Node::Store(arr, i, v) => match self.get(arr).as_array() {
                Some(arr) => d(&arr.store(&self.gv(i), &self.gv(v))),
                None => self.get(arr),
            },
            Node::FpBin(op, a, b) => {
                float::binary(*op, &self.gv(a), &self.gv(b)).unwrap_or_else(|| d(&Bool::from_bool(false)))
            }
            Node::FpConv(c, to, a) => d(&float::convert(*c, *to, &self.gv(a)).unwrap_or_else(|| BV::from_u64(0, *to))),
        }
    }
}

/// How many leaves a comparison lifted over if-then-else operands may have.
const LIFT_LEAVES: usize = 64;

impl Z3Solver {
    /// `sum <=u k` where `sum` adds constants and `ite(b, 1, 0)` terms that cannot overflow
    /// its width: a cardinality constraint on the `b`s (uber's scope bound), which Z3 keeps
    /// as one instead of bit-blasting the adders.
    fn cardinality(&self, sum: &Term, k: &Term) -> Option<Bool> {
        let Node::Bv(w, k) = k.node() else { return None };
        let mut bits = Vec::new();
        let mut constant: u64 = 0;
        let mut stack = vec![sum];
        while let Some(x) = stack.pop() {
            match x.node() {
                Node::Bin(BvOp::Add, a, b) => stack.extend([a, b]),
                Node::Bv(_, v) => constant = constant.checked_add(*v)?,
                Node::Ite(c, one, zero) if one.as_i64() == Some(1) && zero.as_i64() == Some(0) => bits.push(self.gb(c)),
                _ => return None,
            }
        }
        let n = bits.len() as u64;
        if bits.len() < 2 || *w >= 63 || constant.checked_add(n)? >= 1u64 << w {
            return None;
        }
        let room = i32::try_from(k.checked_sub(constant)?).ok()?;
        let weighted: Vec<(&Bool, i32)> = bits.iter().map(|b| (b, 1)).collect();
        Some(Bool::pb_le(&weighted, room))
    }

    /// `cmp(a, b)` with the if-then-else structure of bit-vector operands lifted out of the
    /// comparison: `ite(c, x, y) <= k` becomes `ite(c, x <= k, y <= k)`. A value read through a
    /// reference with several locations is such an if-then-else over the locations' fields;
    /// lifted, its comparisons are atoms over the fields themselves, which the queries of a
    /// path share (Z3 hash-conses them), instead of one 32-bit multiplexer and comparator per
    /// read. Only while the lifted form has at most [`LIFT_LEAVES`] comparisons.
    fn lifted(&self, a: &Term, b: &Term, cmp: &mut dyn FnMut(&BV, &BV) -> Bool) -> Bool {
        /// The leaves of `t`'s if-then-else tree, counted only up to just over `cap`: the
        /// tree of a DAG that shares subterms can be exponentially larger than the DAG.
        fn leaves(t: &Term, cap: usize) -> usize {
            match t.node() {
                Node::Ite(_, x, y) => {
                    let l = leaves(x, cap);
                    if l > cap { l } else { l + leaves(y, cap - l) }
                }
                _ => 1,
            }
        }
        if !self.lift || leaves(a, LIFT_LEAVES).saturating_mul(leaves(b, LIFT_LEAVES)) > LIFT_LEAVES {
            return cmp(&self.gv(a), &self.gv(b));
        }
        self.lift(a, b, cmp)
    }

    fn lift(&self, a: &Term, b: &Term, cmp: &mut dyn FnMut(&BV, &BV) -> Bool) -> Bool {
        if let Node::Ite(c, x, y) = a.node() {
            let (l, r) = (self.lift(x, b, cmp), self.lift(y, b, cmp));
            return self.gb(c).ite(&l, &r);
        }
        if let Node::Ite(c, x, y) = b.node() {
            let (l, r) = (self.lift(a, x, cmp), self.lift(a, y, cmp));
            return self.gb(c).ite(&l, &r);
        }
        cmp(&self.gv(a), &self.gv(b))
    }

    /// `arr[i]`. Below stores at constant indices (the heap summaries), the read is the
    /// if-then-else over those stores, newest first: Z3 then sees the case split the
    /// stores stand for instead of reasoning in the theory of arrays.
    fn select(&self, arr: &Term, i: &Term, width: u32) -> Dynamic {
        let mut stores = Vec::new();
        let mut base = arr;
        while let Node::Store(below, j, v) = base.node() {
            if j.as_i64().is_none() {
                break;
            }
            stores.push((j, v));
            base = below;
        }
        let idx = self.gv(i);
        let mut out = match self.get(base).as_array() {
            Some(a) => a.select(&idx),
            None => Dynamic::from_ast(&BV::from_u64(0, width.max(1))),
        };
        for (j, v) in stores.into_iter().rev() {
            out = idx.eq(self.gv(j)).ite(&self.get(v), &out);
        }
        out
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
    /// and the model cache answers from its own models first.
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

    fn eval(&mut self, terms: &[Term]) -> Option<Vec<Val>> {
        // A pending interrupt would fail the evaluation.
        self.recover();
        let dyns: Vec<Dynamic> = terms.iter().map(|t| self.tr(t)).collect();
        let model = self.pinned.as_ref()?;
        let mut out = Vec::with_capacity(terms.len());
        for (t, dy) in terms.iter().zip(&dyns) {
            let v = match t.sort() {
                Sort::Bool => model.eval(dy, true).and_then(|x| x.as_bool()).and_then(|b| b.as_bool()).map(Val::Bool),
                Sort::Bv(_) => model.eval(dy, true).and_then(|x| x.as_bv()).and_then(|b| b.as_u64()).map(Val::Bv),
                Sort::Array(..) => None,
            };
            out.push(v?);
        }
        Some(out)
    }

    fn stats(&self) -> SolverStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;
    use crate::budget::Budget;
    use crate::term::TermPool;

    #[test]
    fn java_division_and_overflow_agree_with_folding() {
        let mut p = TermPool::new();
        let x = p.var("x", Sort::Bv(32));
        let min = p.int(i32::MIN);
        let m1 = p.int(-1);
        let q = p.bin(BvOp::SDiv, &x, &m1);
        let eqx = p.eq(&x, &min);
        let eqq = p.eq(&q, &min);
        let mut s = Z3Solver::new(1000, true);
        // x = MIN → MIN / -1 = MIN (Java wraps).
        assert!(matches!(s.check(&[eqx.clone(), eqq.clone()]), SatResult::Sat(_)));
        let ne = p.not(&eqq);
        assert_eq!(s.check(&[eqx, ne]), SatResult::Unsat);
    }

    #[test]
    fn incremental_prefixes_and_models() {
        let mut p = TermPool::new();
        let x = p.var("x", Sort::Bv(32));
        let five = p.int(5);
        let lt = p.slt(&x, &five);
        let zero = p.int(0);
        let gt = p.slt(&zero, &x);
        let mut s = Z3Solver::new(1000, true);
        match s.check(&[lt.clone(), gt.clone()]) {
            SatResult::Sat(m) => {
                let v = m.eval_i64(&x).unwrap();
                assert!(0 < v && v < 5);
            }
            other => panic!("{other:?}"),
        }
        let ge = p.not(&lt);
        assert!(matches!(s.check(&[ge]), SatResult::Sat(_)));
        assert_eq!(s.stats().queries, 2);
    }

    /// One name, two sorts (a field `value` of an `Integer` in one trace, of a map entry's
    /// reference in the next): the model of a query values that query's symbol, whichever of
    /// the two was translated last. Before, the later one's stood in for it and read 0.
    #[test]
    fn a_model_values_the_symbol_of_its_query_when_a_name_has_two_sorts() {
        let mut p = TermPool::new();
        let (int, ptr) = (p.var("L2.value", Sort::Bv(32)), p.var("L2.value", Sort::Bv(16)));
        let (eight, nine) = (p.int(8), p.bv(16, 9));
        let (int_is_8, ptr_is_9) = (p.eq(&int, &eight), p.eq(&ptr, &nine));
        for every in [false, true] {
            let mut s = Z3Solver::new(1000, true).valuing_every_symbol(every);
            for (q, t, want) in [(&int_is_8, &int, 8), (&ptr_is_9, &ptr, 9), (&int_is_8, &int, 8)] {
                match s.model(std::slice::from_ref(q)) {
                    SatResult::Sat(m) => assert_eq!(m.eval_i64(t), Some(want), "every symbol: {every}"),
                    other => panic!("{other:?}"),
                }
            }
        }
    }

    /// A count of booleans under a bound (uber's scope) answers as the bit-vector sum it is
    /// made from: at most two of three; and a sum that may wrap stays a bit-vector sum.
    #[test]
    fn a_cardinality_bound_answers_as_its_sum() {
        let mut p = TermPool::new();
        let bits: Vec<Term> = (0..3).map(|i| p.var(&format!("b{i}"), Sort::Bool)).collect();
        let count = |p: &mut TermPool, w: u32, start: i64| {
            let (one, zero) = (p.bv(w, 1), p.bv(w, 0));
            let mut sum = p.bv(w, start);
            for b in &bits {
                let bit = p.ite(b, &one, &zero);
                sum = p.bin(BvOp::Add, &sum, &bit);
            }
            sum
        };
        let (sum, two) = (count(&mut p, 2, 0), p.bv(2, 2));
        let within = p.cmp(BvCmp::Ule, &sum, &two);
        let mut s = Z3Solver::new(1000, true);
        assert!(s.cardinality(&sum, &two).is_some());
        assert_eq!(s.check(&[within.clone(), bits[0].clone(), bits[1].clone(), bits[2].clone()]), SatResult::Unsat);
        let not2 = p.not(&bits[2]);
        assert!(matches!(s.check(&[within, bits[0].clone(), bits[1].clone(), not2]), SatResult::Sat(_)));
        // 1 + three bits in two bits wraps to 0 when all are set: 0 <= 2 holds.
        let wrapping = count(&mut p, 2, 1);
        let wraps = p.cmp(BvCmp::Ule, &wrapping, &two);
        assert!(s.cardinality(&wrapping, &two).is_none());
        assert!(matches!(s.check(&[wraps, bits[0].clone(), bits[1].clone(), bits[2].clone()]), SatResult::Sat(_)));
    }

    /// Comparisons lifted over if-then-else operands decide exactly as the plain ones: a
    /// value read through one of three locations, compared with a key, both ways round.
    #[test]
    fn lifted_comparisons_answer_as_plain_ones() {
        let mut p = TermPool::new();
        let ptr = p.var("p", Sort::Bv(16));
        let (a, b, c, key) =
            (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)), p.var("c", Sort::Bv(32)), p.var("key", Sort::Bv(32)));
        let (one, two) = (p.bv(16, 1), p.bv(16, 2));
        let (is1, is2) = (p.eq(&ptr, &one), p.eq(&ptr, &two));
        let inner = p.ite(&is2, &b, &c);
        let read = p.ite(&is1, &a, &inner);
        let lt = p.slt(&read, &key);
        let eq = p.eq(&key, &read);
        let (a_lt, b_lt, c_lt) = (p.slt(&a, &key), p.slt(&b, &key), p.slt(&c, &key));
        let (not_a, not_b, not_c) = (p.not(&a_lt), p.not(&b_lt), p.not(&c_lt));
        let not_eq = p.not(&eq);
        let queries: Vec<Vec<Term>> = vec![
            vec![lt.clone(), not_a.clone(), not_b.clone(), not_c.clone()],
            vec![lt.clone(), not_a, not_b, c_lt],
            vec![lt.clone(), is1.clone(), a_lt.clone()],
            vec![eq.clone(), is2.clone(), not_eq.clone()],
            vec![eq, is1, lt],
        ];
        let expected = [false, true, true, false, false];
        for lift in [true, false] {
            let mut s = Z3Solver::new(1000, lift);
            for (q, want) in queries.iter().zip(expected) {
                assert_eq!(matches!(s.check(q), SatResult::Sat(_)), want, "lift {lift}: {q:?}");
            }
        }
    }

    /// An if-then-else DAG whose tree has 2^60 leaves (each level shares the one below twice)
    /// is compared as a whole: deciding whether to lift it looks at no more than the cap.
    #[test]
    fn lifting_does_not_walk_a_shared_dag_as_a_tree() {
        let mut p = TermPool::new();
        let key = p.var("key", Sort::Bv(32));
        let mut t = p.var("x", Sort::Bv(32));
        for k in 0..60 {
            let (c, d, x) = (p.var(&format!("c{k}"), Sort::Bool), p.var(&format!("d{k}"), Sort::Bool), p.int(k));
            let inner = p.ite(&d, &t, &x);
            t = p.ite(&c, &t, &inner);
        }
        let lt = p.slt(&t, &key);
        let mut s = Z3Solver::new(1000, true);
        assert!(matches!(s.check(&[lt]), SatResult::Sat(_)));
    }

    /// A budget that runs out between a satisfiable check and the reading of its model
    /// interrupts Z3, which then evaluates nothing: that is no model, never an empty one (an
    /// empty model made every input reference null, a test off its trace's path).
    #[test]
    fn a_model_read_after_an_interrupt_is_no_model() {
        let mut p = TermPool::new();
        let x = p.var("x", Sort::Bv(32));
        let five = p.int(5);
        let lt = p.slt(&x, &five);
        let mut s = Z3Solver::new(1000, true);
        assert!(matches!(s.check(&[lt]), SatResult::Sat(_)));
        assert!(s.extract_model().is_some());
        z3::Context::thread_local().handle().interrupt();
        assert!(s.extract_model().is_none());
    }

    /// An interrupt stays pending in Z3's context after the query it was meant for, and a
    /// push under it drops the constraints it should take in (Z3 then answers `sat` on an
    /// unsatisfiable stack): a solver that sees the watchdog's count move starts over.
    #[test]
    fn an_interrupt_between_queries_does_not_cut_the_stack_short() {
        let budget = Budget::new(600, 4096, crate::budget::Stop::new());
        isolated(&budget, || {
            let mut p = TermPool::new();
            let (x, y) = (p.var("x", Sort::Bv(32)), p.var("y", Sort::Bv(32)));
            let (one, three, five, hundred) = (p.int(1), p.int(3), p.int(5), p.int(100));
            let succ = p.bin(BvOp::Add, &x, &one);
            let base = [p.slt(&five, &x), p.slt(&x, &hundred), p.eq(&y, &succ)];
            let small = p.slt(&y, &three);
            let mut s = Z3Solver::new(1000, true);
            assert!(matches!(s.check(&base), SatResult::Sat(_)));
            // What the watchdog does when the budget runs out between two queries.
            let watch = THREAD_WATCH.with(|d| d.borrow().clone()).unwrap();
            watch.interrupts.fetch_add(1, Ordering::AcqRel);
            z3::Context::thread_local().handle().interrupt();
            watch.interrupts.fetch_add(1, Ordering::AcqRel);
            let all = [&base[..], &[small]].concat();
            assert_eq!(s.check(&all), SatResult::Unsat);
            assert!(matches!(s.check(&base), SatResult::Sat(_)));
        });
    }

    /// A solver that no query has reached leaves the thread without a Z3 context (making one
    /// is a fixed cost, and the model cache answers most runs alone); the first query
    /// that reaches Z3 makes it and hands it to the watchdog.
    #[test]
    fn the_z3_context_is_made_by_the_first_query_that_reaches_z3() {
        let budget = Budget::new(600, 4096, crate::budget::Stop::new());
        isolated(&budget, || {
            let mut p = TermPool::new();
            let (x, five) = (p.var("x", Sort::Bv(32)), p.int(5));
            let mut s = Z3Solver::new(1000, true);
            let watch = THREAD_WATCH.with(|d| d.borrow().clone()).unwrap();
            assert!(watch.context.load(Ordering::Acquire).is_null());
            assert!(matches!(s.check(&[p.slt(&x, &five)]), SatResult::Sat(_)));
            assert!(!watch.context.load(Ordering::Acquire).is_null());
        });
    }

    /// Inside [`isolated`] a query's timeout is kept by the watchdog, not by Z3's timer: a
    /// query past it answers `unknown` for a timeout, and the next query answers as usual.
    #[test]
    fn the_watchdog_keeps_a_queries_timeout() {
        let budget = Budget::new(600, 4096, crate::budget::Stop::new());
        isolated(&budget, || {
            let mut p = TermPool::new();
            // Seventeen pairwise distinct 4-bit values: a pigeonhole proof, far beyond the timeout.
            let xs: Vec<Term> = (0..17).map(|i| p.var(&format!("x{i}"), Sort::Bv(4))).collect();
            let mut hard = Vec::new();
            for (i, a) in xs.iter().enumerate() {
                for b in &xs[i + 1..] {
                    let same = p.eq(a, b);
                    hard.push(p.not(&same));
                }
            }
            let mut s = Z3Solver::new(50, true);
            assert!(s.watch.is_some(), "the watchdog keeps the timeout");
            assert_eq!(s.check(&hard), SatResult::Unknown("timeout".to_string()));
            let five = p.int(5);
            let z = p.var("z", Sort::Bv(32));
            let easy = p.slt(&z, &five);
            assert!(matches!(s.check(&[easy]), SatResult::Sat(_)));
        });
    }
}
