//! The kernel families: one module per shaders/*.wgsl file, each an entry of `families!`. The registry sits
//! above the families and the contract (`kernel`) below them: neither the contract nor a family knows it.

use std::sync::{OnceLock, RwLock};

use crate::gpu::ComputeLimits;
use crate::kernel::{Configuration, Family, Kernel, KernelId, Presentation, ShaderChecks, shapes};
use crate::spec::UserKernel;

pub mod user;

/// Declares each family's module and lists the families, in one place: a new family is one entry.
macro_rules! families {
    ($($module:ident::$family:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Every family, in the order the page and the CLI list them.
        pub const FAMILIES: &[&dyn Family] = &[$(&$module::$family),*];

        /// What is said about each family, in `FAMILIES` order.
        const PRESENTATIONS: &[&Presentation] = &[$(&$module::PRESENTATION),*];
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

/// The families made at run time from users' kernels, the newest of each name last.
static REGISTERED: RwLock<Vec<&'static user::UserFamily>> = RwLock::new(Vec::new());

/// A built-in family, or the user's kernel registered under `name`.
pub fn family(name: &str) -> Option<&'static dyn Family> {
    let built_in = FAMILIES.iter().copied().find(|f| f.name() == name);
    built_in.or_else(|| registered(name).map(|f| f as &'static dyn Family))
}

/// Every built-in family with what is said about it, in `FAMILIES` order.
pub fn built_in() -> impl Iterator<Item = (&'static dyn Family, &'static Presentation)> {
    FAMILIES.iter().copied().zip(PRESENTATIONS.iter().copied())
}

/// What is said about the family `name` (a built-in one, or the user's kernel registered under it): for
/// the page, the summary and `wgsweep describe`, and for reading results recorded by any run.
pub fn presentation(name: &str) -> Option<Presentation> {
    match FAMILIES.iter().position(|f| f.name() == name) {
        Some(at) => Some(*PRESENTATIONS[at]),
        None => registered(name).map(|f| f.presentation),
    }
}

/// The user's kernel registered under `name`, where there is one.
pub fn registered(name: &str) -> Option<&'static user::UserFamily> {
    let registered = REGISTERED.read().unwrap_or_else(|poisoned| poisoned.into_inner());
    registered.iter().rev().copied().find(|f| f.name() == name)
}

/// Makes a user's kernel a family that runs, is found by its name and is listed like the built-in ones. A
/// kernel registered before (the same digest) is that family again; a new one under a name registered
/// before takes the name over. Built-in families' names are refused.
pub fn register(kernel: UserKernel) -> Result<&'static user::UserFamily, String> {
    let name = kernel.spec.name.clone();
    if FAMILIES.iter().any(|f| f.name() == name) {
        return Err(format!("`{name}` is the name of a built-in family: give your kernel another name"));
    }
    let mut registered = REGISTERED.write().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(at) = registered.iter().position(|f| f.kernel.digest == kernel.digest) {
        let family = registered.remove(at);
        registered.push(family);
        return Ok(family);
    }
    // A family lives as long as the program: plans and results in flight may name it.
    let family: &'static user::UserFamily = Box::leak(Box::new(user::UserFamily::new(kernel)));
    registered.push(family);
    Ok(family)
}

/// A built-in kernel as a user's kernel (`Family::as_user_kernel`), at its family's default problem size
/// for a device of `limits`; `None` where a specification cannot say it.
pub fn as_user_kernel(kernel: &KernelId, limits: &ComputeLimits) -> Option<String> {
    let family = FAMILIES.iter().find(|f| f.name() == kernel.family)?;
    family.as_user_kernel(kernel, family.default_size(limits).size, limits)
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

/// Every kernel variant of every built-in family.
pub fn all() -> Vec<Kernel> {
    FAMILIES.iter().flat_map(|&f| Kernel::all_of(f)).collect()
}

/// A device with the largest workgroups any adapter offers (1024 invocations), which the configuration
/// bound is counted on.
pub const LARGEST_WORKGROUPS: ComputeLimits = ComputeLimits {
    max_workgroup_size_x: 1024,
    max_workgroup_size_y: 1024,
    max_workgroup_size_z: 64,
    max_invocations_per_workgroup: 1024,
    max_workgroup_storage_bytes: 64 << 10,
    max_workgroups_per_dimension: 65535,
    max_storage_buffer_binding_size: 4 << 30,
    max_buffer_size: 4 << 30,
};

/// What the largest run makes: every kernel of every family at every workgroup shape 1024-invocation
/// workgroups allow (the family's own, or every shape of its dimensions as the auto-tuner's exhaustive
/// search opens them, whichever is more), at every value of its parameter, under all three shader checks.
pub fn most_configurations() -> usize {
    static MOST: OnceLock<usize> = OnceLock::new();
    *MOST.get_or_init(|| {
        let limits = LARGEST_WORKGROUPS;
        let checks = [ShaderChecks::Default, ShaderChecks::BoundsOnly, ShaderChecks::Unchecked].len();
        FAMILIES
            .iter()
            .flat_map(|family| family.kernels().into_iter().map(move |kernel| (*family, kernel)))
            .map(|(family, kernel)| {
                let own = family.workgroup_shapes(&kernel, &limits);
                let every = match own.iter().any(|w| w[1] > 1) {
                    true => shapes::power_of_two_shapes(&limits).len(),
                    false => shapes::power_of_two_sizes(&limits).len(),
                };
                let values = family.parameter(&kernel).map_or(1, |p| p.values.len());
                own.len().max(every) * values * checks
            })
            .sum()
    })
}

/// The most configurations a run may make and a result may hold: twice what the largest run makes, a margin
/// for runs of a person's own parameter values.
pub fn max_configurations() -> usize {
    2 * most_configurations()
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
pub fn select(selector: &str) -> Result<Vec<Kernel>, String> {
    let mut chosen: Vec<Kernel> = Vec::new();
    let every = all();
    for name in selector.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let matching: Vec<Kernel> = match name {
            "all" => every.clone(),
            "default" => select(DEFAULT_SUITE)?,
            _ => every
                .iter()
                .filter(|Kernel { id, .. }| id.family == name || id.kernel == name || id.is_labelled(name))
                .copied()
                .collect(),
        };
        if matching.is_empty() {
            let known: Vec<String> = every.iter().map(|k| k.id.label()).collect();
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
