"""A small fastmcp server for mcp-inspect's tests: scalar, object, optional and failing tools.

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


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "http":
        mcp.run(transport="http", host="127.0.0.1", port=int(sys.argv[2]), show_banner=False)
    else:
        mcp.run(show_banner=False)
