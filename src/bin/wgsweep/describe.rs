//! `wgsweep describe`: what a kernel family measures and what to expect.

use std::process::ExitCode;

use wgsweep::kernels;

#[derive(clap::Args)]
pub struct DescribeArgs {
    /// A family, kernel or kernel/variant name.
    kernel: String,
}

pub fn describe(args: &DescribeArgs) -> Result<ExitCode, String> {
    let chosen = kernels::select(&args.kernel)?;
    let name = chosen[0].family.name();
    let about = kernels::presentation(name).expect("selected kernels are registered").about;
    println!("{name}\n\n{}", about.trim_end());
    Ok(ExitCode::SUCCESS)
}
