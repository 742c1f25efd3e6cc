"""Client.validate: many programs over one ValidatePath stream, each answer
delivered once, a bounded number in flight, refused requests re-sent with
their URDF, in-band errors as data."""
from __future__ import annotations

import collections
import copy
import io
import json
import unittest
from typing import List, Tuple

import grpc
import numpy as np

import motiond
from motiond_server import EXAMPLES_DIR, ROBOTS_DIR, MotiondServer, ServerTestCase, free_port
from urdf_reference import UrdfModel

UR5 = UrdfModel(ROBOTS_DIR / "ur5.urdf")
START = [0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0]
DOWN = {"x": 0.0, "y": 1.0, "z": 0.0, "w": 0.0}  # TCP pointing down


def fleet(count: int = 20) -> Tuple[List[Tuple[str, dict]], set]:
    """``count`` (request_id, program) pairs; every seventh reaches 2.4 m
    away (the UR5 reaches ~0.85 m) and must come back unreachable."""
    rng = np.random.default_rng(1)
    programs, unreachable = [], set()
    for i in range(count):
        request_id = f"cell-{i:02d}"
        if i % 7 == 3:
            segments = [{"id": "approach", "movej": {"pose": {
                            "position": {"x": 0.4, "y": 0.0, "z": 0.25}, "orientation": DOWN}}},
                        {"id": "far", "movel": {"target": {
                            "position": {"x": 2.4, "y": 0.0, "z": 0.25}, "orientation": DOWN}}}]
            unreachable.add(request_id)
        else:
            target = UR5.random_joints("base_link", "tool0", rng, margin=0.3)
            segments = [{"id": "out", "movej": {"joints": {"values": list(target)}}},
                        {"id": "back", "movej": {"joints": {"values": START}},
                         "speed": {"joint_fraction": 0.5}}]
        programs.append((request_id, {"robot": "ur5", "start_joints": START,
                                      "segments": segments}))
    return programs, unreachable


class ValidateTest(ServerTestCase):
    PRELOAD = True

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.ur5 = cls.client.robot(ROBOTS_DIR / "ur5.urdf")
        cls.programs, cls.unreachable = fleet()

    def test_each_request_is_answered_exactly_once(self) -> None:
        run = self.client.validate(self.programs, robot=self.ur5, max_in_flight=4, timeout=30)
        self.assertEqual(len(run), 20)
        results = list(run)
        counts = collections.Counter(r.request_id for r in results)
        self.assertEqual(set(counts), {request_id for request_id, _ in self.programs})
        self.assertEqual(set(counts.values()), {1})
        self.assertLessEqual(run.peak_in_flight, 4)
        self.assertEqual(run.streams_opened, 1)
        for result in results:
            with self.subTest(request=result.request_id):
                self.assertIsNone(result.error_code)
                expected_ok = result.request_id not in self.unreachable
                self.assertEqual(result.ok, expected_ok)
                self.assertEqual(result.reachable, expected_ok)
                if not expected_ok:
                    self.assertIn("TARGET_UNREACHABLE", [d.code for d in result.diagnostics])

    def test_results_agree_with_plan_path(self) -> None:
        results = {r.request_id: r for r in self.ur5.validate(self.programs[:6], timeout=30)}
        for request_id, program in self.programs[:6]:
            with self.subTest(request=request_id):
                plan = self.ur5.plan(program)
                result = results[request_id]
                self.assertEqual(result.ok, plan.ok)
                self.assertAlmostEqual(result.cycle_time, plan.cycle_time, delta=1e-12)
                self.assertEqual([s.id for s in result.segments], [s.id for s in plan.segments])

    def test_a_malformed_request_is_answered_in_band(self) -> None:
        programs = copy.deepcopy(self.programs[:5])
        programs[2][1]["sample_time"] = -1.0
        results = {r.request_id: r for r in self.client.validate(programs, robot=self.ur5,
                                                                timeout=30)}
        self.assertEqual(len(results), 5)
        bad = results[programs[2][0]]
        self.assertEqual(bad.error_code, grpc.StatusCode.INVALID_ARGUMENT)
        with self.assertRaises(motiond.MotiondRpcError) as raised:
            bad.raise_for_error()
        # The in-band message names the field inside the path (the server
        # writes "sample_time: ...", not "path.sample_time: ...").
        self.assertIn(raised.exception.field, {"sample_time", "path.sample_time"})
        self.assertIn("sample_time", bad.error_message)
        for request_id, _ in programs[:2] + programs[3:]:
            self.assertIsNone(results[request_id].error_code)

    def test_progress_bar_counts_what_was_delivered(self) -> None:
        stream = io.StringIO()
        results = list(self.client.validate(self.programs, robot=self.ur5, progress=stream,
                                            timeout=30))
        final = stream.getvalue().split("\r")[-1]
        ok = sum(r.ok for r in results)
        self.assertTrue(final.endswith("\n"))
        self.assertIn("20/20", final)
        self.assertIn(f"ok {ok}  failed {20 - ok}", final)
        self.assertEqual(ok, 20 - len(self.unreachable))

    def test_duplicate_request_ids_are_refused_before_sending(self) -> None:
        with self.assertRaises(ValueError):
            self.client.validate([self.programs[0], self.programs[0]], robot=self.ur5)

    def test_stopping_early_cancels_and_the_server_goes_on(self) -> None:
        with self.client.validate(self.programs, robot=self.ur5, max_in_flight=2) as run:
            seen = [next(run).request_id for _ in range(3)]
        self.assertEqual(len(set(seen)), 3)
        again = list(self.client.validate(self.programs[:3], robot=self.ur5, timeout=30))
        self.assertEqual(len(again), 3)

    def test_program_files_name_their_own_robot(self) -> None:
        files = [EXAMPLES_DIR / name for name in
                 ("ur5_glue_path.json", "ur5_pick_and_place.json", "ur5_glue_bead_zones.json")]
        results = list(self.client.validate(files, timeout=30))
        self.assertEqual(sorted(r.request_id for r in results), sorted(str(f) for f in files))
        self.assertTrue(all(r.ok for r in results))
        # The README's glue path: validated as planned, on the 4 ms grid.
        glue = next(r for r in results if r.request_id.endswith("ur5_glue_path.json"))
        planned = self.ur5.plan(files[0])
        self.assertAlmostEqual(glue.cycle_time, planned.cycle_time, delta=1e-9)
        self.assertAlmostEqual(glue.cycle_time / 0.004, round(glue.cycle_time / 0.004), delta=1e-6)
        json.loads(files[0].read_text())  # the files stay untouched JSON


class ValidateOnAFreshServerTest(unittest.TestCase):
    """No robot on the server: the requests in flight before the first
    refusal came back are each refused once and re-sent with the URDF;
    every later request of the stream carries it from the start."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.server = MotiondServer(preload=False).start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.stop()
        cls.server.remove_log()

    def test_refused_requests_are_resent_with_their_urdf(self) -> None:
        programs, unreachable = fleet()
        # Without "robot": "ur5", whose check against the Robot's name would
        # ask GetRobot first, and so register the robot before the stream.
        programs = [(request_id, {k: v for k, v in program.items() if k != "robot"})
                    for request_id, program in programs]
        with motiond.Client(self.server.address) as client:
            ur5 = client.robot(ROBOTS_DIR / "ur5.urdf")  # URDF known, nothing registered
            results = list(ur5.validate(programs, max_in_flight=4, timeout=30))
            events = client.refusals()
        counts = collections.Counter(r.request_id for r in results)
        self.assertEqual(set(counts.values()), {1})
        self.assertEqual(len(counts), 20)
        self.assertTrue(all(r.error_code is None for r in results))
        self.assertEqual({r.request_id for r in results if not r.ok}, unreachable)
        self.assertTrue(1 <= len(events) <= 4, events)
        self.assertTrue(all((e.kind, e.method, e.resent) == ("robot", "ValidatePath", True)
                            for e in events))
        self.assertEqual(self.server.robot_refusals(), len(events))


class ValidateFailoverTest(unittest.TestCase):
    """A replica killed in the middle of a stream: the requests it had not
    answered go to the other replica on a new stream, and every request id
    is still delivered exactly once.

    Replica B starts only after A is killed, so the first stream can only
    have gone to A (round robin uses connected replicas), whatever order
    the balancer would have picked."""

    def test_a_broken_stream_is_resumed_on_another_replica(self) -> None:
        replica_a = MotiondServer(preload=True).start()
        port_b = free_port()
        replica_b = MotiondServer(preload=True, port=port_b)
        self.addCleanup(replica_a.remove_log)
        self.addCleanup(replica_b.remove_log)
        self.addCleanup(replica_b.stop)
        self.addCleanup(replica_a.stop)
        programs, unreachable = fleet(40)
        with motiond.Client(f"{replica_a.address},127.0.0.1:{port_b}") as client:
            ur5 = client.robot(ROBOTS_DIR / "ur5.urdf")
            run = ur5.validate(programs, max_in_flight=4, timeout=30)
            results = [next(run) for _ in range(5)]
            replica_a.kill()
            replica_b.start()
            results.extend(run)
        counts = collections.Counter(r.request_id for r in results)
        self.assertEqual(len(counts), 40)
        self.assertEqual(set(counts.values()), {1})
        self.assertGreaterEqual(run.streams_opened, 2)
        self.assertEqual({r.request_id for r in results if not r.ok}, unreachable)


if __name__ == "__main__":
    unittest.main()
