//! The data layers a player plays with (`iron3d_core::DataLayers`: the project's data,
//! the game, mods), as a joining client sends them in `GMSG_SET_PLAYER_DATA`'s data
//! bytes: one line per layer, bottom first, `FINGERPRINT NAME` (16 hex digits, a space,
//! the name). The host refuses a client whose list differs from its own, naming both.
//! An empty list is a client that reads no game data (a headless bot mirroring the
//! host's world); it is admitted.

use iron3d_core::{DataLayer, DataLayers};

/// The layer list as `GMSG_SET_PLAYER_DATA` data.
pub fn encode(layers: &DataLayers) -> Vec<u8> {
    layers.0.iter().map(|l| format!("{:016x} {}\n", l.fingerprint, l.name)).collect::<String>().into_bytes()
}

/// A layer list from `GMSG_SET_PLAYER_DATA` data.
///
/// # Errors
/// Text that is not lines of `FINGERPRINT NAME`, naming the line.
pub fn decode(bytes: &[u8]) -> Result<DataLayers, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("layer list is not UTF-8: {e}"))?;
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let bad = || format!("layer list line {}: {line:?} is not FINGERPRINT NAME", i + 1);
            let (hex, name) = line.split_once(' ').ok_or_else(bad)?;
            let fingerprint = u64::from_str_radix(hex, 16).map_err(|_| bad())?;
            match (hex.len(), name.is_empty()) {
                (16, false) => Ok(DataLayer { name: name.to_string(), fingerprint }),
                _ => Err(bad()),
            }
        })
        .collect::<Result<_, _>>()
        .map(DataLayers)
}

/// Why a client sending `data` may not join a host playing `own`, if it may not.
pub fn refusal(own: &DataLayers, data: &[u8]) -> Option<String> {
    if data.is_empty() {
        return None;
    }
    match decode(data) {
        Err(e) => Some(e),
        Ok(theirs) if theirs != *own => Some(format!("data layers differ: the client has {theirs}, the host {own}")),
        Ok(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layers(list: &[(&str, u64)]) -> DataLayers {
        DataLayers(list.iter().map(|(n, f)| DataLayer { name: (*n).into(), fingerprint: *f }).collect())
    }

    #[test]
    fn a_layer_list_round_trips_and_bad_text_is_named() {
        let list = layers(&[("project", 1), ("game", u64::MAX), ("mod:big robots", 0xabc)]);
        assert_eq!(decode(&encode(&list)).unwrap(), list);
        assert_eq!(decode(b"").unwrap(), DataLayers::default());
        for bad in [&b"zz game\n"[..], b"0000000000000001\n", b"01 game\n", b"0000000000000001 \n", b"\xff"] {
            assert!(decode(bad).is_err(), "{bad:?}");
        }
        assert!(decode(b"0000000000000001 game\nbad").unwrap_err().contains("line 2"));
    }

    #[test]
    fn a_different_list_is_refused_with_both_and_none_is_a_bot() {
        let host = layers(&[("project", 1), ("game", 2)]);
        assert_eq!(refusal(&host, &encode(&host)), None);
        assert_eq!(refusal(&host, &[]), None, "a client reading no data");
        let modded = layers(&[("project", 1), ("game", 2), ("mod:m", 3)]);
        let why = refusal(&host, &encode(&modded)).unwrap();
        assert!(why.contains(&host.to_string()) && why.contains(&modded.to_string()), "{why}");
        assert!(refusal(&host, b"nonsense").is_some());
    }
}
