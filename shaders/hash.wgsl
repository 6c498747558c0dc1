// lowbias32 (Wellons): the hash every generated input comes from. The host prepends this file to the
// shaders that use it (WGSL has no includes); src/fill.rs computes the same function on the CPU.
fn hash_u32(v: u32) -> u32 {
    var x = v;
    x ^= x >> 16u;
    x *= 0x7feb352du;
    x ^= x >> 15u;
    x *= 0x846ca68bu;
    x ^= x >> 16u;
    return x;
}

