"""An MCP server on the official Python SDK (MCPServer), for toolhook's client to use as any host
would: typed tools with structured output, a tool error, progress, and a question for the user.

    python server.py                      # stdio
    python server.py http PORT            # Streamable HTTP with sessions at http://127.0.0.1:PORT/mcp
    python server.py http PORT stateless  # ... without sessions
"""

import sys

from pydantic import BaseModel, Field

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer("toolhook-judge")


class Forecast(BaseModel):
    city: str
    celsius: float = Field(description="Degrees Celsius")
    sunny: bool


class Confirm(BaseModel):
    ok: bool


@server.tool()
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b


@server.tool()
def forecast(city: str, days: int = 1) -> Forecast:
    """The weather of a city."""
    return Forecast(city=city, celsius=21.5, sunny=days > 0)


@server.tool()
def fail(reason: str) -> str:
    """Always fails, saying why."""
    raise ToolError(f"failed because {reason}")


@server.tool()
async def progress(ctx: Context, steps: int = 3) -> str:
    """Reports its progress."""
    for step in range(steps):
        await ctx.report_progress(step + 1, steps, f"step {step + 1}")
    return f"{steps} steps"


@server.tool()
async def ask(ctx: Context, what: str) -> str:
    """Asks the user to confirm."""
    reply = await ctx.elicit(f"Confirm {what}?", Confirm)
    return f"{reply.action}"


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "http":
        server.run("streamable-http", port=int(sys.argv[2]), stateless_http=sys.argv[3:] == ["stateless"])
    else:
        server.run()
