//! Which workgroup shapes a sweep tries, and a reason for every one a device cannot run.

use super::Skip;
use crate::gpu::ComputeLimits;

/// Every power of two from 1 up to the largest 1-D workgroup any limit could allow on this device.
/// Shapes over a limit stay in the list, to be skipped with their reason.
pub fn power_of_two_sizes(limits: &ComputeLimits) -> Vec<u32> {
    let largest = limits.max_invocations_per_workgroup.max(limits.max_workgroup_size_x).max(1);
    (0..32).map(|p| 1u32 << p).take_while(|&s| s <= largest).collect()
}

/// Every power-of-two (x, y) shape whose invocations the device's largest workgroup could hold; shapes
/// over a per-axis limit stay in the list, to be skipped with their reason.
pub fn power_of_two_shapes(limits: &ComputeLimits) -> Vec<[u32; 3]> {
    let largest = limits.max_invocations_per_workgroup;
    let powers: Vec<u32> = (0..32).map(|p| 1u32 << p).take_while(|&s| s <= largest).collect();
    powers.iter().flat_map(|&x| powers.iter().filter(move |&&y| x * y <= largest).map(move |&y| [x, y, 1])).collect()
}

/// Checks a workgroup shape against the device's limits and the workgroup memory the kernel needs.
pub fn check_workgroup(limits: &ComputeLimits, workgroup: [u32; 3], storage_bytes: u64) -> Result<(), Skip> {
    let [x, y, z] = workgroup.map(u64::from);
    // Each side before their product, which past the sides' limits says nothing (and may not fit).
    let checks: [(&'static str, u32, u64); 5] = [
        ("max_compute_workgroup_size_x", limits.max_workgroup_size_x, x),
        ("max_compute_workgroup_size_y", limits.max_workgroup_size_y, y),
        ("max_compute_workgroup_size_z", limits.max_workgroup_size_z, z),
        (
            "max_compute_invocations_per_workgroup",
            limits.max_invocations_per_workgroup,
            x.saturating_mul(y).saturating_mul(z),
        ),
        ("max_compute_workgroup_storage_size", limits.max_workgroup_storage_bytes, storage_bytes),
    ];
    for (limit, device, needed) in checks {
        if needed > device as u64 {
            return Err(Skip::ExceedsLimit { limit, device: device as u64, needed });
        }
    }
    Ok(())
}
