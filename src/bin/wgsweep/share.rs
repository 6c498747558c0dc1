//! `wgsweep share`: a link that opens a result file in the page.

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ShareArgs {
    /// The result file.
    file: PathBuf,
    /// The page's address the link starts with.
    #[arg(long, default_value = "http://127.0.0.1:8080/")]
    page: String,
}

pub fn share(args: &ShareArgs) -> Result<ExitCode, String> {
    let result = crate::read_result(&args.file)?;
    let link = wgsweep::share::blocking::link(&args.page, &result);
    eprintln!("{} configurations in {} bytes of link", result.results.len(), link.len());
    println!("{link}");
    Ok(ExitCode::SUCCESS)
}
