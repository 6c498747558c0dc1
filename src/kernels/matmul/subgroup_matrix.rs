//! C = A·B on subgroup matrices, tensor cores underneath, one WGSL for all (matmul_subgroup_matrix.wgsl): on
//! Chromium's, `matmul_subgroup_matrix` (8-bit integers) and `matmul_subgroup_matrix_f16` (f16, summed in
//! f32); natively on wgpu's cooperative matrices, `matmul_cooperative_matrix_f16`.

use super::{Inputs, MatmulWorkload};
use crate::gpu::{Gpu, MatrixConfig};
use crate::kernel::{self, Configuration, KernelId, Prepared, ShaderModules, Skip, Step};

const WGSL: &str = shader!("matmul_subgroup_matrix.wgsl");

/// The subgroups the kernels' blocks of C are made of, and their workgroups' shapes in subgroups (rows ×
/// columns of their blocks of C).
const SUBGROUP_SIZE: u32 = 32;
const GRIDS: [[u32; 2]; 4] = [[1, 1], [2, 1], [2, 2], [4, 2]];
/// The blocks of C (rows, columns) a subgroup computes: the variants' "32x32", "32x64" and "64x64".
const BLOCKS: [[u32; 2]; 3] = [[32, 32], [32, 64], [64, 64]];

/// The vec4s of a row of A or column of B a step stages (two K-chunks of 32 bytes), and the bytes a staged one
/// takes: its vec4s, and 16 of padding.
const PARTS: u32 = 4;
const ROW_BYTES: u64 = 16 * PARTS as u64 + 16;

/// Whose subgroup matrices a kernel is written for: Chromium's, in its WGSL, or natively wgpu's cooperative
/// matrices, in naga's (no 8-bit types there).
#[derive(Clone, Copy, PartialEq)]
enum Dialect {
    Chromium,
    Naga,
}

/// The kernels, in the order of `MatmulWorkload::subgroup_matrix`.
const KINDS: [(Inputs, Dialect); 4] = [
    (Inputs::U8, Dialect::Chromium),
    (Inputs::I8, Dialect::Chromium),
    (Inputs::F16, Dialect::Chromium),
    (Inputs::F16, Dialect::Naga),
];

/// Whether `kernel` is one of this module's.
pub fn is_one(kernel: &str) -> bool {
    ["matmul_subgroup_matrix", "matmul_subgroup_matrix_f16", "matmul_cooperative_matrix_f16"].contains(&kernel)
}

/// The dialect of the kernel `kernel` names (its inputs come from `Inputs::of`).
fn dialect(kernel: &str) -> Dialect {
    if kernel == "matmul_cooperative_matrix_f16" { Dialect::Naga } else { Dialect::Chromium }
}

/// The modules of one kernel: in each of `BLOCKS`, in each of `GRIDS`.
pub type Modules = [[ShaderModules; 4]; 3];

/// The modules of every kernel, in `KINDS` order.
pub fn all_modules() -> [Modules; 4] {
    KINDS.map(|(inputs, dialect)| modules(inputs, dialect))
}

/// The configuration the kernel of `inputs` is written for, M × N × K: a chunk of k is 32 bytes, 32 8-bit
/// elements or 16 halves.
fn k(inputs: Inputs) -> u32 {
    32 / inputs.bytes() as u32
}

/// The WGSL of `inputs` for `dialect` (written in Chromium's; `in_dialect` rewrites it for naga's), subgroups'
/// blocks of C `block` (one of `BLOCKS`) and workgroups of `[rows, columns]` subgroups: the directives first,
/// then the module, the words the staged tiles hold and how a loaded vec4 of A or B fills them, C's words,
/// the shape as constants (which the sizes of arrays must be), and the subgroup matrices of the configuration.
/// Chromium loads subgroup matrices from whole vec4s, one store a loaded vec4; naga's cooperative matrices
/// only from their own scalars, eight halves a vec4.
fn wgsl(inputs: Inputs, dialect: Dialect, block: [u32; 2], [rows, columns]: [u32; 2]) -> String {
    let [component, out] = inputs.matrix_types();
    let k = k(inputs);
    let f16 = if inputs == Inputs::F16 { "enable f16;\n" } else { "" };
    let (word, word_bytes, unpacked) = match (inputs, dialect) {
        (_, Dialect::Chromium) => {
            ("vec4<u32>", 16, "return array(v, Word(), Word(), Word(), Word(), Word(), Word(), Word());")
        }
        (Inputs::F16, Dialect::Naga) => (
            "f16",
            2,
            // Through f32 (exactly): naga 30 mistypes a bitcast of u32 to vec2<f16> (and an array of an
            // alias, hence `unpacked`'s type named as it is).
            "let x = vec2<f16>(unpack2x16float(v.x));\nlet y = vec2<f16>(unpack2x16float(v.y));\n\
             let z = vec2<f16>(unpack2x16float(v.z));\nlet w = vec2<f16>(unpack2x16float(v.w));\n\
             return array(x.x, x.y, y.x, y.y, z.x, z.y, w.x, w.y);",
        ),
        (_, Dialect::Naga) => unreachable!("naga's cooperative matrices have no 8-bit type"),
    };
    // The loads' offsets are uniform over each subgroup, not over the workgroup, which is all WGSL's analysis
    // proves.
    format!(
        "{f16}enable chromium_experimental_subgroup_matrix;\nenable subgroups;\n\
         diagnostic(off, chromium_experimental.subgroup_matrix_uniformity);\n{WGSL}alias Word = {word};\n\
         alias Out = {out};\nconst WORD_BYTES = {word_bytes}u;\nconst PER_WORD = {per_word}u;\n\
         fn unpacked(v: vec4<u32>) -> array<{word}, 8> {{\n{unpacked}\n}}\nconst ROW_TILES = {row_tiles}u;\n\
         const COLS = {cols}u;\n\
         const SUBGROUP_ROWS = {rows}u;\nconst SUBGROUP_COLS = {columns}u;\n\
         alias Left = subgroup_matrix_left<{component}, {k}, 16>;\n\
         alias Right = subgroup_matrix_right<{component}, 16, {k}>;\n\
         alias Result = subgroup_matrix_result<{out}, 16, 16>;\n",
        per_word = word_bytes / inputs.bytes(),
        row_tiles = block[0] / 16,
        cols = block[1] / 16,
    )
}

/// `chromium`, the module in Chromium's dialect, in naga's for wgpu's cooperative matrices (f16 only): its
/// directives, matrix types and calls rewritten. A call's arguments hold no commas or calls of their own.
#[cfg(not(target_arch = "wasm32"))]
fn in_naga_dialect(chromium: &str) -> String {
    let (head, body) = chromium.split_at(chromium.find("diagnostic(off").unwrap_or(0));
    let body = body.split_once('\n').map_or(body, |(_, rest)| rest);
    let head = head.replace("chromium_experimental_subgroup_matrix", "wgpu_cooperative_matrix");
    let mut text = format!("{head}{body}")
        .replace("subgroup_matrix_left<f16, 16, 16>", "coop_mat16x16<f16, A>")
        .replace("subgroup_matrix_right<f16, 16, 16>", "coop_mat16x16<f16, B>")
        .replace("subgroup_matrix_result<f32, 16, 16>", "coop_mat16x16<f32, C>")
        .replace("subgroupMatrixMultiplyAccumulate(", "coopMultiplyAdd(");
    // naga's coopLoadT and coopStoreT read and write row by row, coopLoad column by column; they take a
    // pointer to the first element.
    for (call, naga) in [
        ("subgroupMatrixLoad<Left, row_major>(", "coopLoadT<Left>"),
        ("subgroupMatrixLoad<Right, col_major>(", "coopLoad<Right>"),
        ("subgroupMatrixStore<row_major>(", "coopStoreT"),
    ] {
        while let Some(at) = text.find(call) {
            let start = at + call.len();
            let end = start + text[start..].find(')').unwrap_or(0);
            let rewritten = match text[start..end].split(", ").collect::<Vec<_>>()[..] {
                [array, offset, matrix, stride] => format!("{naga}({matrix}, &(*{array})[{offset}], {stride})"),
                [array, offset, stride] => format!("{naga}(&(*{array})[{offset}], {stride})"),
                ref other => unreachable!("a call of {} arguments: {other:?}", other.len()),
            };
            text.replace_range(at..=end, &rewritten);
        }
    }
    text
}

/// The modules of `inputs` in `dialect`.
fn modules(inputs: Inputs, dialect: Dialect) -> Modules {
    let label = match (inputs, dialect) {
        (Inputs::I8, _) => "matmul_subgroup_matrix.wgsl (i8)",
        (Inputs::F16, Dialect::Chromium) => "matmul_subgroup_matrix.wgsl (f16)",
        (Inputs::F16, Dialect::Naga) => "matmul_subgroup_matrix.wgsl (f16, naga)",
        _ => "matmul_subgroup_matrix.wgsl (u8)",
    };
    BLOCKS.map(|block| {
        GRIDS.map(|grid| ShaderModules::new(label, in_dialect(wgsl(inputs, dialect, block, grid), dialect)))
    })
}

/// The module `chromium` in `dialect`. A browser never compiles naga's (the kernel is skipped there), so the
/// page holds no rewriting.
fn in_dialect(chromium: String, dialect: Dialect) -> String {
    match dialect {
        Dialect::Chromium => chromium,
        #[cfg(not(target_arch = "wasm32"))]
        Dialect::Naga => in_naga_dialect(&chromium),
        #[cfg(target_arch = "wasm32")]
        Dialect::Naga => String::new(),
    }
}

/// Which of `BLOCKS` a subgroup of `variant` computes.
fn block_index(variant: &str) -> usize {
    BLOCKS.iter().position(|[m, n]| variant.ends_with(&format!("{m}x{n}"))).unwrap_or(1)
}

/// The block of C (rows, columns) a subgroup of `variant` computes.
fn block(variant: &str) -> [u32; 2] {
    BLOCKS[block_index(variant)]
}

/// Which of `GRIDS` a workgroup of `invocations` is, and the block of C (rows, columns) it computes: where
/// its invocations copy whole vec4s of each staged row of A and column of B, at most 4 of each (so not one
/// subgroup of a 32 × 64 block, nor one or two of a 64 × 64 block).
fn tile(variant: &str, invocations: u32) -> Option<(usize, [u32; 2])> {
    let shape = GRIDS.iter().position(|[rows, cols]| SUBGROUP_SIZE * rows * cols == invocations)?;
    let [rows, cols] = GRIDS[shape];
    let [m, n] = block(variant);
    let tile = [rows * m, cols * n];
    let loads = |lines: u32| (PARTS * lines).is_multiple_of(invocations) && PARTS * lines / invocations <= 4;
    tile.iter().all(|&lines| loads(lines)).then_some((shape, tile))
}

/// The WGSL `kernel` compiles from in a workgroup of `invocations`, in its dialect: for a tool outside the
/// product to hand a driver and read what it makes of it (docs/results/pipeline-stats).
pub fn source(kernel: KernelId, invocations: u32) -> Option<String> {
    let (shape, _) = tile(kernel.variant, invocations)?;
    let dialect = dialect(kernel.kernel);
    Some(in_dialect(wgsl(Inputs::of(kernel), dialect, block(kernel.variant), GRIDS[shape]), dialect))
}

/// The workgroups `variant` runs in.
pub fn workgroup_shapes(variant: &str) -> Vec<[u32; 3]> {
    let shapes = GRIDS.map(|[rows, cols]| [SUBGROUP_SIZE * rows * cols, 1, 1]);
    shapes.into_iter().filter(|&[x, _, _]| tile(variant, x).is_some()).collect()
}

/// One buffer of a step's padded rows of A and columns of B.
pub fn workgroup_storage_bytes(variant: &str, invocations: u32) -> u64 {
    tile(variant, invocations).map_or(0, |(_, [m, n])| (m + n) as u64 * ROW_BYTES)
}

impl MatmulWorkload {
    /// Any of the kernels, where its dialect's subgroup matrices are offered at 16 × 16 × K for its types, and
    /// subgroups of 32 only (its blocks of C are made of that many invocations).
    pub(super) async fn prepare_subgroup_matrix(
        &self,
        gpu: &Gpu,
        configuration: &Configuration,
    ) -> Result<Prepared, Skip> {
        let n = configuration.parameter.unwrap_or(0);
        let inputs = Inputs::of(configuration.kernel);
        let dialect = dialect(configuration.kernel.kernel);
        let [component, result] = inputs.matrix_types();
        let k = k(inputs);
        let web = cfg!(target_arch = "wasm32");
        let missing = match dialect {
            Dialect::Chromium if gpu.subgroup_matrices => None,
            Dialect::Chromium if web => Some(
                "needs subgroup matrices (chromium-experimental-subgroup-matrix), which this browser does not offer \
                 for this adapter",
            ),
            Dialect::Chromium => Some(
                "needs Chromium's subgroup matrices (chromium-experimental-subgroup-matrix): natively wgpu's \
                 cooperative matrices take a WGSL of their own and have no 8-bit type \
                 (matmul_cooperative_matrix_f16 runs on them)",
            ),
            Dialect::Naga if gpu.cooperative_matrices => None,
            Dialect::Naga if web => Some("runs natively only (matmul_subgroup_matrix_f16 is its browser twin)"),
            Dialect::Naga => Some(
                "needs cooperative matrices (wgpu's experimental cooperative matrices; on Vulkan \
                 VK_KHR_cooperative_matrix), which this adapter does not offer",
            ),
        };
        if let Some(missing) = missing {
            return Err(Skip::NotApplicable(missing.into()));
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
            let counts: Vec<String> =
                workgroup_shapes(variant).iter().map(|[x, _, _]| (x / SUBGROUP_SIZE).to_string()).collect();
            return Err(Skip::NotApplicable(format!(
                "{} runs in workgroups of {SUBGROUP_SIZE} invocations times one of {}",
                configuration.kernel.label(),
                counts.join(", ")
            )));
        };
        if !n.is_multiple_of(tile[0]) || !n.is_multiple_of(tile[1]) {
            return Err(Skip::NotApplicable(format!("n = {n} is no multiple of the {} × {} block", tile[0], tile[1])));
        }
        let grid = kernel::plane_grid(gpu, [n, n], [tile[1], tile[0]])?;
        let kind = KINDS.iter().position(|&kind| kind == (inputs, dialect)).unwrap_or(0);
        let modules = &self.subgroup_matrix[kind][block_index(variant)];
        let constants = [("N", n as f64)];
        let pipeline =
            modules[shape].pipeline_async(gpu, configuration.checks, "matmul_subgroup_matrix", &constants).await;
        let [a, b] = match inputs {
            Inputs::F16 => self.halves(gpu),
            _ => self.bytes(gpu),
        };
        let bind_group = kernel::bind_group(gpu, &pipeline, &[(0, a), (1, b), (2, &self.c)]);
        Ok(Prepared::single(Step::new(pipeline, bind_group, grid), self.c.handle(), Vec::new()))
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use wgpu::naga;

    /// No adapter here offers cooperative matrices (lavapipe has none): naga compiles the kernel to SPIR-V
    /// in each of its workgroup shapes, as wgpu would for a device that does.
    #[test]
    fn the_cooperative_matrix_kernel_compiles_to_spir_v_in_every_shape() {
        for variant in ["32x32", "32x64", "64x64"] {
            for [invocations, _, _] in workgroup_shapes(variant) {
                let (shape, _) = tile(variant, invocations).unwrap();
                let source = in_naga_dialect(&wgsl(Inputs::F16, Dialect::Naga, block(variant), GRIDS[shape]));
                let source = kernel::for_this_compiler(&source);
                let module = naga::front::wgsl::parse_str(&source)
                    .unwrap_or_else(|e| panic!("{variant} in {invocations}: {}", e.emit_to_string(&source)));
                let mut validator =
                    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all());
                let info = validator
                    .validate(&module)
                    .unwrap_or_else(|e| panic!("{variant} in {invocations}: {}", e.emit_to_string(&source)));
                let constants = [("N".to_string(), 256.0)].into_iter().collect();
                let entry = (naga::ShaderStage::Compute, "matmul_subgroup_matrix");
                let (module, info) =
                    naga::back::pipeline_constants::process_overrides(&module, &info, Some(entry), &constants).unwrap();
                let options = naga::back::spv::Options::default();
                let pipeline = naga::back::spv::PipelineOptions {
                    shader_stage: naga::ShaderStage::Compute,
                    entry_point: entry.1.into(),
                };
                let words = naga::back::spv::write_vec(&module, &info, &options, Some(&pipeline));
                assert!(words.is_ok_and(|words| words.len() > 100), "{variant} in {invocations}");
            }
        }
    }

    /// `source` hands out the module a kernel compiles from, in its dialect, and nothing for a workgroup the
    /// kernel does not run in.
    #[test]
    fn the_source_of_a_kernel_is_its_module_in_its_dialect() {
        let kernel = |kernel, variant| KernelId { family: "matmul", kernel, variant };
        let naga = source(kernel("matmul_cooperative_matrix_f16", "32x64"), 256).unwrap();
        assert!(naga.contains("coopLoadT<Left>") && !naga.contains("subgroupMatrixLoad"));
        assert!(naga.contains("const SUBGROUP_ROWS = 4u;") && naga.contains("const COLS = 4u;"));
        let chromium = source(kernel("matmul_subgroup_matrix", "i8_32x32"), 128).unwrap();
        assert!(
            chromium.contains("subgroupMatrixLoad<Left, row_major>") && chromium.contains("alias Word = vec4<u32>;")
        );
        assert!(source(kernel("matmul_subgroup_matrix", "u8_32x64"), 32).is_none());
    }
}
