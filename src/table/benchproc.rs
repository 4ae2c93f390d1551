//! benchstat's filters and projections over Go benchmark results (golang.org/x/perf
//! `benchproc`, its syntax in `benchproc/syntax`; docs/benchstat.md §7):
//!
//! - **keys**: `.name` (the name without its `/key=value` parts and `-N` suffix),
//!   `.fullname` (the whole name), `/KEY` (a part of the name, `/gomaxprocs` also the
//!   `-N` suffix), `.file` (the input's label), `.unit` (filters only), `.config`
//!   (projections only: every file configuration key) and any other word, a file
//!   configuration key (`goos`, `note`);
//! - a **filter** is `KEY:VALUE`, `KEY:"quoted"`, `KEY:/regexp/`, `KEY:(V OR V ...)`,
//!   `*`, combined by juxtaposition or `AND`, `OR`, `-` (not) and parentheses;
//! - a **projection** is a comma- or space-separated list of keys, each with an order:
//!   the order values are first seen (default), `@alpha`, `@num` (`2k`, `1Mi`
//!   understood), or `@(V V ...)` (that order, and a filter: other values are left out).
//!
//! Projections parsed by one [`ProjectionParser`] exclude each other's specific keys
//! from their `.config` and `.fullname` (a `/size` row leaves `/size=` out of
//! `.fullname`), and the keys none names are the residue (what benchstat warns
//! "benchmarks vary in" about).

// Parsers of user input: no unwrap, expect, indexing or string slicing that can panic.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use crate::error::{Error, Result};
use crate::readers::go_bench::GoResult;
use regex::Regex;
use std::cmp::Ordering;
use std::collections::HashMap;

/// A result and the label of the input it came from (benchstat's `.file`).
#[derive(Debug, Clone, Copy)]
pub struct Labelled<'a> {
    /// The input's label.
    pub file: &'a str,
    /// The result.
    pub result: &'a GoResult,
}

/// benchfmt's `splitGomaxprocs`: the name without a trailing `-N`, and the `-N`.
fn split_gomaxprocs(name: &str) -> (&str, Option<&str>) {
    for (i, c) in name.char_indices().rev() {
        if c == '-' && i + 1 < name.len() {
            return (name.get(..i).unwrap_or(name), name.get(i..));
        }
        if !c.is_ascii_digit() {
            break;
        }
    }
    (name, None)
}

/// benchfmt's `Name.Parts`: the base name and the parts after it (`/key=value`
/// each with its slash, then `-N`).
fn name_parts(name: &str) -> (&str, Vec<&str>) {
    let (buf, procs) = split_gomaxprocs(name);
    let mut parts: Vec<&str> = Vec::new();
    let mut prev = 0;
    for (i, c) in buf.char_indices() {
        if c == '/' {
            parts.push(buf.get(prev..i).unwrap_or(""));
            prev = i;
        }
    }
    parts.push(buf.get(prev..).unwrap_or(""));
    if let Some(p) = procs {
        parts.push(p);
    }
    let base = if parts.is_empty() { "" } else { parts.remove(0) };
    (base, parts)
}

/// benchfmt's `Name.Base`: up to the first slash, else without the `-N` suffix.
fn name_base(name: &str) -> &str {
    match name.find('/') {
        Some(i) => name.get(..i).unwrap_or(name),
        None => split_gomaxprocs(name).0,
    }
}

/// The value of a single key of `r` ("" when it has none).
fn extract(key: &str, r: Labelled<'_>) -> String {
    if key == ".name" {
        return name_base(&r.result.name).to_string();
    }
    if key == ".fullname" {
        return r.result.name.clone();
    }
    if key == ".file" {
        return r.file.to_string();
    }
    if let Some(k) = key.strip_prefix('/') {
        let (_, parts) = name_parts(&r.result.name);
        if k == "gomaxprocs" {
            if let Some(p) = parts.last().and_then(|p| p.strip_prefix('-')) {
                return p.to_string();
            }
        }
        let prefix = format!("/{k}=");
        return parts.iter().find_map(|p| p.strip_prefix(prefix.as_str())).unwrap_or("").to_string();
    }
    r.result.config.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_default()
}

/// benchproc's full name with the keys other projections name left out (`.name` as `*`).
fn full_name_excluding(name: &str, excluded: &[String]) -> String {
    let ex_name = excluded.iter().any(|k| k == ".name");
    let deletes: Vec<String> = excluded.iter().filter(|k| k.starts_with('/')).map(|k| format!("{k}=")).collect();
    let ex_procs = excluded.iter().any(|k| k == "/gomaxprocs");
    if !ex_name && deletes.is_empty() {
        return name.to_string();
    }
    let found = ex_name || deletes.iter().any(|d| name.contains(d.as_str())) || (ex_procs && name.contains('-'));
    if !found {
        return name.to_string();
    }
    let (base, parts) = name_parts(name);
    let mut out = if ex_name { "*".to_string() } else { base.to_string() };
    for p in parts {
        if deletes.iter().any(|d| p.starts_with(d.as_str())) || (ex_procs && p.starts_with('-')) {
            continue;
        }
        out.push_str(p);
    }
    out
}

// ---------------------------------------------------------------- tokens

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Op(char),
    Word(String),
    Regexp(String),
    And,
    Or,
    End,
}

/// benchproc's tokenizer over a query; errors name the query and the offset.
struct Lexer<'a> {
    q: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn new(q: &'a str) -> Self {
        Lexer { q, pos: 0 }
    }

    fn err(&self, at: usize, msg: &str) -> Error {
        Error::parse(None, None, format!("syntax error at offset {at} of '{}': {msg}", self.q))
    }

    fn rest(&self) -> &'a str {
        self.q.get(self.pos..).unwrap_or("")
    }

    fn is_op(c: char) -> bool {
        matches!(c, '(' | ')' | ':' | '@' | ',')
    }

    /// The next token and the offset it starts at (regexps allowed where a value is).
    fn next(&mut self, allow_regexp: bool) -> Result<(Tok, usize)> {
        loop {
            let rest = self.rest();
            let Some(c) = rest.chars().next() else { return Ok((Tok::End, self.pos)) };
            let at = self.pos;
            if Self::is_op(c) || c == '-' || c == '*' {
                self.pos += 1;
                return Ok((Tok::Op(c), at));
            }
            if c.is_whitespace() {
                self.pos += c.len_utf8();
                continue;
            }
            if allow_regexp && c == '/' {
                let body = rest.get(1..).unwrap_or("");
                let (mut cs, mut cp, mut i) = (0i32, 0i32, 0usize);
                let bytes = body.as_bytes();
                let mut end = None;
                while let Some(&b) = bytes.get(i) {
                    if cs == 0 && cp == 0 && b == b'/' {
                        end = Some(i);
                        break;
                    }
                    match b {
                        b'[' => cs += 1,
                        b']' => cs = (cs - 1).max(0),
                        b'(' if cs == 0 => cp += 1,
                        b')' if cs == 0 => cp -= 1,
                        b'\\' => i += 1,
                        _ => {}
                    }
                    i += 1;
                }
                let Some(end) = end else { return Err(self.err(at, "missing close \"/\"")) };
                let expr = body.get(..end).unwrap_or("").to_string();
                self.pos += 1 + end + 1;
                if let Some(n) = self.rest().chars().next() {
                    if !(n.is_whitespace() || Self::is_op(n) || n == '-' || n == '*') {
                        return Err(self.err(self.pos, "regexp must be followed by space or an operator"));
                    }
                }
                return Ok((Tok::Regexp(expr), at));
            }
            if c == '"' {
                let mut out = String::new();
                let mut chars = rest.char_indices().skip(1);
                loop {
                    let Some((i, ch)) = chars.next() else { return Err(self.err(at, "missing end quote")) };
                    match ch {
                        '"' => {
                            self.pos += i + 1;
                            return Ok((Tok::Word(out), at));
                        }
                        '\\' => match chars.next().map(|(_, e)| e) {
                            Some('n') => out.push('\n'),
                            Some('t') => out.push('\t'),
                            Some('\\') => out.push('\\'),
                            Some('"') => out.push('"'),
                            _ => return Err(self.err(at, "bad escape sequence")),
                        },
                        ch => out.push(ch),
                    }
                }
            }
            let end = rest.char_indices().find(|(_, ch)| ch.is_whitespace() || Self::is_op(*ch)).map(|(i, _)| i);
            let word = rest.get(..end.unwrap_or(rest.len())).unwrap_or("");
            self.pos += word.len();
            return Ok((
                match word {
                    "AND" => Tok::And,
                    "OR" => Tok::Or,
                    w => Tok::Word(w.to_string()),
                },
                at,
            ));
        }
    }

    fn peek(&self, allow_regexp: bool) -> Result<(Tok, usize)> {
        let mut copy = Lexer { q: self.q, pos: self.pos };
        copy.next(allow_regexp)
    }
}

// ---------------------------------------------------------------- filters

/// A value a filter term matches: a word exactly, or a regexp anywhere.
#[derive(Debug, Clone)]
enum Pattern {
    Exact(String),
    Re(Regex),
}

impl Pattern {
    fn matches(&self, s: &str) -> bool {
        match self {
            Pattern::Exact(w) => w == s,
            Pattern::Re(r) => r.is_match(s),
        }
    }
}

/// A parsed filter (benchproc's `Filter`).
#[derive(Debug, Clone)]
pub enum Filter {
    /// Every sub-filter matches (none: everything matches).
    And(Vec<Filter>),
    /// Some sub-filter matches.
    Or(Vec<Filter>),
    /// The sub-filter does not match.
    Not(Box<Filter>),
    /// A key's value matches.
    Match(String, PatternBox),
}

/// A compiled value pattern of a filter term.
#[derive(Debug, Clone)]
pub struct PatternBox(Pattern);

/// Which measurements of a result a filter keeps: all, none, or per value.
#[derive(Debug, Clone, PartialEq)]
enum Mask {
    All(bool),
    Each(Vec<bool>),
}

impl Filter {
    /// benchproc's `NewFilter`: the filter `query` says (`*` for everything).
    pub fn parse(query: &str) -> Result<Filter> {
        let mut lx = Lexer::new(query);
        let f = Self::expr(&mut lx)?;
        let (t, at) = lx.next(false)?;
        if t != Tok::End {
            return Err(lx.err(at, &format!("unexpected {t:?}")));
        }
        Ok(f)
    }

    fn expr(lx: &mut Lexer<'_>) -> Result<Filter> {
        let mut terms = vec![Self::and_expr(lx)?];
        while lx.peek(false)?.0 == Tok::Or {
            lx.next(false)?;
            terms.push(Self::and_expr(lx)?);
        }
        Ok(if terms.len() == 1 { terms.remove(0) } else { Filter::Or(terms) })
    }

    fn and_expr(lx: &mut Lexer<'_>) -> Result<Filter> {
        let mut terms = vec![Self::term(lx)?];
        loop {
            match lx.peek(false)? {
                (Tok::And, _) => {
                    lx.next(false)?;
                }
                (Tok::Op('(' | '-' | '*') | Tok::Word(_), _) => terms.push(Self::term(lx)?),
                (Tok::Op(')') | Tok::Or | Tok::End, _) => break,
                (t, at) => return Err(lx.err(at, &format!("unexpected {t:?}"))),
            }
        }
        Ok(if terms.len() == 1 { terms.remove(0) } else { Filter::And(terms) })
    }

    fn pattern(lx: &Lexer<'_>, t: Tok, at: usize) -> Result<PatternBox> {
        match t {
            Tok::Word(w) => Ok(PatternBox(Pattern::Exact(w))),
            Tok::Regexp(r) => {
                Regex::new(&r).map(|r| PatternBox(Pattern::Re(r))).map_err(|e| lx.err(at, &format!("bad regexp: {e}")))
            }
            _ => Err(lx.err(at, "expected value")),
        }
    }

    fn term(lx: &mut Lexer<'_>) -> Result<Filter> {
        let (t, at) = lx.next(false)?;
        match t {
            Tok::Op('(') => {
                let f = Self::expr(lx)?;
                match lx.next(false)? {
                    (Tok::Op(')'), _) => Ok(f),
                    (_, at) => Err(lx.err(at, "missing \")\"")),
                }
            }
            Tok::Op('-') => Ok(Filter::Not(Box::new(Self::term(lx)?))),
            Tok::Op('*') => Ok(Filter::And(Vec::new())),
            Tok::Word(key) => {
                if lx.next(false)?.0 != Tok::Op(':') {
                    return Err(lx.err(at, "expected key:value"));
                }
                if key == ".config" {
                    return Err(lx.err(at, ".config is only allowed in projections"));
                }
                let (v, vat) = lx.next(true)?;
                if v != Tok::Op('(') {
                    return Ok(Filter::Match(key, Self::pattern(lx, v, vat)?));
                }
                let mut terms = Vec::new();
                loop {
                    let (v, vat) = lx.next(true)?;
                    terms.push(Filter::Match(key.clone(), Self::pattern(lx, v, vat)?));
                    match lx.next(true)? {
                        (Tok::Op(')'), _) => return Ok(Filter::Or(terms)),
                        (Tok::Or, _) => {}
                        (_, at) => return Err(lx.err(at, "value list must be separated by OR")),
                    }
                }
            }
            _ => Err(lx.err(at, "expected key:value or subexpression")),
        }
    }

    fn mask(&self, r: Labelled<'_>) -> Mask {
        match self {
            Filter::Match(key, PatternBox(p)) if key == ".unit" => Mask::Each(
                r.result
                    .values
                    .iter()
                    .map(|v| p.matches(&v.unit) || (!v.orig_unit.is_empty() && p.matches(&v.orig_unit)))
                    .collect(),
            ),
            Filter::Match(key, PatternBox(p)) => Mask::All(p.matches(&extract(key, r))),
            Filter::Not(sub) => match sub.mask(r) {
                Mask::All(x) => Mask::All(!x),
                Mask::Each(m) => Mask::Each(m.into_iter().map(|x| !x).collect()),
            },
            Filter::And(subs) => Self::combine(subs, r, false),
            Filter::Or(subs) => Self::combine(subs, r, true),
        }
    }

    /// The masks of `subs` joined by AND (`absorbing` false: one filter that keeps nothing
    /// decides) or OR (`absorbing` true: one that keeps everything decides), measurement by
    /// measurement where a sub-filter tells measurements apart.
    fn combine(subs: &[Filter], r: Labelled<'_>, absorbing: bool) -> Mask {
        let mut m: Option<Vec<bool>> = None;
        for s in subs {
            match s.mask(r) {
                Mask::All(x) if x == absorbing => return Mask::All(absorbing),
                Mask::All(_) => {}
                Mask::Each(e) => {
                    m = Some(match m {
                        None => e,
                        Some(m) => m.iter().zip(&e).map(|(a, b)| if absorbing { *a || *b } else { *a && *b }).collect(),
                    })
                }
            }
        }
        m.map_or(Mask::All(!absorbing), Mask::Each)
    }

    /// Which of `r`'s measurements the filter keeps (benchproc's `Match.Test`).
    pub fn keep(&self, r: Labelled<'_>) -> Vec<bool> {
        match self.mask(r) {
            Mask::All(x) => vec![x; r.result.values.len()],
            Mask::Each(m) => m,
        }
    }
}

// ---------------------------------------------------------------- projections

/// How a field's values are ordered.
#[derive(Debug, Clone)]
enum Order {
    /// The order values are first seen in.
    First,
    /// Alphabetically.
    Alpha,
    /// Numerically (metric and IEC prefixes understood), non-numbers after.
    Num,
    /// The listed order.
    Fixed(Vec<String>),
}

/// What a projection field extracts.
#[derive(Debug, Clone, PartialEq)]
enum Source {
    /// Every file configuration key not named elsewhere (`.config`).
    Config,
    /// The full name with the keys named elsewhere left out.
    FullName,
    /// One key.
    Key(String),
    /// The unit of each measurement (a table projection's last field).
    Unit,
}

#[derive(Debug, Clone)]
struct FieldSpec {
    source: Source,
    order: Order,
}

/// A projection: its fields, their orders and, once results are seen, the
/// configuration keys `.config` expands to and the order values were first seen in.
#[derive(Debug, Clone)]
pub struct Projection {
    fields: Vec<FieldSpec>,
    config_keys: Vec<String>,
    excluded_config: Vec<String>,
    excluded_name: Vec<String>,
    first_seen: HashMap<String, HashMap<String, usize>>,
}

/// A projected key: one value per flattened field.
pub type Key = Vec<String>;

/// benchproc's `ProjectionParser`: projections parsed together exclude each other's keys.
#[derive(Debug, Default)]
pub struct ProjectionParser {
    config_keys: Vec<String>,
    name_keys: Vec<String>,
    have_config: bool,
    have_fullname: bool,
}

impl ProjectionParser {
    /// Parse `projection`, adding the filters its fixed orders imply to `filters`.
    pub fn parse(&mut self, projection: &str, filters: &mut Vec<Filter>) -> Result<Projection> {
        let mut lx = Lexer::new(projection);
        let mut fields = Vec::new();
        loop {
            let (t, at) = lx.next(false)?;
            let t = match t {
                Tok::End => break,
                Tok::Op(',') if !fields.is_empty() => lx.next(false)?.0,
                t => t,
            };
            let Tok::Word(key) = t else { return Err(lx.err(at, "expected key")) };
            let mut order = Order::First;
            if lx.peek(false)?.0 == Tok::Op('@') {
                lx.next(false)?;
                let (o, oat) = lx.next(false)?;
                order = match o {
                    Tok::Word(w) if w == "alpha" => Order::Alpha,
                    Tok::Word(w) if w == "num" => Order::Num,
                    Tok::Word(w) if w == "first" => Order::First,
                    Tok::Word(w) => return Err(lx.err(oat, &format!("unknown order \"{w}\""))),
                    Tok::Op('(') => {
                        let mut vals = Vec::new();
                        loop {
                            match lx.next(false)? {
                                (Tok::Word(w), _) => vals.push(w),
                                (Tok::Op(')'), cat) if vals.is_empty() => return Err(lx.err(cat, "nothing to match")),
                                (Tok::Op(')'), _) => break,
                                (_, cat) => return Err(lx.err(cat, "missing )")),
                            }
                        }
                        Order::Fixed(vals)
                    }
                    _ => return Err(lx.err(oat, "expected named sort order or parenthesized list")),
                };
            }
            let source = match key.as_str() {
                ".config" => {
                    if matches!(order, Order::Fixed(_)) {
                        return Err(lx.err(at, "fixed order not allowed for .config"));
                    }
                    self.have_config = true;
                    Source::Config
                }
                ".fullname" => {
                    self.have_fullname = true;
                    Source::FullName
                }
                ".unit" => return Err(lx.err(at, ".unit is only allowed in filters")),
                "" => return Err(lx.err(at, "key must not be empty")),
                k => {
                    if k == ".name" || k.starts_with('/') {
                        self.name_keys.push(k.to_string());
                    } else {
                        self.config_keys.push(k.to_string());
                    }
                    Source::Key(k.to_string())
                }
            };
            if let Order::Fixed(vals) = &order {
                let key = if source == Source::FullName { ".fullname".to_string() } else { key.clone() };
                filters.push(Filter::Or(
                    vals.iter().map(|v| Filter::Match(key.clone(), PatternBox(Pattern::Exact(v.clone())))).collect(),
                ));
            }
            fields.push(FieldSpec { source, order });
        }
        Ok(Projection::new(fields))
    }

    /// [`Self::parse`] with a last `.unit` field (a table projection).
    pub fn parse_with_unit(&mut self, projection: &str, filters: &mut Vec<Filter>) -> Result<Projection> {
        let mut p = self.parse(projection, filters)?;
        p.fields.push(FieldSpec { source: Source::Unit, order: Order::First });
        Ok(p)
    }

    /// The keys no projection names: `.config` and `.fullname` less the named keys.
    pub fn residue(&self) -> Projection {
        let mut fields = Vec::new();
        if !self.have_config {
            fields.push(FieldSpec { source: Source::Config, order: Order::First });
        }
        if !self.have_fullname {
            fields.push(FieldSpec { source: Source::FullName, order: Order::First });
        }
        Projection::new(fields)
    }

    /// Tell every projection which keys the others name (call once all are parsed).
    pub fn finish(&self, projections: &mut [&mut Projection]) {
        for p in projections.iter_mut() {
            p.excluded_config = self.config_keys.clone();
            p.excluded_name = self.name_keys.clone();
        }
    }
}

/// benchproc's `parseNum`: a number, with a metric or IEC prefix and a `B` allowed.
fn parse_num(x: &str) -> Option<f64> {
    if let Ok(v) = x.parse::<f64>() {
        return Some(v);
    }
    static RE: std::sync::OnceLock<Option<Regex>> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| Regex::new(r"([0-9.]+)([kKMGTPEZY]i?)?[bB]?").ok()).as_ref()?;
    let caps = re.captures(x)?;
    let v: f64 = caps.get(1)?.as_str().parse().ok()?;
    let pre = caps.get(2).map_or("", |m| m.as_str());
    let exp = match pre.chars().next() {
        None => 0,
        Some(c) => 1 + "KMGTPEZY".find(c.to_ascii_uppercase()).map_or(-1, |i| i as i32),
    };
    let base: f64 = if pre.ends_with('i') { 1024.0 } else { 1000.0 };
    Some(v * base.powi(exp))
}

impl Projection {
    fn new(fields: Vec<FieldSpec>) -> Self {
        Projection {
            fields,
            config_keys: Vec::new(),
            excluded_config: Vec::new(),
            excluded_name: Vec::new(),
            first_seen: HashMap::new(),
        }
    }

    /// Learn the configuration keys `.config` expands to from the results (in the
    /// order they first appear), before projecting.
    pub fn observe_config(&mut self, r: Labelled<'_>) {
        if !self.fields.iter().any(|f| f.source == Source::Config) {
            return;
        }
        for (k, _) in r.result.config.iter() {
            if !self.excluded_config.contains(k) && !self.config_keys.contains(k) {
                self.config_keys.push(k.clone());
            }
        }
    }

    /// The flattened field names (`.config` expanded to its keys), in key order.
    pub fn field_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        for f in &self.fields {
            match &f.source {
                Source::Config => out.extend(self.config_keys.iter().cloned()),
                Source::FullName => out.push(".fullname".into()),
                Source::Key(k) => out.push(k.clone()),
                Source::Unit => out.push(".unit".into()),
            }
        }
        out
    }

    /// The order of each flattened field.
    fn orders(&self) -> Vec<&Order> {
        let mut out = Vec::new();
        for f in &self.fields {
            match f.source {
                Source::Config => out.extend(self.config_keys.iter().map(|_| &f.order)),
                _ => out.push(&f.order),
            }
        }
        out
    }

    /// The key of `r` (with `unit` as the `.unit` field's value), each value
    /// recorded as seen for first-seen orders.
    pub fn project(&mut self, r: Labelled<'_>, unit: &str) -> Key {
        let mut key = Vec::new();
        for f in &self.fields {
            match &f.source {
                Source::Config => {
                    for k in &self.config_keys {
                        key.push(
                            r.result.config.iter().find(|(c, _)| c == k).map(|(_, v)| v.clone()).unwrap_or_default(),
                        );
                    }
                }
                Source::FullName => key.push(full_name_excluding(&r.result.name, &self.excluded_name)),
                Source::Key(k) => key.push(extract(k, r)),
                Source::Unit => key.push(unit.to_string()),
            }
        }
        for (name, v) in self.field_names().into_iter().zip(&key) {
            let seen = self.first_seen.entry(name).or_default();
            let n = seen.len();
            seen.entry(v.clone()).or_insert(n);
        }
        key
    }

    /// benchproc's key order: field by field, each by its order, ties by bytes.
    pub fn cmp(&self, a: &Key, b: &Key) -> Ordering {
        let names = self.field_names();
        for ((i, order), name) in self.orders().into_iter().enumerate().zip(&names) {
            let (x, y) = (a.get(i).map_or("", String::as_str), b.get(i).map_or("", String::as_str));
            if x == y {
                continue;
            }
            let c = match order {
                Order::First => {
                    let seen = self.first_seen.get(name);
                    let rank = |v: &str| seen.and_then(|s| s.get(v)).copied().unwrap_or(0);
                    rank(x).cmp(&rank(y))
                }
                Order::Alpha => x.cmp(y),
                Order::Fixed(vals) => {
                    let rank = |v: &str| vals.iter().position(|w| w == v).unwrap_or(0);
                    rank(x).cmp(&rank(y))
                }
                Order::Num => match (parse_num(x), parse_num(y)) {
                    (Some(p), Some(q)) => p.partial_cmp(&q).unwrap_or_else(|| p.is_nan().cmp(&q.is_nan())),
                    (None, None) => Ordering::Equal,
                    (Some(_), None) => Ordering::Less,
                    (None, Some(_)) => Ordering::Greater,
                },
            };
            return if c == Ordering::Equal { x.cmp(y) } else { c };
        }
        Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readers::go_bench::GoValue;
    use std::sync::Arc;

    fn result(name: &str, config: &[(&str, &str)]) -> GoResult {
        GoResult {
            config: Arc::from(config.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>()),
            name: name.into(),
            values: vec![
                GoValue { value: 1.0, unit: "sec/op".into(), orig_unit: "ns/op".into() },
                GoValue { value: 2.0, unit: "B/op".into(), orig_unit: "B/op".into() },
            ],
        }
    }

    #[test]
    fn keys_as_benchproc_extracts_them() {
        // benchproc's syntax doc: "BenchmarkCopy/size=4k-16" has .name Copy, /size 4k,
        // /gomaxprocs 16, .fullname Copy/size=4k-16
        let r = result("Copy/size=4k-16", &[("pkg", "p")]);
        let l = Labelled { file: "a.txt", result: &r };
        assert_eq!(extract(".name", l), "Copy");
        assert_eq!(extract("/size", l), "4k");
        assert_eq!(extract("/gomaxprocs", l), "16");
        assert_eq!(extract(".fullname", l), "Copy/size=4k-16");
        assert_eq!(extract("pkg", l), "p");
        assert_eq!(extract(".file", l), "a.txt");
        assert_eq!(extract("/missing", l), "");
        assert_eq!(full_name_excluding("Copy/size=4k/x=1-16", &["/size".into()]), "Copy/x=1-16");
        assert_eq!(full_name_excluding("Copy/size=4k-16", &[".name".into()]), "*/size=4k-16");
        assert_eq!(full_name_excluding("Copy/size=4k-16", &["/gomaxprocs".into()]), "Copy/size=4k");
    }

    #[test]
    fn filters_as_benchproc_reads_them() {
        let r = result("Copy/size=4k/align=0-16", &[("goos", "linux")]);
        let l = Labelled { file: "a.txt", result: &r };
        let keep = |q: &str| Filter::parse(q).unwrap().keep(l);
        assert_eq!(keep("*"), vec![true, true]);
        assert_eq!(keep("/align:0"), vec![true, true]);
        assert_eq!(keep("/align:1"), vec![false, false]);
        assert_eq!(keep("-/align:1 goos:linux"), vec![true, true]);
        assert_eq!(keep("/align:1 OR goos:/^lin/"), vec![true, true]);
        assert_eq!(keep("/size:(1k OR 4k) AND .name:Copy"), vec![true, true]);
        assert_eq!(keep(".unit:ns/op"), vec![true, false]);
        assert_eq!(keep("-.unit:sec/op"), vec![false, true]);
        assert_eq!(keep("goos:\"linux\""), vec![true, true]);
        for bad in ["goos", "(goos:linux", "goos:/x", ".config:x", "goos:(a b)"] {
            assert!(Filter::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn projections_order_and_exclude() {
        let mut p = ProjectionParser::default();
        let mut filters = Vec::new();
        let mut row = p.parse("/size@num", &mut filters).unwrap();
        let mut col = p.parse(".config", &mut filters).unwrap();
        let mut fixed = p.parse("/poly@(B A)", &mut filters).unwrap();
        assert_eq!(filters.len(), 1);
        let mut residue = p.residue();
        p.finish(&mut [&mut row, &mut col, &mut fixed, &mut residue]);
        let rs = [result("X/size=2k/poly=A", &[("goos", "l")]), result("X/size=512/poly=B", &[("goos", "l")])];
        let keys: Vec<Key> = rs.iter().map(|r| row.project(Labelled { file: "f", result: r }, "")).collect();
        assert_eq!(row.cmp(&keys[1], &keys[0]), Ordering::Less); // 512 < 2k numerically
        let ks: Vec<Key> = rs.iter().map(|r| fixed.project(Labelled { file: "f", result: r }, "")).collect();
        assert_eq!(fixed.cmp(&ks[1], &ks[0]), Ordering::Less); // B listed first
        assert!(!filters[0].keep(Labelled { file: "f", result: &result("X/poly=C", &[]) })[0]);
        // .config is projected (the column), so the residue is the full name, less
        // the keys the other projections name
        residue.observe_config(Labelled { file: "f", result: &rs[0] });
        assert_eq!(residue.field_names(), vec![".fullname".to_string()]);
        assert_eq!(residue.project(Labelled { file: "f", result: &rs[0] }, ""), vec!["X"]);
        col.observe_config(Labelled { file: "f", result: &rs[0] });
        assert_eq!(col.field_names(), vec!["goos".to_string()]);
        assert!(p.parse(".unit", &mut filters).is_err());
        assert!(p.parse("x@bogus", &mut filters).is_err());
        assert_eq!(parse_num("2k"), Some(2000.0));
        assert_eq!(parse_num("1Mi"), Some(1048576.0));
        assert_eq!(parse_num("4kB"), Some(4000.0));
    }
}
