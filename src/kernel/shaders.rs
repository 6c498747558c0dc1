//! WGSL modules compiled with or without wgpu's runtime checks, and the pipelines built from them.

use std::borrow::Cow;
use std::cell::OnceCell;

use serde::{Deserialize, Serialize};

use crate::gpu::Gpu;

/// Whether wgpu wraps a shader in its runtime checks (index clamping, a guard on every loop).
/// Browsers always apply their own checks; natively `Unchecked` shows what the checks cost, and
/// `BoundsOnly` (index clamping kept, loop guards dropped) which of the two it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShaderChecks {
    #[default]
    Default,
    Unchecked,
    BoundsOnly,
}

impl ShaderChecks {
    pub fn name(self) -> &'static str {
        match self {
            ShaderChecks::Default => "default",
            ShaderChecks::Unchecked => "unchecked",
            ShaderChecks::BoundsOnly => "bounds_only",
        }
    }
}

// The shader files the build holds, by name (build.rs): `SHADER_FILES`.
include!(concat!(env!("OUT_DIR"), "/shader_files.rs"));

/// `text` without its comments, indentation and blank lines, as build.rs puts the page's shaders into its
/// download (WGSL has no strings: `//` always starts a comment).
pub fn bare(text: &str) -> String {
    let lines = text.lines().map(|line| line.split("//").next().unwrap_or_default().trim());
    lines.filter(|line| !line.is_empty()).flat_map(|line| [line, "\n"]).collect()
}

/// `text`, a kernel put together from bare shaders (the page's), with each shader file as written wherever
/// its bare text stands in it; `originals` are the files' texts.
pub fn with_comments(text: &str, originals: &[String]) -> String {
    let mut text = text.to_string();
    for original in originals {
        let stripped = bare(original);
        if !stripped.is_empty() && stripped != *original {
            text = text.replace(&stripped, original);
        }
    }
    text
}

/// `source` as this build's compiler takes it. A browser takes subgroup operations only after `enable
/// subgroups;`; naga (wgpu 30) has not implemented the directive and refuses it, taking the operations
/// without it: natively the directive's line is blanked (or `subgroups` left out of a longer list), so the
/// lines and columns of a message stay the source's own.
pub fn for_this_compiler(source: &str) -> Cow<'_, str> {
    if cfg!(target_arch = "wasm32") || !source.contains("subgroups") {
        return Cow::Borrowed(source);
    }
    let lines = source.split_inclusive('\n').map(|line| {
        let Some(names) = line.trim().strip_prefix("enable ").and_then(|rest| rest.strip_suffix(';')) else {
            return line.to_string();
        };
        let kept: Vec<&str> = names.split(',').map(str::trim).filter(|&n| n != "subgroups" && !n.is_empty()).collect();
        let directive = if kept.is_empty() { String::new() } else { format!("enable {};", kept.join(", ")) };
        let end = line.trim_end_matches(['\r', '\n']);
        format!("{directive:width$}{}", &line[end.len()..], width = end.chars().count())
    });
    Cow::Owned(lines.collect())
}

/// One WGSL source, compiled on first use with each kind of runtime checks.
pub struct ShaderModules {
    label: &'static str,
    /// A file as it is, or put together at run time (a file's text included once, whatever is put around it).
    source: Cow<'static, str>,
    checked: OnceCell<wgpu::ShaderModule>,
    unchecked: OnceCell<wgpu::ShaderModule>,
    bounds_only: OnceCell<wgpu::ShaderModule>,
}

impl ShaderModules {
    pub fn new(label: &'static str, source: impl Into<Cow<'static, str>>) -> Self {
        let source = source.into();
        Self { label, source, checked: OnceCell::new(), unchecked: OnceCell::new(), bounds_only: OnceCell::new() }
    }

    /// A compute pipeline for `entry`, compiled with `checks`, its override constants (workgroup size and
    /// the like) set. `Unchecked` also skips zeroing workgroup memory, which wgpu (and every browser) does
    /// at the start of each workgroup; no kernel here reads workgroup memory it did not write.
    pub fn pipeline(
        &self,
        gpu: &Gpu,
        checks: ShaderChecks,
        entry: &str,
        constants: &[(&str, f64)],
    ) -> wgpu::ComputePipeline {
        self.pipeline_in(gpu, checks, entry, constants, None)
    }

    /// As `pipeline`, with the bindings `layout` states rather than those the entry point uses: a user's
    /// kernel binds every buffer its specification names, whichever entry point runs.
    pub fn pipeline_in(
        &self,
        gpu: &Gpu,
        checks: ShaderChecks,
        entry: &str,
        constants: &[(&str, f64)],
        layout: Option<&wgpu::PipelineLayout>,
    ) -> wgpu::ComputePipeline {
        gpu.device.create_compute_pipeline(&self.descriptor(gpu, checks, entry, constants, layout))
    }

    /// As `pipeline`, for kernels whose pipelines take long to compile (the matmuls'): in a browser through
    /// `createComputePipelineAsync` (patches/wgpu), which Chromium compiles off the thread that takes the
    /// page's submissions and answers its reads, so that a pipeline made while the GPU measures another
    /// configuration does not leave it idle for the compilation (docs/results/rewarm-h200.md).
    pub async fn pipeline_async(
        &self,
        gpu: &Gpu,
        checks: ShaderChecks,
        entry: &str,
        constants: &[(&str, f64)],
    ) -> wgpu::ComputePipeline {
        gpu.device.create_compute_pipeline_async(&self.descriptor(gpu, checks, entry, constants, None)).await
    }

    fn descriptor<'a>(
        &'a self,
        gpu: &Gpu,
        checks: ShaderChecks,
        entry: &'a str,
        constants: &'a [(&'a str, f64)],
        layout: Option<&'a wgpu::PipelineLayout>,
    ) -> wgpu::ComputePipelineDescriptor<'a> {
        wgpu::ComputePipelineDescriptor {
            label: Some(entry),
            layout,
            module: self.get(gpu, checks),
            entry_point: Some(entry),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants,
                zero_initialize_workgroup_memory: checks != ShaderChecks::Unchecked,
            },
            cache: None,
        }
    }

    #[expect(unsafe_code, reason = "wgpu's runtime checks may be dropped only for shaders that stay in bounds")]
    fn get(&self, gpu: &Gpu, checks: ShaderChecks) -> &wgpu::ShaderModule {
        let descriptor = || wgpu::ShaderModuleDescriptor {
            label: Some(self.label),
            source: wgpu::ShaderSource::Wgsl(for_this_compiler(&self.source)),
        };
        match checks {
            ShaderChecks::Default => self.checked.get_or_init(|| gpu.device.create_shader_module(descriptor())),
            // SAFETY: every kernel guards each index with arrayLength (or a size it was given) and every loop
            // has a bound it reaches; validation against the CPU reference on each run checks the results.
            ShaderChecks::Unchecked => self.unchecked.get_or_init(|| unsafe {
                gpu.device.create_shader_module_trusted(descriptor(), wgpu::ShaderRuntimeChecks::unchecked())
            }),
            // SAFETY: as above; only the guards on loops are dropped, and every loop has a bound it reaches.
            ShaderChecks::BoundsOnly => self.bounds_only.get_or_init(|| unsafe {
                let checks =
                    wgpu::ShaderRuntimeChecks { force_loop_bounding: false, ..wgpu::ShaderRuntimeChecks::checked() };
                gpu.device.create_shader_module_trusted(descriptor(), checks)
            }),
        }
    }
}
