//! wgsweep: GPU compute kernels swept over every workgroup size and memory layout, validated against CPU
//! references and timed with GPU timestamps, in the browser (WebGPU) and natively (wgpu).
//!
//! The page (`web`) and the CLI (`src/bin/wgsweep.rs`) are thin shells over `runner::run`.

// Layers, lowest first: a module imports only from layers below it (README, "Layout").
pub mod analysis;
pub mod compare;
pub mod fill;
pub mod gpu;
pub mod grid;
pub mod kernel;
pub mod kernels;
pub mod measure;
pub mod plan;
pub mod result;
pub mod runner;
pub mod share;
pub mod stats;

pub mod tune;

#[cfg(target_arch = "wasm32")]
pub mod web;

pub use gpu::Gpu;
pub use plan::Plan;
pub use result::RunResult;
pub use runner::run;
