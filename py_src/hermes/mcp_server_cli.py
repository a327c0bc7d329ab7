"""The entry module of dist/mcp-server.js (see cli/main.py): `node dist/mcp-server.js health|config|stdio`.

Transcrypt runs a main module's top-level code wherever the bundle is loaded, so the CLI starts only
when node was asked to run the CLI script itself (not when a test bundle imports this module)."""
# __pragma__('tconv')
from hermes.js.errors import error_message, JsError
from hermes.js.process import command_line, exit_process, script_name, write_stderr
from hermes.js.promises import spawn
from hermes.cli.main import run

SCRIPT_NAMES = ['mcp-server.js', 'mcp-server']


async def main() -> None:
    try:
        code = await run(command_line())
    except JsError as error:
        write_stderr('mcp-server.js: ' + error_message(error) + '\n')
        code = 1
    exit_process(code)


if script_name() in SCRIPT_NAMES:
    spawn(main())
