//! Safe output: atomic writes (temporary file in the same directory, then rename), no
//! overwriting of an existing file without `force`, the usual file mode (0666 less the
//! umask), and output directories that are checked before any work but created only when
//! the first file is written (so a run that fails early leaves nothing behind).

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

/// Proves that files can be written below `dir` without creating anything that is not
/// there yet: the nearest existing ancestor must be a writable directory (a temporary file
/// is created and removed in it). So an unwritable output is reported before any work
/// starts, and a run that fails before writing leaves no new directory behind.
pub fn check_writable(dir: &Path) -> Result<()> {
    let mut probe_dir = dir;
    loop {
        match std::fs::metadata(probe_dir) {
            Ok(m) if m.is_dir() => break,
            Ok(_) => return Err(out_err(dir, format!("{} is not a directory", probe_dir.display()))),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) => {
                match probe_dir.parent() {
                    Some(p) if !p.as_os_str().is_empty() => probe_dir = p,
                    _ => {
                        probe_dir = Path::new(".");
                        break;
                    }
                }
            }
            Err(e) => return Err(out_err(dir, e)),
        }
    }
    let probe =
        tempfile::Builder::new().prefix(".uberlazy-probe").tempfile_in(probe_dir).map_err(|e| out_err(dir, e))?;
    probe.close().map_err(|e| out_err(dir, e))
}

/// [`check_writable`] for the directory flag `flag` names: the error names the flag.
pub fn check_dir_flag(flag: &'static str, dir: &Path) -> Result<()> {
    check_writable(dir).map_err(|e| flag_err(flag, dir, e))
}

/// Proves that the file flag `flag` names can be written, creating nothing: it is not a
/// directory, and its directory is writable (see [`check_writable`]). The error names the flag.
pub fn check_file_flag(flag: &'static str, file: &Path) -> Result<()> {
    if file.is_dir() {
        return Err(Error::OutputFlag { flag, path: file.to_path_buf(), msg: "is a directory, not a file".into() });
    }
    if file.as_os_str().is_empty() || file.to_string_lossy().ends_with('/') {
        return Err(Error::OutputFlag { flag, path: file.to_path_buf(), msg: "names no file".into() });
    }
    let dir = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    check_writable(dir).map_err(|e| flag_err(flag, file, e))
}

fn flag_err(flag: &'static str, path: &Path, e: Error) -> Error {
    let msg = match e {
        Error::Output { msg, .. } => msg,
        other => other.to_string(),
    };
    Error::OutputFlag { flag, path: path.to_path_buf(), msg }
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
    let mut tmp = temporary().tempfile_in(&dir).map_err(|e| out_err(&dir, e))?;
    tmp.write_all(contents.as_bytes()).map_err(|e| out_err(path, e))?;
    tmp.as_file().sync_all().map_err(|e| out_err(path, e))?;
    tmp.persist(path).map_err(|e| out_err(path, e.error))?;
    Ok(if existed { Written::Replaced } else { Written::Created })
}

/// The temporary file a write goes through: read and write for everyone, less what the
/// umask takes away (the mode any editor gives a new file; a temporary file alone would
/// be 0600).
fn temporary<'a>() -> tempfile::Builder<'a, 'a> {
    let mut b = tempfile::Builder::new();
    b.prefix(".uberlazy-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b
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

    #[cfg(unix)]
    #[test]
    fn new_files_are_readable_by_all_and_directories_come_late() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("not/yet");
        check_writable(&out).unwrap();
        assert!(!out.exists(), "checking creates nothing");
        let p = out.join("f.txt");
        write_atomic(&p, "x", false).unwrap();
        // The test process's umask is at most 022 (0644) and never takes the owner's read bit.
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_ne!(mode, 0o600, "not the temporary file's mode");
        assert_eq!(mode & 0o400, 0o400);
        let file = d.path().join("plain");
        std::fs::write(&file, "x").unwrap();
        assert!(check_writable(&file.join("sub")).unwrap_err().to_string().contains("not a directory"));
    }
}
