//! The command-line tools besides the bot. Each takes its arguments and its
//! input as text and returns what to print, or an error message: `main`
//! turns errors into a message on stderr and a non-zero exit.

pub mod bench;
pub mod learn;
pub mod score;
pub mod validate;

/// A tool's failure: the message for stderr and the exit code.
#[derive(Debug, PartialEq, Eq)]
pub struct ToolError {
    pub message: String,
    pub code: i32,
}

impl ToolError {
    /// Bad input or arguments (exit 1).
    pub fn input(message: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
            code: 1,
        }
    }
    /// Bad usage (exit 2).
    pub fn usage(message: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
            code: 2,
        }
    }
}

/// Reads the value after flag `name` in `args` (`--name V` or `--name=V`),
/// removing both. Fails if the flag is present without a value.
pub fn take_flag(args: &mut Vec<String>, name: &str) -> Result<Option<String>, ToolError> {
    let eq = format!("{name}=");
    if let Some(i) = args.iter().position(|a| a == name) {
        if i + 1 >= args.len() {
            return Err(ToolError::usage(format!("{name} needs a value")));
        }
        let v = args.remove(i + 1);
        args.remove(i);
        return Ok(Some(v));
    }
    if let Some(i) = args.iter().position(|a| a.starts_with(&eq)) {
        let v = args.remove(i)[eq.len()..].to_string();
        return Ok(Some(v));
    }
    Ok(None)
}

/// Parses a flag's value, naming the flag in the error.
pub fn parse_flag<T: std::str::FromStr>(
    args: &mut Vec<String>,
    name: &str,
) -> Result<Option<T>, ToolError> {
    match take_flag(args, name)? {
        None => Ok(None),
        Some(v) => v
            .parse()
            .map(Some)
            .map_err(|_| ToolError::usage(format!("{name}: cannot read {v:?}"))),
    }
}

/// Fails on any argument left over.
pub fn no_more_args(args: &[String]) -> Result<(), ToolError> {
    match args.first() {
        None => Ok(()),
        Some(a) => Err(ToolError::usage(format!("unexpected argument {a:?}"))),
    }
}
