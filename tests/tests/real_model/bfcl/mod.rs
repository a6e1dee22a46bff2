//! A function-calling benchmark of our own on the public Berkeley Function Calling Leaderboard
//! data (BFCL v4, Apache-2.0, from the `PyPI` wheel `bfcl-eval`): the first cases of `simple`,
//! `multiple` and `parallel`, each put to the real model as one hand-written request and
//! through the agent loop, graded by BFCL's own rules (`grade.rs`), timed per case.
//! `bash tests/bench/bfcl.sh` fetches the data and runs it; the figures are in
//! `docs/performance.md`. The grading is checked against BFCL's own checker on recorded answers
//! in the ordinary suite (`recorded.rs`).

mod data;
mod grade;
mod recorded;
mod sides;

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::json;

use data::{Case, Category};
use sides::Answer;

/// What one category's cases came to.
#[derive(Default)]
struct Tally {
    cases: usize,
    right: [usize; 2],
    only: [usize; 2],
    time: [Duration; 2],
    calls: [usize; 2],
    failed: [usize; 2],
    /// Loop runs that took more than one turn (a refused call mended, or text then a call).
    more_turns: usize,
}

impl Tally {
    fn add(&mut self, case: &Case, answers: [&Answer; 2]) -> [bool; 2] {
        let right = answers.map(|answer| grade::grade(case, &answer.calls).is_ok());
        self.cases += 1;
        for side in 0..2 {
            self.right[side] += usize::from(right[side]);
            self.only[side] += usize::from(right[side] && !right[1 - side]);
            self.time[side] += answers[side].elapsed;
            self.calls[side] += answers[side].calls.len();
            self.failed[side] += usize::from(answers[side].error.is_some());
        }
        self.more_turns += usize::from(answers[1].rounds > 1);
        right
    }

    /// The table's row for `category`.
    fn row(&self, category: Category) -> String {
        let per_case = |side: usize| {
            self.time[side].as_secs_f64() / f64::from(u32::try_from(self.cases.max(1)).unwrap_or(u32::MAX))
        };
        let mut row = format!(
            "| `{}` | {}/{n} | {}/{n} | {} / {} | {:.2} s / {:.2} s = {:.2}× | {} / {} | {} |",
            category.stem(),
            self.right[0],
            self.right[1],
            self.only[0],
            self.only[1],
            per_case(1),
            per_case(0),
            per_case(1) / per_case(0),
            self.calls[0],
            self.calls[1],
            self.more_turns,
            n = self.cases,
        );
        if self.failed != [0, 0] {
            let _ = write!(row, " (failed: bare {}, loop {})", self.failed[0], self.failed[1]);
        }
        row
    }
}

/// An environment variable, or `default`.
fn setting(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

#[tokio::test]
#[ignore = "a benchmark against the real model and BFCL's data: bash tests/bench/bfcl.sh"]
async fn bfcl_bare_request_against_the_loop() {
    let dir =
        PathBuf::from(std::env::var("BFCL_DATA").expect("BFCL_DATA: run this through `bash tests/bench/bfcl.sh`"));
    let limit: usize = setting("BFCL_CASES", "100").parse().expect("BFCL_CASES is a number");
    let mut record =
        std::env::var("BFCL_RECORD").ok().map(|path| std::fs::File::create(path).expect("the record file"));
    // `answer`: the loop is left to give its answer, as a run without a stop behaviour is.
    let stop = setting("BFCL_LOOP", "stop") != "answer";
    let client = reqwest::Client::new();
    let mut rows = Vec::new();
    for category in Category::ALL {
        let mut tally = Tally::default();
        for (i, case) in data::load(&dir, category, limit).iter().enumerate() {
            // Each side goes first on every other case, so that neither always follows the other.
            let (bare, looped) = if i % 2 == 0 {
                let bare = sides::bare(&client, case).await;
                (bare, sides::through_loop(case, stop).await)
            } else {
                let looped = sides::through_loop(case, stop).await;
                (sides::bare(&client, case).await, looped)
            };
            let right = tally.add(case, [&bare, &looped]);
            eprintln!(
                "{}: bare {} in {:.1} s, loop {} in {:.1} s ({} turns){}",
                case.id,
                if right[0] { "right" } else { "wrong" },
                bare.elapsed.as_secs_f64(),
                if right[1] { "right" } else { "wrong" },
                looped.elapsed.as_secs_f64(),
                looped.rounds,
                looped.error.as_deref().map(|e| format!(", loop failed: {e}")).unwrap_or_default(),
            );
            if let Some(file) = record.as_mut() {
                for (side, answer) in [("bare", &bare), ("loop", &looped)] {
                    let line = json!({
                        "id": case.id, "category": category.stem(), "side": side,
                        "functions": case.functions, "answers": case.answers, "calls": answer.calls,
                    });
                    writeln!(file, "{line}").expect("the record file takes a line");
                }
            }
        }
        rows.push(tally.row(category));
    }
    println!(
        "| category | bare request right | through the loop right | right only bare / only loop | time per case, loop / bare | calls, bare / loop | loop runs of 2+ turns |"
    );
    println!("|---|---|---|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
}
