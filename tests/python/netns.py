"""A little LAN of Linux network namespaces, for tests of ROS 2 nodes on separate "hosts".

    with Lan(3) as lan:                       # or the `lan` fixture below
        env = lan.ros_env()                   # ROS 2 over UDPv4 on the LAN (see ros_env)
        p = lan.hosts[0].popen([python, 'talker.py'], env=env)
        lan.hosts[1].link_down()              # its port on the switch down
        lan.hosts[1].link_up()
        lan.hosts[2].run(['ip', 'addr'])      # a command in the host, to its end

Layout (nothing is created in the root namespace, not even for a moment):

    namespace <tag>sw   the switch: a Linux bridge `br0` (multicast snooping off: it floods
                        multicast like an unmanaged switch), one port `p<i>` per host
    namespace <tag>h<i> host i (1..N): `lo` up, `eth0` (the other end of p<i>) with
                        198.18|19.<x>.<i>/24, a route for multicast (224.0.0.0/4) on eth0
                        and no other route: nothing can leave the LAN

<tag> is `scn<pid>-<k>` (k counts the LANs of this process): unique on the machine,
and short (`ip netns` names are free; the interface names are at most 4 characters,
well within IFNAMSIZ). The /24 is one of the 512 of the benchmarking range
198.18.0.0/15 (RFC 2544), chosen from the PID and k, so that concurrent runs use
different subnets (they could not meet anyway: each LAN has its own bridge in its own
namespace).

Teardown always runs (the context manager's exit, also on a failed or interrupted test;
SIGTERM is turned into KeyboardInterrupt while a LAN is up, if nothing else handles it):
every process started with `popen` is stopped by its process group (SIGINT, then
SIGKILL), any process left in a namespace is killed, and the namespaces are deleted. A
run killed outright (SIGKILL) leaves its namespaces behind: the next `Lan` removes those
whose PID is gone.

Needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN) and iproute2: `require_netns()` skips the
test, saying exactly why, where network namespaces cannot be made.
"""

import atexit
import ctypes
import ipaddress
import itertools
import os
import re
import shutil
import signal
import subprocess
import threading
import time

import pytest

from satpkg_support import Proc

PREFIX = 'scn'
BENCHMARKING = ipaddress.ip_network('198.18.0.0/15')
BRIDGE = 'br0'
HOST_IF = 'eth0'
MULTICAST = '224.0.0.0/4'
# Fast DDS's default discovery multicast group (the RTPS specification's).
DISCOVERY_GROUP = '239.255.0.1'

_counter = itertools.count()
_open = []  # the Lans not torn down yet
_open_lock = threading.Lock()
_probe_result = None  # None: not probed; '' : usable; else the reason to skip


def ip(*args, ns=None, check=True, timeout=30):
    """`ip [-n ns] args...`: the CompletedProcess (stdout and stderr as text); raises
    with both on failure when `check`."""
    cmd = ['ip'] + (['-n', ns] if ns else []) + [str(a) for a in args]
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=timeout)
    if check and r.returncode != 0:
        raise RuntimeError(f'{" ".join(cmd)} failed ({r.returncode}): '
                           f'{(r.stderr or r.stdout).strip()}')
    return r


def netns_unavailable():
    """Why network namespaces cannot be made here ('' when they can): not root, no `ip`,
    or `ip netns add` / a bridge / a veth pair refused (the kernel's message). Probed
    once per process."""
    global _probe_result
    if _probe_result is not None:
        return _probe_result
    if os.geteuid() != 0:
        _probe_result = (f'network namespaces need root (CAP_SYS_ADMIN, CAP_NET_ADMIN); '
                         f'running as uid {os.geteuid()}')
        return _probe_result
    if shutil.which('ip') is None:
        _probe_result = 'no `ip` command (iproute2) on PATH'
        return _probe_result
    probe = f'{PREFIX}{os.getpid()}-probe'
    r = ip('netns', 'add', probe, check=False)
    if r.returncode != 0:
        _probe_result = f'`ip netns add {probe}` failed: {(r.stderr or r.stdout).strip()}'
        return _probe_result
    try:
        for what, args in (('a bridge', ('link', 'add', 'b0', 'type', 'bridge')),
                           ('a veth pair', ('link', 'add', 'v0', 'type', 'veth',
                                            'peer', 'name', 'v1'))):
            r = ip(*args, ns=probe, check=False)
            if r.returncode != 0:
                _probe_result = (f'cannot create {what} in a network namespace '
                                 f'(`ip {" ".join(args)}`): {(r.stderr or r.stdout).strip()}')
                return _probe_result
        _probe_result = ''
        return _probe_result
    finally:
        ip('netns', 'del', probe, check=False)


def require_netns():
    """pytest.skip, saying why, where network namespaces cannot be made."""
    reason = netns_unavailable()
    if reason:
        pytest.skip(f'network namespace tests skipped: {reason}')


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _kill_namespace_pids(ns):
    r = ip('netns', 'pids', ns, check=False)
    for pid in r.stdout.split():
        try:
            os.kill(int(pid), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass


def _delete_namespace(ns):
    """Kill what is left in `ns` and delete it: '' or what failed."""
    _kill_namespace_pids(ns)
    r = ip('netns', 'del', ns, check=False)
    if r.returncode != 0 and ns in _namespaces():
        return f'ip netns del {ns}: {(r.stderr or r.stdout).strip()}'
    return ''


def _namespaces():
    r = ip('netns', 'list', check=False)
    return [line.split()[0] for line in r.stdout.splitlines() if line.strip()]


def sweep_stale():
    """Delete the namespaces of earlier runs whose process is gone (a run killed outright).
    Returns their names."""
    gone = []
    for ns in _namespaces():
        m = re.match(rf'^{PREFIX}(\d+)-', ns)
        if m and int(m.group(1)) != os.getpid() and not _pid_alive(int(m.group(1))):
            if not _delete_namespace(ns):
                gone.append(ns)
    return gone


def subnet_for(pid, k):
    """The /24 of 198.18.0.0/15 for LAN k of process `pid` (one of 512)."""
    index = (pid * 7 + k) % 512
    return ipaddress.ip_network(f'{BENCHMARKING.network_address + index * 256}/24')


def run_domain_id():
    """The run's ROS_DOMAIN_ID (scripts/test.sh sets one per run), else 1 + PID % 100 as
    the other tests take it."""
    return int(os.environ.get('ROS_DOMAIN_ID') or 1 + os.getpid() % 100)


_PR_SET_PDEATHSIG = 1


def _die_with_parent():
    try:
        ctypes.CDLL('libc.so.6', use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass


class HostProc(Proc):
    """A process in a host namespace (satpkg_support.Proc: its own session and process
    group, output collected line by line, killed with the test process), each line also
    kept with its arrival (time.monotonic()) in `timed`."""

    def __init__(self, host, args, env=None, cwd=None):
        self.host = host
        self.timed = []
        super().__init__(['ip', 'netns', 'exec', host.ns, *args], cwd=cwd or '/', env=env)

    def _read(self):
        for line in self.proc.stdout:
            with self._cond:
                self.lines.append(line.rstrip('\n'))
                self.timed.append((time.monotonic(), line.rstrip('\n')))
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def since(self, t):
        """Lines that arrived after monotonic time t."""
        with self._cond:
            return [line for at, line in self.timed if at > t]


class Host:
    """One host of a Lan: namespace `ns`, interface `eth0` with `addr`, plugged into the
    switch's port `port`."""

    def __init__(self, lan, index):
        self.lan = lan
        self.index = index  # 1..N
        self.name = f'h{index}'
        self.ns = f'{lan.tag}h{index}'
        self.port = f'p{index}'
        self.iface = HOST_IF
        self.addr = str(lan.subnet.network_address + index)

    def __repr__(self):
        return f'<Host {self.name} {self.ns} {self.addr}>'

    def run(self, args, timeout=30, check=True, **kw):
        """Run `args` in this host to its end: the CompletedProcess (text)."""
        r = subprocess.run(['ip', 'netns', 'exec', self.ns, *[str(a) for a in args]],
                           stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=timeout, **kw)
        if check and r.returncode != 0:
            raise AssertionError(f'{args} in {self.ns} failed ({r.returncode}): '
                                 f'{r.stdout}{r.stderr}')
        return r

    def popen(self, args, env=None, cwd=None):
        """Start `args` in this host (a HostProc); stopped at the LAN's teardown."""
        p = HostProc(self, [str(a) for a in args], env=env, cwd=cwd)
        self.lan.procs.append(p)
        return p

    def ip(self, *args, check=True):
        return ip(*args, ns=self.ns, check=check)

    def link_down(self, side='switch'):
        """Unplug the host: its port on the switch down (`side='switch'`, the default:
        the host's eth0 then loses its carrier), its own eth0 down ('host'), or both."""
        self._set(side, 'down')

    def link_up(self, side='both'):
        """Plug it back: both ends up by default."""
        self._set(side, 'up')

    def _set(self, side, state):
        if side not in ('switch', 'host', 'both'):
            raise ValueError(f"side is 'switch', 'host' or 'both', not {side!r}")
        if side in ('switch', 'both'):
            ip('link', 'set', self.port, state, ns=self.lan.switch)
        if side in ('host', 'both'):
            self.ip('link', 'set', self.iface, state)

    def ros_env(self, base=None, **extra):
        return self.lan.ros_env(base, **extra)


class Lan:
    """N hosts on one switch (see the module's docstring)."""

    def __init__(self, n, domain_id=None):
        if not 1 <= n <= 250:
            raise ValueError(f'1 to 250 hosts, not {n}')
        self.n = n
        self.k = next(_counter)
        self.tag = f'{PREFIX}{os.getpid()}-{self.k}'
        self.switch = f'{self.tag}sw'
        self.subnet = subnet_for(os.getpid(), self.k)
        self.domain_id = run_domain_id() if domain_id is None else int(domain_id)
        self.hosts = [Host(self, i) for i in range(1, n + 1)]
        self.procs = []
        self._made = []  # namespaces created, in order
        self._closed = True

    def __repr__(self):
        return f'<Lan {self.tag} {self.subnet} {[h.name for h in self.hosts]}>'

    # --- set-up and teardown ---------------------------------------------------------------

    def __enter__(self):
        require_netns()
        sweep_stale()
        self._closed = False
        with _open_lock:
            _open.append(self)
        _catch_sigterm()
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close(raising=exc[0] is None)

    def _netns_add(self, ns):
        ip('netns', 'add', ns)
        self._made.append(ns)

    def _build(self):
        sw = self.switch
        self._netns_add(sw)
        ip('link', 'set', 'lo', 'up', ns=sw)
        # A switch: no STP (ports forward at once), multicast flooded to every port (with
        # snooping on, a port taken down and up again loses its group memberships until a
        # querier asks, and there is none on this LAN).
        ip('link', 'add', BRIDGE, 'type', 'bridge', 'stp_state', '0', 'mcast_snooping', '0',
           ns=sw)
        ip('link', 'set', BRIDGE, 'up', ns=sw)
        prefix = self.subnet.prefixlen
        for h in self.hosts:
            self._netns_add(h.ns)
            # IPv4 only on the LAN: no IPv6 link-local chatter (DAD, MLD, router
            # solicitations) on the wire.
            h.run(['sysctl', '-q', '-w', 'net.ipv6.conf.all.disable_ipv6=1',
                   'net.ipv6.conf.default.disable_ipv6=1'], check=False)
            # The pair is made in the switch's namespace with its peer straight in the
            # host's: neither end ever appears in the root namespace.
            ip('link', 'add', h.port, 'type', 'veth', 'peer', 'name', h.iface,
               'netns', h.ns, ns=sw)
            ip('link', 'set', h.port, 'master', BRIDGE, ns=sw)
            ip('link', 'set', h.port, 'up', ns=sw)
            h.ip('link', 'set', 'lo', 'up')
            h.ip('addr', 'add', f'{h.addr}/{prefix}', 'dev', h.iface)
            h.ip('link', 'set', h.iface, 'up')
            # Multicast (Fast DDS's discovery: 239.255.0.1) goes out on eth0; there is no
            # default route, so nothing else has a way out.
            h.ip('route', 'add', MULTICAST, 'dev', h.iface)

    def close(self, raising=False):
        """Stop every process (by process group), delete the namespaces. Safe to call
        twice. With `raising`, a namespace that could not be deleted is an error."""
        if self._closed:
            return
        self._closed = True
        problems = []
        for p in self.procs:
            if p.proc.poll() is None:
                try:
                    os.killpg(p.proc.pid, signal.SIGINT)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 3.0
        for p in self.procs:
            try:
                p.proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            # The whole group, even when its leader is gone (a child of a shell may have
            # ignored SIGINT).
            try:
                os.killpg(p.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                p.proc.wait(10)
                p._reader.join(5)
            except Exception as e:  # noqa: BLE001 - teardown goes on
                problems.append(f'killing {p.args}: {e}')
        for ns in reversed(self._made):
            problem = _delete_namespace(ns)
            if problem:
                problems.append(problem)
        self._made = []
        with _open_lock:
            if self in _open:
                _open.remove(self)
        _release_sigterm()
        if problems and raising:
            raise AssertionError('LAN teardown: ' + '; '.join(problems))

    # --- ROS -------------------------------------------------------------------------------

    def ros_env(self, base=None, **extra):
        """The environment of a ROS 2 process in a host of this LAN: `base` (default
        os.environ) with

        * ROS_DOMAIN_ID: the run's (run_domain_id());
        * ROS_AUTOMATIC_DISCOVERY_RANGE=SUBNET (multicast discovery on the LAN; the
          project's LOCALHOST default would keep each host to itself), no
          ROS_STATIC_PEERS / ROS_LOCALHOST_ONLY;
        * Fast DDS over UDPv4 only, no shared memory: FASTDDS_BUILTIN_TRANSPORTS=UDPv4.
          Fast DDS 2.14 (Jazzy's; the PyPI wheels ship 2.14.5) reads this variable when
          it creates a participant with the built-in transports, which rmw_fastrtps does
          unless a profile says otherwise ("FASTDDS_BUILTIN_TRANSPORTS", Fast DDS
          documentation, Environment variables:
          https://fast-dds.docs.eprosima.com/en/2.14.x/fastdds/env_vars/env_vars.html#fastdds-builtin-transports;
          "UDPv4: Only a UDPv4 transport will be instantiated"; the variable exists since
          Fast DDS 2.12). So no profile file is loaded: FASTRTPS_DEFAULT_PROFILES_FILE
          and FASTDDS_DEFAULT_PROFILES_FILE are removed (a profile with
          useBuiltinTransports false would make the variable ineffective) and
          SKIP_DEFAULT_XML=1 (no DEFAULT_FASTRTPS_PROFILES.xml from the working
          directory). Why: the hosts' processes share one /dev/shm (network
          namespaces do not separate it). With its default transports (SHM and UDPv4)
          Fast DDS 2.14.5 still sent the data over UDP here (its GUID's host id differs
          between the namespaces, and a link taken down stopped delivery), but every
          process mapped shared-memory segments that any host could reach; a Fast DDS
          that took two hosts for one would deliver past the LAN. With UDPv4 alone no
          segment exists (tests/python/test_netns.py checks that no host process maps
          one);
        * RMW_IMPLEMENTATION=rmw_fastrtps_cpp.
        """
        env = dict(os.environ if base is None else base)
        for var in ('ROS_LOCALHOST_ONLY', 'ROS_STATIC_PEERS', 'ROS_DISCOVERY_SERVER',
                    'ROS_SUPER_CLIENT', 'FASTRTPS_DEFAULT_PROFILES_FILE',
                    'FASTDDS_DEFAULT_PROFILES_FILE', 'RMW_FASTRTPS_USE_QOS_FROM_XML'):
            env.pop(var, None)
        env.update(ROS_DOMAIN_ID=str(self.domain_id),
                   ROS_AUTOMATIC_DISCOVERY_RANGE='SUBNET',
                   FASTDDS_BUILTIN_TRANSPORTS='UDPv4',
                   SKIP_DEFAULT_XML='1',
                   RMW_IMPLEMENTATION='rmw_fastrtps_cpp')
        env.update({k: str(v) for k, v in extra.items()})
        return env

    # --- what the tests check --------------------------------------------------------------

    def port_counters(self):
        """{port: (rx_packets, tx_packets)} of the switch's ports (the bridge's view of
        each host's cable)."""
        out = {}
        for h in self.hosts:
            stats = {}
            for name in ('rx_packets', 'tx_packets'):
                r = subprocess.run(['ip', 'netns', 'exec', self.switch, 'cat',
                                    f'/sys/class/net/{h.port}/statistics/{name}'],
                                   capture_output=True, text=True, timeout=10)
                stats[name] = int(r.stdout.strip() or 0)
            out[h.port] = (stats['rx_packets'], stats['tx_packets'])
        return out


def _sigterm_to_interrupt(signum, frame):
    raise KeyboardInterrupt(f'signal {signum} (SIGTERM) with a network-namespace LAN up')


def _catch_sigterm():
    """SIGTERM (a CI step's timeout) would end the process without any teardown: while a
    LAN is up it raises KeyboardInterrupt in the main thread instead (the context
    managers' exits then run), unless the process already handles SIGTERM itself."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _sigterm_to_interrupt)


def _release_sigterm():
    """The default SIGTERM back once no LAN is up (if the handler is still ours)."""
    if threading.current_thread() is not threading.main_thread():
        return
    with _open_lock:
        if _open:
            return
    if signal.getsignal(signal.SIGTERM) is _sigterm_to_interrupt:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


@atexit.register
def _close_all():
    with _open_lock:
        lans = list(_open)
    for lan in lans:
        try:
            lan.close()
        except Exception:  # noqa: BLE001 - at exit, best effort
            pass


def fastdds_shm_segments(pid):
    """The Fast DDS shared-memory files (/dev/shm/fastrtps_*) process `pid` maps: none for
    a process started with Lan.ros_env()."""
    with open(f'/proc/{pid}/maps', encoding='utf-8') as f:
        return sorted({m.group(1) for m in re.finditer(r'/dev/shm/(fastrtps_\S+)', f.read())})


def root_links():
    """The root namespace's interfaces: sorted (index, name, MAC)."""
    r = ip('-o', 'link', 'show')
    links = []
    for line in r.stdout.splitlines():
        m = re.match(r'^(\d+): ([^:@]+)[@:].*?link/\S+ ([0-9a-f:]+)', line)
        if m:
            links.append((int(m.group(1)), m.group(2), m.group(3)))
    return sorted(links)


@pytest.fixture
def lan(request):
    """A Lan of 3 hosts (or `request.param` hosts, with indirect parametrization), torn
    down after the test."""
    with Lan(getattr(request, 'param', 3)) as made:
        yield made
