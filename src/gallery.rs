//! What the results gallery (the `server/` crate) and its readers (the page, the CLI) agree on: the device
//! class a result belongs to, what of a result is published, and what a device class's results say
//! together: each configuration's median with its spread, and the workgroup shapes they agree on (presets).
//! Pure, so it is tested natively.

use std::borrow::Borrow;
use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::gpu::DeviceInfo;
use crate::kernel::Parameter;
use crate::result::{ConfigResult, Environment, Outcome, ParameterValue, RunResult, shape_text};
use crate::spec::UserKernel;
use crate::{analysis, kernels};

/// Results of one kind of device, as people compare them: the same adapter through the same backend, in the
/// same runtime (natively, or in one browser).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DeviceClass {
    /// The adapter's one-line name ("NVIDIA H100 80GB HBM3").
    pub adapter: String,
    pub vendor: String,
    /// wgpu's backend ("vulkan", "webgpu").
    pub backend: String,
    /// "native", or the browser ("Chrome"), whatever its version.
    pub runtime: String,
}

impl DeviceClass {
    pub fn of(result: &RunResult) -> Self {
        Self::new(&result.device, &result.environment)
    }

    /// The class of a device before it has run anything.
    pub fn new(device: &DeviceInfo, environment: &Environment) -> Self {
        let runtime = match environment.runtime.as_str() {
            "native" => "native".to_string(),
            _ => crate::result::browser(&environment.platform)
                .map_or_else(|| "a browser".to_string(), |(name, _)| name.to_string()),
        };
        // An adapter whose name the browser withholds is known by what it exposes, not by what its person
        // calls it: a class holds one kind of GPU whatever anyone types.
        DeviceClass {
            adapter: device.exposed_name(),
            vendor: device.identity.vendor.clone(),
            backend: device.backend.clone(),
            runtime,
        }
    }

    /// The class in one line, also its key: "NVIDIA H100 80GB HBM3 · vulkan · native".
    pub fn key(&self) -> String {
        format!("{} · {} · {}", self.adapter, self.backend, self.runtime)
    }
}

/// What a run publishes: the result without its raw samples (each configuration keeps its statistics and
/// how many samples there were), as a share link keeps it.
pub fn for_publishing(result: &RunResult) -> RunResult {
    let mut published = result.clone();
    for r in &mut published.results {
        r.summarized_samples = r.sample_count() as u32;
        r.samples_ns = Vec::new();
        r.wall_samples_ns = Vec::new();
    }
    published
}

/// Refuses a result whose rows are not what they claim to be, so that a kernel's presets come from its own
/// results alone: a row of a built-in family must be one of its kernels, without a user's kernel's sizes and
/// tunables for its parameter (filed under `triad/scalar`, they would become triad's preset), and a row of any
/// other family a user's kernel the result carries (`RunResult::user_kernels`), whose digest is the variant
/// the row names, with one of its combinations. Says which row, and why.
pub fn check_kernels(result: &RunResult) -> Result<(), String> {
    let mut carried: Vec<(UserKernel, HashSet<String>)> = Vec::new();
    for (i, written) in result.user_kernels.iter().enumerate() {
        let kernel = UserKernel::read(&written.source, Some(&written.spec)).map_err(|problems| {
            let first = problems.first().map_or(String::new(), |p| format!(": {}: {}", p.place, p.message));
            format!("its user's kernel {} does not read{first}", i + 1)
        })?;
        let labels = kernels::user::combination_labels(&kernel).into_iter().collect();
        carried.push((kernel, labels));
    }
    // Every built-in kernel, found once rather than row by row.
    let built_in: HashSet<(&str, &str, &str)> =
        kernels::all().iter().map(|k| (k.id.family, k.id.kernel, k.id.variant)).collect();
    let mut used = vec![false; carried.len()];
    for (i, r) in result.results.iter().enumerate() {
        let row = |why: String| format!("configuration {} ({}/{}): {why}", i + 1, r.family, r.label());
        if kernels::FAMILIES.iter().any(|f| f.name() == r.family) {
            built_in_row(&built_in, r).map_err(row)?;
            continue;
        }
        let Some(at) = carried.iter().position(|(kernel, _)| names(kernel, r)) else {
            return Err(row(format!(
                "no kernel the result carries is `{}` of digest {}…: a user's kernel's result carries its WGSL and \
                 specification",
                r.family, r.variant
            )));
        };
        used[at] = true;
        let labels = &carried[at].1;
        match &r.parameter {
            Some(p) if p.name == Parameter::TUNABLES && p.label.as_ref().is_some_and(|l| labels.contains(l)) => {}
            _ => return Err(row("its size and tunables are not one of its kernel's combinations".into())),
        }
    }
    match used.iter().position(|used| !used) {
        Some(at) => Err(format!("its user's kernel {} is not what any configuration ran", at + 1)),
        None => Ok(()),
    }
}

/// Whether `r` is a row of the user's kernel `kernel`: its name, entry points and digest.
fn names(kernel: &UserKernel, r: &ConfigResult) -> bool {
    r.family == kernel.spec.name && kernels::user::names_in_results(kernel) == [r.kernel.as_str(), r.variant.as_str()]
}

/// Whether `r`, of a built-in family, is one of its kernels (`built_in`), without a user's kernel's sizes and
/// tunables for its parameter (a family's parameters have changed over versions: older results name others,
/// which stay welcome).
fn built_in_row(built_in: &HashSet<(&str, &str, &str)>, r: &ConfigResult) -> Result<(), String> {
    if !built_in.contains(&(r.family.as_str(), r.kernel.as_str(), r.variant.as_str())) {
        return Err(format!("`{}` has no kernel `{}`", r.family, r.label()));
    }
    let tunables = |p: &ParameterValue| {
        p.name == Parameter::TUNABLES || p.label.as_ref().is_some_and(|l| l.contains(Parameter::TUNABLES_SEPARATOR))
    };
    match r.parameter.as_ref().is_some_and(tunables) {
        true => Err(format!("its parameter is a user's kernel's sizes and tunables, not `{}`'s", r.label())),
        false => Ok(()),
    }
}

/// A device class's results as one: each configuration that any of them measured validly, at the median of
/// their medians; its min and p95 times are the fastest and the slowest result's medians (the spread a
/// comparison shows), its CV their spread. The device and environment are the first result's; the label
/// names the class and says how many results it stands for.
pub fn median_result<R: Borrow<RunResult>>(results: &[R]) -> Option<RunResult> {
    let first = results.first()?.borrow();
    let mut configurations: Vec<(ConfigResult, Vec<f64>)> = Vec::new();
    // Where each configuration is in `configurations`: a class's window holds some 200 × 1000 rows.
    let mut places: HashMap<_, usize> = HashMap::new();
    for result in results {
        for (i, r) in result.borrow().results.iter().enumerate() {
            let Some(median) = r.median_ns.filter(|_| r.is_good()) else { continue };
            let key = r.configuration_key();
            // A class's results mostly ran one suite: a configuration is usually where it was in the others.
            let at = match configurations.get(i) {
                Some((template, _)) if template.configuration_key() == key => Some(i),
                _ => places.get(&key).copied(),
            };
            match at {
                Some(at) => configurations[at].1.push(median),
                None => {
                    places.insert(key, configurations.len());
                    configurations.push((r.clone(), vec![median]));
                }
            }
        }
    }
    let rows = configurations
        .into_iter()
        .filter_map(|(template, medians)| {
            let summary = crate::stats::summarize(&medians)?;
            let slowest = medians.iter().copied().fold(f64::MIN, f64::max);
            Some(ConfigResult {
                median_ns: Some(summary.median),
                min_ns: Some(summary.min),
                p95_ns: Some(slowest),
                cv: Some(summary.cv),
                gbps: crate::result::gb_per_s(template.bytes_per_dispatch, summary.median),
                // The spread between the results, which a run compared with the median is judged against.
                median_interval_ns: (medians.len() >= 2).then_some([summary.min, slowest]),
                noisy: false,
                summarized_samples: medians.len() as u32,
                samples_ns: Vec::new(),
                wall_samples_ns: Vec::new(),
                outcome: Outcome::Valid { suspect: None },
                ..template
            })
        })
        .collect();
    let mut median = RunResult {
        label: format!(
            "{}: median of {} result{}",
            DeviceClass::of(first).key(),
            results.len(),
            if results.len() == 1 { "" } else { "s" }
        ),
        results: rows,
        notes: vec![format!(
            "each configuration at the median of {} results' medians; min and p95 are the fastest and the slowest \
             result's",
            results.len()
        )],
        pace: None,
        user_kernels: Vec::new(), // figures of a class, not a run of any kernel
        ..first.clone()
    };
    // Not one run's: no run's long tasks, nor its host's probe.
    median.environment.long_tasks = None;
    median.environment.host_probe_ms = None;
    analysis::derive(&mut median);
    Some(median)
}

/// The longest label the gallery keeps, in characters: a name in a list, not a note.
pub const MAX_LABEL_CHARS: usize = 200;

/// How many of a device class's latest results its median, presets and headline figures stand for.
pub const CLASS_WINDOW: usize = 200;

/// A result as a class's figures use it: the result, and its best shapes worked out once (a server keeps
/// members between publishes, so that a publish works out only its own).
#[derive(Clone, Debug)]
pub struct Member {
    pub result: RunResult,
    pub best: Vec<analysis::BestShape>,
}

impl Member {
    pub fn new(result: RunResult) -> Self {
        let best = analysis::best_shapes(&result.results);
        Member { result, best }
    }
}

/// What the gallery answers for a device class, kept with the class and made afresh from its latest
/// results (at most `CLASS_WINDOW`) whenever one is published or deleted, so that no request computes it.
#[derive(Clone, Debug)]
pub struct ClassFigures {
    /// How many results the figures stand for.
    pub results: usize,
    /// The median of those results' best copy and FMA figures, for the device list.
    pub copy_gbps: Option<f64>,
    pub fma_gflops: Option<f64>,
    pub median: RunResult,
    pub presets: Vec<Preset>,
}

impl ClassFigures {
    /// The figures of a class's latest results (the newest first), or `None` where there are none.
    pub fn of<M: Borrow<Member>>(latest: &[M]) -> Option<Self> {
        let latest = &latest[..latest.len().min(CLASS_WINDOW)];
        let results: Vec<&RunResult> = latest.iter().map(|m| &m.borrow().result).collect();
        let median_of = |figure: fn(&RunResult) -> Option<f64>| {
            let figures: Vec<f64> = results.iter().filter_map(|r| figure(r)).collect();
            crate::stats::summarize(&figures).map(|s| s.median)
        };
        Some(ClassFigures {
            results: latest.len(),
            copy_gbps: median_of(|r| r.peaks.copy_gbps),
            fma_gflops: median_of(|r| r.peaks.fma_gflops),
            median: median_result(&results)?,
            presets: presets_of(latest.iter().map(|m| m.borrow().best.as_slice())),
        })
    }
}

/// A kernel's workgroup shape as a device class's results agree on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preset {
    /// `kernel/variant`.
    pub kernel: String,
    /// The parameter value the shapes were compared at ("stride 8"; empty where the kernel has none).
    pub parameter: String,
    /// As tables show it: "256", "16×4"; for a user's kernel with its tunables, "16×4 · TILE=8".
    pub shape: String,
    /// Results that ran the kernel, and in how many of them this shape was the best.
    pub results: u32,
    pub wins: u32,
    /// The median, over the results it won in, of its figure over the best at 64 invocations.
    pub median_gain_over_64: Option<f64>,
}

/// One result's best shape for a kernel.
struct Win {
    shape: String,
    gain: Option<f64>,
    invocations: u32,
}

/// Each kernel's preset: the shape that was best in the most results (the smaller one where two tie), in
/// the order of the kernel registry, then of parameter values: the same whatever order the results come in.
pub fn presets(results: &[RunResult]) -> Vec<Preset> {
    let best: Vec<Vec<analysis::BestShape>> = results.iter().map(|r| analysis::best_shapes(&r.results)).collect();
    presets_of(best.iter().map(Vec::as_slice))
}

/// `presets` of results whose best shapes are worked out already, each result's in one slice.
pub fn presets_of<'a>(results: impl Iterator<Item = &'a [analysis::BestShape]>) -> Vec<Preset> {
    // Per (kernel, parameter): every result's best shape and its gain.
    let mut kernels: Vec<((String, String), Vec<Win>)> = Vec::new();
    let mut places: HashMap<(&str, &str), usize> = HashMap::new();
    for of_result in results {
        for best in of_result {
            let won = Win {
                shape: match best.tunables.is_empty() {
                    true => shape_text(best.shape),
                    false => format!(
                        "{}{}{}",
                        shape_text(best.shape),
                        crate::kernel::Parameter::TUNABLES_SEPARATOR,
                        best.tunables
                    ),
                },
                gain: best.gain_over_64,
                invocations: best.shape.iter().product::<u32>(),
            };
            match places.get(&(best.kernel.as_str(), best.parameter.as_str())) {
                Some(&at) => kernels[at].1.push(won),
                None => {
                    places.insert((&best.kernel, &best.parameter), kernels.len());
                    kernels.push(((best.kernel.clone(), best.parameter.clone()), vec![won]));
                }
            }
        }
    }
    let registry: Vec<String> = kernels::all().iter().map(|k| k.id.label()).collect();
    let place = |kernel: &str| registry.iter().position(|k| k == kernel).unwrap_or(registry.len());
    let mut presets: Vec<Preset> = kernels
        .into_iter()
        .filter_map(|((kernel, parameter), won)| {
            let mut wins: HashMap<&str, (usize, u32)> = HashMap::new();
            for w in &won {
                wins.entry(&w.shape).or_insert((0, w.invocations)).0 += 1;
            }
            // Ties go to the fewer invocations, then to the shape that sorts first ("128" before "8×16").
            let (shape, (count, _)) = wins.into_iter().max_by_key(|&(shape, (count, invocations))| {
                (count, std::cmp::Reverse(invocations), std::cmp::Reverse(shape))
            })?;
            let gains: Vec<f64> = won.iter().filter(|w| w.shape == shape).filter_map(|w| w.gain).collect();
            Some(Preset {
                kernel,
                parameter,
                shape: shape.to_string(),
                results: won.len() as u32,
                wins: count as u32,
                median_gain_over_64: crate::stats::summarize(&gains).map(|s| s.median),
            })
        })
        .collect();
    crate::sort::by(&mut presets, |a, b| (place(&a.kernel), &a.parameter).cmp(&(place(&b.kernel), &b.parameter)));
    presets
}
