//! `wgsweep devices`: the adapters wgpu sees, with the limits and features a sweep depends on.

use std::process::ExitCode;

use wgsweep::gpu::MatrixConfig;

pub fn devices() -> Result<ExitCode, String> {
    let adapters = crate::adapters();
    if adapters.is_empty() {
        return Err("no GPU adapter found (is a Vulkan, Metal or DX12 driver installed?)".into());
    }
    for (index, adapter) in adapters.iter().enumerate() {
        let info = adapter.get_info();
        let limits = adapter.limits();
        println!(
            "{index}: {} ({:?}, {}, driver {} {})\n   workgroup ≤ {} invocations ({}×{}×{}), {} KiB workgroup memory, {} MiB per storage binding",
            info.name,
            info.device_type,
            info.backend,
            info.driver,
            info.driver_info,
            limits.max_compute_invocations_per_workgroup,
            limits.max_compute_workgroup_size_x,
            limits.max_compute_workgroup_size_y,
            limits.max_compute_workgroup_size_z,
            limits.max_compute_workgroup_storage_size / 1024,
            limits.max_storage_buffer_binding_size >> 20,
        );
        let features = adapter.features();
        let subgroups = match features.contains(wgpu::Features::SUBGROUP) {
            true => format!("subgroups of {}–{} invocations", info.subgroup_min_size, info.subgroup_max_size),
            false => "no subgroups".to_string(),
        };
        let f16 = if features.contains(wgpu::Features::SHADER_F16) { "shader-f16" } else { "no shader-f16" };
        let matrices: Vec<String> = MatrixConfig::of_adapter(adapter).iter().map(|c| c.text()).collect();
        let matrices = if matrices.is_empty() { "none".to_string() } else { matrices.join("; ") };
        println!("   {subgroups}, {f16}; cooperative matrices: {matrices}");
    }
    Ok(ExitCode::SUCCESS)
}
