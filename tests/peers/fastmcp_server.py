"""A small fastmcp server for mcp-inspect's tests: scalar, object, optional and failing tools,
a text and a binary resource, a resource template, and a prompt with arguments.

Usage: fastmcp_server.py            (stdio)
       fastmcp_server.py http PORT  (Streamable HTTP at 127.0.0.1:PORT/mcp)
"""
import sys
from typing import Annotated

from fastmcp import FastMCP
from pydantic import BaseModel, Field

mcp = FastMCP("inspect-fastmcp")


class Point(BaseModel):
    x: float
    y: float
    label: str = "origin"


@mcp.tool
def add(a: int, b: int) -> int:
    """Add two integers (boxed by fastmcp)."""
    return a + b


@mcp.tool
def greet(name: str) -> str:
    """Greet someone (boxed string)."""
    return f"Hello, {name}!"


@mcp.tool
def get_point(x: float, y: float) -> Point:
    """Return an object (not boxed)."""
    return Point(x=x, y=y)


@mcp.tool
def maybe_number(give: bool) -> int | None:
    """Return a number or null (boxed nullable)."""
    return 7 if give else None


@mcp.tool
def fail(reason: str = "no") -> int:
    """Always raises: the result is isError."""
    raise ValueError(f"failed: {reason}")


@mcp.tool
def regional(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
    """Echo the region (also sent as the Mcp-Param-Region header in the 2026 era)."""
    return region


@mcp.tool
def bad_header(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Has Space"})]) -> str:
    """An invalid x-mcp-header: 2026 clients must drop this tool; an inspector shows why."""
    return region


@mcp.resource("config://app", mime_type="application/json")
def app_config() -> dict:
    """The app's settings."""
    return {"theme": "dark", "retries": 3}


@mcp.resource("data://dot.gif", mime_type="image/gif")
def dot() -> bytes:
    """A 1x1 GIF (a blob)."""
    return bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")


@mcp.resource("users://{user_id}/profile")
def profile(user_id: str) -> dict:
    """A user's profile."""
    return {"id": user_id, "name": f"User {user_id}"}


@mcp.prompt
def summarize(text: str, style: str = "short") -> str:
    """Summarize a text."""
    return f"Summarize in a {style} style: {text}"


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "http":
        mcp.run(transport="http", host="127.0.0.1", port=int(sys.argv[2]), show_banner=False)
    else:
        mcp.run(show_banner=False)
