//! The registry: kernel names and selectors.

use wgsweep::kernels;

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
