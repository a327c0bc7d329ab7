import pytest
import vscode


@pytest.fixture(autouse=True)
def fresh_vscode():
    """Every test starts with an empty VS Code: no commands, no channels, no settings."""
    vscode.reset()
    yield vscode


@pytest.fixture
def context():
    ctx = vscode.ExtensionContext()
    yield ctx
    ctx.dispose_all()
