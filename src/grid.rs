//! The dispatch grid of a 1-D problem: the host side of shaders/grid.wgsl, which recovers the linear
//! workgroup and invocation indices from it. Pure arithmetic, below everything that dispatches.

/// Spreads `groups` workgroups over x and, past the per-dimension limit, y, as evenly as possible so that
/// few surplus workgroups are launched. `None` if even a square grid at the limit is too small.
/// Kernels recover the linear group index as `wid.x + wid.y * num_workgroups.x` and bounds-check it.
pub fn dispatch_grid(groups: u64, max_per_dimension: u32) -> Option<[u32; 3]> {
    let max = max_per_dimension as u64;
    let y = groups.max(1).div_ceil(max);
    let x = groups.max(1).div_ceil(y);
    (y <= max).then_some([x as u32, y as u32, 1])
}

/// `dispatch_grid` as a user's kernel's specification writes it: the x and y of `groups` (an expression)
/// spread over at most `max_per_dimension` workgroups along x.
pub fn dispatch_grid_expressions(groups: &str, max_per_dimension: u32) -> Vec<String> {
    let y = format!("ceil_div({groups}, {max_per_dimension})");
    vec![format!("ceil_div({groups}, {y})"), y]
}
