//! `node RANGE_MAX RANGE_MIN NAME KIND BODY… END` of every kind, each into its record
//! (the grammar of the simulator's loaders: `Track.cpp`, `Traction.cpp`,
//! `TractionPower.cpp`, `AnimModel.cpp`, `scenenode.cpp`, `MemCell.cpp`, `EvLaunch.cpp`,
//! `sound.cpp`, `simulationstateserializer.cpp`).

use super::{Baker, Token};
use crate::error::Result;
use crate::logic::{Dynamic, LaunchCondition, Launcher, MemCell, Sound};
use crate::model::ModelRecord;
use crate::node::{Lighting, PackedVertex, SlimNode, TaggedLighting, flags};
use crate::prim::Sid;
use crate::shape::{LineShape, Shape};
use crate::track::{PowerSource, SegmentPath, TailEntry, Track, TrackVisibility, Traction};

/// A track's tail keywords by their stored code (§6.4).
const TAIL: [&[u8]; 18] = [
    b"event0",
    b"eventall0",
    b"event1",
    b"eventall1",
    b"event2",
    b"eventall2",
    b"velocity",
    b"isolated",
    b"overhead",
    b"vradius",
    b"railprofile",
    b"trackbed",
    b"friction",
    b"fouling1",
    b"fouling2",
    b"sleepermodel",
    b"angle1",
    b"angle2",
];

/// The words that end a model's light list.
const MODEL_WORDS: [&[u8]; 6] = [b"endmodel", b"lights", b"lightcolors", b"angles", b"scale", b"notransition"];

fn f32s<const N: usize>(v: [f64; N]) -> [f32; N] {
    v.map(|x| x as f32)
}

impl Baker {
    /// One `node` (its header token `head`).
    pub(super) fn node(&mut self, head: &Token) -> Result<()> {
        let range_max = self.number(head, "node")?;
        let range_min = self.number(head, "node")?;
        let name = self.word(head, "node")?;
        let kind = self.word(head, "node")?;
        let node = self.slim(&name, range_max, range_min);
        match kind.text.as_slice() {
            b"track" => self.track(head, node),
            b"traction" => self.traction(head, node),
            b"tractionpowersource" => self.power_source(head, node),
            b"model" => self.model(head, node, range_min < 0.0),
            b"triangles" => self.shape(head, node, 0),
            b"triangle_strip" => self.shape(head, node, 1),
            b"triangle_fan" => self.shape(head, node, 2),
            b"lines" => self.line(head, node, 0),
            b"line_strip" => self.line(head, node, 1),
            b"line_loop" => self.line(head, node, 2),
            b"memcell" => self.memcell(head, node),
            b"eventlauncher" => self.launcher(head, node),
            b"sound" => self.sound(head, node),
            b"dynamic" => self.dynamic(head, node),
            _ => {
                self.warn(&kind, "unknown node kind: skipped to its end");
                loop {
                    if self.word(head, "node")?.text.starts_with(b"end") {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// A track segment: `P1 ROLL1 CV1 CV2 P2 ROLL2 RADIUS`, its ends moved by the origin.
    fn segment(&mut self, head: &Token) -> Result<SegmentPath> {
        let p_start = self.point(head, "track")?;
        let roll_start = self.number(head, "track")?;
        let cp_out = self.point(head, "track")?;
        let cp_in = self.point(head, "track")?;
        let p_end = self.point(head, "track")?;
        let (roll_end, radius) = (self.number(head, "track")?, self.number(head, "track")?);
        Ok(SegmentPath {
            p_start: self.place.offset(p_start),
            roll_start: roll_start as f32,
            cp_out: f32s(cp_out),
            cp_in: f32s(cp_in),
            p_end: self.place.offset(p_end),
            roll_end: roll_end as f32,
            radius: radius as f32,
        })
    }

    fn track(&mut self, head: &Token, node: SlimNode) -> Result<()> {
        let kind = self.word(head, "track")?;
        let (track_type, category, paths) = match kind.text.as_slice() {
            b"normal" => (1, 1, 1),
            b"switch" => (2, 1, 2),
            b"turn" | b"table" => (3, 1, 1),
            b"road" => (1, 2, 1),
            b"cross" => (4, 2, 2),
            b"river" => (1, 4, 1),
            b"tributary" => (5, 4, 2),
            _ => {
                self.warn(&kind, "unknown track kind");
                (0, 1, 1)
            }
        };
        let mut n = [0.0; 6];
        for v in &mut n {
            *v = self.number(head, "track")?;
        }
        let environment = self.word(head, "track")?;
        let environment = match environment.text.as_slice() {
            b"flat" => 1,
            b"mountains" | b"mountain" => 2,
            b"canyon" => 3,
            b"tunnel" => 4,
            b"bridge" => 5,
            b"bank" => 6,
            _ => {
                self.warn(&environment, "unknown track environment");
                0
            }
        };
        let visible = self.word(head, "track")?.text == b"vis";
        let visibility = if visible {
            let material1 = self.word(head, "track")?;
            let tex_length = self.number(head, "track")?;
            let material2 = self.word(head, "track")?;
            let [tex_height1, tex_width, tex_slope] = self.point(head, "track")?;
            TrackVisibility {
                material1: self.sid(&material1.text),
                tex_length: tex_length as f32,
                material2: self.sid(&material2.text),
                tex_height1: tex_height1 as f32,
                tex_width: tex_width as f32,
                tex_slope: tex_slope as f32,
            }
        } else {
            TrackVisibility::default()
        };
        let mut segments = Vec::with_capacity(paths);
        for _ in 0..paths {
            segments.push(self.segment(head)?);
        }
        let mut tail = Vec::new();
        loop {
            let t = self.word(head, "track")?;
            if t.text == b"endtrack" {
                break;
            }
            let Some(code) = TAIL.iter().position(|k| *k == t.text.as_slice()) else {
                self.warn(&t, "unknown track keyword: skipped");
                continue;
            };
            let value = if TAIL[code] == b"sleepermodel" {
                let mut words = Vec::new();
                for _ in 0..7 {
                    words.push(self.word(head, "track")?.raw);
                }
                words.join(&b' ')
            } else {
                self.word(head, "track")?.text
            };
            tail.push(TailEntry { code: code as u8 + 1, key: Sid::EMPTY, value: self.sid(&value) });
        }
        self.scene.tracks.push(Track {
            node,
            track_type,
            category,
            length: n[0] as f32,
            track_width: n[1] as f32,
            friction: n[2] as f32,
            sound_distance: n[3] as f32,
            quality_flag: n[4] as i32,
            damage_flag: n[5] as i32,
            environment,
            has_visibility: u8::from(visible),
            visibility,
            paths: segments,
            tail,
        });
        Ok(())
    }

    fn traction(&mut self, head: &Token, mut node: SlimNode) -> Result<()> {
        let source = self.word(head, "traction")?;
        let (voltage, current, resistivity) =
            (self.number(head, "traction")?, self.number(head, "traction")?, self.number(head, "traction")?);
        let material = self.word(head, "traction")?;
        let (thickness, damage) = (self.number(head, "traction")?, self.number(head, "traction")?);
        let mut wires = [[0.0; 3]; 4];
        for w in &mut wires {
            let p = self.point(head, "traction")?;
            *w = self.place.offset(p);
        }
        let (min_height, segment_length) = (self.number(head, "traction")?, self.number(head, "traction")?);
        let (wire_count, wire_offset) = (self.number(head, "traction")?, self.number(head, "traction")?);
        if self.word(head, "traction")?.text != b"vis" {
            node.flags |= flags::HIDDEN;
        }
        let parallel = if self.peek_is(&[b"parallel"]) {
            self.word(head, "traction")?;
            Some(self.word(head, "traction")?)
        } else {
            None
        };
        self.expect_end(head, "traction", &[b"endtraction"])?;
        // The simulator's: 0.01 stands for 0.075, in mΩ/m.
        let ohms = if resistivity == 0.01 { 0.075 } else { resistivity } * 0.001;
        let record = Traction {
            node,
            power_supply_name: self.sid(&source.text),
            material: match material.text.as_slice() {
                b"none" => 0,
                b"al" => 2,
                _ => 1,
            },
            nominal_voltage: voltage as f32,
            max_current: current as f32,
            resistivity_ohm_per_m: ohms as f32,
            resistivity_legacy: resistivity as f32,
            material_raw: self.sid(&material.text),
            wire_thickness: thickness as f32,
            damage_flag: damage as i32,
            wires,
            min_height: min_height as f32,
            segment_length: segment_length as f32,
            wire_count: wire_count as i32,
            wire_offset: wire_offset as f32,
            has_parallel: u8::from(parallel.is_some()),
            parallel_name: parallel.map_or(Sid::EMPTY, |p| self.int.intern(&p.text)),
        };
        self.scene.traction.push(record);
        Ok(())
    }

    fn power_source(&mut self, head: &Token, node: SlimNode) -> Result<()> {
        let position = self.point(head, "tractionpowersource")?;
        let mut v = [0.0; 7];
        for x in &mut v {
            *x = self.number(head, "tractionpowersource")?;
        }
        let [voltage, frequency, resistance, current, fast, repetition, slow] = v;
        let mut modifier = 0;
        loop {
            let t = self.word(head, "tractionpowersource")?;
            match t.text.as_slice() {
                b"end" => break,
                b"section" => modifier = 2,
                b"recuperation" => modifier = modifier.max(1),
                _ => self.warn(&t, "unexpected in tractionpowersource: skipped"),
            }
        }
        // The simulator's: an internal resistance under 0.1 stands for 0.2.
        let internal = if resistance < 0.1 { 0.2 } else { resistance };
        let values = f32s([voltage, frequency, resistance, internal, current, fast, repetition, slow]);
        let position = self.place.point(position);
        self.scene.power.push(PowerSource { node, position, values, modifier });
        Ok(())
    }

    fn model(&mut self, head: &Token, node: SlimNode, is_terrain: bool) -> Result<()> {
        let at = self.point(head, "model")?;
        let heading = self.number(head, "model")?;
        let (file, skin) = (self.word(head, "model")?, self.word(head, "model")?);
        let rotation = self.place.rotation;
        let mut angles = f32s([rotation[0], rotation[1] + heading, rotation[2]]);
        let mut scale = self.place.scale();
        let (mut lights, mut colors, mut transition) = (Vec::new(), Vec::new(), 1);
        loop {
            let t = self.word(head, "model")?;
            match t.text.as_slice() {
                b"endmodel" => break,
                b"lights" => {
                    while !self.peek_is(&MODEL_WORDS) {
                        lights.push(self.number(head, "model")? as f32);
                    }
                }
                b"lightcolors" => {
                    while !self.peek_is(&MODEL_WORDS) {
                        let c = self.word(head, "model")?;
                        colors.push(self.color(&c));
                    }
                }
                b"angles" => angles = f32s(self.point(head, "model")?),
                b"scale" => {
                    let s = self.point(head, "model")?;
                    scale = [scale[0] * s[0], scale[1] * s[1], scale[2] * s[2]];
                }
                b"notransition" => transition = 0,
                _ => self.warn(&t, "unexpected in model: skipped"),
            }
        }
        let record = ModelRecord {
            node,
            is_terrain: u8::from(is_terrain),
            transition,
            location: self.place.point(at),
            angles,
            scale: f32s(scale),
            model_file: self.sid(&file.text),
            texture_file: self.sid(&skin.raw),
            light_states: lights,
            light_colors: colors,
        };
        self.scene.models.push(record);
        Ok(())
    }

    /// A light colour: one `RRGGBB` token; `-1` keeps the model's own (stored as all bits).
    fn color(&mut self, t: &Token) -> u32 {
        if t.text == b"-1" {
            return u32::MAX;
        }
        match std::str::from_utf8(&t.text).ok().and_then(|s| u32::from_str_radix(s, 16).ok()) {
            Some(c) if c <= 0xFF_FFFF => c,
            _ => {
                self.warn(t, "not a colour RRGGBB");
                0
            }
        }
    }

    /// A material block's three colours, 0..255 each (`None` for those not given).
    fn material(&mut self, head: &Token) -> Result<[Option<[f32; 3]>; 3]> {
        let mut out = [None; 3];
        loop {
            let t = self.word(head, "material")?;
            let k = match t.text.as_slice() {
                b"endmaterial" => return Ok(out),
                b"ambient:" => 0,
                b"diffuse:" => 1,
                b"specular:" => 2,
                _ => {
                    self.warn(&t, "unexpected in material: skipped");
                    continue;
                }
            };
            out[k] = Some(f32s(self.point(head, "material")?).map(|c| c / 255.0));
        }
    }

    fn shape(&mut self, head: &Token, mut node: SlimNode, subtype: u8) -> Result<()> {
        let mut texture = self.word(head, "shape")?;
        let mut lighting = Lighting::default();
        if texture.text == b"material" {
            let [ambient, diffuse, specular] = self.material(head)?;
            let rgba = |c: [f32; 3]| [c[0], c[1], c[2], 1.0];
            if ambient.is_some_and(|c| c != [0.0; 3]) || diffuse.is_some_and(|c| c != [0.0; 3]) {
                lighting = Lighting {
                    ambient: rgba(ambient.unwrap_or_default()),
                    diffuse: rgba(diffuse.unwrap_or_default()),
                    specular: rgba(specular.unwrap_or_default()),
                };
            }
            texture = self.word(head, "shape")?;
        }
        let mut corners = Vec::new();
        loop {
            let mut v = [0.0; 8];
            for x in &mut v {
                *x = self.number(head, "shape")?;
            }
            let position = self.place.vertex([v[0], v[1], v[2]]);
            let normal = self.place.normal([v[3], v[4], v[5]]);
            corners.push((position, normal, [v[6] as f32, v[7] as f32]));
            if self.word(head, "shape")?.text == b"endtri" {
                break;
            }
        }
        let triangles = triangles(corners.len(), subtype);
        let mut vertices = Vec::with_capacity(triangles.len() * 3);
        for [a, b, c] in triangles {
            let (pa, pb, pc) = (corners[a].0, corners[b].0, corners[c].0);
            if degenerate(pa, pb, pc) {
                continue;
            }
            for k in [a, b, c] {
                let (p, n, uv) = corners[k];
                vertices.push(PackedVertex::from_floats(p, n, uv));
            }
        }
        let positions: Vec<[f32; 3]> = vertices.iter().map(|v| v.position).collect();
        bound(&mut node, &positions);
        let record = Shape {
            subtype,
            node,
            translucent: u8::from(texture.text.contains(&b'@')),
            material: self.sid(&texture.text),
            lighting: TaggedLighting::canonical(lighting),
            origin: [0.0; 3],
            vertices,
        };
        self.scene.shapes.push(record);
        Ok(())
    }

    fn line(&mut self, head: &Token, mut node: SlimNode, subtype: u8) -> Result<()> {
        let rgb = f32s(self.point(head, "line")?).map(|c| c / 255.0);
        let width = (self.number(head, "line")? as f32).min(30.0);
        let mut points = Vec::new();
        loop {
            if self.peek_is(&[b"endline"]) {
                self.word(head, "line")?;
                break;
            }
            let p = self.point(head, "line")?;
            points.push(self.place.vertex(p));
        }
        let mut positions = Vec::new();
        match subtype {
            0 => {
                if points.len() % 2 == 1 {
                    self.warn(head, "lines with an odd count of points: the last one dropped");
                }
                positions.extend(points.chunks_exact(2).flatten());
            }
            _ => {
                for w in points.windows(2) {
                    positions.extend_from_slice(w);
                }
                if subtype == 2 && points.len() > 2 {
                    positions.extend([points[points.len() - 1], points[0]]);
                }
            }
        }
        bound(&mut node, &positions);
        let lighting = Lighting { diffuse: [rgb[0], rgb[1], rgb[2], 1.0], ..Lighting::default() };
        let record = LineShape {
            subtype,
            node,
            lighting: TaggedLighting::canonical(lighting),
            line_width: width,
            origin: [0.0; 3],
            positions,
        };
        self.scene.lines.push(record);
        Ok(())
    }

    fn memcell(&mut self, head: &Token, node: SlimNode) -> Result<()> {
        self.point(head, "memcell")?;
        let text = self.word(head, "memcell")?;
        let (value1, value2) = (self.number(head, "memcell")?, self.number(head, "memcell")?);
        let track = self.word(head, "memcell")?;
        self.expect_end(head, "memcell", &[b"endmemcell"])?;
        let record = MemCell {
            node,
            text: self.sid(&text.raw),
            value1: value1 as f32,
            value2: value2 as f32,
            track_name: if track.text == b"none" { Sid::EMPTY } else { self.sid(&track.raw) },
        };
        self.scene.memcells.push(record);
        Ok(())
    }

    fn launcher(&mut self, head: &Token, node: SlimNode) -> Result<()> {
        const ENDS: [&[u8]; 2] = [b"end", b"endeventlauncher"];
        let at = self.point(head, "eventlauncher")?;
        let radius = self.number(head, "eventlauncher")?;
        let key = self.word(head, "eventlauncher")?;
        let time = self.number(head, "eventlauncher")?;
        let event1 = self.word(head, "eventlauncher")?;
        let event2 = if self.peek_is(&[b"end", b"endeventlauncher", b"condition", b"traintriggered"]) {
            None
        } else {
            Some(self.word(head, "eventlauncher")?)
        };
        let mut record = Launcher {
            node,
            location: self.place.point(at),
            // The simulator's: a negative radius makes a global launcher.
            radius_sq: if radius > 0.0 {
                (radius * radius) as f32
            } else if radius < 0.0 {
                -1.0
            } else {
                0.0
            },
            activation_key_raw: self.sid(&key.raw),
            delta_time: -1.0,
            event1_name: self.sid(&event1.text),
            event2_name: self.sid(event2.as_ref().map_or(&b"none"[..], |e| &e.text)),
            launch_hour: -1,
            launch_minute: -1,
            ..Launcher::default()
        };
        if time > 0.0 {
            let t = time as i32;
            (record.delta_time, record.launch_hour, record.launch_minute) = (0.0, t / 100, t % 100);
        } else if time < 0.0 {
            record.delta_time = -time as f32;
        }
        loop {
            let t = self.word(head, "eventlauncher")?;
            match t.text.as_slice() {
                end if ENDS.contains(&end) => break,
                b"traintriggered" => record.train_triggered = 1,
                b"condition" => {
                    let memcell = self.word(head, "eventlauncher")?;
                    let text = self.word(head, "eventlauncher")?;
                    let (v1, v2) = (self.word(head, "eventlauncher")?, self.word(head, "eventlauncher")?);
                    let mask =
                        i32::from(text.raw != b"*") | i32::from(v1.raw != b"*") << 1 | i32::from(v2.raw != b"*") << 2;
                    let number = |b: &mut Self, t: &Token| if t.raw == b"*" { 0.0 } else { b.value(t) as f32 };
                    record.has_condition = 1;
                    record.condition = LaunchCondition {
                        memcell_name: self.sid(&memcell.text),
                        compare_text: self.sid(&text.raw),
                        compare_value1: number(self, &v1),
                        compare_value2: number(self, &v2),
                        check_mask: mask,
                    };
                }
                _ => self.warn(&t, "unexpected in eventlauncher: skipped"),
            }
        }
        self.scene.launchers.push(record);
        Ok(())
    }

    fn sound(&mut self, head: &Token, node: SlimNode) -> Result<()> {
        let at = self.point(head, "sound")?;
        let wav = self.word(head, "sound")?;
        self.expect_end(head, "sound", &[b"endsound"])?;
        let record = Sound { node, location: self.place.point(at), wav_file: self.sid(&wav.raw) };
        self.scene.sounds.push(record);
        Ok(())
    }

    /// A vehicle: outside a trainset `FOLDER SKIN MMD TRACK OFFSET DRIVER VELOCITY LOADS
    /// [LOAD] [KEY DESTINATION] enddynamic`, inside one `FOLDER SKIN MMD OFFSET DRIVER
    /// COUPLING LOADS [LOAD] …` (the trainset gives the track and the velocity).
    fn dynamic(&mut self, head: &Token, node: SlimNode) -> Result<()> {
        let folder = self.word(head, "dynamic")?;
        let skin = self.word(head, "dynamic")?;
        let mmd = self.word(head, "dynamic")?;
        let trainset = self.trainset.and_then(|i| self.scene.trainsets.get(i).map(|t| (i, t.track, t.velocity)));
        let track = match trainset {
            Some((_, track, _)) => track,
            None => {
                let t = self.word(head, "dynamic")?;
                self.sid(&t.text)
            }
        };
        let offset = self.number(head, "dynamic")?;
        let driver = self.word(head, "dynamic")?;
        let (coupling, velocity) = match trainset {
            Some((_, _, velocity)) => (self.word(head, "dynamic")?, velocity),
            None => (
                Token { text: b"3".to_vec(), raw: b"3".to_vec(), line: head.line },
                self.number(head, "dynamic")? as f32,
            ),
        };
        let loads = self.number(head, "dynamic")?;
        let load =
            if loads != 0.0 && !self.peek_is(&[b"enddynamic"]) { Some(self.word(head, "dynamic")?) } else { None };
        let destination = if self.peek_is(&[b"enddynamic"]) {
            None
        } else {
            self.word(head, "dynamic")?;
            Some(self.word(head, "dynamic")?)
        };
        self.expect_end(head, "dynamic", &[b"enddynamic"])?;
        let (number, params) = match coupling.text.iter().position(|&c| c == b'.') {
            Some(dot) => (&coupling.text[..dot], &coupling.raw[dot + 1..]),
            None => (&coupling.text[..], &b""[..]),
        };
        let coupling_value = std::str::from_utf8(number).ok().and_then(|s| s.parse::<i32>().ok()).unwrap_or(0);
        let strings = [
            self.sid(&folder.text),
            self.sid(&skin.raw),
            self.sid(&mmd.text),
            track,
            self.sid(&driver.text),
            load.map_or(Sid::EMPTY, |l| self.int.intern(&l.text)),
            self.sid(params),
            self.sid(&coupling.raw),
        ];
        let index = self.scene.dynamics.len() as u32;
        let record = Dynamic {
            node,
            strings,
            offset: offset as f32,
            coupling: coupling_value,
            load_count: loads as i32,
            velocity,
            has_destination: u8::from(destination.is_some()),
            destination: destination.map_or(Sid::EMPTY, |d| self.int.intern(&d.raw)),
            has_trainset_index: u8::from(trainset.is_some()),
            trainset_index: trainset.map_or(0, |(i, ..)| i as u32),
        };
        if let Some(t) = trainset.and_then(|(i, ..)| self.scene.trainsets.get_mut(i)) {
            // The simulator's: `nobody` (or none) drives nothing.
            if t.driver_index == u32::MAX && !matches!(driver.text.as_slice(), b"nobody" | b"0" | b"none") {
                t.driver_index = t.vehicle_indices.len() as u32;
            }
            t.vehicle_indices.push(index);
            t.couplings.push(coupling_value);
        }
        self.scene.dynamics.push(record);
        Ok(())
    }
}

/// The corner triples of `n` corners of a list (0), a strip (1, every other one turned
/// back) or a fan (2).
fn triangles(n: usize, subtype: u8) -> Vec<[usize; 3]> {
    match subtype {
        0 => (0..n / 3).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect(),
        1 => (2..n).map(|i| if i % 2 == 0 { [i - 2, i - 1, i] } else { [i - 1, i - 2, i] }).collect(),
        _ => (2..n).map(|i| [0, i - 1, i]).collect(),
    }
}

/// A triangle with no area (|cross|² < 1e-12).
fn degenerate(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> bool {
    let u = [f64::from(b[0] - a[0]), f64::from(b[1] - a[1]), f64::from(b[2] - a[2])];
    let v = [f64::from(c[0] - a[0]), f64::from(c[1] - a[1]), f64::from(c[2] - a[2])];
    let x = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    x[0] * x[0] + x[1] * x[1] + x[2] * x[2] < 1e-12
}

/// A shape's or a line's bounds: the centroid of its points and the farthest one.
fn bound(node: &mut SlimNode, points: &[[f32; 3]]) {
    if points.is_empty() {
        return;
    }
    let n = points.len() as f64;
    let sum = points
        .iter()
        .fold([0.0f64; 3], |s, p| [s[0] + f64::from(p[0]), s[1] + f64::from(p[1]), s[2] + f64::from(p[2])]);
    let c = sum.map(|v| v / n);
    let r2 =
        points.iter().map(|p| (0..3).map(|k| (f64::from(p[k]) - c[k]).powi(2)).sum::<f64>()).fold(0.0f64, f64::max);
    node.center = c.map(|v| v as f32);
    node.radius = r2.sqrt() as f32;
}
