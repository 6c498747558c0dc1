/* wgsweep
{
  "name": "particles",
  "buffers": [
    { "binding": 1, "name": "particlesA", "type": "f32", "length": "n" },
    { "binding": 2, "name": "particlesB", "type": "f32", "length": "n", "output": true }
  ],
  "uniforms": [{ "binding": 0, "fields": { "deltaT": 0.04, "count": "n" } }],
  "sizes": [1000, 4096],
  "tunables": { "WG_X": [32, 128] },
  "validation": { "reference": "reference", "tolerance": 1e-6 }
}
*/
// Particles as a WebGPU sample keeps them: a struct of a header and a runtime-sized array of structs (24
// bytes apart: a vec2's alignment pads each to 8), stepped by a time in a uniform. The count comes from the
// uniform, not from arrayLength, so a buffer too short for n particles is written past its end.
// (tests/user_kernel.rs)
struct Particle { pos: vec2f, vel: vec2f, mass: f32 }
struct Particles { time: f32, particles: array<Particle> }
struct SimParams { deltaT: f32, count: u32 }

override WG_X: u32 = 64;

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read> particlesA: Particles;
@group(0) @binding(2) var<storage, read_write> particlesB: Particles;

fn step(i: u32) {
    var p = particlesA.particles[i];
    p.pos += p.vel * params.deltaT / max(abs(p.mass), 0.5);
    particlesB.particles[i] = p;
    if i == 0u { particlesB.time = particlesA.time + params.deltaT; }
}

@compute @workgroup_size(WG_X)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < params.count { step(id.x); }
}

@compute @workgroup_size(64)
fn reference(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < params.count { step(id.x); }
}
