//! Transpose: naive (reads or writes strided) against tiled through workgroup memory, with and without a
//! padded tile, next to a same-shape 2-D copy that moves the same bytes at the best access pattern.

use crate::fill::random_f32;
use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{
    self, Before, ChartKind, Comparison, Config, Configuration, Family, KernelId, ShaderModules, Sizing, Skip, Step,
    ValidationError, Workload, f32s,
};

const WGSL: &str = include_str!("../../shaders/transpose.wgsl");

/// (kernel, variant): the WGSL entry point is `kernel_variant`.
pub const KERNELS: [(&str, &str); 5] =
    [("copy2d", "reference"), ("naive", "read"), ("naive", "write"), ("tiled", "plain"), ("tiled", "padded")];
/// Tile edges for the tiled kernels; each runs with T/1 and T/4 rows of invocations (workgroup T × T, T × T/4).
pub const TILES: [u32; 3] = [8, 16, 32];
/// As STREAM: a matrix far larger than any last-level cache.
const DEFAULT_MATRIX_BYTES: u64 = 256 << 20;

pub struct Transpose;

fn is_tiled(kernel: &KernelId) -> bool {
    kernel.kernel == "tiled"
}

impl Family for Transpose {
    fn name(&self) -> &'static str {
        "transpose"
    }

    fn about(&self) -> &'static str {
        "Transpose writes the columns of a matrix as rows. A naive kernel can make either its reads or its \
         writes coalesced, never both: the other side jumps a whole row per invocation, so every access is \
         its own memory transaction (naive/read and naive/write). The tiled kernels read a square tile into \
         workgroup memory row by row and write it out column by column, so both sides move whole lines; \
         expect them far ahead of naive and close to the 2-D copy (copy2d/reference, which moves the same bytes at \
         the best pattern: the 100 % mark). Reading a tile by columns puts a warp's 32 reads 32 floats \
         apart, all in one of workgroup memory's 32 banks, so they serialize; tiled/padded adds one float to \
         each tile row, which spreads a column over all 32 banks. Workgroups: T × T and T × T/4 for tiles \
         of 8, 16 and 32 (each invocation then handles 1 or 4 rows of the tile); the other kernels sweep 2-D \
         workgroup shapes. The matrix is a few rows short of square, so neither side is a multiple of a tile."
    }

    fn kernels(&self) -> Vec<KernelId> {
        KERNELS.iter().map(|&(kernel, variant)| KernelId { family: "transpose", kernel, variant }).collect()
    }

    fn size_unit(&self) -> &'static str {
        "f32 elements in the matrix"
    }

    fn reference(&self) -> Option<&'static str> {
        Some("copy2d/reference")
    }

    fn default_size(&self, limits: &ComputeLimits) -> Sizing {
        Sizing::capped(DEFAULT_MATRIX_BYTES / 4, limits.max_binding_bytes() / 4, 4, "the matrix is")
    }

    fn round_size(&self, size: u64) -> u64 {
        // At least a few tiles each way; u32 indices.
        size.clamp(64 * 64, u32::MAX as u64)
    }

    fn workgroups(&self, kernel: &KernelId, limits: &ComputeLimits) -> Vec<[u32; 3]> {
        if is_tiled(kernel) {
            return TILES.iter().flat_map(|&t| [[t, t, 1], [t, t / 4, 1]]).collect();
        }
        crate::sweep::power_of_two_shapes(limits)
    }

    fn chart(&self) -> ChartKind {
        ChartKind::Heatmap
    }

    fn workgroup_storage_bytes(&self, configuration: &Configuration) -> u64 {
        if !is_tiled(&configuration.kernel) {
            return 0;
        }
        let t = configuration.workgroup[0] as u64;
        let stride = if configuration.kernel.variant == "padded" { t + 1 } else { t };
        4 * t * stride
    }

    fn setup(&self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        let (rows, cols) = kernel::matrix_shape(size);
        let bytes = rows as u64 * cols as u64 * 4;
        kernel::check_binding(gpu, &format!("a {bytes}-byte matrix"), bytes)?;
        let src = kernel::random_buffer(gpu, "matrix", bytes, seed);
        let dst = kernel::storage_buffer(gpu, "transposed", bytes);
        let modules = ShaderModules::new("transpose.wgsl", WGSL);
        Ok(Box::new(TransposeWorkload { rows, cols, seed, modules, src, dst }))
    }
}

struct TransposeWorkload {
    rows: u32,
    cols: u32,
    seed: u32,
    modules: ShaderModules,
    src: wgpu::Buffer,
    dst: wgpu::Buffer,
}

/// Frees the matrices at once: in the browser, dropping alone leaves them to the garbage collector.
impl Drop for TransposeWorkload {
    fn drop(&mut self) {
        self.src.destroy();
        self.dst.destroy();
    }
}

impl Workload for TransposeWorkload {
    fn size(&self) -> u64 {
        self.rows as u64 * self.cols as u64
    }

    /// Every element is read once and written once.
    fn bytes_per_dispatch(&self, _: &Configuration) -> u64 {
        2 * self.size() * 4
    }

    fn configure(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Config, Skip> {
        let Configuration { kernel, checks, workgroup, .. } = configuration;
        let [x, y, _] = *workgroup;
        let (along_x, along_y) = match (kernel.kernel, kernel.variant) {
            ("naive", "write") => (self.rows, self.cols),
            _ => (self.cols, self.rows),
        };
        let (per_group_x, per_group_y) = if is_tiled(kernel) {
            if x % y != 0 {
                return Err(Skip::NotApplicable(format!("a {x}-wide tile needs a whole number of {y}-row passes")));
            }
            (x, x)
        } else {
            (x, y)
        };
        let grid = kernel::plane_grid(gpu, [along_x, along_y], [per_group_x, per_group_y])?;
        let stride = if kernel.variant == "padded" { x + 1 } else { x };
        let mut constants =
            vec![("WG_X", x as f64), ("WG_Y", y as f64), ("ROWS", self.rows as f64), ("COLS", self.cols as f64)];
        if is_tiled(kernel) {
            constants.extend([("TILE_STRIDE", stride as f64), ("TILE_LEN", (x * stride) as f64)]);
        }
        let module = self.modules.get(gpu, *checks);
        let pipeline = kernel::pipeline(gpu, module, &kernel.entry_point(), &constants);
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, &self.src), (1, &self.dst)]);
        Ok(Config {
            steps: vec![Step { pipeline, bind_group, workgroups: grid }],
            output: self.dst.clone(),
            before: Before::Poison,
            workgroups: grid,
            owned: Vec::new(),
        })
    }

    fn check(&self, configuration: &Configuration, _: &Config, output: &[u8]) -> Result<(), ValidationError> {
        let (rows, cols) = (self.rows as usize, self.cols as usize);
        let copy = configuration.kernel.kernel == "copy2d";
        let mut comparison = Comparison::new("dst");
        for (i, got) in f32s(output).enumerate() {
            // Output element i is row i / rows, column i % rows of the transpose, i.e. src[i % rows][i / rows].
            let source = if copy { i } else { (i % rows) * cols + i / rows };
            comparison.check(i as u64, got as f64, random_f32(source as u32, self.seed) as f64, 0.0);
        }
        comparison.finish()
    }
}
