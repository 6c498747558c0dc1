//! Inputs and poisoned outputs, written on the GPU (shaders/random.wgsl), and their CPU twin.
//!
//! Inputs are a pure function of (element index, seed): the GPU writes them where they are needed and a
//! CPU reference recomputes any element on demand, so no input array is ever uploaded or kept on the host.

use wgpu::util::DeviceExt;

/// WGSL has no includes: the shared hash and the grid's index helpers go in front.
const WGSL: &str = concat!(
    shader!("hash.wgsl"),
    shader!("grid.wgsl"),
    // Bare (build.rs).
    shader!("random.wgsl")
);
const FILL_WORKGROUP: u32 = 256;

/// The word outputs are filled with before a kernel runs: a quiet NaN, so an element the kernel never wrote
/// fails every comparison.
pub const POISON: u32 = 0x7fc0_dead;
/// The word a guard after an input holds (`spec::Buffer::guarded`): a quiet NaN other than `POISON`, so that
/// what a kernel computes from a read past an input's end is a NaN that fails, and never the poison that
/// marks an element a reference left unwritten.
pub const INPUT_GUARD: u32 = 0x7fc0_beef;

/// The hash both sides use (lowbias32).
#[inline(always)] // a reference's every element: the page's build optimizes for size
pub fn hash_u32(v: u32) -> u32 {
    let mut x = v;
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

/// Word `i` of random bits written with `seed`: `Pattern::RandomInt` over all of u32, and what the random
/// floats are made of.
#[inline(always)] // a reference's every element: the page's build optimizes for size
pub fn random_word(i: u32, seed: u32) -> u32 {
    hash_u32(i ^ hash_u32(seed))
}

/// Element `i` of the input written with `seed`: exactly the bits `fill_random` writes, in [-1, 1).
#[inline(always)] // a reference's every element: the page's build optimizes for size
pub fn random_f32(i: u32, seed: u32) -> f32 {
    unit_f32(random_word(i, seed))
}

/// Element `i` of the f16 input written with `seed` (`fill_random_f16`): a multiple of 2^-9 in [-1, 1), which
/// f16 holds exactly, so the host knows every bit the GPU stores.
#[inline(always)] // a reference's every element: the page's build optimizes for size
pub fn random_f16(i: u32, seed: u32) -> f32 {
    (random_word(i, seed) >> 22) as f32 * (1.0 / 512.0) - 1.0
}

/// A hash's top 24 bits scaled into [-1, 1): exact in f32, so every GPU computes the same bits.
#[inline(always)] // a reference's every element: the page's build optimizes for size
pub fn unit_f32(h: u32) -> f32 {
    (h >> 8) as f32 * (1.0 / 8_388_608.0) - 1.0
}

/// A seed that differs from run to run, so stale buffers can never pass validation twice.
pub fn fresh_seed() -> u32 {
    let nanos =
        web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0);
    hash_u32((nanos ^ (nanos >> 32)) as u32)
}

/// What a user's buffer holds before a kernel runs (`spec::Fill` for its element type), as the GPU writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pattern {
    /// These bits in every 32-bit word (zeros, a constant, two f16 constants).
    Word(u32),
    /// Uniformly random f32 in [low, high), from `random_f32`.
    RandomF32 {
        low: f32,
        high: f32,
    },
    /// Uniformly random 32-bit integers in [low, high], as bits (i32 in two's complement).
    RandomInt {
        low: u32,
        high: u32,
    },
    /// Uniformly random f16 in [low, high), two to a word.
    RandomF16 {
        low: f32,
        high: f32,
    },
    /// Element i holds i, or i modulo `modulus` where it is not 0: u32, f32 or f16 (two to a word).
    IotaU32 {
        modulus: u32,
    },
    IotaF32 {
        modulus: u32,
    },
    IotaF16 {
        modulus: u32,
    },
}

impl Pattern {
    /// fill_pattern's kind and range, as random.wgsl reads them.
    fn words(self) -> [u32; 3] {
        match self {
            Pattern::Word(_) => unreachable!("a word is written by fill_word"),
            Pattern::RandomF32 { low, high } => [0, low.to_bits(), high.to_bits()],
            Pattern::RandomInt { low, high } => [1, low, high],
            Pattern::RandomF16 { low, high } => [2, low.to_bits(), high.to_bits()],
            Pattern::IotaU32 { modulus } => [3, modulus, 0],
            Pattern::IotaF32 { modulus } => [4, modulus, 0],
            Pattern::IotaF16 { modulus } => [5, modulus, 0],
        }
    }
}

/// The fill pipelines, built once per device.
pub struct Filler {
    random: wgpu::ComputePipeline,
    random_f16: wgpu::ComputePipeline,
    word: wgpu::ComputePipeline,
    pattern: wgpu::ComputePipeline,
}

impl Filler {
    pub fn new(device: &wgpu::Device) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("random.wgsl"),
            source: wgpu::ShaderSource::Wgsl(WGSL.into()),
        });
        let pipeline = |entry: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: &[("WG", FILL_WORKGROUP as f64)],
                    ..Default::default()
                },
                cache: None,
            })
        };
        Self {
            random: pipeline("fill_random"),
            random_f16: pipeline("fill_random_f16"),
            word: pipeline("fill_word"),
            pattern: pipeline("fill_pattern"),
        }
    }

    /// Records writing `random_f32(i, seed)` into every element of `buffer`.
    pub fn random(&self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, buffer: &wgpu::Buffer, seed: u32) {
        self.encode(device, encoder, &self.random, buffer, [seed, 0, 0, 0, 0]);
    }

    /// Records writing `random_f16(i, seed)` into every 16-bit element of `buffer`, as f16.
    pub fn random_f16(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        buffer: &wgpu::Buffer,
        seed: u32,
    ) {
        self.encode(device, encoder, &self.random_f16, buffer, [seed, 0, 0, 0, 0]);
    }

    /// Records writing `word` into every 32-bit element of `buffer`.
    pub fn word(&self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, buffer: &wgpu::Buffer, word: u32) {
        self.encode(device, encoder, &self.word, buffer, [0, word, 0, 0, 0]);
    }

    /// Records writing `pattern` (random ones from `seed`) into `buffer`.
    pub fn pattern(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        buffer: &wgpu::Buffer,
        pattern: Pattern,
        seed: u32,
    ) {
        match pattern {
            Pattern::Word(word) => self.word(device, encoder, buffer, word),
            _ => {
                let [kind, low, high] = pattern.words();
                self.encode(device, encoder, &self.pattern, buffer, [seed, 0, kind, low, high]);
            }
        }
    }

    fn encode(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        pipeline: &wgpu::ComputePipeline,
        buffer: &wgpu::Buffer,
        params: [u32; 5],
    ) {
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("fill parameters"),
            contents: &params.iter().flat_map(|p| p.to_le_bytes()).collect::<Vec<u8>>(),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("fill"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: buffer.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: uniform.as_entire_binding() },
            ],
        });
        let groups = (buffer.size() / 4).div_ceil(FILL_WORKGROUP as u64);
        let grid = crate::grid::dispatch_grid(groups, device.limits().max_compute_workgroups_per_dimension)
            .expect("a buffer within the binding limit always fits a 2-D grid of 256-wide workgroups");
        let mut pass =
            encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("fill"), timestamp_writes: None });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(grid[0], grid[1], grid[2]);
    }
}
