//! Errors of the library itself: typed, never strings.

use thiserror::Error;

/// An error of mcp-errors itself (not the error being classified). The kind is
/// the variant; the text says what was wrong. More kinds may come.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Error {
    /// The input was not valid JSON.
    #[error("invalid JSON: {0}")]
    InvalidJson(String),
    /// The input was JSON but not of a usable shape.
    #[error("invalid input: {0}")]
    InvalidInput(String),
    /// An option was invalid (a malformed time, an unknown profile name, …).
    #[error("invalid option: {0}")]
    InvalidOption(String),
}

impl Error {
    /// The machine-readable kind: `invalid_json`, `invalid_input` or `invalid_option`.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::InvalidJson(_) => "invalid_json",
            Error::InvalidInput(_) => "invalid_input",
            Error::InvalidOption(_) => "invalid_option",
        }
    }

    /// The detail text without the kind prefix.
    pub fn detail(&self) -> &str {
        match self {
            Error::InvalidJson(s) | Error::InvalidInput(s) | Error::InvalidOption(s) => s,
        }
    }
}
