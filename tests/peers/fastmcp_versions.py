"""Two versions of one small fastmcp server, for `mcp-inspect diff`: version 2 makes `limit`
required, changes what `count` returns and adds a tool; its `summarize` prompt gains a required
argument and its `notes://all` resource changes its MIME type.

Usage: fastmcp_versions.py [--v2]   (stdio)
"""
import sys

from fastmcp import FastMCP

V2 = "--v2" in sys.argv
mcp = FastMCP("inspect-versions")

if V2:

    @mcp.tool
    def search(query: str, limit: int) -> list[str]:
        """Search the notes."""
        return [query] * limit

    @mcp.tool
    def count(text: str) -> str:
        """Count the words, in words."""
        return str(len(text.split()))

    @mcp.tool
    def stats() -> dict:
        """New in version 2."""
        return {}

    @mcp.prompt
    def summarize(text: str, style: str) -> str:
        """Summarize a text."""
        return f"Summarize in a {style} style: {text}"

    @mcp.resource("notes://all", mime_type="application/json")
    def notes() -> str:
        return "[]"

else:

    @mcp.tool
    def search(query: str, limit: int = 10) -> list[str]:
        """Search the notes."""
        return [query] * limit

    @mcp.tool
    def count(text: str) -> int:
        """Count the words."""
        return len(text.split())

    @mcp.prompt
    def summarize(text: str) -> str:
        """Summarize a text."""
        return f"Summarize: {text}"

    @mcp.resource("notes://all", mime_type="text/plain")
    def notes() -> str:
        return ""


if __name__ == "__main__":
    mcp.run(show_banner=False)
