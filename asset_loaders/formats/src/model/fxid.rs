//! FXID effects (`docs/reference/models.md` §6): 60-byte header and a stream of commands framed
//! by opcode (sizes confirmed). Resource references are decoded at the confirmed
//! offsets; command bodies stay raw, with a typed view of the 3D-sound command. An
//! unknown opcode is an explicit error (the engine would advance by 0).

use crate::bytes::{Cursor, display_name, fixed_field, fixed_str};
use crate::error::{Error, Result};
use crate::model::Put;
use crate::options::ReadOptions;

/// NRes type id `FXID`.
pub const TYPE_ID: u32 = 0x4449_5846;
/// Header size; the command stream starts here.
pub const HEADER_SIZE: usize = 60;

/// Size of a command including its word (`None` for an unknown opcode).
pub fn command_size(opcode: u8) -> Option<usize> {
    Some(match opcode {
        1 => 224,
        2 => 148,
        3 => 200,
        4 => 204,
        5 => 112,
        6 => 4,
        7 | 9 | 10 => 208,
        8 => 248,
        _ => return None,
    })
}

/// Offset of the `archive[32] + name[32]` reference inside a command (confirmed).
pub fn reference_offset(opcode: u8) -> Option<usize> {
    Some(match opcode {
        1 => 160,
        2 => 84,
        3 | 4 | 9 => 136,
        5 => 48,
        7 | 10 => 144,
        8 => 184,
        _ => return None,
    })
}

/// The 60-byte header (confirmed layout; flag meanings inferred).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FxHeader {
    /// `+0x00` command count.
    pub command_count: u32,
    /// `+0x04` time mode 0…17.
    pub time_mode: u32,
    /// `+0x08` duration in seconds.
    pub duration: f32,
    /// `+0x0C` phase jitter.
    pub phase_jitter: f32,
    /// `+0x10` flags (unknown bits preserved).
    pub flags: u32,
    /// `+0x14` settings id (the engine uses the low byte).
    pub settings_id: u32,
    /// `+0x18` random shift.
    pub random_shift: [f32; 3],
    /// `+0x24` pivot.
    pub pivot: [f32; 3],
    /// `+0x30` base scale.
    pub scale: [f32; 3],
}

/// A resource reference `archive[32] + name[32]` (raw fields, tails kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceRef {
    /// Archive field.
    pub archive: [u8; 32],
    /// Resource name field.
    pub name: [u8; 32],
}

impl ResourceRef {
    /// A reference from two names.
    pub fn new(archive: &[u8], name: &[u8]) -> Result<Self> {
        Ok(Self { archive: fixed_field(archive)?, name: fixed_field(name)? })
    }

    /// True when both names are non-empty.
    pub fn is_set(&self) -> bool {
        !fixed_str(&self.archive).is_empty() && !fixed_str(&self.name).is_empty()
    }

    /// `archive / name` for messages.
    pub fn display(&self) -> String {
        format!("{} / {}", display_name(&self.archive), display_name(&self.name))
    }
}

/// One command: its word and the raw body (size fixed by the opcode).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The command word (opcode in bits 0–7, enabled in bit 8, the rest preserved).
    pub word: u32,
    /// Body bytes after the word.
    pub body: Vec<u8>,
}

/// Typed view of opcode 2 (3D sound; field names inferred, offsets confirmed).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoundCommand {
    /// `+4` mode (0→0, 1→512, 2→2, 3→514 internally).
    pub mode: u32,
    /// `+8` / `+12` active window.
    pub t_start: f32,
    /// End of the active window.
    pub t_end: f32,
    /// `+16`, `+28`, `+40`, `+52` vector ranges.
    pub vectors: [[f32; 3]; 4],
    /// `+64 c0`, `+68 c1`, `+72 c2`, `+76 c2_max`.
    pub scalars: [f32; 4],
    /// `+80` word passed to manager command 910.
    pub manager_arg: u32,
    /// `+84` sound archive and name.
    pub reference: ResourceRef,
}

impl Command {
    /// Opcode.
    pub fn opcode(&self) -> u8 {
        (self.word & 0xFF) as u8
    }

    /// Enabled bit.
    pub fn enabled(&self) -> bool {
        self.word & 0x100 != 0
    }

    /// The resource reference, `None` for opcode 6 or an empty optional opcode-1 one.
    pub fn reference(&self) -> Option<ResourceRef> {
        let at = reference_offset(self.opcode())?.checked_sub(4)?;
        let field = self.body.get(at..at + 64)?;
        let mut r = ResourceRef { archive: [0; 32], name: [0; 32] };
        r.archive.copy_from_slice(&field[..32]);
        r.name.copy_from_slice(&field[32..]);
        (self.opcode() != 1 || r.is_set()).then_some(r)
    }

    /// Typed view of a sound command (opcode 2).
    pub fn sound(&self) -> Option<SoundCommand> {
        if self.opcode() != 2 {
            return None;
        }
        let mut c = Cursor::new(&self.body);
        let mut read = || -> Result<SoundCommand> {
            Ok(SoundCommand {
                mode: c.u32()?,
                t_start: c.f32()?,
                t_end: c.f32()?,
                vectors: [c.vec3()?, c.vec3()?, c.vec3()?, c.vec3()?],
                scalars: [c.f32()?, c.f32()?, c.f32()?, c.f32()?],
                manager_arg: c.u32()?,
                reference: ResourceRef { archive: c.array()?, name: c.array()? },
            })
        };
        read().ok()
    }

    /// Authoring: a command with a zeroed body of the opcode's size.
    pub fn new(opcode: u8, enabled: bool) -> Result<Self> {
        let size = command_size(opcode).ok_or_else(|| Error::invalid(0, "fxid_opcode", format!("opcode {opcode}")))?;
        Ok(Self { word: u32::from(opcode) | (u32::from(enabled) << 8), body: vec![0; size - 4] })
    }

    /// Authoring: a sound command.
    pub fn new_sound(enabled: bool, s: &SoundCommand) -> Result<Self> {
        let mut body = Vec::with_capacity(144);
        body.put_u32(s.mode);
        [s.t_start, s.t_end]
            .into_iter()
            .chain(s.vectors.into_iter().flatten())
            .chain(s.scalars)
            .for_each(|f| body.put_f32(f));
        body.put_u32(s.manager_arg);
        body.extend_from_slice(&s.reference.archive);
        body.extend_from_slice(&s.reference.name);
        Ok(Self { body, ..Self::new(2, enabled)? })
    }

    /// Authoring: sets the resource reference at the opcode's offset.
    pub fn set_reference(&mut self, r: &ResourceRef) -> Result<()> {
        let at = reference_offset(self.opcode()).and_then(|o| o.checked_sub(4));
        let field = at.and_then(|at| self.body.get_mut(at..at + 64));
        let field = field.ok_or_else(|| Error::invalid(0, "fxid_reference", "command has no reference field"))?;
        field[..32].copy_from_slice(&r.archive);
        field[32..].copy_from_slice(&r.name);
        Ok(())
    }
}

/// An effect.
#[derive(Debug, Clone, PartialEq)]
pub struct Effect {
    /// Header (its `command_count` is rewritten from `commands` on save).
    pub header: FxHeader,
    /// Commands in disk order.
    pub commands: Vec<Command>,
}

impl Effect {
    /// Parses an effect. Strict mode also requires every reference (except the optional
    /// opcode-1 one) to name both an archive and a resource.
    pub fn parse(bytes: &[u8], options: ReadOptions) -> Result<Self> {
        let mut c = Cursor::new(bytes);
        let header = FxHeader {
            command_count: c.u32()?,
            time_mode: c.u32()?,
            duration: c.f32()?,
            phase_jitter: c.f32()?,
            flags: c.u32()?,
            settings_id: c.u32()?,
            random_shift: c.vec3()?,
            pivot: c.vec3()?,
            scale: c.vec3()?,
        };
        c.check_count(u64::from(header.command_count), 4, "commands")?;
        let mut commands = Vec::with_capacity(header.command_count as usize);
        for i in 0..header.command_count {
            let at = c.offset();
            let word = c.u32()?;
            let opcode = (word & 0xFF) as u8;
            let size = command_size(opcode)
                .ok_or_else(|| Error::invalid(at, "fxid_opcode", format!("command {i}: unknown opcode {opcode}")))?;
            let command = Command { word, body: c.take(size - 4)?.to_vec() };
            if options.strict && command.reference().is_some_and(|r| !r.is_set()) {
                return Err(Error::invalid(
                    at,
                    "fxid_reference",
                    format!("command {i} (opcode {opcode}): empty reference"),
                ));
            }
            commands.push(command);
        }
        c.expect_end("effect commands")?;
        Ok(Self { header, commands })
    }

    /// Serialises the effect.
    pub fn to_bytes(&self) -> Vec<u8> {
        let h = &self.header;
        let mut out = Vec::with_capacity(HEADER_SIZE + self.commands.iter().map(|c| 4 + c.body.len()).sum::<usize>());
        out.put_u32(self.commands.len() as u32);
        out.put_u32(h.time_mode);
        out.put_f32(h.duration);
        out.put_f32(h.phase_jitter);
        out.put_u32(h.flags);
        out.put_u32(h.settings_id);
        [h.random_shift, h.pivot, h.scale].iter().flatten().for_each(|&f| out.put_f32(f));
        for c in &self.commands {
            out.put_u32(c.word);
            out.extend_from_slice(&c.body);
        }
        out
    }

    /// Active by default (`!(flags & 0x40)`).
    pub fn active_default(&self) -> bool {
        self.header.flags & 0x40 == 0
    }
}

#[cfg(test)]
#[path = "fxid_tests.rs"]
mod tests;
