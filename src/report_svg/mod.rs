//! Figures of the `schedlab report` page drawn as SVG straight from the numbers
//! (docs/report.md, "Figures"): no plotting library, no second rendering pass, the
//! same bytes for the same data. One concept per file: the SVG text ([`svg`]), a
//! linear axis with its ticks ([`axis`]), the colour cycle ([`palette`]) and the
//! MMTests strip plot ([`strip`]).

pub mod axis;
pub mod palette;
pub mod strip;
pub mod svg;
