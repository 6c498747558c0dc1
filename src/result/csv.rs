//! A result as CSV, one row per configuration, in the spirit of BabelStream's `--csv`.

use super::{RunResult, Unit};

/// The CSV header: one row per configuration, in the spirit of BabelStream's `--csv` (times in ns, rates
/// in GB/s, GFLOP/s, and for integer chains GIOP/s or GOP/s; empty where not measured).
pub const CSV_HEADER: &str = "family,kernel,variant,shader_checks,workgroup_x,workgroup_y,workgroup_z,\
parameter,parameter_value,problem_size,bytes_per_dispatch,flops_per_dispatch,samples,dispatches_per_sample,\
median_ns,median_low_ns,median_high_ns,min_ns,p95_ns,cv,gbps,gflops,giops,gops,percent_of_peak,status";

impl RunResult {
    /// Every configuration as a CSV row (RFC 4180: fields with commas, quotes or line breaks are quoted).
    pub fn to_csv(&self) -> String {
        let mut csv = String::from(CSV_HEADER);
        csv.push('\n');
        let number = |x: Option<f64>| x.map(|x| x.to_string()).unwrap_or_default();
        for r in &self.results {
            let [x, y, z] = r.workgroup_size.map(|d| d.to_string());
            let fields = [
                r.family.clone(),
                r.kernel.clone(),
                r.variant.clone(),
                r.shader_checks.name().to_string(),
                x,
                y,
                z,
                r.parameter.as_ref().map(|p| p.name.clone()).unwrap_or_default(),
                r.parameter
                    .as_ref()
                    .map(|p| p.label.clone().unwrap_or_else(|| p.value.to_string()))
                    .unwrap_or_default(),
                r.problem_size.to_string(),
                r.bytes_per_dispatch.to_string(),
                r.flops_per_dispatch.map(|f| f.to_string()).unwrap_or_default(),
                r.sample_count().to_string(),
                r.dispatches_per_sample.to_string(),
                number(r.median_ns),
                number(r.median_interval_ns.map(|[low, _]| low)),
                number(r.median_interval_ns.map(|[_, high]| high)),
                number(r.min_ns),
                number(r.p95_ns),
                number(r.cv),
                number(r.gbps),
                number(r.gflops()),
                number(r.operation_rate().filter(|_| r.unit() == Unit::GiopPerS)),
                number(r.operation_rate().filter(|_| r.unit() == Unit::GopPerS)),
                number(r.percent_of_peak),
                r.status(),
            ];
            let quoted: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
            csv.push_str(&quoted.join(","));
            csv.push('\n');
        }
        csv
    }
}

fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}
