//! The runner: skips with their reasons, a stopped run, a lost device and going on, a problem too large,
//! where a run's time went.

use crate::support::{environment, open_gpu};
use wgsweep::kernels;
use wgsweep::plan::ProblemSize;
use wgsweep::result::Outcome;
use wgsweep::runner::{self, Event, Flow};

use crate::{quick_plan, stream_kernel};

#[test]
fn workgroups_over_the_device_limit_are_skipped_with_the_reason() {
    let gpu = open_gpu();
    let too_big = gpu.info.limits.max_invocations_per_workgroup * 2;
    let plan = quick_plan(vec![stream_kernel("copy/scalar")], vec![too_big]);
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    let skipped = result.results[0].skipped().unwrap();
    // A side past its own limit is named first; a side within it, by the invocations it makes.
    let limit = match too_big > gpu.info.limits.max_workgroup_size_x {
        true => "max_compute_workgroup_size_x",
        false => "max_compute_invocations_per_workgroup",
    };
    assert!(skipped.starts_with(&format!("needs {too_big} for {limit}")), "{skipped}");
    assert!(result.complete && !result.results[0].is_validated());
}

#[test]
fn a_configuration_slower_than_a_dispatch_may_take_is_validated_not_measured_and_says_how_slow() {
    let gpu = open_gpu();
    let mut plan = quick_plan(vec![stream_kernel("triad/vec4")], vec![64]);
    // Every dispatch takes longer than a nanosecond, and its validated run longer than two.
    plan.measure.max_dispatch_ns = 1.0;
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    let Outcome::Unmeasured { reason } = &result.results[0].outcome else {
        panic!("validated, not measured: {:?}", result.results[0].outcome)
    };
    assert!(reason.starts_with("one dispatch takes about "), "{reason}");
    assert!(reason.ends_with("over the 0 ms a measured one may take: not measured, to keep the run short"), "{reason}");
    assert!(result.results[0].is_validated() && result.results[0].status().starts_with("valid; one dispatch"));
    assert!(result.complete && result.results[0].median_ns.is_none());
}

#[test]
fn a_stopped_run_keeps_what_finished_and_says_so() {
    let gpu = open_gpu();
    let plan = quick_plan(kernels::select("copy").unwrap(), vec![64, 128]);
    let mut measuring = Vec::new();
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |event| match event {
        Event::Measuring { index, total, .. } => {
            measuring.push((index, total));
            Flow::Continue
        }
        Event::Finished { index: 1, .. } => Flow::Stop,
        _ => Flow::Continue,
    }));
    assert_eq!(measuring, vec![(0, 8), (1, 8)]);
    assert!(!result.complete);
    assert_eq!(result.results.len(), 2);
    assert!(result.results.iter().all(|r| r.is_good()));
    assert_eq!(result.notes, vec!["cancelled after 2 of 8 configurations".to_string()]);
}

#[test]
fn a_run_whose_device_was_lost_goes_on_from_the_next_configuration_on_a_fresh_device() {
    let gpu = open_gpu();
    let plan = quick_plan(kernels::select("copy").unwrap(), vec![64, 128]);
    // The device is lost once two configurations have finished, as a driver reset or a hung kernel loses it.
    let lost = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |event| {
        if let Event::Finished { index: 1, .. } = event {
            gpu.device.destroy();
        }
        Flow::Continue
    }));
    assert!(!lost.complete);
    assert_eq!(lost.results.len(), 2);
    let fresh = open_gpu();
    let mut measuring = Vec::new();
    let result = pollster::block_on(runner::go_on(&fresh, &plan, lost.clone(), |event| {
        if let Event::Measuring { index, .. } = event {
            measuring.push(index);
        }
        Flow::Continue
    }));
    assert_eq!(measuring, (2..8).collect::<Vec<_>>(), "from the configuration after the last that finished");
    assert!(result.complete);
    assert_eq!(result.results.len(), 8);
    // What finished before is kept as measured (its share of the peaks is the whole run's now).
    let measured =
        |r: &wgsweep::result::ConfigResult| (r.workgroup_size, r.samples_ns.clone(), r.median_ns, r.outcome.clone());
    assert_eq!(
        result.results[..2].iter().map(measured).collect::<Vec<_>>(),
        lost.results.iter().map(measured).collect::<Vec<_>>()
    );
    assert!(result.results.iter().all(|r| r.is_good()));
    assert_eq!((result.created.as_str(), result.settings.seed), (lost.created.as_str(), plan.seed));
    assert!(result.notes.iter().any(|n| n.starts_with("the GPU device was lost after 2 of 8")), "{:?}", result.notes);
    assert!(result.notes.contains(&"went on from configuration 3 of 8 on a fresh device".to_string()));
}

#[test]
fn a_problem_too_large_for_the_device_is_reported_once_and_each_configuration_says_why() {
    let gpu = open_gpu();
    let mut plan = quick_plan(kernels::select("copy,triad/scalar").unwrap(), vec![64, 256]);
    let elements = gpu.info.limits.max_binding_bytes() / 4 * 2;
    plan.problem_size = ProblemSize::Units(elements);
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    assert!(result.complete);
    assert_eq!(result.notes.len(), 1, "{:?}", result.notes);
    assert!(result.notes[0].contains("over this device's storage binding limit"), "{}", result.notes[0]);
    assert_eq!(result.results.len(), 5 * 2);
    assert!(
        result
            .results
            .iter()
            .all(|r| !r.is_validated() && r.error() == Some("the family's inputs could not be prepared"))
    );
}

#[test]
fn a_run_records_where_its_time_went_and_how_busy_the_gpu_was() {
    let gpu = open_gpu();
    let plan = quick_plan(vec![stream_kernel("copy/vec4"), stream_kernel("triad/scalar")], vec![64, 256]);
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    let pace = result.pace.clone().expect("a run records its pace");
    let phases = pace.inputs_s + pace.pipelines_s + pace.validation_s + pace.calibration_s;
    assert!(phases + pace.warm_up_s + pace.samples_s <= pace.wall_s, "{}", pace.summary());
    assert!(pace.inputs_s > 0.0 && pace.validation_s > 0.0 && pace.samples_s > 0.0, "{}", pace.summary());
    let kept: f64 = result.results.iter().flat_map(|r| &r.samples_ns).sum();
    assert!(pace.gpu_busy_s >= kept / 1e9, "the busy time holds at least the kept samples: {}", pace.summary());
    let share = pace.busy_share().unwrap();
    assert!(share > 0.0 && share <= 1.0, "{}", pace.summary());
    let reread = wgsweep::RunResult::from_json(&result.to_json()).unwrap();
    assert_eq!(reread.pace, result.pace, "the result file keeps it");
}
