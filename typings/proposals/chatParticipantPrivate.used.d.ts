// Written by hand for scripts/vscode_stub.py (USED_DECLARATIONS): the two classes of the chatParticipantPrivate
// proposal that ui/chat/sessions.py uses, as the extension host of VS Code 1.139 (code-server 4.139.1, the e2e
// layer) constructs them. The extension does not enable this proposal: the API object hands these classes to every
// extension (proposals are checked on functions, not on classes), and ChatRequestTurn2 is ChatRequestTurn at run
// time. Only what the extension uses is declared; the proposal's other names stay unknown to the type checker.

declare module 'vscode' {

	export class ChatRequestTurn2 {
		readonly prompt: string;
		readonly command?: string;
		readonly references: ChatPromptReference[];
		readonly participant: string;
		readonly toolReferences: readonly ChatLanguageModelToolReference[];
		readonly id?: string;
		readonly modelId?: string;

		constructor(prompt: string, command: string | undefined, references: ChatPromptReference[], participant: string,
			toolReferences: ChatLanguageModelToolReference[], editedFileEvents?: undefined, id?: string, modelId?: string,
			modeInstructions2?: undefined);
	}

	export class ChatResponseTurn2 {
		readonly response: ReadonlyArray<ChatResponsePart>;
		readonly result: ChatResult;
		readonly participant: string;
		readonly command?: string;

		constructor(response: ReadonlyArray<ChatResponsePart>, result: ChatResult, participant: string, command?: string);
	}
}
