//! What the built-in families share when they open a kernel as a user's (`Family::as_user_kernel`): the
//! shapes they sweep and the grids they dispatch, said as a specification says them.

use crate::gpu::ComputeLimits;
use crate::spec::{BufferSpec, Dimension, Fill, Ordered, PassSpec, Size, Spec};

use super::{KernelId, shapes};

/// The tunables and restriction that sweep `shapes::power_of_two_shapes`: WG_X and WG_Y over every power
/// of two, skipping a shape of more invocations than the device's workgroup holds.
pub fn plane_shapes(limits: &ComputeLimits) -> (Ordered<Vec<u32>>, Vec<String>) {
    let sizes = shapes::power_of_two_sizes(limits);
    let tunables = Ordered::of(&[("WG_X", sizes.as_slice()), ("WG_Y", &sizes)]);
    (tunables, vec![format!("WG_X * WG_Y <= {}", limits.max_invocations_per_workgroup)])
}

/// A 1-D sweep: the tunable WG over every power of two the device's workgroup holds.
pub fn line_shapes(limits: &ComputeLimits) -> Ordered<Vec<u32>> {
    Ordered::of(&[("WG", shapes::power_of_two_sizes(limits).as_slice())])
}

/// A 2-D problem of `size` elements as the image families make it (`matrix_shape`): width × height.
pub fn plane_size(size: u64) -> Size {
    let (height, width) = super::matrix_shape(size);
    Size::named(&[("width", width as u64), ("height", height as u64)])
}

/// The grid of `groups` workgroups of a 1-D problem, spread over x and y as `linear_grid` spreads them.
pub fn linear_grid(groups: &str, limits: &ComputeLimits) -> Vec<String> {
    crate::grid::dispatch_grid_expressions(groups, limits.max_workgroups_per_dimension)
}

/// The workgroup's shape of the 1-D kernels: `@workgroup_size(WG)`.
pub fn line_workgroup() -> Option<Vec<Dimension>> {
    Some(vec![Dimension::Expression("WG".into())])
}

/// `kernel` as a user's kernel: its WGSL (`parts`, in order) opened by `spec` in the leading comment, and a
/// line that says what it is (`what`, which may go on over further `// ` lines).
pub fn open(spec: &Spec, kernel: &KernelId, what: &str, parts: &[&str]) -> String {
    let about = format!("// The {} family's {} as your kernel: {what}\n", kernel.family, kernel.label());
    spec.open(&about, &parts.concat())
}

/// How far two f32 sums of `n` terms in [0, 1) may differ, relative to the sum, where each invocation adds
/// `deepest` terms in order at the fewest invocations (a workgroup of one) and trees add the rest: each within
/// 2ε·depth·Σ|x| of the exact sum (as the families' checks bound them), depth = deepest + log2 n + 2.
pub fn f32_sums_tolerance(deepest: u64, n: u64) -> f64 {
    4.0 * f32::EPSILON as f64 * (deepest as f64 + (n as f64).log2() + 2.0)
}

/// The grid of `groups` workgroups (an expression), `most` at the most (at a workgroup of 1): along x where
/// that holds them, else spread over y too as `linear_grid` spreads them; and the most it launches.
pub fn grid_of(groups: &str, most: u64, limits: &ComputeLimits) -> (Vec<String>, u64) {
    let max = limits.max_workgroups_per_dimension;
    match most <= max as u64 {
        true => (vec![groups.to_string()], most),
        false => {
            let [x, y, _] = crate::grid::dispatch_grid(most, max).unwrap_or([max, max, 1]);
            (linear_grid(groups, limits), x as u64 * y as u64)
        }
    }
}

/// The workgroups `grid` launches, as one expression.
pub fn launched(grid: &[String]) -> String {
    match grid {
        [x] => x.clone(),
        _ => grid.iter().map(|g| format!("({g})")).collect::<Vec<_>>().join(" * "),
    }
}

/// How the partial sums of a first pass are added up by passes of `workgroup` invocations, each summing
/// one workgroup's worth into one.
pub struct Adding<'a> {
    pub workgroup: u32,
    /// The partial sums' element type ("u32", "f32").
    pub element: &'a str,
    /// Whether a pass reads its partial sums as vec4s too: then their buffers hold whole vec4s, the
    /// elements past the partial sums zeros.
    pub in_vec4s: bool,
    /// A pass that adds the partial sums in the buffer named by the first argument into that named by
    /// the second, at the grid given.
    pub pass: &'a dyn Fn(&str, &str, Vec<String>) -> PassSpec,
}

impl Adding<'_> {
    /// The partial sums' buffer for `count` of them (an expression).
    pub fn buffer(&self, binding: u32, name: &str, count: &str) -> BufferSpec {
        let buffer = BufferSpec::new(binding, name, self.element, self.length(count)).written();
        if self.in_vec4s { buffer.filled(Fill::Zeros) } else { buffer }
    }

    fn length(&self, count: &str) -> String {
        if self.in_vec4s { format!("ceil_div({count}, 4) * 4") } else { count.to_string() }
    }

    /// Appends to `spec` the passes that add up the partial sums in its last buffer (`count` of them, `most`
    /// at the most) until one is left, in the output buffer `total`; each pass's sums in a buffer of its own.
    pub fn passes(&self, spec: &mut Spec, limits: &ComputeLimits, mut count: String, mut most: u64) {
        let mut level = 1;
        while most > 1 {
            let grid;
            let groups = format!("ceil_div({count}, {})", self.workgroup);
            (grid, most) = grid_of(&groups, most.div_ceil(self.workgroup as u64), limits);
            let from = spec.buffers.last().expect("the partial sums").name.clone();
            count = launched(&grid);
            // The last pass launches one workgroup at every workgroup size: its one sum is the output.
            let buffer = match most {
                1 => BufferSpec { binding: None, ..BufferSpec::new(0, "total", self.element, "1") }.output(),
                _ => BufferSpec { binding: None, ..self.buffer(0, &format!("partials{level}"), &count) },
            };
            let to = buffer.name.clone();
            spec.buffers.push(buffer);
            spec.passes.push((self.pass)(&from, &to, grid));
            level += 1;
        }
        spec.entry_point = "main".into();
    }
}
