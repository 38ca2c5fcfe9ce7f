//! The library pipeline without the command line: `Session` loads a class path, explores and
//! generates tests as values; the test writes them and the JVM judges them. The emitted
//! sources are golden files (`tests/golden/junit/`); regenerate them with
//! `UPDATE_EXPECT=1 cargo test --test pipeline`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_golden, jar as jar_path, run_junit, tempdir, text};
use uberlazy::config::{Config, Strategy};
use uberlazy::session::{GenOptions, Generated, Session, TestsPer};

/// Generates the tests of `specs` with `strategy` through the library, one per program path.
fn generate(jar: &str, specs: &[&str], strategy: Strategy, config: Config) -> Generated {
    generate_with(jar, specs, strategy, config, TestsPer::Path)
}

/// [`generate`], with `tests` choosing which traces become tests.
fn generate_with(jar: &str, specs: &[&str], strategy: Strategy, config: Config, tests: TestsPer) -> Generated {
    let mut s = Session::open(&jar_path(jar), config).unwrap();
    let specs: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
    let ms = s.targets(&specs).unwrap().methods;
    s.generate(&ms, strategy, &GenOptions { tests, ..GenOptions::default() }).unwrap()
}

/// One check per stage: every emitted test class equals its golden file, and the files,
/// written out, compile and pass on the JVM.
fn check(jar: &str, g: &Generated) {
    let dir = tempdir();
    let files = std::iter::once(&g.runtime).chain(g.methods.iter().map(|(m, r)| {
        let t = r.as_ref().unwrap_or_else(|e| panic!("{m}: {e}"));
        assert_golden(&format!("junit/{}.java", t.test_class), &t.file.contents);
        &t.file
    }));
    for f in files {
        let long: Vec<&str> = f.contents.lines().filter(|l| l.chars().count() > 150).collect();
        assert!(long.is_empty(), "{}: lines over 150 characters:\n{}", f.path.display(), long.join("\n"));
        let path = dir.path().join(&f.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &f.contents).unwrap();
    }
    let o = run_junit(dir.path(), &jar_path(jar), "5");
    let out = text(&o);
    assert!(o.status.success(), "{out}");
}

/// The POSE paper's first example through the whole `gen` pipeline: two program paths
/// (`c == null` throws, otherwise the data fields are swapped), two uber traces, two tests.
#[test]
fn gen_of_container_swap_through_the_library() {
    let g = generate("samples", &["samples.Container#swap"], Strategy::Uber, Config::default());
    assert_eq!(g.runtime.path, std::path::Path::new("uberlazy/runtime/Heap.java"));
    let [(method, tests)] = g.methods.as_slice() else { panic!("one method expected") };
    assert_eq!(method, "samples.Container#swap(Lsamples/Container;)V");
    let t = tests.as_ref().unwrap();
    assert_eq!(t.file.path, std::path::Path::new("samples/Container_swapTest.java"));
    assert_eq!((t.summary.traces, t.summary.paths, t.tests), (2, 2, 2));
    check("samples", &g);
}

/// Lambdas and method references (issue #22): each call site is the `new` of a class of its
/// own whose method calls the target, so the paths through a lambda's body are explored, not
/// cut: a captured local (boxed through `Function`), branches inside the body (`sign`: three
/// paths), a captured `this`, `Integer::compare` as a `Comparator` (unboxing, NPE for each
/// null), `Math::max` as a `BinaryOperator` (boxing the result), `Cell::new` as a `Supplier`,
/// a bound `c::isEmpty` (NPE when `c` is null) and a lambda returned to the test, which
/// asserts only that it is not null. The tests compile and pass on the JVM.
#[test]
fn gen_of_lambdas_explores_their_bodies() {
    let names = ["capturing", "sign", "above", "less", "larger", "fresh", "empty", "adder"];
    let specs: Vec<String> = names.iter().map(|n| format!("samples.Lambdas#{n}")).collect();
    let specs: Vec<&str> = specs.iter().map(String::as_str).collect();
    let g = generate("samples", &specs, Strategy::Uber, Config::default());
    let counts: Vec<(usize, usize, usize)> =
        g.methods.iter().map(|(_, t)| t.as_ref().map(|t| (t.summary.paths, t.summary.cut, t.tests)).unwrap()).collect();
    assert_eq!(counts, [(3, 0, 3), (3, 0, 3), (2, 0, 2), (4, 0, 4), (3, 0, 3), (1, 0, 1), (3, 0, 3), (1, 0, 1)]);
    let adder = &g.methods[7].1.as_ref().unwrap().file.contents;
    assert!(adder.contains("assertNotNull(result);") && !adder.contains("$$Lambda"), "{adder}");
    check("samples", &g);
}

/// Symbolic strings: `capitalized` reads `isEmpty` and `charAt(0)` (five paths: null, empty,
/// below 'A', above 'Z', a capital), `bucket` the JDK's `hashCode`; each test writes its
/// input string as a literal whose characters drive that path on the JVM.
#[test]
fn gen_of_string_methods_writes_string_literals() {
    let specs = ["subjects.Words#capitalized", "subjects.Words#bucket"];
    let g = generate("subjects", &specs, Strategy::Uber, Config::default());
    let [(_, capitalized), (_, bucket)] = g.methods.as_slice() else { panic!("two methods expected") };
    let (c, b) = (capitalized.as_ref().unwrap(), bucket.as_ref().unwrap());
    assert_eq!((c.summary.paths, c.tests, b.summary.paths, b.tests), (5, 5, 2, 2));
    for t in [c, b] {
        assert_eq!(t.file.contents.matches("String o0 = \"").count() + 1, t.tests, "{}", t.file.contents);
    }
    check("subjects", &g);
}

/// `DoublyLinkedList#addFirst` under `repOK`: the node the method allocates is asserted as a
/// new object, with its key (the argument, non-zero so that a lost `n.key = key` shows)
/// and both links, and the input nodes' links to it by identity.
#[test]
fn gen_of_doubly_linked_list_add_first_checks_the_new_node() {
    let mut config = Config { precondition: Some("repOK".into()), ..Config::default() };
    config.bounds.max_objects = 4;
    config.bounds.precondition_fuse = uberlazy::config::precondition_fuse_for(4);
    let g = generate("sir", &["sir.DoublyLinkedList#addFirst"], Strategy::Uber, config);
    let [(_, tests)] = g.methods.as_slice() else { panic!("one method expected") };
    let t = tests.as_ref().unwrap();
    assert_eq!(t.tests, 1, "addFirst has one path: its input is any valid list");
    let src = &t.file.contents;
    for body in src.split("@Test").skip(1) {
        let call = body.lines().find(|l| l.contains("o0.addFirst(")).expect("the call");
        let key: i32 = call.trim().trim_start_matches("o0.addFirst(").trim_end_matches(");").parse().unwrap();
        assert_ne!(key, 0, "a key that tells a set key from the default: {call}");
        assert!(body.contains("assertTrue(Heap.isNew(n1, \"sir.DllNode\""), "{body}");
        assert!(body.contains(&format!("assertEquals({key}, Heap.get(n1, \"sir.DllNode.key\"));")), "{body}");
        for link in ["next", "prev"] {
            assert!(body.contains(&format!("Heap.get(n1, \"sir.DllNode.{link}\")")), "{body}");
        }
        assert!(
            body.contains("assertSame(n1, Heap.get(o1, \"sir.DllNode.next\"))")
                || body.contains("Object n1 = Heap.get(o1, \"sir.DllNode.next\");")
        );
    }
    // The sidecar keeps every trace's path condition; the comments do not.
    let side: serde_json::Value = serde_json::from_str(&t.sidecar.contents).unwrap();
    assert_eq!(side["traces"].as_array().unwrap().len(), t.summary.traces);
    assert!(!src.contains("Path condition") && !src.contains("->"), "{src}");
    check("sir", &g);
}

/// Test comments speak source: `Node#length` is `if (next == null) return 1; return 1 +
/// next.length();` at line 10, so a list of n nodes takes that condition false n - 1 times,
/// then true, and returns n (javac's `ifnonnull` is taken when the condition is false; the
/// comment undoes that).
#[test]
fn comments_give_source_lines_and_conditions() {
    let config =
        Config { bounds: uberlazy::config::Bounds { max_depth: 6, ..Default::default() }, ..Config::default() };
    let g = generate("subjects", &["subjects.Node#length"], Strategy::Uber, config);
    let [(_, tests)] = g.methods.as_slice() else { panic!("one method expected") };
    let src = &tests.as_ref().unwrap().file.contents;
    let mut seen = 0;
    for body in src.split("/**").skip(2) {
        let line =
            |key: &str| body.lines().find_map(|l| l.trim().strip_prefix(key)).unwrap_or_else(|| panic!("{body}"));
        let Some(n) = line("* Outcome: returns ").trim_end_matches('.').parse::<usize>().ok() else { continue };
        let path = match n {
            1 => "line 10 true.".to_string(),
            2 => "line 10 false, then true.".to_string(),
            3 => "line 10 false twice, then true.".to_string(),
            n => format!("line 10 false {} times, then true.", n - 1),
        };
        assert_eq!(line("* Path: "), path, "{body}");
        let reach = if n == 1 { "(Node)".to_string() } else { format!("(Node, reaches {} Node)", n - 1) };
        assert_eq!(line("* Input: "), format!("this = o0 {reach}."), "{body}");
        seen += 1;
    }
    assert!(seen >= 4, "{src}");
}

/// The default suite keeps a test only where it covers a branch outcome or an outcome of the
/// method the tests before it do not: every list length of `Node#length` takes line 10 both
/// ways and returns a positive count, so of its paths one test stays, and it passes.
#[test]
fn the_default_suite_keeps_the_tests_that_cover_something_new() {
    let config =
        Config { bounds: uberlazy::config::Bounds { max_depth: 6, ..Default::default() }, ..Config::default() };
    let per_path = generate("subjects", &["subjects.Node#length"], Strategy::Uber, config.clone());
    let g = generate_with("subjects", &["subjects.Node#length"], Strategy::Uber, config, TestsPer::default());
    let count = |g: &Generated| g.methods[0].1.as_ref().unwrap().tests;
    assert!(count(&per_path) >= 4);
    let t = g.methods[0].1.as_ref().unwrap();
    assert_eq!((t.tests, t.redundant), (1, count(&per_path) - 1));
    assert!(t.file.contents.contains("public void length_returnsPositive()"), "{}", t.file.contents);
    check("subjects", &g);
}

/// `--inputs api`: each test builds its list by calls (`new SinglyLinkedList()`, then
/// `addFirst`), never by reflection. A list's state after a prefix depends only on its
/// length (the keys are unconstrained symbols), so subsumption keeps four prefixes of at
/// most three calls (lists of 0 to 3 nodes) and prunes every other. `indexOf` has seven
/// paths within them: the empty list, and a key found at, or missing after, each of 1..3
/// nodes; each test's input takes two calls where its path allows.
#[test]
fn gen_of_a_call_sequence_builds_the_list_through_its_api() {
    let config =
        Config { inputs: uberlazy::config::Inputs::Api { max_calls: 3, methods: Vec::new() }, ..Config::default() };
    let g = generate("sir", &["sir.SinglyLinkedList#indexOf"], Strategy::Uber, config);
    let [(_, tests)] = g.methods.as_slice() else { panic!("one method expected") };
    let t = tests.as_ref().unwrap();
    let seq = t.summary.sequences.as_ref().unwrap();
    assert_eq!((seq.prefixes, seq.threw), (4, 0), "{seq:?}");
    assert!(seq.pruned > 0);
    assert_eq!((t.summary.paths, t.tests), (7, 7));
    let src = &t.file.contents;
    assert!(!src.contains("Heap.alloc") && !src.contains("Heap.set("), "{src}");
    assert_eq!(src.matches("SinglyLinkedList r = new SinglyLinkedList();").count(), 7);
    // Calls per test: the empty list (0); a key missing after one node (1); found at the first
    // node (2, the calls the test prefers), found at or missing after two nodes (2, 2), and
    // found at or missing after three (3, 3).
    let mut calls: Vec<usize> = src
        .split("@Test")
        .skip(1)
        .map(|body| body.lines().filter(|l| l.trim_start().starts_with("r.addFirst(")).count())
        .collect();
    calls.sort();
    assert_eq!(calls, [0, 1, 2, 2, 2, 3, 3], "{src}");
    check("sir", &g);
}

/// Inputs of library-style classes built as a caller would: a class with only a static
/// factory (`Money.of`) gets its receiver and its own-type argument from it; a decorator made
/// by a factory over a `List` (`Roster.over`) gets a real `ArrayList` with up to two
/// elements, and its `Collection` argument one too (or null); `add`, named as a change, is a
/// mutator though it only calls the list's; a for-each over the JDK's `ArrayList` runs its
/// iterator. No input is built field by field, and the default suite keeps three tests.
#[test]
fn gen_builds_factories_collections_and_own_type_arguments_by_calls() {
    let inputs = uberlazy::config::Inputs::Api { max_calls: 1, methods: Vec::new() };
    let config = Config { inputs, jdk: uberlazy::config::installed_jdk(), ..Config::default() };
    let g = generate_with("subjects", &["subjects.Money#exceeds"], Strategy::Uber, config.clone(), TestsPer::Covering);
    let r = generate_with("library", &["library.Roster#countIn"], Strategy::Uber, config, TestsPer::Covering);
    let src =
        |g: &Generated| g.methods.iter().map(|(_, t)| t.as_ref().unwrap().file.contents.clone()).collect::<String>();
    let (money, roster) = (src(&g), src(&r));
    for src in [&money, &roster] {
        assert!(!src.contains("Heap.alloc") && !src.contains("Heap.set("), "{src}");
    }
    // Null, below and above: each amount made by `Money.of`.
    assert_eq!(money.matches("@Test").count(), 3, "{money}");
    assert!(money.contains("Money money1 = Money.of("), "{money}");
    // Null, none found, one found (a name added by a call, then two names to look up).
    assert!(roster.contains("r.countIn((Collection) null)"), "{roster}");
    assert!(roster.contains("r.add(Integer.valueOf("), "{roster}");
    assert!(roster.contains("arrayList2.add(Integer.valueOf("), "{roster}");
    assert!(roster.contains("assertEquals(1, result);"), "{roster}");
    check("subjects", &g);
    check("library", &r);
}

/// An interface-typed argument made by a generic static factory declared to return the
/// interface (`Same.same()` returns `Echo<T>`) is declared as the interface: declared as the
/// class that implements it, the test does not compile.
#[test]
fn gen_declares_a_factory_made_argument_as_the_factory_result() {
    let inputs = uberlazy::config::Inputs::Api { max_calls: 1, methods: Vec::new() };
    let config = Config { inputs, jdk: uberlazy::config::installed_jdk(), ..Config::default() };
    let g = generate_with("library", &["library.Echoes#echoes"], Strategy::Uber, config, TestsPer::Covering);
    let src = g.methods[0].1.as_ref().unwrap().file.contents.clone();
    assert!(src.contains("Echo echo1 = Same.same();"), "{src}");
    check("library", &g);
}

/// `equals(Object)` gets an object of its own class built by calls too (equal, and not), and
/// `getClass()` gives one `Class` object per class; `Objects.requireNonNull(x, supplier)` and a
/// message made by `String.format` do not cut the paths that throw.
#[test]
fn gen_asks_equals_about_its_own_class_and_throws_through_jdk_helpers() {
    let inputs = uberlazy::config::Inputs::Api { max_calls: 1, methods: Vec::new() };
    let config = Config { inputs, jdk: uberlazy::config::installed_jdk(), ..Config::default() };
    let specs = ["subjects.Money#equals", "subjects.Money#minus"];
    let g = generate_with("subjects", &specs, Strategy::Uber, config, TestsPer::Covering);
    let src = |i: usize| g.methods[i].1.as_ref().unwrap().file.contents.clone();
    let (equals, minus) = (src(0), src(1));
    for src in [&equals, &minus] {
        assert!(!src.contains("Heap.alloc") && !src.contains("Heap.set("), "{src}");
    }
    // Itself is not reachable by calls; null, an equal amount, another amount.
    assert!(equals.contains("r.equals((Object) null)"), "{equals}");
    assert!(equals.contains("Money money1 = Money.of("), "{equals}");
    assert!(
        equals.contains("assertEquals(true, result);") && equals.contains("assertEquals(false, result);"),
        "{equals}"
    );
    assert!(minus.contains("assertEquals(NullPointerException.class"), "{minus}");
    assert!(minus.contains("assertEquals(IllegalArgumentException.class"), "{minus}");
    check("subjects", &g);
}

/// Floats and doubles through the pipeline: `sign` has four paths (positive, negative, zero
/// and NaN, which fails every comparison), `round` three (`(int) f` saturates at
/// Integer.MAX_VALUE; a fraction of at least a half), `add` two (a field that stops at 100).
/// `bits` five (the models of `Float.floatToIntBits`, `Math.min`/`max`/`abs` and
/// `Double.hashCode`: a NaN, `-0.0` below `0.0`). Inputs and assertions are float and double
/// literals of their own types. The models are those the solver gives when no query runs out
/// of time: a query that times out on a loaded machine would pick other literals.
#[test]
fn gen_of_float_methods_writes_float_literals() {
    let specs = ["ops.Floats#sign", "ops.Floats#round", "ops.Floats#add", "ops.Floats#bits"];
    let config = Config { solver_timeout_ms: 600_000, ..Config::default() };
    let g = generate("ops", &specs, Strategy::Uber, config);
    let counts: Vec<(usize, usize)> =
        g.methods.iter().map(|(_, t)| t.as_ref().map(|t| (t.summary.paths, t.tests)).unwrap()).collect();
    assert_eq!(counts, [(4, 4), (3, 3), (2, 2), (5, 5)]);
    let sign = &g.methods[0].1.as_ref().unwrap().file.contents;
    assert!(sign.contains("Floats.sign(Double.NaN)"), "{sign}");
    check("ops", &g);
}

/// A run lowers the code its paths reach, not everything its method might call: the helpers
/// `Limits#guarded` calls on a branch no input takes are never lowered.
#[test]
fn a_run_lowers_only_what_its_paths_reach() {
    let mut s = Session::open("testdata/ops.jar", Config::default()).unwrap();
    let ms = s.methods(&["ops.Limits#guarded".to_string()]).unwrap();
    let e = s.explore(&ms, &[Strategy::Uber], &Default::default()).unwrap();
    assert_eq!(e[0].summary.traces, 1);
    assert_eq!(s.lowered_methods(), 1, "only the method itself is lowered");
}
