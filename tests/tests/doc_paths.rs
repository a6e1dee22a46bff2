//! Every item path the docs write in backticks (`mcp::remote_auth::ClientCredentials`,
//! `tool_core::tasks::RedisTaskStore`) names an item of tool-core's public API, read from the
//! snapshot `tests/public-api.sh` keeps (every feature on): the README, `tool-core/docs/*.md`,
//! the comments of `tool-core/Cargo.toml` and the doc comments of `tool-core/src`. A path is
//! checked when its first segment is one of tool-core's public modules; a type's method
//! (`Agent::run`) or another crate's path is left alone, and so is a private module that a
//! file of `tool-core/src` holds (`param::satisfies`, named by the docs of the code beside it). `architecture.rs` does the same for
//! file names.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

#[test]
fn every_item_path_named_in_the_docs_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let api = Api::read(&root.join("tests/public-api/tool-core.txt"), &root.join("tool-core/src"));

    // The check can fail: made-up paths are reported, real ones and other crates' are not.
    let sample = "See `mcp::ClientCredentials`, `tool_core::tasks::TaskStore`, `serde::Deserialize`,\n\
                  `Agent::run`, `mcp::remote_auth::ClientCredentials::new` and `a2a::server::Nowhere`.\n";
    assert_eq!(
        api.missing(Path::new("sample.md"), sample, Text::Markdown),
        ["sample.md:1: `mcp::ClientCredentials`", "sample.md:2: `a2a::server::Nowhere`"],
        "the self-check of the path check",
    );

    let mut texts: Vec<(PathBuf, Text)> =
        vec![(PathBuf::from("README.md"), Text::Markdown), (PathBuf::from("tool-core/Cargo.toml"), Text::Toml)];
    for entry in std::fs::read_dir(root.join("tool-core/docs")).expect("the docs folder") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|ext| ext == "md") {
            texts.push((path.strip_prefix(&root).expect("under the root").to_path_buf(), Text::Markdown));
        }
    }
    let mut sources = Vec::new();
    collect_rust(&root.join("tool-core/src"), &mut sources);
    assert!(sources.len() > 100, "the sources were found: {} files", sources.len());
    texts
        .extend(sources.into_iter().map(|path| (path.strip_prefix(&root).expect("under the root").into(), Text::Rust)));

    let mut missing = Vec::new();
    for (file, kind) in &texts {
        let text = std::fs::read_to_string(root.join(file)).expect("readable");
        missing.extend(api.missing(file, &text, *kind));
    }
    assert!(
        missing.is_empty(),
        "item paths in backticks that tool-core's public API does not have (tests/public-api/tool-core.txt; \
         a moved item's docs name its old path):\n{}",
        missing.join("\n")
    );
}

/// What kind of text a file is, which says where its prose is.
#[derive(Clone, Copy)]
enum Text {
    /// Prose outside fenced code blocks.
    Markdown,
    /// `#` comments.
    Toml,
    /// `//!` and `///` comments.
    Rust,
}

/// tool-core's public API: its public modules, and every item path with each of its prefixes;
/// and where its source files are, for the private modules.
struct Api {
    modules: BTreeSet<String>,
    paths: BTreeSet<String>,
    src: PathBuf,
}

impl Api {
    fn read(snapshot: &Path, src: &Path) -> Self {
        let text = std::fs::read_to_string(snapshot).expect("the public-API snapshot");
        let mut api = Api { modules: BTreeSet::new(), paths: BTreeSet::new(), src: src.to_path_buf() };
        for line in text.lines() {
            if let Some(module) = line.strip_prefix("pub mod tool_core::") {
                api.modules.insert(module.split("::").next().expect("a segment").to_owned());
            }
            for (at, _) in line.match_indices("tool_core::") {
                let path: String =
                    line[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':').collect();
                let mut prefix = String::new();
                for segment in path.trim_end_matches(':').split("::") {
                    if !prefix.is_empty() {
                        prefix.push_str("::");
                    }
                    prefix.push_str(segment);
                    api.paths.insert(prefix.clone());
                }
            }
        }
        assert!(api.modules.contains("mcp") && api.paths.len() > 1_000, "the snapshot was read");
        api
    }

    /// `file:line: path` for each path in backticks in `text`'s prose that is not an item.
    fn missing(&self, file: &Path, text: &str, kind: Text) -> Vec<String> {
        let mut missing = Vec::new();
        let mut fenced = false;
        for (number, line) in text.lines().enumerate() {
            let prose = match kind {
                Text::Markdown => {
                    if line.trim_start().starts_with("```") {
                        fenced = !fenced;
                    }
                    (!fenced).then_some(line)
                }
                Text::Toml => line.trim_start().strip_prefix('#'),
                Text::Rust => {
                    let line = line.trim_start();
                    line.strip_prefix("//!").or_else(|| line.strip_prefix("///"))
                }
            };
            let Some(prose) = prose else { continue };
            for span in prose.split('`').skip(1).step_by(2) {
                if self.is_unknown(span) {
                    missing.push(format!("{}:{}: `{span}`", file.display(), number + 1));
                }
            }
        }
        missing
    }

    /// Whether `span` is a path into one of tool-core's public modules that names no item.
    fn is_unknown(&self, span: &str) -> bool {
        let path = span.strip_prefix("tool_core::").unwrap_or(span);
        let segments: Vec<&str> = path.split("::").collect();
        let is_ident = |s: &str| {
            s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        if segments.len() < 2 || !segments.iter().all(|s| is_ident(s)) || !self.modules.contains(segments[0]) {
            return false;
        }
        let module = self.src.join(segments.join("/"));
        !self.paths.contains(&format!("tool_core::{path}"))
            && !module.with_extension("rs").is_file()
            && !module.join("mod.rs").is_file()
    }
}

fn collect_rust(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            collect_rust(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
    out.sort();
}
