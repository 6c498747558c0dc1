//! The native shell: the same runner as the page, on wgpu's Vulkan, Metal or DX12 backend.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use wgsweep::gallery::{self, DeviceClass, Preset};
use wgsweep::gpu::{self, Gpu};
use wgsweep::kernel::{Family, KernelId, ShaderChecks};
use wgsweep::measure::MeasureOptions;
use wgsweep::plan::{self, Plan, ProblemSize, Shapes};
use wgsweep::result::{Environment, RunResult};
use wgsweep::runner::{self, Event, Flow};
use wgsweep::tune::{self, TuneEvent, TuneOptions};
use wgsweep::{compare, fill, kernels};

#[derive(Parser)]
#[command(
    name = "wgsweep",
    version,
    about = "Sweep GPU compute kernels over every workgroup size, natively through wgpu"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the GPU adapters wgpu can see.
    Devices,
    /// Run kernels over every workgroup size and print a table.
    Run(RunArgs),
    /// Explain what a kernel family measures and what to expect.
    Describe {
        /// A family, kernel or kernel/variant name.
        kernel: String,
    },
    /// Print a link that opens a result file (from `run --json` or the page) in the page.
    Share {
        /// The result file.
        file: PathBuf,
        /// The page's address the link starts with.
        #[arg(long, default_value = "http://127.0.0.1:8080/")]
        page: String,
    },
    /// Find the best workgroup shape for kernels without measuring every shape.
    Tune(TuneArgs),
    /// Run your own kernel, WGSL and its specification (docs/your-kernel.md), as the built-in families run:
    /// every combination of its tunables and workgroup shapes, validated and timed; or auto-tuned.
    Kernel(KernelArgs),
    /// Print a built-in kernel as your kernel: its WGSL, opened by a specification that reproduces it, to
    /// save, change and run with `wgsweep kernel`.
    Source {
        /// A kernel/variant name, e.g. triad/scalar.
        kernel: String,
    },
    /// Put results side by side: each one's figure for every configuration and its ratio to the first.
    Compare(CompareArgs),
    /// The workgroup shape each kernel's results agree on for a device: learned by a results gallery
    /// (`--gallery`) from everyone's published results, or from result files.
    Presets(PresetsArgs),
}

#[derive(clap::Args)]
struct PresetsArgs {
    /// Result files or share links to learn from (each device among them on its own), instead of a gallery.
    #[arg(conflicts_with = "gallery", required_unless_present = "gallery")]
    results: Vec<String>,
    /// A results gallery's address, e.g. http://127.0.0.1:8080 (`cargo xtask serve` starts one).
    #[arg(long)]
    gallery: Option<String>,
    /// The device class, as the gallery lists it ("ADAPTER · BACKEND · RUNTIME"). Default: the adapter
    /// `--adapter` picks, natively.
    #[arg(long)]
    device: Option<String>,
    /// Adapter: its index in `wgsweep devices`, or part of its name. Default: the high-performance one.
    #[arg(long)]
    adapter: Option<String>,
    /// One kernel (kernel/variant, e.g. a user's kernel as its results name it: triad/de3303bd) on every
    /// device class the gallery has results of, instead of one device's kernels.
    #[arg(long, requires = "gallery", conflicts_with = "device")]
    kernel: Option<String>,
}

#[derive(clap::Args)]
struct CompareArgs {
    /// Result files or share links (a comparison's link adds all of its results), the first the baseline.
    #[arg(num_args = 1..)]
    results: Vec<String>,
    /// Put the baseline saved under this name (`--save-baseline`) first.
    #[arg(long)]
    baseline: Option<String>,
    /// Save the last result given as a baseline under this name, in .wgsweep/baselines/ (as criterion
    /// keeps its baselines): a later `--baseline NAME` compares with it.
    #[arg(long)]
    save_baseline: Option<String>,
    /// A change smaller than this is the same within noise, however sure (a percentage).
    #[arg(long, default_value = "2%", value_parser = percent)]
    noise_threshold: f64,
    /// Exit with status 1, listing them, where configurations are slower than the first result beyond
    /// noise and by at least this much (a percentage, e.g. 3%): a regression gate for CI pipelines.
    #[arg(long, value_parser = percent)]
    fail_if_slower: Option<f64>,
    /// Only each kernel's best figure per result, over every workgroup shape, and the shape that gave it.
    #[arg(long)]
    best: bool,
    /// Also print a link that opens the comparison in the page at this address.
    #[arg(long)]
    page: Option<String>,
}

#[derive(clap::Args)]
struct RunArgs {
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

#[derive(clap::Args)]
struct TuneArgs {
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

#[derive(clap::Args)]
struct KernelArgs {
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

/// What `run` and `tune` share: the device, the problem and how to measure.
#[derive(clap::Args)]
struct PlanArgs {
    /// Adapter: its index in `wgsweep devices`, or part of its name. Default: the high-performance one.
    #[arg(long)]
    adapter: Option<String>,
    /// Problem size in each family's unit (`wgsweep describe FAMILY` names it: f32 elements per array,
    /// particles, pixels). Default: each family's own, 256 MiB per buffer where the device allows it.
    #[arg(long, conflicts_with = "mib")]
    size: Option<u64>,
    /// Problem size as MiB per buffer, whatever each family's unit.
    #[arg(long)]
    mib: Option<u64>,
    /// Workgroup sizes, comma-separated. Default: every power of two up to the device's maximum (every 2-D
    /// shape for image-like kernels), unless the family fixes the shape to sweep its parameter.
    #[arg(long, value_delimiter = ',', conflicts_with = "every_shape")]
    workgroup_sizes: Option<Vec<u32>>,
    /// Every power-of-two shape the device allows (2-D ones for image-like kernels), also for the
    /// families that fix their shape (banks, saturation, access's strides, matmul's naive kernel).
    #[arg(long)]
    every_shape: bool,
    /// Values of the kernels' numeric parameters (stride, radius, matrix size...), comma-separated, instead
    /// of each family's list.
    #[arg(long, value_delimiter = ',')]
    values: Option<Vec<u32>>,
    /// wgpu's shader runtime checks: `default` (on), `unchecked` (trusted modules), or `both`, which runs
    /// every configuration each way and shows what the checks cost (browsers always apply their own);
    /// `bounds-only` keeps index clamping but drops the guard on every loop, and `all` runs all three,
    /// to tell which check costs what.
    #[arg(long, default_value = "both", value_parser = ["default", "unchecked", "both", "bounds-only", "all"])]
    shader_checks: String,
    /// Samples per configuration, after calibration and warm-up, at least (fewer, never under 3, where they
    /// would take over a second of GPU time); more until the median is as precise as --precision asks.
    #[arg(long, default_value_t = 10)]
    samples: u32,
    /// Keep sampling a configuration until its median's 95 % interval is within this of it (a percentage;
    /// 0 keeps exactly --samples); one that cannot get there by --max-samples is marked noisy.
    #[arg(long, default_value = "1%", value_parser = percent)]
    precision: f64,
    /// The most samples sampling for precision keeps of one configuration.
    #[arg(long, default_value_t = 50)]
    max_samples: u32,
    /// Milliseconds to keep the GPU busy with each configuration before its samples (clocks ramp up).
    #[arg(long, default_value_t = 200.0)]
    warm_up_ms: f64,
    /// Seed of the pseudo-random inputs (default: a fresh one each run).
    #[arg(long)]
    seed: Option<u32>,
}

impl PlanArgs {
    fn plan(&self, kernels: Vec<KernelId>) -> Plan {
        Plan {
            kernels,
            problem_size: match (self.size, self.mib) {
                (Some(units), _) => ProblemSize::Units(units),
                (None, Some(mib)) => ProblemSize::BytesPerBuffer(mib << 20),
                (None, None) => ProblemSize::Default,
            },
            shapes: match (&self.workgroup_sizes, self.every_shape) {
                (Some(sizes), _) => Shapes::Sizes(sizes.clone()),
                (None, true) => Shapes::Every,
                (None, false) => Shapes::Family,
            },
            parameter_values: self.values.clone(),
            shader_checks: match self.shader_checks.as_str() {
                "unchecked" => vec![ShaderChecks::Unchecked],
                "bounds-only" => vec![ShaderChecks::BoundsOnly],
                "both" => vec![ShaderChecks::Default, ShaderChecks::Unchecked],
                "all" => vec![ShaderChecks::Default, ShaderChecks::BoundsOnly, ShaderChecks::Unchecked],
                _ => vec![ShaderChecks::Default],
            },
            measure: MeasureOptions {
                samples: self.samples.max(1),
                precision: self.precision,
                max_samples: self.max_samples,
                warm_up_ns: self.warm_up_ms * 1e6,
                ..Default::default()
            },
            seed: self.seed.unwrap_or_else(fill::fresh_seed),
        }
    }

    async fn open_gpu(&self) -> Result<Gpu, String> {
        let adapter = choose_adapter(self.adapter.as_deref()).await?;
        let gpu = Gpu::open(&adapter, None).await.map_err(|e| e.to_string())?;
        eprintln!("{} ({}, {})", gpu.info.name(), gpu.info.backend, gpu.info.driver);
        Ok(gpu)
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Devices => devices(),
        Command::Run(args) => pollster::block_on(run(args)),
        Command::Describe { kernel } => describe(&kernel),
        Command::Share { file, page } => share(&file, &page),
        Command::Compare(args) => compare(&args),
        Command::Tune(args) => pollster::block_on(tune(args)),
        Command::Kernel(args) => pollster::block_on(user_kernel(args)),
        Command::Source { kernel } => source(&kernel),
        Command::Presets(args) => pollster::block_on(presets(args)),
    };
    match outcome {
        Ok(code) => code,
        Err(message) => {
            eprintln!("wgsweep: {message}");
            ExitCode::from(2)
        }
    }
}

fn adapters() -> Vec<wgpu::Adapter> {
    pollster::block_on(gpu::instance().enumerate_adapters(wgpu::Backends::all()))
}

fn devices() -> Result<ExitCode, String> {
    let adapters = adapters();
    if adapters.is_empty() {
        return Err("no GPU adapter found (is a Vulkan, Metal or DX12 driver installed?)".into());
    }
    for (index, adapter) in adapters.iter().enumerate() {
        let info = adapter.get_info();
        let limits = adapter.limits();
        println!(
            "{index}: {} ({:?}, {}, driver {} {})\n   workgroup ≤ {} invocations ({}×{}×{}), {} KiB workgroup memory, {} MiB per storage binding",
            info.name,
            info.device_type,
            info.backend,
            info.driver,
            info.driver_info,
            limits.max_compute_invocations_per_workgroup,
            limits.max_compute_workgroup_size_x,
            limits.max_compute_workgroup_size_y,
            limits.max_compute_workgroup_size_z,
            limits.max_compute_workgroup_storage_size / 1024,
            limits.max_storage_buffer_binding_size >> 20,
        );
        let features = adapter.features();
        let subgroups = match features.contains(wgpu::Features::SUBGROUP) {
            true => format!("subgroups of {}–{} invocations", info.subgroup_min_size, info.subgroup_max_size),
            false => "no subgroups".to_string(),
        };
        let f16 = if features.contains(wgpu::Features::SHADER_F16) { "shader-f16" } else { "no shader-f16" };
        let matrices: Vec<String> = wgsweep::gpu::MatrixConfig::of_adapter(adapter).iter().map(|c| c.text()).collect();
        let matrices = if matrices.is_empty() { "none".to_string() } else { matrices.join("; ") };
        println!("   {subgroups}, {f16}; cooperative matrices: {matrices}");
    }
    Ok(ExitCode::SUCCESS)
}

fn describe(name: &str) -> Result<ExitCode, String> {
    let chosen = kernels::select(name)?;
    let family = kernels::family(chosen[0].family).expect("selected kernels are registered");
    println!("{}\n\n{}", family.name(), family.about());
    Ok(ExitCode::SUCCESS)
}

fn source(name: &str) -> Result<ExitCode, String> {
    // The sizes and shapes every WebGPU device offers: `wgsweep kernel` then skips what this one cannot run.
    let limits = wgsweep::gpu::ComputeLimits::from_wgpu(&wgpu::Limits::default());
    let opened: Vec<String> =
        kernels::all().iter().filter(|k| kernels::as_user_kernel(k, &limits).is_some()).map(|k| k.label()).collect();
    let kernel = kernels::select(name)?.into_iter().find(|k| k.label() == name);
    let source = kernel.and_then(|k| kernels::as_user_kernel(&k, &limits));
    let source = source.ok_or_else(|| {
        format!(
            "{name} cannot be opened as your kernel: it needs a pass before or after it (a permutation, partial \
             sums, a state made first), and a user's kernel is one dispatch of one entry point; these can: {}",
            opened.join(", ")
        )
    })?;
    print!("{source}");
    Ok(ExitCode::SUCCESS)
}

fn share(file: &std::path::Path, page: &str) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("could not read {}: {e}", file.display()))?;
    let result = wgsweep::analysis::read_json(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let link = wgsweep::share::link(page, &result);
    eprintln!("{} configurations in {} bytes of link", result.results.len(), link.len());
    println!("{link}");
    Ok(ExitCode::SUCCESS)
}

/// A result file's results, or a share link's (one, or all of a comparison's).
fn open_results(source: &str) -> Result<Vec<RunResult>, String> {
    if source.contains('#') {
        return wgsweep::share::decode_any(source).map_err(|e| e.to_string());
    }
    let text = std::fs::read_to_string(source).map_err(|e| format!("could not read {source}: {e}"))?;
    wgsweep::analysis::read_json(&text).map(|r| vec![r]).map_err(|e| format!("{source}: {e}"))
}

/// "3%" or "3" as the fraction 0.03.
fn percent(text: &str) -> Result<f64, String> {
    let number = text.trim().trim_end_matches('%').trim();
    match number.parse::<f64>() {
        Ok(p) if (0.0..1000.0).contains(&p) => Ok(p / 100.0),
        _ => Err(format!("`{text}` is not a percentage such as 3%")),
    }
}

/// Where `--save-baseline NAME` keeps its result.
fn baseline_path(name: &str) -> Result<std::path::PathBuf, String> {
    let fine = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if !fine || name.starts_with('.') {
        return Err(format!("a baseline's name is letters, digits, '-', '_' and '.', not `{name}`"));
    }
    Ok(std::path::Path::new(".wgsweep/baselines").join(format!("{name}.json")))
}

fn compare(args: &CompareArgs) -> Result<ExitCode, String> {
    let mut results = Vec::new();
    if let Some(name) = &args.baseline {
        let path = baseline_path(name)?;
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!("no baseline `{name}` ({}: {e}); save one with --save-baseline {name}", path.display())
        })?;
        results.push(wgsweep::analysis::read_json(&text).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    for source in &args.results {
        results.extend(open_results(source)?);
    }
    if let Some(name) = &args.save_baseline {
        let path = baseline_path(name)?;
        let last = results.last().ok_or("give a result to save as a baseline")?;
        std::fs::create_dir_all(path.parent().expect("a folder")).map_err(|e| e.to_string())?;
        std::fs::write(&path, last.to_json()).map_err(|e| format!("could not write {}: {e}", path.display()))?;
        eprintln!("saved the baseline `{name}` in {}", path.display());
        if results.len() < 2 {
            return Ok(ExitCode::SUCCESS);
        }
    }
    if results.len() < 2 {
        return Err("a comparison needs at least two results (or one and --baseline NAME)".into());
    }
    let names = compare::names(&results);
    for (i, (name, result)) in names.iter().zip(&results).enumerate() {
        let peaks = result.peaks.summary().map(|p| format!("; {p}")).unwrap_or_default();
        println!("{}: {name}: {}, {}{peaks}", i + 1, result.device.name(), result.created);
    }
    let rows = compare::rows(&results);
    let (rows, shapes) = if args.best { compare::best_rows(&rows).into_iter().unzip() } else { (rows, Vec::new()) };
    let mut header: Vec<String> = ["kernel", "checks", "wg", "parameter", "unit"].map(String::from).to_vec();
    header.extend((1..=results.len()).map(|i| format!("[{i}]")));
    header.extend((2..=results.len()).map(|i| format!("[{i}]/[1]")));
    let cells: Vec<Vec<String>> = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let workgroup = match shapes.get(i) {
                // Best of every shape: name each result's best shape.
                Some(shapes) => shapes.iter().map(|s| s.as_deref().unwrap_or("–")).collect::<Vec<_>>().join(" | "),
                None => row.workgroup.clone(),
            };
            let mut cells =
                vec![row.kernel.clone(), row.checks.name().into(), workgroup, row.parameter.clone(), row.unit.into()];
            cells.extend(row.cells(args.noise_threshold));
            cells
        })
        .collect();
    print_aligned(&header, &cells, &[0, 1, 2, 3, 4]);
    let threshold = args.noise_threshold;
    println!(
        "\nThe ratios' 95 % intervals are distribution-free (Hodges–Lehmann and Moses, from each configuration's \
         samples); a ratio is faster or slower where its interval leaves out 1 and it moves by {:.1} % or more.",
        threshold * 100.0
    );
    for at in 1..results.len() {
        let counts: Vec<String> =
            compare::verdict_counts(&rows, at, threshold).iter().map(compare::counts_text).collect();
        let counts = match counts.is_empty() {
            true => "no verdicts: a result recorded before intervals were keeps neither samples nor intervals".into(),
            false => counts.join("; "),
        };
        println!("[{}] against [1]: {counts}", at + 1);
    }
    let mut code = ExitCode::SUCCESS;
    if let Some(limit) = args.fail_if_slower {
        let slower: Vec<String> = rows
            .iter()
            .flat_map(|row| {
                (1..results.len()).filter_map(move |at| {
                    let change = row.changes[at]?;
                    let slower = compare::verdict(&change, threshold) == wgsweep::stats::Verdict::Slower
                        && change.estimate <= 1.0 / (1.0 + limit);
                    slower.then(|| {
                        format!(
                            "  {} {} wg {} {}: [{}] at {:.2}× of [1] ({:.2}–{:.2})",
                            row.kernel,
                            row.checks.name(),
                            row.workgroup,
                            row.parameter,
                            at + 1,
                            change.estimate,
                            change.low,
                            change.high
                        )
                    })
                })
            })
            .collect();
        if !slower.is_empty() {
            println!(
                "\n{} configuration(s) slower than [1] beyond noise and by {:.1} % or more:",
                slower.len(),
                limit * 100.0
            );
            println!("{}", slower.join("\n"));
            code = ExitCode::FAILURE;
        }
    }
    if let Some(page) = &args.page {
        println!("{}", wgsweep::share::comparison_link(page, &results));
    }
    Ok(code)
}

async fn presets(args: PresetsArgs) -> Result<ExitCode, String> {
    if let (Some(gallery), Some(kernel)) = (&args.gallery, &args.kernel) {
        let answer = ask_gallery(gallery, "api/kernel/presets", &[("kernel", kernel)])?;
        let classes = answer["classes"].as_array().cloned().unwrap_or_default();
        println!("{kernel}: {} device class{}", classes.len(), if classes.len() == 1 { "" } else { "es" });
        let rows: Vec<Vec<String>> = classes
            .iter()
            .filter_map(|class| {
                let preset: Preset = serde_json::from_value(class["preset"].clone()).ok()?;
                let gain = preset.median_gain_over_64.map(|g| format!("{g:.2}×")).unwrap_or_else(|| "–".into());
                let key = class["key"].as_str().unwrap_or_default().to_string();
                Some(vec![key, preset.parameter, preset.shape, format!("{} of {}", preset.wins, preset.results), gain])
            })
            .collect();
        let header = ["device class", "at", "best configuration", "won in", "gain over 64"].map(String::from);
        print_aligned(&header, &rows, &[0, 1, 2]);
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(gallery) = &args.gallery {
        let key = match &args.device {
            Some(key) => key.clone(),
            None => {
                let gpu = Gpu::open(&choose_adapter(args.adapter.as_deref()).await?, None)
                    .await
                    .map_err(|e| e.to_string())?;
                DeviceClass::new(&gpu.info, &native_environment(&gpu)).key()
            }
        };
        let answer = ask_gallery(gallery, "api/device/presets", &[("key", &key)]).map_err(|why| {
            // Name the devices it does know, so the next try can be right.
            let known = ask_gallery(gallery, "api/devices", &[]).ok().and_then(|devices| {
                let keys = devices["devices"].as_array()?.iter().filter_map(|d| d["key"].as_str().map(String::from));
                Some(keys.collect::<Vec<_>>().join("\n  "))
            });
            match known {
                Some(known) if !known.is_empty() => format!("{why}\nthe gallery has results for:\n  {known}"),
                _ => why,
            }
        })?;
        let presets: Vec<Preset> = serde_json::from_value(answer["presets"].clone())
            .map_err(|e| format!("the gallery's presets could not be read: {e}"))?;
        print_presets(&key, answer["results"].as_u64().unwrap_or(0) as usize, &presets);
        return Ok(ExitCode::SUCCESS);
    }
    let mut classes: Vec<(String, Vec<RunResult>)> = Vec::new();
    for source in &args.results {
        for result in open_results(source)? {
            let key = DeviceClass::of(&result).key();
            match classes.iter_mut().find(|(k, _)| *k == key) {
                Some((_, results)) => results.push(result),
                None => classes.push((key, vec![result])),
            }
        }
    }
    if let Some(device) = &args.device {
        classes.retain(|(key, _)| key == device);
        if classes.is_empty() {
            return Err(format!("none of these results is from the device {device}"));
        }
    }
    for (key, results) in &classes {
        print_presets(key, results.len(), &gallery::presets(results));
    }
    Ok(ExitCode::SUCCESS)
}

/// A results gallery's JSON answer to a GET of `path` with `query`, or what went wrong in words.
fn ask_gallery(gallery: &str, path: &str, query: &[(&str, &str)]) -> Result<serde_json::Value, String> {
    let url = format!("{}/{path}", gallery.trim_end_matches('/'));
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(std::time::Duration::from_secs(30)))
        .build()
        .into();
    let mut response = agent
        .get(&url)
        .query_pairs(query.iter().copied())
        .call()
        .map_err(|e| format!("the gallery at {gallery} could not be reached: {e}"))?;
    let status = response.status();
    let text = response.body_mut().read_to_string().map_err(|e| format!("the gallery's answer was cut off: {e}"))?;
    let answer: serde_json::Value = serde_json::from_str(&text)
        .map_err(|_| format!("{gallery} answered {status} without JSON: is it a wgsweep gallery?"))?;
    match status.is_success() {
        true => Ok(answer),
        false => Err(answer["error"].as_str().map_or_else(|| format!("the gallery answered {status}"), String::from)),
    }
}

fn print_presets(key: &str, results: usize, presets: &[Preset]) {
    println!("{key}: {results} result{}", if results == 1 { "" } else { "s" });
    let rows: Vec<Vec<String>> = presets
        .iter()
        .map(|p| {
            let gain = p.median_gain_over_64.map(|g| format!("{g:.2}×")).unwrap_or_else(|| "–".into());
            vec![p.kernel.clone(), p.parameter.clone(), p.shape.clone(), format!("{} of {}", p.wins, p.results), gain]
        })
        .collect();
    let header = ["kernel", "parameter", "best shape", "won in", "gain over 64"].map(String::from);
    print_aligned(&header, &rows, &[0, 1]);
}

async fn choose_adapter(choice: Option<&str>) -> Result<wgpu::Adapter, String> {
    let Some(choice) = choice else {
        return gpu::default_adapter(&gpu::instance()).await.map_err(|e| e.to_string());
    };
    let adapters = adapters();
    if let Ok(index) = choice.parse::<usize>() {
        return adapters.into_iter().nth(index).ok_or_else(|| format!("no adapter {index}; see `wgsweep devices`"));
    }
    let wanted = choice.to_lowercase();
    adapters
        .into_iter()
        .find(|a| a.get_info().name.to_lowercase().contains(&wanted))
        .ok_or_else(|| format!("no adapter's name contains '{choice}'; see `wgsweep devices`"))
}

async fn run(args: RunArgs) -> Result<ExitCode, String> {
    let kernels = match &args.kernels {
        Some(selector) => kernels::select(selector)?,
        None => kernels::select(kernels::DEFAULT_SUITE)?,
    };
    let plan = args.plan.plan(kernels);
    let gpu = args.plan.open_gpu().await?;
    sweep(&gpu, &plan, args.json.as_deref(), args.label, args.lose_device_after).await
}

/// Reads the user's kernel, registers it and checks that it compiles, then runs or tunes it.
async fn user_kernel(args: KernelArgs) -> Result<ExitCode, String> {
    let read = |path: &std::path::Path| {
        std::fs::read_to_string(path).map_err(|e| format!("could not read {}: {e}", path.display()))
    };
    let source = read(&args.wgsl)?;
    let spec = args.spec.as_deref().map(read).transpose()?;
    let named = |problems: Vec<wgsweep::spec::Problem>| {
        let file = args.spec.as_ref().unwrap_or(&args.wgsl).display().to_string();
        let lines: Vec<String> = problems.iter().map(|p| format!("{file}: {p}")).collect();
        lines.join("\n")
    };
    let kernel = wgsweep::spec::UserKernel::read(&source, spec.as_deref()).map_err(named)?;
    if let Some(page) = &args.link {
        // The page's two fields: the specification, and the WGSL without a leading one.
        let leading = wgsweep::spec::split_leading_spec(&source);
        let body = leading.map_or(source.as_str(), |(_, rest)| rest).to_string();
        let spec = spec.as_deref().or(leading.map(|(text, _)| text)).unwrap_or_default().trim().to_string();
        let (spec, source) = (spec, body);
        println!("{}", wgsweep::share::kernel_link(page, &wgsweep::share::SharedKernel { source, spec })?);
        return Ok(ExitCode::SUCCESS);
    }
    let family = kernels::register(kernel)?;
    let gpu = args.plan.open_gpu().await?;
    let problems = kernels::user::compilation_problems(&gpu, family).await;
    if !problems.is_empty() {
        let lines: Vec<String> = problems.iter().map(|p| format!("{}: {p}", args.wgsl.display())).collect();
        return Err(lines.join("\n"));
    }
    let plan = args.plan.plan(family.kernels());
    match args.tune {
        true => tune_plan(&gpu, &plan, args.exhaustive, args.json.as_deref()).await,
        false => sweep(&gpu, &plan, args.json.as_deref(), args.label, None).await,
    }
}

/// Runs `plan`, prints its table and writes its result file where asked.
async fn sweep(
    gpu: &Gpu,
    plan: &Plan,
    json: Option<&std::path::Path>,
    label: String,
    lose_device_after: Option<u64>,
) -> Result<ExitCode, String> {
    let total = plan.count(&gpu.info.limits)? as u64;
    let expected_s = plan::expected_duration_s(total as usize, &gpu.info, None);
    eprintln!("{total} configurations on {}: {} expected", gpu.info.name(), plan::about(expected_s));
    let bar = ProgressBar::new(total).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} [{elapsed} elapsed, {eta} left]")
            .expect("a valid template"),
    );
    let mut result = runner::run(gpu, plan, native_environment(gpu), |event| {
        match event {
            Event::Preparing { family, size, unit } => bar.set_message(format!("preparing {family} ({size} {unit})")),
            Event::Measuring { configuration, .. } => bar.set_message(kernels::describe(configuration)),
            Event::Finished { .. } => {
                bar.inc(1);
                if lose_device_after == Some(bar.position()) {
                    gpu.device.destroy();
                }
            }
        }
        Flow::Continue
    })
    .await;
    bar.finish_and_clear();
    result.label = label;
    print_table(&result);
    if let Some(path) = json {
        std::fs::write(path, result.to_json()).map_err(|e| format!("could not write {}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
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

async fn tune(args: TuneArgs) -> Result<ExitCode, String> {
    let plan = args.plan.plan(kernels::select(&args.kernels)?);
    let gpu = args.plan.open_gpu().await?;
    tune_plan(&gpu, &plan, args.exhaustive, args.json.as_deref()).await
}

/// Tunes `plan`'s kernels, prints each tuning and writes them where asked.
async fn tune_plan(
    gpu: &Gpu,
    plan: &Plan,
    exhaustive: bool,
    json: Option<&std::path::Path>,
) -> Result<ExitCode, String> {
    plan.count(&gpu.info.limits)?;
    let options = TuneOptions { exhaustive: exhaustive.then(|| plan.measure.clone()), ..TuneOptions::default() };
    let bar = ProgressBar::new_spinner();
    let tunings = tune::tune(gpu, plan, &options, &native_environment(gpu), |event| {
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
        let json = serde_json::to_string_pretty(&tunings).expect("tunings serialize");
        std::fs::write(path, json).map_err(|e| format!("could not write {}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    let failed = tunings.iter().flat_map(|t| &t.trials).any(|r| r.error().is_some());
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn native_environment(gpu: &Gpu) -> Environment {
    Environment {
        runtime: "native".into(),
        platform: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        timestamps: gpu.timestamps,
        // Timestamps tick in the GPU's own period; Instant resolves well below a microsecond.
        timer_quantum_ns: if gpu.timestamps { gpu.queue.get_timestamp_period() as f64 } else { 1000.0 },
        cross_origin_isolated: None,
        long_tasks: None,
        reference_workers: None,
    }
}

fn print_table(result: &RunResult) {
    let rows: Vec<Vec<String>> = result
        .results
        .iter()
        .map(|r| {
            let (checks, shape, parameter) = (r.shader_checks.name().into(), r.workgroup_text(), r.parameter_text());
            let mut row = vec![r.label(), checks, shape, parameter];
            row.extend(r.figures());
            row.push(r.status());
            row
        })
        .collect();
    let header = [
        "kernel",
        "checks",
        "wg",
        "parameter",
        "median",
        "min",
        "GB/s",
        "GFLOP/s",
        "of peak",
        "CV",
        "samples",
        "status",
    ];
    print_aligned(&header.map(String::from), &rows, &[0, 1, 3, 11]);
    if let Some(line) = result.peaks.summary() {
        println!("peaks: {line}");
    }
    if let Some(pace) = &result.pace {
        println!("time: {}", pace.summary());
    }
    for note in &result.notes {
        println!("note: {note}");
    }
}

/// Prints columns as wide as their longest cell, so long parameters and figures stay aligned; the columns
/// in `left` are aligned left, the others (figures) right.
fn print_aligned(header: &[String], rows: &[Vec<String>], left: &[usize]) {
    let widths: Vec<usize> = (0..header.len())
        .map(|i| rows.iter().map(|row| row[i].chars().count()).chain([header[i].chars().count()]).max().unwrap_or(0))
        .collect();
    let line = |cells: &[String]| {
        let text: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, cell)| match i {
                i if left.contains(&i) => format!("{cell:<width$}", width = widths[i]),
                _ => format!("{cell:>width$}", width = widths[i]),
            })
            .collect();
        println!("{}", text.join("  ").trim_end());
    };
    line(header);
    for row in rows {
        line(row);
    }
}
