//! Keeps `testdata/<pkg>.jar` in step with `javasrc/<pkg>/` when `javac` is available.
//!
//! Every subdirectory of `javasrc/` is one package and one jar. Sources are compiled with
//! `javac --release 8 -g` (extra options from an optional `javasrc/<pkg>/javac.args`) and
//! packed into a deterministic jar: entries sorted, fixed timestamps, no compression, so the
//! same sources and javac give the same bytes. A jar is rewritten only when its bytes
//! change. Without `javac`, the committed jars are used and nothing happens.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=javasrc");
    println!("cargo:rerun-if-changed=build.rs");
    let Ok(out) = std::env::var("OUT_DIR") else { return };
    if Command::new("javac").arg("-version").output().map(|o| !o.status.success()).unwrap_or(true) {
        println!("cargo:warning=javac not found: using the committed testdata jars");
        return;
    }
    let Ok(dirs) = fs::read_dir("javasrc") else { return };
    let mut pkgs: Vec<PathBuf> = dirs.filter_map(|d| d.ok()).map(|d| d.path()).filter(|p| p.is_dir()).collect();
    pkgs.sort();
    for pkg in pkgs {
        if let Err(e) = build_jar(&pkg, Path::new(&out)) {
            println!("cargo:warning=testdata jar for {}: {e}", pkg.display());
        }
    }
}

fn java_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    for e in rd.filter_map(|e| e.ok()) {
        let p = e.path();
        if p.is_dir() {
            java_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "java") {
            println!("cargo:rerun-if-changed={}", p.display());
            out.push(p);
        }
    }
}

fn class_files(dir: &Path, root: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    for e in rd.filter_map(|e| e.ok()) {
        let p = e.path();
        if p.is_dir() {
            class_files(&p, root, out);
        } else if p.extension().is_some_and(|x| x == "class")
            && let Ok(rel) = p.strip_prefix(root)
        {
            let name = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            out.push((name, p));
        }
    }
}

fn build_jar(pkg: &Path, out: &Path) -> Result<(), String> {
    let name = pkg.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let mut sources = Vec::new();
    java_files(pkg, &mut sources);
    if sources.is_empty() {
        return Ok(());
    }
    sources.sort();
    let classes = out.join("javac").join(&name);
    let _ = fs::remove_dir_all(&classes);
    fs::create_dir_all(&classes).map_err(|e| e.to_string())?;
    let mut cmd = Command::new("javac");
    cmd.args(["--release", "8", "-g", "-nowarn", "-d"]).arg(&classes);
    if let Ok(extra) = fs::read_to_string(pkg.join("javac.args")) {
        println!("cargo:rerun-if-changed={}", pkg.join("javac.args").display());
        cmd.args(extra.split_whitespace());
    }
    cmd.args(&sources);
    let res = cmd.output().map_err(|e| e.to_string())?;
    if !res.status.success() {
        return Err(format!("javac failed: {}", String::from_utf8_lossy(&res.stderr)));
    }
    let mut files = Vec::new();
    class_files(&classes, &classes, &mut files);
    files.sort();
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut zw = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored)
            .last_modified_time(zip::DateTime::default())
            .unix_permissions(0o644);
        for (entry, path) in &files {
            let bytes = fs::read(path).map_err(|e| e.to_string())?;
            zw.start_file(entry.as_str(), opts).map_err(|e| e.to_string())?;
            zw.write_all(&bytes).map_err(|e| e.to_string())?;
        }
        zw.finish().map_err(|e| e.to_string())?;
    }
    let jar = Path::new("testdata").join(format!("{name}.jar"));
    let bytes = buf.into_inner();
    if fs::read(&jar).ok().as_deref() == Some(bytes.as_slice()) {
        return Ok(());
    }
    fs::create_dir_all("testdata").map_err(|e| e.to_string())?;
    let tmp = jar.with_extension("jar.tmp");
    fs::write(&tmp, &bytes).map_err(|e| e.to_string())?;
    fs::rename(&tmp, &jar).map_err(|e| e.to_string())
}
