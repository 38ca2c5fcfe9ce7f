//! Safe output: atomic writes (temporary file in the same directory, then rename), and no
//! overwriting of an existing file without `force`.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// What happened to one output file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    Created,
    /// Existed with other contents and `force` was given.
    Replaced,
    /// Existed with exactly these contents: left alone.
    Unchanged,
    /// Existed with other contents and `force` was not given: left alone.
    Kept,
}

fn out_err(path: &Path, msg: impl std::fmt::Display) -> Error {
    Error::Output { path: path.to_path_buf(), msg: msg.to_string() }
}

/// Creates `dir` if needed and proves it writable by creating and removing a temporary file,
/// so that an unwritable output is reported before any work starts.
pub fn ensure_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| out_err(dir, e))?;
    let probe = tempfile::Builder::new().prefix(".uberlazy-probe").tempfile_in(dir).map_err(|e| out_err(dir, e))?;
    probe.close().map_err(|e| out_err(dir, e))
}

/// Writes `contents` to `path` atomically. An existing file is replaced only with `force`.
pub fn write_atomic(path: &Path, contents: &str, force: bool) -> Result<Written> {
    let existed = match std::fs::read(path) {
        Ok(old) if old == contents.as_bytes() => return Ok(Written::Unchanged),
        Ok(_) if !force => return Ok(Written::Kept),
        Ok(_) => true,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(e) => return Err(out_err(path, e)),
    };
    let dir: PathBuf = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    std::fs::create_dir_all(&dir).map_err(|e| out_err(&dir, e))?;
    let mut tmp =
        tempfile::Builder::new().prefix(".uberlazy-").suffix(".tmp").tempfile_in(&dir).map_err(|e| out_err(&dir, e))?;
    tmp.write_all(contents.as_bytes()).map_err(|e| out_err(path, e))?;
    tmp.as_file().sync_all().map_err(|e| out_err(path, e))?;
    tmp.persist(path).map_err(|e| out_err(path, e.error))?;
    Ok(if existed { Written::Replaced } else { Written::Created })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn never_overwrites_without_force() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a/b.txt");
        assert_eq!(write_atomic(&p, "one", false).unwrap(), Written::Created);
        assert_eq!(write_atomic(&p, "one", false).unwrap(), Written::Unchanged);
        assert_eq!(write_atomic(&p, "two", false).unwrap(), Written::Kept);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "one");
        assert_eq!(write_atomic(&p, "two", true).unwrap(), Written::Replaced);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        let leftovers = std::fs::read_dir(p.parent().unwrap()).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary files are left behind");
    }
}
