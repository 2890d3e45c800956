//! One test per rule this crate implements (gameplay.md §2, §13; `docs/reference/runtime.md`
//! §3.1, §3.7, §3.8); each would fail without its rule. The VM, its functions and the
//! formulas are tested here over a recording host; the plugin (the schedule, the host
//! callback, the world's functions, routes, saves) in [`world`].
#![allow(clippy::unwrap_used)]

mod world;

use super::condition::{Condition, ConditionError, ConditionHost, evaluate};
use super::designs::{self, DesignDraw, Select};
use super::package::{self, LoadMode, TableSource};
use super::problems::{Problems, Raise, Raised};
use super::variables::kind;
use super::vm::{ClanBase, EventResult, Host, MAX_BLOCKS, OrderPacket, StopAt, Vm};
use super::*;
use iron3d_core::{AiDesign, AiDesigns, DesignStatus, RandomStream, ScriptFiles};
use iron3d_formats::ErrorKind;
use iron3d_formats::script::functions as f;
use iron3d_formats::script::{NodeKind, Record, Relation, ScrPackage};
use std::collections::BTreeMap;
use std::sync::Mutex;

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
const D0: u32 = 3;
const D1: u32 = 4;
const D2: u32 = 5;
const FA: u32 = 6;
const FB: u32 = 7;
const DA: u32 = 8;
const DB: u32 = 9;
const ERR: u32 = 10;
const F_OUT: u32 = 11;
const D_OUT: u32 = 12;
const PBM: u32 = 14;
const STR: u32 = 15;
const SYSTEM: u32 = 16;
const INFO: u32 = 17;
const COMPLETE: u32 = 18;
const FAILED: u32 = 19;
const PROGRESS: u32 = 20;
const ROBOT: u32 = 21;
const PLACE: u32 = 22;
const LOGIC: u32 = 23;
const D3: u32 = 24;
const F_NEG: u32 = 25;
const BY_NAME: u32 = 26;
const D_NEG: u32 = 27;

fn varset_text() -> String {
    [
        "// fixture table",
        "VAR(DWORD, ClanBaseX, 0)",
        "VAR(DWORD, ClanBaseY, 0)",
        "VAR( DWORD, ClanID, 0x7);",
        "VAR(DWORD, d0, 0)",
        "VAR(DWORD, d1, 1)",
        "VAR(DWORD, d2, 2)",
        "VAR(float, fA, 2.5)",
        "VAR(float, fB, 0.5)",
        "VAR(DWORD, dA, 0)",
        "VAR(DWORD, dB, 0)",
        "VAR(DWORD, ERROR, 0xFFFFFFFF)",
        "VAR(float, fOut, 0)",
        "VAR(DWORD, dOut, 0)",
        "VAR(DWORD, dCurrentProblem, 0)",
        "VAR(DWORD, PBM_TEST, 7)",
        "STRING(sName, \"hello\")",
        "VAR(DWORD, SYSTEM_MESSAGE, 0)",
        "VAR(DWORD, MESSAGE_INFO, 1)",
        "VAR(DWORD, OBJECTIVE_COMPLETE, 3)",
        "VAR(DWORD, OBJECTIVE_FAILED, 4)",
        "VAR(DWORD, OBJECTIVE_PROGRESS, 5)",
        "VAR(DWORD, CLASS_ROBOT, 0x01000000)",
        "VAR(DWORD, TARGET_BY_PLACE, 0x0202)",
        "VAR(DWORD, TARGET_BY_LOGIC_ID, 0x0201)",
        "VAR(DWORD, d3, 3)",
        "VAR(float, fNeg, -1)",
        "VAR(DWORD, TARGET_BY_NAME, 0x0205)",
        "VAR(DWORD, dNeg, 0xFFFFFFFE)",
        "",
    ]
    .join("\r\n")
}

/// The fixture's formulas (formula n is line n).
const FORMULAS: [&str; 6] = ["20 + 55*fB", "(fA + 1) * 2", "-fA / 2", "dA + 1", "fA - fB - 1", "dB + 1"];

fn fml_text(formulas: &[&str]) -> String {
    let mut t = String::from("//FormulaSet export file\r\n\r\n");
    formulas.iter().for_each(|f| t.push_str(&format!("FUNCTION( , {f},  )\r\n")));
    t
}

fn files_with(pkg: &ScrPackage) -> MemFiles {
    let mut f = MemFiles::default();
    f.add("MISSIONS/SCRIPTS/test.scr", pkg.to_bytes().unwrap());
    f.add("MISSIONS/SCRIPTS/varset.var", varset_text());
    f.add("MISSIONS/SCRIPTS/test.fml", fml_text(&FORMULAS));
    f
}

fn pkg(events: &[(&str, Vec<Record>)]) -> ScrPackage {
    let mut p = ScrPackage::new();
    for (name, records) in events {
        p.add_event(name, records.clone()).unwrap();
    }
    p
}

fn load(p: &ScrPackage) -> ScriptPackage {
    package::load(&files_with(p), "MISSIONS\\SCRIPTS\\test", LoadMode::Compatible).unwrap()
}

fn vm_of(p: &ScriptPackage) -> Vm {
    Vm::new(p.variables.clone(), ClanBase { clan: 1, x: 500, y: 752 }, 0)
}

fn call(function: u32, dest: Option<u32>, args: &[u32]) -> Record {
    Record::call(function, dest, args.to_vec())
}

fn if_(a: u32, relation: Relation, b: u32) -> Record {
    Record::compare(a, relation, b)
}

fn end() -> Record {
    Record::of_kind(NodeKind::End, vec![])
}

fn node(kind: NodeKind, ops: &[u32]) -> Record {
    Record::of_kind(kind, ops.to_vec())
}

/// A host that records what the functions ask.
#[derive(Default)]
struct TestHost {
    calls: Vec<(u32, u32)>,
    orders: Vec<OrderPacket>,
    by_name: Vec<(OrderPacket, DesignDraw)>,
    researches: Vec<(u32, DesignDraw)>,
    at: Vec<(usize, usize, u32)>,
    answer: u32,
}

impl Host for TestHost {
    fn at(&mut self, handler: usize, node: usize, function: u32) {
        self.at.push((handler, node, function));
    }
    fn callback(&mut self, kind: u32, value: u32) {
        self.calls.push((kind, value));
    }
    fn callback_2(&mut self, a: u32, b: u32) {
        self.calls.push((a + 1000, b));
    }
    fn order(&mut self, packet: &OrderPacket) -> u32 {
        self.orders.push(packet.clone());
        self.answer
    }
    fn order_by_name(&mut self, packet: &OrderPacket, draw: DesignDraw) -> u32 {
        self.by_name.push((packet.clone(), draw));
        self.answer
    }
    fn research_design(&mut self, id: u32, draw: DesignDraw) -> u32 {
        self.researches.push((id, draw));
        self.answer
    }
    fn count_class(&mut self, clan: u32, mask: u32) -> u32 {
        clan ^ mask
    }
    fn count_type(&mut self, ty: u32) -> u32 {
        ty + 1
    }
    fn in_route(&mut self, route: u32, id: u32) -> bool {
        route == id
    }
    fn owner(&mut self, id: u32) -> u32 {
        id * 2
    }
    fn free_minds(&mut self) -> u32 {
        self.answer
    }
    fn random_below(&mut self, n: u32) -> u32 {
        n - 1
    }
}

/// Runs `nodes` as the only handler (with `Init` before it) and returns the VM and the result.
fn run_nodes(nodes: Vec<Record>) -> (Vm, EventResult, TestHost) {
    let p = load(&pkg(&[("Init", vec![]), ("Test", nodes)]));
    let mut vm = vm_of(&p);
    let mut host = TestHost::default();
    let result = vm.run_event(&p, 1, &mut host);
    (vm, result, host)
}

fn word(vm: &Vm, v: u32) -> u32 {
    vm.vars[v as usize].word
}

fn float(vm: &Vm, v: u32) -> f32 {
    f32::from_bits(vm.vars[v as usize].word)
}

// ---------------------------------------------------------------- package loading

#[test]
fn variables_come_from_the_bundle_var_when_it_exists() {
    let p = pkg(&[("Init", vec![])]);
    let mut files = files_with(&p);
    files.add("MISSIONS/SCRIPTS/test.var", "VAR(float, fOnly, 1.0)\r\n");
    files.add("MISSIONS/SCRIPTS/test.fml", fml_text(&["fOnly * 2"]));
    let loaded = package::load(&files, "MISSIONS\\SCRIPTS\\test", LoadMode::Compatible).unwrap();
    assert_eq!(loaded.table, TableSource::Bundle("MISSIONS/SCRIPTS/test.var".into()));
    assert_eq!(loaded.variables.len(), 1);
    let shared = package::load(&files_with(&p), "MISSIONS/SCRIPTS/test", LoadMode::Compatible).unwrap();
    assert_eq!(shared.table, TableSource::Shared("MISSIONS/SCRIPTS/varset.var".into()));
    assert_eq!(shared.variables[CLAN as usize].word, 7, "a trailing `;` keeps the declaration");
    assert_eq!(shared.variables[STR as usize].kind, kind::STRING);
    assert_eq!((shared.variables[FA as usize].kind, shared.variables[ERR as usize].kind), (kind::FLOAT, kind::DWORD));
}

#[test]
fn an_unreadable_bundle_var_is_an_error_not_a_fallback() {
    let p = pkg(&[("Init", vec![])]);
    let mut files = files_with(&p);
    files.add("MISSIONS/SCRIPTS/test.var", "VAR(float, fOnly, 1.0)\r\n");
    files.unreadable.push("missions/scripts/test.var".into());
    let e = package::load(&files, "MISSIONS/SCRIPTS/test", LoadMode::Compatible).unwrap_err();
    assert!(e.to_string().contains("test.var"), "{e}");
}

#[test]
fn missing_scr_and_missing_fml_are_located_errors() {
    let files = MemFiles::default();
    let e = package::load(&files, "MISSIONS/SCRIPTS/test", LoadMode::Compatible).unwrap_err();
    assert!(e.to_string().contains("test.scr"), "{e}");
    let p = pkg(&[("Init", vec![])]);
    let mut files = files_with(&p);
    files.files.remove("missions/scripts/test.fml");
    let e = package::load(&files, "MISSIONS/SCRIPTS/test", LoadMode::Compatible).unwrap_err();
    assert!(e.to_string().contains("test.fml"), "{e}");
    let named = iron3d_formats::Frame::File("MISSIONS/SCRIPTS/test.fml".into());
    assert!(e.chain.contains(&named), "the missing file is the error's file: {e:?}");
}

#[test]
fn a_truncated_package_is_a_located_error() {
    let p = pkg(&[("Init", vec![call(f::CLAN_BASE, None, &[X, Y, CLAN])])]);
    let mut files = files_with(&p);
    let mut bytes = p.to_bytes().unwrap();
    bytes.truncate(bytes.len() - 3);
    files.add("MISSIONS/SCRIPTS/test.scr", bytes);
    let e = package::load(&files, "MISSIONS/SCRIPTS/test", LoadMode::Compatible).unwrap_err();
    assert!(e.to_string().contains("test.scr"), "{e}");
    assert!(e.offset.is_some(), "{e}");
}

#[test]
fn a_function_outside_the_table_is_kept_compatible_and_rejected_strict() {
    let p = pkg(&[("Init", vec![call(80, None, &[])])]);
    assert!(package::load(&files_with(&p), "MISSIONS/SCRIPTS/test", LoadMode::Compatible).is_ok());
    let e = package::load(&files_with(&p), "MISSIONS/SCRIPTS/test", LoadMode::Strict).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid { rule: "scr_function", .. }), "{e}");
}

#[test]
fn a_node_that_cannot_run_is_a_load_error_naming_handler_node_and_offset() {
    let bad = [
        (call(f::CALLBACK, None, &[D0, 999]), "operand 1 999 names no variable"),
        (call(f::CALLBACK, None, &[D0]), "function 30 reads 2 operands"),
        (node(NodeKind::Goto, &[9]), "the goto's node 9 does not exist"),
        (node(NodeKind::Switch, &[5]), "the switch's handler 5 does not exist"),
        (Record { relation: 7, ..if_(D0, Relation::Less, D1) }, "relation 7"),
        (Record::formula_into(DA, 40), "formula 40 does not exist"),
        (node(NodeKind::Statement, &[]), "no function, source or formula"),
        (Record { head: [u32::MAX, u32::MAX, u32::MAX, 9], ..end() }, "kind 9"),
        (Record::copy(500, D0), "destination 500"),
    ];
    for (record, why) in bad {
        let p = pkg(&[("Init", vec![]), ("Attack", vec![end(), record])]);
        let e = package::load(&files_with(&p), "MISSIONS/SCRIPTS/test", LoadMode::Compatible).unwrap_err();
        let text = e.to_string();
        assert!(text.contains(why) && text.contains("node 1") && text.contains("Attack"), "{why}: {text}");
        assert_eq!(e.offset, Some(package::record_offset(&p, 1, 1)), "{why}");
    }
}

#[test]
fn a_formula_that_does_not_parse_is_a_located_error_of_the_fml() {
    let p = pkg(&[("Init", vec![])]);
    for (formula, why) in [("fA ^ 2", "operator `^`"), ("fZ + 1", "`fZ` is no variable"), ("(fA + 1", "not closed")] {
        let mut files = files_with(&p);
        files.add("MISSIONS/SCRIPTS/test.fml", fml_text(&["fA", formula]));
        let e = package::load(&files, "MISSIONS/SCRIPTS/test", LoadMode::Compatible).unwrap_err();
        let text = e.to_string();
        assert!(text.contains(why) && text.contains("test.fml") && text.contains("line 4"), "{formula}: {text}");
    }
}

// ---------------------------------------------------------------- nodes

#[test]
fn a_call_stores_its_result_slot_and_a_copy_goes_through_the_getters() {
    let (vm, result, _) = run_nodes(vec![
        call(f::STUB_ONE, Some(DA), &[]),
        Record::copy(D_OUT, FA),
        Record::copy(F_OUT, DA),
        call(f::STUB_NOTHING, None, &[]),
    ]);
    assert_eq!(result, EventResult::Completed);
    assert_eq!(word(&vm, DA), 1, "function 0 answers 1");
    assert_eq!(word(&vm, D_OUT), 2, "a float copied into a DWORD is truncated");
    assert_eq!(float(&vm, F_OUT), 1.0, "a DWORD copied into a float keeps its value");
}

#[test]
fn an_if_compares_unsigned_dwords_when_the_first_operand_is_a_dword_and_floats_otherwise() {
    // ERROR (0xffffffff) is above everything as a DWORD; as a signed number it would be -1.
    let (vm, ..) = run_nodes(vec![
        if_(ERR, Relation::Greater, D2),
        Record::copy(DA, D1),
        end(),
        if_(F_NEG, Relation::Less, D2),
        Record::copy(DB, D1),
        end(),
        if_(FA, Relation::Greater, FB),
        Record::copy(D_OUT, D2),
        end(),
    ]);
    assert_eq!(word(&vm, DA), 1, "unsigned DWORD compare");
    assert_eq!(word(&vm, DB), 1, "a float first operand compares as floats: -1 < 2");
    assert_eq!(word(&vm, D_OUT), 2);
    for (relation, holds) in [
        (Relation::Less, false),
        (Relation::Equal, false),
        (Relation::Greater, true),
        (Relation::LessEqual, false),
        (Relation::GreaterEqual, true),
        (Relation::NotEqual, true),
    ] {
        let (vm, ..) = run_nodes(vec![if_(D2, relation, D1), Record::copy(DA, D1), end()]);
        assert_eq!(word(&vm, DA) == 1, holds, "{relation:?}");
    }
}

#[test]
fn a_constant_runs_even_inside_a_false_block_and_a_statement_does_not() {
    let (vm, result, host) = run_nodes(vec![
        if_(D0, Relation::Equal, D1),
        Record::constant(DA, 0x8000_0003),
        Record::copy(DB, D1),
        call(f::CALLBACK, None, &[D0, D1]),
        node(NodeKind::Return, &[]),
        end(),
        Record::constant(D_OUT, 4094),
    ]);
    assert_eq!(result, EventResult::Completed);
    assert_eq!(word(&vm, DA), 0x8000_0003, "the constant landed in the false block");
    assert_eq!((word(&vm, DB), host.calls.len()), (0, 0), "the copy and the call did not run");
    assert_eq!(word(&vm, D_OUT), 4094, "the return in the false block did not stop the handler");
}

#[test]
fn blocks_nest_32_deep_and_a_33rd_fails() {
    let deep = |n: usize| {
        let mut nodes: Vec<Record> = (0..n).map(|_| if_(D1, Relation::Equal, D1)).collect();
        nodes.push(Record::copy(DA, D1));
        nodes
    };
    let (vm, result, _) = run_nodes(deep(MAX_BLOCKS));
    assert_eq!((result, word(&vm, DA)), (EventResult::Completed, 1));
    let (_, result, _) = run_nodes(deep(MAX_BLOCKS + 1));
    let EventResult::Failed { at, reason } = result else { panic!("{result:?}") };
    assert_eq!(at, StopAt { handler: 1, node: MAX_BLOCKS, function: None });
    assert!(reason.contains("at most 32"), "{reason}");
}

#[test]
fn spare_ends_are_clamped_at_zero() {
    let (vm, result, _) = run_nodes(vec![
        end(),
        end(),
        if_(D0, Relation::Equal, D1),
        end(),
        end(),
        Record::copy(DA, D1),
        if_(D0, Relation::Equal, D1),
        Record::copy(DB, D1),
    ]);
    assert_eq!(result, EventResult::Completed);
    assert_eq!(word(&vm, DA), 1, "the depth never went below zero");
    assert_eq!(word(&vm, DB), 0, "a block opened after the spare ends still holds");
}

#[test]
fn a_goto_continues_at_its_node_and_clears_the_open_blocks() {
    // Each pass opens 20 blocks and jumps back: without the clearing the second pass
    // would open a 33rd.
    let mut nodes = vec![node(NodeKind::Label, &[])];
    nodes.extend((0..20).map(|_| if_(D1, Relation::Equal, D1)));
    nodes.push(Record::formula_into(DA, 3)); // dA = dA + 1
    nodes.push(if_(DA, Relation::Less, D2));
    nodes.push(node(NodeKind::Goto, &[0]));
    nodes.push(end());
    nodes.push(node(NodeKind::Goto, &[27]));
    nodes.push(Record::copy(DB, D1)); // skipped by the goto
    nodes.push(node(NodeKind::Label, &[]));
    let (vm, result, _) = run_nodes(nodes);
    assert_eq!(result, EventResult::Completed);
    assert_eq!(word(&vm, DA), 2, "two passes");
    assert_eq!(word(&vm, DB), 0, "the node between the goto and its label did not run");
}

#[test]
fn a_switch_continues_in_the_other_handler_at_node_0_and_clears_the_blocks() {
    let p = load(&pkg(&[
        ("Init", vec![]),
        ("Mission", vec![if_(D1, Relation::Equal, D1), node(NodeKind::Switch, &[2]), Record::copy(DB, D1)]),
        ("Easy", vec![end(), Record::copy(DA, D2), call(44, None, &[])]),
    ]));
    let mut vm = vm_of(&p);
    let result = vm.run_event(&p, 1, &mut TestHost::default());
    assert_eq!(word(&vm, DB), 0, "the node after the switch never runs");
    assert_eq!(word(&vm, DA), 2, "Easy ran from node 0 (its spare end found no block open)");
    let EventResult::Unsupported { at, .. } = result else { panic!("{result:?}") };
    assert_eq!(at, StopAt { handler: 2, node: 2, function: Some(44) }, "the stop names the handler switched to");
}

#[test]
fn return_stops_and_running_off_the_end_stops() {
    let (vm, result, _) = run_nodes(vec![Record::copy(DA, D1), node(NodeKind::Return, &[]), Record::copy(DB, D1)]);
    assert_eq!((result, word(&vm, DA), word(&vm, DB)), (EventResult::Completed, 1, 0));
    let (_, result, _) = run_nodes(vec![node(NodeKind::Label, &[])]);
    assert_eq!(result, EventResult::Completed);
}

#[test]
fn a_loop_without_end_is_stopped_at_the_step_limit() {
    let (_, result, _) = run_nodes(vec![node(NodeKind::Label, &[]), node(NodeKind::Goto, &[0])]);
    assert!(matches!(result, EventResult::Failed { ref reason, .. } if reason.contains("exceeds")), "{result:?}");
}

#[test]
fn formulas_evaluate_numbers_variables_and_precedence_through_the_float_setter() {
    let (vm, result, _) = run_nodes(vec![
        Record::formula_into(F_OUT, 0),
        Record::formula_into(D_OUT, 0),
        Record::formula_into(DA, 1),
        Record::formula_into(DB, 4),
        Record::formula_into(FB, 2),
    ]);
    assert_eq!(result, EventResult::Completed);
    assert_eq!(float(&vm, F_OUT), 47.5, "20 + 55 * 0.5: * before +");
    assert_eq!(word(&vm, D_OUT), 47, "a DWORD destination truncates");
    assert_eq!(word(&vm, DA), 7, "(2.5 + 1) * 2");
    assert_eq!(float(&vm, FB), -1.25, "sign change and division");
    assert_eq!(word(&vm, DB), 1, "left to right: 2.5 - 0.5 - 1");
    assert_eq!(variables::ftol(-2.7), (-2i64) as u32, "truncation toward zero, low word");
    assert_eq!(variables::ftol(f64::NAN), 0);
}

#[test]
fn a_variable_with_no_number_fails_the_node() {
    let (_, result, _) = run_nodes(vec![Record::copy(DA, D1), if_(STR, Relation::Equal, D1)]);
    let EventResult::Failed { at, reason } = result else { panic!("{result:?}") };
    assert_eq!((at.node, reason.contains("sName")), (1, true), "{reason}");
}

#[test]
fn an_unknown_function_stops_the_handler_keeping_what_ran_before() {
    let (vm, result, _) = run_nodes(vec![Record::copy(DA, D1), call(44, Some(DB), &[D1]), Record::copy(D_OUT, D1)]);
    let EventResult::Unsupported { at, reason } = result else { panic!("{result:?}") };
    assert_eq!(at, StopAt { handler: 1, node: 1, function: Some(44) });
    assert!(reason.contains("function 44"), "{reason}");
    assert_eq!((word(&vm, DA), word(&vm, D_OUT)), (1, 0));
    for defined in [f::CALLBACK, f::COUNT_CLASS, f::TIMER, f::RAISE_PROBLEM] {
        assert!(functions::arity(defined).is_some(), "{defined}");
    }
    assert_eq!(functions::arity(44), None);
}

// ---------------------------------------------------------------- functions

#[test]
fn function_19_writes_base_x_base_y_and_the_clan_index() {
    let (vm, ..) = run_nodes(vec![call(f::CLAN_BASE, None, &[X, Y, CLAN])]);
    assert_eq!((word(&vm, X), word(&vm, Y), word(&vm, CLAN)), (500, 752, 1));
}

#[test]
fn functions_59_and_60_time_against_the_clan_clock() {
    let p = load(&pkg(&[
        ("Init", vec![]),
        ("Set", vec![call(f::TIMER, Some(DA), &[D2])]),
        ("Check", vec![call(f::TIMER_PASSED, Some(DB), &[DA]), call(f::TIMER_PASSED, Some(D_OUT), &[ERR])]),
    ]));
    let mut vm = vm_of(&p);
    vm.clock = 5;
    vm.run_event(&p, 1, &mut TestHost::default());
    assert_eq!(word(&vm, DA), 7, "clock + delay");
    for (clock, passed) in [(5, f::ERROR), (7, f::ERROR), (8, 1)] {
        vm.clock = clock;
        vm.run_event(&p, 2, &mut TestHost::default());
        assert_eq!(word(&vm, DB), passed, "clock {clock}: passed only strictly above 7");
        assert_eq!(word(&vm, D_OUT), f::ERROR, "an unsigned compare: ERROR is never passed");
    }
}

#[test]
fn the_world_functions_ask_the_host_with_their_arguments() {
    let (vm, result, host) = run_nodes(vec![
        call(f::CALLBACK, None, &[INFO, D3]),
        call(f::CALLBACK_2, None, &[D1, D2]),
        call(f::COUNT_CLASS, Some(DA), &[D2, ROBOT]),
        call(f::COUNT_TYPE, Some(DB), &[D3]),
        call(f::IN_ROUTE, Some(D_OUT), &[D2, D2]),
        call(f::OWNER, Some(X), &[D3]),
        call(f::FREE_MINDS, Some(Y), &[]),
        call(f::RANDOM, Some(CLAN), &[D3]),
        call(f::ORDER_UNIT, Some(D0), &[D3, D2, D1, D0, FA, FB, FA, FB, PLACE, D1, D2]),
        call(f::STUB_READ, None, &[FA]),
        call(f::RANDOM, None, &[D0]),
    ]);
    assert_eq!(host.calls, [(1, 3), (1001, 2)], "channel 0 (MESSAGE_INFO, 3), channel 2");
    assert_eq!(word(&vm, DA), 2 ^ 0x0100_0000);
    assert_eq!((word(&vm, DB), word(&vm, D_OUT), word(&vm, X), word(&vm, Y), word(&vm, CLAN)), (4, 1, 6, 0, 2));
    let p = &host.orders[0];
    assert_eq!((p.unit, p.order, p.insert, p.parameter, p.target_kind), (3, 2, 1, 0, 0x0202));
    assert_eq!((p.floats, p.target.as_slice()), ([2.5, 0.5, 2.5, 0.5], &[1, 2][..]));
    let EventResult::Failed { at, reason } = result else { panic!("{result:?}") };
    assert_eq!((at.node, at.function), (10, Some(f::RANDOM)), "{reason}");
    assert_eq!(host.at.first(), Some(&(1, 0, f::CALLBACK)), "the host is told which node calls");
}

#[test]
fn functions_43_and_69_set_the_design_draw_that_an_order_by_name_carries() {
    let by_name = |dest| call(f::ORDER_UNIT, dest, &[D3, D3, D3, D1, FA, FA, FA, FA, BY_NAME, D2]);
    let (vm, result, host) = run_nodes(vec![
        by_name(None),
        call(f::LOAD_DESIGNS, Some(DA), &[]),
        call(f::DESIGN_SPREAD, Some(DB), &[D3]),
        call(f::DESIGN_SPREAD, None, &[D_NEG]),
        by_name(Some(D_OUT)),
    ]);
    assert_eq!(result, EventResult::Completed);
    assert!(host.orders.is_empty(), "a TARGET_BY_NAME packet goes to the design pick");
    let draws: Vec<DesignDraw> = host.by_name.iter().map(|(_, d)| *d).collect();
    assert_eq!(draws, [DesignDraw::default(), DesignDraw { loaded: true, spread: 3 }], "a negative spread is ignored");
    let p = &host.by_name[1].0;
    assert_eq!((p.unit, p.order, p.parameter, p.target_kind, p.target.as_slice()), (3, 3, 1, 0x0205, &[2][..]));
    assert_eq!((word(&vm, DA), word(&vm, DB)), (0, 1), "function 69 answers 1");
    assert_eq!(vm.designs, DesignDraw { loaded: true, spread: 3 });
}

/// A store of `(class, hit points, guns, speed, status)` designs for clan 1.
fn store(designs: &[(u32, f32, f32, f32, DesignStatus)]) -> AiDesigns {
    let design = |(i, (class, hit_points, guns, speed, _)): (usize, &(u32, f32, f32, f32, DesignStatus))| AiDesign {
        scheme: format!("UNITS\\UNITS\\AI\\d{i}.dat"),
        class: *class,
        size: 2,
        hit_points: *hit_points,
        guns: *guns,
        speed: *speed,
        parts: Vec::new(),
    };
    AiDesigns {
        designs: designs.iter().enumerate().map(design).collect(),
        clans: [(1, designs.iter().map(|d| d.4.clone()).collect())].into(),
    }
}

#[test]
fn each_select_mode_ranks_the_researched_designs_of_the_type_by_its_figure() {
    const WARRIOR: u32 = 0x0100_8000;
    // openparkan's measured pair: a size-2 design of 5 715 points and 4 000 of guns
    // (strength 228.6) against AI_LS_10's 93 008 points (207.2).
    let s = store(&[
        (WARRIOR, 93_008.0, 221.96, 5.0, DesignStatus::Researched),
        (WARRIOR, 5_715.0, 4_000.0, 9.0, DesignStatus::Researched),
        (WARRIOR, 1_000.0, 100.0, 12.0, DesignStatus::Researched),
        (WARRIOR, 500_000.0, 9_000.0, 20.0, DesignStatus::Open { cost: 1.0, items: vec![1] }),
        (0x0100_4000, 9_999.0, 9_999.0, 30.0, DesignStatus::Researched),
        (WARRIOR | 0x8000_0000, 9_999.0, 9_999.0, 30.0, DesignStatus::Researched),
    ]);
    assert!((designs::strength(4_000.0, 5_715.0) - 228.65).abs() < 0.01);
    let rank = |select| designs::ranking(&s, 1, WARRIOR, select);
    assert_eq!(rank(Select::BestCombat), [1, 0, 2], "guns over armour");
    assert_eq!(rank(Select::BestArmor), [0, 1, 2]);
    assert_eq!(rank(Select::BestWeapon), [1, 0, 2]);
    assert_eq!(rank(Select::Fastest), [2, 1, 0]);
    assert_eq!(rank(Select::BestRange), [0, 1, 2], "an unwritten field: every design ties");
    assert!(designs::ranking(&s, 2, WARRIOR, Select::BestCombat).is_empty(), "another clan has researched none");
    let mut random = RandomStream::named(7, "test");
    assert_eq!(designs::pick(&rank(Select::Smallest), Select::Smallest, 5, &mut random), Some(2), "the weakest");
    assert_eq!(random, RandomStream::named(7, "test"), "SELECT_SMALLEST draws nothing");
    let picks: Vec<usize> = (0..200)
        .map(|_| designs::pick(&rank(Select::BestCombat), Select::BestCombat, 0, &mut random).unwrap())
        .collect();
    assert!(picks.iter().all(|p| *p == 1), "spread 0 takes the best");
    let mut seen = [0usize; 3];
    for _ in 0..1100 {
        seen[designs::pick(&rank(Select::BestCombat), Select::BestCombat, 10, &mut random).unwrap()] += 1;
    }
    // Draws 0 and 3..=10 take the first, 1 and 2 the next two.
    assert!(seen[1] > 4 * seen[0].max(seen[2]) && seen[0] > 0 && seen[2] > 0, "{seen:?}");
    assert_eq!(designs::pick(&[], Select::BestCombat, 3, &mut random), None);
}

#[test]
fn function_41_researches_the_cheapest_open_design() {
    let open = |cost: f32, items: &[u32]| DesignStatus::Open { cost, items: items.to_vec() };
    let s = store(&[
        (1, 1.0, 1.0, 1.0, DesignStatus::Researched),
        (1, 1.0, 1.0, 1.0, open(50.0, &[3, 4])),
        (1, 1.0, 1.0, 1.0, DesignStatus::Closed),
        (1, 1.0, 1.0, 1.0, open(20.0, &[5])),
        (1, 1.0, 1.0, 1.0, open(20.0, &[6])),
    ]);
    assert_eq!(designs::cheapest(&s, 1), Some(&[5][..]), "the cheapest; of equal costs the first");
    assert_eq!(designs::cheapest(&s, 2), None, "a clan with no open design");
    let (_, result, host) =
        run_nodes(vec![call(f::LOAD_DESIGNS, None, &[]), call(f::RESEARCH_DESIGN, Some(DA), &[D2])]);
    assert_eq!(result, EventResult::Completed);
    assert_eq!(host.researches, [(2, DesignDraw { loaded: true, spread: 0 })]);
}

fn raise(code: u32, weight: f32, params: [u32; 3]) -> Raise {
    Raise { code, name: "PBM_TEST".into(), weight, a: 10, b: 20, params }
}

#[test]
fn function_2_raises_a_problem_only_with_both_handlers_and_once_per_code_p1_p2() {
    let both = |n: &str| match n {
        "PBM_TEST_Start" => Some(3),
        "PBM_TEST_Continue" => Some(4),
        _ => None,
    };
    let mut p = Problems::default();
    assert_eq!(p.raise(raise(7, 1.0, [1, 2, 3]), |n| both(n).filter(|_| n.ends_with("Start"))), Raised::NoHandlers);
    assert_eq!(p.raise(raise(7, 1.0, [1, 2, 3]), both), Raised::New(0));
    assert_eq!((p.list[0].start, p.list[0].resume, p.list[0].a), (3, 4, 10));
    assert_eq!(p.raise(raise(7, 1.0, [1, 2, 9]), both), Raised::Standing(0), "same code, p1, p2 and weight");
    assert_eq!(p.raise(raise(7, 2.0, [1, 2, 9]), both), Raised::Refreshed(0), "another weight refreshes");
    assert_eq!((p.list[0].weight, p.list[0].params[2], p.list[0].a), (2.0, 9, 20), "weight, p3, a += a");
    assert_eq!(p.raise(raise(7, 2.0, [1, 5, 9]), both), Raised::New(1), "another p2 is another problem");
    assert_eq!(p.raise(raise(8, 2.0, [1, 2, 9]), both), Raised::New(2), "another code too");
}

#[test]
fn the_running_problem_functions_read_and_write_its_record() {
    let p = load(&pkg(&[
        ("Init", vec![]),
        ("Raise", vec![call(f::RAISE_PROBLEM, None, &[PBM, FA, D1, D2, D3, D1, D2])]),
        (
            "PBM_TEST_Start",
            vec![
                call(f::PROBLEM_WEIGHT, Some(F_OUT), &[]),
                call(f::SET_PROBLEM_WEIGHT, None, &[FB]),
                call(f::PROBLEM_PARAMETER, Some(DA), &[D0]),
                call(f::PROBLEM_PARAMETER, Some(DB), &[D3]),
                call(f::PROBLEM_ACTION, None, &[D2, LOGIC, D3]),
                call(f::PROBLEM_STATE, None, &[D1]),
                call(f::PROBLEM_HANDLER, None, &[D2]),
            ],
        ),
        ("PBM_TEST_Continue", vec![]),
    ]));
    let mut vm = vm_of(&p);
    let mut host = TestHost::default();
    assert_eq!(vm.run_event(&p, 1, &mut host), EventResult::Completed);
    let problem = &vm.problems.list[0];
    assert_eq!((problem.code, problem.weight, problem.params, problem.b), (7, 2.5, [3, 1, 2], 2));
    let no_running = vm.run_event(&p, 2, &mut host);
    assert!(matches!(no_running, EventResult::Failed { ref reason, .. } if reason.contains("no problem is running")));
    vm.problems.running = Some(0);
    assert_eq!(vm.run_event(&p, 2, &mut host), EventResult::Completed);
    let problem = &vm.problems.list[0];
    assert_eq!(float(&vm, F_OUT), 2.5, "function 12: the weight");
    assert_eq!(problem.weight, 0.5, "function 62 set it");
    assert_eq!((word(&vm, DA), word(&vm, DB)), (3, f::ERROR), "p1; no p4");
    assert_eq!(problem.actions, [(2, 0x0201, vec![3])]);
    assert_eq!((problem.state, vm.problem_handler), (1, 2), "functions 8 and 33");
}

// ---------------------------------------------------------------- §3.7 conditions

#[derive(Default)]
struct Lists {
    objects: Vec<u32>,
    property: u32,
    value: Option<u32>,
    context: Option<u32>,
    lists: Vec<Vec<i32>>,
    busy: Vec<u32>,
    queried: Mutex<Vec<u32>>,
}

impl ConditionHost for Lists {
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
    let mut w = Lists { objects: vec![7], ..Lists::default() };
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
    let mut w = Lists::default();
    assert_eq!(evaluate(&mut cond(1, 1, 8), &mut w), Ok(false), "tag 1 with subtype 1 never completes");
    w.lists = vec![vec![]];
    assert_eq!(evaluate(&mut cond(4, 0, 0), &mut w), Ok(false), "tag 4 with subtype 0 never completes");
    assert_eq!(evaluate(&mut cond(4, 1, 0), &mut w), Ok(true));
    assert_eq!(evaluate(&mut cond(6, 0, 0), &mut w), Ok(false));
}

#[test]
fn condition_tags_4_and_5_walk_the_list() {
    let mut w = Lists { objects: vec![1, 2, 3], lists: vec![vec![-1, 9], vec![-1, 2, 9, 3]], ..Lists::default() };
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
    let mut w = Lists { lists: vec![vec![]; 2], ..Lists::default() };
    assert_eq!(evaluate(&mut cond(4, 1, 2), &mut w), Err(ConditionError::ListIndexAtLength(2)), "not false");
    assert_eq!(evaluate(&mut cond(5, 1, 3), &mut w), Ok(false), "index > length is rejected");
    let mut done = Condition { done: 1, ..cond(4, 1, 2) };
    assert_eq!(evaluate(&mut done, &mut w), Ok(true), "completed conditions are skipped");
    let c = cond(4, 1, 2);
    assert_eq!(Condition::from_bytes(&c.to_bytes()), c);
}

/// A script's orders as `docs/31-packages.md` reads them (the shipped scripts give PATROL
/// 140 times, CAPTURE 48, SHUTDOWN 28): each packet becomes the project's order, a
/// logical id its object's id.
#[test]
fn a_scripts_orders_become_the_originals_tasks() {
    use crate::host::{TARGET_BY_LOGIC_ID as ID, TARGET_BY_PLACE as PLACE, TARGET_BY_TYPE, TARGET_NOT_DEFINED};
    use iron3d_core::{Guard, Order, SearchFor, Ward};
    let packet = |order: u32, parameter: u32, target_kind: u32, target: &[u32]| OrderPacket {
        unit: 3,
        order,
        insert: 3,
        parameter,
        floats: [0.5; 4],
        target_kind,
        target: target.to_vec(),
    };
    // Logical ids 1..=9 are objects 101..=109.
    let of = |p: OrderPacket| host::script_order(&p, |l| (1..=9).contains(&l).then_some(100 + l));
    let place = |at: [f32; 2], z, radius| Some(Order::Guard(Guard { ward: Ward::Place { at, z: Some(z) }, radius }));
    assert_eq!(of(packet(4, 0, PLACE, &[1124, 783])), place([1124.0, 783.0], 0.0, 0.0), "z 0, the task's radius");
    assert_eq!(of(packet(4, u32::MAX, PLACE, &[606, 993, 90])), place([606.0, 993.0], 90.0, 0.0), "−1: the task's");
    assert_eq!(of(packet(4, 300, PLACE, &[10, 20])), place([10.0, 20.0], 0.0, 300.0), "the parameter's radius");
    let guard_5 = Order::Guard(Guard { ward: Ward::Object(105), radius: 0.0 });
    assert_eq!(of(packet(4, 0, ID, &[5])), Some(guard_5));
    assert_eq!(of(packet(17, 0, ID, &[7])), Some(Order::Capture(107)));
    assert_eq!(of(packet(5, 0, ID, &[7])), Some(Order::Capture(107)), "a search on one building");
    assert_eq!(of(packet(5, 0, TARGET_BY_TYPE, &[0x8017_365e])), Some(Order::Search(SearchFor::Capture)));
    assert_eq!(of(packet(5, 0, TARGET_BY_TYPE, &[0x1000_1000])), Some(Order::SearchLodes));
    assert_eq!(of(packet(5, 0, TARGET_NOT_DEFINED, &[u32::MAX])), Some(Order::Search(SearchFor::Enemies)));
    assert_eq!(of(packet(19, 0, 0, &[])), Some(Order::Shutdown));
    assert_eq!(of(packet(20, 0, 0, &[])), Some(Order::Leave));
    assert_eq!(of(packet(21, 0, 0, &[])), Some(Order::StandGround));
    assert_eq!(of(packet(22, 50, ID, &[2])), Some(Order::Follow(102)));
    assert_eq!(of(packet(23, 0, ID, &[4])), Some(Order::Board(104)));
    assert_eq!(of(packet(24, 0, ID, &[9])), Some(Order::Upgrade(109)));
    assert_eq!(of(packet(4, 0, ID, &[42])), None, "an unknown logical id");
    assert_eq!(of(packet(13, 0, 0, &[])), None, "RANDOMGO: not carried out");
}
