//! What a user's kernel binds: each pass's layout; its textures and samplers, made and filled as the
//! specification says and bound as the WGSL declares them; an output texture read back into a buffer that
//! validation compares.

use crate::fill::Pattern;
use crate::gpu::Gpu;
use crate::kernel::{self, Skip, TexelCopy, Words};
use crate::spec::{
    AddressMode, Pass, Sampler, Scalar, TexelFormat, Texture, TextureAccess, TextureFill, UserKernel, Values,
};

/// WebGPU copies between textures and buffers in rows a multiple of this many bytes apart.
const ROW_ALIGNMENT: u64 = 256;

fn format(format: TexelFormat) -> wgpu::TextureFormat {
    match format {
        TexelFormat::Rgba8Unorm => wgpu::TextureFormat::Rgba8Unorm,
        TexelFormat::Rgba8Uint => wgpu::TextureFormat::Rgba8Uint,
        TexelFormat::Rgba16Float => wgpu::TextureFormat::Rgba16Float,
        TexelFormat::Rgba32Float => wgpu::TextureFormat::Rgba32Float,
        TexelFormat::R32Float => wgpu::TextureFormat::R32Float,
        TexelFormat::R32Uint => wgpu::TextureFormat::R32Uint,
    }
}

fn entry(binding: u32, ty: wgpu::BindingType) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry { binding, visibility: wgpu::ShaderStages::COMPUTE, ty, count: None }
}

/// The bind group layout entry of a buffer of `ty` at `binding`.
fn buffer_entry(binding: u32, ty: wgpu::BufferBindingType) -> wgpu::BindGroupLayoutEntry {
    entry(binding, wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None })
}

/// The bind groups a pass sets: one for each group up to the last that holds a binding (an empty one for a
/// group between).
pub fn groups(kernel: &UserKernel, pass: &Pass) -> u32 {
    let storage = pass.bound.iter().map(|b| b.group);
    let uniforms = kernel.uniforms.iter().map(|u| u.group);
    let textures = kernel.textures.iter().map(|t| t.group).chain(kernel.samplers.iter().map(|s| s.group));
    storage.chain(uniforms).chain(textures).max().map_or(1, |last| last + 1)
}

/// The pipeline layout of a pass: in each group, the storage buffers it binds there, and every uniform,
/// texture and sampler there.
pub fn pass_layout(gpu: &Gpu, kernel: &UserKernel, pass: &Pass) -> wgpu::PipelineLayout {
    let storage = pass
        .bound
        .iter()
        .map(|b| (b.group, buffer_entry(b.binding, wgpu::BufferBindingType::Storage { read_only: !b.read_write })));
    let uniforms = kernel.uniforms.iter().map(|u| (u.group, buffer_entry(u.binding, wgpu::BufferBindingType::Uniform)));
    let textures = kernel.textures.iter().map(|t| (t.group, texture_entry(t)));
    let samplers = kernel.samplers.iter().map(|s| (s.group, sampler_entry(s)));
    let entries: Vec<(u32, wgpu::BindGroupLayoutEntry)> =
        storage.chain(uniforms).chain(textures).chain(samplers).collect();
    let label = Some(pass.entry_point.as_str());
    let layouts: Vec<wgpu::BindGroupLayout> = (0..groups(kernel, pass))
        .map(|group| {
            let entries: Vec<wgpu::BindGroupLayoutEntry> =
                entries.iter().filter(|(g, _)| *g == group).map(|(_, entry)| *entry).collect();
            gpu.device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label, entries: &entries })
        })
        .collect();
    let bind_group_layouts: Vec<Option<&wgpu::BindGroupLayout>> = layouts.iter().map(Some).collect();
    gpu.device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label,
        bind_group_layouts: &bind_group_layouts,
        immediate_size: 0,
    })
}

/// What a configuration binds: its buffers (in the specification's order), uniform buffers, views of its
/// textures and samplers.
pub struct Bound<'a> {
    pub buffers: &'a [wgpu::Buffer],
    pub uniforms: &'a [wgpu::Buffer],
    pub views: &'a [wgpu::TextureView],
    pub samplers: &'a [wgpu::Sampler],
}

/// The bind groups of a pass's `pipeline`, group by group, with what `bound` holds where the pass binds it.
pub fn bind_groups(
    gpu: &Gpu,
    kernel: &UserKernel,
    pass: &Pass,
    pipeline: &wgpu::ComputePipeline,
    bound: &Bound,
) -> Vec<wgpu::BindGroup> {
    let storage = pass.bound.iter().map(|b| (b.group, b.binding, bound.buffers[b.buffer].as_entire_binding()));
    let uniforms = kernel.uniforms.iter().zip(bound.uniforms);
    let uniforms = uniforms.map(|(u, buffer)| (u.group, u.binding, buffer.as_entire_binding()));
    let textures = kernel.textures.iter().zip(bound.views);
    let textures = textures.map(|(t, view)| (t.group, t.binding, wgpu::BindingResource::TextureView(view)));
    let samplers = kernel.samplers.iter().zip(bound.samplers);
    let samplers = samplers.map(|(s, sampler)| (s.group, s.binding, wgpu::BindingResource::Sampler(sampler)));
    let entries: Vec<(u32, wgpu::BindGroupEntry)> = storage
        .chain(uniforms)
        .chain(textures)
        .chain(samplers)
        .map(|(group, binding, resource)| (group, wgpu::BindGroupEntry { binding, resource }))
        .collect();
    (0..groups(kernel, pass))
        .map(|group| {
            let here: Vec<wgpu::BindGroupEntry> =
                entries.iter().filter(|(g, _)| *g == group).map(|(_, entry)| entry.clone()).collect();
            gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&pass.entry_point),
                layout: &pipeline.get_bind_group_layout(group),
                entries: &here,
            })
        })
        .collect()
}

/// A texture's layout entry, as its WGSL declares it: sampled, or a storage texture of its format.
pub fn texture_entry(texture: &Texture) -> wgpu::BindGroupLayoutEntry {
    let view_dimension = wgpu::TextureViewDimension::D2;
    let ty = match texture.access {
        TextureAccess::Sampled => wgpu::BindingType::Texture {
            sample_type: match texture.format.channel() {
                Scalar::U32 => wgpu::TextureSampleType::Uint,
                _ => wgpu::TextureSampleType::Float { filterable: texture.format.filterable() },
            },
            view_dimension,
            multisampled: false,
        },
        TextureAccess::Write | TextureAccess::ReadWrite => wgpu::BindingType::StorageTexture {
            access: match texture.access {
                TextureAccess::Write => wgpu::StorageTextureAccess::WriteOnly,
                _ => wgpu::StorageTextureAccess::ReadWrite,
            },
            format: format(texture.format),
            view_dimension,
        },
    };
    entry(texture.binding, ty)
}

/// A sampler's layout entry: filtering where it filters linearly.
pub fn sampler_entry(sampler: &Sampler) -> wgpu::BindGroupLayoutEntry {
    let ty = match sampler.linear {
        true => wgpu::SamplerBindingType::Filtering,
        false => wgpu::SamplerBindingType::NonFiltering,
    };
    entry(sampler.binding, wgpu::BindingType::Sampler(ty))
}

pub fn make_sampler(gpu: &Gpu, sampler: &Sampler) -> wgpu::Sampler {
    let filter = if sampler.linear { wgpu::FilterMode::Linear } else { wgpu::FilterMode::Nearest };
    let address_mode = match sampler.address {
        AddressMode::ClampToEdge => wgpu::AddressMode::ClampToEdge,
        AddressMode::Repeat => wgpu::AddressMode::Repeat,
        AddressMode::MirrorRepeat => wgpu::AddressMode::MirrorRepeat,
    };
    gpu.device.create_sampler(&wgpu::SamplerDescriptor {
        address_mode_u: address_mode,
        address_mode_v: address_mode,
        mag_filter: filter,
        min_filter: filter,
        ..Default::default()
    })
}

/// How validation matches an output texture's words: by its format's channels, within `tolerance`.
pub fn words(format: TexelFormat, tolerance: f32) -> Words {
    match format {
        TexelFormat::Rgba8Unorm => Words::Unorm8 { tolerance },
        TexelFormat::Rgba16Float => Words::F16Pairs { tolerance },
        TexelFormat::Rgba32Float | TexelFormat::R32Float => Words::F32 { tolerance },
        TexelFormat::Rgba8Uint | TexelFormat::R32Uint => Words::Exact,
    }
}

/// A texture's extent at a configuration, or the device's limit it is over.
fn extent(gpu: &Gpu, texture: &Texture, values: &Values) -> Result<[u32; 2], Skip> {
    let extent = texture.extent(values).map_err(|p| Skip::NotApplicable(p.to_string()))?;
    let max = gpu.device.limits().max_texture_dimension_2d;
    match extent.iter().find(|&&d| d > max as u64) {
        Some(&needed) => Err(Skip::ExceedsLimit { limit: "max_texture_dimension_2d", device: max as u64, needed }),
        None => Ok(extent.map(|d| d.max(1) as u32)),
    }
}

/// A texture of `texture` at a configuration (`values`), filled as its specification says (random from
/// `seed`), or the limit it is over.
pub fn make(gpu: &Gpu, texture: &Texture, values: &Values, seed: u32) -> Result<wgpu::Texture, Skip> {
    let [width, height] = extent(gpu, texture, values)?;
    let bound = match texture.access {
        TextureAccess::Sampled => wgpu::TextureUsages::TEXTURE_BINDING,
        _ => wgpu::TextureUsages::STORAGE_BINDING,
    };
    let size = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
    let made = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(&texture.name),
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: format(texture.format),
        usage: bound | wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let texel = texture.format.bytes();
    match texture.fill {
        None | Some(TextureFill::Zeros) => {}
        Some(TextureFill::Random) => {
            let copy = texel_copy(texture.format, &made);
            let staging = kernel::storage_buffer(gpu, &texture.name, copy.bytes());
            let pattern = match texture.format {
                TexelFormat::Rgba16Float => Pattern::RandomF16 { low: 0.0, high: 1.0 },
                TexelFormat::Rgba32Float | TexelFormat::R32Float => Pattern::RandomF32 { low: 0.0, high: 1.0 },
                _ => Pattern::RandomInt { low: 0, high: u32::MAX },
            };
            kernel::submit(gpu, |encoder| {
                gpu.filler().pattern(&gpu.device, encoder, &staging, pattern, seed);
                encoder.copy_buffer_to_texture(copy.in_buffer(&staging), made.as_image_copy(), size);
            });
        }
        Some(TextureFill::Gradient) => {
            let data = gradient(texture.format, width, height);
            let layout = wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(width * texel as u32),
                rows_per_image: None,
            };
            gpu.queue.write_texture(made.as_image_copy(), &data, layout, size);
        }
    }
    Ok(made)
}

/// Bytes from one row to the next where a texture of `format`, `width` texels across, lies in a buffer.
fn bytes_per_row(format: TexelFormat, width: u32) -> u32 {
    (width as u64 * format.bytes()).div_ceil(ROW_ALIGNMENT) as u32 * ROW_ALIGNMENT as u32
}

/// How the texels of `made`, a texture of `format`, lie in a buffer they are copied into.
pub fn texel_copy(format: TexelFormat, made: &wgpu::Texture) -> TexelCopy {
    let extent = [made.width(), made.height()];
    TexelCopy { texture: made.clone(), bytes_per_row: bytes_per_row(format, extent[0]), extent }
}

/// A gradient image: red rising across, green rising down, blue falling across, alpha full; for integer
/// formats the texel's x and y (r32uint: its index, row by row).
fn gradient(format: TexelFormat, width: u32, height: u32) -> Vec<u8> {
    let mut data = Vec::with_capacity((width as u64 * height as u64 * format.bytes()) as usize);
    let fraction = |i: u32, n: u32| if n > 1 { i as f32 / (n - 1) as f32 } else { 0.0 };
    for y in 0..height {
        for x in 0..width {
            let (across, down) = (fraction(x, width), fraction(y, height));
            let channels = [across, down, 1.0 - across, 1.0];
            match format {
                TexelFormat::Rgba8Unorm => data.extend(channels.map(|c| (c * 255.0).round() as u8)),
                TexelFormat::Rgba8Uint => data.extend([x as u8, y as u8, 0, 255]),
                TexelFormat::Rgba16Float => {
                    channels.iter().for_each(|&c| data.extend(half::f16::from_f32(c).to_le_bytes()))
                }
                TexelFormat::Rgba32Float => channels.iter().for_each(|c| data.extend(c.to_le_bytes())),
                TexelFormat::R32Float => data.extend(across.to_le_bytes()),
                TexelFormat::R32Uint => data.extend((y * width + x).to_le_bytes()),
            }
        }
    }
    data
}
