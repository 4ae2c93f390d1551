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
use quick_xml::events::Event;
use quick_xml::Reader;

/// The fields of a result and of an entry, by their element's name.
const RESULT_FIELDS: [&str; 5] = ["Title", "Description", "Proportion", "Scale", "DisplayFormat"];
const ENTRY_FIELDS: [&str; 3] = ["Identifier", "RawString", "Value"];

/// One `<Entry>` read: its line and fields.
#[derive(Default)]
struct Entry {
    line: usize,
    fields: [Option<String>; 3],
}

/// One `<Result>` read: its fields and entries.
#[derive(Default)]
struct ResultBlock {
    fields: [Option<String>; 5],
    entries: Vec<Entry>,
}

impl ResultBlock {
    fn field(&self, name: &str) -> &str {
        let i = RESULT_FIELDS.iter().position(|f| *f == name);
        i.and_then(|i| self.fields.get(i)).and_then(Option::as_deref).map_or("", str::trim)
    }
}

/// Where a text goes: the field of the result or of its last entry whose element is
/// open at `depth`.
#[derive(Clone, Copy)]
enum Capture {
    Result(usize),
    Entry(usize),
}

/// Line numbers of byte offsets of `text`, asked in increasing order.
struct Lines<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
}

impl Lines<'_> {
    fn of(&mut self, pos: u64) -> usize {
        let pos = usize::try_from(pos).unwrap_or(usize::MAX).min(self.text.len());
        if pos > self.at {
            self.line += self.text.get(self.at..pos).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
            self.at = pos;
        }
        self.line
    }
}

/// The samples of a PTS result file, read as a stream of XML events, one `<Result>`
/// held at a time (the memory bound of docs/readers.md §10).
pub fn parse(text: &str, path: Option<&str>) -> Result<Samples> {
    let mut reader = Reader::from_str(text);
    let mut lines = Lines { text: text.as_bytes(), at: 0, line: 1 };
    let mut out = Samples::default();
    // the open elements' names; the result being read; where text goes, at which depth
    let mut open: Vec<String> = Vec::new();
    let mut result: Option<ResultBlock> = None;
    let mut capture: Option<(Capture, usize)> = None;
    let mut results = 0usize;
    let mut rooted = false;
    loop {
        let at = reader.buffer_position();
        let event = reader.read_event().map_err(|e| {
            let line = lines.of(reader.error_position());
            Error::parse(path, Some(line), format!("not XML: {e}"))
        })?;
        let (start, empty) = match &event {
            Event::Start(e) => (Some(e), false),
            Event::Empty(e) => (Some(e), true),
            _ => (None, false),
        };
        if let Some(e) = start {
            let name: String = e.local_name().as_ref().to_string();
            let depth = open.len();
            rooted = true;
            if depth == 0 && name != "PhoronixTestSuite" {
                return Err(Error::parse(
                    path,
                    Some(lines.of(at)),
                    format!("expected a <PhoronixTestSuite> result file, got <{name}>"),
                ));
            }
            let parent = open.last().map(String::as_str);
            let grand = depth.checked_sub(2).and_then(|i| open.get(i)).map(String::as_str);
            match (depth, name.as_str()) {
                (1, "Result") => {
                    crate::cancel::check_every(results)?;
                    results += 1;
                    result = Some(ResultBlock::default());
                }
                (3, "Entry") if parent == Some("Data") && grand == Some("Result") => {
                    if let Some(r) = result.as_mut() {
                        r.entries.push(Entry { line: lines.of(at), ..Entry::default() });
                    }
                }
                _ => {}
            }
            // the first element of a field's name is the field (as a DOM's find)
            let field = match (depth, parent) {
                (2, Some("Result")) => RESULT_FIELDS.iter().position(|f| *f == name).map(Capture::Result),
                (4, Some("Entry")) if grand == Some("Data") => {
                    ENTRY_FIELDS.iter().position(|f| *f == name).map(Capture::Entry)
                }
                _ => None,
            };
            if let (Some(c), Some(r)) = (field, result.as_mut()) {
                let slot = match c {
                    Capture::Result(i) => r.fields.get_mut(i),
                    Capture::Entry(i) => r.entries.last_mut().and_then(|e| e.fields.get_mut(i)),
                };
                if let Some(slot @ None) = slot {
                    *slot = Some(String::new());
                    capture = (!empty).then_some((c, depth + 1));
                }
            }
            let ends_result = empty && depth == 1 && name == "Result";
            if !empty {
                open.push(name);
            }
            if ends_result {
                if let Some(r) = result.take() {
                    emit(&r, path, &mut out)?;
                }
            }
            continue;
        }
        match event {
            Event::End(_) => {
                let name = open.pop().unwrap_or_default();
                if capture.is_some_and(|(_, d)| d > open.len()) {
                    capture = None;
                }
                if open.len() == 1 && name == "Result" {
                    if let Some(r) = result.take() {
                        emit(&r, path, &mut out)?;
                    }
                }
            }
            Event::Text(t) => push_text(&mut result, capture, open.len(), &t.xml10_content()),
            Event::CData(t) => push_text(&mut result, capture, open.len(), &t.into_inner()),
            Event::GeneralRef(r) => {
                let resolved = if r.is_char_ref() {
                    r.resolve_char_ref().ok().flatten().map(String::from)
                } else {
                    quick_xml::escape::resolve_predefined_entity(&r).map(str::to_string)
                };
                let Some(s) = resolved else {
                    let line = lines.of(at);
                    return Err(Error::parse(path, Some(line), format!("not XML: unknown entity '&{};'", &*r)));
                };
                push_text(&mut result, capture, open.len(), &s);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(name) = open.last() {
        let line = lines.of(text.len() as u64);
        return Err(Error::parse(path, Some(line), format!("not XML: the document ends inside <{name}>")));
    }
    if !rooted {
        return Err(Error::parse(path, Some(1), "expected a <PhoronixTestSuite> result file, got no element"));
    }
    Ok(out)
}

/// Text directly inside the captured field (not in an element within it).
fn push_text(result: &mut Option<ResultBlock>, capture: Option<(Capture, usize)>, depth: usize, s: &str) {
    let (Some((c, d)), Some(r)) = (capture, result.as_mut()) else { return };
    if d != depth {
        return;
    }
    let slot = match c {
        Capture::Result(i) => r.fields.get_mut(i),
        Capture::Entry(i) => r.entries.last_mut().and_then(|e| e.fields.get_mut(i)),
    };
    if let Some(Some(f)) = slot {
        f.push_str(s);
    }
}

/// The samples of one result: line graphs, pass/fail and image results hold no runs of
/// one number.
fn emit(r: &ResultBlock, path: Option<&str>, out: &mut Samples) -> Result<()> {
    let format = r.field("DisplayFormat");
    if !(format.is_empty() || format == "BAR_GRAPH") {
        return Ok(());
    }
    let title = r.field("Title");
    let description = r.field("Description");
    let metric = if description.is_empty() { title.to_owned() } else { format!("{title}: {description}") };
    let direction = match r.field("Proportion") {
        "HIB" => Direction::Higher,
        "LIB" => Direction::Lower,
        _ => Direction::Unknown,
    };
    let unit = r.field("Scale");
    for entry in &r.entries {
        let field = |i: usize| entry.fields.get(i).and_then(Option::as_deref).map_or("", str::trim);
        let (system, raw) = (field(0), field(1));
        let values = if raw.is_empty() { field(2) } else { raw };
        for v in values.split(':') {
            let x = v.trim().parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| {
                Error::parse(path, Some(entry.line), format!("{metric}, {system}: expected a number, got \"{v}\""))
            })?;
            out.push(&metric, x, unit, direction, system);
        }
    }
    Ok(())
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
        assert!(parse("", None).unwrap_err().to_string().contains("expected a <PhoronixTestSuite>"));
        let e2 = parse("<PhoronixTestSuite><Result><Title>a &amp; b</Title><Data><Entry><Value>1</Value></Entry></Data></Result></PhoronixTestSuite>", None).unwrap();
        assert_eq!(e2.to_vec()[0].metric, "a & b");
        assert!(e.contains("expected a <PhoronixTestSuite>"), "{e}");
        let e = parse("<PhoronixTestSuite>\n<Result>", None).unwrap_err().to_string();
        assert!(e.contains("not XML"), "{e}");
    }
}
