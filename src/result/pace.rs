//! Where a run's time went: what the page and the CLI say after a run, and what a result file keeps.

use serde::{Deserialize, Serialize};

/// Where a run's wall time went, in seconds, and the GPU time of every pass it timed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Pace {
    /// From the run's start to its end.
    pub wall_s: f64,
    /// The GPU time of every timed pass (calibration, warm-up and samples), by timestamps or, without them,
    /// by the wall clock around each sample.
    pub gpu_busy_s: f64,
    /// Making the families' inputs.
    pub inputs_s: f64,
    /// Building each configuration's pipelines and bindings.
    pub pipelines_s: f64,
    /// Computing the CPU references and uploading them, once per input and kernel (absent in results from
    /// before: counted in validation then).
    #[serde(default)]
    pub references_s: f64,
    /// Running each configuration once and comparing its output with the CPU reference.
    pub validation_s: f64,
    /// Finding how many dispatches make a sample.
    pub calibration_s: f64,
    /// Keeping the GPU busy before the kept samples.
    pub warm_up_s: f64,
    /// Taking the kept samples.
    pub samples_s: f64,
    /// Reporting progress: the page's tables and charts, the CLI's progress bar.
    #[serde(default)]
    pub reporting_s: f64,
    /// Configurations run once and checked while the one before them was measured (the page's; absent where
    /// none was: natively, and in results from before).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub checked_ahead: u32,
}

/// Whether a count is 0: then left out of the file, as natively (where nothing is checked ahead).
fn is_zero(count: &u32) -> bool {
    *count == 0
}

impl Pace {
    /// The share of the run's wall time the GPU spent on timed passes.
    pub fn busy_share(&self) -> Option<f64> {
        (self.wall_s > 0.0).then(|| self.gpu_busy_s / self.wall_s)
    }

    /// The phases, named as `summary` shows them.
    fn phases(&self) -> [(&'static str, f64); 8] {
        [
            ("inputs", self.inputs_s),
            ("references", self.references_s),
            ("pipelines", self.pipelines_s),
            ("validation", self.validation_s),
            ("calibration", self.calibration_s),
            ("warm-up", self.warm_up_s),
            ("samples", self.samples_s),
            ("reporting", self.reporting_s),
        ]
    }

    /// What the phases leave of the wall time: waiting, the run's own bookkeeping.
    pub fn other_s(&self) -> f64 {
        (self.wall_s - self.phases().iter().map(|(_, s)| s).sum::<f64>()).max(0.0)
    }

    /// "GPU busy 23 % of 150.2 s; inputs 10.1 s, pipelines 3.2 s, …, other 8.5 s".
    pub fn summary(&self) -> String {
        let other = [("other", self.other_s())];
        let phases: Vec<String> =
            self.phases().iter().chain(&other).map(|(name, s)| format!("{name} {s:.1} s")).collect();
        let share = self.busy_share().map(|b| format!("{:.0} %", 100.0 * b)).unwrap_or_else(|| "–".into());
        format!("GPU busy {share} of {:.1} s; {}", self.wall_s, phases.join(", "))
    }
}
