//! What the native GPU tests share: a device on the default adapter, an environment, a quick plan, a user's
//! kernel read and run.

use wgsweep::fill;
use wgsweep::gpu::{self, Gpu};
use wgsweep::kernel::{Configuration, GpuCheck, Kernel, Prepared, ShaderChecks, ValidationError, Workload};
use wgsweep::kernels;
use wgsweep::measure::MeasureOptions;
use wgsweep::plan::{Plan, ProblemSize, Shapes};
use wgsweep::result::{Environment, Pace, RunResult};
use wgsweep::runner;
use wgsweep::spec::{Problem, UserKernel};

/// A device on the default adapter; tests need one, and lavapipe will do.
pub fn open_gpu() -> Gpu {
    pollster::block_on(async {
        let adapter =
            gpu::default_adapter(&gpu::instance()).await.expect("tests need a GPU adapter (lavapipe will do)");
        Gpu::open(&adapter, None).await.expect("a device on the default adapter")
    })
}

pub fn environment(gpu: &Gpu) -> Environment {
    Environment {
        runtime: "native".into(),
        platform: "test".into(),
        timestamps: gpu.timestamps,
        timer_quantum_ns: 1000.0,
        cross_origin_isolated: None,
        long_tasks: None,
        reference_workers: None,
        host_probe_ms: None,
    }
}

/// A plan that validates every configuration and times it only briefly.
pub fn quick_plan(kernels: Vec<Kernel>, problem_size: u64, workgroup_sizes: Option<Vec<u32>>) -> Plan {
    Plan {
        kernels,
        problem_size: ProblemSize::Units(problem_size),
        shapes: workgroup_sizes.map_or(Shapes::Family, Shapes::Sizes),
        parameter_values: None,
        shader_checks: vec![ShaderChecks::Default],
        // These check results, however slow a dispatch is on a CPU adapter shared with the other tests' threads.
        measure: MeasureOptions {
            samples: 2,
            min_sample_ns: 1e5,
            warm_up_ns: 0.0,
            max_dispatch_ns: f64::INFINITY,
            ..Default::default()
        },
        seed: fill::fresh_seed(),
    }
}

/// Fails with the configuration and what became of it unless it ran and validated.
pub fn assert_good(r: &wgsweep::result::ConfigResult) {
    assert!(
        r.is_good(),
        "{} ({}) wg={} {}: {:?} {:?}",
        r.label(),
        r.shader_checks.name(),
        r.workgroup_text(),
        r.parameter_text(),
        r.error(),
        r.skipped()
    );
}

/// Checks `output` as `configuration`'s output both ways: written into the prepared output buffer and
/// compared as a run compares it (on the GPU where the family has a GPU reference), and on the CPU. The two
/// must agree; the CPU's verdict comes back, for its details.
pub fn check_both(
    gpu: &Gpu,
    workload: &dyn Workload,
    configuration: &Configuration,
    prepared: &Prepared,
    output: &[u8],
) -> Result<(), ValidationError> {
    gpu.queue.write_buffer(&prepared.output, 0, output);
    let check = GpuCheck::new(gpu);
    let run =
        pollster::block_on(runner::check_output(gpu, &check, workload, configuration, prepared, &mut Pace::default()));
    let cpu = workload.check(configuration, prepared, output);
    assert_eq!(run.is_ok(), cpu.is_ok(), "the run's check and the CPU's disagree: {run:?} against {cpu:?}");
    cpu
}

/// Reads, registers and runs a kernel; every configuration validated, timed briefly. (The tests run at
/// once: each names its kernels its own way, as the newest kernel registered under a name is the one run.)
#[allow(dead_code, reason = "for the tests of users' kernels, not every test binary")]
pub fn run(gpu: &Gpu, source: &str, spec: &str) -> RunResult {
    let kernel = UserKernel::read(source, Some(spec)).unwrap_or_else(|problems| panic!("{problems:?}"));
    let family = kernels::register(kernel).unwrap();
    assert!(pollster::block_on(kernels::user::compilation_problems(gpu, family)).is_empty());
    let plan = quick_plan(wgsweep::kernel::Kernel::all_of(family), 0, None);
    pollster::block_on(runner::run(gpu, &plan, environment(gpu), |_| runner::Flow::Continue))
}

/// Every problem reading the kernel finds (none where it reads).
#[allow(dead_code, reason = "for the tests of users' kernels, not every test binary")]
pub fn problems(source: &str, spec: &str) -> Vec<Problem> {
    UserKernel::read(source, Some(spec)).err().unwrap_or_default()
}

/// The specification in `source`'s leading comment, changed by `change`, as JSON text (its objects' keys in
/// serde_json's order, not as written: give a grid where the order of a size's dimensions matters).
#[allow(dead_code, reason = "for the tests of users' kernels, not every test binary")]
pub fn spec_of(source: &str, change: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut spec: serde_json::Value = serde_json::from_str(wgsweep::spec::leading_spec(source).unwrap()).unwrap();
    change(&mut spec);
    spec.to_string()
}
