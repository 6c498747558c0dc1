//! What the built-in families share when they open a kernel as a user's (`Family::as_user_kernel`): the
//! shapes they sweep and the grids they dispatch, said as a specification says them.

use crate::gpu::ComputeLimits;
use crate::spec::{Dimension, Ordered, Size, Spec};

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
