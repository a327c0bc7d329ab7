"""Commands of the embedded agent: `hermes.setApiKey` stores the LLM API key in SecretStorage."""
# __pragma__('tconv')
from hermes.js.modules import vscode
from hermes.host.llm_service import register_llm_service
from hermes.ui.commands import register_command
# __pragma__('skip')
from typing import TYPE_CHECKING, Optional
from hermes.core.tools import ToolRegistry
from hermes.host.llm_service import LlmService
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')


def register_llm(context: 'ExtensionContext', log: 'Log', registry: 'ToolRegistry') -> LlmService:
    """The LLM service (client + shared agent loop) and its commands; returns the service."""
    llm = register_llm_service(context, log, registry)
    register_llm_commands(context, llm)
    return llm


def register_llm_commands(context: 'ExtensionContext', llm: 'LlmService') -> None:
    async def set_api_key(value: 'Optional[str]' = None) -> bool:
        """Ask for the key (masked); an empty answer removes it. `value` skips the prompt (tests, scripts)."""
        if value is None:
            value = await vscode.window.showInputBox({
                'title': 'Hermes: Set API Key',
                'prompt': 'API key for ' + llm.describe() + ' (sent as "Authorization: Bearer …"). '
                          'Leave empty to remove the stored key.',
                'password': True,
                'ignoreFocusOut': True,
                'placeHolder': 'sk-…',
            })
            if value is None:
                return False  # dismissed: keep what is stored
        value = value.strip()
        await llm.set_api_key(value)
        if value == '':
            vscode.window.showInformationMessage('Hermes: the LLM API key was removed.')
        else:
            vscode.window.showInformationMessage('Hermes: the LLM API key is stored in VS Code\'s secret storage.')
        return True

    register_command(context, 'hermes.setApiKey', set_api_key)
