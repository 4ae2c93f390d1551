//! Parsing pasted tables (filled in below).
