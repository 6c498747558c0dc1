//! Workgroup-memory bank conflicts: reads at a stride of 1 to 32 words inside `var<workgroup>`, with and
//! without one padding word per 32.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{
    self, Comparison, Configuration, Expected, Family, KeptReference, KernelId, OwnedBuffer, Parameter, PrepareFuture,
    Prepared, Presentation, Recipe, Reference, ReferenceFuture, ShaderModules, Sizing, Skip, Step, ValidationError,
    Workload, as_yours, family_text,
};
use crate::spec;

/// WGSL has no includes: the grid's index helpers go in front.
const WGSL: &str = concat!(shader!("grid.wgsl"), shader!("banks.wgsl"));

pub const VARIANTS: [&str; 2] = ["plain", "padded"];
/// Strides in 4-byte words.
pub const STRIDES: [u32; 7] = [1, 2, 3, 4, 8, 16, 32];
/// As in banks.wgsl: the tile's words, and the reads of each invocation.
const WORDS: u32 = 2048;
const ROUNDS: u32 = 256;
/// The workgroup size of the sweep, where the device allows it: conflicts are a warp's affair.
const WORKGROUP: u32 = 256;
/// Invocations per dispatch by default: enough workgroups to fill any GPU many times over.
const DEFAULT_INVOCATIONS: u64 = 1 << 22;

pub struct Banks;

/// `value` in banks.wgsl.
fn value(a: u32) -> u32 {
    a.wrapping_mul(2_654_435_761)
}

/// What invocation `lid` of any workgroup sums at `stride`.
pub fn sum(lid: u32, stride: u32) -> u32 {
    (0..ROUNDS).fold(0u32, |sum, r| sum.wrapping_add(value((lid.wrapping_mul(stride) + r) % WORDS)))
}

/// What the page, the summary and `wgsweep describe` say about the family.
pub const PRESENTATION: Presentation = Presentation {
    about: family_text!("banks"),
    contrasts: &[kernel::Contrast {
        kernel: ("tile_read/padded", Some(32)),
        against: ("tile_read/plain", Some(32)),
        sentence: "Padded rows make workgroup-memory reads 32 words apart {than} unpadded ones (bank conflicts)",
    }],
    ..Presentation::NONE
};

impl Family for Banks {
    fn name(&self) -> &'static str {
        "banks"
    }

    fn kernels(&self) -> Vec<KernelId> {
        KernelId::every_variant(self.name(), &["tile_read"], &VARIANTS)
    }

    fn size_unit(&self) -> &'static str {
        "invocations"
    }

    fn default_size(&self, limits: &ComputeLimits) -> Sizing {
        Sizing::capped(DEFAULT_INVOCATIONS, limits.max_binding_bytes() / 4, 4, "the output is")
    }

    fn round_size(&self, size: u64) -> u64 {
        size.clamp(WORKGROUP as u64, u32::MAX as u64 / 4)
    }

    fn workgroup_shapes(&self, _: &KernelId, limits: &ComputeLimits) -> Vec<[u32; 3]> {
        let largest = limits.max_invocations_per_workgroup.min(limits.max_workgroup_size_x);
        vec![[WORKGROUP.min(largest), 1, 1]]
    }

    fn parameter(&self, _: &KernelId) -> Option<Parameter> {
        Some(Parameter::amounts("stride", STRIDES.to_vec()))
    }

    fn gbps_is_device_memory(&self) -> bool {
        false
    }

    fn workgroup_storage_bytes(&self, _: &Configuration) -> u64 {
        4 * (WORDS + WORDS / 32) as u64
    }

    /// Invocations only set how long a dispatch lasts: a slow device gets fewer.
    fn sized_by_time(&self) -> bool {
        true
    }

    fn setup(&'static self, gpu: &Gpu, size: u64, _seed: u32) -> Result<Box<dyn Workload>, String> {
        let bytes = size * 4;
        kernel::check_binding(gpu, &format!("{bytes} bytes of sums"), bytes)?;
        let sums = kernel::storage_buffer(gpu, "sums", bytes);
        let modules = ShaderModules::new("banks.wgsl", WGSL);
        Ok(Box::new(BanksWorkload { invocations: size, modules, sums, reference: KeptReference::default() }))
    }

    /// The same WGSL, workgroup and strides, validated against `reference` below: the same sums read
    /// straight from the words' values, without workgroup memory.
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, limits: &ComputeLimits) -> Option<String> {
        let n = self.round_size(size);
        let largest = limits.max_invocations_per_workgroup.min(limits.max_workgroup_size_x);
        let spec = spec::Spec {
            // The stride changes the sums: a dimension of the problem, not a tunable.
            sizes: STRIDES.iter().map(|&s| spec::Size::named(&[("n", n), ("stride", s as u64)])).collect(),
            workgroup_size: as_yours::line_workgroup(),
            tunables: spec::Ordered::of(&[("WG", [WORKGROUP.min(largest)].as_slice())]),
            constants: spec::Ordered::of(&[("STRIDE", "stride")]),
            grid: Some(as_yours::linear_grid("ceil_div(n, WG)", limits)),
            bytes: Some(format!("{} * n", ROUNDS * 4)),
            workgroup_memory: Some((4 * (WORDS + WORDS / 32)).to_string()),
            validation: spec::ValidationSpec { reference: Some("reference".into()), ..Default::default() },
            ..spec::Spec::new(
                format!("tile_read_{}", kernel.variant),
                kernel.entry_point(),
                vec![spec::BufferSpec::new(0, "sums", "u32", "n").output()],
            )
        };
        let reference = "
@compute @workgroup_size(WG)
fn reference(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    var sum = 0u;
    for (var r = 0u; r < ROUNDS; r++) { sum += value((lid * STRIDE + r) % WORDS); }
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&sums) { sums[i] = sum; }
}
";
        Some(as_yours::open(&spec, kernel, "its WGSL, workgroup and strides.", &[WGSL, reference]))
    }

    fn reference_words(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        kernel::recipe_bytes::<Sums>(recipe, range)
    }
}

struct BanksWorkload {
    invocations: u64,
    modules: ShaderModules,
    sums: OwnedBuffer,
    /// The workgroup size and stride checked last, and their sums.
    reference: KeptReference<(u32, u32)>,
}

/// Each invocation's sum at `stride`, by its place in the workgroup.
#[derive(Serialize, Deserialize)]
struct Sums {
    stride: u32,
}

impl Recipe for Sums {
    const FAMILY: &'static str = "banks";

    fn words(&self, lids: Range<u64>) -> impl Iterator<Item = Expected> {
        lids.map(|lid| Expected::Word(sum(lid as u32, self.stride)))
    }

    fn words_only(&self) -> bool {
        true
    }
}

impl BanksWorkload {
    /// `prepare`, at once: its pipelines compile quickly, and are made synchronously.
    fn prepare_now(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let Configuration { kernel, checks, workgroup, parameter } = *configuration;
        let stride = parameter.unwrap_or(1);
        let constants = [("WG", workgroup[0] as f64), ("STRIDE", stride as f64)];
        let pipeline = self.modules.pipeline(gpu, checks, &kernel.entry_point(), &constants);
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, &self.sums)]);
        let grid = kernel::linear_grid(gpu, self.invocations.div_ceil(workgroup[0] as u64))?;
        Ok(Prepared::single(Step::new(pipeline, bind_group, grid), self.sums.handle(), Vec::new()))
    }
}

impl Workload for BanksWorkload {
    fn size(&self) -> u64 {
        self.invocations
    }

    /// Workgroup-memory reads: 256 words per invocation.
    fn bytes_per_dispatch(&self, _: &Configuration) -> u64 {
        self.invocations * ROUNDS as u64 * 4
    }

    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a> {
        Box::pin(std::future::ready(self.prepare_now(gpu, configuration)))
    }

    /// Every invocation's sum depends only on its place in the workgroup: one workgroup's sums repeat.
    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let (wg, stride) = (configuration.workgroup[0], configuration.parameter.unwrap_or(1));
            let sums = Reference::periodic(gpu, "sums", self.invocations, wg as u64, Sums { stride });
            Ok(Some(self.reference.get_or_build((wg, stride), sums).await))
        })
    }

    /// Every invocation's sum depends only on its place in the workgroup.
    fn check(&self, configuration: &Configuration, _: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let wg = configuration.workgroup[0];
        let stride = configuration.parameter.unwrap_or(1);
        let want: Vec<u32> = (0..wg).map(|lid| sum(lid, stride)).collect();
        let mut comparison = Comparison::new("sums");
        for (i, got) in kernel::u32s(output).enumerate() {
            comparison.check(i as u64, got as f64, want[i % wg as usize] as f64, 0.0);
        }
        comparison.finish()
    }
}
