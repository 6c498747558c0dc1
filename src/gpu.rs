//! Opening an adapter and a device with the adapter's own limits, and the device's fingerprint.
//!
//! WebGPU's default limits (256 invocations, 16 KiB of workgroup memory) sit far below most GPUs, so the
//! device asks for everything the adapter offers: a sweep must cover what the hardware can do.

use std::cell::OnceCell;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

/// The compute limits that decide which configurations a device can run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComputeLimits {
    pub max_workgroup_size_x: u32,
    pub max_workgroup_size_y: u32,
    pub max_workgroup_size_z: u32,
    pub max_invocations_per_workgroup: u32,
    pub max_workgroup_storage_bytes: u32,
    pub max_workgroups_per_dimension: u32,
    pub max_storage_buffer_binding_size: u64,
    pub max_buffer_size: u64,
}

impl ComputeLimits {
    pub fn from_wgpu(limits: &wgpu::Limits) -> Self {
        Self {
            max_workgroup_size_x: limits.max_compute_workgroup_size_x,
            max_workgroup_size_y: limits.max_compute_workgroup_size_y,
            max_workgroup_size_z: limits.max_compute_workgroup_size_z,
            max_invocations_per_workgroup: limits.max_compute_invocations_per_workgroup,
            max_workgroup_storage_bytes: limits.max_compute_workgroup_storage_size,
            max_workgroups_per_dimension: limits.max_compute_workgroups_per_dimension,
            max_storage_buffer_binding_size: limits.max_storage_buffer_binding_size,
            max_buffer_size: limits.max_buffer_size,
        }
    }

    /// The largest buffer one binding can see.
    pub fn max_binding_bytes(&self) -> u64 {
        self.max_storage_buffer_binding_size.min(self.max_buffer_size)
    }
}

/// What the adapter says it is. On the web wgpu leaves these empty, so the page reads
/// `GPUAdapter.info` itself and passes them in.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AdapterIdentity {
    pub vendor: String,
    pub architecture: String,
    pub device: String,
    pub description: String,
}

/// The device fingerprint stored with every result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceInfo {
    #[serde(flatten)]
    pub identity: AdapterIdentity,
    pub vendor_id: u32,
    pub device_id: u32,
    pub device_type: String,
    pub driver: String,
    pub driver_info: String,
    pub backend: String,
    pub limits: ComputeLimits,
    /// The optional features that matter to wgsweep, as WebGPU names them, present on the adapter.
    pub features: Vec<String>,
    /// The smallest and largest subgroup the adapter may run, where it offers subgroups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subgroup_sizes: Option<[u32; 2]>,
    /// The matrix products a subgroup does in one operation (tensor cores underneath): in a browser its
    /// `GPUAdapterInfo.subgroupMatrixConfigs`, natively wgpu's cooperative matrices.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matrix_configs: Vec<MatrixConfig>,
    /// The name the person running the page gave a device whose browser withholds its name (Firefox
    /// names none): theirs, shown as theirs, never part of the device class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub named_by_person: Option<String>,
}

/// One matrix product a subgroup does in one operation: C (M×N, of `result`) += A (M×K) × B (K×N), A and B
/// of `component`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatrixConfig {
    /// WGSL's name of A's and B's elements (`f16`, `i8`, ...).
    pub component: String,
    /// WGSL's name of C's elements.
    pub result: String,
    pub m: u32,
    pub n: u32,
    pub k: u32,
}

impl MatrixConfig {
    /// "f16 → f32, 16×16×16": inputs → result, M×N×K.
    pub fn text(&self) -> String {
        format!("{} → {}, {}×{}×{}", self.component, self.result, self.m, self.n, self.k)
    }

    /// The cooperative matrices wgpu finds on `adapter` (natively: on the web the page asks the browser).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn of_adapter(adapter: &wgpu::Adapter) -> Vec<MatrixConfig> {
        let name = |t: wgpu::CooperativeScalarType| format!("{t:?}").to_ascii_lowercase();
        let config = |p: &wgpu::CooperativeMatrixProperties| MatrixConfig {
            component: name(p.ab_type),
            result: name(p.cr_type),
            m: p.m_size,
            n: p.n_size,
            k: p.k_size,
        };
        adapter.cooperative_matrix_properties().iter().map(config).collect()
    }
}

impl DeviceInfo {
    pub fn has_feature(&self, name: &str) -> bool {
        self.features.iter().any(|f| f == name)
    }

    /// Whether the adapter runs shaders on the CPU: lavapipe natively (wgpu says so), SwiftShader in a browser
    /// (WebGPU names no device type; Chrome names its architecture).
    pub fn is_cpu_adapter(&self) -> bool {
        self.device_type == format!("{:?}", wgpu::DeviceType::Cpu)
            || self.identity.architecture.eq_ignore_ascii_case("swiftshader")
    }

    /// What the adapter says of itself, its most particular name first; `None` where it says nothing (a
    /// browser that withholds the adapter's name).
    pub fn own_name(&self) -> Option<&str> {
        let id = &self.identity;
        [&id.description, &id.device, &id.architecture, &id.vendor]
            .into_iter()
            .find(|s| !s.is_empty())
            .map(|s| s.as_str())
    }

    /// The adapter by what it says of itself: its own name, else `unnamed GPU, limits #` and the signature of
    /// what it exposes (the device class's name, which nothing a person types changes).
    pub fn exposed_name(&self) -> String {
        self.own_name().map_or_else(|| format!("{UNNAMED_GPU}, limits #{}", self.signature()), str::to_string)
    }

    /// A one-line name for tables and titles: the adapter's own, else the person's (marked as theirs), else
    /// what is known of it.
    pub fn name(&self) -> String {
        match (self.own_name(), &self.named_by_person) {
            (None, Some(theirs)) => format!("{theirs} (named by its user)"),
            _ => self.exposed_name(),
        }
    }

    /// Eight hex digits that stand for what a browser exposes of an adapter whose name it withholds: its ids
    /// and type, limits, features, subgroup sizes and matrix configurations. Two GPUs that differ in any of
    /// them differ here.
    pub fn signature(&self) -> String {
        let mut features = self.features.clone();
        crate::sort::ascending(&mut features);
        let exposed = format!(
            "{} {} {} {:?} {features:?} {:?} {:?}",
            self.vendor_id, self.device_id, self.device_type, self.limits, self.subgroup_sizes, self.matrix_configs
        );
        // FNV-1a: small, stable across builds and platforms, enough to tell a handful of adapters apart.
        let hash = exposed.bytes().fold(0x811c_9dc5_u32, |h, b| (h ^ b as u32).wrapping_mul(0x0100_0193));
        format!("{hash:08x}")
    }
}

impl Gpu {
    /// The device as a result records it: its fingerprint, with the person's name for it where the browser
    /// withholds its own.
    pub fn device_info(&self) -> DeviceInfo {
        let mut info = self.info.clone();
        if info.own_name().is_none() {
            info.named_by_person = self.named_by_person.borrow().clone();
        }
        info
    }

    /// Names a device whose browser withholds its name (at most `MAX_PERSON_NAME` characters, trimmed);
    /// `None` or an empty name takes the name back.
    pub fn name_device(&self, name: Option<&str>) {
        let name = name.map(|n| n.trim().chars().take(MAX_PERSON_NAME).collect::<String>()).filter(|n| !n.is_empty());
        *self.named_by_person.borrow_mut() = name;
    }
}

/// How an adapter whose browser withholds its name begins its `DeviceInfo::exposed_name`.
pub const UNNAMED_GPU: &str = "unnamed GPU";

/// The longest name a person may give a device.
pub const MAX_PERSON_NAME: usize = 80;

#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    #[error("no GPU adapter was found{0}")]
    NoAdapter(String),
    #[error("the adapter refused to open a device: {0}")]
    RequestDevice(String),
}

/// wgpu's token for its experimental features (the cooperative matrices are one), where `wanted`.
#[allow(unsafe_code)] // the crate's one unsafe call: wgpu asks its caller to accept the risk
fn experimental_features(wanted: bool) -> wgpu::ExperimentalFeatures {
    match wanted {
        // SAFETY: wgpu warns that its experimental features may hold bugs up to undefined behaviour; only
        // modules that declare `enable wgpu_cooperative_matrix;` reach the cooperative matrices, and every
        // product they make is validated like any other.
        true => unsafe { wgpu::ExperimentalFeatures::enabled() },
        false => wgpu::ExperimentalFeatures::disabled(),
    }
}

/// An open device with what wgsweep needs to know about it.
pub struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: DeviceInfo,
    /// GPU timestamps at pass boundaries are available and were enabled.
    pub timestamps: bool,
    /// Subgroup operations are available to shaders and were enabled (on the web through patches/wgpu).
    pub subgroups: bool,
    /// f16 in shaders (`enable f16;`) is available and was enabled.
    pub shader_f16: bool,
    /// Chromium's subgroup matrices (`chromium-experimental-subgroup-matrix`, WGSL's
    /// `chromium_experimental_subgroup_matrix`) are available and were enabled: in a browser that offers them
    /// (through patches/wgpu); never natively, where wgpu's cooperative matrices take a WGSL of naga's own.
    pub subgroup_matrices: bool,
    /// wgpu's experimental cooperative matrices (naga's WGSL, `wgpu_cooperative_matrix`) are available and were
    /// enabled: natively only, where the adapter offers them (Vulkan's VK_KHR_cooperative_matrix).
    pub cooperative_matrices: bool,
    /// WGSL's packed 4×8-bit integer dot products compile (naga always has them; a browser says so in
    /// `navigator.gpu.wgslLanguageFeatures`).
    pub packed_dot: bool,
    /// The longest wgsweep waits for one submission's work (`GPU_WAIT_LIMIT` unless a test sets less).
    pub wait_limit: std::time::Duration,
    /// The browser hears of finished work late unless prompted (`reports_late`): every wait then submits
    /// nothing every millisecond until its work is reported. Natively `wait` polls the device itself.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    reports_late: bool,
    /// What the person calls a device whose name the browser withholds (`DeviceInfo::named_by_person`).
    named_by_person: std::cell::RefCell<Option<String>>,
    lost: Arc<Mutex<Option<String>>>,
    given_up: std::cell::Cell<bool>,
    filler: OnceCell<crate::fill::Filler>,
}

/// The optional features wgsweep reports, with their WebGPU names.
pub const REPORTED_FEATURES: &[(wgpu::Features, &str)] = &[
    (wgpu::Features::TIMESTAMP_QUERY, "timestamp-query"),
    (wgpu::Features::SUBGROUP, "subgroups"),
    (wgpu::Features::SHADER_F16, "shader-f16"),
];

pub fn instance() -> wgpu::Instance {
    wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle())
}

/// The adapter a user most likely means: the high-performance one.
pub async fn default_adapter(instance: &wgpu::Instance) -> Result<wgpu::Adapter, GpuError> {
    instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        })
        .await
        .map_err(|e| GpuError::NoAdapter(format!(": {e}")))
}

/// An error scope that has the device's scopes to itself until it is popped (`Gpu::error_scope`).
pub struct ErrorScope {
    scope: wgpu::ErrorScopeGuard,
    _turn: crate::host::ScopeTurn,
}

impl ErrorScope {
    /// Pops the scope and lets the next part of the run push one; its error, if any, comes when the GPU
    /// has answered.
    pub fn pop(self) -> impl Future<Output = Option<wgpu::Error>> + use<> {
        self.scope.pop()
    }
}

impl Gpu {
    /// Pushes an error scope of `filter` once no other part of the run holds one (`host::scope_turn`): the
    /// work inside it may wait (a pipeline made asynchronously) while other work goes on.
    pub async fn error_scope(&self, filter: wgpu::ErrorFilter) -> ErrorScope {
        let turn = crate::host::scope_turn().await;
        ErrorScope { scope: self.device.push_error_scope(filter), _turn: turn }
    }

    /// Opens a device on `adapter` with all of its limits and the features wgsweep uses.
    /// `identity` overrides the adapter's own name fields (the web passes `GPUAdapter.info`).
    pub async fn open(adapter: &wgpu::Adapter, identity: Option<AdapterIdentity>) -> Result<Gpu, GpuError> {
        let info = adapter.get_info();
        let timestamps = adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY);
        let subgroups = adapter.features().contains(wgpu::Features::SUBGROUP);
        let shader_f16 = adapter.features().contains(wgpu::Features::SHADER_F16);
        // One wgpu feature, either dialect: in a browser its subgroup matrices (patches/wgpu maps the browser's
        // feature to it), natively naga's cooperative ones; either needs subgroups (their sizes) too.
        let matrices = subgroups && adapter.features().contains(wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX);
        let subgroup_matrices = cfg!(target_arch = "wasm32") && matrices;
        let cooperative_matrices = cfg!(not(target_arch = "wasm32")) && matrices;
        // Natively naga compiles them on every backend (without opening another instance to ask).
        let packed_dot = cfg!(not(target_arch = "wasm32"))
            || instance().wgsl_language_features().contains(wgpu::WgslLanguageFeatures::Packed4x8IntegerDotProduct);
        let mut required_features = wgpu::Features::empty();
        required_features.set(wgpu::Features::TIMESTAMP_QUERY, timestamps);
        required_features.set(wgpu::Features::SUBGROUP, subgroups);
        required_features.set(wgpu::Features::SHADER_F16, shader_f16);
        required_features.set(wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX, matrices);
        let limits = adapter.limits();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("wgsweep"),
                required_features,
                required_limits: limits.clone(),
                experimental_features: experimental_features(cooperative_matrices),
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::RequestDevice(e.to_string()))?;

        // Errors outside an error scope would otherwise panic natively; the runner scopes its own work.
        device.on_uncaptured_error(Arc::new(|error| log::error!("uncaptured GPU error: {error}")));
        let lost = Arc::new(Mutex::new(None));
        let lost_flag = lost.clone();
        device.set_device_lost_callback(move |reason, message| {
            // A reason given when wgsweep gave the device up (`wait`) is the one that says why.
            if let Ok(mut slot) = lost_flag.lock() {
                slot.get_or_insert(match message.as_str() {
                    "" => format!("{reason:?}"),
                    message => format!("{reason:?}: {message}"),
                });
            }
        });

        let identity = identity.unwrap_or_else(|| AdapterIdentity {
            vendor: vendor_name(info.vendor).unwrap_or_default().to_string(),
            architecture: String::new(),
            device: format!("0x{:04x}", info.device),
            description: info.name.clone(),
        });
        let features = REPORTED_FEATURES
            .iter()
            .filter(|(f, _)| adapter.features().contains(*f))
            .map(|(_, name)| name.to_string())
            .collect();
        let info = DeviceInfo {
            identity,
            vendor_id: info.vendor,
            device_id: info.device,
            device_type: format!("{:?}", info.device_type),
            driver: info.driver.clone(),
            driver_info: info.driver_info.clone(),
            backend: info.backend.to_string(),
            limits: ComputeLimits::from_wgpu(&limits),
            features,
            subgroup_sizes: subgroups.then_some([info.subgroup_min_size, info.subgroup_max_size]),
            #[cfg(not(target_arch = "wasm32"))]
            matrix_configs: MatrixConfig::of_adapter(adapter),
            #[cfg(target_arch = "wasm32")]
            matrix_configs: Vec::new(), // `web::adapter` reads them from the browser
            named_by_person: None,
        };
        let given_up = Default::default();
        let reports_late = reports_late(&queue).await;
        Ok(Gpu {
            device,
            queue,
            info,
            timestamps,
            subgroups,
            shader_f16,
            subgroup_matrices,
            cooperative_matrices,
            packed_dot,
            wait_limit: GPU_WAIT_LIMIT,
            reports_late,
            lost,
            given_up,
            filler: OnceCell::new(),
            named_by_person: Default::default(),
        })
    }

    /// The pipelines that write inputs and poison outputs, built on first use.
    pub fn filler(&self) -> &crate::fill::Filler {
        self.filler.get_or_init(|| crate::fill::Filler::new(&self.device))
    }

    /// Waits for `done`, which the GPU's work resolves (natively, the work of `submission`, or all of it),
    /// for at most `wait_limit`: work that takes longer is taken for a kernel that never ends, and the
    /// device is given up (lost, with that reason), since nothing else could run on it after.
    pub async fn wait<T>(
        &self,
        submission: Option<wgpu::SubmissionIndex>,
        done: futures_channel::oneshot::Receiver<T>,
    ) -> Result<T, String> {
        let answered = |done: Result<T, _>| done.map_err(|_| "the device stopped answering".to_string());
        #[cfg(not(target_arch = "wasm32"))]
        {
            let limit = Some(self.wait_limit);
            match self.device.poll(wgpu::PollType::Wait { submission_index: submission, timeout: limit }) {
                Err(wgpu::PollError::Timeout) => Err(self.give_up()),
                Err(error) => Err(error.to_string()),
                Ok(_) => answered(done.await),
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = submission; // the browser resolves `done` by itself
            match futures_util::future::select(done, std::pin::pin!(self.wait_limit_passed())).await {
                futures_util::future::Either::Left((done, _)) => answered(done),
                futures_util::future::Either::Right(_) => Err(self.give_up()),
            }
        }
    }

    /// Resolves once `wait_limit` has passed, prompting a browser that `reports_late` to look at its work
    /// every `NUDGE_EVERY` meanwhile. Apart from `wait`, which is made once for each type it waits for.
    #[cfg(target_arch = "wasm32")]
    async fn wait_limit_passed(&self) {
        let limit = crate::host::sleep(self.wait_limit);
        if !self.reports_late {
            return limit.await;
        }
        let nudges = async {
            loop {
                crate::host::sleep(NUDGE_EVERY).await;
                self.queue.submit([]);
            }
        };
        futures_util::future::select(std::pin::pin!(limit), std::pin::pin!(nudges)).await;
    }

    /// Loses the device on purpose, after work that did not finish: the reason is what the run reports.
    fn give_up(&self) -> String {
        let reason = format!(
            "the GPU had not finished its work after {} s, so wgsweep gave the device up: does a kernel never end?",
            self.wait_limit.as_secs_f64()
        );
        if let Ok(mut slot) = self.lost.lock() {
            slot.get_or_insert(reason.clone());
        }
        self.given_up.set(true);
        self.device.destroy();
        reason
    }

    /// Whether wgsweep gave the device up because its work did not finish (`wait`): the work in flight then
    /// is what lost it.
    pub fn given_up(&self) -> bool {
        self.given_up.get()
    }

    /// Why the device was lost, where it was: after work the device rejected, a browser that `reports_late`
    /// gets `LATE_LOSS` to say so (Firefox tells of a destroyed device at its next look, as of finished work,
    /// and its pipelines are invalid meanwhile).
    pub async fn lost_reason_soon(&self) -> Option<String> {
        #[cfg(target_arch = "wasm32")]
        if self.reports_late {
            let asked = web_time::Instant::now();
            while asked.elapsed() < LATE_LOSS {
                if let Some(reason) = self.lost_reason() {
                    return Some(reason);
                }
                crate::host::sleep(std::time::Duration::from_millis(5)).await;
            }
        }
        self.lost_reason()
    }

    /// Why the device was lost, once it has been.
    pub fn lost_reason(&self) -> Option<String> {
        // Natively a destroyed or lost device calls its lost callback at its next poll; the browser calls
        // it by itself.
        #[cfg(not(target_arch = "wasm32"))]
        let _ = self.device.poll(wgpu::PollType::Poll);
        self.lost.lock().ok().and_then(|slot| slot.clone())
    }
}

/// How often a wait prompts a browser that `reports_late`: prompted so, Firefox reported an idle queue's
/// work in 1.16 ms (median; docs/results/engines-h100.md).
#[cfg(target_arch = "wasm32")]
const NUDGE_EVERY: std::time::Duration = std::time::Duration::from_millis(1);

/// Whether the browser reports finished work only long after it finished, unless something is submitted:
/// Firefox (153) hears of it from a 100 ms timer (its bug 1870699), so a page waiting for each sample kept
/// an H100 idle four fifths of the time, its SMs mostly at 345 MHz of their 1980; any submission, an empty
/// one included, makes it look at once (docs/results/engines-h100.md). Measured as the median of three
/// waits on an idle queue, which Chromium reports within a millisecond and Firefox within 100.
async fn reports_late(queue: &wgpu::Queue) -> bool {
    if cfg!(not(target_arch = "wasm32")) {
        return false;
    }
    let mut late = 0;
    for _ in 0..3 {
        let (reported, done) = futures_channel::oneshot::channel();
        let start = web_time::Instant::now();
        queue.on_submitted_work_done(move || {
            let _ = reported.send(());
        });
        let _ = done.await;
        late += (start.elapsed() > LATE_REPORT) as u32;
    }
    late >= 2 // the median is late
}

/// A report later than this after work that took no time is late.
const LATE_REPORT: std::time::Duration = std::time::Duration::from_millis(10);

/// How long a browser that `reports_late` may take to say that the device was lost: Firefox's timer, and some.
#[cfg(target_arch = "wasm32")]
const LATE_LOSS: std::time::Duration = std::time::Duration::from_millis(250);

/// The longest wgsweep waits for one submission's work: far longer than any it measures (a dispatch over a
/// second is skipped, a sample is a few of them), so work still running after it is a kernel that never ends.
pub const GPU_WAIT_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// PCI vendor ids of the GPU makers people will see.
fn vendor_name(id: u32) -> Option<&'static str> {
    Some(match id {
        0x10de => "nvidia",
        0x1002 => "amd",
        0x8086 => "intel",
        0x106b => "apple",
        0x13b5 => "arm",
        0x5143 => "qualcomm",
        0x10005 => "mesa",
        _ => return None,
    })
}
