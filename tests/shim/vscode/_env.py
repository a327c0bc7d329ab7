"""vscode.env: the app name and the clipboard."""
from vscode._events import resolved


class _Clipboard:
    def __init__(self):
        self.text = ''

    def writeText(self, text):
        self.text = text
        return resolved(None)

    def readText(self):
        return resolved(self.text)


class _Env:
    def __init__(self):
        self.appName = 'Visual Studio Code (shim)'
        self.clipboard = _Clipboard()
        self.appRoot = None
        self.opened = []  # every URI openExternal was asked to open (as its text)

    def openExternal(self, uri):
        """Opens nothing: records the address (the user's browser would get it) and says it was opened."""
        self.opened.append(uri.toString())
        return resolved(True)
