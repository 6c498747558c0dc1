// Per-pixel maps over an RGBA8 image held in a storage buffer: one u32 per pixel, red in the low byte,
// WIDTH × HEIGHT pixels row by row. Invocation (x, y) of the 2-D grid maps pixel (x, y); the image is not
// a multiple of any workgroup edge, so every access is bounds-checked.
//   grayscale_rgba8   each pixel becomes its luma, alpha kept. The ITU-R BT.601 weights in 8-bit fixed
//                     point (77, 150, 29: they sum to 256) keep the arithmetic in integers, so the CPU
//                     reference (src/kernels/image.rs) matches bit for bit.

override WG_X: u32 = 16;
override WG_Y: u32 = 16;
override WIDTH: u32;
override HEIGHT: u32;

@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;

fn luma(pixel: u32) -> u32 {
    let r = pixel & 0xffu;
    let g = (pixel >> 8u) & 0xffu;
    let b = (pixel >> 16u) & 0xffu;
    return (77u * r + 150u * g + 29u * b + 128u) >> 8u;
}

@compute @workgroup_size(WG_X, WG_Y)
fn grayscale_rgba8(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < WIDTH && id.y < HEIGHT {
        let i = id.y * WIDTH + id.x;
        let pixel = src[i];
        let y = luma(pixel);
        dst[i] = (pixel & 0xff000000u) | (y << 16u) | (y << 8u) | y;
    }
}
