//! The index of a matrix's metric names: positions in its `keys` vector, found by
//! hashing the name, so that each name is stored once (a matrix of 10^6 metrics kept a
//! second copy of every name in a `HashMap<String, usize>`; docs/lkp.md §2.3).

use hashbrown::HashTable;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

/// Positions into a names vector the caller keeps (and passes to every call), as u32
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
    pub fn get(&self, keys: &[String], k: &str) -> Option<usize> {
        self.table.find(self.hash(k), |&i| keys.get(i as usize).is_some_and(|x| x == k)).map(|&i| i as usize)
    }

    /// Record that `keys[i]` (already pushed) is at `i`; the name must not be indexed yet.
    pub fn insert(&mut self, keys: &[String], i: usize) {
        let (Some(k), Ok(pos)) = (keys.get(i), u32::try_from(i)) else { return };
        let hasher = &self.hasher;
        let h = hasher.hash_one(k.as_str());
        self.table.insert_unique(h, pos, |&j| hasher.hash_one(keys.get(j as usize).map_or("", String::as_str)));
    }

    /// Forget `keys[i]` (still in `keys`), and shift the later positions down by one for
    /// its removal from `keys`.
    pub fn remove(&mut self, keys: &[String], i: usize) {
        let (Some(k), Ok(pos)) = (keys.get(i), u32::try_from(i)) else { return };
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
            ix.insert(&keys, keys.len() - 1);
        }
        assert_eq!((ix.get(&keys, "a"), ix.get(&keys, "c"), ix.get(&keys, "x")), (Some(0), Some(2), None));
        ix.remove(&keys, 1);
        keys.remove(1);
        assert_eq!((ix.get(&keys, "a"), ix.get(&keys, "b"), ix.get(&keys, "c")), (Some(0), None, Some(1)));
    }
}
