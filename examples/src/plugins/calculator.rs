//! A sync tool whose error is a failed result, not a panic.

use toolhook::tool;

/// Why a calculation failed.
#[derive(Debug)]
pub struct CalcError(String);

impl std::fmt::Display for CalcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Calculate `a op b`.
#[tool(core_tool = true)]
pub fn calculator(
    /// Left operand.
    a: f64,
    /// The operation.
    #[param(enum = ["add", "sub", "mul", "div"])]
    op: String,
    /// Right operand.
    b: f64,
) -> Result<String, CalcError> {
    let value = match op.as_str() {
        "add" => a + b,
        "sub" => a - b,
        "mul" => a * b,
        "div" if b == 0.0 => return Err(CalcError("division by zero".into())),
        _ => a / b,
    };
    Ok(value.to_string())
}
