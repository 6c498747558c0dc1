//! A user's kernel reader on any text: arbitrary Unicode in place of the specification or the WGSL, or put
//! anywhere into a kernel that reads, is refused with its problems or read, and never panics (`"vecé"`
//! once did, slicing inside a character).

use proptest::prelude::*;
use wgsweep::spec::{UserKernel, leading_spec};

/// The starters and the tests' kernels, each with its specification in its leading comment: between them
/// uniforms, textures, samplers, passes, setup passes, templates and every kind of validation.
fn kernels() -> Vec<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut paths = Vec::new();
    for dir in ["shaders/starters", "tests/kernels", "tests/kernels/public"] {
        let entries = std::fs::read_dir(format!("{root}/{dir}")).unwrap().map(|e| e.unwrap().path());
        paths.extend(entries.filter(|path| path.extension().is_some_and(|e| e == "wgsl")));
    }
    paths.sort();
    let texts = paths.into_iter().map(|path| std::fs::read_to_string(path).unwrap());
    texts.filter(|text| leading_spec(text).is_some()).collect()
}

/// `text` with `inserted` put in at the character boundary nearest to `at` (a fraction of its length).
fn inserted(text: &str, at: f64, inserted: &str) -> String {
    let mut place = ((text.len() as f64) * at) as usize;
    while !text.is_char_boundary(place) {
        place -= 1;
    }
    format!("{}{inserted}{}", &text[..place], &text[place..])
}

/// Text of every kind the readers split on: quotes, brackets, operators, digits, letters of several bytes,
/// control and bidirectional characters.
fn pieces() -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,24}",
        "[\"{}\\[\\]<>(),:;=*+/%&|!^~ 0-9a-zA-Zé€𝄞\u{202e}\u{0}\n]{0,24}",
        prop::sample::select(vec!["vecé", "array<", "@workgroup_size(", "ceil_div(", "{{", "}}", "1e999", "-0"])
            .prop_map(String::from),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_text_for_a_specification_or_a_kernel_is_read_or_refused_never_a_panic(
        kernel in 0usize..64, spec in ".{0,300}", wgsl in ".{0,300}",
    ) {
        let kernels = kernels();
        let source = &kernels[kernel % kernels.len()];
        let _ = UserKernel::read(source, Some(&spec));
        let _ = UserKernel::read(&wgsl, None);
        let _ = UserKernel::read(&wgsl, leading_spec(source));
    }

    #[test]
    fn a_kernel_with_any_text_put_into_it_is_read_or_refused_never_a_panic(
        kernel in 0usize..64, at in 0.0f64..1.0, piece in pieces(),
    ) {
        let kernels = kernels();
        let source = &kernels[kernel % kernels.len()];
        // The specification (the leading comment) and the WGSL after it both take their turn.
        let _ = UserKernel::read(&inserted(source, at, &piece), None);
        let spec = leading_spec(source).unwrap();
        let _ = UserKernel::read(source, Some(&inserted(spec, at, &piece)));
    }
}
