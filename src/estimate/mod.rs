//! How long a run should take, said before it starts: each configuration at the pace its family kept where
//! the same kind of engine drove the same kind of adapter, learned from the runs recorded under docs/results
//! (`learned.rs` beside this file, which `cargo xtask paces` writes with `learn` and a test holds to them).
//! A configuration's time is mostly the device's warm-up and samples, which the measurement sizes in time,
//! and its family's reference, pipeline and check, which the engine and its host set: so a device that never
//! ran takes the pace of others of its kind, scaled by how quick its host is against theirs (`probe`).

mod learned;
pub mod probe;

use std::collections::BTreeMap;

use crate::gpu::DeviceInfo;
use crate::plan::Planned;
use crate::result::{Environment, RunResult, browser, implementation};

/// The pace of one kind of engine on one kind of adapter, over the recorded runs of that kind.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassPace {
    /// The engine and the adapter's kind: "native gpu", "chromium cpu", "firefox gpu" (`class`).
    pub class: &'static str,
    /// Milliseconds a configuration took, over all of them (whole milliseconds: the page's download holds
    /// the table), on a host of the mean probe below.
    pub ms_per_configuration: u32,
    /// Milliseconds a configuration of each family took, by the family's name.
    pub families: &'static [(&'static str, u32)],
    /// The host probe's geometric mean over the runs that recorded one, ms (0 where none did; `probe`).
    pub host_probe_ms: f64,
    /// How a run's time follows its host's speed: a host whose probe takes r times the mean runs
    /// r^`host_exponent` times as long (0 where the recorded runs' probes do not tell).
    pub host_exponent: f64,
}

/// How many times the pace of a host of the `mean` probe a host whose probe took `probe_ms` runs at: 1 where
/// a probe is unknown. Bounded, so that a probe taken while the host was held up for a moment cannot make
/// an estimate absurd.
fn host_factor(exponent: f64, mean_ms: f64, probe_ms: Option<f64>) -> f64 {
    match probe_ms {
        Some(ms) if ms.is_finite() && ms > 0.0 && mean_ms > 0.0 => (ms / mean_ms).powf(exponent).clamp(0.5, 4.0),
        _ => 1.0,
    }
}

/// What `learn` makes: a `ClassPace` holding its own strings, with the runs it was learned from and their
/// configurations.
#[derive(Clone, Debug, PartialEq)]
pub struct Learned {
    pub class: String,
    pub runs: usize,
    pub configurations: usize,
    pub ms_per_configuration: u32,
    pub families: Vec<(String, u32)>,
    pub host_probe_ms: f64,
    pub host_exponent: f64,
}

/// The class of a run in the engine `user_agent` names ("native" for the CLI) on `device`: the engine's
/// family (Chromium for Chrome, Edge and Opera), then "gpu" or "cpu" for the adapter.
pub fn class(user_agent: Option<&str>, device: &DeviceInfo) -> String {
    let engine = match user_agent.map(|agent| browser(agent).map(|(name, _)| implementation(name))) {
        None => "native",
        Some(Some("wgpu")) => "firefox",
        Some(Some("WebKit")) => "safari",
        Some(_) => "chromium", // Dawn's, or a browser the user agent does not name
    };
    let adapter = if device.is_cpu_adapter() { "cpu" } else { "gpu" };
    format!("{engine} {adapter}")
}

/// The class of a recorded run.
pub fn class_of(result: &RunResult) -> String {
    let Environment { runtime, platform, .. } = &result.environment;
    class((runtime != "native").then_some(platform.as_str()), &result.device)
}

/// The paces of the runs that recorded every configuration's time and finished, by class; users' kernels
/// count towards their class's pace over all families, not as families of their own.
pub fn learn<'a>(runs: impl IntoIterator<Item = &'a RunResult>) -> Vec<Learned> {
    let timed = |r: &&RunResult| r.complete && !r.results.is_empty() && r.results.iter().all(|c| c.took_s.is_some());
    let mut classes: BTreeMap<String, Vec<&RunResult>> = BTreeMap::new();
    for run in runs.into_iter().filter(timed) {
        classes.entry(class_of(run)).or_default().push(run);
    }
    classes.into_iter().map(|(class, runs)| learn_class(class, &runs)).collect()
}

/// One class's pace: first each family's as the runs took them, then the host's exponent that explains how
/// the runs that probed their hosts strayed from it, then each family's again with every run's time brought
/// to a host of the mean probe. Where some runs probed their hosts only they count: a run that did not
/// cannot be brought to the mean host (the runs recorded before the probe were on idle hosts, the mean of
/// those recorded with it on busy ones too).
fn learn_class(class: String, runs: &[&RunResult]) -> Learned {
    let probed: Vec<&RunResult> = runs.iter().copied().filter(|r| r.environment.host_probe_ms.is_some()).collect();
    let runs = if probed.is_empty() { runs } else { &probed };
    let logs: Vec<f64> = runs.iter().filter_map(|r| r.environment.host_probe_ms).map(f64::ln).collect();
    let mean_ms = if logs.is_empty() { 0.0 } else { (logs.iter().sum::<f64>() / logs.len() as f64).exp() };
    let as_taken = Paces::of(runs, |_| 1.0);
    let exponent = host_exponent(runs, &as_taken, mean_ms);
    let paces = Paces::of(runs, |run| host_factor(exponent, mean_ms, run.environment.host_probe_ms));
    let ms = |seconds: f64| (1000.0 * seconds).round() as u32;
    Learned {
        class,
        runs: runs.len(),
        configurations: paces.configurations,
        ms_per_configuration: ms(paces.overall_s),
        families: paces.families.iter().map(|(name, &s)| (name.clone(), ms(s))).collect(),
        host_probe_ms: mean_ms,
        host_exponent: exponent,
    }
}

/// Seconds a configuration took in some runs, each run's divided by its factor: over all, and by family.
struct Paces {
    configurations: usize,
    overall_s: f64,
    families: BTreeMap<String, f64>,
}

impl Paces {
    fn of(runs: &[&RunResult], factor: impl Fn(&RunResult) -> f64) -> Self {
        let (mut configurations, mut seconds) = (0, 0.0);
        let mut families: BTreeMap<String, (usize, f64)> = BTreeMap::new();
        for run in runs {
            let factor = factor(run);
            for record in &run.results {
                let took = record.took_s.unwrap_or_default() / factor;
                configurations += 1;
                seconds += took;
                if crate::kernels::family(&record.family).is_some() {
                    let family = families.entry(record.family.clone()).or_default();
                    *family = (family.0 + 1, family.1 + took);
                }
            }
        }
        let families = families.into_iter().map(|(name, (n, s))| (name, s / n as f64)).collect();
        Paces { configurations, overall_s: seconds / configurations.max(1) as f64, families }
    }

    /// Seconds a configuration of `family` takes: its family's, or over all for one that has none.
    fn of_family(&self, family: &str) -> f64 {
        self.families.get(family).copied().unwrap_or(self.overall_s)
    }
}

/// How a run's time follows its host: the slope, through the mean host, of the logarithm of how many times
/// its estimate at `paces` each run that probed its host took against that of how many times the mean its
/// probe was (least squares), between 0 and 1; 0 where the probes differ by less than 5 % on average (noise
/// then). On one H200 host, busier and busier, the page's time followed the probe's as a power of 0.3 at
/// both ends (docs/results/estimates.md): a power, not a line.
fn host_exponent(runs: &[&RunResult], paces: &Paces, mean_ms: f64) -> f64 {
    let (mut n, mut xx, mut xy) = (0.0, 0.0, 0.0);
    for run in runs {
        let Some(probe_ms) = run.environment.host_probe_ms.filter(|_| mean_ms > 0.0) else { continue };
        let expected: f64 = run.results.iter().map(|r| paces.of_family(&r.family)).sum();
        let took: f64 = run.results.iter().filter_map(|r| r.took_s).sum();
        let (x, y) = ((probe_ms / mean_ms).ln(), (took / expected).ln());
        n += 1.0;
        xx += x * x;
        xy += x * y;
    }
    if n == 0.0 || xx / n < 1.05f64.ln().powi(2) { 0.0 } else { (xy / xx).clamp(0.0, 1.0) }
}

/// `learned` as the Rust source of `learned.rs`.
pub fn learned_source(learned: &[Learned]) -> String {
    let paces: String = learned
        .iter()
        .map(|p| {
            let families: String =
                p.families.iter().map(|(name, ms)| format!("            ({name:?}, {ms}),\n")).collect();
            let runs = if p.runs == 1 { "run" } else { "runs" };
            format!(
                "    // {} recorded {runs}, {} configurations.\n    ClassPace {{\n        class: {:?},\n        \
                 ms_per_configuration: {},\n        families: &[\n{families}        ],\n        \
                 host_probe_ms: {:.3},\n        host_exponent: {:.3},\n    }},\n",
                p.runs, p.configurations, p.class, p.ms_per_configuration, p.host_probe_ms, p.host_exponent
            )
        })
        .collect();
    format!(
        "//! Made by `cargo xtask paces` from the runs recorded under docs/results (`estimate::learn`); a test \
         holds it to them.\n\nuse super::ClassPace;\n\npub const PACES: &[ClassPace] = &[\n{paces}];\n"
    )
}

/// The recorded paces, as `learned.rs` holds them.
pub fn recorded() -> &'static [ClassPace] {
    learned::PACES
}

/// The pace for `class`: its own where runs of it were recorded, else Chromium's on the same kind of adapter
/// (the nearest there is to another browser's), else native's on it, else any recorded.
fn pace_for(class: &str) -> Option<&'static ClassPace> {
    let adapter = class.rsplit(' ').next().unwrap_or("gpu");
    let of = |wanted: &str| recorded().iter().find(|p| p.class == wanted);
    of(class)
        .or_else(|| of(&format!("chromium {adapter}")))
        .or_else(|| of(&format!("native {adapter}")))
        .or_else(|| recorded().first())
}

/// Seconds a run should take in `class` (`class`) whose configurations are of these `families`, one name a
/// configuration: each at its family's recorded pace, or its class's over all families for a family that
/// has none (a user's kernel), on a host whose probe took `host_probe_ms` (`probe::host_ms`). An earlier run
/// on this very device (seconds a configuration) sets the pace instead.
pub fn expected_duration_s<'a>(
    families: impl IntoIterator<Item = &'a str>,
    class: &str,
    earlier_s_per_configuration: Option<f64>,
    host_probe_ms: Option<f64>,
) -> f64 {
    let earlier = earlier_s_per_configuration.filter(|s| s.is_finite() && *s > 0.0);
    let pace = pace_for(class);
    // A probe in the page times WebAssembly, natively machine code: a pace of the other kind cannot read it.
    let native = |class: &str| class.starts_with("native");
    let host = pace
        .filter(|p| native(p.class) == native(class))
        .map_or(1.0, |p| host_factor(p.host_exponent, p.host_probe_ms, host_probe_ms));
    let of_family = |name: &str| match (earlier, pace) {
        (Some(s), _) => s,
        (None, Some(pace)) => {
            let found = pace.families.iter().find(|(family, _)| *family == name);
            host * f64::from(found.map_or(pace.ms_per_configuration, |&(_, ms)| ms)) / 1000.0
        }
        (None, None) => 0.0,
    };
    families.into_iter().map(of_family).sum()
}

/// `expected_duration_s` of planned configurations.
pub fn of_planned(
    planned: &[Planned],
    class: &str,
    earlier_s_per_configuration: Option<f64>,
    host_probe_ms: Option<f64>,
) -> f64 {
    expected_duration_s(planned.iter().map(|p| p.family.name()), class, earlier_s_per_configuration, host_probe_ms)
}

/// A duration as a person reads it in an estimate: "about 40 s", "about 3 min 20 s".
pub fn about(seconds: f64) -> String {
    let seconds = seconds.max(0.0).ceil() as u64;
    match (seconds / 60, seconds % 60) {
        (0, s) => format!("about {s} s"),
        (m, 0) => format!("about {m} min"),
        (m, s) => format!("about {m} min {s} s"),
    }
}
