//! Dispatching a configuration: its steps, the grids that cover a problem within the device's limits, and
//! recording steps into one submission.

use super::{Before, Prepared, Skip};
use crate::gpu::Gpu;
use crate::{fill, grid};

/// One dispatch of a configuration.
pub struct Step {
    pub pipeline: wgpu::ComputePipeline,
    /// The bind groups of group 0, 1, ….
    pub bind_groups: Vec<wgpu::BindGroup>,
    /// The workgroups the dispatch launches along x, y and z.
    pub grid: [u32; 3],
}

impl Step {
    /// A dispatch whose bindings are all in group 0.
    pub fn new(pipeline: wgpu::ComputePipeline, bind_group: wgpu::BindGroup, grid: [u32; 3]) -> Step {
        Step { pipeline, bind_groups: vec![bind_group], grid }
    }
}

/// Records the dispatches of one configuration, in order.
pub fn encode_steps(pass: &mut wgpu::ComputePass<'_>, steps: &[Step]) {
    for step in steps {
        pass.set_pipeline(&step.pipeline);
        for (group, bind_group) in step.bind_groups.iter().enumerate() {
            pass.set_bind_group(group as u32, bind_group, &[]);
        }
        let [x, y, z] = step.grid;
        pass.dispatch_workgroups(x, y, z);
    }
}

/// Records what `record` writes into one command encoder and submits it.
pub fn submit(gpu: &Gpu, record: impl FnOnce(&mut wgpu::CommandEncoder)) {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    record(&mut encoder);
    gpu.queue.submit([encoder.finish()]);
}

/// Runs `steps` once, in one compute pass of their own submission (inputs made on the GPU).
pub fn submit_steps(gpu: &Gpu, steps: &[Step]) {
    submit(gpu, |encoder| encode_steps(&mut encoder.begin_compute_pass(&Default::default()), steps));
}

/// Poisons the configuration's output (or writes its initial state), then runs its dispatches once: what
/// the output holds afterwards is the kernel's work (copied there from its texture, where it writes one).
pub fn submit_once(gpu: &Gpu, prepared: &Prepared) {
    submit(gpu, |encoder| encode_once(gpu, encoder, prepared, None));
}

/// `submit_once`'s commands, recorded into `encoder`: the configuration's dispatches in a pass of their own,
/// which writes `timestamps` where given (its first run timed, as a calibration's first sample).
pub fn encode_once(
    gpu: &Gpu,
    encoder: &mut wgpu::CommandEncoder,
    prepared: &Prepared,
    timestamps: Option<wgpu::ComputePassTimestampWrites<'_>>,
) {
    match &prepared.before {
        Before::Poison => gpu.filler().word(&gpu.device, encoder, &prepared.output, fill::POISON),
        Before::Zero => gpu.filler().word(&gpu.device, encoder, &prepared.output, 0),
        Before::Pattern(pattern, seed) => gpu.filler().pattern(&gpu.device, encoder, &prepared.output, *pattern, *seed),
        // Poisoned first, so that a word the state leaves alone (a guard past the end) stays poison.
        Before::State(steps) => {
            gpu.filler().word(&gpu.device, encoder, &prepared.output, fill::POISON);
            encode_steps(&mut encoder.begin_compute_pass(&Default::default()), steps);
        }
    }
    if let Some(texture) = &prepared.texture {
        encoder.copy_buffer_to_texture(
            texture.in_buffer(&prepared.output),
            texture.texture.as_image_copy(),
            texture.size(),
        );
    }
    let run = wgpu::ComputePassDescriptor { label: Some("run once"), timestamp_writes: timestamps };
    encode_steps(&mut encoder.begin_compute_pass(&run), &prepared.steps);
    if let Some(texture) = &prepared.texture {
        encoder.copy_texture_to_buffer(
            texture.texture.as_image_copy(),
            texture.in_buffer(&prepared.output),
            texture.size(),
        );
    }
}

/// The grid of `groups` workgroups for a 1-D kernel (see `grid::dispatch_grid`), or why the device cannot
/// launch it.
pub fn linear_grid(gpu: &Gpu, groups: u64) -> Result<[u32; 3], Skip> {
    let max_per_dimension = gpu.info.limits.max_workgroups_per_dimension;
    grid::dispatch_grid(groups, max_per_dimension).ok_or(Skip::ExceedsLimit {
        limit: "max_compute_workgroups_per_dimension (squared, for a 2-D grid)",
        device: max_per_dimension as u64 * max_per_dimension as u64,
        needed: groups,
    })
}

/// The grid that covers an `extent[0]` × `extent[1]` plane with workgroups covering `per_group` each, or
/// why the device cannot launch it.
pub fn plane_grid(gpu: &Gpu, extent: [u32; 2], per_group: [u32; 2]) -> Result<[u32; 3], Skip> {
    let grid = [extent[0].div_ceil(per_group[0]), extent[1].div_ceil(per_group[1]), 1];
    let max = gpu.info.limits.max_workgroups_per_dimension;
    match grid.iter().find(|&&g| g > max) {
        Some(&needed) => Err(Skip::ExceedsLimit {
            limit: "max_compute_workgroups_per_dimension",
            device: max as u64,
            needed: needed as u64,
        }),
        None => Ok(grid),
    }
}

/// The (rows, columns) a 2-D problem of `size` elements becomes: a few rows fewer than square, so it is
/// neither square nor a multiple of any tile or workgroup edge, and no larger than `size`.
pub fn matrix_shape(size: u64) -> (u32, u32) {
    let rows = (size as f64).sqrt() as u64 - 3;
    let cols = size / rows;
    (rows as u32, cols as u32)
}
