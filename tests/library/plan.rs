//! What a plan runs: problem sizes per family.

use wgsweep::bounds::MAX_USER_KERNELS;
use wgsweep::kernel::Kernel;
use wgsweep::kernels;
use wgsweep::spec::UserKernel;

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

/// A result carries each user's kernel it ran: a plan of more than it may carry is refused before it runs,
/// and one at the bound carries each once.
#[test]
fn a_plan_of_more_users_kernels_than_a_result_carries_is_refused() {
    let source =
        std::fs::read_to_string(format!("{}/shaders/starters/triad.wgsl", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let spec = wgsweep::spec::leading_spec(&source).unwrap();
    let mut plan = wgsweep::plan::Plan {
        kernels: Vec::new(),
        problem_size: wgsweep::plan::ProblemSize::Default,
        shapes: wgsweep::plan::Shapes::Sizes(vec![64]),
        parameter_values: None,
        shader_checks: vec![wgsweep::kernel::ShaderChecks::Default],
        measure: Default::default(),
        seed: 1,
    };
    for i in 0..=MAX_USER_KERNELS {
        let named = spec.replacen("\"my_triad\"", &format!("\"plan_bound_{i}\""), 1);
        let family = kernels::register(UserKernel::read(&source, Some(&named)).unwrap()).unwrap();
        plan.kernels.extend(Kernel::all_of(family));
    }
    let why = plan.count(&kernels::LARGEST_WORKGROUPS).unwrap_err();
    assert!(why.contains("17 of your kernels, more than a result carries (16)"), "{why}");
    plan.kernels.pop();
    let twice = plan.kernels[0];
    plan.kernels.push(twice);
    assert!(plan.count(&kernels::LARGEST_WORKGROUPS).is_ok());
    assert_eq!(plan.users_kernels().len(), MAX_USER_KERNELS, "each kernel once");
}
