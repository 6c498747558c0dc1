//! Compute peak: independent FMA chains, scalar and vec4, for the roofline's compute ceiling.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{
    self, Comparison, Configuration, Expected, Family, KeptReference, KernelId, OwnedBuffer, Prepared, Recipe,
    Reference, ReferenceFuture, Role, ShaderModules, Sizing, Skip, Step, ValidationError, Workload, as_yours, f32s,
};
use crate::spec;
use wgpu::util::DeviceExt;

/// WGSL has no includes: the grid's index helpers go in front.
const WGSL: &str = concat!(include_str!("../../shaders/grid.wgsl"), include_str!("../../shaders/peak.wgsl"));

pub const VARIANTS: [&str; 2] = ["f32", "vec4"];
/// FMAs each chain runs.
const ITERATIONS: u32 = 1024;
/// Invocations by default: enough to fill any GPU many times over, a fraction of a millisecond of work.
const DEFAULT_INVOCATIONS: u64 = 1 << 20;

pub struct Peak;

/// The chains an invocation runs, in f32 lanes: 8 scalars, or 4 vec4s.
fn lanes(variant: &str) -> u32 {
    if variant == "vec4" { 16 } else { 8 }
}

/// `start` in peak.wgsl.
fn start(i: u32, c: u32) -> f32 {
    (i & 1023) as f32 * (1.0 / 1024.0) + c as f32
}

/// a, then the b of each chain: multiples of 2^-12, so no sum along a chain ever rounds.
fn coefficients() -> [f32; 17] {
    std::array::from_fn(|k| if k == 0 { 1.0 } else { k as f32 / 4096.0 })
}

/// What invocation `i` of `variant` writes: its chains' last values, summed as the shader sums them.
pub fn chain_sum(variant: &str, i: u32) -> f32 {
    let coefficients = coefficients();
    let a = coefficients[0];
    let last: Vec<f32> = (0..lanes(variant))
        .map(|c| (0..ITERATIONS).fold(start(i, c), |x, _| x.mul_add(a, coefficients[1 + c as usize])))
        .collect();
    if variant == "vec4" {
        last.chunks_exact(4).fold(0.0, |sum, v| sum + (v[0] + v[1] + v[2] + v[3]))
    } else {
        last.iter().fold(0.0, |sum, &x| sum + x)
    }
}

impl Family for Peak {
    fn name(&self) -> &'static str {
        "peak"
    }

    fn about(&self) -> &'static str {
        "The compute ceiling: each invocation runs independent chains of fused multiply-adds (1024 per chain) \
         and writes one sum, so memory plays no part. fma/f32 keeps 8 scalar chains, fma/vec4 4 vec4 chains; \
         an FMA counts as two flops. The best of them is the run's FMA peak, the roof of the roofline chart, \
         and every kernel that counts flops is also shown as a percentage of it. Expect small workgroups to \
         fall short (too few warps resident to hide each FMA's latency) and the rest to level off near the \
         GPU's FP32 peak (for an H100 SXM about 67 TFLOP/s without tensor cores); on a GPU whose lanes are \
         scalar, vec4 only doubles the work per invocation."
    }

    fn kernels(&self) -> Vec<KernelId> {
        KernelId::every_variant(self.name(), &["fma"], &VARIANTS)
    }

    fn contrasts(&self) -> Vec<kernel::Contrast> {
        vec![kernel::Contrast {
            kernel: ("fma/vec4", None),
            against: ("fma/f32", None),
            sentence: "FMA chains on vec4 are {than} on scalars",
        }]
    }

    fn role(&self, kernel: &str) -> Option<Role> {
        (kernel == "fma").then_some(Role::ComputePeak)
    }

    fn size_unit(&self) -> &'static str {
        "invocations"
    }

    fn default_size(&self, _: &ComputeLimits) -> Sizing {
        Sizing { size: DEFAULT_INVOCATIONS, note: None }
    }

    fn round_size(&self, size: u64) -> u64 {
        size.clamp(1024, 1 << 24)
    }

    fn workgroup_storage_bytes(&self, _: &Configuration) -> u64 {
        0
    }

    /// Invocations only set how long a dispatch lasts: a slow device gets fewer.
    fn sized_by_time(&self) -> bool {
        true
    }

    fn setup(&self, gpu: &Gpu, size: u64, _seed: u32) -> Result<Box<dyn Workload>, String> {
        let coefficients = OwnedBuffer::new(gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("coefficients"),
            contents: &coefficients().map(f32::to_le_bytes).concat(),
            usage: wgpu::BufferUsages::STORAGE,
        }));
        let sums = kernel::storage_buffer(gpu, "sums", size * 4);
        let modules = ShaderModules::new("peak.wgsl", WGSL);
        let reference = KeptReference::default();
        Ok(Box::new(PeakWorkload { count: size as u32, modules, coefficients, sums, reference }))
    }

    /// The same WGSL and chains, with every coefficient 1 (a = 1 keeps every sum exact, whatever the b's),
    /// validated by agreement between workgroup sizes.
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, limits: &ComputeLimits) -> Option<String> {
        let buffers = vec![
            spec::BufferSpec::new(0, "coefficients", "f32", "17").filled(spec::Fill::Constant(1.0)),
            spec::BufferSpec::new(1, "sums", "f32", "n").output(),
        ];
        let spec = spec::Spec {
            sizes: vec![spec::Size::n(self.round_size(size))],
            workgroup_size: as_yours::line_workgroup(),
            tunables: as_yours::line_shapes(limits),
            constants: spec::Ordered::of(&[("COUNT", "n"), ("ITERATIONS", &ITERATIONS.to_string())]),
            grid: Some(as_yours::linear_grid("ceil_div(n, WG)", limits)),
            bytes: Some("4 * n".into()),
            flops: Some(format!("{} * n", 2 * ITERATIONS * lanes(kernel.variant))),
            validation: spec::ValidationSpec { tolerance: Some(0.0), ..Default::default() },
            ..spec::Spec::new(format!("fma_{}", kernel.variant), kernel.entry_point(), buffers)
        };
        Some(as_yours::open(&spec, kernel, "its WGSL and chains.", &[WGSL]))
    }

    fn reference_words(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        kernel::recipe_bytes::<Chains>(recipe, range)
    }
}

struct PeakWorkload {
    count: u32,
    modules: ShaderModules,
    coefficients: OwnedBuffer,
    sums: OwnedBuffer,
    /// The variant checked last, and its sums.
    reference: KeptReference<&'static str>,
}

/// The chains' sums in `variant`.
#[derive(Serialize, Deserialize)]
struct Chains {
    variant: String,
}

impl Recipe for Chains {
    const FAMILY: &'static str = "peak";

    fn words(&self, range: Range<u64>) -> impl Iterator<Item = Expected> {
        range.map(|i| Expected::exact(chain_sum(&self.variant, i as u32)))
    }
}

impl Workload for PeakWorkload {
    fn size(&self) -> u64 {
        self.count as u64
    }

    /// One sum written per invocation; the coefficients stay in cache.
    fn bytes_per_dispatch(&self, _: &Configuration) -> u64 {
        self.count as u64 * 4
    }

    fn flops_per_dispatch(&self, configuration: &Configuration) -> Option<u64> {
        Some(self.count as u64 * lanes(configuration.kernel.variant) as u64 * ITERATIONS as u64 * 2)
    }

    fn prepare(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let Configuration { kernel, checks, workgroup, .. } = configuration;
        let wg = workgroup[0];
        let grid = kernel::linear_grid(gpu, (self.count as u64).div_ceil(wg as u64))?;
        let constants = [("WG", wg as f64), ("COUNT", self.count as f64), ("ITERATIONS", ITERATIONS as f64)];
        let pipeline = self.modules.pipeline(gpu, *checks, &kernel.entry_point(), &constants);
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, &self.coefficients), (1, &self.sums)]);
        Ok(Prepared::single(Step { pipeline, bind_group, grid }, self.sums.handle(), Vec::new()))
    }

    /// Exact: no sum along a chain rounds, and the final sums round alike on both sides. An invocation's
    /// result depends only on i % 1024 (and its variant): one period is computed.
    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let chains = Chains { variant: configuration.kernel.variant.into() };
            let sums = Reference::periodic(gpu, "sums", self.count as u64, 1024, chains);
            Ok(Some(self.reference.get_or_build(configuration.kernel.variant, sums).await))
        })
    }

    /// Exact: no sum along a chain rounds, and the final sums round alike on both sides.
    fn check(&self, configuration: &Configuration, _: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let variant = configuration.kernel.variant;
        // An invocation's result depends only on i % 1024 (and its variant).
        let wants: Vec<f32> = (0..1024).map(|i| chain_sum(variant, i)).collect();
        let mut comparison = Comparison::new("sums");
        for (i, got) in f32s(output).enumerate() {
            comparison.check(i as u64, got as f64, wants[i % 1024] as f64, 0.0);
        }
        comparison.finish()
    }
}
