//! The library's modules depend on each other in one direction only.
//!
//! Reads every file under `src/` (not `src/bin/`) with `syn`, collects the
//! crate-internal paths each module uses (`use` trees and paths in code,
//! `#[cfg(test)]` code included), resolves them through re-exports to the
//! module that defines the item, and checks that
//! * the module graph has no cycle (a module's own `pub use` of its
//!   children is its facade, not a dependency);
//! * every edge points down the layers of [`LAYERS`] (ARCHITECTURE.md);
//! * the [`STANDALONE`] modules use no other module of the crate;
//! * `geometry` names nothing of ROS, I/O or threads.
//!
//! `cargo test --test module_layers -- --nocapture` prints the graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// Top-level modules by layer, lowest first: a module may use modules of
/// its own layer's *own subtree* and of lower layers only.
const LAYERS: &[&[&str]] = &[
    &["geometry", "text", "limits", "cli"],
    &["model", "frames", "sensors", "bag"],
    &["broadphase", "visual"],
    &["planner"],
    &["monitor", "scene"],
    &["gate", "fleet"],
    &["config", "diagnostics", "lifecycle", "params_file", "svg"],
    &["node"],
    &["ros", "replay"],
];

/// Top-level modules that use no other module of the crate ("may use: —"
/// in ARCHITECTURE.md), whatever their layer.
const STANDALONE: &[&str] = &["lifecycle"];

/// Paths geometry must not name (first segments).
const NOT_IN_GEOMETRY: &[&str] = &[
    "r2r",
    "tokio",
    "libc",
    "serde_yaml",
    "std::fs",
    "std::io",
    "std::net",
    "std::thread",
    "std::process",
];

type ModPath = Vec<String>;

fn show(m: &[String]) -> String {
    if m.is_empty() {
        "crate".to_owned()
    } else {
        m.join("::")
    }
}

/// Module path of a source file: `src/a/b.rs` and `src/a/b/mod.rs` are `a::b`.
fn module_of(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_owned());
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read src")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "bin") {
                continue;
            }
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A path as written, from where it was written.
#[derive(Clone, Debug)]
struct Use {
    /// Module (file module plus inline modules) the path was written in.
    scope: ModPath,
    segments: Vec<String>,
    /// Part of a `pub use` (any `pub(..)`): a re-export, with the name it
    /// is exported under.
    reexport_as: Option<String>,
    line: usize,
}

struct Collector {
    scope: ModPath,
    uses: Vec<Use>,
}

impl Collector {
    fn flatten(
        &mut self,
        tree: &syn::UseTree,
        prefix: &mut Vec<String>,
        public: bool,
        line: usize,
    ) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.flatten(&p.tree, prefix, public, line);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut segments = prefix.clone();
                let name = n.ident.to_string();
                if name != "self" {
                    segments.push(name.clone());
                }
                let export = segments.last().cloned().unwrap_or(name);
                self.push(segments, public.then_some(export), line);
            }
            syn::UseTree::Rename(r) => {
                let mut segments = prefix.clone();
                segments.push(r.ident.to_string());
                self.push(segments, public.then(|| r.rename.to_string()), line);
            }
            syn::UseTree::Glob(_) => self.push(prefix.clone(), None, line),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.flatten(t, prefix, public, line);
                }
            }
        }
    }

    /// Records a path: crate-internal ones for the graph, the others
    /// (external crates, std) for the geometry purity check.
    fn push(&mut self, segments: Vec<String>, reexport_as: Option<String>, line: usize) {
        if segments.is_empty() && reexport_as.is_none() {
            return;
        }
        self.uses.push(Use {
            scope: self.scope.clone(),
            segments,
            reexport_as,
            line,
        });
    }
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let public = !matches!(item.vis, syn::Visibility::Inherited);
        let line = item.use_token.span.start().line;
        self.flatten(&item.tree, &mut Vec::new(), public, line);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.scope.push(item.ident.to_string());
        syn::visit::visit_item_mod(self, item);
        self.scope.pop();
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let line = path
            .segments
            .first()
            .map_or(0, |s| s.ident.span().start().line);
        if segments.len() > 1 {
            self.push(segments, None, line);
        }
        syn::visit::visit_path(self, path);
    }
}

struct Crate {
    /// Every module, inline ones included, with its file.
    modules: BTreeMap<ModPath, PathBuf>,
    uses: Vec<(ModPath, Use)>,
    /// (module, exported name) -> the path it re-exports, absolute.
    reexports: BTreeMap<(ModPath, String), ModPath>,
}

/// `segments` made absolute from `scope` when they start with `crate`,
/// `super` or `self`; `None` otherwise (see [`Crate::resolve`]).
fn absolute(scope: &[String], segments: &[String]) -> Option<ModPath> {
    let mut out: ModPath = scope.to_vec();
    let mut rest = segments;
    match segments.first().map(String::as_str) {
        Some("crate") => {
            out.clear();
            rest = &segments[1..];
        }
        Some("self") => rest = &segments[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                out.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    out.extend(rest.iter().cloned());
    Some(out)
}

impl Crate {
    fn load(src: &Path) -> Crate {
        let mut files = Vec::new();
        rust_files(src, &mut files);
        let mut modules = BTreeMap::new();
        let mut uses = Vec::new();
        for file in files {
            let module = module_of(src, &file);
            let text = std::fs::read_to_string(&file).expect("read source");
            let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let mut collector = Collector {
                scope: module.clone(),
                uses: Vec::new(),
            };
            collector.visit_file(&ast);
            modules.insert(module.clone(), file.clone());
            for item in &ast.items {
                collect_inline_modules(item, &module, &file, &mut modules);
            }
            uses.extend(collector.uses.into_iter().map(|u| (module.clone(), u)));
        }
        let mut krate = Crate {
            modules,
            uses,
            reexports: BTreeMap::new(),
        };
        let mut reexports = BTreeMap::new();
        for (_, u) in &krate.uses {
            if let (Some(name), Some(target)) =
                (&u.reexport_as, krate.resolve(&u.scope, &u.segments))
            {
                reexports.insert((u.scope.clone(), name.clone()), target);
            }
        }
        krate.reexports = reexports;
        krate
    }

    /// `segments` written in `scope`, made absolute: `crate`, `super` and
    /// `self` paths, and paths that start with a child module of `scope`
    /// (`use child::Item` in a `mod.rs`). `None` for other crates.
    fn resolve(&self, scope: &[String], segments: &[String]) -> Option<ModPath> {
        if let Some(path) = absolute(scope, segments) {
            return Some(path);
        }
        let mut child = scope.to_vec();
        child.push(segments.first()?.clone());
        self.modules.contains_key(&child).then(|| {
            let mut path = scope.to_vec();
            path.extend(segments.iter().cloned());
            path
        })
    }

    /// The module that defines what `path` (absolute) names: the longest
    /// module prefix, followed through re-exports.
    fn defining_module(&self, path: &[String], depth: usize) -> Option<ModPath> {
        if depth > 16 {
            return None;
        }
        let mut module: ModPath = Vec::new();
        for (i, segment) in path.iter().enumerate() {
            let mut next = module.clone();
            next.push(segment.clone());
            if self.modules.contains_key(&next) {
                module = next;
                continue;
            }
            if let Some(target) = self.reexports.get(&(module.clone(), segment.clone())) {
                let mut full = target.clone();
                full.extend(path[i + 1..].iter().cloned());
                return self.defining_module(&full, depth + 1);
            }
            break;
        }
        Some(module)
    }

    /// The file module (what owns a source file) of a module.
    fn file_module(&self, module: &[String]) -> ModPath {
        let mut m = module.to_vec();
        let file = &self.modules[&m];
        while !m.is_empty() {
            let mut parent = m.clone();
            parent.pop();
            if self.modules.get(&parent) == Some(file) {
                m = parent;
            } else {
                break;
            }
        }
        m
    }

    /// File module -> file modules it depends on, with one example site.
    fn edges(&self) -> BTreeMap<ModPath, BTreeMap<ModPath, String>> {
        let mut edges: BTreeMap<ModPath, BTreeMap<ModPath, String>> = BTreeMap::new();
        for (file_module, u) in &self.uses {
            if u.reexport_as.is_some() {
                continue; // A facade, not a dependency.
            }
            let Some(path) = self.resolve(&u.scope, &u.segments) else {
                continue;
            };
            let Some(target) = self.defining_module(&path, 0) else {
                continue;
            };
            if !self.modules.contains_key(&target) {
                continue;
            }
            let target = self.file_module(&target);
            if &target == file_module || target.is_empty() {
                continue;
            }
            edges
                .entry(file_module.clone())
                .or_default()
                .entry(target)
                .or_insert_with(|| {
                    format!(
                        "{}:{} `{}`",
                        self.modules[file_module].display(),
                        u.line,
                        u.segments.join("::")
                    )
                });
        }
        edges
    }
}

fn collect_inline_modules(
    item: &syn::Item,
    parent: &[String],
    file: &Path,
    modules: &mut BTreeMap<ModPath, PathBuf>,
) {
    if let syn::Item::Mod(m) = item {
        if let Some((_, items)) = &m.content {
            let mut path = parent.to_vec();
            path.push(m.ident.to_string());
            modules.insert(path.clone(), file.to_owned());
            for item in items {
                collect_inline_modules(item, &path, file, modules);
            }
        }
    }
}

fn load() -> Crate {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    Crate::load(&src)
}

/// A cycle in the graph, if any (depth-first search).
fn find_cycle(edges: &BTreeMap<ModPath, BTreeMap<ModPath, String>>) -> Option<Vec<ModPath>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &ModPath,
        edges: &BTreeMap<ModPath, BTreeMap<ModPath, String>>,
        marks: &mut BTreeMap<ModPath, Mark>,
        stack: &mut Vec<ModPath>,
    ) -> Option<Vec<ModPath>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = stack.iter().position(|m| m == node).unwrap_or(0);
                let mut cycle = stack[from..].to_vec();
                cycle.push(node.clone());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(node.clone(), Mark::Open);
        stack.push(node.clone());
        for next in edges.get(node).into_iter().flat_map(|e| e.keys()) {
            if let Some(cycle) = visit(next, edges, marks, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        marks.insert(node.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in edges.keys() {
        if let Some(cycle) = visit(node, edges, &mut marks, &mut Vec::new()) {
            return Some(cycle);
        }
    }
    None
}

#[test]
fn the_module_graph_has_no_cycle() {
    let krate = load();
    let edges = krate.edges();
    println!("module dependencies (file modules):");
    for (from, to) in &edges {
        let targets: Vec<String> = to.keys().map(|t| show(t)).collect();
        println!("  {} -> {}", show(from), targets.join(", "));
    }
    if let Some(cycle) = find_cycle(&edges) {
        let mut why = String::new();
        for pair in cycle.windows(2) {
            why.push_str(&format!(
                "\n  {} -> {}: {}",
                show(&pair[0]),
                show(&pair[1]),
                edges[&pair[0]][&pair[1]]
            ));
        }
        panic!("import cycle between modules:{why}");
    }
    assert!(
        edges.len() >= 20,
        "the graph looks too small to be the real crate: {} modules with dependencies",
        edges.len()
    );
}

#[test]
fn dependencies_point_down_the_layers() {
    let krate = load();
    let layer_of = |m: &ModPath| {
        let top = m.first().map(String::as_str).unwrap_or("");
        LAYERS.iter().position(|layer| layer.contains(&top))
    };
    let mut wrong = Vec::new();
    let mut seen_tops = BTreeSet::new();
    for (from, to) in krate.edges() {
        let from_layer = layer_of(&from)
            .unwrap_or_else(|| panic!("module `{}` has no layer in LAYERS", show(&from)));
        seen_tops.insert(from[0].clone());
        for (target, site) in to {
            let target_layer = layer_of(&target)
                .unwrap_or_else(|| panic!("module `{}` has no layer in LAYERS", show(&target)));
            let same_tree = target[0] == from[0];
            if !(target_layer < from_layer || same_tree) {
                wrong.push(format!("{} -> {}: {site}", show(&from), show(&target)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "dependencies against the layers:\n  {}",
        wrong.join("\n  ")
    );
    for top in [
        "geometry",
        "model",
        "frames",
        "broadphase",
        "monitor",
        "scene",
    ] {
        assert!(
            seen_tops.contains(top),
            "no module `{top}` found: LAYERS is out of date"
        );
    }
}

#[test]
fn standalone_modules_use_nothing_else() {
    let krate = load();
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    for (from, to) in krate.edges() {
        if !STANDALONE.contains(&from[0].as_str()) {
            continue;
        }
        seen.insert(from[0].clone());
        for (target, site) in to {
            if target[0] != from[0] {
                wrong.push(format!("{} -> {}: {site}", show(&from), show(&target)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "standalone modules using the crate:\n  {}",
        wrong.join("\n  ")
    );
    for top in STANDALONE {
        assert!(
            seen.contains(*top),
            "no module `{top}` found: STANDALONE is out of date"
        );
    }
}

#[test]
fn geometry_names_no_ros_io_or_threads() {
    let krate = load();
    let mut found = Vec::new();
    for (module, u) in &krate.uses {
        if module.first().map(String::as_str) != Some("geometry") {
            continue;
        }
        let path = u.segments.join("::");
        if NOT_IN_GEOMETRY
            .iter()
            .any(|bad| path == *bad || path.starts_with(&format!("{bad}::")))
        {
            found.push(format!(
                "{}:{} `{path}`",
                krate.modules[module].display(),
                u.line
            ));
        }
    }
    assert!(
        found.is_empty(),
        "geometry must stay pure math:\n  {}",
        found.join("\n  ")
    );
}

/// The checker itself finds a cycle, a layer violation and its site.
#[test]
fn the_checker_sees_a_cycle() {
    let a = vec!["a".to_owned()];
    let b = vec!["b".to_owned()];
    let c = vec!["c".to_owned()];
    let mut edges: BTreeMap<ModPath, BTreeMap<ModPath, String>> = BTreeMap::new();
    edges
        .entry(a.clone())
        .or_default()
        .insert(b.clone(), "a->b".into());
    edges
        .entry(b.clone())
        .or_default()
        .insert(c.clone(), "b->c".into());
    assert_eq!(find_cycle(&edges), None);
    edges
        .entry(c.clone())
        .or_default()
        .insert(a.clone(), "c->a".into());
    let cycle = find_cycle(&edges).expect("a cycle");
    assert_eq!(cycle.first(), cycle.last());
    assert_eq!(cycle.len(), 4);
    // Paths resolve from where they are written.
    let scope = vec!["geometry".to_owned(), "sat".to_owned()];
    let segs = |s: &str| s.split("::").map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(
        absolute(&scope, &segs("super::query::piece")),
        Some(segs("geometry::query::piece"))
    );
    assert_eq!(
        absolute(&scope, &segs("crate::model::Status")),
        Some(segs("model::Status"))
    );
    assert_eq!(
        absolute(&scope, &segs("self::Core")),
        Some(segs("geometry::sat::Core"))
    );
    // Re-exports lead to the defining module.
    let krate = load();
    assert_eq!(
        krate.defining_module(&segs("geometry::Point"), 0),
        Some(segs("geometry::primitives"))
    );
    assert_eq!(
        krate.defining_module(&segs("model::Status"), 0),
        Some(segs("model::status"))
    );
}
