//! Transpose: naive (reads or writes strided) against tiled through workgroup memory, with and without a
//! padded tile, next to a same-shape 2-D copy that moves the same bytes at the best access pattern.

use crate::fill::random_f32;
use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{
    self, ChartKind, Comparison, Config, Configuration, Family, KernelId, Parameter, ShaderModules, Sizing, Skip, Step,
    ValidationError, Workload, f32s,
};

const WGSL: &str = include_str!("../../shaders/transpose.wgsl");

/// (kernel, variant): the WGSL entry point is `kernel_variant`.
pub const KERNELS: [(&str, &str); 6] = [
    ("copy2d", "reference"),
    ("copy2d", "tiled"),
    ("naive", "read"),
    ("naive", "write"),
    ("tiled", "plain"),
    ("tiled", "padded"),
];
/// Tile edges for the kernels that walk tiles; each runs with T/1 and T/4 rows of invocations (workgroup
/// T × T, T × T/4).
pub const TILES: [u32; 3] = [8, 16, 32];
/// As STREAM: a matrix far larger than any last-level cache.
const DEFAULT_MATRIX_BYTES: u64 = 256 << 20;
/// The matrix shapes, by how many rows short of square they are: 3 makes both sides odd, so no tile
/// divides them and rows start off any alignment; 0 is a square whose side is a multiple of every tile.
/// Kernels that walk tiles run both; the others the odd shape.
pub const ROWS_SHORT: [u32; 2] = [3, 0];

pub struct Transpose;

/// Walks the matrix tile by tile (T × T tiles, workgroups T × T or T × T/4).
fn walks_tiles(kernel: &KernelId) -> bool {
    kernel.kernel == "tiled" || kernel.variant == "tiled"
}

/// Puts its tile through workgroup memory.
fn uses_tile_memory(kernel: &KernelId) -> bool {
    kernel.kernel == "tiled"
}

impl Family for Transpose {
    fn name(&self) -> &'static str {
        "transpose"
    }

    fn about(&self) -> &'static str {
        "Transpose writes the columns of a matrix as rows. A naive kernel can make either its reads or its \
         writes coalesced, never both: the other side jumps a whole row per invocation, so every access is \
         its own memory transaction (naive/read and naive/write); a 2-D workgroup softens this, since the \
         warps beside it use the rest of each line while it is still in cache. The tiled kernels read a \
         square tile into workgroup memory row by row and write it out column by column, so both sides move \
         whole lines; expect them well ahead of naive and close to a plain copy of the same matrix \
         (copy2d/reference copies one element per invocation over every 2-D workgroup shape; copy2d/tiled \
         walks the tiles exactly as the tiled kernels do; the better of the two is the 100 % mark). Reading \
         a tile by columns puts a warp's 32 reads 32 floats apart, all in one of workgroup memory's 32 \
         banks, so they serialize; tiled/padded adds one float to each tile row, which spreads a column over \
         all 32 banks. Workgroups: T × T and T × T/4 for tiles of 8, 16 and 32 (each invocation then moves 1 \
         or 4 elements of the tile); the other kernels sweep 2-D workgroup shapes. The matrix is 3 rows short \
         of square, so neither side is a multiple of a tile and rows start off any alignment; the kernels \
         that walk tiles also run on a square whose side is a multiple of 32 (0 rows short), which shows \
         what that misalignment costs. Natively the kernels also run without wgpu's runtime checks (index \
         clamping, a guard on every loop, zeroed workgroup memory): the loop guard keeps the compiler from \
         unrolling the tile loops, which costs the tiled kernels most. A browser always applies its own \
         checks; the page cannot turn them off."
    }

    fn kernels(&self) -> Vec<KernelId> {
        KERNELS.iter().map(|&(kernel, variant)| KernelId { family: "transpose", kernel, variant }).collect()
    }

    fn size_unit(&self) -> &'static str {
        "f32 elements in the matrix"
    }

    fn reference(&self) -> Option<&'static str> {
        Some("copy2d")
    }

    fn parameter(&self, kernel: &KernelId) -> Option<Parameter> {
        let values = if walks_tiles(kernel) { ROWS_SHORT.to_vec() } else { ROWS_SHORT[..1].to_vec() };
        Some(Parameter { name: "rows short of square", values })
    }

    fn default_size(&self, limits: &ComputeLimits) -> Sizing {
        Sizing::capped(DEFAULT_MATRIX_BYTES / 4, limits.max_binding_bytes() / 4, 4, "the matrix is")
    }

    fn round_size(&self, size: u64) -> u64 {
        // At least a few tiles each way; u32 indices.
        size.clamp(64 * 64, u32::MAX as u64)
    }

    fn workgroups(&self, kernel: &KernelId, limits: &ComputeLimits) -> Vec<[u32; 3]> {
        if walks_tiles(kernel) {
            return TILES.iter().flat_map(|&t| [[t, t, 1], [t, t / 4, 1]]).collect();
        }
        crate::sweep::power_of_two_shapes(limits)
    }

    fn chart(&self) -> ChartKind {
        ChartKind::Heatmap
    }

    fn workgroup_storage_bytes(&self, configuration: &Configuration) -> u64 {
        if !uses_tile_memory(&configuration.kernel) {
            return 0;
        }
        let t = configuration.workgroup[0] as u64;
        let stride = if configuration.kernel.variant == "padded" { t + 1 } else { t };
        4 * t * stride
    }

    fn setup(&self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        let elements = ROWS_SHORT.iter().map(|&short| shape(size, short)).map(|(r, c)| r as u64 * c as u64).max();
        let bytes = elements.expect("two shapes") * 4;
        kernel::check_binding(gpu, &format!("a {bytes}-byte matrix"), bytes)?;
        let src = kernel::random_buffer(gpu, "matrix", bytes, seed);
        let dst = kernel::storage_buffer(gpu, "transposed", bytes);
        let modules = ShaderModules::new("transpose.wgsl", WGSL);
        Ok(Box::new(TransposeWorkload { size, seed, modules, src, dst }))
    }
}

/// The (rows, columns) of the matrix for a problem of `size` elements, `rows_short` rows short of square:
/// 0 gives a square whose side is a multiple of the largest tile.
pub fn shape(size: u64, rows_short: u32) -> (u32, u32) {
    if rows_short == 0 {
        let largest_tile = TILES[TILES.len() - 1] as u64;
        let side = ((size as f64).sqrt() as u64 / largest_tile).max(1) * largest_tile;
        return (side as u32, side as u32);
    }
    kernel::matrix_shape(size)
}

struct TransposeWorkload {
    /// Elements the problem was asked for; each configuration's matrix is `shape(size, rows short)`.
    size: u64,
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

impl TransposeWorkload {
    fn shape(&self, configuration: &Configuration) -> (u32, u32) {
        shape(self.size, configuration.parameter.unwrap_or(ROWS_SHORT[0]))
    }
}

impl Workload for TransposeWorkload {
    fn size(&self) -> u64 {
        self.size
    }

    /// Every element is read once and written once.
    fn bytes_per_dispatch(&self, configuration: &Configuration) -> u64 {
        let (rows, cols) = self.shape(configuration);
        2 * rows as u64 * cols as u64 * 4
    }

    fn configure(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Config, Skip> {
        let Configuration { kernel, checks, workgroup, .. } = configuration;
        let [x, y, _] = *workgroup;
        let (rows, cols) = self.shape(configuration);
        let (along_x, along_y) = match (kernel.kernel, kernel.variant) {
            ("naive", "write") => (rows, cols),
            _ => (cols, rows),
        };
        let (per_group_x, per_group_y) = if walks_tiles(kernel) {
            if x % y != 0 {
                return Err(Skip::NotApplicable(format!("a {x}-wide tile needs a whole number of {y}-row passes")));
            }
            (x, x)
        } else {
            (x, y)
        };
        let grid = kernel::plane_grid(gpu, [along_x, along_y], [per_group_x, per_group_y])?;
        let stride = if kernel.variant == "padded" { x + 1 } else { x };
        let mut constants = vec![("WG_X", x as f64), ("WG_Y", y as f64), ("ROWS", rows as f64), ("COLS", cols as f64)];
        if uses_tile_memory(kernel) {
            constants.extend([("TILE_STRIDE", stride as f64), ("TILE_LEN", (x * stride) as f64)]);
        }
        let pipeline = self.modules.pipeline(gpu, *checks, &kernel.entry_point(), &constants);
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, &self.src), (1, &self.dst)]);
        Ok(Config::single(Step { pipeline, bind_group, workgroups: grid }, self.dst.clone(), Vec::new()))
    }

    fn check(&self, configuration: &Configuration, _: &Config, output: &[u8]) -> Result<(), ValidationError> {
        let (rows, cols) = self.shape(configuration);
        let (rows, cols) = (rows as usize, cols as usize);
        let copy = configuration.kernel.kernel == "copy2d";
        let mut comparison = Comparison::new("dst");
        for (i, got) in f32s(output).take(rows * cols).enumerate() {
            // Output element i is row i / rows, column i % rows of the transpose, i.e. src[i % rows][i / rows].
            let source = if copy { i } else { (i % rows) * cols + i / rows };
            comparison.check(i as u64, got as f64, random_f32(source as u32, self.seed) as f64, 0.0);
        }
        comparison.finish()
    }
}
