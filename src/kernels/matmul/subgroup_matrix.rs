//! `matmul_subgroup_matrix` (8-bit integers) and `matmul_subgroup_matrix_f16` (f16, summed in f32): C = A·B
//! on a browser's subgroup matrices, tensor cores underneath, one WGSL for both (matmul_subgroup_matrix.wgsl).

use super::{Inputs, MatmulWorkload};
use crate::gpu::{Gpu, MatrixConfig};
use crate::kernel::{self, Configuration, Prepared, ShaderModules, Skip, Step};

const WGSL: &str = shader!("matmul_subgroup_matrix.wgsl");

/// The subgroups the kernels' blocks of C are made of, and their workgroups' shapes in subgroups (rows ×
/// columns of their blocks of C).
const SUBGROUP_SIZE: u32 = 32;
const GRIDS: [[u32; 2]; 4] = [[1, 1], [2, 1], [2, 2], [4, 2]];
/// The bytes a staged row of A or column of B takes: the 32 a step stages, and 16 of padding.
const ROW_BYTES: u64 = 48;

/// The kernels' inputs, in the order of `MatmulWorkload::subgroup_matrix`.
const INPUTS: [Inputs; 3] = [Inputs::U8, Inputs::I8, Inputs::F16];

/// The modules of one input type: in blocks 2 and 4 tiles wide, in each of `GRIDS`.
pub type Modules = [[ShaderModules; 4]; 2];

/// The modules of every input type, in `INPUTS` order.
pub fn all_modules() -> [Modules; 3] {
    INPUTS.map(modules)
}

/// The configuration the kernel of `inputs` is written for, M × N × K: a step stages 32 bytes along k, 32
/// 8-bit elements or 16 halves.
fn k(inputs: Inputs) -> u32 {
    32 / inputs.bytes() as u32
}

/// The WGSL of `inputs`, subgroups' blocks of C `cols` tiles wide (2 or 4) and workgroups of `[rows,
/// columns]` subgroups: the words the staged tiles hold and how a loaded vec4 of A or B fills them, C's
/// words, the subgroup matrices of the configuration, and the shape as constants (which the sizes of arrays
/// must be), after the module's directives.
fn wgsl(inputs: Inputs, cols: u32, [rows, columns]: [u32; 2]) -> String {
    let [component, out] = inputs.matrix_types();
    let (head, word, word_bytes, unpacked) = match inputs {
        Inputs::F16 => (
            "enable f16;\n",
            "f16",
            2,
            "let h = array(bitcast<vec2<f16>>(v.x), bitcast<vec2<f16>>(v.y), bitcast<vec2<f16>>(v.z), \
             bitcast<vec2<f16>>(v.w));\nreturn array(h[0].x, h[0].y, h[1].x, h[1].y, h[2].x, h[2].y, h[3].x, h[3].y);",
        ),
        _ => (
            "",
            out,
            4,
            "return array(bitcast<Word>(v.x), bitcast<Word>(v.y), bitcast<Word>(v.z), bitcast<Word>(v.w), Word(), \
             Word(), Word(), Word());",
        ),
    };
    let k = k(inputs);
    format!(
        "{head}{WGSL}alias Word = {word};\nalias Out = {out};\nconst WORD_BYTES = {word_bytes}u;\n\
         const PER_WORD = {per_word}u;\nconst K = {k}u;\nalias Left = subgroup_matrix_left<{component}, {k}, 16>;\n\
         alias Right = subgroup_matrix_right<{component}, 16, {k}>;\nalias Result = subgroup_matrix_result<{out}, 16, \
         16>;\nfn unpacked(v: vec4<u32>) -> array<Word, 8> {{\n{unpacked}\n}}\nconst COLS = {cols}u;\n\
         const SUBGROUP_ROWS = {rows}u;\nconst SUBGROUP_COLS = {columns}u;\n",
        per_word = word_bytes / inputs.bytes(),
    )
}

/// The modules of `inputs`.
fn modules(inputs: Inputs) -> Modules {
    let label = match inputs {
        Inputs::I8 => "matmul_subgroup_matrix.wgsl (i8)",
        Inputs::F16 => "matmul_subgroup_matrix.wgsl (f16)",
        _ => "matmul_subgroup_matrix.wgsl (u8)",
    };
    [2, 4].map(|cols| GRIDS.map(|grid| ShaderModules::new(label, wgsl(inputs, cols, grid))))
}

/// The block of C (rows, columns) a subgroup computes: `variant`'s "32x32" or "32x64".
fn block(variant: &str) -> [u32; 2] {
    if variant.ends_with("32x32") { [32, 32] } else { [32, 64] }
}

/// Which of `GRIDS` a workgroup of `invocations` is, and the block of C (rows, columns) it computes: where
/// its invocations copy whole vec4s of each staged row of A and column of B (two each), so not 8 subgroups
/// of 32 × 32 blocks.
fn tile(variant: &str, invocations: u32) -> Option<(usize, [u32; 2])> {
    let shape = GRIDS.iter().position(|[rows, cols]| SUBGROUP_SIZE * rows * cols == invocations)?;
    let [rows, cols] = GRIDS[shape];
    let [m, n] = block(variant);
    let tile = [rows * m, cols * n];
    tile.iter().all(|&lines| (2 * lines).is_multiple_of(invocations)).then_some((shape, tile))
}

/// The workgroups `variant` runs in.
pub fn workgroup_shapes(variant: &str) -> Vec<[u32; 3]> {
    let shapes = GRIDS.map(|[rows, cols]| [SUBGROUP_SIZE * rows * cols, 1, 1]);
    shapes.into_iter().filter(|&[x, _, _]| tile(variant, x).is_some()).collect()
}

/// Two buffers, each a step's padded rows of A and columns of B.
pub fn workgroup_storage_bytes(variant: &str, invocations: u32) -> u64 {
    tile(variant, invocations).map_or(0, |(_, [m, n])| 2 * (m + n) as u64 * ROW_BYTES)
}

impl MatmulWorkload {
    /// Either kernel, where the browser offers subgroup matrices of its types at 16 × 16 × K and subgroups of
    /// 32 only (its blocks of C are made of that many invocations).
    pub(super) fn prepare_subgroup_matrix(&self, gpu: &Gpu, configuration: &Configuration) -> Result<Prepared, Skip> {
        let n = configuration.parameter.unwrap_or(0);
        let inputs = Inputs::of(configuration.kernel);
        let [component, result] = inputs.matrix_types();
        let k = k(inputs);
        if !gpu.subgroup_matrices {
            return Err(Skip::NotApplicable(if cfg!(target_arch = "wasm32") {
                "needs subgroup matrices (chromium-experimental-subgroup-matrix), which this browser does not \
                 offer for this adapter"
                    .into()
            } else {
                "needs Chromium's subgroup matrices (chromium-experimental-subgroup-matrix): natively wgpu's \
                 cooperative matrices take a WGSL of their own and have no 8-bit type"
                    .into()
            }));
        }
        if inputs == Inputs::F16 && !gpu.shader_f16 {
            return Err(Skip::needs_f16());
        }
        let offered =
            |c: &MatrixConfig| c.component == component && c.result == result && [c.m, c.n, c.k] == [16, 16, k];
        if !gpu.info.matrix_configs.iter().any(offered) {
            return Err(Skip::NotApplicable(format!(
                "needs {component} → {result} subgroup matrices of 16×16×{k}, which this adapter does not offer"
            )));
        }
        if gpu.info.subgroup_sizes != Some([SUBGROUP_SIZE; 2]) {
            return Err(Skip::NotApplicable(format!(
                "its blocks are made of subgroups of {SUBGROUP_SIZE}; this adapter's are {}",
                gpu.info.subgroup_sizes.map_or("unknown".into(), |[low, high]| format!("{low} to {high}"))
            )));
        }
        let [x, y, z] = configuration.workgroup;
        let variant = configuration.kernel.variant;
        let Some((shape, tile)) = tile(variant, x).filter(|_| [y, z] == [1, 1]) else {
            return Err(Skip::NotApplicable(format!(
                "{} runs in workgroups of {} subgroups of {SUBGROUP_SIZE}",
                configuration.kernel.label(),
                if block(variant)[1] == 64 { "1, 2, 4 or 8" } else { "1, 2 or 4" }
            )));
        };
        if !n.is_multiple_of(tile[0]) || !n.is_multiple_of(tile[1]) {
            return Err(Skip::NotApplicable(format!("n = {n} is no multiple of the {} × {} block", tile[0], tile[1])));
        }
        let grid = kernel::plane_grid(gpu, [n, n], [tile[1], tile[0]])?;
        let of_inputs = &self.subgroup_matrix[INPUTS.iter().position(|&i| i == inputs).unwrap_or(0)];
        let modules = &of_inputs[(block(variant)[1] == 64) as usize];
        let pipeline = modules[shape].pipeline(gpu, configuration.checks, "matmul_subgroup_matrix", &[("N", n as f64)]);
        let [a, b] = match inputs {
            Inputs::F16 => self.halves(gpu),
            _ => self.bytes(gpu),
        };
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, a), (1, b), (2, &self.c)]);
        Ok(Prepared::single(Step::new(pipeline, bind_group, grid), self.c.handle(), Vec::new()))
    }
}
