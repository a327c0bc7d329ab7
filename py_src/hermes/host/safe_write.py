"""Writing a file so that a crash (the extension host killed in the middle, the machine losing power) leaves the
old file or the new one, never half of one, and a failed write (a full disk, a read-only folder) leaves the old
file as it was. The conversation store writes through it; so should every store of what a user made.

How: the text goes to a temporary file beside the target (its name carries our pid), which is flushed to the
disk and then renamed over the target (a rename within one folder is atomic); the folder is flushed too, so the
rename itself survives a power cut. A temporary file a killed process left behind is removed by the next writer.
"""
# __pragma__('tconv')
from hermes.js.clock import now_ms
from hermes.js.errors import error_message, JsError
from hermes.js.modules import node
from hermes.js.process import current_pid
from hermes.net.discovery import process_alive
# __pragma__('skip')
from typing import Any, Callable, Optional
# __pragma__('noskip')

PRIVATE_MODE = 384  # 0o600: what a user writes with Hermes is theirs alone


def write_file_atomically(file_path: str, text: str) -> None:
    """Replace `file_path` with `text` (its folder is made when missing). Raises the JS error of a failed
    write (ENOSPC, EACCES, EROFS, …) after removing the temporary file: the old file is untouched."""
    fs = node('fs')
    path = node('path')
    folder = path.dirname(file_path)
    fs.mkdirSync(folder, {'recursive': True})
    # <target>.<our pid>-<random>.tmp: the pid tells the next writer whether we are gone (remove_leftover_temporaries)
    temporary = file_path + '.' + str(current_pid()) + '-' + node('crypto').randomUUID()[:8] + '.tmp'
    descriptor = None  # type: Optional[int]
    try:
        descriptor = fs.openSync(temporary, 'w', PRIVATE_MODE)
        fs.writeFileSync(descriptor, text, 'utf8')
        fs.fsyncSync(descriptor)
        fs.closeSync(descriptor)
        descriptor = None
        fs.renameSync(temporary, file_path)
    except JsError as error:
        if descriptor is not None:
            _quietly(lambda: fs.closeSync(descriptor))
        _quietly(lambda: fs.unlinkSync(temporary))
        raise error
    _flush_folder(folder)


def move_aside(file_path: str) -> str:
    """Rename a stored file that cannot be read to `<name>.corrupt-<time>.json` beside it (kept for the user, out
    of the way of a fresh start). Returns what happened, for the message that reports it."""
    name = file_path[:len(file_path) - len('.json')] if file_path.endswith('.json') else file_path
    aside = name + '.corrupt-' + str(now_ms()) + '.json'
    try:
        node('fs').renameSync(file_path, aside)
        return 'moved it to ' + aside
    except JsError as error:
        return 'could not move it aside (' + error_message(error) + ')'


def remove_leftover_temporaries(file_path: str) -> int:
    """Remove the temporary files of `file_path` whose writer is gone (killed in the middle of a write).
    Another live window's temporary file is left alone: it is about to be renamed."""
    fs = node('fs')
    path = node('path')
    folder = path.dirname(file_path)
    prefix = path.basename(file_path) + '.'
    try:
        entries = fs.readdirSync(folder, {'withFileTypes': True})
    except JsError:
        return 0
    removed = 0
    for entry in entries:
        name = entry['name']  # subscript: `.name` would be renamed by Transcrypt
        if not (name.startswith(prefix) and name.endswith('.tmp')):
            continue
        writer = name[len(prefix):len(name) - len('.tmp')].split('-')[0]
        pid = int(writer) if _digits(writer) else None  # transcrypt-ok[int-text]: at most 9 digits, checked
        if pid is None or not process_alive(pid):
            if _quietly(lambda: fs.unlinkSync(path.join(folder, name))):
                removed += 1
    return removed


def _digits(text: str) -> bool:
    return 0 < len(text) <= 9 and len([char for char in text if '0123456789'.find(char) < 0]) == 0


def _flush_folder(folder: str) -> None:
    """The rename is in the folder's own data: flush it too (not possible everywhere: then skipped)."""
    fs = node('fs')
    try:
        descriptor = fs.openSync(folder, 'r')
    except JsError:
        return
    _quietly(lambda: fs.fsyncSync(descriptor))
    _quietly(lambda: fs.closeSync(descriptor))


def _quietly(action: 'Callable[[], Any]') -> bool:
    try:
        action()
        return True
    except JsError:
        return False
