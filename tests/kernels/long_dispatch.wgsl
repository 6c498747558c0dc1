/* wgsweep
{
  "name": "long_dispatch",
  "buffers": [
    { "binding": 0, "name": "table", "type": "u32", "length": "1048576", "fill": { "random": [0, 1000] } },
    { "binding": 1, "name": "out", "type": "u32", "length": "n", "output": true }
  ],
  "sizes": [131072],
  "tunables": { "WG_X": [64], "STEPS": [1, 300000, 1] },
  "validation": { "tolerance": 0 }
}
*/
// A chain of dependent reads whose length STEPS sets: the second combination's one dispatch lasts about 13 s
// on lavapipe, over the time wgsweep waits for a submission. (tests/native/cli.rs)
override WG_X: u32 = 64;
override STEPS: u32 = 1;

@group(0) @binding(0) var<storage, read> table: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&out) { return; }
    var sum = 0u;
    var at = id.x;
    for (var i = 0u; i < STEPS; i++) {
        at = table[at & 1048575u] + at * 1664525u + 1013904223u;
        sum += at;
    }
    // The index, and a term the chain decides (so that it is not left out) that is almost never there.
    out[id.x] = id.x + select(0u, 1u, sum == 12345u);
}
