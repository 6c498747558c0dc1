//! Buffers the families make: storage buffers, inputs written on the GPU, bind groups, and a guard that
//! frees a buffer's GPU memory the moment its owner lets go of it.

use std::ops::Deref;

use crate::gpu::Gpu;

/// A buffer destroyed when dropped. In the browser a dropped `wgpu::Buffer` keeps its GPU memory until
/// JavaScript's garbage collector runs, so a sweep that makes large buffers per family or per
/// configuration would pile them up; holding them as `OwnedBuffer`s frees each one as soon as it goes.
pub struct OwnedBuffer(wgpu::Buffer);

impl OwnedBuffer {
    pub fn new(buffer: wgpu::Buffer) -> Self {
        Self(buffer)
    }

    /// Another handle to the same buffer, for a binding or a readback; it does not keep the memory alive.
    pub fn handle(&self) -> wgpu::Buffer {
        self.0.clone()
    }
}

impl Deref for OwnedBuffer {
    type Target = wgpu::Buffer;

    fn deref(&self) -> &wgpu::Buffer {
        &self.0
    }
}

impl Drop for OwnedBuffer {
    fn drop(&mut self) {
        self.0.destroy();
    }
}

/// Refuses a buffer larger than one binding can see; `what` names it in the message ("256 bytes per array").
pub fn check_binding(gpu: &Gpu, what: &str, bytes: u64) -> Result<(), String> {
    let limit = gpu.info.limits.max_binding_bytes();
    if bytes > limit {
        return Err(format!("{what} is over this device's storage binding limit of {limit} bytes"));
    }
    Ok(())
}

/// A storage buffer of `bytes` whose element i is `fill::random_f32(i, seed)`, written on the GPU.
pub fn random_buffer(gpu: &Gpu, label: &str, bytes: u64, seed: u32) -> OwnedBuffer {
    let buffer = storage_buffer(gpu, label, bytes);
    super::submit(gpu, |encoder| gpu.filler().random(&gpu.device, encoder, &buffer, seed));
    buffer
}

/// A buffer of `bytes` holding `fill::random_f16(i, seed)` as f16 in every 16-bit element, written on the GPU.
pub fn random_f16_buffer(gpu: &Gpu, label: &str, bytes: u64, seed: u32) -> OwnedBuffer {
    let buffer = storage_buffer(gpu, label, bytes);
    super::submit(gpu, |encoder| gpu.filler().random_f16(&gpu.device, encoder, &buffer, seed));
    buffer
}

/// A storage buffer of `bytes` that kernels read and write and the host can copy from.
pub fn storage_buffer(gpu: &Gpu, label: &str, bytes: u64) -> OwnedBuffer {
    OwnedBuffer(gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    }))
}

/// A buffer of `usage` holding `contents`, written through the queue: unlike `create_buffer_init`, which
/// panics where the device is gone (given up after a kernel that never ends), this only reports an error.
pub fn buffer_holding(gpu: &Gpu, label: &str, usage: wgpu::BufferUsages, contents: &[u8]) -> wgpu::Buffer {
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: (contents.len() as u64).next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT).max(4),
        usage: usage | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut padded = contents.to_vec();
    padded.resize(buffer.size() as usize, 0);
    gpu.queue.write_buffer(&buffer, 0, &padded);
    buffer
}

/// A bind group for group 0 of `pipeline`, binding each (binding, buffer) pair.
pub fn bind_group(gpu: &Gpu, pipeline: &wgpu::ComputePipeline, bindings: &[(u32, &wgpu::Buffer)]) -> wgpu::BindGroup {
    let entries: Vec<_> = bindings
        .iter()
        .map(|(binding, buffer)| wgpu::BindGroupEntry { binding: *binding, resource: buffer.as_entire_binding() })
        .collect();
    gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    })
}

/// An f32 image of about `size` pixels, a few rows short of square (`dispatch::matrix_shape`), with random
/// pixels (`fill::random_f32(i, seed)`), and an output image of the same shape: what the 2-D image families
/// (image, blur) run on.
pub struct ImageBuffers {
    pub width: u32,
    pub height: u32,
    pub src: OwnedBuffer,
    pub dst: OwnedBuffer,
}

impl ImageBuffers {
    /// `output` labels the output image ("blurred image").
    pub fn new(gpu: &Gpu, size: u64, seed: u32, output: &str) -> Result<Self, String> {
        let (height, width) = super::matrix_shape(size);
        let bytes = width as u64 * height as u64 * 4;
        check_binding(gpu, &format!("a {bytes}-byte image"), bytes)?;
        let src = random_buffer(gpu, "image", bytes, seed);
        let dst = storage_buffer(gpu, output, bytes);
        Ok(ImageBuffers { width, height, src, dst })
    }
}
