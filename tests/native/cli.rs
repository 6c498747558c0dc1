//! The `wgsweep` command as a person runs it: a lost device, comparisons and their regression gate.

/// The device lost mid-run (destroyed by the CLI's test hook, as a driver reset would lose it): the CLI
/// writes the configurations that finished, says why it stopped, and exits non-zero.
#[test]
fn the_cli_keeps_what_finished_when_the_device_is_lost_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("lost.json");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_wgsweep"))
        .args(["run", "--kernels", "copy/scalar", "--workgroup-sizes", "64,128,256,512", "--size", "65536"])
        .args(["--samples", "3", "--shader-checks", "default", "--lose-device-after", "2", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "a lost device is a failed run: {stderr}");
    assert!(stderr.contains("the GPU device was lost (Destroyed) after 2 of 4 configurations"), "{stderr}");
    let kept = wgsweep::RunResult::from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(kept.results.len(), 2);
    assert!(kept.results.iter().all(|r| r.error().is_none()), "what finished finished well");
    assert!(!kept.complete);
    assert!(
        kept.notes.iter().any(|n| n.contains("the GPU device was lost after 2 of 4 configurations")),
        "{:?}",
        kept.notes
    );
}

#[test]
fn compare_fails_if_a_configuration_is_slower_beyond_noise_and_the_threshold_and_keeps_baselines() {
    let dir = tempfile::tempdir().unwrap();
    let wgsweep = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_wgsweep"))
            .current_dir(dir.path())
            .args(args)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).to_string() + &String::from_utf8_lossy(&output.stderr),
        )
    };
    let (code, out) = wgsweep(&[
        "run",
        "--kernels",
        "copy/scalar",
        "--workgroup-sizes",
        "64,128",
        "--size",
        "65536",
        "--json",
        "a.json",
    ]);
    assert_eq!(code, Some(0), "{out}");
    // Samples 1 % apart, the same in both results but for the first configuration, made 10 % slower in b.
    let mut a = wgsweep::RunResult::from_json(&std::fs::read_to_string(dir.path().join("a.json")).unwrap()).unwrap();
    for r in &mut a.results {
        let median = r.median_ns.unwrap() * r.dispatches_per_sample as f64;
        r.samples_ns = (0..30).map(|i| median * (1.0 + 0.01 * ((i * 7) % 30) as f64 / 30.0)).collect();
    }
    let mut b = a.clone();
    let slow = &mut b.results[0];
    slow.samples_ns.iter_mut().for_each(|ns| *ns *= 1.1);
    slow.median_ns = slow.median_ns.map(|m| m * 1.1);
    // Its minimum and 95th percentile with it, or the result is out of order and refused as unbelievable.
    slow.min_ns = slow.min_ns.map(|m| m * 1.1);
    slow.p95_ns = slow.p95_ns.map(|p| p * 1.1);
    slow.gbps = slow.gbps.map(|g| g / 1.1);
    std::fs::write(dir.path().join("a.json"), a.to_json()).unwrap();
    std::fs::write(dir.path().join("b.json"), b.to_json()).unwrap();

    let (code, out) = wgsweep(&["compare", "a.json", "b.json", "--fail-if-slower", "3%"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("1 configuration(s) slower than [1] beyond noise and by 3.0 % or more"), "{out}");
    assert!(out.contains("copy/scalar default wg 64"), "{out}");
    assert!(out.contains("[2] against [1]: stream: 0 faster, 1 slower, 3 the same"), "{out}");
    let (code, out) = wgsweep(&["compare", "a.json", "a.json", "--fail-if-slower", "3%"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("[2] against [1]: stream: 0 faster, 0 slower, 4 the same"), "{out}");
    // A 10 % slowdown passes a gate of 15 %.
    assert_eq!(wgsweep(&["compare", "a.json", "b.json", "--fail-if-slower", "15%"]).0, Some(0));

    // Baselines, as criterion keeps them: saved under a name, compared with later.
    let (code, out) = wgsweep(&["compare", "a.json", "--save-baseline", "main"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(dir.path().join(".wgsweep/baselines/main.json").exists());
    let (code, out) = wgsweep(&["compare", "--baseline", "main", "b.json", "--fail-if-slower", "3%"]);
    assert_eq!(code, Some(1), "{out}");
    let (_, out) = wgsweep(&["compare", "--baseline", "nightly", "b.json"]);
    assert!(out.contains("no baseline `nightly`"), "{out}");
}

/// A dispatch that outlasts the wait for its submission (2 s through the CLI's test hook; 10 s otherwise):
/// the CLI records that configuration as failed with the reason, goes on after it on a fresh device, writes
/// the result, and exits non-zero, without a panic.
#[test]
fn a_dispatch_over_the_wait_limit_fails_its_configuration_and_the_run_goes_on_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("long.json");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_wgsweep"))
        .args(["kernel", concat!(env!("CARGO_MANIFEST_DIR"), "/tests/kernels/long_dispatch.wgsl")])
        .args(["--samples", "2", "--wait-limit-s", "2", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "a failed configuration fails the run, without a panic: {stderr}");
    assert!(stderr.contains("configuration 2 never finished and was recorded as failed"), "{stderr}");
    let kept = wgsweep::RunResult::from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let errors: Vec<Option<&str>> = kept.results.iter().map(|r| r.error()).collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].is_none() && errors[2].is_none(), "{errors:?}");
    assert!(errors[1].is_some_and(|e| e.contains("does a kernel never end?")), "{errors:?}");
    assert!(kept.notes.iter().any(|n| n == "went on from configuration 3 of 3 on a fresh device"), "{:?}", kept.notes);
    let digests = kept.notes.iter().filter(|n| n.contains("digest")).count();
    assert_eq!(digests, 1, "each note once: {:?}", kept.notes);
}

/// `wgsweep kernel` takes a kernel's sizes and shapes from its specification, as the page does: the options
/// that set a built-in family's are refused with where to say them instead, never ignored.
#[test]
fn the_options_that_size_a_built_in_family_are_refused_for_a_users_kernel_with_where_to_say_them() {
    let starter = concat!(env!("CARGO_MANIFEST_DIR"), "/shaders/starters/triad.wgsl");
    for options in [&["--size", "1000"][..], &["--mib", "4"], &["--values", "3"], &["--workgroup-sizes", "48"]] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_wgsweep"))
            .args(["kernel", starter])
            .args(options)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{options:?}: {stderr}");
        let said =
            format!("{} set a built-in family's sizes and shapes; a kernel's come from its specification", options[0]);
        assert!(stderr.contains(&said) && stderr.contains("\"workgroup_size\""), "{stderr}");
    }
}

/// A kernel of yours runs only with wgpu's checks: asking for it without them says so rather than run
/// nothing in silence (it printed a table of 0 configurations).
#[test]
fn a_users_kernel_asked_to_run_without_wgpus_checks_is_refused_with_the_reason() {
    let starter = concat!(env!("CARGO_MANIFEST_DIR"), "/shaders/starters/triad.wgsl");
    for checks in ["unchecked", "bounds-only"] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_wgsweep"))
            .args(["kernel", starter, "--shader-checks", checks])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{checks}: {stderr}");
        assert!(stderr.contains("runs only with wgpu's checks"), "{stderr}");
    }
}

/// A label or a kernel's name from a result that a stranger wrote is never obeyed: escape, bell and
/// right-to-left-override characters (they set the terminal's title, cleared its screen and reordered the
/// line) make the result refused, naming the field and the character, and nothing of them is printed.
#[test]
fn a_result_whose_names_hold_control_characters_is_refused_and_none_is_printed() {
    let dir = tempfile::tempdir().unwrap();
    let json = small_copy_run(dir.path(), "64");
    let result = wgsweep::RunResult::from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let crafted = [
        (wgsweep::RunResult { label: "mine\u{1b}]0;owned\u{7}".into(), ..result.clone() }, "the label", "U+001B"),
        (wgsweep::RunResult { label: "mine\u{202e}gpj.exe".into(), ..result.clone() }, "the label", "U+202E"),
        (
            {
                let mut named = result.clone();
                named.results[0].kernel = "copy\u{1b}[2J".into();
                named
            },
            "configuration 1: its kernel",
            "U+001B",
        ),
    ];
    for (crafted, field, character) in crafted {
        std::fs::write(&json, crafted.to_json()).unwrap();
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_wgsweep"))
            .arg("compare")
            .args([&json, &json])
            .output()
            .unwrap();
        let printed = [output.stdout, output.stderr].concat();
        let printed = String::from_utf8_lossy(&printed);
        assert!(!output.status.success(), "{printed}");
        assert!(printed.contains(field) && printed.contains(character), "{printed}");
        assert!(!printed.contains(['\u{1b}', '\u{7}', '\u{202e}']), "{printed:?}");
    }
}

/// A link at the bound is longer than a command line may be: `compare` takes one kept in a file, or on
/// standard input (`-`), as it takes a result file.
#[test]
fn compare_reads_a_link_from_a_file_or_standard_input() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let wgsweep = || {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_wgsweep"));
        command.current_dir(dir.path());
        command
    };
    small_copy_run(dir.path(), "64,128");
    let link = wgsweep().args(["share", "a.json"]).output().unwrap();
    assert!(link.status.success());
    std::fs::write(dir.path().join("link.txt"), &link.stdout).unwrap();
    let from_file = wgsweep().args(["compare", "a.json", "link.txt"]).output().unwrap();
    let said = String::from_utf8_lossy(&from_file.stdout);
    assert!(from_file.status.success(), "{said}{}", String::from_utf8_lossy(&from_file.stderr));
    assert!(said.contains("[2] against [1]: stream: 0 faster, 0 slower, 2 the same"), "{said}");
    let mut piped = wgsweep()
        .args(["compare", "a.json", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    piped.stdin.take().unwrap().write_all(&link.stdout).unwrap();
    let from_stdin = piped.wait_with_output().unwrap();
    let said_too = String::from_utf8_lossy(&from_stdin.stdout);
    assert!(from_stdin.status.success() && said_too.contains("2 the same"), "{said_too}");
    std::fs::write(dir.path().join("cut.txt"), &link.stdout[..link.stdout.len() / 2]).unwrap();
    let cut = wgsweep().args(["compare", "a.json", "cut.txt"]).output().unwrap();
    let error = String::from_utf8_lossy(&cut.stderr);
    assert!(!cut.status.success() && error.contains("cut.txt: "), "{error}");
}

/// Runs STREAM's scalar copy on 2^16 elements at these workgroup sizes into `dir`/a.json, which it returns.
fn small_copy_run(dir: &std::path::Path, shapes: &str) -> std::path::PathBuf {
    let json = dir.join("a.json");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_wgsweep"))
        .args(["run", "--kernels", "copy/scalar", "--workgroup-sizes", shapes, "--size", "65536"])
        .args(["--samples", "3", "--shader-checks", "default", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    json
}
