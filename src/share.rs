//! Share links: a run's summary in a URL fragment, so that a result opens anywhere without a server.
//!
//! The fragment is `run=2.` followed by the payload, base64url without padding, of a zlib-compressed
//! [`Shared`] (its checksum catches a link altered in transit): the run's header (device, environment, settings, notes) as JSON, and one compact binary row
//! per configuration (postcard: varints and f32s) with every repeated string stored once. Raw samples stay
//! out; figures derived from others (GB/s, suspects, shares of the peaks) are recomputed on opening, exactly
//! as the runner computes them. "2" is the link format's version (2 added each median's interval): a later
//! wgsweep reads older links, and an older one refuses a newer link with a message that says so.
//!
//! Encoding and decoding wait on compression, which the page leaves to the browser (`host::zlib`);
//! natively it is done in place, and `blocking` gives each function's answer at once.

use std::collections::HashMap;
use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};

use crate::bounds::{LONGEST, MAX_USER_KERNELS};
use crate::host::{self, zlib};
use crate::kernel::ShaderChecks;
use crate::measure::TimingSource;
use crate::result::{ConfigResult, Outcome, ParameterValue, ReadError, RunResult, gb_per_s};
use crate::spec::KernelText;
use crate::{analysis, kernels};

/// The version of the link format this wgsweep writes and the newest it reads.
pub const LINK_VERSION: u32 = 2;
/// The name of the fragment's field: `#run=2.…`.
pub const FRAGMENT_KEY: &str = "run";
/// The field of a comparison's link: `#compare=2.…`, several results in one payload.
pub const COMPARE_KEY: &str = "compare";
/// The field of a kernel's link: `#kernel=2.…`, a user's WGSL and specification (no result).
pub const KERNEL_KEY: &str = "kernel";
/// The most results one comparison holds (its link, and the page's comparison card): a table column and a
/// chart line each, and a ratio column for each after the first.
pub const MAX_COMPARED: usize = 8;
/// The bytes a row of a result may take in a link, on average, for the payload's bound: a built-in kernel's
/// row takes about 52 at the configuration bound.
const ROW_PAYLOAD_BYTES: usize = 64;

/// Decompressed payloads larger than this are refused, so that a crafted link cannot make the page allocate
/// without bound: room for a comparison of `MAX_COMPARED` results at the configuration bound (20.5 MiB with
/// 41 976 configurations), and never less than 16 MiB.
pub fn max_payload_bytes() -> usize {
    (MAX_COMPARED * kernels::max_configurations() * ROW_PAYLOAD_BYTES).max(16 << 20)
}

/// The most bytes a link's description of its run (device, environment, settings, notes and the users'
/// kernels it ran: all but the rows) may take: its strings at their bounds (`bounds`) come to about 45 KB,
/// and each kernel to at most `spec::MAX_SOURCE_BYTES` (as JSON, with room for its escapes).
const MAX_HEADER_BYTES: usize = (64 << 10) + MAX_USER_KERNELS * 2 * crate::spec::MAX_SOURCE_BYTES;

/// Why a link could not be opened. Every message says what is wrong in words a user can act on.
#[derive(Debug, Clone, PartialEq)]
pub enum ShareError {
    /// The text is not a wgsweep link at all.
    NotALink,
    /// The link was made by a newer wgsweep.
    TooNew { found: u32 },
    /// The link is cut short or altered: the payload does not decode.
    Corrupt(String),
    /// The payload decodes, but the result inside cannot be read (e.g. a newer result schema).
    Unreadable(String),
    /// The payload decompresses to more than a link may hold, in bytes: decompressing stopped there.
    TooLarge { limit: usize },
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::NotALink => {
                write!(f, "this is not a wgsweep result link (it has no '#{FRAGMENT_KEY}=' or '#{COMPARE_KEY}=' part)")
            }
            ShareError::TooNew { found } => write!(
                f,
                "this link was made by a newer wgsweep (link format {found}; this one reads up to \
                 {LINK_VERSION}): open it with the newer version"
            ),
            ShareError::Corrupt(why) => {
                write!(f, "this link is damaged or incomplete (was it cut short when copied?): {why}")
            }
            ShareError::Unreadable(why) => write!(f, "the result in this link cannot be read: {why}"),
            ShareError::TooLarge { limit } => {
                write!(
                    f,
                    "this link is too large: it holds more than {limit} bytes once decompressed, the most a link may"
                )
            }
        }
    }
}

impl std::error::Error for ShareError {}

/// What a link carries (read back a part at a time: `read`).
#[derive(Serialize)]
struct Shared {
    /// The run without its rows, as JSON: the device's fingerprint and limits, the environment, the
    /// settings, notes, whether it completed (read with the result format's own rules).
    header: String,
    /// Every string the rows name (kernel labels, parameter names and labels, errors, skip reasons), once.
    strings: Vec<String>,
    rows: Vec<Row>,
    /// Each row's median interval (`interval`), in order: from link format 2 on.
    intervals: Vec<Option<[u16; 2]>>,
}

/// One configuration: what it was, what it measured, and what became of it.
#[derive(Serialize, Deserialize)]
struct Row {
    /// Indices into `strings`: family, kernel, variant.
    kernel: [u32; 3],
    checks: ShaderChecks,
    workgroup: [u32; 3],
    /// Value, and indices into `strings` of the parameter's name and label.
    parameter: Option<(u32, u32, Option<u32>)>,
    problem_size: u64,
    bytes_per_dispatch: u64,
    moved_bytes_per_dispatch: Option<u64>,
    flops_per_dispatch: Option<u64>,
    dispatch: [u32; 3],
    dispatches_per_sample: u32,
    samples: u32,
    discarded_samples: u32,
    /// Per dispatch, ns: median, min, p95; and the coefficient of variation.
    times: Option<[f32; 4]>,
    timing_source: Option<TimingSource>,
    outcome: RowOutcome,
}

/// A row's `result::Outcome`, with its strings in the table.
#[derive(Serialize, Deserialize)]
enum RowOutcome {
    Valid,
    /// The error, as an index into `strings`; `valid` says whether validation had passed before it.
    Failed {
        error: u32,
        valid: bool,
    },
    Skipped {
        reason: u32,
    },
    /// Valid, not measured: the reason, as an index into `strings` (last, so links made before it decode).
    Unmeasured {
        reason: u32,
    },
}

/// The string table built while rows are encoded: each string once, with where it lies (found in constant
/// time, so that a result of thousands of distinct strings is encoded in linear time).
#[derive(Default)]
struct Strings {
    list: Vec<String>,
    at: HashMap<String, usize>,
}

impl Strings {
    fn index(&mut self, s: &str) -> u32 {
        if let Some(&at) = self.at.get(s) {
            return at as u32;
        }
        let at = self.list.len();
        self.list.push(s.to_string());
        self.at.insert(s.to_string(), at);
        at as u32
    }
}

/// A recorded result shipped with the page, to compare a run with: its share-link fragment lies in
/// `www/known/{file}` (loaded only when asked for), made from `docs/results/{source}` (tests/share.rs holds
/// them equal).
pub struct KnownResult {
    pub name: &'static str,
    pub file: &'static str,
    pub source: &'static str,
}

/// The results a finished run can be compared with at once ("Compare with…").
pub const KNOWN_RESULTS: &[KnownResult] = &[
    KnownResult {
        name: "NVIDIA H100, native (wgpu on Vulkan)",
        file: "h100-native.txt",
        source: "pace/h100-native-suite-5.json",
    },
    KnownResult {
        name: "NVIDIA H100 in Chromium 156",
        file: "h100-chromium.txt",
        source: "pace/h100-chromium-suite-5.json",
    },
    KnownResult {
        name: "NVIDIA H100 in Firefox 153",
        file: "h100-firefox.txt",
        source: "engines/h100-firefox-default-suite.json",
    },
    KnownResult {
        name: "NVIDIA H200, native (wgpu on Vulkan)",
        file: "h200-native.txt",
        source: "pace/h200-native-suite.json",
    },
    KnownResult {
        name: "NVIDIA H200 in Chromium 156",
        file: "h200-chromium.txt",
        source: "pace/h200-chromium-suite.json",
    },
    KnownResult {
        name: "SwiftShader (Chrome's CPU WebGPU, 2 cores) in Chromium 156",
        file: "swiftshader-chromium.txt",
        source: "pace/swiftshader-chromium-suite-1.json",
    },
    KnownResult {
        name: "lavapipe (Mesa's CPU Vulkan driver, 2 cores), native",
        file: "lavapipe-native.txt",
        source: "pace/lavapipe-native-suite-2.json",
    },
];

/// The fragment value (without `#run=`) that holds `result`.
pub async fn encode(result: &RunResult) -> String {
    pack(&shared(result).await).await
}

/// A whole link: `base` (the page's address) with the result in its fragment.
pub async fn link(base: &str, result: &RunResult) -> String {
    with_fragment(base, FRAGMENT_KEY, &encode(result).await)
}

/// The fragment value (without `#compare=`) that holds every result of a comparison, in order; compressed
/// together, so the second device's strings cost little.
pub async fn encode_comparison(results: &[RunResult]) -> String {
    let mut all = Vec::with_capacity(results.len());
    for result in results {
        all.push(shared(result).await);
    }
    pack(&all).await
}

/// A whole link to a comparison.
pub async fn comparison_link(base: &str, results: &[RunResult]) -> String {
    with_fragment(base, COMPARE_KEY, &encode_comparison(results).await)
}

/// `base` with its fragment, if any, replaced by `#key=value`.
fn with_fragment(base: &str, key: &str, value: &str) -> String {
    let base = base.split('#').next().unwrap_or(base);
    format!("{base}#{key}={value}")
}

/// The result in a link, a fragment (`#run=2.…`) or a fragment's value (`2.…`).
pub async fn decode(text: &str) -> Result<RunResult, ShareError> {
    let (version, binary) = payload(fragment_value(text, FRAGMENT_KEY)?, max_payload_bytes()).await?;
    read(&binary, version).await.map(|(result, _)| result)
}

/// The results in a comparison link (`#compare=2.…`) or its value.
pub async fn decode_comparison(text: &str) -> Result<Vec<RunResult>, ShareError> {
    let (version, binary) = payload(fragment_value(text, COMPARE_KEY)?, max_payload_bytes()).await?;
    // Eight at the bound are 300 000 rows to read: the count (postcard writes a sequence's length first) is
    // checked before any.
    let (count, mut rest) = taken::<usize>(&binary)?;
    if count > MAX_COMPARED {
        return Err(ShareError::Unreadable(format!(
            "it compares {count} results; a comparison shows at most {MAX_COMPARED}"
        )));
    }
    let mut results = Vec::with_capacity(count);
    for _ in 0..count {
        let (result, after) = read(rest, version).await?;
        results.push(result);
        rest = after;
    }
    Ok(results)
}

/// What a link of either kind holds: one result (`#run=`) or a comparison (`#compare=`).
pub async fn decode_any(text: &str) -> Result<Vec<RunResult>, ShareError> {
    match text.split_once('#').map(|(_, fragment)| fragment) {
        Some(fragment) if find_field(fragment, COMPARE_KEY).is_some() => decode_comparison(text).await,
        _ => decode(text).await.map(|result| vec![result]),
    }
}

/// What a link of `result` carries, its rows made with turns for the page between.
async fn shared(result: &RunResult) -> Shared {
    let mut strings = Strings::default();
    let mut rows = Vec::with_capacity(result.results.len());
    for (i, r) in result.results.iter().enumerate() {
        host::pause_if_due_at(i).await;
        rows.push(row(r, &mut strings));
    }
    let header = RunResult { results: Vec::new(), ..result.clone() }.to_json();
    let intervals = result.results.iter().map(interval).collect();
    Shared { header, strings: strings.list, rows, intervals }
}

/// Units of a median's interval in a link: its ends' distances from the median, in 1/100 000 of it.
const INTERVAL_UNIT: f64 = 1e-5;

/// A configuration's median interval as a link keeps it: a few bytes, where two f32 would take eight.
fn interval(r: &ConfigResult) -> Option<[u16; 2]> {
    let ([low, high], median) = (r.median_interval_ns?, r.median_ns?);
    let part = |distance: f64| (distance / median / INTERVAL_UNIT).round().clamp(0.0, u16::MAX as f64) as u16;
    Some([part(median - low), part(high - median)])
}

/// A link that opens a user's kernel in the page at `base`, ready to run; refused past
/// `spec::MAX_SOURCE_BYTES` of WGSL and specification together.
pub async fn kernel_link(base: &str, kernel: &KernelText) -> Result<String, String> {
    let bytes = kernel.len();
    if bytes > crate::spec::MAX_SOURCE_BYTES {
        return Err(format!(
            "the WGSL and the specification take {bytes} bytes; a kernel's link carries at most {}",
            crate::spec::MAX_SOURCE_BYTES
        ));
    }
    Ok(with_fragment(base, KERNEL_KEY, &pack(kernel).await))
}

/// The kernel a `#kernel=` link carries.
pub async fn decode_kernel(text: &str) -> Result<KernelText, ShareError> {
    let value = fragment_value(text, KERNEL_KEY)?;
    let kernel: KernelText = decoded(&payload(value, crate::spec::MAX_SOURCE_BYTES + 64).await?.1)?;
    match kernel.len() {
        bytes if bytes > crate::spec::MAX_SOURCE_BYTES => Err(ShareError::Unreadable(format!(
            "its kernel takes {bytes} bytes; a kernel may take {}",
            crate::spec::MAX_SOURCE_BYTES
        ))),
        _ => Ok(kernel),
    }
}

/// `1.` and the base64url of the zlib-compressed postcard encoding of `value`.
async fn pack(value: &impl Serialize) -> String {
    let binary = postcard::to_allocvec(value).expect("shared results always serialize");
    let compressed = zlib::compress(&binary).await;
    format!("{LINK_VERSION}.{}", URL_SAFE_NO_PAD.encode(compressed))
}

/// The link format's version and the decompressed payload of a link's `value`, refusing a payload that
/// decompresses to more than `limit` bytes.
async fn payload(value: &str, limit: usize) -> Result<(u32, Vec<u8>), ShareError> {
    let (version, payload) = value.split_once('.').ok_or(ShareError::NotALink)?;
    let version: u32 = version.parse().map_err(|_| ShareError::NotALink)?;
    if version > LINK_VERSION {
        return Err(ShareError::TooNew { found: version });
    }
    let corrupt = |what: &str, e: &dyn fmt::Display| ShareError::Corrupt(format!("{what} ({e})"));
    let compressed = URL_SAFE_NO_PAD.decode(payload).map_err(|e| corrupt("not base64url", &e))?;
    let binary = zlib::decompress(&compressed, limit).await.map_err(|e| match e {
        zlib::Inflate::TooLarge => ShareError::TooLarge { limit },
        zlib::Inflate::Damaged(why) => corrupt("does not decompress", &why),
    })?;
    Ok((version, binary))
}

fn decoded<T: serde::de::DeserializeOwned>(binary: &[u8]) -> Result<T, ShareError> {
    taken(binary).map(|(value, _)| value)
}

/// The value that `binary` starts with, and the bytes after it.
fn taken<T: serde::de::DeserializeOwned>(binary: &[u8]) -> Result<(T, &[u8]), ShareError> {
    // Its name, not its sentence: postcard's sentences would cost the page 0.4 KB.
    postcard::take_from_bytes(binary).map_err(|e| ShareError::Corrupt(format!("does not decode ({e:?})")))
}

/// The result at the start of `binary`, a payload of link format `version`, and the bytes after it: read a
/// part at a time with turns for the page between (a link at the bound holds tens of thousands of rows, a
/// comparison eight times as many), its rows counted before any is read.
async fn read(binary: &[u8], version: u32) -> Result<(RunResult, &[u8]), ShareError> {
    let (header, rest) = taken::<String>(binary)?;
    let (count, rest) = taken::<usize>(rest)?;
    let (strings, rest) = taken_many::<String>(rest, count).await?;
    let (count, rest) = taken::<usize>(rest)?;
    crate::result::check_count(count).map_err(unbelievable)?;
    let (rows, rest) = taken_many::<Row>(rest, count).await?;
    // Format 1 has no intervals.
    let (intervals, rest) = if version == 1 { (Vec::new(), rest) } else { taken(rest)? };
    Ok((open(Shared { header, strings, rows, intervals }).await?, rest))
}

/// `count` values one after another at the start of `binary`, and the bytes after them.
async fn taken_many<T: serde::de::DeserializeOwned>(
    mut binary: &[u8],
    count: usize,
) -> Result<(Vec<T>, &[u8]), ShareError> {
    // Each takes a byte at least: a crafted count reserves no more than there are bytes.
    let mut values = Vec::with_capacity(count.min(binary.len()));
    for i in 0..count {
        host::pause_if_due_at(i).await;
        let (value, rest) = taken(binary)?;
        values.push(value);
        binary = rest;
    }
    Ok((values, binary))
}

fn unbelievable(why: String) -> ShareError {
    ShareError::Unreadable(format!("not a believable result: {why}"))
}

/// The result a `Shared` holds, with the figures derived from others recomputed as the runner does.
async fn open(shared: Shared) -> Result<RunResult, ShareError> {
    // No string longer than any a result may hold, nor a header longer than its strings make.
    for (i, text) in shared.strings.iter().enumerate() {
        host::pause_if_due_at(i).await;
        LONGEST.check(text).map_err(|why| unbelievable(format!("one of its strings: {why}")))?;
    }
    if shared.header.len() > MAX_HEADER_BYTES {
        let bytes = shared.header.len();
        return Err(unbelievable(format!(
            "its description takes {bytes} bytes, {} more than the {MAX_HEADER_BYTES} it may",
            bytes - MAX_HEADER_BYTES
        )));
    }
    let mut result =
        RunResult::from_json(&shared.header).map_err(|e: ReadError| ShareError::Unreadable(e.to_string()))?;
    let text =
        |i: u32| shared.strings.get(i as usize).cloned().ok_or_else(|| ShareError::Corrupt(format!("no string {i}")));
    result.results = Vec::with_capacity(shared.rows.len());
    for (i, r) in shared.rows.iter().enumerate() {
        host::pause_if_due_at(i).await;
        result.results.push(config_result(r, &text)?);
    }
    for (r, interval) in result.results.iter_mut().zip(&shared.intervals) {
        r.median_interval_ns = match (interval, r.median_ns) {
            (Some([below, above]), Some(median)) => {
                let part = |units: u16| median * units as f64 * INTERVAL_UNIT;
                Some([median - part(*below), median + part(*above)])
            }
            _ => None,
        };
        // As the runner marks it (`Summary::within`): a measured configuration short of the precision asked
        // for, or with no interval at all.
        r.noisy = match (result.settings.precision, r.median_ns) {
            (Some(precision), Some(_)) => r.interval_percent().is_none_or(|percent| percent > 100.0 * precision),
            _ => false,
        };
    }
    result.check_description().map_err(unbelievable)?;
    for i in 0..result.results.len() {
        host::pause_if_due_at(i).await;
        result.check_configuration(i).map_err(unbelievable)?;
    }
    for pass in analysis::DERIVE_PASSES {
        host::yield_now().await;
        pass(&mut result);
    }
    Ok(result)
}

/// What a `#run=` link (or its fragment, or the value) carries as it is: the history keeps it so, rather than
/// encode the result it opened again.
pub fn run_payload(text: &str) -> Option<&str> {
    fragment_value(text, FRAGMENT_KEY).ok().filter(|value| value.contains('.'))
}

/// The value of field `key` in a link (`…#run=2.abc`), a fragment (`x=1&run=2.abc`) or the bare value.
fn fragment_value<'a>(text: &'a str, key: &str) -> Result<&'a str, ShareError> {
    let text = text.trim();
    match text.split_once('#') {
        Some((_, fragment)) => find_field(fragment, key).ok_or(ShareError::NotALink),
        None => Ok(find_field(text, key).unwrap_or(text)),
    }
}

fn find_field<'a>(fragment: &'a str, key: &str) -> Option<&'a str> {
    fragment.split('&').find_map(|pair| pair.strip_prefix(key)?.strip_prefix('='))
}

fn row(r: &ConfigResult, strings: &mut Strings) -> Row {
    // A link keeps no suspects (its reader derives them) and no trials that were never validated.
    let outcome = match &r.outcome {
        Outcome::Skipped { reason } => RowOutcome::Skipped { reason: strings.index(reason) },
        Outcome::Unmeasured { reason } => RowOutcome::Unmeasured { reason: strings.index(reason) },
        Outcome::Failed { error, validated } => RowOutcome::Failed { error: strings.index(error), valid: *validated },
        Outcome::Valid { .. } | Outcome::Measured => RowOutcome::Valid,
    };
    let times = match (r.median_ns, r.min_ns, r.p95_ns, r.cv) {
        (Some(median), Some(min), Some(p95), Some(cv)) => Some([median, min, p95, cv].map(|x| x as f32)),
        _ => None,
    };
    Row {
        kernel: [&r.family, &r.kernel, &r.variant].map(|s| strings.index(s)),
        checks: r.shader_checks,
        workgroup: r.workgroup_size,
        parameter: r
            .parameter
            .as_ref()
            .map(|p| (p.value, strings.index(&p.name), p.label.as_ref().map(|label| strings.index(label)))),
        problem_size: r.problem_size,
        bytes_per_dispatch: r.bytes_per_dispatch,
        moved_bytes_per_dispatch: r.moved_bytes_per_dispatch,
        flops_per_dispatch: r.flops_per_dispatch,
        dispatch: r.dispatch,
        dispatches_per_sample: r.dispatches_per_sample,
        samples: r.sample_count() as u32,
        discarded_samples: r.discarded_samples,
        times,
        timing_source: r.timing_source,
        outcome,
    }
}

fn config_result(row: &Row, text: &impl Fn(u32) -> Result<String, ShareError>) -> Result<ConfigResult, ShareError> {
    let [family, kernel, variant] = row.kernel;
    let parameter = match row.parameter {
        Some((value, name, label)) => {
            Some(ParameterValue { name: text(name)?, value, label: label.map(text).transpose()? })
        }
        None => None,
    };
    let outcome = match row.outcome {
        RowOutcome::Valid => Outcome::Valid { suspect: None },
        RowOutcome::Failed { error, valid } => Outcome::Failed { error: text(error)?, validated: valid },
        RowOutcome::Skipped { reason } => Outcome::Skipped { reason: text(reason)? },
        RowOutcome::Unmeasured { reason } => Outcome::Unmeasured { reason: text(reason)? },
    };
    let [median, min, p95, cv] = match row.times {
        Some(times) => times.map(|t| Some(t as f64)),
        None => [None; 4],
    };
    let (family, kernel) = (text(family)?, text(kernel)?);
    // What the kernel's operations are is its family's to say: links leave it out.
    let operations = kernels::family(&family).map(|f| f.operations(&kernel)).unwrap_or_default();
    Ok(ConfigResult {
        family,
        kernel,
        variant: text(variant)?,
        shader_checks: row.checks,
        workgroup_size: row.workgroup,
        parameter,
        problem_size: row.problem_size,
        bytes_per_dispatch: row.bytes_per_dispatch,
        moved_bytes_per_dispatch: row.moved_bytes_per_dispatch,
        flops_per_dispatch: row.flops_per_dispatch,
        operations,
        dispatch: row.dispatch,
        dispatches_per_sample: row.dispatches_per_sample,
        samples_ns: Vec::new(),
        summarized_samples: row.samples,
        wall_samples_ns: Vec::new(),
        discarded_samples: row.discarded_samples,
        median_ns: median,
        median_interval_ns: None, // from `Shared::intervals`
        noisy: false,             // from the intervals and the settings
        min_ns: min,
        p95_ns: p95,
        cv,
        gbps: median.and_then(|m| gb_per_s(row.bytes_per_dispatch, m)),
        timing_source: row.timing_source,
        outcome,
        percent_of_baseline: None,
        percent_of_peak: None,
        took_s: None,
    })
}

/// The same for callers that cannot wait (the CLI, the gallery server's worker threads, tests): natively
/// compression is done in place, so each of these futures is ready when first polled.
#[cfg(not(target_arch = "wasm32"))]
pub mod blocking {
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    use super::{KernelText, RunResult, ShareError};

    /// `future`'s output: it never waits natively.
    fn ready<T>(future: impl Future<Output = T>) -> T {
        match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(output) => output,
            Poll::Pending => unreachable!("native compression never waits"),
        }
    }

    pub fn encode(result: &RunResult) -> String {
        ready(super::encode(result))
    }

    pub fn link(base: &str, result: &RunResult) -> String {
        ready(super::link(base, result))
    }

    pub fn encode_comparison(results: &[RunResult]) -> String {
        ready(super::encode_comparison(results))
    }

    pub fn comparison_link(base: &str, results: &[RunResult]) -> String {
        ready(super::comparison_link(base, results))
    }

    pub fn decode(text: &str) -> Result<RunResult, ShareError> {
        ready(super::decode(text))
    }

    pub fn decode_comparison(text: &str) -> Result<Vec<RunResult>, ShareError> {
        ready(super::decode_comparison(text))
    }

    pub fn decode_any(text: &str) -> Result<Vec<RunResult>, ShareError> {
        ready(super::decode_any(text))
    }

    pub fn kernel_link(base: &str, kernel: &KernelText) -> Result<String, String> {
        ready(super::kernel_link(base, kernel))
    }

    pub fn decode_kernel(text: &str) -> Result<KernelText, ShareError> {
        ready(super::decode_kernel(text))
    }
}
