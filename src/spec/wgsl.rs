//! What the WGSL declares that a specification refers to, read from its text (comments left out): its
//! overrides and their types, its bindings and their types, its structs, and its entry points with the
//! globals each one uses. The page has no WGSL compiler of its own (naga would double its download), so
//! this reads the module-scope declarations as the WGSL grammar writes them; the compiler then judges the rest.

use std::collections::{BTreeMap, BTreeSet};

use super::schema::Scalar;

/// A type as a declaration writes it, as far as a specification needs it.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Scalar(Scalar),
    Vector(u64, Scalar),
    /// Columns, rows and the element.
    Matrix(u64, u64, Scalar),
    /// The element and its count (`None`: sized at run time).
    Array(Box<Type>, Option<u64>),
    Atomic(Scalar),
    /// A struct or an alias, by name.
    Named(String),
    /// Anything else (bool, textures, samplers, pointers), as written.
    Other(String),
}

/// Where a binding's variable lives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Space {
    Storage {
        read_write: bool,
    },
    Uniform,
    /// Textures and samplers.
    Handle,
}

/// A `@group(G) @binding(B) var` of the module.
#[derive(Clone, Debug)]
pub struct Binding {
    pub group: u32,
    pub binding: u32,
    pub name: String,
    pub space: Space,
    pub ty: Type,
    /// The type as written (`array<vec4<f32>>`), for messages.
    pub type_text: String,
}

/// A struct member, with its `@align` and `@size` where written.
#[derive(Clone, Debug)]
pub struct Member {
    pub name: String,
    pub ty: Type,
    pub align: Option<u64>,
    pub size: Option<u64>,
}

/// What the WGSL declares that a specification refers to, found in its text (comments left out).
#[derive(Debug, Default)]
pub struct Declarations {
    /// Each override with its type where the declaration gives one or its initializer shows one.
    pub overrides: BTreeMap<String, Option<Scalar>>,
    /// The overrides whose initializer is a whole number (`override WG_X: u32 = 64;`): the kernel's own
    /// defaults, which the auto-tuner measures its choice against.
    pub override_defaults: BTreeMap<String, u64>,
    pub bindings: Vec<Binding>,
    pub structs: BTreeMap<String, Vec<Member>>,
    pub aliases: BTreeMap<String, Type>,
    pub entry_points: BTreeSet<String>,
    /// The variables whose `arrayLength` the code reads (`arrayLength(&out)`): their bounds come from
    /// their binding's size.
    pub length_read: BTreeSet<String>,
    /// The extensions its `enable` directives name (`enable subgroups;`): features the device must offer.
    pub enables: BTreeSet<String>,
    /// Module-scope integer constants (`const N = 64u;`), as array counts use them.
    constants: BTreeMap<String, u64>,
    /// The identifiers each function's body names.
    functions: BTreeMap<String, BTreeSet<String>>,
}

impl Declarations {
    pub fn of(source: &str) -> Declarations {
        let code = without_comments(source);
        let tokens = tokens(&code);
        let mut reader = Reader { tokens: &tokens, at: 0, found: Declarations::default() };
        reader.module();
        reader.found
    }

    /// The names of the overrides, for messages.
    pub fn override_names(&self) -> BTreeSet<String> {
        self.overrides.keys().cloned().collect()
    }

    /// The binding at `@group(group) @binding(binding)`.
    pub fn binding(&self, group: u32, binding: u32) -> Option<&Binding> {
        self.bindings.iter().find(|b| b.group == group && b.binding == binding)
    }

    /// The bindings `entry_point` uses, itself or through the functions it calls.
    pub fn used_by(&self, entry_point: &str) -> Vec<&Binding> {
        let mut seen = BTreeSet::new();
        let mut named = BTreeSet::new();
        let mut pending = vec![entry_point.to_string()];
        while let Some(function) = pending.pop() {
            if !seen.insert(function.clone()) {
                continue;
            }
            for name in self.functions.get(&function).into_iter().flatten() {
                if self.functions.contains_key(name) {
                    pending.push(name.clone());
                }
                named.insert(name.as_str());
            }
        }
        self.bindings.iter().filter(|b| named.contains(b.name.as_str())).collect()
    }

    /// `ty` with its aliases resolved.
    pub fn resolve<'a>(&'a self, ty: &'a Type) -> &'a Type {
        match ty {
            Type::Named(name) => self.aliases.get(name).map_or(ty, |aliased| self.resolve(aliased)),
            _ => ty,
        }
    }
}

/// Reads module-scope declarations from the tokens, skipping what a specification does not refer to.
struct Reader<'t> {
    tokens: &'t [&'t str],
    at: usize,
    found: Declarations,
}

impl<'t> Reader<'t> {
    fn peek(&self, ahead: usize) -> &'t str {
        self.tokens.get(self.at + ahead).copied().unwrap_or("")
    }

    /// The next token, "" past the end (where the reader stays, so that every slice from it holds).
    fn next(&mut self) -> &'t str {
        let token = self.peek(0);
        self.at = (self.at + 1).min(self.tokens.len());
        token
    }

    /// Moves past `token` where it is next.
    fn eat(&mut self, token: &str) -> bool {
        let there = self.peek(0) == token;
        self.at += usize::from(there);
        there
    }

    /// The tokens up to the closing one that matches the opening just read (nested pairs skipped).
    fn until_closed(&mut self, open: &str, close: &str) -> &'t [&'t str] {
        let start = self.at;
        let mut depth = 1;
        while self.at < self.tokens.len() {
            let token = self.next();
            depth += i32::from(token == open) - i32::from(token == close);
            if depth == 0 {
                return &self.tokens[start..self.at - 1];
            }
        }
        &self.tokens[start..]
    }

    /// The tokens up to (not including) one of `ends` outside any () or [] pair, and outside any <> pair
    /// where a comma ends them (a member's type, `array<f32, 4>`; elsewhere `<` and `>` may be operators
    /// or an arrow's head).
    fn until_any(&mut self, ends: &[&str]) -> &'t [&'t str] {
        let start = self.at;
        let angles = ends.contains(&",");
        let mut depth = 0;
        while self.at < self.tokens.len() {
            let token = self.peek(0);
            if depth == 0 && ends.contains(&token) {
                break;
            }
            let opens = matches!(token, "(" | "[") || (angles && token == "<");
            let closes = matches!(token, ")" | "]") || (angles && token == ">");
            depth += i32::from(opens) - i32::from(closes);
            self.at += 1;
        }
        &self.tokens[start..self.at]
    }

    fn module(&mut self) {
        let mut attributes: Vec<(&str, &[&str])> = Vec::new();
        while self.at < self.tokens.len() {
            let token = self.next();
            if let Some(name) = token.strip_prefix('@').filter(|n| !n.is_empty()) {
                let arguments = if self.eat("(") { self.until_closed("(", ")") } else { &[] };
                attributes.push((name, arguments));
                continue;
            }
            match token {
                "struct" => self.structure(),
                "var" => self.variable(&attributes),
                "override" => self.override_declaration(),
                "const" => self.constant(),
                "alias" => {
                    let name = self.next().to_string();
                    self.eat("=");
                    let ty = self.until_any(&[";"]);
                    self.found.aliases.insert(name, self.type_of(ty));
                }
                "fn" => self.function(attributes.iter().any(|(name, _)| *name == "compute")),
                "enable" => {
                    let names = self.until_any(&[";"]);
                    self.found.enables.extend(names.iter().filter(|&&n| n != ",").map(|n| n.to_string()));
                }
                _ => {}
            }
            attributes.clear();
        }
    }

    fn structure(&mut self) {
        let name = self.next().to_string();
        self.eat("{");
        let body = self.until_closed("{", "}");
        let mut inner = Reader { tokens: body, at: 0, found: Declarations::default() };
        let mut members = Vec::new();
        while inner.at < body.len() {
            let (mut align, mut size) = (None, None);
            while let Some(attribute) = inner.peek(0).strip_prefix('@') {
                inner.next();
                let arguments = if inner.eat("(") { inner.until_closed("(", ")") } else { &[] };
                let number = arguments.first().and_then(|n| self.integer(n));
                match attribute {
                    "align" => align = number,
                    "size" => size = number,
                    _ => {}
                }
            }
            let member = inner.next().to_string();
            inner.eat(":");
            let ty = inner.until_any(&[","]);
            inner.eat(",");
            if !member.is_empty() {
                members.push(Member { name: member, ty: self.type_of(ty), align, size });
            }
        }
        self.found.structs.insert(name, members);
    }

    fn variable(&mut self, attributes: &[(&str, &[&str])]) {
        let mut space = Space::Handle;
        if self.eat("<") {
            let qualifiers = self.until_closed("<", ">");
            space = match qualifiers.first().copied() {
                Some("storage") => Space::Storage { read_write: qualifiers.contains(&"read_write") },
                Some("uniform") => Space::Uniform,
                _ => return, // private, workgroup: no binding
            };
        }
        let name = self.next().to_string();
        self.eat(":");
        let ty = self.until_any(&[";", "="]);
        let number = |attribute: &str| {
            let (_, arguments) = attributes.iter().find(|(name, _)| *name == attribute)?;
            self.integer(arguments.first()?).and_then(|n| u32::try_from(n).ok())
        };
        if let (Some(group), Some(binding)) = (number("group"), number("binding")) {
            let (type_text, ty) = (text_of(ty), self.type_of(ty));
            self.found.bindings.push(Binding { group, binding, name, space, ty, type_text });
        }
    }

    fn override_declaration(&mut self) {
        let name = self.next().to_string();
        let declared = if self.eat(":") { Some(self.until_any(&[";", "="])) } else { None };
        let initializer = if self.eat("=") { self.until_any(&[";"]) } else { &[] };
        let scalar = match declared.map(|ty| self.type_of(ty)) {
            Some(Type::Scalar(scalar)) => Some(scalar),
            Some(_) => None,
            None => {
                let at = initializer.iter().position(|t| !matches!(*t, "-" | "("));
                at.and_then(|at| literal_type(initializer[at], initializer.get(at + 1).copied()))
            }
        };
        if let [literal] = initializer
            && let Some(value) = self.integer(literal)
        {
            self.found.override_defaults.insert(name.clone(), value);
        }
        self.found.overrides.insert(name, scalar);
    }

    fn constant(&mut self) {
        let name = self.next().to_string();
        self.until_any(&["="]);
        self.eat("=");
        let value = self.until_any(&[";"]);
        if let [literal] = value
            && let Some(value) = self.integer(literal)
        {
            self.found.constants.insert(name, value);
        }
    }

    fn function(&mut self, entry_point: bool) {
        let name = self.next().to_string();
        self.until_any(&["{"]);
        self.eat("{");
        let body = self.until_closed("{", "}");
        for window in body.windows(4) {
            if let ["arrayLength", "(", "&", name] = window {
                self.found.length_read.insert(name.to_string());
            }
        }
        let words = body.iter().filter(|t| t.starts_with(|c: char| c.is_alphabetic() || c == '_'));
        self.found.functions.insert(name.clone(), words.map(|w| w.to_string()).collect());
        if entry_point {
            self.found.entry_points.insert(name);
        }
    }

    /// An integer literal (`64`, `64u`, `0x40`) or a module constant's name.
    fn integer(&self, token: &str) -> Option<u64> {
        let digits = token.trim_end_matches(['u', 'i']);
        let parsed = match digits.strip_prefix("0x").or(digits.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => digits.parse().ok(),
        };
        parsed.or_else(|| self.found.constants.get(token).copied())
    }

    /// The type the tokens write.
    fn type_of(&self, tokens: &[&str]) -> Type {
        let arguments: Vec<&[&str]> = match tokens {
            [_, "<", inner @ .., ">"] => split_outside_pairs(inner),
            _ => Vec::new(),
        };
        let scalar_argument = || match arguments.first().map(|a| self.type_of(a)) {
            Some(Type::Scalar(scalar)) => Some(scalar),
            _ => None,
        };
        let head = tokens.first().copied().unwrap_or("");
        let shaped = match head {
            _ if tokens.len() == 1 && scalar(head).is_some() => scalar(head).map(Type::Scalar),
            "atomic" => scalar_argument().map(Type::Atomic),
            "array" => arguments.first().map(|element| {
                let count = arguments.get(1).and_then(|count| count.first()).and_then(|c| self.integer(c));
                Type::Array(Box::new(self.type_of(element)), count)
            }),
            _ => vector_or_matrix(head, tokens.len() == 1, scalar_argument()),
        };
        shaped.unwrap_or_else(|| match tokens {
            [name] if name.starts_with(|c: char| c.is_alphabetic() || c == '_') => Type::Named(name.to_string()),
            _ => Type::Other(text_of(tokens)),
        })
    }
}

/// A scalar type's name.
fn scalar(name: &str) -> Option<Scalar> {
    match name {
        "f32" => Some(Scalar::F32),
        "u32" => Some(Scalar::U32),
        "i32" => Some(Scalar::I32),
        "f16" => Some(Scalar::F16),
        _ => None,
    }
}

/// `vec4<f32>`, `vec4f`, `mat4x4<f32>`, `mat3x2h`: `alone` where no `<…>` follows the name, whose last
/// letter is then the element's.
fn vector_or_matrix(name: &str, alone: bool, argument: Option<Scalar>) -> Option<Type> {
    let (shape, element) = match alone {
        true => {
            let suffix = name.chars().last()?;
            (&name[..name.len() - suffix.len_utf8()], suffix_type(suffix)?)
        }
        false => (name, argument?),
    };
    let lanes = |text: &str| text.parse::<u64>().ok().filter(|n| (2..=4).contains(n));
    if let Some(vector) = shape.strip_prefix("vec") {
        return Some(Type::Vector(lanes(vector)?, element));
    }
    let (columns, rows) = shape.strip_prefix("mat")?.split_once('x')?;
    Some(Type::Matrix(lanes(columns)?, lanes(rows)?, element))
}

/// The scalar a literal's or a short type name's suffix names.
fn suffix_type(suffix: char) -> Option<Scalar> {
    match suffix {
        'f' => Some(Scalar::F32),
        'u' => Some(Scalar::U32),
        'i' => Some(Scalar::I32),
        'h' => Some(Scalar::F16),
        _ => None,
    }
}

/// The type an override's initializer shows by its first literal (`64u`, `-2i`, `1.5`, `0.5f`, `2h`; a
/// plain integer is i32); `next` is the token after it (the tokenizer splits `1.5` at its point).
fn literal_type(literal: &str, next: Option<&str>) -> Option<Scalar> {
    if !literal.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let hex = literal.starts_with("0x") || literal.starts_with("0X");
    match literal.chars().last()? {
        'f' | 'h' if hex => Some(Scalar::I32),
        suffix @ ('u' | 'i' | 'f' | 'h') => suffix_type(suffix),
        _ if next == Some(".") || (!hex && literal.contains(['e', 'E'])) => Some(Scalar::F32),
        _ => Some(Scalar::I32),
    }
}

/// The comma-separated parts of a type's arguments (`vec4<f32>, 4`), commas inside `<…>` kept.
fn split_outside_pairs<'a>(tokens: &'a [&'a str]) -> Vec<&'a [&'a str]> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, token) in tokens.iter().enumerate() {
        match *token {
            "<" => depth += 1,
            ">" => depth -= 1,
            "," if depth == 0 => {
                parts.push(&tokens[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&tokens[start..]);
    parts.retain(|part| !part.is_empty());
    parts
}

/// Tokens written back as text (`array<vec4<f32>, 4>`).
fn text_of(tokens: &[&str]) -> String {
    tokens.iter().map(|t| if *t == "," { ", " } else { t }).collect()
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
