"""What the coding-agent CLIs' tests share (Claude Code, Codex, Gemini CLI): running one pinned CLI in its own HOME,
fully offline, keeping what it printed, and reading what the window's log says about the clients that connected.

Each CLI adds our server with the command `node dist/mcp-server.js config --client <name>` prints (the text
**Copy MCP Config** puts on the clipboard), then talks to a scripted model server of ours (tests/llm_server)."""
import os
import re
import shlex
import subprocess
import time
from pathlib import Path

from conftest import NODE, client_dir, complaints, record

NODE_BIN = str(Path(NODE).parent)  # the CLIs are `#!/usr/bin/env node` scripts (Claude Code and Codex start a binary)


def cli_path(client, name):
    return str(client_dir(client) / 'node_modules' / '.bin' / name)


def run_cli(client, executable, args, env, workspace, title, timeout=240):
    """One command of a CLI, its stdout and stderr recorded under tests/artifacts/clients/<client>.log."""
    started = time.monotonic()
    result = subprocess.run([cli_path(client, executable)] + list(args), capture_output=True, text=True,
                            timeout=timeout, cwd=str(workspace), env=env, stdin=subprocess.DEVNULL)
    record(client, f'{title} (exit {result.returncode}, {time.monotonic() - started:.1f} s)',
           '$ ' + ' '.join([executable] + [shlex.quote(arg) for arg in args]) + '\n--- stdout\n' + result.stdout +
           '\n--- stderr\n' + result.stderr)
    return result


def offline_env(home, **more):
    """A CLI's environment: its own HOME and nothing of the user's (no proxies, no real keys)."""
    env = {key: value for key, value in os.environ.items()
           if not re.match(r'(ANTHROPIC|OPENAI|CODEX|GEMINI|GOOGLE|CLAUDE)_|HTTPS?_PROXY|ALL_PROXY', key, re.I)}
    env.update(HOME=str(home), NO_COLOR='1', PATH=NODE_BIN + os.pathsep + os.environ.get('PATH', ''))
    env.update(more)
    return env


def about_us(text, window):
    """The lines of a CLI's output that speak of our server: its name, its address, its tools."""
    marks = ['vscode', str(window['port']), 'hermes', 'mcp']
    return [line for line in text.splitlines() if any(mark in line.lower() for mark in marks)]


def complaints_about_us(text, window):
    return complaints('\n'.join(about_us(text, window)))


def spoken_revision(code_server, client, revision):
    """Wait for the window's log to say that `client` (a regex for its clientInfo name) spoke `revision`: the
    handshake's line, or the one a 2026-07-28 client gets the first time it speaks; returns the line."""
    found = code_server.wait_for_log(rf'mcp: (?:initialize: {client} \S+ asked for \S+, speaking {revision}\b|'
                                     rf'{client} \S+ speaks {revision} )', timeout=30)
    return found.group(0)
