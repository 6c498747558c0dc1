//! How the runner measures: the options a run is given, and their defaults.

use serde::{Deserialize, Serialize};

/// How the runner should measure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasureOptions {
    /// Samples kept after calibration and warm-up: at least these, and more until the median is as precise
    /// as `precision` asks (up to `max_samples`).
    pub samples: u32,
    /// Sampling goes on until the median's 95 % interval reaches no further than this fraction of it to
    /// either side (0: exactly `samples`); a configuration that cannot get there by `max_samples` (or the
    /// sampling budget) is kept with the interval it reached, and tables call it noisy.
    #[serde(default = "default_precision")]
    pub precision: f64,
    /// The most samples sampling for precision keeps.
    #[serde(default = "default_max_samples")]
    pub max_samples: u32,
    /// The shortest a sample may be, whatever the timer's quantum.
    pub min_sample_ns: f64,
    /// A sample lasts at least this many timer quanta.
    pub quanta_per_sample: f64,
    /// The most dispatches one sample may hold.
    pub max_dispatches: u32,
    /// The most GPU time to spend before the kept samples: an idle GPU drops its clocks, and ramping them
    /// back up takes far longer than one sample.
    pub warm_up_ns: f64,
    /// The least, on a GPU busy until just now (`BUSY_GAP_NS`): after it, the warm-up ends as soon as the
    /// samples have settled (the last `SETTLE_WINDOW_NS` of them within `SETTLED` of the window before).
    /// A CPU adapter's whole warm-up.
    #[serde(default = "default_in_flight_ns")]
    pub min_warm_up_ns: f64,
    /// GPU work to keep queued while warming up and sampling, whatever a sample lasts.
    #[serde(default = "default_in_flight_ns")]
    pub in_flight_ns: f64,
    /// The longest one dispatch may take for its configuration to be measured: a sweep of slower ones would
    /// take minutes on a device that is slow for them (a CPU adapter, a large matrix).
    #[serde(default = "default_max_dispatch_ns")]
    pub max_dispatch_ns: f64,
    /// The most GPU time a configuration's kept samples may take: where a device is slow at a kernel it keeps
    /// fewer samples (never under `MIN_SAMPLES`) rather than spend minutes on it.
    #[serde(default = "default_max_sampling_ns")]
    pub max_sampling_ns: f64,
}

/// The fewest samples kept, however slow a configuration (unless fewer are asked for).
pub const MIN_SAMPLES: u32 = 3;

fn default_max_sampling_ns() -> f64 {
    1e9
}

/// Off unless asked for (the CLI, and the page on a GPU, ask for 1 %): the tuner's trials keep exactly
/// `samples`.
fn default_precision() -> f64 {
    0.0
}

fn default_max_samples() -> u32 {
    50
}

fn default_in_flight_ns() -> f64 {
    2e7
}

fn default_max_dispatch_ns() -> f64 {
    2.5e8
}

impl Default for MeasureOptions {
    fn default() -> Self {
        Self {
            samples: 10,
            precision: default_precision(),
            max_samples: default_max_samples(),
            min_sample_ns: 1e6,
            quanta_per_sample: 20.0,
            max_dispatches: 4096,
            warm_up_ns: 2e8,
            min_warm_up_ns: default_in_flight_ns(),
            in_flight_ns: default_in_flight_ns(),
            max_dispatch_ns: default_max_dispatch_ns(),
            max_sampling_ns: default_max_sampling_ns(),
        }
    }
}
