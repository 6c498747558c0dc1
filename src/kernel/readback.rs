//! Reading GPU buffers back to the host, and waiting for the GPU, on both targets.

use futures_channel::oneshot;

use crate::gpu::Gpu;
use crate::host;

/// Waits until the GPU has finished everything submitted so far (inputs being filled, say), so that
/// what is timed next does not pay for it.
pub async fn idle(gpu: &Gpu) -> Result<(), String> {
    let (sender, receiver) = oneshot::channel();
    gpu.queue.on_submitted_work_done(move || {
        let _ = sender.send(());
    });
    gpu.wait(None, receiver).await
}

/// Maps a MAP_READ buffer, copies its bytes out and unmaps it.
/// The web cannot block: the callback resolves the channel; natively `Gpu::wait` polls until it has.
pub async fn map_read(gpu: &Gpu, buffer: &wgpu::Buffer) -> Result<Vec<u8>, String> {
    let (sender, receiver) = oneshot::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |result| {
        let _ = sender.send(result);
    });
    gpu.wait(None, receiver).await?.map_err(|e| e.to_string())?;
    let bytes = buffer.get_mapped_range(..).map_err(|e| e.to_string())?.to_vec();
    buffer.unmap();
    Ok(bytes)
}

/// Bytes read back at a time: copying a mapped buffer out is one task of the page, which a large output
/// (a partial sum per invocation) would make long.
const READ_PIECE: u64 = 4 << 20;

/// Reads all of `source`, a piece at a time, giving the page a turn between pieces.
pub async fn read_buffer(gpu: &Gpu, source: &wgpu::Buffer) -> Result<Vec<u8>, String> {
    let size = source.size();
    let mut bytes = Vec::with_capacity(size as usize);
    for offset in (0..size).step_by(READ_PIECE as usize) {
        bytes.extend(read_range(gpu, source, offset, READ_PIECE.min(size - offset)).await?);
        host::pause_if_due().await;
    }
    Ok(bytes)
}

/// Reads `size` bytes of `source` from `offset` (both multiples of 4).
pub async fn read_range(gpu: &Gpu, source: &wgpu::Buffer, offset: u64, size: u64) -> Result<Vec<u8>, String> {
    let staging = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(source, offset, &staging, 0, size);
    gpu.queue.submit([encoder.finish()]);
    let bytes = map_read(gpu, &staging).await;
    // Free the GPU memory now: in the browser a dropped buffer waits for the garbage collector.
    staging.destroy();
    bytes
}
