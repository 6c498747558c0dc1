//! The kernel families: one module per shaders/*.wgsl file, each an entry of `families!`. The registry sits
//! above the families and the contract (`kernel`) below them: neither the contract nor a family knows it.

use crate::kernel::{Configuration, Family, KernelId, ShaderChecks};

/// Declares each family's module and lists the families, in one place: a new family is one entry.
macro_rules! families {
    ($($module:ident::$family:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Every family, in the order the page and the CLI list them.
        pub const FAMILIES: &[&dyn Family] = &[$(&$module::$family),*];
    };
}

families![
    stream::Stream,
    access::Access,
    layout::Layouts,
    transpose::Transpose,
    image::Image,
    reduce::Reduce,
    histogram::Histogram,
    banks::Banks,
    saturation::Saturation,
    blur::Blur,
    matmul::Matmul,
    peak::Peak,
];

pub fn family(name: &str) -> Option<&'static dyn Family> {
    FAMILIES.iter().copied().find(|f| f.name() == name)
}

/// E.g. "strided/vec4 at workgroup size 256, stride 8", "(unchecked)" added for a trusted module.
pub fn describe(configuration: &Configuration) -> String {
    let Configuration { kernel, checks, workgroup: [x, y, z], parameter } = *configuration;
    let shape = if y * z == 1 { x.to_string() } else { format!("{x}×{y}×{z}") };
    let parameter = family(kernel.family)
        .and_then(|f| f.parameter(&kernel))
        .zip(parameter)
        .map(|(p, value)| format!(", {}", p.text(value)))
        .unwrap_or_default();
    let checks = if checks == ShaderChecks::Unchecked { " (unchecked)" } else { "" };
    format!("{} at workgroup size {shape}{parameter}{checks}", kernel.label())
}

/// Every kernel variant of every family.
pub fn all() -> Vec<KernelId> {
    FAMILIES.iter().flat_map(|f| f.kernels()).collect()
}

/// The default suite: what the page ticks and `wgsweep run` runs unless told otherwise. One or two kernels
/// of each family that show its point in a few minutes, kept small enough that the share link of a whole
/// run stays within 8 KB on a device with 1024-invocation workgroups (a core test holds it to that).
pub const DEFAULT_SUITE: &str = "copy/vec4,triad/scalar,triad/vec4,dot/vec4,coalesced/f32,strided/f32,random/f32,\
     touch_one/aos_vec3,touch_one/soa,copy2d/tiled,tiled/padded,tree/f32,grid/f32,tile_read/plain,\
     tile_read/padded,matmul_tiled/16,matmul_blocked/4x4,fma/f32";

/// The kernels a selector names: a family (`stream`), a kernel (`triad`) or one variant (`triad/vec4`),
/// comma-separated; `default` names the default suite and `all` every kernel. Unknown names are an error
/// that lists the known ones.
pub fn select(selector: &str) -> Result<Vec<KernelId>, String> {
    let mut chosen: Vec<KernelId> = Vec::new();
    for name in selector.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let matching: Vec<KernelId> = match name {
            "all" => all(),
            "default" => select(DEFAULT_SUITE)?,
            _ => all().into_iter().filter(|k| k.family == name || k.kernel == name || k.label() == name).collect(),
        };
        if matching.is_empty() {
            let known: Vec<String> = all().iter().map(KernelId::label).collect();
            return Err(format!("no kernel is called '{name}'; known: {}", known.join(", ")));
        }
        for k in matching {
            if !chosen.contains(&k) {
                chosen.push(k);
            }
        }
    }
    Ok(chosen)
}
