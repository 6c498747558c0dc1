//! Data layouts: the same particle update with its fields stored as an array of structs (with WGSL's real
//! vec3 padding, and packed), as a struct of arrays, and as arrays of struct-of-array blocks; once touching
//! every field, once touching one. The state is updated in place, so each configuration starts from a
//! freshly written initial state instead of a poisoned output.

use std::collections::BTreeSet;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::fill::{hash_u32, unit_f32};
use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{
    self, Before, ChartKind, Comparison, Configuration, Expected, Family, KeptReference, KernelId, OwnedBuffer,
    PrepareFuture, Prepared, Presentation, Recipe, Reference, ReferenceFuture, ShaderModules, Sizing, Skip, Step,
    ValidationError, Workload, as_yours, f32s, family_text,
};
use crate::spec;

/// WGSL has no includes: the shared hash and the grid's index helpers go in front.
const WGSL: &str = concat!(shader!("hash.wgsl"), shader!("grid.wgsl"), shader!("layout.wgsl"));

pub const WORKLOADS: [&str; 2] = ["touch_all", "touch_one"];
pub const LAYOUTS: [&str; 5] = ["aos_vec3", "aos_packed", "soa", "aosoa32", "aosoa64"];
/// Fields of a particle: position x, y, z, velocity x, y, z, lifetime.
const FIELDS: u64 = 7;
const LIFE: u64 = 6;
/// Bytes of one particle as a WGSL struct with vec3 members: each vec3 aligns to 16 bytes.
pub const STRUCT_BYTES: u64 = 32;
/// Where each field sits in that struct, in f32s: `pos` at 0, padding at 3, `vel` at 4, `life` at 7.
const STRUCT_SLOTS: [u64; 7] = [0, 1, 2, 4, 5, 6, 7];
/// The granule memory moves in on current GPUs (an L2 sector); the "moved" figure counts whole sectors.
pub const SECTOR_BYTES: u64 = 32;
/// Particle counts are a multiple of this: every AoSoA block is whole, every SoA field starts on a sector,
/// and the access pattern repeats every `PERIOD` particles.
const PERIOD: u64 = 512;
/// As STREAM: state far larger than any last-level cache (as the padded struct: 8 Mi particles).
const DEFAULT_STATE_BYTES: u64 = 256 << 20;
const DT: f32 = 0.015625;
const GRAVITY_STEP: f32 = -0.15328125;

pub struct Layouts;

/// Where field `field` of particle `i` sits, in f32s from the buffer's start, for `layout` with `count`
/// particles (as `slot` in layout.wgsl; `aos_vec3` by the struct's offsets).
pub fn slot(layout: &str, count: u64, i: u64, field: u64) -> u64 {
    match layout {
        "aos_vec3" => i * STRUCT_BYTES / 4 + STRUCT_SLOTS[field as usize],
        "aos_packed" => i * FIELDS + field,
        "soa" => field * count + i,
        _ => {
            let block = block(layout);
            (i / block) * FIELDS * block + field * block + i % block
        }
    }
}

/// The particle and field at word `k` of `layout`, the inverse of `slot`; `None` for a struct's padding.
fn field_at(layout: &str, count: u64, k: u64) -> Option<(u64, u64)> {
    match layout {
        "aos_vec3" => {
            let words = STRUCT_BYTES / 4;
            let field = STRUCT_SLOTS.iter().position(|&s| s == k % words)?;
            Some((k / words, field as u64))
        }
        "aos_packed" => Some((k / FIELDS, k % FIELDS)),
        "soa" => Some((k % count, k / count)),
        _ => {
            let block = block(layout);
            let (group, within) = (k / (FIELDS * block), k % (FIELDS * block));
            Some((group * block + within % block, within / block))
        }
    }
}

/// Words of state `layout` takes for `count` particles.
fn words(layout: &str, count: u64) -> u64 {
    if layout == "aos_vec3" { count * STRUCT_BYTES / 4 } else { count * FIELDS }
}

fn block(layout: &str) -> u64 {
    layout.strip_prefix("aosoa").and_then(|b| b.parse().ok()).unwrap_or(1)
}

/// Bytes moved when `fields` of all `count` particles are read and written: whole 32-byte sectors, counted
/// over one period of the layout's pattern and scaled.
pub fn moved_bytes(layout: &str, count: u64, fields: &[u64]) -> u64 {
    let sectors: BTreeSet<u64> =
        (0..PERIOD).flat_map(|i| fields.iter().map(move |&f| slot(layout, count, i, f) * 4 / SECTOR_BYTES)).collect();
    2 * sectors.len() as u64 * SECTOR_BYTES * (count / PERIOD)
}

fn touched_fields(workload: &str) -> &'static [u64] {
    if workload == "touch_one" { &[LIFE] } else { &[0, 1, 2, 3, 4, 5, 6] }
}

/// `generate` in layout.wgsl: seven fields from one key.
fn generate(key: u32) -> [f32; 7] {
    let mut f = [0.0; 7];
    for (k, value) in f.iter_mut().enumerate() {
        *value = unit_f32(hash_u32(key.wrapping_add(k as u32)));
    }
    f[LIFE as usize] += 1.0;
    f
}

/// `initial` in layout.wgsl.
pub fn initial(i: u32, seed: u32) -> [f32; 7] {
    generate(hash_u32(seed) ^ i.wrapping_mul(FIELDS as u32))
}

/// `advance` in layout.wgsl, operation for operation.
pub fn advance(i: u32, before: [f32; 7]) -> [f32; 7] {
    let mut p = before;
    p[4] += GRAVITY_STEP;
    for axis in 0..3 {
        p[axis] += p[axis + 3] * DT;
    }
    p[6] -= DT;
    if p[6] <= 0.0 { generate(hash_u32(p[0].to_bits() ^ i)) } else { p }
}

/// What the page, the summary and `wgsweep describe` say about the family.
pub const PRESENTATION: Presentation = Presentation {
    about: family_text!("layout"),
    chart: ChartKind::Bars,
    contrasts: &[
        kernel::Contrast {
            kernel: ("touch_one/soa", None),
            against: ("touch_one/aos_vec3", None),
            sentence: "A struct of arrays (SoA) is {than} an array of structs when one field is touched",
        },
        kernel::Contrast {
            kernel: ("touch_all/soa", None),
            against: ("touch_all/aos_vec3", None),
            sentence: "A struct of arrays (SoA) is {than} an array of structs when every field is touched",
        },
    ],
    ..Presentation::NONE
};

impl Family for Layouts {
    fn name(&self) -> &'static str {
        "layout"
    }

    fn kernels(&self) -> Vec<KernelId> {
        KernelId::every_variant(self.name(), &WORKLOADS, &LAYOUTS)
    }

    fn size_unit(&self) -> &'static str {
        "particles"
    }

    fn unit_bytes(&self) -> u64 {
        STRUCT_BYTES
    }

    fn default_size(&self, limits: &ComputeLimits) -> Sizing {
        let allowed = self.round_size(limits.max_binding_bytes() / STRUCT_BYTES);
        Sizing::capped(DEFAULT_STATE_BYTES / STRUCT_BYTES, allowed, STRUCT_BYTES, "the particle state is")
    }

    fn round_size(&self, size: u64) -> u64 {
        // Whole periods, and u32 float indices for every layout.
        let most = u32::MAX as u64 / STRUCT_BYTES;
        (size.clamp(PERIOD, most) / PERIOD) * PERIOD
    }

    fn workgroup_storage_bytes(&self, _: &Configuration) -> u64 {
        0
    }

    /// Each update and layout: the same WGSL, state and workgroup sizes; the initial state made by the
    /// family's own entry point in a setup pass, which the update then steps in place, validated by
    /// agreement between workgroup sizes (the arithmetic is exact).
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, limits: &ComputeLimits) -> Option<String> {
        let n = self.round_size(size);
        let layout = kernel.variant;
        let is_struct = layout == "aos_vec3";
        // The struct's array counts particles; the floats' array holds every field of each.
        let state = match is_struct {
            true => spec::BufferSpec::new(0, "particles", "f32", "n"),
            false => spec::BufferSpec::new(1, "floats", "f32", format!("{FIELDS} * n")),
        };
        let kind = if is_struct { "struct" } else { "floats" };
        let layout_code = match layout {
            "aos_vec3" | "aos_packed" => "0",
            "soa" => "1",
            _ => "2",
        };
        let mut init = spec::PassSpec::new(format!("init_{kind}"), as_yours::linear_grid("ceil_div(n, 256)", limits));
        init.constants = spec::Ordered::of(&[("WG", "256")]);
        let block = block(layout).to_string();
        let fields = touched_fields(kernel.kernel).len();
        let spec = spec::Spec {
            sizes: vec![spec::Size::n(n)],
            workgroup_size: as_yours::line_workgroup(),
            tunables: as_yours::line_shapes(limits),
            constants: spec::Ordered::of(&[("COUNT", "n"), ("LAYOUT", layout_code), ("BLOCK", &block), ("SEED", "1")]),
            grid: Some(as_yours::linear_grid("ceil_div(n, WG)", limits)),
            bytes: Some(format!("{} * n", 8 * fields)),
            setup: vec![init],
            validation: spec::ValidationSpec { tolerance: Some(0.0), ..Default::default() },
            ..spec::Spec::new(
                kernel.label().replace('/', "_"),
                format!("{}_{kind}", kernel.kernel),
                vec![state.output()],
            )
        };
        let what = "its WGSL, state and workgroup sizes; the first state made by\n\
                    // its own entry point before the update runs.";
        Some(as_yours::open(&spec, kernel, what, &[WGSL]))
    }

    fn setup(&'static self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        let bytes = size * STRUCT_BYTES;
        kernel::check_binding(gpu, &format!("{bytes} bytes of particle state"), bytes)?;
        // One buffer serves every layout: each configuration writes its own initial state into it.
        let state = kernel::storage_buffer(gpu, "particles", bytes);
        let modules = ShaderModules::new("layout.wgsl", WGSL);
        Ok(Box::new(LayoutWorkload { count: size, seed, modules, state, reference: KeptReference::default() }))
    }

    fn reference_words(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        kernel::recipe_bytes::<Stepped>(recipe, range)
    }
}

struct LayoutWorkload {
    count: u64,
    seed: u32,
    modules: ShaderModules,
    state: OwnedBuffer,
    /// The update and layout checked last, and the state after one step.
    reference: KeptReference<KernelId>,
}

/// Particle `i` after one step of `kernel` from its initial state.
fn after(kernel: &str, seed: u32, i: u64) -> [f32; 7] {
    let before = initial(i as u32, seed);
    if kernel == "touch_one" {
        let mut p = before;
        p[LIFE as usize] -= DT;
        p
    } else {
        advance(i as u32, before)
    }
}

/// The state after one step of `update` of `count` particles stored as `layout`.
#[derive(Serialize, Deserialize)]
struct Stepped {
    update: String,
    layout: String,
    count: u64,
    seed: u32,
}

impl Recipe for Stepped {
    const FAMILY: &'static str = "layout";

    fn words(&self, range: Range<u64>) -> impl Iterator<Item = Expected> {
        // Neighbouring words of an array of structs are one particle's: it is computed once for them.
        let mut last: Option<(u64, [f32; 7])> = None;
        range.map(move |k| {
            let Some((i, field)) = field_at(&self.layout, self.count, k) else { return Expected::Any };
            let particle = match last {
                Some((known, particle)) if known == i => particle,
                _ => after(&self.update, self.seed, i),
            };
            last = Some((i, particle));
            Expected::exact(particle[field as usize])
        })
    }
}

impl LayoutWorkload {
    fn step(&self, gpu: &Gpu, configuration: &Configuration, entry: &str) -> Result<Step, Skip> {
        let Configuration { kernel, checks, workgroup, .. } = configuration;
        let layout = kernel.variant;
        let grid = kernel::linear_grid(gpu, self.count.div_ceil(workgroup[0] as u64))?;
        let layout_code = match layout {
            "aos_vec3" | "aos_packed" => 0,
            "soa" => 1,
            _ => 2,
        };
        let constants = [
            ("WG", workgroup[0] as f64),
            ("COUNT", self.count as f64),
            ("LAYOUT", layout_code as f64),
            ("BLOCK", block(layout) as f64),
            ("SEED", self.seed as f64),
        ];
        let is_struct = layout == "aos_vec3";
        let entry = format!("{entry}_{}", if is_struct { "struct" } else { "floats" });
        let pipeline = self.modules.pipeline(gpu, *checks, &entry, &constants);
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(if is_struct { 0 } else { 1 }, &self.state)]);
        Ok(Step::new(pipeline, bind_group, grid))
    }

    /// `prepare`, at once: its pipelines compile quickly, and are made synchronously.
    fn prepare_now(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let init = self.step(gpu, configuration, "init")?;
        let update = self.step(gpu, configuration, configuration.kernel.kernel)?;
        let grid = update.grid;
        Ok(Prepared {
            steps: vec![update],
            output: self.state.handle(),
            before: Before::State(vec![init]),
            grid,
            owned: Vec::new(),
            texture: None,
        })
    }
}

impl Workload for LayoutWorkload {
    fn size(&self) -> u64 {
        self.count
    }

    /// The fields the kernel uses, read once and written once.
    fn bytes_per_dispatch(&self, configuration: &Configuration) -> u64 {
        2 * self.count * 4 * touched_fields(configuration.kernel.kernel).len() as u64
    }

    fn moved_bytes_per_dispatch(&self, configuration: &Configuration) -> Option<u64> {
        let KernelId { kernel, variant, .. } = configuration.kernel;
        Some(moved_bytes(variant, self.count, touched_fields(kernel)))
    }

    fn notes(&self) -> Vec<String> {
        vec![format!(
            "aos_vec3 stores each particle as a {STRUCT_BYTES}-byte WGSL struct: 28 bytes of fields and 4 bytes of \
             padding after `pos` (vec3<f32> aligns to 16 bytes); aos_packed needs 28"
        )]
    }

    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a> {
        Box::pin(std::future::ready(self.prepare_now(gpu, configuration)))
    }

    /// One step from the initial state, field by field at the layout's slots: exact, since the shader's
    /// arithmetic is.
    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let KernelId { kernel, variant, .. } = configuration.kernel;
            let stepped = Stepped { update: kernel.into(), layout: variant.into(), count: self.count, seed: self.seed };
            let state = Reference::build(gpu, "particles", words(variant, self.count), stepped);
            Ok(Some(self.reference.get_or_build(configuration.kernel, state).await))
        })
    }

    fn check(&self, configuration: &Configuration, _: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let KernelId { kernel, variant, .. } = configuration.kernel;
        let words: Vec<f32> = f32s(output).collect();
        let mut comparison = Comparison::new("particles");
        for i in 0..self.count {
            let want = after(kernel, self.seed, i);
            for field in 0..FIELDS {
                let at = slot(variant, self.count, i, field);
                comparison.check(at, words[at as usize] as f64, want[field as usize] as f64, 0.0);
            }
        }
        comparison.finish()
    }
}
