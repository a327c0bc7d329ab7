"""Run by the fastmcp venv's Python (not ours): connect with fastmcp's Client, list the tools, read one file.
    python fastmcp_call.py URL TOKEN MODE PATH   (MODE: auto | legacy | sse)
Prints one JSON line: {"tools": [...], "text": "..."}."""
import asyncio
import json
import sys

from fastmcp import Client
from fastmcp.client.transports import SSETransport, StreamableHttpTransport


async def main(url, token, mode, path):
    headers = {'Authorization': 'Bearer ' + token}
    if mode == 'sse':
        client = Client(SSETransport(url, headers=headers))
    else:
        client = Client(StreamableHttpTransport(url, headers=headers), mode=mode)
    async with client:
        tools = await client.list_tools()
        result = await client.call_tool('file_read', {'path': path})
    print(json.dumps({'tools': [tool.name for tool in tools], 'text': result.content[0].text}))


asyncio.run(main(*sys.argv[1:]))
