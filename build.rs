//! The shaders few read in the page (the checks' and the inputs' own, the kernels that do not open as a
//! user's: the f16 STREAM family and the subgroup-matrix products; and the layouts' steps and subgroup sums,
//! which do, where the family's description says what the comments would) go into the build without their
//! comment lines, which the page's download would carry for every visitor. The files keep them.

use std::path::Path;

const INTERNAL_SHADERS: [&str; 6] = [
    "compare.wgsl",
    "random.wgsl",
    "layout.wgsl",
    "reduce_subgroup.wgsl",
    "stream_f16.wgsl",
    "matmul_subgroup_matrix.wgsl",
];

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for name in INTERNAL_SHADERS {
        let source = Path::new("shaders").join(name);
        println!("cargo:rerun-if-changed={}", source.display());
        let text = std::fs::read_to_string(&source).unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        let code: String =
            text.lines().filter(|line| !line.trim_start().starts_with("//")).flat_map(|line| [line, "\n"]).collect();
        std::fs::write(Path::new(&out).join(name), code).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
