/* wgsweep
{
  "name": "boids",
  "buffers": [
    { "binding": 1, "name": "particlesA", "type": "f32", "length": "n" },
    { "binding": 2, "name": "particlesB", "type": "f32", "length": "n", "output": true }
  ],
  "uniforms": [{ "binding": 0, "fields": {
    "deltaT": 0.04, "rule1Distance": 0.1, "rule2Distance": 0.025, "rule3Distance": 0.025,
    "rule1Scale": 0.02, "rule2Scale": 0.05, "rule3Scale": 0.005
  } }],
  "sizes": [1536, 16384],
  "workgroup_size": [64],
  "bytes": "16 * n * n + 16 * n",
  "flops": "20 * n * n",
  "validation": { "reference": "step_each_particle", "tolerance": 1e-5 }
}
*/
// The flocking step of the WebGPU samples' Compute Boids: each particle steers by the particles within
// three distances of it (cohesion, separation, alignment), from one buffer of particles into another; the
// simulation's parameters in a uniform, as the sample sets them. Its workgroup is a literal 64: one shape.
// The sizes are multiples of 64: the kernel writes particle `global_invocation_id.x` unguarded, so at the
// sample's own 1 500 particles the last workgroup's 36 spare invocations write past the buffer's end (WebGPU
// drops such writes; wgsweep's guard after the output fails the run at them).
// bytes: every invocation reads every particle (16 bytes) and writes its own; flops: about 20 a pair
// (three distances, the sums), a count to compare by, not an exact one.
//
// Origin: the WebGPU Samples (https://github.com/webgpu/webgpu-samples), sample/computeBoids/
// updateSprites.wgsl at commit 27925c84407854b8c1933ee449b3e4171ea2277d, unchanged between the two marker
// lines below (tests/public_kernels.rs holds it to the original's SHA-256).
// Licence: BSD 3-Clause, Copyright 2019 WebGPU Samples Contributors:
//   Redistribution and use in source and binary forms, with or without modification, are permitted provided
//   that the following conditions are met: 1. Redistributions of source code must retain the above copyright
//   notice, this list of conditions and the following disclaimer. 2. Redistributions in binary form must
//   reproduce the above copyright notice, this list of conditions and the following disclaimer in the
//   documentation and/or other materials provided with the distribution. 3. Neither the name of the
//   copyright holder nor the names of its contributors may be used to endorse or promote products derived
//   from this software without specific prior written permission.
//   THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED
//   WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A
//   PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE FOR
//   ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
//   LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS
//   INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR
//   TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF
//   ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
// ---- the original begins ----
struct Particle {
  pos : vec2f,
  vel : vec2f,
}
struct SimParams {
  deltaT : f32,
  rule1Distance : f32,
  rule2Distance : f32,
  rule3Distance : f32,
  rule1Scale : f32,
  rule2Scale : f32,
  rule3Scale : f32,
}
struct Particles {
  particles : array<Particle>,
}
@binding(0) @group(0) var<uniform> params : SimParams;
@binding(1) @group(0) var<storage, read> particlesA : Particles;
@binding(2) @group(0) var<storage, read_write> particlesB : Particles;

// https://github.com/austinEng/Project6-Vulkan-Flocking/blob/master/data/shaders/computeparticles/particle.comp
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) GlobalInvocationID : vec3u) {
  var index = GlobalInvocationID.x;

  var vPos = particlesA.particles[index].pos;
  var vVel = particlesA.particles[index].vel;
  var cMass = vec2(0.0);
  var cVel = vec2(0.0);
  var colVel = vec2(0.0);
  var cMassCount = 0u;
  var cVelCount = 0u;
  var pos : vec2f;
  var vel : vec2f;

  for (var i = 0u; i < arrayLength(&particlesA.particles); i++) {
    if (i == index) {
      continue;
    }

    pos = particlesA.particles[i].pos.xy;
    vel = particlesA.particles[i].vel.xy;
    if (distance(pos, vPos) < params.rule1Distance) {
      cMass += pos;
      cMassCount++;
    }
    if (distance(pos, vPos) < params.rule2Distance) {
      colVel -= pos - vPos;
    }
    if (distance(pos, vPos) < params.rule3Distance) {
      cVel += vel;
      cVelCount++;
    }
  }
  if (cMassCount > 0) {
    cMass = (cMass / vec2(f32(cMassCount))) - vPos;
  }
  if (cVelCount > 0) {
    cVel /= f32(cVelCount);
  }
  vVel += (cMass * params.rule1Scale) + (colVel * params.rule2Scale) + (cVel * params.rule3Scale);

  // clamp velocity for a more pleasing simulation
  vVel = normalize(vVel) * clamp(length(vVel), 0.0, 0.1);
  // kinematic update
  vPos = vPos + (vVel * params.deltaT);
  // Wrap around boundary
  if (vPos.x < -1.0) {
    vPos.x = 1.0;
  }
  if (vPos.x > 1.0) {
    vPos.x = -1.0;
  }
  if (vPos.y < -1.0) {
    vPos.y = 1.0;
  }
  if (vPos.y > 1.0) {
    vPos.y = -1.0;
  }
  // Write back
  particlesB.particles[index].pos = vPos;
  particlesB.particles[index].vel = vVel;
}
// ---- the original ends ----

// The reference, wgsweep's and not the original's: the same three rules written out for one particle at a
// time, each neighbour's terms gathered as the rules state them.
@compute @workgroup_size(64)
fn step_each_particle(@builtin(global_invocation_id) id : vec3u) {
  let count = arrayLength(&particlesA.particles);
  let me = id.x;
  if (me >= count) {
    return;
  }
  let here = particlesA.particles[me];
  var centre = vec2f(0.0);
  var near = 0u;
  var away = vec2f(0.0);
  var heading = vec2f(0.0);
  var aligned = 0u;
  for (var other = 0u; other < count; other++) {
    if (other == me) {
      continue;
    }
    let there = particlesA.particles[other];
    let apart = distance(there.pos, here.pos);
    if (apart < params.rule1Distance) {
      centre += there.pos;
      near++;
    }
    if (apart < params.rule2Distance) {
      away -= there.pos - here.pos;
    }
    if (apart < params.rule3Distance) {
      heading += there.vel;
      aligned++;
    }
  }
  if (near > 0u) {
    centre = centre / vec2f(f32(near)) - here.pos;
  }
  if (aligned > 0u) {
    heading /= f32(aligned);
  }
  var vel = here.vel + centre * params.rule1Scale + away * params.rule2Scale + heading * params.rule3Scale;
  vel = normalize(vel) * clamp(length(vel), 0.0, 0.1);
  var pos = here.pos + vel * params.deltaT;
  if (pos.x < -1.0) { pos.x = 1.0; }
  if (pos.x > 1.0) { pos.x = -1.0; }
  if (pos.y < -1.0) { pos.y = 1.0; }
  if (pos.y > 1.0) { pos.y = -1.0; }
  particlesB.particles[me] = Particle(pos, vel);
}
