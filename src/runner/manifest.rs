//! `uberlazy-manifest.json`: per class of a whole-library run the CRC-32 of its class file,
//! of its worker's options and the files it wrote, so that a rerun skips unchanged classes.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::shard::Shard;
use crate::Result;
use crate::output::write_atomic;

/// The manifest's name in `--out`.
pub const MANIFEST: &str = "uberlazy-manifest.json";

/// The manifest's name for `shard`: one per shard, so that shards still write disjoint files.
pub fn manifest_name(shard: Option<Shard>) -> String {
    match shard {
        None => MANIFEST.to_string(),
        Some(s) => format!("uberlazy-manifest.shard-{}-of-{}.json", s.index, s.count),
    }
}

/// What a class's last run was made from and what it wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub class_crc: u32,
    pub options_crc: u32,
    /// The files written, relative to `--out`, sorted.
    pub files: Vec<String>,
}

/// Every class's entry, by binary name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub classes: BTreeMap<String, Entry>,
}

impl Manifest {
    /// The manifest in `out`; none (or one that does not parse) reads as empty, which only
    /// means every class runs.
    pub fn read(out: &Path, shard: Option<Shard>) -> Manifest {
        std::fs::read_to_string(out.join(manifest_name(shard)))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    /// Whether `class` ran last from the same class file and options and its files all exist.
    pub fn unchanged(&self, out: &Path, class: &str, class_crc: u32, options_crc: u32) -> bool {
        self.classes.get(class).is_some_and(|e| {
            e.class_crc == class_crc
                && e.options_crc == options_crc
                && !e.files.is_empty()
                && e.files.iter().all(|f| out.join(f).is_file())
        })
    }

    /// Writes the manifest of `shard` into `out`.
    pub fn write(&self, out: &Path, shard: Option<Shard>) -> Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(|e| crate::Error::Usage(e.to_string()))?;
        write_atomic(&out.join(manifest_name(shard)), &(text + "\n"), true).map(|_| ())
    }
}

/// The CRC-32 of a worker's arguments, which say everything that shapes its tests.
pub fn options_crc(args: &[OsString]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    for a in args {
        h.update(a.to_string_lossy().as_bytes());
        h.update(&[0]);
    }
    h.finalize()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_class_is_unchanged_only_with_the_same_hashes_and_its_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("A_fTest.java"), "").unwrap();
        let mut m = Manifest::default();
        m.classes.insert("A".into(), Entry { class_crc: 1, options_crc: 2, files: vec!["A_fTest.java".into()] });
        m.write(dir.path(), None).unwrap();
        let m = Manifest::read(dir.path(), None);
        assert!(Manifest::read(dir.path(), Shard::parse("1/2").ok()).classes.is_empty());
        assert!(m.unchanged(dir.path(), "A", 1, 2));
        assert!(!m.unchanged(dir.path(), "A", 1, 3) && !m.unchanged(dir.path(), "A", 0, 2));
        assert!(!m.unchanged(dir.path(), "B", 1, 2));
        std::fs::remove_file(dir.path().join("A_fTest.java")).unwrap();
        assert!(!m.unchanged(dir.path(), "A", 1, 2));
        assert_ne!(options_crc(&["a".into(), "b".into()]), options_crc(&["ab".into()]));
    }
}
