//! STREAM: the bandwidth ceiling. BabelStream's five kernels over f32 arrays, each in three variants.
//!
//! Inputs `a` and `b` are pseudo-random (`fill::random_f32`), `c` is the output, so every kernel can run
//! any number of times and still be checked against the same reference:
//! copy `c = a`, scale `c = s·a`, add `c = a + b`, triad `c = a + s·b`, dot `Σ a·b` (s = 0.4).

use std::cell::OnceCell;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::fill::{random_f16, random_f32};
use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::sums::{self, SumRecipe};
use crate::kernel::{
    self, CheckFuture, Comparison, Configuration, Expected, Family, KeptReference, KernelId, OwnedBuffer,
    PrepareFuture, Prepared, Presentation, Recipe, Reference, ReferenceFuture, Role, Roles, ShaderModules, Sizing,
    Skip, Step, ValidationError, Workload, as_yours, f32s, family_text,
};
use crate::{host, spec};

/// WGSL has no includes: the grid's index helpers go in front.
const WGSL: &str = concat!(shader!("grid.wgsl"), shader!("workgroup_sum.wgsl"), shader!("stream.wgsl"));
/// The f16 kernels: a module of their own, which compiles only where the device has shader-f16.
const F16_WGSL: &str =
    concat!("enable f16;\n", shader!("grid.wgsl"), shader!("workgroup_sum.wgsl"), shader!("stream_f16.wgsl"));

pub const KERNELS: [&str; 5] = ["copy", "scale", "add", "triad", "dot"];
pub const VARIANTS: [&str; 4] = ["scalar", "vec4", "grid_stride", "vec4_f16"];
/// The workgroups a grid-stride variant launches, whatever the array size (BabelStream's dot uses 1024 blocks).
pub const GRID_WORKGROUPS: u64 = 1024;
/// The scalar of scale and triad, as in the shader.
const SCALAR: f32 = 0.4;
/// Each array's size when the device allows it: 256 MiB, so that one kernel's 2–3 arrays (512–768 MiB)
/// are several times larger than any GPU's last-level cache and the figures are DRAM bandwidth.
const DEFAULT_ARRAY_BYTES: u64 = 256 << 20;
/// Elementwise results may differ from the f64 reference by rounding (and fused multiply-add):
/// relative to the operands' magnitude, as BabelStream's `epsilon * 100`.
const ELEMENT_TOLERANCE: f64 = f32::EPSILON as f64 * 100.0;
/// The f16 kernels' tolerance, relative to the operands' magnitude: two roundings to f16 (triad may round
/// its product and its sum), each at most half of f16's epsilon, with room.
const HALF_TOLERANCE: f64 = half::f16::EPSILON.to_f64_const() * 2.0;

/// STREAM's scalar as f16 (0.4h in stream_f16.wgsl), exactly.
fn half_scalar() -> f64 {
    half::f16::from_f32(SCALAR).to_f64()
}

pub struct Stream;

/// What the page, the summary and `wgsweep describe` say about the family.
pub const PRESENTATION: Presentation = Presentation {
    about: family_text!("stream"),
    contrasts: &[kernel::Contrast {
        kernel: ("triad/vec4", None),
        against: ("triad/scalar", None),
        sentence: "Triad with vec4 loads is {than} with scalar loads",
    }],
    roles: Roles::Kernel("copy", Role::Copy),
    ..Presentation::NONE
};

impl Family for Stream {
    fn name(&self) -> &'static str {
        "stream"
    }

    fn kernels(&self) -> Vec<KernelId> {
        KernelId::every_variant(self.name(), &KERNELS, &VARIANTS)
    }

    fn size_unit(&self) -> &'static str {
        "f32 elements per array"
    }

    fn default_size(&self, limits: &ComputeLimits) -> Sizing {
        let allowed = 1u64 << (limits.max_binding_bytes() / 4).ilog2();
        Sizing::capped(DEFAULT_ARRAY_BYTES / 4, allowed, 4, "arrays are")
    }

    fn round_size(&self, size: u64) -> u64 {
        // vec4 variants need whole vec4s; u32 indices need fewer than 2^32 elements.
        (size.clamp(4, u32::MAX as u64) / 4) * 4
    }

    fn workgroup_storage_bytes(&self, configuration: &Configuration) -> u64 {
        // Every entry point of stream.wgsl declares the dot tree, but only dot uses it.
        if configuration.kernel.kernel == "dot" { 4 * configuration.workgroup[0] as u64 } else { 0 }
    }

    fn setup(&'static self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        let bytes = size * 4;
        kernel::check_binding(gpu, &format!("{bytes} bytes per array"), bytes)?;
        let a = kernel::random_buffer(gpu, "a", bytes, seed);
        let b = kernel::random_buffer(gpu, "b", bytes, seed.wrapping_add(1));
        let c = kernel::storage_buffer(gpu, "c", bytes);
        let modules = ShaderModules::new("stream.wgsl", WGSL);
        let f16_modules = ShaderModules::new("stream_f16.wgsl", F16_WGSL);
        Ok(Box::new(StreamWorkload {
            n: size,
            inputs: Inputs { seed },
            modules,
            f16_modules,
            a,
            b,
            c,
            halves: OnceCell::new(),
            dot_reference: OnceCell::new(),
            half_dot_reference: OnceCell::new(),
            reference: KeptReference::default(),
        }))
    }

    fn reference_words(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        kernel::recipe_bytes::<Elementwise>(recipe, range)
    }

    fn block_sums(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        sums::block_sums_bytes::<2, DotProduct>(recipe, range)
    }

    /// The f32 kernels: the same module, arrays, workgroup sizes, grid and byte count; the elementwise ones
    /// validated against an entry point that computes one element per invocation, dot as `dot_as_yours`.
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, limits: &ComputeLimits) -> Option<String> {
        if kernel.variant == "vec4_f16" {
            return None;
        }
        if kernel.kernel == "dot" {
            return Some(dot_as_yours(kernel, self.round_size(size), limits));
        }
        let vec4 = kernel.variant == "vec4";
        let (element, length, suffix, first) = if vec4 { ("vec4<f32>", "n / 4", "4", 3) } else { ("f32", "n", "", 0) };
        let reads_b = matches!(kernel.kernel, "add" | "triad");
        let mut buffers = vec![spec::BufferSpec::new(first, "a", element, length)];
        if reads_b {
            buffers.push(spec::BufferSpec::new(first + 1, "b", element, length));
        }
        buffers.push(spec::BufferSpec::new(first + 2, "c", element, length).output());
        let groups = format!("ceil_div({length}, WG)");
        let grid = match kernel.variant {
            "grid_stride" => vec![format!("min({groups}, {GRID_WORKGROUPS})")],
            _ => as_yours::linear_grid(&groups, limits),
        };
        let value = match kernel.kernel {
            "copy" => format!("a{suffix}[i]"),
            "scale" => format!("SCALAR * a{suffix}[i]"),
            "add" => format!("a{suffix}[i] + b{suffix}[i]"),
            _ => format!("a{suffix}[i] + SCALAR * b{suffix}[i]"),
        };
        let spec = spec::Spec {
            sizes: vec![spec::Size::n(self.round_size(size))],
            tunables: as_yours::line_shapes(limits),
            workgroup_size: as_yours::line_workgroup(),
            grid: Some(grid),
            bytes: Some(format!("{} * n", if reads_b { 12 } else { 8 })),
            flops: match kernel.kernel {
                "scale" | "add" => Some("n".into()),
                "triad" => Some("2 * n".into()),
                _ => None,
            },
            validation: spec::ValidationSpec {
                reference: Some("reference".into()),
                tolerance: Some(1e-6),
                grid: Some(as_yours::linear_grid(&format!("ceil_div({length}, 64)"), limits)),
            },
            ..spec::Spec::new(format!("{}_{}", kernel.kernel, kernel.variant), kernel.entry_point(), buffers)
        };
        let what = "the family's WGSL (with the grid's helpers and the dot product's\n\
                    // tree in front), its arrays, workgroup sizes, grid and byte count, and `reference` below, one\n\
                    // element per invocation, that validation trusts.";
        let reference = format!(
            "@compute @workgroup_size(64)\n\
             fn reference(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,\n\
             \x20            @builtin(local_invocation_index) lid: u32) {{\n\
             \x20   let i = (wid.x + wid.y * nwg.x) * 64u + lid;\n\
             \x20   if i < arrayLength(&c{suffix}) {{ c{suffix}[i] = {value}; }}\n\
             }}\n"
        );
        Some(as_yours::open(&spec, kernel, what, &[WGSL, "\n", &reference]))
    }
}

/// dot as your kernel: its partial sums added up, where the family adds them on the CPU, by dot_scalar
/// itself in passes of 256, the partial sums times a buffer of ones; validated by agreement between
/// workgroup sizes within what f32 rounding may grow to at the deepest order of addition (terms in [0, 1),
/// so that the sum is Σ|a·b|).
fn dot_as_yours(kernel: &KernelId, n: u64, limits: &ComputeLimits) -> String {
    let (variant, terms) = (kernel.variant, if kernel.variant == "vec4" { 4 } else { 1 });
    let (element, first) = if terms == 4 { ("vec4<f32>", 3) } else { ("f32", 0) };
    let length = if terms == 4 { "n / 4" } else { "n" };
    let random = spec::Fill::Random([0.0, 1.0]);
    let buffers = vec![
        spec::BufferSpec::new(first, "a", element, length).filled(random.clone()),
        spec::BufferSpec::new(first + 1, "b", element, length).filled(random),
    ];
    let (groups, most) = match variant {
        "grid_stride" => (format!("min(ceil_div(n, WG), {GRID_WORKGROUPS})"), n.min(GRID_WORKGROUPS)),
        _ => (format!("ceil_div({length}, WG)"), n / terms),
    };
    let deepest = (n / terms).div_ceil(most) * terms; // terms an invocation adds at a workgroup of 1
    let mut spec = spec::Spec {
        sizes: vec![spec::Size::n(n)],
        tunables: as_yours::line_shapes(limits),
        workgroup_size: as_yours::line_workgroup(),
        bytes: Some("8 * n".into()),
        flops: Some("2 * n".into()),
        workgroup_memory: Some("4 * WG".into()),
        validation: spec::ValidationSpec {
            tolerance: Some(as_yours::f32_sums_tolerance(deepest, n)),
            ..Default::default()
        },
        ..spec::Spec::new(format!("dot_{variant}"), kernel.entry_point(), buffers)
    };
    let (grid, most) = as_yours::grid_of(&groups, most, limits);
    let count = as_yours::launched(&grid);
    spec.passes.push(spec::PassSpec::new(kernel.entry_point(), grid));
    let pass = |from: &str, to: &str, grid: Vec<String>| {
        let mut pass = spec::PassSpec::new("dot_scalar".into(), grid);
        pass.constants = spec::Ordered::of(&[("WG", "256")]);
        pass.bind = spec::Ordered::of(&[("a", from), ("b", "ones"), ("partial_sums", to)]);
        pass
    };
    let adding = as_yours::Adding { workgroup: 256, element: "f32", in_vec4s: false, pass: &pass };
    // As many ones as the most partial sums a later pass multiplies by them.
    let ones =
        spec::BufferSpec::new(0, "ones", "f32", count.clone()).filled(spec::Fill::Constant(spec::Number::Literal(1.0)));
    spec.buffers.push(spec::BufferSpec { binding: None, ..ones });
    spec.buffers.push(adding.buffer(6, "partials", &count));
    adding.passes(&mut spec, limits, count, most);
    let what = "its WGSL, arrays, workgroup sizes and first pass; its partial sums added\n\
                // up on the GPU by the same entry point, times ones.";
    as_yours::open(&spec, kernel, what, &[WGSL])
}

struct StreamWorkload {
    n: u64,
    inputs: Inputs,
    modules: ShaderModules,
    f16_modules: ShaderModules,
    a: OwnedBuffer,
    b: OwnedBuffer,
    c: OwnedBuffer,
    /// The f16 arrays, made when an f16 kernel first runs.
    halves: OnceCell<HalfArrays>,
    /// Σ a·b and Σ |a·b| in f64 of the f32 and of the f16 arrays, computed on first use.
    dot_reference: OnceCell<(f64, f64)>,
    half_dot_reference: OnceCell<(f64, f64)>,
    /// The elementwise kernel (and whether in f16) checked last, and its c.
    reference: KeptReference<(&'static str, bool)>,
}

/// a, b and c as f16.
struct HalfArrays {
    a: OwnedBuffer,
    b: OwnedBuffer,
    c: OwnedBuffer,
}

/// What the host knows of the inputs: a[i] and b[i], as the GPU filled them. Plain numbers, which the
/// threads building a reference share.
#[derive(Clone, Copy, Serialize, Deserialize)]
struct Inputs {
    seed: u32,
}

impl Inputs {
    fn a(self, i: u64) -> f32 {
        random_f32(i as u32, self.seed)
    }

    fn b(self, i: u64) -> f32 {
        random_f32(i as u32, self.seed.wrapping_add(1))
    }

    /// a[i] and b[i] of the f16 arrays, exactly.
    fn a_half(self, i: u64) -> f32 {
        random_f16(i as u32, self.seed)
    }

    fn b_half(self, i: u64) -> f32 {
        random_f16(i as u32, self.seed.wrapping_add(1))
    }
}

/// What an elementwise kernel leaves in c: f32 elements, or (`half`) words of two f16 elements.
#[derive(Serialize, Deserialize)]
struct Elementwise {
    inputs: Inputs,
    kernel: String,
    #[serde(default)]
    half: bool,
}

impl Recipe for Elementwise {
    const FAMILY: &'static str = "stream";

    fn words(&self, range: Range<u64>) -> impl Iterator<Item = Expected> {
        let (inputs, half) = (self.inputs, self.half);
        let expected = StreamWorkload::expected(&self.kernel);
        let expected_half = StreamWorkload::expected_half(&self.kernel);
        range.map(move |i| {
            if half {
                let [(low, low_magnitude), (high, high_magnitude)] =
                    [2 * i, 2 * i + 1].map(|e| expected_half(inputs.a_half(e) as f64, inputs.b_half(e) as f64));
                let tolerance = HALF_TOLERANCE * low_magnitude.max(high_magnitude);
                return Expected::halves([low as f32, high as f32], tolerance as f32);
            }
            let (value, magnitude) = expected(inputs.a(i), inputs.b(i));
            Expected::Float { value: value as f32, tolerance: (ELEMENT_TOLERANCE * magnitude) as f32 }
        })
    }
}

/// Σ a·b and Σ |a·b| in f64 of the f32 or (`half`) the f16 arrays: what dot's partial sums add up to.
#[derive(Serialize, Deserialize)]
struct DotProduct {
    inputs: Inputs,
    half: bool,
}

impl SumRecipe<2> for DotProduct {
    const FAMILY: &'static str = "stream";

    fn block(&self, range: Range<u64>) -> [f64; 2] {
        let (inputs, half) = (self.inputs, self.half);
        let product = |i| match half {
            true => inputs.a_half(i) as f64 * inputs.b_half(i) as f64,
            false => inputs.a(i) as f64 * inputs.b(i) as f64,
        };
        range.map(product).fold([0.0, 0.0], |[sum, abs], p| [sum + p, abs + p.abs()])
    }
}

impl StreamWorkload {
    /// Elements one invocation handles in the scalar and vec4 variants.
    fn items(&self, variant: &str) -> u64 {
        if variant.starts_with("vec4") { self.n / 4 } else { self.n }
    }

    /// The f16 kernels' reference, exact in f64 from the f16 inputs: (value, magnitude of the operands the
    /// tolerance is relative to; 0 for copy, which must keep the very bits).
    fn expected_half(kernel: &str) -> fn(f64, f64) -> (f64, f64) {
        match kernel {
            "copy" => |a, _| (a, 0.0),
            "scale" => |a, _| (half_scalar() * a, (half_scalar() * a).abs()),
            "add" => |a, b| (a + b, a.abs() + b.abs()),
            _ => |a, b| (a + half_scalar() * b, a.abs() + (half_scalar() * b).abs()),
        }
    }

    /// The f16 arrays, made on first use.
    fn halves(&self, gpu: &Gpu) -> &HalfArrays {
        self.halves.get_or_init(|| {
            let seed = self.inputs.seed;
            HalfArrays {
                a: kernel::random_f16_buffer(gpu, "a (f16)", self.n * 2, seed),
                b: kernel::random_f16_buffer(gpu, "b (f16)", self.n * 2, seed.wrapping_add(1)),
                c: kernel::storage_buffer(gpu, "c (f16)", self.n * 2),
            }
        })
    }

    /// The elementwise kernels' reference: (value, magnitude of the operands the tolerance is relative to).
    fn expected(kernel: &str) -> fn(f32, f32) -> (f64, f64) {
        match kernel {
            "copy" => |a, _| (a as f64, 0.0),
            "scale" => |a, _| ((SCALAR * a) as f64, (SCALAR * a).abs() as f64),
            "add" => |a, b| (a as f64 + b as f64, (a.abs() + b.abs()) as f64),
            _ => |a, b| (a as f64 + SCALAR as f64 * b as f64, (a.abs() + (SCALAR * b).abs()) as f64),
        }
    }

    /// Whether the partial sums' total `got` is the dot product, within what f32 rounding allows.
    fn check_dot(
        &self,
        kernel: &KernelId,
        workgroup: u32,
        prepared: &Prepared,
        got: f64,
    ) -> Result<(), ValidationError> {
        let reference = if kernel.variant == "vec4_f16" { &self.half_dot_reference } else { &self.dot_reference };
        let (want, magnitude) = *reference.get().expect("`reference` computed the dot product");
        // Each invocation adds its terms in order, then the tree adds log2(WG) levels: f32 rounding grows
        // with that depth, relative to Σ|a·b| (the host adds the partial sums in f64).
        let [groups_x, groups_y, _] = prepared.grid;
        let invocations = groups_x as u64 * groups_y as u64 * workgroup as u64;
        let terms_per_invocation = match kernel.variant {
            "vec4" | "vec4_f16" => 4,
            _ => self.n.div_ceil(invocations),
        };
        let depth = terms_per_invocation as f64 + (workgroup as f64).log2() + 2.0;
        let tolerance = 2.0 * f32::EPSILON as f64 * depth * magnitude;
        let mut comparison = Comparison::new("dot");
        comparison.check(0, got, want, tolerance);
        comparison.finish()
    }

    /// `prepare`, at once: its pipelines compile quickly, and are made synchronously.
    fn prepare_now(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let Configuration { kernel, checks, workgroup, .. } = configuration;
        let half = kernel.variant == "vec4_f16";
        if half && !gpu.shader_f16 {
            return Err(Skip::needs_f16());
        }
        let wg = workgroup[0] as u64;
        let covering = self.items(kernel.variant).div_ceil(wg);
        let groups = if kernel.variant == "grid_stride" { covering.min(GRID_WORKGROUPS) } else { covering };
        let grid = kernel::linear_grid(gpu, groups)?;
        let modules = if half { &self.f16_modules } else { &self.modules };
        let pipeline = modules.pipeline(gpu, *checks, &kernel.entry_point(), &[("WG", wg as f64)]);
        let partial_sums = (kernel.kernel == "dot")
            .then(|| kernel::storage_buffer(gpu, "partial sums", grid[0] as u64 * grid[1] as u64 * 4));
        let [a, b, c] = match half {
            true => {
                let halves = self.halves(gpu);
                [&halves.a, &halves.b, &halves.c]
            }
            false => [&self.a, &self.b, &self.c],
        };
        // a, b and c at 0, 1 and 2 (stream_f16.wgsl too), or as vec4s at 3, 4 and 5; partial sums at 6.
        let first = if kernel.variant == "vec4" { 3 } else { 0 };
        let output = partial_sums.as_ref().unwrap_or(c).handle();
        let bindings: Vec<(u32, &wgpu::Buffer)> = match kernel.kernel {
            "copy" | "scale" => vec![(first, a), (first + 2, &output)],
            "add" | "triad" => vec![(first, a), (first + 1, b), (first + 2, &output)],
            _ => vec![(first, a), (first + 1, b), (6, &output)],
        };
        let bind_group = kernel::bind_group(gpu, &pipeline, &bindings);
        Ok(Prepared::single(Step::new(pipeline, bind_group, grid), output, partial_sums.into_iter().collect()))
    }
}

impl Workload for StreamWorkload {
    fn size(&self) -> u64 {
        self.n
    }

    /// BabelStream's counts: copy and scale move 2 arrays, add and triad 3, dot reads 2.
    fn bytes_per_dispatch(&self, configuration: &Configuration) -> u64 {
        let arrays = match configuration.kernel.kernel {
            "add" | "triad" => 3,
            _ => 2,
        };
        let element_bytes = if configuration.kernel.variant == "vec4_f16" { 2 } else { 4 };
        arrays * self.n * element_bytes
    }

    /// scale and add: one flop per element; triad and dot: two (a multiply and an add).
    fn flops_per_dispatch(&self, configuration: &Configuration) -> Option<u64> {
        match configuration.kernel.kernel {
            "scale" | "add" => Some(self.n),
            "triad" | "dot" => Some(2 * self.n),
            _ => None,
        }
    }

    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a> {
        Box::pin(std::future::ready(self.prepare_now(gpu, configuration)))
    }

    /// The elementwise kernels' c, computed once per kernel and input; for dot, Σ a·b, which the CPU
    /// compares with the sum of the partial sums.
    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let kernel = configuration.kernel.kernel;
            let half = configuration.kernel.variant == "vec4_f16";
            if kernel == "dot" {
                let reference = if half { &self.half_dot_reference } else { &self.dot_reference };
                let dot = DotProduct { inputs: self.inputs, half };
                host::once(reference, async { sums::sum(&dot, self.n).await.into() }).await;
                return Ok(None);
            }
            let recipe = Elementwise { inputs: self.inputs, kernel: kernel.into(), half };
            // Two f16 elements a word.
            let words = if half { self.n / 2 } else { self.n };
            let c = Reference::build(gpu, "c", words, recipe);
            Ok(Some(self.reference.get_or_build((kernel, half), c).await))
        })
    }

    fn check(&self, configuration: &Configuration, prepared: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let Configuration { kernel, workgroup, .. } = configuration;
        if kernel.kernel == "dot" {
            return self.check_dot(kernel, workgroup[0], prepared, total(output.as_chunks::<4>().0));
        }
        let mut comparison = Comparison::new("c");
        if kernel.variant == "vec4_f16" {
            let recipe = Elementwise { inputs: self.inputs, kernel: kernel.kernel.into(), half: true };
            for ((index, found), want) in kernel::u32s(output).enumerate().zip(recipe.words(0..self.n / 2)) {
                comparison.check_word(index as u64, found, want);
            }
            return comparison.finish();
        }
        let expected = Self::expected(kernel.kernel);
        for (i, got) in f32s(output).enumerate() {
            let i = i as u64;
            let (want, magnitude) = expected(self.inputs.a(i), self.inputs.b(i));
            comparison.check(i, got as f64, want, ELEMENT_TOLERANCE * magnitude);
        }
        comparison.finish()
    }

    fn check_in_turns<'a>(
        &'a self,
        configuration: &'a Configuration,
        prepared: &'a Prepared,
        output: &'a [u8],
    ) -> Option<CheckFuture<'a>> {
        let Configuration { kernel, workgroup, .. } = configuration;
        (kernel.kernel == "dot").then(|| -> CheckFuture<'a> {
            Box::pin(async move {
                // At a workgroup of 1 there are as many partial sums as elements: 2^26, added at once, took
                // one 103 ms task in Chromium on an H200.
                let mut got = 0.0;
                for block in output.as_chunks::<4>().0.chunks(1 << 16) {
                    got += total(block);
                    host::pause_if_due().await;
                }
                self.check_dot(kernel, workgroup[0], prepared, got)
            })
        })
    }
}

/// The sum, in f64, of f32 words.
fn total(words: &[[u8; 4]]) -> f64 {
    let value = |word: &[u8; 4]| f32::from_le_bytes(*word) as f64;
    // Eight running sums: with one, every add waits for the last.
    let mut sums = [0.0f64; 8];
    let (groups, rest) = words.as_chunks::<8>();
    for group in groups {
        for (sum, word) in sums.iter_mut().zip(group) {
            *sum += value(word);
        }
    }
    sums.iter().sum::<f64>() + rest.iter().map(value).sum::<f64>()
}
