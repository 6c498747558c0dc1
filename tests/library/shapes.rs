//! Workgroup shapes a sweep tries or skips, and the dispatch grid.

use wgsweep::grid::dispatch_grid;
use wgsweep::kernel::shapes::{check_workgroup, power_of_two_sizes};
use wgsweep::kernel::{Configuration, ShaderChecks, Skip};
use wgsweep::kernels;

use crate::limits;

#[test]
fn sweep_covers_every_power_of_two_up_to_the_device_maximum() {
    assert_eq!(power_of_two_sizes(&limits(256, 256, 16384)), vec![1, 2, 4, 8, 16, 32, 64, 128, 256]);
    assert_eq!(power_of_two_sizes(&limits(1024, 1024, 32768)).last(), Some(&1024));
}

#[test]
fn sweep_skips_workgroups_above_the_invocation_limit_with_reason() {
    let device = limits(256, 1024, 16384);
    assert_eq!(check_workgroup(&device, [256, 1, 1], 0), Ok(()));
    let skip = check_workgroup(&device, [512, 1, 1], 0).unwrap_err();
    assert_eq!(skip, Skip::ExceedsLimit { limit: "max_compute_invocations_per_workgroup", device: 256, needed: 512 });
    assert_eq!(skip.to_string(), "needs 512 for max_compute_invocations_per_workgroup; this device allows 256");
}

#[test]
fn sweep_skips_workgroups_above_a_per_axis_limit() {
    let device = limits(1024, 256, 32768);
    // 512 invocations are allowed in total, but not 512 along x.
    assert_eq!(power_of_two_sizes(&device).last(), Some(&1024));
    let skip = check_workgroup(&device, [512, 1, 1], 0).unwrap_err();
    assert!(matches!(skip, Skip::ExceedsLimit { limit: "max_compute_workgroup_size_x", device: 256, needed: 512 }));
    let skip = check_workgroup(&device, [1, 1, 128], 0).unwrap_err();
    assert!(matches!(skip, Skip::ExceedsLimit { limit: "max_compute_workgroup_size_z", .. }));
    // A side past its limit is named before the product of all three, which would not fit a number.
    let skip = check_workgroup(&device, [u32::MAX; 3], 0).unwrap_err();
    assert_eq!(skip.to_string(), "needs 4294967295 for max_compute_workgroup_size_x; this device allows 256");
}

#[test]
fn sweep_skips_workgroups_whose_workgroup_memory_exceeds_the_limit() {
    let device = limits(1024, 1024, 16384);
    let stream = kernels::family("stream").unwrap();
    let at_1024 = |kernel: &str| Configuration {
        kernel: kernels::select(kernel).unwrap()[0].id,
        checks: ShaderChecks::Default,
        workgroup: [1024, 1, 1],
        parameter: None,
    };
    let (dot, copy) = (at_1024("dot/scalar"), at_1024("copy/scalar"));
    // dot's tree needs 4 bytes per invocation: 1024 × 4 = 4096 fits 16 KiB, but not a 2 KiB device.
    assert_eq!(check_workgroup(&device, [1024, 1, 1], stream.workgroup_storage_bytes(&dot)), Ok(()));
    let small = limits(1024, 1024, 2048);
    let skip = check_workgroup(&small, [1024, 1, 1], stream.workgroup_storage_bytes(&dot)).unwrap_err();
    assert!(matches!(
        skip,
        Skip::ExceedsLimit { limit: "max_compute_workgroup_storage_size", device: 2048, needed: 4096 }
    ));
    assert_eq!(check_workgroup(&small, [1024, 1, 1], stream.workgroup_storage_bytes(&copy)), Ok(()));
}

#[test]
fn dispatch_grid_goes_two_dimensional_past_the_per_dimension_limit() {
    assert_eq!(dispatch_grid(1000, 65535), Some([1000, 1, 1]));
    assert_eq!(dispatch_grid(65535, 65535), Some([65535, 1, 1]));
    assert_eq!(dispatch_grid(65536, 65535), Some([32768, 2, 1]));
    // 2^18 groups of 256 (2^26 elements): 5 rows of 52429, one surplus group rather than 65531.
    assert_eq!(dispatch_grid(262_144, 65535), Some([52429, 5, 1]));
    let [x, y, _] = dispatch_grid(67_108_864, 65535).unwrap();
    assert!(x as u64 * y as u64 >= 67_108_864 && (x as u64 * y as u64) < 67_108_864 + y as u64);
    assert_eq!(dispatch_grid(65535 * 65535 + 1, 65535), None);
}
