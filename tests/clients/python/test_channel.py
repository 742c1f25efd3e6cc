"""Target resolution and the channel's service config (no server): the
addresses gRPC is given, and the retry policy it is told to apply."""
from __future__ import annotations

import json
import unittest

from motiond.channel import resolve_target, service_config


class ResolveTargetTest(unittest.TestCase):
    def test_single_addresses_and_uris_pass_through(self) -> None:
        for target in ["127.0.0.1:50051", "motiond:50051", "dns:///motiond-headless:50051",
                       "ipv4:10.0.0.1:1,10.0.0.2:2", "unix:/run/motiond.sock"]:
            with self.subTest(target=target):
                self.assertEqual(resolve_target(target), target)

    def test_a_list_becomes_the_static_multi_address_target(self) -> None:
        self.assertEqual(resolve_target("10.0.0.1:50051, 10.0.0.2:50051"),
                         "ipv4:10.0.0.1:50051,10.0.0.2:50051")
        self.assertEqual(resolve_target("[::1]:5,[::1]:6"), "ipv6:[::1]:5,[::1]:6")

    def test_host_names_in_a_list_are_resolved(self) -> None:
        # localhost resolves to 127.0.0.1 (and maybe ::1, which a v4 target drops).
        self.assertEqual(resolve_target("localhost:5,127.0.0.1:6"),
                         "ipv4:127.0.0.1:5,127.0.0.1:6")

    def test_an_address_without_a_port_is_refused(self) -> None:
        with self.assertRaises(ValueError):
            resolve_target("10.0.0.1,10.0.0.2:50051")


class ServiceConfigTest(unittest.TestCase):
    def test_round_robin_and_retries_of_unavailable_for_every_service(self) -> None:
        config = json.loads(service_config(4))
        self.assertEqual(config["loadBalancingConfig"], [{"round_robin": {}}])
        method = config["methodConfig"][0]
        self.assertEqual({n["service"] for n in method["name"]},
                         {"motion.v1.RobotRegistry", "motion.v1.Kinematics",
                          "motion.v1.MotionPlanner", "motion.v1.Geometry", "motion.v1.Info"})
        self.assertEqual(method["retryPolicy"]["retryableStatusCodes"], ["UNAVAILABLE"])
        self.assertEqual(method["retryPolicy"]["maxAttempts"], 4)

    def test_one_attempt_means_no_retry_policy(self) -> None:
        # gRPC rejects a retry policy with maxAttempts < 2.
        self.assertNotIn("retryPolicy", json.loads(service_config(1))["methodConfig"][0])
        self.assertEqual(json.loads(service_config(9))["methodConfig"][0]["retryPolicy"]
                         ["maxAttempts"], 5)


if __name__ == "__main__":
    unittest.main()
