/* wgsweep
{
  "name": "life",
  "entry_point": "step",
  "buffers": [
    { "binding": 0, "name": "extent", "type": "u32", "length": "2", "fill": { "constant": 96 } },
    { "binding": 1, "name": "alive", "type": "u32", "length": "side * side", "fill": { "random": [0, 1] } },
    { "binding": 2, "name": "next", "type": "u32", "length": "side * side", "output": true }
  ],
  "sizes": [{ "side": 96 }],
  "tunables": { "block": [4, 8, 16], "ROWS": [1, 3] },
  "workgroup_size": ["block", "block"],
  "grid": ["ceil_div(side, block)", "ceil_div(side, block * ROWS)"],
  "validation": { "tolerance": 0 }
}
*/
// One step of Conway's Game of Life on a torus, written as a WebGPU sample writes it: the grid's extent in
// a storage buffer, a square workgroup of `block` × `block` set by an override, and here ROWS cells per
// invocation down a column. Validated by agreement: every configuration must give the same next step.

override block: u32 = 8;
override ROWS: u32 = 1;

@group(0) @binding(0) var<storage, read> extent: vec2<u32>;
@group(0) @binding(1) var<storage, read> alive: array<u32>;
@group(0) @binding(2) var<storage, read_write> next: array<u32>;

fn cell(x: i32, y: i32) -> u32 {
    let w = i32(extent.x);
    let h = i32(extent.y);
    return alive[u32((y + h) % h) * extent.x + u32((x + w) % w)];
}

@compute @workgroup_size(block, block)
fn step(@builtin(global_invocation_id) id: vec3<u32>) {
    for (var r = 0u; r < ROWS; r++) {
        let x = i32(id.x);
        let y = i32(id.y * ROWS + r);
        if x >= i32(extent.x) || y >= i32(extent.y) {
            return;
        }
        var neighbours = 0u;
        for (var dy = -1; dy <= 1; dy++) {
            for (var dx = -1; dx <= 1; dx++) {
                if dx != 0 || dy != 0 {
                    neighbours += cell(x + dx, y + dy);
                }
            }
        }
        let lives = neighbours == 3u || (neighbours == 2u && cell(x, y) == 1u);
        next[u32(y) * extent.x + u32(x)] = select(0u, 1u, lives);
    }
}
