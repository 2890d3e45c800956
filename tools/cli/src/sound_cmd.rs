//! `iron3d-cli sound export FILE_OR_ADDRESS -o out.wav`: decode a SWAV sound (a loose
//! `.wav` file or `archive.lib::ENTRY`) to 16-bit PCM WAV, reporting the load result
//! (`entry_missing`, `entry_empty`, `wave_invalid`, `decoded_sample`).

use crate::output::{options, print_json};
use anyhow::{Context, bail};
use clap::Subcommand;
use iron3d_formats::sound::{SoundLoad, write_pcm16};
use iron3d_vfs::{Address, Archive};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Sound commands.
#[derive(Subcommand)]
pub enum SoundCommand {
    /// Decode a sound to a 16-bit PCM WAV file.
    Export {
        /// A `.wav` file or `archive::entry` (entry names are case-insensitive).
        source: String,
        /// Output `.wav`.
        #[arg(short, long)]
        output: PathBuf,
        /// Print JSON information.
        #[arg(long)]
        json: bool,
        /// Strict archive reading.
        #[arg(long)]
        strict: bool,
    },
}

#[derive(Serialize)]
struct Info {
    source: String,
    result: &'static str,
    format_tag: u16,
    sample_rate: u32,
    channels: u16,
    frames: usize,
    seconds: f64,
}

fn load(source: &str, strict: bool) -> anyhow::Result<SoundLoad> {
    let address = Address::parse(source);
    match &address.entry {
        None => {
            let bytes = std::fs::read(&address.file).with_context(|| format!("reading {}", address.file))?;
            Ok(SoundLoad::from_lookup(Some(&bytes)))
        }
        Some(entry) => {
            let archive = Archive::open(Path::new(&address.file), &address.file, options(strict))
                .with_context(|| format!("opening {}", address.file))?;
            Ok(match archive.find(entry) {
                None => SoundLoad::EntryMissing,
                Some(i) => SoundLoad::from_lookup(Some(&archive.read_index(i)?)),
            })
        }
    }
}

/// Runs a sound command.
pub fn run(cmd: SoundCommand) -> anyhow::Result<()> {
    let SoundCommand::Export { source, output, json, strict } = cmd;
    let sample = match load(&source, strict)? {
        SoundLoad::DecodedSample(s) => s,
        SoundLoad::WaveInvalid(e) => bail!("{source}: wave_invalid: {e}"),
        other => bail!("{source}: {}", other.name()),
    };
    let wav = write_pcm16(&sample.samples, sample.channels, sample.sample_rate)?;
    std::fs::write(&output, wav).with_context(|| format!("writing {}", output.display()))?;
    let info = Info {
        source,
        result: "decoded_sample",
        format_tag: sample.format_tag,
        sample_rate: sample.sample_rate,
        channels: sample.channels,
        frames: sample.frames(),
        seconds: sample.seconds(),
    };
    if json {
        return print_json(&info);
    }
    println!(
        "{}: {} Hz, {} channel(s), {} frames ({:.3} s) -> {}",
        info.source,
        info.sample_rate,
        info.channels,
        info.frames,
        info.seconds,
        output.display()
    );
    Ok(())
}
