"""The stateless-replica protocol against real motiond processes: robots and
scenes sent by id, re-sent inline where a replica lacks them, at most one
refusal per replica behind a round-robin Client, UNAVAILABLE retried.

What each server did is read from its own log (one "robot not registered"
line per refused call), not from the client's counters alone."""
from __future__ import annotations

import threading
import time
import unittest
from concurrent import futures

import grpc
import numpy as np

import motiond
from motiond._stubs import kinematics_pb2_grpc
from motiond_server import EXAMPLES_DIR, ROBOTS_DIR, MotiondServer
from urdf_reference import UrdfModel

UR5 = UrdfModel(ROBOTS_DIR / "ur5.urdf")


class FreshServerCase(unittest.TestCase):
    """Motiond processes that hold no robot, per test class (debug logs: one
    line per call, so a test can tell which replica served what)."""

    REPLICAS = 1

    @classmethod
    def setUpClass(cls) -> None:
        cls.servers = [MotiondServer(preload=False, extra_args=["--log_level=debug"]).start()
                       for _ in range(cls.REPLICAS)]

    @classmethod
    def tearDownClass(cls) -> None:
        for server in cls.servers:
            code = server.stop()
            server.remove_log()
            if code != 0:
                raise AssertionError(f"motiond exited with {code} after SIGTERM")

    def target(self) -> str:
        return ",".join(s.address for s in self.servers)


class UrdfResentToAFreshServerTest(FreshServerCase):
    def test_fk_by_id_works_on_a_server_that_never_saw_the_robot(self) -> None:
        events = []
        with motiond.Client(self.target(), on_refusal=events.append) as client:
            ur5 = client.robot(ROBOTS_DIR / "ur5.urdf")  # registers nothing
            pose = ur5.fk(np.zeros(6))
            expected = UR5.fk("base_link", "tool0", np.zeros(6))
            np.testing.assert_allclose(pose.position, expected[:3, 3], atol=1e-9)
            self.assertEqual(client.refusal_count, 1)
            self.assertEqual([(e.kind, e.content_id, e.method, e.resent) for e in events],
                             [("robot", ur5.id, "ComputeFk", True)])
            self.assertEqual(self.servers[0].robot_refusals(), 1)
            # The server learned the robot from the re-send: no refusal now,
            # even from a client that could not re-send (it has the id only).
            with motiond.Client(self.target()) as by_id_only:
                robot = by_id_only.robot(ur5.id)
                q = [0.1, -1.0, 1.0, -1.2, -1.5, 0.2]
                np.testing.assert_allclose(robot.fk(q).position,
                                           UR5.fk("base_link", "tool0", q)[:3, 3], atol=1e-9)
                self.assertEqual(by_id_only.refusal_count, 0)
            self.assertEqual(self.servers[0].robot_refusals(), 1)


class RobotByIdAloneTest(FreshServerCase):
    def test_an_unknown_id_without_its_urdf_is_a_clear_error(self) -> None:
        iiwa_id = motiond.robot_id_for_urdf((ROBOTS_DIR / "iiwa14.urdf").read_bytes())
        with motiond.Client(self.target()) as client:
            with self.assertRaises(motiond.MotiondRpcError) as raised:
                client.robot(iiwa_id).fk(np.zeros(7))
        error = raised.exception
        self.assertEqual(error.code, grpc.StatusCode.NOT_FOUND)
        self.assertEqual(error.reason, "ROBOT_NOT_REGISTERED")
        self.assertEqual(error.details.metadata.get("robot_id"), iiwa_id)
        self.assertEqual(client.refusals()[0].resent, False)


class SceneResentToAFreshServerTest(FreshServerCase):
    def test_plan_with_a_scene_by_id_resends_the_scene(self) -> None:
        with motiond.Client(self.target()) as client:
            ur5 = client.robot(ROBOTS_DIR / "ur5.urdf")
            scene = client.scene(EXAMPLES_DIR / "ur5_cell_scene.json")
            plan = ur5.plan(EXAMPLES_DIR / "ur5_glue_path.json", scene=scene)
            kinds = sorted(e.kind for e in client.refusals())
        # The server accepted the inline scene under the id computed here:
        # it refuses a scene_id that is not the hash of the scene sent with it.
        self.assertEqual(kinds, ["robot", "scene"])
        # README "Collision checking": the glue path runs through the fixture.
        self.assertTrue(plan.collision_checked)
        self.assertFalse(plan.collision_free)
        self.assertFalse(plan.ok)
        contacts = {d.contact[1] for d in plan.diagnostics if d.code == "COLLISION"}
        self.assertIn("fixture", contacts)


class TwoFreshReplicasTest(FreshServerCase):
    REPLICAS = 2

    def test_each_replica_refuses_at_most_once(self) -> None:
        rng = np.random.default_rng(5)
        with motiond.Client(self.target()) as client:
            _warm_up(client, self.servers)
            ur5 = client.robot(ROBOTS_DIR / "ur5.urdf")
            for _ in range(30):
                q = UR5.random_joints("base_link", "tool0", rng)
                np.testing.assert_allclose(ur5.fk(q).position,
                                           UR5.fk("base_link", "tool0", q)[:3, 3], atol=1e-9)
            # Both replicas served a share of the 30 calls...
            served = [server.rpc_count("ComputeFk") for server in self.servers]
            self.assertTrue(all(n >= 5 for n in served), served)
            # ...and each refused at most one of them.
            refusals = [server.robot_refusals() for server in self.servers]
            self.assertTrue(all(r <= 1 for r in refusals), refusals)
            self.assertEqual(client.refusal_count, sum(refusals))
        # Round robin reached both, and both learned the robot: each answers
        # by id a client that does not know the URDF.
        for server in self.servers:
            with motiond.Client(server.address) as by_id_only:
                self.assertEqual(by_id_only.robot(ur5.id).info.name, "ur5")


class TwoFreshReplicasWithoutInlineWindowTest(FreshServerCase):
    """The contrast that makes the test above meaningful: without the inline
    window the re-send reaches the other replica, and the one that refused
    keeps refusing every call that lands on it."""

    REPLICAS = 2

    def test_a_replica_keeps_refusing_without_the_inline_window(self) -> None:
        with motiond.Client(self.target(), inline_after_refusal=0.0) as client:
            _warm_up(client, self.servers)
            ur5 = client.robot(ROBOTS_DIR / "ur5.urdf")
            for _ in range(30):
                ur5.fk(np.zeros(6))
            self.assertGreaterEqual(sum(s.robot_refusals() for s in self.servers), 5)
            self.assertEqual(client.refusal_count, sum(s.robot_refusals() for s in self.servers))


def _warm_up(client: motiond.Client, servers) -> None:
    """Calls until every replica has served one: round robin only balances
    over the replicas it is connected to, and on a loaded machine the
    second connection may come up after the first calls."""
    deadline = time.monotonic() + 10.0
    while not all(s.rpc_count("ListRobots") for s in servers):
        if time.monotonic() > deadline:
            raise AssertionError("round robin never reached every replica")
        client.robots()
        time.sleep(0.005)


class FlakyKinematics(kinematics_pb2_grpc.KinematicsServicer):
    """A replica that is going away: its first ``failures`` calls end
    UNAVAILABLE; the others are forwarded to a real motiond."""

    def __init__(self, upstream: str, failures: int) -> None:
        self._upstream = grpc.insecure_channel(upstream)
        self._stub = kinematics_pb2_grpc.KinematicsStub(self._upstream)
        self._failures = failures
        self._lock = threading.Lock()
        self.calls = 0

    def ComputeFk(self, request, context):  # noqa: N802 - gRPC's method name
        with self._lock:
            self.calls += 1
            fail = self.calls <= self._failures
        if fail:
            context.abort(grpc.StatusCode.UNAVAILABLE, "injected: replica going away")
        return self._stub.ComputeFk(request, timeout=5)

    def close(self) -> None:
        self._upstream.close()


class UnavailableIsRetriedTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.motiond = MotiondServer(preload=True).start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.motiond.stop()
        cls.motiond.remove_log()

    def _flaky_replica(self, failures: int):
        servicer = FlakyKinematics(self.motiond.address, failures)
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        kinematics_pb2_grpc.add_KinematicsServicer_to_server(servicer, server)
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        self.addCleanup(servicer.close)
        self.addCleanup(server.stop, None)
        return servicer, f"127.0.0.1:{port}"

    def test_two_unavailable_answers_are_retried_with_backoff(self) -> None:
        servicer, address = self._flaky_replica(failures=2)
        with motiond.Client(address, max_attempts=4) as client:
            started = time.monotonic()
            pose = client.robot(ROBOTS_DIR / "ur5.urdf").fk(np.zeros(6))
            elapsed = time.monotonic() - started
        np.testing.assert_allclose(pose.position, (0.81725, 0.19145, -0.005491), atol=1e-9)
        self.assertEqual(servicer.calls, 3)
        self.assertLess(elapsed, 5.0)  # backoff 50 ms, then 100 ms (with jitter), not seconds

    def test_without_retries_unavailable_reaches_the_caller(self) -> None:
        servicer, address = self._flaky_replica(failures=2)
        with motiond.Client(address, max_attempts=1) as client:
            with self.assertRaises(motiond.MotiondRpcError) as raised:
                client.robot(ROBOTS_DIR / "ur5.urdf").fk(np.zeros(6))
        self.assertEqual(raised.exception.code, grpc.StatusCode.UNAVAILABLE)
        self.assertEqual(servicer.calls, 1)


if __name__ == "__main__":
    unittest.main()
