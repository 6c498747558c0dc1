//! What the GPU's compiler finds wrong with a user's kernel, each problem at its line and column: the
//! browser's messages as they are, naga's with the reasons it gives below its drawing of the source and its
//! variables named.

use crate::gpu::Gpu;
use crate::kernel::Skip;
use crate::spec::{Problem, Scalar, UserKernel};

/// Why no configuration of `kernel` can run on `gpu`, where it needs a feature the device does not offer
/// (f16, subgroups): its WGSL cannot even compile there.
pub fn lacked_feature(gpu: &Gpu, kernel: &UserKernel) -> Option<Skip> {
    let f16 = kernel.enables.contains("f16") || kernel.buffers.iter().any(|b| b.element.scalar == Scalar::F16);
    if f16 && !gpu.shader_f16 {
        return Some(Skip::needs_f16());
    }
    (kernel.enables.contains("subgroups") && !gpu.subgroups).then(Skip::needs_subgroups)
}

/// A compiler's message as one line: naga's first line and the reasons it gives below its drawing of the
/// source (its `= …` lines: "Entry point main at Compute is invalid" alone does not say why); a browser's
/// message is the sentence alone.
fn compiler_message(message: &str) -> String {
    let mut lines = message.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("");
    let reasons = lines.filter_map(|line| line.strip_prefix("= "));
    std::iter::once(first).chain(reasons).collect::<Vec<_>>().join(": ")
}

/// naga's "Global variable [2]" as "Global variable [2] `dst`": natively naga names a module's variables by
/// their index alone. (A browser's compiler names them itself.)
fn named_globals(message: &str, source: &str) -> String {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some((before, after)) = message.split_once("Global variable [")
        && let Some((index, rest)) = after.split_once(']')
        && let Ok(index) = index.parse::<usize>()
        && let Ok(module) = wgpu::naga::front::wgsl::parse_str(source)
        && let Some((_, variable)) = module.global_variables.iter().nth(index)
        && let Some(name) = &variable.name
    {
        return format!("{before}Global variable [{index}] `{name}`{rest}");
    }
    let _ = source;
    message.to_string()
}

/// What the GPU's compiler finds wrong with `kernel`'s WGSL (`name` labels its module), each at its line and
/// column (the browser's compilation messages; natively naga's); empty where it compiles, and where the device
/// lacks a feature it enables (each configuration then says what it lacks). A template is
/// compiled as the first configuration the restrictions admit fills it in, and its places say so.
pub async fn problems(gpu: &Gpu, name: &str, kernel: &UserKernel) -> Vec<Problem> {
    if lacked_feature(gpu, kernel).is_some() {
        return Vec::new(); // this device cannot compile it; each configuration says what it lacks
    }
    let first = kernel.first_admitted(gpu.info.limits.max_invocations_per_workgroup).unwrap_or_default();
    let source = kernel.source_at(&first).unwrap_or(std::borrow::Cow::Borrowed(&kernel.source));
    let filled = match kernel.template.is_empty() {
        true => String::new(),
        false => {
            let shown: Vec<String> = first.iter().map(|(name, value)| format!("{name}={value}")).collect();
            format!(" (the template filled at {})", shown.join(", "))
        }
    };
    #[cfg(not(target_arch = "wasm32"))]
    {
        let over = over_memory_limits(&source, gpu.info.limits.max_workgroup_storage_bytes);
        if !over.is_empty() {
            return over.into_iter().map(|message| Problem { place: format!("WGSL{filled}"), message }).collect();
        }
    }
    let scope = gpu.error_scope(wgpu::ErrorFilter::Validation).await;
    let module = gpu.device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(name),
        source: wgpu::ShaderSource::Wgsl(crate::kernel::for_this_compiler(&source)),
    });
    let info = module.get_compilation_info().await;
    let error = scope.pop().await;
    let mut problems: Vec<Problem> = info
        .messages
        .iter()
        .filter(|m| m.message_type == wgpu::CompilationMessageType::Error)
        .map(|m| {
            let place = match &m.location {
                Some(at) => format!("WGSL line {}, column {}{filled}", at.line_number, at.line_position),
                None => format!("WGSL{filled}"),
            };
            let message = named_globals(&compiler_message(&m.message), &source);
            let label = format!("Shader '{name}' ");
            Problem { place, message: message.strip_prefix(&label).unwrap_or(&message).to_string() }
        })
        .collect();
    if problems.is_empty()
        && let Some(error) = error
    {
        problems.push(Problem { place: format!("WGSL{filled}"), message: error.to_string() });
    }
    problems
}

/// The most bytes WGSL lets a shader's private variables, and each function's variables, take (the WGSL
/// specification's limits, which browsers' compilers hold).
#[cfg(not(target_arch = "wasm32"))]
const MOST_VARIABLE_BYTES: u64 = 8192;

/// Where `source` declares more memory than WGSL or `workgroup_limit` allows: browsers refuse such a shader
/// at once, naga compiles it, and the driver may then take the machine's memory (lavapipe took 13.5 GB for
/// a 1 GiB workgroup array, then crashed). Empty where it does not parse: the compiler says why.
#[cfg(not(target_arch = "wasm32"))]
fn over_memory_limits(source: &str, workgroup_limit: u32) -> Vec<String> {
    use wgpu::naga::{AddressSpace, proc::Layouter};
    let Ok(module) = wgpu::naga::front::wgsl::parse_str(source) else { return Vec::new() };
    let mut layouter = Layouter::default();
    if let Err(error) = layouter.update(module.to_ctx()) {
        return vec![format!("a type is too large to lay out in memory ({})", error.inner)];
    }
    let size = |ty: wgpu::naga::Handle<wgpu::naga::Type>| u64::from(layouter[ty].size);
    let in_space = |space| -> u64 {
        module.global_variables.iter().filter(|(_, v)| v.space == space).map(|(_, v)| size(v.ty)).sum()
    };
    let mut over = Vec::new();
    let private = in_space(AddressSpace::Private);
    if private > MOST_VARIABLE_BYTES {
        over.push(format!("its private variables take {private} bytes; WGSL allows {MOST_VARIABLE_BYTES}"));
    }
    let workgroup = most_workgroup_bytes(&module, size);
    if workgroup > u64::from(workgroup_limit) {
        over.push(format!("its workgroup variables take {workgroup} bytes; this device allows {workgroup_limit}"));
    }
    let functions = module.functions.iter().map(|(_, f)| f).chain(module.entry_points.iter().map(|e| &e.function));
    for function in functions {
        let local: u64 = function.local_variables.iter().map(|(_, v)| size(v.ty)).sum();
        if local > MOST_VARIABLE_BYTES {
            let name = function.name.as_deref().unwrap_or("?");
            over.push(format!("`{name}`'s variables take {local} bytes; WGSL allows {MOST_VARIABLE_BYTES}"));
        }
    }
    over
}

/// The most bytes of workgroup variables one pipeline holds: those one entry point of `module` uses (WebGPU's
/// limit is on those), and those none uses, which a compiler may keep as declared. All of the module's where
/// it does not validate, so that naga cannot say which each uses (the compiler then says why).
#[cfg(not(target_arch = "wasm32"))]
fn most_workgroup_bytes(
    module: &wgpu::naga::Module,
    size: impl Fn(wgpu::naga::Handle<wgpu::naga::Type>) -> u64,
) -> u64 {
    use wgpu::naga::valid::{Capabilities, ValidationFlags, Validator};
    let workgroup: Vec<_> =
        module.global_variables.iter().filter(|(_, v)| v.space == wgpu::naga::AddressSpace::WorkGroup).collect();
    let Ok(info) = Validator::new(ValidationFlags::all(), Capabilities::all()).validate(module) else {
        return workgroup.iter().map(|(_, v)| size(v.ty)).sum();
    };
    let entries: Vec<_> = (0..module.entry_points.len()).map(|entry| info.get_entry_point(entry)).collect();
    let bytes_used_by = |used: &dyn Fn(wgpu::naga::Handle<wgpu::naga::GlobalVariable>) -> bool| -> u64 {
        workgroup.iter().filter(|(handle, _)| used(*handle)).map(|(_, v)| size(v.ty)).sum()
    };
    let unused = bytes_used_by(&|handle| entries.iter().all(|uses| uses[handle].is_empty()));
    let most = entries.iter().map(|uses| bytes_used_by(&|handle| !uses[handle].is_empty())).max();
    unused + most.unwrap_or(0)
}
