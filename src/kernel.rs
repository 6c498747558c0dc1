//! What every kernel family provides, and the GPU plumbing the families share.
//!
//! A family (one WGSL file, one module in `kernels/`) knows its maths: which kernels and variants it has, how
//! to build one configuration's dispatches, how many bytes a dispatch moves and what the right answer is.
//! It never times, sweeps or prints: `runner`, `measure` and `stats` do that once for all.

use std::cell::OnceCell;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::gpu::{ComputeLimits, Gpu};

/// One kernel of a family in one variant; `entry_point()` is its WGSL entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelId {
    pub family: &'static str,
    pub kernel: &'static str,
    pub variant: &'static str,
}

impl KernelId {
    pub fn entry_point(&self) -> String {
        format!("{}_{}", self.kernel, self.variant)
    }

    /// Every kernel in every variant, in that order.
    pub fn every_variant(family: &'static str, kernels: &[&'static str], variants: &[&'static str]) -> Vec<KernelId> {
        kernels
            .iter()
            .flat_map(|&kernel| variants.iter().map(move |&variant| KernelId { family, kernel, variant }))
            .collect()
    }

    /// `kernel/variant`, the name used in tables, charts and on the command line.
    pub fn label(&self) -> String {
        format!("{}/{}", self.kernel, self.variant)
    }
}

/// One point of a sweep: a kernel variant, compiled with or without wgpu's checks, at one workgroup shape,
/// with the value of the kernel's own parameter (a stride, an offset) where it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Configuration {
    pub kernel: KernelId,
    pub checks: ShaderChecks,
    pub workgroup: [u32; 3],
    pub parameter: Option<u32>,
}

impl Configuration {
    /// E.g. "strided/vec4 at workgroup size 256, stride 8", "(unchecked)" added for a trusted module.
    pub fn describe(&self) -> String {
        let [x, y, z] = self.workgroup;
        let shape = if y * z == 1 { x.to_string() } else { format!("{x}×{y}×{z}") };
        let parameter = crate::kernels::family(self.kernel.family)
            .and_then(|f| f.parameter(&self.kernel))
            .zip(self.parameter)
            .map(|(p, value)| format!(", {}", p.text(value)))
            .unwrap_or_default();
        let checks = if self.checks == ShaderChecks::Unchecked { " (unchecked)" } else { "" };
        format!("{} at workgroup size {shape}{parameter}{checks}", self.kernel.label())
    }
}

/// A kernel's own swept parameter: its name as shown ("stride") and the values tried; where the values
/// stand for choices rather than amounts, `labels[value]` names each.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    pub name: &'static str,
    pub values: Vec<u32>,
    pub labels: &'static [&'static str],
}

impl Parameter {
    /// A parameter whose values are amounts, shown as numbers.
    pub fn amounts(name: &'static str, values: Vec<u32>) -> Self {
        Self { name, values, labels: &[] }
    }

    /// How `value` is shown: "stride 8", or "matrix square" where the value has a label.
    pub fn text(&self, value: u32) -> String {
        match self.labels.get(value as usize) {
            Some(label) => format!("{} {label}", self.name),
            None => format!("{} {value}", self.name),
        }
    }
}

/// The problem size a family picks for a device, and why it had to pick less where it did.
#[derive(Clone, Debug, PartialEq)]
pub struct Sizing {
    pub size: u64,
    pub note: Option<String>,
}

impl Sizing {
    /// `wanted` units of `unit_bytes` each if the device allows them, else `allowed`, with a note that
    /// `what` (e.g. "arrays are") had to shrink and may then partly fit in a cache.
    pub fn capped(wanted: u64, allowed: u64, unit_bytes: u64, what: &str) -> Self {
        if allowed >= wanted {
            return Sizing { size: wanted, note: None };
        }
        let note = format!(
            "{what} {} MiB, capped by the device's storage binding limit; below {} MiB a large last-level cache \
             may hold part of the data",
            (allowed * unit_bytes) >> 20,
            (wanted * unit_bytes) >> 20
        );
        Sizing { size: allowed, note: Some(note) }
    }
}

/// The chart that fits a family's sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    /// GB/s against the workgroup size or the kernel's parameter, one line per kernel variant.
    Lines,
    /// GB/s over 2-D workgroup shapes (x, y), one heatmap per kernel variant.
    Heatmap,
    /// The best GB/s of each variant (bars) for each kernel (groups).
    Bars,
}

pub trait Family: Sync {
    /// The family's name: its WGSL file's and its module's stem.
    fn name(&self) -> &'static str;
    /// What the family measures, for the page and `wgsweep describe`.
    fn about(&self) -> &'static str;
    fn kernels(&self) -> Vec<KernelId>;
    /// What one unit of problem size is, e.g. "f32 elements per array".
    fn size_unit(&self) -> &'static str;
    /// Bytes one unit of problem size takes in the family's largest buffer.
    fn unit_bytes(&self) -> u64 {
        4
    }
    /// The default problem size on a device with these limits.
    fn default_size(&self, limits: &ComputeLimits) -> Sizing;
    /// Rounds a requested size to one the family can run.
    fn round_size(&self, size: u64) -> u64;
    /// The workgroup shapes a sweep tries for `kernel`: every power of two up to the device's maximum,
    /// unless the family says otherwise.
    fn workgroups(&self, kernel: &KernelId, limits: &ComputeLimits) -> Vec<[u32; 3]> {
        let _ = kernel;
        crate::sweep::power_of_two_sizes(limits).into_iter().map(|x| [x, 1, 1]).collect()
    }
    /// The kernel's own parameter, if it has one.
    fn parameter(&self, kernel: &KernelId) -> Option<Parameter> {
        let _ = kernel;
        None
    }
    /// How the page charts this family's results.
    fn chart(&self) -> ChartKind {
        ChartKind::Lines
    }
    /// The kernel whose best figure, in any variant, is this family's 100 % mark (transpose: the
    /// same-shape copy).
    fn reference(&self) -> Option<&'static str> {
        None
    }
    /// Whether GB/s counts device memory, which the run's best copy bounds; false where it counts
    /// workgroup memory (banks), which is many times faster.
    fn gbps_is_device_memory(&self) -> bool {
        true
    }
    /// Workgroup memory one workgroup of this configuration needs.
    fn workgroup_storage_bytes(&self, configuration: &Configuration) -> u64;
    /// Allocates and fills the inputs of a problem of `size`.
    fn setup(&self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String>;
}

/// The inputs of one problem, on the GPU, shared by every configuration run on them.
pub trait Workload {
    fn size(&self) -> u64;
    /// Bytes one dispatch reads and writes, by the family's stated formula.
    fn bytes_per_dispatch(&self, configuration: &Configuration) -> u64;
    /// Bytes in the whole memory sectors one dispatch touches, where a layout makes that differ from the
    /// bytes it uses.
    fn moved_bytes_per_dispatch(&self, configuration: &Configuration) -> Option<u64> {
        let _ = configuration;
        None
    }
    /// Floating-point operations one dispatch does (an FMA counts two), where the family counts them.
    fn flops_per_dispatch(&self, configuration: &Configuration) -> Option<u64> {
        let _ = configuration;
        None
    }
    /// What a reader of the results should know about these inputs.
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// Builds the pipeline(s) and bindings of one configuration, or says why it cannot run.
    fn configure(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Config, Skip>;
    /// Compares a configuration's output with the CPU reference.
    fn check(&self, configuration: &Configuration, config: &Config, output: &[u8]) -> Result<(), ValidationError>;
}

/// Whether wgpu wraps a shader in its runtime checks (index clamping, a guard on every loop).
/// Browsers always apply their own checks; natively `Unchecked` shows what the checks cost, and
/// `BoundsOnly` (index clamping kept, loop guards dropped) which of the two it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShaderChecks {
    #[default]
    Default,
    Unchecked,
    BoundsOnly,
}

impl ShaderChecks {
    pub fn name(self) -> &'static str {
        match self {
            ShaderChecks::Default => "default",
            ShaderChecks::Unchecked => "unchecked",
            ShaderChecks::BoundsOnly => "bounds_only",
        }
    }
}

/// One WGSL source, compiled on first use with each kind of runtime checks.
pub struct ShaderModules {
    label: &'static str,
    source: &'static str,
    checked: OnceCell<wgpu::ShaderModule>,
    unchecked: OnceCell<wgpu::ShaderModule>,
    bounds_only: OnceCell<wgpu::ShaderModule>,
}

impl ShaderModules {
    pub fn new(label: &'static str, source: &'static str) -> Self {
        Self { label, source, checked: OnceCell::new(), unchecked: OnceCell::new(), bounds_only: OnceCell::new() }
    }

    /// A compute pipeline for `entry`, compiled with `checks`, its override constants (workgroup size and
    /// the like) set. `Unchecked` also skips zeroing workgroup memory, which wgpu (and every browser) does
    /// at the start of each workgroup; no kernel here reads workgroup memory it did not write.
    pub fn pipeline(
        &self,
        gpu: &Gpu,
        checks: ShaderChecks,
        entry: &str,
        constants: &[(&str, f64)],
    ) -> wgpu::ComputePipeline {
        gpu.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry),
            layout: None,
            module: self.get(gpu, checks),
            entry_point: Some(entry),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants,
                zero_initialize_workgroup_memory: checks != ShaderChecks::Unchecked,
            },
            cache: None,
        })
    }

    #[expect(unsafe_code, reason = "wgpu's runtime checks may be dropped only for shaders that stay in bounds")]
    fn get(&self, gpu: &Gpu, checks: ShaderChecks) -> &wgpu::ShaderModule {
        let descriptor = || wgpu::ShaderModuleDescriptor {
            label: Some(self.label),
            source: wgpu::ShaderSource::Wgsl(self.source.into()),
        };
        match checks {
            ShaderChecks::Default => self.checked.get_or_init(|| gpu.device.create_shader_module(descriptor())),
            // SAFETY: every kernel guards each index with arrayLength (or a size it was given) and every loop
            // has a bound it reaches; validation against the CPU reference on each run checks the results.
            ShaderChecks::Unchecked => self.unchecked.get_or_init(|| unsafe {
                gpu.device.create_shader_module_trusted(descriptor(), wgpu::ShaderRuntimeChecks::unchecked())
            }),
            // SAFETY: as above; only the guards on loops are dropped, and every loop has a bound it reaches.
            ShaderChecks::BoundsOnly => self.bounds_only.get_or_init(|| unsafe {
                let checks =
                    wgpu::ShaderRuntimeChecks { force_loop_bounding: false, ..wgpu::ShaderRuntimeChecks::checked() };
                gpu.device.create_shader_module_trusted(descriptor(), checks)
            }),
        }
    }
}

/// One dispatch of a configuration.
pub struct Step {
    pub pipeline: wgpu::ComputePipeline,
    pub bind_group: wgpu::BindGroup,
    pub workgroups: [u32; 3],
}

/// What a configuration's output holds before the run that is validated.
pub enum Before {
    /// `fill::POISON` in every word, so whatever the output holds afterwards, the kernel wrote.
    Poison,
    /// 0 in every word: the kernel adds into its output (atomic sums, histogram counts).
    Zero,
    /// The state these steps write: a kernel that updates its output in place starts from it.
    State(Vec<Step>),
}

/// A runnable configuration: its dispatches in order, and the buffer that holds its answer.
pub struct Config {
    pub steps: Vec<Step>,
    pub output: wgpu::Buffer,
    pub before: Before,
    /// The workgroup grid of the main step, for the record.
    pub workgroups: [u32; 3],
    /// Buffers made for this configuration alone, destroyed with it.
    pub owned: Vec<wgpu::Buffer>,
}

impl Config {
    /// One dispatch that writes `output`, poisoned before the validated run; `owned` as in the struct.
    pub fn single(step: Step, output: wgpu::Buffer, owned: Vec<wgpu::Buffer>) -> Self {
        let workgroups = step.workgroups;
        Config { steps: vec![step], output, before: Before::Poison, workgroups, owned }
    }

    /// One dispatch that adds into `output`, zeroed before the validated run; `output` is owned.
    pub fn accumulating(step: Step, output: wgpu::Buffer) -> Self {
        let workgroups = step.workgroups;
        Config { steps: vec![step], output: output.clone(), before: Before::Zero, workgroups, owned: vec![output] }
    }
}

/// In the browser a dropped buffer keeps its GPU memory until JavaScript's garbage collector runs, so
/// a sweep that makes large buffers per configuration must free them itself.
impl Drop for Config {
    fn drop(&mut self) {
        self.owned.iter().for_each(wgpu::Buffer::destroy);
    }
}

/// Why a configuration was not run.
#[derive(Clone, Debug, PartialEq)]
pub enum Skip {
    /// The configuration needs more of a limit than the device allows.
    ExceedsLimit { limit: &'static str, device: u64, needed: u64 },
    /// The kernel does not apply to this shape or size.
    NotApplicable(String),
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::ExceedsLimit { limit, device, needed } => {
                write!(f, "needs {needed} for {limit}; this device allows {device}")
            }
            Skip::NotApplicable(why) => f.write_str(why),
        }
    }
}

/// One wrong element: where, what the GPU wrote, what the reference says, and the bound it broke.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub index: u64,
    pub got: f64,
    pub want: f64,
    pub tolerance: f64,
}

/// A failed comparison: the first mismatches (as BabelStream prints them) and how many there were.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationError {
    pub what: &'static str,
    pub first: Vec<Mismatch>,
    pub wrong: u64,
    pub checked: u64,
}

/// How many mismatches a validation error lists before it only counts.
const LISTED_MISMATCHES: usize = 10;

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, m) in self.first.iter().enumerate() {
            if n > 0 {
                f.write_str("; ")?;
            }
            write!(
                f,
                "{}[{}]: {:e} (is) != {:e} (should), diff {:e} > tol {:e}",
                self.what,
                m.index,
                m.got,
                m.want,
                (m.got - m.want).abs(),
                m.tolerance
            )?;
        }
        write!(f, "; {} of {} wrong", self.wrong, self.checked)
    }
}

/// Collects mismatches while an output is compared element by element.
pub struct Comparison {
    error: ValidationError,
}

impl Comparison {
    pub fn new(what: &'static str) -> Self {
        Self { error: ValidationError { what, first: Vec::new(), wrong: 0, checked: 0 } }
    }

    /// Checks one value; NaN never passes.
    pub fn check(&mut self, index: u64, got: f64, want: f64, tolerance: f64) {
        self.error.checked += 1;
        if (got - want).abs() <= tolerance {
            return;
        }
        self.error.wrong += 1;
        if self.error.first.len() < LISTED_MISMATCHES {
            self.error.first.push(Mismatch { index, got, want, tolerance });
        }
    }

    pub fn finish(self) -> Result<(), ValidationError> {
        if self.error.wrong == 0 { Ok(()) } else { Err(self.error) }
    }
}

/// Reads little-endian f32 values out of a mapped buffer.
pub fn f32s(bytes: &[u8]) -> impl Iterator<Item = f32> + '_ {
    bytes.chunks_exact(4).map(|w| f32::from_le_bytes([w[0], w[1], w[2], w[3]]))
}

/// Spreads `groups` workgroups over x and, past the per-dimension limit, y, as evenly as possible so that
/// few surplus workgroups are launched. `None` if even a square grid at the limit is too small.
/// Kernels recover the linear group index as `wid.x + wid.y * num_workgroups.x` and bounds-check it.
pub fn dispatch_grid(groups: u64, max_per_dimension: u32) -> Option<[u32; 3]> {
    let max = max_per_dimension as u64;
    let y = groups.max(1).div_ceil(max);
    let x = groups.max(1).div_ceil(y);
    (y <= max).then_some([x as u32, y as u32, 1])
}

/// The grid of `groups` workgroups for a 1-D kernel (see `dispatch_grid`), or why the device cannot launch it.
pub fn linear_grid(gpu: &Gpu, groups: u64) -> Result<[u32; 3], Skip> {
    let max_per_dimension = gpu.info.limits.max_workgroups_per_dimension;
    dispatch_grid(groups, max_per_dimension).ok_or(Skip::ExceedsLimit {
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

/// Refuses a buffer larger than one binding can see; `what` names it in the message ("256 bytes per array").
pub fn check_binding(gpu: &Gpu, what: &str, bytes: u64) -> Result<(), String> {
    let limit = gpu.info.limits.max_binding_bytes();
    if bytes > limit {
        return Err(format!("{what} is over this device's storage binding limit of {limit} bytes"));
    }
    Ok(())
}

/// A storage buffer of `bytes` whose element i is `fill::random_f32(i, seed)`, written on the GPU.
pub fn random_buffer(gpu: &Gpu, label: &str, bytes: u64, seed: u32) -> wgpu::Buffer {
    let buffer = storage_buffer(gpu, label, bytes);
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    gpu.filler().random(&gpu.device, &mut encoder, &buffer, seed);
    gpu.queue.submit([encoder.finish()]);
    buffer
}

/// A storage buffer of `bytes` that kernels read and write and the host can copy from.
pub fn storage_buffer(gpu: &Gpu, label: &str, bytes: u64) -> wgpu::Buffer {
    gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// A bind group for group 0 of `pipeline`, binding each (binding, buffer) pair.
pub fn bind_group(gpu: &Gpu, pipeline: &wgpu::ComputePipeline, bindings: &[(u32, &wgpu::Buffer)]) -> wgpu::BindGroup {
    let entries: Vec<_> = bindings
        .iter()
        .map(|(binding, buffer)| wgpu::BindGroupEntry { binding: *binding, resource: buffer.as_entire_binding() })
        .collect();
    gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    })
}
