//! The minimum supported Rust version is declared where cargo reads it and is the compiler
//! this suite runs on: both published crates take the workspace's `rust-version`, and CI
//! (`.ci/run`, on the pinned toolchain) builds and tests with exactly that version, so a
//! feature newer than it fails CI rather than a user's build.

use std::path::Path;
use std::process::Command;

#[test]
fn both_crates_declare_the_rust_version_the_suite_runs_on() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |file: &str| std::fs::read_to_string(root.join(file)).expect("a manifest");
    let workspace = read("Cargo.toml");
    let declared = workspace
        .lines()
        .find_map(|line| line.strip_prefix("rust-version = "))
        .map(|value| value.trim_matches('"').to_owned())
        .expect("[workspace.package] declares rust-version");
    for manifest in ["tool-core/Cargo.toml", "tool-macros/Cargo.toml"] {
        assert!(
            read(manifest).lines().any(|line| line.trim() == "rust-version.workspace = true"),
            "{manifest} takes the workspace's rust-version"
        );
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let version = Command::new(rustc).arg("--version").output().expect("rustc runs");
    let version = String::from_utf8(version.stdout).expect("UTF-8");
    // `rustc 1.95.0 (59807616e 2026-04-14)`: the declared `1.95` is its major and minor.
    let running = version.split_whitespace().nth(1).expect("a version");
    let major_minor: Vec<&str> = running.split('.').take(2).collect();
    assert_eq!(major_minor.join("."), declared, "the suite runs on {version}, the crates declare {declared}");
}
