"""A server on the official Python SDK (mcp 2, MCPServer) over Streamable HTTP, as its docs
start one: a read-only tool, a resource, a template and a prompt with an argument, for `conform`
side by side with the official conformance suite; `regional` asks for an `Mcp-Param-Region`
header (SEP-2243).

Usage: python_sdk_http.py PORT
"""
import sys
from typing import Annotated

from pydantic import Field

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

mcp = MCPServer("python-sdk-http")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def regional(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
    """Echo the region (also sent as the Mcp-Param-Region header in the 2026 era)."""
    return region


@mcp.resource("notes://today")
def today() -> str:
    """Today's note."""
    return "Nothing planned."


@mcp.resource("notes://{day}")
def note(day: str) -> str:
    """A day's note."""
    return f"Nothing planned on {day}."


@mcp.prompt()
def review(code: str) -> str:
    """Review a piece of code."""
    return f"Please review:\n{code}"


if __name__ == "__main__":
    mcp.run("streamable-http", port=int(sys.argv[1]))
