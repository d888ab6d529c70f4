//! Per-4 KiB-page tables of predecoded code: where blocks start (halfword-indexed entry
//! table) and which halfwords hold predecoded instructions (coverage bitmap). Lookup is two
//! array indexings: the 1 Mi-entry page slot table, then the page's entry table. The coverage
//! bitmap lets a store to a code page invalidate only when it really hits code.

/// "No slot" / "no block".
pub(crate) const NONE: u32 = u32::MAX;

/// Per-code-page tables.
pub(crate) struct CodePage {
    /// Block id starting at each halfword, or NONE.
    pub(crate) entry: Box<[u32; 2048]>,
    /// One bit per halfword covered by predecoded code.
    pub(crate) cov: [u64; 32],
}

/// Where blocks start and which halfwords hold predecoded code, per 4 KiB page.
pub(crate) struct CodeMap {
    page_slot: Vec<u32>,
    pages: Vec<CodePage>,
}

impl CodeMap {
    /// The block starting at `pc`, if predecoded.
    #[inline]
    pub(crate) fn lookup(&self, pc: u32) -> Option<u32> {
        let slot = self.page_slot[(pc >> 12) as usize];
        if slot == NONE {
            return None;
        }
        let id = self.pages[slot as usize].entry[((pc >> 1) & 0x7FF) as usize];
        (id != NONE).then_some(id)
    }

    /// True if any byte of `addr..addr+len` is covered by predecoded code.
    #[inline]
    pub(crate) fn covers(&self, addr: u32, len: u32) -> bool {
        if len == 0 {
            return false;
        }
        // Walk the halfwords touched; consecutive ones share a page lookup.
        let first = addr >> 1;
        let last = addr.wrapping_add(len - 1) >> 1;
        let mut h = first;
        loop {
            let a = h << 1;
            let slot = self.page_slot[(a >> 12) as usize];
            if slot != NONE {
                let k = (h & 0x7FF) as usize;
                if self.pages[slot as usize].cov[k / 64] >> (k % 64) & 1 != 0 {
                    return true;
                }
            }
            if h == last {
                return false;
            }
            h = h.wrapping_add(1) & 0x7FFF_FFFF;
        }
    }
}

impl CodeMap {
    /// An empty map.
    pub(crate) fn new() -> CodeMap {
        CodeMap {
            page_slot: vec![NONE; 1 << 20],
            pages: Vec::new(),
        }
    }

    /// The tables of page number `page`, created if needed (`true` if new).
    pub(crate) fn page_mut(&mut self, page: u32) -> (&mut CodePage, bool) {
        let mut slot = self.page_slot[page as usize];
        let new = slot == NONE;
        if new {
            slot = self.pages.len() as u32;
            self.pages.push(CodePage {
                entry: Box::new([NONE; 2048]),
                cov: [0; 32],
            });
            self.page_slot[page as usize] = slot;
        }
        (&mut self.pages[slot as usize], new)
    }

    /// Forgets every page (`pages` lists the page numbers in use).
    pub(crate) fn clear(&mut self, pages: &[u32]) {
        for &p in pages {
            self.page_slot[p as usize] = NONE;
        }
        self.pages.clear();
    }
}
