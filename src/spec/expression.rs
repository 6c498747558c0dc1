//! The specification's expressions, evaluated by `nanoexpr` in 64-bit integers, and the problems that name
//! the place they concern.

use std::fmt;

use nanoexpr::{ErrorKind, Functions, Variables};

/// A problem that names the place in the specification it concerns ("buffers[2].length", "line 4,
/// column 7" of the WGSL) and says what is wrong there.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub place: String,
    pub message: String,
}

impl Problem {
    pub(super) fn at(place: impl Into<String>, message: impl Into<String>) -> Self {
        Problem { place: place.into(), message: message.into() }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

/// An expression of the specification: integers, the size's dimensions and the tunables as variables, the
/// operators `+ - * / %` (integer division and remainder), comparisons, `&& || !` and `c ? a : b`, and the
/// functions `ceil_div(a, b)`, `min(a, b)` and `max(a, b)`.
#[derive(Clone, Debug)]
pub struct Expression {
    /// Where it stands in the specification ("grid[0]").
    pub place: String,
    pub text: String,
}

/// The values of the variables at one configuration: the size's dimensions, then the tunables.
pub type Values = Vec<(String, i64)>;

/// The functions an expression may call.
fn call(name: &str, arguments: &[i64]) -> Option<Result<i64, ErrorKind>> {
    let &[a, b] = arguments else {
        return ["ceil_div", "min", "max"].contains(&name).then_some(Err(ErrorKind::ArgumentCount));
    };
    match name {
        "ceil_div" if b == 0 => Some(Err(ErrorKind::DivisionByZero)),
        "ceil_div" => Some(Ok(a.div_euclid(b) + i64::from(a.rem_euclid(b) != 0))),
        "min" => Some(Ok(a.min(b))),
        "max" => Some(Ok(a.max(b))),
        _ => None,
    }
}

impl Expression {
    /// Checks `text` at once for what no value of the variables mends: its syntax, names that are neither
    /// among `known` nor a function (arithmetic is checked at every combination, `check_combinations`).
    pub(super) fn parse(place: String, text: &str, known: &[&str]) -> Result<Expression, Problem> {
        let probe: Values = known.iter().map(|name| (name.to_string(), 1)).collect();
        let expression = Expression { place, text: text.into() };
        match expression.evaluate(&probe) {
            Err(error) if error.kind == ErrorKind::UnknownVariable => {
                let name = &text[error.span.start..error.span.end];
                let message =
                    format!("`{text}` names `{name}`, which is neither a size nor a tunable ({})", known.join(", "));
                Err(Problem::at(&expression.place, message))
            }
            Err(error) if !matches!(error.kind, ErrorKind::DivisionByZero | ErrorKind::Overflow) => {
                let at = &text[error.span.start.min(text.len())..error.span.end.min(text.len())];
                Err(Problem::at(&expression.place, format!("`{text}`: {} at `{at}`", error.kind)))
            }
            _ => Ok(expression),
        }
    }

    fn evaluate(&self, values: &Values) -> Result<i64, nanoexpr::Error> {
        let variables = Variables(|name: &str| values.iter().find(|(n, _)| n == name).map(|(_, v)| *v));
        let context = (variables, Functions(call));
        nanoexpr::evaluate_with(&self.text, &context)
    }

    pub(super) fn failed(&self, values: &Values, error: impl fmt::Display) -> Problem {
        let at: Vec<String> = values.iter().map(|(n, v)| format!("{n}={v}")).collect();
        Problem::at(&self.place, format!("`{}` at {}: {error}", self.text, at.join(", ")))
    }

    /// Its value as a count: a whole number from 0 up to 2^53 (what a result's figures hold exactly).
    pub fn count(&self, values: &Values) -> Result<u64, Problem> {
        let value = self.evaluate(values).map_err(|e| self.failed(values, e.kind))?;
        u64::try_from(value)
            .ok()
            .filter(|&v| v <= 1 << 53)
            .ok_or_else(|| self.failed(values, format!("{value} is not a count from 0 to 2^53")))
    }

    /// Its value, a whole number of either sign (a uniform's field).
    pub fn value(&self, values: &Values) -> Result<i64, Problem> {
        self.evaluate(values).map_err(|e| self.failed(values, e.kind))
    }

    /// Whether a restriction holds (a value other than 0).
    pub fn holds(&self, values: &Values) -> Result<bool, Problem> {
        self.evaluate(values).map(|v| v != 0).map_err(|e| self.failed(values, e.kind))
    }

    /// The variables it names: the words of its text that are neither numbers nor functions.
    pub(super) fn variables(&self) -> impl Iterator<Item = &str> {
        let words = self.text.split(|c: char| !(c.is_alphanumeric() || c == '_'));
        words.filter(|w| {
            w.starts_with(|c: char| c.is_alphabetic() || c == '_') && !matches!(*w, "ceil_div" | "min" | "max")
        })
    }
}
