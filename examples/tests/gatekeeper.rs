//! The gatekeeper example run as a user runs it: the authorizer refuses the call the token's
//! scopes do not allow and lets the others through, and the tool installed mid-run is called
//! in the next round.

#[test]
fn the_authorizer_refuses_by_scope_and_the_installed_tool_is_called() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gatekeeper")).output().expect("the example runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"  read_ledger -> balance: 1,204 EUR"), "{text}");
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("  archive_ledger -> ") && line.contains("needs the scope `ledger:write`")),
        "{text}"
    );
    assert!(lines.contains(&"  enable_reports -> monthly_report is now available"), "{text}");
    assert!(lines.contains(&"  monthly_report -> report for \"2026-11\": 12 entries"), "{text}");
    assert_eq!(lines.iter().filter(|line| line.starts_with("round ")).count(), 4, "{text}");
}
