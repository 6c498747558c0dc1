//! The one entry point both shells drive: sweep every selected kernel over every workgroup size, validate
//! each configuration against its CPU reference, time it, and collect one `RunResult`.

mod ahead;
mod one;

use std::rc::Rc;

use web_time::Instant;

use crate::bounds::add_note;
use crate::gpu::Gpu;
use crate::kernel::{Configuration, Family, Workload};
use crate::measure::MeasureOptions;
use crate::plan::{Plan, Planned, ProblemSize, problem_units};
use crate::result::{
    ConfigResult, Environment, Outcome, Pace, ParameterValue, Peaks, RunResult, SCHEMA_VERSION, Settings, Tool,
    now_rfc3339,
};
use crate::{analysis, host};
use ahead::Ahead;
pub use one::check_output;
pub(crate) use one::{Bench, Harness, Validation, measure_one, validate};

/// Progress, as the runner reports it.
pub enum Event<'a> {
    /// Inputs for a family are being prepared: `size` of the family's `unit`.
    Preparing { family: &'a str, size: u64, unit: &'a str },
    /// Configuration `index` (0-based) of `total` is about to be validated and measured.
    Measuring { index: usize, total: usize, configuration: &'a Configuration },
    /// Configuration `index` is done (measured, failed or skipped).
    Finished { index: usize, total: usize, record: &'a ConfigResult },
}

/// The listener's answer: go on, or stop and keep what finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// A result of `plan` on `gpu` that holds no configurations yet: the header a run starts from, starting now.
pub fn header(gpu: &Gpu, plan: &Plan, environment: Environment) -> RunResult {
    RunResult {
        schema_version: SCHEMA_VERSION,
        tool: Tool::this(),
        created: now_rfc3339(),
        label: String::new(),
        device: gpu.device_info(),
        environment,
        settings: Settings {
            seed: plan.seed,
            samples: plan.measure.samples,
            min_sample_ns: plan.measure.min_sample_ns,
            precision: (plan.measure.precision > 0.0).then_some(plan.measure.precision),
        },
        results: Vec::new(),
        notes: Vec::new(),
        complete: false,
        peaks: Peaks::default(),
        pace: None,
        user_kernels: plan.users_kernels(),
    }
}

/// Runs `plan` on `gpu`. Never fails as a whole: a configuration that cannot run is recorded with its
/// reason, and a cancelled run or a lost device returns what finished, marked incomplete.
pub async fn run(gpu: &Gpu, plan: &Plan, environment: Environment, on_event: impl FnMut(Event) -> Flow) -> RunResult {
    let mut result = header(gpu, plan, environment);
    for (family, count) in plan.excluded(&gpu.info.limits) {
        add_note(
            &mut result.notes,
            &format!("{family}: its restrictions exclude {count} configurations, left out of the run"),
        );
    }
    run_from(gpu, plan, result, on_event).await
}

/// Goes on with a run of `plan` that stopped before its end (its device was lost) on `gpu`, a fresh
/// device: from the configuration after the last one `earlier` holds, which it keeps.
pub async fn go_on(gpu: &Gpu, plan: &Plan, mut earlier: RunResult, on_event: impl FnMut(Event) -> Flow) -> RunResult {
    let (done, total) = (earlier.results.len(), plan.configurations(&gpu.info.limits).len());
    add_note(&mut earlier.notes, &format!("went on from configuration {} of {total} on a fresh device", done + 1));
    earlier.complete = false;
    run_from(gpu, plan, earlier, on_event).await
}

/// Runs `plan`'s configurations from the first that `result` does not hold yet, adding to it.
async fn run_from(gpu: &Gpu, plan: &Plan, result: RunResult, on_event: impl FnMut(Event) -> Flow) -> RunResult {
    let harness = Harness::new(gpu, result.environment.timer_quantum_ns);
    let ahead = Ahead::new(gpu, &harness, plan.measure.max_dispatch_ns);
    let result = sweep(gpu, plan, result, on_event, &ahead).await;
    // A run stopped early may leave a reference being built: its workers finish their requests first, so
    // that the next run's find them free and answering their own.
    ahead.settle().await;
    result
}

async fn sweep<'a>(
    gpu: &'a Gpu,
    plan: &Plan,
    mut result: RunResult,
    mut on_event: impl FnMut(Event) -> Flow,
    ahead: &Ahead<'a>,
) -> RunResult {
    let started = Instant::now();
    let mut pace = Pace::default();
    // The listener's time (the page's tables and charts) is the run's time too.
    let mut report = |event: Event, pace: &mut Pace| {
        let reporting = Instant::now();
        let flow = on_event(event);
        pace.reporting_s += reporting.elapsed().as_secs_f64();
        flow
    };
    let configurations = plan.configurations(&gpu.info.limits);
    let total = configurations.len();
    let from = result.results.len();
    // The inputs of the family being run; `prepared` names it even when preparing failed, so a failure
    // is reported once per family rather than once per configuration.
    let mut prepared: Option<&'static str> = None;
    let mut workload: Option<Rc<dyn Workload>> = None;
    // Each record takes the time since the one before was recorded (`ConfigResult::took_s`).
    let mut since = Instant::now();

    for (index, Planned { family, configuration }) in configurations.iter().enumerate().skip(from) {
        let (family, kernel) = (*family, &configuration.kernel);
        if let Some(reason) = gpu.lost_reason() {
            add_note(&mut result.notes, &lost_after(index, total, &reason));
            return finish(result, pace, started);
        }
        if prepared != Some(kernel.family) {
            prepared = Some(kernel.family);
            ahead.settle().await; // it holds the last family's inputs
            drop(workload.take()); // free the last family's buffers before making the next one's
            let (size, note) = problem_units(&gpu.info.limits, family, plan.problem_size);
            if let Some(note) = note {
                add_note(&mut result.notes, &format!("{}: {note}", family.name()));
            }
            let preparing = Event::Preparing { family: family.name(), size, unit: family.size_unit() };
            if report(preparing, &mut pace) == Flow::Stop {
                return cancelled(result, index, total, pace, started);
            }
            let setting_up = Instant::now();
            workload = inputs(gpu, plan, family, size, configuration, &mut result.notes).await.map(Rc::from);
            pace.inputs_s += setting_up.elapsed().as_secs_f64();
        }
        let readied = ahead.ready_for(index, &mut pace).await;
        log::trace!("{}: its reference built ahead and its readying done", crate::kernels::describe(configuration));
        if report(Event::Measuring { index, total, configuration }, &mut pace) == Flow::Stop {
            return cancelled(result, index, total, pace, started);
        }
        let mut record = match &workload {
            Some(w) => {
                let bench = Bench { gpu, harness: ahead.harness, family, workload: w.as_ref() };
                // Once this configuration is checked, the page's workers build the next reference the family
                // needs, and the next configuration is readied, while the GPU measures.
                let start_ahead = || ahead.start(w, &configurations, index);
                let ahead_of_it = (readied, Some(&start_ahead as &dyn Fn()));
                let measured =
                    measure_one(bench, configuration, &plan.measure, Validation::First, ahead_of_it, &mut pace);
                ahead.beside(measured).await
            }
            None => {
                let mut record = blank(family, configuration, 0, 0);
                record.fail("the family's inputs could not be prepared");
                record
            }
        };
        // The browser reports a loss in a task of its own: it gets a turn first.
        host::yield_now().await;
        record.took_s = Some(since.elapsed().as_secs_f64());
        since = Instant::now();
        if let Some(reason) = gpu.lost_reason() {
            let record = lost_while_running(gpu, &reason, family, configuration, &record);
            let lost = match record {
                Some(record) => {
                    result.results.push(record);
                    let record = result.results.last().expect("just pushed");
                    report(Event::Finished { index, total, record }, &mut pace);
                    format!("the GPU device was lost during configuration {} of {total} ({reason})", index + 1)
                }
                None => lost_after(index, total, &reason),
            };
            add_note(&mut result.notes, &lost);
            return finish(result, pace, started);
        }
        result.results.push(record);
        let record = result.results.last().expect("just pushed");
        if report(Event::Finished { index, total, record }, &mut pace) == Flow::Stop {
            return cancelled(result, index + 1, total, pace, started);
        }
        log::trace!("{}: reported", crate::kernels::describe(configuration));
        // The listener may have drawn a chart: the next configuration starts in a task of its own (57 ms once).
        host::pause_if_due().await;
    }
    result.complete = true;
    finish(result, pace, started)
}

/// The family's inputs at `size` (smaller where the family is sized by time and a dispatch would take far
/// longer than it should), with their notes in `notes`; `None`, said in `notes`, where they could not be made.
async fn inputs(
    gpu: &Gpu,
    plan: &Plan,
    family: &'static dyn Family,
    size: u64,
    configuration: &Configuration,
    notes: &mut Vec<String>,
) -> Option<Box<dyn Workload>> {
    let mut made = setup(gpu, family, size, plan.seed).await;
    if let Ok(w) = &made
        && family.sized_by_time()
        && !matches!(plan.problem_size, ProblemSize::Units(_))
        && let Some((smaller, note)) = time_sized(gpu, family, w.as_ref(), configuration, &plan.measure).await
    {
        drop(made); // free the default-sized inputs first
        made = setup(gpu, family, smaller, plan.seed).await;
        add_note(notes, &format!("{}: {note}", family.name()));
    }
    match made {
        Ok(w) => {
            for note in w.notes() {
                add_note(notes, &format!("{}: {note}", family.name()));
            }
            Some(w)
        }
        Err(error) => {
            add_note(notes, &format!("{}: could not prepare {size} {}: {error}", family.name(), family.size_unit()));
            None
        }
    }
}

/// The record of a configuration during which the device was lost, where it is to be kept. A device
/// wgsweep gave up while this configuration's work went on (`Gpu::wait`) was lost by it: it is recorded as
/// failed, and going on starts after it. A device lost otherwise (a driver reset, the browser's own limits)
/// may have been lost before this configuration ran: it is left unfinished (`None`: what it recorded, a
/// readback that could not map or figures of work never done, is dropped), and going on starts with it.
fn lost_while_running(
    gpu: &Gpu,
    reason: &str,
    family: &dyn Family,
    configuration: &Configuration,
    record: &ConfigResult,
) -> Option<ConfigResult> {
    if !gpu.given_up() {
        return None;
    }
    let mut failed = blank(family, configuration, record.problem_size, record.bytes_per_dispatch);
    failed.took_s = record.took_s;
    failed.fail(format!("the GPU device was lost while it ran ({reason}); not measured"));
    Some(failed)
}

/// The note of a run whose device was lost after `done` configurations.
fn lost_after(done: usize, total: usize, reason: &str) -> String {
    format!("the GPU device was lost after {done} of {total} configurations ({reason})")
}

fn cancelled(mut result: RunResult, done: usize, total: usize, pace: Pace, started: Instant) -> RunResult {
    add_note(&mut result.notes, &format!("cancelled after {done} of {total} configurations"));
    finish(result, pace, started)
}

/// Derives the figures that follow from the measured ones and records where the run's time went.
fn finish(mut result: RunResult, pace: Pace, started: Instant) -> RunResult {
    analysis::derive(&mut result);
    let pace = Pace { wall_s: started.elapsed().as_secs_f64(), ..pace };
    log::debug!("{}", pace.summary());
    result.pace = Some(pace);
    result
}

/// One dispatch of a family whose problem size only sets how long a dispatch lasts should take about this
/// long: a few samples' worth, far under `MeasureOptions::max_dispatch_ns`.
const TIME_SIZED_DISPATCH_NS: f64 = 2e7;

/// Times one dispatch of `configuration`'s kernel, at a workgroup shape that suits any device, on the
/// default-sized `workload`; where it takes far longer than `TIME_SIZED_DISPATCH_NS`, the smaller size that
/// would take about that long, and the note that says so.
async fn time_sized(
    gpu: &Gpu,
    family: &dyn Family,
    workload: &dyn Workload,
    configuration: &Configuration,
    options: &MeasureOptions,
) -> Option<(u64, String)> {
    let shapes = family.workgroup_shapes(&configuration.kernel, &gpu.info.limits);
    let invocations = |s: &[u32; 3]| s.iter().product::<u32>();
    let shape = shapes.iter().filter(|s| invocations(s) <= 256).max_by_key(|s| invocations(s))?;
    let probe = Configuration { workgroup: *shape, ..*configuration };
    let prepared = workload.prepare(gpu, &probe).await.ok()?;
    crate::kernel::submit_once(gpu, &prepared); // compiles and warms what the timed one reuses
    crate::kernel::idle(gpu).await.ok()?;
    let started = Instant::now();
    crate::kernel::submit_steps(gpu, &prepared.steps);
    crate::kernel::idle(gpu).await.ok()?;
    let ns = started.elapsed().as_nanos() as f64;
    if ns <= 2.0 * TIME_SIZED_DISPATCH_NS.max(options.min_sample_ns) {
        return None;
    }
    let size = family.round_size((workload.size() as f64 * TIME_SIZED_DISPATCH_NS / ns) as u64);
    (size < workload.size()).then(|| {
        let note = format!(
            "{} {} take about {:.0} ms per dispatch on this device: {size} used, for about {:.0} ms",
            workload.size(),
            family.size_unit(),
            ns / 1e6,
            TIME_SIZED_DISPATCH_NS / 1e6
        );
        (size, note)
    })
}

/// Makes the family's inputs, turning running out of GPU memory into an error rather than a lost device.
pub(crate) async fn setup(
    gpu: &Gpu,
    family: &'static dyn Family,
    size: u64,
    seed: u32,
) -> Result<Box<dyn Workload>, String> {
    let scope = gpu.error_scope(wgpu::ErrorFilter::OutOfMemory).await;
    let workload = family.setup(gpu, size, seed);
    if let Some(error) = scope.pop().await {
        return Err(format!("the GPU is out of memory ({error})"));
    }
    workload
}

fn blank(
    family: &dyn Family,
    configuration: &Configuration,
    problem_size: u64,
    bytes_per_dispatch: u64,
) -> ConfigResult {
    let Configuration { kernel, checks, workgroup, parameter } = *configuration;
    let parameter = parameter.zip(family.parameter(&kernel)).map(|(value, p)| ParameterValue {
        name: p.name.into(),
        value,
        label: p.labels.get(value as usize).map(|l| l.to_string()),
    });
    ConfigResult {
        family: kernel.family.into(),
        kernel: kernel.kernel.into(),
        variant: kernel.variant.into(),
        shader_checks: checks,
        workgroup_size: workgroup,
        parameter,
        problem_size,
        bytes_per_dispatch,
        moved_bytes_per_dispatch: None,
        flops_per_dispatch: None,
        operations: family.operations(kernel.kernel),
        dispatch: [0; 3],
        dispatches_per_sample: 0,
        samples_ns: Vec::new(),
        summarized_samples: 0,
        wall_samples_ns: Vec::new(),
        discarded_samples: 0,
        median_ns: None,
        median_interval_ns: None,
        noisy: false,
        min_ns: None,
        p95_ns: None,
        cv: None,
        gbps: None,
        timing_source: None,
        outcome: Outcome::Measured,
        percent_of_baseline: None,
        percent_of_peak: None,
        took_s: None,
    }
}
