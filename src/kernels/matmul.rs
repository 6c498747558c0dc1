//! Matrix multiply, f32: naive, workgroup-memory tiles of 8, 16 and 32, register blocks of 4 × 4 and 8 × 8
//! outputs per invocation, and 8 × 8 blocks of a 128 × 128 tile with the next tiles loaded while this one's
//! FMAs run (pipelined), over square matrices of 256 … 4096 (GFLOP/s); and 8-bit integers and f16 on
//! subgroup matrices, where a browser offers them (GOP/s, GFLOP/s: `subgroup_matrix`).

use std::cell::OnceCell;
use std::ops::Range;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::fill::{POISON, Pattern, hash_u32, random_f16, random_f32, random_word};
use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{
    self, Comparison, Configuration, Expected, Family, KeptReference, KernelId, OwnedBuffer, Parameter, PrepareFuture,
    Prepared, Presentation, Recipe, Reference, ReferenceFuture, ShaderModules, Sizing, Skip, Step, ValidationError,
    Workload, as_yours, f32s, family_text, u32s,
};
use crate::spec;

mod subgroup_matrix;
pub use subgroup_matrix::source as subgroup_matrix_source;

const WGSL: &str = shader!("matmul.wgsl");
/// matmul_pipelined reads A and B as `Input`s, which the host declares: vec4<f32>, or vec4<f16> in a module
/// of its own that compiles only where the device has shader-f16.
const PIPELINED_WGSL: &str = shader!("matmul_pipelined.wgsl");
const PIPELINED_F32: &str = "alias Input = vec4<f32>;\n";
const PIPELINED_F16: &str = "enable f16;\nalias Input = vec4<f16>;\n";

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
/// (kernel, variant): the naive kernel's entry point is `matmul_naive_f32`; the others' sizes are in the variant.
pub const KERNELS: [(&str, &str); 22] = [
    ("matmul_naive", "f32"),
    ("matmul_tiled", "8"),
    ("matmul_tiled", "16"),
    ("matmul_tiled", "32"),
    ("matmul_blocked", "4x4"),
    ("matmul_blocked", "8x8"),
    ("matmul_pipelined", "k8"),
    ("matmul_pipelined", "k16"),
    ("matmul_pipelined", "k8_16x8"),
    ("matmul_pipelined", "k8_f16"),
    ("matmul_subgroup_matrix", "u8_32x32"),
    ("matmul_subgroup_matrix", "u8_32x64"),
    ("matmul_subgroup_matrix", "u8_64x64"),
    ("matmul_subgroup_matrix", "i8_32x32"),
    ("matmul_subgroup_matrix", "i8_32x64"),
    ("matmul_subgroup_matrix", "i8_64x64"),
    ("matmul_subgroup_matrix_f16", "32x32"),
    ("matmul_subgroup_matrix_f16", "32x64"),
    ("matmul_subgroup_matrix_f16", "64x64"),
    ("matmul_cooperative_matrix_f16", "32x32"),
    ("matmul_cooperative_matrix_f16", "32x64"),
    ("matmul_cooperative_matrix_f16", "64x64"),
];
/// Matrix edges swept; those whose matrices are larger than the problem size are skipped.
pub fn edges() -> Vec<u32> {
    vec![256, 512, 1024, 2048, 4096]
}
/// Elements of K each step of `matmul_blocked` stages (BK in matmul.wgsl).
const BLOCKED_K: u64 = 8;
/// The tile of C a `matmul_pipelined` workgroup computes.
const PIPELINED_TILE: u32 = 128;
/// `matmul_pipelined/variant`'s entry point and workgroup (matmul_pipelined.wgsl).
fn pipelined_shape(variant: &str) -> (&'static str, [u32; 3]) {
    match variant {
        "k8_16x8" => ("matmul_pipelined_tall", [16, 8, 1]),
        _ => ("matmul_pipelined", [16, 16, 1]),
    }
}
/// The workgroup memory of `matmul_pipelined/variant`: a tile of A and one of B, two buffers of each, rows
/// of 128 f32s; 8 rows a buffer in `matmul_pipelined_tall`, 16 (room for the largest BK) in the other.
fn pipelined_storage_bytes(variant: &str) -> u32 {
    let rows = if pipelined_shape(variant).0 == "matmul_pipelined_tall" { 8 } else { 16 };
    2 * 2 * rows * PIPELINED_TILE * 4
}
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

/// What A and B hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
enum Inputs {
    #[default]
    F32,
    /// f16 (`matmul_pipelined/k8_f16`, `matmul_subgroup_matrix_f16`); products and sums stay f32.
    F16,
    /// 8-bit integers, four to a word, whose products sum exactly in 32 bits (`matmul_subgroup_matrix`):
    /// unsigned, C of u32, or signed, C of i32.
    U8,
    I8,
}

impl Inputs {
    fn of(kernel: KernelId) -> Inputs {
        match kernel.variant {
            v if v.starts_with("u8") => Inputs::U8,
            v if v.starts_with("i8") => Inputs::I8,
            v if v.ends_with("_f16") || kernel.kernel.ends_with("_f16") => Inputs::F16,
            _ => Inputs::F32,
        }
    }

    /// WGSL's names of the subgroup-matrix kernels' elements and of their results: u8 and u32, i8 and i32,
    /// or f16 and f32.
    fn matrix_types(self) -> [&'static str; 2] {
        match self {
            Inputs::I8 => ["i8", "i32"],
            Inputs::F16 => ["f16", "f32"],
            _ => ["u8", "u32"],
        }
    }

    fn bytes(self) -> u64 {
        match self {
            Inputs::F32 => 4,
            Inputs::F16 => 2,
            Inputs::U8 | Inputs::I8 => 1,
        }
    }

    /// Element `index` of the n × n matrix of `seed`, exactly.
    fn element(self, index: u32, seed: u32) -> f64 {
        match self {
            Inputs::F32 => random_f32(index, seed) as f64,
            Inputs::F16 => random_f16(index, seed) as f64,
            Inputs::U8 | Inputs::I8 => {
                let byte = random_word(index / 4, seed).to_le_bytes()[(index % 4) as usize];
                if self == Inputs::I8 { byte as i8 as f64 } else { byte as f64 }
            }
        }
    }
}

/// What the page, the summary and `wgsweep describe` say about the family.
pub const PRESENTATION: Presentation = Presentation {
    about: family_text!("matmul"),
    contrasts: &[
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
    ],
    ..Presentation::NONE
};

impl Family for Matmul {
    fn name(&self) -> &'static str {
        "matmul"
    }

    fn kernels(&self) -> Vec<KernelId> {
        KERNELS.iter().map(|&(kernel, variant)| KernelId { family: "matmul", kernel, variant }).collect()
    }

    fn operations(&self, kernel: &str) -> kernel::Operations {
        match kernel {
            "matmul_subgroup_matrix" => kernel::Operations::Int8Ops,
            "matmul_subgroup_matrix_f16" | "matmul_cooperative_matrix_f16" => kernel::Operations::HalfFlops,
            _ => kernel::Operations::Flops,
        }
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
            "matmul_tiled" => vec![[edge(kernel.variant), edge(kernel.variant), 1]],
            "matmul_blocked" => vec![[8, 8, 1], [16, 16, 1]],
            "matmul_pipelined" => vec![pipelined_shape(kernel.variant).1],
            name if subgroup_matrix::is_one(name) => subgroup_matrix::workgroup_shapes(kernel.variant),
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
            "matmul_pipelined" => pipelined_storage_bytes(kernel.variant).into(),
            name if subgroup_matrix::is_one(name) => subgroup_matrix::workgroup_storage_bytes(kernel.variant, x),
            _ => 0,
        }
    }

    fn setup(&'static self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        // Whole vec4s, which matmul_pipelined reads and writes.
        let bytes = (size * 4).next_multiple_of(16);
        kernel::check_binding(gpu, &format!("a {bytes}-byte matrix"), bytes)?;
        let seeds = [seed, seed.wrapping_add(1)];
        let a = kernel::random_buffer(gpu, "A", bytes, seeds[0]);
        let b = kernel::random_buffer(gpu, "B", bytes, seeds[1]);
        let c = kernel::storage_buffer(gpu, "C", bytes);
        let modules = ShaderModules::new("matmul.wgsl", WGSL);
        let pipelined = ShaderModules::new("matmul_pipelined.wgsl", format!("{PIPELINED_F32}{PIPELINED_WGSL}"));
        let pipelined_f16 =
            ShaderModules::new("matmul_pipelined.wgsl (f16)", format!("{PIPELINED_F16}{PIPELINED_WGSL}"));
        let subgroup_matrix = subgroup_matrix::all_modules();
        Ok(Box::new(MatmulWorkload {
            elements: size,
            seeds,
            modules,
            pipelined,
            pipelined_f16,
            subgroup_matrix,
            a,
            b,
            c,
            halves: OnceCell::new(),
            bytes: OnceCell::new(),
            reference: KeptReference::default(),
        }))
    }

    /// The same WGSL, matrices, shapes, tiles and blocks, validated against matmul_naive (the naive kernel,
    /// by agreement between its shapes; matmul_pipelined, against a reference entry point added below it).
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, _: &ComputeLimits) -> Option<String> {
        // A user's buffers hold no 8-bit elements, and nothing asks a browser for subgroup matrices for them.
        if subgroup_matrix::is_one(kernel.kernel) {
            return None;
        }
        let e = edge(kernel.variant);
        let half = Inputs::of(*kernel) == Inputs::F16;
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
        let entry_point = match kernel.kernel {
            "matmul_naive" => kernel.entry_point(),
            "matmul_pipelined" => pipelined_shape(kernel.variant).0.into(),
            _ => kernel.kernel.into(),
        };
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
                let [x, y, _] = pipelined_shape(kernel.variant).1;
                spec.workgroup_size = Some(vec![spec::Dimension::Size(x), spec::Dimension::Size(y)]);
                spec.constants = spec::Ordered::of(&[
                    ("N", "n"),
                    ("ALIGNED", "n % 4 == 0"),
                    ("INSIDE", format!("n % {PIPELINED_TILE} == 0").as_str()),
                    ("BK", &e.to_string()),
                ]);
                spec.grid = Some(square(&PIPELINED_TILE.to_string()));
                spec.workgroup_memory = Some(pipelined_storage_bytes(kernel.variant).to_string());
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
            (true, false) => &[PIPELINED_F32, PIPELINED_WGSL, PIPELINED_REFERENCE],
            (true, true) => &[PIPELINED_F16, PIPELINED_WGSL, PIPELINED_REFERENCE],
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
    /// The subgroup-matrix kernels on u8, i8 and f16, and the cooperative-matrix one (`subgroup_matrix::all_modules`).
    subgroup_matrix: [subgroup_matrix::Modules; 4],
    /// The n × n matrices of each edge are the first n² elements, row by row.
    a: OwnedBuffer,
    b: OwnedBuffer,
    c: OwnedBuffer,
    /// A and B as f16 (`fill::random_f16`), made when an f16 kernel first runs.
    halves: OnceCell<[OwnedBuffer; 2]>,
    /// A and B as random bytes (`fill::random_word`'s), for the 8-bit kernels of either sign, made on first
    /// use: B's n × n matrices column by column.
    bytes: OnceCell<[OwnedBuffer; 2]>,
    /// The edge (and what A and B held) checked last, and C's reference: the sampled elements, and
    /// every other one written.
    reference: KeptReference<(u32, Inputs, bool)>,
}

/// Whether `kernel` reads B column by column (the subgroup- and cooperative-matrix kernels), not row by row.
fn b_columns(kernel: KernelId) -> bool {
    subgroup_matrix::is_one(kernel.kernel)
}

/// Element (row, col) of the n × n product of the `inputs` of `seeds`, B stored column by column if `columns`,
/// in f64 (exact for 8-bit integers, whose sums stay below 2^32), and the bound on an f32 dot product's
/// rounding: n·ε·Σ|a||b| (Higham's γ_n, with room), or none for integers.
fn expected(seeds: [u32; 2], n: u32, [row, col]: [u32; 2], inputs: Inputs, columns: bool) -> Sampled {
    let (mut value, mut magnitude) = (0.0f64, 0.0f64);
    for k in 0..n {
        let x = inputs.element(row * n + k, seeds[0]);
        let y = inputs.element(if columns { col * n + k } else { k * n + col }, seeds[1]);
        value += x * y;
        magnitude += (x * y).abs();
    }
    let tolerance = match inputs {
        Inputs::U8 | Inputs::I8 => 0.0,
        Inputs::F32 | Inputs::F16 => n as f64 * f32::EPSILON as f64 * magnitude,
    };
    Sampled { value, tolerance }
}

/// C of edge n: every element written (the poison is a NaN), and the sampled ones right.
#[derive(Serialize, Deserialize)]
struct Product {
    seeds: [u32; 2],
    n: u32,
    #[serde(default)]
    inputs: Inputs,
    /// B stored column by column.
    #[serde(default)]
    b_columns: bool,
    /// The elements checked, by index, in order (`sampled`): made where they are first needed, from the
    /// seeds, not sent with the recipe (in the page, up to 2^16 indices written out and posted to each worker
    /// made tasks of 55-64 ms on an H200's host).
    #[serde(skip)]
    sampled: OnceLock<Vec<u64>>,
}

impl Product {
    /// The product `kernel` makes of edge n.
    fn new(seeds: [u32; 2], n: u32, kernel: KernelId) -> Self {
        Product { seeds, n, inputs: Inputs::of(kernel), b_columns: b_columns(kernel), sampled: OnceLock::new() }
    }

    /// The elements checked: all of them if the budget allows, else a spread sample that includes both
    /// corners.
    fn sampled(&self) -> &[u64] {
        self.sampled.get_or_init(|| {
            let area = self.n as u64 * self.n as u64;
            let count = (REFERENCE_BUDGET / self.n as u64).min(area);
            let mut sampled: Vec<u64> = if count == area {
                (0..area).collect()
            } else {
                let sample = (0..count as u32 - 2).map(|k| hash_u32(k ^ self.seeds[0]) as u64 % area);
                [0, area - 1].into_iter().chain(sample).collect()
            };
            crate::sort::ascending(&mut sampled);
            sampled.dedup();
            sampled
        })
    }

    fn element(&self, index: u64) -> Sampled {
        let n = self.n as u64;
        let at = [(index / n) as u32, (index % n) as u32];
        expected(self.seeds, self.n, at, self.inputs, self.b_columns)
    }
}

impl Recipe for Product {
    const FAMILY: &'static str = "matmul";

    fn words(&self, range: Range<u64>) -> impl Iterator<Item = Expected> {
        let sampled = self.sampled();
        let first = sampled.partition_point(|&index| index < range.start);
        let mut next = sampled[first..].iter().peekable();
        range.map(move |i| match next.next_if(|&&index| index == i) {
            Some(_) => {
                let Sampled { value, tolerance } = self.element(i);
                match self.inputs {
                    Inputs::U8 => Expected::Word(value as u32),
                    Inputs::I8 => Expected::Word(value as i32 as u32),
                    Inputs::F32 | Inputs::F16 => Expected::Float { value: value as f32, tolerance: tolerance as f32 },
                }
            }
            // Every element written: C's integers can be any bits (no NaN to tell), so the poison, which no sum
            // of n ≤ 4096 products of bytes reaches (below 2^28 in magnitude), is what fails.
            None if matches!(self.inputs, Inputs::U8 | Inputs::I8) => Expected::Unpoisoned,
            None => Expected::WRITTEN,
        })
    }
}

impl MatmulWorkload {
    /// `matmul_pipelined`, whose module has no workgroup-size constants: each variant's shape is its design.
    async fn prepare_pipelined(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let n = configuration.parameter.unwrap_or(0);
        let (entry_point, [x, y, z]) = pipelined_shape(configuration.kernel.variant);
        if configuration.workgroup != [x, y, z] {
            let kernel = configuration.kernel.label();
            return Err(Skip::NotApplicable(format!("{kernel} runs in {x} × {y} workgroups only")));
        }
        let bk = edge(configuration.kernel.variant);
        let constants = [
            ("N", n as f64),
            ("ALIGNED", if n.is_multiple_of(4) { 1.0 } else { 0.0 }),
            ("INSIDE", if n.is_multiple_of(PIPELINED_TILE) { 1.0 } else { 0.0 }),
            ("BK", bk as f64),
        ];
        let grid = kernel::plane_grid(gpu, [n, n], [PIPELINED_TILE, PIPELINED_TILE])?;
        let (modules, [a, b]) = match Inputs::of(configuration.kernel) {
            Inputs::F16 if !gpu.shader_f16 => return Err(Skip::needs_f16()),
            Inputs::F16 => (&self.pipelined_f16, self.halves(gpu).each_ref()),
            _ => (&self.pipelined, [&self.a, &self.b]),
        };
        let pipeline = modules.pipeline_async(gpu, configuration.checks, entry_point, &constants).await;
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, a), (1, b), (2, &self.c)]);
        Ok(Prepared::single(Step::new(pipeline, bind_group, grid), self.c.handle(), Vec::new()))
    }

    /// A and B as random bytes, made on first use: whole words.
    fn bytes(&self, gpu: &Gpu) -> &[OwnedBuffer; 2] {
        self.bytes.get_or_init(|| {
            let bytes = self.elements.next_multiple_of(4);
            let pattern = Pattern::RandomInt { low: 0, high: u32::MAX };
            let buffer = |label, seed| {
                let buffer = kernel::storage_buffer(gpu, label, bytes);
                kernel::submit(gpu, |encoder| gpu.filler().pattern(&gpu.device, encoder, &buffer, pattern, seed));
                buffer
            };
            [buffer("A (bytes)", self.seeds[0]), buffer("B (bytes)", self.seeds[1])]
        })
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
        (2 * Inputs::of(configuration.kernel).bytes() + 4) * n * n
    }

    fn flops_per_dispatch(&self, configuration: &Configuration) -> Option<u64> {
        let n = configuration.parameter.unwrap_or(0) as u64;
        Some(2 * n * n * n)
    }

    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a> {
        Box::pin(async move {
            let Configuration { kernel, checks, workgroup, parameter } = *configuration;
            let n = parameter.unwrap_or(0);
            if n as u64 * n as u64 > self.elements {
                return Err(Skip::NotApplicable(format!(
                    "an {n} × {n} matrix is more than the problem size, {} elements",
                    self.elements
                )));
            }
            match kernel.kernel {
                "matmul_pipelined" => return self.prepare_pipelined(gpu, configuration).await,
                name if subgroup_matrix::is_one(name) => {
                    return self.prepare_subgroup_matrix(gpu, configuration).await;
                }
                _ => {}
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
                    let constants = vec![
                        ("BLOCK", e as f64),
                        ("A_ROW_VEC4S", (y * e / 4) as f64),
                        ("B_ROW_VEC4S", (x * e / 4) as f64),
                    ];
                    ("matmul_blocked".to_string(), constants, [x * e, y * e])
                }
                _ => (kernel.entry_point(), Vec::new(), [x, y]),
            };
            let mut constants = constants;
            constants.extend([("WG_X", x as f64), ("WG_Y", y as f64), ("N", n as f64)]);
            let grid = kernel::plane_grid(gpu, [n, n], per_group)?;
            let pipeline = self.modules.pipeline_async(gpu, checks, &entry, &constants).await;
            let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, &self.a), (1, &self.b), (2, &self.c)]);
            Ok(Prepared::single(Step::new(pipeline, bind_group, grid), self.c.handle(), Vec::new()))
        })
    }

    /// Every element written (the poison is a NaN), and the sampled ones right.
    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let n = configuration.parameter.unwrap_or(0);
            let inputs = Inputs::of(configuration.kernel);
            let product = Product::new(self.seeds, n, configuration.kernel);
            let key = (n, inputs, product.b_columns);
            let c = Reference::build(gpu, "C", n as u64 * n as u64, product);
            Ok(Some(self.reference.get_or_build(key, c).await))
        })
    }

    fn check(&self, configuration: &Configuration, _: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let n = configuration.parameter.unwrap_or(0);
        let inputs = Inputs::of(configuration.kernel);
        let output = &output[..n as usize * n as usize * 4];
        // C's elements as numbers, the poison (unwritten) as a NaN.
        let got: Vec<f64> = match inputs {
            Inputs::F32 | Inputs::F16 => f32s(output).map(f64::from).collect(),
            Inputs::U8 | Inputs::I8 => u32s(output)
                .map(|word| match word {
                    POISON => f64::NAN,
                    _ if inputs == Inputs::I8 => word as i32 as f64,
                    _ => word as f64,
                })
                .collect(),
        };
        let mut comparison = Comparison::new("C");
        // Every element was written; the reference's elements are right.
        for (i, &value) in got.iter().enumerate() {
            comparison.check(i as u64, value, 0.0, f64::MAX);
        }
        let product = Product::new(self.seeds, n, configuration.kernel);
        for &index in product.sampled() {
            let Sampled { value, tolerance } = product.element(index);
            comparison.check(index, got[index as usize], value, tolerance);
        }
        comparison.finish()
    }
}
