//! The solver chain in front of Z3 (solver/chain/): what each layer answers, independent parts
//! and unsatisfiable sets.

#![allow(clippy::unwrap_used, clippy::panic)]
use super::super::chain::Chain;
use super::Z3Solver;
use crate::solver::{SatResult, Site, Solver, SolverStats};
use crate::term::{Sort, TermPool};
use crate::term::{Term, Val};
use std::cell::RefCell;
use std::rc::Rc;

/// Z3, recording the queries that reach it; with `gives_up`, giving up on every preferred
/// model (as on a floating-point query that runs out of time).
struct Recording(Z3Solver, Rc<RefCell<Vec<usize>>>, bool);

impl Solver for Recording {
    fn check(&mut self, pc: &[Term]) -> SatResult {
        self.1.borrow_mut().push(pc.len());
        self.0.check(pc)
    }
    fn model(&mut self, pc: &[Term]) -> SatResult {
        self.0.model(pc)
    }
    fn model_preferring(&mut self, pc: &[Term], prefer: &[Term]) -> SatResult {
        if self.2 { SatResult::Unknown("timeout".into()) } else { self.0.model_preferring(pc, prefer) }
    }
    fn eval(&mut self, terms: &[Term]) -> Option<Vec<Val>> {
        self.0.eval(terms)
    }
    fn stats(&self) -> SolverStats {
        self.0.stats()
    }
}

/// A chain over a recording Z3 that gives up on preferred models when `gives_up`.
fn chain_of(gives_up: bool) -> (Chain<Recording>, Rc<RefCell<Vec<usize>>>) {
    let asked = Rc::new(RefCell::new(Vec::new()));
    (Chain::new(Recording(Z3Solver::new(1000, true), asked.clone(), gives_up)), asked)
}

fn recorded() -> (Chain<Recording>, Rc<RefCell<Vec<usize>>>) {
    chain_of(false)
}

#[test]
fn asks_only_about_the_constraints_that_share_symbols_with_the_new_ones() {
    let mut p = TermPool::new();
    let (a, b, c, d) =
        (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)), p.var("c", Sort::Bv(32)), p.var("d", Sort::Bv(32)));
    let (one, three, five, seven) = (p.int(1), p.int(3), p.int(5), p.int(7));
    let base = [p.slt(&a, &b), p.slt(&one, &a), p.slt(&five, &b), p.ne(&a, &seven), p.slt(&one, &c)];
    let (mut s, asked) = recorded();
    assert!(matches!(s.check(&base), SatResult::Sat(_)));
    // `c + c == 3` shares a symbol only with `1 < c`: the other four stay out of the query
    // (arithmetic, which unit propagation and the order graph leave to the solver). The
    // first query took no solver: a repair of the empty model met it.
    let twice = p.bin(crate::term::BvOp::Add, &c, &c);
    let pc = [base.as_slice(), &[p.eq(&twice, &three)]].concat();
    assert_eq!(s.check(&pc), SatResult::Unsat);
    assert_eq!(*asked.borrow(), vec![2]);
    // The set found unsatisfiable refutes any query that contains it, without Z3.
    let more = [pc.as_slice(), &[p.eq(&d, &three)]].concat();
    assert_eq!(s.check(&more), SatResult::Unsat);
    assert_eq!(asked.borrow().len(), 1);
}

#[test]
fn unit_propagation_refutes_without_the_solver() {
    // uber's value set `r = ite(2 == a, a, b)` with `a -> 3`, `b -> null`: `r != null` is
    // refuted by propagating the two choices; a repair of the empty model answers the first
    // query, so Z3 is never asked.
    let mut p = TermPool::new();
    let (a, b, r) = (p.var("a", Sort::Bv(16)), p.var("b", Sort::Bv(16)), p.var("r", Sort::Bv(16)));
    let (zero, two, three) = (p.bv(16, 0), p.bv(16, 2), p.bv(16, 3));
    let c = p.eq(&two, &a);
    let ite = p.ite(&c, &a, &b);
    let base = [p.eq(&ite, &r), p.ne(&zero, &r)];
    let (mut s, asked) = recorded();
    assert!(matches!(s.check(&base), SatResult::Sat(_)));
    let pc = [base.as_slice(), &[p.eq(&three, &a), p.eq(&zero, &b)]].concat();
    assert_eq!(s.check(&pc), SatResult::Unsat);
    assert!(asked.borrow().is_empty());
}

#[test]
fn the_empty_model_answers_a_first_query_without_the_solver() {
    // A run's first query (uber's `this.root` in {null, L1} and not null) is met by the
    // empty model, every symbol 0 or false, or by a repair of it: Z3 is not asked.
    let mut p = TermPool::new();
    let root = p.var("this.root", Sort::Bv(16));
    let (zero, two) = (p.bv(16, 0), p.bv(16, 2));
    let (is0, is2) = (p.eq(&root, &zero), p.eq(&root, &two));
    let dom = p.or2(&is0, &is2);
    let (mut s, asked) = recorded();
    assert!(matches!(s.check(std::slice::from_ref(&dom)), SatResult::Sat(_)));
    let SatResult::Sat(m) = s.check(&[dom.clone(), p.not(&is0)]) else { panic!("satisfiable") };
    assert_eq!(m.get("this.root"), Some(&Val::Bv(2)));
    assert!(asked.borrow().is_empty());
    assert_eq!((s.stats().queries, s.stats().cache_hits), (0, 2));
}

#[test]
fn the_counts_say_what_answered_each_query() {
    // A pointer choice `c` in {null, 2} and a constraint no repair meets: Z3 answers the
    // first query, a repaired model the second (`c` set to 2), propagation refutes the third;
    // the time of the checks includes the solver's.
    let mut p = TermPool::new();
    let (c, v) = (p.var("c", Sort::Bv(16)), p.var("v", Sort::Bv(32)));
    let (zero, two) = (p.bv(16, 0), p.bv(16, 2));
    let (is0, is2) = (p.eq(&c, &zero), p.eq(&c, &two));
    let dom = p.or2(&is0, &is2);
    let (mask, k) = (p.int(0x5a5a), p.int(0x1234));
    let x = p.bin(crate::term::BvOp::Xor, &v, &mask);
    let hard = p.eq(&x, &k);
    let (mut s, asked) = recorded();
    assert!(matches!(s.check(&[hard.clone(), dom.clone(), p.not(&is2)]), SatResult::Sat(_)));
    let SatResult::Sat(m) = s.check(&[hard.clone(), dom.clone(), is2.clone()]) else { panic!("satisfiable") };
    assert_eq!(m.get("c"), Some(&Val::Bv(2)));
    assert_eq!(s.check(&[hard, dom, is2, is0]), SatResult::Unsat);
    assert_eq!(asked.borrow().len(), 1);
    let st = s.stats();
    assert_eq!((st.queries, st.cache_hits, st.repaired, st.refuted), (1, 2, 1, 1));
    assert!(st.check_us >= st.solver_us && st.solver_us > 0, "{st:?}");
}

/// Once the budget is spent, every query answers `unknown` at once: no layer answers it
/// (not even a recent model that meets it) and the solver is not asked; the plain refutation
/// still refutes, as it did in the machine, since it counts as no query.
#[test]
fn a_spent_budget_stops_every_layer_at_once() {
    let mut p = TermPool::new();
    let (x, five) = (p.var("x", Sort::Bv(32)), p.int(5));
    let lt = p.slt(&x, &five);
    let ge = p.not(&lt);
    let budget = crate::budget::Budget::new(600, 4096, crate::budget::Stop::new());
    let (s, asked) = recorded();
    let mut s = s.interrupted_by(budget.interrupt.clone());
    assert!(matches!(s.check(std::slice::from_ref(&lt)), SatResult::Sat(_)));
    budget.stop.request();
    assert!(budget.halt().is_some());
    assert!(matches!(s.check(std::slice::from_ref(&lt)), SatResult::Unknown(_)));
    assert!(matches!(s.check(&[lt.clone(), p.slt(&five, &x)]), SatResult::Unknown(_)));
    assert!(s.refutes(std::slice::from_ref(&lt), &[&ge]));
    assert!(asked.borrow().is_empty());
    assert_eq!((s.stats().queries, s.stats().cache_hits), (0, 1));
}

#[test]
fn a_model_of_the_part_completes_the_cached_model() {
    let mut p = TermPool::new();
    let (a, b, c) = (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)), p.var("c", Sort::Bv(32)));
    let (seven, k) = (p.int(7), p.int(0x1234));
    let mask = p.int(0x5a5a);
    let x = p.bin(crate::term::BvOp::Xor, &c, &mask);
    let base = [p.eq(&a, &seven), p.eq(&b, &seven), p.slt(&a, &mask)];
    let (mut s, asked) = recorded();
    assert!(matches!(s.check(&base), SatResult::Sat(_)));
    let pc = [base.as_slice(), &[p.eq(&x, &k)]].concat();
    let SatResult::Sat(m) = s.check(&pc) else { panic!("satisfiable") };
    // The first query took no solver (a repair of the empty model met it).
    assert_eq!(*asked.borrow(), vec![1]);
    assert_eq!((m.get("a"), m.get("c")), (Some(&Val::Bv(7)), Some(&Val::Bv(0x1234 ^ 0x5a5a))));
}

#[test]
fn a_new_definition_does_not_pull_the_heap_into_an_independent_query() {
    // A constraint no repair meets (`s ^ 0x5a5a == 0x1234`) after a field read that defined a
    // value set `r`: only that constraint goes to the solver; `r` takes the value its
    // definition gives. (uber's overflow check `size + 1 <= size` was the case; a repair now
    // meets it with the largest int.)
    let mut p = TermPool::new();
    let (a, b, r, s) =
        (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)), p.var("r", Sort::Bv(32)), p.var("s", Sort::Bv(32)));
    let (one, five) = (p.int(1), p.int(5));
    let base = [p.slt(&a, &b), p.slt(&one, &a), p.slt(&five, &b)];
    let (mut c, asked) = recorded();
    assert!(matches!(c.check(&base), SatResult::Sat(_)));
    let gt = p.slt(&one, &a);
    let ite = p.ite(&gt, &a, &b);
    let (mask, k) = (p.int(0x5a5a), p.int(0x1234));
    let x = p.bin(crate::term::BvOp::Xor, &s, &mask);
    let pc = [base.as_slice(), &[p.eq(&r, &ite), p.eq(&x, &k)]].concat();
    let SatResult::Sat(m) = c.check(&pc) else { panic!("satisfiable") };
    assert_eq!(*asked.borrow(), vec![1]);
    assert_eq!(m.get("s"), Some(&Val::Bv(0x1234 ^ 0x5a5a)));
    assert_eq!(m.get("r"), m.get("a"));
}

#[test]
fn a_cached_model_stands_in_for_a_preferred_one_the_solver_gave_up_on() {
    let mut p = TermPool::new();
    let (a, b) = (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)));
    let (one, five) = (p.int(1), p.int(5));
    let pc = [p.slt(&one, &a), p.slt(&a, &b), p.slt(&five, &b)];
    let prefer = [p.eq(&a, &five)];
    let (mut s, _) = chain_of(true);
    assert!(matches!(s.check(&pc), SatResult::Sat(_)));
    let SatResult::Sat(m) = s.model_preferring(&pc, &prefer) else { panic!("a cached model") };
    let mut ev = crate::term::Evaluator::new(&m);
    assert!(pc.iter().all(|t| ev.eval(t) == Some(Val::Bool(true))));
    // A path condition no cached model meets nor a repair reaches: the solver's plain model.
    let (mask, k) = (p.int(0x5a5a), p.int(0x1234));
    let x = p.bin(crate::term::BvOp::Xor, &a, &mask);
    let hard = [pc.as_slice(), &[p.eq(&x, &k)]].concat();
    let SatResult::Sat(m) = s.model_preferring(&hard, &prefer) else { panic!("the solver's model") };
    assert_eq!(m.get("a"), Some(&Val::Bv(0x1234 ^ 0x5a5a)));
}

#[test]
fn the_values_propagation_decides_make_the_changes_a_repair_cannot() {
    // AATree's first P-search query: `this.root` and `this.nil` are null, L1 or L2, and
    // differ; the newest model has both at L1, and the query wants `this.root` null. A
    // repair changes one symbol at a time: `this.nil := 0` meets the most entries and
    // breaks `this.nil != this.root`. Propagation decides every symbol: `this.root` null,
    // so L1 does not exist, so `this.nil` is not L1, not null (`this.root` is), hence L2.
    let mut p = TermPool::new();
    let (root, nil) = (p.var("this.root", Sort::Bv(16)), p.var("this.nil", Sort::Bv(16)));
    let (e1, e2) = (p.var("L1.exists", Sort::Bool), p.var("L2.exists", Sort::Bool));
    let (zero, two, three) = (p.bv(16, 0), p.bv(16, 2), p.bv(16, 3));
    let (root0, root2, nil0, nil2, nil3) =
        (p.eq(&zero, &root), p.eq(&two, &root), p.eq(&zero, &nil), p.eq(&two, &nil), p.eq(&nil, &three));
    let not_nil2 = p.not(&nil2);
    let nils = p.or2(&nil0, &nil2);
    let shape =
        [p.eq(&e1, &root2), p.or2(&root0, &root2), p.eq(&e2, &nil3), p.or2(&e1, &not_nil2), p.or2(&nils, &nil3)];
    let (mut s, asked) = recorded();
    let first = [shape.as_slice(), &[root2.clone(), nil2.clone()]].concat();
    assert!(matches!(s.check(&first), SatResult::Sat(_)));
    let asked_first = asked.borrow().len();
    let second = [shape.as_slice(), &[p.ne(&nil, &root), root0]].concat();
    let SatResult::Sat(m) = s.check(&second) else { panic!("satisfiable") };
    assert_eq!((m.get("this.nil"), m.get("L2.exists")), (Some(&Val::Bv(3)), Some(&Val::Bool(true))));
    assert_eq!(asked.borrow().len(), asked_first, "the second query took no solver");
}

#[test]
fn a_site_whose_queries_were_refuted_is_expected_to_be_refuted_again() {
    // One site's queries (a P-search's fork) refuted twice, another's satisfied twice: the
    // first site's next query goes to propagation first, the second's to a repair first,
    // and a site never seen follows the share of all queries.
    let mut p = TermPool::new();
    let (c, d) = (p.var("c", Sort::Bv(16)), p.var("d", Sort::Bv(16)));
    let (zero, two) = (p.bv(16, 0), p.bv(16, 2));
    let (is0, is2, d2) = (p.eq(&c, &zero), p.eq(&c, &two), p.eq(&d, &two));
    let dom = p.or2(&is0, &is2);
    let (refuted, kept, new) = (Site(1), Site(2), Site(3));
    let (mut s, asked) = recorded();
    assert!(matches!(s.check_at(&[dom.clone(), is2.clone()], kept), SatResult::Sat(_)));
    assert!(matches!(s.check_at(&[dom.clone(), is2.clone(), d2.clone()], kept), SatResult::Sat(_)));
    for _ in 0..2 {
        assert_eq!(s.check_at(&[dom.clone(), is2.clone(), is0.clone()], refuted), SatResult::Unsat);
    }
    assert!(s.likely_unsat(Some(refuted)));
    assert!(!s.likely_unsat(Some(kept)));
    assert_eq!(s.likely_unsat(Some(new)), s.likely_unsat(None));
    assert!(asked.borrow().is_empty());
}

#[test]
fn a_suggested_model_of_the_path_condition_meets_the_queries_that_extend_it() {
    // A state's witness values `a` 7 and `b` 9; the search for its test's input asks about
    // its path condition `5 < a` and more, and the witness meets that before any model the
    // cache made. A model that does not satisfy the path condition is kept for the prefix it
    // satisfies (none here): a query it does not meet is repaired from it.
    let mut p = TermPool::new();
    let (a, b) = (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)));
    let (five, seven, eight) = (p.int(5), p.int(7), p.int(8));
    let pc = [p.slt(&five, &a)];
    let (mut s, asked) = recorded();
    assert!(matches!(s.check(&pc), SatResult::Sat(_)));
    let model = |a: i64, b: i64| {
        let mut m = crate::term::Assignment::default();
        m.values.insert("a".into(), Val::Bv(a as u64));
        m.values.insert("b".into(), Val::Bv(b as u64));
        m
    };
    s.suggest(&model(1, 9), &pc, 0);
    let above = [pc[0].clone(), p.slt(&eight, &b)];
    let SatResult::Sat(m) = s.check(&above) else { panic!("satisfiable") };
    assert_ne!(m.get("a"), Some(&Val::Bv(1)));
    s.suggest(&model(7, 9), &pc, 0);
    let repaired = s.stats().repaired;
    let SatResult::Sat(m) = s.check(&[pc[0].clone(), p.eq(&a, &seven)]) else { panic!("satisfiable") };
    assert_eq!(m, model(7, 9));
    assert_eq!(s.stats().repaired, repaired);
    assert!(asked.borrow().is_empty());
}

#[test]
fn a_suggested_model_is_kept_for_the_prefix_it_satisfies_and_repaired_from() {
    // The witness of the state a fork's side left (`a` 1000, `b` 1) satisfies the state's
    // `5 < a` but not the side's `8 < b`: the side's query is repaired from it, keeping `a`.
    let mut p = TermPool::new();
    let (a, b) = (p.var("a", Sort::Bv(32)), p.var("b", Sort::Bv(32)));
    let (five, eight) = (p.int(5), p.int(8));
    let state = p.slt(&five, &a);
    let (mut s, asked) = recorded();
    assert!(matches!(s.check(std::slice::from_ref(&state)), SatResult::Sat(_)));
    let mut witness = crate::term::Assignment::default();
    witness.values.insert("a".into(), Val::Bv(1000));
    witness.values.insert("b".into(), Val::Bv(1));
    let side = [state.clone(), p.slt(&eight, &b)];
    s.suggest(&witness, &side, 1);
    let SatResult::Sat(m) = s.check(&side) else { panic!("satisfiable") };
    assert_eq!(m.get("a"), Some(&Val::Bv(1000)));
    assert!(asked.borrow().is_empty());
}
