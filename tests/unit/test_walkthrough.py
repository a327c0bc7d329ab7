"""The walkthrough's steps complete by themselves (ui/walkthrough.py): a context key set once when an agent has
answered (a reply that ended done — not one that failed), a terminal CLI connected to a door, an MCP client connected."""
import vscode

from hermes.ui.walkthrough import (Walkthrough, AGENT_ANSWERED_CONTEXT, MCP_CLIENT_CONTEXT, TERMINAL_AGENT_CONTEXT,
                                   register_walkthrough)


class Conversation:
    def __init__(self, *statuses):
        self.messages = [{'role': 'user', 'text': 'hi'}] + [{'role': 'assistant', 'status': s} for s in statuses]


def contexts():
    return [args for command, args in vscode.commands.executed if command == 'setContext']


class Store:
    def __init__(self):
        self.listeners = []

    def on_change(self, listener):
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)


class Doors:
    def __init__(self):
        self.listeners, self.connected = [], []

    def on_change(self, listener):
        self.listeners.append(listener)

    def describe(self):
        return self.connected


class Mcp:
    def __init__(self):
        self.client_listeners = []


def test_each_step_completes_once_on_what_it_explains():
    store, doors, mcp = Store(), Doors(), Mcp()
    register_walkthrough(vscode.ExtensionContext(), store, doors, mcp)
    for listener in store.listeners:
        listener(Conversation('error'), 'panel')  # a failed reply is no answer
        listener(None, 'panel')
    assert contexts() == []
    for listener in store.listeners:
        listener(Conversation('error', 'done'), 'panel')
        listener(Conversation('done'), 'session')
    for listener in doors.listeners:
        listener()  # nothing connected yet
    doors.connected = [{'client': 'Claude Code'}]
    for listener in doors.listeners:
        listener()
    for listener in mcp.client_listeners:
        listener(0)
        listener(2)
    assert contexts() == [(AGENT_ANSWERED_CONTEXT, True), (TERMINAL_AGENT_CONTEXT, True), (MCP_CLIENT_CONTEXT, True)]
