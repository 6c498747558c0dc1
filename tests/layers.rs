//! The crate's modules form layers (README, "Layout"): every `crate::…` path in a module points to a
//! lower layer, so no two modules import each other, directly or around a circle. The page's modules
//! keep the same rule among themselves through `super::…`, and no view imports another.

use std::path::{Path, PathBuf};

/// The crate's top-level modules, lowest first; a module may name only modules of a lower rank.
const CRATE_LAYERS: &[(&str, u32)] = &[
    ("grid", 0),
    ("stats", 0),
    ("host", 0),
    ("spec", 0),
    ("fill", 1),
    ("gpu", 2),
    ("kernel", 3),
    ("kernels", 4),
    ("measure", 5),
    ("plan", 6),
    ("result", 6),
    ("analysis", 7),
    ("runner", 8),
    ("share", 8),
    ("compare", 8),
    ("gallery", 8),
    ("charts", 9),
    ("tune", 9),
    ("web", 10),
];

/// The page's modules, lowest first: widgets (the family results built of charts and tables), the browser's
/// storage and GPU, the state, the views (one rank, so none may import another), and the module that
/// wires them.
const WEB_LAYERS: &[(&str, u32)] = &[
    ("dom", 0),
    ("storage", 0),
    ("adapter", 0),
    ("chart", 1),
    ("table", 1),
    ("family_results", 2),
    ("state", 3),
    ("device", 4),
    ("controls", 4),
    ("your_kernel", 4),
    ("run", 4),
    ("tuning", 4),
    ("summary", 4),
    ("opened", 4),
    ("history", 4),
    ("compare", 4),
    ("gallery", 4),
    ("app", 5),
    ("mod", 6),
];

/// The gallery server's modules (`server/src`), lowest first; `lib.rs`, `main.rs` and `bin/` sit above them.
const SERVER_LAYERS: &[(&str, u32)] = &[("bounds", 0), ("store", 1), ("api", 2)];

fn rank(layers: &[(&str, u32)], module: &str) -> Option<u32> {
    layers.iter().find(|(name, _)| *name == module).map(|&(_, rank)| rank)
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// Every module named as `prefix` + name in the file's code (comments left out), with its line.
fn named_modules(text: &str, prefix: &str) -> Vec<(String, usize)> {
    let mut named = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find(prefix) {
            rest = &rest[at + prefix.len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            // `use crate::{a, b}`: each name in the braces.
            if name.is_empty() && rest.starts_with('{') {
                let group = &rest[1..rest.find('}').unwrap_or(rest.len())];
                for item in group.split(',') {
                    let item: String = item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    if !item.is_empty() && item != "self" {
                        named.push((item, number + 1));
                    }
                }
            } else if !name.is_empty() {
                named.push((name, number + 1));
            }
        }
    }
    named
}

/// Every place a file of `dir` names, after `prefix`, a module of a rank not below its own. `module_of` gives
/// the module a file belongs to (its path below `dir`), or `None` for a file above every layer.
fn upward_names(
    dir: &Path,
    layers: &[(&str, u32)],
    prefix: &str,
    module_of: impl Fn(&str) -> Option<String>,
) -> Vec<String> {
    let mut wrong = Vec::new();
    for file in rust_files(dir) {
        let relative = file.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
        let Some(module) = module_of(&relative) else { continue };
        let own = rank(layers, &module).unwrap_or_else(|| panic!("{relative}: give `{module}` a layer"));
        let text = std::fs::read_to_string(&file).unwrap();
        for (named, line) in named_modules(&text, prefix) {
            let Some(theirs) = rank(layers, &named) else { continue };
            if named != module && theirs >= own {
                wrong.push(format!("{relative}:{line}: {module} (layer {own}) names {named} (layer {theirs})"));
            }
        }
    }
    wrong
}

#[test]
fn every_module_imports_only_from_the_layers_below_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // The CLI and the crate root sit above everything.
    let module_of = |relative: &str| {
        let above = relative.starts_with("bin/") || relative == "lib.rs";
        (!above).then(|| relative.split(['/', '.']).next().unwrap().to_string())
    };
    let wrong = upward_names(&src, CRATE_LAYERS, "crate::", module_of);
    assert!(wrong.is_empty(), "imports that point up or across the layers:\n{}", wrong.join("\n"));
}

#[test]
fn the_kernel_families_know_neither_the_registry_nor_each_other() {
    let kernels = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/kernels");
    for file in rust_files(&kernels) {
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        if name == "mod" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let named = named_modules(&text, "crate::kernels");
        assert!(named.is_empty() && !text.contains("super::"), "{name}.rs reaches the registry or a sibling family");
    }
}

#[test]
fn the_pages_views_import_no_other_view_and_only_lower_layers() {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web");
    let module_of = |relative: &str| Some(relative.trim_end_matches(".rs").to_string());
    let wrong = upward_names(&web, WEB_LAYERS, "super::", module_of);
    assert!(wrong.is_empty(), "page modules that point up or across:\n{}", wrong.join("\n"));
}

#[test]
fn the_gallery_servers_modules_import_only_from_the_layers_below_their_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("server/src");
    // The crate root and the binaries (the server, the seeder) sit above everything.
    let module_of = |relative: &str| {
        let above = relative == "lib.rs" || relative == "main.rs" || relative.starts_with("bin/");
        (!above).then(|| relative.trim_end_matches(".rs").to_string())
    };
    let wrong = upward_names(&src, SERVER_LAYERS, "crate::", module_of);
    assert!(wrong.is_empty(), "server modules that point up or across:\n{}", wrong.join("\n"));
}
