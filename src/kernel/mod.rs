//! The contract every kernel family keeps, and the GPU plumbing the families share.
//!
//! A family (one WGSL file, one module in `kernels/`) knows its maths: which kernels and variants it has, how
//! to prepare one configuration's dispatches, how many bytes a dispatch moves and what the right answer is.
//! It never times, sweeps or prints: `runner`, `measure` and `stats` do that once for all. The contract
//! knows no family: the registry (`kernels`) sits above the families, which sit above this module.

pub mod as_yours;
mod buffers;
mod check;
mod digest;
mod dispatch;
mod expected;
mod readback;
mod recipe;
mod shaders;
pub mod shapes;
#[cfg(target_arch = "wasm32")]
mod staging;
pub mod sums;

use std::fmt;
use std::ops::Range;
use std::pin::Pin;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

pub use buffers::{
    ImageBuffers, OwnedBuffer, bind_group, buffer_holding, check_binding, random_buffer, random_f16_buffer,
    storage_buffer,
};
pub use check::{
    Comparison, GpuCheck, KeptReference, Reference, Submitted, Summary, ValidationError, Words, f32s, passed,
    read_summary, references_built, u32s,
};
pub use digest::of_bytes as digest_bytes;
pub use dispatch::{
    Step, encode_once, encode_steps, linear_grid, matrix_shape, plane_grid, submit, submit_once, submit_steps,
};
pub use expected::{Expected, Mismatch, passes};
pub use readback::{idle, map_read, read_buffer, read_range};
pub use recipe::{Recipe, recipe_bytes};
pub use shaders::{SHADER_FILES, ShaderChecks, ShaderModules, bare, for_this_compiler, with_comments};

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

    /// Whether `label` is this kernel's, without writing the label out (the picker asks for every kernel).
    pub fn is_labelled(&self, label: &str) -> bool {
        label.split_once('/') == Some((self.kernel, self.variant))
    }
}

/// A kernel as a plan holds it: its id and the family that runs it, so that no layer looks the family up by
/// name again, and a user's kernel registered anew under the same name never runs in its place.
#[derive(Clone, Copy)]
pub struct Kernel {
    pub family: &'static dyn Family,
    pub id: KernelId,
}

impl Kernel {
    /// Every kernel of `family`, in its order.
    pub fn all_of(family: &'static dyn Family) -> Vec<Kernel> {
        family.kernels().into_iter().map(|id| Kernel { family, id }).collect()
    }
}

impl PartialEq for Kernel {
    fn eq(&self, other: &Kernel) -> bool {
        self.id == other.id
    }
}

impl fmt::Debug for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.id.family, self.id.label())
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

/// A kernel's own swept parameter: its name as shown ("stride") and the values tried; where the values
/// stand for choices rather than amounts, `labels[value]` names each. Where they stand for combinations
/// (a user's kernel: its sizes and tunables), `axes` are the lists combined, the first varying slowest, so
/// that the auto-tuner can move along each.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    pub name: &'static str,
    pub values: Vec<u32>,
    pub labels: &'static [&'static str],
    pub axes: &'static [Axis],
}

/// One list a parameter's combinations are made of.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    pub name: &'static str,
    /// How many values it has.
    pub len: usize,
    /// Whether the auto-tuner searches along it; the problem sizes it keeps apart, as a family's parameter.
    pub tuned: bool,
}

impl Parameter {
    /// The name of a parameter whose values are combinations of a user's kernel's sizes and tunables; each
    /// label is the size, then `TUNABLES_SEPARATOR`, then the tunables ("n=16777216 · ELEMENTS=4").
    pub const TUNABLES: &'static str = "tunables";
    pub const TUNABLES_SEPARATOR: &'static str = " · ";

    /// A parameter whose values are amounts, shown as numbers.
    pub fn amounts(name: &'static str, values: Vec<u32>) -> Self {
        Self { name, values, labels: &[], axes: &[] }
    }

    /// The index along each axis of combination `value`, where the values are combinations.
    pub fn position(&self, value: u32) -> Vec<usize> {
        let lengths: Vec<usize> = self.axes.iter().map(|axis| axis.len).collect();
        crate::spec::position(&lengths, value as usize)
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

/// The part a kernel plays in the analysis of a run (`analysis`), as its family declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A plain copy: its best valid GB/s is the run's bandwidth ceiling, which no kernel that moves device
    /// memory can beat by much.
    Copy,
    /// Independent chains of one kind of operation: its best valid rate is the run's compute ceiling for
    /// that kind (`Family::operations`); f32 FMAs' is the roofline's roof.
    ComputePeak,
}

/// What a kernel's counted operations are (`Workload::flops_per_dispatch`), which names its figure's unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operations {
    /// f32 floating-point operations (an FMA counts two): GFLOP/s, on the roofline.
    #[default]
    Flops,
    /// f16 floating-point operations: GFLOP/s, beside the f32 roof rather than under it.
    HalfFlops,
    /// 32-bit integer operations (a multiply-add counts two): GIOP/s.
    IntegerOps,
    /// 8-bit integer operations of packed dot products (each of 4 multiplies and 4 adds counts one): GOP/s.
    Int8Ops,
}

impl Operations {
    pub fn is_flops(&self) -> bool {
        *self == Operations::Flops
    }

    /// The chains that measure this kind's peak, in words.
    pub fn name(self) -> &'static str {
        match self {
            Operations::Flops => "FMA",
            Operations::HalfFlops => "f16 FMA",
            Operations::IntegerOps => "i32 multiply-add",
            Operations::Int8Ops => "int8 dot product",
        }
    }
}

/// A family's point in one sentence, for a run's summary: how one kernel fares against another, each at its
/// best workgroup shape. A side names `kernel/variant` or a kernel in any variant, and the value of its
/// parameter where one is meant; where both sides have a parameter and neither names one, they meet at the
/// largest value both ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contrast {
    pub kernel: (&'static str, Option<u32>),
    pub against: (&'static str, Option<u32>),
    /// The sentence, with `{than}` where "7.8× faster than", "1.3× slower than" or "as fast as" goes, or
    /// `{percent}` where the first side's figure as a share of the second's goes ("88 %").
    pub sentence: &'static str,
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

/// What a built-in family measures, its `docs/families/NAME.md`: compiled in natively (`wgsweep describe`);
/// in the page, where it is the empty string, fetched from beside the page when a person asks for it
/// (`web::dom::about_fold`), so that the texts stay out of the page's download.
macro_rules! family_text {
    ($family:literal) => {
        if cfg!(target_arch = "wasm32") {
            ""
        } else {
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/families/", $family, ".md"))
        }
    };
}
pub(crate) use family_text;

/// The part a family's kernels play in the analysis of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Roles {
    /// None of them plays one.
    None,
    /// This kernel (its name without the variant) plays this part.
    Kernel(&'static str, Role),
    /// Every kernel of the family plays this part.
    Every(Role),
}

/// What the page, the summary and `wgsweep describe` say about a family: data kept beside its kernels, so
/// that the contract (`Family`) holds only what runs, its inputs, its shapes and its reference.
#[derive(Clone, Copy, Debug)]
pub struct Presentation {
    /// What the family measures and what to expect (a built-in family's docs/families/NAME.md, `family_text`;
    /// empty in the page, which fetches it).
    pub about: &'static str,
    /// How the page charts its results.
    pub chart: ChartKind,
    /// The kernel whose best figure, in any variant, at the same parameter value, is the family's 100 % mark
    /// (transpose: the same-shape copy).
    pub baseline: Option<&'static str>,
    /// What the family shows, each in a sentence with its number (the summary's headlines).
    pub contrasts: &'static [Contrast],
    /// The part its kernels play in the analysis of a run.
    pub roles: Roles,
}

impl Presentation {
    /// Nothing said but the text: lines, no baseline, no contrasts, no roles.
    pub const NONE: Presentation =
        Presentation { about: "", chart: ChartKind::Lines, baseline: None, contrasts: &[], roles: Roles::None };

    /// The part `kernel` (its name without the variant) plays in the analysis of a run, where it plays one.
    pub fn role(&self, kernel: &str) -> Option<Role> {
        match self.roles {
            Roles::Kernel(name, role) if name == kernel => Some(role),
            Roles::Every(role) => Some(role),
            _ => None,
        }
    }
}

/// What runs: a family's kernels, their inputs, shapes and reference. What is said about it is its
/// `Presentation`, beside it in the registry.
pub trait Family: Sync {
    /// The family's name: its WGSL file's and its module's stem.
    fn name(&self) -> &'static str;
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
    fn workgroup_shapes(&self, kernel: &KernelId, limits: &ComputeLimits) -> Vec<[u32; 3]> {
        let _ = kernel;
        shapes::power_of_two_sizes(limits).into_iter().map(|x| [x, 1, 1]).collect()
    }
    /// The kernel's own parameter, if it has one.
    fn parameter(&self, kernel: &KernelId) -> Option<Parameter> {
        let _ = kernel;
        None
    }
    /// What `kernel`'s counted operations are, where it counts any.
    fn operations(&self, kernel: &str) -> Operations {
        let _ = kernel;
        Operations::Flops
    }
    /// Whether GB/s counts device memory, which the run's best copy bounds; false where it counts
    /// workgroup memory (banks), which is many times faster.
    fn gbps_is_device_memory(&self) -> bool {
        true
    }
    /// Whether a configuration may also run through a trusted shader module, without wgpu's runtime checks:
    /// not a user's kernel, which may index out of bounds.
    fn runs_unchecked(&self) -> bool {
        true
    }
    /// Whether the problem size only sets how long one dispatch lasts (no cache to outgrow, no matrix to
    /// fit): on a device slow for it, the runner shrinks a default-sized problem to a short dispatch, and a
    /// size asked for in bytes per buffer leaves it at its default.
    fn sized_by_time(&self) -> bool {
        false
    }
    /// Workgroup memory one workgroup of this configuration needs.
    fn workgroup_storage_bytes(&self, configuration: &Configuration) -> u64;
    /// Why no plan has this configuration, where none does (a user's restriction excludes it): it is left
    /// out of counts, estimates, tables and the tuner's candidates alike.
    fn excluded(&self, configuration: &Configuration) -> Option<String> {
        let _ = configuration;
        None
    }
    /// The override constants a configuration sets that make its shape and tunables, by the kernel's own
    /// names (a user's kernel: `blockSize`, `TILE`), for a snippet to paste; `None`: WG_X and WG_Y make the
    /// shape and nothing else is tuned.
    fn tunable_values(&self, configuration: &Configuration) -> Option<Vec<(String, i64)>> {
        let _ = configuration;
        None
    }
    /// A user's kernel's WGSL and specification as written, which a result of it carries; `None` for a
    /// built-in family.
    fn written(&self) -> Option<&crate::spec::KernelText> {
        None
    }
    /// A template kernel's text and what fills it at a configuration (`{{b_m}}`, `64`): the tunables that
    /// set no override, for a snippet to paste; empty where the WGSL is no template.
    fn template_filled(&self, configuration: &Configuration) -> Vec<(String, String)> {
        let _ = configuration;
        Vec::new()
    }
    /// The workgroup shape and parameter value the kernel runs at untuned, among the configurations like
    /// `like` (of its problem size): what the auto-tuner measures its choice against. `None`: the common
    /// default, 64 (8×8 for 2-D kernels) at `like`'s parameter.
    fn default_configuration(&self, like: &Configuration, limits: &ComputeLimits) -> Option<([u32; 3], Option<u32>)> {
        let _ = (like, limits);
        None
    }
    /// Allocates and fills the inputs of a problem of `size`.
    fn setup(&'static self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String>;
    /// `kernel` as a user's kernel: its WGSL with a specification (in the leading `/* wgsweep … */` comment)
    /// that reproduces what the family measures at problem size `size` on a device of `limits`, for a
    /// person to start from; `None` where a specification cannot say what it does.
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, limits: &ComputeLimits) -> Option<String> {
        let _ = (kernel, size, limits);
        None
    }
    /// The encoded words `range` of this family's reference recipe, given as JSON (`recipe_bytes` of its
    /// `Recipe`): what a Web Worker computes for the page.
    fn reference_words(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        let _ = (recipe, range);
        Err(format!("the {} family builds no reference", self.name()))
    }
    /// The sums of each block of items in `range` of this family's sum recipe, given as JSON
    /// (`block_sums_bytes` of its `SumRecipe`): what a Web Worker computes for the page.
    fn block_sums(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        let _ = (recipe, range);
        Err(format!("the {} family adds up no sum", self.name()))
    }
}

/// The inputs of one problem, on the GPU, shared by every configuration run on them.
pub trait Workload {
    fn size(&self) -> u64;
    /// The problem size a configuration runs at, for its record: `size`, unless the configuration's
    /// parameter picks one (a user's kernel).
    fn problem_size(&self, configuration: &Configuration) -> u64 {
        let _ = configuration;
        self.size()
    }
    /// Bytes one dispatch reads and writes, by the family's stated formula.
    fn bytes_per_dispatch(&self, configuration: &Configuration) -> u64;
    /// Bytes in the whole memory sectors one dispatch touches, where a layout makes that differ from the
    /// bytes it uses.
    fn moved_bytes_per_dispatch(&self, configuration: &Configuration) -> Option<u64> {
        let _ = configuration;
        None
    }
    /// Operations one dispatch does (an FMA counts two), where the family counts them: floating-point ones
    /// unless `Family::operations` says otherwise.
    fn flops_per_dispatch(&self, configuration: &Configuration) -> Option<u64> {
        let _ = configuration;
        None
    }
    /// What a reader of the results should know about these inputs.
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// Builds the pipeline(s) and bindings of one configuration, or says why it cannot run. A future: a
    /// family whose pipelines take long to compile makes them without holding up the GPU's other work in a
    /// browser (`ShaderModules::pipeline_async`); the others answer at once.
    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a>;
    /// Computes what validating `configuration` takes, on first use for each input: the reference its
    /// output is compared with on the GPU, word by word, without reading it back (built from a `Recipe`: on
    /// every core natively, in Web Workers in the page); or `None` where the check is not word by word
    /// (sums, partial sums, counts) and `check` compares the read-back output on the CPU, with what this
    /// computed (sums as a `SumRecipe` says, where the reference's words are built; anything else in chunks
    /// that give the page a turn, `host::for_chunks`).
    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a>;
    /// Whether the page may ask for a configuration's reference before that configuration has run, while the
    /// GPU measures others (`runner::Ahead`), keeping the last one (`KeptReference`) meanwhile.
    fn reference_ahead(&self) -> bool {
        true
    }
    /// Compares a configuration's output with the CPU reference on the CPU (after `reference`): the check
    /// of outputs that are not compared word by word, and the cross-check of those that are in the tests.
    fn check(&self, configuration: &Configuration, prepared: &Prepared, output: &[u8]) -> Result<(), ValidationError>;
    /// `check` as a future that gives the page turns, where it takes longer than a task should (a dot
    /// product's partial sums, one a workgroup); the runner uses it in place of `check`. `None`: `check`.
    fn check_in_turns<'a>(
        &'a self,
        _configuration: &'a Configuration,
        _prepared: &'a Prepared,
        _output: &'a [u8],
    ) -> Option<CheckFuture<'a>> {
        None
    }
}

/// What `Workload::check_in_turns` makes, boxed so that `Workload` stays a trait object.
pub type CheckFuture<'a> = Pin<Box<dyn Future<Output = Result<(), ValidationError>> + 'a>>;

/// A configuration's output compared on the CPU: `Workload::check_in_turns` where a workload has it, else
/// `Workload::check`.
pub async fn check_on_cpu(
    workload: &dyn Workload,
    configuration: &Configuration,
    prepared: &Prepared,
    output: &[u8],
) -> Result<(), ValidationError> {
    match workload.check_in_turns(configuration, prepared, output) {
        Some(check) => check.await,
        None => workload.check(configuration, prepared, output),
    }
}

/// What `Workload::prepare` makes, boxed so that `Workload` stays a trait object.
pub type PrepareFuture<'a> = Pin<Box<dyn Future<Output = Result<Prepared, Skip>> + 'a>>;

/// What `Workload::reference` makes, boxed so that `Workload` stays a trait object.
/// `Err` says why no reference could be made (a user's reference entry point that failed to run).
pub type ReferenceFuture<'a> = Pin<Box<dyn Future<Output = Result<Option<Rc<Reference>>, String>> + 'a>>;

/// What a configuration's output holds before the run that is validated.
pub enum Before {
    /// `fill::POISON` in every word, so whatever the output holds afterwards, the kernel wrote.
    Poison,
    /// 0 in every word: the kernel adds into its output (atomic sums, histogram counts).
    Zero,
    /// The state these steps write over poison: a kernel that updates its output in place starts from it.
    State(Vec<Step>),
    /// This pattern, from this seed: a user's output that holds initial contents.
    Pattern(crate::fill::Pattern, u32),
}

/// A prepared configuration, ready to run: its dispatches in order, and the buffer that holds its answer.
pub struct Prepared {
    pub steps: Vec<Step>,
    pub output: wgpu::Buffer,
    pub before: Before,
    /// The dispatch grid of the main step, for the record.
    pub grid: [u32; 3],
    /// Buffers made for this configuration alone, destroyed with it.
    pub owned: Vec<OwnedBuffer>,
    /// Where the answer is a texture: `output` is copied into it before the validated run (poisoning it), and
    /// it into `output` after.
    pub texture: Option<TexelCopy>,
}

/// A texture and how its texels lie in a buffer they are copied to or from (a configuration's answer read
/// back, a texture's initial contents written): rows `bytes_per_row` apart (a multiple of 256, as WebGPU
/// copies them), `extent` texels across and down.
pub struct TexelCopy {
    pub texture: wgpu::Texture,
    pub bytes_per_row: u32,
    pub extent: [u32; 2],
}

impl TexelCopy {
    /// The copy of the texture's texels, as they lie in `buffer`.
    pub fn in_buffer<'a>(&self, buffer: &'a wgpu::Buffer) -> wgpu::TexelCopyBufferInfo<'a> {
        let layout =
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(self.bytes_per_row), rows_per_image: None };
        wgpu::TexelCopyBufferInfo { buffer, layout }
    }

    /// Bytes the texels take in a buffer, rows apart as they lie there.
    pub fn bytes(&self) -> u64 {
        self.bytes_per_row as u64 * self.extent[1] as u64
    }

    pub fn size(&self) -> wgpu::Extent3d {
        wgpu::Extent3d { width: self.extent[0], height: self.extent[1], depth_or_array_layers: 1 }
    }
}

impl Prepared {
    /// One dispatch that writes `output`, poisoned before the validated run; `owned` as in the struct.
    pub fn single(step: Step, output: wgpu::Buffer, owned: Vec<OwnedBuffer>) -> Self {
        let grid = step.grid;
        Prepared { steps: vec![step], output, before: Before::Poison, grid, owned, texture: None }
    }

    /// One dispatch that adds into `output`, zeroed before the validated run; `output` is owned.
    pub fn accumulating(step: Step, output: OwnedBuffer) -> Self {
        let grid = step.grid;
        let output_buffer = output.handle();
        Prepared {
            steps: vec![step],
            output: output_buffer,
            before: Before::Zero,
            grid,
            owned: vec![output],
            texture: None,
        }
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

impl Skip {
    /// An f16 kernel on a device without f16 in shaders.
    pub fn needs_f16() -> Skip {
        Skip::NotApplicable("needs f16 in shaders (shader-f16), which this device does not offer".into())
    }

    pub fn needs_subgroups() -> Skip {
        Skip::NotApplicable("needs subgroup operations, which this device (or this browser) does not offer".into())
    }
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
