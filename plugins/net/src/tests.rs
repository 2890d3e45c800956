use crate::schema::{self, DecodeError, Gmsg, SessionPhase, WireOrder, WireScheme, id};
use crate::{NetAnimation, NetBlend, NetObject, NetPose, NetState, NetTilt, NetTurret, ReplicatedRow};
use iron3d_core::{Guard, Order, PilotInput, Ward};

mod clan;
mod events;
mod session;

/// One of every message, with non-trivial fields.
fn every_message() -> Vec<Gmsg> {
    vec![
        Gmsg::NewGameTick { tick: 17, replicated: 19, hash: 0x0123_4567_89AB_CDEF },
        Gmsg::SetState { phase: SessionPhase::Paused, tick: 40 },
        Gmsg::PauseRemotePlayer { paused: true },
        Gmsg::ConfirmPlayerData { player: 2, clan: 1 },
        Gmsg::KillPlayer { player: 0, reason: "protocol version 9".into() },
        Gmsg::SetGameStarted { tick: 3 },
        Gmsg::CreateRemotePlayer { player: 3, clan: u32::MAX, name: "Ōlga".into() },
        Gmsg::TextForPlayer { from: 1, clan_only: true, text: "gl hf".into() },
        Gmsg::ClanState(crate::clan_state::ClanState {
            clan: 1,
            economy: iron3d_core::ClanEconomy { ore: 812.5, power: 40.0, ore_percent: 18, energy_percent: 33 },
            producers: vec![(
                9,
                iron3d_core::QueueView {
                    waiting: vec!["UNITS\\ROBOTS\\scout.dat".into()],
                    active: Some(iron3d_core::JobView {
                        scheme: "UNITS\\ROBOTS\\tank.dat".into(),
                        elapsed_ms: 640,
                        total_ms: 17_000,
                    }),
                    batch: true,
                },
            )],
            research: Some(crate::clan_state::WireResearch {
                states: vec![1, 2, 0],
                waiting: vec![(2, 9)],
                active: Some((0, iron3d_core::JobView { scheme: String::new(), elapsed_ms: 64, total_ms: 6_400 }, 9)),
            }),
        }),
        Gmsg::ClanNews(crate::clan_state::ClanNews {
            event: iron3d_core::ProductionEvent::Produced,
            ids: vec![9, 80],
            detail: "units\\robots\\scout.dat".into(),
        }),
        Gmsg::ClanNews(crate::clan_state::ClanNews {
            event: iron3d_core::ProductionEvent::Opened,
            ids: vec![61, 60],
            detail: String::new(),
        }),
        Gmsg::Seat { player: 2, token: 0xFEED_BEEF_0123_4567 },
        Gmsg::SyncDigests(crate::sync_report::Digests {
            tick: 64,
            replicated: 70,
            truncated: false,
            digests: vec![(3, 0xAB), (9, 0xCD)],
        }),
        Gmsg::SyncRows(crate::sync_report::HostRows {
            replicated: 70,
            kept: true,
            rows: vec![
                (3, None),
                (
                    9,
                    Some(ReplicatedRow {
                        object: NetObject {
                            id: 9,
                            kind: 1,
                            key: "UNITS\\ROBOTS\\scout.dat".into(),
                            name: "SWW-7 Warrior".into(),
                            animation: Some(NetAnimation {
                                tick: 60,
                                blends: vec![
                                    NetBlend { blend: 40_000, rate: 137_000_000 },
                                    NetBlend { blend: -3, rate: 0 },
                                ],
                            }),
                        },
                        pose: NetPose { position: [16, -32, 5], heading: 0x8000 },
                        state: NetState(vec![0x12, 0x34, 3, 2, 1, 0]),
                        tilt: Some(NetTilt { pitch: -300, roll: 12 }),
                        turret: Some(NetTurret { heading: 0x4000 }),
                    }),
                ),
            ],
        }),
        Gmsg::MissionDataPath { mission: "single.01".into() },
        Gmsg::SetPlayerData { version: 1, name: "bot".into(), data: vec![0, 255, 7] },
        Gmsg::ChangeObjectOwner { id: 12, clan: -1, player: 0 },
        Gmsg::Order { seq: 5, units: vec![3, 9], order: WireOrder::Plain(Order::MoveTo([1.5, -2.0])), queued: true },
        Gmsg::Order {
            seq: 6,
            units: vec![4],
            order: WireOrder::Build(WireScheme::Named("UNITS\\ROBOTS\\scout.dat".into())),
            queued: false,
        },
        Gmsg::Order {
            seq: 8,
            units: vec![4],
            order: WireOrder::Batch(WireScheme::Design(vec![0xf1, 0xf0, 0, 0, 0, 0x80])),
            queued: false,
        },
        Gmsg::Order { seq: 9, units: vec![4], order: WireOrder::Plain(Order::StopBuild), queued: false },
        Gmsg::Order {
            seq: 7,
            units: vec![4],
            order: WireOrder::Plain(Order::Pilot(PilotInput {
                throttle: -5,
                turn: 127,
                strafe: 40,
                aim_mrad: -300,
                fire: true,
                fire_missiles: true,
                fire_all: false,
                camouflage: false,
                turret_lock: true,
                target: Some(12),
            })),
            queued: false,
        },
        Gmsg::OrderAck { seq: 5, tick: 41, accepted: 2 },
        Gmsg::Ready { ready: true },
        Gmsg::PlayerState { player: 4, host: true, ready: false },
        Gmsg::PlayerState { player: 2, host: false, ready: true },
        Gmsg::SetTime { tick: 0x0102_0304 },
        Gmsg::Discover { version: 1 },
        Gmsg::GetSavegameFromHost { transfer: 4 },
        Gmsg::AppendResource { transfer: 4, total: 10, offset: 6, chunk: vec![1, 2, 3, 4] },
        Gmsg::RemoveResource { transfer: 4, reason: "timed out".into() },
        Gmsg::Session { version: 1, port: 5150, players: 3, max_players: 8, mission: "single.01".into() },
        Gmsg::Events {
            tick: 12,
            events: vec![
                crate::events::NetEvent::Fired { shooter: 3, target: 9, weapon: 1, speed: 90 },
                crate::events::NetEvent::Outcome { clan: 1, outcome: iron3d_core::Outcome::Completed },
            ],
        },
    ]
}

#[test]
fn every_message_round_trips_with_its_id_and_delivery() {
    let messages = every_message();
    let bytes = schema::encode(&messages).unwrap();
    assert_eq!(schema::decode(&bytes).unwrap(), messages);
    for m in &messages {
        let one = schema::encode(std::slice::from_ref(m)).unwrap();
        assert_eq!(u32::from_le_bytes(one[..4].try_into().unwrap()), m.id());
        assert_ne!(schema::name(m.id()), "unknown");
    }
    let unreliable = |m: &Gmsg| matches!(m, Gmsg::NewGameTick { .. } | Gmsg::Discover { .. } | Gmsg::Session { .. });
    for m in &messages {
        let expected = if unreliable(m) { schema::Delivery::Unreliable } else { schema::Delivery::ReliableOrdered };
        assert_eq!(m.delivery(), expected, "{m:?}");
    }
}

#[test]
fn every_order_kind_round_trips() {
    let orders = [
        Order::Stop,
        Order::MoveTo([3.0, 4.0]),
        Order::MoveToObject(8),
        Order::FollowPath(-2),
        Order::Patrol(5),
        Order::Attack(77),
        Order::Research(3),
        Order::Haul(12),
        Order::Pilot(PilotInput::default()),
        Order::Release,
        Order::Guard(Guard { ward: Ward::Object(9), radius: 300.0 }),
        Order::Guard(Guard { ward: Ward::Place { at: [1124.0, 783.0], z: Some(0.0) }, radius: 0.0 }),
        Order::Guard(Guard { ward: Ward::Place { at: [606.5, 993.25], z: None }, radius: 45.0 }),
        Order::SelectWeapon(2),
        Order::AutoDriver(1),
    ];
    for o in orders {
        let m = [Gmsg::Order { seq: 1, units: vec![1], order: WireOrder::Plain(o), queued: false }];
        assert_eq!(schema::decode(&schema::encode(&m).unwrap()).unwrap(), m, "{o:?}");
    }
    // A level the auto-driver has not is refused, naming it.
    let m = [Gmsg::Order { seq: 1, units: vec![1], order: WireOrder::Plain(Order::AutoDriver(3)), queued: false }];
    let e = schema::decode(&schema::encode(&m).unwrap()).unwrap_err();
    assert!(e.to_string().contains("auto-driver level 3 is not 0..=2"), "{e}");
}

#[test]
fn every_cut_short_sequence_is_refused() {
    let bytes = schema::encode(&every_message()).unwrap();
    for len in 0..bytes.len() {
        assert!(schema::decode(&bytes[..len]).is_err(), "a sequence cut at {len} decoded");
    }
    assert_eq!(schema::decode(&[]), Err(DecodeError::MissingEnd));
    assert_eq!(schema::decode(&bytes[..3]), Err(DecodeError::Truncated { offset: 0, need: 6, have: 3 }));
}

#[test]
fn unknown_and_invalid_ids_are_refused_with_their_offset() {
    let mut bytes = schema::encode(&[Gmsg::Ready { ready: false }]).unwrap();
    let frame = bytes.len();
    for bad in [0x1234_5678u32, id::INVALID] {
        let mut b = schema::encode(&[Gmsg::Ready { ready: false }]).unwrap();
        b.truncate(frame - 8);
        b.extend_from_slice(&bad.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&schema::encode(&[]).unwrap());
        assert_eq!(schema::decode(&b), Err(DecodeError::UnknownId { id: bad, offset: 7 }));
    }
    bytes.push(0);
    assert_eq!(schema::decode(&bytes), Err(DecodeError::TrailingBytes { offset: frame }));
}

#[test]
fn end_marker_must_count_the_frames() {
    let mut bytes = schema::encode(&[Gmsg::Ready { ready: true }, Gmsg::Ready { ready: false }]).unwrap();
    let n = bytes.len();
    bytes[n - 2] = 1;
    assert_eq!(schema::decode(&bytes), Err(DecodeError::CountMismatch { said: 1, read: 2 }));
}

#[test]
fn payload_defects_are_refused() {
    let frame = |message: u32, payload: &[u8]| {
        let mut b = message.to_le_bytes().to_vec();
        b.extend_from_slice(&(payload.len() as u16).to_le_bytes());
        b.extend_from_slice(payload);
        b.extend_from_slice(&id::END_MESSAGE_SEQ.to_le_bytes());
        b.extend_from_slice(&[2, 0, 1, 0]);
        b
    };
    let bad = |b: &[u8], what: &str| match schema::decode(b) {
        Err(DecodeError::BadPayload { detail, .. }) => assert!(detail.contains(what), "{detail}"),
        other => panic!("expected a bad payload ({what}), got {other:?}"),
    };
    bad(&frame(id::CONFIRM_PLAYER_DATA, &[0, 0, 1, 0, 0, 0]), "player number 0");
    bad(&frame(id::READY, &[2]), "flag 2");
    bad(&frame(id::PLAYER_STATE, &[1, 0, 4]), "bits beyond host and ready");
    bad(&frame(id::PLAYER_STATE, &[0, 0, 1]), "player number 0");
    bad(&frame(id::SET_TIME, &[1, 0, 0]), "need 4 bytes");
    bad(&frame(id::SET_STATE, &[9, 0, 0, 0, 0]), "session phase 9");
    bad(&frame(id::READY, &[1, 0]), "after the payload");
    bad(&frame(id::MISSION_DATA_PATH, &[2, 0, 0xFF, 0xFE]), "not UTF-8");
    bad(&frame(id::MISSION_DATA_PATH, &[9, 0, b'a']), "need 9 bytes");
    bad(&frame(id::EVENTS, &[0, 0, 0, 0, 1, 0, 9]), "event tag 9 at offset 0");
    let nan = f32::NAN.to_bits().to_le_bytes();
    let mut order = vec![0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1];
    order.extend_from_slice(&nan);
    order.extend_from_slice(&nan);
    order.push(0);
    bad(&frame(id::ORDER, &order), "not finite");
    // A unit count beyond the limit is refused before anything is allocated.
    bad(&frame(id::ORDER, &[0, 0, 0, 0, 0xFF, 0xFF]), "exceed");
    bad(&frame(id::ORDER, &[0, 0, 0, 0, 2, 0, 1, 0, 0, 0]), "need 8 bytes");
    bad(&frame(id::CLAN_NEWS, &[10, 0, 0, 0, 0]), "clan news event 10 is not 0..=9");
    let mut state = vec![1, 0, 0, 0];
    state.extend_from_slice(&f32::NAN.to_bits().to_le_bytes());
    state.extend_from_slice(&[0; 4]);
    bad(&frame(id::CLAN_STATE, &state), "not finite");
    bad(&frame(id::CLAN_STATE, &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]), "exceed");
    bad(&frame(id::CLAN_STATE, &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 101, 0]), "not 0..100");
    bad(&frame(id::SYNC_ROWS, &[0, 0, 0, 0, 1, 17, 0]), "rows exceed");
    bad(&frame(id::SEAT, &[0, 0, 1, 0, 0, 0, 0, 0, 0, 0]), "player number 0");
    let big = vec![0u8; schema::MAX_SEQUENCE + 1];
    assert_eq!(schema::decode(&big), Err(DecodeError::Oversized { len: big.len() }));
}

#[test]
fn the_encoder_refuses_what_its_length_words_cannot_hold() {
    let long = Gmsg::TextForPlayer { from: 1, clan_only: false, text: "x".repeat(70_000) };
    assert!(schema::encode(&[long]).unwrap_err().contains("exceed"));
    let many = Gmsg::Order {
        seq: 0,
        units: vec![1; schema::MAX_ORDER_UNITS + 1],
        order: WireOrder::Plain(Order::Stop),
        queued: false,
    };
    assert!(schema::encode(&[many]).unwrap_err().contains("units exceed"));
}

#[test]
fn committed_fuzz_inputs_replay_through_the_decoder() {
    let failures = iron3d_formats::fuzzing::verify(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz")),
        crate::fuzzing::TARGETS,
    );
    assert!(failures.is_empty(), "{failures:#?}");
    let seeds = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/seeds/gmsg")).unwrap();
    for seed in seeds.flatten() {
        let bytes = std::fs::read(seed.path()).unwrap();
        assert!(schema::decode(&bytes).is_ok(), "seed {} decodes", seed.path().display());
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]
    #[test]
    fn random_bytes_never_panic_the_decoder(data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..256)) {
        crate::fuzzing::gmsg(&data);
    }

    #[test]
    fn mutated_sequences_never_panic_the_decoder(at in 0usize..200, value in proptest::prelude::any::<u8>()) {
        let mut bytes = schema::encode(&every_message()).unwrap();
        let i = at % bytes.len();
        bytes[i] = value;
        crate::fuzzing::gmsg(&bytes);
    }
}
