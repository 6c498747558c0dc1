//! Every shader goes into the build from OUT_DIR. In the page's build (wasm32) bare: without its comments,
//! indentation and blank lines, which its download would carry for every visitor: the page fetches a file
//! as written from beside it (dist/shaders/) only where a person opens a built-in kernel as theirs
//! (`kernel::with_comments`). Natively, those no one reads (the checks' and the inputs' own, the f16 STREAM
//! family and the subgroup-matrix products, which do not open as a user's) go in bare too; the rest as
//! written, for `wgsweep source`.

use std::path::Path;

const INTERNAL_SHADERS: [&str; 4] = ["compare.wgsl", "random.wgsl", "stream_f16.wgsl", "matmul_subgroup_matrix.wgsl"];

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let page = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32");
    println!("cargo:rerun-if-changed=shaders");
    let mut names: Vec<String> = std::fs::read_dir("shaders")
        .expect("shaders/")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".wgsl"))
        .collect();
    names.sort();
    for name in &names {
        let source = Path::new("shaders").join(name);
        println!("cargo:rerun-if-changed={}", source.display());
        let text = std::fs::read_to_string(&source).unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        let code = match page || INTERNAL_SHADERS.contains(&name.as_str()) {
            true => bare(&text),
            false => text,
        };
        std::fs::write(Path::new(&out).join(name), code).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let listed: Vec<String> = names.iter().map(|name| format!("{name:?}")).collect();
    let list = format!("pub const SHADER_FILES: [&str; {}] = [{}];\n", names.len(), listed.join(", "));
    std::fs::write(Path::new(&out).join("shader_files.rs"), list).expect("shader_files.rs");
}

/// `text` without its comments, indentation and blank lines, as `kernel::bare` (WGSL has no strings: `//`
/// always starts a comment).
fn bare(text: &str) -> String {
    let lines = text.lines().map(|line| line.split("//").next().unwrap_or_default().trim());
    lines.filter(|line| !line.is_empty()).flat_map(|line| [line, "\n"]).collect()
}
