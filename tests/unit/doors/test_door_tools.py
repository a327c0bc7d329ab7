"""The Claude Code door's openFile (host/doors/tools.py) against the vscode shim: what `show_document` hands back is
the editor, so the answer's facts come from its document, and the selection between `startText` and `endText` is
made in that editor (both were read off the editor as if it were the document: found by the type checker)."""
import asyncio
import json

import vscode
from hermes.host.doors.tools import DoorTools


def open_file(tmp_path, **args):
    root = tmp_path / 'project'
    root.mkdir()
    target = root / 'notes.py'
    target.write_text('one\ntwo\nthree\n')
    vscode.workspace.open_folders([str(root)])
    arguments = {'filePath': str(target), 'preview': False, 'selectToEndOfLine': False, 'makeFrontmost': True}
    arguments.update(args)
    return asyncio.run(DoorTools(None, None, None).open_file(arguments, None)), str(target)


def test_open_file_in_the_background_answers_the_documents_language_and_line_count(tmp_path):
    answer, target = open_file(tmp_path, makeFrontmost=False)
    found = json.loads(answer['content'][0]['text'])
    document = vscode.window.activeTextEditor.document
    assert found == {'success': True, 'filePath': target, 'languageId': document.languageId,
                     'lineCount': document.lineCount}
    assert found['lineCount'] == 4


def test_open_file_selects_from_the_start_text_to_the_end_text(tmp_path):
    answer, target = open_file(tmp_path, startText='two', endText='thr')
    assert answer == 'Opened file: ' + target
    selection = vscode.window.activeTextEditor.selection
    assert (selection.start.line, selection.start.character, selection.end.line, selection.end.character) == \
        (1, 0, 2, 3)


def test_open_file_selects_to_the_end_of_the_line(tmp_path):
    open_file(tmp_path, startText='tw', selectToEndOfLine=True)
    selection = vscode.window.activeTextEditor.selection
    assert (selection.start.line, selection.start.character, selection.end.line, selection.end.character) == \
        (1, 0, 1, 3)
