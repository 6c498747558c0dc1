//! The crate's modules form layers (README, "Layout"): every `crate::…` path in a module points to a
//! lower layer, so no two modules import each other, directly or around a circle. The page's modules
//! keep the same rule among themselves through `super::…`, and no view imports another.

#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

/// The crate's top-level modules, lowest first; a module may name only modules of a lower rank.
const CRATE_LAYERS: &[(&str, u32)] = &[
    ("bounds", 0),
    ("grid", 0),
    ("sort", 0),
    ("host", 0),
    ("stats", 1),
    ("spec", 1),
    ("fill", 1),
    ("gpu", 2),
    ("kernel", 3),
    ("kernels", 4),
    ("measure", 5),
    ("plan", 6),
    ("result", 6),
    ("analysis", 7),
    ("estimate", 7),
    ("runner", 8),
    ("share", 8),
    ("compare", 8),
    ("baseline", 8),
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
    ("adapter", 1),
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
const SERVER_LAYERS: &[(&str, u32)] = &[("bounds", 0), ("doors", 0), ("store", 1), ("api", 2)];

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
        let nested = file.parent() != Some(kernels.as_path());
        let wrong = reaches_the_registry_or_a_sibling(&text, nested);
        assert!(wrong.is_empty(), "{name}.rs reaches the registry or a sibling family:\n{}", wrong.join("\n"));
    }
}

/// The lines of a family's module (comments left out) that name the registry (`crate::kernels`, however
/// it is spelled in a path or a `use` group) or a sibling through `super::`; in a family's own submodule
/// (`nested`, src/kernels/FAMILY/*.rs), `super::` is the family and `super::super::` the registry.
fn reaches_the_registry_or_a_sibling(text: &str, nested: bool) -> Vec<String> {
    let mut wrong: Vec<String> = named_modules(text, "crate::")
        .into_iter()
        .filter(|(module, _)| module == "kernels")
        .map(|(_, line)| format!("line {line}: crate::kernels"))
        .collect();
    let upward = if nested { "super::super::" } else { "super::" };
    for (number, line) in text.lines().enumerate() {
        if line.split("//").next().unwrap_or("").contains(upward) {
            wrong.push(format!("line {}: {upward}", number + 1));
        }
    }
    wrong
}

#[test]
fn a_family_reaching_the_registry_or_a_sibling_is_found_however_it_is_written() {
    let planted = [
        "let f = crate::kernels::registered(name);",
        "use crate::kernels;",
        "use crate::{kernel::Family, kernels};",
        "use super::stream::Stream;",
    ];
    for line in planted {
        assert_eq!(reaches_the_registry_or_a_sibling(line, false).len(), 1, "not found: {line}");
    }
    // A family's own submodule reaches its family, and only through it the registry.
    assert!(reaches_the_registry_or_a_sibling("use super::{Inputs, MatmulWorkload};", true).is_empty());
    assert_eq!(reaches_the_registry_or_a_sibling("use super::super::stream::Stream;", true).len(), 1);
    let fine =
        ["use crate::kernel::{Family, Workload};", "// crate::kernels::registered is above us", "let kernels = 3;"];
    for line in fine {
        assert!(reaches_the_registry_or_a_sibling(line, false).is_empty(), "found in a fine line: {line}");
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
        (!above).then(|| relative.split(['/', '.']).next().unwrap().to_string())
    };
    let wrong = upward_names(&src, SERVER_LAYERS, "crate::", module_of);
    assert!(wrong.is_empty(), "server modules that point up or across:\n{}", wrong.join("\n"));
}

/// The CLI's rooms (`src/bin/wgsweep/`), lowest first: its tables and shared options, the subcommands (one
/// rank, so none may import another), `kernel` (which runs and tunes a user's kernel as `run` and `tune`
/// do), and `main`, which dispatches to them.
const CLI_LAYERS: &[(&str, u32)] = &[
    ("table", 0),
    ("plan_args", 0),
    ("devices", 1),
    ("describe", 1),
    ("source", 1),
    ("share", 1),
    ("compare", 1),
    ("presets", 1),
    ("run", 1),
    ("tune", 1),
    ("kernel", 2),
    ("main", 3),
];

#[test]
fn the_clis_subcommands_import_no_other_subcommand_and_only_lower_rooms() {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin/wgsweep");
    let module_of = |relative: &str| Some(relative.trim_end_matches(".rs").to_string());
    // A subcommand may name another as `crate::run` or, from the binary's root, `super::run`.
    let mut wrong = upward_names(&cli, CLI_LAYERS, "crate::", module_of);
    wrong.extend(upward_names(&cli, CLI_LAYERS, "super::", module_of));
    assert!(wrong.is_empty(), "CLI modules that point up or across:\n{}", wrong.join("\n"));
}

/// The longest a file of the library, the CLI or the server may be: past it, a file does more than one job.
const MOST_LINES_A_FILE: usize = 700;
/// The longest a function outside tests may be, from `fn` to its closing brace.
const MOST_LINES_A_FUNCTION: usize = 100;

/// The Rust files that the size rules hold: the library, the CLI and the server.
fn sized_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = rust_files(&root.join("src"));
    files.extend(rust_files(&root.join("server/src")));
    files
}

/// Each file over `most` lines, with its length.
fn long_files(files: &[(String, String)], most: usize) -> Vec<String> {
    let long = files.iter().map(|(name, text)| (name, text.lines().count())).filter(|&(_, lines)| lines > most);
    long.map(|(name, lines)| format!("{name}: {lines} lines")).collect()
}

/// Every function (free, in an impl or a trait's default) of `text` over `most` lines, leaving out tests
/// (`#[test]` functions and `#[cfg(test)]` modules).
fn long_functions(name: &str, text: &str, most: usize) -> Vec<String> {
    use syn::visit::Visit;
    struct Lengths<'a> {
        name: &'a str,
        most: usize,
        long: Vec<String>,
    }
    fn is_test(attributes: &[syn::Attribute]) -> bool {
        attributes.iter().any(|a| {
            a.path().is_ident("test")
                || (a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
        })
    }
    impl Lengths<'_> {
        fn measure(&mut self, ident: &syn::Ident, fn_token: &syn::token::Fn, block: &syn::Block) {
            let lines = block.brace_token.span.close().end().line - fn_token.span.start().line + 1;
            if lines > self.most {
                self.long.push(format!("{}:{}: fn {ident}: {lines} lines", self.name, fn_token.span.start().line));
            }
        }
    }
    impl<'ast> Visit<'ast> for Lengths<'_> {
        fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
            if !is_test(&item.attrs) {
                syn::visit::visit_item_mod(self, item);
            }
        }
        fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
            if !is_test(&item.attrs) {
                self.measure(&item.sig.ident, &item.sig.fn_token, &item.block);
                syn::visit::visit_item_fn(self, item);
            }
        }
        fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
            self.measure(&item.sig.ident, &item.sig.fn_token, &item.block);
            syn::visit::visit_impl_item_fn(self, item);
        }
        fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
            if let Some(block) = &item.default {
                self.measure(&item.sig.ident, &item.sig.fn_token, block);
            }
            syn::visit::visit_trait_item_fn(self, item);
        }
    }
    let file = syn::parse_file(text).unwrap_or_else(|e| panic!("{name} does not parse: {e}"));
    let mut lengths = Lengths { name, most, long: Vec::new() };
    lengths.visit_file(&file);
    lengths.long
}

#[test]
fn no_file_is_over_700_lines_and_no_function_outside_tests_over_100() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files: Vec<(String, String)> = sized_files()
        .into_iter()
        .map(|f| (f.strip_prefix(root).unwrap().display().to_string(), std::fs::read_to_string(&f).unwrap()))
        .collect();
    let mut wrong = long_files(&files, MOST_LINES_A_FILE);
    for (name, text) in &files {
        wrong.extend(long_functions(name, text, MOST_LINES_A_FUNCTION));
    }
    assert!(wrong.is_empty(), "too long:\n{}", wrong.join("\n"));
}

#[test]
fn a_file_or_function_one_line_too_long_is_found_and_tests_are_left_alone() {
    let body = |lines: usize| "    let x = 1;\n".repeat(lines - 2);
    let at_most = format!("fn fine() {{\n{}}}\n", body(100));
    let one_more = format!("fn long() {{\n{}}}\n", body(101));
    assert!(long_functions("a.rs", &at_most, 100).is_empty());
    assert_eq!(long_functions("a.rs", &one_more, 100), ["a.rs:1: fn long: 101 lines"]);
    let in_impl = format!("struct S;\nimpl S {{\n    {}}}\n", one_more.replace('\n', "\n    "));
    assert_eq!(long_functions("a.rs", &in_impl, 100).len(), 1, "a method is measured");
    let in_trait = format!("trait T {{\n    {}}}\n", one_more.replace('\n', "\n    "));
    assert_eq!(long_functions("a.rs", &in_trait, 100).len(), 1, "a trait's default is measured");
    let a_test = format!("#[test]\n{one_more}");
    let tests = format!("#[cfg(test)]\nmod tests {{\n{one_more}}}\n");
    assert!(long_functions("a.rs", &a_test, 100).is_empty() && long_functions("a.rs", &tests, 100).is_empty());
    let files = [("a.rs".to_string(), "\n".repeat(700)), ("b.rs".to_string(), "\n".repeat(701))];
    assert_eq!(long_files(&files, 700), ["b.rs: 701 lines"]);
}

/// What only the CLI uses, behind the `cli` feature: the gallery server, which depends on the library
/// without it, compiles none of these.
const CLI_ONLY: [&str; 5] = ["clap", "indicatif", "ureq", "env_logger", "pollster"];

#[test]
fn the_gallery_server_compiles_none_of_the_clis_dependencies() {
    let tree = std::process::Command::new(env!("CARGO"))
        .args(["tree", "--offline", "-p", "wgsweep-server", "-e", "normal", "--prefix", "none"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(tree.status.success(), "cargo tree: {}", String::from_utf8_lossy(&tree.stderr));
    let tree = String::from_utf8(tree.stdout).unwrap();
    let crates: Vec<&str> = tree.lines().filter_map(|line| line.split(' ').next()).collect();
    assert!(crates.contains(&"wgsweep") && crates.contains(&"axum"), "the server's tree is read:\n{tree}");
    let compiled: Vec<&&str> = CLI_ONLY.iter().filter(|name| crates.contains(name)).collect();
    assert!(compiled.is_empty(), "the gallery server compiles {compiled:?}");
}
