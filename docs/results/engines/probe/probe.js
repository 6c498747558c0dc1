// A plain-WebGPU probe, no wgsweep code: how long an engine takes to report finished work (an idle queue, a
// one-dispatch round trip, each plain and "nudged" by empty submissions while waiting), and what that does
// to STREAM's copy/vec4 over 256 MiB arrays (`?mib=` for another size; less where the adapter binds less) timed by GPU timestamps: queued back to back, one sample at a
// time as a calibration does, and 20 ms of samples queued ahead as wgsweep's measurement does.
const MIB = 1 << 20;
const WORKGROUP = 256;
let ARRAY_BYTES;

const out = document.getElementById('result-json');
const runButton = document.getElementById('run');

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function summary(ms) {
  return { median_ms: +median(ms).toFixed(3), min_ms: +Math.min(...ms).toFixed(3), max_ms: +Math.max(...ms).toFixed(3) };
}

// Resolves `promise`; with `nudge`, submits an empty command list every millisecond (as the browser's timer
// allows) until it resolves.
async function awaited(device, promise, nudge) {
  if (!nudge) return promise;
  let waiting = true;
  (async () => {
    while (waiting) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (waiting) device.queue.submit([]);
    }
  })();
  try {
    return await promise;
  } finally {
    waiting = false; // the nudger's pending timeout ends it, unawaited: the wait is the promise's alone
  }
}

async function probe() {
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
  const timestamps = adapter.features.has('timestamp-query');
  const mib = Number(new URLSearchParams(location.search).get('mib')) || 256;
  ARRAY_BYTES = Math.min(mib * MIB, adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize);
  const device = await adapter.requestDevice({
    requiredFeatures: timestamps ? ['timestamp-query'] : [],
    requiredLimits: { maxStorageBufferBindingSize: ARRAY_BYTES, maxBufferSize: ARRAY_BYTES },
  });
  const report = { userAgent: navigator.userAgent, timestamps, array_mib: ARRAY_BYTES / MIB, results: {} };

  // 1. An idle queue: nothing submitted, how long until onSubmittedWorkDone resolves.
  for (const nudge of [false, true]) {
    const ms = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      await awaited(device, device.queue.onSubmittedWorkDone(), nudge);
      ms.push(performance.now() - start);
    }
    report.results[`idle queue${nudge ? ', nudged' : ''}`] = summary(ms);
  }

  // 2. A round trip: one tiny dispatch, its 4 bytes copied to a mappable buffer and mapped.
  const tiny = device.createShaderModule({
    code: '@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n' +
      '@compute @workgroup_size(1) fn main() { x[0] += 1u; }',
  });
  const tinyPipeline = device.createComputePipeline({ layout: 'auto', compute: { module: tiny, entryPoint: 'main' } });
  const counter = device.createBuffer({ size: 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const counterRead = device.createBuffer({ size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const tinyGroup = device.createBindGroup({
    layout: tinyPipeline.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: { buffer: counter } }],
  });
  for (const nudge of [false, true]) {
    const ms = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(tinyPipeline);
      pass.setBindGroup(0, tinyGroup);
      pass.dispatchWorkgroups(1);
      pass.end();
      encoder.copyBufferToBuffer(counter, 0, counterRead, 0, 4);
      device.queue.submit([encoder.finish()]);
      await awaited(device, counterRead.mapAsync(GPUMapMode.READ), nudge);
      counterRead.unmap();
      ms.push(performance.now() - start);
    }
    report.results[`one-dispatch round trip${nudge ? ', nudged' : ''}`] = summary(ms);
  }

  if (timestamps) await copyBandwidth(device, report);
  return report;
}

// STREAM's copy/vec4: b[i] = a[i] over 256 MiB, timed by timestamps at a compute pass's start and end.
async function copyBandwidth(device, report) {
  const module = device.createShaderModule({
    code: '@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;\n' +
      '@group(0) @binding(1) var<storage, read_write> b: array<vec4<f32>>;\n' +
      `@compute @workgroup_size(${WORKGROUP}) fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n` +
      '  let i = id.x + id.y * 65535u * ' + WORKGROUP + 'u;\n' +
      '  if (i < arrayLength(&a)) { b[i] = a[i]; }\n}',
  });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const [a, b] = [0, 1].map(() => device.createBuffer({ size: ARRAY_BYTES, usage: GPUBufferUsage.STORAGE }));
  const group = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: { buffer: a } }, { binding: 1, resource: { buffer: b } }],
  });
  const groups = ARRAY_BYTES / 16 / WORKGROUP;
  const [x, y] = [Math.min(groups, 65535), Math.ceil(groups / 65535)];
  const slots = Array.from({ length: 64 }, () => ({
    set: device.createQuerySet({ type: 'timestamp', count: 2 }),
    resolve: device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC }),
    read: device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
  }));
  // Submits one sample of `dispatches` copies in slot `slot`; the promise gives its pass's ns.
  const submit = (dispatches, slot) => {
    const { set, resolve, read } = slots[slot];
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass({
      timestampWrites: { querySet: set, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 },
    });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    for (let i = 0; i < dispatches; i++) pass.dispatchWorkgroups(x, y);
    pass.end();
    encoder.resolveQuerySet(set, 0, 2, resolve, 0);
    encoder.copyBufferToBuffer(resolve, 0, read, 0, 16);
    device.queue.submit([encoder.finish()]);
    return read.mapAsync(GPUMapMode.READ).then(() => {
      const [begin, end] = new BigUint64Array(read.getMappedRange());
      read.unmap();
      return Number(end - begin);
    });
  };
  const gbPerS = (ns, dispatches) => +((2 * ARRAY_BYTES * dispatches) / ns).toFixed(0);
  const warm = async () => {
    for (let i = 0; i < 8; i++) await Promise.all(Array.from({ length: 8 }, (_, s) => submit(32, s)));
  };

  // Back to back: 10 samples of 64 copies, all queued at once after a warm-up: the GPU never waits.
  await warm();
  const backToBack = await Promise.all(Array.from({ length: 10 }, (_, s) => submit(64, s)));
  report.results['copy/vec4, samples queued back to back'] = { gb_per_s: gbPerS(median(backToBack), 64) };

  // One sample of 8 copies at a time, each awaited before the next is submitted.
  for (const nudge of [false, true]) {
    await warm();
    const ns = [];
    const start = performance.now();
    for (let i = 0; i < 20; i++) ns.push(await awaited(device, submit(8, 0), nudge));
    const busy = ns.reduce((sum, v) => sum + v, 0) / 1e6 / (performance.now() - start);
    report.results[`copy/vec4, one sample at a time${nudge ? ', nudged' : ''}`] = {
      gb_per_s: gbPerS(median(ns), 8), gpu_busy: +busy.toFixed(2),
    };
  }

  // 20 ms of samples kept queued ahead, the oldest awaited (wgsweep's way), for 200 samples.
  for (const nudge of [false, true]) {
    await warm();
    const sampleNs = median(await Promise.all([submit(8, 0)]));
    const depth = Math.min(64, Math.max(2, Math.ceil(2e7 / sampleNs)));
    const queue = [];
    const ns = [];
    let submitted = 0;
    const start = performance.now();
    while (ns.length < 200) {
      while (queue.length < depth) queue.push(submit(8, submitted++ % 64));
      ns.push(await awaited(device, queue.shift(), nudge));
    }
    await Promise.all(queue);
    const busy = ns.reduce((sum, v) => sum + v, 0) / 1e6 / (performance.now() - start);
    report.results[`copy/vec4, 20 ms queued ahead${nudge ? ', nudged' : ''}`] = {
      gb_per_s: gbPerS(median(ns), 8), gpu_busy: +busy.toFixed(2), depth,
    };
  }
}

if (navigator.gpu) {
  document.getElementById('device').hidden = false;
  runButton.disabled = false;
  runButton.addEventListener('click', async () => {
    runButton.disabled = true;
    try {
      out.textContent = JSON.stringify(await probe(), null, 1);
    } catch (error) {
      out.textContent = JSON.stringify({ error: String(error) });
    }
    document.getElementById('results').dataset.done = '';
  });
} else {
  out.textContent = JSON.stringify({ error: 'no WebGPU' });
  document.getElementById('results').dataset.done = '';
}
