use super::*;
use crate::nres::NresWriter;
use proptest::prelude::*;

/// A RIFF/WAVE file assembled field by field.
fn wav(fmt: &[u8], extra: &[(&[u8; 4], &[u8])], data: &[u8]) -> Vec<u8> {
    let mut body = b"WAVE".to_vec();
    body.extend_from_slice(b"fmt ");
    body.extend_from_slice(&(fmt.len() as u32).to_le_bytes());
    body.extend_from_slice(fmt);
    for (id, payload) in extra {
        body.extend_from_slice(*id);
        body.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        body.extend_from_slice(payload);
        if payload.len() % 2 == 1 {
            body.push(0);
        }
    }
    body.extend_from_slice(b"data");
    body.extend_from_slice(&(data.len() as u32).to_le_bytes());
    body.extend_from_slice(data);
    if data.len() % 2 == 1 {
        body.push(0);
    }
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

fn pcm_fmt(channels: u16, bits: u16) -> Vec<u8> {
    let align = channels * bits / 8;
    let mut f = Vec::new();
    f.extend_from_slice(&1u16.to_le_bytes());
    f.extend_from_slice(&channels.to_le_bytes());
    f.extend_from_slice(&22050u32.to_le_bytes());
    f.extend_from_slice(&(22050 * u32::from(align)).to_le_bytes());
    f.extend_from_slice(&align.to_le_bytes());
    f.extend_from_slice(&bits.to_le_bytes());
    f
}

/// MS ADPCM `fmt ` payload with the standard coefficient table.
fn adpcm_fmt(channels: u16, block_align: u16, spb: u16) -> Vec<u8> {
    let mut f = Vec::new();
    f.extend_from_slice(&2u16.to_le_bytes());
    f.extend_from_slice(&channels.to_le_bytes());
    f.extend_from_slice(&22050u32.to_le_bytes());
    f.extend_from_slice(&11100u32.to_le_bytes());
    f.extend_from_slice(&block_align.to_le_bytes());
    f.extend_from_slice(&4u16.to_le_bytes());
    f.extend_from_slice(&32u16.to_le_bytes());
    f.extend_from_slice(&spb.to_le_bytes());
    f.extend_from_slice(&7u16.to_le_bytes());
    for (a, b) in [(256i16, 0i16), (512, -256), (0, 0), (192, 64), (240, 0), (460, -208), (392, -232)] {
        f.extend_from_slice(&a.to_le_bytes());
        f.extend_from_slice(&b.to_le_bytes());
    }
    f
}

#[test]
fn pcm16_wave_decodes_and_round_trips() {
    let data = [0x01, 0x00, 0xFF, 0xFF, 0x00, 0x80];
    let bytes = wav(&pcm_fmt(1, 16), &[(b"LIST", b"abc")], &data);
    let wave = RiffWave::parse(&bytes).unwrap();
    assert_eq!(wave.to_bytes(), bytes);
    assert_eq!(wave.chunks[1].pad, Some(0));
    let s = decode_wave(&bytes).unwrap();
    assert_eq!(s.samples, vec![1, -1, -32768]);
    assert_eq!((s.sample_rate, s.channels, s.frames()), (22050, 1, 3));
}

#[test]
fn pcm8_is_unsigned_and_widened() {
    let bytes = wav(&pcm_fmt(2, 8), &[], &[0x80, 0x00, 0xFF, 0x81]);
    let s = decode_wave(&bytes).unwrap();
    assert_eq!(s.samples, vec![0, -32768, 127 << 8, 1 << 8]);
    assert_eq!(s.frames(), 2);
}

#[test]
fn adpcm_mono_block_matches_hand_computation() {
    // predictor 0 (256, 0), delta 16, sample1 100, sample2 50; codes 1, 2, -1, -8.
    // 1: 100 + 16 = 116 (delta 230*16>>8 = 14 -> floor 16); 2: 116 + 32 = 148;
    // -1: 148 - 16 = 132; -8: 132 - 128 = 4.
    let mut block = vec![0u8];
    block.extend_from_slice(&16i16.to_le_bytes());
    block.extend_from_slice(&100i16.to_le_bytes());
    block.extend_from_slice(&50i16.to_le_bytes());
    block.extend_from_slice(&[0x12, 0xF8]);
    let bytes = wav(&adpcm_fmt(1, 9, 6), &[], &block);
    let s = decode_wave(&bytes).unwrap();
    assert_eq!(s.samples, vec![50, 100, 116, 148, 132, 4]);
}

#[test]
fn adpcm_second_predictor_adapts_the_step() {
    // predictor 1 (512, -256), delta 100, s1 1000, s2 900.
    // code 7: (1000*512 - 900*256) >> 8 = 1100, + 700 = 1800; delta = 614*100 >> 8 = 239.
    // code 0: (1800*512 - 1000*256) >> 8 = 2600; delta = 230*239 >> 8 = 214 (unused).
    let mut block = vec![1u8];
    block.extend_from_slice(&100i16.to_le_bytes());
    block.extend_from_slice(&1000i16.to_le_bytes());
    block.extend_from_slice(&900i16.to_le_bytes());
    block.push(0x70);
    block.push(0x00); // a third code byte would be 2 more samples; the block holds 4 in all
    let bytes = wav(&adpcm_fmt(1, 9, 4), &[], &block);
    let s = decode_wave(&bytes).unwrap();
    assert_eq!(s.samples, vec![900, 1000, 1800, 2600]);
}

#[test]
fn adpcm_clamps_and_stereo_interleaves() {
    // Mono clamp: predictor 1, s1 32000, s2 0 -> 64000 + 7*16 clamps to 32767.
    let mut block = vec![1u8];
    block.extend_from_slice(&16i16.to_le_bytes());
    block.extend_from_slice(&32000i16.to_le_bytes());
    block.extend_from_slice(&0i16.to_le_bytes());
    block.push(0x70);
    let s = decode_wave(&wav(&adpcm_fmt(1, 8, 3), &[], &block)).unwrap();
    assert_eq!(s.samples, vec![0, 32000, 32767]);

    // Stereo: predictors [0, 2], deltas [16, 20], s1 [10, -10], s2 [5, -5], byte 0x1F:
    // left code 1 -> 10 + 16 = 26; right code -1 with (0, 0) -> -20.
    let mut block = vec![0u8, 2];
    for v in [16i16, 20, 10, -10, 5, -5] {
        block.extend_from_slice(&v.to_le_bytes());
    }
    block.push(0x1F);
    let s = decode_wave(&wav(&adpcm_fmt(2, 15, 3), &[], &block)).unwrap();
    assert_eq!(s.samples, vec![5, -5, 10, -10, 26, -20]);
}

#[test]
fn adpcm_short_last_block_and_fact_truncation() {
    let mut one = vec![0u8];
    one.extend_from_slice(&16i16.to_le_bytes());
    one.extend_from_slice(&100i16.to_le_bytes());
    one.extend_from_slice(&50i16.to_le_bytes());
    let mut data = one.clone();
    data.extend_from_slice(&[0x12, 0xF8]);
    data.extend_from_slice(&one); // second block: header only -> two samples
    let s = decode_wave(&wav(&adpcm_fmt(1, 9, 6), &[], &data)).unwrap();
    assert_eq!(s.samples, vec![50, 100, 116, 148, 132, 4, 50, 100]);
    let fact = 7u32.to_le_bytes();
    let s = decode_wave(&wav(&adpcm_fmt(1, 9, 6), &[(b"fact", &fact)], &data)).unwrap();
    assert_eq!(s.samples.len(), 7);
    // A block shorter than its header is truncated input.
    let bad = decode_wave(&wav(&adpcm_fmt(1, 9, 6), &[], &data[..13])).unwrap_err();
    assert!(matches!(bad.kind, ErrorKind::Truncated { .. }), "{bad}");
}

#[test]
fn adpcm_rejects_bad_parameters() {
    let mut block = vec![9u8]; // predictor 9 of 7
    block.extend_from_slice(&[0; 6]);
    let e = decode_wave(&wav(&adpcm_fmt(1, 9, 6), &[], &block)).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid { rule: "adpcm_predictor", .. }));
    let e = decode_wave(&wav(&adpcm_fmt(1, 9, 7), &[], &[])).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid { rule: "adpcm_samples_per_block", .. }));
    let e = decode_wave(&wav(&adpcm_fmt(1, 6, 2), &[], &[])).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid { rule: "adpcm_block_align", .. }));
}

#[test]
fn malformed_framing_is_located() {
    let good = wav(&pcm_fmt(1, 16), &[], &[0, 0]);
    for n in 0..good.len() {
        assert!(decode_wave(&good[..n]).is_err(), "prefix {n}");
    }
    let mut lying = good.clone();
    lying[40..44].copy_from_slice(&100u32.to_le_bytes()); // data size beyond the file
    assert!(decode_wave(&lying).is_err());
    let mut magic = good.clone();
    magic[0] = b'X';
    assert!(matches!(decode_wave(&magic).unwrap_err().kind, ErrorKind::BadMagic { .. }));
    let mut tag = good;
    tag[20] = 0x55;
    assert!(matches!(decode_wave(&tag).unwrap_err().kind, ErrorKind::Unsupported(_)));
}

#[test]
fn four_load_results_are_distinct() {
    let mut w = NresWriter::new();
    w.add(SWAV, [0; 3], b"GOOD.WAV", wav(&pcm_fmt(1, 16), &[], &[1, 0])).unwrap();
    w.add(SWAV, [0; 3], b"ALIEN_ME.WAV", Vec::new()).unwrap();
    w.add(SWAV, [0; 3], b"BAD.WAV", b"RIFF\x04\0\0\0WAVX".to_vec()).unwrap();
    let bytes = w.to_bytes().unwrap();
    let nres = Nres::parse(&bytes, crate::ReadOptions::strict()).unwrap();
    assert_eq!(SoundLoad::from_nres(&nres, "nothere.wav").name(), "entry_missing");
    assert_eq!(SoundLoad::from_nres(&nres, "alien_me.wav"), SoundLoad::EntryEmpty);
    assert_eq!(SoundLoad::from_nres(&nres, "bad.wav").name(), "wave_invalid");
    match SoundLoad::from_nres(&nres, "good.wav") {
        SoundLoad::DecodedSample(s) => assert_eq!(s.samples, vec![1]),
        other => panic!("{other:?}"),
    }
}

fn sine(n: usize, period: f32, amp: f32) -> Vec<i16> {
    (0..n).map(|i| ((i as f32 * std::f32::consts::TAU / period).sin() * amp) as i16).collect()
}

#[test]
fn encoder_output_decodes_close_to_the_input() {
    let input = sine(5000, 50.0, 12000.0);
    let bytes = write_ms_adpcm(&input, 1, 22050, 256).unwrap();
    let wave = RiffWave::parse(&bytes).unwrap();
    assert_eq!(wave.fact_samples(), Some(5000));
    assert_eq!(wave.format().unwrap().block_align, 256);
    let s = decode_wave(&bytes).unwrap();
    assert_eq!(s.samples.len(), input.len());
    let noise: f64 = input.iter().zip(&s.samples).map(|(a, b)| (f64::from(*a) - f64::from(*b)).powi(2)).sum();
    let signal: f64 = input.iter().map(|a| f64::from(*a).powi(2)).sum();
    let snr = 10.0 * (signal / noise.max(1.0)).log10();
    assert!(snr > 20.0, "SNR {snr} dB");
    // Stereo: left and right stay separate.
    let st: Vec<i16> = sine(600, 40.0, 8000.0).into_iter().flat_map(|v| [v, -v]).collect();
    let s = decode_wave(&write_ms_adpcm(&st, 2, 22050, 512).unwrap()).unwrap();
    assert_eq!(s.channels, 2);
    let err: i64 = st.iter().zip(&s.samples).map(|(a, b)| (i64::from(*a) - i64::from(*b)).abs()).max().unwrap();
    assert!(err < 2000, "max error {err}");
}

#[test]
fn pcm_writer_round_trips_samples() {
    let input = vec![0i16, 1, -1, i16::MAX, i16::MIN, 7];
    let bytes = write_pcm16(&input, 2, 11025).unwrap();
    let s = decode_wave(&bytes).unwrap();
    assert_eq!(s.samples, input);
    assert_eq!(s.sample_rate, 11025);
    assert!(write_pcm16(&input[..5], 2, 11025).is_err());
}

proptest! {
    #[test]
    fn riff_write_read_write_identity(chunks in proptest::collection::vec((any::<[u8; 4]>(), proptest::collection::vec(any::<u8>(), 0..40)), 0..5)) {
        let list = chunks.iter().map(|(id, d)| (id, d.clone())).collect();
        let wave = RiffWave::from_chunks(list).unwrap();
        let bytes = wave.to_bytes();
        let again = RiffWave::parse(&bytes).unwrap();
        prop_assert_eq!(&again, &wave);
        prop_assert_eq!(again.to_bytes(), bytes);
    }

    #[test]
    fn adpcm_encode_decode_keeps_length(samples in proptest::collection::vec(any::<i16>(), 0..700)) {
        let bytes = write_ms_adpcm(&samples, 1, 22050, 64).unwrap();
        prop_assert_eq!(RiffWave::parse(&bytes).unwrap().to_bytes(), bytes.clone());
        let s = decode_wave(&bytes).unwrap();
        prop_assert_eq!(s.samples.len(), samples.len());
    }
}
