//! The ingest path fuzzed: mutated real payloads and random bytes go through what a publish does with its
//! body before storing it. Nothing panics; what is refused gets a 4xx with a message.

mod support;

use proptest::prelude::*;
use wgsweep_server::api::prepare;

/// Cases per property: 200 in the test run, more for a longer fuzz (`FUZZ_CASES=20000`).
fn cases() -> u32 {
    std::env::var("FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(200)
}

/// A recorded H100 result, as a publish sends it (read once).
fn payload() -> Vec<u8> {
    static PAYLOAD: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    PAYLOAD.get_or_init(|| support::recorded_h100().swap_remove(0).1.into_bytes()).clone()
}

/// What a publish of `body` would answer: stored, or refused with a 4xx and a message (never a 5xx).
fn ingest(body: &[u8]) -> Result<(), TestCaseError> {
    match prepare(body, "2026-01-01T00:00:00.000Z".into()) {
        Ok(_) => Ok(()),
        Err(refusal) => {
            prop_assert!(refusal.status().is_client_error(), "{} {}", refusal.status(), refusal.message());
            prop_assert!(!refusal.message().is_empty());
            Ok(())
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_are_refused_with_a_4xx(body in proptest::collection::vec(any::<u8>(), 0..4096)) {
        // Random bytes are never a result: one stored would be a hole in the checks.
        prop_assert!(prepare(&body, String::new()).is_err(), "random bytes were taken for a result");
        ingest(&body)?;
    }

    #[test]
    fn a_real_payload_with_bytes_changed_is_stored_or_refused_with_a_4xx(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)
    ) {
        let mut body = payload();
        for (at, byte) in edits {
            let at = at.index(body.len());
            body[at] = byte;
        }
        ingest(&body)?;
    }

    #[test]
    fn a_real_payload_cut_anywhere_is_refused_with_a_4xx(cut in any::<prop::sample::Index>()) {
        let body = payload();
        let cut = cut.index(body.len());
        prop_assert!(prepare(&body[..cut], String::new()).is_err());
        ingest(&body[..cut])?;
    }

    #[test]
    fn a_real_payload_with_a_figure_changed_is_stored_or_refused_with_a_4xx(
        field in prop::sample::select(vec!["median_ns", "min_ns", "p95_ns", "cv", "gbps", "dispatches_per_sample"]),
        value in prop::sample::select(vec![-1.0, 0.0, 1e-300, 1e300, 3.5, -0.0]),
        row in 0usize..193,
    ) {
        let mut result: serde_json::Value = serde_json::from_slice(&payload()).unwrap();
        let rows = result["results"].as_array_mut().unwrap();
        let row = row % rows.len();
        rows[row][field] = serde_json::json!(value);
        ingest(result.to_string().as_bytes())?;
    }
}
