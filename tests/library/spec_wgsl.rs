//! What the specification reads from WGSL text (spec::wgsl, spec::layout), held against naga, the WGSL
//! compiler wgpu uses natively: every struct's members at naga's offsets, every type at naga's size and
//! alignment, and the bindings and entry points naga finds.

use wgpu::naga;
use wgsweep::spec::{Declarations, Scalar, Space, Type, layout, leaves};

/// Structs with every rule of WGSL's layout in them: vec3's alignment, matrices' padded columns, arrays'
/// strides, nested structs, `@align` and `@size`, f16, aliases and module constants as array counts.
const STRUCTS: &str = r#"
enable f16;
const LIGHTS = 3u;
alias Colour = vec3<f32>;
struct Light { position: vec3f, intensity: f32, colour: Colour }
struct Params {
    count: u32,
    scale: f32,
    offset: vec3<f32>,
    bias: f32,
    weights: array<vec4<f32>, 2>,
    grid: vec2<u32>,
    @align(16) lights: array<Light, LIGHTS>,
    rotation: mat3x3<f32>,
    shear: mat2x2f,
    @size(32) half_pair: vec2<f16>,
    tail: vec3h,
    last: i32,
}
struct Particle { position: vec2<f32>, velocity: vec2<f32>, mass: f32 }
struct Particles { count: u32, items: array<Particle> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> particles: Particles;
@group(0) @binding(2) var<storage, read> weights: array<vec4f>;
@group(1) @binding(0) var<uniform> step: f32;
override WG_X: u32 = 64;
override SCALE = 1.5;
override SIGNED = -2;
override SMALL = 2u;
fn helper() -> f32 { return params.scale; }
@compute @workgroup_size(WG_X)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < particles.count { particles.items[id.x].mass = helper() * f32(SMALL) + step; }
}
@compute @workgroup_size(64)
fn other() { particles.count = u32(weights[0].x); }
"#;

fn parsed() -> naga::Module {
    naga::front::wgsl::parse_str(STRUCTS).expect("the test's WGSL compiles")
}

#[test]
fn every_struct_member_lies_where_naga_lays_it_and_every_type_has_naga_s_size_and_alignment() {
    let module = parsed();
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).unwrap();
    let declared = Declarations::of(STRUCTS);
    let mut structs = 0;
    for (handle, ty) in module.types.iter() {
        let naga::TypeInner::Struct { members, .. } = &ty.inner else { continue };
        let name = ty.name.clone().unwrap();
        let ours = Type::Named(name.clone());
        let theirs = &layouter[handle];
        let found = layout(&declared, &ours).unwrap();
        assert_eq!((found.align, found.size), (theirs.alignment.round_up(1) as u64, theirs.size as u64), "{name}");
        // Each member's first value at the member's offset (runtime-sized arrays aside).
        let values = match leaves(&declared, &ours, "", 0) {
            Ok(values) => values,
            Err(_) => continue,
        };
        for member in members {
            let member_name = member.name.clone().unwrap();
            let first = values
                .iter()
                .find(|leaf| leaf.path == member_name || leaf.path.starts_with(&format!("{member_name}[")))
                .or_else(|| values.iter().find(|leaf| leaf.path.starts_with(&format!("{member_name}."))))
                .unwrap_or_else(|| panic!("{name}.{member_name} among {values:?}"));
            assert_eq!(first.offsets[0], member.offset as u64, "{name}.{member_name}");
        }
        structs += 1;
    }
    assert_eq!(structs, 3, "Light, Params and Particle (Particles ends in a runtime-sized array)");
}

#[test]
fn a_uniforms_values_are_its_scalars_in_order_with_matrices_by_column_and_arrays_of_structs_by_index() {
    let declared = Declarations::of(STRUCTS);
    let values = leaves(&declared, &Type::Named("Params".into()), "", 0).unwrap();
    let path_and_count: Vec<(&str, usize)> = values.iter().map(|v| (v.path.as_str(), v.offsets.len())).collect();
    assert_eq!(
        path_and_count,
        [
            ("count", 1),
            ("scale", 1),
            ("offset", 3),
            ("bias", 1),
            ("weights", 8),
            ("grid", 2),
            ("lights[0].position", 3),
            ("lights[0].intensity", 1),
            ("lights[0].colour", 3),
            ("lights[1].position", 3),
            ("lights[1].intensity", 1),
            ("lights[1].colour", 3),
            ("lights[2].position", 3),
            ("lights[2].intensity", 1),
            ("lights[2].colour", 3),
            ("rotation", 9),
            ("shear", 4),
            ("half_pair", 2),
            ("tail", 3),
            ("last", 1),
        ]
    );
    let rotation = values.iter().find(|v| v.path == "rotation").unwrap();
    let base = rotation.offsets[0];
    let relative: Vec<u64> = rotation.offsets.iter().map(|o| o - base).collect();
    assert_eq!(relative, [0, 4, 8, 16, 20, 24, 32, 36, 40], "columns of vec3 are 16 bytes apart");
    let half_pair = values.iter().find(|v| v.path == "half_pair").unwrap();
    assert_eq!((half_pair.scalar, half_pair.offsets[1] - half_pair.offsets[0]), (Scalar::F16, 2));
}

#[test]
fn the_bindings_overrides_and_entry_points_are_those_naga_finds() {
    let module = parsed();
    let declared = Declarations::of(STRUCTS);
    let mut theirs: Vec<(u32, u32, String)> = module
        .global_variables
        .iter()
        .filter_map(|(_, v)| v.binding.as_ref().map(|b| (b.group, b.binding, v.name.clone().unwrap())))
        .collect();
    theirs.sort();
    let mut ours: Vec<(u32, u32, String)> =
        declared.bindings.iter().map(|b| (b.group, b.binding, b.name.clone())).collect();
    ours.sort();
    assert_eq!(ours, theirs);
    let spaces: Vec<Space> = declared.bindings.iter().map(|b| b.space).collect();
    assert_eq!(
        spaces,
        [Space::Uniform, Space::Storage { read_write: true }, Space::Storage { read_write: false }, Space::Uniform]
    );
    let entry_points: Vec<&str> = module.entry_points.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(declared.entry_points.iter().map(String::as_str).collect::<Vec<_>>(), entry_points);
    let overrides: Vec<(&str, Option<Scalar>)> = declared.overrides.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    assert_eq!(
        overrides,
        [
            ("SCALE", Some(Scalar::F32)),
            ("SIGNED", Some(Scalar::I32)),
            ("SMALL", Some(Scalar::U32)),
            ("WG_X", Some(Scalar::U32))
        ]
    );
    // main uses params (through helper), particles and step; other uses particles and weights.
    let used =
        |entry_point: &str| -> Vec<String> { declared.used_by(entry_point).iter().map(|b| b.name.clone()).collect() };
    assert_eq!(used("main"), ["params", "particles", "step"]);
    assert_eq!(used("other"), ["particles", "weights"]);
}

/// A type name ending or going on in a character of more than one byte is refused or read, never cut
/// inside the character (`"vecé"` once panicked in both readers).
#[test]
fn type_names_with_characters_of_several_bytes_are_read_whole() {
    use wgsweep::spec::Element;
    for text in ["vecé", "vec4é", "vec4<é>", "é", "vec", "vec4<f32"] {
        let error = Element::parse(text).unwrap_err();
        assert!(error.contains("is not an element type"), "{text}: {error}");
    }
    assert!(Element::parse("vec4<f32>").is_ok());
    let declared = Declarations::of(
        "@group(0) @binding(0) var<storage, read_write> a: array<vecé>;\n\
         @group(0) @binding(1) var<storage, read> b: array<vec4é>;\n\
         @group(0) @binding(2) var<storage, read> c: array<vec4f>;\n",
    );
    assert_eq!(declared.bindings.len(), 3);
}
