//! The project's tasks, in Rust so they run wherever cargo does.
//!
//! `cargo xtask serve` and `cargo xtask test` first install what they need on a fresh Debian or Ubuntu
//! machine (the wasm target, the pinned wasm-bindgen-cli and trunk, wasm-opt, esbuild and Chart.js from npm,
//! Chromium with chromedriver, Firefox ESR with the pinned geckodriver, Mesa's lavapipe for native tests
//! without a GPU, and PostgreSQL for the gallery's tests), skipping what is there.

mod imports;
mod patch;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const HELP: &str = "\
cargo xtask <task>

  serve   install what is missing, build the page, then serve it with its results gallery (SQLite in
          wgsweep-gallery.db) on http://127.0.0.1:8080
  dist    install what is missing, then build the static page into dist/
  test    install what is missing, then check formatting (rustfmt) and lints (clippy, natively and for
          wasm32), and run every test: native (lavapipe or any GPU), browser (wasm-bindgen-test in headless
          Chromium and Firefox) and end to end (the built page in headless Chromium, then in headless
          Firefox)
  setup   only install what is missing
  paces   learn each kind of engine's and adapter's pace from the runs recorded under docs/results into
          src/estimate/learned.rs (what a run's expected duration is made of)
  patch   check that patches/wgpu is the published wgpu crate plus patches/wgpu.diff, byte for byte (also
          part of test)
";

/// trunk 0.22 needs a newer rustc than these machines have.
const TRUNK_VERSION: &str = "0.21.14";
/// Drives Firefox in the end-to-end tests, as chromedriver drives Chromium (built from crates.io).
const GECKODRIVER_VERSION: &str = "0.37.1";
/// Debian's packages the tasks need: Chromium and its driver for the browser tests, Mesa's lavapipe and the
/// Vulkan loader for native tests without a GPU, PostgreSQL for the gallery's tests (a throwaway cluster).
const APT_PACKAGES: &[&str] =
    &["chromium", "chromium-driver", "firefox-esr", "mesa-vulkan-drivers", "libvulkan1", "postgresql"];

type Result<T = ()> = std::result::Result<T, String>;

fn main() -> ExitCode {
    let task = std::env::args().nth(1).unwrap_or_default();
    let outcome = match task.as_str() {
        "setup" => setup(),
        "serve" => setup().and_then(|_| serve()),
        "dist" => setup().and_then(|_| dist()),
        "test" => setup().and_then(|_| test()),
        "patch" => patch::check(),
        "paces" => paces(),
        _ => {
            eprint!("{HELP}");
            return ExitCode::from(if task.is_empty() || task == "help" || task == "--help" { 0 } else { 2 });
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Writes src/estimate/learned.rs from the recorded runs: the test that holds it to them, told to write it.
fn paces() -> Result {
    let mut learn = cmd("cargo", &["test", "--test", "library", "estimate::the_learned_paces"]);
    learn.env("WGSWEEP_LEARN", "1");
    run(learn)
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask sits in the workspace").to_path_buf()
}

/// A command run in the workspace root with the project's tools first on PATH.
fn cmd(program: &str, args: &[&str]) -> Command {
    let root = root();
    let cargo_bin = std::env::var("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cargo"))
        .join("bin");
    let path = std::env::var("PATH").unwrap_or_default();
    let path = format!("{}:{}:{path}", root.join("node_modules/.bin").display(), cargo_bin.display());
    let mut command = Command::new(program);
    command.args(args).current_dir(&root).env("PATH", path);
    command
}

fn step(name: &str) {
    eprintln!("\n==> {name}");
}

fn run(mut command: Command) -> Result {
    let shown = format!("{command:?}");
    let status = command.status().map_err(|e| format!("could not start {shown}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{shown} failed ({status})")) }
}

/// The first line a tool prints for `--version`, or None if it is not installed.
fn version_of(program: &str) -> Option<String> {
    let output = cmd(program, &["--version"]).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).lines().next().unwrap_or("").to_string())
}

fn setup() -> Result {
    step("setup: wasm32 target");
    let targets = cmd("rustup", &["target", "list", "--installed"]).output().map_err(|e| format!("rustup: {e}"))?;
    if !String::from_utf8_lossy(&targets.stdout).contains("wasm32-unknown-unknown") {
        run(cmd("rustup", &["target", "add", "wasm32-unknown-unknown"]))?;
    }

    step("setup: rustfmt and clippy");
    if version_of("cargo-fmt").is_none() || version_of("cargo-clippy").is_none() {
        run(cmd("rustup", &["component", "add", "rustfmt", "clippy"]))?;
    }

    step("setup: Debian packages (Chromium, chromedriver, Firefox ESR, lavapipe, PostgreSQL)");
    let mut missing: Vec<&str> = APT_PACKAGES.iter().copied().filter(|p| !dpkg_installed(p)).collect();
    // Node.js may come from elsewhere than Debian: only its commands matter.
    if version_of("npm").is_none() {
        missing.extend(["nodejs", "npm"]);
    }
    if !missing.is_empty() {
        apt_install(&missing)?;
    }

    let wasm_bindgen = wasm_bindgen_version()?;
    step(&format!("setup: wasm-bindgen-cli {wasm_bindgen}"));
    if version_of("wasm-bindgen").as_deref() != Some(&format!("wasm-bindgen {wasm_bindgen}")) {
        // Not --locked: its lock file wants a webpki-roots version the registry mirror may lack.
        run(cmd("cargo", &["install", "wasm-bindgen-cli", "--version", &wasm_bindgen]))?;
    }

    step(&format!("setup: trunk {TRUNK_VERSION}"));
    if version_of("trunk").as_deref() != Some(&format!("trunk {TRUNK_VERSION}")) {
        run(cmd("cargo", &["install", "trunk", "--version", TRUNK_VERSION, "--locked"]))?;
    }

    step(&format!("setup: geckodriver {GECKODRIVER_VERSION}"));
    if version_of("geckodriver").is_none_or(|v| !v.starts_with(&format!("geckodriver {GECKODRIVER_VERSION}"))) {
        run(cmd("cargo", &["install", "geckodriver", "--version", GECKODRIVER_VERSION, "--locked"]))?;
    }

    step("setup: npm packages (Chart.js, esbuild, binaryen's wasm-opt, axe-core)");
    let installed = root().join("node_modules/.package-lock.json");
    let lock = root().join("package-lock.json");
    let stale = match (std::fs::metadata(&installed), std::fs::metadata(&lock)) {
        (Ok(i), Ok(l)) => i.modified().ok() < l.modified().ok(),
        _ => true,
    };
    if stale {
        run(cmd("npm", &["ci", "--no-audit", "--no-fund"]))?;
    }
    Ok(())
}

fn apt_install(packages: &[&str]) -> Result {
    if version_of("apt-get").is_none() {
        return Err(format!("please install {} with your system's package manager", packages.join(", ")));
    }
    let root_user = cmd("id", &["-u"]).output().map(|o| o.stdout.starts_with(b"0")).unwrap_or(false);
    // No questions on a machine without a terminal (CI).
    let sudo = |args: &[&str]| {
        let mut command = if root_user { cmd(args[0], &args[1..]) } else { cmd("sudo", &[&["-E"], args].concat()) };
        command.env("DEBIAN_FRONTEND", "noninteractive");
        command
    };
    run(sudo(&["apt-get", "update"]))?;
    let mut args = vec!["apt-get", "install", "-y"];
    args.extend_from_slice(packages);
    run(sudo(&args))
}

/// Whether dpkg lists the package as installed (false where there is no dpkg).
fn dpkg_installed(package: &str) -> bool {
    cmd("dpkg-query", &["-W", "-f=${Status}", package])
        .output()
        .is_ok_and(|o| o.status.success() && o.stdout.ends_with(b"install ok installed"))
}

/// The wasm-bindgen version Cargo.lock pins: the CLI must match it exactly.
fn wasm_bindgen_version() -> Result<String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).map_err(|e| format!("Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\"" {
            let version = lines.next().unwrap_or("");
            return Ok(version.trim_start_matches("version = ").trim_matches('"').to_string());
        }
    }
    Err("Cargo.lock has no wasm-bindgen entry".into())
}

fn serve() -> Result {
    dist()?;
    step(
        "serve: the page and its results gallery on http://127.0.0.1:8080 (SQLite in wgsweep-gallery.db; Ctrl-C stops)",
    );
    // A release build: a debug server spends several times the CPU on every publish.
    run(cmd("cargo", &["run", "--release", "-p", "wgsweep-server", "--", "--dist", "dist"]))
}

fn dist() -> Result {
    step("dist: the page's Chart.js (www/charts.js) bundled into target/charts.js");
    let bundle = ["www/charts.js", "--bundle", "--minify", "--format=iife", "--outfile=target/charts.js"];
    run(cmd("esbuild", &[&bundle[..], &["--log-level=warning"]].concat()))?;
    step("dist: release build of the page into dist/");
    run(cmd("trunk", &["build", "--release"]))?;
    let dist = root().join("dist");
    let (wasm, glue) = (dist.join("wgsweep_bg.wasm"), dist.join("wgsweep.js"));
    step("dist: the wasm's imports under short names (13 KB less gzipped), the glue and style sheet minified");
    with_new_integrity(&dist, &["wgsweep_bg.wasm", "wgsweep.js"], || imports::shorten(&wasm, &glue).map(drop))?;
    with_new_integrity(&dist, &["wgsweep.js", "style.css"], || minify(&dist))?;
    externalize_loader(&dist)
}

/// Runs `change` on `files` of dist/ and puts their new Subresource Integrity hashes where `index.html`
/// loads them.
fn with_new_integrity(dist: &Path, files: &[&str], change: impl FnOnce() -> Result) -> Result {
    use base64::Engine;
    use sha2::Digest;
    let integrity = |file: &str| -> Result<String> {
        let path = dist.join(file);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(format!("sha384-{}", base64::engine::general_purpose::STANDARD.encode(sha2::Sha384::digest(bytes))))
    };
    let before: Vec<String> = files.iter().map(|file| integrity(file)).collect::<Result<_>>()?;
    let index = dist.join("index.html");
    let mut html = std::fs::read_to_string(&index).map_err(|e| format!("{}: {e}", index.display()))?;
    if let Some(file) = files.iter().zip(&before).find_map(|(file, hash)| (!html.contains(hash)).then_some(file)) {
        return Err(format!("dist/index.html does not load {file} with its hash: has trunk's output changed?"));
    }
    change()?;
    for (file, hash) in files.iter().zip(before) {
        html = html.replace(&hash, &integrity(file)?);
    }
    std::fs::write(&index, html).map_err(|e| format!("{}: {e}", index.display()))
}

/// Minifies what trunk leaves as written, wasm-bindgen's module (`dist/wgsweep.js`, 3 KB less gzipped) and
/// the style sheet (0.6 KB).
fn minify(dist: &Path) -> Result {
    // esbuild reads the kind of file from its name; the module stays a module.
    for (file, options) in [("wgsweep.js", &["--format=esm"][..]), ("style.css", &[][..])] {
        let shown = dist.join(file).to_string_lossy().into_owned();
        let minify = [&*shown, &format!("--outfile={shown}"), "--minify", "--allow-overwrite", "--log-level=warning"];
        run(cmd("esbuild", &[&minify[..], options].concat()))?;
    }
    Ok(())
}

/// Moves the module script trunk writes inline into `index.html` (it loads the app) to `start.js`: the
/// page's Content-Security-Policy runs no inline script, so that an injected one could not run either.
fn externalize_loader(dist: &Path) -> Result {
    const OPEN: &str = "<script type=\"module\">";
    const CLOSE: &str = "</script>";
    let index = dist.join("index.html");
    let html = std::fs::read_to_string(&index).map_err(|e| format!("{}: {e}", index.display()))?;
    let start = html.find(OPEN).ok_or("dist/index.html has no inline module script: has trunk's output changed?")?;
    let end = start + html[start..].find(CLOSE).ok_or("dist/index.html: an unclosed script")?;
    let loader = html[start + OPEN.len()..end].trim();
    std::fs::write(dist.join("start.js"), format!("{loader}\n")).map_err(|e| format!("dist/start.js: {e}"))?;
    let html =
        format!("{}<script type=\"module\" src=\"start.js\"></script>{}", &html[..start], &html[end + CLOSE.len()..]);
    if html.contains(OPEN) || html.contains("<script>") {
        return Err("dist/index.html has another inline script, which its Content-Security-Policy would block".into());
    }
    std::fs::write(&index, html).map_err(|e| format!("{}: {e}", index.display()))
}

fn test() -> Result {
    // Mesa writes warnings without a runtime directory; lavapipe needs nothing else.
    let with_env = |mut c: Command| {
        c.env("XDG_RUNTIME_DIR", std::env::var("XDG_RUNTIME_DIR").unwrap_or_else(|_| "/tmp".into()));
        c
    };
    step("test: formatting (rustfmt) and lints (clippy, natively and for wasm32)");
    // rustfmt follows no `mod` declared inside a macro: the families (declared by `families!`) are named.
    let mut families: Vec<String> = std::fs::read_dir(root().join("src/kernels"))
        .map_err(|e| format!("src/kernels: {e}"))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .map(|path| path.display().to_string())
        .collect();
    families.sort();
    let families: Vec<&str> = families.iter().map(String::as_str).collect();
    run(cmd("cargo", &[&["fmt", "--all", "--check", "--"][..], &families].concat()))?;
    step("test: patches/wgpu is the published crate plus patches/wgpu.diff");
    patch::check()?;
    let deny_warnings = ["--", "-D", "warnings"];
    run(cmd("cargo", &[&["clippy", "--workspace", "--all-targets"][..], &deny_warnings].concat()))?;
    let wasm = ["clippy", "--all-targets", "--target", "wasm32-unknown-unknown"];
    run(cmd("cargo", &[&wasm[..], &deny_warnings].concat()))?;

    step("test: native (any Vulkan adapter; lavapipe without a GPU)");
    run(with_env(cmd("cargo", &["test", "--workspace"])))?;

    let geckodriver = on_path("geckodriver").ok_or("geckodriver is not on PATH: `cargo xtask setup` installs it")?;
    let browsers = [
        (
            "browser (wasm-bindgen-test in headless Chromium, WebGPU on SwiftShader)",
            "CHROMEDRIVER",
            "/usr/bin/chromedriver".into(),
        ),
        (
            "browser again, in headless Firefox (WebGPU on lavapipe; webdriver.json turns it on)",
            "GECKODRIVER",
            geckodriver,
        ),
    ];
    for (what, driver_variable, driver) in browsers {
        step(&format!("test: {what}"));
        let mut browser = cmd("cargo", &["test", "--target", "wasm32-unknown-unknown", "--test", "web"]);
        browser.env(driver_variable, driver).env("WASM_BINDGEN_TEST_TIMEOUT", "300");
        run(browser)?;
    }

    dist()?;
    page_within_budget()?;
    step("test: end to end (the built page in headless Chromium, as a person uses it)");
    let e2e = ["test", "--test", "e2e", "--", "--ignored", "--test-threads=1"];
    run(with_env(cmd("cargo", &e2e)))?;

    step("test: end to end again, in headless Firefox (WebGPU on lavapipe)");
    // All but the one that withholds timestamp-query through Chromium's DevTools protocol: it drives
    // Chromium whichever engine is chosen, and has just run.
    let skip = ["--skip", "without_timestamp_query_the_page_times_with_the_wall_clock_and_says_so"];
    let mut firefox = with_env(cmd("cargo", &[&e2e[..], &skip].concat()));
    firefox.env("WGSWEEP_E2E_BROWSER", "firefox");
    run(firefox)
}

/// What a visitor's browser downloads to open the page, in dist/ (the rest is fetched only when asked for:
/// the known results, the families' texts, the shaders' comments, the starting points after the first).
const PAGE_FILES: [&str; 7] =
    ["wgsweep_bg.wasm", "wgsweep.js", "charts.js", "index.html", "style.css", "reference-worker.js", "start.js"];

/// The most the page's download may weigh, gzipped (`gzip -9`), in bytes.
const PAGE_BUDGET: usize = 650_000;

/// Fails where the built page's download, gzipped as a server would send it, is over `PAGE_BUDGET`.
fn page_within_budget() -> Result {
    step("test: the page's download within its budget");
    let mut total = 0;
    for file in PAGE_FILES {
        let path = root().join("dist").join(file);
        let gzipped = Command::new("gzip").args(["-9", "-c"]).arg(&path).output().map_err(|e| format!("gzip: {e}"))?;
        if !gzipped.status.success() {
            return Err(format!("gzip {}: {}", path.display(), String::from_utf8_lossy(&gzipped.stderr)));
        }
        total += gzipped.stdout.len();
    }
    let kb = |bytes: usize| bytes as f64 / 1000.0;
    println!("the page's download: {:.1} KB gzipped, of {:.0} KB", kb(total), kb(PAGE_BUDGET));
    match total <= PAGE_BUDGET {
        true => Ok(()),
        false => Err(format!("the page's download is {:.1} KB gzipped, over its {:.0} KB", kb(total), kb(PAGE_BUDGET))),
    }
}

/// Where `program` lies on PATH.
fn on_path(program: &str) -> Option<std::path::PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(program)).find(|path| path.is_file())
}
