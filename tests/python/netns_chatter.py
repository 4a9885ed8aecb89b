"""A talker or a listener for tests/python/test_netns.py, run in a host of a netns.Lan.

    netns_chatter.py pub NAME TOPIC [RATE]   publish "NAME SEQ" (std_msgs/String) at RATE Hz
    netns_chatter.py sub NAME TOPIC          print "RECV SEQ SENDER T" per message (T: the
                                             arrival, time.monotonic(), the machine's clock)

Both print "READY" once their node and endpoint exist, flush every line, and stop on
SIGINT or SIGTERM. QoS: reliable, keep last 10 (rclpy's default).
"""

import signal
import sys
import time


def main(argv):
    mode, name, topic = argv[1], argv[2], argv[3]
    rate = float(argv[4]) if len(argv) > 4 else 20.0

    import rclpy
    from rclpy.executors import ExternalShutdownException
    from std_msgs.msg import String

    rclpy.init()
    signal.signal(signal.SIGTERM, lambda *_: rclpy.try_shutdown())
    node = rclpy.create_node(f'chatter_{name}')
    if mode == 'pub':
        pub = node.create_publisher(String, topic, 10)
        seq = [0]

        def tick():
            seq[0] += 1
            pub.publish(String(data=f'{name} {seq[0]}'))
        node.create_timer(1.0 / rate, tick)
    else:
        def on(msg):
            sender, seq = msg.data.split()
            print(f'RECV {seq} {sender} {time.monotonic():.6f}', flush=True)
        node.create_subscription(String, topic, on, 10)
    print('READY', flush=True)
    try:
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        rclpy.try_shutdown()


if __name__ == '__main__':
    main(sys.argv)
