// Data layouts: one step of a particle system stored five ways. A particle is a position and a velocity
// (three f32 each) and a remaining lifetime (f32): 7 fields, 28 bytes of data.
//   aos_vec3    array<Particle> with vec3<f32> members. WGSL aligns a vec3 to 16 bytes, so the struct is
//               32 bytes: 4 of them hidden padding after `pos` (WGSL spec, "Alignment and Size").
//   aos_packed  the same fields as 7 consecutive f32s per particle in one array<f32>: 28 bytes, no padding.
//   soa         one array per field (field f of particle i at f * COUNT + i in one buffer).
//   aosoa       blocks of BLOCK particles, each block SoA inside: field f of particle i at
//               (i / BLOCK) * 7 * BLOCK + f * BLOCK + i % BLOCK.
// Workloads:
//   touch_all   gravity on the velocity, the velocity on the position, the lifetime runs down, and a particle
//               whose lifetime ran out respawns with new fields from a hash (WGSL has no rand()).
//   touch_one   only the lifetime runs down: one field of seven.
// The time step is a power of two, so `a * DT` is exact and the CPU reference (src/kernels/layout.rs)
// matches bit for bit whether or not the compiler fuses multiply and add.

override WG: u32 = 256;
override COUNT: u32;
// How `floats` is laid out: 0 aos_packed, 1 soa, 2 aosoa.
override LAYOUT: u32 = 0;
override BLOCK: u32 = 32;
override SEED: u32 = 0;

const FIELDS: u32 = 7u;
const DT: f32 = 0.015625;
// Gravity's pull on the velocity in one step: -9.81 * DT.
const GRAVITY_STEP: f32 = -0.15328125;

struct Particle {
    pos: vec3<f32>,
    vel: vec3<f32>,
    life: f32,
}

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(1) var<storage, read_write> floats: array<f32>;

// A value in [-1, 1) from the top 24 bits of a hash (hash_u32: shaders/hash.wgsl, which the host prepends).
fn unit(h: u32) -> f32 {
    return f32(h >> 8u) * (1.0 / 8388608.0) - 1.0;
}

// Seven fields from one key: positions and velocities in [-1, 1), a lifetime in [0, 2).
fn generate(key: u32) -> Particle {
    var f: array<f32, 7>;
    for (var k = 0u; k < FIELDS; k++) { f[k] = unit(hash_u32(key + k)); }
    return Particle(vec3(f[0], f[1], f[2]), vec3(f[3], f[4], f[5]), f[6] + 1.0);
}

fn initial(i: u32) -> Particle {
    return generate(hash_u32(SEED) ^ (i * FIELDS));
}

fn advance(i: u32, before: Particle) -> Particle {
    var p = before;
    p.vel.y += GRAVITY_STEP;
    p.pos += p.vel * DT;
    p.life -= DT;
    if p.life <= 0.0 {
        // Keyed by the particle and where it died, so each respawn differs from the last.
        p = generate(hash_u32(bitcast<u32>(p.pos.x) ^ i));
    }
    return p;
}

// Where field f of particle i lives in `floats`.
fn slot(i: u32, f: u32) -> u32 {
    if LAYOUT == 0u { return i * FIELDS + f; }
    if LAYOUT == 1u { return f * COUNT + i; }
    return (i / BLOCK) * (FIELDS * BLOCK) + f * BLOCK + i % BLOCK;
}

fn load(i: u32) -> Particle {
    return Particle(
        vec3(floats[slot(i, 0u)], floats[slot(i, 1u)], floats[slot(i, 2u)]),
        vec3(floats[slot(i, 3u)], floats[slot(i, 4u)], floats[slot(i, 5u)]),
        floats[slot(i, 6u)],
    );
}

fn store(i: u32, p: Particle) {
    floats[slot(i, 0u)] = p.pos.x;
    floats[slot(i, 1u)] = p.pos.y;
    floats[slot(i, 2u)] = p.pos.z;
    floats[slot(i, 3u)] = p.vel.x;
    floats[slot(i, 4u)] = p.vel.y;
    floats[slot(i, 5u)] = p.vel.z;
    floats[slot(i, 6u)] = p.life;
}

@compute @workgroup_size(WG)
fn init_struct(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < COUNT { particles[i] = initial(i); }
}

@compute @workgroup_size(WG)
fn init_floats(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < COUNT { store(i, initial(i)); }
}

@compute @workgroup_size(WG)
fn touch_all_struct(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < COUNT { particles[i] = advance(i, particles[i]); }
}

@compute @workgroup_size(WG)
fn touch_all_floats(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < COUNT { store(i, advance(i, load(i))); }
}

@compute @workgroup_size(WG)
fn touch_one_struct(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < COUNT { particles[i].life -= DT; }
}

@compute @workgroup_size(WG)
fn touch_one_floats(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < COUNT { floats[slot(i, 6u)] -= DT; }
}
