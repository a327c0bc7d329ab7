"""Fakes shared by the panel's unit tests."""


class Log:
    """Stands in for the extension's output channel: records (level, message)."""

    def __init__(self):
        self.lines = []

    def info(self, message):
        self.lines.append(('info', message))

    def warn(self, message):
        self.lines.append(('warn', message))

    def error(self, message, error=None):
        self.lines.append(('error', message))
