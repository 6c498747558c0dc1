/* wgsweep
{
  "name": "my_stencil",
  "entry_point": "stencil",
  "buffers": [
    { "binding": 0, "name": "grid_in", "type": "f32", "length": "w * h" },
    { "binding": 1, "name": "grid_out", "type": "f32", "length": "w * h", "output": true }
  ],
  "sizes": [{ "w": 4096, "h": 4096 }],
  "tunables": { "WG_X": [4, 8, 16, 32, 64], "WG_Y": [1, 2, 4, 8, 16], "TILE": [1, 2, 4, 8] },
  "restrictions": ["WG_X * WG_Y <= 256", "WG_X * WG_Y >= 16"],
  "constants": { "W": "w", "H": "h" },
  "grid": ["ceil_div(w, WG_X)", "ceil_div(h, WG_Y * TILE)"],
  "bytes": "8 * w * h",
  "flops": "5 * w * h",
  "validation": { "reference": "reference", "tolerance": 1e-6, "grid": ["ceil_div(w, 8)", "ceil_div(h, 8)"] }
}
*/
// A 2-D five-point stencil (a Jacobi step: each cell becomes the mean of itself and its four neighbours,
// edges clamped) over a W × H grid. Each invocation computes TILE cells down a column, reusing the rows it
// loaded for the one above; workgroups are WG_X × WG_Y. `reference` computes one cell per invocation.

override WG_X: u32 = 16;
override WG_Y: u32 = 4;
override TILE: u32 = 1;
override W: u32;
override H: u32;

@group(0) @binding(0) var<storage, read> grid_in: array<f32>;
@group(0) @binding(1) var<storage, read_write> grid_out: array<f32>;

fn at(x: i32, y: i32) -> f32 {
    let cx = u32(clamp(x, 0, i32(W) - 1));
    let cy = u32(clamp(y, 0, i32(H) - 1));
    return grid_in[cy * W + cx];
}

@compute @workgroup_size(WG_X, WG_Y)
fn stencil(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= W {
        return;
    }
    let x = i32(id.x);
    let top = i32(id.y * TILE);
    var above = at(x, top - 1);
    var here = at(x, top);
    for (var k = 0; k < i32(TILE); k++) {
        let y = top + k;
        if y >= i32(H) {
            return;
        }
        let below = at(x, y + 1);
        grid_out[u32(y) * W + id.x] = 0.2 * (here + above + below + at(x - 1, y) + at(x + 1, y));
        above = here;
        here = below;
    }
}

@compute @workgroup_size(8, 8)
fn reference(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= W || id.y >= H {
        return;
    }
    let x = i32(id.x);
    let y = i32(id.y);
    grid_out[id.y * W + id.x] = 0.2 * (at(x, y) + at(x, y - 1) + at(x, y + 1) + at(x - 1, y) + at(x + 1, y));
}
