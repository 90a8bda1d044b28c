"""A fastmcp server with the 2026 tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`)
from `fastmcp-tasks`, the one runtime of it published: the fixture tools the official
conformance suite's `tasks-*` scenarios call (`greet`, `slow_compute`, `failing_job`,
`protocol_error_job`, `test_tool_with_task`, and `confirm_delete`, which asks a question first;
not `multi_input`), so `conform` and the suite can be compared on one real implementation.

Usage: fastmcp_tasks_server.py [--asking-first]            (stdio)
       fastmcp_tasks_server.py http PORT [--asking-first]  (Streamable HTTP at 127.0.0.1:PORT/mcp)
"""
import asyncio
import sys

from fastmcp import Context, FastMCP
from fastmcp.tools.base import InputRequiredToolResult, ToolResult
from fastmcp.utilities.tasks import TaskConfig
from fastmcp_tasks import TasksExtension
from mcp.shared.exceptions import MCPError
from mcp_types import ErrorData, InputRequiredResult, TextContent

mcp = FastMCP("inspect-fastmcp-tasks")
mcp.add_extension(TasksExtension(url="memory://"))


# Deletes nothing: it asks whether to (a task waiting for input, SEP-2322 on SEP-2663), then says
# what it was told.
async def confirm_delete(filename: str, ctx: Context) -> str:
    """Ask whether to delete `filename` (nothing is deleted), then say the answer."""
    answer = (ctx.input_responses or {}).get("confirm")
    if answer is None:
        question = {"method": "elicitation/create", "params": {
            "mode": "form", "message": f"Delete {filename}?",
            "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}}}}
        return InputRequiredToolResult(
            InputRequiredResult(result_type="input_required", input_requests={"confirm": question}))
    answer = answer.model_dump() if hasattr(answer, "model_dump") else answer
    return f"{filename}: {answer.get('action')} {answer.get('content')}"


def register_confirm_delete():
    mcp.tool(task=True, annotations={"readOnlyHint": True})(confirm_delete)


# `--asking-first` lists it first: the first tool a client finds made a task asks a question.
ASKING_FIRST = "--asking-first" in sys.argv
if ASKING_FIRST:
    register_confirm_delete()


@mcp.tool(annotations={"readOnlyHint": True})
def greet(name: str) -> str:
    """Greet someone, at once (never a task)."""
    return f"Hello, {name}!"


@mcp.tool(task=True, annotations={"readOnlyHint": True})
async def slow_compute(seconds: float = 1, label: str = "") -> str:
    """Sleep `seconds`, then answer (a task when the client opted in)."""
    await asyncio.sleep(seconds)
    return f"computed {label} after {seconds} s"


# The suite's lifecycle scenario calls it as a task, its required-task scenario without one.
@mcp.tool(task=TaskConfig(mode="required"), annotations={"readOnlyHint": True})
async def failing_job() -> ToolResult:
    """Run for a second as a task, then report a tool error (a result with isError)."""
    await asyncio.sleep(1)
    return ToolResult(content=[TextContent(type="text", text="the job failed")], is_error=True)


@mcp.tool(task=True, annotations={"readOnlyHint": True})
async def protocol_error_job() -> str:
    """Fail with a protocol error (a JSON-RPC error, not a tool result)."""
    await asyncio.sleep(0.2)
    raise MCPError(ErrorData(code=-32603, message="the job broke"))


@mcp.tool(task=TaskConfig(mode="required"), annotations={"readOnlyHint": True})
async def test_tool_with_task() -> str:
    """Runs only as a task (a client that did not declare the extension is refused)."""
    return "ran as a task"


if not ASKING_FIRST:
    register_confirm_delete()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--asking-first"]
    if len(args) >= 2 and args[0] == "http":
        mcp.run(transport="http", host="127.0.0.1", port=int(args[1]), show_banner=False)
    else:
        mcp.run(show_banner=False)
