//! The node's parameter table (`sat_collision::config::PARAMS`) against the
//! two documents that repeat it, so that none of the three can drift:
//! `config/sat_collision.yaml` (every parameter at its default, with its
//! range and whether it changes at run time in the comment above it) and
//! the node's reference, `docs/node.md`, its table under "## Parameters";
//! the sensor sources' table (`SOURCE_PARAMS`) against its "### Sensor
//! sources"; the zones' tables (`ZONE_PARAMS`, `VELOCITY_SHAPE_PARAMS`)
//! against its "### Zones"; the exclusion zones' (`EXCLUSION_ZONE_PARAMS`)
//! against its "### Exclusion zones".

use sat_collision::config::{
    ExclusionZoneConfig, Kind, ParamSpec, SourceConfig, ZoneDefault, EXCLUSION_ZONE_PARAMS, PARAMS,
    SOURCE_PARAMS, VELOCITY_SHAPE_PARAMS, ZONE_PARAMS,
};
use sat_collision::gate::{VelocityShape, ZoneConfig};
use sat_collision::monitor::SourceKind;
use std::path::Path;

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn names() -> Vec<&'static str> {
    PARAMS.iter().map(|spec| spec.name).collect()
}

/// `"[lo, hi]..."` (anything may follow the bracket) as numbers, however
/// the numbers are spelt (`1e6`, `1000000`, `3600.0`).
fn range_at_start(text: &str) -> Option<(f64, f64)> {
    let (inside, _) = text.strip_prefix('[')?.split_once(']')?;
    let (lo, hi) = inside.split_once(", ")?;
    Some((lo.trim().parse().ok()?, hi.trim().parse().ok()?))
}

/// The comment lines right above `name:` in the parameters file, joined.
fn comment_above(lines: &[&str], name: &str) -> String {
    let key = format!("{name}:");
    let at: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].trim_start().starts_with(&key))
        .collect();
    assert_eq!(at.len(), 1, "`{name}:` should be on exactly one line");
    let mut comment: Vec<&str> = lines[..at[0]]
        .iter()
        .rev()
        .map(|line| line.trim())
        .take_while(|line| line.starts_with('#'))
        .collect();
    comment.reverse();
    comment.join(" ")
}

#[test]
fn params_file_holds_every_parameter_at_its_default() {
    let text = read("config/sat_collision.yaml");
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).expect("config/sat_collision.yaml");
    let top = doc.as_mapping().expect("a mapping at the top");
    assert_eq!(top.len(), 1, "one node entry");
    let params = doc["sat_collision_node"]["ros__parameters"]
        .as_mapping()
        .expect("sat_collision_node: ros__parameters: a mapping");
    let keys: Vec<&str> = params
        .keys()
        .map(|k| k.as_str().expect("parameter names are strings"))
        .collect();
    assert_eq!(
        keys,
        names(),
        "config/sat_collision.yaml lists exactly the parameters of config::PARAMS, in its order"
    );

    let lines: Vec<&str> = text.lines().collect();
    for spec in PARAMS {
        let name = spec.name;
        let value = &params[name];
        match spec.kind {
            Kind::Number { default, .. } => {
                // Written as a float (`1.0`), so that rclpy reads back a double.
                assert!(value.is_f64(), "{name}: {value:?} should be a double");
                assert_eq!(value.as_f64(), Some(default), "{name}: default");
            }
            Kind::Integer { default, .. } => {
                assert_eq!(
                    value.as_i64(),
                    Some(default),
                    "{name}: an integer, the default"
                )
            }
            Kind::Bool { default, .. } => {
                assert_eq!(
                    value.as_bool(),
                    Some(default),
                    "{name}: a bool, the default"
                )
            }
            Kind::TextList { default, .. } => {
                let list: Option<Vec<&str>> = value
                    .as_sequence()
                    .and_then(|items| items.iter().map(|item| item.as_str()).collect());
                assert_eq!(
                    list.as_deref(),
                    Some(default),
                    "{name}: a list of strings, the default"
                )
            }
            Kind::Text { default, .. } => {
                assert_eq!(
                    value.as_str(),
                    Some(default),
                    "{name}: a string, the default"
                )
            }
        }

        let comment = comment_above(&lines, name);
        let kind = if spec.runtime {
            "run time"
        } else {
            "start-up only"
        };
        assert!(
            comment.contains(kind),
            "{name}: the comment should say \"{kind}\": {comment}"
        );
        let shown = comment
            .split_once(" in [")
            .and_then(|(_, rest)| range_at_start(&format!("[{rest}")));
        assert_eq!(
            shown,
            spec.range(),
            "{name}: range in the comment: {comment}"
        );
    }
}

/// One row of a parameter table of the node's reference.
struct Row {
    name: String,
    default: String,
    range: String,
    runtime: String,
}

/// The node's reference, which holds the parameter tables.
const REFERENCE: &str = "docs/node.md";

/// The cells of the first table after the line `heading` of the node's
/// reference, header first, every row with as many cells as the header.
fn reference_table(heading: &str) -> Vec<Vec<String>> {
    let reference = read(REFERENCE);
    let section = reference
        .split_once(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("{REFERENCE} has a {heading} section"))
        .1;
    let cells = |line: &str| -> Vec<String> {
        line.trim()
            .trim_matches('|')
            .split('|')
            .map(|cell| cell.trim().to_owned())
            .collect()
    };
    let mut lines = section
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'));
    let header = cells(lines.next().expect("a table"));
    let rows: Vec<Vec<String>> = lines.skip(1).map(cells).collect(); // | --- | --- | ...
    for row in &rows {
        assert_eq!(
            row.len(),
            header.len(),
            "{REFERENCE} {heading} row: {row:?}"
        );
    }
    std::iter::once(header).chain(rows).collect()
}

fn reference_rows() -> Vec<Row> {
    let mut table = reference_table("## Parameters").into_iter();
    assert_eq!(
        table.next().expect("a header"),
        ["name", "default", "range", "run-time change", "meaning"],
        "docs/node.md parameter table columns"
    );
    table
        .map(|c| Row {
            name: c[0].trim_matches('`').to_owned(),
            default: c[1].clone(),
            range: c[2].clone(),
            runtime: c[3].clone(),
        })
        .collect()
}

/// A number as the reference spells it: `1e6`, `3600`, `π`, `π/180`.
fn number(text: &str) -> Option<f64> {
    match text.trim() {
        "π" => Some(std::f64::consts::PI),
        "-π" => Some(-std::f64::consts::PI),
        "π/180" => Some(std::f64::consts::PI / 180.0),
        other => other.parse().ok(),
    }
}

/// `"[lo, hi]..."` with [`number`]'s spellings.
fn reference_range(text: &str) -> Option<(f64, f64)> {
    let (inside, _) = text.strip_prefix('[')?.split_once(']')?;
    let (lo, hi) = inside.split_once(", ")?;
    Some((number(lo)?, number(hi)?))
}

fn check_row<C>(spec: &ParamSpec<C>, row: &Row) {
    let name = spec.name;
    match spec.kind {
        Kind::Number { default, .. } => assert_eq!(
            number(&row.default),
            Some(default),
            "{name}: docs/node.md default {}",
            row.default
        ),
        Kind::Integer { default, .. } => assert_eq!(
            row.default.parse::<f64>().ok(),
            Some(default as f64),
            "{name}: docs/node.md default {}",
            row.default
        ),
        Kind::TextList { default, .. } => assert_eq!(
            serde_json::from_str::<Vec<String>>(&row.default).ok(),
            Some(default.iter().map(|s| (*s).to_owned()).collect()),
            "{name}: docs/node.md default {} (a JSON list)",
            row.default
        ),
        Kind::Bool { default, .. } => assert_eq!(
            row.default.parse::<bool>().ok(),
            Some(default),
            "{name}: docs/node.md default {}",
            row.default
        ),
        Kind::Text { default, .. } => assert_eq!(
            serde_json::from_str::<String>(&row.default).ok().as_deref(),
            Some(default),
            "{name}: docs/node.md default {} (a quoted string)",
            row.default
        ),
    }
    match spec.range() {
        // `[lo, hi] unit`
        Some(range) => assert_eq!(
            reference_range(&row.range),
            Some(range),
            "{name}: docs/node.md range {}",
            row.range
        ),
        None => assert_eq!(row.range, "", "{name}: no range"),
    }
    let runtime = if spec.runtime { "yes" } else { "no" };
    assert_eq!(row.runtime, runtime, "{name}: docs/node.md run-time change");
}

#[test]
fn reference_table_matches() {
    let rows = reference_rows();
    let reference_names: Vec<&str> = rows.iter().map(|row| row.name.as_str()).collect();
    assert_eq!(
        reference_names,
        names(),
        "docs/node.md's parameter table lists exactly the parameters of config::PARAMS, in its order"
    );
    for (spec, row) in PARAMS.iter().zip(&rows) {
        check_row(spec, row);
    }
}

#[test]
fn reference_sources_table_matches() {
    let mut table = reference_table("### Sensor sources").into_iter();
    assert_eq!(
        table.next().expect("a header"),
        [
            "parameter",
            "types",
            "default",
            "range",
            "run-time change",
            "meaning"
        ],
        "docs/node.md sensor sources table columns"
    );
    let rows: Vec<Vec<String>> = table.collect();
    let names: Vec<String> = rows.iter().map(|row| row[0].clone()).collect();
    let expected: Vec<String> = SOURCE_PARAMS
        .iter()
        .map(|param| format!("`<name>.{}`", param.spec.name))
        .collect();
    assert_eq!(
        names, expected,
        "docs/node.md's sensor sources table lists exactly config::SOURCE_PARAMS, in its order"
    );
    for (param, cells) in SOURCE_PARAMS.iter().zip(&rows) {
        let name = param.spec.name;
        let types = if param.kinds.len() == SourceKind::ALL.len() {
            "all".to_owned()
        } else {
            let kinds: Vec<&str> = param.kinds.iter().map(|k| k.as_str()).collect();
            kinds.join(", ")
        };
        assert_eq!(cells[1], types, "{name}: docs/node.md types");
        let row = Row {
            name: name.to_owned(),
            default: cells[2].clone(),
            range: cells[3].clone(),
            runtime: cells[4].clone(),
        };
        // The defaults that are not the table's own: `type` has none, and
        // one comes from a node parameter.
        if name == "type" {
            assert_eq!(row.default, "required", "{name}");
        } else if let Some(node_param) = param.default_from {
            assert_eq!(row.default, format!("`{node_param}`"), "{name}");
        } else {
            check_row::<SourceConfig>(&param.spec, &row);
            continue;
        }
        let runtime = if param.spec.runtime { "yes" } else { "no" };
        assert_eq!(row.runtime, runtime, "{name}: docs/node.md run-time change");
        assert_eq!(
            reference_range(&row.range),
            param.spec.range(),
            "{name}: range"
        );
    }
}

/// A zone table's row: the default as the table has it (required, made
/// from the zone, or the spec's), and the rest as for the node's rows.
fn check_zone_row<C>(spec: &ParamSpec<C>, default: ZoneDefault, cells: &[String]) {
    let row = Row {
        name: spec.name.to_owned(),
        default: cells[2].clone(),
        range: cells[3].clone(),
        runtime: cells[4].clone(),
    };
    let shown = match default {
        ZoneDefault::Table => return check_row(spec, &row),
        ZoneDefault::Required => "required",
        ZoneDefault::Computed(words) => words,
    };
    assert_eq!(row.default, shown, "{}: docs/node.md default", spec.name);
    let runtime = if spec.runtime { "yes" } else { "no" };
    assert_eq!(
        row.runtime, runtime,
        "{}: docs/node.md run-time change",
        spec.name
    );
    assert_eq!(
        reference_range(&row.range),
        spec.range(),
        "{}: range",
        spec.name
    );
}

#[test]
fn reference_zones_table_matches() {
    let mut table = reference_table("### Zones").into_iter();
    assert_eq!(
        table.next().expect("a header"),
        [
            "parameter",
            "zones",
            "default",
            "range",
            "run-time change",
            "meaning"
        ],
        "docs/node.md zones table columns"
    );
    let rows: Vec<Vec<String>> = table.collect();
    let names: Vec<String> = rows.iter().map(|row| row[0].clone()).collect();
    let expected: Vec<String> = ZONE_PARAMS
        .iter()
        .map(|param| format!("`<zone>.{}`", param.spec.name))
        .chain(
            VELOCITY_SHAPE_PARAMS
                .iter()
                .map(|param| format!("`<zone>.<shape>.{}`", param.spec.name)),
        )
        .collect();
    assert_eq!(
        names, expected,
        "docs/node.md's zones table lists exactly config::ZONE_PARAMS, then \
         config::VELOCITY_SHAPE_PARAMS, in their order"
    );
    let (zone_rows, shape_rows) = rows.split_at(ZONE_PARAMS.len());
    for (param, cells) in ZONE_PARAMS.iter().zip(zone_rows) {
        assert_eq!(
            cells[1], param.zones,
            "{}: docs/node.md zones",
            param.spec.name
        );
        check_zone_row::<ZoneConfig>(&param.spec, param.default, cells);
    }
    for (param, cells) in VELOCITY_SHAPE_PARAMS.iter().zip(shape_rows) {
        let zones = if param.holonomic_only {
            "holonomic velocity_polygon zones"
        } else {
            "velocity_polygon zones"
        };
        assert_eq!(cells[1], zones, "{}: docs/node.md zones", param.spec.name);
        check_zone_row::<VelocityShape>(&param.spec, param.default, cells);
    }
}

#[test]
fn reference_exclusion_zones_table_matches() {
    let mut table = reference_table("### Exclusion zones").into_iter();
    assert_eq!(
        table.next().expect("a header"),
        [
            "parameter",
            "zones",
            "default",
            "range",
            "run-time change",
            "meaning"
        ],
        "docs/node.md exclusion zones table columns"
    );
    let rows: Vec<Vec<String>> = table.collect();
    let names: Vec<String> = rows.iter().map(|row| row[0].clone()).collect();
    let expected: Vec<String> = EXCLUSION_ZONE_PARAMS
        .iter()
        .map(|param| format!("`<zone>.{}`", param.spec.name))
        .collect();
    assert_eq!(
        names, expected,
        "docs/node.md's exclusion zones table lists exactly config::EXCLUSION_ZONE_PARAMS, in its order"
    );
    for (param, cells) in EXCLUSION_ZONE_PARAMS.iter().zip(&rows) {
        assert_eq!(
            cells[1], param.zones,
            "{}: docs/node.md zones",
            param.spec.name
        );
        let row = Row {
            name: param.spec.name.to_owned(),
            default: cells[2].clone(),
            range: cells[3].clone(),
            runtime: cells[4].clone(),
        };
        check_row::<ExclusionZoneConfig>(&param.spec, &row);
    }
}
