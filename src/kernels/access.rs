//! Access patterns: what coalescing is worth. Each invocation copies one element from `src` to `dst`; the
//! patterns differ only in which element they read (coalesced, strided, random, misaligned), and each
//! comes in three element widths (f32, vec2, vec4).

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::fill::random_f32;
use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{
    self, Comparison, Configuration, Expected, Family, KeptReference, KernelId, OwnedBuffer, Parameter, PrepareFuture,
    Prepared, Presentation, Recipe, Reference, ReferenceFuture, ShaderChecks, ShaderModules, Sizing, Skip, Step,
    ValidationError, Workload, as_yours, f32s, family_text,
};
use crate::spec;

/// WGSL has no includes: the grid's index helpers go in front.
const WGSL: &str = concat!(shader!("grid.wgsl"), shader!("access.wgsl"));

pub const PATTERNS: [&str; 4] = ["coalesced", "strided", "random", "misaligned"];
pub const WIDTHS: [&str; 3] = ["f32", "vec2", "vec4"];
/// Strides in elements; the shader rotates index bits by log2(stride).
pub const STRIDES: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];
/// Start offsets in elements; the shader copies n - MAX_OFFSET elements whatever the offset.
pub const OFFSETS: [u32; 8] = [0, 1, 2, 3, 4, 8, 16, 32];
const MAX_OFFSET: u64 = 32;
/// The workgroup size of the stride and offset sweeps, where the device allows it.
const PARAMETER_WORKGROUP: u32 = 256;
/// As STREAM: arrays far larger than any last-level cache.
const DEFAULT_ARRAY_BYTES: u64 = 256 << 20;

pub struct Access;

fn width(kernel: &KernelId) -> u64 {
    match kernel.variant {
        "vec2" => 2,
        "vec4" => 4,
        _ => 1,
    }
}

/// What the page, the summary and `wgsweep describe` say about the family.
pub const PRESENTATION: Presentation = Presentation {
    about: family_text!("access"),
    contrasts: &[
        kernel::Contrast {
            kernel: ("coalesced/f32", None),
            against: ("strided/f32", Some(32)),
            sentence: "Reading neighbouring elements (coalesced) is {than} reading every 32nd (strided)",
        },
        kernel::Contrast {
            kernel: ("coalesced/f32", None),
            against: ("random/f32", None),
            sentence: "Coalesced reads are {than} reads in a random order",
        },
    ],
    ..Presentation::NONE
};

impl Family for Access {
    fn name(&self) -> &'static str {
        "access"
    }

    fn kernels(&self) -> Vec<KernelId> {
        KernelId::every_variant(self.name(), &PATTERNS, &WIDTHS)
    }

    fn size_unit(&self) -> &'static str {
        "f32 elements per array"
    }

    fn default_size(&self, limits: &ComputeLimits) -> Sizing {
        Sizing::capped(DEFAULT_ARRAY_BYTES / 4, self.round_size(limits.max_binding_bytes() / 4), 4, "arrays are")
    }

    fn round_size(&self, size: u64) -> u64 {
        // The strided mapping rotates index bits: a power of two, with room for vec4s and the offsets.
        let size = size.clamp(4 * 4 * MAX_OFFSET, 1 << 31);
        1 << size.ilog2()
    }

    fn workgroup_shapes(&self, kernel: &KernelId, limits: &ComputeLimits) -> Vec<[u32; 3]> {
        if self.parameter(kernel).is_some() {
            let largest = limits.max_invocations_per_workgroup.min(limits.max_workgroup_size_x);
            return vec![[PARAMETER_WORKGROUP.min(largest), 1, 1]];
        }
        kernel::shapes::power_of_two_sizes(limits).into_iter().map(|x| [x, 1, 1]).collect()
    }

    fn parameter(&self, kernel: &KernelId) -> Option<Parameter> {
        match kernel.kernel {
            "strided" => Some(Parameter::amounts("stride", STRIDES.to_vec())),
            "misaligned" => Some(Parameter::amounts("offset", OFFSETS.to_vec())),
            _ => None,
        }
    }

    fn workgroup_storage_bytes(&self, _: &Configuration) -> u64 {
        0
    }

    fn setup(&'static self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        let bytes = size * 4;
        kernel::check_binding(gpu, &format!("{bytes} bytes per array"), bytes)?;
        let src = kernel::random_buffer(gpu, "src", bytes, seed);
        let dst = kernel::storage_buffer(gpu, "dst", bytes);
        let modules = ShaderModules::new("access.wgsl", WGSL);
        Ok(Box::new(AccessWorkload {
            inputs: Inputs { n: size, seed },
            modules,
            src,
            dst,
            reference: KeptReference::default(),
        }))
    }

    /// The same WGSL, arrays, strides and offsets, and the gather's permutation made by a setup pass; every
    /// workgroup size, each configuration of a stride or offset validated by agreement with the first.
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, limits: &ComputeLimits) -> Option<String> {
        let w = width(kernel);
        let (element, src, dst) = match w {
            1 => ("f32".to_string(), 0, 3),
            _ => (format!("vec{w}<f32>"), w.ilog2(), w.ilog2() + 3),
        };
        let n = self.round_size(size);
        // The stride and the offset change the output: dimensions of the problem, not tunables.
        let (sizes, constants, copied) = match kernel.kernel {
            "strided" => (
                STRIDES.iter().map(|&s| spec::Size::named(&[("n", n), ("shift", s.ilog2() as u64)])).collect(),
                vec![("PARAM", "shift")],
                format!("n / {w}"),
            ),
            "misaligned" => (
                OFFSETS.iter().map(|&o| spec::Size::named(&[("n", n), ("offset", o as u64)])).collect(),
                vec![("PARAM", "offset")],
                format!("n / {w} - {MAX_OFFSET}"),
            ),
            _ => (vec![spec::Size::n(n)], vec![], format!("n / {w}")), // coalesced, random
        };
        let mut buffers = vec![
            spec::BufferSpec::new(src, "src", &element, format!("n / {w}")),
            // The misaligned kernels leave the last offsets' elements as they were.
            spec::BufferSpec::new(dst, "dst", &element, format!("n / {w}")).filled(spec::Fill::Zeros).output(),
        ];
        // The gather's permutation, made by the family's own entry point before the kernel runs.
        let mut setup = Vec::new();
        if kernel.kernel == "random" {
            buffers.push(spec::BufferSpec::new(6, "permutation", "u32", copied.clone()));
            let grid = as_yours::linear_grid(&format!("ceil_div({copied}, 256)"), limits);
            let mut make = spec::PassSpec::new("make_permutation".into(), grid);
            make.constants = spec::Ordered::of(&[("WG", "256"), ("PARAM", "1")]);
            make.bind = spec::Ordered::of(&[("permutation_out", "permutation")]);
            setup.push(make);
        }
        let spec = spec::Spec {
            sizes,
            workgroup_size: as_yours::line_workgroup(),
            tunables: as_yours::line_shapes(limits),
            constants: spec::Ordered::of(&constants),
            grid: Some(as_yours::linear_grid(&format!("ceil_div({copied}, WG)"), limits)),
            bytes: Some(format!("{} * ({copied})", 8 * w + if kernel.kernel == "random" { 4 } else { 0 })),
            setup,
            validation: spec::ValidationSpec { tolerance: Some(0.0), ..Default::default() },
            ..spec::Spec::new(format!("{}_{}", kernel.kernel, kernel.variant), kernel.entry_point(), buffers)
        };
        let what = "its WGSL and arrays; every configuration of a size must\n\
                    // agree with the first, element for element (shift is log2 of the stride).";
        Some(as_yours::open(&spec, kernel, what, &[WGSL]))
    }

    fn reference_words(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        kernel::recipe_bytes::<Copied>(recipe, range)
    }
}

struct AccessWorkload {
    inputs: Inputs,
    modules: ShaderModules,
    src: OwnedBuffer,
    dst: OwnedBuffer,
    /// The pattern, width and parameter checked last, and what `dst` holds after it.
    reference: KeptReference<(KernelId, Option<u32>)>,
}

/// `rotate` in access.wgsl: the low log2(n) bits of i rotated left by `shift`.
pub fn rotate(i: u32, shift: u32, n: u32) -> u32 {
    if shift == 0 {
        return i;
    }
    let bits = n.trailing_zeros();
    ((i << shift) | (i >> (bits - shift))) & (n - 1)
}

/// `scramble` in access.wgsl: a bijection on 0..n.
pub fn scramble(i: u32, seed: u32, n: u32) -> u32 {
    let mask = n - 1;
    let half = n.trailing_zeros() / 2 + 1;
    let mut x = (i ^ seed) & mask;
    x = x.wrapping_mul(0x9e37_79b1) & mask;
    x ^= x >> half;
    x = x.wrapping_mul(0x85eb_ca6b) & mask;
    x ^= x >> half;
    x
}

/// What the host knows of the arrays, to say what a copy leaves in dst.
#[derive(Clone, Copy, Serialize, Deserialize)]
struct Inputs {
    /// f32 elements per array, a power of two.
    n: u64,
    seed: u32,
}

impl Inputs {
    /// Elements of the configuration's width in each array.
    fn elements(&self, configuration: &Configuration) -> u64 {
        self.n / width(&configuration.kernel)
    }

    /// Elements one dispatch copies.
    fn copied(&self, configuration: &Configuration) -> u64 {
        let elements = self.elements(configuration);
        if configuration.kernel.kernel == "misaligned" { elements - MAX_OFFSET } else { elements }
    }

    fn permutation_seed(&self) -> u32 {
        crate::fill::hash_u32(self.seed.wrapping_add(2))
    }

    /// What `configuration` copies into dst.
    fn copied_words(&self, configuration: &Configuration) -> Copied {
        Copied {
            inputs: *self,
            pattern: configuration.kernel.kernel.into(),
            width: width(&configuration.kernel),
            parameter: configuration.parameter.unwrap_or(0),
        }
    }
}

/// What one pattern at one width and parameter leaves in dst: plain data, which the threads or workers
/// building a reference share.
#[derive(Serialize, Deserialize)]
struct Copied {
    inputs: Inputs,
    pattern: String,
    width: u64,
    parameter: u32,
}

/// Where `dst[i]` is copied from, as `Copied::pattern` says: read once, not at every word of a reference.
#[derive(Clone, Copy)]
enum Source {
    Same,
    Rotated { shift: u32 },
    Scrambled { seed: u32 },
    After { offset: u32 },
}

impl Copied {
    fn source(&self) -> Source {
        match self.pattern.as_str() {
            "strided" => Source::Rotated { shift: self.parameter.trailing_zeros() },
            "random" => Source::Scrambled { seed: self.inputs.permutation_seed() },
            "misaligned" => Source::After { offset: self.parameter },
            _ => Source::Same,
        }
    }

    /// The bits of `dst`'s words, from word 0 on: component k % width of the element word k came from.
    fn word_bits(&self) -> impl Fn(u64) -> u32 + use<> {
        let (n, width, seed, source) =
            ((self.inputs.n / self.width) as u32, self.width as u32, self.inputs.seed, self.source());
        move |k| {
            let (i, component) = (k as u32 / width, k as u32 % width);
            let from = match source {
                Source::Same => i,
                Source::Rotated { shift } => rotate(i, shift, n),
                Source::Scrambled { seed } => scramble(i, seed, n),
                Source::After { offset } => i + offset,
            };
            random_f32(from * width + component, seed).to_bits()
        }
    }
}

impl Recipe for Copied {
    const FAMILY: &'static str = "access";

    fn words(&self, range: Range<u64>) -> impl Iterator<Item = Expected> {
        let word = self.word_bits();
        range.map(move |k| Expected::Word(word(k)))
    }

    fn words_only(&self) -> bool {
        true
    }
}

impl AccessWorkload {
    /// Writes the random pattern's permutation into a new buffer of `elements` indices.
    fn permutation(&self, gpu: &Gpu, checks: ShaderChecks, elements: u64) -> Result<OwnedBuffer, Skip> {
        let buffer = kernel::storage_buffer(gpu, "permutation", elements * 4);
        let seed = self.inputs.permutation_seed() as f64;
        let constants = [("WG", 256.0), ("PARAM", seed)];
        let pipeline = self.modules.pipeline(gpu, checks, "make_permutation", &constants);
        let grid = kernel::linear_grid(gpu, elements.div_ceil(256))?;
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(7, &buffer)]);
        kernel::submit_steps(gpu, &[Step::new(pipeline, bind_group, grid)]);
        Ok(buffer)
    }

    /// `prepare`, at once: its pipelines compile quickly, and are made synchronously.
    fn prepare_now(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let Configuration { kernel, checks, workgroup, parameter } = configuration;
        let grid = kernel::linear_grid(gpu, self.inputs.copied(configuration).div_ceil(workgroup[0] as u64))?;
        let wg = ("WG", workgroup[0] as f64);
        let pipeline = match (kernel.kernel, parameter) {
            ("strided", Some(stride)) => {
                let shift = stride.trailing_zeros();
                if !stride.is_power_of_two() || 1u64 << shift >= self.inputs.elements(configuration) {
                    return Err(Skip::NotApplicable(format!(
                        "stride {stride} must be a power of two below the {} elements",
                        self.inputs.elements(configuration)
                    )));
                }
                self.modules.pipeline(gpu, *checks, &kernel.entry_point(), &[wg, ("PARAM", shift as f64)])
            }
            ("misaligned", Some(offset)) if *offset as u64 > MAX_OFFSET => {
                return Err(Skip::NotApplicable(format!("offsets go up to {MAX_OFFSET} elements, not {offset}")));
            }
            ("misaligned", Some(offset)) => {
                self.modules.pipeline(gpu, *checks, &kernel.entry_point(), &[wg, ("PARAM", *offset as f64)])
            }
            _ => self.modules.pipeline(gpu, *checks, &kernel.entry_point(), &[wg]),
        };
        let (src, dst) = match width(kernel) {
            1 => (0, 3),
            2 => (1, 4),
            _ => (2, 5),
        };
        let mut owned = Vec::new();
        if kernel.kernel == "random" {
            owned.push(self.permutation(gpu, *checks, self.inputs.elements(configuration))?);
        }
        let mut bindings: Vec<(u32, &wgpu::Buffer)> = vec![(src, &self.src), (dst, &self.dst)];
        if let Some(permutation) = owned.first() {
            bindings.push((6, permutation));
        }
        let bind_group = kernel::bind_group(gpu, &pipeline, &bindings);
        Ok(Prepared::single(Step::new(pipeline, bind_group, grid), self.dst.handle(), owned))
    }
}

impl Workload for AccessWorkload {
    fn size(&self) -> u64 {
        self.inputs.n
    }

    /// Each copied element is read once and written once; random also reads one 4-byte index per element.
    fn bytes_per_dispatch(&self, configuration: &Configuration) -> u64 {
        let copied = self.inputs.copied(configuration);
        let index_bytes = if configuration.kernel.kernel == "random" { 4 * copied } else { 0 };
        2 * copied * width(&configuration.kernel) * 4 + index_bytes
    }

    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a> {
        Box::pin(std::future::ready(self.prepare_now(gpu, configuration)))
    }

    /// A copy is exact: every component must carry the very bits of its source element.
    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let width = width(&configuration.kernel);
            let words = self.inputs.copied(configuration) * width;
            let dst = Reference::build(gpu, "dst", words, self.inputs.copied_words(configuration));
            Ok(Some(self.reference.get_or_build((configuration.kernel, configuration.parameter), dst).await))
        })
    }

    fn check(&self, configuration: &Configuration, _: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let words = (self.inputs.copied(configuration) * width(&configuration.kernel)) as usize;
        let (word, mut comparison) = (self.inputs.copied_words(configuration).word_bits(), Comparison::new("dst"));
        for (k, got) in f32s(output).enumerate().take(words) {
            let want = f32::from_bits(word(k as u64));
            comparison.check(k as u64, got as f64, want as f64, 0.0);
        }
        comparison.finish()
    }
}
