//! The Phoronix Test Suite's result file (`composite.xml` of a saved result):
//! every `Result` shown as a bar graph, each `Data/Entry` a system (the entry's
//! `Identifier`, the sample's group) with the values of its runs (`RawString`,
//! colon-separated; `Value`, their mean, when there is none). The metric is the
//! result's `Title` and `Description`, the unit its `Scale`, the direction its
//! `Proportion` (`HIB` higher, `LIB` lower) (docs/readers.md §7).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::Samples;
use crate::error::{Error, Result};
use crate::table::Direction;
use roxmltree::{Document, Node};

/// The samples of a PTS result file.
pub fn parse(text: &str, path: Option<&str>) -> Result<Samples> {
    let doc =
        Document::parse(text).map_err(|e| Error::parse(path, Some(e.pos().row as usize), format!("not XML: {e}")))?;
    let root = doc.root_element();
    if root.tag_name().name() != "PhoronixTestSuite" {
        return Err(Error::parse(
            path,
            Some(line_of(&doc, root)),
            format!("expected a <PhoronixTestSuite> result file, got <{}>", root.tag_name().name()),
        ));
    }
    let mut out = Samples::default();
    for (i, result) in root.children().filter(|n| n.has_tag_name("Result")).enumerate() {
        crate::cancel::check_every(i)?;
        // line graphs, pass/fail and image results hold no runs of one number
        let format = child_text(result, "DisplayFormat");
        if !(format.is_empty() || format == "BAR_GRAPH") {
            continue;
        }
        let title = child_text(result, "Title");
        let description = child_text(result, "Description");
        let metric = if description.is_empty() { title.to_owned() } else { format!("{title}: {description}") };
        let direction = match child_text(result, "Proportion") {
            "HIB" => Direction::Higher,
            "LIB" => Direction::Lower,
            _ => Direction::Unknown,
        };
        let unit = child_text(result, "Scale");
        let entries = result.children().filter(|n| n.has_tag_name("Data")).flat_map(|d| d.children());
        for entry in entries.filter(|n| n.has_tag_name("Entry")) {
            let line = line_of(&doc, entry);
            let system = child_text(entry, "Identifier");
            let raw = child_text(entry, "RawString");
            let values = if raw.is_empty() { child_text(entry, "Value") } else { raw };
            for v in values.split(':') {
                let x = v.trim().parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| {
                    Error::parse(path, Some(line), format!("{metric}, {system}: expected a number, got \"{v}\""))
                })?;
                out.push(&metric, x, unit, direction, system);
            }
        }
    }
    Ok(out)
}

/// The trimmed text of `node`'s first child element `tag` ("" when missing).
fn child_text<'a>(node: Node<'a, '_>, tag: &str) -> &'a str {
    node.children().find(|n| n.has_tag_name(tag)).and_then(|n| n.text()).map_or("", str::trim)
}

fn line_of(doc: &Document<'_>, node: Node<'_, '_>) -> usize {
    doc.text_pos_at(node.range().start).row as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_and_skipped_graphs() {
        let xml = "<PhoronixTestSuite>\n<Result><Title>T</Title><DisplayFormat>LINE_GRAPH</DisplayFormat>\
                   <Data><Entry><Identifier>a</Identifier><Value>1,2,3</Value></Entry></Data></Result>\n\
                   <Result><Title>U</Title><Proportion>LIB</Proportion><Data>\n\
                   <Entry><Identifier>a</Identifier><Value>2.5</Value><RawString></RawString></Entry>\n\
                   <Entry><Identifier>b</Identifier><Value>x</Value><RawString>1:y</RawString></Entry>\n\
                   </Data></Result></PhoronixTestSuite>";
        let e = parse(xml, Some("c.xml")).unwrap_err().to_string();
        assert!(e.contains("c.xml:5:") && e.contains("U, b: expected a number, got \"y\""), "{e}");
        let ok = xml.replace("1:y", "1:3");
        let s = parse(&ok, None).unwrap();
        let got: Vec<_> = s.iter().map(|x| (x.group, x.value, x.direction)).collect();
        assert_eq!(got, vec![("a", 2.5, Direction::Lower), ("b", 1.0, Direction::Lower), ("b", 3.0, Direction::Lower)]);
        let e = parse("<results/>", None).unwrap_err().to_string();
        assert!(e.contains("expected a <PhoronixTestSuite>"), "{e}");
        let e = parse("<PhoronixTestSuite>\n<Result>", None).unwrap_err().to_string();
        assert!(e.contains("not XML"), "{e}");
    }
}
