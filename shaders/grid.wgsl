// Where a workgroup and an invocation sit in a 1-D problem. The host spreads many workgroups over x and,
// past the per-dimension limit, y (`kernel::dispatch_grid`); these recover the linear indices. The host
// puts this file in front of every shader with such a grid; each of them declares its own `WG`.

fn group_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return wid.x + wid.y * nwg.x;
}

fn invocation_index(wid: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
    return group_index(wid, nwg) * WG + lid;
}
