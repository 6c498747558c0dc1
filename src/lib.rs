//! wgsweep: GPU compute kernels swept over every workgroup size and memory layout, validated against CPU
//! references and timed with GPU timestamps, in the browser (WebGPU) and natively (wgpu).
//!
//! The page (`web`) and the CLI (`src/bin/wgsweep/`) are thin shells over `runner::run`. The modules
//! form layers, lowest first; a module imports only from the layers below its own (README, "Layout"):
//!
//! 1. `grid`: pure arithmetic; `sort`: the one sort; `host`: long host work in chunks that leave the page
//!    responsive; `bounds`: how much text a result may carry; then `stats` and `spec`: a user's kernel read.
//! 2. `fill`, then `gpu`: the device, and the pipelines that write inputs and poison outputs.
//! 3. `kernel`: the contract every family keeps, and the GPU helpers they share.
//! 4. `kernels`: the families, and the registry above them.
//! 5. `plan`, `measure`, `result`: what to run, how to time it, what comes out.
//! 6. `analysis`: figures derived from results (peaks, shares, suspects).
//! 7. `runner`, `share`, `compare`, `gallery` (what the results gallery and its readers agree on),
//!    `charts`, then `tune` (over the runner) and `baseline` (named results to compare with).
//! 8. `web` and the CLI.

/// A shader's WGSL as the build holds it (build.rs): in the page bare (without comments and indentation).
macro_rules! shader {
    ($name:literal) => {
        include_str!(concat!(env!("OUT_DIR"), "/", $name))
    };
}

pub mod analysis;
pub mod baseline;
pub mod bounds;
pub mod charts;
pub mod compare;
pub mod estimate;
pub mod fill;
pub mod gallery;
pub mod gpu;
pub mod grid;
pub mod host;
pub mod kernel;
pub mod kernels;
pub mod measure;
pub mod plan;
pub mod result;
pub mod runner;
pub mod share;
pub mod sort;
pub mod spec;
pub mod stats;
pub mod tune;

#[cfg(target_arch = "wasm32")]
pub mod web;

pub use gpu::Gpu;
pub use plan::Plan;
pub use result::RunResult;
pub use runner::run;
