"""scripts/stack.py refuses a port another program holds, saying which, rather than
running on against another stack's Redis or web process."""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import socket
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"


@pytest.fixture
def stack_module(monkeypatch):
    monkeypatch.syspath_prepend(str(SCRIPTS))
    spec = importlib.util.spec_from_file_location("stack_script", SCRIPTS / "stack.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("stack_script", None)


def stack_on(stack_module, *, redis_port: int, web_port: int):
    parser = argparse.ArgumentParser()
    stack_module.add_stack_arguments(parser, web_ports=[web_port, web_port + 1],
                                     redis_port=redis_port)
    return stack_module.Stack(parser.parse_args([]), name="porttest")


@pytest.mark.parametrize("taken", ["redis", "web0"])
def test_a_taken_port_stops_the_start_and_names_the_port(stack_module, taken):
    with socket.create_server(("127.0.0.1", 0)) as holder:
        port = holder.getsockname()[1]
        other = socket.create_server(("127.0.0.1", 0))
        other_port = other.getsockname()[1]
        other.close()
        ports = {"redis_port": port, "web_port": other_port} if taken == "redis" \
            else {"redis_port": other_port, "web_port": port}
        stack = stack_on(stack_module, **ports)
        try:
            with pytest.raises(RuntimeError, match=f"port {port} \\({taken}\\) is in use"):
                stack.start(taken)
        finally:
            shutil.rmtree(stack.dir, ignore_errors=True)
    assert stack.procs == {}  # nothing was started on it
