//! The image family: its reference, and every 2-D workgroup shape on the native adapter (lavapipe in CI).
#![cfg(not(target_arch = "wasm32"))]

#[expect(dead_code, reason = "check_both, for the tests of checks themselves")]
mod support;

use support::{environment, open_gpu};
use wgsweep::kernels::{self, image};
use wgsweep::runner::{self, Flow};

/// 57 × 64 pixels: no power-of-two workgroup height divides it.
const PIXELS: u64 = 3700;

#[test]
fn grayscale_weighs_the_channels_as_bt601_and_keeps_alpha() {
    assert_eq!(image::grayscale(0xff00_0000), 0xff00_0000);
    assert_eq!(image::grayscale(0x12ff_ffff), 0x12ff_ffff);
    // Pure red, green and blue: 77, 150 and 29 of 256, rounded.
    assert_eq!(image::luma(0x0000_00ff), 77);
    assert_eq!(image::luma(0x0000_ff00), 149);
    assert_eq!(image::luma(0x00ff_0000), 29);
    assert_eq!(image::grayscale(0x8000_00ff), 0x804d_4d4d);
}

#[test]
fn every_workgroup_shape_validates_on_an_odd_image_or_is_skipped_with_its_limit() {
    let gpu = open_gpu();
    let plan = support::quick_plan(kernels::select("image").unwrap(), PIXELS, None);
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    let limits = &gpu.info.limits;
    let shapes: Vec<String> = result.results.iter().map(|r| r.workgroup_text()).collect();
    for shape in ["1", "64", "8×8", "16×16", "32×8", "1×64"] {
        assert!(shapes.contains(&shape.to_string()), "{shape} missing from {shapes:?}");
    }
    for r in &result.results {
        let [x, y, _] = r.workgroup_size;
        if x * y <= limits.max_invocations_per_workgroup
            && x <= limits.max_workgroup_size_x
            && y <= limits.max_workgroup_size_y
        {
            support::assert_good(r);
        } else {
            assert!(r.skipped().as_ref().is_some_and(|s| s.contains("max_compute")), "{}", r.workgroup_text());
        }
    }
}
