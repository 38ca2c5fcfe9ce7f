//! Imports instead of qualified names: in an emitted source's code (not its comments or string
//! literals), `pkg.sub.Class` becomes `Class` with an `import pkg.sub.Class;` (none for the
//! test's own package or `java.lang`), unless that simple name already means something else
//! there (an unqualified name the source uses, another class, the test class itself).

use std::collections::{BTreeMap, BTreeSet};

/// `src` (a whole test class) with its qualified class names imported.
pub fn import_qualified_names(src: &str, package: &str, class_name: &str) -> String {
    let code = code_spans(src);
    // Simple names the code uses unqualified: java.lang's (the imported ones follow).
    let mut taken: BTreeMap<String, String> = BTreeMap::new();
    for (start, end) in &code {
        for (k, tok) in tokens(&src[*start..*end]) {
            let first = tok.split('.').next().unwrap_or(tok);
            let qualified_here = src[..start + k].ends_with('.');
            if !qualified_here && first.starts_with(|c: char| c.is_ascii_uppercase()) {
                taken.entry(first.to_string()).or_insert_with(|| format!("java.lang.{first}"));
            }
        }
    }
    for imported in src.lines().filter_map(|l| l.strip_prefix("import ")).filter(|l| !l.starts_with("static ")) {
        let q = imported.trim_end_matches(';').trim();
        if let Some((_, simple)) = q.rsplit_once('.') {
            taken.insert(simple.to_string(), q.to_string());
        }
    }
    taken.insert(class_name.to_string(), format!("{package}.{class_name}"));
    // Each qualified name of a class: its package and its top-level class.
    let mut claims: BTreeMap<String, String> = BTreeMap::new();
    let mut out = String::with_capacity(src.len());
    let mut last = 0;
    for (start, end) in &code {
        out.push_str(&src[last..*start]);
        let text = &src[*start..*end];
        let mut at = 0;
        for (k, tok) in tokens(text) {
            out.push_str(&text[at..k]);
            at = k + tok.len();
            let preceded = k > 0 && text[..k].ends_with('.');
            match split_qualified(tok).filter(|_| !preceded) {
                Some((pkg, top, rest)) => {
                    let q = format!("{pkg}.{top}");
                    let mine = match taken.get(top) {
                        Some(owner) => *owner == q,
                        None => {
                            taken.insert(top.to_string(), q.clone());
                            true
                        }
                    };
                    if mine {
                        if pkg != package && pkg != "java.lang" {
                            claims.insert(q, top.to_string());
                        }
                        out.push_str(top);
                        out.push_str(rest);
                    } else {
                        out.push_str(tok);
                    }
                }
                None => out.push_str(tok),
            }
        }
        out.push_str(&text[at..]);
        last = *end;
    }
    out.push_str(&src[last..]);
    add_imports(&out, &claims.into_keys().collect())
}

/// `src` with `import q;` for each of `names`, after the last import of the source.
fn add_imports(src: &str, names: &BTreeSet<String>) -> String {
    if names.is_empty() {
        return src.to_string();
    }
    let lines: Vec<&str> = src.lines().collect();
    let Some(at) = lines.iter().rposition(|l| l.starts_with("import ")) else { return src.to_string() };
    let mut out = String::with_capacity(src.len() + names.len() * 40);
    for (i, l) in lines.iter().enumerate() {
        out.push_str(l);
        out.push('\n');
        if i == at {
            for n in names {
                out.push_str(&format!("import {n};\n"));
            }
        }
    }
    out
}

/// `pkg.sub.Class.Rest` as (`pkg.sub`, `Class`, `.Rest`): lower-case package segments, then a
/// class name that starts in upper case.
fn split_qualified(tok: &str) -> Option<(&str, &str, &str)> {
    let mut pos = 0;
    for seg in tok.split('.') {
        if seg.starts_with(|c: char| c.is_ascii_uppercase()) {
            if pos == 0 {
                return None;
            }
            let pkg = &tok[..pos - 1];
            let rest = &tok[pos + seg.len()..];
            return Some((pkg, &tok[pos..pos + seg.len()], rest));
        }
        if !seg.starts_with(|c: char| c.is_ascii_lowercase()) {
            return None;
        }
        pos += seg.len() + 1;
    }
    None
}

/// The dotted identifiers of `text` (`a.b.C`, `x`), with their offsets.
fn tokens(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'$' | b'.')) {
                i += 1;
            }
            let tok = text[start..i].trim_end_matches('.');
            out.push((start, tok));
            i = start + tok.len().max(1);
        } else if c.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The byte ranges of `src` that are code: not comments, string or char literals, nor the
/// package and import lines.
fn code_spans(src: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let b = src.as_bytes();
    let (mut i, mut start) = (0, 0);
    let mut line_start = true;
    while i < b.len() {
        if line_start {
            let rest = &src[i..];
            let t = rest.trim_start_matches([' ', '\t']);
            if t.starts_with("package ") || t.starts_with("import ") {
                let end = rest.find('\n').map_or(b.len(), |n| i + n);
                spans.push((start, i));
                i = end;
                start = i;
                line_start = false;
                continue;
            }
        }
        line_start = b[i] == b'\n';
        let skip_to = match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => src[i..].find('\n').map_or(b.len(), |n| i + n),
            b'/' if b.get(i + 1) == Some(&b'*') => src[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2),
            q @ (b'"' | b'\'') => {
                let mut j = i + 1;
                while j < b.len() && b[j] != q {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                (j + 1).min(b.len())
            }
            _ => {
                i += 1;
                continue;
            }
        };
        spans.push((start, i));
        i = skip_to;
        start = i;
    }
    spans.push((start, b.len()));
    spans.retain(|(a, e)| a < e);
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualified_names_in_code_are_imported_and_the_rest_kept() {
        let src = "package p;\n\nimport uberlazy.runtime.Heap;\n\n/** Tests of org.x.Node. */\npublic class NodeTest {\n    \
                   void t() {\n        org.x.Node o0 = Heap.alloc(org.x.Node.class);\n        \
                   Heap.set(o0, \"org.x.Node.next\", null);\n        p.Local a = new p.Local();\n        \
                   q.Object b = null;\n        Object c = java.lang.Integer.valueOf(1);\n        \
                   org.y.Node d = null; // org.x.Node\n        char e = '.';\n        double f = 1.5e3;\n    }\n}\n";
        let got = import_qualified_names(src, "p", "NodeTest");
        let want = "package p;\n\nimport uberlazy.runtime.Heap;\nimport org.x.Node;\n\n/** Tests of org.x.Node. */\npublic class NodeTest {\n    \
                    void t() {\n        Node o0 = Heap.alloc(Node.class);\n        \
                    Heap.set(o0, \"org.x.Node.next\", null);\n        Local a = new Local();\n        \
                    q.Object b = null;\n        Object c = Integer.valueOf(1);\n        \
                    org.y.Node d = null; // org.x.Node\n        char e = '.';\n        double f = 1.5e3;\n    }\n}\n";
        assert_eq!(got, want);
    }

    #[test]
    fn nested_classes_import_their_top_level_class() {
        let src = "package t;\n\nimport org.junit.Test;\n\nclass A {\n    samples.Lambdas.Cell c = null;\n}\n";
        let got = import_qualified_names(src, "t", "A");
        assert!(got.contains("import samples.Lambdas;\n") && got.contains("    Lambdas.Cell c = null;"), "{got}");
    }
}
