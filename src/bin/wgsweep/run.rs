//! `wgsweep run`: kernels over every configuration, with progress, a table and the result file; `sweep` is
//! also how `wgsweep kernel` runs a user's kernel.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use wgsweep::estimate;
use wgsweep::gpu::Gpu;
use wgsweep::kernels;
use wgsweep::plan::Plan;
use wgsweep::result::{Environment, RunResult};
use wgsweep::runner::{self, Event, Flow};

use crate::plan_args::PlanArgs;
use crate::table::{Table, left, right, say};

#[derive(clap::Args)]
pub struct RunArgs {
    /// Kernels: families, kernels or kernel/variant names, comma-separated; `all` for every kernel.
    /// Default: the default suite (`default`), as the page ticks it.
    #[arg(long)]
    kernels: Option<String>,
    #[command(flatten)]
    plan: PlanArgs,
    /// Write the result file (the format the page reads) here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// A label stored with the result.
    #[arg(long, default_value = "")]
    label: String,
    /// A test hook: destroy the device once this many configurations have finished, as a driver reset
    /// would lose it.
    #[arg(long, hide = true)]
    lose_device_after: Option<u64>,
}

pub async fn run(args: RunArgs) -> Result<ExitCode, String> {
    let kernels = kernels::select(args.kernels.as_deref().unwrap_or(kernels::DEFAULT_SUITE))?;
    let plan = args.plan.plan(kernels);
    let gpu = args.plan.open_gpu().await?;
    sweep(&args.plan, gpu, &plan, args.json.as_deref(), args.label, args.lose_device_after).await
}

/// Runs `plan`, prints its table and writes its result file where asked. A configuration whose work never
/// finished (the device given up after `gpu::GPU_WAIT_LIMIT`) is recorded as failed, and the run goes on
/// after it on a fresh device that `opener` opens.
pub async fn sweep(
    opener: &PlanArgs,
    mut gpu: Gpu,
    plan: &Plan,
    json: Option<&Path>,
    label: String,
    lose_device_after: Option<u64>,
) -> Result<ExitCode, String> {
    let total = plan.count(&gpu.info.limits)? as u64;
    let host_probe_ms = estimate::probe::host_ms().await;
    let class = estimate::class(None, &gpu.info);
    let expected_s = estimate::of_planned(&plan.configurations(&gpu.info.limits), &class, None, Some(host_probe_ms));
    eprintln!("{total} configurations on {}: {} expected", gpu.info.name(), estimate::about(expected_s));
    let bar = ProgressBar::new(total).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} [{elapsed} elapsed, {eta} left]")
            .expect("a valid template"),
    );
    let progress = |device: wgpu::Device| {
        let bar = &bar;
        move |event: Event| {
            match event {
                Event::Preparing { family, size, unit } => {
                    bar.set_message(format!("preparing {family} ({size} {unit})"))
                }
                Event::Measuring { configuration, .. } => bar.set_message(kernels::describe(configuration)),
                Event::Finished { .. } => {
                    bar.inc(1);
                    if lose_device_after == Some(bar.position()) {
                        device.destroy();
                    }
                }
            }
            Flow::Continue
        }
    };
    let environment = Environment { host_probe_ms: Some(host_probe_ms), ..crate::native_environment(&gpu) };
    let mut result = runner::run(&gpu, plan, environment, progress(gpu.device.clone())).await;
    while gpu.given_up() && !result.complete {
        let done = result.results.len();
        bar.suspend(|| {
            eprintln!("wgsweep: configuration {done} never finished and was recorded as failed; going on after it on a fresh device")
        });
        gpu = opener.open_gpu().await?;
        result = runner::go_on(&gpu, plan, result, progress(gpu.device.clone())).await;
    }
    bar.finish_and_clear();
    result.label = label;
    print_result(&result);
    if let Some(path) = json {
        crate::write_file(path, &result.to_json())?;
    }
    if let Some(reason) = gpu.lost_reason() {
        eprintln!(
            "wgsweep: the GPU device was lost ({reason}) after {} of {total} configurations; what finished is kept",
            result.results.len()
        );
    }
    let failed = result.results.iter().any(|r| r.error().is_some());
    Ok(if failed || !result.complete { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// A row a configuration, then the run's peaks, pace and notes.
fn print_result(result: &RunResult) {
    let mut table = Table::new(vec![
        left("kernel"),
        left("checks"),
        right("wg"),
        left("parameter"),
        right("median"),
        right("min"),
        right("GB/s"),
        right("GFLOP/s"),
        right("of peak"),
        right("CV"),
        right("samples"),
        left("status"),
    ]);
    for r in &result.results {
        let mut row = vec![r.label(), r.shader_checks.name().into(), r.workgroup_text(), r.parameter_text()];
        row.extend(r.figures());
        row.push(r.status());
        table.row(row);
    }
    table.print();
    if let Some(line) = result.peaks.summary() {
        println!("peaks: {line}");
    }
    if let Some(pace) = &result.pace {
        println!("time: {}", pace.summary());
    }
    for note in &result.notes {
        say(&format!("note: {note}"));
    }
}
