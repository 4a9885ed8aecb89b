//! The sources' exclusion zone services (nav2 main's `source.cpp`):
//! `~/<source>/add_exclusion_zone` (`nav2_msgs/srv/AddExclusionZone`) and
//! `~/<source>/remove_exclusion_zone` (`nav2_msgs/srv/RemoveExclusionZone`)
//! for each point source (scan, pointcloud, range), made at configure on
//! the I/O thread (which owns the node) as `~/toggle` is, and answered on
//! the event loop by the core (`Core::add_exclusion_zone`,
//! `Core::remove_exclusion_zone`): a description checked by the zone
//! parameters' own rules (`ExclusionZoneConfig::from_description`); a
//! refusal changes nothing and says why.

use crate::config::{ExclusionDescription, ExclusionZoneConfig, NodeConfig};
use crate::geometry::Point;
use crate::monitor::SourceKind;
use crate::node::{shown, Core};
use futures::stream::{BoxStream, LocalBoxStream};
use futures::StreamExt;
use r2r::nav2_msgs::srv::{AddExclusionZone, RemoveExclusionZone};
use r2r::{QosProfile, ServiceRequest};

/// A request to one of a source's services, with the source's name.
pub(super) enum ExclusionRequest {
    /// `~/<source>/add_exclusion_zone`.
    Add(String, ServiceRequest<AddExclusionZone::Service>),
    /// `~/<source>/remove_exclusion_zone`.
    Remove(String, ServiceRequest<RemoveExclusionZone::Service>),
}

/// Every source's requests, on the event loop.
pub(super) type ExclusionRequests = LocalBoxStream<'static, ExclusionRequest>;

/// The two services of every point source of `config` on `node`, their
/// requests merged into one stream.
pub(super) fn create(
    node: &mut r2r::Node,
    config: &NodeConfig,
) -> r2r::Result<BoxStream<'static, ExclusionRequest>> {
    let mut all: Vec<BoxStream<'static, ExclusionRequest>> = Vec::new();
    let points = [SourceKind::Scan, SourceKind::PointCloud, SourceKind::Range];
    for source in config.sources.iter().filter(|s| points.contains(&s.kind)) {
        let name = source.name.clone();
        let (add_name, remove_name) = (
            format!("~/{name}/add_exclusion_zone"),
            format!("~/{name}/remove_exclusion_zone"),
        );
        let add =
            node.create_service::<AddExclusionZone::Service>(&add_name, QosProfile::default())?;
        let for_add = name.clone();
        all.push(
            add.map(move |r| ExclusionRequest::Add(for_add.clone(), r))
                .boxed(),
        );
        let remove = node
            .create_service::<RemoveExclusionZone::Service>(&remove_name, QosProfile::default())?;
        all.push(
            remove
                .map(move |r| ExclusionRequest::Remove(name.clone(), r))
                .boxed(),
        );
    }
    Ok(futures::stream::select_all(all).boxed())
}

/// Answers `request` with the core: the zone added or removed, or why not
/// (nothing changed); logged (a refusal as a warning).
pub(super) fn answer(core: &mut Core, request: ExclusionRequest, logger: &str) {
    let (outcome, responded) = match request {
        ExclusionRequest::Add(source, request) => {
            let zone = &request.message.zone;
            let description = ExclusionDescription {
                name: &zone.zone_name,
                kind: &zone.type_,
                frame_id: &zone.frame_id,
                radius: zone.radius,
                min_height: zone.min_height,
                max_height: zone.max_height,
                enabled: zone.enabled,
                visualize: zone.visualize,
                frame_hold_timeout: zone.frame_hold_timeout,
            };
            // Counted before any is read (`from_description`).
            let points = zone
                .points
                .iter()
                .map(|p| Point::new(f64::from(p.x), f64::from(p.y)));
            let outcome = ExclusionZoneConfig::from_description(&description, points)
                .map_err(|e| {
                    format!(
                        "Invalid exclusion zone description for '{}' on source '{}': {e}",
                        shown(&zone.zone_name),
                        shown(&source)
                    )
                })
                .and_then(|config| core.add_exclusion_zone(&source, config));
            let (success, message) = flatten(&outcome);
            let responded = request.respond(AddExclusionZone::Response { success, message });
            (outcome, responded.map_err(|e| e.to_string()))
        }
        ExclusionRequest::Remove(source, request) => {
            let (name, all) = (&request.message.zone_name, request.message.remove_all);
            let outcome = core.remove_exclusion_zone(&source, name, all);
            let (success, message) = flatten(&outcome);
            let responded = request.respond(RemoveExclusionZone::Response { success, message });
            (outcome, responded.map_err(|e| e.to_string()))
        }
    };
    match &outcome {
        Ok(message) => r2r::log_info!(logger, "{message}"),
        Err(message) => r2r::log_warn!(logger, "{message}"),
    }
    if let Err(e) = responded {
        r2r::log_warn!(logger, "could not answer an exclusion zone request: {e}");
    }
}

/// A service's `success` and `message`.
fn flatten(outcome: &Result<String, String>) -> (bool, String) {
    match outcome {
        Ok(message) => (true, message.clone()),
        Err(message) => (false, message.clone()),
    }
}
