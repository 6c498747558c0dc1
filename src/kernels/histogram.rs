//! Histograms of bytes: every byte an atomic on global memory, or counted in bins private to the workgroup
//! and merged once per workgroup; on uniform and skewed inputs, with 16 to 4096 bins.

use std::cell::OnceCell;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::fill::hash_u32;
use crate::gpu::{ComputeLimits, Gpu};
use crate::host;
use crate::kernel::{
    self, Comparison, Configuration, Expected, Family, KeptReference, KernelId, OwnedBuffer, Parameter, PrepareFuture,
    Prepared, Presentation, Recipe, Reference, ReferenceFuture, ShaderChecks, ShaderModules, Sizing, Skip, Step,
    ValidationError, Workload, as_yours, family_text,
};
use crate::spec;

/// WGSL has no includes: the shared hash and the grid's index helpers go in front.
const WGSL: &str = concat!(shader!("hash.wgsl"), shader!("grid.wgsl"), shader!("histogram.wgsl"));

pub const STRATEGIES: [&str; 2] = ["global", "workgroup"];
pub const INPUTS: [&str; 2] = ["uniform", "skewed"];
pub const BINS: [u32; 5] = [16, 64, 256, 1024, 4096];
/// Byte lanes the reference keeps apart: enough for the most lanes any bin count uses (4096 / 256).
const LANES: usize = 16;
/// Workgroups the workgroup-bins kernel launches, whatever the input's size.
const GRID_WORKGROUPS: u64 = 1024;
/// The workgroup size of the dispatch that writes the inputs.
const SETUP_WORKGROUP: u32 = 256;
/// As STREAM: an input far larger than any last-level cache.
const DEFAULT_INPUT_BYTES: u64 = 256 << 20;

pub struct Histogram;

/// Word `i` of an input, as `make_input` in histogram.wgsl writes it.
pub fn input_word(i: u32, seed: u32, skewed: bool) -> u32 {
    let key = i ^ hash_u32(seed);
    let word = hash_u32(key);
    if !skewed {
        return word;
    }
    let chooser = hash_u32(key ^ 0x9e37_79b9);
    let keep = (0..4).filter(|k| (chooser >> (8 * k)) & 7 == 0).fold(0, |keep, k| keep | 0xff << (8 * k));
    word & keep
}

/// (lanes, shift) for `bins`: one 256-bin histogram per lane past 256 bins; within a lane, a byte's bin is
/// its top bits, `byte >> shift`.
fn layout(bins: u32) -> (u32, u32) {
    let lanes = (bins / 256).max(1);
    (lanes, 8 - (bins / lanes).ilog2())
}

/// What the page, the summary and `wgsweep describe` say about the family.
pub const PRESENTATION: Presentation = Presentation {
    about: family_text!("histogram"),
    contrasts: &[
        kernel::Contrast {
            kernel: ("workgroup/uniform", Some(256)),
            against: ("global/uniform", Some(256)),
            sentence: "Counting in workgroup memory first is {than} atomics on the global histogram (256 bins)",
        },
        kernel::Contrast {
            kernel: ("workgroup/skewed", Some(256)),
            against: ("global/skewed", Some(256)),
            sentence: "On skewed input, counting in workgroup memory first is {than} global atomics (256 bins)",
        },
    ],
    ..Presentation::NONE
};

impl Family for Histogram {
    fn name(&self) -> &'static str {
        "histogram"
    }

    fn kernels(&self) -> Vec<KernelId> {
        KernelId::every_variant(self.name(), &STRATEGIES, &INPUTS)
    }

    fn size_unit(&self) -> &'static str {
        "u32 words (four bytes each)"
    }

    fn default_size(&self, limits: &ComputeLimits) -> Sizing {
        Sizing::capped(DEFAULT_INPUT_BYTES / 4, limits.max_binding_bytes() / 4, 4, "the input is")
    }

    fn round_size(&self, size: u64) -> u64 {
        size.clamp(1024, u32::MAX as u64 / 4)
    }

    fn parameter(&self, _: &KernelId) -> Option<Parameter> {
        Some(Parameter::amounts("bins", BINS.to_vec()))
    }

    fn workgroup_storage_bytes(&self, configuration: &Configuration) -> u64 {
        match configuration.kernel.kernel {
            "workgroup" => 4 * configuration.parameter.unwrap_or(0) as u64,
            _ => 0,
        }
    }

    /// Every histogram: the uniform input random words (the fill's hash in place of `make_input`'s), the
    /// skewed one made by `make_input` in a setup pass, as the family makes it; the bins a size dimension (a
    /// histogram's length follows them), every count validated by agreement between workgroup sizes, counts
    /// being exact.
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, limits: &ComputeLimits) -> Option<String> {
        let n = self.round_size(size);
        let sizes = BINS.iter().map(|&bins| spec::Size::named(&[("n", n), ("bins", bins as u64)])).collect();
        let buffers = vec![
            spec::BufferSpec::new(0, "words", "u32", "n").filled(spec::Fill::Random([0.0, u32::MAX as f64])),
            spec::BufferSpec::new(1, "counts", "atomic<u32>", "bins").filled(spec::Fill::Zeros).output(),
        ];
        // The skewed input is the family's own, made by its entry point in place of the random words.
        let mut setup = Vec::new();
        if kernel.variant == "skewed" {
            let mut make = spec::PassSpec::new("make_input".into(), as_yours::linear_grid("ceil_div(n, 256)", limits));
            make.constants = spec::Ordered::of(&[("WG", "256"), ("SEED", "1"), ("SKEWED", "1")]);
            make.bind = spec::Ordered::of(&[("input", "words")]);
            setup.push(make);
        }
        let groups = match kernel.kernel {
            "workgroup" => format!("min(ceil_div(n, WG), {GRID_WORKGROUPS})"),
            _ => "ceil_div(n, WG)".into(),
        };
        let constants =
            [("BINS", "bins"), ("LANES", "max(bins / 256, 1)"), ("SHIFT", "bins <= 16 ? 4 : bins <= 64 ? 2 : 0")];
        let spec = spec::Spec {
            sizes,
            workgroup_size: as_yours::line_workgroup(),
            tunables: as_yours::line_shapes(limits),
            constants: spec::Ordered::of(&constants),
            grid: Some(as_yours::linear_grid(&groups, limits)),
            bytes: Some("4 * n".into()),
            workgroup_memory: (kernel.kernel == "workgroup").then(|| "4 * bins".into()),
            setup,
            validation: spec::ValidationSpec { tolerance: Some(0.0), ..Default::default() },
            ..spec::Spec::new(kernel.label().replace('/', "_"), format!("histogram_{}", kernel.kernel), buffers)
        };
        Some(as_yours::open(&spec, kernel, "its WGSL, bins and workgroup sizes.", &[WGSL]))
    }

    fn setup(&'static self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        let bytes = size * 4;
        kernel::check_binding(gpu, &format!("a {bytes}-byte input"), bytes)?;
        let modules = ShaderModules::new("histogram.wgsl", WGSL);
        let make = |skewed: bool| -> Result<OwnedBuffer, String> {
            let input = kernel::storage_buffer(gpu, "histogram input", bytes);
            let constants =
                [("WG", SETUP_WORKGROUP as f64), ("SEED", seed as f64), ("SKEWED", if skewed { 1.0 } else { 0.0 })];
            let pipeline = modules.pipeline(gpu, ShaderChecks::Default, "make_input", &constants);
            let bind_group = kernel::bind_group(gpu, &pipeline, &[(2, &input)]);
            let grid = kernel::linear_grid(gpu, size.div_ceil(SETUP_WORKGROUP as u64)).map_err(|s| s.to_string())?;
            kernel::submit_steps(gpu, &[Step::new(pipeline, bind_group, grid)]);
            Ok(input)
        };
        let inputs = [make(false)?, make(true)?];
        let (references, reference) = (Default::default(), KeptReference::default());
        Ok(Box::new(HistogramWorkload { n: size, seed, modules, inputs, references, reference }))
    }

    fn reference_words(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        kernel::recipe_bytes::<Counts>(recipe, range)
    }
}

struct HistogramWorkload {
    n: u64,
    seed: u32,
    modules: ShaderModules,
    /// The uniform input, then the skewed one.
    inputs: [OwnedBuffer; 2],
    /// Per input, the count of each byte value in each of `LANES` lanes, computed when first needed.
    references: [OnceCell<Vec<[u64; 256]>>; 2],
    /// The input and bins checked last, and the histogram.
    reference: KeptReference<(bool, usize)>,
}

impl HistogramWorkload {
    /// The input's lane counts (after `reference`).
    fn lane_counts(&self, skewed: bool) -> &[[u64; 256]] {
        self.references[skewed as usize].get().expect("`reference` counted the input")
    }

    /// Counts the input's bytes, in chunks that give the page a turn.
    async fn count_lanes(&self, skewed: bool) -> Vec<[u64; 256]> {
        let mut lanes = vec![[0u64; 256]; LANES];
        host::for_chunks(self.n, |range| {
            for i in range {
                let word = input_word(i as u32, self.seed, skewed);
                for k in 0..4u64 {
                    let lane = ((4 * i + k) % LANES as u64) as usize;
                    lanes[lane][((word >> (8 * k)) & 0xff) as usize] += 1;
                }
            }
        })
        .await;
        lanes
    }

    /// What the histogram with `bins` bins of an input holds.
    fn counts(&self, skewed: bool, bins: u32) -> Vec<u64> {
        let (lanes, shift) = layout(bins);
        let per_lane = bins / lanes;
        let mut counts = vec![0u64; bins as usize];
        for (lane, bytes) in self.lane_counts(skewed).iter().enumerate() {
            for (byte, &count) in bytes.iter().enumerate() {
                let bin = (lane as u32 % lanes) * per_lane + (byte as u32 >> shift);
                counts[bin as usize] += count;
            }
        }
        counts
    }
}

/// A histogram's bins, as the GPU's counts wrap.
#[derive(Serialize, Deserialize)]
struct Counts {
    counts: Vec<u32>,
}

impl Recipe for Counts {
    const FAMILY: &'static str = "histogram";

    fn words(&self, bins: Range<u64>) -> impl Iterator<Item = Expected> {
        self.counts[bins.start as usize..bins.end as usize].iter().map(|&count| Expected::Word(count))
    }

    fn words_only(&self) -> bool {
        true
    }
}

impl HistogramWorkload {
    /// `prepare`, at once: its pipelines compile quickly, and are made synchronously.
    fn prepare_now(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let Configuration { kernel, checks, workgroup, parameter } = *configuration;
        let bins = parameter.unwrap_or(256);
        if !bins.is_power_of_two() || !(16..=4096).contains(&bins) {
            return Err(Skip::NotApplicable(format!("bins go in powers of two from 16 to 4096, not {bins}")));
        }
        let (lanes, shift) = layout(bins);
        let wg = workgroup[0];
        let skewed = kernel.variant == "skewed";
        let counts = kernel::storage_buffer(gpu, "histogram", bins as u64 * 4);
        let constants = [("WG", wg as f64), ("BINS", bins as f64), ("LANES", lanes as f64), ("SHIFT", shift as f64)];
        let entry = format!("histogram_{}", kernel.kernel);
        let pipeline = self.modules.pipeline(gpu, checks, &entry, &constants);
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, &self.inputs[skewed as usize]), (1, &counts)]);
        let covering = self.n.div_ceil(wg as u64);
        let groups = if kernel.kernel == "workgroup" { covering.min(GRID_WORKGROUPS) } else { covering };
        let grid = kernel::linear_grid(gpu, groups)?;
        Ok(Prepared::accumulating(Step::new(pipeline, bind_group, grid), counts))
    }
}

impl Workload for HistogramWorkload {
    fn size(&self) -> u64 {
        self.n
    }

    /// The input, read once.
    fn bytes_per_dispatch(&self, _: &Configuration) -> u64 {
        self.n * 4
    }

    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a> {
        Box::pin(std::future::ready(self.prepare_now(gpu, configuration)))
    }

    /// Every bin's count, exact (counts wrap at 2^32 on the GPU).
    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let skewed = configuration.kernel.variant == "skewed";
            host::once(&self.references[skewed as usize], self.count_lanes(skewed)).await;
            let counts = self.counts(skewed, configuration.parameter.unwrap_or(256));
            let counts = Counts { counts: counts.into_iter().map(|count| count as u32).collect() };
            let key = (skewed, counts.counts.len());
            let bins = Reference::build(gpu, "bin", counts.counts.len() as u64, counts);
            Ok(Some(self.reference.get_or_build(key, bins).await))
        })
    }

    fn check(&self, configuration: &Configuration, _: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let bins = configuration.parameter.unwrap_or(256);
        let want = self.counts(configuration.kernel.variant == "skewed", bins);
        let mut comparison = Comparison::new("bin");
        for (bin, (got, want)) in kernel::u32s(output).zip(want).enumerate() {
            // Counts wrap at 2^32 on the GPU.
            comparison.check(bin as u64, got as f64, (want % (1 << 32)) as f64, 0.0);
        }
        comparison.finish()
    }
}
