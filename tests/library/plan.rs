//! What a plan runs: problem sizes per family, and how long a run should take.

use wgsweep::kernels;
use wgsweep::plan::{about, expected_duration_s};
use wgsweep::result::RunResult;

use crate::limits;

#[test]
fn stream_default_size_is_256_mib_or_capped_with_a_note() {
    let stream = kernels::family("stream").unwrap();
    let mut roomy = limits(1024, 1024, 32768);
    roomy.max_storage_buffer_binding_size = 2 << 30;
    roomy.max_buffer_size = 4 << 30;
    let sizing = stream.default_size(&roomy);
    assert_eq!((sizing.size, sizing.note), (64 << 20, None));
    let capped = stream.default_size(&limits(1024, 1024, 32768)); // 128 MiB per binding
    assert_eq!(capped.size, 32 << 20);
    assert!(capped.note.unwrap().contains("128 MiB"));
}

#[test]
fn bytes_per_buffer_size_the_families_with_buffers_and_leave_those_sized_by_time_at_their_default() {
    use wgsweep::plan::{ProblemSize, problem_units};
    let limits = limits(1024, 1024, 32768);
    let bytes = ProblemSize::BytesPerBuffer(16 << 20);
    for family in wgsweep::kernels::FAMILIES {
        let (default, _) = problem_units(&limits, *family, ProblemSize::Default);
        let (sized, _) = problem_units(&limits, *family, bytes);
        if family.sized_by_time() {
            // The FMA chains and bank reads hold no buffer worth sizing: 16 MiB would have made them 4 M
            // invocations long, minutes per dispatch on SwiftShader at one invocation per workgroup.
            assert_eq!(sized, default, "{}", family.name());
        } else {
            assert_eq!(sized, family.round_size((16 << 20) / family.unit_bytes()), "{}", family.name());
        }
    }
}

/// A recorded result under docs/results.
fn recorded(name: &str) -> RunResult {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results").join(name);
    RunResult::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_runs_expected_duration_is_near_what_the_recorded_suites_took() {
    for name in [
        "pace/lavapipe-native-suite.json",
        "pace/h100-native-suite-gpu-validated.json",
        "pace/h100-chromium-suite-3.json",
    ] {
        let result = recorded(name);
        let expected = expected_duration_s(result.results.len(), &result.device, None);
        let took = result.pace.as_ref().unwrap().wall_s;
        assert!((expected / took - 1.0).abs() < 0.3, "{name}: expected {expected} s, took {took} s");
    }
    let lavapipe = recorded("pace/lavapipe-native-suite.json").device;
    assert!(lavapipe.is_cpu_adapter());
    // An earlier run on the device sets the pace.
    assert_eq!(expected_duration_s(10, &lavapipe, Some(2.0)), 20.0);
    assert_eq!(expected_duration_s(10, &lavapipe, Some(f64::NAN)), expected_duration_s(10, &lavapipe, None));
}

#[test]
fn estimates_read_in_seconds_then_minutes() {
    assert_eq!(about(40.2), "about 41 s");
    assert_eq!(about(180.0), "about 3 min");
    assert_eq!(about(200.0), "about 3 min 20 s");
    assert_eq!(about(-1.0), "about 0 s");
}
