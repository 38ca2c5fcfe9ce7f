//! The class path: jars, directories of class files and single `.class` files, joined by `:`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::unzip::Unzip;
use crate::budget::{Budget, Pacer};
use crate::{Error, Result};

/// The largest class file read from a jar (the JVM's own limits keep real ones far smaller).
pub(super) const MAX_CLASS_BYTES: u64 = 64 << 20;

/// The bytes of one class file and where they came from.
#[derive(Debug, Clone)]
pub struct ClassSource {
    /// `path/to/x.jar!a/b/C.class`, `dir/a/b/C.class` or `C.class`: used in every message.
    pub origin: String,
    pub bytes: Rc<[u8]>,
}

/// Every class file found on a class path, in class-path order.
#[derive(Debug, Clone, Default)]
pub struct ClassPath {
    entries: Vec<PathBuf>,
    sources: Vec<ClassSource>,
    /// Checked while the files are read (a stop request, a deadline).
    budget: Option<Budget>,
}

impl ClassPath {
    /// Reads a `:`-separated class path. Every entry must exist; jars must be readable zips;
    /// a directory is searched recursively for `.class` files (in sorted order).
    pub fn open(spec: &str) -> Result<ClassPath> {
        ClassPath::open_within(spec, None)
    }

    /// [`ClassPath::open`], ending with [`Error::Halted`] as soon as `budget` is spent.
    pub fn open_within(spec: &str, budget: Option<&Budget>) -> Result<ClassPath> {
        let mut cp = ClassPath { budget: budget.cloned(), ..ClassPath::default() };
        for part in spec.split(':').filter(|p| !p.is_empty()) {
            cp.add(Path::new(part))?;
        }
        if cp.entries.is_empty() {
            return Err(Error::Usage("empty class path: pass --cp with a jar, a directory or a .class file".into()));
        }
        Ok(cp)
    }

    /// Adds one class path entry.
    pub fn add(&mut self, path: &Path) -> Result<()> {
        let meta =
            std::fs::metadata(path).map_err(|e| Error::ClassPath { path: path.to_path_buf(), msg: e.to_string() })?;
        if meta.is_dir() {
            let mut files = Vec::new();
            collect_class_files(path, &mut files)?;
            files.sort();
            let budget = self.budget.clone();
            let mut pacer = budget.as_ref().map(Pacer::new);
            for f in files {
                halt_check(&mut pacer)?;
                let bytes = std::fs::read(&f).map_err(|e| Error::io(&f, e))?;
                self.sources.push(ClassSource { origin: f.display().to_string(), bytes: bytes.into() });
            }
        } else if has_extension(path, "class") {
            let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
            self.sources.push(ClassSource { origin: path.display().to_string(), bytes: bytes.into() });
        } else if has_extension(path, "jar") || has_extension(path, "zip") {
            self.add_jar(path)?;
        } else {
            return Err(Error::ClassPath {
                path: path.to_path_buf(),
                msg: "not a directory, a .jar or a .class file".into(),
            });
        }
        self.entries.push(path.to_path_buf());
        Ok(())
    }

    fn add_jar(&mut self, path: &Path) -> Result<()> {
        let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        self.add_zip(path, file)
    }

    /// Adds the class files of a jar held in memory (`name` stands for its path in messages).
    pub fn add_jar_bytes(&mut self, name: &str, bytes: &[u8]) -> Result<()> {
        self.add_zip(Path::new(name), std::io::Cursor::new(bytes))
    }

    fn add_zip<R: Read + std::io::Seek>(&mut self, path: &Path, reader: R) -> Result<()> {
        let corrupt = |msg: String| Error::CorruptJar { path: path.to_path_buf(), msg };
        let mut zip = zip::ZipArchive::new(reader).map_err(|e| corrupt(e.to_string()))?;
        let mut names: Vec<(String, usize)> = Vec::new();
        for i in 0..zip.len() {
            let entry = zip.by_index_raw(i).map_err(|e| corrupt(format!("entry {i}: {e}")))?;
            let name = entry.name().map_err(|e| corrupt(format!("entry {i}: {e}")))?.to_string();
            if name.ends_with(".class") && !name.starts_with("META-INF/") && !name.ends_with("module-info.class") {
                names.push((name, i));
            }
        }
        names.sort();
        let budget = self.budget.clone();
        let mut pacer = budget.as_ref().map(Pacer::new);
        let mut unzip = Unzip::default();
        for (name, i) in names {
            halt_check(&mut pacer)?;
            let entry = zip.by_index_raw(i).map_err(|e| corrupt(format!("{name}: {e}")))?;
            // A class file is at most a few MiB; a larger entry is a zip bomb or corruption.
            let bytes = unzip.read(entry, MAX_CLASS_BYTES).map_err(|e| corrupt(format!("{name}: {e}")))?;
            self.sources.push(ClassSource { origin: format!("{}!{}", path.display(), name), bytes: bytes.into() });
        }
        Ok(())
    }

    /// The class files, in class-path order.
    pub fn sources(&self) -> &[ClassSource] {
        &self.sources
    }

    /// The entries as given.
    pub fn entries(&self) -> &[PathBuf] {
        &self.entries
    }
}

/// [`Error::Halted`] when the pacer's budget is spent.
pub(super) fn halt_check(pacer: &mut Option<Pacer<'_>>) -> Result<()> {
    match pacer.as_mut().and_then(Pacer::check) {
        Some(halt) => Err(Error::Halted { halt, phase: "loading the class path" }),
        None => Ok(()),
    }
}

fn has_extension(p: &Path, ext: &str) -> bool {
    p.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

fn collect_class_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in rd {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let p = entry.path();
        let ft = entry.file_type().map_err(|e| Error::io(&p, e))?;
        if ft.is_dir() {
            collect_class_files(&p, out)?;
        } else if has_extension(&p, "class") {
            out.push(p);
        }
    }
    Ok(())
}
