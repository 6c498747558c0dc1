//! The textures and samplers of a specification, each against the WGSL's declaration at its binding.

use super::Checker;
use crate::spec::kernel::{AddressMode, Sampler, TexelFormat, Texture, TextureAccess};
use crate::spec::schema::{Spec, TextureFill};
use crate::spec::wgsl::{Binding, Declarations};

/// How the WGSL declares a texture: sampled (`texture_2d<f32>`, its channel type) or storage
/// (`texture_storage_2d<rgba8unorm, write>`, its format and access).
enum Declared<'a> {
    Sampled(&'a str),
    Storage(&'a str, &'a str),
    Sampler,
    Other,
}

fn declared_as(binding: &Binding) -> Declared<'_> {
    let text = binding.type_text.as_str();
    let inner = |prefix: &str| text.strip_prefix(prefix).and_then(|t| t.strip_suffix('>'));
    if let Some(channel) = inner("texture_2d<") {
        return Declared::Sampled(channel.trim());
    }
    if let Some((format, access)) = inner("texture_storage_2d<").and_then(|t| t.split_once(',')) {
        return Declared::Storage(format.trim(), access.trim());
    }
    match text {
        "sampler" => Declared::Sampler,
        _ => Declared::Other,
    }
}

impl Checker {
    /// Textures: each a 2-D texture the WGSL declares at its group and binding, sampled or storage, of a format wgsweep
    /// fills (a storage texture's the WGSL's own), sized by expressions of the size's dimensions; an output
    /// texture is a storage texture the kernel writes.
    pub(super) fn textures(&mut self, spec: &Spec, declared: &Declarations, sizes: &[&str]) -> Vec<Texture> {
        let mut textures = Vec::new();
        for (i, t) in spec.textures.iter().enumerate() {
            let place = format!("textures[{i}] ({})", t.name);
            let formats: Vec<&str> = TexelFormat::ALL.iter().map(|f| f.name()).collect();
            let format = TexelFormat::named(&t.format);
            if format.is_none() {
                let message = format!("`{}` is not a format wgsweep fills ({})", t.format, formats.join(", "));
                self.problem(format!("{place}.format"), message);
            }
            let access = self.texture_declaration(&place, (t.group, t.binding), format, declared);
            if t.output && access == Some(TextureAccess::Sampled) {
                self.problem(format!("{place}.output"), "the output is a storage texture the kernel writes");
            }
            if t.output && t.fill.is_some() {
                self.problem(format!("{place}.fill"), "an output texture starts poisoned: give it no fill");
            }
            let width = self.expression(format!("{place}.width"), &t.width, sizes);
            let height = self.expression(format!("{place}.height"), &t.height, sizes);
            if let (Some(format), Some(access), Some(width), Some(height)) = (format, access, width, height) {
                let fill = match t.output {
                    true => None,
                    false => Some(t.fill.unwrap_or(TextureFill::Random)),
                };
                let (group, binding, name, output) = (t.group, t.binding, t.name.clone(), t.output);
                textures.push(Texture { group, binding, name, format, width, height, fill, output, access });
            }
        }
        textures
    }

    /// A texture's declaration: sampled with channels of the format's type, or a storage texture of the
    /// same format; how the kernel reaches it, where it reads.
    fn texture_declaration(
        &mut self,
        place: &str,
        (group, binding): (u32, u32),
        format: Option<TexelFormat>,
        declared: &Declarations,
    ) -> Option<TextureAccess> {
        let Some(declaration) = declared.binding(group, binding) else {
            let message = format!("the WGSL declares no texture at @group({group}) @binding({binding})");
            self.problem(format!("{place}.binding"), message);
            return None;
        };
        let (name, text) = (&declaration.name, &declaration.type_text);
        match declared_as(declaration) {
            Declared::Sampled(channel) => {
                if let Some(format) = format.filter(|f| f.channel().name() != channel) {
                    let message = format!(
                        "`{name}` is {text}: a {} texture is read as {}",
                        format.name(),
                        format.channel().name()
                    );
                    self.problem(format!("{place}.format"), message);
                }
                Some(TextureAccess::Sampled)
            }
            Declared::Storage(written, access) => {
                if let Some(format) = format.filter(|f| f.name() != written) {
                    let message = format!("`{name}` is {text}: its format is {written}, not {}", format.name());
                    self.problem(format!("{place}.format"), message);
                }
                match access {
                    "write" => Some(TextureAccess::Write),
                    "read_write" => Some(TextureAccess::ReadWrite),
                    _ => {
                        let message = format!("`{name}` is {text}: wgsweep binds storage textures write or read_write");
                        self.problem(format!("{place}.binding"), message);
                        None
                    }
                }
            }
            Declared::Sampler | Declared::Other => {
                let message = format!("`{name}` is {text}: a texture is a texture_2d or a texture_storage_2d");
                self.problem(format!("{place}.binding"), message);
                None
            }
        }
    }

    /// Samplers: each a `sampler` the WGSL declares at its group and binding, with its filter and address
    /// mode.
    pub(super) fn samplers(&mut self, spec: &Spec, declared: &Declarations, textures: &[Texture]) -> Vec<Sampler> {
        let mut samplers = Vec::new();
        for (i, s) in spec.samplers.iter().enumerate() {
            let place = format!("samplers[{i}]");
            match declared.binding(s.group, s.binding).map(|d| (d, declared_kind(d))) {
                Some((_, true)) => {}
                Some((d, false)) => {
                    let message = format!("`{}` at binding {} is {}, not a sampler", d.name, s.binding, d.type_text);
                    self.problem(format!("{place}.binding"), message);
                }
                None => {
                    let message =
                        format!("the WGSL declares no sampler at @group({}) @binding({})", s.group, s.binding);
                    self.problem(format!("{place}.binding"), message);
                }
            }
            let linear = match s.filter.as_str() {
                "linear" => true,
                "nearest" => false,
                other => {
                    self.problem(format!("{place}.filter"), format!("`{other}` is not linear or nearest"));
                    true
                }
            };
            let address = match s.address_mode.as_str() {
                "clamp-to-edge" => AddressMode::ClampToEdge,
                "repeat" => AddressMode::Repeat,
                "mirror-repeat" => AddressMode::MirrorRepeat,
                other => {
                    let message = format!("`{other}` is not clamp-to-edge, repeat or mirror-repeat");
                    self.problem(format!("{place}.address_mode"), message);
                    AddressMode::ClampToEdge
                }
            };
            samplers.push(Sampler { group: s.group, binding: s.binding, linear, address });
        }
        // WebGPU filters 32-bit float textures only with a feature: a linear sampler beside one is refused.
        let unfilterable = |t: &&Texture| t.access == TextureAccess::Sampled && !t.format.filterable();
        if let Some(texture) = textures.iter().find(unfilterable)
            && samplers.iter().any(|s| s.linear)
        {
            let message = format!(
                "`{}` is {}, which WebGPU does not filter: make the samplers \"nearest\"",
                texture.name,
                texture.format.name()
            );
            self.problem("samplers", message);
        }
        samplers
    }
}

/// Whether a binding is declared a `sampler`.
fn declared_kind(binding: &Binding) -> bool {
    matches!(declared_as(binding), Declared::Sampler)
}
