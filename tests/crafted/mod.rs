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
