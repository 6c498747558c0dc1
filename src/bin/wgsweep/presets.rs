//! `wgsweep presets`: the workgroup shape each kernel's results agree on, from a results gallery or from
//! result files.

use std::process::ExitCode;

use wgsweep::RunResult;
use wgsweep::gallery::{self, DeviceClass, Preset};
use wgsweep::gpu::Gpu;

use crate::table::{Table, left, right, say};

#[derive(clap::Args)]
pub struct PresetsArgs {
    /// Result files or share links to learn from (each device among them on its own), instead of a gallery;
    /// a file may hold a link, and `-` reads either from standard input.
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

pub async fn presets(args: PresetsArgs) -> Result<ExitCode, String> {
    match (&args.gallery, &args.kernel) {
        (Some(gallery), Some(kernel)) => kernel_presets(gallery, kernel),
        (Some(gallery), None) => device_presets(gallery, &args).await,
        (None, _) => presets_of_files(&args),
    }
}

/// One kernel's preset on every device class the gallery knows.
fn kernel_presets(gallery: &str, kernel: &str) -> Result<ExitCode, String> {
    let answer = ask_gallery(gallery, "api/kernel/presets", &[("kernel", kernel)])?;
    let classes = answer["classes"].as_array().cloned().unwrap_or_default();
    say(&format!("{kernel}: {} device class{}", classes.len(), if classes.len() == 1 { "" } else { "es" }));
    let mut table = Table::new(vec![
        left("device class"),
        left("at"),
        left("best configuration"),
        right("won in"),
        right("gain over 64"),
    ]);
    for class in &classes {
        let Ok(preset) = serde_json::from_value::<Preset>(class["preset"].clone()) else { continue };
        let key = class["key"].as_str().unwrap_or_default().to_string();
        table.row(vec![key, preset.parameter.clone(), preset.shape.clone(), won_in(&preset), gain(&preset)]);
    }
    table.print();
    Ok(ExitCode::SUCCESS)
}

/// Every kernel's preset for one device class, as the gallery learned them.
async fn device_presets(gallery: &str, args: &PresetsArgs) -> Result<ExitCode, String> {
    let key = match &args.device {
        Some(key) => key.clone(),
        None => {
            let adapter = crate::choose_adapter(args.adapter.as_deref()).await?;
            let gpu = Gpu::open(&adapter, None).await.map_err(|e| e.to_string())?;
            DeviceClass::new(&gpu.info, &crate::native_environment(&gpu)).key()
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
    Ok(ExitCode::SUCCESS)
}

/// Each device class among the given results with the presets its results agree on.
fn presets_of_files(args: &PresetsArgs) -> Result<ExitCode, String> {
    let mut classes: Vec<(String, Vec<RunResult>)> = Vec::new();
    for source in &args.results {
        for result in crate::open_results(source)? {
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
    say(&format!("{key}: {results} result{}", if results == 1 { "" } else { "s" }));
    let mut table = Table::new(vec![
        left("kernel"),
        left("parameter"),
        right("best shape"),
        right("won in"),
        right("gain over 64"),
    ]);
    for p in presets {
        table.row(vec![p.kernel.clone(), p.parameter.clone(), p.shape.clone(), won_in(p), gain(p)]);
    }
    table.print();
}

/// "3 of 4": in how many of the results the preset's shape was the best.
fn won_in(preset: &Preset) -> String {
    format!("{} of {}", preset.wins, preset.results)
}

fn gain(preset: &Preset) -> String {
    preset.median_gain_over_64.map(|g| format!("{g:.2}×")).unwrap_or_else(|| "–".into())
}
