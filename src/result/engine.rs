//! Where a run ran: the browser a user agent names, and the engine with its WebGPU implementation.

use super::Environment;

impl Environment {
    /// Where the run ran, with its WebGPU implementation: "Chrome 156 (Dawn)", "Firefox 153 (wgpu)",
    /// "native (wgpu on vulkan)" given the backend.
    pub fn engine(&self, backend: &str) -> String {
        if self.runtime == "native" {
            return format!("native (wgpu on {backend})");
        }
        match browser(&self.platform) {
            Some((name, version)) => {
                let implementation = match name {
                    "Firefox" => "wgpu",
                    "Safari" => "WebKit",
                    _ => "Dawn",
                };
                format!("{name} {version} ({implementation})")
            }
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
