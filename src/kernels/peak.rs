//! Compute peaks: independent chains of one kind of operation each, for the run's ceilings: f32 FMAs (the
//! roofline's roof), f16 FMAs, i32 multiply-adds and packed 8-bit dot products.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{
    self, Comparison, Configuration, Expected, Family, KeptReference, KernelId, Operations, OwnedBuffer, PrepareFuture,
    Prepared, Presentation, Recipe, Reference, ReferenceFuture, Role, Roles, ShaderModules, Sizing, Skip, Step,
    ValidationError, Workload, as_yours, family_text,
};
use crate::spec;

/// WGSL has no includes: the grid's index helpers go in front.
const WGSL: &str = concat!(shader!("grid.wgsl"), shader!("peak.wgsl"));
/// The f16 chains: a module of their own, which compiles only where the device offers shader-f16.
const F16_WGSL: &str = concat!("enable f16;\n", shader!("grid.wgsl"), shader!("peak_f16.wgsl"));
/// The packed dot products: a module of their own, which compiles only where WGSL has them.
const DOT4_WGSL: &str = concat!(shader!("grid.wgsl"), shader!("peak_dot4.wgsl"));

/// (kernel, variant): the WGSL entry point is `kernel_variant`.
const KERNELS: [(&str, &str); 9] = [
    ("fma", "f32"),
    ("fma", "vec4"),
    ("hfma", "f16"),
    ("hfma", "vec2"),
    ("hfma", "vec4"),
    ("imad", "i32"),
    ("imad", "vec4"),
    ("dot4", "i8"),
    ("dot4", "u8"),
];
/// Steps each chain runs.
const ITERATIONS: u32 = 1024;
/// Invocations by default: enough to fill any GPU many times over, a fraction of a millisecond of work.
const DEFAULT_INVOCATIONS: u64 = 1 << 20;
/// The integer chains' multiplier, and their first increment (the next chains' are 2, 4, ... more):
/// a linear congruential generator's (Numerical Recipes').
const MULTIPLIER: i32 = 1_664_525;
const INCREMENT: i32 = 1_013_904_223;

pub struct Peak;

/// The lanes of chains an invocation runs: 8 scalars, 4 vec4s (16 lanes), or 8 vec2s (16 lanes).
fn lanes(variant: &str) -> u32 {
    if matches!(variant, "vec4" | "vec2") { 16 } else { 8 }
}

/// Operations one step of one lane counts: a multiply-add counts two; a packed dot product 4 multiplies
/// and 4 adds.
fn operations_per_step(kernel: &str) -> u64 {
    if kernel == "dot4" { 8 } else { 2 }
}

/// Operations one invocation of `kernel` counts: its lanes' steps.
fn operations_per_invocation(kernel: &KernelId) -> u64 {
    lanes(kernel.variant) as u64 * ITERATIONS as u64 * operations_per_step(kernel.kernel)
}

/// The bindings of a kernel's coefficients and of its sums: the integer chains' in peak.wgsl sit beside
/// the f32 chains'.
fn bindings(kernel: &str) -> (u32, u32) {
    if matches!(kernel, "imad" | "dot4") { (2, 3) } else { (0, 1) }
}

/// `start` in peak.wgsl.
fn start(i: u32, c: u32) -> f32 {
    (i & 1023) as f32 * (1.0 / 1024.0) + c as f32
}

/// a, then the b of each chain: multiples of 2^-12, so no sum along a chain ever rounds.
fn coefficients() -> [f32; 17] {
    std::array::from_fn(|k| if k == 0 { 1.0 } else { k as f32 / 4096.0 })
}

/// The f16 chains' a and b's (peak_f16.wgsl says why these keep every step exact).
fn half_coefficients() -> [f32; 17] {
    std::array::from_fn(|k| match k {
        0 => 1.0,
        k if k % 2 == 1 => 1.0 / 256.0, // lanes 0, 2, ...
        _ => 1.0 / 128.0,
    })
}

/// The integer chains' multiplier, then each chain's increment (the dot products' packed b's).
fn integers() -> [i32; 17] {
    std::array::from_fn(|k| if k == 0 { MULTIPLIER } else { INCREMENT + 2 * (k as i32 - 1) })
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

/// What invocation `i` of an f16 chain kernel writes: every step and sum is exact (in f16 and f32), so the
/// order the shader adds in does not matter.
pub fn half_chain_sum(variant: &str, i: u32) -> f32 {
    let b = half_coefficients();
    let start = |l: u32| (i & 7) as f32 * 0.125 + l as f32 * 0.125;
    (0..lanes(variant)).map(|l| (0..ITERATIONS).fold(start(l), |x, _| x + b[1 + l as usize])).sum()
}

/// What invocation `i` of an i32 multiply-add kernel writes: its chains' last values, wrapped, summed.
pub fn integer_chain_sum(variant: &str, i: u32) -> i32 {
    let k = integers();
    let last = |c: u32| {
        let first = ((i & 1023) * 16 + c) as i32;
        (0..ITERATIONS).fold(first, |x, _| x.wrapping_mul(k[0]).wrapping_add(k[1 + c as usize]))
    };
    (0..lanes(variant)).map(last).fold(0, i32::wrapping_add)
}

/// WGSL's dot4I8Packed (signed) or dot4U8Packed: the four byte pairs' products, added, as the bits of an
/// i32 or a u32 (no sum of four byte products overflows either).
pub fn dot4(a: u32, b: u32, signed: bool) -> u32 {
    let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
    let product = |k: usize| match signed {
        true => a[k] as i8 as i32 * b[k] as i8 as i32,
        false => a[k] as i32 * b[k] as i32,
    };
    (0..4).map(product).sum::<i32>() as u32
}

/// What invocation `i` of a packed dot product kernel writes: each chain steps x = dot4(x, b) + x.
pub fn dot_chain_sum(variant: &str, i: u32) -> u32 {
    let k = integers();
    let last = |c: u32| {
        let b = k[1 + c as usize] as u32;
        (0..ITERATIONS).fold((i & 1023) * 16 + c, |x, _| dot4(x, b, variant == "i8").wrapping_add(x))
    };
    (0..8).map(last).fold(0, u32::wrapping_add)
}

/// What word `i` of `kernel/variant`'s output must hold.
fn expected(kernel: &str, variant: &str, i: u32) -> Expected {
    match kernel {
        "hfma" => Expected::exact(half_chain_sum(variant, i)),
        "imad" => Expected::Word(integer_chain_sum(variant, i) as u32),
        "dot4" => Expected::Word(dot_chain_sum(variant, i)),
        _ => Expected::exact(chain_sum(variant, i)),
    }
}

/// What the page, the summary and `wgsweep describe` say about the family.
pub const PRESENTATION: Presentation = Presentation {
    about: family_text!("peak"),
    contrasts: &[
        kernel::Contrast {
            kernel: ("fma/vec4", None),
            against: ("fma/f32", None),
            sentence: "FMA chains on vec4 are {than} on scalars",
        },
        kernel::Contrast {
            kernel: ("hfma/vec2", None),
            against: ("fma/f32", None),
            sentence: "f16 FMA chains in pairs (vec2) are {than} f32 ones",
        },
    ],
    roles: Roles::Every(Role::ComputePeak),
    ..Presentation::NONE
};

impl Family for Peak {
    fn name(&self) -> &'static str {
        "peak"
    }

    fn kernels(&self) -> Vec<KernelId> {
        KERNELS.iter().map(|&(kernel, variant)| KernelId { family: "peak", kernel, variant }).collect()
    }

    fn operations(&self, kernel: &str) -> Operations {
        match kernel {
            "hfma" => Operations::HalfFlops,
            "imad" => Operations::IntegerOps,
            "dot4" => Operations::Int8Ops,
            _ => Operations::Flops,
        }
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

    fn setup(&'static self, gpu: &Gpu, size: u64, _seed: u32) -> Result<Box<dyn Workload>, String> {
        let words = |label, contents: &[u8]| {
            OwnedBuffer::new(kernel::buffer_holding(gpu, label, wgpu::BufferUsages::STORAGE, contents))
        };
        Ok(Box::new(PeakWorkload {
            count: size as u32,
            modules: ShaderModules::new("peak.wgsl", WGSL),
            f16_modules: ShaderModules::new("peak_f16.wgsl", F16_WGSL),
            dot4_modules: ShaderModules::new("peak_dot4.wgsl", DOT4_WGSL),
            coefficients: words("coefficients", &coefficients().map(f32::to_le_bytes).concat()),
            half_coefficients: words("half coefficients", &half_coefficients().map(f32::to_le_bytes).concat()),
            integers: words("integers", &integers().map(i32::to_le_bytes).concat()),
            sums: kernel::storage_buffer(gpu, "sums", size * 4),
            reference: KeptReference::default(),
        }))
    }

    /// The same WGSL and chains, with every coefficient 1, validated by agreement between workgroup sizes
    /// (every chain steps alike at every size).
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, limits: &ComputeLimits) -> Option<String> {
        // The module, and the element type of the coefficients and the sums.
        let (wgsl, element) = match kernel.kernel {
            "fma" => (WGSL, "f32"),
            "hfma" => (F16_WGSL, "f32"),
            "imad" => (WGSL, "i32"),
            _ => (DOT4_WGSL, "u32"),
        };
        let (inputs, outputs) = bindings(kernel.kernel);
        let buffers = vec![
            spec::BufferSpec::new(inputs, "coefficients", element, "17")
                .filled(spec::Fill::Constant(spec::Number::Literal(1.0))),
            spec::BufferSpec::new(outputs, "sums", element, "n").output(),
        ];
        let spec = spec::Spec {
            sizes: vec![spec::Size::n(self.round_size(size))],
            workgroup_size: as_yours::line_workgroup(),
            tunables: as_yours::line_shapes(limits),
            constants: spec::Ordered::of(&[("COUNT", "n"), ("ITERATIONS", &ITERATIONS.to_string())]),
            grid: Some(as_yours::linear_grid("ceil_div(n, WG)", limits)),
            bytes: Some("4 * n".into()),
            flops: Some(format!("{} * n", operations_per_invocation(kernel))),
            validation: spec::ValidationSpec { tolerance: Some(0.0), ..Default::default() },
            ..spec::Spec::new(kernel.label().replace('/', "_"), kernel.entry_point(), buffers)
        };
        Some(as_yours::open(&spec, kernel, "its WGSL and chains.", &[wgsl]))
    }

    fn reference_words(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        kernel::recipe_bytes::<Chains>(recipe, range)
    }
}

struct PeakWorkload {
    count: u32,
    modules: ShaderModules,
    f16_modules: ShaderModules,
    dot4_modules: ShaderModules,
    coefficients: OwnedBuffer,
    half_coefficients: OwnedBuffer,
    integers: OwnedBuffer,
    /// Every kernel's output: a word per invocation.
    sums: OwnedBuffer,
    /// The kernel checked last, and its sums.
    reference: KeptReference<(&'static str, &'static str)>,
}

/// The chains' sums of `kernel/variant`.
#[derive(Serialize, Deserialize)]
struct Chains {
    kernel: String,
    variant: String,
}

impl Recipe for Chains {
    const FAMILY: &'static str = "peak";

    fn words(&self, range: Range<u64>) -> impl Iterator<Item = Expected> {
        range.map(|i| expected(&self.kernel, &self.variant, i as u32))
    }
}

impl PeakWorkload {
    /// `prepare`, at once: its pipelines compile quickly, and are made synchronously.
    fn prepare_now(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let Configuration { kernel, checks, workgroup, .. } = configuration;
        let (modules, inputs) = match kernel.kernel {
            "hfma" if !gpu.shader_f16 => return Err(Skip::needs_f16()),
            "dot4" if !gpu.packed_dot => {
                return Err(Skip::NotApplicable(
                    "needs WGSL's packed 4×8-bit integer dot products (packed_4x8_integer_dot_product), which \
                     this browser does not offer"
                        .into(),
                ));
            }
            "hfma" => (&self.f16_modules, &self.half_coefficients),
            "imad" => (&self.modules, &self.integers),
            "dot4" => (&self.dot4_modules, &self.integers),
            _ => (&self.modules, &self.coefficients),
        };
        let (input_binding, output_binding) = bindings(kernel.kernel);
        let wg = workgroup[0];
        let grid = kernel::linear_grid(gpu, (self.count as u64).div_ceil(wg as u64))?;
        let constants = [("WG", wg as f64), ("COUNT", self.count as f64), ("ITERATIONS", ITERATIONS as f64)];
        let pipeline = modules.pipeline(gpu, *checks, &kernel.entry_point(), &constants);
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(input_binding, inputs), (output_binding, &self.sums)]);
        Ok(Prepared::single(Step::new(pipeline, bind_group, grid), self.sums.handle(), Vec::new()))
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
        Some(self.count as u64 * operations_per_invocation(&configuration.kernel))
    }

    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a> {
        Box::pin(std::future::ready(self.prepare_now(gpu, configuration)))
    }

    /// Exact: no step of a float chain rounds, and the final sums round alike on both sides; integers wrap
    /// alike. An invocation's result depends only on i % 1024 (and its kernel): one period is computed.
    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let KernelId { kernel, variant, .. } = configuration.kernel;
            let chains = Chains { kernel: kernel.into(), variant: variant.into() };
            let sums = Reference::periodic(gpu, "sums", self.count as u64, 1024, chains);
            Ok(Some(self.reference.get_or_build((kernel, variant), sums).await))
        })
    }

    /// Exact, as the reference.
    fn check(&self, configuration: &Configuration, _: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let KernelId { kernel, variant, .. } = configuration.kernel;
        let wants: Vec<Expected> = (0..1024).map(|i| expected(kernel, variant, i)).collect();
        let mut comparison = Comparison::new("sums");
        for (i, word) in kernel::u32s(output).enumerate() {
            comparison.check_word(i as u64, word, wants[i % 1024]);
        }
        comparison.finish()
    }
}
