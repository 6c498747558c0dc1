//! The bounds on a result's text: each string at its bound is read, one byte past it is refused naming the
//! bound and by how much; characters that move or reorder text are refused where a line is expected; what
//! wgsweep records from others' words is clipped to the bounds.

use wgsweep::bounds::{
    DESCRIPTION, LABEL, MAX_FEATURES, MAX_NOTES, MAX_USER_KERNELS, MESSAGE, NAME, NOTE, PARAMETER, TextBound, add_note,
};
use wgsweep::result::{Outcome, ParameterValue, RunResult};
use wgsweep::spec::{KernelText, MAX_SOURCE_BYTES};

use crate::MINIMAL_V1;

fn minimal() -> RunResult {
    RunResult::from_json(MINIMAL_V1).unwrap()
}

/// `bound.bytes` bytes of text, ending in a character of several bytes.
fn at(bound: TextBound) -> String {
    "a".repeat(bound.bytes - 'é'.len_utf8()) + "é"
}

/// Each string field of a result, set to `text` by the function beside its bound.
type Setter = fn(&mut RunResult, String);

const FIELDS: &[(&str, TextBound, Setter)] = &[
    ("the label", LABEL, |r, t| r.label = t),
    ("note 1", NOTE, |r, t| r.notes = vec![t]),
    ("the platform", DESCRIPTION, |r, t| r.environment.platform = t),
    ("the adapter's description", DESCRIPTION, |r, t| r.device.identity.description = t),
    ("the driver's information", DESCRIPTION, |r, t| r.device.driver_info = t),
    ("a feature", NAME, |r, t| r.device.features = vec![t]),
    ("its kernel", NAME, |r, t| r.results[0].kernel = t),
    ("its family", NAME, |r, t| r.results[0].family = t),
    ("its variant", NAME, |r, t| r.results[0].variant = t),
    ("its parameter's name", PARAMETER, |r, t| {
        r.results[0].parameter = Some(ParameterValue { name: t, value: 1, label: None })
    }),
    ("its parameter's value", PARAMETER, |r, t| {
        r.results[0].parameter = Some(ParameterValue { name: "n".into(), value: 1, label: Some(t) })
    }),
    ("its outcome", MESSAGE, |r, t| r.results[0].outcome = Outcome::Failed { error: t, validated: false }),
    ("its outcome", MESSAGE, |r, t| r.results[0].outcome = Outcome::Valid { suspect: Some(t) }),
];

#[test]
fn every_string_at_its_bound_is_read_and_one_byte_past_it_is_refused_naming_the_bound() {
    for &(field, bound, set) in FIELDS {
        let mut result = minimal();
        set(&mut result, at(bound));
        let read = RunResult::from_json(&result.to_json());
        assert!(read.is_ok(), "{field} at {} bytes: {:?}", bound.bytes, read.err());
        set(&mut result, at(bound) + "b");
        let error = RunResult::from_json(&result.to_json()).unwrap_err().to_string();
        let said = format!("takes {} bytes, 1 more than the {} it may", bound.bytes + 1, bound.bytes);
        assert!(error.contains(field) && error.contains(&said), "{field}: {error}");
    }
}

#[test]
fn the_numbers_of_notes_and_features_are_bounded() {
    let mut result = minimal();
    result.notes = (0..MAX_NOTES).map(|i| format!("note {i}")).collect();
    result.device.features = (0..MAX_FEATURES).map(|i| format!("feature-{i}")).collect();
    assert!(RunResult::from_json(&result.to_json()).is_ok());
    result.notes.push("one more".into());
    let error = RunResult::from_json(&result.to_json()).unwrap_err().to_string();
    assert!(error.contains(&format!("{} notes, more than the {MAX_NOTES}", MAX_NOTES + 1)), "{error}");
    result.notes.pop();
    result.device.features.push("one-more".into());
    let error = RunResult::from_json(&result.to_json()).unwrap_err().to_string();
    assert!(error.contains(&format!("more than {MAX_FEATURES} features")), "{error}");
}

#[test]
fn characters_that_move_or_reorder_text_are_refused_and_messages_keep_their_lines() {
    for text in ["a\u{1b}]0;title\u{7}", "right\u{202e}left", "nul\0", "line\nbreak", "c1\u{9b}2J"] {
        let mut result = minimal();
        result.label = text.into();
        let error = RunResult::from_json(&result.to_json()).unwrap_err().to_string();
        assert!(error.contains("the label") && error.contains("moves or reorders text"), "{text:?}: {error}");
        let mut result = minimal();
        result.results[0].kernel = text.into();
        assert!(RunResult::from_json(&result.to_json()).is_err(), "a kernel named {text:?}");
    }
    let mut result = minimal();
    result.results[0].outcome =
        Outcome::Failed { error: "error: unknown type\n  ┌─ wgsl:3:9\n\t│".into(), validated: false };
    result.notes = vec!["two\nlines".into()];
    assert!(RunResult::from_json(&result.to_json()).is_ok(), "a compiler's message keeps its lines");
    result.notes = vec!["bell\u{7}".into()];
    assert!(RunResult::from_json(&result.to_json()).is_err(), "but no other control character");
}

#[test]
fn what_wgsweep_records_from_others_words_is_clipped_to_the_bounds() {
    let long = "é".repeat(MESSAGE.bytes);
    let clipped = MESSAGE.clip(&long);
    assert!(clipped.len() <= MESSAGE.bytes && clipped.ends_with('…'), "{}", clipped.len());
    assert!(MESSAGE.check(&clipped).is_ok());
    assert_eq!(NAME.clip("title\u{1b}]0;x"), "title\\u{1b}]0;x", "a refused character is written as its escape");
    assert_eq!(MESSAGE.clip("kept\nas it is"), "kept\nas it is");

    let mut record = minimal().results.remove(0);
    record.fail("x".repeat(100_000));
    assert!(record.error().unwrap().len() <= MESSAGE.bytes, "a failure's message is clipped where it is recorded");
}

#[test]
fn notes_are_added_once_clipped_and_up_to_their_bound() {
    let mut notes = Vec::new();
    add_note(&mut notes, "copy: capped");
    add_note(&mut notes, "copy: capped");
    assert_eq!(notes, ["copy: capped"], "a note already there is not added again");
    add_note(&mut notes, &"n".repeat(10 * NOTE.bytes));
    assert!(notes[1].len() <= NOTE.bytes);
    for i in 0..2 * MAX_NOTES {
        add_note(&mut notes, &format!("note {i}"));
    }
    assert_eq!(notes.len(), MAX_NOTES);
    assert!(notes.last().unwrap().contains("more notes were left out"), "{notes:?}");
}

#[test]
fn a_file_at_its_bound_is_read_and_one_byte_past_it_is_refused_before_any_field() {
    use wgsweep::result::MAX_FILE_BYTES;
    let padded = MINIMAL_V1.to_string() + &" ".repeat(MAX_FILE_BYTES - MINIMAL_V1.len());
    assert!(RunResult::from_json(&padded).is_ok(), "a result padded to the bound");
    let error = RunResult::from_json(&(padded + " ")).unwrap_err().to_string();
    let said = format!("takes {} bytes, 1 more than the {MAX_FILE_BYTES} a result file may", MAX_FILE_BYTES + 1);
    assert!(error.contains(&said), "{error}");
}

/// The users' kernels a result carries: 16 at 48 KiB each are read from a file and from a link (whose JSON
/// escapes make them longer), one more kernel or one byte more is refused.
#[test]
fn the_users_kernels_a_result_carries_are_bounded_in_number_and_bytes() {
    let kernel = |i: usize| {
        // Quotes and line breaks: each written as two bytes in the link's JSON.
        let spec = format!("{{\"name\": \"k{i}\"}}");
        let source = "\"\n".repeat((MAX_SOURCE_BYTES - spec.len()) / 2);
        KernelText { source: source.clone() + &"a".repeat(MAX_SOURCE_BYTES - spec.len() - source.len()), spec }
    };
    let mut result = minimal();
    result.user_kernels = (0..MAX_USER_KERNELS).map(kernel).collect();
    assert_eq!(result.user_kernels[0].len(), MAX_SOURCE_BYTES);
    assert!(RunResult::from_json(&result.to_json()).is_ok());
    let link = wgsweep::share::blocking::encode(&result);
    assert_eq!(wgsweep::share::blocking::decode(&link).unwrap().user_kernels, result.user_kernels);

    result.user_kernels.push(kernel(MAX_USER_KERNELS));
    let error = RunResult::from_json(&result.to_json()).unwrap_err().to_string();
    assert!(error.contains("it carries 17 users' kernels, more than the 16 a result may"), "{error}");
    result.user_kernels.truncate(1);
    result.user_kernels[0].source.push('b');
    let error = RunResult::from_json(&result.to_json()).unwrap_err().to_string();
    assert!(error.contains("user's kernel 1: it takes 49153 bytes, more than the 49152 a kernel may"), "{error}");
}
