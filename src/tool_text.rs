//! Comparison tables as the tools themselves print them, chosen by the table's tool.
//!
//! [`render`] gives a [`Comparison`] the text layout of the tool that made it (MMTests'
//! compare-mmtests.pl, lkp's ncompare, AMD's normalised tables) and [`parse`] reads any
//! of those layouts pasted from mail, telling them apart by their look. This is the one
//! place that knows which tools have a layout of their own, so a table prints the same
//! whatever else a program has loaded (docs/tables.md).

use crate::error::Result;
use crate::table::{amd, Comparison};
use crate::{lkp, mmtests};

/// The tool's own text layout of `c` (by `c.tool`), or None when the tool has none
/// (the generic views, markdown and CSV, serve those tables).
pub fn render(c: &Comparison) -> Result<Option<String>> {
    match c.tool.as_str() {
        "mmtests" => mmtests::render_text::render(c).map(Some),
        "lkp" => lkp::comparison::render_comparison(c).map(Some),
        "amd" => amd::render(c).map(Some),
        _ => Ok(None),
    }
}

/// Every comparison table in `text` (`source` names it in errors), by its look: AMD's
/// normalised tables (`[pct imp](CV)` headers), an lkp `%stddev %change` report, else an
/// MMTests compare table.
pub fn parse(text: &str, source: &str) -> Result<Vec<Comparison>> {
    if text.contains("[pct imp](CV)") {
        amd::parse(text)
    } else if text.contains("%stddev") || text.contains("%change") {
        Ok(vec![lkp::parse_report::to_comparison(&lkp::parse_report::parse_report(text))?])
    } else {
        Ok(vec![mmtests::parse_text::parse_compare(text, source)?])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tool_prints_its_own_layout() {
        // An MMTests table as posted (4.18 teo evaluation): its own layout reprints it as is.
        let posted = concat!(
            "                              4.18.0                 4.18.0\n",
            "                             vanilla                    teo\n",
            "Hmean     14        70.34 (   0.00%)       69.80 *  -0.76%*\n",
            "Hmean     100      499.24 (   0.00%)      494.26 *  -1.00%*\n",
        );
        let c = parse(posted, "<t>").unwrap().remove(0);
        assert_eq!(c.tool, "mmtests");
        assert_eq!(render(&c).unwrap().as_deref(), Some(posted));
        let mut generic = c.clone();
        generic.tool = "schedlab".into();
        assert_eq!(render(&generic).unwrap(), None);
    }
}
