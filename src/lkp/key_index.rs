//! The index of a matrix's metric names: positions in its `keys` vector, found by
//! hashing the name, so that each name is stored once (a matrix of 10^6 metrics kept a
//! second copy of every name in a `HashMap<String, usize>`; docs/lkp.md §2.3).

use hashbrown::HashTable;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

/// Names by position, as the caller keeps them (a `[String]`, or a matrix's one text).
pub trait Keys {
    /// The name at `i`.
    fn key(&self, i: usize) -> Option<&str>;
}

impl Keys for [String] {
    fn key(&self, i: usize) -> Option<&str> {
        self.get(i).map(String::as_str)
    }
}

/// Positions into the names the caller keeps (and passes to every call), as u32
/// (a matrix file of at most 256 MiB names fewer than 2^32 metrics).
#[derive(Debug, Clone, Default)]
pub struct KeyIndex {
    table: HashTable<u32>,
    hasher: RandomState,
}

impl KeyIndex {
    fn hash(&self, k: &str) -> u64 {
        self.hasher.hash_one(k)
    }

    /// The position of `k` in `keys`.
    pub fn get<K: Keys + ?Sized>(&self, keys: &K, k: &str) -> Option<usize> {
        self.table.find(self.hash(k), |&i| keys.key(i as usize) == Some(k)).map(|&i| i as usize)
    }

    /// Record that `keys[i]` (already pushed) is at `i`; the name must not be indexed yet.
    pub fn insert<K: Keys + ?Sized>(&mut self, keys: &K, i: usize) {
        let (Some(k), Ok(pos)) = (keys.key(i), u32::try_from(i)) else { return };
        let hasher = &self.hasher;
        let h = hasher.hash_one(k);
        self.table.insert_unique(h, pos, |&j| hasher.hash_one(keys.key(j as usize).unwrap_or("")));
    }

    /// Forget `keys[i]` (still in `keys`), and shift the later positions down by one for
    /// its removal from `keys`.
    pub fn remove<K: Keys + ?Sized>(&mut self, keys: &K, i: usize) {
        let (Some(k), Ok(pos)) = (keys.key(i), u32::try_from(i)) else { return };
        if let Ok(entry) = self.table.find_entry(self.hash(k), |&j| j == pos) {
            entry.remove();
        }
        for j in self.table.iter_mut() {
            if *j > pos {
                *j -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_remove() {
        let mut keys: Vec<String> = Vec::new();
        let mut ix = KeyIndex::default();
        for k in ["a", "b", "c"] {
            keys.push(k.to_string());
            ix.insert(keys.as_slice(), keys.len() - 1);
        }
        let ks = keys.as_slice();
        assert_eq!((ix.get(ks, "a"), ix.get(ks, "c"), ix.get(ks, "x")), (Some(0), Some(2), None));
        ix.remove(ks, 1);
        keys.remove(1);
        let ks = keys.as_slice();
        assert_eq!((ix.get(ks, "a"), ix.get(ks, "b"), ix.get(ks, "c")), (Some(0), None, Some(1)));
    }
}
