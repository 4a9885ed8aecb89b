//! The keep-out zones of `zones_file`, loaded at configure.

use super::outputs::shown;
use crate::model::Obstacle;
use crate::scene::Scene;
use std::path::Path;

/// Loads the zones file: a bad file or a bad zone stops start-up, with a
/// message naming the file and line (`zones_file: <path>:<line>: ...`).
/// Only a regular file is read, with a size cap ([`crate::scene`]).
pub fn load_zones(path: &str) -> Result<(String, Vec<Obstacle>), String> {
    let text =
        crate::scene::read_capped(Path::new(path)).map_err(|e| format!("zones_file: {e}"))?;
    let scene = Scene::from_yaml(&text, Path::new(path)).map_err(|e| format!("zones_file: {e}"))?;
    let zones = scene.obstacles();
    if let Some(bad) = zones.iter().find(|z| z.shape.is_err()) {
        let reason = bad
            .shape
            .as_ref()
            .err()
            .map_or_else(String::new, |e| e.to_string());
        let line = crate::scene::obstacle_line(&text, &bad.id)
            .map(|l| format!(":{l}"))
            .unwrap_or_default();
        return Err(format!(
            "zones_file: {path}{line}: zone `{}`: {reason}",
            shown(&bad.id)
        ));
    }
    Ok((scene.frame_id, zones))
}
