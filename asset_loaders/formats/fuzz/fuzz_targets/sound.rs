//! SWAV sounds: RIFF framing round trip and PCM / MS ADPCM decoding.
#![no_main]

use iron3d_formats::sound::{RiffWave, SoundLoad};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(w) = RiffWave::parse(data) {
        assert_eq!(w.to_bytes(), data);
    }
    let _ = SoundLoad::from_lookup(Some(data));
});
