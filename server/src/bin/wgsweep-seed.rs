//! `wgsweep-seed`: fills a gallery's database with realistic results, to measure the gallery at the size
//! it should hold (docs/results/gallery.md). Each result is a recorded one (the default suite on an H100
//! natively or in Chromium, on lavapipe, on SwiftShader) varied as real results vary: another device
//! (one of a list of common GPUs, each with its own speed), another browser version, a label of its own,
//! and every figure moved by a few percent. Results go through what a publish does before storing
//! (`api::prepare`: checked, hashed, deflated, made compact), on every core, and are stored in batches;
//! each class's figures are made once at the end.
//!
//!   cargo run --release -p wgsweep-server --bin wgsweep-seed -- --database URL --results 1000000

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::mpsc;

use wgsweep::gallery;
use wgsweep::result::{RunResult, gb_per_s, rfc3339};
use wgsweep_server::api;
use wgsweep_server::store::{Store, Stored};

/// Fills a wgsweep gallery's database with realistic results.
#[derive(argh::FromArgs)]
struct Args {
    /// the database: an SQLite file (created where missing) or a PostgreSQL URL
    #[argh(option)]
    database: String,
    /// how many results to add
    #[argh(option)]
    results: usize,
    /// the recorded results varied (default: the workspace's docs/results/pace)
    #[argh(option, default = "PathBuf::from(\"docs/results/pace\")")]
    recorded: PathBuf,
    /// results stored in one transaction (default 500)
    #[argh(option, default = "NonZeroUsize::new(500).expect(\"not zero\")")]
    batch: NonZeroUsize,
}

/// Devices the seeded results claim, with a speed relative to the recorded device of their kind.
const DEVICES: &[(&str, &str, f64)] = &[
    ("NVIDIA GeForce RTX 4090", "nvidia", 0.35),
    ("NVIDIA GeForce RTX 4070", "nvidia", 0.18),
    ("NVIDIA GeForce RTX 3060", "nvidia", 0.12),
    ("NVIDIA GeForce GTX 1650", "nvidia", 0.05),
    ("NVIDIA RTX A6000", "nvidia", 0.25),
    ("NVIDIA A100-SXM4-80GB", "nvidia", 0.65),
    ("AMD Radeon RX 7900 XTX", "amd", 0.30),
    ("AMD Radeon RX 6600", "amd", 0.08),
    ("AMD Radeon 780M", "amd", 0.03),
    ("Intel(R) Arc(TM) A770 Graphics", "intel", 0.17),
    ("Intel(R) UHD Graphics 770", "intel", 0.02),
    ("Intel(R) Iris(R) Xe Graphics", "intel", 0.025),
    ("Apple M3 Max", "apple", 0.13),
    ("Apple M2", "apple", 0.03),
    ("Apple M1 Pro", "apple", 0.06),
    ("Adreno (TM) 740", "qualcomm", 0.02),
    ("Mali-G715", "arm", 0.015),
];

fn main() -> std::process::ExitCode {
    match seed(argh::from_env()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("wgsweep-seed: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The recorded default suites the seeded results are made from, without raw samples.
fn templates(dir: &std::path::Path) -> Result<Vec<RunResult>, String> {
    let names = ["h100-native-suite-5.json", "h100-chromium-suite-5.json", "lavapipe-native-suite-2.json"];
    let names = names.iter().chain(["swiftshader-chromium-suite-1.json"].iter());
    names
        .map(|name| {
            let path = dir.join(name);
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let result = wgsweep::analysis::read_json(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(gallery::for_publishing(&result))
        })
        .collect()
}

/// The `n`th seeded result: a template on a device of the list (or the template's own), in a browser
/// version of its own, every time moved by up to ±3 %.
fn varied(templates: &[RunResult], n: usize) -> RunResult {
    let mut random = Random((n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut result = templates[n % templates.len()].clone();
    let own_device = random.below(DEVICES.len() + 1);
    let speed = match DEVICES.get(own_device) {
        Some(&(name, vendor, speed)) if !result.device.is_cpu_adapter() => {
            result.device.identity.description = name.to_string();
            result.device.identity.vendor = vendor.to_string();
            speed
        }
        _ => 1.0,
    };
    if result.environment.runtime != "native" {
        let version = 120 + random.below(37);
        result.environment.platform = result.environment.platform.replace("Chrome/156", &format!("Chrome/{version}"));
    }
    result.label = format!("seeded {n}");
    result.created = rfc3339(1_760_000_000_000 + n as u64 * 60_000);
    for r in &mut result.results {
        let factor = (1.0 + (random.unit() - 0.5) * 0.06) / speed;
        for time in [&mut r.median_ns, &mut r.min_ns, &mut r.p95_ns].into_iter().flatten() {
            *time *= factor;
        }
        r.gbps = r.median_ns.and_then(|ns| gb_per_s(r.bytes_per_dispatch, ns));
    }
    wgsweep::analysis::derive(&mut result);
    result
}

/// SplitMix64: enough randomness for varied figures, the same for the same `n`.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn seed(args: Args) -> Result<(), String> {
    let templates = templates(&args.recorded)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    let store = runtime.block_on(Store::open(&args.database))?;
    let started = std::time::Instant::now();
    let workers = std::thread::available_parallelism().map_or(2, NonZeroUsize::get);
    let (sender, receiver) = mpsc::sync_channel::<Stored>(4 * args.batch.get());
    let total = args.results;
    std::thread::scope(|scope| {
        // Every core prepares results as a publish does; this thread stores them in batches meanwhile.
        for worker in 0..workers {
            let (sender, templates) = (sender.clone(), &templates);
            scope.spawn(move || {
                for n in (worker..total).step_by(workers) {
                    let body = varied(templates, n).to_json();
                    let published = rfc3339(1_770_000_000_000 + n as u64);
                    let (stored, _token) = api::prepare(body.as_bytes(), published)
                        .unwrap_or_else(|refusal| panic!("seeded result {n} was refused: {}", refusal.message()));
                    if sender.send(stored).is_err() {
                        return; // the storing side stopped
                    }
                }
            });
        }
        drop(sender);
        // Dropped with this closure, so that an error below stops the workers rather than leaving them waiting.
        let receiver = receiver;
        let mut stored = 0;
        let mut batch = Vec::with_capacity(args.batch.get());
        for result in receiver.iter() {
            batch.push(result);
            if batch.len() == args.batch.get() {
                runtime.block_on(store.insert_batch(&batch)).map_err(|e| format!("storing a batch: {e}"))?;
                stored += batch.len();
                batch.clear();
                eprintln!("{stored} of {total} results stored ({:.0} s)", started.elapsed().as_secs_f64());
            }
        }
        runtime.block_on(store.insert_batch(&batch)).map_err(|e| format!("storing a batch: {e}"))?;
        Ok::<(), String>(())
    })?;
    eprintln!("making each class's figures");
    let classes = runtime.block_on(store.refresh_every_class()).map_err(|e| e.to_string())?;
    eprintln!("{total} results in {classes} device classes, in {:.0} s", started.elapsed().as_secs_f64());
    Ok(())
}
