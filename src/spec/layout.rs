//! Where each value of a uniform lives in its buffer: WGSL's memory layout (the WGSL specification's
//! "Memory Layout": alignment and size of scalars, vectors, matrices, arrays and structs, with members'
//! `@align` and `@size`), computed from the declarations so that nobody writes padding by hand. The native
//! tests hold it equal to naga's layouter.

use super::schema::Scalar;
use super::wgsl::{Declarations, Type};

/// A type's alignment and size in bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub align: u64,
    pub size: u64,
}

/// One value a person gives: a scalar, a vector, a matrix or an array of them, by its path (`scale`,
/// `light.color`, `lights[1].color`), with the byte offset of each of its scalars in order (a matrix's
/// column by column).
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    pub path: String,
    pub scalar: Scalar,
    pub offsets: Vec<u64>,
}

fn round_up(align: u64, value: u64) -> u64 {
    value.div_ceil(align) * align
}

/// The alignment and size of `ty`; a runtime-sized array has its element's stride as its size.
pub fn layout(declared: &Declarations, ty: &Type) -> Result<Layout, String> {
    let vector = |lanes: u64, scalar: Scalar| Layout {
        align: if lanes == 2 { 2 } else { 4 } * scalar.bytes(),
        size: lanes * scalar.bytes(),
    };
    Ok(match declared.resolve(ty) {
        Type::Scalar(scalar) | Type::Atomic(scalar) => Layout { align: scalar.bytes(), size: scalar.bytes() },
        Type::Vector(lanes, scalar) => vector(*lanes, *scalar),
        Type::Matrix(columns, rows, scalar) => {
            let column = vector(*rows, *scalar);
            Layout { align: column.align, size: columns * round_up(column.align, column.size) }
        }
        Type::Array(element, count) => {
            let element = layout(declared, element)?;
            let stride = round_up(element.align, element.size);
            Layout { align: element.align, size: count.unwrap_or(1) * stride }
        }
        Type::Named(name) => {
            let (members, end) = members(declared, name)?;
            let align = members.iter().map(|(_, layout)| layout.align).max().unwrap_or(1);
            Layout { align, size: round_up(align, end) }
        }
        Type::Other(text) => return Err(format!("`{text}` has no layout in memory a value can be written to")),
    })
}

/// A struct's members, each at its offset with its own layout (`@align`, `@size` applied), and where the
/// last one ends.
fn members(declared: &Declarations, name: &str) -> Result<(Vec<(u64, Layout)>, u64), String> {
    let members = declared.structs.get(name).ok_or_else(|| format!("`{name}` is not a struct the WGSL declares"))?;
    let mut placed = Vec::new();
    let mut end = 0;
    for member in members {
        let natural = layout(declared, &member.ty)?;
        let own = Layout { align: member.align.unwrap_or(natural.align), size: member.size.unwrap_or(natural.size) };
        let offset = round_up(own.align, end);
        end = offset + own.size;
        placed.push((offset, own));
    }
    Ok((placed, end))
}

/// Where the runtime-sized array a struct ends in starts, and its element: a storage buffer of a struct of
/// a count and its items (`struct Particles { count: u32, items: array<Particle> }`).
pub fn runtime_array<'a>(declared: &'a Declarations, name: &str) -> Option<(u64, &'a Type)> {
    let (placed, _) = members(declared, name).ok()?;
    let last = declared.structs.get(name)?.last()?;
    match declared.resolve(&last.ty) {
        Type::Array(element, None) => Some((placed.last()?.0, element)),
        _ => None,
    }
}

/// Every value of a variable of type `ty` at `offset`, named from `path` (a struct's members by their own
/// names where `path` is empty).
pub fn leaves(declared: &Declarations, ty: &Type, path: &str, offset: u64) -> Result<Vec<Leaf>, String> {
    let join = |name: &str| if path.is_empty() { name.to_string() } else { format!("{path}.{name}") };
    let leaf = |scalar: Scalar, offsets: Vec<u64>| vec![Leaf { path: path.to_string(), scalar, offsets }];
    let lanes = |lanes: u64, scalar: Scalar, at: u64| (0..lanes).map(move |k| at + k * scalar.bytes());
    Ok(match declared.resolve(ty) {
        Type::Scalar(scalar) => leaf(*scalar, vec![offset]),
        Type::Vector(count, scalar) => leaf(*scalar, lanes(*count, *scalar, offset).collect()),
        Type::Matrix(columns, rows, scalar) => {
            let column = layout(declared, &Type::Vector(*rows, *scalar))?.align;
            let offsets = (0..*columns).flat_map(|c| lanes(*rows, *scalar, offset + c * column)).collect();
            leaf(*scalar, offsets)
        }
        Type::Array(element, Some(count)) => {
            let stride = {
                let element = layout(declared, element)?;
                round_up(element.align, element.size)
            };
            let first = leaves(declared, element, path, offset)?;
            match first.as_slice() {
                // An array of scalars, vectors or matrices is one value: a list of them all.
                [single] if single.path == path => {
                    let offsets = (0..*count).flat_map(|i| single.offsets.iter().map(move |o| o + i * stride));
                    leaf(single.scalar, offsets.collect())
                }
                // An array of structs: each element's members by index.
                _ => {
                    let mut all = Vec::new();
                    for i in 0..*count {
                        all.extend(leaves(declared, element, &format!("{path}[{i}]"), offset + i * stride)?);
                    }
                    all
                }
            }
        }
        Type::Named(name) => {
            let (placed, _) = members(declared, name)?;
            let mut all = Vec::new();
            for (member, (at, _)) in declared.structs[name.as_str()].iter().zip(placed) {
                all.extend(leaves(declared, &member.ty, &join(&member.name), offset + at)?);
            }
            all
        }
        Type::Array(_, None) => return Err("a runtime-sized array has no fixed number of values".into()),
        Type::Atomic(_) | Type::Other(_) => {
            return Err(format!("`{path}` is not a number, a vector, a matrix, an array or a struct of them"));
        }
    })
}
