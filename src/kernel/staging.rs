//! Page only: the staging buffers that carry a CPU reference's chunks, as the Web Workers hand them over,
//! into the reference's GPU buffer. Each is written while mapped, copied on the GPU, and mapped again for
//! the next chunk: in Chromium on an H200 512 MiB are in place in 108–147 ms this way, against 314–373 ms
//! for a `writeBuffer` a chunk, which goes through the GPU process's command stream
//! (docs/results/page-pace-h200.md). Mapped through WebGPU itself: wgpu's mapped ranges are copies in the
//! module's memory, which would copy each chunk twice more. While the GPU is measured (a reference built
//! ahead), written chunks are held, mapped, and copied once the measurement is over: an upload meanwhile
//! slowed what was measured (docs/results/pace-h100.md).

use std::cell::RefCell;
use std::collections::VecDeque;

use js_sys::{Promise, Uint8Array, Undefined};
use wasm_bindgen_futures::JsFuture;

use crate::gpu::Gpu;
use crate::host;

/// `GPUMapMode.WRITE`.
const MAP_WRITE: u32 = 2;

/// The most bytes held written while the GPU is measured: past it, the next chunk waits for the end.
const MOST_HELD: u64 = 512 << 20;

/// Staging buffers of one size, made as chunks come faster than their copies finish, and reused.
pub struct Staging<'a> {
    gpu: &'a Gpu,
    /// Where the chunks go.
    target: &'a wgpu::Buffer,
    /// Bytes each holds: the largest chunk.
    size: u64,
    /// Those no chunk holds now, the longest idle first, each with its mapping under way (none: mapped at
    /// creation).
    idle: RefCell<VecDeque<(wgpu::Buffer, Option<Promise<Undefined>>)>>,
    /// Those written but not yet copied, still mapped: (buffer, offset in the target, bytes).
    held: RefCell<Vec<(wgpu::Buffer, u64, u64)>>,
}

impl<'a> Staging<'a> {
    /// Staging for chunks of at most `size` bytes bound for `target`.
    pub fn new(gpu: &'a Gpu, target: &'a wgpu::Buffer, size: u64) -> Self {
        Staging { gpu, target, size, idle: RefCell::default(), held: RefCell::default() }
    }

    /// Puts `bytes` at `offset` of the target: written into an idle staging buffer (a new one where none is
    /// idle), whose copy is submitted now, or once the GPU is no longer measured.
    pub async fn write(&self, offset: u64, bytes: Uint8Array) -> Result<(), String> {
        if self.held.borrow().len() as u64 * self.size >= MOST_HELD {
            host::quiet().await;
        }
        let failed = |_| "the upload failed".to_string();
        let taken = self.idle.borrow_mut().pop_front();
        let (buffer, mapping) = taken.unwrap_or_else(|| (self.new_buffer(), None));
        if let Some(mapping) = mapping {
            JsFuture::from(mapping).await.map_err(failed)?;
        }
        let mapped = buffer.as_webgpu().ok_or("not on WebGPU")?;
        let range = mapped.get_mapped_range().map_err(failed)?;
        Uint8Array::new(&range).set(&bytes, 0);
        self.held.borrow_mut().push((buffer, offset, bytes.byte_length() as u64));
        if host::is_quiet() {
            self.copy_held();
        }
        Ok(())
    }

    /// Submits the copies of the chunks held, and maps their buffers again for the next ones.
    fn copy_held(&self) {
        let held = self.held.take();
        for (buffer, ..) in &held {
            buffer.unmap();
        }
        super::submit(self.gpu, |encoder| {
            for (buffer, offset, size) in &held {
                encoder.copy_buffer_to_buffer(buffer, 0, self.target, *offset, *size);
            }
        });
        for (buffer, ..) in held {
            let mapping = buffer.as_webgpu().map(|b| b.map_async_with_f64_and_f64(MAP_WRITE, 0.0, self.size as f64));
            self.idle.borrow_mut().push_back((buffer, mapping));
        }
    }

    fn new_buffer(&self) -> wgpu::Buffer {
        self.gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("reference staging"),
            size: self.size,
            usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: true,
        })
    }

    /// Copies what is still held once the GPU is no longer measured, then frees the staging buffers once
    /// their last copies are done (a buffer freed while it maps would leave its mapping's promise rejected
    /// with none to hear it).
    pub async fn finish(self) {
        if !self.held.borrow().is_empty() {
            host::quiet().await;
            self.copy_held();
        }
        for (buffer, mapping) in self.idle.take() {
            if let Some(mapping) = mapping {
                JsFuture::from(mapping).await.ok();
            }
            buffer.destroy();
        }
    }
}
