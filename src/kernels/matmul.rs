//! Matrix multiply, f32: naive, workgroup-memory tiles of 8, 16 and 32, register blocks of 4 × 4 and 8 × 8
//! outputs per invocation, and 8 × 8 blocks of a 128 × 128 tile with the next tiles loaded while this one's
//! FMAs run (pipelined), over square matrices of 256 … 4096 (GFLOP/s).

use std::cell::OnceCell;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::fill::{hash_u32, random_f16, random_f32};
use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{
    self, Comparison, Configuration, Expected, Family, KeptReference, KernelId, OwnedBuffer, Parameter, Prepared,
    Recipe, Reference, ReferenceFuture, ShaderModules, Sizing, Skip, Step, ValidationError, Workload, as_yours, f32s,
};
use crate::spec;

const WGSL: &str = include_str!("../../shaders/matmul.wgsl");
/// matmul_pipelined reads A and B as `Input`s, which the host declares: vec4<f32>, or vec4<f16> in a module
/// of its own that compiles only where the device has shader-f16.
const PIPELINED_WGSL: &str = concat!("alias Input = vec4<f32>;\n", include_str!("../../shaders/matmul_pipelined.wgsl"));
const PIPELINED_F16_WGSL: &str =
    concat!("enable f16;\nalias Input = vec4<f16>;\n", include_str!("../../shaders/matmul_pipelined.wgsl"));

/// matmul_pipelined's product as a user's kernel validates it: four columns of C an invocation, k in order.
const PIPELINED_REFERENCE: &str = "
@compute @workgroup_size(16, 16)
fn reference(@builtin(global_invocation_id) id: vec3<u32>) {
    let row = id.y;
    let col = id.x * 4u;
    if row >= N || col >= N { return; }
    var sum = vec4(0.0);
    for (var k = 0u; k < N; k++) {
        let x = scalar(true, row, k);
        sum += x * vec4(scalar(false, k, col), scalar(false, k, col + 1u), scalar(false, k, col + 2u),
                        scalar(false, k, col + 3u));
    }
    c[(row * N + col) / 4u] = sum;
}
";
/// (kernel, variant): the naive kernel's entry point is `matmul_naive_f32`; the tiled and blocked ones take
/// their tile or block edge from the variant.
pub const KERNELS: [(&str, &str); 9] = [
    ("matmul_naive", "f32"),
    ("matmul_tiled", "8"),
    ("matmul_tiled", "16"),
    ("matmul_tiled", "32"),
    ("matmul_blocked", "4x4"),
    ("matmul_blocked", "8x8"),
    ("matmul_pipelined", "k8"),
    ("matmul_pipelined", "k16"),
    ("matmul_pipelined", "k8_f16"),
];
/// Matrix edges swept; those whose matrices are larger than the problem size are skipped.
pub fn edges() -> Vec<u32> {
    vec![256, 512, 1024, 2048, 4096]
}
/// Elements of K each step of `matmul_blocked` stages (BK in matmul.wgsl).
const BLOCKED_K: u64 = 8;
/// `matmul_pipelined`'s workgroup and the tile of C it computes.
const PIPELINED_WORKGROUP: [u32; 3] = [16, 16, 1];
const PIPELINED_TILE: u32 = 128;
/// The largest matrix swept, 4096 × 4096 (64 MiB).
const DEFAULT_ELEMENTS: u64 = 4096 * 4096;
/// Multiply-adds the CPU reference may spend per matrix edge: every element of small products, a sample
/// of large ones (16 Ki elements of a 4096² product, every 128 × 128 tile hit about 16 times).
const REFERENCE_BUDGET: u64 = 1 << 26;

pub struct Matmul;

/// The tile edge of `matmul_tiled/T`, the block edge of `matmul_blocked/BxB`, or the elements of K a step of
/// `matmul_pipelined/kBK` (and `kBK_f16`) stages.
fn edge(variant: &str) -> u32 {
    variant.trim_start_matches('k').split(['x', '_']).next().and_then(|e| e.parse().ok()).unwrap_or(1)
}

/// A and B are f16 (`matmul_pipelined/k8_f16`); products and sums stay f32.
fn f16_inputs(variant: &str) -> bool {
    variant.ends_with("_f16")
}

impl Family for Matmul {
    fn name(&self) -> &'static str {
        "matmul"
    }

    fn about(&self) -> &'static str {
        "Matrix multiply C = A·B of square f32 matrices, n = 256 … 4096; GFLOP/s counts 2n³ flops. matmul_naive \
         has each invocation read a whole row of A and column of B from memory: the caches catch most of \
         it, but every FMA still needs two loads. matmul_tiled/T stages T × T tiles of A and B in workgroup memory \
         (workgroups of T × T): each element loaded from memory then serves T FMAs, but every FMA still \
         reads two words of workgroup memory. matmul_blocked/BxB gives each invocation a B × B block of C in \
         registers: per step of k it reads B values of A and B of B (as vec4s) and does B² FMAs, so \
         workgroup memory stops being the limit; expect it far ahead of the others at large n, and small \
         matrices to leave the GPU idle. matmul_pipelined/kBK is what a vendor's SGEMM does: 16 × 16 \
         invocations compute a 128 × 128 tile of C, each an 8 × 8 block in 16 vec4 registers laid out so that \
         no two read the same workgroup-memory bank; while this step's FMAs run, the next step's tiles are \
         loaded from memory as vec4s into a second buffer (one barrier a step of BK = 8 or 16 elements of k; \
         16 needs 32 KiB of workgroup memory); where n is a multiple of 128 the code for the matrices' edges \
         is left out of the pipeline, and with it the registers it held. Advice for any wgpu code: the guard \
         wgpu adds to every loop (its default shader checks) can stop the compiler unrolling it, and an \
         array indexed by a loop's counter then leaves registers; write hot inner loops out (or generate \
         them) and index such arrays by constants only, as matmul_pipelined does. On an H100 that took a \
         register-blocked product from 15× slower with the checks than without to 12–16% slower. \
         matmul_pipelined/k8_f16 reads A and B as f16 (where the device offers shader-f16), half the bytes, \
         and multiplies and sums in f32 as the others do. Results are checked against a CPU reference: every element of small \
         products, 2^26 / n elements spread over large ones, each within the rounding a dot product of n \
         terms allows. The roofline places each n at n/6 flops per byte (A and B read, C written once)."
    }

    fn kernels(&self) -> Vec<KernelId> {
        KERNELS.iter().map(|&(kernel, variant)| KernelId { family: "matmul", kernel, variant }).collect()
    }

    fn contrasts(&self) -> Vec<kernel::Contrast> {
        vec![
            kernel::Contrast {
                kernel: ("matmul_pipelined/k8", None),
                against: ("matmul_blocked/8x8", None),
                sentence: "Loading the next tiles while this one's FMAs run makes a matrix product {than} 8×8 blocks \
                           alone",
            },
            kernel::Contrast {
                kernel: ("matmul_blocked/4x4", None),
                against: ("matmul_tiled/16", None),
                sentence: "4×4 blocks per invocation make a matrix product {than} 16×16 tiles alone",
            },
            kernel::Contrast {
                kernel: ("matmul_tiled/16", None),
                against: ("matmul_naive/f32", None),
                sentence: "16×16 tiles in workgroup memory make a matrix product {than} the naive loop",
            },
        ]
    }

    fn size_unit(&self) -> &'static str {
        "f32 elements per matrix (the largest n × n swept)"
    }

    fn default_size(&self, limits: &ComputeLimits) -> Sizing {
        Sizing::capped(DEFAULT_ELEMENTS, limits.max_binding_bytes() / 4, 4, "matrices are")
    }

    fn round_size(&self, size: u64) -> u64 {
        size.clamp(64 * 64, u32::MAX as u64)
    }

    fn workgroup_shapes(&self, kernel: &KernelId, _: &ComputeLimits) -> Vec<[u32; 3]> {
        match kernel.kernel {
            "matmul_tiled" => {
                let t = edge(kernel.variant);
                vec![[t, t, 1]]
            }
            "matmul_blocked" => vec![[8, 8, 1], [16, 16, 1]],
            "matmul_pipelined" => vec![PIPELINED_WORKGROUP],
            _ => vec![[8, 8, 1], [16, 16, 1], [32, 8, 1], [64, 4, 1]],
        }
    }

    fn parameter(&self, _: &KernelId) -> Option<Parameter> {
        Some(Parameter::amounts("n", edges()))
    }

    fn workgroup_storage_bytes(&self, configuration: &Configuration) -> u64 {
        let Configuration { kernel, workgroup: [x, y, _], .. } = *configuration;
        match kernel.kernel {
            "matmul_tiled" => 2 * 4 * (x as u64 * y as u64),
            "matmul_blocked" => 4 * BLOCKED_K * edge(kernel.variant) as u64 * (x as u64 + y as u64),
            // Two buffers, each a BK × 128 tile of A and one of B.
            "matmul_pipelined" => 2 * 2 * edge(kernel.variant) as u64 * PIPELINED_TILE as u64 * 4,
            _ => 0,
        }
    }

    fn setup(&self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        // Whole vec4s, which matmul_pipelined reads and writes.
        let bytes = (size * 4).next_multiple_of(16);
        kernel::check_binding(gpu, &format!("a {bytes}-byte matrix"), bytes)?;
        let seeds = [seed, seed.wrapping_add(1)];
        let a = kernel::random_buffer(gpu, "A", bytes, seeds[0]);
        let b = kernel::random_buffer(gpu, "B", bytes, seeds[1]);
        let c = kernel::storage_buffer(gpu, "C", bytes);
        let modules = ShaderModules::new("matmul.wgsl", WGSL);
        let pipelined = ShaderModules::new("matmul_pipelined.wgsl", PIPELINED_WGSL);
        let pipelined_f16 = ShaderModules::new("matmul_pipelined.wgsl (f16)", PIPELINED_F16_WGSL);
        Ok(Box::new(MatmulWorkload {
            elements: size,
            seeds,
            modules,
            pipelined,
            pipelined_f16,
            a,
            b,
            c,
            halves: OnceCell::new(),
            reference: KeptReference::default(),
        }))
    }

    /// The same WGSL, matrices, shapes, tiles and blocks, validated against matmul_naive (the naive kernel,
    /// by agreement between its shapes; matmul_pipelined, against a reference entry point added below it).
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, _: &ComputeLimits) -> Option<String> {
        let e = edge(kernel.variant);
        let half = f16_inputs(kernel.variant);
        let pipelined = kernel.kernel == "matmul_pipelined";
        let (element, length) = match (pipelined, half) {
            (false, _) => ("f32", "n * n"),
            (true, false) => ("vec4<f32>", "n * n / 4"),
            (true, true) => ("vec4<f16>", "n * n / 4"),
        };
        let output = if pipelined { "vec4<f32>" } else { "f32" };
        let buffers = vec![
            spec::BufferSpec::new(0, "a", element, length),
            spec::BufferSpec::new(1, "b", element, length),
            spec::BufferSpec::new(2, "c", output, length).output(),
        ];
        let shape = |x: &[u32], y: &[u32]| spec::Ordered::of(&[("WG_X", x), ("WG_Y", y)]);
        let square = |per: &str| vec![format!("ceil_div(n, {per})"); 2];
        let entry_point = if kernel.kernel == "matmul_naive" { kernel.entry_point() } else { kernel.kernel.into() };
        let mut spec = spec::Spec::new(kernel.label().replace('/', "_"), entry_point, buffers);
        let mut reference = Some(("matmul_naive_f32", spec::expressions(&["ceil_div(n, WG_X)", "ceil_div(n, WG_Y)"])));
        match kernel.kernel {
            "matmul_tiled" => {
                spec.tunables = spec::Ordered::of(&[("TILE", [e].as_slice())]);
                spec.workgroup_size = Some(vec![spec::Dimension::Expression("TILE".into()); 2]);
                spec.constants = spec::Ordered::of(&[("TILE_AREA", "TILE * TILE"), ("N", "n")]);
                spec.grid = Some(square("TILE"));
                spec.workgroup_memory = Some("8 * TILE * TILE".into());
                // The naive kernel at the module's own 16 × 16 (WG_X and WG_Y are not tunables here).
                reference = Some(("matmul_naive_f32", square("16")));
            }
            "matmul_blocked" => {
                spec.tunables = shape(&[8, 16], &[8, 16]);
                spec.restrictions = spec::expressions(&["WG_X == WG_Y"]);
                spec.constants = spec::Ordered::of(&[
                    ("BLOCK", e.to_string().as_str()),
                    ("A_ROW_VEC4S", &format!("WG_Y * {e} / 4")),
                    ("B_ROW_VEC4S", &format!("WG_X * {e} / 4")),
                    ("N", "n"),
                ]);
                spec.grid = Some(vec![format!("ceil_div(n, WG_X * {e})"), format!("ceil_div(n, WG_Y * {e})")]);
                spec.workgroup_memory = Some(format!("4 * {BLOCKED_K} * {e} * (WG_X + WG_Y)"));
            }
            "matmul_pipelined" => {
                spec.workgroup_size = Some(vec![spec::Dimension::Size(16); 2]);
                spec.constants = spec::Ordered::of(&[
                    ("N", "n"),
                    ("ALIGNED", "n % 4 == 0"),
                    ("INSIDE", format!("n % {PIPELINED_TILE} == 0").as_str()),
                    ("BK", &e.to_string()),
                    ("TILE_VEC4S", &(2 * e * PIPELINED_TILE / 4).to_string()),
                ]);
                spec.grid = Some(square(&PIPELINED_TILE.to_string()));
                spec.workgroup_memory = Some((2 * 2 * e * PIPELINED_TILE * 4).to_string());
                reference = Some(("reference", spec::expressions(&["ceil_div(n, 64)", "ceil_div(n, 16)"])));
            }
            _ => {
                spec.tunables = shape(&[8, 16, 32, 64], &[4, 8, 16]);
                spec.restrictions = spec::expressions(&["WG_X * WG_Y == 256 || WG_X == WG_Y"]);
                spec.constants = spec::Ordered::of(&[("N", "n")]);
                spec.grid = Some(spec::expressions(&["ceil_div(n, WG_X)", "ceil_div(n, WG_Y)"]));
                reference = None;
            }
        }
        let size = self.round_size(size);
        spec.sizes =
            edges().into_iter().filter(|&n| n as u64 * n as u64 <= size).map(|n| spec::Size::n(n as u64)).collect();
        spec.bytes = Some(format!("{} * n * n", if half { 8 } else { 12 }));
        spec.flops = Some("2 * n * n * n".into());
        spec.validation = spec::ValidationSpec {
            tolerance: Some(1e-3),
            reference: reference.as_ref().map(|(entry, _)| entry.to_string()),
            grid: reference.map(|(_, grid)| grid),
        };
        let wgsl: &[&str] = match (pipelined, half) {
            (false, _) => &[WGSL],
            (true, false) => &[PIPELINED_WGSL, PIPELINED_REFERENCE],
            (true, true) => &[PIPELINED_F16_WGSL, PIPELINED_REFERENCE],
        };
        Some(as_yours::open(&spec, kernel, "its WGSL, matrices, workgroup shapes and tiles.", wgsl))
    }

    fn reference_words(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        kernel::recipe_bytes::<Product>(recipe, range)
    }
}

/// One checked element of C: its value, and the rounding bound.
struct Sampled {
    value: f64,
    tolerance: f64,
}

struct MatmulWorkload {
    elements: u64,
    seeds: [u32; 2],
    modules: ShaderModules,
    pipelined: ShaderModules,
    pipelined_f16: ShaderModules,
    /// The n × n matrices of each edge are the first n² elements, row by row.
    a: OwnedBuffer,
    b: OwnedBuffer,
    c: OwnedBuffer,
    /// A and B as f16 (`fill::random_f16`), made when an f16 kernel first runs.
    halves: OnceCell<[OwnedBuffer; 2]>,
    /// The edge (and whether A and B were f16) checked last, and C's reference: the sampled elements, and
    /// every other one written.
    reference: KeptReference<(u32, bool)>,
}

/// Element (row, col) of the n × n product of the inputs of `seeds` (f32, or f16 where `half`), in f64,
/// and the bound on an f32 dot product's rounding: n·ε·Σ|a||b| (Higham's γ_n, with room).
fn expected(seeds: [u32; 2], n: u32, row: u32, col: u32, half: bool) -> Sampled {
    let input = if half { random_f16 } else { random_f32 };
    let (mut value, mut magnitude) = (0.0f64, 0.0f64);
    for k in 0..n {
        let x = input(row * n + k, seeds[0]) as f64;
        let y = input(k * n + col, seeds[1]) as f64;
        value += x * y;
        magnitude += (x * y).abs();
    }
    let tolerance = n as f64 * f32::EPSILON as f64 * magnitude;
    Sampled { value, tolerance }
}

/// C of edge n: every element written (the poison is a NaN), and the sampled ones right.
#[derive(Serialize, Deserialize)]
struct Product {
    seeds: [u32; 2],
    n: u32,
    /// A and B were f16.
    #[serde(default)]
    half: bool,
    /// The elements checked, by index, in order.
    sampled: Vec<u64>,
}

impl Product {
    /// Sampled elements: all of them if the budget allows, else a spread sample that includes both corners.
    fn new(seeds: [u32; 2], n: u32, half: bool) -> Self {
        let area = n as u64 * n as u64;
        let count = (REFERENCE_BUDGET / n as u64).min(area);
        let mut sampled: Vec<u64> = if count == area {
            (0..area).collect()
        } else {
            let sample = (0..count as u32 - 2).map(|k| hash_u32(k ^ seeds[0]) as u64 % area);
            [0, area - 1].into_iter().chain(sample).collect()
        };
        sampled.sort_unstable();
        sampled.dedup();
        Product { seeds, n, half, sampled }
    }

    fn element(&self, index: u64) -> Sampled {
        let n = self.n as u64;
        expected(self.seeds, self.n, (index / n) as u32, (index % n) as u32, self.half)
    }
}

impl Recipe for Product {
    const FAMILY: &'static str = "matmul";

    fn words(&self, range: Range<u64>) -> impl Iterator<Item = Expected> {
        let first = self.sampled.partition_point(|&index| index < range.start);
        let mut next = self.sampled[first..].iter().peekable();
        range.map(move |i| match next.next_if(|&&index| index == i) {
            Some(_) => {
                let Sampled { value, tolerance } = self.element(i);
                Expected::Float { value: value as f32, tolerance: tolerance as f32 }
            }
            None => Expected::WRITTEN,
        })
    }
}

impl MatmulWorkload {
    /// `matmul_pipelined`, whose module has no workgroup-size constants: its 16 × 16 shape is its design.
    fn prepare_pipelined(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let n = configuration.parameter.unwrap_or(0);
        if configuration.workgroup != PIPELINED_WORKGROUP {
            return Err(Skip::NotApplicable("matmul_pipelined runs in 16 × 16 workgroups only".into()));
        }
        let bk = edge(configuration.kernel.variant);
        let constants = [
            ("N", n as f64),
            ("ALIGNED", if n.is_multiple_of(4) { 1.0 } else { 0.0 }),
            ("INSIDE", if n.is_multiple_of(PIPELINED_TILE) { 1.0 } else { 0.0 }),
            ("BK", bk as f64),
            ("TILE_VEC4S", (2 * bk * PIPELINED_TILE / 4) as f64),
        ];
        let grid = kernel::plane_grid(gpu, [n, n], [PIPELINED_TILE, PIPELINED_TILE])?;
        let (modules, [a, b]) = match f16_inputs(configuration.kernel.variant) {
            true if !gpu.shader_f16 => return Err(Skip::needs_f16()),
            true => (&self.pipelined_f16, self.halves(gpu).each_ref()),
            false => (&self.pipelined, [&self.a, &self.b]),
        };
        let pipeline = modules.pipeline(gpu, configuration.checks, "matmul_pipelined", &constants);
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, a), (1, b), (2, &self.c)]);
        Ok(Prepared::single(Step { pipeline, bind_group, grid }, self.c.handle(), Vec::new()))
    }

    /// A and B as f16, made on first use: whole vec4<f16>s.
    fn halves(&self, gpu: &Gpu) -> &[OwnedBuffer; 2] {
        self.halves.get_or_init(|| {
            let bytes = (self.elements * 2).next_multiple_of(8);
            [
                kernel::random_f16_buffer(gpu, "A (f16)", bytes, self.seeds[0]),
                kernel::random_f16_buffer(gpu, "B (f16)", bytes, self.seeds[1]),
            ]
        })
    }
}

impl Workload for MatmulWorkload {
    fn size(&self) -> u64 {
        self.elements
    }

    /// A and B read once and C written once: the least any kernel must move.
    fn bytes_per_dispatch(&self, configuration: &Configuration) -> u64 {
        let n = configuration.parameter.unwrap_or(0) as u64;
        let input_bytes = if f16_inputs(configuration.kernel.variant) { 2 } else { 4 };
        (2 * input_bytes + 4) * n * n
    }

    fn flops_per_dispatch(&self, configuration: &Configuration) -> Option<u64> {
        let n = configuration.parameter.unwrap_or(0) as u64;
        Some(2 * n * n * n)
    }

    fn prepare(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let Configuration { kernel, checks, workgroup, parameter } = *configuration;
        let n = parameter.unwrap_or(0);
        if n as u64 * n as u64 > self.elements {
            return Err(Skip::NotApplicable(format!(
                "an {n} × {n} matrix is more than the problem size, {} elements",
                self.elements
            )));
        }
        if kernel.kernel == "matmul_pipelined" {
            return self.prepare_pipelined(gpu, configuration);
        }
        let [x, y, _] = workgroup;
        let e = edge(kernel.variant);
        let (entry, constants, per_group) = match kernel.kernel {
            "matmul_tiled" => {
                if workgroup != [e, e, 1] {
                    return Err(Skip::NotApplicable(format!("matmul_tiled/{e} runs in {e} × {e} workgroups only")));
                }
                let constants = vec![("TILE", e as f64), ("TILE_AREA", (e * e) as f64)];
                ("matmul_tiled".to_string(), constants, [e, e])
            }
            "matmul_blocked" => {
                let constants =
                    vec![("BLOCK", e as f64), ("A_ROW_VEC4S", (y * e / 4) as f64), ("B_ROW_VEC4S", (x * e / 4) as f64)];
                ("matmul_blocked".to_string(), constants, [x * e, y * e])
            }
            _ => (kernel.entry_point(), Vec::new(), [x, y]),
        };
        let mut constants = constants;
        constants.extend([("WG_X", x as f64), ("WG_Y", y as f64), ("N", n as f64)]);
        let grid = kernel::plane_grid(gpu, [n, n], per_group)?;
        let pipeline = self.modules.pipeline(gpu, checks, &entry, &constants);
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, &self.a), (1, &self.b), (2, &self.c)]);
        Ok(Prepared::single(Step { pipeline, bind_group, grid }, self.c.handle(), Vec::new()))
    }

    /// Every element written (the poison is a NaN), and the sampled ones right.
    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let n = configuration.parameter.unwrap_or(0);
            let half = f16_inputs(configuration.kernel.variant);
            let c = Reference::build(gpu, "C", n as u64 * n as u64, Product::new(self.seeds, n, half));
            Ok(Some(self.reference.get_or_build((n, half), c).await))
        })
    }

    fn check(&self, configuration: &Configuration, _: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let n = configuration.parameter.unwrap_or(0);
        let got: Vec<f32> = f32s(&output[..n as usize * n as usize * 4]).collect();
        let mut comparison = Comparison::new("C");
        // Every element was written (the poison is a NaN); the reference's elements are right.
        for (i, &value) in got.iter().enumerate() {
            comparison.check(i as u64, value as f64, 0.0, f64::MAX);
        }
        let product = Product::new(self.seeds, n, f16_inputs(configuration.kernel.variant));
        for &index in &product.sampled {
            let Sampled { value, tolerance } = product.element(index);
            comparison.check(index, got[index as usize] as f64, value, tolerance);
        }
        comparison.finish()
    }
}
