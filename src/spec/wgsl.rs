//! What the WGSL declares that a specification refers to, read from its text (comments left out): its
//! overrides, storage bindings and entry points.

use std::collections::BTreeSet;

/// What the WGSL declares that a specification refers to, found in its text (comments left out).
#[derive(Debug, Default)]
pub struct Declarations {
    pub overrides: BTreeSet<String>,
    /// Each storage binding of group 0: its number, name and whether it is `read_write`.
    pub bindings: Vec<(u32, String, bool)>,
    pub entry_points: BTreeSet<String>,
}

impl Declarations {
    pub fn of(source: &str) -> Declarations {
        let code = without_comments(source);
        let tokens = tokens(&code);
        let mut found = Declarations::default();
        for (i, &token) in tokens.iter().enumerate() {
            let next = |k: usize| tokens.get(i + k).copied().unwrap_or("");
            match token {
                "override" => {
                    found.overrides.insert(next(1).to_string());
                }
                "@compute" => {
                    if let Some(at) = tokens[i..].iter().position(|&t| t == "fn") {
                        found.entry_points.insert(tokens.get(i + at + 1).copied().unwrap_or("").to_string());
                    }
                }
                "var" => {
                    // The attributes since the last declaration: @group(0) @binding(N), in either order.
                    let from = tokens[..i].iter().rposition(|&t| t == ";" || t == "}").map_or(0, |at| at + 1);
                    let attributes = &tokens[from..i];
                    let number = |name: &str| {
                        let at = attributes.iter().position(|&t| t == name)?;
                        attributes.get(at + 2)?.parse::<u32>().ok()
                    };
                    let (Some(0), Some(binding)) = (number("@group"), number("@binding")) else { continue };
                    if next(1) != "<" || next(2) != "storage" {
                        continue;
                    }
                    let close = tokens[i..].iter().position(|&t| t == ">").unwrap_or(0);
                    let read_write = tokens[i..i + close].contains(&"read_write");
                    found.bindings.push((
                        binding,
                        tokens.get(i + close + 1).copied().unwrap_or("").to_string(),
                        read_write,
                    ));
                }
                _ => {}
            }
        }
        found
    }
}

/// The source with its comments blanked out (line breaks kept).
fn without_comments(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    let mut depth = 0;
    while let Some(c) = chars.next() {
        match (c, chars.peek().copied()) {
            ('/', Some('*')) => {
                chars.next();
                depth += 1;
                out.push_str("  ");
            }
            ('*', Some('/')) if depth > 0 => {
                chars.next();
                depth -= 1;
                out.push_str("  ");
            }
            ('/', Some('/')) if depth == 0 => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            (c, _) if depth > 0 => out.push(if c == '\n' { '\n' } else { ' ' }),
            (c, _) => out.push(c),
        }
    }
    out
}

/// Identifiers (with a leading `@` for attributes), numbers and single punctuation characters.
fn tokens(code: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (i, c) in code.char_indices() {
        let word = c.is_alphanumeric() || c == '_' || (c == '@' && start.is_none());
        match (word, start) {
            (true, None) => start = Some(i),
            (true, Some(_)) => {}
            (false, Some(s)) => {
                tokens.push(&code[s..i]);
                start = None;
            }
            (false, None) => {}
        }
        if !word && !c.is_whitespace() {
            tokens.push(&code[i..i + c.len_utf8()]);
        }
    }
    if let Some(s) = start {
        tokens.push(&code[s..]);
    }
    tokens
}
