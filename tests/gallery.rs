//! What the gallery's readers compute from a device class's results: its class, its median per
//! configuration with the spread, and how a run compares with that median.

use wgsweep::gallery::{self, DeviceClass};
use wgsweep::result::{ConfigResult, ParameterValue};
use wgsweep::spec::UserKernel;
use wgsweep::stats::Verdict;
use wgsweep::{RunResult, compare};

fn recorded(name: &str) -> RunResult {
    let path = format!("{}/docs/results/{name}", env!("CARGO_MANIFEST_DIR"));
    RunResult::from_json(&std::fs::read_to_string(&path).expect("a recorded result")).expect("it reads")
}

/// The same run as if every configuration took `factor` times as long.
fn slower(result: &RunResult, factor: f64) -> RunResult {
    let mut slower = result.clone();
    for r in &mut slower.results {
        r.median_ns = r.median_ns.map(|t| t * factor);
        r.min_ns = r.min_ns.map(|t| t * factor);
        r.p95_ns = r.p95_ns.map(|t| t * factor);
        r.gbps = r.gbps.map(|g| g / factor);
        r.samples_ns.iter_mut().for_each(|t| *t *= factor);
    }
    slower
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs()
}

#[test]
fn a_device_class_is_the_same_before_a_run_as_in_its_result() {
    for name in ["h100-native-stream.json", "h100-chromium-stream.json"] {
        let result = recorded(name);
        let class = DeviceClass::new(&result.device, &result.environment);
        assert_eq!(class, DeviceClass::of(&result));
    }
    let browser = DeviceClass::of(&recorded("h100-chromium-stream.json"));
    assert_eq!(browser.key(), "NVIDIA H100 80GB HBM3 · webgpu · Chrome");
}

/// A result of a browser that withholds the adapter's name (Firefox does): `result` with its names gone.
fn unnamed(result: &RunResult) -> RunResult {
    let mut unnamed = result.clone();
    unnamed.device.identity = Default::default();
    unnamed.environment.platform = "Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0".into();
    unnamed
}

#[test]
fn gpus_whose_names_the_browser_withholds_share_no_class_and_a_persons_name_is_theirs() {
    let h100 = unnamed(&recorded("h100-chromium-stream.json"));
    let class = DeviceClass::of(&h100);
    assert_eq!(class.key(), format!("unnamed GPU, limits #{} · webgpu · Firefox", h100.device.signature()));
    assert_eq!(class, DeviceClass::new(&h100.device, &h100.environment), "the same before a run");
    // Another GPU: other limits (a smaller workgroup memory), or another feature, another class.
    let mut other = h100.clone();
    other.device.limits.max_workgroup_storage_bytes = 32 << 10;
    assert_ne!(DeviceClass::of(&other), class);
    let mut other = h100.clone();
    other.device.features.retain(|f| f != "timestamp-query");
    assert_ne!(DeviceClass::of(&other), class);
    // The order a browser lists features in changes nothing.
    let mut reordered = h100.clone();
    reordered.device.features.reverse();
    assert_eq!(DeviceClass::of(&reordered), class);
    // Named by its person: the name is shown as theirs, and the class stays what the browser says.
    let mut named = h100.clone();
    named.device.named_by_person = Some("lab H100".into());
    assert_eq!(named.device.name(), "lab H100 (named by its user)");
    assert_eq!(DeviceClass::of(&named), class);
    let back = RunResult::from_json(&named.to_json()).expect("it reads back");
    assert_eq!(back.device.named_by_person.as_deref(), Some("lab H100"));
    // An adapter that names itself keeps its own name, whatever a person typed.
    let mut own = recorded("h100-chromium-stream.json");
    own.device.named_by_person = Some("mine".into());
    assert_eq!(own.device.name(), "NVIDIA H100 80GB HBM3");
}

#[test]
fn a_run_beside_a_device_classs_median_shows_the_spread_of_its_results() {
    let run = recorded("h100-native-stream.json");
    let class = [slower(&run, 0.9), run.clone(), slower(&run, 1.25)];
    let median = gallery::median_result(&class).expect("a median");
    assert_eq!(median.label, "NVIDIA H100 80GB HBM3 · vulkan · native: median of 3 results");

    let rows = compare::rows(&[run.clone(), median]);
    let mut compared = 0;
    for row in rows.iter().filter(|row| row.figures[0].is_some()) {
        let (figure, median) = (row.figures[0].unwrap(), row.figures[1].expect("the median has every valid row"));
        assert!(close(median, figure), "the middle result is the median: {row:?}");
        let (slowest, fastest) = row.ranges[1].expect("the median's spread");
        assert!(close(slowest, figure / 1.25) && close(fastest, figure / 0.9), "{row:?}");
        let (run_slowest, run_fastest) = row.ranges[0].expect("the run's own spread");
        assert!(run_slowest <= figure && figure <= run_fastest, "a run's spread holds its median: {row:?}");
        compared += 1;
    }
    assert_eq!(compared, run.results.iter().filter(|r| r.is_good()).count());

    // A run is judged against the spread between the class's results: this one lies within it, and one
    // faster than every result is called faster.
    let verdicts = |rows: &[compare::Row]| -> Vec<Option<Verdict>> {
        rows.iter().map(|row| row.changes[1].map(|c| compare::verdict(&c, compare::NOISE_THRESHOLD))).collect()
    };
    assert!(verdicts(&rows).iter().all(|v| *v == Some(Verdict::Same)), "{:?}", verdicts(&rows));
    let median = gallery::median_result(&class).unwrap();
    let faster = compare::rows(&[median, slower(&run, 0.5)]);
    assert!(verdicts(&faster).iter().all(|v| *v == Some(Verdict::Faster)), "{:?}", verdicts(&faster));

    // The best of each kernel keeps the spread of the shape it took.
    for (row, _) in compare::best_rows(&rows) {
        let (slowest, fastest) = row.ranges[1].unwrap();
        assert!(close(slowest, row.figures[1].unwrap() / 1.25) && close(fastest, row.figures[1].unwrap() / 0.9));
    }
}

/// A kernel's preset is the shape best in the most results; a tie goes to the fewer invocations, then to
/// the shape that sorts first; its gain is the median over the results it won in.
#[test]
fn a_preset_is_the_shape_best_in_the_most_results_and_ties_go_to_the_smaller() {
    let best = |kernel: &str, shape: [u32; 3], gain: f64| wgsweep::analysis::BestShape {
        kernel: kernel.into(),
        parameter: String::new(),
        shape,
        tunables: String::new(),
        figure: 1.0,
        unit: wgsweep::result::Unit::GbPerS,
        gain_over_64: Some(gain),
    };
    let results = [
        vec![best("copy/vec4", [256, 1, 1], 1.1), best("tiled/padded", [16, 16, 1], 1.0)],
        vec![best("copy/vec4", [256, 1, 1], 1.3), best("tiled/padded", [32, 8, 1], 1.0)],
        vec![best("copy/vec4", [128, 1, 1], 1.2), best("tiled/padded", [8, 32, 1], 1.0)],
        vec![best("copy/vec4", [256, 1, 1], 1.2), best("tiled/padded", [8, 8, 1], 1.0)],
        vec![best("copy/vec4", [128, 1, 1], 1.0), best("tiled/padded", [8, 8, 1], 1.0)],
    ];
    let presets = gallery::presets_of(results.iter().map(Vec::as_slice));
    let copy = presets.iter().find(|p| p.kernel == "copy/vec4").unwrap();
    assert_eq!((copy.shape.as_str(), copy.wins, copy.results), ("256", 3, 5));
    assert_eq!(copy.median_gain_over_64, Some(1.2));
    // 8×8 twice: more than any other.
    let tiled = presets.iter().find(|p| p.kernel == "tiled/padded").unwrap();
    assert_eq!((tiled.shape.as_str(), tiled.wins), ("8×8", 2));
    // Each of three 256-invocation shapes once: the one that sorts first.
    let tied = gallery::presets_of(results[..3].iter().map(Vec::as_slice));
    let tiled = tied.iter().find(|p| p.kernel == "tiled/padded").unwrap();
    assert_eq!((tiled.shape.as_str(), tiled.wins), ("16×16", 1));
    // 256 and 128 once each: the fewer invocations.
    let tied = gallery::presets_of([&results[0][..1], &results[2][..1]].into_iter());
    assert_eq!((tied[0].shape.as_str(), tied[0].wins), ("128", 1));
}

/// A user's kernel's recorded result with the kernel it ran attached, as results carry it now: the WGSL
/// (its specification in its leading comment) beside the result in docs/results/your-kernel/.
fn users_triad() -> RunResult {
    let dir = format!("{}/docs/results/your-kernel", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(format!("{dir}/triad_scalar.wgsl")).unwrap();
    let mut result = recorded("your-kernel/h100-native-user-triad-1.json");
    result.user_kernels = vec![UserKernel::read(&source, None).unwrap().written];
    result
}

#[test]
fn a_users_kernels_result_is_taken_only_with_the_kernel_its_digest_names() {
    let result = users_triad();
    gallery::check_kernels(&result).expect("the kernel it ran, as written");

    let without = RunResult { user_kernels: Vec::new(), ..result.clone() };
    let why = gallery::check_kernels(&without).unwrap_err();
    assert!(why.contains("configuration 1 (triad_scalar/triad_scalar/de3303bd)"), "{why}");
    assert!(why.contains("no kernel the result carries is `triad_scalar` of digest de3303bd"), "{why}");

    // Another kernel's figures under this one's digest: its text no longer makes the digest.
    let mut forged = result.clone();
    forged.user_kernels[0].source =
        forged.user_kernels[0].source.replace("a[i] + SCALAR * b[i]", "a[i] - SCALAR * b[i]");
    assert_ne!(forged.user_kernels, result.user_kernels, "the test changes the kernel");
    assert!(gallery::check_kernels(&forged).unwrap_err().contains("no kernel the result carries"));

    let mut unknown = result.clone();
    unknown.results[0].parameter.as_mut().unwrap().label = Some("n=64 · WG=3".into());
    let why = gallery::check_kernels(&unknown).unwrap_err();
    assert!(why.contains("not one of its kernel's combinations"), "{why}");

    let mut idle = result.clone();
    idle.user_kernels.push(idle.user_kernels[0].clone());
    idle.user_kernels[1].spec = idle.user_kernels[1].spec.replacen("triad_scalar\"", "idle\"", 1);
    let why = gallery::check_kernels(&idle).unwrap_err();
    assert!(why.contains("user's kernel 2 is not what any configuration ran"), "{why}");

    let mut broken = result;
    broken.user_kernels[0].spec = "{".into();
    let why = gallery::check_kernels(&broken).unwrap_err();
    assert!(why.starts_with("its user's kernel 1 does not read: spec, line 1"), "{why}");
}

#[test]
fn a_row_naming_a_built_in_kernel_must_be_that_kernel_with_its_own_parameter() {
    let stream = recorded("h100-native-stream.json");
    gallery::check_kernels(&stream).expect("a built-in run");
    // A user's kernel's row under triad's name, its tunables in the parameter (the preset it made was
    // "64 · T=2").
    let mut claimed = stream.clone();
    let users = &users_triad().results[0];
    claimed.results[0] = ConfigResult {
        family: "stream".into(),
        kernel: "triad".into(),
        variant: "scalar".into(),
        parameter: Some(ParameterValue { name: "tunables".into(), value: 0, label: Some("n=64 · T=2".into()) }),
        ..users.clone()
    };
    let why = gallery::check_kernels(&claimed).unwrap_err();
    assert_eq!(
        why,
        "configuration 1 (stream/triad/scalar): its parameter is a user's kernel's sizes and tunables, not \
         `triad/scalar`'s"
    );
    claimed.results[0].kernel = "triad_scalar".into();
    let why = gallery::check_kernels(&claimed).unwrap_err();
    assert!(why.ends_with("`stream` has no kernel `triad_scalar/scalar`"), "{why}");
}

/// Every recorded result of built-in kernels is taken as it is: the check refuses only what no run makes.
#[test]
fn every_recorded_result_of_built_in_kernels_is_taken() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results");
    let mut checked = 0;
    let mut folders = vec![dir];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let Some(result) = std::fs::read_to_string(&path).ok().and_then(|text| RunResult::from_json(&text).ok())
            else {
                continue;
            };
            if result.results.iter().all(|r| wgsweep::kernels::family(&r.family).is_some()) {
                gallery::check_kernels(&result).unwrap_or_else(|why| panic!("{}: {why}", path.display()));
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "{checked} results checked");
}
