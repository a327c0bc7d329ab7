"""vscode.lm and vscode.chat: language-model messages and tools, chat participants and chat sessions."""
import asyncio

from vscode._events import CancellationError, CancellationTokenSource, Disposable, EventEmitter
from vscode._types import MarkdownString, _Undefined


class McpHttpServerDefinition:
    def __init__(self, label, uri, headers=None, version=None):
        self.label, self.uri, self.headers, self.version = label, uri, headers or {}, version


class LanguageModelTextPart(_Undefined):
    def __init__(self, value):
        self.value = value


class LanguageModelToolCallPart(_Undefined):
    def __init__(self, callId, name, input):
        self.callId, self.name, self.input = callId, name, input


class LanguageModelToolResultPart(_Undefined):
    def __init__(self, callId, content):
        self.callId, self.content = callId, content


class LanguageModelToolResult(_Undefined):
    def __init__(self, content):
        self.content = content


class LanguageModelDataPart(_Undefined):
    def __init__(self, data, mimeType):
        self.data, self.mimeType = data, mimeType


class LanguageModelChatMessageRole:
    User = 1
    Assistant = 2


class LanguageModelChatToolMode:
    Auto = 1
    Required = 2


class LanguageModelChatMessage(_Undefined):
    def __init__(self, role, content, name=None):
        self.role = role
        self.content = [LanguageModelTextPart(content)] if isinstance(content, str) else list(content)
        self.name = name

    @staticmethod
    def User(content, name=None):
        return LanguageModelChatMessage(1, content, name)

    @staticmethod
    def Assistant(content, name=None):
        return LanguageModelChatMessage(2, content, name)


class ChatResponseMarkdownPart(_Undefined):
    def __init__(self, value):
        self.value = MarkdownString(value) if isinstance(value, str) else value


class ChatResponseProgressPart(_Undefined):
    def __init__(self, value):
        self.value = value


class ChatRequestTurn(_Undefined):
    def __init__(self, prompt, command=None, references=None, participant='hermes.agent', tool_references=None,
                 *rest):
        self.prompt, self.command, self.references, self.participant = prompt, command, references or [], participant
        self.toolReferences = tool_references or []


class ChatResponseTurn(_Undefined):
    def __init__(self, response, result=None, participant='hermes.agent', command=None):
        self.response, self.result, self.participant, self.command = response, result or {}, participant, command


ChatRequestTurn2 = ChatRequestTurn  # VS Code exports one class under both names


ChatResponseTurn2 = ChatResponseTurn


class ChatResponseReferencePart(_Undefined):
    def __init__(self, value, icon=None):
        self.value = value


class ChatResponseCommandButtonPart(_Undefined):
    def __init__(self, value):
        self.value = value


class ChatSessionChangedFile(_Undefined):
    """VS Code 1.139's constructor (its extension host: `constructor(uri, originalUri, modifiedUri, insertions,
    deletions)`; the workbench lists an item's file only when `uri` is a Uri and both counts are numbers)."""

    def __init__(self, uri, original_uri, modified_uri, insertions, deletions):
        self.uri, self.originalUri, self.modifiedUri = uri, original_uri, modified_uri
        self.insertions, self.deletions = insertions, deletions


class ChatToolInvocationPart(_Undefined):
    """chatParticipantAdditions: a tool invocation a participant shows (with partial updates)."""

    def __init__(self, tool_name, tool_call_id, error_message=None):
        self.toolName, self.toolCallId, self.errorMessage = tool_name, tool_call_id, error_message

    def snapshot(self):
        return {key: (value.value if isinstance(value, MarkdownString) else
                      dict(vars(value), kind='subagent') if isinstance(value, ChatSubagentToolInvocationData) else value)
                for key, value in vars(self).items()}


class ChatSubagentToolInvocationData(_Undefined):
    """chatParticipantAdditions (VS Code 1.139): a tool invocation shown as a subagent; the invocations that name
    its toolCallId as their subAgentInvocationId are grouped under it."""

    def __init__(self, description=None, agent_name=None, prompt=None, result=None):
        self.description, self.agentName, self.prompt, self.result = description, agent_name, prompt, result


class ChatQuestionType:
    """chatParticipantAdditions (VS Code 1.139)."""
    Text, SingleSelect, MultiSelect = 1, 2, 3


class ChatQuestion(_Undefined):
    """chatParticipantAdditions: one question of a question carousel (VS Code 1.139's constructor)."""

    def __init__(self, question_id, question_type, title, options=None):
        options = options or {}
        self.id, self.type, self.title = question_id, question_type, title
        self.message = options.get('message')
        self.options = options.get('options')
        self.defaultValue = options.get('defaultValue')
        self.allowFreeformInput = options.get('allowFreeformInput')

    def snapshot(self):
        return {'id': self.id, 'type': self.type, 'title': self.title,
                'message': self.message.value if isinstance(self.message, MarkdownString) else self.message,
                'options': self.options, 'defaultValue': self.defaultValue, 'allowFreeformInput': self.allowFreeformInput}


class ChatSessionStatus:
    Failed, Completed, InProgress, NeedsInput = 0, 1, 2, 3


class ChatResponseStream:
    """What a participant writes to: every call recorded in `parts` as (kind, value)."""

    def __init__(self):
        self.parts = []
        # What the user answers each questionCarousel with, in order: an answers object ({question id: {selectedValue,
        # freeformValue}}), None (skipped), or an awaitable (the answer comes later; never set: never answered).
        self.carousel_answers = []

    async def questionCarousel(self, questions, allow_skip=True):
        """chatParticipantAdditions: questions in the chat; resolves with the user's answers (None: skipped)."""
        self.parts.append(('question', {'questions': [question.snapshot() for question in questions],
                                        'allowSkip': allow_skip}))
        if not self.carousel_answers:
            return None
        answer = self.carousel_answers.pop(0)
        if hasattr(answer, '__await__'):
            return await answer
        return answer

    def markdown(self, value):
        self.parts.append(('markdown', value.value if isinstance(value, MarkdownString) else value))

    def progress(self, value):
        self.parts.append(('progress', value))

    def reference(self, value, icon=None):
        self.parts.append(('reference', value))

    def anchor(self, value, title=None):
        self.parts.append(('anchor', value))

    def push(self, part):
        """chatParticipantAdditions: a part object (a ChatToolInvocationPart), recorded as it is now."""
        self.parts.append(('push', part.snapshot() if hasattr(part, 'snapshot') else part))

    def button(self, command):
        self.parts.append(('button', command))

    def thinkingProgress(self, value):
        self.parts.append(('thinking', value))

    def text(self):
        return ''.join(value for kind, value in self.parts if kind == 'markdown')

    def of(self, kind):
        return [value for part_kind, value in self.parts if part_kind == kind]


class ChatParticipant(_Undefined):
    def __init__(self, participant_id, handler, registry):
        self.id, self.requestHandler = participant_id, handler
        self.iconPath = self.followupProvider = None
        self._registry = registry

    def dispose(self):
        self._registry.pop(self.id, None)


class ChatSessionItem(_Undefined):
    def __init__(self, resource, label, on_change):
        self.resource, self.label = resource, label
        self.description = self.status = self.tooltip = self.timing = self.changes = self.iconPath = None
        self.archived = None


class ChatSessionItemCollection:
    def __init__(self):
        self.by_resource = {}

    @property
    def size(self):
        return len(self.by_resource)

    def replace(self, items):
        self.by_resource = {item.resource.toString(): item for item in items}

    js_replace = replace  # the name Transcrypt code uses

    def add(self, item):
        self.by_resource[item.resource.toString()] = item

    def delete(self, resource):
        self.by_resource.pop(resource.toString(), None)

    def get(self, resource):
        return self.by_resource.get(resource.toString())

    def forEach(self, callback):
        for item in list(self.by_resource.values()):
            callback(item, self)

    def all(self):
        return list(self.by_resource.values())


class ChatSessionItemController(_Undefined):
    """The chatSessionsProvider proposal's controller (version 3)."""

    def __init__(self, session_type, refresh_handler, registry):
        self.id, self.refreshHandler, self._registry = session_type, refresh_handler, registry
        self.items = ChatSessionItemCollection()
        self.newChatSessionItemHandler = None
        self._state = EventEmitter()
        self.onDidChangeChatSessionItemState = self._state.event

    def createChatSessionItem(self, resource, label):
        return ChatSessionItem(resource, label, None)

    def set_archived(self, item, archived):
        """What the Agent Sessions view does when the user archives an item."""
        item.archived = archived
        self._state.fire(item)

    def dispose(self):
        self._registry.pop(self.id, None)


class _Chat:
    """vscode.chat. The chatSessionsProvider proposal is off (its functions throw, as in VS Code stable)
    until a test calls `enable_chat_sessions()`."""

    def __init__(self):
        self.participants = {}
        self.session_controllers = {}
        self.session_content_providers = {}
        self.sessions_enabled = False

    def enable_chat_sessions(self):
        self.sessions_enabled = True

    def _check_proposal(self):
        if not self.sessions_enabled:
            raise RuntimeError("Extension 'hermes-agent.hermes-agent' CANNOT use API proposal: chatSessionsProvider.")

    def createChatSessionItemController(self, session_type, refresh_handler):
        self._check_proposal()
        controller = ChatSessionItemController(session_type, refresh_handler, self.session_controllers)
        self.session_controllers[session_type] = controller
        return controller

    def registerChatSessionContentProvider(self, scheme, provider, participant, capabilities=None):
        self._check_proposal()
        self.session_content_providers[scheme] = (provider, participant)
        return Disposable(lambda: self.session_content_providers.pop(scheme, None))

    def createChatParticipant(self, participant_id, handler):
        if participant_id in self.participants:
            raise ValueError(f'participant {participant_id} already exists')
        participant = ChatParticipant(participant_id, handler, self.participants)
        self.participants[participant_id] = participant
        return participant


class _Lm:
    """vscode.lm's tool and chat-provider API, as VS Code behaves: invokeTool calls prepareInvocation,
    has the user confirm when it returns confirmationMessages (answers from `confirm_answers`, default
    yes; a no raises CancellationError), then invoke. Tests may set `declared_tools` (package.json's)."""

    def __init__(self):
        self.mcp_providers = {}
        self.registered_tools = {}
        self.chat_providers = {}
        self.confirm_answers = []
        self.confirmations = []

    def registerMcpServerDefinitionProvider(self, provider_id, provider):
        self.mcp_providers[provider_id] = provider
        return Disposable(lambda: self.mcp_providers.pop(provider_id, None))

    def registerTool(self, name, implementation):
        if name in self.registered_tools:
            raise ValueError(f'tool {name} is already registered')
        declared = getattr(self, 'declared_tools', None)
        if declared is not None and name not in declared:
            raise ValueError(f'Tool "{name}" was not contributed.')
        self.registered_tools[name] = implementation
        return Disposable(lambda: self.registered_tools.pop(name, None))

    async def invokeTool(self, name, options, token=None):
        implementation = self.registered_tools[name]
        prepared = implementation['prepareInvocation'](options, token)
        if asyncio.iscoroutine(prepared) or isinstance(prepared, asyncio.Future):
            prepared = await prepared
        messages = (prepared or {}).get('confirmationMessages')
        if messages:
            self.confirmations.append(messages)
            if not (self.confirm_answers.pop(0) if self.confirm_answers else True):
                raise CancellationError('declined')
        return await implementation['invoke'](options, token or CancellationTokenSource().token)

    def registerLanguageModelChatProvider(self, vendor, provider):
        self.chat_providers[vendor] = provider
        return Disposable(lambda: self.chat_providers.pop(vendor, None))
