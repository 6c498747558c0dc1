//! Compiles a WGSL kernel to SPIR-V as wgpu 30 does on Vulkan (naga, with or without its runtime checks),
//! builds it as a compute pipeline on the first Vulkan device with VK_KHR_pipeline_executable_properties,
//! and prints what the driver reports of the code it made: registers, shared memory, and the rest.
//!
//! pipeline-stats CHECKS SOURCE ENTRY [NAME=VALUE ...]
//!   CHECKS   default (wgpu's checks) or unchecked; or `print`, for the WGSL alone
//!   SOURCE   a WGSL file, or KERNEL/VARIANT@INVOCATIONS of wgsweep's subgroup-matrix kernels (the module
//!            wgsweep compiles for that workgroup)
//!   NAME=VALUE  override constants

use std::ffi::CStr;

use ash::vk;
use wgpu::naga;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [checks, source, entry, constants @ ..] = &args[..] else {
        eprintln!("usage: pipeline-stats default|unchecked|print SOURCE ENTRY [NAME=VALUE ...]");
        std::process::exit(2);
    };
    if checks == "print" {
        return print!("{}", wgsl(source));
    }
    let checked = match checks.as_str() {
        "default" => true,
        "unchecked" => false,
        other => panic!("checks {other:?}: default or unchecked"),
    };
    let constants = constants
        .iter()
        .map(|pair| {
            let (name, value) = pair.split_once('=').expect("NAME=VALUE");
            (name.to_string(), value.parse::<f64>().expect("a number"))
        })
        .collect();
    let (spirv, bindings) = spirv(&wgsl(source), entry, &constants, checked);
    // SAFETY: the Vulkan calls below follow the specification's valid usage, each object made before use.
    unsafe { report(&spirv, &bindings, entry) };
}

/// The WGSL `source` names.
fn wgsl(source: &str) -> String {
    let Some((kernel, invocations)) = source.split_once('@') else {
        return std::fs::read_to_string(source).unwrap_or_else(|e| panic!("{source}: {e}"));
    };
    let (kernel, variant) = kernel.split_once('/').expect("KERNEL/VARIANT@INVOCATIONS");
    // A kernel's names are static in wgsweep: these two are leaked, once, by a program that then ends.
    let id = wgsweep::kernel::KernelId {
        family: "matmul",
        kernel: Box::leak(kernel.to_string().into_boxed_str()),
        variant: Box::leak(variant.to_string().into_boxed_str()),
    };
    let invocations = invocations.parse().expect("invocations");
    let text = wgsweep::kernels::matmul::subgroup_matrix_source(id, invocations).expect("no such kernel or workgroup");
    wgsweep::kernel::for_this_compiler(&text).into_owned()
}

/// SPIR-V of `entry` as wgpu-hal 30 writes it for Vulkan 1.3 (vulkan/adapter.rs and device.rs): with its
/// checks, indices clamped, buffers left to the driver's robustness, workgroup memory zeroed and loops
/// bounded; without, none of these. And the buffers the module binds, for the pipeline's layout.
fn spirv(
    wgsl: &str,
    entry: &str,
    constants: &naga::back::PipelineConstants,
    checked: bool,
) -> (Vec<u32>, Vec<(u32, u32, bool)>) {
    let module = naga::front::wgsl::parse_str(wgsl).unwrap_or_else(|e| panic!("{}", e.emit_to_string(wgsl)));
    let mut validator =
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all());
    let info = validator.validate(&module).unwrap_or_else(|e| panic!("{}", e.emit_to_string(wgsl)));
    let stage = (naga::ShaderStage::Compute, entry);
    let (module, info) = naga::back::pipeline_constants::process_overrides(&module, &info, Some(stage), constants)
        .unwrap_or_else(|e| panic!("override constants: {e}"));
    let unchecked = naga::proc::BoundsCheckPolicy::Unchecked;
    let options = naga::back::spv::Options {
        lang_version: (1, 6),
        bounds_check_policies: naga::proc::BoundsCheckPolicies {
            index: if checked { naga::proc::BoundsCheckPolicy::Restrict } else { unchecked },
            buffer: unchecked,
            image_load: unchecked,
            binding_array: unchecked,
        },
        zero_initialize_workgroup_memory: if checked {
            naga::back::spv::ZeroInitializeWorkgroupMemoryMode::Native
        } else {
            naga::back::spv::ZeroInitializeWorkgroupMemoryMode::None
        },
        force_loop_bounding: checked,
        ..Default::default()
    };
    let pipeline = naga::back::spv::PipelineOptions { shader_stage: stage.0, entry_point: entry.to_string() };
    let spirv = naga::back::spv::write_vec(&module, &info, &options, Some(&pipeline));
    (spirv.unwrap_or_else(|e| panic!("SPIR-V: {e}")), storage_bindings(&module))
}

/// The buffers `module` binds: (group, binding, whether a uniform buffer).
fn storage_bindings(module: &naga::Module) -> Vec<(u32, u32, bool)> {
    let buffers = module.global_variables.iter().filter_map(|(_, global)| {
        let binding = global.binding.as_ref()?;
        let uniform = match global.space {
            naga::AddressSpace::Uniform => true,
            naga::AddressSpace::Storage { .. } => false,
            _ => return None,
        };
        Some((binding.group, binding.binding, uniform))
    });
    buffers.collect()
}

/// Builds `spirv`'s `entry` as a compute pipeline capturing statistics and prints them.
unsafe fn report(spirv: &[u32], bindings: &[(u32, u32, bool)], entry: &str) {
    let vulkan = unsafe { ash::Entry::load() }.expect("the Vulkan loader");
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
    let instance = unsafe { vulkan.create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None) }
        .expect("a Vulkan instance");
    let wanted = [
        ash::khr::pipeline_executable_properties::NAME,
        ash::khr::cooperative_matrix::NAME,
        ash::ext::robustness2::NAME,
    ];
    let physical = unsafe { instance.enumerate_physical_devices() }
        .expect("Vulkan devices")
        .into_iter()
        .find(|&device| supports(&instance, device, wanted[0]))
        .expect("no device with VK_KHR_pipeline_executable_properties");
    let properties = unsafe { instance.get_physical_device_properties(physical) };
    let name = unsafe { CStr::from_ptr(properties.device_name.as_ptr()) };
    println!("device: {} (driver {:#x})", name.to_string_lossy(), properties.driver_version);
    let extensions: Vec<*const i8> =
        wanted.iter().filter(|&&e| supports(&instance, physical, e)).map(|e| e.as_ptr()).collect();

    // Every feature the device has, as wgpu asks for the ones it uses (robust buffer access among them).
    let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
    let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
    let mut cooperative = vk::PhysicalDeviceCooperativeMatrixFeaturesKHR::default();
    let mut robustness2 = vk::PhysicalDeviceRobustness2FeaturesEXT::default();
    let mut executables = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default();
    let mut features = vk::PhysicalDeviceFeatures2::default()
        .push_next(&mut v11)
        .push_next(&mut v12)
        .push_next(&mut v13)
        .push_next(&mut cooperative)
        .push_next(&mut robustness2)
        .push_next(&mut executables);
    unsafe { instance.get_physical_device_features2(physical, &mut features) };
    let queue = [vk::DeviceQueueCreateInfo::default().queue_family_index(0).queue_priorities(&[1.0])];
    let create = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queue)
        .enabled_extension_names(&extensions)
        .push_next(&mut features);
    let device = unsafe { instance.create_device(physical, &create, None) }.expect("a Vulkan device");

    let shader = unsafe { device.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(spirv), None) }
        .expect("the shader module");
    let groups = bindings.iter().map(|&(group, _, _)| group + 1).max().unwrap_or(0);
    let set_layouts: Vec<vk::DescriptorSetLayout> = (0..groups)
        .map(|group| {
            let entries: Vec<vk::DescriptorSetLayoutBinding> = bindings
                .iter()
                .filter(|&&(g, _, _)| g == group)
                .map(|&(_, binding, uniform)| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(binding)
                        .descriptor_type(if uniform {
                            vk::DescriptorType::UNIFORM_BUFFER
                        } else {
                            vk::DescriptorType::STORAGE_BUFFER
                        })
                        .descriptor_count(1)
                        .stage_flags(vk::ShaderStageFlags::COMPUTE)
                })
                .collect();
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&entries);
            unsafe { device.create_descriptor_set_layout(&info, None) }.expect("a descriptor set layout")
        })
        .collect();
    let layout = unsafe {
        device.create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts), None)
    }
    .expect("the pipeline layout");
    let entry_name = std::ffi::CString::new(entry).expect("an entry point name");
    let stage = vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::COMPUTE)
        .module(shader)
        .name(&entry_name);
    let info = vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout).flags(
        vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR | vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR,
    );
    let pipeline = unsafe { device.create_compute_pipelines(vk::PipelineCache::null(), &[info], None) }
        .map_err(|(_, e)| e)
        .expect("the compute pipeline")[0];

    let reader = ash::khr::pipeline_executable_properties::Device::new(&instance, &device);
    let executables =
        unsafe { reader.get_pipeline_executable_properties(&vk::PipelineInfoKHR::default().pipeline(pipeline)) }
            .expect("the pipeline's executables");
    for (index, executable) in executables.iter().enumerate() {
        let text = |chars: &[i8]| unsafe { CStr::from_ptr(chars.as_ptr()) }.to_string_lossy().into_owned();
        println!(
            "executable {index}: {} ({}), subgroups of {}",
            text(&executable.name),
            text(&executable.description),
            executable.subgroup_size
        );
        let which = vk::PipelineExecutableInfoKHR::default().pipeline(pipeline).executable_index(index as u32);
        for statistic in unsafe { reader.get_pipeline_executable_statistics(&which) }.expect("statistics") {
            let value = unsafe {
                match statistic.format {
                    vk::PipelineExecutableStatisticFormatKHR::BOOL32 => (statistic.value.b32 != 0).to_string(),
                    vk::PipelineExecutableStatisticFormatKHR::INT64 => statistic.value.i64.to_string(),
                    vk::PipelineExecutableStatisticFormatKHR::UINT64 => statistic.value.u64.to_string(),
                    _ => statistic.value.f64.to_string(),
                }
            };
            println!("  {}: {value}  ({})", text(&statistic.name), text(&statistic.description));
        }
        // Asked twice: their sizes, then their contents.
        let mut representations =
            unsafe { reader.get_pipeline_executable_internal_representations(&which) }.unwrap_or_default();
        let mut contents: Vec<Vec<u8>> = representations.iter().map(|r| vec![0u8; r.data_size]).collect();
        for (representation, content) in representations.iter_mut().zip(&mut contents) {
            representation.p_data = content.as_mut_ptr().cast();
        }
        let mut count = representations.len() as u32;
        let fill = reader.fp().get_pipeline_executable_internal_representations_khr;
        let filled = unsafe { fill(device.handle(), &which, &mut count, representations.as_mut_ptr()) };
        for (representation, content) in representations.iter().zip(&contents) {
            println!(
                "  representation: {} ({}), {} bytes{}",
                text(&representation.name),
                text(&representation.description),
                representation.data_size,
                if representation.is_text != 0 { " of text:" } else { "" }
            );
            if representation.is_text != 0 && filled == vk::Result::SUCCESS {
                println!("{}", String::from_utf8_lossy(content).trim_end_matches('\0'));
            }
        }
    }
}

/// Whether `device` offers the extension `name`.
fn supports(instance: &ash::Instance, device: vk::PhysicalDevice, name: &CStr) -> bool {
    let extensions = unsafe { instance.enumerate_device_extension_properties(device) }.unwrap_or_default();
    extensions.iter().any(|e| unsafe { CStr::from_ptr(e.extension_name.as_ptr()) } == name)
}
