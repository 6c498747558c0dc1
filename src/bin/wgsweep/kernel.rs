//! `wgsweep kernel`: a user's kernel (WGSL and its specification) read, checked, registered and run or
//! tuned through the same runner as the built-in families; or sent to the page as a link.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use wgsweep::kernel::{Kernel, ShaderChecks};
use wgsweep::kernels;
use wgsweep::share;
use wgsweep::spec::{self, KernelText, Problem, UserKernel};

use crate::plan_args::PlanArgs;

#[derive(clap::Args)]
pub struct KernelArgs {
    /// The WGSL file; its specification opens it in a /* wgsweep { … } */ comment unless --spec gives one.
    wgsl: PathBuf,
    /// The specification, a JSON file.
    #[arg(long)]
    spec: Option<PathBuf>,
    /// Search the combinations with the auto-tuner instead of measuring every one.
    #[arg(long)]
    tune: bool,
    /// With --tune: also measure every combination, and say how close the tuner came in what share of the time.
    #[arg(long, requires = "tune")]
    exhaustive: bool,
    /// Print a link that opens the kernel in the page at this address, ready to run there, and stop.
    #[arg(long, value_name = "PAGE")]
    link: Option<String>,
    #[command(flatten)]
    plan: PlanArgs,
    /// Write the result file (or, with --tune, the tunings) here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// A label stored with the result.
    #[arg(long, default_value = "")]
    label: String,
}

/// Reads the user's kernel, registers it and checks that it compiles, then runs or tunes it.
pub async fn user_kernel(args: KernelArgs) -> Result<ExitCode, String> {
    let read =
        |path: &Path| std::fs::read_to_string(path).map_err(|e| format!("could not read {}: {e}", path.display()));
    let options = args.plan.sizing_options();
    if !options.is_empty() {
        // As in the page, a kernel's own specification says what it runs over.
        return Err(format!(
            "{} set a built-in family's sizes and shapes; a kernel's come from its specification: \"sizes\" \
             (its problem sizes), \"tunables\" and \"workgroup_size\" (its workgroup shapes and other values)",
            options.join(", ")
        ));
    }
    let source = read(&args.wgsl)?;
    let spec = args.spec.as_deref().map(read).transpose()?;
    let named = |problems: Vec<Problem>| {
        let file = args.spec.as_ref().unwrap_or(&args.wgsl).display().to_string();
        let lines: Vec<String> = problems.iter().map(|p| format!("{file}: {p}")).collect();
        lines.join("\n")
    };
    let kernel = UserKernel::read(&source, spec.as_deref()).map_err(named)?;
    if let Some(page) = &args.link {
        // The page's two fields: the specification, and the WGSL without a leading one.
        let leading = spec::split_leading_spec(&source);
        let body = leading.map_or(source.as_str(), |(_, rest)| rest).to_string();
        let spec = spec.as_deref().or(leading.map(|(text, _)| text)).unwrap_or_default().trim().to_string();
        println!("{}", share::blocking::kernel_link(page, &KernelText { source: body, spec })?);
        return Ok(ExitCode::SUCCESS);
    }
    let family = kernels::register(kernel)?;
    let gpu = args.plan.open_gpu().await?;
    let problems = kernels::user::compilation_problems(&gpu, family).await;
    if !problems.is_empty() {
        let lines: Vec<String> = problems.iter().map(|p| format!("{}: {p}", args.wgsl.display())).collect();
        return Err(lines.join("\n"));
    }
    let plan = args.plan.plan(Kernel::all_of(family));
    if !plan.shader_checks.contains(&ShaderChecks::Default) {
        return Err("a kernel of yours runs only with wgpu's checks (it may index out of bounds): \
                    --shader-checks unchecked or bounds-only leaves it nothing to run; leave the option out"
            .into());
    }
    match args.tune {
        true => crate::tune::tune_plan(&gpu, &plan, args.exhaustive, args.json.as_deref()).await,
        false => crate::run::sweep(&args.plan, gpu, &plan, args.json.as_deref(), args.label, None).await,
    }
}
