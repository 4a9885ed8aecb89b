"""The network-namespace LAN of tests/python/netns.py, proven with rclpy across hosts.

* Three hosts: a talker in h1, listeners in h2 and h3 receive (Fast DDS over UDPv4 only,
  discovery by multicast on the LAN: ROS_AUTOMATIC_DISCOVERY_RANGE=SUBNET); no host
  process maps a Fast DDS shared-memory segment.
* h2's port on the switch down: h2 receives nothing more while h3 still does; up again:
  h2 receives new messages (the time it took is printed).
* Nothing escaped: the root namespace's interfaces are the same before, during and after;
  no host has a route out of its /24 (no default route; a TEST-NET-1 address is
  unreachable); the switch's namespace holds no address; a socket in the root namespace
  joined to the discovery group on the run's discovery port hears nothing from the LAN;
  after the test no namespace of the LAN is left.
* The `lan` fixture: hosts reach each other (a UDP echo); a link down on the switch's side, the host's
  or both cuts one host off, up again reconnects it.
* Teardown: after an exception in the `with`, and after SIGTERM to a process holding a
  LAN, its processes and namespaces are gone; a LAN left by a process that no longer
  exists is removed by the next one. Where namespaces cannot be made, the skip says why.

Each test takes a few seconds (scripts/test.sh runs them as root, as CI does).
"""

import ipaddress
import math
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import netns
from netns import DISCOVERY_GROUP, Lan, lan, require_netns, root_links  # noqa: F401

assert lan  # a fixture, used by name below

HERE = Path(__file__).resolve().parent
CHATTER = HERE / 'netns_chatter.py'
PYTHON = os.environ.get('SAT_COLLISION_PYTHON') or sys.executable
TOPIC = '/netns_chatter'
RATE = 20.0  # Hz, the talker's


def received(proc, after=-math.inf, before=math.inf):
    """[(seq, arrival)] of the RECV lines of a listener, arrival in (after, before]."""
    got = []
    for line in list(proc.lines):
        m = re.match(r'^RECV (\d+) \S+ ([0-9.]+)$', line)
        if m and after < float(m.group(2)) <= before:
            got.append((int(m.group(1)), float(m.group(2))))
    return got


def wait_until(predicate, what, timeout, procs=()):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            outputs = '\n'.join(f'--- {p.args}:\n{p.output[-2000:]}' for p in procs)
            raise AssertionError(f'{what}: not within {timeout} s\n{outputs}')
        time.sleep(0.02)
    return time.monotonic()


class RootListener:
    """A UDP socket in the root namespace, joined to Fast DDS's discovery group on the
    domain's discovery port (7400 + 250 * domain, the RTPS well-known port; shared with
    any participant there), that keeps what comes from `subnet`."""

    def __init__(self, domain_id):
        self.port = 7400 + 250 * domain_id
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
        # Beside any participant bound there (Fast DDS binds its multicast port with
        # SO_REUSEADDR too); multicast reaches every socket bound to the port.
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(('', self.port))
        mreq = struct.pack('4s4s', socket.inet_aton(DISCOVERY_GROUP), socket.inet_aton('0.0.0.0'))
        self.sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq)
        self.sock.setblocking(False)

    def from_net(self, net):
        heard = []
        while True:
            try:
                _, (addr, _) = self.sock.recvfrom(65536)
            except BlockingIOError:
                break
            if ipaddress.ip_address(addr) in net:
                heard.append(addr)
        self.sock.close()
        return heard


def test_talker_and_listeners_across_hosts_and_a_link_taken_down():
    require_netns()
    t_start = time.monotonic()
    before = root_links()
    listener = RootListener(netns.run_domain_id())
    with Lan(3) as lan:
        t_built = time.monotonic()
        h1, h2, h3 = lan.hosts
        assert root_links() == before, 'the LAN changed the root namespace\'s interfaces'
        # No way out: a connected route for the /24 and the multicast route, nothing else.
        for h in lan.hosts:
            routes = h.run(['ip', '-4', 'route', 'show']).stdout.strip().splitlines()
            assert sorted(r.split()[0] for r in routes) == sorted(
                [str(lan.subnet), netns.MULTICAST]), (h, routes)
            out = h.run(['ip', 'route', 'get', '192.0.2.1'], check=False)
            assert out.returncode != 0 and 'unreachable' in out.stderr, (h, out)
        sw_addrs = netns.ip('-4', '-o', 'addr', 'show', ns=lan.switch).stdout
        assert [line.split()[1] for line in sw_addrs.splitlines()] == ['lo'], sw_addrs

        env = lan.ros_env()
        talker = h1.popen([PYTHON, CHATTER, 'pub', 'h1', TOPIC, RATE], env=env)
        l2 = h2.popen([PYTHON, CHATTER, 'sub', 'h2', TOPIC], env=env)
        l3 = h3.popen([PYTHON, CHATTER, 'sub', 'h3', TOPIC], env=env)
        procs = (talker, l2, l3)
        for p in procs:
            p.wait_for('^READY$', timeout=30)
        t_ready = time.monotonic()
        # Discovery (multicast on the LAN) then data (unicast): both listeners receive.
        t_both = wait_until(lambda: received(l2) and received(l3),
                            'h2 and h3 receiving from h1', 15, procs)
        for p in procs:
            assert netns.fastdds_shm_segments(p.proc.pid) == [], (p.args, 'maps shared memory')

        # Flowing to both for 1 s.
        time.sleep(1.0)
        t_down = time.monotonic()
        h2.link_down()
        # What was already on its way may land; after 0.25 s nothing more.
        time.sleep(2.5)
        t_up = time.monotonic()
        late = received(l2, t_down + 0.25, t_up)
        assert late == [], f'h2 received with its link down: {late}'
        during = received(l3, t_down + 0.25, t_up)
        assert len(during) >= RATE * 2.25 * 0.5, f'h3 received {len(during)} in 2.25 s'

        # Up again: h2 receives messages published after the link came back (reliable
        # QoS also re-sends the last ones kept from before: those do not count).
        newest_before = max(seq for seq, _ in received(l3, before=t_up))
        h2.link_up()
        t_back = wait_until(
            lambda: any(seq > newest_before for seq, _ in received(l2, t_up)),
            'h2 receiving again after its link came up', 10, procs)
        time.sleep(0.5)
        assert len([s for s, _ in received(l2, t_up) if s > newest_before]) >= 5

        # The traffic went through the switch, and discovery joined the group on eth0.
        ports = lan.port_counters()
        assert all(rx > 0 and tx > 0 for rx, tx in ports.values()), ports
        groups = h2.run(['ip', 'maddr', 'show', 'dev', netns.HOST_IF]).stdout
        assert DISCOVERY_GROUP in groups, groups
        assert root_links() == before
        tag = lan.tag
    t_end = time.monotonic()
    assert root_links() == before
    assert not [ns for ns in netns._namespaces() if ns.startswith(tag)]
    assert listener.from_net(netns.BENCHMARKING) == []
    print(f'LAN built in {t_built - t_start:.2f} s; processes ready {t_ready - t_built:.2f} s '
          f'after; both receiving {t_both - t_ready:.2f} s later; h2 receiving new messages '
          f'{t_back - t_up:.2f} s after its link came up; torn down in '
          f'{t_end - t_back - 0.5:.2f} s; total {t_end - t_start:.2f} s')


ECHO_PORT = 7
_ECHO = textwrap.dedent('''
    import socket
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(('', 7))
    print('READY', flush=True)
    while True:
        data, peer = s.recvfrom(100)
        s.sendto(data, peer)
''')
_ASK = textwrap.dedent('''
    import socket, sys
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(float(sys.argv[2]))
    s.sendto(b'hello', (sys.argv[1], 7))
    assert s.recvfrom(100)[0] == b'hello'
''')


def answers(host, addr, timeout=0.5):
    """Whether `addr` (running _ECHO) echoes a datagram from `host` within `timeout`."""
    r = host.run([PYTHON, '-c', _ASK, addr, timeout], check=False)
    return r.returncode == 0


def test_lan_fixture_links_down_and_up(lan):
    """The `lan` fixture (three hosts): every host reaches every other (a UDP echo); a
    link down on either side, or both, cuts a host off; both ends up reconnect it."""
    h1, h2, h3 = lan.hosts
    for h in (h2, h3):
        h.popen([PYTHON, '-c', _ECHO]).wait_for('^READY$', timeout=10)
    assert answers(h1, h2.addr) and answers(h1, h3.addr) and answers(h2, h3.addr)
    for side in ('switch', 'host', 'both'):
        h2.link_down(side)
        assert not answers(h1, h2.addr), side
        assert not answers(h2, h3.addr, 0.2), side
        assert answers(h1, h3.addr), side
        h2.link_up()
        assert any(answers(h1, h2.addr) for _ in range(3)), side


def test_teardown_after_an_exception_kills_processes_and_deletes_namespaces():
    require_netns()
    with pytest.raises(RuntimeError, match='inside'):
        with Lan(2) as lan:
            sleeper = lan.hosts[0].popen(['sleep', '60'])
            # A grandchild in the same process group.
            shell = lan.hosts[1].popen(['sh', '-c', 'sleep 60 & sleep 60; wait'])
            assert lan.hosts[0].run(['ip', 'netns', 'identify']).stdout.strip() == \
                lan.hosts[0].ns
            raise RuntimeError('inside the LAN')
    assert sleeper.proc.poll() is not None and shell.proc.poll() is not None
    # The shell's background child (it ignores SIGINT) went with its group.
    assert living_in_group(shell.proc.pid) == []


def living_in_group(pgid):
    """The processes of process group `pgid` that are not zombies (a killed orphan waits
    for its reaper as a zombie)."""
    living = []
    for stat in Path('/proc').glob('[0-9]*/stat'):
        try:
            fields = stat.read_text().rsplit(')', 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != 'Z':
            living.append(int(stat.parent.name))
    return living
    assert not [ns for ns in netns._namespaces() if ns.startswith(lan.tag)]


_HOLDER = textwrap.dedent('''
    import sys, time
    sys.path.insert(0, {here!r})
    from netns import Lan
    with Lan(2) as lan:
        p = lan.hosts[0].popen(['sleep', '60'])
        print(lan.tag, p.proc.pid, flush=True)
        time.sleep(60)
''')


def test_sigterm_to_a_process_holding_a_lan_tears_it_down():
    require_netns()
    holder = subprocess.Popen([PYTHON, '-c', _HOLDER.format(here=str(HERE))],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        tag, pid = holder.stdout.readline().split()
        assert [ns for ns in netns._namespaces() if ns.startswith(tag)]
        holder.send_signal(signal.SIGTERM)
        holder.wait(15)
    finally:
        holder.kill()
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid), 0)
    assert not [ns for ns in netns._namespaces() if ns.startswith(tag)]


def test_a_lan_left_by_a_gone_process_is_removed():
    require_netns()
    gone = subprocess.Popen(['true'])
    gone.wait()
    stale = f'{netns.PREFIX}{gone.pid}-0h1'
    netns.ip('netns', 'add', stale)
    try:
        with Lan(1):
            assert stale not in netns._namespaces()
    finally:
        netns.ip('netns', 'del', stale, check=False)


def test_skip_says_why_without_root(monkeypatch):
    monkeypatch.setattr(netns, '_probe_result', None)
    monkeypatch.setattr(os, 'geteuid', lambda: 1000)
    assert netns.netns_unavailable() == ('network namespaces need root (CAP_SYS_ADMIN, '
                                         'CAP_NET_ADMIN); running as uid 1000')
    with pytest.raises(pytest.skip.Exception, match='running as uid 1000'):
        require_netns()
