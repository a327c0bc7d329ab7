import pytest
import vscode
from hermes.host import live_values


@pytest.fixture(autouse=True)
def fresh_vscode():
    """Every test starts with an empty VS Code: no commands, no channels, no settings."""
    vscode.reset()
    yield vscode
    live_values.stop()  # a test that activated without disposing its context leaves no cache behind


@pytest.fixture
def context():
    ctx = vscode.ExtensionContext()
    yield ctx
    ctx.dispose_all()
