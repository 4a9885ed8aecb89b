//! The documentation against itself and against the code.
//!
//! * **Links.** Every relative link and image of README.md, ARCHITECTURE.md,
//!   BENCHMARKS.md and `docs/*.md` names a file or folder of the
//!   repository, and every anchor (`#...`, in the same page or another
//!   Markdown page) names a heading of that page, by GitHub's rule:
//!   lowercase, a space becomes `-`, punctuation is dropped except `-` and
//!   `_`, a repeated heading gets `-1`, `-2`, ... Links in code (fenced
//!   blocks, code spans) are not links; `http:`, `https:` and `mailto:`
//!   ones are not checked.
//! * **Statuses.** The tables under "## Statuses" in the node's reference
//!   (`docs/node.md`) name every spelling of `model::Status` and nothing
//!   else; the report's and the prediction's tables list their causes in
//!   `model::Cause`'s order, which is their precedence.
//! * **Topics and services.** The first column of the reference's table of
//!   topics and services names exactly the endpoints the node creates with
//!   a name of its own, and every parameter that names one. The node's
//!   names are read from its source: every call of r2r's endpoint makers
//!   (`create_publisher`, `create_service`, `subscribe`, ...; two
//!   arguments, the name first) in `src/ros/`, test code left out, parsed
//!   with `syn` (so formatting, line breaks and turbofish types do not
//!   matter). A name written as a string literal is the endpoint's; a name
//!   held in a variable must be one of [`NAMED_BY_PARAMETERS`], which says
//!   which parameters it comes from. So a new endpoint, whatever its name
//!   is made of, fails here until the table (and, for a variable, that list)
//!   says what it is: there is no single list of topic names in `src/` to
//!   test against instead, and a test of a running node would need ROS,
//!   while this one runs in every `cargo test`.
//! * **nav2's parameters.** The tables of `docs/nav2.md` (every parameter
//!   nav2's collision monitor reads, Jazzy's and Lyrical's, and what this
//!   node does with it) name every parameter of the node's tables:
//!   `PARAMS`, `SOURCE_PARAMS`, `EXCLUSION_ZONE_PARAMS`, `ZONE_PARAMS`,
//!   `VELOCITY_SHAPE_PARAMS`, each in its section; a row is marked
//!   `ignored` exactly when its name is one of the `NAV2_ONLY_*` lists
//!   (accepted with a note), and a row marked `refused` names a parameter
//!   start-up refuses. So a new parameter, or a nav2 name newly accepted,
//!   fails here until the table says what it is.

use sat_collision::config::{
    NodeConfig, Value, EXCLUSION_ZONE_PARAMS, NAV2_ONLY_PARAMS, NAV2_ONLY_SOURCE_PARAMS,
    NAV2_ONLY_ZONE_PARAMS, PARAMS, SOURCE_PARAMS, VELOCITY_SHAPE_PARAMS, ZONE_PARAMS,
};
use sat_collision::model::{Cause, Rejection, Status};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The node's reference: topics, services, parameters, statuses.
const REFERENCE: &str = "docs/node.md";

/// The Markdown files whose links are checked, relative to the root.
fn pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md"]
        .iter()
        .map(PathBuf::from)
        .collect();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .map(|path| {
            path.strip_prefix(root())
                .expect("under the root")
                .to_owned()
        })
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// `text` with fenced code blocks and code spans blanked out (newlines
/// kept, so line numbers stay), as CommonMark reads them: a fence is a
/// line starting (after indentation) with three backticks or tildes, a
/// code span a run of backticks closed by a run of the same length, which
/// may cross a line end.
fn without_code(text: &str) -> String {
    let mut prose = String::with_capacity(text.len());
    let mut fence: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let opens = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
        match (fence, opens) {
            (None, Some(f)) => fence = Some(f),
            (Some(f), Some(g)) if f == g => fence = None,
            (None, None) => {
                prose.push_str(line);
                continue;
            }
            _ => {}
        }
        prose.push('\n');
    }
    let chars: Vec<char> = prose.chars().collect();
    let run = |at: usize| chars[at..].iter().take_while(|&&c| c == '`').count();
    let mut out = String::with_capacity(prose.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let n = run(i);
        let mut j = i + n;
        let close = loop {
            match chars[j.min(chars.len())..].iter().position(|&c| c == '`') {
                None => break None,
                Some(k) => {
                    let at = j + k;
                    let m = run(at);
                    if m == n {
                        break Some(at);
                    }
                    j = at + m;
                }
            }
        };
        match close {
            Some(at) => {
                out.push(' ');
                out.extend(chars[i..at + n].iter().filter(|&&c| c == '\n'));
                i = at + n;
            }
            None => {
                out.extend(&chars[i..i + n]);
                i += n;
            }
        }
    }
    out
}

/// A heading's anchor by GitHub's rule, from its text as rendered (code
/// spans, emphasis markers and link targets gone).
fn anchor(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // `[text](target)` reads as `text`.
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](") else {
            break;
        };
        let Some(end) = rest[open + mid..].find(')') else {
            break;
        };
        text.push_str(&rest[..open]);
        text.push_str(&rest[open + 1..open + mid]);
        rest = &rest[open + mid + end + 1..];
    }
    text.push_str(rest);
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown page: its headings' (outside code), with
/// GitHub's suffixes for repeats, and explicit `<a name="...">`/`id="..."`.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut all = BTreeSet::new();
    let mut fence: Option<&str> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(f) = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f)) {
            fence = match fence {
                None => Some(f),
                Some(g) if g == f => None,
                other => other,
            };
            continue;
        }
        if fence.is_some() {
            continue;
        }
        for key in ["<a name=\"", " id=\""] {
            for (at, _) in line.match_indices(key) {
                let value = &line[at + key.len()..];
                if let Some(end) = value.find('"') {
                    all.insert(value[..end].to_owned());
                }
            }
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let title = line[hashes..].trim().trim_end_matches('#').trim();
            let base = anchor(&without_code_markers(title));
            let count = seen.entry(base.clone()).or_insert(0);
            let name = match *count {
                0 => base.clone(),
                n => format!("{base}-{n}"),
            };
            *count += 1;
            all.insert(name);
        }
    }
    all
}

/// A heading's text without the markers that render as nothing: the
/// backticks of code spans and `*` of emphasis.
fn without_code_markers(title: &str) -> String {
    title.chars().filter(|&c| c != '`' && c != '*').collect()
}

/// One link of a page: its line and its target as written.
struct Link {
    line: usize,
    target: String,
}

/// The inline links and images (`[text](target)`, `![alt](target)`) and
/// the link definitions (`[label]: target`) of a page, outside code.
fn links(text: &str) -> Vec<Link> {
    let prose = without_code(text);
    let mut found = Vec::new();
    for (number, line) in prose.lines().enumerate() {
        for (at, _) in line.match_indices("](") {
            let rest = &line[at + 2..];
            // The target ends at the `)` that balances the opening one.
            let mut depth = 0usize;
            let end = rest.char_indices().find_map(|(i, c)| match c {
                '(' => {
                    depth += 1;
                    None
                }
                ')' if depth == 0 => Some(i),
                ')' => {
                    depth -= 1;
                    None
                }
                _ => None,
            });
            let Some(end) = end else {
                continue;
            };
            let target = rest[..end].trim();
            // An optional title: `(target "title")`.
            let target = target.split_whitespace().next().unwrap_or("");
            let target = target.trim_start_matches('<').trim_end_matches('>');
            found.push(Link {
                line: number + 1,
                target: target.to_owned(),
            });
        }
        let trimmed = line.trim_start();
        if let Some(label_end) = trimmed.strip_prefix('[').and_then(|r| r.find("]: ")) {
            let target = trimmed[label_end + 4..].split_whitespace().next();
            if let Some(target) = target {
                found.push(Link {
                    line: number + 1,
                    target: target.to_owned(),
                });
            }
        }
    }
    found
}

/// `%20` and the like, as a browser reads a link.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `path` with `.` and `..` resolved, without touching the file system.
fn normalised(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn relative_links_and_anchors_resolve() {
    let mut anchor_cache: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    let mut anchors_of = |page: &Path| -> BTreeSet<String> {
        anchor_cache
            .entry(page.to_owned())
            .or_insert_with(|| anchors(&read(&root().join(page))))
            .clone()
    };
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = read(&root().join(&page));
        for link in links(&text) {
            let target = link.target.as_str();
            if target.is_empty()
                || ["http:", "https:", "mailto:"]
                    .iter()
                    .any(|scheme| target.starts_with(scheme))
            {
                continue;
            }
            checked += 1;
            let (path, fragment) = match target.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (target, None),
            };
            let path = percent_decoded(path);
            let file = if path.is_empty() {
                page.clone()
            } else if let Some(from_root) = path.strip_prefix('/') {
                normalised(Path::new(from_root))
            } else {
                normalised(&page.parent().unwrap_or(Path::new("")).join(&path))
            };
            let at = format!("{}:{}: {target}", page.display(), link.line);
            if file.starts_with("..") {
                broken.push(format!("{at}: outside the repository"));
                continue;
            }
            if !root().join(&file).exists() {
                broken.push(format!("{at}: no file {}", file.display()));
                continue;
            }
            let Some(fragment) = fragment else {
                continue;
            };
            if file.extension().is_some_and(|ext| ext == "md") {
                let fragment = percent_decoded(fragment).to_lowercase();
                if !anchors_of(&file).contains(&fragment) {
                    broken.push(format!(
                        "{at}: no heading #{fragment} in {}",
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} relative links found: the parser is wrong"
    );
    assert!(
        broken.is_empty(),
        "broken links (anchors by GitHub's rule):\n{}",
        broken.join("\n")
    );
}

#[test]
fn anchors_follow_githubs_rule() {
    assert_eq!(
        anchor("Topics and services (relative names: namespaces and remapping work)"),
        "topics-and-services-relative-names-namespaces-and-remapping-work"
    );
    assert_eq!(
        anchor(&without_code_markers(
            "Node latency, point clouds (`--cloud`)"
        )),
        "node-latency-point-clouds---cloud"
    );
    assert_eq!(
        anchor(&without_code_markers("The node: `sat_collision_node`")),
        "the-node-sat_collision_node"
    );
    assert_eq!(
        anchor("Velocity gate (nav2's collision monitor)"),
        "velocity-gate-nav2s-collision-monitor"
    );
    assert_eq!(anchor("See [Set-up](setup.md) × 2"), "see-set-up--2");
    let repeated = anchors("# A\n\n## B\n\n```\n## C\n```\n\n## B\n");
    assert_eq!(
        repeated.into_iter().collect::<Vec<_>>(),
        ["a", "b", "b-1"],
        "a heading in code is no heading; a repeat gets -1"
    );
    let found = links(
        "[a](x.md) `[b](y.md)` ``[c](`z`)``\n```\n[d](w.md)\n```\n![e](f.svg \"t\")\n[g]: h.md\n",
    );
    let targets: Vec<&str> = found.iter().map(|l| l.target.as_str()).collect();
    assert_eq!(targets, ["x.md", "f.svg", "h.md"]);
}

/// The cells of every table row of `section` (header and separator rows
/// left out), with the heading above each table.
fn table_rows(section: &str) -> Vec<(String, Vec<String>)> {
    let mut rows = Vec::new();
    let mut heading = String::new();
    let mut header_seen = false;
    for line in section.lines() {
        if line.starts_with('#') {
            heading = line.trim_start_matches('#').trim().to_owned();
        }
        if !line.starts_with('|') {
            header_seen = false;
            continue;
        }
        let cells: Vec<String> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(|cell| cell.trim().to_owned())
            .collect();
        if !header_seen {
            header_seen = true; // the header row
            continue;
        }
        if cells
            .iter()
            .all(|cell| cell.chars().all(|c| "-: ".contains(c)))
        {
            continue; // | --- | --- |
        }
        rows.push((heading.clone(), cells));
    }
    rows
}

/// The code spans of a cell, in order.
fn code_spans(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// The reference's section under `heading` (a `## ` line), up to the next.
fn reference_section(heading: &str) -> String {
    let text = read(&root().join(REFERENCE));
    let start = text
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("{REFERENCE} has a {heading} section"));
    let section = &text[start + 1..];
    let end = section[3..].find("\n## ").map_or(section.len(), |e| e + 3);
    section[..end].to_owned()
}

/// The causes of the report and the prediction, each a row of its table
/// (the refusals of a whole message, `Cause::Rejected*`, share their
/// rows' spellings and are left out of the order).
const CAUSES: &[Cause] = &[
    Cause::NoClock,
    Cause::ClockStalled,
    Cause::NoFootprint,
    Cause::ClockJumpedBack,
    Cause::StaleFootprint,
    Cause::InvalidFootprint,
    Cause::NoObstacles,
    Cause::StaleObstacles,
    Cause::NoSourceData,
    Cause::StaleSource,
    Cause::InvalidSource,
    Cause::Overloaded,
    Cause::TransformConflict,
    Cause::InvalidTransform,
    Cause::TooManyFrames,
    Cause::TransformUnavailable,
    Cause::StaleTransform,
    Cause::FrameMismatch,
    Cause::InvalidObstacle,
    Cause::NoVelocity,
    Cause::StaleVelocity,
    Cause::InvalidVelocity,
    Cause::UnknownVelocityFrame,
];

#[test]
fn reference_lists_every_status_and_no_other() {
    let rows = table_rows(&reference_section("## Statuses"));
    let mut listed = BTreeSet::new();
    for (_, cells) in &rows {
        let spans = code_spans(&cells[0]);
        assert!(
            !spans.is_empty(),
            "a status row names its status: {cells:?}"
        );
        listed.extend(spans.into_iter().map(str::to_owned));
    }
    let code: BTreeSet<String> = Status::ALL.iter().map(|s| s.as_str().to_owned()).collect();
    let missing: Vec<&String> = code.difference(&listed).collect();
    let unknown: Vec<&String> = listed.difference(&code).collect();
    assert!(
        missing.is_empty() && unknown.is_empty(),
        "{REFERENCE} \"## Statuses\": missing (model::Status has them) {missing:?}; \
         not statuses {unknown:?}"
    );

    // The report's and the prediction's tables in the order of precedence.
    let rejections: BTreeSet<&str> = [
        Rejection::InvalidFrameId,
        Rejection::InvalidId,
        Rejection::TooManyObstacles,
        Rejection::TooManyVertices,
    ]
    .into_iter()
    .map(|r| Status::from(r).as_str())
    .collect();
    let cause_of: BTreeMap<&str, Cause> = CAUSES
        .iter()
        .map(|&c| (Status::from(c).as_str(), c))
        .collect();
    for table in ["The report's statuses", "The prediction's statuses"] {
        let order: Vec<Cause> = rows
            .iter()
            .filter(|(heading, _)| heading == table)
            .filter_map(|(_, cells)| {
                let spans = code_spans(&cells[0]);
                if spans.iter().all(|s| rejections.contains(s)) {
                    return None;
                }
                assert_eq!(spans.len(), 1, "{table}: one cause a row: {cells:?}");
                Some(*cause_of.get(spans[0]).unwrap_or_else(|| {
                    panic!(
                        "{table}: {} is not a cause this test knows (CAUSES)",
                        spans[0]
                    )
                }))
            })
            .collect();
        assert!(
            order.len() >= 4,
            "{REFERENCE} has a table under \"### {table}\""
        );
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(
            order, sorted,
            "{table}: rows in model::Cause's order (its precedence)"
        );
    }
}

/// Endpoints the node names with a variable: the file (under `src/ros/`),
/// the argument as written, and the parameters whose value it holds. The
/// subscription pool passes its callers' names on: they are checked where
/// they are made.
const NAMED_BY_PARAMETERS: &[(&str, &str, &[&str])] = &[
    (
        "node/io_thread/kinds/velocity.rs",
        "topic",
        &["velocity_topic"],
    ),
    (
        "node/io_thread/kinds/sources.rs",
        "topic",
        &["<name>.topic"],
    ),
    ("node/gate.rs", "topic", &["cmd_vel_out_topic"]),
    (
        "node/gate/inputs.rs",
        "topic",
        &["cmd_vel_in_topic", "<zone>.polygon_sub_topic"],
    ),
    (
        "node/gate/inputs.rs",
        "&zone.footprint_topic",
        &["<zone>.footprint_topic"],
    ),
    ("node/gate.rs", "&gate_config.state_topic", &["state_topic"]),
    (
        "node/gate.rs",
        "&zone.polygon_pub_topic",
        &["<zone>.polygon_pub_topic"],
    ),
    ("node/io_thread/pool.rs", "topic", &[]),
    ("node/io_thread/kinds/fleet.rs", "topic", &["fleet_topic"]),
    ("node/pipeline.rs", "&config.fleet_topic", &["fleet_topic"]),
    // `~/<source>/add_exclusion_zone`, `~/<source>/remove_exclusion_zone`.
    ("node/exclusion.rs", "&add_name", &["observation_sources"]),
    // `~/<zone>` of each `visualize` exclusion zone.
    ("node/exclusion.rs", "&topic", &["<name>.exclusion_zones"]),
    (
        "node/exclusion.rs",
        "&remove_name",
        &["observation_sources"],
    ),
];

/// r2r's methods that make an endpoint, its name the first of two arguments.
const MAKERS: &[&str] = &[
    "create_publisher",
    "create_publisher_untyped",
    "create_service",
    "create_client",
    "create_client_untyped",
    "create_action_server",
    "create_action_client",
    "subscribe",
    "subscribe_native",
    "subscribe_untyped",
    "subscribe_raw",
];

/// An endpoint's name as the call writes it.
enum Name {
    Literal(String),
    Variable(String),
}

/// A name held in a variable, written back without spaces (`topic`,
/// `&zone.footprint_topic`, `config.topic.as_str()`); `None` for anything
/// else.
fn written(expr: &syn::Expr) -> Option<String> {
    match expr {
        syn::Expr::Path(path) if path.qself.is_none() => {
            let parts: Vec<String> = path
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            Some(parts.join("::"))
        }
        syn::Expr::Field(field) => {
            let member = match &field.member {
                syn::Member::Named(ident) => ident.to_string(),
                syn::Member::Unnamed(index) => index.index.to_string(),
            };
            Some(format!("{}.{member}", written(&field.base)?))
        }
        syn::Expr::Reference(reference) => Some(format!("&{}", written(&reference.expr)?)),
        syn::Expr::MethodCall(call) if call.args.is_empty() => {
            Some(format!("{}.{}()", written(&call.receiver)?, call.method))
        }
        syn::Expr::Paren(inner) => written(&inner.expr),
        _ => None,
    }
}

fn is_test_code(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("test")
            || (attr.path().is_ident("cfg")
                && attr
                    .parse_args::<syn::Meta>()
                    .is_ok_and(|meta| meta.path().is_ident("test")))
    })
}

/// The endpoints one file makes.
struct Makers {
    found: Vec<(Name, String)>,
}

impl<'ast> Visit<'ast> for Makers {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !is_test_code(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_test_code(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        let method = call.method.to_string();
        if MAKERS.contains(&method.as_str()) && call.args.len() == 2 {
            let first = &call.args[0];
            let name = match first {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(text),
                    ..
                }) => Name::Literal(text.value()),
                other => Name::Variable(written(other).unwrap_or_else(|| "<an expression>".into())),
            };
            self.found.push((name, method));
        }
        syn::visit::visit_expr_method_call(self, call);
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("an entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "tests" {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

#[test]
fn reference_names_every_topic_and_service_the_node_makes() {
    // The node's names, from its source.
    let ros = root().join("src/ros");
    let mut files = Vec::new();
    rust_files(&ros, &mut files);
    files.sort();
    let mut literal = BTreeSet::new();
    let mut from_parameters = BTreeSet::new();
    let mut unexplained = Vec::new();
    let mut used = vec![false; NAMED_BY_PARAMETERS.len()];
    for file in &files {
        let relative = file
            .strip_prefix(&ros)
            .expect("under src/ros")
            .to_string_lossy()
            .replace('\\', "/");
        let syntax =
            syn::parse_file(&read(file)).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut makers = Makers { found: Vec::new() };
        makers.visit_file(&syntax);
        for (name, method) in makers.found {
            match name {
                Name::Literal(name) => {
                    literal.insert(name);
                }
                Name::Variable(variable) => {
                    let known = NAMED_BY_PARAMETERS
                        .iter()
                        .position(|(f, v, _)| *f == relative && *v == variable);
                    match known {
                        Some(i) => {
                            used[i] = true;
                            from_parameters.extend(NAMED_BY_PARAMETERS[i].2.iter().copied());
                        }
                        None => unexplained
                            .push(format!("src/ros/{relative}: {method}({variable}, ...)")),
                    }
                }
            }
        }
    }
    assert!(
        unexplained.is_empty(),
        "endpoints named by a variable that NAMED_BY_PARAMETERS does not explain \
         (say which parameters name them, and list those in {REFERENCE}):\n{}",
        unexplained.join("\n")
    );
    let stale: Vec<_> = NAMED_BY_PARAMETERS
        .iter()
        .zip(&used)
        .filter(|(_, used)| !**used)
        .map(|((file, variable, _), _)| format!("src/ros/{file}: {variable}"))
        .collect();
    assert!(
        stale.is_empty(),
        "NAMED_BY_PARAMETERS names calls that are gone: {stale:?}"
    );
    assert!(
        literal.len() >= 15,
        "only {literal:?} found: the parser is wrong"
    );

    // The reference's first column: names, and the parameters that name
    // the others.
    let title = "Topics and services (relative names: namespaces and remapping work)";
    let section = reference_section(&format!("## {title}"));
    let zone_params: BTreeSet<&str> = ZONE_PARAMS.iter().map(|p| p.spec.name).collect();
    let source_params: BTreeSet<&str> = SOURCE_PARAMS.iter().map(|p| p.spec.name).collect();
    let node_params: BTreeSet<&str> = PARAMS.iter().map(|p| p.name).collect();
    let mut listed = BTreeSet::new();
    let mut listed_parameters = BTreeSet::new();
    // The table right under the heading (the threads' table below it is
    // under a heading of its own).
    for (_, cells) in table_rows(&section)
        .iter()
        .filter(|(heading, _)| heading == title)
    {
        for span in code_spans(&cells[0]) {
            let parameter = if let Some(suffix) = span.strip_prefix("<name>.") {
                assert!(
                    source_params.contains(suffix),
                    "{span}: not a source parameter"
                );
                true
            } else if let Some(suffix) = span.strip_prefix("<zone>.") {
                assert!(zone_params.contains(suffix), "{span}: not a zone parameter");
                true
            } else {
                node_params.contains(span)
            };
            if parameter {
                listed_parameters.insert(span.to_owned());
            } else {
                listed.insert(span.to_owned());
            }
        }
    }
    let missing: Vec<&String> = literal.difference(&listed).collect();
    let unknown: Vec<&String> = listed.difference(&literal).collect();
    assert!(
        missing.is_empty() && unknown.is_empty(),
        "{REFERENCE}'s table of topics and services: missing (the node makes them) {missing:?}; \
         not made by the node {unknown:?}"
    );
    let unlisted: Vec<&&str> = from_parameters
        .iter()
        .filter(|p| !listed_parameters.contains(**p))
        .collect();
    assert!(
        unlisted.is_empty(),
        "{REFERENCE}'s table of topics and services: the parameters that name topics {unlisted:?} \
         are not in its first column"
    );
}

/// The nav2 parameter table: `docs/nav2.md`.
const NAV2_TABLE: &str = "docs/nav2.md";

/// What the node does with a nav2 parameter, as the table's fourth column
/// says it.
const NAV2_MARKS: [&str; 4] = ["supported", "changed", "ignored", "refused"];

#[test]
fn nav2_table_lists_every_parameter_the_node_knows() {
    let rows = table_rows(&read(&root().join(NAV2_TABLE)));
    assert!(
        rows.len() > 60,
        "only {} rows: the parser is wrong",
        rows.len()
    );
    // Each name of a row's first cell, with the row's heading and mark.
    let mut listed: Vec<(String, &str, &str)> = Vec::new();
    for (heading, cells) in &rows {
        assert_eq!(cells.len(), 5, "{heading}: {cells:?}");
        let mark = cells[3].as_str();
        assert!(NAV2_MARKS.contains(&mark), "{heading}: {cells:?}");
        let names = code_spans(&cells[0]);
        assert!(!names.is_empty(), "{heading}: {cells:?}");
        for name in names {
            listed.push((name.to_owned(), heading.as_str(), mark));
        }
    }
    let has = |name: &str, section: &str| {
        listed
            .iter()
            .any(|(n, heading, _)| n == name && heading.starts_with(section))
    };
    let own_or = |section: &'static str| {
        move |name: &str| has(name, section) || has(name, "This node's own")
    };
    let mut missing = Vec::new();
    let node = own_or("Node");
    for spec in PARAMS {
        if !node(spec.name) {
            missing.push(format!("node: {}", spec.name));
        }
    }
    for param in SOURCE_PARAMS {
        if !has(param.spec.name, "Sources") {
            missing.push(format!("source: {}", param.spec.name));
        }
    }
    for param in EXCLUSION_ZONE_PARAMS {
        if !has(param.spec.name, "Exclusion zones") {
            missing.push(format!("exclusion zone: {}", param.spec.name));
        }
    }
    let zone = own_or("Zones");
    for param in ZONE_PARAMS {
        if !zone(param.spec.name) {
            missing.push(format!("zone: {}", param.spec.name));
        }
    }
    for param in VELOCITY_SHAPE_PARAMS {
        if !has(param.spec.name, "Velocity shapes") {
            missing.push(format!("velocity shape: {}", param.spec.name));
        }
    }
    assert!(
        missing.is_empty(),
        "{NAV2_TABLE} lists no row for:\n{}",
        missing.join("\n")
    );
    // `ignored` is exactly the names accepted with a note.
    let mut ignored: Vec<&str> = listed
        .iter()
        .filter(|(_, _, mark)| *mark == "ignored")
        .map(|(name, _, _)| name.as_str())
        .collect();
    let mut nav2_only: Vec<&str> = NAV2_ONLY_PARAMS
        .iter()
        .map(|(name, _)| *name)
        .chain(NAV2_ONLY_SOURCE_PARAMS)
        .chain(NAV2_ONLY_ZONE_PARAMS.iter().map(|(name, _)| *name))
        .collect();
    ignored.sort_unstable();
    nav2_only.sort_unstable();
    assert_eq!(ignored, nav2_only, "the rows marked ignored");
    // A node parameter marked `refused` is refused at start-up.
    for (name, heading, mark) in &listed {
        if *mark == "refused" && heading.starts_with("Node") {
            let given = [(name.clone(), Value::Bool(false))];
            assert!(
                NodeConfig::default().start_up(&given).is_err(),
                "{name} is marked refused and starts"
            );
        }
    }
}
