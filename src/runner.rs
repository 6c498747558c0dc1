//! The one entry point both shells drive: sweep every selected kernel over every workgroup size, validate
//! each configuration against its CPU reference, time it, and collect one `RunResult`.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::task::Poll;

use futures_util::future::LocalBoxFuture;

use web_time::Instant;

use crate::bounds::{MESSAGE, add_note};
use crate::gpu::Gpu;
use crate::kernel::{Configuration, Family, GpuCheck, KernelId, Prepared, ShaderChecks, Skip, Workload, shapes};
use crate::measure::{MeasureError, MeasureOptions, Timer, too_slow};
use crate::plan::{Plan, Planned, ProblemSize, problem_units};
use crate::result::{
    ConfigResult, Environment, Outcome, Pace, ParameterValue, Peaks, RunResult, SCHEMA_VERSION, Settings, Tool,
    gb_per_s, now_rfc3339,
};
use crate::{analysis, host, kernels, stats};

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
    let ahead = Ahead::default();
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
    let harness = Harness::new(gpu, result.environment.timer_quantum_ns);
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
            add_note(
                &mut result.notes,
                &format!("the GPU device was lost after {index} of {total} configurations ({reason})"),
            );
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
        // Its reference, where it was being built ahead, is ready before it is checked.
        let waiting = Instant::now();
        ahead.wait_for(index).await;
        pace.references_s += waiting.elapsed().as_secs_f64();
        if report(Event::Measuring { index, total, configuration }, &mut pace) == Flow::Stop {
            return cancelled(result, index, total, pace, started);
        }
        let mut record = match &workload {
            Some(w) => {
                let bench = Bench { gpu, harness: &harness, family, workload: w.as_ref() };
                // Once this configuration is checked, the reference of the family's next configuration that
                // needs a new one is built while the GPU measures: the page's workers compute it.
                let start_ahead = || {
                    let rest =
                        configurations[index + 1..].iter().take_while(|next| next.family.name() == family.name());
                    ahead.start(gpu, w.clone(), index, rest.map(|next| next.configuration).collect());
                };
                let start_ahead =
                    (cfg!(target_arch = "wasm32") && w.reference_ahead()).then_some(&start_ahead as &dyn Fn());
                let measured =
                    measure_one(bench, configuration, &plan.measure, Validation::First, start_ahead, &mut pace);
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
                None => format!("the GPU device was lost after {index} of {total} configurations ({reason})"),
            };
            add_note(&mut result.notes, &lost);
            return finish(result, pace, started);
        }
        result.results.push(record);
        let record = result.results.last().expect("just pushed");
        if report(Event::Finished { index, total, record }, &mut pace) == Flow::Stop {
            return cancelled(result, index + 1, total, pace, started);
        }
        // The page's listener may have drawn a chart, most of a task: the next configuration starts in a
        // task of its own (in Chromium on an H200, a family's first chart and the next one's start took 57 ms).
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
    let prepared = workload.prepare(gpu, &probe).ok()?;
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
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
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

/// What measures and validates configurations, made once per run: the timer, the GPU comparison, and
/// how fast each kernel has run so far.
pub(crate) struct Harness {
    pub timer: Timer,
    pub check: GpuCheck,
    /// The most work (flops where counted, else bytes) per ns a kernel did at a workgroup shape, over the
    /// values of its parameter so far (its rate at other shapes says little: small workgroups may be far
    /// slower).
    rates: RefCell<HashMap<KernelAtShape, f64>>,
}

/// A kernel compiled with or without wgpu's checks, at one workgroup shape.
type KernelAtShape = (KernelId, ShaderChecks, [u32; 3]);

impl Harness {
    pub fn new(gpu: &Gpu, quantum_ns: f64) -> Self {
        Harness { timer: Timer::new(gpu, quantum_ns), check: GpuCheck::new(gpu), rates: RefCell::default() }
    }

    /// How long one dispatch of `record`'s configuration would take at its kernel's best rate at its shape
    /// so far (a larger matrix, a wider blur).
    fn predicted_ns(&self, configuration: &Configuration, record: &ConfigResult) -> Option<f64> {
        let Configuration { kernel, checks, workgroup, .. } = *configuration;
        let rate = *self.rates.borrow().get(&(kernel, checks, workgroup))?;
        Some(work(record) / rate)
    }

    /// Records the rate of a measured configuration whose dispatch lasted long enough (1 ms) for its work,
    /// not the launch, to set its time.
    fn learn(&self, configuration: &Configuration, record: &ConfigResult) {
        let Some(ns) = record.median_ns.filter(|&ns| ns >= 1e6) else { return };
        let Configuration { kernel, checks, workgroup, .. } = *configuration;
        let mut rates = self.rates.borrow_mut();
        let rate = rates.entry((kernel, checks, workgroup)).or_insert(0.0);
        *rate = rate.max(work(record) / ns);
    }
}

/// What a dispatch does, for comparing its configurations: flops where the family counts them, else bytes.
fn work(record: &ConfigResult) -> f64 {
    record.flops_per_dispatch.unwrap_or(record.bytes_per_dispatch) as f64
}

/// Page only: the reference of the family's next configuration that needs one it does not keep, built in
/// the workers while the GPU measures the configurations checked with the one before (the workload keeps
/// both, `KeptReference`), so that the GPU does not wait for it between kernels.
#[derive(Default)]
struct Ahead<'a> {
    /// The configuration (its place in the run) whose reference is asked for, or was last.
    at: Rc<Cell<Option<usize>>>,
    building: RefCell<Option<LocalBoxFuture<'a, ()>>>,
}

impl<'a> Ahead<'a> {
    /// Asks for the references of `rest`, the family's configurations after `index`, in turn, until one is
    /// built rather than kept; unless a build is under way, or asked for past `index` already. One made on
    /// the page's thread (sums, counts) is left for its configuration: it would not overlap the GPU's work,
    /// only lengthen the gaps between measurements.
    fn start(&self, gpu: &'a Gpu, workload: Rc<dyn Workload>, index: usize, rest: Vec<Configuration>) {
        if self.building.borrow().is_some() || self.at.get().is_some_and(|at| at > index) {
            return;
        }
        let at = self.at.clone();
        let build = async move {
            for (next, configuration) in (index + 1..).zip(&rest) {
                at.set(Some(next));
                let built = crate::kernel::references_built();
                let mut asked = workload.reference(gpu, configuration);
                let first = std::future::poll_fn(|context| Poll::Ready(asked.as_mut().poll(context))).await;
                if first.is_ready() {
                    continue; // kept already
                }
                if crate::kernel::references_built() != built {
                    // An error is that configuration's, said when it is checked.
                    asked.await.ok();
                }
                return;
            }
        };
        *self.building.borrow_mut() = Some(Box::pin(build));
    }

    /// Runs `work`, going on with the build meanwhile (it may start during `work`).
    async fn beside<T>(&self, work: impl Future<Output = T>) -> T {
        let mut work = std::pin::pin!(work);
        std::future::poll_fn(|context| {
            if let Poll::Ready(value) = work.as_mut().poll(context) {
                return Poll::Ready(value);
            }
            let mut building = self.building.borrow_mut();
            if building.as_mut().is_some_and(|build| build.as_mut().poll(context).is_ready()) {
                *building = None;
            }
            Poll::Pending
        })
        .await
    }

    /// Finishes the build, where configuration `index` is the one it asked for.
    async fn wait_for(&self, index: usize) {
        if self.at.get() == Some(index) {
            self.settle().await;
        }
    }

    /// Finishes the build under way, if any.
    async fn settle(&self) {
        let building = self.building.borrow_mut().take();
        if let Some(build) = building {
            build.await;
        }
    }
}

/// Whether `measure_one` checks the output before measuring.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Validation {
    First,
    /// Measured only: the auto-tuner validates the shapes it reports afterwards (`validate`).
    Later,
}

/// What measures one family's configurations: the device, the run's harness, the family and its inputs.
#[derive(Clone, Copy)]
pub(crate) struct Bench<'a> {
    pub gpu: &'a Gpu,
    pub harness: &'a Harness,
    pub family: &'static dyn Family,
    pub workload: &'a dyn Workload,
}

/// What a configuration gets, decided once, as soon as it has run once.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Course {
    /// Its output checked now, then measured: the usual course.
    CheckThenMeasure,
    /// Its first run took longer than a dispatch may, but not by far: the calibration decides whether it is
    /// measured, and its output is checked only if it is (on a CPU adapter a check costs as much as a
    /// dispatch).
    MeasureThenCheck,
    /// Measured only: the auto-tuner validates the shapes it reports afterwards (`validate`).
    MeasureOnly,
    /// Its first run took this long, far longer than a dispatch may: neither checked nor measured, to know.
    TooSlow(f64),
}

impl Course {
    /// The course of a configuration asked for `validation` whose first run (where it ran) took
    /// `ran_once_ns`, where that is known.
    fn of(validation: Validation, ran: bool, ran_once_ns: Option<f64>, max_dispatch_ns: f64) -> Course {
        match ran_once_ns {
            Some(ns) if ran && ns > 2.0 * max_dispatch_ns => Course::TooSlow(ns),
            _ if validation == Validation::Later => Course::MeasureOnly,
            Some(ns) if ns > max_dispatch_ns => Course::MeasureThenCheck,
            _ => Course::CheckThenMeasure,
        }
    }
}

/// Builds and runs a configuration once, then follows its `Course`: checks and measures it, and records what
/// came of it. Adds the time each step took to `pace`. `start_ahead`, once the configuration is checked,
/// starts building the next reference while it is measured (`Ahead`).
pub(crate) async fn measure_one(
    bench: Bench<'_>,
    configuration: &Configuration,
    options: &MeasureOptions,
    validation: Validation,
    start_ahead: Option<&dyn Fn()>,
    pace: &mut Pace,
) -> ConfigResult {
    let Bench { gpu, harness, family, workload } = bench;
    let mut record =
        blank(family, configuration, workload.problem_size(configuration), workload.bytes_per_dispatch(configuration));
    record.moved_bytes_per_dispatch = workload.moved_bytes_per_dispatch(configuration);
    record.flops_per_dispatch = workload.flops_per_dispatch(configuration);
    let storage = family.workgroup_storage_bytes(configuration);
    if let Err(skip) = shapes::check_workgroup(&gpu.info.limits, configuration.workgroup, storage) {
        record.outcome = Outcome::Skipped { reason: MESSAGE.clip(&skip.to_string()) };
        return record;
    }
    let (course, prepared) = run_once(bench, configuration, &record, options, validation, pace).await;
    let prepared = match (course, prepared) {
        // It ran once, far too slowly to measure: what it wrote is still checked, so that a slow kernel
        // that is also wrong fails.
        (Course::TooSlow(ns), Ok(prepared)) => {
            let reason = too_slow(ns, options.max_dispatch_ns, false);
            record.outcome = match check_output(gpu, &harness.check, workload, configuration, &prepared, pace).await {
                Ok(()) => Outcome::Unmeasured { reason },
                Err(error) => Outcome::Failed { error: format!("{error} ({reason})"), validated: false },
            };
            return record;
        }
        (_, Ok(prepared)) => prepared,
        (_, Err(Failure::Skip(skip))) => {
            record.outcome = Outcome::Skipped { reason: MESSAGE.clip(&skip.to_string()) };
            return record;
        }
        (_, Err(Failure::Error(error))) => {
            record.fail(error);
            return record;
        }
    };
    record.dispatch = prepared.grid;
    if course == Course::CheckThenMeasure {
        record.outcome = Outcome::Valid { suspect: None };
    }
    if let Some(start) = start_ahead
        && course == Course::CheckThenMeasure
    {
        start();
    }
    if let Err(error) = time(bench, configuration, &prepared, options, &mut record, pace).await {
        match error {
            // Too slow to measure after all: valid (checked now where it was not yet), or failed.
            slow @ MeasureError::TooSlow(..) => {
                if course == Course::MeasureThenCheck {
                    validate(gpu, harness, workload, configuration, &mut record).await;
                }
                if record.outcome == (Outcome::Valid { suspect: None }) {
                    record.outcome = Outcome::Unmeasured { reason: slow.to_string() };
                }
            }
            error => record.fail(error),
        }
        return record;
    }
    harness.learn(configuration, &record);
    if course == Course::MeasureThenCheck {
        let checking = Instant::now();
        validate(gpu, harness, workload, configuration, &mut record).await;
        pace.validation_s += checking.elapsed().as_secs_f64();
    }
    record
}

/// Prepares and runs a configuration once (unless its kernel's rate so far says a dispatch would take too
/// long), decides its `Course` from how long that took, and checks its output now where the course says so.
async fn run_once(
    bench: Bench<'_>,
    configuration: &Configuration,
    record: &ConfigResult,
    options: &MeasureOptions,
    validation: Validation,
    pace: &mut Pace,
) -> (Course, Result<Prepared, Failure>) {
    let Bench { gpu, harness, workload, .. } = bench;
    let started = Instant::now();
    let before = (pace.pipelines_s, pace.references_s);
    // A larger problem of a kernel already slow on this device (a larger matrix, a wider blur) is not run.
    let too_slow_ahead = harness
        .predicted_ns(configuration, record)
        .filter(|&ns| ns > options.max_dispatch_ns)
        .map(|ns| Skip::NotApplicable(too_slow(ns, options.max_dispatch_ns, true)));
    let mut prepared = prepare_and_run_once(gpu, workload, configuration, too_slow_ahead, pace).await;
    let ran_once_ns = first_run_ns(gpu, started, pace.pipelines_s - before.0).await;
    // A first run that never finished gave the device up: nothing more can run on it.
    if let Some(reason) = gpu.lost_reason() {
        return (Course::CheckThenMeasure, Err(Failure::Error(reason)));
    }
    let course = Course::of(validation, prepared.is_ok(), ran_once_ns, options.max_dispatch_ns);
    if course == Course::CheckThenMeasure
        && let Ok(ready) = &prepared
        && let Err(error) = check_output(gpu, &harness.check, workload, configuration, ready, pace).await
    {
        prepared = Err(Failure::Error(error));
    }
    let elsewhere = (pace.pipelines_s - before.0) + (pace.references_s - before.1);
    let validating_s = started.elapsed().as_secs_f64() - elsewhere;
    pace.validation_s += validating_s;
    log::debug!("{}: run once and validated in {validating_s:.3} s", kernels::describe(configuration));
    (course, prepared)
}

/// Measures a prepared configuration (`Timer::measure`) and puts its samples and their statistics in
/// `record`, and the time each stage took in `pace`.
async fn time(
    bench: Bench<'_>,
    configuration: &Configuration,
    prepared: &Prepared,
    options: &MeasureOptions,
    record: &mut ConfigResult,
    pace: &mut Pace,
) -> Result<(), MeasureError> {
    let measuring = host::measuring();
    let measurement = bench.harness.timer.measure(bench.gpu, &prepared.steps, options).await?;
    drop(measuring);
    pace.gpu_busy_s += measurement.busy_ns / 1e9;
    pace.calibration_s += measurement.calibration_ns / 1e9;
    pace.warm_up_s += measurement.warm_up_ns / 1e9;
    pace.samples_s += measurement.sampling_ns / 1e9;
    log::debug!(
        "{}: calibrated in {:.3} s, warmed up {:.3} s, sampled {:.3} s",
        kernels::describe(configuration),
        measurement.calibration_ns / 1e9,
        measurement.warm_up_ns / 1e9,
        measurement.sampling_ns / 1e9
    );
    record.timing_source = Some(measurement.source);
    record.dispatches_per_sample = measurement.dispatches_per_sample;
    record.discarded_samples = measurement.discarded;
    let per_dispatch: Vec<f64> =
        measurement.primary().iter().map(|ns| ns / measurement.dispatches_per_sample as f64).collect();
    if let Some(summary) = stats::summarize(&per_dispatch) {
        record.median_ns = Some(summary.median);
        record.min_ns = Some(summary.min);
        record.p95_ns = Some(summary.p95);
        record.cv = Some(summary.cv);
        record.median_interval_ns = summary.median_interval.map(|(low, high)| [low, high]);
        record.noisy = options.precision > 0.0 && !summary.within(options.precision);
        record.gbps = gb_per_s(record.bytes_per_dispatch, summary.median);
    }
    record.samples_ns = measurement.primary().to_vec();
    record.wall_samples_ns = measurement.wall_ns;
    Ok(())
}

/// How long the run submitted `started` (less `preparing_s` of building its pipelines) took on the GPU,
/// where that is a dispatch's time: natively, where wgpu compiles a pipeline when it is made. A browser may
/// compile it at its first dispatch instead (SwiftShader's took most of a second), so there the
/// calibration's first timed dispatch decides.
async fn first_run_ns(gpu: &Gpu, started: Instant, preparing_s: f64) -> Option<f64> {
    if cfg!(target_arch = "wasm32") {
        return None;
    }
    crate::kernel::idle(gpu).await.ok()?;
    Some((started.elapsed().as_secs_f64() - preparing_s) * 1e9)
}

/// Compares a configuration's output (after `kernel::submit_once`) with the CPU reference: on the GPU where
/// the family compares word by word, else read back and on the CPU. Adds the time spent computing the
/// reference to `pace`.
pub async fn check_output(
    gpu: &Gpu,
    check: &GpuCheck,
    workload: &dyn Workload,
    configuration: &Configuration,
    prepared: &Prepared,
    pace: &mut Pace,
) -> Result<(), String> {
    let started = Instant::now();
    let reference = workload.reference(gpu, configuration).await?;
    let referencing_s = started.elapsed().as_secs_f64();
    pace.references_s += referencing_s;
    log::debug!("{}: reference ready in {referencing_s:.3} s", kernels::describe(configuration));
    if let Some(reference) = reference {
        return check.check(gpu, &prepared.output, &reference).await;
    }
    let output = crate::kernel::read_buffer(gpu, &prepared.output).await?;
    crate::kernel::check_on_cpu(workload, configuration, prepared, &output)
        .await
        .map_err(|mismatch| format!("FAILED validation: {mismatch}"))
}

/// Validates a configuration measured with `Validation::Later`: builds and runs it once more and checks
/// its output. Marks `record` valid, or records why not.
pub(crate) async fn validate(
    gpu: &Gpu,
    harness: &Harness,
    workload: &dyn Workload,
    configuration: &Configuration,
    record: &mut ConfigResult,
) {
    let outcome = match prepare_and_run_once(gpu, workload, configuration, None, &mut Pace::default()).await {
        Ok(prepared) => {
            check_output(gpu, &harness.check, workload, configuration, &prepared, &mut Pace::default()).await
        }
        Err(Failure::Skip(skip)) => Err(skip.to_string()),
        Err(Failure::Error(error)) => Err(error),
    };
    match outcome {
        Ok(()) => record.outcome = Outcome::Valid { suspect: None },
        Err(error) => record.fail(error),
    }
}

enum Failure {
    Skip(Skip),
    Error(String),
}

/// Prepares the configuration, poisons its output and runs it once, inside a validation error scope so a
/// pipeline the device rejects becomes this configuration's error instead of the whole run's. A
/// configuration that can run but is known to be too slow (`too_slow`) is prepared only, to learn whether
/// it applies at all, and skipped.
async fn prepare_and_run_once(
    gpu: &Gpu,
    workload: &dyn Workload,
    configuration: &Configuration,
    too_slow: Option<Skip>,
    pace: &mut Pace,
) -> Result<Prepared, Failure> {
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let started = Instant::now();
    let prepared = workload.prepare(gpu, configuration);
    pace.pipelines_s += started.elapsed().as_secs_f64();
    let prepared = match (prepared, too_slow) {
        (Ok(_), Some(skip)) => Err(skip),
        (prepared, _) => prepared,
    };
    if let Ok(prepared) = &prepared {
        crate::kernel::submit_once(gpu, prepared);
    }
    let error = scope.pop().await;
    if error.is_some() {
        // A lost device rejects everything: the run then stops as lost rather than fail what is left.
        gpu.lost_reason_soon().await;
    }
    match (prepared, error) {
        (_, Some(error)) => Err(Failure::Error(format!("the GPU rejected this configuration: {error}"))),
        (Err(skip), None) => Err(Failure::Skip(skip)),
        (Ok(prepared), None) => Ok(prepared),
    }
}
