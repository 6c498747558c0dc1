//! Just enough of the W3C WebDriver protocol to drive Chromium through chromedriver, or Firefox through
//! geckodriver, over loopback HTTP. `WGSWEEP_E2E_BROWSER=firefox` picks Firefox (`cargo xtask test` runs the
//! tests whose behaviour could differ between engines in both).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

pub enum WebGpu {
    Enabled,
    /// Chromium on Linux offers no WebGPU adapter without --enable-unsafe-webgpu; Firefox on Linux none
    /// without dom.webgpu.enabled.
    Disabled,
}

/// The browser engine the tests drive.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Engine {
    Chromium,
    Firefox,
}

impl Engine {
    /// The engine `WGSWEEP_E2E_BROWSER` names (`chromium`, the default, or `firefox`).
    pub fn chosen() -> Engine {
        match std::env::var("WGSWEEP_E2E_BROWSER").as_deref() {
            Ok("firefox") => Engine::Firefox,
            Ok("chromium") | Err(_) => Engine::Chromium,
            Ok(other) => panic!("WGSWEEP_E2E_BROWSER={other}: chromium or firefox"),
        }
    }

    /// The browser as the page names it from its user agent.
    pub fn browser_name(self) -> &'static str {
        match self {
            Engine::Chromium => "Chrome",
            Engine::Firefox => "Firefox",
        }
    }
}

/// A WebDriver process with one browser session; both end when it is dropped.
pub struct Browser {
    pub engine: Engine,
    driver: Child,
    port: u16,
    session: String,
    _profile: TempDir,
}

struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    pub fn start(webgpu: WebGpu) -> Self {
        Browser::start_in(Engine::chosen(), webgpu)
    }

    pub fn start_in(engine: Engine, webgpu: WebGpu) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let profile = std::env::temp_dir().join(format!("wgsweep-e2e-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&profile).expect("a profile folder");
        let (program, args) = match engine {
            Engine::Chromium => {
                let program = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
                (program, vec![format!("--port={port}")])
            }
            Engine::Firefox => {
                let program = std::env::var("GECKODRIVER").unwrap_or_else(|_| "geckodriver".into());
                (program, vec![format!("--port={port}"), "--log=warn".into()])
            }
        };
        let driver = Command::new(&program)
            .args(&args)
            // Firefox wants a runtime folder of its own to stay quiet.
            .env("XDG_RUNTIME_DIR", &profile)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{program}: {e} (`cargo xtask setup` installs it)"));
        let deadline = Instant::now() + Duration::from_secs(20);
        while request(port, "GET", "/status", None).is_err() {
            assert!(Instant::now() < deadline, "{program} did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let enabled = matches!(webgpu, WebGpu::Enabled);
        let capabilities = match engine {
            Engine::Chromium => {
                let mut args = vec![
                    "--headless=new".to_string(),
                    "--no-sandbox".into(),
                    "--disable-background-networking".into(),
                    "--disable-component-update".into(),
                    "--disable-sync".into(),
                    "--no-first-run".into(),
                    "--disable-quic".into(),
                    "--window-size=1280,1700".into(),
                    format!("--user-data-dir={}", profile.display()),
                ];
                if enabled {
                    args.push("--enable-unsafe-webgpu".into());
                }
                // More flags for a look inside a test's page, such as a trace of its main thread
                // (docs/results/page-pace/longtasks.py names its long tasks).
                if let Ok(flags) = std::env::var("WGSWEEP_E2E_CHROMIUM_FLAGS") {
                    args.extend(flags.split_whitespace().map(String::from));
                }
                json!({"capabilities": {"alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args},
                    "goog:loggingPrefs": {"browser": "ALL"},
                }}})
            }
            // WebGPU is behind a preference in Firefox on Linux.
            Engine::Firefox => json!({"capabilities": {"alwaysMatch": {
                "browserName": "firefox",
                "moz:firefoxOptions": {
                    "binary": "/usr/bin/firefox-esr",
                    "args": ["-headless"],
                    "prefs": {
                        "dom.webgpu.enabled": enabled,
                        "gfx.webgpu.ignore-blocklist": enabled,
                        "gfx.webgpu.force-enabled": enabled,
                        "browser.shell.checkDefaultBrowser": false,
                        "datareporting.policy.dataSubmissionEnabled": false,
                    },
                },
            }}}),
        };
        let created = request(port, "POST", "/session", Some(&capabilities)).expect("a browser session");
        let session = created["sessionId"].as_str().expect("a session id").to_string();
        let browser = Browser { engine, driver, port, session, _profile: TempDir(profile) };
        if engine == Engine::Firefox {
            browser.set_window_size(1280, 1700);
        }
        browser
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        request(self.port, method, &path, body).unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    /// Runs `script` in every page this browser opens from now on, before the page's own scripts (Chromium
    /// only: through the DevTools protocol that chromedriver passes on).
    pub fn before_each_page(&self, script: &str) {
        assert_eq!(self.engine, Engine::Chromium, "a script before the page's own is Chromium's here");
        let command = json!({ "cmd": "Page.addScriptToEvaluateOnNewDocument", "params": { "source": script } });
        self.call("POST", "/goog/cdp/execute", Some(&command));
    }

    /// Opens `url` and waits for its document. A link that differs from the page's address only in its
    /// fragment is no new document: the page opens it in place, as a person pasting it would see.
    pub fn open(&self, url: &str) {
        let here = self.eval("return location.href");
        let base = |address: &str| address.split('#').next().unwrap_or(address).to_string();
        if url.contains('#') && here.as_str().map(base) == Some(base(url)) {
            self.call("POST", "/url", Some(&json!({ "url": url })));
            return;
        }
        self.eval("window.wgsweepLeftBehind = true; return true");
        self.call("POST", "/url", Some(&json!({ "url": url })));
        let fresh = "window.wgsweepLeftBehind === undefined && document.readyState === 'complete'";
        self.wait_for("the page to load", fresh, Duration::from_secs(60));
        if self.engine == Engine::Firefox {
            // geckodriver passes on no page's console: its Content-Security-Policy violations are counted in
            // the page from here on (a violation while it loaded would have stopped it working at all).
            self.eval(
                "window.wgsweepViolations = []; document.addEventListener('securitypolicyviolation', \
                 e => window.wgsweepViolations.push(`Content-Security-Policy: ${e.violatedDirective} ${e.blockedURI}`)); \
                 return true",
            );
        }
    }

    /// The page's Content-Security-Policy violations since this was last asked: chromedriver's console
    /// messages about it, or in Firefox the violations the page saw since it was opened.
    pub fn csp_violations(&self) -> Vec<String> {
        match self.engine {
            Engine::Chromium => {
                let console = self.console().into_iter().map(|(_, message)| message);
                console.filter(|m| m.contains("Content Security Policy")).collect()
            }
            Engine::Firefox => {
                let found = self.eval("return (window.wgsweepViolations || []).splice(0)");
                serde_json::from_value(found).unwrap_or_default()
            }
        }
    }

    /// Runs a script (a function body) in the page and returns its value.
    pub fn eval(&self, script: &str) -> Value {
        self.call("POST", "/execute/sync", Some(&json!({ "script": script, "args": [] })))
    }

    /// Runs a script (a function body) that returns a promise, and returns what it resolves to.
    pub fn eval_async(&self, script: &str) -> Value {
        let wrapped =
            format!("const done = arguments[arguments.length - 1]; (async () => {{ {script} }})().then(done)");
        self.call("POST", "/execute/async", Some(&json!({ "script": wrapped, "args": [] })))
    }

    /// What the page wrote to its console since this was last asked (chromedriver's log of the browser):
    /// each entry's level and message.
    fn console(&self) -> Vec<(String, String)> {
        let entries = self.call("POST", "/se/log", Some(&json!({ "type": "browser" })));
        let entries = entries.as_array().cloned().unwrap_or_default();
        entries
            .iter()
            .map(|e| (e["level"].as_str().unwrap_or("").into(), e["message"].as_str().unwrap_or("").into()))
            .collect()
    }

    /// Waits until the JS expression is truthy.
    pub fn wait_for(&self, what: &str, expression: &str, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        // An element the page has not made yet is "not yet", not an error.
        let script = format!("try {{ return Boolean({expression}) }} catch (e) {{ return false }}");
        // So is a document that is being unloaded, which the driver may answer with an error.
        let body = json!({ "script": script, "args": [] });
        let path = format!("/session/{}/execute/sync", self.session);
        while request(self.port, "POST", &path, Some(&body)).ok() != Some(Value::Bool(true)) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}: {expression}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the element `id` is on the page and shown. (`!element?.hidden` would also pass while a newly
    /// opened page has not made the element yet.)
    pub fn wait_shown(&self, what: &str, id: &str, timeout: Duration) {
        self.wait_for(what, &format!("document.getElementById('{id}')?.hidden === false"), timeout);
    }

    /// The visible text of the first element matching `selector`.
    pub fn text(&self, selector: &str) -> String {
        let element = self.find(selector);
        self.call("GET", &format!("/element/{element}/text"), None).as_str().unwrap_or("").to_string()
    }

    /// Clicks the element as a user would (WebDriver's element click).
    pub fn click(&self, selector: &str) {
        let element = self.find(selector);
        self.call("POST", &format!("/element/{element}/click"), Some(&json!({})));
    }

    /// Picks `path` in the file input `selector`, as a user choosing a file would.
    pub fn pick_file(&self, selector: &str, path: &Path) {
        let element = self.find(selector);
        let text = path.to_str().expect("a UTF-8 path");
        self.call("POST", &format!("/element/{element}/value"), Some(&json!({ "text": text })));
    }

    fn find(&self, selector: &str) -> String {
        let found = self.call("POST", "/element", Some(&json!({ "using": "css selector", "value": selector })));
        found[ELEMENT].as_str().unwrap_or_else(|| panic!("no element matches {selector}: {found}")).to_string()
    }

    /// Scrolls the page so the element `selector` names is at the top of the window.
    pub fn scroll_to(&self, selector: &str) {
        let script = format!("document.querySelector({}).scrollIntoView()", serde_json::json!(selector));
        self.eval(&script);
    }

    /// Types `text` into the field `selector`, key by key, as a person would.
    pub fn type_into(&self, selector: &str, text: &str) {
        let element = self.find(selector);
        self.call("POST", &format!("/element/{element}/value"), Some(&json!({ "text": text })));
    }

    /// Resizes the browser's window, as a person would drag it or hold a phone.
    pub fn set_window_size(&self, width: u32, height: u32) {
        self.call("POST", "/window/rect", Some(&json!({ "width": width, "height": height })));
    }

    pub fn screenshot(&self, path: &Path) {
        let encoded = self.call("GET", "/screenshot", None);
        let png = base64::engine::general_purpose::STANDARD.decode(encoded.as_str().expect("base64")).expect("png");
        std::fs::write(path, png).expect("screenshot written");
        eprintln!("screenshot: {}", path.display());
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = request(self.port, "DELETE", &format!("/session/{}", self.session), None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// One HTTP/1.1 request to the WebDriver; returns the response's `value`, or its error message.
fn request(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(body.as_bytes())).map_err(|e| e.to_string())?;
    // A WebDriver may answer "Connection: close" and keep the socket open: read by Content-Length.
    let mut response = Vec::new();
    let mut buffer = [0u8; 65536];
    let (header_end, length) = loop {
        let n = stream.read(&mut buffer).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("the WebDriver closed the connection mid-response".into());
        }
        response.extend_from_slice(&buffer[..n]);
        if let Some(end) = response.windows(4).position(|w| w == b"\r\n\r\n") {
            let headers = String::from_utf8_lossy(&response[..end]).to_ascii_lowercase();
            let length = headers
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .ok_or("a response without Content-Length")?;
            break (end + 4, length);
        }
    };
    while response.len() < header_end + length {
        let n = stream.read(&mut buffer).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("the WebDriver closed the connection mid-body".into());
        }
        response.extend_from_slice(&buffer[..n]);
    }
    let payload = String::from_utf8_lossy(&response[header_end..header_end + length]).to_string();
    let parsed: Value = serde_json::from_str(&payload).map_err(|e| format!("{e}: {payload}"))?;
    let value = parsed["value"].clone();
    match value.get("error") {
        Some(error) => Err(format!("{error}: {}", value["message"])),
        None => Ok(value),
    }
}
