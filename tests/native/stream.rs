//! STREAM validated, and its failures caught: bit for bit against the CPU twin, a corrupted element, an
//! unwritten output, a wrong partial sum.

use crate::support::{self, check_both, environment, open_gpu};
use wgsweep::fill;
use wgsweep::kernel::{read_buffer, submit_once};
use wgsweep::kernels;
use wgsweep::runner::{self, Flow};

use crate::{ODD_SIZE, configuration, quick_plan, run_once_and_read};

#[test]
fn every_stream_kernel_validates_at_several_workgroup_sizes() {
    let gpu = open_gpu();
    let plan = quick_plan(kernels::select("stream").unwrap(), vec![1, 64, 256, 1024]);
    let result = pollster::block_on(runner::run(&gpu, &plan, environment(&gpu), |_| Flow::Continue));
    assert!(result.complete);
    assert_eq!(result.results.len(), 20 * 4);
    for r in &result.results {
        support::assert_good(r);
        assert_eq!(r.samples_ns.len(), 2);
        assert!(r.median_ns.unwrap() > 0.0 && r.min_ns.unwrap() <= r.median_ns.unwrap());
        assert_eq!(r.percent_of_baseline, None, "STREAM has no reference kernel");
        let arrays = if matches!(r.kernel.as_str(), "add" | "triad") { 3 } else { 2 };
        let element_bytes = if r.variant == "vec4_f16" { 2 } else { 4 };
        assert_eq!(r.bytes_per_dispatch, arrays * ODD_SIZE * element_bytes);
    }
}

#[test]
fn copy_reproduces_the_cpu_twin_of_the_gpu_random_inputs_bit_for_bit() {
    // copy's tolerance is zero, so this passes only if fill_random and fill::random_f32 agree on every bit.
    let gpu = open_gpu();
    let (workload, config, bytes) = run_once_and_read(&gpu, "copy/scalar", 64);
    assert_eq!(check_both(&gpu, &*workload, &configuration("copy/scalar", 64), &config, &bytes), Ok(()));
}

#[test]
fn a_corrupted_element_fails_validation_with_its_index_and_values() {
    let gpu = open_gpu();
    let kernel = "triad/vec4";
    let (workload, config, mut bytes) = run_once_and_read(&gpu, "triad/vec4", 64);
    assert_eq!(check_both(&gpu, &*workload, &configuration(kernel, 64), &config, &bytes), Ok(()));
    bytes[4 * 4097..4 * 4098].copy_from_slice(&7.0f32.to_le_bytes());
    let error = check_both(&gpu, &*workload, &configuration(kernel, 64), &config, &bytes).unwrap_err();
    assert_eq!((error.wrong, error.checked), (1, ODD_SIZE));
    assert_eq!(error.first[0].index, 4097);
    assert!(error.to_string().starts_with("c[4097]: 7e0 (is) != "), "{error}");
}

#[test]
fn an_output_the_kernel_never_wrote_fails_validation() {
    let gpu = open_gpu();
    let kernel = "scale/scalar";
    let (workload, config, _) = run_once_and_read(&gpu, "scale/scalar", 64);
    // Poison the output again and read it without dispatching: every element is NaN.
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    gpu.filler().word(&gpu.device, &mut encoder, &config.output, fill::POISON);
    gpu.queue.submit([encoder.finish()]);
    let poisoned = pollster::block_on(read_buffer(&gpu, &config.output)).unwrap();
    let error = check_both(&gpu, &*workload, &configuration(kernel, 64), &config, &poisoned).unwrap_err();
    assert_eq!(error.wrong, ODD_SIZE);
}

#[test]
fn a_wrong_dot_partial_sum_fails_validation() {
    let gpu = open_gpu();
    let kernel = "dot/grid_stride";
    let (workload, config, mut bytes) = run_once_and_read(&gpu, "dot/grid_stride", 32);
    assert_eq!(check_both(&gpu, &*workload, &configuration(kernel, 32), &config, &bytes), Ok(()));
    let first = f32::from_le_bytes(bytes[0..4].try_into().unwrap());
    bytes[0..4].copy_from_slice(&(first + 1.0).to_le_bytes());
    let error = check_both(&gpu, &*workload, &configuration(kernel, 32), &config, &bytes).unwrap_err();
    assert!(error.to_string().starts_with("dot[0]"), "{error}");
}

#[test]
fn a_dot_product_with_more_partial_sums_than_one_block_adds_every_one() {
    // At a workgroup of 1 each element is a partial sum: 2^17 + 13 of them, added in blocks of 2^16 with a
    // turn between (a page's task each) and eight running sums in a block.
    let gpu = open_gpu();
    let n = (1 << 17) + 13;
    let workload = kernels::family("stream").unwrap().setup(&gpu, n, fill::fresh_seed()).unwrap();
    let dot = configuration("dot/scalar", 1);
    let prepared = pollster::block_on(workload.prepare(&gpu, &dot)).unwrap();
    submit_once(&gpu, &prepared);
    let mut bytes = pollster::block_on(read_buffer(&gpu, &prepared.output)).unwrap();
    assert_eq!(bytes.len() as u64, 4 * n, "a partial sum an element");
    assert_eq!(check_both(&gpu, &*workload, &dot, &prepared, &bytes), Ok(()));
    // One wrong partial sum in the last block, among the eight running sums' remainder.
    let last = bytes.len() - 4;
    let wrong = f32::from_le_bytes(bytes[last..].try_into().unwrap()) + 1.0;
    bytes[last..].copy_from_slice(&wrong.to_le_bytes());
    let error = check_both(&gpu, &*workload, &dot, &prepared, &bytes).unwrap_err();
    assert!(error.to_string().starts_with("dot[0]"), "{error}");
}
