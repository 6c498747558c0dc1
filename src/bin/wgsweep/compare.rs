//! `wgsweep compare`: results side by side, with each ratio to the first, its interval and verdict; named
//! baselines and the regression gate (`--fail-if-slower`) come from the library (`baseline`,
//! `compare::regressions`).

use std::process::ExitCode;

use wgsweep::baseline::{self, Baselines};
use wgsweep::compare;

use crate::plan_args::percent;
use crate::table::{Table, left, right, say};

#[derive(clap::Args)]
pub struct CompareArgs {
    /// Result files or share links (a comparison's link adds all of its results), the first the baseline; a
    /// file may hold a link, and `-` reads either from standard input (a link longer than a command line).
    #[arg(num_args = 1..)]
    results: Vec<String>,
    /// Put the baseline saved under this name (`--save-baseline`) first.
    #[arg(long)]
    baseline: Option<String>,
    /// Save the last result given as a baseline under this name, in .wgsweep/baselines/ (as criterion
    /// keeps its baselines): a later `--baseline NAME` compares with it.
    #[arg(long)]
    save_baseline: Option<String>,
    /// A change smaller than this is the same within noise, however sure (a percentage).
    #[arg(long, default_value = "2%", value_parser = percent)]
    noise_threshold: f64,
    /// Exit with status 1, listing them, where configurations are slower than the first result beyond
    /// noise and by at least this much (a percentage, e.g. 3%): a regression gate for CI pipelines.
    #[arg(long, value_parser = percent)]
    fail_if_slower: Option<f64>,
    /// Only each kernel's best figure per result, over every workgroup shape, and the shape that gave it.
    #[arg(long)]
    best: bool,
    /// Also print a link that opens the comparison in the page at this address.
    #[arg(long)]
    page: Option<String>,
}

pub fn compare(args: &CompareArgs) -> Result<ExitCode, String> {
    let baselines = Baselines::in_folder(baseline::FOLDER);
    let mut results = Vec::new();
    if let Some(name) = &args.baseline {
        results.push(baselines.load(name)?);
    }
    for source in &args.results {
        results.extend(crate::open_results(source)?);
    }
    if let Some(name) = &args.save_baseline {
        let last = results.last().ok_or("give a result to save as a baseline")?;
        let path = baselines.save(name, last)?;
        eprintln!("saved the baseline `{name}` in {}", path.display());
        if results.len() < 2 {
            return Ok(ExitCode::SUCCESS);
        }
    }
    if results.len() < 2 {
        return Err("a comparison needs at least two results (or one and --baseline NAME)".into());
    }
    if let Some(heading) = compare::engines_heading(&results) {
        say(&heading);
    }
    for (i, (name, result)) in compare::names(&results).iter().zip(&results).enumerate() {
        let peaks = result.peaks.summary().map(|p| format!("; {p}")).unwrap_or_default();
        say(&format!("{}: {name}: {}, {}{peaks}", i + 1, result.device.name(), result.created));
    }
    let rows = compare::rows(&results);
    let (rows, shapes) = if args.best { compare::best_rows(&rows).into_iter().unzip() } else { (rows, Vec::new()) };
    let mut columns = vec![left("kernel"), left("checks"), left("wg"), left("parameter"), left("unit")];
    columns.extend((1..=results.len()).map(|i| right(format!("[{i}]"))));
    columns.extend((2..=results.len()).map(|i| right(format!("[{i}]/[1]"))));
    let mut table = Table::new(columns);
    for (i, row) in rows.iter().enumerate() {
        let workgroup = match shapes.get(i) {
            // Best of every shape: name each result's best shape.
            Some(shapes) => shapes.iter().map(|s| s.as_deref().unwrap_or("–")).collect::<Vec<_>>().join(" | "),
            None => row.workgroup.clone(),
        };
        let mut cells =
            vec![row.kernel.clone(), row.checks.name().into(), workgroup, row.parameter.clone(), row.unit.into()];
        cells.extend(row.cells(args.noise_threshold));
        table.row(cells);
    }
    table.print();
    let threshold = args.noise_threshold;
    println!(
        "\nThe ratios' 95 % intervals are distribution-free (Hodges–Lehmann and Moses, from each configuration's \
         samples); a ratio is faster or slower where its interval leaves out 1 and it moves by {:.1} % or more.",
        threshold * 100.0
    );
    for at in 1..results.len() {
        say(&format!("[{}] against [1]: {}", at + 1, compare::verdicts_text(&rows, at, threshold)));
    }
    let mut code = ExitCode::SUCCESS;
    if let Some(limit) = args.fail_if_slower {
        let slower = compare::regressions(&rows, threshold, limit);
        if !slower.is_empty() {
            println!(
                "\n{} configuration(s) slower than [1] beyond noise and by {:.1} % or more:",
                slower.len(),
                limit * 100.0
            );
            for regression in &slower {
                say(&format!("  {}", regression.text()));
            }
            code = ExitCode::FAILURE;
        }
    }
    if let Some(page) = &args.page {
        println!("{}", wgsweep::share::blocking::comparison_link(page, &results));
    }
    Ok(code)
}
