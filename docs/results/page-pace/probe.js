// How fast the page can put a CPU reference (512 MiB, in the 8 MiB chunks its workers hand over) into a GPU
// buffer, by each way WebGPU offers: the timings of each way, three times, in one page.
const MIB = 1 << 20;
const TOTAL = 512 * MIB;
const CHUNK = 8 * MIB;
const out = document.getElementById("out");

const adapter = await navigator.gpu.requestAdapter({ powerPreference: "high-performance" });
const device = await adapter.requestDevice({
  requiredLimits: { maxBufferSize: adapter.limits.maxBufferSize, maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize },
});
const chunks = Array.from({ length: TOTAL / CHUNK }, (_, c) => {
  const bytes = new Uint8Array(CHUNK);
  const words = new Uint32Array(bytes.buffer);
  for (let i = 0; i < words.length; i++) words[i] = (c * words.length + i) * 2654435761;
  return bytes;
});
const destination = () => device.createBuffer({ size: TOTAL, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });

// Reads back word `w` of `buffer` to check what arrived.
async function wordAt(buffer, w) {
  const read = device.createBuffer({ size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, w * 4, read, 0, 4);
  device.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const value = new Uint32Array(read.getMappedRange())[0];
  read.destroy();
  return value;
}

const ways = {
  // One queue.writeBuffer a chunk (what the page does now).
  async writeBuffer() {
    const buffer = destination();
    chunks.forEach((chunk, c) => device.queue.writeBuffer(buffer, c * CHUNK, chunk));
    await device.queue.onSubmittedWorkDone();
    return buffer;
  },
  // The whole reference mapped at creation: each chunk set into the mapping, then unmapped once.
  async mappedAtCreation() {
    const buffer = device.createBuffer({ size: TOTAL, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC, mappedAtCreation: true });
    const mapped = new Uint8Array(buffer.getMappedRange());
    chunks.forEach((chunk, c) => mapped.set(chunk, c * CHUNK));
    buffer.unmap();
    await device.queue.onSubmittedWorkDone();
    return buffer;
  },
  // A staging buffer a chunk, mapped at creation, copied into the reference.
  async stagedChunks() {
    const buffer = destination();
    for (const [c, chunk] of chunks.entries()) {
      const staging = device.createBuffer({ size: CHUNK, usage: GPUBufferUsage.COPY_SRC, mappedAtCreation: true });
      new Uint8Array(staging.getMappedRange()).set(chunk);
      staging.unmap();
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(staging, 0, buffer, c * CHUNK, CHUNK);
      device.queue.submit([encoder.finish()]);
      staging.destroy();
    }
    await device.queue.onSubmittedWorkDone();
    return buffer;
  },
  // Four staging buffers reused, each mapped again once its copy is done.
  async stagingRing() {
    const buffer = destination();
    const ring = Array.from({ length: 4 }, () => device.createBuffer({ size: CHUNK, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.MAP_WRITE, mappedAtCreation: true }));
    const ready = ring.map(() => Promise.resolve());
    for (const [c, chunk] of chunks.entries()) {
      const k = c % ring.length;
      await ready[k];
      new Uint8Array(ring[k].getMappedRange()).set(chunk);
      ring[k].unmap();
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(ring[k], 0, buffer, c * CHUNK, CHUNK);
      device.queue.submit([encoder.finish()]);
      ready[k] = ring[k].mapAsync(GPUMapMode.WRITE);
    }
    await device.queue.onSubmittedWorkDone();
    await Promise.all(ready);
    ring.forEach((b) => b.destroy());
    return buffer;
  },
};

const results = {};
let longest = 0;
new PerformanceObserver((list) => list.getEntries().forEach((e) => (longest = Math.max(longest, e.duration)))).observe({ type: "longtask", buffered: true });
for (let round = 0; round < 3; round++) {
  for (const [name, way] of Object.entries(ways)) {
    const started = performance.now();
    const buffer = await way();
    const ms = performance.now() - started;
    const w = TOTAL / 4 - 3;
    const c = Math.floor((w * 4) / CHUNK);
    const want = (c * (CHUNK / 4) + (w % (CHUNK / 4))) * 2654435761 >>> 0;
    const got = await wordAt(buffer, w);
    buffer.destroy();
    (results[name] ??= []).push({ ms: Math.round(ms), gb_per_s: +(TOTAL / ms / 1e6).toFixed(2), arrived: got === want });
  }
}
results.longest_task_ms = longest;
out.textContent = JSON.stringify(results, null, 1);
out.id = "done";
