// Written by hand for scripts/vscode_stub.py (USED_DECLARATIONS): the part of the chatSessionsProvider proposal
// (version 3) that ui/chat/sessions.py uses, as the extension host of VS Code 1.139 (code-server 4.139.1, the e2e
// layer) has it. Used while typings/proposals/ has no vscode.proposed.chatSessionsProvider.d.ts; names of the
// proposal not declared here stay Any (PROPOSED_FALLBACK).

declare module 'vscode' {

	export enum ChatSessionStatus {
		Failed = 0,
		Completed = 1,
		InProgress = 2,
		NeedsInput = 3
	}

	export namespace chat {
		export function createChatSessionItemController(chatSessionType: string,
			refreshHandler: (token: CancellationToken) => Thenable<void>): ChatSessionItemController;

		export function registerChatSessionContentProvider(scheme: string, provider: ChatSessionContentProvider,
			chatParticipant: ChatParticipant, capabilities?: ChatSessionCapabilities): Disposable;
	}

	export interface ChatSessionItemController {
		readonly id: string;
		readonly items: ChatSessionItemCollection;
		createChatSessionItem(resource: Uri, label: string): ChatSessionItem;
		readonly refreshHandler: (token: CancellationToken) => Thenable<void>;
		newChatSessionItemHandler?: (context: ChatSessionItemControllerNewItemContext, token: CancellationToken) => Thenable<ChatSessionItem>;
		readonly onDidChangeChatSessionItemState: Event<ChatSessionItem>;
		dispose(): void;
	}

	export interface ChatSessionItemControllerNewItemContext {
		readonly request: ChatRequest;
	}

	export interface ChatSessionItemCollection {
		readonly size: number;
		replace(items: readonly ChatSessionItem[]): void;
		add(item: ChatSessionItem): void;
		delete(resource: Uri): void;
		get(resource: Uri): ChatSessionItem | undefined;
	}

	export interface ChatSessionItem {
		readonly resource: Uri;
		label: string;
		iconPath?: IconPath;
		description?: string | MarkdownString;
		badge?: string | MarkdownString;
		status?: ChatSessionStatus;
		tooltip?: string | MarkdownString;
		archived?: boolean;
		timing?: ChatSessionTiming;
		changes?: readonly ChatSessionChangedFile[];
		metadata?: { readonly [key: string]: any };
	}

	export interface ChatSessionTiming {
		readonly created: number;
		readonly lastRequestStarted?: number;
		readonly lastRequestEnded?: number;
	}

	// 1.139's extension host: the workbench lists a file only when `uri` is a Uri and both counts are numbers.
	export class ChatSessionChangedFile {
		readonly uri: Uri;
		readonly originalUri: Uri | undefined;
		readonly modifiedUri: Uri | undefined;
		insertions: number;
		deletions: number;

		constructor(uri: Uri, originalUri: Uri | undefined, modifiedUri: Uri | undefined, insertions: number,
			deletions: number);
	}

	export interface ChatSession {
		readonly history: ReadonlyArray<ChatRequestTurn | ChatRequestTurn2 | ChatResponseTurn | ChatResponseTurn2>;
		readonly options?: Record<string, string>;
		readonly requestHandler: ChatRequestHandler | undefined;
		readonly title?: string;
	}

	// Its members as properties (an object of functions, which is what the extension hands over): the stub then also
	// has ChatSessionContentProviderDict, and the extension's dict literal is checked key by key.
	export interface ChatSessionContentProvider {
		readonly provideChatSessionContent: (resource: Uri, token: CancellationToken) => Thenable<ChatSession> | ChatSession;
		readonly provideChatSessionProviderOptions?: (token: CancellationToken) => Thenable<ChatSessionProviderOptions>;
		readonly provideHandleOptionsChange?: (resource: Uri, updates: ReadonlyArray<ChatSessionOptionUpdate>,
			token: CancellationToken) => void;
		readonly onDidChangeChatSessionProviderOptions?: Event<void>;
		readonly onDidChangeChatSessionOptions?: Event<ChatSessionOptionChangeEvent>;
	}

	export interface ChatSessionProviderOptions {
		readonly optionGroups?: readonly ChatSessionProviderOptionGroup[];
	}

	export interface ChatSessionProviderOptionGroup {
		readonly id: string;
		readonly name: string;
		readonly description?: string;
		readonly items: readonly ChatSessionProviderOptionItem[];
	}

	export interface ChatSessionProviderOptionItem {
		readonly id: string;
		readonly name: string;
		readonly description?: string;
	}

	export interface ChatSessionOptionUpdate {
		readonly optionId: string;
		readonly value: string | undefined;
	}

	export interface ChatSessionOptionChangeEvent {
		readonly resource: Uri;
		readonly updates: ReadonlyArray<ChatSessionOptionUpdate>;
	}

	export interface ChatSessionCapabilities {
		supportsInterruptions?: boolean;
	}

	export interface ChatContext {
		readonly chatSessionContext?: ChatSessionContext;
	}

	export interface ChatSessionContext {
		readonly chatSessionItem: ChatSessionItem;
		readonly isUntitled: boolean;
	}
}
