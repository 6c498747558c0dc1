//! The "Your kernel" card: a person's WGSL and its specification side by side, four starting points, every
//! problem at its place (the specification's field; the WGSL's line and column, from the browser's
//! compiler), and Run and Auto-tune through the same runner, results and tuning card as the built-in
//! families. A link carries the kernel, and opening one offers to run it.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlButtonElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use super::dom::{self, append, by_id, hidden_card};
use super::state::{self, Action};
use super::storage;
use crate::gpu::{ComputeLimits, Gpu};
use crate::host;
use crate::kernel::Kernel;
use crate::kernels::{self, user::UserFamily};
use crate::plan::Plan;
use crate::share;
use crate::spec::KernelText;
use crate::spec::{self, Ordered, Problem, Size, Spec, UserKernel};

/// The starting points, files in shaders/starters/ (beside the page in dist/): the WGSL with its
/// specification in the leading comment, as `wgsweep kernel` reads it. The first is in the page, shown when
/// the card opens; the others are fetched when picked (1.7 KB less gzipped in every visitor's download).
const STARTERS: [(&str, &str); 4] = [
    ("A 1-D elementwise kernel: STREAM's triad, ELEMENTS per invocation", "triad.wgsl"),
    ("A 2-D stencil: five points, TILE rows per invocation", "stencil.wgsl"),
    ("A reduction: a u32 sum, ELEMENTS per invocation", "sum.wgsl"),
    ("A tiled matrix multiply: 697 combinations of shape, outputs per invocation and tile depth", "matmul.wgsl"),
];

/// The first starting point's text.
const FIRST_STARTER: &str = include_str!("../../shaders/starters/triad.wgsl");

/// The starter list's value of a built-in kernel: this, then its label.
const BUILT_IN: &str = "built-in:";

pub fn build(root: &Element) {
    let card = hidden_card(root, "your-kernel", "Your kernel");
    append(
        &card,
        "p",
        "about",
        "Paste a WGSL compute kernel and say in its specification what it needs: its buffers, problem sizes, \
         tunables (override constants, WG_X and WG_Y for the workgroup's shape) and how its output is \
         validated. wgsweep runs it at every combination, validates every output on the GPU and times it, as \
         it does its own kernels; Auto-tune finds the best combination without trying every one.",
    );
    let offer = append(&card, "div", "kernel-offer", "");
    offer.set_id("kernel-offer");
    offer.set_attribute("hidden", "").ok();
    append(&offer, "p", "", "").set_id("kernel-offer-text");
    let run_shared = append(&offer, "button", "primary", "Run this kernel on your device");
    run_shared.set_id("run-shared-kernel");
    run_shared.set_attribute("disabled", "").ok(); // until the GPU is open (`show`)

    // Folded until opened: the page's first screen stays the device and Run.
    let editor_fold = append(&card, "details", "kernel-fold", "");
    editor_fold.set_id("kernel-fold");
    append(&editor_fold, "summary", "", "Write or paste a kernel");
    let card = editor_fold;
    let starter_label = append(&card, "label", "starter", "Start from ");
    let starters = append(&starter_label, "select", "", "");
    starters.set_id("kernel-starter");
    append(&starters, "option", "", "a starting point…").set_attribute("value", "").ok();
    for (index, (title, _)) in STARTERS.iter().enumerate() {
        append(&starters, "option", "", title).set_attribute("value", &index.to_string()).ok();
    }
    // Built-in kernels, opened as your kernel: listed once the device is known (`list_built_in`).
    let built_in = append(&starters, "optgroup", "", "");
    built_in.set_id("kernel-built-in");
    built_in.set_attribute("label", "A built-in kernel, as it runs").ok();
    let editor = append(&card, "div", "kernel-editor", "");
    code_area(&editor, "kernel-wgsl", "WGSL");
    // Beside the WGSL: the common cases as a form, and the whole specification as JSON, kept in step.
    let spec_column = append(&editor, "div", "kernel-spec", "");
    build_form(&spec_column);
    code_area(&spec_column, "kernel-spec", "Specification (JSON): the buffers, and all of it");
    dom::on("kernel-spec", "input", |_| show_form());
    let problems = append(&card, "ul", "kernel-problems", "");
    problems.set_id("kernel-problems");
    problems.set_attribute("role", "alert").ok();
    let buttons = append(&card, "div", "buttons", "");
    for (id, text) in
        [("run-kernel", "Run your kernel"), ("tune-kernel", "Auto-tune it"), ("copy-kernel-link", "Copy kernel link")]
    {
        let button = append(&buttons, "button", if id == "run-kernel" { "primary" } else { "" }, text);
        button.set_id(id);
        button.set_attribute("disabled", "").ok();
    }
    dom::link_output(&card, "kernel-link", "kernel link");
    long_run_notice(&card);

    dom::on("kernel-starter", "change", |_| {
        let select: HtmlSelectElement = by_id("kernel-starter");
        let value = select.value();
        match value.strip_prefix(BUILT_IN) {
            Some(label) => {
                let kernel = kernels::select(label).ok().and_then(|k| k.first().copied());
                let source = kernel.and_then(|k| kernels::as_user_kernel(&k.id, &device_limits()));
                if let Some(source) = source {
                    load(&source);
                    dom::spawn(restore_comments(source));
                }
            }
            None => match value.parse::<usize>() {
                Ok(0) => load(FIRST_STARTER),
                Ok(index) if index < STARTERS.len() => dom::spawn(load_starter(index)),
                _ => {}
            },
        }
        select.set_value("");
    });
    dom::on("run-kernel", "click", |_| start(Start::Run));
    dom::on("run-shared-kernel", "click", |_| {
        dom::set_hidden("kernel-offer", true);
        start(Start::Run);
    });
    dom::on("tune-kernel", "click", |_| start(Start::Tune));
    dom::on("copy-kernel-link", "click", |_| {
        let kernel = KernelText { source: field("kernel-wgsl").value(), spec: field("kernel-spec").value() };
        dom::spawn(async move {
            match share::kernel_link(&dom::page_address(), &kernel).await {
                Ok(link) => dom::copy_link(link, "kernel-link", "your kernel").await,
                Err(why) => show_problems(&[Problem { place: "link".into(), message: why }]),
            }
        });
    });
}

/// What a Run that would take long says first (`long_run`), with Auto-tune beside it.
fn long_run_notice(card: &Element) {
    let long = append(card, "div", "kernel-offer", "");
    long.set_id("kernel-long");
    long.set_attribute("hidden", "").ok();
    append(&long, "p", "", "").set_id("kernel-long-text");
    let choices = append(&long, "div", "buttons", "");
    append(&choices, "button", "primary", "Auto-tune instead").set_id("tune-kernel-instead");
    append(&choices, "button", "", "Run every configuration").set_id("run-kernel-anyway");
    dom::on("run-kernel-anyway", "click", |_| start(Start::RunHoweverLong));
    dom::on("tune-kernel-instead", "click", |_| start(Start::Tune));
}

/// Shows the card with the first starter in it, and enables its buttons now that `gpu` is open.
pub fn show(gpu: &Gpu) {
    if field("kernel-wgsl").value().is_empty() {
        load(FIRST_STARTER);
    }
    dom::set_hidden("your-kernel", false);
    set_busy(false, gpu.lost_reason().is_some());
    dom::spawn(list_built_in(gpu.info.limits.clone()));
}

/// Lists the built-in kernels a specification can say on a device of `limits` (their WGSL and a
/// specification that reproduces them), with turns between: writing out every one takes a while.
async fn list_built_in(limits: ComputeLimits) {
    let list: Element = by_id("kernel-built-in");
    for family in kernels::FAMILIES {
        for kernel in family.kernels() {
            if kernels::as_user_kernel(&kernel, &limits).is_some() {
                let option = append(&list, "option", "", &format!("{} ({})", kernel.label(), family.name()));
                option.set_attribute("value", &format!("{BUILT_IN}{}", kernel.label())).ok();
            }
            host::pause_if_due().await;
        }
    }
}

/// Disables Run and Auto-tune while the GPU is busy (or lost).
pub fn set_busy(busy: bool, lost: bool) {
    for id in ["run-kernel", "tune-kernel", "run-shared-kernel", "run-kernel-anyway", "tune-kernel-instead"] {
        by_id::<HtmlButtonElement>(id).set_disabled(busy || lost);
    }
    by_id::<HtmlButtonElement>("copy-kernel-link").set_disabled(false);
}

/// Opens a kernel from a link: in the fields, with the offer to run it on this device.
pub fn open(kernel: KernelText) {
    field("kernel-wgsl").set_value(&kernel.source);
    field("kernel-spec").set_value(&kernel.spec);
    show_form();
    #[derive(serde::Deserialize)]
    struct Named {
        name: String,
    }
    let name = serde_json::from_str::<Named>(&kernel.spec).map_or_else(|_| "a kernel".into(), |spec| spec.name);
    dom::set_text(
        "kernel-offer-text",
        &format!("Someone shared {name} with you: its WGSL and specification are below."),
    );
    dom::set_hidden("kernel-offer", false);
    dom::set_hidden("your-kernel", false);
    by_id::<Element>("kernel-fold").set_attribute("open", "").ok();
    // What the link is for comes first: above the device card, on the first screen at any width.
    let card: Element = by_id("your-kernel");
    by_id::<Element>("device").before_with_node_1(&card).ok();
}

/// Fetches starting point `index` from beside the page and loads it, or says why it could not.
async fn load_starter(index: usize) {
    let (title, file) = STARTERS[index];
    match dom::fetch_text(&format!("shaders/starters/{file}"), "GET", None).await {
        Ok((200, text)) => load(&text),
        fetched => {
            let why = fetched.map_or_else(|e| e, |(status, _)| format!("HTTP {status}"));
            let message = format!("\"{title}\" could not be fetched from beside the page ({why})");
            show_problems(&[Problem { place: "starting point".into(), message }]);
        }
    }
}

/// Puts the comments of the shader files back into a built-in kernel opened as yours (the page's build
/// holds its shaders without them, build.rs), once they come from beside the page, unless the WGSL was
/// changed meanwhile; where they cannot be fetched the kernel stays as it runs, without them.
async fn restore_comments(source: String) {
    let fetches = crate::kernel::SHADER_FILES
        .iter()
        .map(|name| async move { dom::fetch_text(&format!("shaders/{name}"), "GET", None).await });
    let originals: Vec<String> = futures_util::future::join_all(fetches)
        .await
        .into_iter()
        .filter_map(|fetched| match fetched {
            Ok((200, text)) => Some(text),
            _ => None,
        })
        .collect();
    let wgsl = spec::split_leading_spec(&source).map_or(source.as_str(), |(_, wgsl)| wgsl);
    let commented = crate::kernel::with_comments(wgsl, &originals);
    // The WGSL alone: the specification may have been changed meanwhile, and stays as it is.
    if commented != wgsl && field("kernel-wgsl").value() == wgsl {
        field("kernel-wgsl").set_value(&commented);
    }
}

/// The open device's limits, or WebGPU's defaults (what every device offers) before one is open.
fn device_limits() -> ComputeLimits {
    let open = state::with(|app| app.gpu.as_ref().map(|gpu| gpu.info.limits.clone()));
    open.unwrap_or_else(|| ComputeLimits::from_wgpu(&wgpu::Limits::default()))
}

fn field(id: &str) -> HtmlTextAreaElement {
    by_id(id)
}

/// Puts a WGSL file's specification (its leading comment) and the WGSL after it in the two fields.
fn load(source: &str) {
    let (spec, wgsl) = spec::split_leading_spec(source).unwrap_or(("", source));
    field("kernel-wgsl").set_value(wgsl);
    field("kernel-spec").set_value(spec.trim());
    show_form();
    show_problems(&[]);
}

/// A labelled text area for code: no spelling, no wrapping.
fn code_area(parent: &Element, id: &str, title: &str) {
    let field = append(parent, "label", "kernel-field", title);
    let area = append(&field, "textarea", "", "");
    area.set_id(id);
    for (name, value) in [("spellcheck", "false"), ("autocomplete", "off"), ("wrap", "off"), ("rows", "24")] {
        area.set_attribute(name, value).ok();
    }
}

/// The form's fields, each a part of the specification the common cases change: (id, label, hint).
/// The buffers stay in the JSON, which holds everything.
const FORM: [(&str, &str, &str); 10] = [
    ("name", "Name", "letters, digits, _ and -"),
    ("entry_point", "Entry point", "main (with passes: each pass's, in the JSON)"),
    ("sizes", "Problem sizes", "1048576, 4194304 (or w=4096 h=2048, …)"),
    ("tunables", "Tunables", "one a line: WG_X: 64 128 256"),
    ("restrictions", "Restrictions", "one a line: WG_X * WG_Y <= 256"),
    ("grid", "Grid", "x, y, z as expressions; empty: each size over the workgroup"),
    ("bytes", "Bytes a dispatch moves", "an expression; empty: every buffer once"),
    ("flops", "Flops a dispatch does", "an expression, for GFLOP/s"),
    ("reference", "Reference entry point", "empty: every configuration agrees with the first"),
    ("tolerance", "Tolerance", "1e-5"),
];

/// The form: a row for each of `FORM`, whose edits are written into the JSON at once.
fn build_form(parent: &Element) {
    let form = append(parent, "details", "spec-form", "");
    form.set_attribute("open", "").ok();
    append(&form, "summary", "", "Specification");
    for (id, label, hint) in FORM {
        let row = append(&form, "label", "", label);
        let multiline = matches!(id, "tunables" | "restrictions");
        let input = append(&row, if multiline { "textarea" } else { "input" }, "", "");
        input.set_id(&format!("spec-{id}"));
        for (name, value) in [("placeholder", hint), ("spellcheck", "false"), ("autocomplete", "off"), ("rows", "3")] {
            input.set_attribute(name, value).ok();
        }
        dom::listen(&input, "input", |_| apply_form());
    }
}

fn form_value(id: &str) -> String {
    match by_id::<Element>(&format!("spec-{id}")).dyn_into::<HtmlInputElement>() {
        Ok(input) => input.value(),
        Err(area) => area.unchecked_into::<HtmlTextAreaElement>().value(),
    }
}

fn set_form_value(id: &str, value: &str) {
    match by_id::<Element>(&format!("spec-{id}")).dyn_into::<HtmlInputElement>() {
        Ok(input) => input.set_value(value),
        Err(area) => area.unchecked_into::<HtmlTextAreaElement>().set_value(value),
    }
}

/// Fills the form from the JSON, where it reads as a specification (else leaves the form as it was).
fn show_form() {
    let Ok(spec) = serde_json::from_str::<Spec>(&field("kernel-spec").value()) else { return };
    let sizes: Vec<String> = spec
        .sizes
        .iter()
        .map(|size| match size.0.0.as_slice() {
            [(name, n)] if name == "n" => n.to_string(),
            dimensions => dimensions.iter().map(|(name, v)| format!("{name}={v}")).collect::<Vec<_>>().join(" "),
        })
        .collect();
    let tunables: Vec<String> = spec
        .tunables
        .0
        .iter()
        .map(|(name, values)| format!("{name}: {}", values.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")))
        .collect();
    let validation = &spec.validation;
    for (id, value) in [
        ("name", spec.name.clone()),
        // With passes, each names its own (in the JSON); the field stays empty.
        ("entry_point", if spec.passes.is_empty() { spec.entry_point.clone() } else { String::new() }),
        ("sizes", sizes.join(", ")),
        ("tunables", tunables.join("\n")),
        ("restrictions", spec.restrictions.join("\n")),
        ("grid", spec.grid.as_ref().map(|g| g.join(", ")).unwrap_or_default()),
        ("bytes", spec.bytes.clone().unwrap_or_default()),
        ("flops", spec.flops.clone().unwrap_or_default()),
        ("reference", validation.reference.clone().unwrap_or_default()),
        ("tolerance", validation.tolerance.map(|t| t.to_string()).unwrap_or_default()),
    ] {
        set_form_value(id, &value);
    }
}

/// Writes the form into the JSON (in the specification's own order), or names what stops it.
fn apply_form() {
    let area = field("kernel-spec");
    let problem = |place: &str, message: String| show_problems(&[Problem { place: place.into(), message }]);
    let mut spec = match serde_json::from_str::<Spec>(&area.value()) {
        Ok(spec) => spec,
        Err(e) => {
            return problem("spec", format!("{e}: the form changes the JSON once the JSON reads as a specification"));
        }
    };
    match read_form(&mut spec) {
        Ok(()) => {
            area.set_value(&serde_json::to_string_pretty(&spec).expect("a specification is plain data"));
            show_problems(&[]);
        }
        Err((id, message)) => problem(FORM.iter().find(|f| f.0 == id).map_or(id, |f| f.1), message),
    }
}

/// The comma-separated items of `text`, leaving the commas inside parentheses (`ceil_div(n, 64), 1`).
fn outer_items(text: &str) -> Vec<String> {
    let (mut items, mut item, mut depth) = (Vec::new(), String::new(), 0i32);
    for c in text.chars() {
        match c {
            ',' if depth == 0 => items.push(std::mem::take(&mut item).trim().to_string()),
            _ => {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                item.push(c);
            }
        }
    }
    items.push(item.trim().to_string());
    items
}

/// The form's values in `spec`, or the field that does not read and why.
fn read_form(spec: &mut Spec) -> Result<(), (&'static str, String)> {
    let text = |id: &str| form_value(id).trim().to_string();
    let optional = |id: &str| Some(text(id)).filter(|t| !t.is_empty());
    let number =
        |id: &'static str, word: &str| word.parse::<u64>().map_err(|_| (id, format!("`{word}` is not a whole number")));
    spec.name = text("name");
    spec.entry_point = match text("entry_point") {
        entry_point if entry_point.is_empty() && !spec.passes.is_empty() => "main".into(),
        entry_point => entry_point,
    };
    spec.sizes = Vec::new();
    for size in text("sizes").split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let dimensions = match size.contains('=') {
            false => vec![("n".to_string(), number("sizes", size)?)],
            true => size
                .split_whitespace()
                .map(|d| {
                    let (name, value) = d.split_once('=').ok_or(("sizes", format!("`{d}` is not name=value")))?;
                    Ok((name.to_string(), number("sizes", value)?))
                })
                .collect::<Result<_, _>>()?,
        };
        spec.sizes.push(Size(Ordered(dimensions)));
    }
    spec.tunables = Ordered::default();
    for line in text("tunables").lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (name, values) = line.split_once(':').ok_or(("tunables", format!("`{line}` is not NAME: values")))?;
        let values = values
            .split([' ', ','])
            .filter(|v| !v.is_empty())
            .map(|v| v.parse::<u32>().map_err(|_| ("tunables", format!("`{v}` is not a whole number"))))
            .collect::<Result<_, _>>()?;
        spec.tunables.0.push((name.trim().to_string(), values));
    }
    spec.restrictions = text("restrictions").lines().map(str::trim).filter(|l| !l.is_empty()).map(Into::into).collect();
    spec.grid = optional("grid").map(|grid| outer_items(&grid));
    spec.bytes = optional("bytes");
    spec.flops = optional("flops");
    spec.validation.reference = optional("reference");
    spec.validation.tolerance = match optional("tolerance") {
        // Read as JSON reads it: core's float parser would add its tables to the page.
        Some(t) => Some(serde_json::from_str(&t).map_err(|_| ("tolerance", format!("`{t}` is not a number")))?),
        None => None,
    };
    Ok(())
}

/// Lists the problems, each at its place; a WGSL line and column is a button that puts the cursor there.
fn show_problems(problems: &[Problem]) {
    let list: Element = by_id("kernel-problems");
    list.set_inner_html("");
    for problem in problems {
        let item = append(&list, "li", "", "");
        match wgsl_place(&problem.place) {
            Some((line, column)) => {
                let button = append(&item, "button", "link", &problem.place);
                dom::listen(&button, "click", move |_| put_cursor(line, column));
            }
            None => {
                append(&item, "strong", "", &problem.place);
            }
        }
        append(&item, "span", "", &format!(": {}", problem.message));
    }
}

/// The line and column of a "WGSL line 12, column 5" place.
fn wgsl_place(place: &str) -> Option<(usize, usize)> {
    let (line, column) = place.strip_prefix("WGSL line ")?.split_once(", column ")?;
    Some((line.parse().ok()?, column.parse().ok()?))
}

/// Selects the WGSL field's text at `line`, `column` (both from 1) and focuses it.
fn put_cursor(line: usize, column: usize) {
    let area = field("kernel-wgsl");
    let text = area.value();
    // The browser counts the selection in UTF-16 code units.
    let offset: usize = text.split('\n').take(line.saturating_sub(1)).map(|l| l.encode_utf16().count() + 1).sum();
    let at = (offset + column.saturating_sub(1)) as u32;
    area.focus().ok();
    area.set_selection_range(at, at + 1).ok();
}

/// What a button of the card asks for.
#[derive(Clone, Copy, PartialEq)]
enum Start {
    /// Run every configuration, unless that would take longer than `LONG_RUN_S`: then say so first.
    Run,
    /// Run every configuration, however long that takes.
    RunHoweverLong,
    Tune,
}

/// The longest a Run of a kernel starts for without saying first how long it would take, in seconds.
const LONG_RUN_S: f64 = 180.0;

/// Reads, registers and compiles the kernel in the fields, then asks the page to run or tune it.
fn start(start: Start) {
    dom::set_hidden("kernel-long", true);
    let Some(gpu) = state::with(|app| if app.busy { None } else { app.gpu.clone() }) else { return };
    let source = field("kernel-wgsl").value();
    let spec = field("kernel-spec").value();
    let family = match UserKernel::read(&source, Some(&spec)) {
        Ok(kernel) => kernels::register(kernel).map_err(|message| vec![Problem { place: "name".into(), message }]),
        Err(problems) => Err(problems),
    };
    let family = match family {
        Ok(family) => family,
        Err(problems) => return show_problems(&problems),
    };
    show_problems(&[]);
    dom::spawn(async move {
        let problems = kernels::user::compilation_problems(&gpu, family).await;
        if !problems.is_empty() {
            return show_problems(&problems);
        }
        let plan = plan(family);
        if start == Start::Run
            && let Some(text) = long_run(&gpu, &plan)
        {
            dom::set_text("kernel-long-text", &text);
            dom::set_hidden("kernel-long", false);
            return;
        }
        state::dispatch(if start == Start::Tune { Action::TunePlan(plan) } else { Action::RunPlan(plan) });
    });
}

/// What to say before a Run of `plan` that would take over `LONG_RUN_S` at this device's pace.
fn long_run(gpu: &Gpu, plan: &Plan) -> Option<String> {
    let planned = plan.configurations(&gpu.info.limits);
    let class = crate::estimate::class(Some(&dom::user_agent()), &gpu.info);
    let host_probe_ms = state::with(|app| app.host_probe_ms);
    let seconds = crate::estimate::of_planned(&planned, &class, storage::pace_on(&gpu.info.name()), host_probe_ms);
    let configurations = planned.len();
    if seconds <= LONG_RUN_S {
        return None;
    }
    let excluded: usize = plan.excluded(&gpu.info.limits).iter().map(|(_, count)| count).sum();
    let excluded = match excluded {
        0 => String::new(),
        n => format!(" (its restrictions leave out {n} more)"),
    };
    Some(format!(
        "This kernel has {configurations} configurations{excluded}: running every one would take {} on this \
         device. Auto-tune finds the best in a fraction of that time, measuring a few of them.",
        crate::estimate::about(seconds)
    ))
}

/// Every combination of the kernel, timed as a run is by default (`Plan::new`).
fn plan(family: &'static UserFamily) -> Plan {
    Plan::new(Kernel::all_of(family))
}
