//! A result as large as a result may be (`kernels::max_configurations`), made from a recorded one, shaped to
//! cost a reader the most: every configuration of the H100's default suite again at ever more values of a
//! parameter, so that every family has thousands of rows, its lines thousands of points and the families
//! drawn as heatmaps a heatmap per value.

use wgsweep::RunResult;
use wgsweep::result::ParameterValue;

/// The H100's native default suite, grown to `configurations` rows.
pub fn crafted(configurations: usize) -> RunResult {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results/pace/h100-native-suite-5.json");
    let mut result = wgsweep::analysis::read_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let template = std::mem::take(&mut result.results);
    result.results = (0..configurations)
        .map(|i| {
            let mut r = template[i % template.len()].clone();
            r.summarized_samples = r.sample_count() as u32;
            r.samples_ns = Vec::new();
            r.wall_samples_ns = Vec::new();
            let name = r.parameter.as_ref().map_or("copy".to_string(), |p| p.name.clone());
            r.parameter = Some(ParameterValue { name, value: (i / template.len()) as u32, label: None });
            r
        })
        .collect();
    result.label = format!("{configurations} configurations");
    result
}

/// What a crafted result at every bound fills its rows' strings with, each row a string of its own.
#[derive(Clone, Copy, Debug)]
pub enum LongStrings {
    /// Every row a kernel of its own, its name at the bound on names.
    Kernels,
    /// Every row a family of its own (as many users' kernels would make).
    Families,
    /// Every row failed, with a message of its own.
    Errors,
}

/// A result at every bound at once: `kernels::max_configurations` rows, the label, the notes and the
/// device's descriptions at their bounds (`wgsweep::bounds`), and every row with a string of its own as long
/// as the bound on a link's decompressed size leaves room for.
pub fn at_every_bound(strings: LongStrings) -> RunResult {
    use wgsweep::bounds::{DESCRIPTION, LABEL, MAX_NOTES, NAME, NOTE};
    let max = wgsweep::kernels::max_configurations();
    let mut result = crafted(max);
    let filled = |bytes: usize, i: usize| {
        let head = format!("{i:06} ");
        head.clone() + &"ж".repeat((bytes - head.len()) / 2)
    };
    result.label = filled(LABEL.bytes, 0);
    result.notes = (0..MAX_NOTES).map(|i| filled(NOTE.bytes, i)).collect();
    result.device.driver_info = filled(DESCRIPTION.bytes, 0);
    result.environment.platform = filled(DESCRIPTION.bytes, 1);
    // As much of a link's payload as a row may have, less the rows' own 80 bytes or so.
    let per_row = (wgsweep::share::max_payload_bytes() / max - 100).min(NAME.bytes);
    for (i, r) in result.results.iter_mut().enumerate() {
        match strings {
            LongStrings::Kernels => r.kernel = filled(per_row, i),
            LongStrings::Families => r.family = filled(per_row, i),
            LongStrings::Errors => {
                r.fail(filled(per_row, i));
                (r.median_ns, r.min_ns, r.p95_ns, r.cv, r.gbps, r.median_interval_ns) =
                    (None, None, None, None, None, None);
                r.summarized_samples = 0;
            }
        }
    }
    result
}
