//! The shape of both crates, read from their own sources: no file imports a file that
//! imports it back (directly or through others), and in `tool-core` no module imports one on
//! a higher layer than its own ([`LAYERS`]). A `use` or a `crate::`/`super::` path counts as
//! an import of the file that *defines* the name: re-exports in a module's face (`lib.rs`,
//! a `mod.rs`, or `a.rs` beside `a/`) are followed to the definition and tie no file
//! themselves, so a face is not a hub of arrows; a leaf file's re-export ties it like a `use`.
//! `#[cfg(test)]` items are left out (a test may reach anywhere), and so are inline modules,
//! whose `super` is not their file's.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// `tool-core`'s layers, lowest first: a module may import its own layer (without forming a
/// cycle) and those below, never one above. `""` is `lib.rs`.
const LAYERS: &[&[&str]] = &[
    &["schema", "telemetry", "token_cache", "net"],
    &["validate"],
    &["param", "error"],
    &["render", "content", "output"],
    &["dispatch"],
    &["auth", "context"],
    &["tool"],
    &["registry"],
    &["provider"],
    &["tasks", "oauth"],
    &["mcp", "agent", "a2a", "retrieve", "toolbox"],
    &["__private", ""],
];

#[test]
fn tool_core_has_no_import_cycle_and_no_import_up_a_layer() {
    let graph = Graph::read(&crate_src("tool-core"));
    let cycles = graph.cycles();
    assert!(cycles.is_empty(), "import cycles in tool-core:\n{}", graph.describe(&cycles));
    let up: Vec<String> = graph
        .edges
        .iter()
        .filter(|((from, to), _)| layer(&graph.modules[from]) < layer(&graph.modules[to]))
        .map(|((from, to), names)| format!("  {} -> {}: {}", graph.name(from), graph.name(to), join(names)))
        .collect();
    assert!(up.is_empty(), "imports up a layer in tool-core (LAYERS says which is which):\n{}", up.join("\n"));
    // Not vacuous: the graph was read.
    assert!(
        graph.modules.len() > 40 && graph.edges.len() > 80,
        "{} files, {} edges",
        graph.modules.len(),
        graph.edges.len()
    );
}

#[test]
fn tool_macros_has_no_import_cycle() {
    let graph = Graph::read(&crate_src("tool-macros"));
    let cycles = graph.cycles();
    assert!(cycles.is_empty(), "import cycles in tool-macros:\n{}", graph.describe(&cycles));
    assert!(
        graph.modules.len() > 10 && graph.edges.len() > 20,
        "{} files, {} edges",
        graph.modules.len(),
        graph.edges.len()
    );
}

#[test]
fn a_cycle_is_found_and_a_re_export_is_followed() {
    // The check itself, on a three-file crate: `a` and `b` import each other, `c` reaches
    // `b`'s item through `lib.rs`'s re-export; `d`, a leaf, re-exports `a`'s, which ties it.
    let dir = std::env::temp_dir().join(format!("architecture-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    std::fs::write(dir.join("lib.rs"), "mod a; mod b; mod c; mod d; pub use b::B;").expect("written");
    std::fs::write(dir.join("a.rs"), "use crate::b::B; pub struct A;").expect("written");
    std::fs::write(dir.join("b.rs"), "pub struct B(crate::a::A);").expect("written");
    std::fs::write(dir.join("c.rs"), "use crate::B;").expect("written");
    std::fs::write(dir.join("d.rs"), "pub use crate::a::A;").expect("written");
    let graph = Graph::read(&dir);
    std::fs::remove_dir_all(&dir).expect("removed");
    let names: Vec<Vec<String>> =
        graph.cycles().iter().map(|cycle| cycle.iter().map(|m| graph.name(m)).collect()).collect();
    assert_eq!(names, [["a.rs", "b.rs"]]);
    let from_c = graph.edges.keys().filter(|(from, _)| graph.name(from) == "c.rs").map(|(_, to)| graph.name(to));
    assert_eq!(from_c.collect::<Vec<_>>(), ["b.rs"]);
    let from_d = graph.edges.keys().filter(|(from, _)| graph.name(from) == "d.rs").map(|(_, to)| graph.name(to));
    assert_eq!(from_d.collect::<Vec<_>>(), ["a.rs"]);
}

/// A module path: `["provider", "gemini"]` for `provider/gemini/mod.rs`.
type Module = Vec<String>;

struct Graph {
    root: PathBuf,
    /// Every file, by the module it defines.
    modules: BTreeMap<Module, PathBuf>,
    /// What each module's `use` items bind: name → the absolute path it stands for.
    bindings: BTreeMap<Module, BTreeMap<String, Vec<String>>>,
    /// File → file, with the names that tie them.
    edges: BTreeMap<(Module, Module), BTreeSet<String>>,
}

impl Graph {
    fn read(root: &Path) -> Graph {
        let mut graph = Graph {
            root: root.to_owned(),
            modules: BTreeMap::new(),
            bindings: BTreeMap::new(),
            edges: BTreeMap::new(),
        };
        let mut files = Vec::new();
        collect_files(root, &mut files);
        let mut parsed = Vec::new();
        for file in files {
            let module = module_of(root, &file);
            let text = std::fs::read_to_string(&file).expect("a readable source file");
            let ast = syn::parse_file(&text).unwrap_or_else(|error| panic!("{}: {error}", file.display()));
            graph.modules.insert(module.clone(), file);
            parsed.push((module, ast));
        }
        for (module, ast) in &parsed {
            // A face: a module with modules under it (`lib.rs`, a `mod.rs`, `a.rs` beside `a/`).
            let face = graph.modules.keys().any(|other| other.len() > module.len() && other.starts_with(module));
            let mut paths =
                Paths { module: module.clone(), graph: &graph, face, found: Vec::new(), bindings: BTreeMap::new() };
            paths.visit_file(ast);
            let (found, bindings) = (paths.found, paths.bindings);
            graph.bindings.insert(module.clone(), bindings);
            graph.edges.insert((module.clone(), module.clone()), found.into_iter().map(|p| p.join("::")).collect());
        }
        // The paths each file names, resolved to files once every binding is known.
        let named: Vec<(Module, BTreeSet<String>)> = graph
            .edges
            .iter()
            .filter(|((from, to), _)| from == to)
            .map(|((from, _), paths)| (from.clone(), paths.clone()))
            .collect();
        graph.edges.clear();
        for (from, paths) in named {
            for path in paths {
                let segments: Vec<String> = path.split("::").map(str::to_owned).collect();
                if let Some(to) = graph.resolve(&segments, 0)
                    && to != from
                {
                    let name = segments.last().cloned().unwrap_or_default();
                    graph.edges.entry((from.clone(), to)).or_default().insert(name);
                }
            }
        }
        graph
    }

    /// The file that defines what the absolute `path` names, re-exports followed.
    fn resolve(&self, path: &[String], depth: usize) -> Option<Module> {
        let prefix = (0..=path.len()).rev().find(|&n| self.modules.contains_key(&path[..n]))?;
        let module = path[..prefix].to_vec();
        if depth < 16
            && let Some(next) = path.get(prefix)
            && let Some(target) = self.bindings.get(&module).and_then(|bindings| bindings.get(next))
        {
            let mut followed = target.clone();
            followed.extend_from_slice(&path[prefix + 1..]);
            return self.resolve(&followed, depth + 1).or(Some(module));
        }
        Some(module)
    }

    /// The sets of files that import each other, each sorted (Tarjan's algorithm).
    fn cycles(&self) -> Vec<Vec<Module>> {
        struct State<'g> {
            graph: &'g Graph,
            index: BTreeMap<&'g Module, usize>,
            low: BTreeMap<&'g Module, usize>,
            stack: Vec<&'g Module>,
            on_stack: BTreeSet<&'g Module>,
            found: Vec<Vec<Module>>,
        }
        fn visit<'g>(state: &mut State<'g>, node: &'g Module) {
            let next = state.index.len();
            state.index.insert(node, next);
            state.low.insert(node, next);
            state.stack.push(node);
            state.on_stack.insert(node);
            for (_, to) in state.graph.edges.keys().filter(|(from, _)| from == node) {
                if !state.index.contains_key(to) {
                    visit(state, to);
                    let low = state.low[node].min(state.low[to]);
                    state.low.insert(node, low);
                } else if state.on_stack.contains(to) {
                    let low = state.low[node].min(state.index[to]);
                    state.low.insert(node, low);
                }
            }
            if state.low[node] == state.index[node] {
                let mut component = Vec::new();
                while let Some(member) = state.stack.pop() {
                    state.on_stack.remove(member);
                    component.push(member.clone());
                    if member == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    state.found.push(component);
                }
            }
        }
        let mut state = State {
            graph: self,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            on_stack: BTreeSet::new(),
            found: Vec::new(),
        };
        for node in self.modules.keys() {
            if !state.index.contains_key(node) {
                visit(&mut state, node);
            }
        }
        state.found
    }

    fn describe(&self, cycles: &[Vec<Module>]) -> String {
        let mut out = String::new();
        for cycle in cycles {
            let files: Vec<String> = cycle.iter().map(|m| self.name(m)).collect();
            let _ = writeln!(out, "  {}", files.join(", "));
            for ((from, to), names) in &self.edges {
                if cycle.contains(from) && cycle.contains(to) {
                    let _ = writeln!(out, "    {} -> {}: {}", self.name(from), self.name(to), join(names));
                }
            }
        }
        out
    }

    /// The file's path inside the crate's `src`.
    fn name(&self, module: &Module) -> String {
        let path = &self.modules[module];
        path.strip_prefix(&self.root).unwrap_or(path).display().to_string()
    }
}

/// The paths one file names, made absolute, and the names its `use` items bind.
struct Paths<'g> {
    module: Module,
    graph: &'g Graph,
    /// Whether the file is a module's face, whose re-exports tie it to nothing.
    face: bool,
    found: Vec<Vec<String>>,
    bindings: BTreeMap<String, Vec<String>>,
}

impl Paths<'_> {
    /// `segments` as an absolute path, when it starts inside the crate.
    fn absolute(&self, segments: &[String]) -> Option<Vec<String>> {
        let first = segments.first()?;
        let mut base = match first.as_str() {
            "crate" => Vec::new(),
            // `super`s are taken off below.
            "self" | "super" => self.module.clone(),
            // A child module named without `self::` (`use schema::Foo` in its parent).
            child if self.graph.modules.contains_key(&[self.module.as_slice(), &[child.to_owned()]].concat()) => {
                let mut path = self.module.clone();
                path.extend(segments.iter().cloned());
                return Some(path);
            }
            _ => return None,
        };
        let mut rest = segments;
        while let Some(first) = rest.first() {
            match first.as_str() {
                "super" => {
                    base.pop();
                }
                "crate" | "self" => {}
                _ => break,
            }
            rest = &rest[1..];
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                self.use_tree(prefix, &path.tree);
                prefix.pop();
            }
            syn::UseTree::Name(name) => self.bind(prefix, &name.ident.to_string(), &name.ident.to_string()),
            syn::UseTree::Rename(rename) => self.bind(prefix, &rename.ident.to_string(), &rename.rename.to_string()),
            syn::UseTree::Glob(_) => {
                if let Some(path) = self.absolute(prefix) {
                    self.found.push(path);
                }
            }
            syn::UseTree::Group(group) => {
                for tree in &group.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }

    fn bind(&mut self, prefix: &[String], name: &str, binding: &str) {
        let mut segments = prefix.to_vec();
        if name != "self" {
            segments.push(name.to_owned());
        }
        if let Some(path) = self.absolute(&segments) {
            let binding = if name == "self" { prefix.last().cloned().unwrap_or_default() } else { binding.to_owned() };
            self.bindings.insert(binding, path.clone());
            self.found.push(path);
        }
    }
}

impl<'ast> Visit<'ast> for Paths<'_> {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if is_test(&item.attrs) {
            return;
        }
        let found = self.found.len();
        self.use_tree(&mut Vec::new(), &item.tree);
        // A face's re-export hands a name on: whoever uses it is tied to the file that
        // defines it, not to the face. A leaf file's re-export is an import like any other.
        if self.face && !matches!(item.vis, syn::Visibility::Inherited) {
            self.found.truncate(found);
        }
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        // An inline module is its own scope; a test module may reach anywhere.
        if !is_test(&item.attrs) && item.content.is_none() {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_test(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {
        // `pub(crate)` names a scope, not an item.
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if matches!(segments.first().map(String::as_str), Some("crate" | "super" | "self"))
            && let Some(absolute) = self.absolute(&segments)
        {
            self.found.push(absolute);
        }
        syn::visit::visit_path(self, path);
    }
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg") && attr.meta.require_list().is_ok_and(|list| list.tokens.to_string() == "test")
    })
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("a readable directory").map(|entry| entry.expect("an entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// `src/provider/gemini/mod.rs` → `["provider", "gemini"]`; `src/lib.rs` → `[]`.
fn module_of(root: &Path, file: &Path) -> Module {
    let relative = file.strip_prefix(root).expect("under the root").with_extension("");
    let mut module: Module = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
    if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
        module.pop();
    }
    module
}

fn layer(path: &Path) -> usize {
    let src = crate_src("tool-core");
    let relative = path.strip_prefix(&src).expect("a tool-core file");
    let top = relative.iter().next().map(|part| part.to_string_lossy().trim_end_matches(".rs").to_owned());
    let top = match top.as_deref() {
        Some("lib") | None => String::new(),
        Some(other) => other.to_owned(),
    };
    LAYERS
        .iter()
        .position(|layer| layer.contains(&top.as_str()))
        .unwrap_or_else(|| panic!("{}: add its module `{top}` to LAYERS", path.display()))
}

fn crate_src(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name).join("src")
}

fn join(names: &BTreeSet<String>) -> String {
    names.iter().cloned().collect::<Vec<_>>().join(", ")
}

#[test]
fn no_comment_says_schemas_are_rendered_at_compile_time() {
    // The schema trees are built at compile time; their JSON texts are written at run time,
    // on first use. Comments from the days of `const` rendering said otherwise.
    const STALE: [&str; 6] = [
        "rendered at compile time",
        "compile-time schema text",
        "compile-time schema json",
        "compile-time mcp",
        "compile-time json",
        "json text during const evaluation",
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["tool-core/src", "tool-macros/src", "tests/tests", "examples"] {
        collect_files(&root.join(dir), &mut files);
    }
    files.extend(["README.md", "docs/performance.md", "tests/README.md"].map(|file| root.join(file)));
    files.extend(markdown_in(&root, "tool-core/docs").into_iter().map(|file| root.join(file)));
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable").to_lowercase();
        for (number, line) in text.lines().enumerate() {
            // This test names the phrases it looks for.
            if file.ends_with("architecture.rs") {
                break;
            }
            if let Some(phrase) = STALE.iter().find(|phrase| line.contains(*phrase)) {
                found.push(format!("{}:{}: {phrase}", file.display(), number + 1));
            }
        }
    }
    assert!(files.len() > 100, "the sources were found: {} files", files.len());
    assert!(found.is_empty(), "stale wording about rendering:\n{}", found.join("\n"));
}

#[test]
fn every_file_named_in_the_docs_and_comments_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let repo = RepoFiles::read(&root);

    // The check can fail: made-up names are reported, the names of real files are not.
    let sample = "//! See `no_such_file_here.rs` (once `check.rs`), `registry/call.rs` and `rules.rs`.\n\
                  let url = \"https://example.com\"; // `tool-core/docs/nowhere.md`, `tests/tests/architecture.rs:9`\n";
    assert_eq!(
        missing_files(Path::new("tool-core/src/sample.rs"), sample, Text::Rust, &repo),
        [
            "tool-core/src/sample.rs:1: `no_such_file_here.rs`",
            "tool-core/src/sample.rs:1: `check.rs`",
            "tool-core/src/sample.rs:2: `tool-core/docs/nowhere.md`",
        ],
        "the self-check of the file-name check",
    );

    let mut texts = ["README.md", "tests/README.md", "docs/performance.md"].map(PathBuf::from).to_vec();
    texts.extend(markdown_in(&root, "tool-core/docs"));
    let mut sources = Vec::new();
    for dir in ["tool-core/src", "tool-macros/src"] {
        collect_files(&root.join(dir), &mut sources);
    }
    let mut missing = Vec::new();
    for file in &texts {
        let text = std::fs::read_to_string(root.join(file)).expect("readable");
        missing.extend(missing_files(file, &text, Text::Markdown, &repo));
    }
    for file in &sources {
        let text = std::fs::read_to_string(file).expect("readable");
        let relative = file.strip_prefix(&root).expect("under the root");
        missing.extend(missing_files(relative, &text, Text::Rust, &repo));
    }
    assert!(sources.len() > 100, "the sources were found: {} files", sources.len());
    assert!(
        missing.is_empty(),
        "names in backticks of files that are not in the repository (a bare name may be anywhere in it; a path \
         is read from the root, from `tool-core/src`, `tool-macros/src`, `tests` or `tests/tests`, or from the \
         folder of the file naming it or one above):\n{}",
        missing.join("\n")
    );
}

/// Files of other projects that comments name as where an idea comes from.
const ELSEWHERE: [&str; 3] = [
    "internals/case.rs", // serde_derive's
    "fallback.rs",       // thiserror's
    "dummies.rs",        // clap's
];

/// The `.md` files of `dir`, as paths relative to `root` (as `dir` is).
fn markdown_in(root: &Path, dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
        .expect("a readable directory")
        .map(|entry| Path::new(dir).join(entry.expect("an entry").file_name()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .md file in {dir}");
    files
}

/// Every file of the repository (build output and `.git` left out), by its path from the
/// root and by its bare name.
struct RepoFiles {
    paths: BTreeSet<PathBuf>,
    names: BTreeSet<String>,
}

impl RepoFiles {
    fn read(root: &Path) -> Self {
        fn walk(root: &Path, dir: &Path, files: &mut RepoFiles) {
            for entry in std::fs::read_dir(dir).expect("a readable directory") {
                let path = entry.expect("an entry").path();
                let name = path.file_name().expect("a file name").to_string_lossy().into_owned();
                if path.is_dir() {
                    if !matches!(name.as_str(), "target" | ".git" | "node_modules") {
                        walk(root, &path, files);
                    }
                } else {
                    files.paths.insert(path.strip_prefix(root).expect("under the root").to_path_buf());
                    files.names.insert(name);
                }
            }
        }
        let mut files = RepoFiles { paths: BTreeSet::new(), names: BTreeSet::new() };
        walk(root, root, &mut files);
        assert!(files.names.contains("rules.rs") && files.names.contains("README.md"), "the repository was read");
        files
    }

    /// Whether `name`, written in `file` (a path from the root), is a file: a bare name
    /// anywhere; a path from the root, from either crate's `src`, from `tests` or
    /// `tests/tests`, or from the folder of `file` or one above it.
    fn has(&self, name: &str, file: &Path) -> bool {
        if !name.contains('/') {
            return self.names.contains(name);
        }
        let mut bases: Vec<&Path> =
            ["", "tool-core/src", "tool-macros/src", "tests", "tests/tests"].map(Path::new).to_vec();
        bases.extend(file.ancestors().skip(1));
        bases.iter().any(|base| self.paths.contains(&normalize(&base.join(name))))
    }
}

/// `a/./b/../c.rs` → `a/c.rs`.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[derive(Clone, Copy)]
enum Text {
    Markdown,
    Rust,
}

/// `file:line: name` for each name in backticks in `text` (the contents of `file`) that
/// looks like a file of this repository and is none: in every line of Markdown, in the `//`
/// comments of Rust; fenced code blocks are left out (the names there are a program's).
fn missing_files(file: &Path, text: &str, kind: Text, repo: &RepoFiles) -> Vec<String> {
    let mut missing = Vec::new();
    let mut fenced = false;
    for (number, line) in text.lines().enumerate() {
        let part = match kind {
            Text::Markdown => line,
            Text::Rust => match comment(line) {
                Some(comment) => comment,
                None => continue,
            },
        };
        if part.trim_start().trim_start_matches('/').trim_start_matches('!').trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for span in part.split('`').skip(1).step_by(2) {
            for name in file_names(span) {
                if !repo.has(name, file) && !ELSEWHERE.contains(&name) {
                    missing.push(format!("{}:{}: `{name}`", file.display(), number + 1));
                }
            }
        }
    }
    missing
}

/// The comment of a line of Rust: the whole line if it is one, else what follows ` // `
/// outside a string.
fn comment(line: &str) -> Option<&str> {
    let trimmed = line.trim_start();
    if trimmed.starts_with("//") {
        return Some(trimmed);
    }
    let at = line.find(" // ")?;
    line[..at].matches('"').count().is_multiple_of(2).then(|| &line[at..])
}

/// The words of `span` (the text between two backticks) that look like a file of this
/// repository: made of path characters and ending in `.rs`, `.md` or `.sh`, less a
/// `:line` or `#anchor` after it (`agent/batch.rs:60`, `serving.md#replicas`).
fn file_names(span: &str) -> impl Iterator<Item = &str> {
    span.split_whitespace().filter_map(|word| {
        let word = word.split([':', '#']).next().unwrap_or_default();
        let word =
            word.trim_start_matches(['(', '[', '\'', '"']).trim_end_matches(['.', ',', ';', ')', ']', '\'', '"']);
        let path_like = word.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-'));
        let source = [".rs", ".md", ".sh"].iter().any(|ext| word.ends_with(ext));
        let hidden = word.rsplit('/').next().is_some_and(|last| last.starts_with('.'));
        (path_like && source && !hidden).then_some(word)
    })
}

/// The most lines of code a source file of either crate holds: a reader holds a file whole.
const MAX_LINES: usize = 400;

/// Files allowed past [`MAX_LINES`], each with its reason: tables only, whose rows are read
/// one at a time.
const LONG_TABLES: &[(&str, &str)] = &[];

#[test]
fn no_source_file_is_over_the_line_limit() {
    let mut over = Vec::new();
    for krate in ["tool-core", "tool-macros"] {
        let mut files = Vec::new();
        collect_files(&crate_src(krate), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a source file");
            let lines = lines_of_code(&text);
            let root = crate_src(krate);
            let name =
                file.strip_prefix(root.parent().and_then(Path::parent).expect("the repository")).expect("inside");
            let name = name.to_string_lossy().replace('\\', "/");
            if lines > MAX_LINES && !LONG_TABLES.iter().any(|(table, _)| *table == name) {
                over.push(format!("  {name}: {lines} lines of code"));
            }
        }
    }
    over.sort();
    assert!(over.is_empty(), "files over {MAX_LINES} lines of code (split them by concern):\n{}", over.join("\n"));
}

/// A file's lines of code: lines that are not blank, up to its test module (a top-level
/// `#[cfg(test)]`), which a reader of the code skips.
fn lines_of_code(text: &str) -> usize {
    text.lines().take_while(|line| !line.starts_with("#[cfg(test)]")).filter(|line| !line.trim().is_empty()).count()
}

#[test]
fn the_line_count_skips_blank_lines_and_the_test_module() {
    let text = "//! a module\n\nfn a() {}\n\n\nfn b() {}\n#[cfg(test)]\nmod tests {\n    fn c() {}\n}\n";
    assert_eq!(lines_of_code(text), 3);
    assert_eq!(lines_of_code(&"x\n".repeat(MAX_LINES + 1)), MAX_LINES + 1);
}

/// The provider modules that each speak one model API's wire.
const WIRE_MODULES: &[&str] = &["openai", "anthropic", "gemini"];

#[test]
fn only_provider_knows_a_model_api() {
    // Outside `provider/`, a model API is asked through `Api`, never matched on and never
    // reached module by module: a new API is then a module and an arm in `Api::wire`.
    let root = crate_src("tool-core");
    let mut files = Vec::new();
    collect_files(&root, &mut files);
    let mut found = Vec::new();
    for file in files.iter().filter(|file| !file.starts_with(root.join("provider"))) {
        let text = std::fs::read_to_string(file).expect("a source file");
        let syntax = syn::parse_file(&text).expect("tool-core parses");
        let mut visitor = ApiPaths::default();
        visitor.visit_file(&syntax);
        let name = file.strip_prefix(&root).expect("inside").display();
        found.extend(visitor.found.into_iter().map(|path| format!("  {name}: {path}")));
    }
    assert!(found.is_empty(), "model-API knowledge outside tool-core/src/provider/:\n{}", found.join("\n"));
    // Not vacuous: the provider's own files are full of it.
    let mut visitor = ApiPaths::default();
    let api = std::fs::read_to_string(root.join("provider/api.rs")).expect("provider/api.rs");
    visitor.visit_file(&syn::parse_file(&api).expect("parses"));
    assert!(visitor.found.len() >= 4, "{:?}", visitor.found);
}

/// Paths naming an `Api` variant or a provider's wire module, outside `#[cfg(test)]` items.
#[derive(Default)]
struct ApiPaths {
    found: Vec<String>,
}

impl<'ast> Visit<'ast> for ApiPaths {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Mod(item) => &item.attrs,
            syn::Item::Fn(item) => &item.attrs,
            syn::Item::Impl(item) => &item.attrs,
            syn::Item::Use(item) => &item.attrs,
            _ => &[],
        };
        if !is_test(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_use_tree(&mut self, tree: &'ast syn::UseTree) {
        if let syn::UseTree::Name(name) = tree
            && WIRE_MODULES.iter().any(|module| name.ident == module)
        {
            self.found.push(format!("use of `{}`", name.ident));
        }
        syn::visit::visit_use_tree(self, tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|segment| segment.ident.to_string()).collect();
        let names_api = segments.windows(2).any(|pair| pair[0] == "Api" && pair[1] != "wire");
        let names_module = segments.iter().any(|segment| WIRE_MODULES.contains(&segment.as_str()));
        if names_api || names_module {
            self.found.push(segments.join("::"));
        }
        syn::visit::visit_path(self, path);
    }
}
