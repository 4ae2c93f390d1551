//! [`Choice`]: a closed set of named options (a command-line flag's values, a
//! function's mode argument), defined once as an enum's `ALL` and `name`. Parsing, the
//! error listing the valid names and the list the front ends offer (`_core.*` in Python,
//! argparse's `choices`) all derive from that one definition.

use crate::error::{Error, Result};

/// An enum whose values have names (see the module comment).
pub trait Choice: Copy + Sized + 'static {
    /// What the option is called in messages (`fail-on`, `init`).
    const WHAT: &'static str;
    /// Every value, in the order help texts list them.
    const ALL: &'static [Self];

    /// The value's name.
    fn name(self) -> &'static str;

    /// The value named `s`; an error lists the valid names.
    fn parse(s: &str) -> Result<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == s).ok_or_else(|| {
            Error::domain(format!("{} must be one of {}, got '{s}'", Self::WHAT, Self::names().join(", ")))
        })
    }

    /// The names of [`Choice::ALL`].
    fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|v| v.name()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Colour {
        Red,
        Blue,
    }

    impl Choice for Colour {
        const WHAT: &'static str = "colour";
        const ALL: &'static [Self] = &[Colour::Red, Colour::Blue];
        fn name(self) -> &'static str {
            match self {
                Colour::Red => "red",
                Colour::Blue => "blue",
            }
        }
    }

    #[test]
    fn parse_and_the_error_listing_the_names() {
        assert_eq!(Colour::parse("blue").unwrap(), Colour::Blue);
        assert_eq!(Colour::names(), ["red", "blue"]);
        assert_eq!(Colour::parse("green").unwrap_err().to_string(), "colour must be one of red, blue, got 'green'");
    }
}
