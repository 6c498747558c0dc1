//! How long a run should take, said before it starts: each configuration at the pace its family kept where
//! the same kind of engine drove the same kind of adapter, learned from the runs recorded under docs/results
//! (`learned.rs` beside this file, which `cargo xtask paces` writes with `learn` and a test holds to them).
//! A configuration's time is mostly the device's warm-up and samples, which the measurement sizes in time,
//! and its family's reference, pipeline and check, which the engine sets: so a device that never ran takes
//! the pace of others of its kind.

mod learned;

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
    /// the table).
    pub ms_per_configuration: u32,
    /// Milliseconds a configuration of each family took, by the family's name.
    pub families: &'static [(&'static str, u32)],
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
    #[derive(Default)]
    struct Sums {
        runs: usize,
        configurations: usize,
        seconds: f64,
        families: BTreeMap<String, (usize, f64)>,
    }
    let mut classes: BTreeMap<String, Sums> = BTreeMap::new();
    let timed = |r: &&RunResult| r.complete && !r.results.is_empty() && r.results.iter().all(|c| c.took_s.is_some());
    for run in runs.into_iter().filter(timed) {
        let sums = classes.entry(class_of(run)).or_default();
        sums.runs += 1;
        for record in &run.results {
            let took = record.took_s.unwrap_or_default();
            sums.configurations += 1;
            sums.seconds += took;
            if crate::kernels::family(&record.family).is_some() {
                let family = sums.families.entry(record.family.clone()).or_default();
                *family = (family.0 + 1, family.1 + took);
            }
        }
    }
    let ms = |seconds: f64, n: usize| (1000.0 * seconds / n as f64).round() as u32;
    classes
        .into_iter()
        .map(|(class, sums)| Learned {
            class,
            runs: sums.runs,
            configurations: sums.configurations,
            ms_per_configuration: ms(sums.seconds, sums.configurations),
            families: sums.families.into_iter().map(|(name, (n, s))| (name, ms(s, n))).collect(),
        })
        .collect()
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
                 ms_per_configuration: {},\n        families: &[\n{families}        ],\n    }},\n",
                p.runs, p.configurations, p.class, p.ms_per_configuration
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
/// has none (a user's kernel). An earlier run on this very device (seconds a configuration) sets the pace
/// instead.
pub fn expected_duration_s<'a>(
    families: impl IntoIterator<Item = &'a str>,
    class: &str,
    earlier_s_per_configuration: Option<f64>,
) -> f64 {
    let earlier = earlier_s_per_configuration.filter(|s| s.is_finite() && *s > 0.0);
    let pace = pace_for(class);
    let of_family = |name: &str| match (earlier, pace) {
        (Some(s), _) => s,
        (None, Some(pace)) => {
            let found = pace.families.iter().find(|(family, _)| *family == name);
            f64::from(found.map_or(pace.ms_per_configuration, |&(_, ms)| ms)) / 1000.0
        }
        (None, None) => 0.0,
    };
    families.into_iter().map(of_family).sum()
}

/// `expected_duration_s` of planned configurations.
pub fn of_planned(planned: &[Planned], class: &str, earlier_s_per_configuration: Option<f64>) -> f64 {
    expected_duration_s(planned.iter().map(|p| p.family.name()), class, earlier_s_per_configuration)
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
