//! Page only: the staging buffers that carry a CPU reference's chunks, as the Web Workers hand them over,
//! into the reference's GPU buffer. Each is written while mapped, copied on the GPU, and mapped again for
//! the next chunk: in Chromium on an H200 512 MiB are in place in 108–147 ms this way, against 314–373 ms
//! for a `writeBuffer` a chunk, which goes through the GPU process's command stream
//! (docs/results/page-pace-h200.md). Mapped through WebGPU itself: wgpu's mapped ranges are copies in the
//! module's memory, which would copy each chunk twice more. While the GPU is measured (a reference built
//! ahead), chunks are held as the workers handed them over and written once the measurement is over: an
//! upload meanwhile slowed what was measured (docs/results/pace-h100.md), and so did making and filling
//! staging buffers (docs/results/page-pace-h200.md).

use std::cell::RefCell;
use std::collections::VecDeque;

use js_sys::{Promise, Uint8Array, Undefined};
use wasm_bindgen_futures::JsFuture;

use crate::gpu::Gpu;
use crate::host;

/// `GPUMapMode.WRITE`.
const MAP_WRITE: u32 = 2;

/// The most bytes held while the GPU is measured: past it, the next chunk waits for the end.
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
    /// The chunks handed over while the GPU was measured, with their offsets in the target.
    held: RefCell<Vec<(u64, Uint8Array)>>,
}

impl<'a> Staging<'a> {
    /// Staging for chunks of at most `size` bytes bound for `target`.
    pub fn new(gpu: &'a Gpu, target: &'a wgpu::Buffer, size: u64) -> Self {
        Staging { gpu, target, size, idle: RefCell::default(), held: RefCell::default() }
    }

    /// Puts `bytes` at `offset` of the target, now or, while the GPU is measured, once it is not.
    pub async fn write(&self, offset: u64, bytes: Uint8Array) -> Result<(), String> {
        if !host::is_quiet() {
            let held: u64 = self.held.borrow().iter().map(|(_, bytes)| bytes.byte_length() as u64).sum();
            if held < MOST_HELD {
                self.held.borrow_mut().push((offset, bytes));
                return Ok(());
            }
            host::quiet().await;
        }
        self.upload_held().await?;
        self.upload(offset, bytes).await
    }

    async fn upload_held(&self) -> Result<(), String> {
        let held = self.held.take();
        for (offset, bytes) in held {
            self.upload(offset, bytes).await?;
        }
        Ok(())
    }

    /// Writes `bytes` into an idle staging buffer (a new one where none is idle) and submits its copy.
    async fn upload(&self, offset: u64, bytes: Uint8Array) -> Result<(), String> {
        let failed = |_| "the upload failed".to_string();
        let taken = self.idle.borrow_mut().pop_front();
        let (buffer, mapping) = taken.unwrap_or_else(|| (self.new_buffer(), None));
        if let Some(mapping) = mapping {
            JsFuture::from(mapping).await.map_err(failed)?;
        }
        let mapped = buffer.as_webgpu().ok_or("not on WebGPU")?;
        let range = mapped.get_mapped_range().map_err(failed)?;
        Uint8Array::new(&range).set(&bytes, 0);
        mapped.unmap();
        // A measurement begun while the buffer mapped: its copy waits for the end.
        host::quiet().await;
        let size = bytes.byte_length() as u64;
        super::submit(self.gpu, |encoder| encoder.copy_buffer_to_buffer(&buffer, 0, self.target, offset, size));
        let mapping = mapped.map_async_with_f64_and_f64(MAP_WRITE, 0.0, self.size as f64);
        self.idle.borrow_mut().push_back((buffer, Some(mapping)));
        Ok(())
    }

    fn new_buffer(&self) -> wgpu::Buffer {
        self.gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("reference staging"),
            size: self.size,
            usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: true,
        })
    }

    /// Uploads what is still held once the GPU is no longer measured, then frees the staging buffers once
    /// their last copies are done (a buffer freed while it maps would leave its mapping's promise rejected
    /// with none to hear it).
    pub async fn finish(self) -> Result<(), String> {
        host::quiet().await;
        let uploaded = self.upload_held().await;
        for (buffer, mapping) in self.idle.take() {
            if let Some(mapping) = mapping {
                JsFuture::from(mapping).await.ok();
            }
            buffer.destroy();
        }
        uploaded
    }
}
