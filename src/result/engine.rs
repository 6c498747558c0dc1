//! Where a run ran: the browser a user agent names, and the engine with its WebGPU implementation.

use super::Environment;
use crate::gpu::DeviceInfo;

impl Environment {
    /// Where the run ran, with its WebGPU implementation: "Chrome 156 (Dawn)", "Firefox 153 (wgpu)",
    /// "native (wgpu on vulkan)" given the backend.
    pub fn engine(&self, backend: &str) -> String {
        if self.runtime == "native" {
            return format!("native (wgpu on {backend})");
        }
        match browser(&self.platform) {
            Some((name, version)) => format!("{name} {version} ({})", implementation(name)),
            None => "a browser".to_string(),
        }
    }
}

/// The browser a user agent names, with its major version: ("Chrome", "156"). Edge and Opera also say
/// "Chrome/": the more particular name is looked for first.
pub fn browser(user_agent: &str) -> Option<(&'static str, &str)> {
    const TOKENS: [(&str, &str); 5] =
        [("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Version/", "Safari")];
    TOKENS.iter().find_map(|&(token, name)| {
        let version = user_agent.split(token).nth(1)?.split(['.', ' ']).next()?;
        Some((name, version))
    })
}

/// The WebGPU implementation a browser of this name (`browser`) is built on: Firefox's is wgpu, Safari's
/// WebKit's, and Chrome's, Edge's and Opera's Dawn.
pub fn implementation(browser: &str) -> &'static str {
    match browser {
        "Firefox" => "wgpu",
        "Safari" => "WebKit",
        _ => "Dawn",
    }
}

/// The flag that starts a Chromium-based browser with shader-f16 on an NVIDIA GPU: Dawn turns the feature off
/// on NVIDIA's Vulkan driver unless asked (Chromium's bug 42251215; docs/results/beyond-f32-h100.md).
pub const DAWN_F16_ON_NVIDIA: &str = "--enable-dawn-features=vulkan_enable_f16_on_nvidia";

/// What would give `device` shader-f16 in the browser `user_agent` names, where it lacks it and that is
/// known: Dawn's toggle, on an NVIDIA GPU in a browser built on Dawn.
pub fn f16_unlock(device: &DeviceInfo, user_agent: &str) -> Option<&'static str> {
    let dawn = browser(user_agent).is_some_and(|(name, _)| implementation(name) == "Dawn");
    let nvidia = device.vendor_id == 0x10de || device.identity.vendor.eq_ignore_ascii_case("nvidia");
    (dawn && nvidia && !device.has_feature("shader-f16")).then_some(DAWN_F16_ON_NVIDIA)
}
