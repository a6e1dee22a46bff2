//! What an editor reads: `cargo check --message-format=json` on a crate of tools whose plain
//! parameters have types that are no tool parameters. Each such parameter is one error, at
//! its type, in the JSON too. (rustc's own text prints a diagnostic repeated at one place
//! once, and trybuild drops repeats, so the UI tests cannot tell.)
//!
//! The crate is written under the test's temporary directory, with this workspace's lock
//! file, and checked offline in a target directory of its own, kept between runs.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

const TOOLS: &str = r"
use tool_core::{tool, tools};

/// A type with neither a schema nor `Deserialize`.
pub struct Handle;

/// A type serde decodes, with no schema.
#[derive(serde::Deserialize)]
pub struct Decoded {
    pub id: u32,
}

/// One.
#[tool]
pub fn one(path: String, handle: Handle) -> String {
    let _ = handle;
    path
}

/// In a list.
#[tool]
pub fn listed(handles: Vec<Handle>) -> String {
    handles.len().to_string()
}

/// Maybe in a list, the issue's example.
#[tool]
pub fn maybe(handles: Option<Vec<Handle>>) -> String {
    handles.is_some().to_string()
}

/// Decoded, with no schema.
#[tool]
pub fn decoded(decoded: Decoded, count: u8) -> String {
    (decoded.id + u32::from(count)).to_string()
}

/// Tools in a block.
pub struct Desk;

#[tools]
impl Desk {
    /// A method's.
    #[tool]
    pub fn method(&self, path: String, handle: Handle) -> String {
        let _ = handle;
        path
    }
}
";

/// The lines of the parameters `TOOLS` gets wrong, in order.
const WRONG: [&str; 5] = [
    "pub fn one(path: String, handle: Handle) -> String {",
    "pub fn listed(handles: Vec<Handle>) -> String {",
    "pub fn maybe(handles: Option<Vec<Handle>>) -> String {",
    "pub fn decoded(decoded: Decoded, count: u8) -> String {",
    "    pub fn method(&self, path: String, handle: Handle) -> String {",
];

#[rustversion::attr(not(stable(1.95)), ignore = "compiler messages are pinned to rustc 1.95")]
#[test]
fn a_parameter_whose_type_is_no_tool_parameter_is_one_error_in_the_json_diagnostics() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diagnostics");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"diagnostics\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n[dependencies]\n\
         tool-core = {{ path = {:?} }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\n\n[workspace]\n",
        workspace.join("tool-core")
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("src/lib.rs"), TOOLS).unwrap();
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
        .args(["check", "--offline", "--quiet", "--message-format=json"])
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .current_dir(&dir)
        .output()
        .expect("cargo runs");
    let errors: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-message" && message["message"]["level"] == "error")
        .map(|message| message["message"].clone())
        .collect();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let rendered: Vec<&str> = errors.iter().filter_map(|error| error["rendered"].as_str()).collect();
    let lines: Vec<&str> = TOOLS.lines().collect();
    let at: Vec<&str> = errors
        .iter()
        .map(|error| {
            let line = error["spans"][0]["line_start"].as_u64().expect("a primary span");
            lines[usize::try_from(line).unwrap() - 1]
        })
        .collect();
    assert_eq!(at, WRONG, "one error for each wrong parameter, in order:\n{}\n{stderr}", rendered.join("\n"));
    for error in &errors {
        assert!(error["message"].as_str().unwrap().ends_with("cannot be a tool parameter"), "{error}");
        let span = &error["spans"][0];
        let line = lines[usize::try_from(span["line_start"].as_u64().unwrap()).unwrap() - 1];
        let start = usize::try_from(span["column_start"].as_u64().unwrap()).unwrap() - 1;
        let end = usize::try_from(span["column_end"].as_u64().unwrap()).unwrap() - 1;
        assert!(["Handle", "Vec<Handle>", "Option<Vec<Handle>>", "Decoded"].contains(&&line[start..end]), "{error}");
    }
}
