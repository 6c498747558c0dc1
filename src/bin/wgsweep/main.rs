//! The native shell: the same runner as the page, on wgpu's Vulkan, Metal or DX12 backend. One module a
//! subcommand; what several share (the plan's options, tables, the adapter, results read from files or
//! links) sits here or beside them.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

mod compare;
mod describe;
mod devices;
mod kernel;
mod plan_args;
mod presets;
mod run;
mod share;
mod source;
mod table;
mod tune;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use wgsweep::RunResult;
use wgsweep::gpu::{self, Gpu};
use wgsweep::result::Environment;

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
    Run(run::RunArgs),
    /// Explain what a kernel family measures and what to expect.
    Describe(describe::DescribeArgs),
    /// Print a link that opens a result file (from `run --json` or the page) in the page.
    Share(share::ShareArgs),
    /// Find the best workgroup shape for kernels without measuring every shape.
    Tune(tune::TuneArgs),
    /// Run your own kernel, WGSL and its specification (docs/your-kernel.md), as the built-in families run:
    /// every combination of its tunables and workgroup shapes, validated and timed; or auto-tuned.
    Kernel(kernel::KernelArgs),
    /// Print a built-in kernel as your kernel: its WGSL, opened by a specification that reproduces it, to
    /// save, change and run with `wgsweep kernel`.
    Source(source::SourceArgs),
    /// Put results side by side: each one's figure for every configuration and its ratio to the first.
    Compare(compare::CompareArgs),
    /// The workgroup shape each kernel's results agree on for a device: learned by a results gallery
    /// (`--gallery`) from everyone's published results, or from result files.
    Presets(presets::PresetsArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let outcome = match Cli::parse().command {
        Command::Devices => devices::devices(),
        Command::Run(args) => pollster::block_on(run::run(args)),
        Command::Describe(args) => describe::describe(&args),
        Command::Share(args) => share::share(&args),
        Command::Compare(args) => compare::compare(&args),
        Command::Tune(args) => pollster::block_on(tune::tune(args)),
        Command::Kernel(args) => pollster::block_on(kernel::user_kernel(args)),
        Command::Source(args) => source::source(&args),
        Command::Presets(args) => pollster::block_on(presets::presets(args)),
    };
    match outcome {
        Ok(code) => code,
        Err(message) => {
            eprintln!("wgsweep: {}", table::shown(&message));
            ExitCode::from(2)
        }
    }
}

fn adapters() -> Vec<wgpu::Adapter> {
    pollster::block_on(gpu::instance().enumerate_adapters(wgpu::Backends::all()))
}

/// The adapter `--adapter` names (an index in `wgsweep devices` or part of a name), else the
/// high-performance one.
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
        host_probe_ms: None,
    }
}

/// A result file's results, or a share link's (one, or all of a comparison's): the link given, or kept in a
/// file, or either on standard input (`-`).
fn open_results(source: &str) -> Result<Vec<RunResult>, String> {
    if source.contains('#') && source != "-" {
        return wgsweep::share::blocking::decode_any(source).map_err(|e| e.to_string());
    }
    let (text, name) = match source {
        "-" => {
            // Read up to one byte past the bound: more is refused, not held.
            let most = wgsweep::result::MAX_FILE_BYTES;
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::Read::take(std::io::stdin(), most as u64 + 1), &mut text)
                .map_err(|e| format!("could not read standard input: {e}"))?;
            if text.len() > most {
                return Err(format!("standard input holds more than the {most} bytes a result or a link may"));
            }
            (text, "standard input")
        }
        path => (read_text(std::path::Path::new(path))?, path),
    };
    // A link kept in a file: one at the bound is longer than a command line may be.
    let trimmed = text.trim();
    if !trimmed.starts_with('{') && trimmed.contains('#') {
        return wgsweep::share::blocking::decode_any(trimmed).map_err(|e| format!("{name}: {e}"));
    }
    wgsweep::analysis::read_json(&text).map(|r| vec![r]).map_err(|e| format!("{name}: {e}"))
}

/// A result file (from `run --json` or the page).
fn read_result(path: &std::path::Path) -> Result<RunResult, String> {
    wgsweep::analysis::read_json(&read_text(path)?).map_err(|e| format!("{}: {e}", path.display()))
}

fn read_text(path: &std::path::Path) -> Result<String, String> {
    // Measured before it is read: a file of gigabytes is refused, not loaded.
    let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    let most = wgsweep::result::MAX_FILE_BYTES as u64;
    if bytes > most {
        return Err(format!(
            "{} takes {bytes} bytes, {} more than the {most} a result file may",
            path.display(),
            bytes - most
        ));
    }
    std::fs::read_to_string(path).map_err(|e| format!("could not read {}: {e}", path.display()))
}

/// Writes `text` to `path` and says so.
fn write_file(path: &std::path::Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("could not write {}: {e}", path.display()))?;
    eprintln!("wrote {}", path.display());
    Ok(())
}
