//! [`Labels`]: the distinct group and unit names of a [`super::Rows`] store, each held
//! once however many rows carry it.

use super::opt_column::LabelId;
use std::collections::HashMap;
use std::sync::Arc;

/// A table of distinct strings, each with its index.
#[derive(Debug, Clone, Default)]
pub struct Labels {
    names: Vec<Arc<str>>,
    index: HashMap<Arc<str>, usize>,
}

impl Labels {
    /// The id of `s`, added when it is new.
    pub fn intern(&mut self, s: &str) -> LabelId {
        if let Some(&i) = self.index.get(s) {
            return LabelId(i);
        }
        let name: Arc<str> = Arc::from(s);
        let i = self.names.len();
        self.names.push(Arc::clone(&name));
        self.index.insert(name, i);
        LabelId(i)
    }

    /// The string of `id` ("" for an id this table did not give).
    pub fn get(&self, id: LabelId) -> &str {
        self.names.get(id.0).map_or("", |s| s)
    }
}
