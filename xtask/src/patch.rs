//! Proves that `patches/wgpu` is the published wgpu crate plus `patches/wgpu.diff`, byte for byte.
//!
//! Cargo fetches the published crate (checking it against the registry's checksum) into a throwaway
//! project outside the workspace, where `[patch.crates-io]` does not reach; `git apply` puts the diff on a
//! copy of it; then every file of that copy must equal the vendored one, and neither may have a file the
//! other lacks.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::{Result, cmd, root, run};

/// Cargo writes this file when it unpacks a crate; it is not part of the published crate.
const UNPACK_MARKER: &str = ".cargo-ok";

pub fn check() -> Result {
    let vendored = root().join("patches/wgpu");
    let version = package_version(&vendored.join("Cargo.toml"))?;
    let published = fetch_published(&version)?;
    let expected = std::env::temp_dir().join(format!("wgsweep-patch-check-{}", std::process::id()));
    let outcome = copy_tree(&published, &expected)
        .and_then(|_| apply_diff(&expected, &root().join("patches/wgpu.diff")))
        .and_then(|_| compare_trees(&expected, &vendored));
    let _ = std::fs::remove_dir_all(&expected);
    outcome.map_err(|e| format!("patches/wgpu is not wgpu {version} as published plus patches/wgpu.diff: {e}"))?;
    eprintln!("patches/wgpu is wgpu {version} as published plus patches/wgpu.diff");
    Ok(())
}

/// The `version` of the `[package]` a manifest declares.
fn package_version(manifest: &Path) -> Result<String> {
    let text = std::fs::read_to_string(manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    let package = text.split("\n[package]\n").nth(1).ok_or_else(|| format!("{}: no [package]", manifest.display()))?;
    let line = package.lines().take_while(|l| !l.starts_with('[')).find(|l| l.starts_with("version = "));
    let line = line.ok_or_else(|| format!("{}: [package] has no version", manifest.display()))?;
    Ok(line.trim_start_matches("version = ").trim_matches('"').to_string())
}

/// Where cargo unpacked the published `wgpu` at exactly `version`, fetched by a project of its own.
fn fetch_published(version: &str) -> Result<PathBuf> {
    let project = root().join("target/patch-check");
    std::fs::create_dir_all(project.join("src")).map_err(|e| format!("{}: {e}", project.display()))?;
    let manifest = format!(
        "[package]\nname = \"patch-check\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
         [dependencies]\nwgpu = {{ version = \"={version}\", default-features = false }}\n\n\
         # Not a member of wgsweep's workspace, so its [patch.crates-io] does not apply.\n[workspace]\n"
    );
    let write = |path: PathBuf, text: &str| std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()));
    write(project.join("Cargo.toml"), &manifest)?;
    write(project.join("src/lib.rs"), "")?;
    let manifest_path = project.join("Cargo.toml");
    let manifest_path = manifest_path.to_string_lossy();
    run(cmd("cargo", &["fetch", "--quiet", "--manifest-path", &manifest_path]))?;
    let metadata = cmd("cargo", &["metadata", "--format-version", "1", "--manifest-path", &manifest_path])
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !metadata.status.success() {
        return Err(format!("cargo metadata: {}", String::from_utf8_lossy(&metadata.stderr)));
    }
    // The one wgpu in the graph; its manifest sits in the registry's source folder.
    let metadata: serde_json::Value =
        serde_json::from_slice(&metadata.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    let packages = metadata["packages"].as_array().ok_or("cargo metadata lists no packages")?;
    let wgpu = packages.iter().find(|p| p["name"] == "wgpu" && p["version"] == version);
    let manifest = wgpu.and_then(|p| p["manifest_path"].as_str()).ok_or(format!("cargo fetched no wgpu {version}"))?;
    Ok(Path::new(manifest).parent().ok_or("a manifest has a folder")?.to_path_buf())
}

fn copy_tree(from: &Path, to: &Path) -> Result {
    for relative in files_under(from)? {
        let target = to.join(&relative);
        std::fs::create_dir_all(target.parent().expect("a file has a folder")).map_err(|e| format!("{e}"))?;
        std::fs::copy(from.join(&relative), &target).map_err(|e| format!("{}: {e}", target.display()))?;
    }
    Ok(())
}

fn apply_diff(tree: &Path, diff: &Path) -> Result {
    let diff = diff.to_string_lossy();
    let mut apply = cmd("git", &["apply", "--whitespace=nowarn", &diff]);
    // Outside any repository, `git apply` patches the folder it runs in, as `patch -p1` would.
    apply.current_dir(tree).env("GIT_CEILING_DIRECTORIES", tree.parent().unwrap_or(tree));
    run(apply)
}

/// Every file of both trees, compared byte for byte; the first differences named.
fn compare_trees(expected: &Path, vendored: &Path) -> Result {
    let expected_files = files_under(expected)?;
    let vendored_files = files_under(vendored)?;
    let mut problems: Vec<String> = Vec::new();
    for missing in expected_files.difference(&vendored_files) {
        problems.push(format!("{} is missing", missing.display()));
    }
    for extra in vendored_files.difference(&expected_files) {
        problems.push(format!("{} is not in the published crate nor added by the diff", extra.display()));
    }
    for file in expected_files.intersection(&vendored_files) {
        let read = |tree: &Path| std::fs::read(tree.join(file)).map_err(|e| format!("{}: {e}", file.display()));
        let (want, have) = (read(expected)?, read(vendored)?);
        if want != have {
            let at = want.iter().zip(&have).position(|(a, b)| a != b).unwrap_or(want.len().min(have.len()));
            problems.push(format!("{} differs at byte {at}", file.display()));
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    let shown = problems.len().min(10);
    Err(format!("{} ({} in all)", problems[..shown].join("; "), problems.len()))
}

/// Every file under `dir`, as paths relative to it, without cargo's unpack marker.
fn files_under(dir: &Path) -> Result<BTreeSet<PathBuf>> {
    let mut files = BTreeSet::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))? {
            let path = entry.map_err(|e| format!("{}: {e}", folder.display()))?.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.file_name().is_none_or(|name| name != UNPACK_MARKER) {
                files.insert(path.strip_prefix(dir).expect("under dir").to_path_buf());
            }
        }
    }
    Ok(files)
}
