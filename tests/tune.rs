//! The auto-tuner on a real device (lavapipe in CI): it validates what it reports, lands near the
//! exhaustive sweep's best, and measures fewer shapes in less time. Alone in its binary, so that no other
//! test shares the CPU while it measures.
#![cfg(not(target_arch = "wasm32"))]

#[expect(dead_code, reason = "check_both, for the tests of checks themselves")]
mod support;

use wgsweep::kernels;
use wgsweep::measure::MeasureOptions;
use wgsweep::runner::Flow;
use wgsweep::tune::{self, TuneOptions};

#[test]
fn auto_tune_lands_near_the_exhaustive_best_in_fewer_measurements() {
    let gpu = support::open_gpu();
    let mut plan = support::quick_plan(kernels::select("copy/vec4").unwrap(), 1 << 22, None);
    // Every shape is measured however slow: wg=1 on lavapipe can take longer than a dispatch may on a busy
    // machine, and an unmeasured shape would leave the exhaustive best unknown.
    plan.measure = MeasureOptions { samples: 5, max_dispatch_ns: f64::INFINITY, ..Default::default() };
    let options = TuneOptions { exhaustive: Some(plan.measure.clone()), ..Default::default() };
    let tunings =
        pollster::block_on(tune::tune(&gpu, &plan, &options, &support::environment(&gpu), |_| Flow::Continue)).unwrap();
    let [tuning] = tunings.as_slice() else { panic!("one kernel, one tuning: {tunings:?}") };
    let exhaustive = tuning.exhaustive.as_ref().unwrap();
    exhaustive.results.iter().for_each(support::assert_good);
    assert_eq!(exhaustive.results.len(), tuning.candidates);

    let best = tuning.best().expect("a valid best shape");
    assert!(best.is_validated(), "the reported shape was validated");
    assert!(
        tuning.default_trial().is_some_and(|d| d.is_validated()),
        "the default the speed-up is against was validated"
    );
    assert!(tuning.trials.len() < tuning.candidates, "{} of {} shapes", tuning.trials.len(), tuning.candidates);
    assert!(tuning.seconds < exhaustive.seconds, "{} s against {} s", tuning.seconds, exhaustive.seconds);
    // Over the shapes, copy/vec4 on lavapipe spans 15× (1 against 256); the same shape measured twice can
    // differ by a third on a shared 2-core machine, so "near" is within half of the best.
    let share = tuning.share_of_exhaustive_best().unwrap();
    assert!(share > 0.5, "{}", tuning.summary());
    assert!(tuning.snippet().unwrap().contains(&format!("@workgroup_size({})", best.workgroup_size[0])));
}

#[test]
fn auto_tune_of_a_users_kernel_moves_along_its_tunables_and_validates_what_it_reports() {
    let gpu = support::open_gpu();
    let source =
        std::fs::read_to_string(format!("{}/shaders/starters/triad.wgsl", env!("CARGO_MANIFEST_DIR"))).unwrap();
    // The kernel's own defaults, which the speed-up is measured against: 128 invocations, 2 elements each.
    let source = source
        .replace("override WG_X: u32 = 64;", "override WG_X: u32 = 128;")
        .replace("override ELEMENTS: u32 = 1;", "override ELEMENTS: u32 = 2;");
    let mut spec: serde_json::Value = serde_json::from_str(wgsweep::spec::leading_spec(&source).unwrap()).unwrap();
    spec["name"] = "tuned_triad".into();
    spec["sizes"] = serde_json::json!([1 << 20, 1 << 16]);
    spec["tunables"]["ELEMENTS"] = serde_json::json!([1, 2, 4, 8]);
    let kernel = wgsweep::spec::UserKernel::read(&source, Some(&spec.to_string())).unwrap();
    let family = kernels::register(kernel).unwrap();
    let plan = support::quick_plan(wgsweep::kernel::Kernel::all_of(family), 0, None);
    let tunings =
        pollster::block_on(tune::tune(&gpu, &plan, &TuneOptions::default(), &support::environment(&gpu), |_| {
            Flow::Continue
        }))
        .unwrap();
    // One search per size, over 6 workgroup sizes × 4 values of ELEMENTS.
    assert_eq!(tunings.len(), 2, "{tunings:?}");
    for (tuning, n) in tunings.iter().zip([1 << 20, 1 << 16]) {
        assert!(tuning.searches_parameter);
        assert_eq!(tuning.candidates, 24);
        assert!(tuning.trials.len() < tuning.candidates, "{}", tuning.summary());
        assert!(tuning.trials.iter().all(|t| t.parameter_text().starts_with(&format!("tunables n={n} · "))));
        let best = tuning.best().expect("a valid best");
        assert!(best.is_validated());
        let default = tuning.default_trial().expect("the default ran");
        assert_eq!(
            (default.workgroup_size, default.parameter_text()),
            ([128, 1, 1], format!("tunables n={n} · ELEMENTS=2"))
        );
        assert!(default.is_validated());
        let summary = tuning.summary();
        assert!(summary.contains(&best.parameter_text()), "{summary}");
        assert!(summary.contains(&format!("its default 128, n={n} · ELEMENTS=2")), "{summary}");
        let measured = tuning.trials.iter().filter(|t| t.median_ns.is_some()).count();
        assert!(summary.contains(&format!("; {measured} of 24 admitted configurations measured in ")), "{summary}");
        // The snippet sets the kernel's own overrides to the best configuration's values.
        let elements = best.parameter_text().rsplit('=').next().unwrap().to_string();
        let snippet = tuning.snippet().unwrap();
        let wg_x = format!("override WG_X: u32 = {};", best.workgroup_size[0]);
        let lines = [wg_x, format!("override ELEMENTS: u32 = {elements};")];
        assert!(lines.iter().all(|line| snippet.lines().any(|l| l == line)), "{snippet}");
    }
}

/// A template kernel's tuning says what fills its template at the best configuration, and sets no override
/// its WGSL does not declare.
#[test]
fn auto_tune_of_a_template_gives_the_template_filled_at_the_best_configuration() {
    let gpu = support::open_gpu();
    let source = include_str!("kernels/public/burn_matmul.wgsl");
    let mut spec: serde_json::Value = serde_json::from_str(wgsweep::spec::leading_spec(source).unwrap()).unwrap();
    spec["name"] = "tuned_burn_matmul".into();
    spec["sizes"] = serde_json::json!([{ "m": 64, "k": 64, "n": 64 }]);
    spec["tunables"] = serde_json::json!({ "WG_X": [4, 8], "WG_Y": [4, 8], "T_M": [1, 2], "T_N": [2], "B_K": [4] });
    let kernel = wgsweep::spec::UserKernel::read(source, Some(&spec.to_string())).unwrap();
    let family = kernels::register(kernel).unwrap();
    let plan = support::quick_plan(wgsweep::kernel::Kernel::all_of(family), 0, None);
    let options = TuneOptions::default();
    let tunings =
        pollster::block_on(tune::tune(&gpu, &plan, &options, &support::environment(&gpu), |_| Flow::Continue)).unwrap();
    let best = tunings[0].best().expect("a valid best");
    let t_m = best.parameter_text().split("T_M=").nth(1).unwrap().split(' ').next().unwrap().to_string();
    let snippet = tunings[0].snippet().unwrap();
    let [x, y, _] = best.workgroup_size;
    let lines = [
        format!("//   {{{{b_m}}}} → {}", x * t_m.parse::<u32>().unwrap()),
        format!("//   {{{{ workgroup_size_y }}}} → {y}"),
        "//   {{ elem }} → f32".to_string(),
    ];
    assert!(lines.iter().all(|line| snippet.lines().any(|l| l == line)), "{snippet}");
    assert!(!snippet.contains("override"), "{snippet}");
}
