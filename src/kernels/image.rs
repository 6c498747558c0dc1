//! Per-pixel image maps: a grayscale conversion of an RGBA8 image in a storage buffer, swept over every
//! 2-D workgroup shape, to show which shapes a 2-D kernel should use.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::fill::random_f32;
use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{
    self, ChartKind, Comparison, Configuration, Expected, Family, ImageBuffers, KeptReference, KernelId, PrepareFuture,
    Prepared, Presentation, Recipe, Reference, ReferenceFuture, ShaderModules, Sizing, Skip, Step, ValidationError,
    Workload, as_yours, family_text,
};
use crate::spec;

const WGSL: &str = shader!("image.wgsl");

/// As STREAM: an image far larger than any last-level cache (64 Mi pixels).
const DEFAULT_IMAGE_BYTES: u64 = 256 << 20;

pub struct Image;

/// `luma` in image.wgsl.
pub fn luma(pixel: u32) -> u32 {
    let [r, g, b, _] = pixel.to_le_bytes().map(u32::from);
    (77 * r + 150 * g + 29 * b + 128) >> 8
}

/// What `grayscale_rgba8` makes of one pixel.
pub fn grayscale(pixel: u32) -> u32 {
    let y = luma(pixel);
    (pixel & 0xff00_0000) | (y << 16) | (y << 8) | y
}

/// What the page, the summary and `wgsweep describe` say about the family.
pub const PRESENTATION: Presentation =
    Presentation { about: family_text!("image"), chart: ChartKind::Heatmap, ..Presentation::NONE };

impl Family for Image {
    fn name(&self) -> &'static str {
        "image"
    }

    fn kernels(&self) -> Vec<KernelId> {
        vec![KernelId { family: "image", kernel: "grayscale", variant: "rgba8" }]
    }

    fn size_unit(&self) -> &'static str {
        "pixels"
    }

    fn default_size(&self, limits: &ComputeLimits) -> Sizing {
        Sizing::capped(DEFAULT_IMAGE_BYTES / 4, limits.max_binding_bytes() / 4, 4, "the image is")
    }

    fn round_size(&self, size: u64) -> u64 {
        size.clamp(64 * 64, u32::MAX as u64)
    }

    fn workgroup_shapes(&self, _: &KernelId, limits: &ComputeLimits) -> Vec<[u32; 3]> {
        kernel::shapes::power_of_two_shapes(limits)
    }

    fn workgroup_storage_bytes(&self, _: &Configuration) -> u64 {
        0
    }

    fn setup(&'static self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        let image = ImageBuffers::new(gpu, size, seed, "grayscale image")?;
        let modules = ShaderModules::new("image.wgsl", WGSL);
        Ok(Box::new(ImageWorkload { image, seed, modules, reference: KeptReference::default() }))
    }

    /// The same WGSL, image shape and sweep; validated by agreement (the map is exact in integers).
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, limits: &ComputeLimits) -> Option<String> {
        let pixels = "width * height";
        let buffers = vec![
            spec::BufferSpec::new(0, "src", "u32", pixels).filled(spec::Fill::Random([0.0, u32::MAX as f64])),
            spec::BufferSpec::new(1, "dst", "u32", pixels).output(),
        ];
        let (tunables, restrictions) = as_yours::plane_shapes(limits);
        let spec = spec::Spec {
            sizes: vec![as_yours::plane_size(self.round_size(size))],
            tunables,
            restrictions,
            constants: spec::Ordered::of(&[("WIDTH", "width"), ("HEIGHT", "height")]),
            grid: Some(spec::expressions(&["ceil_div(width, WG_X)", "ceil_div(height, WG_Y)"])),
            bytes: Some(format!("8 * {pixels}")),
            validation: spec::ValidationSpec { tolerance: Some(0.0), ..Default::default() },
            ..spec::Spec::new("grayscale", "grayscale_rgba8", buffers)
        };
        let what = "every configuration must agree with the first, pixel for pixel.";
        Some(as_yours::open(&spec, kernel, what, &[WGSL]))
    }

    fn reference_words(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        kernel::recipe_bytes::<Grayscale>(recipe, range)
    }
}

struct ImageWorkload {
    /// The input image and the output, and their shape.
    image: ImageBuffers,
    seed: u32,
    modules: ShaderModules,
    /// The grayscale image, the same for every configuration.
    reference: KeptReference<()>,
}

/// Pixel i of the grayscale image made from the input of `seed`.
fn grayscale_pixel(seed: u32, i: u64) -> u32 {
    grayscale(random_f32(i as u32, seed).to_bits())
}

/// The grayscale image made from the input of `seed`.
#[derive(Serialize, Deserialize)]
struct Grayscale {
    seed: u32,
}

impl Recipe for Grayscale {
    const FAMILY: &'static str = "image";

    fn words(&self, pixels: Range<u64>) -> impl Iterator<Item = Expected> {
        pixels.map(|i| Expected::Word(grayscale_pixel(self.seed, i)))
    }

    fn words_only(&self) -> bool {
        true
    }
}

impl ImageWorkload {
    /// `prepare`, at once: its pipelines compile quickly, and are made synchronously.
    fn prepare_now(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let Configuration { kernel, checks, workgroup, .. } = configuration;
        let [x, y, _] = *workgroup;
        let grid = kernel::plane_grid(gpu, [self.image.width, self.image.height], [x, y])?;
        let constants = [
            ("WG_X", x as f64),
            ("WG_Y", y as f64),
            ("WIDTH", self.image.width as f64),
            ("HEIGHT", self.image.height as f64),
        ];
        let pipeline = self.modules.pipeline(gpu, *checks, &kernel.entry_point(), &constants);
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, &self.image.src), (1, &self.image.dst)]);
        Ok(Prepared::single(Step::new(pipeline, bind_group, grid), self.image.dst.handle(), Vec::new()))
    }
}

impl Workload for ImageWorkload {
    fn size(&self) -> u64 {
        self.image.width as u64 * self.image.height as u64
    }

    /// Every pixel is read once and written once.
    fn bytes_per_dispatch(&self, _: &Configuration) -> u64 {
        2 * self.size() * 4
    }

    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a> {
        Box::pin(std::future::ready(self.prepare_now(gpu, configuration)))
    }

    /// Integer arithmetic: every pixel exact.
    fn reference<'a>(&'a self, gpu: &'a Gpu, _: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let gray = Reference::build(gpu, "dst", self.size(), Grayscale { seed: self.seed });
            Ok(Some(self.reference.get_or_build((), gray).await))
        })
    }

    fn check(&self, _: &Configuration, _: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let mut comparison = Comparison::new("dst");
        for (i, got) in kernel::u32s(output).enumerate() {
            let want = grayscale_pixel(self.seed, i as u64);
            comparison.check(i as u64, got as f64, want as f64, 0.0);
        }
        comparison.finish()
    }
}
