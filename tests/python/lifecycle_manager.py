"""A lifecycle manager in rclpy that behaves as nav2's (nav2_lifecycle_manager, Jazzy), for
the tests of the node's lifecycle and bond (test support, not a test file).

What it follows, from nav2_lifecycle_manager/src/lifecycle_manager.cpp and
nav2_util/src/lifecycle_service_client.cpp (navigation2, branch jazzy), and bondcpp's
src/bond.cpp and bond/BondSM.sm (bond_core, branch ros2):

* The services it calls, per managed node `<ns>/<name>`: `change_state` (by transition id,
  as nav2's LifecycleServiceClient: the id only, no label), then `get_state`. A transition
  has succeeded when the call was answered and `get_state` then reads the transition's
  goal state (configure -> inactive, activate -> active, deactivate -> inactive, cleanup
  -> unconfigured, unconfigured shutdown -> finalized): nav2 does not read the answer's
  `success`, only the state that follows (both are recorded here, in `transitions`).
  change_state waits up to 5 s for the service and get_state up to 2 s (nav2's), either
  missing is an exception that stops the sequence.
* Startup: configure every node in `node_names` order, then activate each; reset, pause
  and shutdown go in reverse order. pause: deactivate; resume: activate; reset:
  deactivate then cleanup; shutdown: deactivate, cleanup, shutdown (unconfigured
  shutdown, id 5), whatever each answers.
* The bond, created on each successful activate: a Status (bond/msg/Status) heartbeat of
  its own on `<ns>/bond` (relative `bond` in nav2's manager, which runs in the node's
  namespace) with id = the node's name and an instance id of its own (a random UUID),
  every 0.1 s, heartbeat_timeout = bond_timeout; then it waits up to bond_timeout / 2 for
  the node's heartbeat (a Status with the same id and another instance id): none means
  the activate failed ("unable to be reached ... by bond"). Deactivating a node drops its
  bond (bondcpp's destructor: active=false, and a moment for the node's answer).
* The bond timer: every 200 ms while the nodes are active (after startup or resume;
  stopped by pause, reset and shutdown), a broken bond makes the manager reset the whole
  stack (a hard reset: it goes on past failures) and forget the bonds. A bond is broken
  (bondcpp's state machine) when the node's heartbeat has stopped for bond_timeout, or at
  once when the node sends active=false (a clean exit). Each break is recorded, with its
  cause, in `failures`. (nav2's respawn reconnection, attempt_respawn_reconnection, is not
  done: the tests end with the break.)

The one liberty: nav2 waits for a change_state answer without end once the service is
there; here `response_timeout` (default 10 s) bounds it, and running out of it counts as
the missing service does (an exception), so a test never hangs on a dead node.
"""

import threading
import time
import uuid

# lifecycle_msgs/msg/Transition and State ids (rcl_lifecycle's default state machine).
CONFIGURE, CLEANUP, ACTIVATE, DEACTIVATE, UNCONFIGURED_SHUTDOWN = 1, 2, 3, 4, 5
UNCONFIGURED, INACTIVE, ACTIVE, FINALIZED = 1, 2, 3, 4
# nav2's transition_state_map_: the state each transition must reach.
GOAL = {CONFIGURE: INACTIVE, CLEANUP: UNCONFIGURED, ACTIVATE: ACTIVE, DEACTIVATE: INACTIVE,
        UNCONFIGURED_SHUTDOWN: FINALIZED}
LABEL = {CONFIGURE: 'Configuring', CLEANUP: 'Cleaning up', ACTIVATE: 'Activating',
         DEACTIVATE: 'Deactivating', UNCONFIGURED_SHUTDOWN: 'Shutting down'}

# bond/msg/Constants (bond_core): the defaults a bond starts with.
DEFAULT_CONNECT_TIMEOUT = 10.0
DEFAULT_DISCONNECT_TIMEOUT = 2.0
DEAD_PUBLISH_PERIOD = 0.05
# nav2's manager: setHeartbeatPeriod(0.10) on each bond; its bond timer's period.
MANAGER_HEARTBEAT_PERIOD = 0.1
BOND_TIMER_PERIOD = 0.2

# bondcpp's states (BondSM.sm).
WAITING_FOR_SISTER, ALIVE, AWAIT_SISTER_DEATH, DEAD = (
    'WaitingForSister', 'Alive', 'AwaitSisterDeath', 'Dead')


class Bond:
    """One side of a bond, as bondcpp's `bond::Bond` (its state machine BondSM.sm): on
    `topic`, this side's Status every `heartbeat_period` (active while waiting for the
    sister or alive, then `active: false` every DEAD_PUBLISH_PERIOD while awaiting the
    sister's death, nothing once dead); the sister is any other instance with the same
    `id`. Broken (`Dead`) when: the sister sends active=false (cause 'sister_dead'); no
    heartbeat for `heartbeat_timeout` once alive ('heartbeat_timeout'); no sister within
    the connect timeout ('connect_timeout'); this side breaks it ('broken_here', then
    'disconnect_timeout' or 'sister_dead' while awaiting the sister's death).

    As in bondcpp, the heartbeat timer is started by the sister's second heartbeat (the
    first only forms the bond: `Connected()` starts no timer), and restarted by each one
    after it. Timers are deadlines checked by a thread every 10 ms.

    Every Status heard from the sister is kept in `sister` as (monotonic time, message),
    so that tests can read what the node sent."""

    def __init__(self, node, topic, bond_id, heartbeat_timeout,
                 heartbeat_period=MANAGER_HEARTBEAT_PERIOD,
                 connect_timeout=DEFAULT_CONNECT_TIMEOUT,
                 disconnect_timeout=DEFAULT_DISCONNECT_TIMEOUT):
        from bond.msg import Status
        from rclpy.qos import QoSProfile

        self.node, self.topic, self.id = node, topic, bond_id
        self.instance_id = str(uuid.uuid4())
        self.heartbeat_timeout, self.heartbeat_period = heartbeat_timeout, heartbeat_period
        self.connect_timeout, self.disconnect_timeout = connect_timeout, disconnect_timeout
        self.cond = threading.Condition()
        self.state = WAITING_FOR_SISTER
        self.cause = None  # why it is dead
        self.broken_at = None  # monotonic time it died
        self.sister = []  # (monotonic, Status) from the sister
        self.sister_died_first = False
        self.started = False
        self._Status = Status
        self._deadlines = {}  # 'connect' | 'heartbeat' | 'disconnect' -> monotonic
        self._next_publish = None
        self._stop = threading.Event()
        # bondcpp: publisher KeepLast(5), subscription depth 100 (reliable, volatile).
        self._pub = node.create_publisher(Status, topic, QoSProfile(depth=5))
        self._sub = node.create_subscription(Status, topic, self._on_status, QoSProfile(depth=100))
        self._thread = threading.Thread(target=self._tick, daemon=True)

    # --- bondcpp's start / wait / break ----------------------------------------------------

    def start(self):
        now = time.monotonic()
        with self.cond:
            self._deadlines['connect'] = now + self.connect_timeout
            self._next_publish = now
            self.started = True
        self._thread.start()

    def wait_until_formed(self, timeout):
        """True once the sister has been heard (no longer waiting for it) within `timeout`."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while self.state == WAITING_FOR_SISTER:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(min(left, 0.01))
            return True

    def wait_until_broken(self, timeout):
        deadline = time.monotonic() + timeout
        with self.cond:
            while self.state != DEAD:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(min(left, 0.01))
            return True

    def is_broken(self):
        with self.cond:
            return self.state == DEAD

    def break_bond(self):
        """bondcpp's breakBond: `Die` (alive: await the sister's death; waiting: dead), then
        active=false once."""
        with self.cond:
            if self.state == DEAD:
                return
            if self.state == WAITING_FOR_SISTER:
                self._death('broken_here')
            elif self.state == ALIVE:
                self.state = AWAIT_SISTER_DEATH  # StartDying
                self._deadlines.pop('heartbeat', None)
                self._deadlines['disconnect'] = time.monotonic() + self.disconnect_timeout
                self._next_publish = time.monotonic() + DEAD_PUBLISH_PERIOD
            self.cond.notify_all()
        self._publish(False)

    def close(self):
        """bondcpp's destructor: break the bond, give the sister 100 ms to answer, stop."""
        if self.started:
            self.break_bond()
            self.wait_until_broken(0.1)
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)
        self.node.destroy_subscription(self._sub)
        self.node.destroy_publisher(self._pub)

    # --- the state machine -----------------------------------------------------------------

    def _death(self, cause):
        """(with self.cond) Death(): the end; heartbeat and disconnect timers cancelled."""
        self.state = DEAD
        self.cause = cause
        self.broken_at = time.monotonic()
        self._deadlines.clear()
        self.cond.notify_all()

    def _on_status(self, msg):
        if msg.id != self.id or msg.instance_id == self.instance_id:
            return  # another bond, or this side's own
        now = time.monotonic()
        ack = False
        with self.cond:
            self.sister.append((now, msg))
            self.cond.notify_all()
            if not self.started:
                return
            if msg.active:
                if self.state == WAITING_FOR_SISTER:
                    self.state = ALIVE  # Connected(): the connect timer cancelled
                    self._deadlines.pop('connect', None)
                elif self.state == ALIVE:
                    self._deadlines['heartbeat'] = now + self.heartbeat_timeout  # Heartbeat()
            else:
                if self.state in (WAITING_FOR_SISTER, ALIVE):
                    self.sister_died_first = True  # SisterDied()
                    self._death('sister_dead')
                elif self.state == AWAIT_SISTER_DEATH:
                    self._death(self.cause or 'sister_dead')
                # bondcpp: an immediate ack of the sister's death notification.
                ack = self.sister_died_first
        if ack:
            self._publish(False)

    def _tick(self):
        while not self._stop.is_set():
            now = time.monotonic()
            publish = None
            with self.cond:
                for timer, deadline in list(self._deadlines.items()):
                    if now < deadline:
                        continue
                    if timer == 'connect' and self.state == WAITING_FOR_SISTER:
                        self._death('connect_timeout')
                    elif timer == 'heartbeat' and self.state == ALIVE:
                        self._death('heartbeat_timeout')
                    elif timer == 'disconnect' and self.state == AWAIT_SISTER_DEATH:
                        self._death('disconnect_timeout')
                    self._deadlines.pop(timer, None)
                if self._next_publish is not None and now >= self._next_publish:
                    if self.state in (WAITING_FOR_SISTER, ALIVE):
                        publish = True
                        self._next_publish = now + self.heartbeat_period
                    elif self.state == AWAIT_SISTER_DEATH:
                        publish = False
                        self._next_publish = now + DEAD_PUBLISH_PERIOD
                    else:
                        self._next_publish = None  # dead: the publishing timers cancelled
            if publish is not None:
                self._publish(publish)
            self._stop.wait(0.01)

    def _publish(self, active):
        from rclpy.clock import Clock, ClockType

        msg = self._Status()
        msg.header.stamp = Clock(clock_type=ClockType.STEADY_TIME).now().to_msg()
        msg.id = self.id
        msg.instance_id = self.instance_id
        msg.active = active
        msg.heartbeat_timeout = float(self.heartbeat_timeout)
        msg.heartbeat_period = float(self.heartbeat_period)
        try:
            self._pub.publish(msg)
        except Exception:  # noqa: BLE001 (the publisher destroyed by close(): nothing to say)
            pass


class ServiceFailure(RuntimeError):
    """A lifecycle service missing, or not answering (nav2's std::runtime_error)."""


class LifecycleManager:
    """nav2's lifecycle manager for `node_names` in namespace `ns`, on `peer` (a
    satpkg_support.RosPeer, whose executor thread runs the bonds' subscriptions).

    Operations (each returns what nav2's returns; they run one at a time, as nav2's
    mutually exclusive callback group runs them): `startup`, `configure`, `cleanup`,
    `pause`, `resume`, `reset`, `shutdown`, `is_active`. Like nav2, the constructor waits
    for each node's get_state service; with `autostart` it then runs `startup`.

    Records: `transitions` [(node, transition id, the answer's success, the state read
    after it, ok)] (None: no answer, or no state read),
    `messages` [(monotonic, text)] (nav2's log lines), `failures` [(monotonic, node,
    cause, broken_at)] (a broken bond found by the bond timer, before its reset; broken_at
    is when the bond died), `bonds_made` [Bond] (every bond, in order, kept after they are
    dropped: their `sister` holds what the node sent)."""

    def __init__(self, peer, ns, node_names, *, bond_timeout=4.0, autostart=False,
                 service_wait=5.0, get_state_timeout=2.0, response_timeout=10.0,
                 wait_for_nodes=30.0):
        from lifecycle_msgs.srv import ChangeState, GetState

        self.peer, self.node = peer, peer.node
        self.ns = ns.rstrip('/')
        self.node_names = list(node_names)
        self.bond_timeout = bond_timeout
        self.service_wait, self.get_state_timeout = service_wait, get_state_timeout
        self.response_timeout = response_timeout
        self.state = 'unconfigured'  # nav2's managed_nodes_state_
        self.transitions, self.messages, self.failures, self.bonds_made = [], [], [], []
        self.bonds = {}
        self.cond = threading.Condition()
        self._lock = threading.RLock()
        self._ChangeState, self._GetState = ChangeState, GetState
        self._clients = {}
        self._message('Creating and initializing lifecycle service clients')
        for name in self.node_names:
            change = self.node.create_client(ChangeState, f'{self.ns}/{name}/change_state')
            get = self.node.create_client(GetState, f'{self.ns}/{name}/get_state')
            self._clients[name] = (change, get)
            # nav2's LifecycleServiceClient blocks until get_state is there.
            deadline = time.monotonic() + wait_for_nodes
            while not get.wait_for_service(timeout_sec=0.2):
                if time.monotonic() > deadline:
                    raise AssertionError(f'{get.srv_name} not available within '
                                         f'{wait_for_nodes} s')
        self._bond_timer = False
        self._closing = threading.Event()
        self._timer_thread = threading.Thread(target=self._bond_timer_loop, daemon=True)
        self._timer_thread.start()
        if autostart:
            self.startup()

    # --- records ---------------------------------------------------------------------------

    def _message(self, text):
        with self.cond:
            self.messages.append((time.monotonic(), text))
            self.cond.notify_all()

    def wait_failure(self, timeout):
        """The first failure recorded (a broken bond), waiting up to `timeout` s for it."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while not self.failures:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f'no bond failure within {timeout} s; manager log: '
                                         f'{[m for _, m in self.messages]}')
                self.cond.wait(min(left, 0.05))
            return self.failures[0]

    def wait_message(self, text, timeout):
        """Wait until the manager has logged `text` (e.g. the end of a reset)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while not any(m == text for _, m in self.messages):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f'no {text!r} within {timeout} s; manager log: '
                                         f'{[m for _, m in self.messages]}')
                self.cond.wait(min(left, 0.05))

    # --- nav2_util::LifecycleServiceClient -------------------------------------------------

    def _invoke(self, client, request, wait, timeout):
        if not client.wait_for_service(timeout_sec=wait):
            raise ServiceFailure(f'{client.srv_name} service is not available!')
        done = threading.Event()
        future = client.call_async(request)
        future.add_done_callback(lambda _: done.set())
        if not done.wait(timeout):
            client.remove_pending_request(future)
            raise ServiceFailure(f'{client.srv_name} service client: no answer in {timeout} s')
        return future.result()

    def change_state(self, name, transition):
        """The answer's `success` (nav2 returns whether it was answered; see above)."""
        request = self._ChangeState.Request()
        request.transition.id = transition
        return self._invoke(self._clients[name][0], request, self.service_wait,
                            self.response_timeout).success

    def get_state(self, name):
        """The node's current state id."""
        response = self._invoke(self._clients[name][1], self._GetState.Request(),
                                self.get_state_timeout, self.get_state_timeout)
        return response.current_state.id

    # --- nav2_lifecycle_manager::LifecycleManager ------------------------------------------

    def _create_bond(self, name):
        if name not in self.bonds and self.bond_timeout > 0.0:
            bond = Bond(self.node, f'{self.ns}/bond', name, self.bond_timeout)
            self.bonds[name] = bond
            self.bonds_made.append(bond)
            bond.start()
            if not bond.wait_until_formed(self.bond_timeout / 2):
                self._message(f'Server {name} was unable to be reached after '
                              f'{self.bond_timeout:.2f}s by bond.')
                return False
            self._message(f'Server {name} connected with bond.')
        return True

    def _drop_bond(self, name):
        bond = self.bonds.pop(name, None)
        if bond is not None:
            bond.close()

    def _change_state_for_node(self, name, transition):
        self._message(f'{LABEL[transition]} {name}')
        try:
            success = self.change_state(name, transition)
        except ServiceFailure:
            self.transitions.append((name, transition, None, None, False))
            raise
        try:
            state = self.get_state(name)
        except ServiceFailure:
            self.transitions.append((name, transition, success, None, False))
            raise
        ok = state == GOAL[transition]
        self.transitions.append((name, transition, success, state, ok))
        if not ok:
            self._message(f'Failed to change state for node: {name}')
            return False
        if transition == ACTIVATE:
            return self._create_bond(name)
        if transition == DEACTIVATE:
            self._drop_bond(name)
        return True

    def _change_state_for_all(self, transition, hard=False):
        order = self.node_names if transition in (CONFIGURE, ACTIVATE) else \
            list(reversed(self.node_names))
        for name in order:
            try:
                if not self._change_state_for_node(name, transition) and not hard:
                    return False
            except ServiceFailure as e:
                self._message(f'Failed to change state for node: {name}. Exception: {e}.')
                return False
        return True

    def startup(self):
        with self._lock:
            self._message('Starting managed nodes bringup...')
            if not self._change_state_for_all(CONFIGURE) or \
                    not self._change_state_for_all(ACTIVATE):
                self._message('Failed to bring up all requested nodes. Aborting bringup.')
                self.state = 'unknown'
                return False
            self._message('Managed nodes are active')
            self.state = 'active'
            self._create_bond_timer()
            return True

    def configure(self):
        with self._lock:
            if not self._change_state_for_all(CONFIGURE):
                self.state = 'unknown'
                return False
            self.state = 'inactive'
            return True

    def cleanup(self):
        with self._lock:
            if not self._change_state_for_all(CLEANUP):
                self.state = 'unknown'
                return False
            self.state = 'unconfigured'
            return True

    def shutdown(self):
        with self._lock:
            self._destroy_bond_timer()
            self._message('Shutting down managed nodes...')
            self.state = 'finalized'
            self._change_state_for_all(DEACTIVATE)
            self._change_state_for_all(CLEANUP)
            self._change_state_for_all(UNCONFIGURED_SHUTDOWN)
            self._message('Managed nodes have been shut down')
            return True

    def reset(self, hard=False):
        with self._lock:
            self._destroy_bond_timer()
            self._message('Resetting managed nodes...')
            if not self._change_state_for_all(DEACTIVATE, hard) or \
                    not self._change_state_for_all(CLEANUP, hard):
                if not hard:
                    self._message('Failed to reset nodes: aborting reset')
                    self.state = 'unknown'
                    return False
            self._message('Managed nodes have been reset')
            self.state = 'unconfigured'
            return True

    def pause(self):
        with self._lock:
            self._destroy_bond_timer()
            self._message('Pausing managed nodes...')
            if not self._change_state_for_all(DEACTIVATE):
                self.state = 'unknown'
                return False
            self._message('Managed nodes have been paused')
            self.state = 'inactive'
            return True

    def resume(self):
        with self._lock:
            self._message('Resuming managed nodes...')
            if not self._change_state_for_all(ACTIVATE):
                self.state = 'unknown'
                return False
            self._message('Managed nodes are active')
            self.state = 'active'
            self._create_bond_timer()
            return True

    def is_active(self):
        with self._lock:
            return self.state == 'active'

    # --- the bond timer --------------------------------------------------------------------

    def _create_bond_timer(self):
        if self.bond_timeout > 0.0:
            self._message('Creating bond timer...')
            self._bond_timer = True

    def _destroy_bond_timer(self):
        if self._bond_timer:
            self._message('Terminating bond timer...')
            self._bond_timer = False

    def _bond_timer_loop(self):
        while not self._closing.wait(BOND_TIMER_PERIOD):
            with self._lock:
                if self._bond_timer and not self._closing.is_set():
                    self._check_bond_connections()

    def _check_bond_connections(self):
        if self.state != 'active' or not self.bonds:
            return
        for name in self.node_names:
            bond = self.bonds.get(name)
            if bond is not None and bond.is_broken():
                self._message(f'Have not received a heartbeat from {name}.')
                with self.cond:
                    self.failures.append((time.monotonic(), name, bond.cause, bond.broken_at))
                    self.cond.notify_all()
                self.reset(hard=True)
                for other in list(self.bonds):
                    self._drop_bond(other)
                return

    def close(self):
        """Stop the bond timer (after a reset it may be running), drop the bonds and the
        clients. Does not change the nodes' states."""
        self._closing.set()
        self._timer_thread.join(60)
        with self._lock:
            for name in list(self.bonds):
                self._drop_bond(name)
            for change, get in self._clients.values():
                self.node.destroy_client(change)
                self.node.destroy_client(get)
