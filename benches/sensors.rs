//! Sensor messages into planar points ([`sat_collision::sensors`]): the
//! point clouds a depth camera or a lidar sends at sensor rate, and a laser
//! scan.
//!
//! ```bash
//! cargo bench --no-default-features --bench sensors
//! ```
//!
//! Each cloud is what a camera 1 m up, pitched 20° down, sees of a floor
//! with boxes on it: 60 % floor points, 30 % box points (0.1 to 0.6 m
//! high), 10 % NaN (no depth), in the camera's frame; the filter is the
//! camera's `to_base` (the full 3-D transform), heights `[0.05, 0.5]`,
//! `min_range` 0.1 m, so about 30 % of the points are kept. Every
//! iteration decodes, transforms and filters the whole cloud into a reused
//! `Vec` (no allocation once it has grown); the time per point is
//! criterion's time divided by the point count (its throughput).
//!
//! * `cloud/f32_le_dense/N`: x, y, z float32 little endian at 0, 4, 8 and
//!   an `rgb` at 12 (`point_step` 16), dense rows: the specialised loop;
//! * `cloud/f64_padded/N`: z, y, x float64 at 16, 8, 0, an intensity at 24
//!   (`point_step` 32), each row padded by 24 bytes: the general loop;
//! * `cloud/f32_be/N`: the first layout, big endian: the general loop;
//! * `scan/360`: a 360-range laser scan, 10 % of it `inf`.
//!
//! N is 24,000 (a 160 × 150 organised depth image) and 200,000 (a
//! 2,000 × 100 lidar sweep).

use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode, Throughput};
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use sat_collision::geometry::Point;
use sat_collision::sensors::{
    cloud_points, scan_points, CloudFilter, LaserScan, PointCloud, PointField,
};
use sat_collision_testkit::SplitMix64 as Rng;
use std::hint::black_box;
use std::time::Duration;

/// Cloud sizes: `(width, height)`.
const SIZES: [(u32, u32); 2] = [(160, 150), (2_000, 100)];

/// The camera in the base frame: 1 m up, pitched 20° down (about y).
fn camera() -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::new(0.2, 0.0, 1.0),
        UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 20f64.to_radians()),
    )
}

/// The scene's points in the camera's frame (NaN for no depth).
fn scene(n: usize, seed: u64) -> Vec<[f64; 3]> {
    let mut rng = Rng::new(seed);
    let to_camera = camera().inverse();
    (0..n)
        .map(|_| {
            let kind = rng.unit();
            if kind < 0.1 {
                return [f64::NAN; 3];
            }
            let (x, y) = (rng.range(0.5, 6.0), rng.range(-2.0, 2.0));
            let z = if kind < 0.7 { 0.0 } else { rng.range(0.1, 0.6) };
            let p = to_camera * Point3::new(x, y, z);
            [p.x, p.y, p.z]
        })
        .collect()
}

/// A cloud's bytes and fields.
struct Cloud {
    fields: Vec<(&'static str, u32, u8)>,
    data: Vec<u8>,
    width: u32,
    height: u32,
    point_step: u32,
    row_step: u32,
    big: bool,
}

impl Cloud {
    fn f32(points: &[[f64; 3]], (width, height): (u32, u32), big: bool) -> Cloud {
        let mut data = Vec::with_capacity(points.len() * 16);
        for p in points {
            for v in p.iter().map(|&v| v as f32).chain([0.5]) {
                data.extend_from_slice(&if big {
                    v.to_be_bytes()
                } else {
                    v.to_le_bytes()
                });
            }
        }
        Cloud {
            fields: vec![("x", 0, 7), ("y", 4, 7), ("z", 8, 7), ("rgb", 12, 7)],
            data,
            width,
            height,
            point_step: 16,
            row_step: 16 * width,
            big,
        }
    }

    fn f64_padded(points: &[[f64; 3]], (width, height): (u32, u32)) -> Cloud {
        let row_step = 32 * width + 24;
        let mut data = Vec::with_capacity((row_step * height) as usize);
        for row in points.chunks(width as usize) {
            for p in row {
                for v in [p[0], p[1], p[2], 100.0] {
                    data.extend_from_slice(&v.to_le_bytes());
                }
            }
            data.extend_from_slice(&[0; 24]);
        }
        Cloud {
            fields: vec![("z", 16, 8), ("y", 8, 8), ("x", 0, 8), ("intensity", 24, 8)],
            data,
            width,
            height,
            point_step: 32,
            row_step,
            big: false,
        }
    }

    fn fields(&self) -> Vec<PointField<'_>> {
        self.fields
            .iter()
            .map(|&(name, offset, datatype)| PointField {
                name: name.as_bytes(),
                offset,
                datatype,
                count: 1,
            })
            .collect()
    }

    fn view<'a>(&'a self, fields: &'a [PointField<'a>]) -> PointCloud<'a> {
        PointCloud {
            height: self.height,
            width: self.width,
            fields,
            is_bigendian: self.big,
            point_step: self.point_step,
            row_step: self.row_step,
            data: &self.data,
        }
    }
}

fn sensors(c: &mut Criterion) {
    let filter = CloudFilter {
        to_base: camera(),
        min_range: 0.1,
        ..CloudFilter::default()
    };
    let mut group = c.benchmark_group("cloud");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for size in SIZES {
        let n = (size.0 * size.1) as usize;
        let points = scene(n, 7);
        let clouds = [
            ("f32_le_dense", Cloud::f32(&points, size, false)),
            ("f64_padded", Cloud::f64_padded(&points, size)),
            ("f32_be", Cloud::f32(&points, size, true)),
        ];
        group.throughput(Throughput::Elements(n as u64));
        let mut kept = None;
        for (name, cloud) in &clouds {
            let fields = cloud.fields();
            let view = cloud.view(&fields);
            let mut out: Vec<Point> = Vec::new();
            let stats = cloud_points(&view, &filter, &mut out).expect("a valid cloud");
            // Every layout reads the same scene the same way (up to the
            // float32 rounding of points on a filter's edge).
            let first: usize = *kept.get_or_insert(stats.kept);
            assert!(first.abs_diff(stats.kept) <= n / 1000, "{name}: {stats:?}");
            assert!(
                stats.kept > n / 10 && stats.kept < n / 2,
                "{name}: {stats:?}"
            );
            group.bench_function(BenchmarkId::new(*name, n), |bench| {
                bench.iter(|| {
                    out.clear();
                    black_box(cloud_points(black_box(&view), &filter, &mut out)).ok()
                })
            });
        }
    }
    group.finish();

    let mut group = c.benchmark_group("scan");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    let mut rng = Rng::new(3);
    let ranges: Vec<f32> = (0..360)
        .map(|_| {
            if rng.chance(0.1) {
                f32::INFINITY
            } else {
                rng.range(0.2, 8.0) as f32
            }
        })
        .collect();
    let scan = LaserScan {
        angle_min: -std::f32::consts::PI,
        angle_max: std::f32::consts::PI,
        angle_increment: std::f32::consts::TAU / 360.0,
        range_min: 0.1,
        range_max: 12.0,
        ranges: &ranges,
    };
    let mut out: Vec<Point> = Vec::new();
    group.throughput(Throughput::Elements(ranges.len() as u64));
    group.bench_function(BenchmarkId::new("scan", ranges.len()), |bench| {
        bench.iter(|| {
            out.clear();
            black_box(scan_points(black_box(&scan), &mut out)).ok()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().nresamples(2_000).without_plots();
    targets = sensors
}

/// `SENSORS_RUNS=N`: each case N times outside criterion, timed one call
/// at a time; prints the fastest and the median call per case (the
/// fastest is the time of a call nothing interrupted: a measure that holds
/// on a shared machine, where criterion's means carry the other processes'
/// time slices). `SENSORS_CASE=f32_24000` runs that case alone (for
/// instruction counts under callgrind).
fn count_mode(runs: &str) {
    let runs: usize = runs.parse().expect("SENSORS_RUNS: a count");
    let only = std::env::var("SENSORS_CASE").ok();
    let mut out: Vec<Point> = Vec::new();
    let mut time = |name: String, n: usize, f: &mut dyn FnMut(&mut Vec<Point>) -> usize| {
        if only.as_ref().is_some_and(|o| *o != name) {
            return;
        }
        let mut times: Vec<u128> = (0..runs)
            .map(|_| {
                out.clear();
                let start = std::time::Instant::now();
                black_box(f(black_box(&mut out)));
                start.elapsed().as_nanos()
            })
            .collect();
        times.sort_unstable();
        let (min, median) = (times[0], times[runs / 2]);
        println!(
            "{name:>20}: min {min:>8} ns ({:.2} ns/point), median {median:>8} ns",
            min as f64 / n as f64
        );
    };
    for size in SIZES {
        let n = (size.0 * size.1) as usize;
        let points = scene(n, 7);
        let clouds = [
            ("f32", Cloud::f32(&points, size, false)),
            ("f64_padded", Cloud::f64_padded(&points, size)),
            ("f32_be", Cloud::f32(&points, size, true)),
        ];
        for (name, cloud) in &clouds {
            let fields = cloud.fields();
            let view = cloud.view(&fields);
            for min_range in [0.1, 0.0] {
                let filter = CloudFilter {
                    to_base: camera(),
                    min_range,
                    ..CloudFilter::default()
                };
                let case = if min_range > 0.0 {
                    format!("{name}_{n}")
                } else {
                    format!("{name}_{n}_no_min_range")
                };
                time(case, n, &mut |out| decode(&view, &filter, out));
            }
        }
    }
    let ranges: Vec<f32> = (0..360).map(|i| 1.0 + (i % 7) as f32).collect();
    let scan = LaserScan {
        angle_min: -std::f32::consts::PI,
        angle_max: std::f32::consts::PI,
        angle_increment: std::f32::consts::TAU / 360.0,
        range_min: 0.1,
        range_max: 12.0,
        ranges: &ranges,
    };
    time("scan_360".into(), 360, &mut |out| {
        scan_points(&scan, out).unwrap_or(0)
    });
}

#[inline(never)]
fn decode(view: &PointCloud<'_>, filter: &CloudFilter, out: &mut Vec<Point>) -> usize {
    cloud_points(view, filter, out).map_or(0, |s| s.kept)
}

fn main() {
    if let Ok(runs) = std::env::var("SENSORS_RUNS") {
        count_mode(&runs);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
