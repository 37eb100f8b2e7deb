#!/usr/bin/env python3
"""toolhook's MCP server and client, judged by the official Python MCP SDK (see README.md).

    check.py --demo BIN --conformance-server BIN --probe BIN

1. The SDK's client (`mcp.Client`) against toolhook's servers, in both protocol eras (`legacy`:
   2025-11-25 with `initialize` and sessions; `2026-07-28`: stateless; `auto`: discovered):
   the demo over stdio and Streamable HTTP, and the conformance server's tools (every kind of
   content, errors, progress, logs, questions asked in the call or as input-required results,
   structured content against its output schema) over Streamable HTTP.
2. toolhook's client (the `mcp-everything-probe` example, a registry with an `McpToolProvider`)
   against the SDK's server (`server.py`) over stdio and Streamable HTTP, with sessions and
   without, in both eras.

A check that fails, an exception the SDK raises, or a warning it logs is a failure. Exit status:
0 all passed, 1 something failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Awaitable, Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

HERE = Path(__file__).resolve().parent
LEGACY, MODERN = "2025-11-25", "2026-07-28"
#: The longest any one scenario may take; a hung server fails it instead of hanging CI.
SCENARIO_TIMEOUT = 120

failures: list[str] = []


class SdkWarnings(logging.Handler):
    """Every warning or error the SDK logs (a failed session termination, say)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.name}: {record.getMessage()}")


sdk_warnings = SdkWarnings()
logging.getLogger("mcp").addHandler(sdk_warnings)
# The 2025-11-25 sessions use ping and logging/setLevel on purpose; 2026-07-28 deprecates them.
warnings.simplefilter("ignore", MCPDeprecationWarning)


class Scenario:
    """One scenario's checks: each failed one is recorded under the scenario's name."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.failed = 0

    def check(self, ok: bool, what: str) -> None:
        if not ok:
            self.failed += 1
            failures.append(f"{self.name}: {what}")
            print(f"  FAIL {what}")


async def scenario(name: str, body: Callable[[Scenario], Awaitable[None]]) -> None:
    print(f"== {name}")
    s = Scenario(name)
    before = len(sdk_warnings.records)
    try:
        await asyncio.wait_for(body(s), SCENARIO_TIMEOUT)
    except BaseException as error:  # an ExceptionGroup from the SDK's task groups, a timeout
        s.check(False, f"raised {type(error).__name__}: {error}")
    for warning in sdk_warnings.records[before:]:
        s.check(False, f"the SDK logged: {warning}")
    if not s.failed:
        print("  ok")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def listening(command: list[str], port: int, log: Path):
    """Runs a server until the block ends, once its port accepts connections."""
    with open(log, "w") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{command[0]} did not start; see {log}")
                time.sleep(0.1)
        yield
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(item.text for item in result.content if isinstance(item, types.TextContent))


# ---- 1. the official client against toolhook's servers -------------------------------------------


async def demo_session(s: Scenario, target: Any, mode: str) -> None:
    async with Client(target, mode=mode, read_timeout_seconds=30) as client:
        era = LEGACY if mode == "legacy" else MODERN
        s.check(client.protocol_version == era, f"protocol {client.protocol_version}, expected {era}")
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        s.check({"tool_search", "weather"} <= tools.keys(), f"listed {sorted(tools)}")
        for tool in tools.values():
            s.check(tool.input_schema.get("type") == "object", f"{tool.name}'s input schema is no object")
        result = await client.call_tool("weather", {"city": "Paris"})
        s.check(not result.is_error and text_of(result).startswith("Paris"), f"weather: {result}")
        result = await client.call_tool("weather", {})
        s.check(result.is_error and "city" in text_of(result), f"weather without a city: {result}")
        result = await client.call_tool("tool_search", {"query": "weather"})
        s.check(not result.is_error and text_of(result) != "", f"tool_search: {result}")
        try:
            await client.call_tool("no_such_tool", {})
            s.check(False, "an unknown tool was not a protocol error")
        except MCPError as error:
            s.check("no_such_tool" in str(error), f"unknown tool: {error}")
        if mode == "legacy":
            await client.send_ping()


async def accept(_ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    content = {"username": "alice", "email": "alice@example.com", "name": "Alice", "confirmed": True, "ok": True}
    return types.ElicitResult(action="accept", content=content)


async def sample(_ctx: Any, _params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
    text = types.TextContent(type="text", text="sampled")
    return types.CreateMessageResult(role="assistant", content=text, model="judge", stop_reason="endTurn")


async def roots(_ctx: Any) -> types.ListRootsResult:
    return types.ListRootsResult(roots=[types.Root(uri="file:///tmp", name="tmp")])


def arguments_for(tool: types.Tool) -> dict[str, Any]:
    """A value of each property's type: the conformance tools take strings, or nothing."""
    samples = {"string": "x", "integer": 1, "number": 1.5, "boolean": True}
    properties = tool.input_schema.get("properties", {})
    return {name: samples.get(schema.get("type"), "x") for name, schema in properties.items()}


async def conformance_session(s: Scenario, url: str, mode: str) -> None:
    logs: list[types.LoggingMessageNotificationParams] = []

    async def log(params: types.LoggingMessageNotificationParams) -> None:
        logs.append(params)

    async with Client(
        url,
        mode=mode,
        read_timeout_seconds=30,
        elicitation_callback=accept,
        sampling_callback=sample,
        list_roots_callback=roots,
        logging_callback=log,
        log_level="debug",
    ) as client:
        if mode == "legacy":
            await client.set_logging_level("debug")
        tools = (await client.list_tools()).tools
        s.check(len(tools) >= 25, f"only {len(tools)} tools listed")
        for tool in tools:
            if tool.name == "test_trigger_tool_change":
                continue  # changes the list the loop walks
            progress: list[tuple[float, float | None, str | None]] = []

            async def on_progress(done: float, total: float | None, message: str | None) -> None:
                progress.append((done, total, message))

            heard = len(logs)
            result = await client.call_tool(tool.name, arguments_for(tool), progress_callback=on_progress)
            text = text_of(result)
            s.check(result.is_error == (tool.name == "test_error_handling"), f"{tool.name}: {result}")
            if tool.name == "test_tool_with_progress":
                s.check(len(progress) == 3, f"{tool.name}: progress heard {progress}")
            if tool.name == "test_tool_with_logging":
                s.check(len(logs) > heard, f"{tool.name}: no log message arrived")
            if tool.name.startswith("test_elicitation") or tool.name == "test_streaming_elicitation":
                s.check("Accept" in text, f"{tool.name}: {text!r}")
            if tool.name in ("test_sampling", "test_input_required_result_sampling"):
                s.check("sampled" in text, f"{tool.name}: {text!r}")
            if tool.name == "test_input_required_result_list_roots":
                s.check("file:///tmp" in text, f"{tool.name}: {text!r}")
            if tool.name == "test_structured_content":
                # The client has checked the structured content against the output schema.
                s.check(tool.output_schema is not None, f"{tool.name} has no output schema")
                expected = {"city": "x", "celsius": 21.5, "sunny": True}
                s.check(result.structured_content == expected, f"{tool.name}: {result.structured_content}")
        s.check(any(t.name == "test_structured_content" for t in tools), "test_structured_content not listed")


# ---- 2. toolhook's client against the official server --------------------------------------------


def probe(binary: str, target: list[str], protocol: str, calls: list[tuple[str, dict[str, Any]]]) -> list[dict]:
    command = [binary, *target, "--protocol", protocol]
    for name, arguments in calls:
        command += ["--call", name, json.dumps(arguments)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=SCENARIO_TIMEOUT)
    if done.returncode != 0:
        raise RuntimeError(f"the probe failed ({done.returncode}): {done.stderr[-2000:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def check_probe(s: Scenario, lines: list[dict], era: str, asks: bool) -> None:
    listed = {tool["name"] for tool in lines[0]["tools"]}
    s.check({"add", "forecast", "fail", "progress", "ask"} <= listed, f"listed {sorted(listed)}")
    # One line per call, in the order `official_server` made them.
    add, forecast, fail, progress, bad, *asked = lines[1:]
    s.check(not add["is_error"] and add["text"] == "3", f"add: {add}")
    s.check(add["result"]["structured_content"] == {"result": 3}, f"add's structured content: {add['result']}")
    s.check(add["result"]["metadata"].get("protocol_version") == era, f"era {add['result']['metadata']}, expected {era}")
    expected = {"city": "Paris", "celsius": 21.5, "sunny": True}
    s.check(forecast["result"]["structured_content"] == expected, f"forecast: {forecast['result']}")
    s.check(fail["is_error"] and "failed because x" in fail["text"], f"fail: {fail}")
    s.check(not progress["is_error"] and progress["text"] == "3 steps", f"progress: {progress}")
    s.check(bad["is_error"], f"add with a text for a number: {bad}")
    if asks:
        # Without a caller to ask, toolhook's client declines the server's question.
        (ask,) = asked
        s.check(not ask["is_error"] and "decline" in ask["text"], f"ask: {ask}")


async def official_server(s: Scenario, probe_bin: str, target: list[str], protocol: str, asks: bool) -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("add", {"a": 1, "b": 2}),
        ("forecast", {"city": "Paris"}),
        ("fail", {"reason": "x"}),
        ("progress", {}),
        ("add", {"a": "x", "b": 2}),
    ]
    if asks:
        calls.append(("ask", {"what": "it"}))
    lines = await asyncio.to_thread(probe, probe_bin, target, protocol, calls)
    era = LEGACY if protocol == LEGACY else MODERN
    check_probe(s, lines, era, asks)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--demo", required=True)
    parser.add_argument("--conformance-server", required=True)
    parser.add_argument("--probe", required=True)
    options = parser.parse_args()
    logs = Path(tempfile.mkdtemp(prefix="toolhook-mcp-python."))
    python = sys.executable
    if " " in python or " " in str(HERE):
        # The probe takes its stdio command as one line split at spaces.
        print(f"error: paths with spaces are not supported here: {python}, {HERE}")
        return 2

    for mode in ("legacy", "auto", MODERN):
        with open(logs / f"demo-stdio-{mode}.log", "w") as errlog:
            stdio = stdio_client(StdioServerParameters(command=options.demo, args=["--mcp-stdio"]), errlog=errlog)
            await scenario(f"official client -> demo, stdio, {mode}", lambda s, m=mode: demo_session(s, stdio, m))
        port = free_port()
        with listening([options.demo, "--mcp-http", f"127.0.0.1:{port}"], port, logs / f"demo-{mode}.log"):
            url = f"http://127.0.0.1:{port}/mcp"
            await scenario(f"official client -> demo, HTTP, {mode}", lambda s, m=mode: demo_session(s, url, m))
    for mode in ("legacy", MODERN):
        port = free_port()
        with listening([options.conformance_server, "--port", str(port)], port, logs / f"conformance-{mode}.log"):
            url = f"http://127.0.0.1:{port}/mcp"
            await scenario(
                f"official client -> conformance server's tools, HTTP, {mode}",
                lambda s, m=mode: conformance_session(s, url, m),
            )

    server = str(HERE / "server.py")
    for protocol in ("auto", LEGACY):
        await scenario(
            f"toolhook client -> official server, stdio, {protocol}",
            lambda s, p=protocol: official_server(s, options.probe, ["--stdio", f"{python} {server}"], p, p == LEGACY),
        )
        for sessions in (True, False):
            port = free_port()
            command = [python, server, "http", str(port)] + ([] if sessions else ["stateless"])
            kind = "sessions" if sessions else "stateless"
            with listening(command, port, logs / f"official-{kind}-{protocol}.log"):
                target = ["--url", f"http://127.0.0.1:{port}/mcp"]
                # A stateless server has no way to ask the client anything in either era.
                asks = sessions and protocol == LEGACY
                await scenario(
                    f"toolhook client -> official server, HTTP with {kind}, {protocol}",
                    lambda s, t=target, p=protocol, a=asks: official_server(s, options.probe, t, p, a),
                )

    if failures:
        print(f"\n{len(failures)} failed (servers' logs in {logs}):")
        for failure in failures:
            print(f"  {failure}")
        return 1
    print("\nall passed")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
