//! Shortens the names under which the page's wasm imports its JavaScript glue. wasm-bindgen names each
//! import `__wbg_<name>_<16 hex digits of a hash>`: some 450 hashes written in both files, about 13 KB of
//! the page gzipped, since random digits do not compress. They become `a`, `b`, …, `Z`, `aa`, … in the
//! wasm's import section and in the glue's import object, where each name is written once, as a key.

use std::collections::HashMap;
use std::path::Path;

use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasm_encoder::{ImportSection, Section};
use wasmparser::{Chunk, Parser, Payload};

use crate::Result;

/// Renames every import of `wasm` and the same key of `js`'s import object; says how many.
pub fn shorten(wasm: &Path, js: &Path) -> Result<usize> {
    let read = |path: &Path| std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()));
    let module = read(wasm)?;
    let glue = String::from_utf8(read(js)?).map_err(|e| format!("{}: {e}", js.display()))?;
    let (module, renamed) = rename_imports(&module).map_err(|e| format!("{}: {e}", wasm.display()))?;
    let glue = rename_keys(&glue, &renamed).map_err(|e| format!("{}: {e}", js.display()))?;
    std::fs::write(wasm, module).map_err(|e| format!("{}: {e}", wasm.display()))?;
    std::fs::write(js, glue).map_err(|e| format!("{}: {e}", js.display()))?;
    Ok(renamed.len())
}

/// The module with its import section written again under short names, and each old name's new one.
fn rename_imports(module: &[u8]) -> Result<(Vec<u8>, HashMap<String, String>)> {
    let mut parser = Parser::new(0);
    let mut offset = 0;
    loop {
        let chunk = parser.parse(&module[offset..], true).map_err(|e| e.to_string())?;
        let Chunk::Parsed { consumed, payload } = chunk else {
            return Err("the module ends early".into());
        };
        match payload {
            Payload::ImportSection(reader) => {
                let mut section = ImportSection::new();
                let mut renamed = HashMap::new();
                for (index, import) in reader.into_imports().enumerate() {
                    let import = import.map_err(|e| e.to_string())?;
                    let short = short_name(index);
                    let ty = RoundtripReencoder.entity_type(import.ty).map_err(|e| e.to_string())?;
                    section.import(import.module, &short, ty);
                    if renamed.insert(import.name.to_string(), short).is_some() {
                        return Err(format!("`{}` is imported twice", import.name));
                    }
                }
                let mut rewritten = module[..offset].to_vec();
                section.append_to(&mut rewritten);
                rewritten.extend_from_slice(&module[offset + consumed..]);
                return Ok((rewritten, renamed));
            }
            Payload::End(_) => return Err("the module imports nothing: has wasm-bindgen's output changed?".into()),
            _ => offset += consumed,
        }
    }
}

/// `js` with each old name, written once as a key (`name:`), under its new one.
fn rename_keys(js: &str, renamed: &HashMap<String, String>) -> Result<String> {
    let is_identifier = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(js.len());
    let mut seen = HashMap::new();
    let mut rest = js;
    while let Some(start) = rest.find(is_identifier) {
        out.push_str(&rest[..start]);
        let end = rest[start..].find(|c| !is_identifier(c)).map_or(rest.len(), |n| start + n);
        let word = &rest[start..end];
        match renamed.get(word) {
            Some(short) if rest[end..].starts_with(':') => {
                *seen.entry(word).or_insert(0) += 1;
                out.push_str(short);
            }
            Some(_) => return Err(format!("`{word}` is written other than as the import object's key")),
            None => out.push_str(word),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    match renamed.keys().find(|name| seen.get(name.as_str()) != Some(&1)) {
        Some(name) => Err(format!("`{name}` is not one key of the import object: has wasm-bindgen's output changed?")),
        None => Ok(out),
    }
}

/// `a` … `Z`, then two letters, and so on: a distinct JavaScript identifier for each index.
fn short_name(mut index: usize) -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut name = String::new();
    loop {
        name.push(LETTERS[index % LETTERS.len()] as char);
        index /= LETTERS.len();
        if index == 0 {
            return name;
        }
        index -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module importing `names` from `./glue.js`, each `(func (param i32))`, with a function calling each.
    fn module_importing(names: &[&str]) -> Vec<u8> {
        use wasm_encoder::{
            CodeSection, EntityType, Function, FunctionSection, Instruction, Module, TypeSection, ValType,
        };
        let mut types = TypeSection::new();
        types.ty().function([ValType::I32], []);
        let mut imports = ImportSection::new();
        for name in names {
            imports.import("./glue.js", name, EntityType::Function(0));
        }
        let mut functions = FunctionSection::new();
        functions.function(0);
        let mut body = Function::new([]);
        for index in 0..names.len() as u32 {
            body.instruction(&Instruction::LocalGet(0)).instruction(&Instruction::Call(index));
        }
        body.instruction(&Instruction::End);
        let mut code = CodeSection::new();
        code.function(&body);
        let mut module = Module::new();
        module.section(&types).section(&imports).section(&functions).section(&code);
        module.finish()
    }

    #[test]
    fn short_names_are_distinct_identifiers() {
        let names: Vec<String> = (0..52 * 53 + 10).map(short_name).collect();
        let distinct: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
        assert_eq!((names[0].as_str(), names[51].as_str(), names[52].as_str()), ("a", "Z", "aa"));
        assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_alphabetic())));
    }

    #[test]
    fn a_module_and_its_glue_are_renamed_alike() {
        let module = module_importing(&["__wbg_log_0123456789abcdef", "__wbindgen_init_externref_table"]);
        let (module, renamed) = rename_imports(&module).unwrap();
        let imports: Vec<(String, String)> = Parser::new(0)
            .parse_all(&module)
            .find_map(|payload| match payload.unwrap() {
                Payload::ImportSection(reader) => {
                    Some(reader.into_imports().map(|i| i.unwrap()).map(|i| (i.module.into(), i.name.into())).collect())
                }
                _ => None,
            })
            .unwrap();
        assert_eq!(imports, [("./glue.js".into(), "a".into()), ("./glue.js".into(), "b".into())]);
        let code = |module: &[u8]| {
            Parser::new(0).parse_all(module).find_map(|payload| match payload.unwrap() {
                Payload::CodeSectionStart { range, .. } => Some(module[range].to_vec()),
                _ => None,
            })
        };
        assert_eq!(code(&module), code(&module_importing(&["a", "b"])), "the rest of the module is as it was");

        let glue = "{__proto__:null,\"./glue.js\":{__proto__:null,__wbg_log_0123456789abcdef:function(e){console.log(e)},\
                    __wbindgen_init_externref_table:function(){}}}";
        let glue = rename_keys(glue, &renamed).unwrap();
        assert_eq!(
            glue,
            "{__proto__:null,\"./glue.js\":{__proto__:null,a:function(e){console.log(e)},b:function(){}}}"
        );
        assert!(rename_keys("x.__wbg_log_0123456789abcdef(1)", &renamed).is_err(), "a use other than the key");
        assert!(rename_keys("{}", &renamed).is_err(), "a missing key");
    }
}
