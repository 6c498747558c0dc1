//! Reductions: one atomic per element, a workgroup tree with passes over the partial sums, the tree with
//! one atomic per workgroup, and a grid-stride loop before the tree; u32 (exact) and f32.

use std::cell::OnceCell;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::fill::random_f32;
use crate::gpu::{ComputeLimits, Gpu};
use crate::host;
use crate::kernel::sums::{self, SumRecipe};
use crate::kernel::{
    self, Before, Comparison, Configuration, Family, KernelId, OwnedBuffer, PrepareFuture, Prepared, Presentation,
    ReferenceFuture, ShaderChecks, ShaderModules, Sizing, Skip, Step, ValidationError, Workload, as_yours, family_text,
};
use crate::spec;

/// WGSL has no includes: the grid's index helpers, the input's bindings and the grid-stride loop go in front.
const WGSL: &str = concat!(shader!("grid.wgsl"), shader!("reduce_grid.wgsl"), shader!("reduce.wgsl"));
/// The subgroup kernels: a module of their own, which compiles only where the device has subgroups.
const SUBGROUP_WGSL: &str =
    concat!("enable subgroups;\n", shader!("grid.wgsl"), shader!("reduce_grid.wgsl"), shader!("reduce_subgroup.wgsl"));

/// (kernel, variant): the WGSL entry point is `kernel_variant`. WGSL has no float atomics, so the atomic
/// strategies come in u32 only.
pub const KERNELS: [(&str, &str); 8] = [
    ("atomic", "u32"),
    ("tree", "u32"),
    ("tree", "f32"),
    ("tree_atomic", "u32"),
    ("grid", "u32"),
    ("grid", "f32"),
    ("subgroup", "u32"),
    ("subgroup", "f32"),
];
/// Workgroups the grid-stride kernels launch, whatever the input's size.
const GRID_WORKGROUPS: u64 = 1024;
/// The workgroup size of the passes over partial sums, which are small next to the first pass.
const PASS_WORKGROUP: u32 = 256;
/// As STREAM: an input far larger than any last-level cache.
const DEFAULT_INPUT_BYTES: u64 = 256 << 20;

pub struct Reduce;

/// What the page, the summary and `wgsweep describe` say about the family.
pub const PRESENTATION: Presentation = Presentation {
    about: family_text!("reduce"),
    contrasts: &[
        kernel::Contrast {
            kernel: ("grid/f32", None),
            against: ("tree/f32", None),
            sentence: "A sum in grid-stride loops (grid) is {than} a tree per workgroup (tree)",
        },
        kernel::Contrast {
            kernel: ("subgroup/f32", None),
            against: ("tree/f32", None),
            sentence: "A sum with subgroup operations is {than} one through workgroup memory",
        },
    ],
    ..Presentation::NONE
};

impl Family for Reduce {
    fn name(&self) -> &'static str {
        "reduce"
    }

    fn kernels(&self) -> Vec<KernelId> {
        KERNELS.iter().map(|&(kernel, variant)| KernelId { family: "reduce", kernel, variant }).collect()
    }

    fn size_unit(&self) -> &'static str {
        "elements"
    }

    fn default_size(&self, limits: &ComputeLimits) -> Sizing {
        Sizing::capped(DEFAULT_INPUT_BYTES / 4, limits.max_binding_bytes() / 4, 4, "the input is")
    }

    fn round_size(&self, size: u64) -> u64 {
        size.clamp(1024, u32::MAX as u64)
    }

    fn workgroup_storage_bytes(&self, configuration: &Configuration) -> u64 {
        let tree = configuration.kernel.kernel != "atomic";
        if tree { 4 * configuration.workgroup[0] as u64 } else { 0 }
    }

    /// Every sum, validated by agreement between workgroup sizes: u32 sums exactly, f32 sums (of terms in
    /// [0, 1), so that the sum is Σ|x|) within what f32 rounding may grow to at the deepest order of
    /// addition any of them takes; the one-pass ones as they are, the others with passes that add their
    /// partial sums (the subgroup sums' own entry point, as the others' tree).
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, limits: &ComputeLimits) -> Option<String> {
        let n = self.round_size(size);
        let (element, f32) = (kernel.variant, kernel.variant == "f32");
        let (src, partials) = (format!("src_{element}"), format!("partials_{element}"));
        let fill = spec::Fill::Random(if f32 { [0.0, 1.0] } else { [0.0, u32::MAX as f64] });
        let input = spec::BufferSpec::new(u32::from(f32), &src, element, "n").filled(fill);
        let grid_stride = matches!(kernel.kernel, "grid" | "subgroup");
        let groups = match grid_stride {
            true => format!("min(ceil_div(n, WG), {GRID_WORKGROUPS})"),
            false => "ceil_div(n, WG)".into(),
        };
        let fewest = if grid_stride { GRID_WORKGROUPS.min(n) } else { n };
        let tolerance = if f32 { as_yours::f32_sums_tolerance(n.div_ceil(fewest), n) } else { 0.0 };
        let mut spec = spec::Spec {
            sizes: vec![spec::Size::n(n)],
            workgroup_size: as_yours::line_workgroup(),
            tunables: as_yours::line_shapes(limits),
            bytes: Some("4 * n".into()),
            flops: f32.then(|| "n".into()),
            workgroup_memory: (kernel.kernel != "atomic").then(|| "4 * WG".into()),
            validation: spec::ValidationSpec { tolerance: Some(tolerance), ..Default::default() },
            ..spec::Spec::new(format!("{}_{}", kernel.kernel, kernel.variant), kernel.entry_point(), vec![input])
        };
        let subgroup = kernel.kernel == "subgroup";
        let wgsl = if subgroup { SUBGROUP_WGSL } else { WGSL };
        if kernel.kernel.contains("atomic") {
            spec.grid = Some(as_yours::linear_grid(&groups, limits));
            spec.buffers.push(spec::BufferSpec::new(4, "total", "u32", "1").filled(spec::Fill::Zeros).output());
            return Some(as_yours::open(&spec, kernel, "its WGSL and workgroup sizes.", &[wgsl]));
        }
        // The first pass writes a partial sum per workgroup launched; passes of 256 add those up: the
        // tree's, or the subgroup sum's own (its input's both views at the partial sums, which it reads as
        // vec4s too).
        let vec4_view = format!("{src}x4");
        let adding_entry = if subgroup { kernel.entry_point() } else { format!("tree_{element}") };
        let pass = |from: &str, to: &str, grid: Vec<String>| {
            let mut pass = spec::PassSpec::new(adding_entry.clone(), grid);
            pass.constants = spec::Ordered::of(&[("WG", PASS_WORKGROUP.to_string())]);
            let mut bind = vec![(src.as_str(), from), (partials.as_str(), to)];
            if subgroup {
                bind.push((vec4_view.as_str(), from));
            }
            pass.bind = spec::Ordered::of(&bind);
            pass
        };
        let adding = as_yours::Adding { workgroup: PASS_WORKGROUP, element, in_vec4s: subgroup, pass: &pass };
        let (grid, most) = as_yours::grid_of(&groups, if grid_stride { n.min(GRID_WORKGROUPS) } else { n }, limits);
        let count = as_yours::launched(&grid);
        let mut first = spec::PassSpec::new(kernel.entry_point(), grid);
        if grid_stride {
            first.bind = spec::Ordered::of(&[(vec4_view.as_str(), src.as_str())]);
        }
        spec.buffers.push(adding.buffer(2 + u32::from(f32), "partials", &count));
        spec.passes.push(first);
        adding.passes(&mut spec, limits, count, most);
        Some(as_yours::open(&spec, kernel, "its WGSL, workgroup sizes and passes.", &[wgsl]))
    }

    fn setup(&'static self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        let bytes = size * 4;
        kernel::check_binding(gpu, &format!("a {bytes}-byte input"), bytes)?;
        let src = kernel::random_buffer(gpu, "input", bytes, seed);
        let modules = ShaderModules::new("reduce.wgsl", WGSL);
        let subgroup_modules = ShaderModules::new("reduce_subgroup.wgsl", SUBGROUP_WGSL);
        Ok(Box::new(ReduceWorkload { n: size, seed, modules, subgroup_modules, src, sums: OnceCell::new() }))
    }

    fn block_sums(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        sums::block_sums_bytes::<3, InputSums>(recipe, range)
    }
}

/// The input's sums on the host: u32 wrapping, f32 in f64, and Σ|x| that the f32 tolerance scales with.
#[derive(Clone, Copy, Default)]
struct Sums {
    u32: u32,
    f32: f64,
    magnitude: f64,
}

struct ReduceWorkload {
    n: u64,
    seed: u32,
    modules: ShaderModules,
    subgroup_modules: ShaderModules,
    /// Element i holds the bits of `random_f32(i, seed)`, read as u32 or f32.
    src: OwnedBuffer,
    sums: OnceCell<Sums>,
}

/// What the input's sums are: element i holds the bits of `random_f32(i, seed)`.
#[derive(Serialize, Deserialize)]
struct InputSums {
    seed: u32,
}

impl SumRecipe<3> for InputSums {
    const FAMILY: &'static str = "reduce";

    /// The u32 sum (wrapped), the f32 sum and Σ|x|.
    fn block(&self, range: Range<u64>) -> [f64; 3] {
        let mut sums = Sums::default();
        for i in range {
            let x = random_f32(i as u32, self.seed);
            sums.u32 = sums.u32.wrapping_add(x.to_bits());
            sums.f32 += x as f64;
            sums.magnitude += (x as f64).abs();
        }
        [sums.u32 as f64, sums.f32, sums.magnitude]
    }
}

impl ReduceWorkload {
    /// Sums the input: in the page's workers, natively on every core.
    async fn sum_input(&self) -> Sums {
        let [u32, f32, magnitude] = sums::sum(&InputSums { seed: self.seed }, self.n).await;
        Sums { u32: u32 as u64 as u32, f32, magnitude }
    }

    /// The input's sums (after `reference`).
    fn sums(&self) -> &Sums {
        self.sums.get().expect("`reference` summed the input")
    }

    #[expect(clippy::too_many_arguments, reason = "one dispatch's every choice, named at the call")]
    fn step(
        &self,
        gpu: &Gpu,
        modules: &ShaderModules,
        checks: ShaderChecks,
        entry: &str,
        wg: u32,
        groups: u64,
        bindings: &[(u32, &wgpu::Buffer)],
    ) -> Result<Step, Skip> {
        let grid = kernel::linear_grid(gpu, groups)?;
        let pipeline = modules.pipeline(gpu, checks, entry, &[("WG", wg as f64)]);
        let bind_group = kernel::bind_group(gpu, &pipeline, bindings);
        Ok(Step::new(pipeline, bind_group, grid))
    }

    /// `prepare`, at once: its pipelines compile quickly, and are made synchronously.
    fn prepare_now(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let Configuration { kernel, checks, workgroup, .. } = *configuration;
        let wg = workgroup[0];
        let (src, partials) = if kernel.variant == "f32" { (1, 3) } else { (0, 2) };
        let covering = self.n.div_ceil(wg as u64);
        if kernel.kernel.contains("atomic") {
            let total = kernel::storage_buffer(gpu, "total", 4);
            let bindings: [(u32, &wgpu::Buffer); 2] = [(src, &self.src), (4, &total)];
            let sum = self.step(gpu, &self.modules, checks, &kernel.entry_point(), wg, covering, &bindings)?;
            return Ok(Prepared::accumulating(sum, total));
        }
        let modules = match kernel.kernel {
            "subgroup" if !gpu.subgroups => return Err(Skip::needs_subgroups()),
            "subgroup" => &self.subgroup_modules,
            _ => &self.modules,
        };
        // The first pass writes one partial sum per workgroup launched; tree passes then reduce those.
        let grid_stride = matches!(kernel.kernel, "grid" | "subgroup");
        let groups = if grid_stride { covering.min(GRID_WORKGROUPS) } else { covering };
        let first_grid = kernel::linear_grid(gpu, groups)?;
        let mut count = first_grid[0] as u64 * first_grid[1] as u64;
        // One workgroup per few elements (a workgroup of 1) can need more partial sums than a binding holds.
        let device = gpu.info.limits.max_binding_bytes();
        if count * 4 > device {
            return Err(Skip::ExceedsLimit { limit: "max_storage_buffer_binding_size", device, needed: count * 4 });
        }
        let mut buffers = vec![kernel::storage_buffer(gpu, "partial sums", count * 4)];
        // The grid-stride loop reads the input as vec4s too (binding 5 or 6).
        let mut first: Vec<(u32, &wgpu::Buffer)> = vec![(src, &self.src), (partials, &buffers[0])];
        if grid_stride {
            first.push((src + 5, &self.src));
        }
        let mut steps = vec![self.step(gpu, modules, checks, &kernel.entry_point(), wg, groups, &first)?];
        let tree = format!("tree_{}", kernel.variant);
        while count > 1 {
            let next = count.div_ceil(PASS_WORKGROUP as u64);
            let grid = kernel::linear_grid(gpu, next)?;
            let launched = grid[0] as u64 * grid[1] as u64;
            let output = kernel::storage_buffer(gpu, "partial sums", launched * 4);
            let input = buffers.last().expect("the first pass's");
            let bindings: [(u32, &wgpu::Buffer); 2] = [(src, input), (partials, &output)];
            steps.push(self.step(gpu, &self.modules, checks, &tree, PASS_WORKGROUP, next, &bindings)?);
            buffers.push(output);
            count = launched;
        }
        let output = buffers.last().expect("at least one pass").handle();
        Ok(Prepared { steps, output, before: Before::Poison, grid: first_grid, owned: buffers, texture: None })
    }
}

impl Workload for ReduceWorkload {
    fn size(&self) -> u64 {
        self.n
    }

    /// The input, read once.
    fn bytes_per_dispatch(&self, _: &Configuration) -> u64 {
        self.n * 4
    }

    /// f32 sums: one add per element (u32 adds are not flops).
    fn flops_per_dispatch(&self, configuration: &Configuration) -> Option<u64> {
        (configuration.kernel.variant == "f32").then_some(self.n)
    }

    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a> {
        Box::pin(std::future::ready(self.prepare_now(gpu, configuration)))
    }

    /// The input's sums, which the CPU compares with the one word a reduction writes.
    fn reference<'a>(&'a self, _: &'a Gpu, _: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            host::once(&self.sums, self.sum_input()).await;
            Ok(None)
        })
    }

    fn check(&self, configuration: &Configuration, prepared: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let sums = self.sums();
        let got = [output[0], output[1], output[2], output[3]];
        let mut comparison = Comparison::new("sum");
        if configuration.kernel.variant == "u32" {
            comparison.check(0, u32::from_le_bytes(got) as f64, sums.u32 as f64, 0.0);
        } else {
            // Each invocation adds its terms in order, then the trees add log2 of their width per pass:
            // f32 rounding grows with that depth, relative to Σ|x|.
            let [x, y, _] = prepared.grid;
            let invocations = x as u64 * y as u64 * configuration.workgroup[0] as u64;
            let depth = self.n.div_ceil(invocations) as f64 + (self.n as f64).log2() + 2.0;
            let tolerance = 2.0 * f32::EPSILON as f64 * depth * sums.magnitude;
            comparison.check(0, f32::from_le_bytes(got) as f64, sums.f32, tolerance);
        }
        comparison.finish()
    }
}
