//! The loader never panics or aborts on bad class files: every prefix truncation and
//! thousands of seeded random byte mutations of each sample class file go through parsing,
//! the class table and the lowering of every method, and each case ends in an error or a
//! valid class table (issue 2, acceptance). On the subject jars the table's quick answer to
//! "does this class have this instance field" agrees with the fields it lists.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::rc::Rc;

use cafebabe::attributes::AttributeData;
use common::{jar as jar_path, tempdir};
use uberlazy::classfile::parse::{add_class, check_code, parse_structure, parse_with_code};
use uberlazy::classfile::{ClassPath, ClassSource, ClassTable};
use uberlazy::ir::print::print_body;
use uberlazy::lower::lower_method;

/// Mutations per class file (the acceptance asks for at least 1,000 in all).
const FLIPS_PER_CLASS: usize = 1500;

/// SplitMix64: a tiny deterministic PRNG, so every run tests the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The class files of the sample jars.
fn samples() -> Vec<ClassSource> {
    let mut out = Vec::new();
    for jar in ["testdata/samples.jar", "testdata/frontend.jar"] {
        let cp = ClassPath::open(jar).unwrap_or_else(|e| panic!("{e}"));
        out.extend(cp.sources().iter().cloned());
    }
    assert!(out.len() >= 5, "expected the sample class files, found {}", out.len());
    out
}

/// Byte ranges of the methods' code inside a class file (where mutations matter most).
fn code_ranges(bytes: &[u8]) -> Vec<(usize, usize)> {
    let cf = cafebabe::parse_class(bytes).unwrap();
    let base = bytes.as_ptr() as usize;
    let mut out = Vec::new();
    for m in &cf.methods {
        for a in &m.attributes {
            if let AttributeData::Code(c) = &a.data {
                let start = c.code.as_ptr() as usize - base;
                out.push((start, start + c.code.len()));
            }
        }
    }
    out
}

/// Loads one (possibly corrupt) class file the way `uberlazy classes` does. Returns whether
/// it loaded; panics (failing the test) only if something panicked or the table is invalid.
fn load_case(origin: &str, bytes: &[u8]) -> bool {
    let src = ClassSource { origin: origin.to_string(), bytes: Rc::from(bytes) };
    if let Err(e) = parse_with_code(origin, bytes)
        && e.to_string().contains("parser failed")
    {
        eprintln!("caught a parser panic: {e}");
    }
    let mut t = ClassTable::new();
    if let Err(e) = add_class(&mut t, &src) {
        assert!(e.to_string().contains(origin), "error does not name the file: {e}");
        return false;
    }
    let loaded = t.loaded_classes();
    assert_eq!(loaded.len(), 1, "{origin}: one class loaded");
    let class = loaded[0].id;
    let methods = t.class(class).methods.clone();
    for m in &methods {
        assert_eq!(t.method(*m).owner, class);
    }
    let _ = t.superclasses(class);
    let _ = t.all_interfaces(class);
    let _ = t.instance_fields(class);
    for m in methods {
        if !t.method(m).has_code {
            continue;
        }
        match lower_method(&t, m) {
            Ok(body) => {
                assert_eq!(body.method, m);
                let _ = print_body(&t, &body);
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
    true
}

#[test]
fn every_prefix_truncation() {
    for src in samples() {
        let bytes: &[u8] = &src.bytes;
        for len in 0..bytes.len() {
            let origin = format!("{}[..{len}]", src.origin);
            assert!(!load_case(&origin, &bytes[..len]), "{origin}: a truncated class file must not load");
        }
        assert!(load_case(&src.origin, bytes), "{} itself must load", src.origin);
    }
}

#[test]
fn seeded_random_mutations() {
    let mut rng = Rng(0x5EED_0001);
    let mut cases = 0;
    let mut loaded = 0;
    for src in samples() {
        let code = code_ranges(&src.bytes);
        for i in 0..FLIPS_PER_CLASS {
            let mut bytes = src.bytes.to_vec();
            let n = 1 + rng.below(4);
            for _ in 0..n {
                // Half of the mutations hit method code, the rest anywhere in the file.
                let at = if i % 2 == 0 && !code.is_empty() {
                    let (s, e) = code[rng.below(code.len())];
                    s + rng.below(e - s)
                } else {
                    rng.below(bytes.len())
                };
                bytes[at] = match rng.below(4) {
                    0 => bytes[at] ^ (1 << rng.below(8)),
                    1 => [0x00, 0xff, 0x7f, 0x80][rng.below(4)],
                    _ => rng.next() as u8,
                };
            }
            cases += 1;
            if load_case(&format!("{}#flip{i}", src.origin), &bytes) {
                loaded += 1;
            }
        }
    }
    assert!(cases >= 1000);
    // Sanity: the mutations are not all rejected by the first check.
    assert!(loaded > cases / 10, "only {loaded} of {cases} mutated files loaded");
}

/// Where the code of `method` starts in the class file, and the pc of its first switch.
fn switch_in(bytes: &[u8], method: &str) -> (usize, usize) {
    use cafebabe::bytecode::Opcode;
    let cf = cafebabe::parse_class(bytes).unwrap();
    let m = cf.methods.iter().find(|m| m.name == method).unwrap();
    let c = m
        .attributes
        .iter()
        .find_map(|a| match &a.data {
            AttributeData::Code(c) => Some(c),
            _ => None,
        })
        .unwrap();
    let (pc, _) = c
        .bytecode
        .as_ref()
        .unwrap()
        .opcodes
        .iter()
        .find(|(_, op)| matches!(op, Opcode::Tableswitch(_) | Opcode::Lookupswitch(_)))
        .unwrap();
    (c.code.as_ptr() as usize - bytes.as_ptr() as usize, *pc)
}

/// A switch whose table claims far more entries than the code holds is an error, not a
/// multi-gigabyte allocation.
#[test]
fn huge_switch_tables_are_rejected() {
    let src = samples().into_iter().find(|s| s.origin.ends_with("frontend/Overloads.class")).unwrap();
    // (method, index of the 4-byte word after the padding, value): word 0 is the default.
    for (method, word, value) in [
        ("dense", 2, i32::MAX),  // tableswitch high
        ("dense", 1, i32::MIN),  // tableswitch low: a range of 2^31 + 4
        ("dense", 1, 100),       // low > high
        ("unique", 1, i32::MAX), // lookupswitch npairs
        ("unique", 1, -1),       // negative npairs
    ] {
        let mut bytes = src.bytes.to_vec();
        let (code_start, pc) = switch_in(&bytes, method);
        let table = code_start + ((pc + 4) & !3) + 4 * word;
        bytes[table..table + 4].copy_from_slice(&value.to_be_bytes());
        let e = parse_with_code("Overloads.class", &bytes).err().unwrap_or_else(|| panic!("{method} {value}"));
        let msg = e.to_string();
        assert!(msg.contains("Overloads.class") && msg.contains(method) && msg.contains("switch"), "{msg}");
        // The structure still loads, and lowering fails cleanly.
        assert!(load_case("Overloads.class", &bytes));
    }
}

#[test]
fn check_code_basics() {
    assert!(check_code(&[]).is_ok());
    assert!(check_code(&[0xb1]).is_ok()); // return
    assert!(check_code(&[0x10]).is_err()); // bipush without operand
    assert!(check_code(&[0xfe]).is_err()); // impdep1
    assert!(check_code(&[0xc4, 0x84, 0, 1, 0, 1]).is_ok()); // wide iinc
    assert!(check_code(&[0xc4, 0x84, 0, 1, 0]).is_err());
    // tableswitch at pc 0: 3 bytes of padding, default, low 0, high 0, one offset.
    let mut ts = vec![0xaa, 0, 0, 0];
    for w in [0i32, 0, 0, 0] {
        ts.extend_from_slice(&w.to_be_bytes());
    }
    assert!(check_code(&ts).is_ok());
    ts.truncate(ts.len() - 1);
    assert!(check_code(&ts).is_err());
}

/// `check_code` accepts every method of real-world jars (no false alarms).
#[test]
fn check_code_accepts_real_jars() {
    for jar in ["/usr/share/java/commons-lang3.jar", "/usr/share/java/guava.jar"] {
        if !Path::new(jar).exists() {
            eprintln!("skipping {jar}: not installed");
            continue;
        }
        let cp = ClassPath::open(jar).unwrap();
        let mut methods = 0;
        for src in cp.sources() {
            let cf = parse_structure(src).unwrap();
            for m in &cf.methods {
                for a in &m.attributes {
                    if let AttributeData::Code(c) = &a.data {
                        check_code(c.code).unwrap_or_else(|e| panic!("{}#{}: {e}", src.origin, m.name));
                        methods += 1;
                    }
                }
            }
            parse_with_code(&src.origin, &src.bytes).unwrap_or_else(|e| panic!("{e}"));
        }
        assert!(methods > 1000, "{jar}: {methods}");
    }
}

/// Truncated and mutated jars: an error naming the jar, or a table; never a panic.
#[test]
fn corrupt_jars() {
    let original = std::fs::read("testdata/samples.jar").unwrap();
    let dir = tempdir();
    let path = dir.path().join("case.jar");
    let spec = path.to_str().unwrap().to_string();
    let try_load = |bytes: &[u8]| -> bool {
        std::fs::write(&path, bytes).unwrap();
        match ClassPath::open(&spec).and_then(|cp| ClassTable::load(&cp)) {
            Ok(_) => true,
            Err(e) => {
                assert!(e.to_string().contains("case.jar"), "error does not name the jar: {e}");
                false
            }
        }
    };
    for len in 0..original.len() {
        try_load(&original[..len]);
    }
    let mut rng = Rng(0x5EED_0002);
    let mut loaded = 0;
    for _ in 0..1000 {
        let mut bytes = original.clone();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(bytes.len());
            bytes[at] = rng.next() as u8;
        }
        if try_load(&bytes) {
            loaded += 1;
        }
    }
    assert!(try_load(&original));
    eprintln!("{loaded} of 1000 mutated jars loaded");
}

/// An entry whose bytes do not match the checksum the jar records is named in the error.
#[test]
fn a_jar_entry_with_a_wrong_checksum_is_named() {
    use std::io::Write;
    let class = std::fs::read("testdata/samples.jar").unwrap();
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("a/B.class", stored).unwrap();
    zip.write_all(&class[..64]).unwrap();
    let mut bytes = zip.finish().unwrap().into_inner();
    let at = bytes.windows(class[..64].len()).position(|w| w == &class[..64]).unwrap();
    bytes[at + 10] ^= 0xff;
    let dir = tempdir();
    let path = dir.path().join("case.jar");
    std::fs::write(&path, &bytes).unwrap();
    let e = ClassPath::open(path.to_str().unwrap()).unwrap_err().to_string();
    assert!(e.contains("case.jar") && e.contains("a/B.class") && e.contains("checksum"), "{e}");
}

/// `has_instance_field` (the uber heap asks it at every read) agrees with `instance_fields`
/// for every class and every field of every subject jar, inherited and static ones included.
#[test]
fn a_class_has_exactly_the_instance_fields_it_lists() {
    for jar in ["samples", "subjects", "ops", "frontend", "sir", "modern"] {
        let cp = ClassPath::open(&jar_path(jar)).unwrap();
        let t = ClassTable::load(&cp).unwrap();
        let classes: Vec<_> = t.classes().map(|c| c.id).collect();
        let fields: Vec<_> = t.classes().flat_map(|c| c.fields.iter().copied()).collect();
        assert!(!fields.is_empty(), "{jar}.jar declares no fields");
        for &c in &classes {
            let listed = t.instance_fields(c);
            for &f in &fields {
                assert_eq!(t.has_instance_field(c, f), listed.contains(&f), "{jar}: {:?} {:?}", t.class(c).name, f);
            }
        }
    }
}
