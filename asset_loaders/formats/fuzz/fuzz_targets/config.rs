//! Text configuration: INI files and object-block `.cfg` files round-trip losslessly.
#![no_main]

use iron3d_formats::config::{BehaviorIni, BlockCfg, IniFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let ini = IniFile::parse(data);
    assert_eq!(ini.to_bytes(), data);
    let _ = BehaviorIni::from_ini(&ini);
    if let Ok(cfg) = BlockCfg::parse(data) {
        assert_eq!(cfg.to_bytes(), data);
    }
});
