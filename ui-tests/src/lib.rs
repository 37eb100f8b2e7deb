//! trybuild cases for toolhook macros.
