//! The installed JDK's own classes, read on demand from its `jmods/java.base.jmod`.
//!
//! A library's classes extend JDK classes (`TreeList extends AbstractList`): their inherited
//! fields and methods come from here when the JDK is not on the class path. Only the classes
//! asked for are read; the classes the models of [`crate::models`] describe stay phantoms.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::classpath::{ClassSource, MAX_CLASS_BYTES};
use super::unzip::Unzip;
use crate::{Error, Result};

/// A jmod file is a zip after a 4-byte header (`JM`, major 1, minor 0).
const JMOD_MAGIC: &[u8] = b"JM\x01\x00";

/// The `java.base` module of an installed JDK, read entry by entry from the file (the
/// whole module is tens of MiB; a run reads a few of its classes).
pub struct JdkImage {
    path: PathBuf,
    zip: zip::ZipArchive<Shifted>,
    unzip: Unzip,
}

/// A file seen from an offset on: the zip inside a jmod, after its header.
struct Shifted {
    file: std::fs::File,
    offset: u64,
}

impl Read for Shifted {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.file.read(buf)
    }
}

impl Seek for Shifted {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        let to = match pos {
            SeekFrom::Start(n) => self.file.seek(SeekFrom::Start(n.saturating_add(self.offset)))?,
            other => self.file.seek(other)?,
        };
        to.checked_sub(self.offset)
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "seek before the zip's start"))
    }
}

impl std::fmt::Debug for JdkImage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "JdkImage({})", self.path.display())
    }
}

impl JdkImage {
    /// Opens `<home>/jmods/java.base.jmod`; an error names the file when it is missing or
    /// not a jmod.
    pub fn open(home: &Path) -> Result<JdkImage> {
        let path = crate::config::jdk_jmod(home);
        let corrupt = |msg: String| Error::CorruptJar { path: path.clone(), msg };
        let mut file = std::fs::File::open(&path).map_err(|e| Error::io(&path, e))?;
        let mut magic = [0u8; 4];
        if file.read_exact(&mut magic).is_err() || magic != JMOD_MAGIC {
            return Err(corrupt("not a jmod file (no JM header)".into()));
        }
        let shifted = Shifted { file, offset: JMOD_MAGIC.len() as u64 };
        let zip = zip::ZipArchive::new(shifted).map_err(|e| corrupt(e.to_string()))?;
        Ok(JdkImage { path, zip, unzip: Unzip::default() })
    }

    /// The class file of internal name `name` (`java/util/AbstractList`), if the JDK has it.
    pub fn class(&mut self, name: &str) -> Result<Option<ClassSource>> {
        let entry_name = format!("classes/{name}.class");
        let path = self.path.clone();
        let entry = match self.zip.by_name_raw(entry_name.as_bytes()) {
            Ok(e) => e,
            Err(zip::result::ZipError::FileNotFound) => return Ok(None),
            Err(e) => return Err(Error::CorruptJar { path, msg: format!("{entry_name}: {e}") }),
        };
        let bytes = self
            .unzip
            .read(entry, MAX_CLASS_BYTES)
            .map_err(|e| Error::CorruptJar { path: path.clone(), msg: format!("{entry_name}: {e}") })?;
        Ok(Some(ClassSource { origin: format!("{}!{entry_name}", path.display()), bytes: bytes.into() }))
    }
}
