//! Comparing a configuration's output with the CPU reference, on the CPU or on the GPU, and the failure it
//! reports.
//!
//! On the GPU, a `Reference` says what each word of an output must hold (`Expected`); it is uploaded once
//! per input and `GpuCheck` compares every word of each configuration's output with it
//! (shaders/compare.wgsl), so that only a summary crosses the bus; the first mismatches are read back
//! from where the summary says the first one is. Both sides keep one rule, `Expected::admits` (for floats,
//! `passes`). A reference of words alone is kept as their digest (`digest`) until an output fails it.

use std::cell::RefCell;
use std::fmt;
use std::ops::Range;
use std::rc::Rc;

use super::buffers::{OwnedBuffer, storage_buffer};
use super::digest;
use super::expected::{Expected, Mismatch};
use super::readback;
#[cfg(target_arch = "wasm32")]
use super::recipe::WORKER_MIN_WORDS;
use super::recipe::{Encoder, REFERENCE_CHUNK, Recipe, words_alone};
use crate::gpu::Gpu;
use crate::{grid, host};

/// A failed comparison: the first mismatches (as BabelStream prints them) and how many there were.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationError {
    pub what: &'static str,
    pub first: Vec<Mismatch>,
    pub wrong: u64,
    pub checked: u64,
}

/// How many mismatches a validation error lists before it only counts.
const LISTED_MISMATCHES: usize = 10;

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, m) in self.first.iter().enumerate() {
            if n > 0 {
                f.write_str("; ")?;
            }
            write!(
                f,
                "{}[{}]: {:e} (is) != {:e} (should), diff {:e} > tol {:e}",
                self.what,
                m.index,
                m.got,
                m.want,
                (m.got - m.want).abs(),
                m.tolerance
            )?;
        }
        write!(f, "; {} of {} wrong", self.wrong, self.checked)
    }
}

/// Collects mismatches while an output is compared element by element.
pub struct Comparison {
    error: ValidationError,
}

impl Comparison {
    pub fn new(what: &'static str) -> Self {
        Self { error: ValidationError { what, first: Vec::new(), wrong: 0, checked: 0 } }
    }

    /// Checks one value; NaN never passes.
    pub fn check(&mut self, index: u64, got: f64, want: f64, tolerance: f64) {
        self.error.checked += 1;
        if (got - want).abs() <= tolerance {
            return;
        }
        self.mismatch(index, got, want, tolerance);
    }

    /// Checks one word of output against what it must hold, by `Expected::admits`.
    pub fn check_word(&mut self, index: u64, found: u32, want: Expected) {
        self.error.checked += 1;
        if !want.admits(found) {
            let Mismatch { index, got, want, tolerance } = want.mismatch(index, found);
            self.mismatch(index, got, want, tolerance);
        }
    }

    /// Counts a wrong value, and lists it among the first ones.
    fn mismatch(&mut self, index: u64, got: f64, want: f64, tolerance: f64) {
        self.error.wrong += 1;
        if self.error.first.len() < LISTED_MISMATCHES {
            self.error.first.push(Mismatch { index, got, want, tolerance });
        }
    }

    pub fn finish(self) -> Result<(), ValidationError> {
        if self.error.wrong == 0 { Ok(()) } else { Err(self.error) }
    }
}

/// Reads little-endian f32 values out of a mapped buffer.
pub fn f32s(bytes: &[u8]) -> impl Iterator<Item = f32> + '_ {
    u32s(bytes).map(f32::from_bits)
}

/// Reads little-endian 32-bit words out of a mapped buffer.
pub fn u32s(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes.chunks_exact(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
}

/// How the words of a trusted output are matched (`Reference::of_output`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Words {
    /// The very bits: integers.
    Exact,
    /// f32 within `tolerance` × max(|want|, 1).
    F32 { tolerance: f32 },
    /// Two f16 elements a word, within `tolerance` × the larger magnitude (at least 1).
    F16Pairs { tolerance: f32 },
    /// Four 8-bit unorm channels a word (an `rgba8unorm` texel), each within `tolerance` of the full scale
    /// (1/255 lets each be one step off).
    Unorm8 { tolerance: f32 },
}

/// The expected output of one kernel on one input, on the GPU: what each word must hold. Made once per
/// input and kept while configurations use it. At 8 bytes a word it is twice the output, so it is stored
/// in parts that each fit one binding, and compared part by part; where every word is one to match bit
/// for bit (`Recipe::words_only`), only their digest is kept (none is stored), or where the output
/// repeats, only the words, 4 bytes each.
pub struct Reference {
    what: &'static str,
    parts: Vec<OwnedBuffer>,
    /// Whether the parts hold the words alone (`Recipe::words_only`), not `Expected::encode`'s pairs.
    words_only: bool,
    /// Elements in each part but the last.
    part_len: u64,
    /// Words of output compared.
    count: u64,
    /// Word i must hold element i % period: outputs that repeat (one chain's sums per lane) store one period.
    period: u64,
    /// Where the reference is kept as a digest of its words, none of them stored.
    digest: Option<Digest>,
}

/// A reference's digest (`digest`), and the recipe its words are built from in full where an output's
/// digest differs, to say which words are wrong.
struct Digest {
    lanes: [u32; 2],
    recipe: Box<dyn Encoder>,
}

/// Bytes a reference stores a word in: its value and tolerance (`Expected::encode`), or the word alone.
fn word_bytes(words_only: bool) -> u64 {
    if words_only { 4 } else { 8 }
}

impl Reference {
    /// Uploads what each of the output's `count` words must hold, chunk by chunk, as `recipe` says; `what`
    /// names the output in messages ("c"). Where every word is one to match bit for bit, keeps their digest
    /// instead, and the recipe.
    pub async fn build(gpu: &Gpu, what: &'static str, count: u64, recipe: impl Recipe + 'static) -> Self {
        Self::build_of(gpu, what, count, Box::new(recipe)).await
    }

    /// `build` behind a box: one copy of it serves every family (the page's download holds it once, not
    /// once per recipe type).
    async fn build_of(gpu: &Gpu, what: &'static str, count: u64, recipe: Box<dyn Encoder>) -> Self {
        if !recipe.words_only() {
            return Self::periodic_of(gpu, what, count, count, recipe.as_ref()).await;
        }
        assert!(count <= 1 << 32, "a digest's indices are 32-bit");
        let lanes = digest::of_recipe(recipe.as_ref(), count).await;
        let digest = Some(Digest { lanes, recipe });
        Reference { what, parts: Vec::new(), words_only: true, part_len: part_len(gpu), count, period: count, digest }
    }

    /// As `build`, for an output whose word i must hold word i % `period`: only one period is computed.
    /// A period shorter than the output fits one binding.
    pub async fn periodic(gpu: &Gpu, what: &'static str, count: u64, period: u64, recipe: impl Recipe) -> Self {
        Self::periodic_of(gpu, what, count, period, &recipe).await
    }

    /// `periodic` behind a reference to the recipe: one copy of it serves every family (the page's download
    /// holds it once, not once per recipe type).
    async fn periodic_of(gpu: &Gpu, what: &'static str, count: u64, period: u64, recipe: &dyn Encoder) -> Self {
        let part_len = part_len(gpu);
        assert!(period == count || period <= part_len, "a repeating reference fits one binding");
        let (mut parts, words_only) = (Vec::new(), recipe.words_only());
        let width = word_bytes(words_only);
        for part_start in (0..period.max(1)).step_by(part_len as usize) {
            let part_end = (part_start + part_len).min(period);
            let part = storage_buffer(gpu, "reference", ((part_end - part_start) * width).max(8));
            #[cfg(target_arch = "wasm32")]
            if part_end - part_start >= WORKER_MIN_WORDS && in_workers(gpu, &part, part_start..part_end, recipe).await {
                parts.push(part);
                continue;
            }
            for start in (part_start..part_end).step_by(REFERENCE_CHUNK as usize) {
                let end = (start + REFERENCE_CHUNK).min(part_end);
                let size = wgpu::BufferSize::new((end - start) * width).expect("a chunk holds a word");
                // Written where wgpu stages the upload: natively no chunk of pairs is copied on the host.
                let mut upload = gpu
                    .queue
                    .write_buffer_with(&part, (start - part_start) * width, size)
                    .expect("the chunk lies in its part");
                let at = |range: Range<u64>| start + range.start..start + range.end;
                if words_only {
                    // Encoded as pairs, then the words alone: one encoder serves both in the page's download.
                    let mut pairs = vec![[0; 8]; (end - start) as usize];
                    host::fill((&mut pairs[..]).into(), |range, out| recipe.encode(at(range), out)).await;
                    upload.copy_from_slice(&words_alone(pairs.as_flattened()));
                } else {
                    let (chunk, _) = upload.slice(..).into_chunks::<8>();
                    host::fill(chunk, |range, out| recipe.encode(at(range), out)).await;
                }
                drop(upload);
                host::pause_if_due().await; // the browser copies the chunk on this thread
            }
            parts.push(part);
        }
        Reference { what, parts, words_only, part_len, count, period, digest: None }
    }

    /// A reference made on the GPU from `raw`, the `count` words a trusted run wrote (a user's reference
    /// entry point, or the first configuration): each word must be matched as `words` says.
    pub async fn of_output(
        gpu: &Gpu,
        what: &'static str,
        raw: &wgpu::Buffer,
        count: u64,
        words: Words,
    ) -> Result<Self, String> {
        let pipeline = check_pipeline(gpu, "encode");
        let (kind, tolerance) = match words {
            Words::Exact => (0u32, 0.0f32),
            Words::F32 { tolerance } => (1, tolerance),
            Words::F16Pairs { tolerance } => (2, tolerance),
            Words::Unorm8 { tolerance } => (3, tolerance),
        };
        let part_len = part_len(gpu);
        let mut parts = Vec::new();
        for part_start in (0..count.max(1)).step_by(part_len as usize) {
            let words = (part_start + part_len).min(count.max(1)) - part_start;
            let part = storage_buffer(gpu, "reference", words * 8);
            let params = uniform_words(gpu, "encoding", [words as u32, kind, tolerance.to_bits(), crate::fill::POISON]);
            let found =
                wgpu::BufferBinding { buffer: raw, offset: part_start * 4, size: wgpu::BufferSize::new(words * 4) };
            let bind_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("encode"),
                layout: &pipeline.get_bind_group_layout(0),
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::Buffer(found) },
                    wgpu::BindGroupEntry { binding: 4, resource: part.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 5, resource: params.as_entire_binding() },
                ],
            });
            let groups = words.div_ceil(CHECK_WORKGROUP as u64);
            let [x, y, _] = grid::dispatch_grid(groups, gpu.info.limits.max_workgroups_per_dimension)
                .ok_or("the output is too large to compare on the GPU")?;
            super::submit(gpu, |encoder| {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &bind_group, &[]);
                pass.dispatch_workgroups(x, y, 1);
            });
            parts.push(part);
        }
        readback::idle(gpu).await?;
        Ok(Reference { what, parts, words_only: false, part_len, count, period: count, digest: None })
    }

    /// The words each pass covers, as many as one binding holds: (first word, words).
    fn spans(&self) -> Vec<(u64, u64)> {
        (0..self.count)
            .step_by(self.part_len as usize)
            .map(|start| (start, self.part_len.min(self.count - start)))
            .collect()
    }

    /// The words each comparison pass covers: (first word, words, the part it reads).
    fn passes(&self) -> Vec<(u64, u64, &OwnedBuffer)> {
        if self.period < self.count {
            return vec![(0, self.count, &self.parts[0])];
        }
        self.spans().into_iter().zip(&self.parts).map(|((start, count), part)| (start, count, part)).collect()
    }
}

/// Page only: computes the words `range` of `part` in Web Workers and puts each chunk in place as it comes,
/// from the worker's bytes through a staging buffer (`staging`). False where the workers cannot (none could
/// start, or one failed) or a chunk could not be put in place on a device that is not lost: the caller
/// computes the part itself, on the page's thread.
#[cfg(target_arch = "wasm32")]
async fn in_workers(gpu: &Gpu, part: &wgpu::Buffer, range: Range<u64>, recipe: &dyn Encoder) -> bool {
    let (first, words) = (range.start, range.end - range.start);
    let (chunk, width) = (REFERENCE_CHUNK * 4, word_bytes(recipe.words_only()));
    let staging = super::staging::Staging::new(gpu, part, chunk.min(words) * width);
    let (family, json) = (recipe.family(), recipe.json());
    let began = web_time::Instant::now();
    let write = |start: u64, bytes| Box::pin(staging.write((start - first) * width, bytes)) as host::workers::Taken;
    let computed = host::workers::compute(host::workers::Work::Words, family, &json, range, chunk, &write).await;
    let finished = staging.finish().await;
    match computed.and(finished) {
        Ok(()) => {
            log::debug!("{family} reference: {words} words in {:.3} s", began.elapsed().as_secs_f64());
            true
        }
        Err(why) => {
            log::debug!("{family} reference computed on the page's thread: {why}");
            // On a lost device nothing more reaches the GPU: the run stops as lost, without this part.
            gpu.lost_reason().is_some()
        }
    }
}

/// The references a workload kept, and what each was made for: families whose configurations share a
/// reference (one per kernel, per matrix, per radius) keep the last one, since a sweep runs them together.
/// The page also keeps the one built ahead, in its workers, while configurations checked with the last one
/// are still measured (`runner::Ahead`): two at most there, one natively.
pub struct KeptReference<K> {
    /// The least recently asked for first.
    kept: RefCell<Vec<(K, Rc<Reference>)>>,
}

/// References a workload keeps at most.
const KEPT: usize = if cfg!(target_arch = "wasm32") { 2 } else { 1 };

thread_local! {
    /// References built so far (`KeptReference::get_or_build`), sums included (`sums::sum`): the runner's
    /// way to tell a reference built ahead from one that was kept already.
    static BUILT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many references `KeptReference`s have built so far, and sums `sums::sum` has added up.
pub fn references_built() -> u64 {
    BUILT.get()
}

/// Counts one reference more as built.
pub(super) fn count_built() {
    BUILT.set(BUILT.get() + 1);
}

impl<K: PartialEq> Default for KeptReference<K> {
    fn default() -> Self {
        Self { kept: RefCell::default() }
    }
}

impl<K: PartialEq> KeptReference<K> {
    /// The reference kept for `key`, or the one `build` makes (after the least recently asked for is freed,
    /// where as many as are kept at most are kept already).
    pub async fn get_or_build(&self, key: K, build: impl Future<Output = Reference>) -> Rc<Reference> {
        {
            let mut kept = self.kept.borrow_mut();
            if let Some(at) = kept.iter().position(|(known, _)| *known == key) {
                let found = kept.remove(at);
                let reference = found.1.clone();
                kept.push(found);
                return reference;
            }
            let over = (kept.len() + 1).saturating_sub(KEPT);
            kept.drain(..over);
        }
        count_built();
        let reference = Rc::new(build.await);
        self.kept.borrow_mut().push((key, reference.clone()));
        reference
    }
}

/// What the comparison kernel hands back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub wrong: u64,
    /// The lowest wrong index, where any element is wrong.
    pub first_wrong: Option<u64>,
    /// The largest |found - want| over every float element (NaN where a found value was NaN); 0 where
    /// every element is a word.
    pub largest_error: f32,
}

/// A comparison submitted (`GpuCheck::submit`): the buffer its summary or digest is written to, and for a
/// digest, the reference's.
pub struct Submitted {
    written: OwnedBuffer,
    digest: Option<[u32; 2]>,
}

/// Reads back the summary a comparison with a reference stored in full wrote (`GpuCheck::submit`).
pub async fn read_summary(gpu: &Gpu, submitted: Submitted) -> Result<Summary, String> {
    if submitted.digest.is_some() {
        return Err("a reference kept as a digest has no summary: `passed` says whether the output matched".into());
    }
    let bytes = readback::read_buffer(gpu, &submitted.written).await?;
    let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"));
    Ok(Summary {
        wrong: word(0) as u64,
        first_wrong: (word(0) > 0).then_some(word(1) as u64),
        largest_error: f32::from_bits(word(2)),
    })
}

/// Whether the output of a comparison submitted (`GpuCheck::submit`) matched its reference.
pub async fn passed(gpu: &Gpu, submitted: Submitted) -> Result<bool, String> {
    let Some(want) = submitted.digest else { return Ok(read_summary(gpu, submitted).await?.first_wrong.is_none()) };
    let bytes = readback::read_buffer(gpu, &submitted.written).await?;
    let lane = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"));
    Ok([lane(0), lane(1)] == want)
}

/// The comparison kernel's pipelines, built once per run: against pairs of value and tolerance, and (made
/// where a reference needs them) against words alone, and the output's digest.
pub struct GpuCheck {
    pipeline: wgpu::ComputePipeline,
    words_pipeline: std::cell::OnceCell<wgpu::ComputePipeline>,
    digest_pipeline: std::cell::OnceCell<wgpu::ComputePipeline>,
}

/// Invocations per workgroup of the comparison kernel.
const CHECK_WORKGROUP: u32 = 256;
/// WGSL has no includes: the grid's index helpers go in front. compare.wgsl comes bare (build.rs).
const CHECK_WGSL: &str = concat!(shader!("grid.wgsl"), shader!("compare.wgsl"));

/// The pipeline of compare.wgsl's `entry`: `compare` (`compare_words`, against words alone), or `encode`,
/// which makes a reference of an output.
fn check_pipeline(gpu: &Gpu, entry: &str) -> wgpu::ComputePipeline {
    let module = gpu.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("compare.wgsl"),
        source: wgpu::ShaderSource::Wgsl(CHECK_WGSL.into()),
    });
    gpu.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(entry),
        layout: None,
        module: &module,
        entry_point: Some(entry),
        compilation_options: wgpu::PipelineCompilationOptions {
            constants: &[("WG", CHECK_WORKGROUP as f64)],
            ..Default::default()
        },
        cache: None,
    })
}

/// A uniform buffer holding `words`, little-endian: a pass's parameters.
fn uniform_words(gpu: &Gpu, label: &str, words: [u32; 4]) -> wgpu::Buffer {
    let contents: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    super::buffer_holding(gpu, label, wgpu::BufferUsages::UNIFORM, &contents)
}

/// Elements in each part of a reference but the last: as many as one binding holds, in whole 64-element
/// (512-byte) steps, which every storage offset alignment divides.
fn part_len(gpu: &Gpu) -> u64 {
    (gpu.info.limits.max_binding_bytes() / 8 / 64 * 64).max(64)
}

impl GpuCheck {
    pub fn new(gpu: &Gpu) -> Self {
        GpuCheck {
            pipeline: check_pipeline(gpu, "compare"),
            words_pipeline: Default::default(),
            digest_pipeline: Default::default(),
        }
    }

    /// Submits the comparison of the first words of `output`, one per element of `reference`, with it on
    /// the GPU: against a reference stored in full, a summary (`read_summary`: how many elements are wrong,
    /// the first wrong one, the largest error); against one kept as a digest, the output's digest. `passed`
    /// says whether it matched.
    pub fn submit(&self, gpu: &Gpu, output: &wgpu::Buffer, reference: &Reference) -> Result<Submitted, String> {
        let too_large = || "the output is too large to compare on the GPU".to_string();
        let words = |n: u64| u32::try_from(n).map_err(|_| too_large());
        let written = storage_buffer(gpu, "comparison summary", 16);
        let start = if reference.digest.is_some() { [0; 4] } else { [0, u32::MAX, 0, 0] };
        gpu.queue.write_buffer(&written, 0, &start.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>());
        let (pipeline, binding) = match (&reference.digest, reference.words_only) {
            (Some(_), _) => (self.digest_pipeline.get_or_init(|| check_pipeline(gpu, "digest_words")), 7),
            (None, true) => (self.words_pipeline.get_or_init(|| check_pipeline(gpu, "compare_words")), 6),
            (None, false) => (&self.pipeline, 1),
        };
        // A digest's pass binds the digest's buffer where a comparison's binds a part of the reference and
        // its summary.
        let spans: Vec<(u64, u64, &wgpu::Buffer)> = match reference.digest {
            Some(_) => reference.spans().into_iter().map(|(first, count)| (first, count, &*written)).collect(),
            None => reference.passes().into_iter().map(|(first, count, part)| (first, count, &**part)).collect(),
        };
        let mut passes = Vec::new();
        for (first, count, read) in spans {
            let period = reference.period.min(count);
            let params = uniform_words(gpu, "comparison pass", [words(count)?, words(period)?, words(first)?, 0]);
            let found = wgpu::BufferBinding {
                buffer: output,
                offset: first * 4,
                size: wgpu::BufferSize::new(count.max(1) * 4),
            };
            let mut entries = vec![
                wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::Buffer(found) },
                wgpu::BindGroupEntry { binding, resource: read.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 3, resource: params.as_entire_binding() },
            ];
            if reference.digest.is_none() {
                entries.push(wgpu::BindGroupEntry { binding: 2, resource: written.as_entire_binding() });
            }
            let bind_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("compare"),
                layout: &pipeline.get_bind_group_layout(0),
                entries: &entries,
            });
            let groups = count.div_ceil(CHECK_WORKGROUP as u64);
            let max = gpu.info.limits.max_workgroups_per_dimension;
            passes.push((bind_group, grid::dispatch_grid(groups, max).ok_or_else(too_large)?));
        }
        super::submit(gpu, |encoder| {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            for (bind_group, [x, y, _]) in &passes {
                pass.set_bind_group(0, bind_group, &[]);
                pass.dispatch_workgroups(*x, *y, 1);
            }
        });
        Ok(Submitted { written, digest: reference.digest.as_ref().map(|digest| digest.lanes) })
    }

    /// Compares `output` with `reference` on the GPU; where elements are wrong, reads the output and the
    /// reference from the first wrong element on and lists the first mismatches, as the CPU check does.
    /// Against a reference kept as a digest, compares the digests, and where they differ builds the
    /// reference in full to compare with.
    pub async fn check(&self, gpu: &Gpu, output: &wgpu::Buffer, reference: &Reference) -> Result<(), String> {
        let Some(digest) = &reference.digest else { return self.check_stored(gpu, output, reference).await };
        if passed(gpu, self.submit(gpu, output, reference)?).await? {
            return Ok(());
        }
        let (what, count) = (reference.what, reference.count);
        let stored = Reference::periodic_of(gpu, what, count, count, digest.recipe.as_ref()).await;
        let checked = self.check_stored(gpu, output, &stored).await;
        if checked.is_ok() {
            log::warn!("{what}: the output's digest differs from its reference's, and no word of it does");
        }
        checked
    }

    /// `check` against a reference stored in full.
    async fn check_stored(&self, gpu: &Gpu, output: &wgpu::Buffer, reference: &Reference) -> Result<(), String> {
        let summary = read_summary(gpu, self.submit(gpu, output, reference)?).await?;
        let Some(first) = summary.first_wrong else { return Ok(()) };
        // The listed mismatches lie at or after the first wrong element; a window a few times longer than
        // the list finds them unless wrong elements are sparse, and the count says how many there are.
        let window = (reference.count - first).min(16 * LISTED_MISMATCHES as u64);
        let found = readback::read_range(gpu, output, first * 4, window * 4).await?;
        // A periodic reference is short: read it whole rather than work out where it wraps. Otherwise the
        // window ends with the part that holds the first wrong element.
        let (from, expected) = if reference.period < reference.count {
            (0, readback::read_buffer(gpu, &reference.parts[0]).await?)
        } else {
            let (part, at) = (first / reference.part_len, first % reference.part_len);
            let (part, width) = (&reference.parts[part as usize], word_bytes(reference.words_only));
            let window = window.min(part.size() / width - at);
            (first, readback::read_range(gpu, part, at * width, window * width).await?)
        };
        let word = |bytes: &[u8]| u32::from_le_bytes(bytes.try_into().expect("4 bytes"));
        let expected: Vec<Expected> = match reference.words_only {
            true => expected.chunks_exact(4).map(|bytes| Expected::Word(word(bytes))).collect(),
            false => {
                expected.chunks_exact(8).map(|pair| Expected::decode([word(&pair[..4]), word(&pair[4..])])).collect()
            }
        };
        let mut comparison = Comparison::new(reference.what);
        for (k, bytes) in found.chunks_exact(4).enumerate() {
            let index = first + k as u64;
            let Some(&want) = expected.get(((index % reference.period) - from) as usize) else { break };
            comparison.check_word(index, word(bytes), want);
        }
        let mut error = comparison.error;
        (error.wrong, error.checked) = (summary.wrong, reference.count);
        if summary.largest_error == 0.0 {
            return Err(format!("FAILED validation: {error}"));
        }
        Err(format!("FAILED validation: {error}; largest error {:e}", summary.largest_error))
    }
}
