"""The Gemini API as Gemini CLI calls it (`GOOGLE_GEMINI_BASE_URL`): the conversation on
`POST /v1beta/models/<model>:streamGenerateContent?alt=sse` (SSE of GenerateContentResponse: `functionCall` parts,
then text), and the CLI's own JSON questions (its model router's complexity score, its next-speaker check) on
`:generateContent` with a response schema, answered from that schema without taking a step of the script."""
import json

from llm_server.agent_script import Say, ScriptedAgentServer, tool_uses

USAGE = {'promptTokenCount': 120, 'candidatesTokenCount': 12, 'totalTokenCount': 132}
# Values for the fields of the CLI's JSON questions; anything else gets a plain value of its type.
KNOWN_FIELDS = {'complexity_score': 1, 'next_speaker': 'user', 'reasoning': 'scripted'}


def _model(path):
    return path.split('/models/', 1)[-1].split(':', 1)[0]


def filled(schema, name=None):
    """A value for a JSON or OpenAPI schema (Gemini's `responseJsonSchema` / `responseSchema`)."""
    if name in KNOWN_FIELDS:
        return KNOWN_FIELDS[name]
    schema = schema or {}
    if schema.get('enum'):
        return schema['enum'][0]
    kind = str(schema.get('type', 'object')).lower()
    if kind == 'object':
        return {key: filled(value, key) for key, value in (schema.get('properties') or {}).items()}
    if kind == 'array':
        return []
    if kind in ('integer', 'number'):
        return 1
    if kind == 'boolean':
        return False
    return 'scripted'


def _response(parts, model):
    return {'candidates': [{'content': {'role': 'model', 'parts': parts}, 'finishReason': 'STOP', 'index': 0}],
            'usageMetadata': USAGE, 'modelVersion': model, 'responseId': 'scripted'}


class GeminiServer(ScriptedAgentServer):
    def answer(self, handler, request):
        path, body = request['path'], request['body'] or {}
        model = _model(path)
        if ':countTokens' in path:
            handler.send_json({'totalTokens': 120})
            return
        config = body.get('generationConfig') or {}
        schema = config.get('responseJsonSchema') or config.get('responseSchema')
        if ':generateContent' in path or ':streamGenerateContent' in path:
            if schema is not None or config.get('responseMimeType') == 'application/json':
                reply = _response([{'text': json.dumps(filled(schema))}], model)
            else:
                reply = _response(self._parts(self.next_step(request)), model)
            if ':streamGenerateContent' in path:
                handler.send_sse([(None, reply)])
            else:
                handler.send_json(reply)
            return
        handler.send_json({'error': {'code': 404, 'message': 'no route ' + path, 'status': 'NOT_FOUND'}}, 404)

    @staticmethod
    def _parts(step):
        if isinstance(step, Say):
            return [{'text': step.text}]
        return [{'functionCall': {'name': use.name, 'args': use.arguments}} for use in tool_uses(step)]

    def tool_results(self):
        """The functionResponse parts of the conversation as its last request carried it: {'name', 'response'}."""
        contents = self.turns[-1].get('contents', []) if self.turns else []
        return [part['functionResponse'] for content in contents for part in content.get('parts', [])
                if 'functionResponse' in part]
