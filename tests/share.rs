//! Share links: every family's real results survive the round trip; damaged, tampered and future links
//! are refused with messages that say why; the decoder never panics (a bounded fuzz run).
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use proptest::prelude::*;
use wgsweep::result::{Outcome, RunResult};
use wgsweep::share::{self, ShareError};

/// The H100 results under docs/results: between them, every kernel family, natively and in Chromium.
fn recorded_results() -> Vec<(String, RunResult)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/results");
    let mut results: Vec<(String, RunResult)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name.clone(), RunResult::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}")))
        })
        .collect();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    results
}

/// Equal within f32's precision (times travel as f32).
fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-6 * a.abs().max(b.abs()),
        (a, b) => a == b,
    }
}

#[test]
fn every_familys_recorded_results_open_from_their_link_as_they_were() {
    let results = recorded_results();
    let mut families: Vec<String> =
        results.iter().flat_map(|(_, r)| r.results.iter().map(|c| c.family.clone())).collect();
    families.sort();
    families.dedup();
    let all: Vec<&str> = wgsweep::kernels::FAMILIES.iter().map(|f| f.name()).collect();
    assert!(
        all.iter().all(|f| families.iter().any(|g| g == f)),
        "docs/results covers {families:?}, not all of {all:?}"
    );

    for (name, mut original) in results {
        // Suspects and shares of the peaks by today's rules, as the link's reader derives them.
        for r in &mut original.results {
            if let Outcome::Valid { suspect } = &mut r.outcome {
                *suspect = None;
            }
        }
        wgsweep::analysis::flag_suspects(&mut original.results);
        wgsweep::analysis::relate_to_baselines(&mut original.results);
        original.peaks = wgsweep::analysis::relate_to_peaks(&mut original.results);
        let link = share::blocking::link("https://example.org/wgsweep/", &original);
        let opened = share::blocking::decode(&link).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            (&opened.device, &opened.environment, &opened.notes, &opened.settings),
            (&original.device, &original.environment, &original.notes, &original.settings),
            "{name}"
        );
        assert_eq!(
            (&opened.created, &opened.label, opened.complete),
            (&original.created, &original.label, original.complete)
        );
        assert_eq!(opened.results.len(), original.results.len(), "{name}");
        for (o, r) in opened.results.iter().zip(&original.results) {
            let what = format!("{name}: {} {} {}", r.label(), r.workgroup_text(), r.parameter_text());
            assert_eq!(
                (o.label(), o.shader_checks, o.workgroup_size, &o.parameter),
                (r.label(), r.shader_checks, r.workgroup_size, &r.parameter),
                "{what}"
            );
            assert_eq!(
                (o.is_validated(), &o.error(), &o.skipped(), o.suspect().is_some()),
                (r.is_validated(), &r.error(), &r.skipped(), r.suspect().is_some()),
                "{what}"
            );
            assert_eq!(
                (o.bytes_per_dispatch, o.flops_per_dispatch, o.moved_bytes_per_dispatch, o.problem_size),
                (r.bytes_per_dispatch, r.flops_per_dispatch, r.moved_bytes_per_dispatch, r.problem_size)
            );
            assert_eq!(
                (o.sample_count(), o.dispatches_per_sample),
                (r.sample_count(), r.dispatches_per_sample),
                "{what}"
            );
            assert!(o.samples_ns.is_empty() && o.wall_samples_ns.is_empty(), "a link carries no raw samples");
            // Times travel as f32: seven significant digits, and the figures derived from them as closely.
            for (a, b) in [
                (o.median_ns, r.median_ns),
                (o.gbps, r.gbps),
                (o.cv, r.cv),
                (o.percent_of_peak, r.percent_of_peak),
                (o.percent_of_baseline, r.percent_of_baseline),
            ] {
                assert!(close(a, b), "{what}: {a:?} {b:?}");
            }
        }
        assert!(close(opened.peaks.copy_gbps, original.peaks.copy_gbps), "{name}");
        assert!(close(opened.peaks.fma_gflops, original.peaks.fma_gflops), "{name}");
    }
}

#[test]
fn a_link_takes_a_few_dozen_bytes_per_configuration() {
    // Measured on docs/results: 25 to 55 bytes per configuration, the header (device, notes) included.
    for (name, result) in recorded_results() {
        let bytes = share::blocking::encode(&result).len();
        println!("{name}: {} configurations, {bytes} bytes", result.results.len());
        assert!(bytes <= 2048 + 40 * result.results.len(), "{name}: {bytes} bytes");
    }
}

/// A link to the reductions and matmul in Chromium (135 configurations), made once.
fn valid_link() -> &'static str {
    static LINK: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LINK.get_or_init(|| {
        let (_, result) = recorded_results().into_iter().find(|(name, _)| name.contains("chromium-reduce")).unwrap();
        share::blocking::link("http://127.0.0.1:8080/", &result)
    })
}

#[test]
fn damaged_tampered_and_future_links_are_refused_with_a_reason() {
    let link = valid_link().to_string();
    let not_a_link = share::blocking::decode("http://127.0.0.1:8080/#kernels=stream").unwrap_err();
    assert_eq!(not_a_link, ShareError::NotALink);
    assert!(not_a_link.to_string().contains("not a wgsweep result link"), "{not_a_link}");

    let truncated = share::blocking::decode(&link[..link.len() - 40]).unwrap_err();
    assert!(matches!(truncated, ShareError::Corrupt(_)), "{truncated}");
    assert!(truncated.to_string().contains("cut short"), "{truncated}");

    // One character of the payload changed: the checksum no longer matches.
    let at = link.len() - 200;
    let replacement = if &link[at..at + 1] == "A" { "B" } else { "A" };
    let tampered = format!("{}{replacement}{}", &link[..at], &link[at + 1..]);
    assert!(matches!(share::blocking::decode(&tampered), Err(ShareError::Corrupt(_))));

    let future = link.replacen("#run=2.", "#run=3.", 1);
    let error = share::blocking::decode(&future).unwrap_err();
    assert_eq!(error, ShareError::TooNew { found: 3 });
    assert!(error.to_string().contains("newer wgsweep"), "{error}");

    assert!(matches!(share::blocking::decode(&link.replacen("#run=2.", "#run=2.%%%", 1)), Err(ShareError::Corrupt(_))));
}

/// A link that inflates past what a link may hold is refused as too large, naming the bound, not as damaged:
/// a few kilobytes of zeros compressed, a result's and a kernel's.
#[test]
fn a_link_that_inflates_past_the_bound_is_refused_as_too_large() {
    use base64::Engine;
    let packed = |bytes: usize| {
        let compressed = miniz_oxide::deflate::compress_to_vec_zlib(&vec![0u8; bytes], 10);
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(compressed)
    };
    let limit = share::max_payload_bytes();
    let bomb = packed(limit + (1 << 20));
    assert!(bomb.len() < 40_000, "{} bytes", bomb.len());
    let error = share::blocking::decode(&format!("http://127.0.0.1:8080/#run=2.{bomb}")).unwrap_err();
    assert_eq!(error, ShareError::TooLarge { limit });
    assert_eq!(
        error.to_string(),
        format!("this link is too large: it holds more than {limit} bytes once decompressed, the most a link may")
    );
    let kernel = share::blocking::decode_kernel(&format!("http://127.0.0.1:8080/#kernel=2.{}", packed(1 << 20)));
    assert!(matches!(kernel, Err(ShareError::TooLarge { .. })), "{kernel:?}");
}

#[test]
fn a_crafted_link_whose_figures_no_run_could_record_is_refused_with_what_is_wrong() {
    let mut crafted = share::blocking::decode(valid_link()).unwrap();
    crafted.results[0].median_ns = Some(f64::NAN);
    let error = share::blocking::decode(&share::blocking::encode(&crafted)).unwrap_err();
    assert!(matches!(error, ShareError::Unreadable(_)), "{error}");
    let message = error.to_string();
    assert!(message.contains("not a believable result: configuration 1 ("), "{message}");
    assert!(message.contains("the median time NaN ns is not a positive time"), "{message}");

    let mut crafted = share::blocking::decode(valid_link()).unwrap();
    crafted.results[1].workgroup_size = [0, 0, 0];
    let message = share::blocking::decode(&share::blocking::encode(&crafted)).unwrap_err().to_string();
    assert!(message.contains("configuration 2 (") && message.contains("at least one invocation"), "{message}");

    // A time of 10^-6 ns: a figure of 10^14 GB/s and more.
    let mut crafted = share::blocking::decode(valid_link()).unwrap();
    let r = &mut crafted.results[0];
    (r.median_ns, r.min_ns, r.p95_ns) = (Some(1e-6), Some(1e-6), Some(1e-6));
    let message = share::blocking::decode(&share::blocking::encode(&crafted)).unwrap_err().to_string();
    assert!(message.contains("beyond any device"), "{message}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_decoder_never_panics_on_any_text(text in ".{0,200}") {
        let _ = share::blocking::decode(&text);
        let _ = share::blocking::decode(&format!("#run=2.{text}"));
    }

    #[test]
    fn a_link_cut_or_altered_anywhere_is_refused_or_read_but_never_panics(cut in 0usize..4000, at in 0usize..4000, c in "[A-Za-z0-9_-]") {
        let link = valid_link();
        let _ = share::blocking::decode(&link[..cut.min(link.len())]);
        let at = at.min(link.len() - 1);
        let altered = format!("{}{c}{}", &link[..at], &link[at + 1..]);
        if let Ok(result) = share::blocking::decode(&altered) {
            // Only an edit outside the checksummed payload (or none at all) may still open.
            prop_assert_eq!(result.results.len(), share::blocking::decode(link).unwrap().results.len());
        }
    }
}

#[test]
fn the_default_suites_link_stays_within_8_kb() {
    // The default suite as the page runs it on the H100 in Chromium, each configuration's row taken from
    // the recorded H100 results (Chromium's where it was run there, else native with wgpu's checks).
    let recorded = recorded_results();
    let (_, browser) = recorded.iter().find(|(name, _)| name == "h100-chromium-stream.json").unwrap();
    let plan = wgsweep::plan::Plan {
        kernels: wgsweep::kernels::select("default").unwrap(),
        problem_size: wgsweep::plan::ProblemSize::Default,
        shapes: wgsweep::plan::Shapes::Family,
        parameter_values: None,
        shader_checks: vec![wgsweep::kernel::ShaderChecks::Default],
        measure: Default::default(),
        seed: 1,
    };
    let configurations = plan.configurations(&browser.device.limits);
    let mut rows = Vec::new();
    for c in configurations.iter().map(|planned| &planned.configuration) {
        let same = |r: &&wgsweep::result::ConfigResult| {
            r.label() == c.kernel.label()
                && r.shader_checks == c.checks
                && r.workgroup_size == c.workgroup
                && r.parameter.as_ref().map(|p| p.value) == c.parameter
        };
        let mut by_runtime = recorded.iter().map(|(_, r)| r).collect::<Vec<_>>();
        by_runtime.sort_by_key(|r| r.environment.runtime != "web");
        let row = by_runtime.iter().find_map(|r| r.results.iter().find(same));
        rows.push(row.unwrap_or_else(|| panic!("no recorded row for {}", wgsweep::kernels::describe(c))).clone());
    }
    let suite = RunResult { results: rows, ..browser.clone() };
    let link = share::blocking::link("https://example.org/wgsweep/", &suite);
    println!("the default suite: {} configurations, a link of {} bytes", configurations.len(), link.len());
    assert!(configurations.len() >= 150, "the suite covers {} configurations", configurations.len());
    assert!(link.len() <= 8192, "{} bytes", link.len());
}

fn recorded(name: &str) -> RunResult {
    recorded_results().into_iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no {name}")).1
}

#[test]
fn a_comparison_link_carries_every_result_in_order_and_single_links_stay_apart() {
    let (native, browser) = (recorded("h100-native-stream.json"), recorded("h100-chromium-stream.json"));
    let link = share::blocking::comparison_link("https://example.org/wgsweep/", &[native.clone(), browser.clone()]);
    assert!(link.starts_with("https://example.org/wgsweep/#compare=2."), "{link}");
    let opened = share::blocking::decode_comparison(&link).unwrap();
    let single = [&native, &browser].map(|r| share::blocking::decode(&share::blocking::encode(r)).unwrap());
    assert_eq!(opened, single.to_vec(), "each result as its own link would open it");
    assert_eq!(share::blocking::decode_any(&link).unwrap().len(), 2);
    assert_eq!(share::blocking::decode_any(&share::blocking::link("https://example.org/", &native)).unwrap().len(), 1);
    // Together they compress better than apart.
    assert!(link.len() < single.iter().map(|r| share::blocking::encode(r).len()).sum::<usize>());

    assert_eq!(share::blocking::decode(&link).unwrap_err(), ShareError::NotALink);
    let cut = share::blocking::decode_any(&link[..link.len() - 30]).unwrap_err();
    assert!(matches!(cut, ShareError::Corrupt(_)), "{cut:?}");
}

#[test]
fn a_comparison_lines_up_every_configuration_with_ratios_to_the_first() {
    use wgsweep::compare;
    let (native, browser) = (recorded("h100-native-stream.json"), recorded("h100-chromium-stream.json"));
    let mut small = browser.clone();
    small.results.retain(|r| r.label() == "copy/vec4" && [64, 1024].contains(&r.workgroup_size[0]));
    let results = [small.clone(), native.clone()];
    let rows = compare::rows(&results);

    // Every configuration either ran, once: the native run's default and unchecked rows included.
    assert_eq!(rows.len(), native.results.len());
    let gbps = |result: &RunResult, size: u32| {
        let r = result.results.iter().find(|r| r.label() == "copy/vec4" && r.workgroup_size[0] == size);
        r.unwrap().gbps.unwrap()
    };
    let copy: Vec<&compare::Row> =
        rows.iter().filter(|r| r.kernel == "copy/vec4" && r.checks == wgsweep::kernel::ShaderChecks::Default).collect();
    let sizes: Vec<&str> = copy.iter().map(|r| r.workgroup.as_str()).collect();
    assert_eq!(sizes, ["1", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1024"], "by size within a kernel");
    for row in &copy {
        let size: u32 = row.workgroup.parse().unwrap();
        let ratios = row.ratios();
        match [64, 1024].contains(&size) {
            true => assert_eq!(ratios[1], Some(gbps(&native, size) / gbps(&browser, size)), "{row:?}"),
            false => assert_eq!((row.figures[0], ratios[1]), (None, None), "only the native run has {size}"),
        }
        assert_eq!(row.unit, "GB/s");
    }
    assert_eq!(rows[0].kernel, "copy/vec4", "the first result's kernels lead");

    let best = compare::best_rows(&rows);
    let (row, shapes) = best.iter().find(|(r, _)| r.kernel == "copy/vec4" && r.checks.name() == "default").unwrap();
    let native_best = native
        .results
        .iter()
        .filter(|r| r.label() == "copy/vec4" && r.shader_checks.name() == "default" && r.is_good())
        .max_by(|a, b| a.gbps.partial_cmp(&b.gbps).unwrap())
        .unwrap();
    assert_eq!(row.figures[1], native_best.gbps);
    assert_eq!(shapes[1].as_deref(), Some(native_best.workgroup_text().as_str()));

    let names = compare::names(&[native.clone(), native]);
    assert_ne!(names[0], names[1], "the same result twice is told apart: {names:?}");
}

#[test]
fn the_analysis_derives_the_figures_recorded_with_the_h100_default_suite() {
    // The default suite was recorded (natively and in Chromium) by the runner that found ceilings by kernel
    // names; the analysis, from the roles families declare, must derive the same figures. (Older files
    // hold figures by older rules: workgroup memory's share of the copy, say.)
    let mut checked = 0;
    for (name, recorded) in recorded_results().into_iter().filter(|(name, _)| name.contains("default-suite")) {
        let mut derived = recorded.clone();
        for r in &mut derived.results {
            (r.percent_of_baseline, r.percent_of_peak) = (None, None);
            if let Outcome::Valid { suspect } = &mut r.outcome {
                *suspect = None;
            }
        }
        derived.peaks = Default::default();
        wgsweep::analysis::derive(&mut derived);
        assert_eq!(derived.peaks, recorded.peaks, "{name}");
        for (d, r) in derived.results.iter().zip(&recorded.results) {
            let what = format!("{name}: {} {} {}", r.label(), r.workgroup_text(), r.parameter_text());
            assert!(close(d.percent_of_baseline, r.percent_of_baseline), "{what}: of the baseline");
            assert!(close(d.percent_of_peak, r.percent_of_peak), "{what}: {:?} of the peak", d.percent_of_peak);
            assert_eq!(d.outcome, r.outcome, "{what}");
        }
        checked += 1;
    }
    assert_eq!(checked, 2, "the native and the Chromium default suite");
}

#[test]
fn the_results_shipped_with_the_page_are_their_recorded_sources() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for known in share::KNOWN_RESULTS {
        let text = std::fs::read_to_string(root.join("docs/results").join(known.source)).unwrap();
        let source = RunResult::from_json(&text).unwrap();
        let encoded = share::blocking::encode(&source);
        let shipped = root.join("www/known").join(known.file);
        if std::env::var_os("UPDATE_KNOWN_RESULTS").is_some() {
            std::fs::write(&shipped, format!("{encoded}\n")).unwrap();
        }
        let text = std::fs::read_to_string(&shipped).unwrap_or_default();
        assert_eq!(text.trim(), encoded, "{}: `UPDATE_KNOWN_RESULTS=1 cargo test --test share` remakes it", known.file);
        let opened = share::blocking::decode(&text).unwrap();
        assert_eq!((opened.device.name(), opened.results.len()), (source.device.name(), source.results.len()));
    }
}

#[path = "crafted/mod.rs"]
mod crafted;

/// A result may hold twice the configurations of the largest run (every kernel at every shape the tuner's
/// exhaustive search opens, under all three checks); one more is refused by every reader: a link, a
/// comparison's link, a file, and a plan before it runs.
#[test]
fn a_result_at_the_configuration_bound_opens_and_one_past_it_is_refused_everywhere() {
    use wgsweep::kernel::ShaderChecks;
    use wgsweep::plan::{Plan, ProblemSize, Shapes};
    let max = wgsweep::kernels::max_configurations();
    let largest = wgsweep::kernels::LARGEST_WORKGROUPS;
    for shapes in [Shapes::Family, Shapes::Every] {
        let plan = Plan {
            kernels: wgsweep::kernels::all(),
            problem_size: ProblemSize::Default,
            shapes,
            parameter_values: None,
            shader_checks: vec![ShaderChecks::Default, ShaderChecks::BoundsOnly, ShaderChecks::Unchecked],
            measure: Default::default(),
            seed: 1,
        };
        let count = plan.count(&largest).expect("the largest runs may run");
        assert!(2 * count <= max, "{count} configurations leave no margin under {max}");
        let mut more = plan.clone();
        more.parameter_values = Some((0..1000).collect());
        let refused = more.count(&largest).unwrap_err();
        assert!(refused.contains("more than a result holds"), "{refused}");
    }

    let at_bound = crafted::crafted(max);
    let opened = share::blocking::decode(&share::blocking::encode(&at_bound)).expect("a result at the bound opens");
    assert_eq!(opened.results.len(), max);
    RunResult::from_json(&at_bound.to_json()).expect("and reads from a file");

    let past = crafted::crafted(max + 1);
    let expected =
        format!("it holds {} configurations, more than any wgsweep run makes (a result holds at most {max})", max + 1);
    let link = share::blocking::decode(&share::blocking::encode(&past)).unwrap_err().to_string();
    assert!(link.contains(&expected), "{link}");
    let file = RunResult::from_json(&past.to_json()).unwrap_err().to_string();
    assert!(file.contains(&expected), "{file}");
    // The payload's bound leaves room for a whole comparison at the configuration bound.
    let eight = share::blocking::encode_comparison(&vec![at_bound; share::MAX_COMPARED]);
    let compared = share::blocking::decode_comparison(&eight).expect("eight results at the bound open");
    assert_eq!(compared.len(), share::MAX_COMPARED);
    let comparison = share::blocking::encode_comparison(&vec![crafted::crafted(10); share::MAX_COMPARED + 1]);
    let refused = share::blocking::decode_comparison(&comparison).unwrap_err().to_string();
    assert!(refused.contains("it compares 9 results; a comparison shows at most 8"), "{refused}");
}

/// A result at every bound at once (rows, every string of the header, each row's string as long as the
/// decompressed bound leaves room for) opens from its link and its file; a string one byte past the longest
/// a result holds is refused before any row is made, naming the bound.
#[test]
fn a_result_at_every_bound_at_once_opens_and_a_string_past_its_bound_is_refused() {
    use crafted::LongStrings;
    for strings in [LongStrings::Kernels, LongStrings::Families, LongStrings::Errors] {
        let result = crafted::at_every_bound(strings);
        let opened =
            share::blocking::decode(&share::blocking::encode(&result)).unwrap_or_else(|e| panic!("{strings:?}: {e}"));
        assert_eq!(opened.results.len(), result.results.len());
        assert_eq!((&opened.label, &opened.notes), (&result.label, &result.notes));
        RunResult::from_json(&result.to_json()).unwrap_or_else(|e| panic!("{strings:?} from a file: {e}"));
    }
    let mut result = crafted::crafted(3);
    let error = "é".repeat(wgsweep::bounds::LONGEST.bytes / 2) + "!";
    result.results[2].outcome = wgsweep::result::Outcome::Failed { error, validated: false };
    let refused = share::blocking::decode(&share::blocking::encode(&result)).unwrap_err().to_string();
    let said = format!("one of its strings: a string takes {} bytes, 1 more", wgsweep::bounds::LONGEST.bytes + 1);
    assert!(refused.contains(&said), "{refused}");
}

#[test]
fn a_link_keeps_every_medians_interval_and_a_link_of_format_1_still_opens() {
    let result = recorded("h100-native-stream.json");
    let mut with_intervals = result.clone();
    for r in &mut with_intervals.results {
        r.median_interval_ns = r.median_ns.map(|m| [m * 0.996, m * 1.003]);
    }
    let opened = share::blocking::decode(&share::blocking::link("https://example.org/", &with_intervals)).unwrap();
    for (sent, got) in with_intervals.results.iter().zip(&opened.results) {
        let ([low, high], [got_low, got_high]) = (sent.median_interval_ns.unwrap(), got.median_interval_ns.unwrap());
        let median = got.median_ns.unwrap();
        assert!((low - got_low).abs() <= median * 1e-5 && (high - got_high).abs() <= median * 1e-5, "{sent:?}");
    }
    // A link made before intervals (format 1, as the page shipped it) opens, without them.
    let v1 = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/links/format-1-lavapipe-native.txt"))
        .unwrap();
    assert!(v1.trim().starts_with("1."));
    let old = share::blocking::decode(v1.trim()).unwrap();
    assert!(!old.results.is_empty() && old.results.iter().all(|r| r.median_interval_ns.is_none()));
}
