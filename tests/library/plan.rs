//! What a plan runs: problem sizes per family.

use wgsweep::kernels;

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
