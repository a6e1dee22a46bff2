//! The benchmark's grading against BFCL's own checker: answers with the verdict
//! `bfcl-eval`'s `ast_checker.py` gave each (`tests/bench/bfcl/official.py`), graded again by
//! `grade.rs`. Two files: the model's answers recorded by a run of the benchmark, and answers
//! made from the first cases' possible answers, each altered one way (a value, a type, a
//! parameter, the count, the order). Both hold BFCL's data (Apache-2.0), a case a line before
//! its answers.

use std::collections::HashMap;

use serde_json::Value;

use super::data::{Case, Category};
use super::grade::{Call, grade};

/// The answers the model gave in a run of `bash tests/bench/bfcl.sh`.
const RECORDED: &str = include_str!("recorded.jsonl");
/// Answers made from BFCL's possible answers (`official.py ROOT --variants 10`).
const VARIANTS: &str = include_str!("variants.jsonl");

/// Every answer of `file` whose verdict differs from BFCL's, and the verdicts by kind.
fn regrade(file: &str) -> (Vec<String>, HashMap<String, usize>) {
    let mut cases: HashMap<String, Case> = HashMap::new();
    let (mut differ, mut kinds) = (Vec::new(), HashMap::new());
    for line in file.lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let id = record["id"].as_str().unwrap().to_owned();
        if record.get("functions").is_some() {
            let category = Category::from_stem(record["category"].as_str().unwrap()).unwrap();
            let case = Case {
                id: id.clone(),
                category,
                question: String::new(),
                functions: record["functions"].as_array().unwrap().clone(),
                answers: record["answers"].as_array().unwrap().clone(),
            };
            cases.insert(id, case);
            continue;
        }
        let calls: Vec<Call> = record["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|call| (call[0].as_str().unwrap().to_owned(), call[1].clone()))
            .collect();
        let official = record["official"].as_str().unwrap();
        let ours = match grade(&cases[&id], &calls) {
            Ok(()) => "ok",
            Err(refusal) => refusal,
        };
        // An argument that is not an object fails BFCL's decoding before its checker sees it:
        // any refusal agrees.
        let agrees = if official == "decode_error" { ours != "ok" } else { ours == official };
        if !agrees {
            differ.push(format!("{id} ({}): BFCL says {official}, we say {ours}", record["side"]));
        }
        *kinds.entry(official.to_owned()).or_default() += 1;
    }
    (differ, kinds)
}

/// Both verdicts, right and wrong, are among `kinds`, and of wrong ones at least `at_least` kinds.
fn assert_varied(kinds: &HashMap<String, usize>, at_least: usize) {
    assert!(kinds.contains_key("ok"), "no right answer among {kinds:?}");
    assert!(kinds.len() > at_least, "too few kinds of wrong answer: {kinds:?}");
}

#[test]
fn the_models_recorded_answers_get_bfcls_own_verdicts() {
    let (differ, kinds) = regrade(RECORDED);
    assert_varied(&kinds, 2);
    assert!(differ.is_empty(), "{} verdicts differ from BFCL's:\n{}", differ.len(), differ.join("\n"));
}

#[test]
fn answers_altered_one_way_get_bfcls_own_verdicts() {
    let (differ, kinds) = regrade(VARIANTS);
    assert_varied(&kinds, 8);
    assert!(differ.is_empty(), "{} verdicts differ from BFCL's:\n{}", differ.len(), differ.join("\n"));
}
