//! The sources' exclusion zone services (nav2 main's `source.cpp`):
//! `~/<source>/add_exclusion_zone` (`nav2_msgs/srv/AddExclusionZone`) and
//! `~/<source>/remove_exclusion_zone` (`nav2_msgs/srv/RemoveExclusionZone`)
//! for each point source (scan, pointcloud, range), made at configure on
//! the I/O thread (which owns the node) as `~/toggle` is, and answered on
//! the event loop by the core (`Core::add_exclusion_zone`,
//! `Core::remove_exclusion_zone`): a description checked by the zone
//! parameters' own rules (`ExclusionZoneConfig::from_description`); a
//! refusal changes nothing and says why.
//!
//! The services exist where the `nav2_msgs` the bindings come from has them
//! (`cfg(nav2_exclusion_services)`, set by `build.rs`: this repository's
//! fallback has them, a regular Jazzy install's `nav2_msgs` has not); without
//! them the node offers none, says so at configure, and the zones of the
//! parameters still mask. The `visualize` zones' publishers
//! ([`ExclusionEdge`]) are here too.

use super::gate::header;
use crate::config::NodeConfig;
use crate::geometry::Point;
use crate::node::{shown, Core};
use crate::ros::tf::TfBuffer;
use futures::stream::LocalBoxStream;
use r2r::geometry_msgs::msg::{Point32, Polygon, PolygonStamped};
use r2r::QosProfile;

#[cfg(nav2_exclusion_services)]
pub(super) use services::{answer, create, ExclusionRequest};
#[cfg(not(nav2_exclusion_services))]
pub(super) use without::{answer, create, ExclusionRequest};

/// Says at configure that the services are not offered, where the bindings
/// lack them and some source could have zones.
pub(super) fn log_services(config: &NodeConfig, logger: &str) {
    if cfg!(nav2_exclusion_services) || config.sources.is_empty() {
        return;
    }
    r2r::log_warn!(
        logger,
        "this ROS install's nav2_msgs has no AddExclusionZone (nav2 main's): the sources' \
         add_exclusion_zone and remove_exclusion_zone services are not offered; the \
         exclusion zones of the parameters still mask"
    );
}

/// Every source's requests, on the event loop.
pub(super) type ExclusionRequests = LocalBoxStream<'static, ExclusionRequest>;

/// The services, where the bindings have them.
#[cfg(nav2_exclusion_services)]
mod services {
    use crate::config::{ExclusionDescription, ExclusionZoneConfig, NodeConfig};
    use crate::geometry::Point;
    use crate::monitor::SourceKind;
    use crate::node::{shown, Core};
    use futures::stream::BoxStream;
    use futures::StreamExt;
    use r2r::nav2_msgs::srv::{AddExclusionZone, RemoveExclusionZone};
    use r2r::{QosProfile, ServiceRequest};

    /// A request to one of a source's services, with the source's name.
    pub(crate) enum ExclusionRequest {
        /// `~/<source>/add_exclusion_zone`.
        Add(String, ServiceRequest<AddExclusionZone::Service>),
        /// `~/<source>/remove_exclusion_zone`.
        Remove(String, ServiceRequest<RemoveExclusionZone::Service>),
    }

    /// The two services of every point source of `config` on `node`, their
    /// requests merged into one stream.
    pub(crate) fn create(
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
            let remove = node.create_service::<RemoveExclusionZone::Service>(
                &remove_name,
                QosProfile::default(),
            )?;
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
    pub(crate) fn answer(core: &mut Core, request: ExclusionRequest, logger: &str) {
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
}

/// Without the services: no request ever comes.
#[cfg(not(nav2_exclusion_services))]
mod without {
    use crate::config::NodeConfig;
    use crate::node::Core;
    use futures::stream::BoxStream;
    use futures::StreamExt;

    /// No request (an enum without variants).
    pub(crate) enum ExclusionRequest {}

    /// No services: this ROS install's `nav2_msgs` has no
    /// `AddExclusionZone` (said at configure by the caller).
    pub(crate) fn create(
        _node: &mut r2r::Node,
        _config: &NodeConfig,
    ) -> r2r::Result<BoxStream<'static, ExclusionRequest>> {
        Ok(futures::stream::empty().boxed())
    }

    /// Never called: there is no request.
    pub(crate) fn answer(_core: &mut Core, request: ExclusionRequest, _logger: &str) {
        match request {}
    }
}

/// Segments of a circle zone's outline (`PolygonStamped`), as the gate's.
const CIRCLE_SEGMENTS: usize = 32;

/// The `visualize` exclusion zones' publishers (`~/<zone>`, nav2's), made
/// at configure for the zones of the parameters: each enabled one placed
/// now in the base frame is published at every tick while active; one that
/// cannot be placed is not (it masks nothing). A zone added over the
/// service is not published (its publisher would have to be made on the I/O
/// thread at run time).
pub(super) struct ExclusionEdge {
    publishers: Vec<(String, r2r::Publisher<PolygonStamped>)>,
    drawn: Vec<(String, Vec<Point>)>,
    base_frame: String,
}

impl ExclusionEdge {
    /// The publishers of `config`'s `visualize` zones on `node`; `None`
    /// when there is none.
    pub(super) fn create(node: &mut r2r::Node, config: &NodeConfig) -> r2r::Result<Option<Self>> {
        let mut publishers = Vec::new();
        for zone in config.exclusion_zones.iter().filter(|z| z.visualize) {
            let topic = format!("~/{}", zone.name);
            let publisher =
                node.create_publisher::<PolygonStamped>(&topic, QosProfile::default())?;
            publishers.push((zone.name.clone(), publisher));
        }
        Ok((!publishers.is_empty()).then(|| ExclusionEdge {
            publishers,
            drawn: Vec::new(),
            base_frame: config.monitor.base_frame.clone(),
        }))
    }

    /// Publishes each zone placed now (ROS time `now`), with `tf`.
    pub(super) fn publish(&mut self, core: &Core, tf: &TfBuffer, now: f64, logger: &str) {
        let zones = core.exclusion_zones();
        zones.drawn(&tf.tree, now, CIRCLE_SEGMENTS, &mut self.drawn);
        for (name, outline) in &self.drawn {
            let Some((_, publisher)) = self.publishers.iter().find(|(n, _)| n == name) else {
                continue;
            };
            let msg = PolygonStamped {
                header: header(&self.base_frame, now),
                polygon: Polygon {
                    points: outline
                        .iter()
                        .map(|p| Point32 {
                            x: p.x as f32,
                            y: p.y as f32,
                            z: 0.0,
                        })
                        .collect(),
                },
            };
            if let Err(e) = publisher.publish(&msg) {
                r2r::log_warn!(
                    logger,
                    "could not publish exclusion zone {}: {e}",
                    shown(name)
                );
            }
        }
    }

    /// The publishers, for cleanup.
    pub(super) fn release(self) -> Vec<super::threads::Release> {
        self.publishers
            .into_iter()
            .map(|(_, p)| super::threads::release(p))
            .collect()
    }
}
