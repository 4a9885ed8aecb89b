#!/usr/bin/env python3
"""A closed-loop simulated robot for tests of sat_collision_node (one robot per process;
it runs as well in a host of tests/python/netns.py's LAN as on the test's own machine).

    fleet_sim.py --ns /robot1 --out robot1.jsonl [--x 0 --y 0 --yaw 0] [--vx 1.0 --wz 0]

An rclpy node `fleet_sim` in namespace --ns that, in the node's topic names (all relative,
so they land in the robot's namespace; each one an option):

* publishes the planner's command, a constant geometry_msgs/Twist (--vx, --vy, --wz), on
  the gate's input `cmd_vel_smoothed` at --cmd-rate Hz (nav2's cmd_vel_in_topic,
  config/collision_monitor.yaml);
* drives on the GATED command, the node's output `cmd_vel` (cmd_vel_out_topic): every
  1/--rate s (50 Hz) the pose moves by the newest gated command (a body twist, integrated
  as an arc over the step actually elapsed). A command older than --cmd-timeout is taken
  as zero, as a base's watchdog does, so a gate that stops (zeros, then silence) stops
  the robot;
* publishes, stamped now at every step, REP 105's frames: map -> odom static identity on
  `tf_static` (reliable, transient local), odom -> base_footprint (the pose) on `tf`; the
  robot's footprint (geometry_msgs/PolygonStamped, --footprint in the base frame) placed
  at the pose in --footprint-frame (map) on `footprint`; its velocity as nav_msgs/Odometry
  (twist in base_footprint) on `odom` (the node's velocity_topic);
* records, one JSON object a line in --out (flushed per line): every step's pose
  ({"kind": "pose", "t", "x", "y", "yaw", "vx", "vy", "wz"}), every gated command
  ({"kind": "cmd_out", "t", "vx", "vy", "wz"}) and every `collision` and
  `collision_ahead` flag ({"kind": "collision" | "collision_ahead", "t", "data", "x",
  "y"}, with the pose when it arrived); with --fleet-topic, every fleet message heard
  ({"kind": "fleet", "t", "id", "seq", "stamp", "x", "y", "yaw"}); with --report-topic,
  the node's `collision_report` whenever its fleet part changes ({"kind": "report",
  "t", "valid", "status", "fleet": {result id: status}} for the results whose id is
  --report-source or starts with "<--report-source>/"). t is time.monotonic() (the
  machine's clock, shared by every namespace).

With --run-file the planner publishes only while that file exists (else the robot
stands, its watchdog holding it; a 'run' record {"kind": "run", "t", "on"} marks each
change): a test starts and stops several robots at chosen moments.

TF goes on `tf` and `tf_static` in the robot's namespace, as nav2 does for several robots
(start the node with `-r /tf:=tf -r /tf_static:=tf_static`); --tf /tf --tf-static
/tf_static for the global ones. Prints READY once its endpoints exist; stops on SIGINT,
SIGTERM or after --duration s (0: never).
"""

import argparse
import json
import math
import signal
import sys
import time


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--ns', default='/robot1', help='the robot\'s namespace')
    p.add_argument('--out', required=True, help='the JSON lines record')
    p.add_argument('--x', type=float, default=0.0)
    p.add_argument('--y', type=float, default=0.0)
    p.add_argument('--yaw', type=float, default=0.0)
    p.add_argument('--vx', type=float, default=1.0, help='the planner\'s command (m/s)')
    p.add_argument('--vy', type=float, default=0.0)
    p.add_argument('--wz', type=float, default=0.0, help='(rad/s)')
    p.add_argument('--rate', type=float, default=50.0, help='simulation steps per second')
    p.add_argument('--cmd-rate', type=float, default=20.0, help='planner commands per second')
    p.add_argument('--cmd-timeout', type=float, default=0.5,
                   help='a gated command older than this counts as zero (s)')
    p.add_argument('--footprint', default='[[0.3, 0.2], [0.3, -0.2], [-0.3, -0.2], [-0.3, 0.2]]',
                   help='the footprint in the base frame, nav2\'s form')
    p.add_argument('--map-frame', default='map')
    p.add_argument('--odom-frame', default='odom')
    p.add_argument('--base-frame', default='base_footprint')
    p.add_argument('--footprint-frame', default='map',
                   help='the frame the footprint is published in (placed at the pose)')
    p.add_argument('--cmd-in', default='cmd_vel_smoothed', help='the gate\'s cmd_vel_in_topic')
    p.add_argument('--cmd-out', default='cmd_vel', help='the gate\'s cmd_vel_out_topic')
    p.add_argument('--footprint-topic', default='footprint', help='empty: not published')
    p.add_argument('--odom-topic', default='odom', help='the node\'s velocity_topic')
    p.add_argument('--collision-topic', default='collision')
    p.add_argument('--collision-ahead-topic', default='collision_ahead')
    p.add_argument('--tf', default='tf')
    p.add_argument('--tf-static', default='tf_static')
    p.add_argument('--duration', type=float, default=0.0, help='stop after this (s); 0: never')
    p.add_argument('--run-file', default='',
                   help='publish commands only while this file exists (empty: always)')
    p.add_argument('--fleet-topic', default='',
                   help='record the fleet messages heard there (sat_collision_msgs/FleetRobot)')
    p.add_argument('--report-topic', default='',
                   help='record the fleet results of the node\'s report there')
    p.add_argument('--report-source', default='fleet', help='the fleet source\'s name')
    args = p.parse_args(argv)
    args.footprint_points = [(float(x), float(y)) for x, y in json.loads(args.footprint)]
    if len(args.footprint_points) < 3:
        p.error('--footprint needs at least 3 points')
    return args


def step_pose(x, y, yaw, vx, vy, wz, dt):
    """The pose after a body twist held for dt (an arc; straight when wz is 0)."""
    if abs(wz) < 1e-9:
        c, s = math.cos(yaw), math.sin(yaw)
        return x + (vx * c - vy * s) * dt, y + (vx * s + vy * c) * dt, yaw
    th = wz * dt
    # The body-frame displacement of a constant twist over dt, then rotated by yaw.
    dx = (vx * math.sin(th) - vy * (1 - math.cos(th))) / wz
    dy = (vx * (1 - math.cos(th)) + vy * math.sin(th)) / wz
    c, s = math.cos(yaw), math.sin(yaw)
    return x + dx * c - dy * s, y + dx * s + dy * c, math.atan2(math.sin(yaw + th),
                                                                math.cos(yaw + th))


class Sim:
    def __init__(self, args):
        import rclpy
        from geometry_msgs.msg import PolygonStamped, Twist
        from nav_msgs.msg import Odometry
        from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
        from std_msgs.msg import Bool
        from tf2_msgs.msg import TFMessage

        self.args = args
        self.rclpy = rclpy
        self.node = rclpy.create_node('fleet_sim', namespace=args.ns)
        self.out = open(args.out, 'a', encoding='utf-8')
        self.x, self.y, self.yaw = args.x, args.y, args.yaw
        self.cmd = (0.0, 0.0, 0.0)
        self.cmd_at = -math.inf
        self.last_step = None
        self.TFMessage = TFMessage
        static_qos = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                                reliability=ReliabilityPolicy.RELIABLE)
        self.static_pub = self.node.create_publisher(TFMessage, args.tf_static, static_qos)
        self.tf_pub = self.node.create_publisher(TFMessage, args.tf, 100)
        self.footprint_pub = (self.node.create_publisher(PolygonStamped, args.footprint_topic, 10)
                              if args.footprint_topic else None)
        self.odom_pub = self.node.create_publisher(Odometry, args.odom_topic, 10)
        self.cmd_pub = self.node.create_publisher(Twist, args.cmd_in, 10)
        self.node.create_subscription(Twist, args.cmd_out, self.on_cmd_out, 10)
        self.node.create_subscription(Bool, args.collision_topic,
                                      lambda m: self.on_flag('collision', m), 10)
        self.node.create_subscription(Bool, args.collision_ahead_topic,
                                      lambda m: self.on_flag('collision_ahead', m), 10)
        self.running = None
        if args.fleet_topic:
            from rclpy.qos import qos_profile_sensor_data
            from sat_collision_msgs.msg import FleetRobot

            self.node.create_subscription(FleetRobot, args.fleet_topic, self.on_fleet,
                                          qos_profile_sensor_data)
        self.last_report = None
        if args.report_topic:
            from sat_collision_msgs.msg import CollisionReport

            self.node.create_subscription(CollisionReport, args.report_topic,
                                          self.on_report, 10)
        stamp = self.node.get_clock().now().to_msg()
        self.static_pub.publish(TFMessage(transforms=[
            self.transform(args.map_frame, args.odom_frame, 0.0, 0.0, 0.0, stamp)]))
        self.node.create_timer(1.0 / args.rate, self.step)
        self.node.create_timer(1.0 / args.cmd_rate, self.plan)
        self.record('start', ns=args.ns, x=self.x, y=self.y, yaw=self.yaw,
                    cmd=[args.vx, args.vy, args.wz])

    def record(self, kind, **fields):
        self.out.write(json.dumps({'kind': kind, 't': round(time.monotonic(), 6), **fields})
                       + '\n')
        self.out.flush()

    @staticmethod
    def transform(parent, child, x, y, yaw, stamp):
        from geometry_msgs.msg import TransformStamped

        t = TransformStamped()
        t.header.frame_id, t.header.stamp, t.child_frame_id = parent, stamp, child
        t.transform.translation.x, t.transform.translation.y = float(x), float(y)
        t.transform.rotation.z, t.transform.rotation.w = math.sin(yaw / 2), math.cos(yaw / 2)
        return t

    def plan(self):
        import os

        from geometry_msgs.msg import Twist, Vector3

        a = self.args
        if a.run_file:
            running = os.path.exists(a.run_file)
            if running != self.running:
                self.running = running
                self.record('run', on=running)
            if not running:
                return
        self.cmd_pub.publish(Twist(linear=Vector3(x=a.vx, y=a.vy), angular=Vector3(z=a.wz)))

    def on_cmd_out(self, msg):
        self.cmd = (msg.linear.x, msg.linear.y, msg.angular.z)
        self.cmd_at = time.monotonic()
        self.record('cmd_out', vx=msg.linear.x, vy=msg.linear.y, wz=msg.angular.z)

    def on_fleet(self, msg):
        q = msg.pose.orientation
        self.record('fleet', id=msg.robot_id, seq=msg.sequence,
                    stamp=msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9,
                    x=round(msg.pose.position.x, 6), y=round(msg.pose.position.y, 6),
                    yaw=round(2 * math.atan2(q.z, q.w), 6))

    def on_report(self, msg):
        prefix = self.args.report_source
        fleet = {r.id: r.status for r in msg.results
                 if r.id == prefix or r.id.startswith(prefix + '/')}
        key = (msg.valid, msg.status, tuple(sorted(fleet.items())))
        if key != self.last_report:
            self.last_report = key
            self.record('report', valid=bool(msg.valid), status=msg.status, fleet=fleet)

    def on_flag(self, kind, msg):
        self.record(kind, data=bool(msg.data), x=round(self.x, 6), y=round(self.y, 6))

    def velocity(self, now):
        if now - self.cmd_at > self.args.cmd_timeout:
            return (0.0, 0.0, 0.0)
        return self.cmd

    def step(self):
        from geometry_msgs.msg import Point32, PolygonStamped
        from nav_msgs.msg import Odometry

        a = self.args
        now = time.monotonic()
        vx, vy, wz = self.velocity(now)
        if self.last_step is not None:
            # The step actually elapsed (timers run late on a loaded machine), at most
            # five nominal steps.
            dt = min(now - self.last_step, 5.0 / a.rate)
            self.x, self.y, self.yaw = step_pose(self.x, self.y, self.yaw, vx, vy, wz, dt)
        self.last_step = now
        stamp = self.node.get_clock().now().to_msg()
        self.tf_pub.publish(self.TFMessage(transforms=[
            self.transform(a.odom_frame, a.base_frame, self.x, self.y, self.yaw, stamp)]))
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        fp = PolygonStamped()
        fp.header.frame_id, fp.header.stamp = a.footprint_frame, stamp
        # map and odom coincide (the static identity): the pose in odom is the pose in
        # map too.
        if a.footprint_frame == a.base_frame:
            placed = a.footprint_points
        else:
            placed = [(self.x + px * c - py * s, self.y + px * s + py * c)
                      for px, py in a.footprint_points]
        fp.polygon.points = [Point32(x=float(px), y=float(py), z=0.0) for px, py in placed]
        if self.footprint_pub is not None:
            self.footprint_pub.publish(fp)
        odom = Odometry()
        odom.header.frame_id, odom.header.stamp = a.odom_frame, stamp
        odom.child_frame_id = a.base_frame
        odom.pose.pose.position.x, odom.pose.pose.position.y = self.x, self.y
        odom.pose.pose.orientation.z = math.sin(self.yaw / 2)
        odom.pose.pose.orientation.w = math.cos(self.yaw / 2)
        odom.twist.twist.linear.x, odom.twist.twist.linear.y = vx, vy
        odom.twist.twist.angular.z = wz
        self.odom_pub.publish(odom)
        self.record('pose', x=round(self.x, 6), y=round(self.y, 6), yaw=round(self.yaw, 6),
                    vx=vx, vy=vy, wz=wz)

    def close(self):
        self.out.close()


def main(argv):
    args = parse_args(argv)
    import rclpy
    from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor

    rclpy.init()
    signal.signal(signal.SIGTERM, lambda *_: rclpy.try_shutdown())
    sim = Sim(args)
    executor = SingleThreadedExecutor()
    executor.add_node(sim.node)
    print('READY', flush=True)
    end = time.monotonic() + args.duration if args.duration > 0 else math.inf
    try:
        while rclpy.ok() and time.monotonic() < end:
            executor.spin_once(timeout_sec=0.1)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        sim.close()
        rclpy.try_shutdown()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
