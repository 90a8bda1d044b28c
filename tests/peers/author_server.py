"""A server as its author writes it, on the official Python SDK (mcp 2, MCPServer): the tests
copy this file, run it, then edit the copy (a tool added, a result changed) as an author would.

Usage: author_server.py   (stdio)
"""
from pydantic import BaseModel

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

mcp = MCPServer("author")


class Total(BaseModel):
    total: int
    items: int


# Read-only: `--watch --rerun` makes only such calls again.
@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@mcp.tool()
def total(values: list[int]) -> Total:
    """Sum a list of integers."""
    return Total(total=sum(values), items=len(values))


@mcp.prompt()
def hello(name: str) -> str:
    """Say hello."""
    return f"Hello, {name}!"


# EDIT-HERE


if __name__ == "__main__":
    mcp.run()
