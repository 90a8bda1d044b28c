#!/usr/bin/env python3
"""An MCP server with planted bugs for `mcp-inspect verify` (stdlib Python, stdio):

- grade(n: 0..10000) -> {grade, label}: its outputSchema says grade <= 500, broken for every
  n > 500, and a label of at most 3 characters, broken (a second, distinct bug) for every even
  n under 100;
- shout(text): a JSON-RPC error whenever the text holds a `~`;
- wipe(): destructive; it writes the file named by $PLANTED_MARKER, proof that it was called;
- fine(flag): read-only and always right.
"""
import json
import os
import sys

TOOLS = [
    {
        "name": "grade",
        "description": "Grades n.",
        "annotations": {"readOnlyHint": True},
        "inputSchema": {
            "type": "object",
            "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 10000}},
            "required": ["n"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "grade": {"type": "integer", "maximum": 500},
                "label": {"type": "string", "maxLength": 3},
            },
            "required": ["grade"],
        },
    },
    {
        "name": "shout",
        "description": "Shouts the text.",
        "annotations": {"readOnlyHint": True},
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string", "maxLength": 40}},
            "required": ["text"],
        },
    },
    {
        "name": "wipe",
        "description": "Wipes everything (it writes a marker file).",
        "annotations": {"readOnlyHint": False, "destructiveHint": True},
        "inputSchema": {"type": "object", "properties": {}},
    },
    {
        "name": "fine",
        "description": "Always right.",
        "annotations": {"readOnlyHint": True},
        "inputSchema": {"type": "object", "properties": {"flag": {"type": "boolean"}}},
        "outputSchema": {
            "type": "object",
            "properties": {"ok": {"type": "boolean"}},
            "required": ["ok"],
        },
    },
]


def result(id, value):
    return {"jsonrpc": "2.0", "id": id, "result": value}


def error(id, code, message):
    return {"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}


def call(id, name, args):
    if name == "grade":
        n = args.get("n", 0)
        label = "small" if n < 100 and n % 2 == 0 else "ok"
        return result(id, {"content": [{"type": "text", "text": str(n)}], "structuredContent": {"grade": n, "label": label}})
    if name == "shout":
        text = args.get("text", "")
        if "~" in text:
            return error(id, -32603, "internal error: unexpected ~")
        return result(id, {"content": [{"type": "text", "text": text.upper()}]})
    if name == "wipe":
        with open(os.environ.get("PLANTED_MARKER", "/dev/null"), "w") as marker:
            marker.write("wiped")
        return result(id, {"content": [{"type": "text", "text": "wiped"}]})
    if name == "fine":
        return result(id, {"content": [{"type": "text", "text": "ok"}], "structuredContent": {"ok": True}})
    return error(id, -32602, f"unknown tool: {name}")


def answer(message):
    id, method = message.get("id"), message.get("method")
    params = message.get("params") or {}
    if id is None:
        return None
    if method == "initialize":
        return result(id, {
            "protocolVersion": params.get("protocolVersion", "2025-11-25"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "planted", "version": "1"},
        })
    if method == "ping":
        return result(id, {})
    if method == "tools/list":
        return result(id, {"tools": TOOLS})
    if method == "tools/call":
        return call(id, params.get("name"), params.get("arguments") or {})
    return error(id, -32601, f"method not found: {method}")


for line in sys.stdin:
    try:
        reply = answer(json.loads(line))
    except (ValueError, AttributeError):
        continue
    if reply is not None:
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
