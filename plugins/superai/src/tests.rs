//! One test per rule of `docs/reference/runtime.md` §3 that this crate implements; each would
//! fail without its rule.
#![allow(clippy::unwrap_used)]

use super::condition::{Condition, ConditionError, ConditionHost, evaluate};
use super::handlers::HANDLER_COUNT;
use super::package::{self, LoadMode, TableSource};
use super::scheduler::Scheduled;
use super::variables::kind;
use super::vm::{self, ClanBase, EventResult, Host, SentinelPolicy, TargetCall, Vm, VmConfig};
use super::*;
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use iron3d_core::{CorePlugin, ScriptFiles};
use iron3d_formats::ErrorKind;
use iron3d_formats::script::init::AnchorRule;
use iron3d_formats::script::{Record, ScrPackage, Selector};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

// ---------------------------------------------------------------- fixtures

#[derive(Default)]
struct MemFiles {
    files: BTreeMap<String, Vec<u8>>,
    unreadable: Vec<String>,
}

impl ScriptFiles for MemFiles {
    fn read(&self, path: &str) -> Result<Option<Vec<u8>>, String> {
        let key = path.replace('\\', "/").to_ascii_lowercase();
        if self.unreadable.contains(&key) {
            return Err("permission denied".into());
        }
        Ok(self.files.get(&key).cloned())
    }
}

impl MemFiles {
    fn add(&mut self, path: &str, bytes: impl Into<Vec<u8>>) {
        self.files.insert(path.to_ascii_lowercase(), bytes.into());
    }
}

/// Variables of the fixture table, by index.
const X: u32 = 0;
const Y: u32 = 1;
const CLAN: u32 = 2;
const ZERO: u32 = 3;
const ONE: u32 = 4;
const F_A: u32 = 5;
const F_NEG0: u32 = 6;
const F_POS0: u32 = 7;
const MODE_NONE: u32 = 8;
const MODE_PLACE: u32 = 9;
const PROBLEM: u32 = 10;
const STATE_SOLVED: u32 = 11;
const STATE_RESET: u32 = 12;
const KEY: u32 = 13;
const NUMERIC: u32 = 14;
const F_NAN: u32 = 15;
const TWO: u32 = 16;
const BASE: u32 = 17;
const STR: u32 = 18;
const MODE_BAD: u32 = 19;
const INT_VAR: u32 = 20;

fn varset_text() -> String {
    [
        "// fixture table",
        "VAR(DWORD, ClanBaseX, 0)",
        "VAR(DWORD, ClanBaseY, 0)",
        "VAR(DWORD, ClanID, 0x7)",
        "VAR(DWORD, Zero, 0)",
        "VAR(DWORD, One, 1)",
        "VAR(float, fA, 2.5)",
        "VAR(float, fNeg0, -0.0)",
        "VAR(float, fPos0, 0.0)",
        "VAR(DWORD, NONE, 0)",
        "VAR(DWORD, TARGET_BY_PLACE, 0x0202)",
        "VAR(DWORD, dCurrentProblem, 3)",
        "VAR(DWORD, ST_SOLVED, 2)",
        "VAR(DWORD, ST_RESET, 3)",
        "VAR(DWORD, dKey, 42)",
        "VAR(DWORD, dNumeric, 10)",
        "VAR(float, fNan, 0.0)",
        "VAR(DWORD, Two, 2)",
        "VAR(DWORD, Patrol, 5)",
        "STRING(sName, \"hello\")",
        "VAR(DWORD, BadMode, 0x0999)",
        "VAR(DWORD, dInt, 0xFFFFFFFF)",
        "",
    ]
    .join("\r\n")
}

fn files_with(pkg: &ScrPackage) -> MemFiles {
    let mut f = MemFiles::default();
    f.add("MISSIONS/SCRIPTS/test.scr", pkg.to_bytes().unwrap());
    f.add("MISSIONS/SCRIPTS/varset.var", varset_text());
    f.add("MISSIONS/SCRIPTS/test.fml", "// fml\r\n");
    f
}

fn pkg(events: &[(&str, Vec<Record>)]) -> ScrPackage {
    let mut p = ScrPackage::new();
    for (i, (name, records)) in events.iter().enumerate() {
        p.events.push(iron3d_formats::script::Event {
            name: name.as_bytes().to_vec(),
            event_word: i as u32,
            records: records.clone(),
        });
    }
    p
}

fn load(p: &ScrPackage) -> ScriptPackage {
    package::load(&files_with(p), "MISSIONS\\SCRIPTS\\test", HANDLER_COUNT, LoadMode::Compatible).unwrap()
}

fn vm_of(p: &ScriptPackage) -> Vm {
    Vm::new(p.variables.clone(), ClanBase { clan: 1, x: 500, y: 752 }, VmConfig::default())
}

#[derive(Default)]
struct TestHost {
    calls: Vec<(u32, u32, u32)>,
    targets: Vec<u32>,
    result: u32,
    target_calls: Vec<TargetCall>,
    resets: Vec<u32>,
}

impl Host for TestHost {
    fn callback(&mut self, mode: u32, first: u32, second: u32) {
        self.calls.push((mode, first, second));
    }
    fn target_exists(&mut self, key: u32) -> bool {
        self.targets.contains(&key)
    }
    fn call_target(&mut self, call: &TargetCall) -> Result<u32, String> {
        self.target_calls.push(call.clone());
        Ok(self.result)
    }
    fn problem_reset(&mut self, state: u32) {
        self.resets.push(state);
    }
}

fn h(selector: u32, refs: &[u32]) -> Record {
    Record::new(selector, refs.to_vec())
}

// ---------------------------------------------------------------- §3.1 package loading

#[test]
fn variables_come_from_the_bundle_var_when_it_exists() {
    let p = pkg(&[("Init", vec![])]);
    let mut files = files_with(&p);
    files.add("MISSIONS/SCRIPTS/test.var", "VAR(float, fOnly, 1.0)\r\n");
    let loaded = package::load(&files, "MISSIONS\\SCRIPTS\\test", 73, LoadMode::Compatible).unwrap();
    assert_eq!(loaded.table, TableSource::Bundle("MISSIONS/SCRIPTS/test.var".into()));
    assert_eq!(loaded.variables.len(), 1);
    let shared = load(&p);
    assert_eq!(shared.table, TableSource::Shared("MISSIONS/SCRIPTS/varset.var".into()), "fallback when missing");
}

#[test]
fn an_unreadable_bundle_var_is_an_error_not_a_fallback() {
    let p = pkg(&[("Init", vec![])]);
    let mut files = files_with(&p);
    files.add("MISSIONS/SCRIPTS/test.var", "VAR(float, fOnly, 1.0)\r\n");
    files.unreadable.push("missions/scripts/test.var".into());
    let e = package::load(&files, "MISSIONS\\SCRIPTS\\test", 73, LoadMode::Compatible).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Io(_)), "{e}");
    assert!(e.to_string().contains("test.var"), "{e}");
}

#[test]
fn missing_scr_and_missing_fml_are_located_errors() {
    let p = pkg(&[("Init", vec![])]);
    let mut files = files_with(&p);
    files.files.remove("missions/scripts/test.fml");
    let e = package::load(&files, "MISSIONS\\SCRIPTS\\test", 73, LoadMode::Compatible).unwrap_err();
    assert!(e.to_string().contains("test.fml"), "{e}");
    let named = iron3d_formats::Frame::File("MISSIONS/SCRIPTS/test.fml".into());
    assert!(e.chain.contains(&named), "the missing file is the error's file: {e:?}");
    let e = package::load(&files, "MISSIONS\\SCRIPTS\\other", 73, LoadMode::Compatible).unwrap_err();
    assert!(e.to_string().contains("other.scr"), "{e}");
}

#[test]
fn a_version_mismatch_is_its_own_error() {
    let mut p = pkg(&[("Init", vec![])]);
    p.handler_count = 59;
    let e = package::load(&files_with(&p), "MISSIONS\\SCRIPTS\\test", 73, LoadMode::Compatible).unwrap_err();
    assert_eq!(e.kind, ErrorKind::UnsupportedVersion(59), "{e}");
    assert!(e.to_string().contains("test.scr"));
}

#[test]
fn a_truncated_package_is_a_located_error() {
    let p = pkg(&[("Init", vec![h(19, &[X, Y, CLAN])]), ("Mission", vec![h(30, &[ZERO, ONE])])]);
    let bytes = p.to_bytes().unwrap();
    for cut in [3, 9, bytes.len() / 2, bytes.len() - 1] {
        let mut files = files_with(&p);
        files.add("MISSIONS/SCRIPTS/test.scr", bytes[..cut].to_vec());
        let e = package::load(&files, "MISSIONS\\SCRIPTS\\test", 73, LoadMode::Compatible).unwrap_err();
        assert!(e.to_string().contains("test.scr"), "cut {cut}: {e}");
        assert!(e.offset.is_some(), "cut {cut}: {e}");
    }
}

#[test]
fn an_unknown_selector_is_kept_compatible_and_rejected_strict() {
    let p = pkg(&[("Mission", vec![h(99, &[])])]);
    let loaded = load(&p);
    assert_eq!(loaded.scr.events[0].records[0].selector(), Selector::Unknown(99));
    let e = package::load(&files_with(&p), "MISSIONS\\SCRIPTS\\test", 73, LoadMode::Strict).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid { rule: "scr_selector", .. }), "{e}");
    assert_ne!(e.kind, ErrorKind::UnsupportedVersion(73));
}

#[test]
fn an_out_of_range_reference_names_event_record_and_offset() {
    let p = pkg(&[("Init", vec![]), ("Mission", vec![h(30, &[ZERO, ONE]), h(30, &[ZERO, 500])])]);
    let e = package::load(&files_with(&p), "MISSIONS\\SCRIPTS\\test", 73, LoadMode::Compatible).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("test.scr") && text.contains("event 1") && text.contains("record 1"), "{text}");
    assert!(text.contains("out of range"), "{text}");
    assert_eq!(e.offset, Some(package::record_offset(&p, 1, 1)));
    // Float references of Handler(30) are rejected too.
    let p = pkg(&[("Mission", vec![h(30, &[F_A, ONE])])]);
    assert!(package::load(&files_with(&p), "MISSIONS\\SCRIPTS\\test", 73, LoadMode::Compatible).is_err());
    let p = pkg(&[("Mission", vec![h(30, &[ZERO])])]);
    assert!(package::load(&files_with(&p), "MISSIONS\\SCRIPTS\\test", 73, LoadMode::Compatible).is_err());
}

#[test]
fn variables_take_the_declaration_kinds_and_defaults() {
    let loaded = load(&pkg(&[]));
    let v = &loaded.variables;
    assert_eq!((v[CLAN as usize].kind, v[CLAN as usize].word), (kind::DWORD, 7));
    assert_eq!((v[F_A as usize].kind, v[F_A as usize].word), (kind::FLOAT, 2.5f32.to_bits()));
    assert_eq!(v[F_NEG0 as usize].word, (-0.0f32).to_bits());
    assert_eq!(v[STR as usize].kind, kind::STRING, "a counted STRING takes an index (kind 4)");
    assert_eq!(v[MODE_BAD as usize].name, "BadMode", "indices after the STRING line");
}

// ---------------------------------------------------------------- §3.4 Init and Handler(19)

#[test]
fn init_lookup_is_case_sensitive_first_nul_first_duplicate() {
    let mut host = TestHost::default();
    let lower = load(&pkg(&[("init", vec![h(19, &[X, Y, CLAN])])]));
    let mut vm = vm_of(&lower);
    assert_eq!(vm.run_init(&lower.scr, &mut host), EventResult::Missing);
    assert_eq!(vm.vars[X as usize].word, 0, "no Init: no writes");

    let nul = load(&pkg(&[("Init\0tail", vec![h(19, &[X, Y, CLAN])])]));
    let mut vm = vm_of(&nul);
    assert_eq!(vm.run_init(&nul.scr, &mut host), EventResult::Completed);
    assert_eq!(vm.vars[X as usize].word, 500, "the name ends at the first NUL");

    let dup = load(&pkg(&[("Init", vec![h(19, &[X, Y, CLAN])]), ("Init", vec![h(19, &[Y, X, CLAN])])]));
    let mut vm = vm_of(&dup);
    vm.run_init(&dup.scr, &mut host);
    assert_eq!((vm.vars[X as usize].word, vm.vars[Y as usize].word), (500, 752), "the first Init wins");

    let empty = load(&pkg(&[("Init", vec![])]));
    assert_eq!(vm_of(&empty).run_init(&empty.scr, &mut host), EventResult::Completed, "empty Init executes");
}

#[test]
fn handler_19_writes_base_x_base_y_and_clan_index_in_order() {
    let p = load(&pkg(&[("Init", vec![h(19, &[X, Y, CLAN])])]));
    let (base, warning) = vm::clan_base(1, [500.2857, 752.0], AnchorRule::Truncate).unwrap();
    assert!(!warning);
    let mut vm = Vm::new(p.variables.clone(), base, VmConfig::default());
    vm.flag = 9;
    assert_eq!(vm.run_init(&p.scr, &mut TestHost::default()), EventResult::Completed);
    let words: Vec<u32> = [X, Y, CLAN].iter().map(|i| vm.vars[*i as usize].word).collect();
    assert_eq!(words, [500, 752, 1], "AutoDemo entry 1 shape: (X, Y, clan)");
    assert_eq!(vm.flag, 0, "clears the VM flag");
}

#[test]
fn anchor_readings_a_and_b_and_the_range_rule() {
    let a = |v: f32| vm::clan_base(0, [v, 0.0], AnchorRule::Truncate).map(|b| b.0.x);
    let b = |v: f32| vm::clan_base(0, [v, 0.0], AnchorRule::RoundHalfEven).map(|b| (b.0.x, b.1));
    assert_eq!(a(500.2857), Ok(500));
    assert_eq!(b(500.2857), Ok((500, false)));
    assert_eq!(a(728.9), Ok(728), "A truncates");
    assert_eq!(b(728.9), Ok((729, false)), "B rounds to nearest");
    assert_eq!(b(2.5), Ok((2, false)), "ties to even");
    assert_eq!(b(-0.6), Ok((0, true)), "worked example: -1 -> 0xFFFFFFFF (warns, unsigned) -> 2^32 -> 0");
    assert!(a(10001.0).is_err(), "A: the constructor rejects > 10000");
    assert_eq!(b(10001.0), Ok((10001, true)), "B: only a warning");
    assert_eq!(a(10000.0), Ok(10000));
}

#[test]
fn init_applies_nothing_unless_every_record_is_supported() {
    let p = load(&pkg(&[("Init", vec![h(19, &[X, Y, CLAN]), h(40, &[]), h(30, &[ZERO, ONE])])]));
    let mut vm = vm_of(&p);
    let mut host = TestHost::default();
    let r = vm.run_init(&p.scr, &mut host);
    assert!(matches!(r, EventResult::Unsupported { record: 1, selector: Selector::Handler(40), .. }), "{r:?}");
    assert_eq!(vm.vars[X as usize].word, 0, "defaults kept");
    assert!(host.calls.is_empty(), "nothing ran");
    // Outside Init, the records before the unsupported one keep their effects.
    let (_, r) = vm.run_named(&p.scr, "Init", &mut host);
    assert!(matches!(r, EventResult::Unsupported { record: 1, .. }));
    assert_eq!(vm.vars[X as usize].word, 500);
    assert!(host.calls.is_empty(), "stopped at the unsupported record");
}

// ---------------------------------------------------------------- §3.3 handlers

#[test]
fn handler_0_sets_the_context_and_flag_1() {
    let p = load(&pkg(&[("E", vec![h(0, &[KEY])])]));
    let mut vm = vm_of(&p);
    assert_eq!(vm.run_event(&p.scr, 0, &mut TestHost::default()), EventResult::Completed);
    assert_eq!((vm.flag, vm.context), (1, Some((0, 0, Some(42)))));
}

#[test]
fn handler_1_converts_by_declaration_kind() {
    let p = load(&pkg(&[
        ("int", vec![h(1, &[INT_VAR])]),
        ("float", vec![h(1, &[F_A])]),
        ("dword", vec![h(1, &[INT_VAR])]),
        ("string", vec![h(1, &[STR])]),
    ]));
    let mut host = TestHost::default();
    let mut vm = vm_of(&p);
    vm.vars[INT_VAR as usize].kind = kind::INT;
    vm.run_event(&p.scr, 0, &mut host);
    assert_eq!(vm.scalar, Some(vm::Scalar::Number(-1.0)), "kind 1: signed");
    vm.run_event(&p.scr, 1, &mut host);
    assert_eq!(vm.scalar, Some(vm::Scalar::Number(2.5)));
    vm.vars[INT_VAR as usize].kind = kind::DWORD;
    vm.run_event(&p.scr, 2, &mut host);
    assert_eq!(vm.scalar, Some(vm::Scalar::Number(4_294_967_295.0)), "kind 5: unsigned");
    vm.vars[INT_VAR as usize].kind = kind::BOOL;
    vm.run_event(&p.scr, 0, &mut host);
    assert_eq!(vm.scalar, Some(vm::Scalar::BoolConstant(true)));
    vm.vars[INT_VAR as usize].kind = 9;
    vm.run_event(&p.scr, 0, &mut host);
    assert_eq!(vm.scalar, Some(vm::Scalar::Fallback));
    assert!(matches!(vm.run_event(&p.scr, 3, &mut host), EventResult::Unsupported { .. }), "kind 4: opaque");
}

fn sched(refs: [u32; 7]) -> Record {
    h(2, &refs)
}

#[test]
fn handler_2_creates_caches_start_and_continue_and_dispatches_nothing() {
    let p = load(&pkg(&[
        ("E", vec![sched([BASE, NUMERIC, TWO, ONE, F_POS0, F_A, F_A])]),
        ("Patrol_Continue", vec![h(30, &[ZERO, ONE])]),
        ("Patrol_Start", vec![h(30, &[ZERO, ZERO])]),
    ]));
    let mut vm = vm_of(&p);
    vm.flag = 1;
    let mut host = TestHost::default();
    assert_eq!(vm.run_event(&p.scr, 0, &mut host), EventResult::Completed);
    assert!(host.calls.is_empty(), "nothing dispatched");
    assert_eq!(vm.flag, 0, "clears the flag");
    let r = &vm.scheduler.records[0];
    assert_eq!((r.start_event, r.continue_event), (Some(2), Some(1)));
    assert_eq!((r.value_14, r.word_24, r.word_28, r.word_2c, r.value_0c), (10.0, 2, 2, 1, 2.5));
}

#[test]
fn handler_2_identity_is_exact_bits_and_refresh_needs_a_changed_slot_1() {
    let p = load(&pkg(&[
        ("pos", vec![sched([BASE, NUMERIC, TWO, ONE, F_POS0, F_A, F_A])]),
        ("neg", vec![sched([BASE, NUMERIC, TWO, ONE, F_NEG0, F_A, F_A])]),
        ("nan", vec![sched([BASE, F_NAN, TWO, ONE, F_POS0, F_A, F_POS0])]),
    ]));
    let mut vm = vm_of(&p);
    let mut host = TestHost::default();
    vm.run_event(&p.scr, 0, &mut host);
    vm.run_event(&p.scr, 1, &mut host);
    assert_eq!(vm.scheduler.records.len(), 2, "-0.0 and +0.0 are different keys");
    // Same slot 1: unchanged.
    let before = vm.scheduler.records[0].clone();
    vm.run_event(&p.scr, 0, &mut host);
    assert_eq!(vm.scheduler.records[0], before);
    // A different slot 1 refreshes +0x14 and +0x0C and adds +0x28 to +0x24.
    vm.vars[NUMERIC as usize].word = 11;
    vm.vars[F_A as usize].word = 7.5f32.to_bits();
    let input = |vm: &Vm| super::scheduler::Slots {
        word: 5,
        base: "Patrol".into(),
        numeric: f64::from(vm.vars[NUMERIC as usize].word),
        a: 2,
        b: 1,
        key4: 0.0,
        key5: 2.5,
        value6: 7.5,
    };
    let got = vm.scheduler.schedule(&p.scr, input(&vm));
    assert_eq!(got, Scheduled::Refreshed(0));
    let r = &vm.scheduler.records[0];
    assert_eq!((r.value_14, r.value_0c, r.word_24, r.word_28), (11.0, 7.5, 4, 2));
    // Wrapping arithmetic.
    vm.scheduler.records[0].word_24 = u32::MAX;
    vm.scheduler.schedule(&p.scr, super::scheduler::Slots { numeric: 12.0, ..input(&vm) });
    assert_eq!(vm.scheduler.records[0].word_24, 1);
    // NaN never compares equal: every call refreshes.
    vm.vars[F_NAN as usize].word = f32::NAN.to_bits();
    vm.run_event(&p.scr, 2, &mut host);
    let n = vm.scheduler.records.len();
    let w = vm.scheduler.records[n - 1].word_24;
    vm.run_event(&p.scr, 2, &mut host);
    assert_eq!(vm.scheduler.records.len(), n);
    assert_eq!(vm.scheduler.records[n - 1].word_24, w.wrapping_add(2), "NaN refreshed");
}

#[test]
fn handler_2_slots_4_to_6_read_floats_only_from_kinds_3_and_5() {
    let p = load(&pkg(&[("E", vec![sched([BASE, NUMERIC, TWO, ONE, STR, TWO, F_A])])]));
    let mut vm = vm_of(&p);
    vm.run_event(&p.scr, 0, &mut TestHost::default());
    let r = &vm.scheduler.records[0];
    assert_eq!(r.key, (5, 0.0f32.to_bits(), 2.0f32.to_bits()), "kind 4 reads 0.0, kind 5 converts");
}

#[test]
fn handler_8_writes_the_problem_state() {
    let p = load(&pkg(&[
        ("solve", vec![h(8, &[ONE])]),
        ("done", vec![h(8, &[STATE_SOLVED])]),
        ("reset", vec![h(8, &[STATE_RESET])]),
    ]));
    let mut vm = vm_of(&p);
    let mut host = TestHost::default();
    vm.problems[3] = [9; vm::PROBLEM_WORDS];
    vm.run_event(&p.scr, 0, &mut host);
    assert_eq!(vm.problems[3][6], 1, "ST_SOLVING at +0x18 of dCurrentProblem's record");
    assert_eq!(vm.problems[3][0], 9, "other states only write the word");
    vm.run_event(&p.scr, 2, &mut host);
    assert_eq!(vm.problems[3][..7], [0, 0, 0, 9, 9, 9, 3], "state 3 keeps word 3");
    vm.problems[3] = [9; vm::PROBLEM_WORDS];
    vm.run_event(&p.scr, 1, &mut host);
    assert_eq!(vm.problems[3][..7], [0, 0, 0, 0, 9, 9, 2], "state 2 zeroes 0..3 and 6, then writes");
    assert_eq!(host.resets, [3, 3, 2, 2], "two opaque callbacks each");
    vm.vars[PROBLEM as usize].word = vm::PROBLEM_SLOTS as u32;
    assert!(matches!(vm.run_event(&p.scr, 0, &mut host), EventResult::Failed { .. }), "bounds-checked");
}

fn target(mode: u32, extra: &[u32]) -> Record {
    let mut refs = vec![KEY, ONE, TWO, ZERO, F_A, F_A, F_POS0, F_NEG0, mode];
    refs.extend_from_slice(extra);
    h(15, &refs)
}

#[test]
fn handler_15_missing_target_sets_flag_5_and_results_set_0_or_1() {
    let p = load(&pkg(&[("E", vec![target(MODE_NONE, &[])]), ("place", vec![target(MODE_PLACE, &[ONE, TWO])])]));
    let mut vm = vm_of(&p);
    let mut host = TestHost::default();
    assert_eq!(vm.run_event(&p.scr, 0, &mut host), EventResult::Completed);
    assert_eq!(vm.flag, 5, "missing target");
    assert!(host.target_calls.is_empty());
    host.targets.push(42);
    vm.run_event(&p.scr, 0, &mut host);
    assert_eq!(vm.flag, 0, "result zero");
    host.result = 7;
    vm.run_event(&p.scr, 1, &mut host);
    assert_eq!(vm.flag, 1, "non-zero result");
    let call = host.target_calls.last().unwrap();
    assert_eq!((call.words, call.mode, call.tail.clone(), call.argument), ([42, 1, 2, 0], 0x202, vec![1, 2], 2));
    assert_eq!(call.floats[0], 2.5);
}

#[test]
fn handler_15_reference_counts_follow_the_mode() {
    for (mode, extra, ok) in [
        (MODE_NONE, &[][..], true),
        (MODE_NONE, &[ONE][..], false),
        (MODE_PLACE, &[ONE][..], false),
        (MODE_PLACE, &[ONE, TWO][..], true),
        (MODE_BAD, &[ONE][..], false),
    ] {
        let p = pkg(&[("E", vec![target(mode, extra)])]);
        let r = package::load(&files_with(&p), "MISSIONS\\SCRIPTS\\test", 73, LoadMode::Compatible);
        assert_eq!(r.is_ok(), ok, "mode var {mode} + {extra:?}: {:?}", r.err());
    }
}

#[test]
fn handler_30_and_57_call_the_host_callback() {
    let p = load(&pkg(&[("E", vec![h(30, &[ZERO, ONE]), h(57, &[TWO, ONE])])]));
    let mut vm = vm_of(&p);
    let mut host = TestHost::default();
    vm.run_event(&p.scr, 0, &mut host);
    assert_eq!(host.calls, [(0, 0, 1), (2, 2, 1)]);
}

#[test]
fn an_unknown_selector_stops_the_event() {
    let p = load(&pkg(&[("E", vec![h(30, &[ZERO, ZERO]), h(0x1234, &[]), h(30, &[ZERO, ONE])])]));
    let mut vm = vm_of(&p);
    let mut host = TestHost::default();
    let r = vm.run_event(&p.scr, 0, &mut host);
    assert!(matches!(r, EventResult::Unsupported { record: 1, selector: Selector::Unknown(0x1234), .. }), "{r:?}");
    assert_eq!(host.calls, [(0, 0, 0)], "never skipped as a no-op");
}

#[test]
fn the_sentinel_is_skipped_or_unsupported_by_switch() {
    let p = load(&pkg(&[("E", vec![h(u32::MAX, &[]), h(30, &[ZERO, ONE])])]));
    let mut host = TestHost::default();
    assert_eq!(vm_of(&p).run_event(&p.scr, 0, &mut host), EventResult::Completed);
    let mut vm = vm_of(&p);
    vm.config.sentinel = SentinelPolicy::Unsupported;
    assert!(matches!(vm.run_event(&p.scr, 0, &mut host), EventResult::Unsupported { record: 0, .. }));
}

// ---------------------------------------------------------------- §3.7 conditions

#[derive(Default)]
struct World {
    objects: Vec<u32>,
    property: u32,
    value: Option<u32>,
    context: Option<u32>,
    lists: Vec<Vec<i32>>,
    busy: Vec<u32>,
    queried: Mutex<Vec<u32>>,
}

impl ConditionHost for World {
    fn object(&mut self, key: u32) -> Option<u32> {
        self.objects.contains(&key).then_some(key)
    }
    fn property_check(&mut self, _: u32) -> u32 {
        self.property
    }
    fn value(&mut self, _: u32) -> Option<u32> {
        self.value
    }
    fn context_first(&mut self) -> Option<u32> {
        self.context
    }
    fn list_count(&mut self) -> u32 {
        self.lists.len() as u32
    }
    fn list(&mut self, i: u32) -> Option<Vec<i32>> {
        self.lists.get(i as usize).cloned()
    }
    fn second_query(&mut self, o: u32) -> u32 {
        self.queried.lock().unwrap().push(o);
        u32::from(self.busy.contains(&o))
    }
}

fn cond(tag: u32, subtype: u32, payload: u32) -> Condition {
    Condition { tag, subtype, payload, done: 0, opaque: [1, 2, 3] }
}

#[test]
fn condition_tags_1_to_3() {
    let mut w = World { objects: vec![7], ..World::default() };
    let mut c = cond(1, 0, 8);
    assert_eq!(evaluate(&mut c, &mut w), Ok(true), "tag 1: nothing found");
    assert_eq!(c.done, 1);
    assert_eq!(evaluate(&mut cond(1, 0, 7), &mut w), Ok(false));
    for (code, pass) in [(1, true), (0x12, true), (0x13, true), (2, false), (0, false)] {
        w.property = code;
        assert_eq!(evaluate(&mut cond(2, 0, 7), &mut w), Ok(pass), "tag 2 code {code:#x}");
    }
    assert_eq!(evaluate(&mut cond(2, 0, 8), &mut w), Ok(false), "tag 2 needs the object");
    (w.value, w.context) = (Some(4), Some(4));
    assert_eq!(evaluate(&mut cond(3, 0, 1), &mut w), Ok(true));
    w.context = Some(5);
    let mut c = cond(3, 0, 1);
    assert_eq!(evaluate(&mut c, &mut w), Ok(false));
    assert_eq!(c.done, 0, "untouched when the check fails");
}

#[test]
fn condition_subtype_must_match_the_tag() {
    let mut w = World::default();
    assert_eq!(evaluate(&mut cond(1, 1, 8), &mut w), Ok(false), "tag 1 with subtype 1 never completes");
    w.lists = vec![vec![]];
    assert_eq!(evaluate(&mut cond(4, 0, 0), &mut w), Ok(false), "tag 4 with subtype 0 never completes");
    assert_eq!(evaluate(&mut cond(4, 1, 0), &mut w), Ok(true));
    assert_eq!(evaluate(&mut cond(6, 0, 0), &mut w), Ok(false));
}

#[test]
fn condition_tags_4_and_5_walk_the_list() {
    let mut w = World { objects: vec![1, 2, 3], lists: vec![vec![-1, 9], vec![-1, 2, 9, 3]], ..World::default() };
    assert_eq!(evaluate(&mut cond(4, 1, 0), &mut w), Ok(true), "no key resolves (-1 skipped)");
    assert_eq!(evaluate(&mut cond(4, 1, 1), &mut w), Ok(false));
    assert_eq!(evaluate(&mut cond(5, 1, 1), &mut w), Ok(true), "every found object answers 0");
    w.busy = vec![2];
    w.queried.lock().unwrap().clear();
    let mut c = cond(5, 1, 1);
    assert_eq!(evaluate(&mut c, &mut w), Ok(false));
    assert_eq!(*w.queried.lock().unwrap(), [2], "the first non-zero stops the walk");
    assert_eq!(c.done, 0);
}

#[test]
fn condition_list_index_equal_to_length_raises() {
    let mut w = World { lists: vec![vec![]; 2], ..World::default() };
    assert_eq!(evaluate(&mut cond(4, 1, 2), &mut w), Err(ConditionError::ListIndexAtLength(2)), "not false");
    assert_eq!(evaluate(&mut cond(5, 1, 3), &mut w), Ok(false), "index > length is rejected");
    let mut done = Condition { done: 1, ..cond(4, 1, 2) };
    assert_eq!(evaluate(&mut done, &mut w), Ok(true), "completed conditions are skipped");
    let c = cond(4, 1, 2);
    assert_eq!(Condition::from_bytes(&c.to_bytes()), c);
}

// ---------------------------------------------------------------- the plugin

fn app(files: MemFiles, clans: Vec<ClanSetup>) -> App {
    app_with(files, clans, SuperAiPlugin::default())
}

fn app_with(files: MemFiles, clans: Vec<ClanSetup>, plugin: SuperAiPlugin) -> App {
    let mut app = App::new();
    app.add_plugins((TimePlugin, bevy_state::app::StatesPlugin, CorePlugin, plugin))
        .insert_resource(Time::<Fixed>::from_duration(Duration::from_millis(64)))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(64)))
        .insert_resource(MissionClans { clans, files: Arc::new(files) });
    app.update();
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::Loading);
    app.update();
    app.world_mut().resource_mut::<NextState<MissionLoadPhase>>().set(MissionLoadPhase::ScenarioStart);
    app.update();
    app.world_mut().resource_mut::<NextState<AppState>>().set(AppState::InGame);
    app.update();
    app
}

fn clan(index: u32, bundle: &str, anchor: [f32; 2]) -> ClanSetup {
    ClanSetup {
        index,
        name: format!("clan{index}"),
        mode: 1 + index.min(1),
        anchor,
        bundle: bundle.into(),
        research_tree: String::new(),
        minds: 17,
        relations: Vec::new(),
    }
}

fn script_notes(app: &mut App) -> Vec<GameMessageKind> {
    let messages = app.world().resource::<Messages<GameMessage>>();
    messages
        .iter_current_update_messages()
        .map(|m| m.kind.clone())
        .filter(|k| matches!(k, GameMessageKind::Script { .. }))
        .collect()
}

#[test]
fn slots_go_only_to_loaded_packages_and_are_never_renumbered() {
    let p = pkg(&[("Init", vec![h(19, &[X, Y, CLAN])])]);
    let files = files_with(&p);
    let app = app(
        files,
        vec![
            clan(0, "MISSIONS\\SCRIPTS\\missing", [10.0, 10.0]),
            clan(1, "MISSIONS\\SCRIPTS\\test", [500.2857, 752.0]),
            clan(2, "MISSIONS\\SCRIPTS\\test", [728.0, 449.0]),
            clan(3, "MISSIONS\\SCRIPTS\\test", [10001.0, 1.0]),
        ],
    );
    let slots = app.world().resource::<SuperAiSlots>();
    assert_eq!(slots.0[..5], [None, Some(1), Some(2), None, None], "clan 1 stays slot 1");
    let ais = app.world().resource::<SuperAis>();
    assert_eq!(ais.0.len(), 4, "a SuperAI per clan record");
    assert!(ais.0[0].error.as_deref().unwrap_or("").contains("missing.scr"));
    assert!(ais.0[3].error.is_some(), "reading A rejects base X 10001");
    let vars = |slot: u32| {
        let vm = ais.by_slot(slot).unwrap().vm.as_ref().unwrap();
        (vm.var("ClanBaseX").unwrap(), vm.var("ClanBaseY").unwrap(), vm.var("ClanID").unwrap())
    };
    assert_eq!(vars(1), (500, 752, 1));
    assert_eq!(vars(2), (728, 449, 2));
}

#[test]
fn a_mission_ended_by_its_script() {
    let p = pkg(&[
        ("Init", vec![h(19, &[X, Y, CLAN])]),
        ("Win", vec![h(30, &[ZERO, ONE])]),
        ("Lose", vec![h(30, &[ZERO, ZERO])]),
        ("Odd", vec![h(30, &[ONE, TWO])]),
    ]);
    let mut app = app(files_with(&p), vec![clan(0, "MISSIONS/SCRIPTS/test", [1.0, 1.0])]);
    let send = |app: &mut App, event: &str| {
        app.world_mut().write_message(RunScriptEvent::new(0, event));
        app.update();
    };
    send(&mut app, "Win");
    assert_eq!(app.world().resource::<MissionOutcome>().of(0), Some(Outcome::Completed));
    let outcomes = |app: &App| {
        let messages = app.world().resource::<Messages<GameMessage>>();
        messages.iter_current_update_messages().filter(|m| matches!(m.kind, GameMessageKind::Outcome { .. })).count()
    };
    send(&mut app, "Win");
    assert_eq!(outcomes(&app), 0, "a repeat is a no-op");
    assert_eq!(app.world().resource::<MissionOutcome>().records.len(), 1);
    send(&mut app, "Lose");
    assert_eq!(app.world().resource::<MissionOutcome>().of(0), Some(Outcome::Failed));
    send(&mut app, "Odd");
    let notes = script_notes(&mut app);
    assert!(
        notes.iter().any(|n| matches!(n, GameMessageKind::Script { detail, .. } if detail.contains("unhandled host command (0, 1, 2)"))),
        "{notes:?}"
    );
    assert_eq!(app.world().resource::<MissionOutcome>().of(0), Some(Outcome::Failed));
}

#[test]
fn an_unsupported_record_is_reported_once_with_bundle_event_and_record() {
    let p = pkg(&[("Init", vec![]), ("Attack", vec![h(30, &[ZERO, TWO]), h(44, &[])])]);
    let mut app = app(files_with(&p), vec![clan(0, "MISSIONS/SCRIPTS/test", [1.0, 1.0])]);
    let mut reports = 0;
    for _ in 0..3 {
        app.world_mut().write_message(RunScriptEvent::new(0, "Attack"));
        app.update();
        let notes = script_notes(&mut app);
        let mine: Vec<_> = notes
            .iter()
            .filter(|n| matches!(n, GameMessageKind::Script { detail, .. } if detail.starts_with("unsupported")))
            .collect();
        if let Some(GameMessageKind::Script { bundle, event, record, handler, .. }) = mine.first() {
            assert_eq!(
                (bundle.as_str(), event.as_str(), *record, *handler),
                ("MISSIONS/SCRIPTS/test", "Attack", Some(1), Some(44))
            );
        }
        reports += mine.len();
    }
    assert_eq!(reports, 1, "reported once");
    app.world_mut().write_message(RunScriptEvent::new(0, "Attack"));
    app.update();
    let again = script_notes(&mut app);
    assert!(
        again.iter().any(
            |n| matches!(n, GameMessageKind::Script { detail, record: Some(1), .. } if detail.contains("stopped again"))
        ),
        "a later stop is still reported: {again:?}"
    );
}

/// Every script report the app holds (both message buffers).
fn all_script_notes(app: &App) -> Vec<(String, Option<u32>, String)> {
    let messages = app.world().resource::<Messages<GameMessage>>();
    messages
        .get_cursor()
        .read(messages)
        .filter_map(|m| match &m.kind {
            GameMessageKind::Script { event, record, detail, .. } => Some((event.clone(), *record, detail.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn scenario_start_runs_mission_after_init_and_reports_each_run() {
    let p = pkg(&[("Init", vec![h(19, &[X, Y, CLAN])]), ("Mission", vec![h(30, &[ZERO, ONE])])]);
    let without = pkg(&[("Init", vec![h(19, &[X, Y, CLAN])])]);
    let mut files = files_with(&p);
    files.add("MISSIONS/SCRIPTS/bare.scr", without.to_bytes().unwrap());
    files.add("MISSIONS/SCRIPTS/bare.var", varset_text());
    files.add("MISSIONS/SCRIPTS/bare.fml", "// fml\r\n");
    let app =
        app(files, vec![clan(0, "MISSIONS/SCRIPTS/test", [1.0, 1.0]), clan(1, "MISSIONS/SCRIPTS/bare", [2.0, 2.0])]);
    assert_eq!(app.world().resource::<MissionOutcome>().of(0), Some(Outcome::Completed), "Mission ran at the start");
    let notes = all_script_notes(&app);
    let ran: Vec<&str> = notes.iter().filter(|n| n.2 == "ran to its end").map(|n| n.0.as_str()).collect();
    assert_eq!(ran, ["Init", "Mission", "Init"], "Init, then Mission, clan by clan: {notes:?}");
    assert!(notes.iter().any(|n| n.0 == "Mission" && n.2 == "no such event"), "the bare package: {notes:?}");
}

#[test]
fn a_fallback_outcome_is_recorded_through_the_host_callback_only_when_none_is() {
    let p = pkg(&[("Init", vec![]), ("Lose", vec![h(30, &[ZERO, ZERO])])]);
    let mut app = app(files_with(&p), vec![clan(0, "MISSIONS/SCRIPTS/test", [1.0, 1.0])]);
    let request = |event: &str, fallback| RunScriptEvent { slot: 0, event: event.into(), fallback: Some(fallback) };
    app.world_mut().write_message(request("Lose", Outcome::Completed));
    app.update();
    assert_eq!(app.world().resource::<MissionOutcome>().of(0), Some(Outcome::Failed), "the script's own outcome stays");
    let mut other = self::app(files_with(&p), vec![clan(0, "MISSIONS/SCRIPTS/test", [1.0, 1.0])]);
    other.world_mut().write_message(request("Mission_Complete", Outcome::Completed));
    other.update();
    assert_eq!(
        other.world().resource::<MissionOutcome>().of(0),
        Some(Outcome::Completed),
        "no such event: the fallback"
    );
    let notes = script_notes(&mut other);
    assert!(notes.iter().any(|n| matches!(n, GameMessageKind::Script { event, detail, .. } if event == "Mission_Complete" && detail == "no such event")));
    let outcome = other
        .world()
        .resource::<Messages<GameMessage>>()
        .iter_current_update_messages()
        .any(|m| matches!(m.kind, GameMessageKind::Outcome { clan: 0, outcome: Outcome::Completed }));
    assert!(outcome, "the outcome is posted like Handler(30)'s");
}

#[test]
fn an_incomplete_init_keeps_defaults_or_under_strict_load_gives_no_slot() {
    let p = pkg(&[("Init", vec![h(19, &[X, Y, CLAN]), h(40, &[])])]);
    let clans = || vec![clan(0, "MISSIONS/SCRIPTS/test", [5.0, 6.0])];
    let preview = app(files_with(&p), clans());
    assert_eq!(preview.world().resource::<SuperAiSlots>().get(0), Some(0));
    let ai = &preview.world().resource::<SuperAis>().0[0];
    assert_eq!(ai.vm.as_ref().unwrap().var("ClanBaseX"), Some(0), "defaults kept");
    let strict =
        app_with(files_with(&p), clans(), SuperAiPlugin { init: InitPolicy::Strict, ..SuperAiPlugin::default() });
    assert_eq!(strict.world().resource::<SuperAiSlots>().get(0), None);
    assert!(strict.world().resource::<SuperAis>().0[0].error.as_deref().unwrap().contains("strict"));
}
