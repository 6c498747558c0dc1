//! The layout family: its slot arithmetic and sector counts, and every layout on the native adapter
//! (lavapipe in CI).
#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::collections::HashSet;

use support::{check_both, environment, open_gpu};
use wgsweep::fill;
use wgsweep::kernel::read_buffer;
use wgsweep::kernel::submit_once;
use wgsweep::kernel::{Configuration, ShaderChecks};
use wgsweep::kernels::{self, layout};
use wgsweep::runner::{self, Flow};

/// Three periods of the layouts' pattern: not a multiple of the larger workgroup sizes.
const PARTICLES: u64 = 1536;

#[test]
fn every_layout_puts_each_field_of_each_particle_in_its_own_slot_inside_the_state() {
    for layout in layout::LAYOUTS {
        let slots: HashSet<u64> =
            (0..PARTICLES).flat_map(|i| (0..7).map(move |f| layout::slot(layout, PARTICLES, i, f))).collect();
        assert_eq!(slots.len() as u64, 7 * PARTICLES, "{layout} reuses a slot");
        let floats = PARTICLES * layout::STRUCT_BYTES / 4;
        assert!(slots.iter().all(|&s| s < floats), "{layout} writes past the state");
    }
}

#[test]
fn moved_bytes_count_the_padding_and_the_neighbours_a_field_drags_along() {
    let per_particle = |layout: &str, fields: &[u64]| layout::moved_bytes(layout, PARTICLES, fields) / PARTICLES;
    let all = [0, 1, 2, 3, 4, 5, 6];
    // Every field, read and written: the padded struct moves 64 bytes, the others the 56 they use.
    assert_eq!(per_particle("aos_vec3", &all), 64);
    for layout in ["aos_packed", "soa", "aosoa32", "aosoa64"] {
        assert_eq!(per_particle(layout, &all), 56, "{layout}");
    }
    // The lifetime alone: a whole sector per particle for the padded struct, 7 sectors per 8 particles
    // packed, 4 bytes each way where lifetimes lie side by side.
    assert_eq!(per_particle("aos_vec3", &[6]), 64);
    assert_eq!(per_particle("aos_packed", &[6]), 56);
    for layout in ["soa", "aosoa32", "aosoa64"] {
        assert_eq!(per_particle(layout, &[6]), 8, "{layout}");
    }
}

#[test]
fn the_reference_respawns_a_particle_whose_lifetime_runs_out() {
    let seed = 7;
    let dying: Vec<u32> = (0..PARTICLES as u32).filter(|&i| layout::initial(i, seed)[6] <= 0.015625).collect();
    assert!(!dying.is_empty(), "some particles must respawn in the step that validation checks");
    for i in dying {
        let after = layout::advance(i, layout::initial(i, seed));
        assert!(after[6] >= 0.0 && after[6] < 2.0, "particle {i} respawned with lifetime {}", after[6]);
        assert_ne!(after[0], layout::initial(i, seed)[0]);
    }
}

#[test]
fn every_layout_and_workload_validates_with_and_without_shader_checks() {
    let gpu = open_gpu();
    let mut plan = support::quick_plan(kernels::select("layout").unwrap(), PARTICLES, Some(vec![1, 64, 256]));
    plan.shader_checks = vec![ShaderChecks::Default, ShaderChecks::Unchecked];
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    assert_eq!(result.results.len(), 2 * 5 * 3 * 2);
    for r in &result.results {
        support::assert_good(r);
        assert!(r.moved_bytes_per_dispatch.unwrap() >= r.bytes_per_dispatch, "{}", r.label());
    }
    assert!(result.notes.iter().any(|n| n.contains("4 bytes of padding")), "{:?}", result.notes);
}

#[test]
fn validation_catches_the_wrong_workload_and_the_wrong_layout() {
    let gpu = open_gpu();
    let family = kernels::family("layout").unwrap();
    let workload = family.setup(&gpu, PARTICLES, fill::fresh_seed()).unwrap();
    let configuration = |label: &str| Configuration {
        kernel: kernels::select(label).unwrap()[0].id,
        checks: ShaderChecks::Default,
        workgroup: [64, 1, 1],
        parameter: None,
    };
    let run = configuration("touch_one/soa");
    let config = pollster::block_on(workload.prepare(&gpu, &run)).unwrap();
    submit_once(&gpu, &config);
    let state = pollster::block_on(read_buffer(&gpu, &config.output)).unwrap();
    assert_eq!(check_both(&gpu, &*workload, &run, &config, &state), Ok(()));
    let error = check_both(&gpu, &*workload, &configuration("touch_all/soa"), &config, &state).unwrap_err();
    assert!(error.wrong >= PARTICLES, "positions did not move: {error}");
    let error = check_both(&gpu, &*workload, &configuration("touch_one/aosoa32"), &config, &state).unwrap_err();
    assert!(error.wrong > PARTICLES, "fields read from the wrong slots: {error}");
}
