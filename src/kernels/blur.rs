//! 2-D box blur, radius 1 … 8, of an f32 image: every window read from memory, against a tile with its
//! halo staged once in workgroup memory; swept over every 2-D workgroup shape.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::fill::random_f32;
use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{
    self, ChartKind, Comparison, Configuration, Expected, Family, ImageBuffers, KeptReference, KernelId, Parameter,
    PrepareFuture, Prepared, Presentation, Recipe, Reference, ReferenceFuture, ShaderModules, Sizing, Skip, Step,
    ValidationError, Workload, as_yours, f32s, family_text,
};
use crate::spec;

const WGSL: &str = shader!("blur.wgsl");

pub const KERNELS: [&str; 2] = ["box_direct", "box_tiled"];
pub fn radii() -> Vec<u32> {
    vec![1, 2, 4, 8]
}
/// 16 Mi pixels (64 MiB): larger than the last-level caches of today's GPUs.
const DEFAULT_PIXELS: u64 = 1 << 24;

pub struct Blur;

/// Pixels in the window of radius r.
fn window(r: u32) -> u64 {
    let side = 2 * r as u64 + 1;
    side * side
}

/// What the page, the summary and `wgsweep describe` say about the family.
pub const PRESENTATION: Presentation = Presentation {
    about: family_text!("blur"),
    chart: ChartKind::Heatmap,
    contrasts: &[kernel::Contrast {
        kernel: ("box_tiled/f32", None),
        against: ("box_direct/f32", None),
        sentence: "A blur that loads its tile into workgroup memory is {than} one that reads each neighbour from memory",
    }],
    ..Presentation::NONE
};

impl Family for Blur {
    fn name(&self) -> &'static str {
        "blur"
    }

    fn kernels(&self) -> Vec<KernelId> {
        KernelId::every_variant(self.name(), &KERNELS, &["f32"])
    }

    fn size_unit(&self) -> &'static str {
        "pixels"
    }

    fn default_size(&self, limits: &ComputeLimits) -> Sizing {
        Sizing::capped(DEFAULT_PIXELS, limits.max_binding_bytes() / 4, 4, "the image is")
    }

    fn round_size(&self, size: u64) -> u64 {
        size.clamp(64 * 64, u32::MAX as u64)
    }

    fn workgroup_shapes(&self, _: &KernelId, limits: &ComputeLimits) -> Vec<[u32; 3]> {
        kernel::shapes::power_of_two_shapes(limits)
    }

    fn parameter(&self, _: &KernelId) -> Option<Parameter> {
        Some(Parameter::amounts("radius", radii()))
    }

    fn workgroup_storage_bytes(&self, configuration: &Configuration) -> u64 {
        let Configuration { kernel, workgroup: [x, y, _], parameter, .. } = *configuration;
        let r = parameter.unwrap_or(0);
        if kernel.kernel == "box_tiled" { 4 * (x + 2 * r) as u64 * (y + 2 * r) as u64 } else { 0 }
    }

    fn setup(&'static self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        let image = ImageBuffers::new(gpu, size, seed, "blurred image")?;
        let modules = ShaderModules::new("blur.wgsl", WGSL);
        let inputs = Inputs { width: image.width, height: image.height, seed };
        Ok(Box::new(BlurWorkload { image, inputs, modules, reference: KeptReference::default() }))
    }

    /// The same WGSL, image, shapes and radii; box_tiled validated against box_direct, box_direct by
    /// agreement (both add each window in the same order).
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, limits: &ComputeLimits) -> Option<String> {
        let pixels = "width * height";
        let buffers = vec![
            spec::BufferSpec::new(0, "src", "f32", pixels),
            spec::BufferSpec::new(1, "dst", "f32", pixels).output(),
        ];
        let (tunables, restrictions) = as_yours::plane_shapes(limits);
        // The radius changes the output: a dimension of the problem, not a tunable.
        let image = as_yours::plane_size(self.round_size(size)).0;
        let sizes = radii().into_iter().map(|r| {
            let mut dimensions = image.clone();
            dimensions.0.push(("radius".into(), r as u64));
            spec::Size(dimensions)
        });
        let tile = "(WG_X + 2 * radius) * (WG_Y + 2 * radius)";
        let tiled = kernel.kernel == "box_tiled";
        let spec = spec::Spec {
            sizes: sizes.collect(),
            tunables,
            restrictions,
            constants: spec::Ordered::of(&[
                ("WIDTH", "width"),
                ("HEIGHT", "height"),
                ("R", "radius"),
                ("TILE_LEN", tile),
            ]),
            grid: Some(spec::expressions(&["ceil_div(width, WG_X)", "ceil_div(height, WG_Y)"])),
            bytes: Some(format!("8 * {pixels}")),
            flops: Some(format!("{pixels} * ((2 * radius + 1) * (2 * radius + 1) + 1)")),
            workgroup_memory: tiled.then(|| format!("4 * {tile}")),
            validation: spec::ValidationSpec {
                reference: tiled.then(|| "box_direct_f32".into()),
                tolerance: Some(0.0),
                grid: None,
            },
            ..spec::Spec::new(kernel.kernel, kernel.entry_point(), buffers)
        };
        Some(as_yours::open(&spec, kernel, "its WGSL, image, workgroup shapes and radii.", &[WGSL]))
    }

    fn reference_words(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        kernel::recipe_bytes::<Blurred>(recipe, range)
    }
}

struct BlurWorkload {
    /// The input image and the output, and their shape.
    image: ImageBuffers,
    inputs: Inputs,
    modules: ShaderModules,
    /// The radius checked last, and the blurred image.
    reference: KeptReference<u32>,
}

/// What the host knows of the input image: its shape and the seed its pixels came from. Plain numbers,
/// which the threads or workers building a reference share.
#[derive(Clone, Copy, Serialize, Deserialize)]
struct Inputs {
    width: u32,
    height: u32,
    seed: u32,
}

/// The image blurred with radius `r`.
#[derive(Serialize, Deserialize)]
struct Blurred {
    inputs: Inputs,
    r: u32,
}

impl Recipe for Blurred {
    const FAMILY: &'static str = "blur";

    fn words(&self, pixels: Range<u64>) -> impl Iterator<Item = Expected> {
        let tolerance = tolerance(self.r) as f32;
        self.inputs.blurred(self.r, pixels).map(move |value| Expected::Float { value: value as f32, tolerance })
    }
}

impl Inputs {
    /// The input pixel at (x, y), with the image's edge repeated past its borders.
    fn pixel(self, x: i64, y: i64) -> f64 {
        let x = x.clamp(0, self.width as i64 - 1);
        let y = y.clamp(0, self.height as i64 - 1);
        random_f32((y * self.width as i64 + x) as u32, self.seed) as f64
    }

    /// The exact blur of radius `r` at `pixels` (indices in row order), in f64: window sums slide down the
    /// columns from the first row needed, then along each row.
    fn blurred(self, r: u32, pixels: Range<u64>) -> impl Iterator<Item = f64> {
        let (width, count) = (self.width as u64, window(r) as f64);
        let rows = pixels.start / width..pixels.end.div_ceil(width);
        let (r, width) = (r as i64, width as i64);
        let first = rows.start as i64;
        let mut column_sums: Vec<f64> =
            (0..width).map(|x| (-r..=r).map(|dy| self.pixel(x, first + dy)).sum()).collect();
        let blurred_rows = rows.map(move |y| {
            let y = y as i64;
            if y > first {
                for (x, sum) in column_sums.iter_mut().enumerate() {
                    *sum += self.pixel(x as i64, y + r) - self.pixel(x as i64, y - 1 - r);
                }
            }
            let column = |x: i64| column_sums[x.clamp(0, width - 1) as usize];
            let mut sum: f64 = (-r..=r).map(column).sum();
            (0..width)
                .map(|x| {
                    if x > 0 {
                        sum += column(x + r) - column(x - 1 - r);
                    }
                    sum / count
                })
                .collect::<Vec<f64>>()
        });
        let skipped = (pixels.start % width as u64) as usize;
        blurred_rows.flatten().skip(skipped).take((pixels.end - pixels.start) as usize)
    }
}

/// The GPU's f32 sum of (2r + 1)² terms of magnitude below 1 may differ from the exact one by that many
/// roundings.
fn tolerance(r: u32) -> f64 {
    (window(r) as f64 + 2.0) * f32::EPSILON as f64
}

impl BlurWorkload {
    /// `prepare`, at once: its pipelines compile quickly, and are made synchronously.
    fn prepare_now(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let Configuration { kernel, checks, workgroup: [x, y, _], parameter } = *configuration;
        let r = parameter.unwrap_or(0);
        let grid = kernel::plane_grid(gpu, [self.image.width, self.image.height], [x, y])?;
        let constants = [
            ("WG_X", x as f64),
            ("WG_Y", y as f64),
            ("WIDTH", self.image.width as f64),
            ("HEIGHT", self.image.height as f64),
            ("R", r as f64),
            ("INV_COUNT", 1.0 / window(r) as f64),
            ("TILE_LEN", ((x + 2 * r) * (y + 2 * r)) as f64),
        ];
        let pipeline = self.modules.pipeline(gpu, checks, &kernel.entry_point(), &constants);
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, &self.image.src), (1, &self.image.dst)]);
        Ok(Prepared::single(Step::new(pipeline, bind_group, grid), self.image.dst.handle(), Vec::new()))
    }
}

impl Workload for BlurWorkload {
    fn size(&self) -> u64 {
        self.image.width as u64 * self.image.height as u64
    }

    /// The image read once and written once, as if every window came from a cache.
    fn bytes_per_dispatch(&self, _: &Configuration) -> u64 {
        2 * self.size() * 4
    }

    /// (2r + 1)² adds and a multiply per pixel.
    fn flops_per_dispatch(&self, configuration: &Configuration) -> Option<u64> {
        Some(self.size() * (window(configuration.parameter.unwrap_or(0)) + 1))
    }

    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a> {
        Box::pin(std::future::ready(self.prepare_now(gpu, configuration)))
    }

    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let r = configuration.parameter.unwrap_or(0);
            let blurred = Reference::build(gpu, "dst", self.size(), Blurred { inputs: self.inputs, r });
            Ok(Some(self.reference.get_or_build(r, blurred).await))
        })
    }

    fn check(&self, configuration: &Configuration, _: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let r = configuration.parameter.unwrap_or(0);
        let mut comparison = Comparison::new("dst");
        let want = self.inputs.blurred(r, 0..self.size());
        for (i, (got, want)) in f32s(output).zip(want).enumerate() {
            comparison.check(i as u64, got as f64, want, tolerance(r));
        }
        comparison.finish()
    }
}
