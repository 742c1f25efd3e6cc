"""Motion programs: motionctl's JSON program format to motion.v1.PlanPathRequest.

A program is the JSON form of ``PlanPathRequest`` (proto field names or
their lowerCamelCase JSON names), except that ``"robot"`` may be a plain
string — a robot name, a robot_id or a URDF path — instead of a RobotRef
object (clients/motionctl/program_file.h; examples in clients/examples/).
"""
from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Optional, Union

from google.protobuf import json_format

from motiond._stubs import motion_planner_pb2
from motiond.errors import ProgramError

#: A program: a dict in the JSON format, a path to such a file (str or
#: PathLike), JSON text, or a PlanPathRequest.
ProgramLike = Union[Mapping[str, Any], str, "os.PathLike[str]", motion_planner_pb2.PlanPathRequest]


@dataclass
class Program:
    """A program read into a request.

    Attributes:
        request: the PlanPathRequest (its ``robot`` holds what a RobotRef
            object in the program gave; empty when ``robot_word`` is set).
        robot_word: the ``"robot"`` string (name, robot_id or URDF path),
            or None when the program gave an object or nothing.
        path: the file it was read from, if any.
    """

    request: motion_planner_pb2.PlanPathRequest
    robot_word: Optional[str] = None
    path: Optional[Path] = None

    def urdf_path(self) -> Optional[Path]:
        """The URDF file ``robot_word`` names, if it names one: relative
        paths are tried from the working directory, then from the program's
        folder (so a program next to its URDF works from anywhere)."""
        if not self.robot_word or self.robot_word.startswith("sha256:"):
            return None
        candidates = [Path(self.robot_word)]
        if self.path is not None and not Path(self.robot_word).is_absolute():
            candidates.append(self.path.parent / self.robot_word)
        return next((c for c in candidates if c.is_file()), None)


def _from_document(document: Any, where: str) -> Program:
    if not isinstance(document, Mapping):
        raise ProgramError(f"{where}: a program is a JSON object, got {type(document).__name__}")
    fields = dict(copy.deepcopy(document))
    robot_word = None
    if isinstance(fields.get("robot"), str):
        robot_word = fields.pop("robot")
    request = motion_planner_pb2.PlanPathRequest()
    try:
        json_format.ParseDict(fields, request)
    except json_format.ParseError as error:
        raise ProgramError(f"{where}: not a motion program: {error}") from error
    return Program(request, robot_word)


def load_program(program: ProgramLike) -> Program:
    """Reads any :data:`ProgramLike` into a :class:`Program`.

    Raises:
        ProgramError: the file cannot be read, is not JSON, or does not
            match PlanPathRequest (the message names the field).
    """
    if isinstance(program, motion_planner_pb2.PlanPathRequest):
        request = motion_planner_pb2.PlanPathRequest()
        request.CopyFrom(program)
        return Program(request)
    if isinstance(program, Mapping):
        return _from_document(program, "program")
    if isinstance(program, str) and program.lstrip().startswith("{"):
        try:
            document = json.loads(program)
        except json.JSONDecodeError as error:
            raise ProgramError(f"program text: not JSON: {error}") from error
        return _from_document(document, "program text")
    if isinstance(program, (str, os.PathLike)):
        path = Path(program)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise ProgramError(f"cannot read program {path}: {error}") from error
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise ProgramError(f"{path}: not JSON: {error}") from error
        loaded = _from_document(document, str(path))
        loaded.path = path
        return loaded
    raise ProgramError(
        f"not a program: {type(program).__name__} (give a dict in motionctl's JSON format, "
        "a path to such a file, JSON text, or a PlanPathRequest)")
