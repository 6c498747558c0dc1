//! `wgsweep tune`: the best workgroup shape of each kernel without measuring every shape; `tune_plan` is
//! also how `wgsweep kernel --tune` searches a user's kernel.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use indicatif::ProgressBar;
use wgsweep::gpu::Gpu;
use wgsweep::kernels;
use wgsweep::plan::Plan;
use wgsweep::runner::Flow;
use wgsweep::tune::{self, TuneEvent, TuneOptions};

use crate::plan_args::PlanArgs;

#[derive(clap::Args)]
pub struct TuneArgs {
    /// Kernels to tune: families, kernels or kernel/variant names, comma-separated.
    kernels: String,
    #[command(flatten)]
    plan: PlanArgs,
    /// Also run the exhaustive sweep (every shape, measured as `run` measures) and say how close the
    /// tuner came and in what share of the sweep's time.
    #[arg(long)]
    exhaustive: bool,
    /// Write the tunings (every trial, validated and measured) as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
}

pub async fn tune(args: TuneArgs) -> Result<ExitCode, String> {
    let plan = args.plan.plan(kernels::select(&args.kernels)?);
    let gpu = args.plan.open_gpu().await?;
    tune_plan(&gpu, &plan, args.exhaustive, args.json.as_deref()).await
}

/// Tunes `plan`'s kernels, prints each tuning and writes them where asked.
pub async fn tune_plan(gpu: &Gpu, plan: &Plan, exhaustive: bool, json: Option<&Path>) -> Result<ExitCode, String> {
    plan.count(&gpu.info.limits)?;
    let options = TuneOptions { exhaustive: exhaustive.then(|| plan.measure.clone()), ..TuneOptions::default() };
    let bar = ProgressBar::new_spinner();
    let tunings = tune::tune(gpu, plan, &options, &crate::native_environment(gpu), |event| {
        match event {
            TuneEvent::Tuning { index, total, kernel } => {
                bar.set_prefix(format!("{}/{total} {}", index + 1, kernel.label()))
            }
            TuneEvent::Measuring { configuration } => bar.set_message(kernels::describe(configuration)),
        }
        bar.tick();
        Flow::Continue
    })
    .await?;
    bar.finish_and_clear();
    for tuning in &tunings {
        println!("{}", tuning.summary());
    }
    if let [tuning] = tunings.as_slice()
        && let Some(snippet) = tuning.snippet()
    {
        println!("\n{snippet}");
    }
    if let Some(path) = json {
        crate::write_file(path, &serde_json::to_string_pretty(&tunings).expect("tunings serialize"))?;
    }
    let failed = tunings.iter().flat_map(|t| &t.trials).any(|r| r.error().is_some());
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
