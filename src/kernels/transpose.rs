//! Transpose: naive (reads or writes strided) against tiled through workgroup memory, with and without a
//! padded tile, next to a same-shape 2-D copy that moves the same bytes at the best access pattern.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::fill::random_f32;
use crate::gpu::{ComputeLimits, Gpu};
use crate::kernel::{
    self, ChartKind, Comparison, Configuration, Expected, Family, KeptReference, KernelId, OwnedBuffer, Parameter,
    PrepareFuture, Prepared, Presentation, Recipe, Reference, ReferenceFuture, Role, Roles, ShaderModules, Sizing,
    Skip, Step, ValidationError, Workload, as_yours, f32s, family_text,
};
use crate::spec;

const WGSL: &str = shader!("transpose.wgsl");

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
/// The matrices, by the `matrix` parameter's value. Kernels that walk tiles run all three; the others the
/// odd one.
///   odd                3 rows short of square (8189 × 8195 for 2^26 elements): no tile divides either
///                      side, and rows start off any alignment.
///   square             a side that is a multiple of every tile (8192 × 8192).
///   odd, rows aligned  the odd matrix with each row padded to a multiple of 32 floats, so that every row
///                      starts on a 128-byte boundary, as a pitched allocation does.
pub const MATRICES: [&str; 3] = ["odd", "square", "odd, rows aligned"];
/// Row starts are aligned to this many floats (128 bytes) in the aligned matrices.
const ROW_ALIGN: u32 = 32;

pub struct Transpose;

/// Walks the matrix tile by tile (T × T tiles, workgroups T × T or T × T/4).
fn walks_tiles(kernel: &KernelId) -> bool {
    kernel.kernel == "tiled" || kernel.variant == "tiled"
}

/// Puts its tile through workgroup memory.
fn uses_tile_memory(kernel: &KernelId) -> bool {
    kernel.kernel == "tiled"
}

/// What the page, the summary and `wgsweep describe` say about the family.
pub const PRESENTATION: Presentation = Presentation {
    about: family_text!("transpose"),
    chart: ChartKind::Heatmap,
    baseline: Some("copy2d"),
    contrasts: &[
        kernel::Contrast {
            kernel: ("tiled/padded", None),
            against: ("copy2d", None),
            sentence: "A transpose through padded tiles reaches {percent} of a same-shape copy's bandwidth",
        },
        kernel::Contrast {
            kernel: ("tiled/padded", None),
            against: ("naive/read", None),
            sentence: "Tiles in workgroup memory make a transpose {than} the naive one",
        },
    ],
    roles: Roles::Kernel("copy2d", Role::Copy),
};

impl Family for Transpose {
    fn name(&self) -> &'static str {
        "transpose"
    }

    fn kernels(&self) -> Vec<KernelId> {
        KERNELS.iter().map(|&(kernel, variant)| KernelId { family: "transpose", kernel, variant }).collect()
    }

    fn size_unit(&self) -> &'static str {
        "f32 elements in the matrix"
    }

    fn parameter(&self, kernel: &KernelId) -> Option<Parameter> {
        let values = if walks_tiles(kernel) { vec![0, 1, 2] } else { vec![0] };
        Some(Parameter { name: "matrix", values, labels: &MATRICES, axes: &[] })
    }

    fn default_size(&self, limits: &ComputeLimits) -> Sizing {
        // Aligned rows pad each of about √n rows by up to ROW_ALIGN - 1 elements: leave room for them.
        let binding = limits.max_binding_bytes() / 4;
        let allowed = binding - 2 * ROW_ALIGN as u64 * (binding as f64).sqrt() as u64;
        Sizing::capped(DEFAULT_MATRIX_BYTES / 4, allowed, 4, "the matrix is")
    }

    fn round_size(&self, size: u64) -> u64 {
        // At least a few tiles each way; u32 indices.
        size.clamp(64 * 64, u32::MAX as u64)
    }

    fn workgroup_shapes(&self, kernel: &KernelId, limits: &ComputeLimits) -> Vec<[u32; 3]> {
        if walks_tiles(kernel) {
            return TILES.iter().flat_map(|&t| [[t, t, 1], [t, t / 4, 1]]).collect();
        }
        kernel::shapes::power_of_two_shapes(limits)
    }

    fn workgroup_storage_bytes(&self, configuration: &Configuration) -> u64 {
        if !uses_tile_memory(&configuration.kernel) {
            return 0;
        }
        let t = configuration.workgroup[0] as u64;
        let stride = if configuration.kernel.variant == "padded" { t + 1 } else { t };
        4 * t * stride
    }

    fn setup(&'static self, gpu: &Gpu, size: u64, seed: u32) -> Result<Box<dyn Workload>, String> {
        let elements = (0..MATRICES.len() as u32).map(|which| Matrix::new(size, which).elements()).max();
        let bytes = elements.expect("three matrices") * 4;
        kernel::check_binding(gpu, &format!("a {bytes}-byte matrix"), bytes)?;
        let src = kernel::random_buffer(gpu, "matrix", bytes, seed);
        let dst = kernel::storage_buffer(gpu, "transposed", bytes);
        let modules = ShaderModules::new("transpose.wgsl", WGSL);
        Ok(Box::new(TransposeWorkload { size, seed, modules, src, dst, reference: KeptReference::default() }))
    }

    /// The same WGSL, workgroup shapes and tiles, over the odd and (for kernels that walk tiles) the square
    /// matrix; the transposes validated against naive/read, the tiled copy against copy2d/reference.
    fn as_user_kernel(&self, kernel: &KernelId, size: u64, limits: &ComputeLimits) -> Option<String> {
        let copy = kernel.kernel == "copy2d";
        let matrices = if walks_tiles(kernel) { 0..2 } else { 0..1 };
        let sizes = matrices.map(|which| {
            let Matrix { rows, cols, .. } = Matrix::new(self.round_size(size), which);
            spec::Size::named(&[("rows", rows as u64), ("cols", cols as u64)])
        });
        let (tunables, restrictions, grid) = match walks_tiles(kernel) {
            // T × T tiles, by workgroups of T × T or T × T/4 (WG_Y: T/4 and T of each of TILES).
            true => (
                spec::Ordered::of(&[("WG_X", TILES.as_slice()), ("WG_Y", &[2, 4, 8, 16, 32])]),
                spec::expressions(&["WG_Y == WG_X || 4 * WG_Y == WG_X"]),
                spec::expressions(&["ceil_div(cols, WG_X)", "ceil_div(rows, WG_X)"]),
            ),
            false => {
                let (tunables, restrictions) = as_yours::plane_shapes(limits);
                let (x, y) = if kernel.variant == "write" { ("rows", "cols") } else { ("cols", "rows") };
                (tunables, restrictions, vec![format!("ceil_div({x}, WG_X)"), format!("ceil_div({y}, WG_Y)")])
            }
        };
        let stride = if kernel.variant == "padded" { "WG_X + 1" } else { "WG_X" };
        let tile_len = format!("WG_X * ({stride})");
        let mut constants = vec![
            ("ROWS", "rows"),
            ("COLS", "cols"),
            ("SRC_PITCH", "cols"),
            ("DST_PITCH", if copy { "cols" } else { "rows" }),
        ];
        if uses_tile_memory(kernel) {
            constants.extend([("TILE_STRIDE", stride), ("TILE_LEN", &tile_len)]);
        }
        let reference = match kernel.label().as_str() {
            "copy2d/reference" | "naive/read" => None,
            "copy2d/tiled" => Some("copy2d_reference"),
            _ => Some("naive_read"),
        };
        let buffers = vec![
            spec::BufferSpec::new(0, "src", "f32", "rows * cols"),
            spec::BufferSpec::new(1, "dst", "f32", "rows * cols").output(),
        ];
        let spec = spec::Spec {
            sizes: sizes.collect(),
            tunables,
            restrictions,
            constants: spec::Ordered::of(&constants),
            grid: Some(grid),
            bytes: Some("8 * rows * cols".into()),
            workgroup_memory: uses_tile_memory(kernel).then(|| format!("4 * WG_X * ({stride})")),
            validation: spec::ValidationSpec {
                reference: reference.map(Into::into),
                tolerance: Some(0.0),
                // One element per invocation, where the kernel walks a tile.
                grid: reference.map(|_| spec::expressions(&["ceil_div(cols, WG_X)", "ceil_div(rows, WG_Y)"])),
            },
            ..spec::Spec::new(format!("{}_{}", kernel.kernel, kernel.variant), kernel.entry_point(), buffers)
        };
        let what = "its WGSL, shapes and tiles, over the odd matrix (and the\n\
                    // square one where it walks tiles; the family's third, rows aligned, needs a pitch of its own).";
        Some(as_yours::open(&spec, kernel, what, &[WGSL]))
    }

    fn reference_words(&self, recipe: &str, range: Range<u64>) -> Result<Vec<u8>, String> {
        kernel::recipe_bytes::<Moved>(recipe, range)
    }
}

/// One matrix of `MATRICES`: its shape, and how far apart the rows of the input and of the output start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Matrix {
    pub rows: u32,
    pub cols: u32,
    /// Floats from one input row's start to the next (`cols`, or more where rows are aligned).
    pub src_pitch: u32,
    /// The same for the output, whose rows are `rows` long for a transpose and `cols` for a copy.
    pub dst_pitch: u32,
}

/// What a copy or a transpose of `matrix` leaves in dst: plain data, which the threads or workers building
/// a reference share.
#[derive(Serialize, Deserialize)]
struct Moved {
    matrix: Matrix,
    copy: bool,
    seed: u32,
}

impl Moved {
    /// The output's (rows, columns).
    fn out_shape(&self) -> (u64, u64) {
        let Matrix { rows, cols, .. } = self.matrix;
        if self.copy { (rows as u64, cols as u64) } else { (cols as u64, rows as u64) }
    }
}

impl Recipe for Moved {
    const FAMILY: &'static str = "transpose";

    fn words(&self, range: Range<u64>) -> impl Iterator<Item = Expected> {
        let (dst_pitch, out_cols) = (self.matrix.dst_pitch as u64, self.out_shape().1);
        range.map(move |at| {
            let (i, j) = (at / dst_pitch, at % dst_pitch);
            if j >= out_cols {
                return Expected::Any;
            }
            Expected::Word(random_f32(self.matrix.source(self.copy, i, j) as u32, self.seed).to_bits())
        })
    }

    /// Rows with no padding after them (which no kernel writes, and any word passes) hold words alone.
    fn words_only(&self) -> bool {
        self.matrix.dst_pitch as u64 == self.out_shape().1
    }
}

impl Matrix {
    /// Where output (i, j) comes from: input (i, j) for a copy, input (j, i) for a transpose.
    fn source(&self, copy: bool, i: u64, j: u64) -> u64 {
        let src_pitch = self.src_pitch as u64;
        if copy { i * src_pitch + j } else { j * src_pitch + i }
    }

    /// Matrix `which` of `MATRICES` for a problem of `size` elements, as a transpose writes it.
    pub fn new(size: u64, which: u32) -> Self {
        let (rows, cols) = match which {
            1 => {
                let side = ((size as f64).sqrt() as u32 / ROW_ALIGN).max(1) * ROW_ALIGN;
                (side, side)
            }
            _ => kernel::matrix_shape(size),
        };
        let pitch = |length: u32| if which == 2 { length.next_multiple_of(ROW_ALIGN) } else { length };
        Matrix { rows, cols, src_pitch: pitch(cols), dst_pitch: pitch(rows) }
    }

    /// The same matrix as a copy writes it: the output rows are as long as the input's.
    pub fn for_copy(self) -> Self {
        Matrix { dst_pitch: self.src_pitch, ..self }
    }

    /// Floats a buffer must hold for the input, or for the output written either way.
    fn elements(&self) -> u64 {
        let src = self.rows as u64 * self.src_pitch as u64;
        let dst = self.cols as u64 * self.dst_pitch as u64;
        src.max(dst)
    }
}

struct TransposeWorkload {
    /// Elements the problem was asked for; each configuration's matrix is `Matrix::new(size, matrix)`.
    size: u64,
    seed: u32,
    modules: ShaderModules,
    src: OwnedBuffer,
    dst: OwnedBuffer,
    /// Whether the last output checked was a copy's, its matrix, and what `dst` then holds.
    reference: KeptReference<(bool, Option<u32>)>,
}

impl TransposeWorkload {
    fn matrix(&self, configuration: &Configuration) -> Matrix {
        let matrix = Matrix::new(self.size, configuration.parameter.unwrap_or(0));
        if configuration.kernel.kernel == "copy2d" { matrix.for_copy() } else { matrix }
    }

    /// `prepare`, at once: its pipelines compile quickly, and are made synchronously.
    fn prepare_now(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let Configuration { kernel, checks, workgroup, .. } = configuration;
        let [x, y, _] = *workgroup;
        let matrix = self.matrix(configuration);
        let Matrix { rows, cols, .. } = matrix;
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
        let mut constants = vec![
            ("WG_X", x as f64),
            ("WG_Y", y as f64),
            ("ROWS", rows as f64),
            ("COLS", cols as f64),
            ("SRC_PITCH", matrix.src_pitch as f64),
            ("DST_PITCH", matrix.dst_pitch as f64),
        ];
        if uses_tile_memory(kernel) {
            constants.extend([("TILE_STRIDE", stride as f64), ("TILE_LEN", (x * stride) as f64)]);
        }
        let pipeline = self.modules.pipeline(gpu, *checks, &kernel.entry_point(), &constants);
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, &self.src), (1, &self.dst)]);
        Ok(Prepared::single(Step::new(pipeline, bind_group, grid), self.dst.handle(), Vec::new()))
    }
}

impl Workload for TransposeWorkload {
    fn size(&self) -> u64 {
        self.size
    }

    /// Every element is read once and written once.
    fn bytes_per_dispatch(&self, configuration: &Configuration) -> u64 {
        let Matrix { rows, cols, .. } = self.matrix(configuration);
        2 * rows as u64 * cols as u64 * 4
    }

    fn prepare<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> PrepareFuture<'a> {
        Box::pin(std::future::ready(self.prepare_now(gpu, configuration)))
    }

    /// A copy or transpose is exact: every element must carry the very bits of its source element; the
    /// pitch past a row's end is no kernel's to write.
    fn reference<'a>(&'a self, gpu: &'a Gpu, configuration: &'a Configuration) -> ReferenceFuture<'a> {
        Box::pin(async move {
            let copy = configuration.kernel.kernel == "copy2d";
            let moved = Moved { matrix: self.matrix(configuration), copy, seed: self.seed };
            let dst = Reference::build(gpu, "dst", moved.out_shape().0 * moved.matrix.dst_pitch as u64, moved);
            Ok(Some(self.reference.get_or_build((copy, configuration.parameter), dst).await))
        })
    }

    fn check(&self, configuration: &Configuration, _: &Prepared, output: &[u8]) -> Result<(), ValidationError> {
        let matrix = self.matrix(configuration);
        let [rows, cols, dst_pitch] = [matrix.rows, matrix.cols, matrix.dst_pitch].map(|n| n as u64);
        let copy = configuration.kernel.kernel == "copy2d";
        let (out_rows, out_cols) = if copy { (rows, cols) } else { (cols, rows) };
        let output: Vec<f32> = f32s(output).collect();
        let mut comparison = Comparison::new("dst");
        for i in 0..out_rows {
            for j in 0..out_cols {
                let at = i * dst_pitch + j;
                let want = random_f32(matrix.source(copy, i, j) as u32, self.seed) as f64;
                comparison.check(at, output[at as usize] as f64, want, 0.0);
            }
        }
        comparison.finish()
    }
}
