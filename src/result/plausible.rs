//! Whether a result could be what wgsweep measured: every reader (a link or a file opened in the page, the
//! CLI, the gallery's server) refuses one that could not, with a message that says what is wrong. A
//! crafted link could otherwise show NaN times, a 0 × 0 × 0 workgroup or 10^14 GB/s as valid figures.

use super::{ConfigResult, Outcome, RunResult};
use crate::bounds::{
    DESCRIPTION, LABEL, MAX_FEATURES, MAX_NOTES, MAX_USER_KERNELS, MESSAGE, NAME, NOTE, PARAMETER, TextBound,
};
use crate::gpu::ComputeLimits;
use crate::kernels;
use crate::spec::MAX_SOURCE_BYTES;

/// Refuses more configurations than a result may hold (`kernels::max_configurations`), saying how many it
/// may: a crafted link or file could otherwise hold hundreds of thousands of rows, which no page shows
/// without freezing.
pub fn check_count(configurations: usize) -> Result<(), String> {
    let max = kernels::max_configurations();
    if configurations > max {
        return Err(format!(
            "it holds {configurations} configurations, more than any wgsweep run makes (a result holds at most {max})"
        ));
    }
    Ok(())
}

/// No device moves memory this fast (over 1 PB/s: some 60× an H100's workgroup memory): a figure above it
/// comes from a wrong time.
const MAX_GBPS: f64 = 1e6;
/// Nor computes this fast (10 PFLOP/s of FP32: some 150× an H100).
const MAX_GFLOPS: f64 = 1e7;

impl RunResult {
    /// Checks that every figure is one a run could have recorded: times finite and positive, in order
    /// (min ≤ median ≤ p95), with samples behind them; workgroup shapes and grids within the result's own
    /// device limits, unless the configuration was skipped for them; rates within physics. Says what is
    /// wrong with the first configuration that fails.
    pub fn check(&self) -> Result<(), String> {
        self.check_description()?;
        (0..self.results.len()).try_for_each(|i| self.check_configuration(i))
    }

    /// The part of `check` that concerns the whole result: its count of configurations, its strings but
    /// the configurations' own, the device's limits and name, the settings and the timer.
    pub fn check_description(&self) -> Result<(), String> {
        check_count(self.results.len())?;
        check_strings(self)?;
        let limits = &self.device.limits;
        if limits.max_invocations_per_workgroup == 0 || limits.max_workgroups_per_dimension == 0 {
            return Err("the device's limits allow no workgroup".into());
        }
        let most = crate::gpu::MAX_PERSON_NAME;
        if self.device.named_by_person.as_ref().is_some_and(|n| n.chars().count() > most) {
            return Err(format!("the device's name given by its user is longer than {most} characters"));
        }
        let settings = &self.settings;
        if !(settings.min_sample_ns.is_finite() && settings.min_sample_ns >= 0.0) {
            return Err(format!("the minimum sample time {} ns is not a time", settings.min_sample_ns));
        }
        let timer = self.environment.timer_quantum_ns;
        if !(timer.is_finite() && timer >= 0.0) {
            return Err(format!("the timer's quantum {timer} ns is not a time"));
        }
        if let Some(ms) = self.environment.host_probe_ms.filter(|ms| !(ms.is_finite() && *ms > 0.0)) {
            return Err(format!("the host's probe {ms} ms is not a positive time"));
        }
        Ok(())
    }

    /// The part of `check` that concerns configuration `i`: its strings within their bounds, its figures
    /// ones a run could have recorded on the result's device.
    pub fn check_configuration(&self, i: usize) -> Result<(), String> {
        let r = &self.results[i];
        check_configuration_strings(r).map_err(|why| format!("configuration {}: {why}", i + 1))?;
        check_figures(r, &self.device.limits).map_err(|why| {
            format!("configuration {} ({} at workgroup {}): {why}", i + 1, r.label(), r.workgroup_text())
        })
    }
}

fn check_figures(r: &ConfigResult, limits: &ComputeLimits) -> Result<(), String> {
    let [x, y, z] = r.workgroup_size;
    if x == 0 || y == 0 || z == 0 {
        return Err("a workgroup has at least one invocation along each axis".into());
    }
    let skipped = matches!(r.outcome, Outcome::Skipped { .. });
    if !skipped {
        let invocations = u64::from(x) * u64::from(y) * u64::from(z);
        let axes =
            [(x, limits.max_workgroup_size_x), (y, limits.max_workgroup_size_y), (z, limits.max_workgroup_size_z)];
        if invocations > u64::from(limits.max_invocations_per_workgroup) || axes.iter().any(|(size, max)| size > max) {
            return Err(format!(
                "the device allows at most {} invocations per workgroup ({} × {} × {}): it could not have run",
                limits.max_invocations_per_workgroup,
                limits.max_workgroup_size_x,
                limits.max_workgroup_size_y,
                limits.max_workgroup_size_z
            ));
        }
        // Results written before the grid was recorded hold 0 × 0 × 0.
        let grid = r.dispatch;
        if grid != [0, 0, 0] && grid.iter().any(|&n| n == 0 || n > limits.max_workgroups_per_dimension) {
            return Err(format!(
                "a dispatch of {} × {} × {} workgroups is outside the device's 1 to {} per dimension",
                grid[0], grid[1], grid[2], limits.max_workgroups_per_dimension
            ));
        }
    }
    let time = |what: &str, ns: f64| {
        if ns.is_finite() && ns > 0.0 { Ok(()) } else { Err(format!("the {what} time {ns} ns is not a positive time")) }
    };
    for &ns in &r.samples_ns {
        time("sample", ns)?;
    }
    // The page's wall clock may be coarser than a sample: it reads 0 for some.
    if let Some(ns) = r.wall_samples_ns.iter().find(|ns| !(ns.is_finite() && **ns >= 0.0)) {
        return Err(format!("the wall-clock sample time {ns} ns is not a time"));
    }
    if let Some(s) = r.took_s.filter(|s| !(s.is_finite() && *s >= 0.0)) {
        return Err(format!("the configuration's time {s} s is not a time"));
    }
    let times = [r.median_ns, r.min_ns, r.p95_ns];
    match times {
        [Some(median), Some(min), Some(p95)] => {
            time("median", median)?;
            time("minimum", min)?;
            time("95th percentile", p95)?;
            if !(min <= median && median <= p95) {
                return Err(format!("the times are out of order: min {min} ns, median {median} ns, p95 {p95} ns"));
            }
            if r.dispatches_per_sample == 0 || r.sample_count() == 0 {
                return Err("it has times but no samples behind them".into());
            }
        }
        [None, None, None] if matches!(r.outcome, Outcome::Valid { .. }) => {
            return Err("it is valid but has no time".into());
        }
        [None, None, None] => {}
        _ => return Err("it has some of median, min and p95 but not all".into()),
    }
    if let Some(cv) = r.cv
        && !(cv.is_finite() && cv >= 0.0)
    {
        return Err(format!("the spread {cv} is not a coefficient of variation"));
    }
    if let Some(gbps) = r.gbps
        && !(gbps.is_finite() && (0.0..=MAX_GBPS).contains(&gbps))
    {
        return Err(format!("{gbps} GB/s is beyond any device (over 1 PB/s): its time cannot be right"));
    }
    if let Some(rate) = r.operation_rate()
        && !(rate.is_finite() && rate <= MAX_GFLOPS)
    {
        let unit = r.unit().name();
        return Err(format!("{rate} {unit} is beyond any device (over 10 million {unit}): its time cannot be right"));
    }
    Ok(())
}

/// Checks every string of `result` but its configurations' against its bound, naming the field of the
/// first that is not.
fn check_strings(result: &RunResult) -> Result<(), String> {
    let field = |bound: TextBound, name: &str, text: &str| bound.check(text).map_err(|why| format!("{name}: {why}"));
    field(LABEL, "the label", &result.label)?;
    field(DESCRIPTION, "created", &result.created)?;
    field(DESCRIPTION, "the tool's name", &result.tool.name)?;
    field(DESCRIPTION, "the tool's version", &result.tool.version)?;
    field(DESCRIPTION, "the runtime", &result.environment.runtime)?;
    field(DESCRIPTION, "the platform", &result.environment.platform)?;
    if result.notes.len() > MAX_NOTES {
        return Err(format!("it holds {} notes, more than the {MAX_NOTES} a result may", result.notes.len()));
    }
    for (i, note) in result.notes.iter().enumerate() {
        field(NOTE, &format!("note {}", i + 1), note)?;
    }
    let device = &result.device;
    let identity = &device.identity;
    let described = [
        ("the adapter's vendor", &identity.vendor),
        ("the adapter's architecture", &identity.architecture),
        ("the adapter's device", &identity.device),
        ("the adapter's description", &identity.description),
        ("the device's type", &device.device_type),
        ("the driver", &device.driver),
        ("the driver's information", &device.driver_info),
        ("the backend", &device.backend),
    ];
    for (name, text) in described {
        field(DESCRIPTION, name, text)?;
    }
    if device.features.len() > MAX_FEATURES || device.matrix_configs.len() > MAX_FEATURES {
        return Err(format!("the device lists more than {MAX_FEATURES} features or subgroup-matrix configurations"));
    }
    for feature in &device.features {
        field(NAME, "a feature", feature)?;
    }
    for config in &device.matrix_configs {
        field(NAME, "a subgroup-matrix configuration", &config.component)?;
        field(NAME, "a subgroup-matrix configuration", &config.result)?;
    }
    if result.user_kernels.len() > MAX_USER_KERNELS {
        let count = result.user_kernels.len();
        return Err(format!("it carries {count} users' kernels, more than the {MAX_USER_KERNELS} a result may"));
    }
    for (i, kernel) in result.user_kernels.iter().enumerate() {
        if kernel.len() > MAX_SOURCE_BYTES {
            let bytes = kernel.len();
            return Err(format!(
                "user's kernel {}: it takes {bytes} bytes, more than the {MAX_SOURCE_BYTES} a kernel may",
                i + 1
            ));
        }
    }
    Ok(())
}

fn check_configuration_strings(r: &ConfigResult) -> Result<(), String> {
    for (name, text) in [("its family", &r.family), ("its kernel", &r.kernel), ("its variant", &r.variant)] {
        NAME.check(text).map_err(|why| format!("{name}: {why}"))?;
    }
    if let Some(parameter) = &r.parameter {
        PARAMETER.check(&parameter.name).map_err(|why| format!("its parameter's name: {why}"))?;
        if let Some(label) = &parameter.label {
            PARAMETER.check(label).map_err(|why| format!("its parameter's value: {why}"))?;
        }
    }
    let message = match &r.outcome {
        Outcome::Failed { error: text, .. }
        | Outcome::Skipped { reason: text }
        | Outcome::Unmeasured { reason: text }
        | Outcome::Valid { suspect: Some(text) } => Some(text),
        Outcome::Valid { suspect: None } | Outcome::Measured => None,
    };
    match message {
        Some(text) => MESSAGE.check(text).map_err(|why| format!("its outcome: {why}")),
        None => Ok(()),
    }
}
