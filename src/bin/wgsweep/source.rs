//! `wgsweep source`: a built-in kernel as your kernel, its WGSL opened by a specification that
//! reproduces it.

use std::process::ExitCode;

use wgsweep::gpu::ComputeLimits;
use wgsweep::kernels;

#[derive(clap::Args)]
pub struct SourceArgs {
    /// A kernel/variant name, e.g. triad/scalar.
    kernel: String,
}

pub fn source(args: &SourceArgs) -> Result<ExitCode, String> {
    let name = args.kernel.as_str();
    // The sizes and shapes every WebGPU device offers: `wgsweep kernel` then skips what this one cannot run.
    let limits = ComputeLimits::from_wgpu(&wgpu::Limits::default());
    let opened = kernels::all().into_iter().filter(|k| kernels::as_user_kernel(&k.id, &limits).is_some());
    let opened: Vec<String> = opened.map(|k| k.id.label()).collect();
    let kernel = kernels::select(name)?.into_iter().find(|k| k.id.label() == name);
    let source = kernel.and_then(|k| kernels::as_user_kernel(&k.id, &limits));
    let source = source.ok_or_else(|| {
        format!(
            "{name} does not open as your kernel: what it does needs more than a specification says (a device \
             feature, a CPU reference of its own, a tolerance of its own); these do: {}",
            opened.join(", ")
        )
    })?;
    print!("{source}");
    Ok(ExitCode::SUCCESS)
}
