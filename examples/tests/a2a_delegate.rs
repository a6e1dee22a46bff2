//! The two-process A2A example: the planner's and the forecaster's processes print the same
//! trace id (a real one, not the all-zero id of a span no pipeline records).
#![allow(missing_docs)]

#[test]
fn both_processes_are_in_one_trace() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_a2a_delegate")).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}\n{}", String::from_utf8_lossy(&output.stderr));
    let trace = |who: &str| -> (String, String) {
        let line = text.lines().find(|line| line.starts_with(who)).unwrap_or_else(|| panic!("{who} in {text}"));
        let pid = line.split("(pid ").nth(1).unwrap().split(')').next().unwrap().to_owned();
        let trace = line.split("trace ").nth(1).unwrap().split(',').next().unwrap().to_owned();
        (pid, trace)
    };
    let (planner_pid, planner) = trace("planner");
    let (forecaster_pid, forecaster) = trace("forecaster");
    assert_ne!(planner_pid, forecaster_pid, "two processes");
    assert_eq!(planner, forecaster, "{text}");
    assert_ne!(planner, "0".repeat(32), "a trace a pipeline records");
    assert!(text.contains("the forecaster said: Sunny in Rome, 24 °C"), "{text}");
}
