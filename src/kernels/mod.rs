//! The kernel families: one module per shaders/*.wgsl file, registered in `FAMILIES`.

pub mod access;
pub mod banks;
pub mod blur;
pub mod histogram;
pub mod image;
pub mod layout;
pub mod matmul;
pub mod peak;
pub mod reduce;
pub mod saturation;
pub mod stream;
pub mod transpose;

use crate::kernel::{Family, KernelId};

/// Every family, in the order the page and the CLI list them.
pub const FAMILIES: &[&dyn Family] = &[
    &stream::Stream,
    &access::Access,
    &layout::Layouts,
    &transpose::Transpose,
    &image::Image,
    &reduce::Reduce,
    &histogram::Histogram,
    &banks::Banks,
    &saturation::Saturation,
    &blur::Blur,
    &matmul::Matmul,
    &peak::Peak,
];

pub fn family(name: &str) -> Option<&'static dyn Family> {
    FAMILIES.iter().copied().find(|f| f.name() == name)
}

/// Every kernel variant of every family.
pub fn all() -> Vec<KernelId> {
    FAMILIES.iter().flat_map(|f| f.kernels()).collect()
}

/// The kernels a selector names: a family (`stream`), a kernel (`triad`) or one variant (`triad/vec4`),
/// comma-separated. Unknown names are an error that lists the known ones.
pub fn select(selector: &str) -> Result<Vec<KernelId>, String> {
    let mut chosen: Vec<KernelId> = Vec::new();
    for name in selector.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let matching: Vec<KernelId> =
            all().into_iter().filter(|k| k.family == name || k.kernel == name || k.label() == name).collect();
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
