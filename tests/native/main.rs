//! Native tests on whatever adapter is present (lavapipe in CI), one file a module of the library they
//! test: the stream family's validation, the runner, the measurement and the CLI.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../support/mod.rs"]
mod support;

mod cli;
mod measure;
mod runner;
mod stream;

use wgsweep::fill;
use wgsweep::gpu::Gpu;
use wgsweep::kernel::read_buffer;
use wgsweep::kernel::submit_once;
use wgsweep::kernel::{Configuration, Kernel, Prepared, ShaderChecks, Workload};
use wgsweep::kernels;
use wgsweep::plan::Plan;

/// Not a multiple of any workgroup size, and a whole number of vec4s.
pub(crate) const ODD_SIZE: u64 = 4 * 4099;

pub(crate) fn quick_plan(kernels: Vec<Kernel>, workgroup_sizes: Vec<u32>) -> Plan {
    support::quick_plan(kernels, ODD_SIZE, Some(workgroup_sizes))
}

pub(crate) fn stream_kernel(label: &str) -> Kernel {
    kernels::select(label).unwrap()[0]
}

pub(crate) fn configuration(label: &str, workgroup: u32) -> Configuration {
    Configuration {
        kernel: stream_kernel(label).id,
        checks: ShaderChecks::Default,
        workgroup: [workgroup, 1, 1],
        parameter: None,
    }
}

/// Sets up STREAM, runs `label` once at `workgroup` and returns what it wrote.
/// A STREAM kernel set up on the odd-sized problem and prepared at one workgroup size (the workload keeps
/// what the prepared steps bind).
pub(crate) fn prepare(gpu: &Gpu, label: &str, workgroup: u32) -> (Box<dyn Workload>, Prepared) {
    let stream = kernels::family("stream").unwrap();
    let workload = stream.setup(gpu, ODD_SIZE, fill::fresh_seed()).unwrap();
    let prepared = pollster::block_on(workload.prepare(gpu, &configuration(label, workgroup))).unwrap();
    (workload, prepared)
}

pub(crate) fn run_once_and_read(gpu: &Gpu, label: &str, workgroup: u32) -> (Box<dyn Workload>, Prepared, Vec<u8>) {
    let (workload, config) = prepare(gpu, label, workgroup);
    submit_once(gpu, &config);
    let bytes = pollster::block_on(read_buffer(gpu, &config.output)).unwrap();
    (workload, config, bytes)
}
