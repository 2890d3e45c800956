//! Reading modes: strict (tests, editors, validation) and compatible (running the
//! game), with each named compatibility quirk of the spec behind its own switch.

/// Switches for the named compatibility quirks (`docs/reference/README.md` §7). All off = strict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Quirks {
    /// NRes: fall back to a linear case-insensitive scan when `sort_index` is unusable.
    pub nres_linear_lookup: bool,
    /// RsLi: honour a 6-byte `AO` overlay trailer.
    pub rsli_ao_overlay: bool,
    /// RsLi: rebuild a presorted (`0xABBA`) map that is not a sorted permutation.
    pub rsli_presorted_rebuild: bool,
    /// RsLi: read `packed_size - 1` bytes for the registered Deflate entry that
    /// declares one byte past end of file.
    pub deflate_eof_plus_one: bool,
    /// LZHUF position decoding: use the public Rust decoder's variant instead of the
    /// classic one (`docs/reference/containers.md` §2.8, disputed).
    pub lzhuf_alternate_position: bool,
    /// WEAR/MAT0: a missing material resolves to `DEFAULT`, then to entry 0 of `Material.lib`.
    pub material_fallback: bool,
    /// WEAR: a missing lightmap resolves to slot -1 (no lightmap).
    pub lightmap_missing_slot: bool,
    /// WEAR: accept a `LIGHTMAPS` section without the blank line before it.
    pub wear_blank_before_lightmaps: bool,
}

/// How a reader treats data: strict mode rejects every quirk; compatible mode accepts
/// exactly the enabled quirks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// Strict validation of rules that the engine itself does not enforce.
    pub strict: bool,
    /// Enabled quirks.
    pub quirks: Quirks,
}

impl ReadOptions {
    /// Strict profile: every rule checked, no quirk accepted.
    pub const fn strict() -> Self {
        Self {
            strict: true,
            quirks: Quirks {
                nres_linear_lookup: false,
                rsli_ao_overlay: false,
                rsli_presorted_rebuild: false,
                deflate_eof_plus_one: false,
                lzhuf_alternate_position: false,
                material_fallback: false,
                lightmap_missing_slot: false,
                wear_blank_before_lightmaps: false,
            },
        }
    }

    /// Compatible profile: the named quirks of the retail data are accepted.
    pub const fn compatible() -> Self {
        Self {
            strict: false,
            quirks: Quirks {
                nres_linear_lookup: true,
                rsli_ao_overlay: true,
                rsli_presorted_rebuild: true,
                deflate_eof_plus_one: true,
                lzhuf_alternate_position: false,
                material_fallback: true,
                lightmap_missing_slot: true,
                wear_blank_before_lightmaps: true,
            },
        }
    }
}

impl Default for ReadOptions {
    fn default() -> Self {
        Self::compatible()
    }
}
