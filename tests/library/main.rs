//! The library's modules without a GPU, one file each: what they compute from plain data.
#![cfg(not(target_arch = "wasm32"))]

mod analysis;
mod bounds;
mod compare;
mod estimate;
mod host;
mod plan;
mod registry;
mod result_format;
mod shapes;
mod spec_fuzz;
mod spec_wgsl;
mod stats;
mod tune;

use wgsweep::gpu::ComputeLimits;

pub(crate) fn limits(invocations: u32, x: u32, storage: u32) -> ComputeLimits {
    ComputeLimits {
        max_workgroup_size_x: x,
        max_workgroup_size_y: x,
        max_workgroup_size_z: 64,
        max_invocations_per_workgroup: invocations,
        max_workgroup_storage_bytes: storage,
        max_workgroups_per_dimension: 65535,
        max_storage_buffer_binding_size: 128 << 20,
        max_buffer_size: 256 << 20,
    }
}

pub(crate) const MINIMAL_V1: &str = r#"{
  "schema_version": 1,
  "tool": {"name": "wgsweep", "version": "0.1.0"},
  "created": "2026-11-22T05:56:31.123Z",
  "device": {"vendor": "nvidia", "architecture": "", "device": "0x2330", "description": "NVIDIA H100",
             "vendor_id": 4318, "device_id": 9008, "device_type": "DiscreteGpu", "driver": "", "driver_info": "",
             "backend": "vulkan", "features": ["timestamp-query"],
             "limits": {"max_workgroup_size_x": 1024, "max_workgroup_size_y": 1024, "max_workgroup_size_z": 64,
                        "max_invocations_per_workgroup": 1024, "max_workgroup_storage_bytes": 49152,
                        "max_workgroups_per_dimension": 65535, "max_storage_buffer_binding_size": 2147483647,
                        "max_buffer_size": 4294967296}},
  "environment": {"runtime": "native", "platform": "linux x86_64", "timestamps": true, "timer_quantum_ns": 1.0,
                  "cross_origin_isolated": null},
  "settings": {"seed": 7, "samples": 10, "min_sample_ns": 1000000.0},
  "results": [{"family": "stream", "kernel": "triad", "variant": "scalar", "workgroup_size": [256, 1, 1],
               "problem_size": 67108864, "bytes_per_dispatch": 805306368, "dispatches_per_sample": 8,
               "samples_ns": [2400000.0], "median_ns": 300000.0, "min_ns": 300000.0, "p95_ns": 300000.0,
               "cv": 0.0, "gbps": 2684.35, "timing_source": "timestamp", "valid": true, "error": null,
               "skipped": null}],
  "complete": true
}"#;
