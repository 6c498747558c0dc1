//! The registry: kernel names and selectors.

use wgsweep::{kernel, kernels};

#[test]
fn a_kernel_name_belongs_to_one_family_so_selecting_it_stays_in_that_family() {
    let mut owners = std::collections::HashMap::new();
    for k in kernels::all().into_iter().map(|k| k.id) {
        let owner = *owners.entry(k.kernel).or_insert(k.family);
        assert_eq!(owner, k.family, "'{}' is a kernel of both {owner} and {}", k.kernel, k.family);
    }
}

#[test]
fn every_built_in_family_says_what_it_measures_and_names_kernels_it_has() {
    for (family, presentation) in kernels::built_in() {
        assert!(presentation.about.len() > 200, "{}: {:?}", family.name(), presentation.about);
        let names: Vec<&str> = family.kernels().iter().map(|k| k.kernel).collect();
        let labels: Vec<String> = family.kernels().iter().map(|k| k.label()).collect();
        let known = |side: &str| names.contains(&side) || labels.iter().any(|l| l == side);
        for contrast in presentation.contrasts {
            assert!(known(contrast.kernel.0) && known(contrast.against.0), "{}: {contrast:?}", family.name());
        }
        assert!(presentation.baseline.is_none_or(|b| names.contains(&b)), "{}", family.name());
    }
}

#[test]
fn kernel_selectors_name_families_kernels_and_variants() {
    assert_eq!(kernels::select("stream").unwrap().len(), 20);
    assert_eq!(kernels::select("triad").unwrap().len(), 4);
    let one = kernels::select("triad/vec4").unwrap();
    assert_eq!((one.len(), one[0].id.entry_point()), (1, "triad_vec4".to_string()));
    assert_eq!(kernels::select("copy,copy/scalar").unwrap().len(), 4);
    assert!(kernels::select("tirad").unwrap_err().contains("no kernel is called 'tirad'"));
}

/// The page holds its shaders bare (no comments, indentation or blank lines) and fetches the files for a built-in kernel a
/// person opens as theirs: each file's comments go back where its text stands, so the page shows what
/// `wgsweep source` prints.
#[test]
fn a_built_in_kernel_without_its_shaders_comments_gets_them_back_from_the_files() {
    let files: Vec<String> = kernel::SHADER_FILES
        .iter()
        .map(|name| std::fs::read_to_string(format!("{}/shaders/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap())
        .collect();
    assert!(files.len() >= 20 && files.iter().any(|f| f.contains("// ")), "{}", files.len());
    let limits = crate::limits(256, 256, 16 << 10);
    let mut restored = 0;
    for k in kernels::all() {
        let Some(native) = kernels::as_user_kernel(&k.id, &limits) else { continue };
        let page = files.iter().fold(native.clone(), |text, file| text.replace(file, &kernel::bare(file)));
        assert_eq!(kernel::with_comments(&page, &files), native, "{}", k.id.label());
        restored += usize::from(page != native);
    }
    assert!(restored >= 70, "{restored} kernels had comments to restore");
    // Files that cannot be fetched leave the kernel as it runs.
    assert_eq!(kernel::with_comments("fn main() {}\n", &[]), "fn main() {}\n");
}

/// The README says the bound on a result's configurations as a number: it is the code's.
#[test]
fn the_readme_states_the_configuration_bound_the_code_holds() {
    let max = kernels::max_configurations();
    let spaced = |n: usize| {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(' ');
            }
            out.push(c);
        }
        out
    };
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let said = format!("A result holds at most {} configurations", spaced(max));
    assert!(
        readme.contains(&said),
        "the README should say: {said} (and the run that makes half of it: {})",
        spaced(max / 2)
    );
}
