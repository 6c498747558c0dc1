//! Problem-size saturation: STREAM's triad and a one-pass sum over the first N elements, N from 2^10 to
//! the problem size, to show where the caches end and where the GPU fills up.

use std::cell::OnceCell;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::fill::random_f32;
use crate::gpu::{ComputeLimits, Gpu};
use crate::host;
use crate::kernel::{
    self, Comparison, Configuration, Expected, Family, KeptReference, KernelId, OwnedBuffer, Parameter, PrepareFuture,
    Prepared, Presentation, Recipe, Reference, ReferenceFuture, ShaderModules, Sizing, Skip, Step, ValidationError,
    Workload, as_yours, f32s, family_text,
};
use crate::spec;

/// WGSL has no includes: the grid's index helpers go in front.
const WGSL: &str = concat!(shader!("grid.wgsl"), shader!("saturation.wgsl"));

pub const KERNELS: [(&str, &str); 2] = [("triad_by_size", "f32"), ("sum_by_size", "u32")];
/// Elements used: every power of two from 2^10 to 2^28; those above the problem size are skipped.
pub fn sizes() -> Vec<u32> {
    (10..=28).map(|p| 1 << p).collect()
}
/// The workgroup size of the sweep, where the device allows it.
const WORKGROUP: u32 = 256;
/// Workgroups the sum launches, whatever the size (fewer for small sizes).
const SUM_WORKGROUPS: u64 = 1024;
/// As STREAM at its largest: arrays far larger than any last-level cache.
const DEFAULT_ARRAY_BYTES: u64 = 256 << 20;
const SCALAR: f32 = 0.4;

pub struct Saturation;

/// What the page, the summary and `wgsweep describe` say about the family.
pub const PRESENTATION: Presentation = Presentation { about: family_text!("saturation"), ..Presentation::NONE };

impl Family for Saturation {
    fn name(&self) -> &'static str {
        "saturation"
    }

    fn kernels(&self) -> Vec<KernelId> {
        KERNELS.iter().map(|&(kernel, variant)| KernelId { family: "saturation", kernel, variant }).collect()
    }

    fn size_unit(&self) -> &'static str {
        "f32 elements per array (the largest N)"
    }

    fn default_size(&self, limits: &ComputeLimits) -> Sizing {
        Sizing::capped(DEFAULT_ARRAY_BYTES / 4, limits.max_binding_bytes() / 4, 4, "arrays are")
    }

    fn round_size(&self, size: u64) -> u64 {
        size.clamp(1024, 1 << 28)
    }

    fn workgroup_shapes(&self, _: &KernelId, limits: &ComputeLimits) -> Vec<[u32; 3]> {
        let largest = limits.max_invocations_per_workgroup.min(limits.max_workgroup_size_x);
        vec![[WORKGROUP.min(largest), 1, 1]]
    }

    fn parameter(&self, _: &KernelId) -> Option<Parameter> {
        Some(Parameter::amounts("elements", sizes()))
    }

    fn workgroup_storage_bytes(&self, configuration: &Configuration) -> u64 {
        if configuration.kernel.kernel == "sum_by_size" { 4 * configuration.workgroup[0] as u64 } else { 0 }
    }

    fn setup(&'static self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        let bytes = size * 4;
        kernel::check_binding(gpu, &format!("{bytes} bytes per array"), bytes)?;
        let a = kernel::random_buffer(gpu, "a", bytes, seed);
        let b = kernel::random_buffer(gpu, "b", bytes, seed.wrapping_add(1));
        let modules = ShaderModules::new("saturation.wgsl", WGSL);
        let reference = KeptReference::default();
        Ok(Box::new(SaturationWorkload { size, seed, modules, a, b, prefix_sums: OnceCell::new(), reference }))
    }

    /// The same WGSL, workgroup and sizes (each its own arrays), validated against `reference` below: the
    /// triad one element per invocation, the sum one atomic add per element.
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, limits: &ComputeLimits) -> Option<String> {
        let largest = limits.max_invocations_per_workgroup.min(limits.max_workgroup_size_x);
        let triad = kernel.kernel == "triad_by_size";
        let buffers = match triad {
            true => vec![
                spec::BufferSpec::new(0, "a", "f32", "n"),
                spec::BufferSpec::new(1, "b", "f32", "n"),
                spec::BufferSpec::new(2, "c", "f32", "n").output(),
            ],
            false => vec![
                spec::BufferSpec::new(3, "words", "u32", "n").filled(spec::Fill::Random([0.0, u32::MAX as f64])),
                spec::BufferSpec::new(4, "total", "u32", "1").filled(spec::Fill::Zeros).output(),
            ],
        };
        let groups = match triad {
            true => "ceil_div(n, WG)".to_string(),
            false => format!("min(ceil_div(n, WG), {SUM_WORKGROUPS})"),
        };
        let size = self.round_size(size);
        let spec = spec::Spec {
            sizes: sizes().into_iter().filter(|&n| n as u64 <= size).map(|n| spec::Size::n(n as u64)).collect(),
            workgroup_size: as_yours::line_workgroup(),
            tunables: spec::Ordered::of(&[("WG", [WORKGROUP.min(largest)].as_slice())]),
            constants: spec::Ordered::of(&[("N", "n")]),
            grid: Some(as_yours::linear_grid(&groups, limits)),
            bytes: Some(if triad { "12 * n" } else { "4 * n" }.into()),
            flops: triad.then(|| "2 * n".into()),
            workgroup_memory: (!triad).then(|| "4 * WG".into()),
            validation: spec::ValidationSpec {
                reference: Some("reference".into()),
                tolerance: Some(if triad { 1e-6 } else { 0.0 }),
                grid: Some(as_yours::linear_grid("ceil_div(n, 64)", limits)),
            },
            ..spec::Spec::new(format!("{}_{}", kernel.kernel, kernel.variant), kernel.entry_point(), buffers)
        };
        let body = if triad { "c[i] = a[i] + SCALAR * b[i];" } else { "atomicAdd(&total, words[i]);" };
        let reference = format!(
            "\n@compute @workgroup_size(64)\n\
             fn reference(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,\n\
             \x20            @builtin(local_invocation_index) lid: u32) {{\n\
             \x20   let i = (wid.x + wid.y * nwg.x) * 64u + lid;\n\
             \x20   if i < N {{ {body} }}\n\
             }}\n"
        );
        Some(as_yours::open(&spec, kernel, "its WGSL, workgroup and sizes.", &[WGSL, &reference]))
    }

    fn reference_words(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        kernel::recipe_bytes::<Triad>(recipe, range)
    }
}

struct SaturationWorkload {
    size: u64,
    seed: u32,
    modules: ShaderModules,
    a: OwnedBuffer,
    b: OwnedBuffer,
    /// The wrapping sum of the first 2^k elements of `a` (as u32 bits), for each size swept.
    prefix_sums: OnceCell<Vec<(u32, u32)>>,
    /// The triad's size checked last, and its c.
    reference: KeptReference<u64>,
}

/// Element i of the triad of the inputs of `seed`, and the rounding it may differ by (as STREAM's check:
/// exact unless the GPU fuses the multiply and add).
fn triad(seed: u32, i: u64) -> (f32, f32) {
    let (a, b) = (random_f32(i as u32, seed), random_f32(i as u32, seed.wrapping_add(1)));
    (a + SCALAR * b, 2.0 * f32::EPSILON * (a.abs() + (SCALAR * b).abs()))
}

/// The triad of the inputs of `seed`.
#[derive(Serialize, Deserialize)]
struct Triad {
    seed: u32,
}

impl Recipe for Triad {
    const FAMILY: &'static str = "saturation";

    fn words(&self, range: Range<u64>) -> impl Iterator<Item = Expected> {
        range.map(|i| {
            let (value, tolerance) = triad(self.seed, i);
            Expected::Float { value, tolerance }
        })
    }
}

impl SaturationWorkload {
    /// The sum of the first n words, for every swept n (after `reference`).
    fn sum_of_first(&self, n: u32) -> u32 {
        let sums = self.prefix_sums.get().expect("`reference` computed the sums");
        sums.iter().find(|(size, _)| *size == n).map(|(_, sum)| *sum).expect("a swept size")
    }

    /// Sums the first n words for every swept n, in chunks that give the page a turn.
    async fn prefix_sums(&self) -> Vec<(u32, u32)> {
        let wanted: Vec<u32> = sizes().into_iter().filter(|&s| s as u64 <= self.size).collect();
        let (mut sums, mut sum) = (Vec::new(), 0u32);
        host::for_chunks(wanted.last().copied().unwrap_or(0) as u64, |range| {
            for i in range {
                sum = sum.wrapping_add(random_f32(i as u32, self.seed).to_bits());
                if wanted.contains(&(i as u32 + 1)) {
                    sums.push((i as u32 + 1, sum));
                }
            }
        })
        .await;
        sums
    }

    /// `prepare`, at once: its pipelines compile quickly, and are made synchronously.
    fn prepare_now(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let Configuration { kernel, checks, workgroup, parameter } = *configuration;
        let n = parameter.unwrap_or(0);
        if n as u64 > self.size {
            return Err(Skip::NotApplicable(format!("{n} elements is more than the problem size, {}", self.size)));
        }
        let wg = workgroup[0];
        let constants = [("WG", wg as f64), ("N", n as f64)];
        let covering = (n as u64).div_ceil(wg as u64);
        let pipeline = self.modules.pipeline(gpu, checks, &kernel.entry_point(), &constants);
        if kernel.kernel == "triad_by_size" {
            let grid = kernel::linear_grid(gpu, covering)?;
            let c = kernel::storage_buffer(gpu, "c", n as u64 * 4);
            let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, &self.a), (1, &self.b), (2, &c)]);
            return Ok(Prepared::single(Step::new(pipeline, bind_group, grid), c.handle(), vec![c]));
        }
        let grid = kernel::linear_grid(gpu, covering.min(SUM_WORKGROUPS))?;
        let total = kernel::storage_buffer(gpu, "total", 4);
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(3, &self.a), (4, &total)]);
        Ok(Prepared::accumulating(Step::new(pipeline, bind_group, grid), total))
    }
}

impl Workload for SaturationWorkload {
    fn size(&self) -> u64 {
        self.size
    }

    /// Triad reads two arrays and writes one; the sum reads one.
    fn bytes_per_dispatch(&self, configuration: &Configuration) -> u64 {
        let n = configuration.parameter.unwrap_or(0) as u64;
        if configuration.kernel.kernel == "triad_by_size" { 3 * 4 * n } else { 4 * n }
    }

    /// The triad's multiply and add per element (the sum adds u32s).
    fn flops_per_dispatch(&self, configuration: &Configuration) -> Option<u64> {
        let n = configuration.parameter.unwrap_or(0) as u64;
        (configuration.kernel.kernel == "triad_by_size").then_some(2 * n)
    }

    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a> {
        Box::pin(std::future::ready(self.prepare_now(gpu, configuration)))
    }

    /// The triad's first n elements; the sum of the first n words, which the CPU compares with the total.
    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let n = configuration.parameter.unwrap_or(0) as u64;
            if configuration.kernel.kernel == "sum_by_size" {
                host::once(&self.prefix_sums, self.prefix_sums()).await;
                return Ok(None);
            }
            let c = Reference::build(gpu, "c", n, Triad { seed: self.seed });
            Ok(Some(self.reference.get_or_build(n, c).await))
        })
    }

    fn check(&self, configuration: &Configuration, _: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let n = configuration.parameter.unwrap_or(0);
        if configuration.kernel.kernel == "sum_by_size" {
            let got = u32::from_le_bytes([output[0], output[1], output[2], output[3]]);
            let mut comparison = Comparison::new("sum");
            comparison.check(0, got as f64, self.sum_of_first(n) as f64, 0.0);
            return comparison.finish();
        }
        let mut comparison = Comparison::new("c");
        for (i, got) in f32s(output).enumerate().take(n as usize) {
            let (want, tolerance) = triad(self.seed, i as u64);
            comparison.check(i as u64, got as f64, want as f64, tolerance as f64);
        }
        comparison.finish()
    }
}
