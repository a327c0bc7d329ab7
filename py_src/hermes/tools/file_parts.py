"""What the tools that read and write whole files share: what a model can do next when the window's files cannot
help. host/files.py states the fact (`ServiceProblem(kind, fact)`: '"a.txt" does not exist.'); the tools, which know
each other, name the tool that helps (core/service_problems.py)."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import Optional
from hermes.contracts.services import CallContext, Files, FileText, WriteOutcome
# __pragma__('noskip')
from hermes.core.service_problems import ServiceProblem, with_next_step

NEXT_STEP = {
    'not-found': 'Use file_list_directory or file_search to find the right path.',
    'folder': 'Use file_list_directory to see what it holds.',
    'too-large': 'Use file_search_content to find the part you need.',
    'exists': 'Use file_write to replace its content, or editor_edit_file to change part of it.',
    'unsaved': 'Use editor_edit_file to change the editor text, or ask the user to save or revert it first.',
}


async def read_file_text(files: 'Files', path: str) -> 'FileText':
    """files.read_text(path), its problems with the next step."""
    try:
        return await files.read_text(path)
    except ServiceProblem as problem:
        raise with_next_step(problem, NEXT_STEP)


async def write_file_text(files: 'Files', path: str, text: str, must_not_exist: bool = False,
                          call: 'Optional[CallContext]' = None) -> 'WriteOutcome':
    """files.write_text(path, text, must_not_exist, call), its problems with the next step."""
    try:
        return await files.write_text(path, text, must_not_exist, call)
    except ServiceProblem as problem:
        raise with_next_step(problem, NEXT_STEP)
