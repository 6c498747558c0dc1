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
    let family = kernels::family(chosen[0].family).expect("selected kernels are registered");
    println!("{}\n\n{}", family.name(), family.about());
    Ok(ExitCode::SUCCESS)
}
