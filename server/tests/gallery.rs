//! The gallery's API as its users meet it, on SQLite (a file of its own per test) and on a real PostgreSQL
//! (a throwaway cluster): publish, read, list, search, delete, the medians and presets of a device, and
//! every kind of bad request.

mod support;

use axum::http::StatusCode;
use serde_json::Value;
use support::{Postgres, client, gallery, gallery_with, get, key_query, publish, recorded_h100, request, sqlite_url};
use wgsweep::gallery::{self as core_gallery, DeviceClass};
use wgsweep::spec::UserKernel;
use wgsweep::{RunResult, analysis};
use wgsweep_server::api::{self, Settings};
use wgsweep_server::store::{Inserted, Store};

/// The native default suite on the H100, as `wgsweep run --json` wrote it.
fn h100_native() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/results/pace/h100-native-suite-5.json");
    std::fs::read_to_string(path).unwrap()
}

/// A result as the gallery learns from it: in the compact form of a share link (times as f32).
fn as_kept(result: &RunResult) -> RunResult {
    wgsweep::share::blocking::decode(&wgsweep::share::blocking::encode(result)).unwrap()
}

async fn publish_read_list_and_delete(url: &str) {
    let (app, _dist) = gallery(url, 100).await;
    let sent = h100_native();
    let first = publish(&app, &sent).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", String::from_utf8_lossy(&first.body));
    let answer = first.json();
    let (id, token) = (answer["id"].as_str().unwrap().to_string(), answer["token"].as_str().unwrap().to_string());
    assert_eq!(answer["address"], format!("/#published={id}"));
    assert_eq!(token.len(), 32, "128 random bits");

    // The same result again: stored once, its id given back, no second token.
    let again = publish(&app, &sent).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!((again.json()["id"].as_str(), again.json()["duplicate"].as_bool()), (Some(id.as_str()), Some(true)));
    assert!(again.json().get("token").is_none());

    // Read back: the same result without its raw samples.
    let read = get(&app, &format!("/api/results/{id}")).await;
    assert_eq!(read.status, StatusCode::OK);
    let stored = RunResult::from_json(std::str::from_utf8(&read.body).unwrap()).unwrap();
    let original = RunResult::from_json(&sent).unwrap();
    assert_eq!(stored.results.len(), original.results.len());
    assert!(stored.results.iter().all(|r| r.samples_ns.is_empty() && r.wall_samples_ns.is_empty()));
    let counts = |result: &RunResult| result.results.iter().map(|r| r.sample_count()).collect::<Vec<_>>();
    assert_eq!(counts(&stored), counts(&original), "each configuration says how many samples it had");
    assert_eq!(stored.results[0].median_ns, original.results[0].median_ns);

    // Browse: the device class, found by any part of its name, with its median figures.
    let class = DeviceClass::of(&original);
    let devices = get(&app, "/api/devices?search=h100").await.json();
    let device = &devices["devices"][0];
    assert_eq!(device["key"], class.key());
    assert_eq!((device["results"].as_u64(), device["runtime"].as_str()), (Some(1), Some("native")));
    assert_eq!(device["copy_gbps"].as_f64(), original.peaks.copy_gbps.or(analysis::peaks(&original.results).copy_gbps));
    assert_eq!(get(&app, "/api/devices?search=radeon").await.json()["devices"], Value::Array(vec![]));
    let listed = get(&app, &format!("/api/device/results?{}", key_query(&class.key()))).await.json();
    assert_eq!(listed["results"][0]["id"], id.as_str());
    assert_eq!(listed["results"][0]["configurations"].as_u64(), Some(original.results.len() as u64));

    // Deleting takes the token it was published with.
    let delete = |token: Option<&str>| {
        let headers: Vec<(&str, String)> =
            token.map(|t| ("authorization", format!("Bearer {t}"))).into_iter().collect();
        let app = app.clone();
        let uri = format!("/api/results/{id}");
        async move {
            let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
            request(&app, "DELETE", &uri, Vec::new(), &headers).await
        }
    };
    assert_eq!(delete(None).await.status, StatusCode::UNAUTHORIZED);
    let wrong = delete(Some("0123456789abcdef0123456789abcdef")).await;
    assert_eq!(
        (wrong.status, wrong.error().as_str()),
        (StatusCode::FORBIDDEN, "this token does not delete this result")
    );
    assert_eq!(delete(Some(&token)).await.status, StatusCode::NO_CONTENT);
    let gone = get(&app, &format!("/api/results/{id}")).await;
    assert_eq!((gone.status, gone.error()), (StatusCode::NOT_FOUND, format!("no published result {id}")));
    assert_eq!(get(&app, "/api/devices").await.json()["devices"], Value::Array(vec![]));
}

async fn bad_requests_get_a_clear_4xx(url: &str) {
    let (app, _dist) = gallery(url, 100).await;
    let refused = |body: Vec<u8>| {
        let app = app.clone();
        async move { request(&app, "POST", "/api/results", body, &[("content-type", "application/json")]).await }
    };
    let not_json = refused(b"{\"schema_version\": 1, ".to_vec()).await;
    assert_eq!(not_json.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(not_json.error().starts_with("not a wgsweep result: "), "{}", not_json.error());
    assert_eq!(refused(vec![0xff, 0xfe, 0x00]).await.status, StatusCode::BAD_REQUEST);
    assert_eq!(refused(Vec::new()).await.status, StatusCode::UNPROCESSABLE_ENTITY);

    let mut crafted: Value = serde_json::from_str(&h100_native()).unwrap();
    crafted["results"][0]["median_ns"] = Value::from(-5.0);
    let implausible = refused(crafted.to_string().into_bytes()).await;
    assert_eq!(implausible.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(implausible.error().starts_with("not a believable result: configuration 1 "), "{}", implausible.error());
    crafted["results"][0]["median_ns"] = Value::from(179_600.0);
    crafted["results"][0]["workgroup_size"] = serde_json::json!([0, 0, 0]);
    let shapeless = refused(crafted.to_string().into_bytes()).await;
    assert!(shapeless.error().contains("at least one invocation along each axis"), "{}", shapeless.error());

    let mut long_label: Value = serde_json::from_str(&h100_native()).unwrap();
    long_label["label"] = Value::from("é".repeat(core_gallery::MAX_LABEL_CHARS + 1));
    let refused_label = refused(long_label.to_string().into_bytes()).await;
    assert_eq!(
        (refused_label.status, refused_label.error()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "the label is 201 characters long; the gallery keeps labels of at most 200".into()
        )
    );

    let mut newer: Value = serde_json::from_str(&h100_native()).unwrap();
    newer["schema_version"] = Value::from(9);
    assert!(refused(newer.to_string().into_bytes()).await.error().contains("newer wgsweep"));

    let huge = refused(vec![b' '; wgsweep_server::bounds::MAX_BODY_BYTES + 1]).await;
    assert_eq!(huge.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(huge.error().starts_with("the request is too large: the gallery takes at most 4194304 bytes"));

    assert_eq!(get(&app, "/api/results/nothing-here").await.status, StatusCode::NOT_FOUND);
    let unknown = get(&app, "/api/device/presets?key=no%20such%20device").await;
    assert_eq!(
        (unknown.status, unknown.error()),
        (StatusCode::NOT_FOUND, "no results for the device no such device".into())
    );
    // Every refusal is JSON, also those axum writes itself: a missing query, an unknown address under /api,
    // a method an address does not take.
    let keyless = get(&app, "/api/device/median").await;
    assert_eq!(keyless.status, StatusCode::BAD_REQUEST, "the key is missing");
    assert!(keyless.error().contains("key"), "{}", keyless.error());
    let nowhere = get(&app, "/api/no-such-thing").await;
    assert_eq!(
        (nowhere.status, nowhere.error()),
        (StatusCode::NOT_FOUND, "the gallery has no /api/no-such-thing: its API is listed in the README".into())
    );
    let deleting = request(&app, "DELETE", "/api/devices", Vec::new(), &[]).await;
    assert_eq!(deleting.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(deleting.error(), "this address does not take DELETE: see the README's API");
    assert_eq!(get(&app, "/api/devices").await.json()["devices"], Value::Array(vec![]), "nothing was stored");
}

/// Seeds the gallery with every H100 result under docs/results, through the API: each class's presets are
/// what its results' best shapes say, and its median stands for all of them.
async fn presets_learned_from_the_recorded_h100_results(url: &str) {
    let (app, _dist) = gallery(url, 1000).await;
    let recorded = recorded_h100();
    assert!(recorded.len() >= 30, "{}", recorded.len());
    let mut classes: Vec<(String, Vec<RunResult>)> = Vec::new();
    for (path, text) in &recorded {
        let answer = publish(&app, text).await;
        assert!(answer.status.is_success(), "{}: {}", path.display(), answer.error());
        let result = analysis::read_json(text).unwrap();
        let key = DeviceClass::of(&result).key();
        match classes.iter_mut().find(|(k, _)| *k == key) {
            Some((_, results)) => results.push(result),
            None => classes.push((key, vec![result])),
        }
    }
    let devices = get(&app, "/api/devices").await.json();
    let listed: Vec<&str> = devices["devices"].as_array().unwrap().iter().map(|d| d["key"].as_str().unwrap()).collect();
    assert_eq!(listed.len(), classes.len(), "{listed:?}");
    for (key, results) in &classes {
        let answer = get(&app, &format!("/api/device/presets?{}", key_query(key))).await.json();
        let presets: Vec<core_gallery::Preset> = serde_json::from_value(answer["presets"].clone()).unwrap();
        // Identical results are stored once: the gallery learns from the distinct ones.
        let mut distinct: Vec<&RunResult> = Vec::new();
        for r in results {
            let published = core_gallery::for_publishing(r);
            if !distinct.iter().any(|d| core_gallery::for_publishing(d).to_json() == published.to_json()) {
                distinct.push(r);
            }
        }
        assert_eq!(answer["results"].as_u64(), Some(distinct.len() as u64), "{key}");
        let owned: Vec<RunResult> = distinct.iter().map(|r| as_kept(r)).collect();
        assert_eq!(presets, core_gallery::presets(&owned), "{key}");
        for preset in &presets {
            // The preset is a shape that was some result's best, and the best in at least as many as any other.
            let best: Vec<String> = owned
                .iter()
                .flat_map(|r| analysis::best_shapes(&r.results))
                .filter(|b| b.kernel == preset.kernel && b.parameter == preset.parameter)
                .map(|b| wgsweep::result::shape_text(b.shape))
                .collect();
            let wins = |shape: &str| best.iter().filter(|s| *s == shape).count();
            assert_eq!(wins(&preset.shape), preset.wins as usize, "{key}: {preset:?}");
            assert!(best.iter().all(|s| wins(s) <= preset.wins as usize), "{key}: {preset:?} {best:?}");
        }
        let median = get(&app, &format!("/api/device/median?{}", key_query(key))).await;
        let median = RunResult::from_json(std::str::from_utf8(&median.body).unwrap()).unwrap();
        assert_eq!(median.label, format!("{key}: median of {} results", distinct.len()));
    }
    // The default suite natively: a preset for each of its kernels that ran at 64 invocations and more.
    let native = classes.iter().find(|(k, _)| k.ends_with("· vulkan · native")).expect("native H100 results");
    let answer = get(&app, &format!("/api/device/presets?{}", key_query(&native.0))).await.json();
    let copy = answer["presets"].as_array().unwrap().iter().find(|p| p["kernel"] == "copy/vec4").unwrap();
    assert!(copy["results"].as_u64().unwrap() >= 2, "{copy}");
}

/// Results of users' kernels from the H100, natively and in Chromium (two device classes): the gallery
/// answers, for a kernel, each class's best configuration, its tunables with its shape; and a database whose
/// classes were made before each kernel's preset was kept apart gets them when the server starts.
async fn a_kernel_is_answered_from_every_device_class(url: &str) {
    let (app, _dist) = gallery(url, 100).await;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |name: &str| std::fs::read_to_string(root.join(name)).unwrap();
    // Recorded before results carried their kernels: each with the kernel it ran attached, as runs now do.
    let with_kernel = |result: &str, wgsl: &str| {
        let mut result = RunResult::from_json(&read(result)).unwrap();
        result.user_kernels = vec![UserKernel::read(&read(wgsl), None).unwrap().written];
        result.to_json()
    };
    let triad = "docs/results/your-kernel/triad_scalar.wgsl";
    let sent = [
        with_kernel("docs/results/your-kernel/h100-native-user-triad-1.json", triad),
        with_kernel("docs/results/your-kernel/h100-chromium-user-triad.json", triad),
        with_kernel("docs/results/your-kernel/h100-chromium-matmul-exhaustive.json", "shaders/starters/matmul.wgsl"),
    ];
    let bare = read("docs/results/your-kernel/h100-native-user-triad-1.json");
    let refused = publish(&app, &bare).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.error().contains("a user's kernel's result carries its WGSL"), "{}", refused.error());
    for text in &sent {
        let answer = publish(&app, text).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.error());
    }
    let results: Vec<RunResult> = sent.iter().map(|text| RunResult::from_json(text).unwrap()).collect();
    let expected = |kernel: &str, result: &RunResult| {
        let presets = core_gallery::presets(&[as_kept(result)]);
        presets.into_iter().find(|p| p.kernel == kernel).unwrap()
    };
    let answer = get(&app, "/api/kernel/presets?kernel=triad_scalar/de3303bd").await.json();
    let classes = answer["classes"].as_array().unwrap();
    assert_eq!(classes.len(), 2, "{answer}");
    for result in &results[..2] {
        let key = DeviceClass::of(result).key();
        let class = classes.iter().find(|c| c["key"] == key.as_str()).unwrap_or_else(|| panic!("{key}: {answer}"));
        let preset: core_gallery::Preset = serde_json::from_value(class["preset"].clone()).unwrap();
        assert_eq!(preset, expected("triad_scalar/de3303bd", result));
    }
    let matmul = get(&app, "/api/kernel/presets?kernel=matmul/eb6eae0c").await.json();
    let preset: core_gallery::Preset = serde_json::from_value(matmul["classes"][0]["preset"].clone()).unwrap();
    assert_eq!(preset, expected("matmul/eb6eae0c", &results[2]));
    assert!(preset.shape.contains(" · TM="), "the best shape with its tunables: {}", preset.shape);
    assert_eq!(preset.parameter, "n=2048");
    let unknown = get(&app, "/api/kernel/presets?kernel=never/run").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert!(unknown.error().contains("no device's results hold the kernel never/run"), "{}", unknown.error());

    let database = sqlx::AnyPool::connect(url).await.unwrap();
    sqlx::query("DELETE FROM kernel_presets").execute(&database).await.unwrap();
    let (restarted, _dist) = gallery(url, 100).await;
    assert_eq!(get(&restarted, "/api/kernel/presets?kernel=triad_scalar/de3303bd").await.json(), answer);
}

async fn publishes_are_limited_per_client(url: &str) {
    let (app, _dist) = gallery(url, 2).await;
    let recorded = recorded_h100();
    for (_, text) in &recorded[..2] {
        assert!(publish(&app, text).await.status.is_success());
    }
    let limited = publish(&app, &recorded[2].1).await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = limited.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert!(limited.error().ends_with(&format!("wait {wait} s")), "{}", limited.error());
    assert!(limited.error().starts_with("too many publishes"), "{}", limited.error());
    // Reading is not limited.
    assert_eq!(get(&app, "/api/devices").await.status, StatusCode::OK);
    let _ = client(2);
}

async fn the_page_is_served_cross_origin_isolated(url: &str) {
    let (app, _dist) = gallery(url, 10).await;
    let page = get(&app, "/index.html").await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.headers["cross-origin-opener-policy"], "same-origin");
    assert_eq!(page.headers["cross-origin-embedder-policy"], "require-corp");
    assert_eq!(page.headers["content-security-policy"], wgsweep_server::CONTENT_SECURITY_POLICY);
    assert!(wgsweep_server::CONTENT_SECURITY_POLICY.contains("frame-ancestors 'none'"));
    assert!(!wgsweep_server::CONTENT_SECURITY_POLICY.contains("unsafe-inline"));
    assert_eq!(page.headers["referrer-policy"], "no-referrer");
    let health = get(&app, "/api/health").await.json();
    assert_eq!(health["gallery"], "wgsweep");
    assert_eq!(health["database"], if url.starts_with("sqlite") { "sqlite" } else { "postgresql" });
}

/// Bodies are stored deflated, and a body stored as plain JSON (as before they were) still reads.
async fn bodies_are_stored_deflated_and_plain_ones_still_read(url: &str) {
    use sqlx::Row;
    let (app, _dist) = gallery(url, 100).await;
    let sent = h100_native();
    let id = publish(&app, &sent).await.json()["id"].as_str().unwrap().to_string();
    let published = core_gallery::for_publishing(&RunResult::from_json(&sent).unwrap()).to_json();
    let read = |app: axum::Router| {
        let uri = format!("/api/results/{id}");
        async move { String::from_utf8(get(&app, &uri).await.body).unwrap() }
    };
    assert_eq!(read(app.clone()).await, published);

    let database = sqlx::AnyPool::connect(url).await.unwrap();
    let stored: String = sqlx::query("SELECT body FROM results").fetch_one(&database).await.unwrap().get("body");
    assert!(stored.starts_with("deflate:"), "{}", &stored[..40]);
    assert!(stored.len() * 5 < published.len(), "{} bytes stored for {} of JSON", stored.len(), published.len());
    sqlx::query("UPDATE results SET body = $1").bind(&published).execute(&database).await.unwrap();
    assert_eq!(read(app.clone()).await, published);
    let presets = get(
        &app,
        &format!("/api/device/presets?{}", key_query(&DeviceClass::of(&RunResult::from_json(&sent).unwrap()).key())),
    )
    .await;
    assert_eq!(presets.json()["results"], 1);
}

/// What the gallery keeps for a class, read back through the API: its count in the device list, its
/// median's label and its presets.
async fn kept_figures(app: &axum::Router, key: &str) -> Option<(u64, String, Value)> {
    let devices = get(app, "/api/devices").await.json();
    let device = devices["devices"].as_array().unwrap().iter().find(|d| d["key"] == key)?.clone();
    let median = get(app, &format!("/api/device/median?{}", key_query(key))).await;
    let median = RunResult::from_json(std::str::from_utf8(&median.body).unwrap()).unwrap();
    let presets = get(app, &format!("/api/device/presets?{}", key_query(key))).await.json();
    Some((device["results"].as_u64().unwrap(), median.label, presets["presets"].clone()))
}

/// Each publish and delete makes its class's figures afresh in its own transaction: they always equal what
/// the class's stored results say, and a class goes with its last result.
async fn class_figures_follow_every_publish_and_delete(url: &str) {
    let (app, _dist) = gallery(url, 100).await;
    let recorded: Vec<RunResult> =
        ["pace/h100-native-suite-5.json", "pace/h100-native-suite-6.json", "h100-native-stream.json"]
            .iter()
            .map(|name| {
                let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/results").join(name);
                analysis::read_json(&std::fs::read_to_string(path).unwrap()).unwrap()
            })
            .collect();
    let key = DeviceClass::of(&recorded[0]).key();
    let mut published: Vec<(String, String)> = Vec::new();
    for (n, result) in recorded.iter().enumerate() {
        let answer = publish(&app, &result.to_json()).await.json();
        published.push((answer["id"].as_str().unwrap().into(), answer["token"].as_str().unwrap().into()));
        let (count, label, presets) = kept_figures(&app, &key).await.expect("the class is listed");
        assert_eq!(count, n as u64 + 1);
        assert_eq!(label, format!("{key}: median of {} result{}", n + 1, if n == 0 { "" } else { "s" }));
        let expected = core_gallery::presets(&recorded[..=n].iter().rev().map(as_kept).collect::<Vec<_>>());
        assert_eq!(serde_json::from_value::<Vec<core_gallery::Preset>>(presets).unwrap(), expected);
    }
    for (n, (id, token)) in published.iter().enumerate() {
        let bearer = format!("Bearer {token}");
        let uri = format!("/api/results/{id}");
        let deleted = request(&app, "DELETE", &uri, Vec::new(), &[("authorization", &bearer)]).await;
        assert_eq!(deleted.status, StatusCode::NO_CONTENT);
        let left = published.len() - n - 1;
        match kept_figures(&app, &key).await {
            Some((count, label, _)) => {
                assert_eq!(count, left as u64);
                assert!(label.ends_with(&format!("median of {left} result{}", if left == 1 { "" } else { "s" })));
            }
            None => assert_eq!(left, 0, "the class is listed while it has results"),
        }
    }
    let median = get(&app, &format!("/api/device/median?{}", key_query(&key))).await;
    assert_eq!(median.status, StatusCode::NOT_FOUND, "the class went with its last result");
}

/// A database whose results have no compact form and no class figures (as an earlier wgsweep-server left
/// it) gets both when the server starts.
async fn results_stored_before_class_figures_get_them_at_start(url: &str) {
    let (app, _dist) = gallery(url, 100).await;
    let sent = h100_native();
    assert_eq!(publish(&app, &sent).await.status, StatusCode::CREATED);
    let key = DeviceClass::of(&RunResult::from_json(&sent).unwrap()).key();
    let kept = kept_figures(&app, &key).await.expect("listed");
    let database = sqlx::AnyPool::connect(url).await.unwrap();
    sqlx::query("UPDATE results SET compact = NULL").execute(&database).await.unwrap();
    sqlx::query("DELETE FROM classes").execute(&database).await.unwrap();
    assert!(kept_figures(&app, &key).await.is_none(), "nothing kept now");
    let (restarted, _dist) = gallery(url, 100).await;
    assert_eq!(kept_figures(&restarted, &key).await, Some(kept));
}

/// A label longer than the gallery keeps now, stored before it kept labels short (as an earlier
/// wgsweep-server did): the migration that lists results from an index cuts it there in the list, and the
/// server starts; on PostgreSQL the index could not be made with it (an index entry holds at most 2 704
/// bytes).
async fn labels_stored_before_their_bound_are_cut_in_the_list(url: &str) {
    let (app, _dist) = gallery(url, 100).await;
    let sent = h100_native();
    assert_eq!(publish(&app, &sent).await.status, StatusCode::CREATED);
    let key = DeviceClass::of(&RunResult::from_json(&sent).unwrap()).key();
    // Letters with no repeats for a compressor to fold, as a person's long note would have.
    let mut state = 12345u32;
    let long: String = (0..4000)
        .map(|_| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            char::from(b'a' + (state >> 16) as u8 % 26)
        })
        .collect();
    let database = sqlx::AnyPool::connect(url).await.unwrap();
    for statement in [
        "DROP INDEX results_listed",
        "CREATE INDEX results_by_class ON results (class_key, published)",
        "DELETE FROM _sqlx_migrations WHERE version = 3",
    ] {
        sqlx::query(statement).execute(&database).await.unwrap();
    }
    sqlx::query("UPDATE results SET label = $1").bind(&long).execute(&database).await.unwrap();
    database.close().await;
    let (restarted, _dist) = gallery(url, 100).await;
    let listed = get(&restarted, &format!("/api/device/results?{}", key_query(&key))).await.json();
    assert_eq!(listed["results"][0]["label"].as_str(), Some(&long[..core_gallery::MAX_LABEL_CHARS]));
}

/// Reads of stored results are limited per client (429 with when to come back); the device list is not.
/// Behind a trusted proxy each client that the proxy names has its own share; from anyone else the header
/// is ignored.
async fn reads_are_limited_per_client_also_behind_a_proxy(url: &str) {
    let proxy = client(1);
    let settings = Settings {
        reads_per_minute: std::num::NonZeroU32::new(10).unwrap(), // in bursts of 1
        trusted_proxies: vec![proxy.ip()],
        ..Settings::default()
    };
    let (app, _dist) = gallery_with(url, settings.clone(), proxy).await;
    let sent = h100_native();
    assert_eq!(publish(&app, &sent).await.status, StatusCode::CREATED);
    let median =
        format!("/api/device/median?{}", key_query(&DeviceClass::of(&RunResult::from_json(&sent).unwrap()).key()));
    let read_as = |forwarded: &'static str| {
        let (app, median) = (app.clone(), median.clone());
        async move { request(&app, "GET", &median, Vec::new(), &[("x-forwarded-for", forwarded)]).await }
    };
    assert_eq!(read_as("203.0.113.7").await.status, StatusCode::OK);
    let limited = read_as("203.0.113.7").await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        limited.error().starts_with("too many reads of stored results from this address: wait "),
        "{}",
        limited.error()
    );
    assert!(limited.headers.contains_key("retry-after"));
    // Another client behind the same proxy reads; what a client writes left of the proxy's entry is ignored.
    assert_eq!(read_as("203.0.113.8").await.status, StatusCode::OK);
    assert_eq!(read_as("198.51.100.1, 203.0.113.9").await.status, StatusCode::OK);
    assert_eq!(read_as("203.0.113.9, 203.0.113.7").await.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(get(&app, "/api/devices").await.status, StatusCode::OK, "the device list is not limited");

    // Not from a trusted proxy: the header counts for nothing, the socket's address is the client.
    let (direct, _dist) = gallery_with(url, settings, client(2)).await;
    let read = |forwarded: &'static str| {
        let (direct, median) = (direct.clone(), median.clone());
        async move { request(&direct, "GET", &median, Vec::new(), &[("x-forwarded-for", forwarded)]).await.status }
    };
    assert_eq!(read("203.0.113.20").await, StatusCode::OK);
    assert_eq!(read("203.0.113.21").await, StatusCode::TOO_MANY_REQUESTS);
}

/// Two servers behind one database: each keeps the latest results of the classes it published to decoded,
/// yet one's figures always count what the other published or deleted.
async fn two_servers_on_one_database_keep_the_same_figures(url: &str) {
    let (first, _dist) = gallery(url, 100).await;
    let (second, _dist2) = gallery(url, 100).await;
    let recorded: Vec<String> = [
        "pace/h100-native-suite-5.json",
        "pace/h100-native-suite-6.json",
        "h100-native-stream.json",
        "h100-native-access.json",
    ]
    .iter()
    .map(|name| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/results").join(name);
        std::fs::read_to_string(path).unwrap()
    })
    .collect();
    let key = DeviceClass::of(&RunResult::from_json(&recorded[0]).unwrap()).key();
    let label = |n: usize| format!("{key}: median of {n} result{}", if n == 1 { "" } else { "s" });
    assert_eq!(publish(&first, &recorded[0]).await.status, StatusCode::CREATED);
    let through_second = publish(&second, &recorded[1]).await.json();
    assert_eq!(publish(&first, &recorded[2]).await.status, StatusCode::CREATED);
    assert_eq!(kept_figures(&first, &key).await.unwrap().1, label(3), "the first server counts the second's");
    let (id, token) = (through_second["id"].as_str().unwrap(), through_second["token"].as_str().unwrap());
    let bearer = format!("Bearer {token}");
    let uri = format!("/api/results/{id}");
    let deleted = request(&second, "DELETE", &uri, Vec::new(), &[("authorization", &bearer)]).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_eq!(publish(&first, &recorded[3]).await.status, StatusCode::CREATED);
    let (count, median, presets) = kept_figures(&first, &key).await.unwrap();
    assert_eq!((count, median), (3, label(3)), "and forgets what the second deleted");
    let kept: Vec<RunResult> =
        [3, 2, 0].iter().map(|&i| as_kept(&RunResult::from_json(&recorded[i]).unwrap())).collect();
    assert_eq!(serde_json::from_value::<Vec<core_gallery::Preset>>(presets).unwrap(), core_gallery::presets(&kept));
}

/// Publishes that arrive together are stored together (one transaction): each is answered as if it came
/// alone, a result sent twice at once is stored once, the class counts every one, and one that cannot be
/// stored fails alone.
async fn publishes_sent_together_are_each_answered(url: &str) {
    let (app, _dist) = gallery(url, 1000).await;
    let recorded = RunResult::from_json(&h100_native()).unwrap();
    let key = DeviceClass::of(&recorded).key();
    let labelled = |label: String| RunResult { label, ..recorded.clone() }.to_json();
    let bodies: Vec<String> = (0..16).map(|n| labelled(format!("together {n}"))).collect();
    let mut sending = tokio::task::JoinSet::new();
    for body in bodies.iter().chain([&bodies[0]]) {
        let (app, body) = (app.clone(), body.clone());
        sending.spawn(async move { publish(&app, &body).await });
    }
    let answers = sending.join_all().await;
    let created: Vec<String> = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .map(|a| a.json()["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(created.len(), 16, "every distinct result is stored");
    let twice: Vec<Value> = answers.iter().filter(|a| a.status == StatusCode::OK).map(|a| a.json()).collect();
    assert_eq!(twice.len(), 1, "the one sent twice is stored once");
    assert_eq!(twice[0]["duplicate"], true);
    assert!(created.contains(&twice[0]["id"].as_str().unwrap().to_string()), "and answered with its id");
    let (count, median, _) = kept_figures(&app, &key).await.unwrap();
    assert_eq!((count, median), (16, format!("{key}: median of 16 results")));

    // A result whose id is taken by another (a digest that differs past the id's 16 digits) cannot be stored.
    let store = Store::open(url).await.unwrap();
    let prepare = |label: String| {
        let Ok((stored, _token)) = api::prepare(labelled(label).as_bytes(), wgsweep::result::now_rfc3339()) else {
            panic!("a recorded result is refused")
        };
        stored
    };
    let mut clash = prepare("the clash".into());
    clash.id = created[0].clone();
    let mut storing = tokio::task::JoinSet::new();
    for (n, stored) in (0..5).map(|n| prepare(format!("beside the clash {n}"))).chain([clash]).enumerate() {
        let store = store.clone();
        storing.spawn(async move { (n, store.insert(stored).await) });
    }
    let mut outcomes = storing.join_all().await;
    outcomes.sort_by_key(|(n, _)| *n);
    for (n, outcome) in &outcomes[..5] {
        assert!(matches!(outcome, Ok(Inserted::New)), "result {n} beside the clash: {outcome:?}");
    }
    assert!(outcomes[5].1.is_err(), "the clash is refused");
    let (count, median, _) = kept_figures(&app, &key).await.unwrap();
    assert_eq!((count, median), (21, format!("{key}: median of 21 results")));

    // A result twice in one statement (as a group may hold it) is stored and counted once.
    let twice = prepare("twice in a batch".into());
    store.insert_batch(&[twice.clone(), twice, prepare("once in a batch".into())]).await.unwrap();
    store.refresh_every_class().await.unwrap();
    let (count, median, _) = kept_figures(&app, &key).await.unwrap();
    assert_eq!((count, median), (23, format!("{key}: median of 23 results")));
}

/// Each scenario, listed once, runs on both databases: on SQLite a test each, in a folder of its own; on
/// PostgreSQL one cluster for all of them, a database each (named after the scenario).
macro_rules! on_both_databases {
    ($($scenario:ident),* $(,)?) => {
        mod on_sqlite {
            $(
                #[tokio::test]
                async fn $scenario() {
                    let dir = tempfile::tempdir().unwrap();
                    super::$scenario(&super::sqlite_url(dir.path())).await;
                }
            )*
        }

        #[tokio::test]
        async fn on_postgresql_every_scenario() {
            let cluster = Postgres::start();
            $($scenario(&cluster.database(stringify!($scenario))).await;)*
        }
    };
}

on_both_databases![
    publish_read_list_and_delete,
    bad_requests_get_a_clear_4xx,
    presets_learned_from_the_recorded_h100_results,
    publishes_are_limited_per_client,
    the_page_is_served_cross_origin_isolated,
    bodies_are_stored_deflated_and_plain_ones_still_read,
    class_figures_follow_every_publish_and_delete,
    results_stored_before_class_figures_get_them_at_start,
    reads_are_limited_per_client_also_behind_a_proxy,
    two_servers_on_one_database_keep_the_same_figures,
    publishes_sent_together_are_each_answered,
    labels_stored_before_their_bound_are_cut_in_the_list,
    a_kernel_is_answered_from_every_device_class,
];
